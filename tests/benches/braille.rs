//! The Braille display's pace in `pegboard play`: `cargo bench --bench
//! braille`.
//!
//! A real brltty (Debian's, its Virtual driver played by the benchmark as
//! a 40-cell display) and `play` on a simulated scanner playing the Opera
//! Game, the voices the text voice (whose announcement begins as soon as
//! the move is printed: the earliest any voice begins). For every move,
//! the figure is the time from its announcement (the `announced` event
//! line `play --events` prints) to the display's showing its line (the
//! `Braille` line brltty sends the display), both taken by the benchmark
//! as they arrive. A line shown before the announcement counts as 0.
//!
//! Target: every move shown within 50 ms of its announcement (the worst
//! move). The smoke run (`PEGBOARD_BENCH_SMOKE=1`) plays the game's first
//! twelve moves instead of all 33.

#[path = "../support/bench.rs"]
mod bench;
#[path = "../support/brltty.rs"]
mod brltty;

use std::time::{Duration, Instant};

use brltty::{Brltty, Play, lou_dots, opera_trace, play_config};

const CELLS: usize = 40;

fn main() {
    let mut targets = bench::Targets::new("braille");
    let dir = std::env::temp_dir().join(format!("pegboard-bench-braille-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let number = 300 + (std::process::id() % 50) as u16;
    let brltty = Brltty::start("bench", number, CELLS);
    let (trace, sans) = opera_trace(&dir, 11, bench::pick(usize::MAX, 12));
    let config = play_config(&dir, &trace, &brltty.host, "");
    let mut play = Play::start(&[], &config);
    let mut seen = Vec::new();
    // The moves as pegboard writes them, with check signs: from its event
    // lines (the display's line is held against liblouis's cells of them).
    let mut announced = Vec::new();
    let mut written = Vec::new();
    for ply in 1..=sans.len() {
        let (_, moved) = play.event_until(Duration::from_secs(30), &mut seen, |v| {
            v["event"] == "move" && v["ply"] == ply
        });
        written.push(moved["san"].as_str().unwrap_or_default().to_string());
        let (at, _) = play.event_until(Duration::from_secs(10), &mut seen, |v| {
            v["event"] == "announced" && v["ply"] == ply
        });
        announced.push(at);
    }
    std::thread::sleep(Duration::from_millis(500));
    play.stop();
    let shown = brltty.shown_so_far();
    // brltty stopped now: the benchmark's end (a missed target exits the
    // process) would leave it running.
    drop(brltty);
    if std::env::var("PEGBOARD_BRAILLE_TRACE").is_ok() {
        let t0 = announced[0];
        for (at, cells) in &shown {
            let ms = if *at >= t0 {
                at.duration_since(t0).as_secs_f64() * 1e3
            } else {
                -(t0.duration_since(*at).as_secs_f64() * 1e3)
            };
            println!("shown at {ms:.1}: {}", cells.join("|"));
        }
        for (at, v) in &seen {
            let ms = if *at >= t0 {
                at.duration_since(t0).as_secs_f64() * 1e3
            } else {
                -(t0.duration_since(*at).as_secs_f64() * 1e3)
            };
            println!("event at {ms:.1}: {v}");
        }
    }
    let mut late = Vec::new();
    let mut missing = Vec::new();
    for (i, san) in written.iter().enumerate() {
        let ply = i + 1;
        let number = ply.div_ceil(2);
        let dots = if ply % 2 == 1 { "." } else { "..." };
        let mut start = lou_dots("en-ueb-g1.ctb", &format!("{number}{dots} {san}"));
        start.push(String::new());
        let at: Option<Instant> = shown
            .iter()
            .find(|(_, cells)| cells.starts_with(&start))
            .map(|(at, _)| *at);
        match at {
            Some(at) => {
                let ms = at.saturating_duration_since(announced[i]).as_secs_f64() * 1e3;
                if ms > 50.0 {
                    println!("  ply {ply} ({san}): shown {ms:.1} ms after its announcement");
                }
                late.push(ms);
            }
            None => missing.push(ply),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    targets.holds(
        "every move shown on the display",
        missing.is_empty(),
        &format!("plies {missing:?} never shown"),
    );
    late.sort_by(f64::total_cmp);
    let median = if late.is_empty() {
        f64::INFINITY
    } else {
        bench::quantile(&late, 0.5)
    };
    let worst = late.last().copied().unwrap_or(f64::INFINITY);
    println!(
        "{} moves: shown after the announcement median {median:.1} ms, worst {worst:.1} ms",
        late.len()
    );
    targets.at_most(
        "the worst move's line on the display after its announcement",
        worst,
        50.0,
        "ms",
    );
    targets.finish();
}
