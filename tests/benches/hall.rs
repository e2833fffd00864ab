//! What the hall hub costs and how fast it shows a move, with a round of
//! 24 boards: each a real mirror (in this process) serving a real game,
//! the hub a real `pegboard hall` following all of them over HTTP.
//!
//! - a move handed to a board's mirror → the hall view's event stream
//!   says it (target: median ≤ 50 ms, p95 ≤ 100 ms);
//! - the same move → `/round.pgn`, the broadcast's source, holds it
//!   (target: median ≤ 250 ms: the hub reads the board's scoresheet after
//!   its state);
//! - the hub's CPU with 24 boards standing still (target ≤ 2% of a core),
//!   and while every board makes a move every 2 s, 12 moves a second in
//!   the hall (target ≤ 10% of a core);
//! - the hub's resident memory after the round (target ≤ 40 MB).
//!
//! Run with: cargo bench --bench hall. The smoke run
//! (`PEGBOARD_BENCH_SMOKE=1`) times 24 moves instead of 240 and measures
//! the CPU over 3 s instead of 10.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pegboard::mirror::Mirror;

#[path = "../support/bench.rs"]
mod bench;
#[path = "../support/mirror.rs"]
mod mirror_view;
#[path = "../support/round.rs"]
mod round;

const BOARDS: usize = 24;

fn ms_of(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A clock tick of `/proc`'s CPU times, in seconds.
fn tick() -> f64 {
    let out = Command::new("getconf").arg("CLK_TCK").output();
    let hz: f64 = out
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0);
    1.0 / hz
}

/// The CPU time process `pid` has used, in seconds.
fn cpu(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the hub's stat");
    // The fields after the command's closing parenthesis: utime is the
    // 14th field of the line, stime the 15th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 =
        fields[11].parse::<f64>().unwrap_or(0.0) + fields[12].parse::<f64>().unwrap_or(0.0);
    ticks * tick()
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

/// The hub's event stream, read line by line.
fn stream(addr: SocketAddr) -> BufReader<TcpStream> {
    let mut s = TcpStream::connect(addr).expect("connects");
    write!(
        s,
        "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
    )
    .expect("asked");
    BufReader::new(s)
}

/// Reads views off the stream until `done` holds of one.
fn until(r: &mut BufReader<TcpStream>, done: impl Fn(&serde_json::Value) -> bool) {
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            r.read_line(&mut line).expect("a line") > 0,
            "the stream ended"
        );
        if let Some(json) = line.strip_prefix("data: ")
            && let Ok(v) = serde_json::from_str::<serde_json::Value>(json)
            && done(&v)
        {
            return;
        }
    }
}

fn get(addr: SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).expect("connects");
    let _ = write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    );
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    text
}

fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    bench::quantile(v, q)
}

fn main() {
    let mut targets = bench::Targets::new("hall");
    let games = round::games();
    // Each board's game in parts: its start, then one move at a time.
    let parts: Vec<Vec<Vec<pegboard::core::Stamped>>> = (0..BOARDS)
        .map(|i| round::per_move(&round::played(&games[i], i as u64, 30, &[])))
        .collect();
    let mirrors: Vec<Mirror> = (0..BOARDS)
        .map(|i| {
            let m = Mirror::start("127.0.0.1:0", mirror_view::view_in("en")).expect("mirror");
            m.send(&parts[i][0]);
            m
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("pegboard-bench-hall-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let mut text =
        String::from("language = \"en\"\n[hall]\nlisten = \"127.0.0.1:0\"\nround = \"1\"\n");
    for (i, m) in mirrors.iter().enumerate() {
        text.push_str(&format!(
            "[[hall.boards]]\nnumber = {}\naddress = \"{}\"\n",
            i + 1,
            m.addr()
        ));
    }
    let config = dir.join("hall.toml");
    std::fs::write(&config, text).expect("config");
    let mut hub = Command::new(env!("CARGO_BIN_EXE_pegboard"))
        .args(["hall", "--config"])
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hub starts");
    let pid = hub.id();
    let mut err = BufReader::new(hub.stderr.take().expect("stderr"));
    let addr: SocketAddr = loop {
        let mut line = String::new();
        assert!(
            err.read_line(&mut line).expect("a line") > 0,
            "the hub said nothing"
        );
        if let Some((_, rest)) = line.split_once("http://") {
            break rest
                .split('/')
                .next()
                .unwrap_or_default()
                .parse()
                .expect("an address");
        }
    };
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    let mut events = stream(addr);
    until(&mut events, |v| {
        v["boards"]
            .as_array()
            .is_some_and(|b| b.len() == BOARDS && b.iter().all(|b| b["presence"] == "followed"))
    });
    // The cost of standing still: 24 boards followed, nothing happening.
    let still = bench::pick(10.0, 3.0);
    let before = cpu(pid);
    std::thread::sleep(Duration::from_secs_f64(still));
    let idle = (cpu(pid) - before) / still * 100.0;
    targets.at_most(
        "the hub's CPU, 24 boards standing still",
        idle,
        2.0,
        "% of a core",
    );
    // A move at a time: its way to the hall view, and to the round's PGN.
    let moves = bench::pick(240, 24);
    let mut to_view = Vec::new();
    let mut to_pgn = Vec::new();
    let mut next = [1usize; BOARDS];
    for k in 0..moves {
        let b = k % BOARDS;
        let Some(part) = parts[b].get(next[b]) else {
            continue;
        };
        let ply = next[b] as u64;
        let san = part.iter().find_map(|e| match &e.event {
            pegboard::core::Event::Move { san, .. } => Some(san.clone()),
            _ => None,
        });
        let began = Instant::now();
        mirrors[b].send(part);
        mirrors[b].scoresheet(round::scoresheet(&games[b], &parts[b][..=next[b]].concat()));
        until(&mut events, |v| v["boards"][b]["ply"].as_u64() == Some(ply));
        to_view.push(ms_of(began.elapsed()));
        loop {
            let round = get(addr, "/round.pgn");
            let game = round.split("[Event ").nth(b + 1).unwrap_or_default();
            let game = format!("[Event {game}");
            if pegboard::hall::round::plies(&game) >= ply as usize {
                assert!(
                    san.as_deref().is_some_and(|san| game.contains(san)),
                    "{san:?} not in {game}"
                );
                break;
            }
            assert!(
                began.elapsed() < Duration::from_secs(10),
                "ply {ply} never in {game}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        to_pgn.push(ms_of(began.elapsed()));
        next[b] += 1;
        // A hall at its busiest: a move every 2 s on each of 24 boards.
        std::thread::sleep(Duration::from_millis(2000 / BOARDS as u64));
    }
    let busy_from = cpu(pid);
    let busy_began = Instant::now();
    let mut k = 0usize;
    while busy_began.elapsed().as_secs_f64() < still {
        let b = k % BOARDS;
        k += 1;
        if let Some(part) = parts[b].get(next[b]) {
            mirrors[b].send(part);
            next[b] += 1;
        }
        std::thread::sleep(Duration::from_millis(2000 / BOARDS as u64));
    }
    let busy = (cpu(pid) - busy_from) / busy_began.elapsed().as_secs_f64() * 100.0;
    let n = to_view.len();
    targets.at_most(
        &format!("a move → the hall view, median of {n}"),
        quantile(&mut to_view, 0.5),
        50.0,
        "ms",
    );
    targets.at_most(
        &format!("a move → the hall view, p95 of {n}"),
        quantile(&mut to_view, 0.95),
        100.0,
        "ms",
    );
    targets.at_most(
        &format!("a move → /round.pgn, median of {n}"),
        quantile(&mut to_pgn, 0.5),
        250.0,
        "ms",
    );
    targets.at_most(
        "the hub's CPU, a move every 2 s on each of 24 boards",
        busy,
        10.0,
        "% of a core",
    );
    targets.at_most("the hub's resident memory", rss_mb(pid), 40.0, "MB");
    let _ = hub.kill();
    let _ = hub.wait();
    for m in mirrors {
        m.stop();
    }
    let _ = std::fs::remove_dir_all(&dir);
    targets.finish();
}
