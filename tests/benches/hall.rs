//! A round of 24 boards on one hub: each board a real `pegboard play` on
//! loopback playing a real game from a trace of simulated hands (a move
//! about every second on each board, some 20 a second in the hall), the
//! hub a real `pegboard hall` pushing the round to the test lichess's
//! broadcast (written from lichess's API description). Each move is
//! timed from the instant the board's own event stream says it:
//!
//! | path | target (p95) |
//! |---|---|
//! | a move on a board → the hall view's stream | ≤ 300 ms |
//! | a move on a board → the served `/round.pgn` (read every 50 ms) | ≤ 300 ms |
//! | a move on a board → pushed to the broadcast (no delay set) | ≤ 3 s |
//!
//! and the hub's footprint with 24 boards: its CPU (target ≤ 15% of a
//! core, a reader polling `/round.pgn` 20 times a second included) and
//! its resident memory (target ≤ 40 MB).
//!
//! Run with: cargo bench --bench hall. The smoke run
//! (`PEGBOARD_BENCH_SMOKE=1`) times the first 20 s of the round instead
//! of the first 120 s.

use std::collections::BTreeMap;
use std::io::{BufRead as _, BufReader, Write as _};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

#[path = "../support/bench.rs"]
mod bench;
#[path = "../support/hall_round.rs"]
mod hall_round;
#[path = "../support/lichess.rs"]
mod lichess;
#[path = "../support/round.rs"]
mod round;

use hall_round::{Board, Hub, games_of};

const BOARDS: usize = 24;
const TOKEN: &str = "lip_HallBench2026abcdefg";
const ROUND: &str = "bEnCh001";

/// Seconds since the epoch now.
fn epoch() -> f64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// When each (board, ply) was first seen, in seconds since the epoch.
type Seen = Arc<Mutex<BTreeMap<(usize, u64), f64>>>;

fn note(seen: &Seen, key: (usize, u64), at: f64) {
    seen.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .entry(key)
        .or_insert(at);
}

/// Each move board `n` makes, as its own event stream says it.
fn watch_board(n: usize, addr: std::net::SocketAddr, seen: Seen) {
    std::thread::spawn(move || {
        let Ok(mut s) = std::net::TcpStream::connect(addr) else {
            return;
        };
        let _ = write!(s, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        let mut r = BufReader::new(s);
        let mut line = String::new();
        while r.read_line(&mut line).is_ok_and(|k| k > 0) {
            if let Some(json) = line.trim_end().strip_prefix("data: ")
                && let Ok(v) = serde_json::from_str::<serde_json::Value>(json)
                && v["event"] == "move"
                && let Some(ply) = v["ply"].as_u64()
            {
                note(&seen, (n, ply), epoch());
            }
            line.clear();
        }
    });
}

fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = fields
        .get(11)
        .and_then(|f| f.parse::<f64>().ok())
        .unwrap_or(0.0)
        + fields
            .get(12)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0);
    let hz: f64 = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0);
    ticks / hz
}

fn rss_mb(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// The delays from the board's own instant to each `(board, ply)` seen
/// downstream, in ms, of the moves made by `made_by` (seconds since the
/// epoch), and how many of those were never seen there.
fn delays(boards: &Seen, downstream: &Seen, made_by: f64) -> (Vec<f64>, usize) {
    let at_boards = boards
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    let later = downstream
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    let made: Vec<_> = at_boards.iter().filter(|(_, at)| **at <= made_by).collect();
    let seen: Vec<f64> = made
        .iter()
        .filter_map(|(key, at)| later.get(key).map(|d| ((d - **at) * 1000.0).max(0.0)))
        .collect();
    let missing = made.len() - seen.len();
    (seen, missing)
}

fn quantile(mut v: Vec<f64>, q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::INFINITY;
    }
    bench::quantile(&v, q)
}

fn main() {
    let mut targets = bench::Targets::new("hall");
    let root = std::env::temp_dir().join(format!("pegboard-bench-hall-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("dir");
    let games = round::games();
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(500));
    server.token_scopes("study:write");
    server
        .state()
        .broadcast_rounds
        .insert(ROUND.into(), Vec::new());
    let token_file = hall_round::token_file(&root, TOKEN);
    let at_boards: Seen = Arc::default();
    // Every board starts its game 10 s from now, when all are followed.
    let boards: Vec<Board> = (0..BOARDS)
        .map(|i| {
            let trace = hall_round::trace(&games[i], i as u64, hall_round::quick(), 10_000, &[]);
            let b = Board::start(
                &root,
                i + 1,
                &trace,
                "5400+30",
                (&games[i].white, &games[i].black),
            );
            watch_board(i + 1, b.addr(), Arc::clone(&at_boards));
            b
        })
        .collect();
    let push = format!(
        "[hall.push]\nround = \"{ROUND}\"\nserver = \"{}\"\ntoken_file = \"{}\"\n",
        server.url(),
        token_file.display()
    );
    let hub = Hub::start(&root.join("hub"), &boards, "", &push);
    let pid = hub.process.as_ref().map_or(0, |p| p.0.id());
    // The hall view's stream.
    let in_view: Seen = Arc::default();
    {
        let seen = Arc::clone(&in_view);
        let mut views = hub.stream();
        std::thread::spawn(move || {
            while let Some(v) = views.next_view() {
                let at = epoch();
                for b in v["boards"].as_array().into_iter().flatten() {
                    if let (Some(n), Some(ply)) = (b["number"].as_u64(), b["ply"].as_u64())
                        && ply > 0
                    {
                        for p in 1..=ply {
                            note(&seen, (n as usize, p), at);
                        }
                    }
                }
            }
        });
    }
    let length = bench::pick(120.0, 20.0);
    let began = Instant::now();
    let cpu_before = cpu_seconds(pid);
    let in_pgn: Seen = Arc::default();
    while began.elapsed().as_secs_f64() < 10.0 + length {
        let at = epoch();
        for (i, game) in games_of(&hub.round_pgn()).iter().enumerate() {
            let plies = pegboard::hall::round::plies(game) as u64;
            for p in 1..=plies {
                note(&in_pgn, (i + 1, p), at);
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let cpu = (cpu_seconds(pid) - cpu_before) / began.elapsed().as_secs_f64() * 100.0;
    let polled_until = epoch();
    let rss = rss_mb(pid);
    // The pushes: each (board, ply) first in a push taken, by when the
    // push began.
    std::thread::sleep(Duration::from_secs(5));
    let pushed: Seen = Arc::default();
    for (at, body) in server.state().broadcast_rounds[ROUND].iter() {
        for (i, game) in games_of(body).iter().enumerate() {
            let plies = pegboard::hall::round::plies(game) as u64;
            for p in 1..=plies {
                note(&pushed, (i + 1, p), *at);
            }
        }
    }
    let moves = at_boards
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .len();
    targets.holds(
        "the boards made moves",
        moves >= BOARDS * 5,
        &format!("{moves} moves"),
    );
    // Every move made a second before the reading stopped is in the view
    // and the served round, and every one made 5 s before it was pushed
    // (what came later is not counted, nor timed).
    let (view, view_missing) = delays(&at_boards, &in_view, polled_until - 1.0);
    let (pgn, pgn_missing) = delays(&at_boards, &in_pgn, polled_until - 1.0);
    let (push, push_missing) = delays(&at_boards, &pushed, polled_until - 5.0);
    targets.holds(
        "every move reached the view, the served round and the broadcast",
        view_missing + pgn_missing + push_missing == 0,
        &format!(
            "missing: {view_missing} from the view, {pgn_missing} from /round.pgn, {push_missing} \
             from the pushes"
        ),
    );
    println!(
        "  {moves} moves on {BOARDS} boards; {} in the view, {} in /round.pgn, {} pushed",
        view.len(),
        pgn.len(),
        push.len()
    );
    targets.at_most(
        "a move on a board → the hall view, p95",
        quantile(view.clone(), 0.95),
        300.0,
        "ms",
    );
    println!("  (median {:.1} ms)", quantile(view, 0.5));
    targets.at_most(
        "a move on a board → the served PGN, p95",
        quantile(pgn.clone(), 0.95),
        300.0,
        "ms",
    );
    println!("  (median {:.1} ms)", quantile(pgn, 0.5));
    targets.at_most(
        "a move on a board → pushed to the broadcast, p95",
        quantile(push.clone(), 0.95),
        3000.0,
        "ms",
    );
    println!("  (median {:.1} ms)", quantile(push, 0.5));
    targets.at_most(
        "the hub's CPU with 24 boards playing (a reader polling /round.pgn included)",
        cpu,
        15.0,
        "% of a core",
    );
    targets.at_most("the hub's resident memory with 24 boards", rss, 40.0, "MB");
    drop(hub);
    drop(boards);
    let _ = std::fs::remove_dir_all(&root);
    targets.finish();
}
