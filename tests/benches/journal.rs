//! What the journal costs:
//!
//! - resume: from the start of `pegboard play` to its `resumed` line, for
//!   a 120-move game with clocks (a four-hour game's journal: a heartbeat
//!   record every 800 ms while a clock runs), and the same work in the
//!   process (read the journal, feed it through the core, restart);
//!   target 200 ms here;
//! - a durable record: handed to the writer thread until it is on the disk
//!   (write + fdatasync), on this machine's disk;
//! - `pegboard play`'s own scan loop at 200 Hz on a game by fast hands
//!   (about a move a second), its journal in a directory of this machine's
//!   disk, each change of the game synced before the next scan is handled:
//!   how late a scan is taken (target: by no more than one period, 5 ms)
//!   and how long a scan waits to be handled; also with another program
//!   writing and syncing 4 MB blocks to the same disk meanwhile, and on a
//!   disk whose every sync takes 100 ms (strace holds each one) while
//!   game after game begins: the scan loop must never be the thread that
//!   syncs, not even when a game's journal is created.
//!
//! Run with: cargo bench --bench journal. The smoke run
//! (`PEGBOARD_BENCH_SMOKE=1`) resumes 3 times each way and plays 5 s
//! instead of 20.

#[path = "../support/bench.rs"]
mod bench;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pegboard::announce::Phrasebook;
use pegboard::core::clock::TimeControl;
use pegboard::core::{BLIND_BOARD, Input, Settings, Stamped};
use pegboard::record::journal::{Store, Writer};
use pegboard::record::pgn::GameRecord;
use pegboard::runtime::replay::{Until, stream};
use pegboard::sim::{Style, simulate};
use pegboard::trace::{Entry, Reading};
use shakmaty::Bitboard;

const PLIES: usize = 240;

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
    let mut sheet = pegboard::record::scoresheet::Scoresheet::new(&Default::default(), None);
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

fn resume(targets: &mut bench::Targets) {
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
            "[journal]\ndir = \"{}\"\n[sensors]\nsource = \"trace\"\nrealtime = true\n[sensors.trace]\nfile = \"{}\"\n",
            d.join("journal").display(),
            d.join("board.jsonl").display()
        ),
    )
    .expect("config");
    for _ in 0..bench::pick(20, 3) {
        inproc.push(resume_in_process(&store));
    }
    for _ in 0..bench::pick(5, 3) {
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
    targets.at_most(
        "play started → resumed, 120 moves with clocks, median",
        quantile(&mut daemon, 0.5).as_secs_f64() * 1000.0,
        200.0,
        "ms",
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

/// A game by fast hands, about a move a second: Kasparov – Deep Blue
/// 1997, game 6, as a trace `play` reads.
fn fast_game(dir: &Path) -> PathBuf {
    let style = Style {
        think: (400, 600),
        hand: (200, 400),
        ..Style::default()
    };
    bench::game_six_trace(dir, 3, style)
}

/// Fool's mate three times over, the pieces set up again after each: each
/// new game's journal is created within the scan loop.
fn mates_in_a_row(dir: &Path) -> PathBuf {
    let record =
        pegboard::record::pgn::read_games(b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n")
            .expect("PGN")
            .remove(0)
            .record;
    let style = Style {
        think: (100, 150),
        hand: (100, 150),
        ..Style::default()
    };
    let start = shakmaty::Board::default().occupied();
    let mut text = String::new();
    let mut offset = 0;
    for round in 0..3u64 {
        let entries = simulate(&record, round, style).expect("simulated");
        for e in &entries {
            if matches!(e.reading, Reading::Header(_)) && round > 0 {
                continue;
            }
            text += &(pegboard::trace::write_line(offset + e.t, &e.reading) + "\n");
        }
        let end = offset + entries.last().map_or(0, |e| e.t);
        // Set up again, all at once, half a second after the mate.
        let reading = Reading::Scan {
            board: BLIND_BOARD.to_string(),
            occ: start,
        };
        text += &(pegboard::trace::write_line(end + 500, &reading) + "\n");
        offset = end + 800;
    }
    let trace = dir.join("mates.jsonl");
    std::fs::write(&trace, text).expect("trace");
    trace
}

/// The scan loop's run on a disk whose every sync takes 100 ms.
const SLOW_SYNC: &str = ", every sync taking 100 ms (strace), new games beginning";

/// `pegboard play --scan-timing` at 200 Hz for `seconds` on a game by fast
/// hands, its journal in a directory of this machine's disk: every
/// placement and announcement changes the game, so its record is synced
/// before the next scan is handled (scans are taken on time meanwhile and
/// wait in a queue). What it said of its scans.
fn scan_loop(label: &str, seconds: u64) -> bench::ScanTiming {
    let d = dir(&format!("scan-{}", label.len()));
    let trace = if label == SLOW_SYNC {
        mates_in_a_row(&d)
    } else {
        fast_game(&d)
    };
    let config = d.join("play.toml");
    std::fs::write(
        &config,
        format!(
            "[journal]\ndir = \"{}\"\n[sensors]\nsource = \"trace\"\nrealtime = true\n[sensors.trace]\nfile = \"{}\"\n",
            d.join("journal").display(),
            trace.display()
        ),
    )
    .expect("config");
    let mut command = if label == SLOW_SYNC {
        let mut c = Command::new("strace");
        c.args([
            "-f",
            "--seccomp-bpf",
            "-qq",
            "-o",
            "/dev/null",
            "-e",
            "trace=fsync,fdatasync",
            "-e",
            "inject=fsync,fdatasync:delay_enter=100000",
            env!("CARGO_BIN_EXE_pegboard"),
        ]);
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_pegboard"))
    };
    let out = command
        .args(["play", "--silent", "--scan-timing", "--seconds"])
        .arg(seconds.to_string())
        .arg("--config")
        .arg(&config)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .expect("play");
    assert!(out.status.success(), "play failed");
    let printed = String::from_utf8_lossy(&out.stdout);
    let moves = printed
        .lines()
        .filter(|l| {
            l.split_once("] ")
                .is_some_and(|(_, r)| r.starts_with(char::is_numeric))
        })
        .count();
    let timing = bench::ScanTiming::of(&printed);
    println!(
        "pegboard play at 200 Hz, {moves} moves in {seconds} s, each synced{label}:\n  \
         scans taken after they were due: {}\n  scans handled after they were taken: {}",
        timing.taken, timing.handled
    );
    assert!(moves > 0, "no move was played: {printed}");
    if label == SLOW_SYNC {
        let games = std::fs::read_dir(d.join("journal"))
            .expect("journal dir")
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".journal"))
            .count();
        assert!(games >= 2, "no new game began: {games} journal");
    }
    let _ = std::fs::remove_dir_all(&d);
    timing
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
    let mut targets = bench::Targets::new("journal");
    resume(&mut targets);
    durable_record();
    let seconds = bench::pick(20, 5);
    // Alone, no scan is taken later than one period (5 ms). With another
    // program filling the same disk, the kernel's writeback can hold the
    // scan thread for longer than a period now and then (8.8 ms was seen
    // in a CI run on this machine): the target there is two periods. On
    // a disk whose every sync takes a tenth of a second (an SD card busy
    // with its own writing), the scan loop takes its scans on time all the
    // same: it never syncs, not even when a new game's journal is created.
    for (label, target) in [
        ("", 5.0),
        (", another program syncing 4 MB blocks meanwhile", 10.0),
        (SLOW_SYNC, 5.0),
    ] {
        targets.at_most_measured(
            &format!("latest scan taken by play while its journal syncs{label}"),
            target,
            "ms",
            || {
                let stop = Arc::new(AtomicBool::new(false));
                let load =
                    (!label.is_empty() && label != SLOW_SYNC).then(|| disk_load(Arc::clone(&stop)));
                let timing = scan_loop(label, seconds);
                stop.store(true, Ordering::SeqCst);
                if let Some(load) = load {
                    let _ = load.join();
                }
                timing.max_taken()
            },
        );
    }
    targets.finish();
}
