//! The console: `cargo bench --bench console`.
//!
//! - `POST /api/input` of a move → its announcement starts: `pegboard
//!   play` (both sides relayed, the clip voice into a PulseAudio null
//!   sink) gets every move of a real game from the console, and the time
//!   from sending the request to the `announced` event it prints (the clip
//!   voice's report that the first sample was taken) is measured (target:
//!   median ≤ 30 ms);
//! - `pegboard play` itself, with a real journal directory, carrying out
//!   100 console requests a second (a tenth of them moves, each journaled
//!   and synced before the next turn): how late its scans were taken, as
//!   `play --scan-timing` says (target: no scan late by more than one
//!   period, 5 ms).
//!
//! The smoke run (`PEGBOARD_BENCH_SMOKE=1`) sends requests for 3 s
//! instead of 10 and relays 4 moves instead of the game.

#[path = "../support/audio.rs"]
mod audio;
#[path = "../support/bench.rs"]
mod bench;

use std::io::{BufRead, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Stdio;
use std::time::{Duration, Instant};

use pegboard::record::pgn::read_games;
use pegboard::sim::playable_moves;

const CHILD: &str = "PEGBOARD_CONSOLE_BENCH_CHILD";
const PIN: &str = "bench-pin";

/// Prints the figures of `v`; returns its median.
fn stats(name: &str, mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    assert!(!v.is_empty(), "{name}: no samples");
    let pick = |q: f64| bench::quantile(&v, q);
    println!(
        "{name:<56} median {:>6.1}  p95 {:>6.1}  max {:>6.1}   (n = {})",
        pick(0.5),
        pick(0.95),
        v[v.len() - 1],
        v.len()
    );
    pick(0.5)
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

fn move_to_speech(targets: &mut bench::Targets) {
    let dir = std::env::temp_dir().join(format!("pegboard-bench-console-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let config = play_config(
        &dir,
        &format!(
            "[speech]\nvoices = [\"clips\"]\n[speech.clips]\ndirectory = \"{}/sounds\"\n",
            env!("CARGO_MANIFEST_DIR")
        ),
    );
    let (mut child, mut out) =
        bench::play(&["--events", "--seconds", "120"], &config, Stdio::piped());
    let addr = bench::mirror_address(&mut out);
    let mut line = String::new();
    std::thread::sleep(Duration::from_secs(2));
    let mut took = Vec::new();
    for (i, uci) in moves().iter().take(bench::pick(usize::MAX, 4)).enumerate() {
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
    let median = stats("POST a move -> its announcement starts (clips), ms", took);
    targets.at_most(
        "POST a move → its announcement starts, median",
        median,
        30.0,
        "ms",
    );
}

/// `pegboard play` itself (both sides relayed, a real journal directory,
/// the mirror and the console on loopback) while a client sends 100
/// requests a second: every tenth a move of the game, the rest questions.
/// Every request that is carried out is journaled and synced before the
/// next turn of the loop is handled; `play --scan-timing` says at the end
/// how late its scans were taken and handled.
fn scan_loop_under_requests() -> LoopRun {
    let dir = std::env::temp_dir().join(format!(
        "pegboard-bench-console-loop-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let config = play_config(&dir, "");
    let seconds = bench::pick(10u64, 3);
    let seconds_arg = format!("{}", seconds + 2);
    let (mut child, mut out) = bench::play(
        &["--silent", "--scan-timing", "--seconds", &seconds_arg],
        &config,
        Stdio::null(),
    );
    let addr = bench::mirror_address(&mut out);
    let drain = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
        rest
    });
    let moves = moves();
    let began = Instant::now();
    let mut codes = Vec::new();
    let questions = [
        r#"{"input":"move_number"}"#,
        r#"{"input":"times"}"#,
        r#"{"input":"position"}"#,
    ];
    let mut played = 0;
    for i in 0..(100 * seconds) {
        let due = Duration::from_millis(10 * i);
        if let Some(wait) = due.checked_sub(began.elapsed()) {
            std::thread::sleep(wait);
        }
        let body = if i % 10 == 0 && played < moves.len() {
            played += 1;
            format!(r#"{{"input":"move","uci":"{}"}}"#, moves[played - 1])
        } else {
            questions[i as usize % questions.len()].to_string()
        };
        codes.push(post(addr, &body));
    }
    let _ = child.wait();
    let printed = drain.join().unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    let ok = codes.iter().filter(|&&c| c == 200).count();
    let timing = bench::ScanTiming::of(&printed);
    let (taken, handled) = (&timing.taken, &timing.handled);
    println!(
        "pegboard play at 200 Hz, {} console requests in {seconds} s ({played} of them moves, \
         {ok} answered 200):\n  scans taken after they were due: {taken}\n  scans handled \
         after they were taken: {handled}",
        codes.len()
    );
    // Each move relayed is printed as it is played: "[00:01.230] 3... Nf6".
    let made = printed
        .lines()
        .filter(|l| {
            l.split_once("] ").is_some_and(|(_, rest)| {
                rest.split_once('.')
                    .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            })
        })
        .count();
    LoopRun {
        max_taken: timing.max_taken(),
        answered: (ok, codes.len()),
        made: (made, played),
    }
}

/// What one run of [`scan_loop_under_requests`] found.
struct LoopRun {
    /// The latest a scan was taken after it was due, in ms.
    max_taken: f64,
    /// Requests answered 200, of those sent.
    answered: (usize, usize),
    /// Moves played, of those relayed.
    made: (usize, usize),
}

/// A configuration for `play` in `dir`: both sides relayed, the console
/// and the mirror on loopback, the journal in `dir`, the sensors reading a
/// trace that holds the start position; `speech` is its `[speech]` part.
fn play_config(dir: &std::path::Path, speech: &str) -> std::path::PathBuf {
    let trace = dir.join("still.jsonl");
    std::fs::write(&trace, "{\"t\":0,\"trace\":1,\"start\":\"startpos\"}\n").expect("trace");
    let config = dir.join("c.toml");
    std::fs::write(
        &config,
        format!(
            "[game]\nwhite_moves_on = \"relay\"\nblack_moves_on = \"relay\"\n{speech}\
             [mirror]\nlisten = \"127.0.0.1:0\"\n[console]\npin = \"{PIN}\"\n\
             [journal]\ndir = \"{}\"\n\
             [sensors]\nsource = \"trace\"\nrealtime = true\n[sensors.trace]\nfile = \"{}\"\n",
            dir.join("games").display(),
            trace.display()
        ),
    )
    .expect("config");
    config
}

fn child() {
    let mut targets = bench::Targets::new("console");
    let mut run = None;
    targets.at_most_measured(
        "latest scan taken, with 100 console requests a second",
        5.0,
        "ms",
        || {
            let r = scan_loop_under_requests();
            let max = r.max_taken;
            run = Some(r);
            max
        },
    );
    let run = run.expect("measured");
    targets.holds(
        "every move relayed was played",
        run.made.0 == run.made.1,
        &format!("{} of {}", run.made.0, run.made.1),
    );
    targets.holds(
        "every console request answered",
        run.answered.0 == run.answered.1,
        &format!("{} of {}", run.answered.0, run.answered.1),
    );
    move_to_speech(&mut targets);
    targets.finish();
}

fn main() {
    // `cargo bench` passes --bench; there is nothing to filter.
    audio::in_own_sound_system(CHILD, "console-bench", false, child);
}
