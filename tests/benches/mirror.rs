//! What the mirror costs and how fast it shows a move:
//!
//! - an event handed to the mirror → the page's DOM updated, in Debian's
//!   headless Chromium over WebDriver (chromedriver from apt), for every
//!   move of a real game (target: median ≤ 50 ms, p95 ≤ 100 ms);
//! - the page's weight, all of it (target ≤ 150 KB);
//! - a scan loop at 200 Hz that hands the mirror each turn's events while
//!   20 viewers hold event streams open (target: no scan late by more than
//!   one period), and what handing over costs the loop;
//! - the resident memory the server adds to `pegboard play` with 20
//!   viewers (target ≤ 10 MB).
//!
//! Run with: cargo bench --bench mirror

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::ClientBuilder;
use pegboard::announce::Phrasebook;
use pegboard::core::{BLIND_BOARD, Event, Settings, Stamped};
use pegboard::mirror::Mirror;

#[path = "../support/mirror.rs"]
mod mirror_view;
use mirror_view::english;
use pegboard::pgn::read_games;
use pegboard::runtime::replay::{Until, replay};
use pegboard::sensors::poller::Poller;
use pegboard::sim::{Style, simulate};
use serde_json::json;

fn quantile(v: &mut [Duration], q: f64) -> Duration {
    v.sort();
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
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

fn dom_latency() {
    let events = game();
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
}

fn get(addr: SocketAddr, path: &str) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
        .expect("sent");
    let mut all = Vec::new();
    let _ = s.read_to_end(&mut all);
    let at = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(0, |i| i + 4);
    all[at..].to_vec()
}

fn viewers(addr: SocketAddr, n: usize) -> Vec<std::thread::JoinHandle<usize>> {
    (0..n)
        .map(|_| {
            let mut s = TcpStream::connect(addr).expect("connects");
            s.write_all(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
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

fn scan_loop_with_viewers() {
    let events = game();
    let m = Mirror::start("127.0.0.1:0", english()).expect("mirror");
    let page = get(m.addr(), "/");
    println!("page weight: {} bytes, all of it (one file)", page.len());
    let readers = viewers(m.addr(), 20);
    let mut poller = Poller::new(200);
    let period = Duration::from_millis(5);
    let mut prev = Instant::now();
    let mut late = Vec::new();
    let mut over = 0;
    let mut send_cost = Vec::new();
    let batches: Vec<&[Stamped]> = events.chunks(3).collect();
    for tick in 0..(batches.len() * 20) {
        poller.wait();
        let now = Instant::now();
        let gap = now - prev;
        prev = now;
        if gap > period * 2 {
            over += 1;
        }
        late.push(gap.saturating_sub(period));
        if tick % 20 == 0 {
            let began = Instant::now();
            m.send(batches[tick / 20]);
            send_cost.push(began.elapsed());
        }
    }
    // The last batch reaches every viewer before the stop ends the streams.
    std::thread::sleep(Duration::from_millis(300));
    m.stop();
    let lines: Vec<usize> = readers.into_iter().map(|h| h.join().unwrap_or(0)).collect();
    println!(
        "scan loop at 200 Hz, 20 viewers, {} batches handed over: {} scans, late by p99 {} / max {}, \
         {over} later than one period; handing a batch over: median {:.1} µs, max {:.1} µs; \
         every viewer got {}–{} lines",
        batches.len(),
        late.len(),
        ms(quantile(&mut late, 0.99)),
        ms(quantile(&mut late, 1.0)),
        quantile(&mut send_cost, 0.5).as_secs_f64() * 1e6,
        quantile(&mut send_cost, 1.0).as_secs_f64() * 1e6,
        lines.iter().min().unwrap_or(&0),
        lines.iter().max().unwrap_or(&0),
    );
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

/// `pegboard play` on a recorded game for a few seconds: its resident
/// memory after 3 s, without the mirror and with it and 20 viewers.
fn memory() {
    let dir = std::env::temp_dir().join(format!("pegboard-bench-mirror-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let trace = dir.join("game.jsonl");
    let path = format!(
        "{}/tests/games/kasparov-deep-blue-1997.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = read_games(&std::fs::read(path).expect("games")).expect("PGN");
    let style = Style {
        think: (20, 60),
        hand: (20, 40),
        ..Style::default()
    };
    let entries = simulate(&games[5].record, 9, style).expect("simulated");
    let text: String = entries
        .iter()
        .map(|e| pegboard::trace::write_line(e.t, &e.reading) + "\n")
        .collect();
    std::fs::write(&trace, text).expect("trace");
    let run = |listen: &str, viewers_n: usize| -> u64 {
        let config = dir.join("play.toml");
        std::fs::write(
            &config,
            format!(
                "[mirror]\nlisten = \"{listen}\"\n[journal]\ndir = \"{}\"\n[sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
                dir.join(format!("j{viewers_n}")).display(),
                trace.display()
            ),
        )
        .expect("config");
        let mut child = Command::new(env!("CARGO_BIN_EXE_pegboard"))
            .args(["play", "--silent", "--seconds", "5", "--config"])
            .arg(&config)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("play");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut held = Vec::new();
        if viewers_n > 0 {
            let mut line = String::new();
            let addr: SocketAddr = loop {
                line.clear();
                if out.read_line(&mut line).unwrap_or(0) == 0 {
                    panic!("no mirror line");
                }
                if let Some(a) = line
                    .trim()
                    .strip_prefix("pegboard: the mirror is at http://")
                {
                    break a.trim_end_matches('/').parse().expect("address");
                }
            };
            held = viewers(addr, viewers_n);
        }
        let drain = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = out.read_to_string(&mut s);
        });
        std::thread::sleep(Duration::from_secs(3));
        let rss = rss_kb(child.id());
        let _ = child.wait();
        let _ = drain.join();
        for h in held {
            let _ = h.join();
        }
        rss
    };
    let without = run("", 0);
    let with = run("127.0.0.1:0", 20);
    println!(
        "resident memory of play after 3 s: {without} kB without the mirror, {with} kB with it and \
         20 viewers: {} kB added",
        with.saturating_sub(without)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    scan_loop_with_viewers();
    memory();
    dom_latency();
}
