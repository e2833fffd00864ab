//! `pegboard replay`'s memory and speed on long recordings, measured on the
//! real binary: `cargo bench --bench replay_memory`.
//!
//! It writes two recordings of the demo game at 200 Hz (a raw scan every
//! 5 ms, as a scanner delivers them), one of about 20 minutes and one of
//! about 3 hours (about 2 million raw scans), runs `pegboard replay` on
//! each with its events going to /dev/null, and reports the peak resident
//! memory (the kernel's VmHWM, read from /proc while it runs) and the raw
//! scans replayed per second. Memory that stays the same for both
//! recordings is memory that does not grow with the recording.
//!
//! Targets: peak memory ≤ 20 MB for each, and no more than 1 MB more for
//! the long one than for the short one; ≥ 1,000,000 raw scans a second.
//! The smoke run (`PEGBOARD_BENCH_SMOKE=1`) takes 20 minutes and 1 hour.

#[path = "../support/bench.rs"]
mod bench;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pegboard::record::pgn::read_games;
use pegboard::sim::{Style, simulate};
use pegboard::trace::{self, Reading};

/// Writes a recording of the demo game whose moves are `think` ms apart on
/// average; returns its path and its number of raw scans.
fn recording(name: &str, think: (u64, u64)) -> (std::path::PathBuf, u64) {
    let games = read_games(pegboard::runtime::demo::GAME.as_bytes()).expect("demo game");
    let style = Style {
        scan_period: 5,
        think,
        ..Style::default()
    };
    let entries = simulate(&games[0].record, 11, style).expect("simulate");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
    let mut scans = 0;
    for e in &entries {
        if matches!(e.reading, Reading::Scan { .. }) {
            scans += 1;
        }
        writeln!(out, "{}", trace::write_line(e.t, &e.reading)).expect("write");
    }
    out.flush().expect("flush");
    (path, scans)
}

/// The peak resident memory of a running process so far, in kB.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Replays `path` with the real binary; returns the peak memory in MB and
/// the seconds it took.
fn replay(path: &std::path::Path) -> (f64, f64) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pegboard"))
        .arg("replay")
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("pegboard runs");
    let mut peak = 0;
    loop {
        if let Some(kb) = peak_kb(child.id()) {
            peak = peak.max(kb);
        }
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "replay failed: {status}");
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    (peak as f64 / 1024.0, started.elapsed().as_secs_f64())
}

fn main() {
    // Criterion's flags (--bench) are accepted and ignored.
    let mut targets = bench::Targets::new("replay_memory");
    println!("pegboard replay on 200 Hz recordings of the demo game (33 plies):");
    println!(
        "{:>10} {:>12} {:>14} {:>10} {:>16}",
        "length", "raw scans", "file", "peak RSS", "raw scans/s"
    );
    let long = bench::pick(
        ("replay-3h.jsonl", (300_000, 360_000)),
        ("replay-1h.jsonl", (100_000, 120_000)),
    );
    let mut peaks = Vec::new();
    for (name, think) in [("replay-20min.jsonl", (30_000, 42_000)), long] {
        let (path, scans) = recording(name, think);
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let (mb, secs) = replay(&path);
        let minutes = scans as f64 * 5.0 / 60_000.0;
        println!(
            "{:>8.0} m {:>12} {:>11.0} MB {:>7.1} MB {:>16.0}",
            minutes,
            scans,
            bytes as f64 / 1e6,
            mb,
            scans as f64 / secs
        );
        let _ = std::fs::remove_file(&path);
        let length = format!("{minutes:.0} minutes");
        targets.at_most(&format!("peak memory, {length}"), mb, 20.0, "MB");
        targets.at_least(
            &format!("replayed, {length}"),
            scans as f64 / secs,
            1_000_000.0,
            "raw scans/s",
        );
        peaks.push(mb);
    }
    targets.at_most(
        "peak memory the long recording adds to the short one's",
        peaks[1] - peaks[0],
        1.0,
        "MB",
    );
    targets.finish();
}
