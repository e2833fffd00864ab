//! What the journal costs:
//!
//! - resume: from the start of `pegboard play` to its `resumed` line, for
//!   a 120-move game with clocks (a four-hour game's journal: a heartbeat
//!   record every 800 ms while a clock runs), and the same work in the
//!   process (read the journal, feed it through the core, restart);
//!   target 200 ms here;
//! - a durable record: handed to the writer thread until it is on the disk
//!   (write + fdatasync), on this machine's disk;
//! - the scan loop at 200 Hz while every scan writes a record that is
//!   synced: how late a scan is taken, and how long a scan is held until
//!   the record before it is on the disk; also with another program
//!   writing and syncing 4 MB blocks to the same disk meanwhile.
//!
//! Run with: cargo bench --bench journal

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pegboard::announce::Phrasebook;
use pegboard::core::clock::TimeControl;
use pegboard::core::{BLIND_BOARD, Input, Settings, Stamped};
use pegboard::journal::{Store, Writer};
use pegboard::runtime::replay::{Until, stream};
use pegboard::sensors::poller::Poller;
use pegboard::sim::{GameRecord, Style, simulate};
use pegboard::trace::{Entry, Reading};
use shakmaty::Bitboard;

const PLIES: usize = 240;
const ROUNDS: usize = 20;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "pegboard-bench-journal-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("dir");
    d
}

fn quantile(v: &mut [Duration], q: f64) -> Duration {
    v.sort();
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// A 120-move game: random legal moves from a fixed seed (the first seed
/// whose game lasts 240 plies), played at a tournament's pace, with a
/// heartbeat record every 800 ms as `play` writes while a clock runs.
fn long_game() -> Vec<Entry> {
    use shakmaty::{Chess, Position, san::San};
    let record = (1..)
        .find_map(|seed| {
            let mut rng = pegboard::sim::Rng::new(seed);
            let mut pos = Chess::default();
            let mut sans = Vec::new();
            while sans.len() < PLIES {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.is_insufficient_material() || pos.halfmoves() >= 100 {
                    return None;
                }
                let m = moves[rng.range(0, moves.len() as u64 - 1) as usize];
                sans.push(San::from_move(&pos, m).to_string());
                pos.play_unchecked(m);
            }
            Some(GameRecord {
                start: Default::default(),
                sans,
                result: "*".into(),
            })
        })
        .expect("a seed gives a long game");
    let style = Style {
        think: (20_000, 100_000),
        ..Style::default()
    };
    let hands = simulate(&record, 1, style).expect("simulated");
    // Each move announced as it is executed, as the speech output reports
    // it in `play` (and so the clock pressed).
    let events = pegboard::runtime::replay::replay(
        &hands,
        "bench",
        Settings::default(),
        Phrasebook::default(),
        &[BLIND_BOARD],
        Until::Idle,
    )
    .expect("replays");
    let mut announced: Vec<(u64, u32)> = events
        .iter()
        .filter_map(|e| match e.event {
            pegboard::core::Event::Move { ply, .. } => Some((e.t, ply)),
            _ => None,
        })
        .collect();
    announced.reverse();
    let mut moves = Vec::new();
    for e in hands {
        while let Some(&(t, ply)) = announced.last().filter(|(t, _)| *t <= e.t) {
            announced.pop();
            moves.push(Entry {
                t,
                line: 0,
                reading: Reading::Input(Input::Announced(ply)),
            });
        }
        moves.push(e);
    }
    let mut out = Vec::new();
    let mut occ = Bitboard(0xFFFF_0000_0000_FFFF);
    let mut last = 0;
    for e in moves {
        while e.t > last + 800 && !matches!(e.reading, Reading::Header(_)) {
            last += 800;
            out.push(Entry {
                t: last,
                line: 0,
                reading: Reading::Scan {
                    board: BLIND_BOARD.into(),
                    occ,
                },
            });
        }
        match &e.reading {
            Reading::Lift { square, .. } => occ = occ.without(*square),
            Reading::Place { square, .. } => occ = occ.with(*square),
            Reading::Scan { occ: o, .. } => occ = *o,
            _ => {}
        }
        last = e.t;
        out.push(e);
    }
    // The heartbeat after the last move.
    out.push(Entry {
        t: last + 800,
        line: 0,
        reading: Reading::Scan {
            board: BLIND_BOARD.into(),
            occ,
        },
    });
    out
}

fn write_journal(store: &Store, entries: &[Entry]) -> PathBuf {
    let files = store.next().expect("numbered");
    let header = Reading::Header(pegboard::trace::Header {
        time_control: Some(TimeControl::parse_pgn("5400+30").expect("control")),
        ..pegboard::trace::Header::default()
    });
    let mut w = Writer::create(files.clone(), 0, &header).expect("journal");
    for e in &entries[1..] {
        w.record(e.t, &e.reading);
    }
    assert_eq!(w.finish(), None);
    files.journal
}

#[inline(never)]
fn resume_in_process(store: &Store) -> Duration {
    let began = Instant::now();
    let numbers = store.numbers().expect("games");
    let loaded = store.load(*numbers.last().expect("a game")).expect("loads");
    let mut sheet = pegboard::scoresheet::Scoresheet::new(&Default::default(), None);
    let replayed = stream(
        loaded.entries.iter().map(Ok),
        "bench",
        Settings::default(),
        Phrasebook::default(),
        &[BLIND_BOARD],
        Until::LastLine,
        |events: &[Stamped]| {
            for e in events {
                sheet.observe(e);
            }
            Ok(())
        },
    )
    .expect("replays");
    let mut c = replayed.controller;
    let mut out = Vec::new();
    c.input(loaded.last_t(), Input::Restarted { hold: true }, &mut out);
    let took = began.elapsed();
    assert_eq!(c.game().ply() as usize, PLIES);
    assert!(sheet.pgn().contains("120."));
    took
}

fn resume_daemon(config: &Path) -> Duration {
    let began = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pegboard"))
        .args(["play", "--silent", "--seconds", "1", "--config"])
        .arg(config)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("play starts");
    let out = child.stdout.take().expect("stdout");
    let mut took = None;
    for line in BufReader::new(out).lines().map_while(Result::ok) {
        if took.is_none() && line.contains("resumed") {
            took = Some(began.elapsed());
        }
    }
    let _ = child.wait();
    took.expect("the game was resumed")
}

fn resume() {
    let entries = long_game();
    let records = entries.len();
    let mut inproc = Vec::new();
    let mut daemon = Vec::new();
    let d = dir("resume");
    let store = Store::open(&d.join("journal")).expect("store");
    let path = write_journal(&store, &entries);
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    let config = d.join("play.toml");
    std::fs::write(d.join("board.jsonl"), "{\"t\":0,\"trace\":1}\n").expect("trace");
    std::fs::write(
        &config,
        format!(
            "[journal]\ndir = \"{}\"\n[sensors]\nsource = \"trace\"\n[sensors.trace]\nfile = \"{}\"\n",
            d.join("journal").display(),
            d.join("board.jsonl").display()
        ),
    )
    .expect("config");
    for _ in 0..ROUNDS {
        inproc.push(resume_in_process(&store));
    }
    for _ in 0..5 {
        // Each run appends its restart to the journal: start each from the
        // same journal.
        let bytes = std::fs::read(&path).expect("journal");
        daemon.push(resume_daemon(&config));
        std::fs::write(&path, bytes).expect("journal back");
    }
    println!(
        "resume, {PLIES} plies, {records} records ({:.1} MB): in process median {} (max {}); \
         `play` start to `resumed` median {} (max {})",
        size as f64 / 1e6,
        ms(quantile(&mut inproc, 0.5)),
        ms(quantile(&mut inproc, 1.0)),
        ms(quantile(&mut daemon, 0.5)),
        ms(quantile(&mut daemon, 1.0)),
    );
    let _ = std::fs::remove_dir_all(&d);
}

fn durable_record() {
    let d = dir("durable");
    let store = Store::open(&d).expect("store");
    let header = Reading::Header(pegboard::trace::Header::default());
    let mut w = Writer::create(store.next().expect("numbered"), 0, &header).expect("journal");
    let mut times = Vec::new();
    for i in 0..500u64 {
        let began = Instant::now();
        let seq = w.record(
            i,
            &Reading::Scan {
                board: BLIND_BOARD.into(),
                occ: Bitboard(0xFFFF_0000_0000_FFFF),
            },
        );
        while !w.synced(seq) {
            std::hint::spin_loop();
        }
        times.push(began.elapsed());
    }
    w.finish();
    println!(
        "durable record (written and fdatasync'd by the writer thread): median {}, p99 {}, max {}",
        ms(quantile(&mut times, 0.5)),
        ms(quantile(&mut times, 0.99)),
        ms(quantile(&mut times, 1.0))
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The scan loop of `play` in miniature, at 200 Hz: a move a second by
/// fast hands (a lift, then 300 ms later the placement that executes it,
/// and its announcement 20 ms after), each as `play` journals it: the
/// placement and the announcement change the game, so the next scan is
/// handled only once they are on the disk (or after 1 s, as `play` caps
/// it). Scans are taken on time meanwhile and wait in a queue.
fn scan_loop(label: &str, seconds: u64) {
    let d = dir(&format!("scan-{}", label.len()));
    let store = Store::open(&d).expect("store");
    let header = Reading::Header(pegboard::trace::Header::default());
    let mut w = Writer::create(store.next().expect("numbered"), 0, &header).expect("journal");
    let mut poller = Poller::new(200);
    let period = Duration::from_millis(5);
    let began = Instant::now();
    let mut prev = Instant::now();
    let mut late = Vec::new();
    let mut held = Vec::new();
    let mut queue: std::collections::VecDeque<(u64, Instant)> = Default::default();
    let mut barrier: Option<(u64, Instant)> = None;
    let mut over_a_period = 0;
    let mut n = 0u64;
    while began.elapsed() < Duration::from_secs(seconds) {
        let t = poller.wait();
        let now = Instant::now();
        let gap = now - prev;
        prev = now;
        if gap > period * 2 {
            over_a_period += 1;
        }
        late.push(gap.saturating_sub(period));
        queue.push_back((n, now));
        n += 1;
        loop {
            if let Some((seq, since)) = barrier {
                if !w.synced(seq) && since.elapsed() < Duration::from_secs(1) {
                    break;
                }
                barrier = None;
            }
            let Some((k, taken)) = queue.pop_front() else {
                break;
            };
            held.push(taken.elapsed());
            let scan = |occ: u64| Reading::Scan {
                board: BLIND_BOARD.into(),
                occ: Bitboard(occ),
            };
            match k % 200 {
                0 => {
                    w.record(t, &scan(k));
                }
                60 => barrier = Some((w.record(t, &scan(k)), Instant::now())),
                64 => {
                    let seq = w.record(t, &Reading::Input(Input::Announced(1)));
                    barrier = Some((seq, Instant::now()));
                }
                _ => {}
            }
        }
    }
    w.finish();
    println!(
        "scan loop at 200 Hz, a move a second{label}: {} scans, taken late by p99 {} / max {}, \
         {over_a_period} later than one period; handled after the disk p50 {} / p99 {} / max {}",
        late.len(),
        ms(quantile(&mut late, 0.99)),
        ms(quantile(&mut late, 1.0)),
        ms(quantile(&mut held, 0.5)),
        ms(quantile(&mut held, 0.99)),
        ms(quantile(&mut held, 1.0)),
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Another program writing 4 MB blocks and syncing them, meanwhile.
fn disk_load(stop: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    let d = dir("load");
    std::thread::spawn(move || {
        let block = vec![0x5au8; 4 << 20];
        let path = d.join("load.bin");
        while !stop.load(Ordering::SeqCst) {
            if let Ok(mut f) = std::fs::File::create(&path) {
                let _ = f.write_all(&block);
                let _ = f.sync_all();
            }
        }
        let _ = std::fs::remove_dir_all(&d);
    })
}

fn main() {
    // `JOURNAL_BENCH=resume-once`: one resume in the process and nothing
    // else, for counting its instructions (tools/callgrind-resume.sh).
    if std::env::var("JOURNAL_BENCH").as_deref() == Ok("resume-once") {
        let entries = long_game();
        let d = dir("once");
        let store = Store::open(&d.join("journal")).expect("store");
        write_journal(&store, &entries);
        let took = resume_in_process(&store);
        println!("one resume in process: {}", ms(took));
        let _ = std::fs::remove_dir_all(&d);
        return;
    }
    resume();
    durable_record();
    scan_loop("", 5);
    let stop = Arc::new(AtomicBool::new(false));
    let load = disk_load(Arc::clone(&stop));
    scan_loop(", another program syncing 4 MB blocks", 5);
    stop.store(true, Ordering::SeqCst);
    let _ = load.join();
}
