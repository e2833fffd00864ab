//! Whole online games through `pegboard play` against the test lichess:
//! the blind player's board is a simulated serial scanner (a socat pty),
//! simulated hands make his moves (a real game's) and repeat the
//! opponent's, which come from the server's script. Checked: every move
//! sent once and announced, every opponent's move replicated, the server's
//! game and the PGN (read by python-chess) the real game, pegboard's clocks
//! the server's, every request as lichess's OpenAPI description has it,
//! and the token nowhere but in its file.

mod common;

#[path = "support/lichess.rs"]
mod lichess;
#[path = "support/scanner.rs"]
mod scanner;

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use pegboard::record::pgn::read_games;
use pegboard::sim::{Hands, Style};
use pegboard::trace::Reading;
use scanner::{Cable, Device};
use serde_json::Value;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, Move, Position};

const TOKEN: &str = "lip_PlayToken0123456789abc";

/// The Opera Game (Morphy against the Duke and the Count, 1858): the
/// blind player is Morphy.
fn opera() -> Vec<Move> {
    let path = format!(
        "{}/tests/games/../../src/runtime/demo_game.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = read_games(&std::fs::read(path).expect("the game")).expect("read");
    pegboard::sim::moves_of(&games[0].record).expect("moves").2
}

/// The scanner's end of the cable: streams the board's occupancy as a
/// scanner does (a frame every 20 ms) until told to stop.
struct Scanner {
    occ: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    _cable: Cable,
}

impl Scanner {
    fn start(dir: &std::path::Path, start: Bitboard) -> Scanner {
        let cable = Cable::plug(dir);
        let occ = Arc::new(AtomicU64::new(start.0));
        let stop = Arc::new(AtomicBool::new(false));
        let (o, s, d) = (occ.clone(), stop.clone(), dir.to_path_buf());
        std::thread::spawn(move || {
            let mut device = Device::open(&d);
            let mut seq: u16 = 0;
            while !s.load(Ordering::Relaxed) {
                device.answer_any_hello();
                device.try_send(&pegboard::sensors::serial::protocol::Message::Scan {
                    seq,
                    occ: o.load(Ordering::Relaxed),
                    buttons: 0,
                });
                seq = seq.wrapping_add(1);
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        Scanner {
            occ,
            stop,
            _cable: cable,
        }
    }

    /// Plays the hands' scans in real time.
    fn play(&self, hands: &mut Hands, from: usize) -> usize {
        let entries = hands.entries();
        let t0 = entries.get(from).map_or(0, |e| e.t);
        let began = Instant::now();
        for e in &entries[from..] {
            let due = Duration::from_millis(e.t - t0);
            if let Some(wait) = due.checked_sub(began.elapsed()) {
                std::thread::sleep(wait);
            }
            if let Reading::Scan { occ, .. } = &e.reading {
                self.occ.store(occ.0, Ordering::Relaxed);
            }
        }
        entries.len()
    }
}

impl Drop for Scanner {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// `play`'s events as they come, from a thread reading its output.
fn events_of(
    out: std::process::ChildStdout,
) -> (
    crossbeam_channel::Receiver<Value>,
    Arc<std::sync::Mutex<String>>,
) {
    let (tx, rx) = crossbeam_channel::unbounded();
    let printed = Arc::new(std::sync::Mutex::new(String::new()));
    let all = printed.clone();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            if let Ok(mut p) = all.lock() {
                p.push_str(&line);
                p.push('\n');
            }
            if let Ok(v) = serde_json::from_str::<Value>(&line) {
                let _ = tx.send(v);
            }
        }
    });
    (rx, printed)
}

/// Waits for the event `name` for which `ok` holds; every event seen on
/// the way is kept in `seen`.
fn wait_for(
    events: &crossbeam_channel::Receiver<Value>,
    seen: &mut Vec<Value>,
    name: &str,
    ok: impl Fn(&Value) -> bool,
    printed: &std::sync::Mutex<String>,
) -> Value {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match events.recv_timeout(left) {
            Ok(v) => {
                seen.push(v.clone());
                if v["event"] == name && ok(&v) {
                    return v;
                }
            }
            Err(_) => panic!(
                "no {name} event came:\n{}",
                printed.lock().map(|p| p.clone()).unwrap_or_default()
            ),
        }
    }
}

#[test]
fn a_whole_online_game_the_blind_players_moves_posted_the_opponents_replicated() {
    let dir = common::empty_dir("lichess-play");
    let moves = opera();
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(500));
    server.state().script = moves
        .iter()
        .skip(1)
        .step_by(2)
        .map(|m| {
            (
                m.to_uci(CastlingMode::Standard).to_string(),
                Duration::from_millis(150),
            )
        })
        .collect();
    let scanner = Scanner::start(&dir, Chess::default().board().occupied());
    let games = dir.join("games");
    let config = dir.join("play.toml");
    std::fs::write(
        &config,
        format!(
            "[game]\nwhite_moves_on = \"blind\"\nblack_moves_on = \"lichess\"\n\
             [lichess]\nserver = \"{}\"\n[journal]\ndir = \"{}\"\n\
             [sensors]\nsource = \"serial\"\n[sensors.serial]\nport = \"{}\"\n",
            server.url(),
            games.display(),
            dir.join("host").display()
        ),
    )
    .expect("config");
    // The token, kept as the README says.
    let mut keep = common::pegboard_command()
        .args(["lichess-token", "--config"])
        .arg(&config)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("lichess-token runs");
    std::io::Write::write_all(
        keep.stdin.as_mut().expect("stdin"),
        format!("{TOKEN}\n").as_bytes(),
    )
    .expect("the token typed");
    assert!(keep.wait().expect("it ends").success());

    let mut child = common::pegboard_command()
        .args([
            "play",
            "--silent",
            "--events",
            "--seconds",
            "120",
            "--config",
        ])
        .arg(&config)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("play starts");
    let (events, printed) = events_of(child.stdout.take().expect("stdout"));
    let mut child = common::Reaped(child);
    let mut seen = Vec::new();
    let started = wait_for(&events, &mut seen, "online_game", |_| true, &printed);
    assert_eq!(started["game"]["color"], "white");
    assert_eq!(started["game"]["black"]["name"], "Bert");
    assert_eq!(started["game"]["black"]["rating"], 1702);
    assert!(started["say"].as_str().is_some_and(|s| s.contains("Bert")));

    let style = Style {
        think: (100, 300),
        hand: (120, 300),
        scan_period: 20,
        ..Style::default()
    };
    let mut hands = Hands::new(3, style, Chess::default().board().occupied());
    let mut played = 0;
    let mut pos = Chess::default();
    for (i, &m) in moves.iter().enumerate() {
        let ply = i as u64 + 1;
        let is_ply = |v: &Value| v["ply"] == ply;
        if pos.turn() == Color::White {
            hands.play(&pos, m, CastlingMode::Standard);
            played = scanner.play(&mut hands, played);
            wait_for(&events, &mut seen, "move", is_ply, &printed);
        } else {
            // The opponent's move is announced; the hands repeat it.
            wait_for(&events, &mut seen, "move", is_ply, &printed);
            hands.replicate(&pos, m, CastlingMode::Standard);
            played = scanner.play(&mut hands, played);
            wait_for(&events, &mut seen, "replicated", |_| true, &printed);
        }
        pos.play_unchecked(m);
    }
    let over = wait_for(&events, &mut seen, "game_over", |_| true, &printed);
    assert_eq!(over["result"], "1-0");
    // The server's last state reaches pegboard (a clock set), then it stops.
    std::thread::sleep(Duration::from_millis(800));
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.0.id().to_string()])
        .status();
    let _ = child.0.wait();
    drop(scanner);
    while let Ok(v) = events.recv_timeout(Duration::from_millis(200)) {
        seen.push(v);
    }
    let printed = printed.lock().map(|p| p.clone()).unwrap_or_default();

    // The server's game is the real game; each of the blind player's moves
    // was sent once.
    let st = server.state();
    let game = st.games.values().next().expect("a game on the server");
    let ucis: Vec<String> = moves
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    assert_eq!(game.moves, ucis, "{printed}");
    assert_eq!(game.status, "mate");
    let posted: Vec<&String> = st
        .requests
        .iter()
        .filter(|r| r.contains("/move/"))
        .collect();
    assert_eq!(
        posted.len(),
        ucis.len().div_ceil(2),
        "each sent once: {posted:?}"
    );
    // Every move announced; every one of the opponent's replicated.
    let announced = seen.iter().filter(|v| v["event"] == "announced").count();
    assert_eq!(announced, ucis.len(), "{printed}");
    let replicated = seen.iter().filter(|v| v["event"] == "replicated").count();
    assert_eq!(replicated, ucis.len() / 2, "{printed}");
    // pegboard's clock is the server's: each `set` the server's reading.
    let sets: Vec<&Value> = seen
        .iter()
        .filter(|v| v["event"] == "clock" && v["cause"] == "set")
        .collect();
    assert!(sets.len() >= ucis.len() / 2, "{printed}");
    // Each reading set is one the server sent, to the millisecond.
    let states: Vec<(u64, u64)> = st
        .sent
        .iter()
        .filter_map(|(_, json)| serde_json::from_str::<Value>(json).ok())
        .map(|v| {
            if v["type"] == "gameFull" {
                v["state"].clone()
            } else {
                v
            }
        })
        .filter(|v| v["type"] == "gameState")
        .filter_map(|v| Some((v["wtime"].as_u64()?, v["btime"].as_u64()?)))
        .collect();
    for set in &sets {
        let (w, b) = (
            set["white"]["remaining_ms"].as_u64().unwrap_or(0),
            set["black"]["remaining_ms"].as_u64().unwrap_or(0),
        );
        assert!(states.contains(&(w, b)), "{w}/{b} not among {states:?}");
    }
    // Every request as lichess describes it.
    drop(st);
    assert_eq!(server.openapi_problems(), Vec::<String>::new());

    // The PGN, as python-chess reads it: the game, its site and players.
    let pgn = std::fs::read_dir(&games)
        .expect("the games")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "pgn"))
        .expect("a PGN");
    let text = std::fs::read_to_string(&pgn).expect("read");
    assert!(text.contains("[Site \"http://127.0.0.1"), "{text}");
    assert!(
        text.contains("[Black \"Bert\"]") && text.contains("[BlackElo \"1702\"]"),
        "{text}"
    );
    assert!(text.contains("[TimeControl \"900+10\"]"), "{text}");
    let read = std::process::Command::new("python3")
        .args([
            "-c",
            "import chess.pgn,sys; g=chess.pgn.read_game(open(sys.argv[1])); \
             print(' '.join(m.uci() for m in g.mainline_moves())); print(g.headers['Result'])",
        ])
        .arg(&pgn)
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&read.stdout);
    assert_eq!(said.trim(), format!("{}\n1-0", ucis.join(" ")), "{text}");

    // The token is in its file only, 0600.
    let token_file = games.join(pegboard::lichess::token::TOKEN_FILE);
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(&token_file).expect("kept").permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);
    assert!(!printed.contains(TOKEN));
    for entry in std::fs::read_dir(&games)
        .expect("games")
        .filter_map(Result::ok)
    {
        if entry.path() != token_file {
            let text = std::fs::read(entry.path()).unwrap_or_default();
            assert!(
                !String::from_utf8_lossy(&text).contains(TOKEN),
                "{}",
                entry.path().display()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
