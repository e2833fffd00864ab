//! The console: `cargo bench --bench console`.
//!
//! - `POST /api/input` of a move → its announcement starts: `pegboard
//!   play` (both sides relayed, the clip voice into a PulseAudio null
//!   sink) gets every move of a real game from the console, and the time
//!   from sending the request to the `announced` event it prints (the clip
//!   voice's report that the first sample was taken) is measured (target:
//!   median ≤ 30 ms);
//! - the scan loop at 200 Hz, carrying out 100 console requests a second
//!   as `play` does (target: no scan late by more than one period).

#[path = "../support/audio.rs"]
mod audio;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pegboard::announce::Phrasebook;
use pegboard::console::{Answer, Request};
use pegboard::core::{BLIND_BOARD, Controller, Settings, StartPosition};
use pegboard::mirror::console::Door;
use pegboard::mirror::{Mirror, View};
use pegboard::pgn::read_games;
use pegboard::sensors::poller::Poller;
use pegboard::sim::playable_moves;
use shakmaty::Color;

const CHILD: &str = "PEGBOARD_CONSOLE_BENCH_CHILD";
const PIN: &str = "bench-pin";

fn stats(name: &str, mut v: Vec<f64>) {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        println!("{name:<56} no samples");
        return;
    }
    let pick = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name:<56} median {:>6.1}  p95 {:>6.1}  max {:>6.1}   (n = {})",
        pick(0.5),
        pick(0.95),
        v[v.len() - 1],
        v.len()
    );
}

fn post(addr: SocketAddr, body: &str) -> u16 {
    let mut s = TcpStream::connect(addr).expect("connects");
    let raw = format!(
        "POST /api/input HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAuthorization: Bearer {PIN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(raw.as_bytes()).expect("sent");
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    text.split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// The moves of Kasparov – Deep Blue 1997, game 6, in UCI.
fn moves() -> Vec<String> {
    let path = format!(
        "{}/tests/games/kasparov-deep-blue-1997.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = read_games(&std::fs::read(path).expect("games")).expect("PGN");
    let (_, mode, moves, _) = playable_moves(&games[5].record).expect("playable");
    moves.iter().map(|m| m.to_uci(mode).to_string()).collect()
}

fn move_to_speech() {
    let dir = std::env::temp_dir().join(format!("pegboard-bench-console-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let trace = dir.join("still.jsonl");
    std::fs::write(&trace, "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n").expect("trace");
    let config = dir.join("c.toml");
    std::fs::write(
        &config,
        format!(
            "[game]\nwhite_moves_on = \"relay\"\nblack_moves_on = \"relay\"\n\
             [speech]\nvoices = [\"clips\"]\n[speech.clips]\ndirectory = \"{}/sounds\"\n\
             [mirror]\nlisten = \"127.0.0.1:0\"\n[console]\npin = \"{PIN}\"\n\
             [journal]\ndir = \"{}\"\n\
             [sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
            env!("CARGO_MANIFEST_DIR"),
            dir.join("games").display(),
            trace.display()
        ),
    )
    .expect("config");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pegboard"))
        .args(["play", "--events", "--seconds", "120", "--config"])
        .arg(&config)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("play");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let addr: SocketAddr = loop {
        line.clear();
        assert!(out.read_line(&mut line).expect("line") > 0, "no mirror");
        if let Some(rest) = line
            .trim()
            .strip_prefix("pegboard: the mirror is at http://")
        {
            break rest.trim_end_matches('/').parse().expect("address");
        }
    };
    std::thread::sleep(Duration::from_secs(2));
    let mut took = Vec::new();
    for (i, uci) in moves().iter().enumerate() {
        let sent = Instant::now();
        let code = post(addr, &format!(r#"{{"input":"move","uci":"{uci}"}}"#));
        assert_eq!(code, 200, "{uci}");
        let want = format!("\"event\":\"announced\",\"ply\":{}", i + 1);
        loop {
            line.clear();
            assert!(out.read_line(&mut line).expect("line") > 0, "play ended");
            if line.contains(&want) {
                took.push(sent.elapsed().as_secs_f64() * 1000.0);
                break;
            }
        }
        // Let the announcement finish before the next move.
        std::thread::sleep(Duration::from_millis(2500));
    }
    let _ = child.stdin.take().map(|mut s| s.write_all(b"q\n"));
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    stats("POST a move -> its announcement starts (clips), ms", took);
}

/// The scan loop at 200 Hz with the console's door, as `play` runs it,
/// while a client sends 100 requests a second.
fn scan_loop_under_requests() {
    let (tx, rx) = crossbeam_channel::bounded::<Request>(64);
    let door = Door {
        requests: tx,
        secret: PIN.as_bytes().to_vec(),
    };
    let words = pegboard::announce::Vocabulary::fide();
    let m = Mirror::with_console(
        "127.0.0.1:0",
        View::new(Color::White, Color::Black, &words),
        door,
    )
    .expect("mirror");
    let addr = m.addr();
    let seconds = 10;
    let client = std::thread::spawn(move || {
        let began = Instant::now();
        let mut codes = Vec::new();
        for i in 0..(100 * seconds) {
            let due = Duration::from_millis(10 * i);
            if let Some(wait) = due.checked_sub(began.elapsed()) {
                std::thread::sleep(wait);
            }
            codes.push(post(addr, r#"{"input":"move_number"}"#));
        }
        codes
    });
    let mut c = Controller::new(
        &StartPosition::default(),
        Settings::default(),
        Phrasebook::default(),
        &[BLIND_BOARD],
    )
    .expect("start");
    let occ = shakmaty::Bitboard(0xffff_0000_0000_ffff);
    let mut poller = Poller::new(200);
    let period = Duration::from_millis(5);
    let mut prev = Instant::now();
    let (mut late, mut over, mut served) = (Vec::new(), 0, 0);
    let mut out = Vec::new();
    let end = Instant::now() + Duration::from_secs(seconds + 1);
    while Instant::now() < end {
        let t = poller.wait();
        let now = Instant::now();
        let gap = now - prev;
        prev = now;
        if gap > period * 2 {
            over += 1;
        }
        late.push(gap.saturating_sub(period).as_secs_f64() * 1000.0);
        c.scan(t, 0, occ, &mut out);
        for request in rx.try_iter() {
            let answer = match c.refusal(t, &request.input) {
                Some(r) => Answer::Refused(r),
                None => {
                    let from = out.len();
                    c.input(t, request.input, &mut out);
                    Answer::Done(out[from..].to_vec())
                }
            };
            let _ = request.reply.send(answer);
            served += 1;
        }
        out.clear();
    }
    let codes = client.join().expect("client");
    m.stop();
    let ok = codes.iter().filter(|&&c| c == 200).count();
    late.sort_by(|a, b| a.total_cmp(b));
    println!(
        "scan loop at 200 Hz with {served} console requests in {seconds} s ({ok} answered 200): {} scans, \
         late by p99 {:.2} ms / max {:.2} ms, {over} later than one period",
        late.len(),
        late[(late.len() - 1) * 99 / 100],
        late[late.len() - 1],
    );
}

fn child() {
    scan_loop_under_requests();
    move_to_speech();
}

fn main() {
    // `cargo bench` passes --bench; there is nothing to filter.
    audio::in_own_sound_system(CHILD, "console-bench", false, child);
}
