//! A whole real game relayed through the console (E2.9a, E2.10): both
//! sides entered by the assistant over `POST /api/input`, the pegged board
//! made to follow by the blind player's hands; the scoresheet must be the
//! game exactly, as python-chess reads it.

mod common;

#[path = "support/scoresheet.rs"]
mod scoresheet;

use std::io::{BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use pegboard::record::pgn::read_games;
use pegboard::sim::playable_moves;
use serde_json::Value;
use shakmaty::{Position, san::SanPlus};

const PIN: &str = "relay-1979";
/// The first relay, and the time between moves (ms).
const FIRST: u64 = 2500;
const EVERY: u64 = 1500;
/// The blind player makes each relayed move on his board this long after.
const FOLLOWS: u64 = 500;

fn post(addr: SocketAddr, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connects");
    let raw = format!(
        "POST /api/input HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAuthorization: Bearer {PIN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(raw.as_bytes()).expect("sent");
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let code = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (
        code,
        text.split_once("\r\n\r\n")
            .map_or(String::new(), |(_, b)| b.to_string()),
    )
}

#[test]
fn a_real_game_relayed_through_the_console_is_its_scoresheet_exactly() {
    let path = format!(
        "{}/tests/games/molinari-bordais-1979.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = read_games(&std::fs::read(path).expect("game")).expect("PGN");
    let (start, _, moves, _) = playable_moves(&games[0].record).expect("playable");
    let mut pos = start.clone();
    let sans: Vec<String> = moves
        .iter()
        .map(|&m| SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string())
        .collect();
    assert!(pos.is_checkmate(), "Molinari – Bordais ends in mate");

    let dir = std::env::temp_dir().join(format!("pegboard-console-game-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    // The pegged board: each move made by hand FOLLOWS ms after its relay.
    let mut trace = String::from("{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n");
    for (i, m) in moves.iter().enumerate() {
        let at = FIRST + i as u64 * EVERY + FOLLOWS;
        let from = m.from().expect("a board move");
        trace.push_str(&format!("{{\"t\":{at},\"lift\":\"{from}\"}}\n"));
        trace.push_str(&format!(
            "{{\"t\":{},\"place\":\"{}\"}}\n",
            at + 300,
            m.to()
        ));
    }
    let trace_file = dir.join("hands.jsonl");
    std::fs::write(&trace_file, trace).expect("trace");
    let journal = dir.join("games");
    let config = dir.join("c.toml");
    std::fs::write(
        &config,
        format!(
            "[game]\nwhite_moves_on = \"relay\"\nblack_moves_on = \"relay\"\nwhite = \"Molinari\"\nblack = \"Bordais\"\n\
             [mirror]\nlisten = \"127.0.0.1:0\"\n[console]\npin = \"{PIN}\"\n[journal]\ndir = \"{}\"\n\
             [sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
            journal.display(),
            trace_file.display()
        ),
    )
    .expect("config");
    let seconds = (FIRST + moves.len() as u64 * EVERY + 2000) / 1000;
    let child = common::pegboard_command()
        .args([
            "play",
            "--silent",
            "--events",
            "--seconds",
            &seconds.to_string(),
            "--config",
        ])
        .arg(&config)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("play starts");
    let mut child = common::Reaped(child);
    let mut out = BufReader::new(child.0.stdout.take().expect("stdout"));
    let addr = common::mirror_of(&mut out, &mut String::new());
    // The board's trace began with play's first scan, just before that line.
    let began = Instant::now();
    let printed = std::thread::spawn(move || {
        let mut all = String::new();
        let _ = out.read_to_string(&mut all);
        all
    });
    for (i, san) in sans.iter().enumerate() {
        let due = Duration::from_millis(FIRST + i as u64 * EVERY);
        if let Some(wait) = due.checked_sub(began.elapsed()) {
            std::thread::sleep(wait);
        }
        let (code, body) = post(addr, &format!(r#"{{"input":"move","san":"{san}"}}"#));
        assert_eq!(code, 200, "{san}: {body}");
    }
    assert!(child.0.wait().expect("ends").success());
    let events: Vec<Value> = printed
        .join()
        .expect("output")
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    // The pegged board followed every move, never wrongly.
    let replicated = common::of(&events, "replicated");
    assert_eq!(replicated.len(), moves.len(), "{events:?}");
    assert!(common::of(&events, "diverged").is_empty());
    let pgn = common::pegboard_command()
        .args(["pgn", "--config"])
        .arg(&config)
        .output()
        .expect("pgn");
    let pgn = String::from_utf8_lossy(&pgn.stdout).into_owned();
    let read = scoresheet::with_python_chess(&pgn);
    assert_eq!(read.len(), 1, "{pgn}");
    let (game, chess960) = &read[0];
    assert!(!chess960, "a standard game: {pgn}");
    assert_eq!(game.sans, sans, "{pgn}");
    assert_eq!(game.result, "0-1");
    assert_eq!(game.tag("White"), Some("Molinari"));
    let _ = std::fs::remove_dir_all(&dir);
}
