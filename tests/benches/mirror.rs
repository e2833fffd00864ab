//! What the mirror costs and how fast it shows a move:
//!
//! - an event handed to the mirror → the page's DOM updated, in Debian's
//!   headless Chromium over WebDriver (chromedriver from apt), for every
//!   move of a real game (target: median ≤ 50 ms, p95 ≤ 100 ms);
//! - the pages' weight, all of each, the mirror's and the console's (target ≤ 150 KB);
//! - the mirror's own cost while nothing happens: the CPU time its thread
//!   uses over 5 s of `pegboard play` on a board standing still, with 20
//!   viewers holding event streams open (target: at most 1% of a core);
//! - `pegboard play` on a recorded game with 20 viewers holding event
//!   streams open: how late its scans were taken (`play --scan-timing`;
//!   target: none by more than one period, 5 ms), and that every viewer
//!   got every line;
//! - the resident memory the server adds to `pegboard play` with 20
//!   viewers (target ≤ 10 MB).
//!
//! Run with: cargo bench --bench mirror. The smoke run
//! (`PEGBOARD_BENCH_SMOKE=1`) shows 10 moves in Chromium instead of the
//! game.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::ClientBuilder;
use pegboard::announce::Phrasebook;
use pegboard::core::{BLIND_BOARD, Event, Settings, Stamped};
use pegboard::mirror::Mirror;

#[path = "../support/bench.rs"]
mod bench;

#[path = "../support/hall.rs"]
mod hall;
#[path = "../support/mirror.rs"]
mod mirror_view;
use mirror_view::english;
use pegboard::record::pgn::read_games;
use pegboard::runtime::replay::{Until, replay};
use pegboard::sim::{Style, simulate};
use serde_json::json;

fn quantile(v: &mut [Duration], q: f64) -> Duration {
    v.sort();
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn ms_of(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A real game's events: Kasparov - Deep Blue 1997, game 6, with a clock.
fn game() -> Vec<Stamped> {
    let path = format!(
        "{}/tests/games/kasparov-deep-blue-1997.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = read_games(&std::fs::read(path).expect("games")).expect("PGN");
    let entries = simulate(&games[5].record, 9, Style::default()).expect("simulated");
    let mut settings = Settings::default();
    settings.clock.control =
        Some(pegboard::core::clock::TimeControl::parse_pgn("5400+30").expect("control"));
    replay(
        &entries,
        "bench",
        settings,
        Phrasebook::default(),
        &[BLIND_BOARD],
        Until::Idle,
    )
    .expect("replays")
}

fn dom_latency(targets: &mut bench::Targets) {
    let events = game();
    let shown = bench::pick(usize::MAX, 10);
    let port = free_port();
    let mut driver = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver (apt: chromium-driver)");
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        std::thread::sleep(Duration::from_millis(50));
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut took = rt.block_on(async {
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({"binary": "/usr/bin/chromium",
                   "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]}),
        );
        let c = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("Chromium");
        let m = Mirror::start("127.0.0.1:0", english()).expect("mirror");
        c.goto(&format!("http://{}/", m.addr())).await.expect("page");
        let mut took = Vec::new();
        let mut sent = 0;
        for (i, e) in events.iter().enumerate() {
            let Event::Move { ply, .. } = e.event else { continue };
            if took.len() == shown {
                break;
            }
            // The page's own wait for the move, started before it is sent.
            let script = format!(
                "const done = arguments[arguments.length - 1];
                 const check = () => document.body.dataset.ply === '{ply}';
                 if (check()) return done(true);
                 new MutationObserver((_, o) => {{ if (check()) {{ o.disconnect(); done(true); }} }})
                   .observe(document.body, {{attributes: true}});"
            );
            let wait = c.execute_async(&script, vec![]);
            let send = async {
                tokio::time::sleep(Duration::from_millis(5)).await;
                let began = Instant::now();
                m.send(&events[sent..=i]);
                began
            };
            let (shown, began) = tokio::join!(wait, send);
            shown.expect("the page showed the move");
            took.push(began.elapsed());
            sent = i + 1;
        }
        m.stop();
        let _ = c.close().await;
        took
    });
    let _ = driver.kill();
    let _ = driver.wait();
    println!(
        "event → DOM updated in headless Chromium ({} moves): median {}, p95 {}, max {} \
         (including WebDriver's answer)",
        took.len(),
        ms(quantile(&mut took, 0.5)),
        ms(quantile(&mut took, 0.95)),
        ms(quantile(&mut took, 1.0)),
    );
    targets.at_most(
        "event → DOM updated, median",
        ms_of(quantile(&mut took, 0.5)),
        50.0,
        "ms",
    );
    targets.at_most(
        "event → DOM updated, p95",
        ms_of(quantile(&mut took, 0.95)),
        100.0,
        "ms",
    );
}

fn get(addr: SocketAddr, path: &str) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .expect("sent");
    let mut all = Vec::new();
    let _ = s.read_to_end(&mut all);
    let at = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(0, |i| i + 4);
    all[at..].to_vec()
}

/// `n` viewers of the event stream, each on an address of its own (as
/// the hall's phones and laptops are), each counting the lines it gets.
fn viewers(addr: SocketAddr, n: usize) -> Vec<std::thread::JoinHandle<usize>> {
    (0..n)
        .map(|i| {
            let mut s = hall::connect_from(hall::address(i), addr);
            s.write_all(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .expect("sent");
            std::thread::spawn(move || {
                let mut lines = 0;
                for line in BufReader::new(s).lines() {
                    match line {
                        Ok(_) => lines += 1,
                        Err(_) => break,
                    }
                }
                lines
            })
        })
        .collect()
}

/// The pages, all of each: the mirror's and the console's, as served.
fn page_weight(targets: &mut bench::Targets) {
    let (tx, _rx) = crossbeam_channel::bounded(1);
    let door = pegboard::console::Door {
        requests: tx,
        secret: b"0123456789abcdef0123456789abcdef".to_vec(),
        strength: pegboard::net::auth::Strength::Generated,
    };
    let view = english();
    let console = pegboard::console::routes(door, view.console_page.clone(), view.written.clone());
    let m = Mirror::with_routes("127.0.0.1:0", view, console).expect("mirror");
    let page = get(m.addr(), "/");
    let console = get(m.addr(), "/console");
    m.stop();
    println!("page weight: {} bytes, all of it (one file)", page.len());
    println!(
        "console page weight: {} bytes, all of it (one file)",
        console.len()
    );
    targets.at_most("the page's weight", page.len() as f64 / 1000.0, 150.0, "KB");
    targets.at_most(
        "the console page's weight",
        console.len() as f64 / 1000.0,
        150.0,
        "KB",
    );
}

/// The CPU time, in clock ticks, that the thread of `pid` named `name` has
/// used so far.
fn thread_ticks(pid: u32, name: &str) -> u64 {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).expect("play's threads");
    let stats: Vec<String> = tasks
        .flatten()
        .filter(|t| std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.trim() == name))
        .filter_map(|t| std::fs::read_to_string(t.path().join("stat")).ok())
        .collect();
    // A thread not found would measure nothing and pass.
    assert_eq!(stats.len(), 1, "play has one thread named {name}");
    stats
        .iter()
        .map(|stat| {
            // After the name's closing bracket: state is field 3, utime 14
            // and stime 15 (proc(5)).
            let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
            let f: Vec<u64> = rest
                .split_whitespace()
                .map(|x| x.parse().unwrap_or(0))
                .collect();
            f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0)
        })
        .sum()
}

/// The mirror's own cost while nothing happens: `pegboard play` on a board
/// standing at the start, with 20 viewers holding event streams open (the
/// server's timers running: keep-alives, idle connections watched), and
/// the CPU time the mirror's thread used over 5 s of it, as the kernel
/// counts it (`/proc/PID/task/TID/stat`).
fn idle_mirror(targets: &mut bench::Targets) {
    let dir = std::env::temp_dir().join(format!("pegboard-bench-idle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let trace = dir.join("start.jsonl");
    let start = pegboard::trace::Reading::Scan {
        board: BLIND_BOARD.into(),
        occ: shakmaty::Bitboard(0xffff_0000_0000_ffff),
    };
    std::fs::write(&trace, pegboard::trace::write_line(0, &start) + "\n").expect("trace");
    let config = dir.join("play.toml");
    std::fs::write(
        &config,
        format!(
            "[mirror]\nlisten = \"127.0.0.1:0\"\n[journal]\ndir = \"{}\"\n[sensors]\nsource = \"trace\"\nrealtime = true\n[sensors.trace]\nfile = \"{}\"\n",
            dir.join("journal").display(),
            trace.display()
        ),
    )
    .expect("config");
    let (mut child, mut out) =
        bench::play(&["--silent", "--seconds", "20"], &config, Stdio::null());
    let addr = bench::mirror_address(&mut out);
    let held = viewers(addr, 20);
    std::thread::sleep(Duration::from_secs(2));
    let before = thread_ticks(child.id(), "mirror");
    let began = Instant::now();
    std::thread::sleep(Duration::from_secs(5));
    let used = thread_ticks(child.id(), "mirror") - before;
    let over = began.elapsed().as_secs_f64();
    // Measured: `play` is stopped as a service is (SIGTERM).
    let _ = Command::new("kill").arg(child.id().to_string()).status();
    let _ = child.wait();
    for h in held {
        let _ = h.join();
    }
    let tick = clock_tick();
    let share = used as f64 * tick / over * 100.0;
    println!(
        "the mirror's thread, idle with 20 viewers: {used} ticks of {:.0} ms in {over:.1} s",
        tick * 1000.0
    );
    targets.at_most(
        "CPU the mirror uses while idle with 20 viewers",
        share,
        1.0,
        "% of a core",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A clock tick of `/proc`'s CPU times, in seconds (`getconf CLK_TCK`).
fn clock_tick() -> f64 {
    let hz: f64 = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0);
    1.0 / hz
}

fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

/// What one run of `pegboard play` showed.
struct PlayRun {
    /// Resident memory after 3 s, kB.
    rss_kb: u64,
    /// The latest a scan was taken after it was due, ms.
    max_taken: f64,
    /// The lines each viewer received.
    lines: Vec<usize>,
}

/// `pegboard play` on a recorded game (with a journal) for 5 s, with
/// `viewers_n` viewers of its mirror (none: no mirror).
fn play_with_viewers(dir: &std::path::Path, trace: &std::path::Path, viewers_n: usize) -> PlayRun {
    let listen = if viewers_n > 0 { "127.0.0.1:0" } else { "" };
    let config = dir.join("play.toml");
    let journal = dir.join(format!("j{viewers_n}"));
    let _ = std::fs::remove_dir_all(&journal);
    std::fs::write(
        &config,
        format!(
            "[mirror]\nlisten = \"{listen}\"\n[journal]\ndir = \"{}\"\n[sensors]\nsource = \"trace\"\nrealtime = true\n[sensors.trace]\nfile = \"{}\"\n",
            journal.display(),
            trace.display()
        ),
    )
    .expect("config");
    let (mut child, mut out) = bench::play(
        &["--silent", "--scan-timing", "--seconds", "5"],
        &config,
        Stdio::null(),
    );
    let mut held = Vec::new();
    if viewers_n > 0 {
        held = viewers(bench::mirror_address(&mut out), viewers_n);
    }
    let drain = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    std::thread::sleep(Duration::from_secs(3));
    let rss_kb = rss_kb(child.id());
    let _ = child.wait();
    let printed = drain.join().unwrap_or_default();
    let lines = held.into_iter().map(|h| h.join().unwrap_or(0)).collect();
    let timing = bench::ScanTiming::of(&printed);
    println!(
        "  play with {viewers_n} viewers: scans taken after they were due: {}",
        timing.taken
    );
    PlayRun {
        rss_kb,
        max_taken: timing.max_taken(),
        lines,
    }
}

/// `pegboard play` on a recorded game, without the mirror and with it and
/// 20 viewers: the memory the mirror adds, how late the scans were taken,
/// and whether every viewer got every line.
fn play_runs(targets: &mut bench::Targets) {
    let dir = std::env::temp_dir().join(format!("pegboard-bench-mirror-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let style = Style {
        think: (20, 60),
        hand: (20, 40),
        ..Style::default()
    };
    let trace = bench::game_six_trace(&dir, 9, style);
    let without = play_with_viewers(&dir, &trace, 0);
    let mut with = None;
    targets.at_most_measured(
        "latest scan taken by play with 20 viewers of the mirror",
        5.0,
        "ms",
        || {
            let run = play_with_viewers(&dir, &trace, 20);
            let max = run.max_taken;
            with = Some(run);
            max
        },
    );
    let with = with.expect("measured");
    println!(
        "resident memory of play after 3 s: {} kB without the mirror, {} kB with it and \
         20 viewers: {} kB added",
        without.rss_kb,
        with.rss_kb,
        with.rss_kb.saturating_sub(without.rss_kb)
    );
    targets.at_most(
        "memory the mirror and 20 viewers add to play",
        with.rss_kb.saturating_sub(without.rss_kb) as f64 / 1024.0,
        10.0,
        "MB",
    );
    let (least, most) = (
        with.lines.iter().min().copied().unwrap_or(0),
        with.lines.iter().max().copied().unwrap_or(0),
    );
    targets.holds(
        "every viewer got every line",
        with.lines.len() == 20 && least == most && least > 0,
        &format!("{} viewers got {least} to {most} lines", with.lines.len()),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let mut targets = bench::Targets::new("mirror");
    page_weight(&mut targets);
    idle_mirror(&mut targets);
    play_runs(&mut targets);
    dom_latency(&mut targets);
    targets.finish();
}
