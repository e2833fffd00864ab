//! Costs on the hot paths: `cargo bench --bench core`.
//!
//! - idle scan: a raw scan in which nothing changed, the path a Pi pays 200
//!   times a second per board (target ≤ 100 ns);
//! - replay throughput: reading and replaying a dense 200 Hz trace of a
//!   whole game a line at a time, as `pegboard replay` streams it (target
//!   ≥ 1,000,000 raw scans per second);
//! - clock tick: what a running clock costs per millisecond tick — its
//!   timers fired and its face read for a display — alone and inside an
//!   idle controller scan.
//!
//! The targets are checked on criterion's mean; the smoke run
//! (`PEGBOARD_BENCH_SMOKE=1`) measures each for a second.

#[path = "../support/bench.rs"]
mod bench;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use pegboard::announce::Phrasebook;
use pegboard::core::{BLIND_BOARD, Controller, Settings, Stamped, StartPosition};
use pegboard::record::pgn::read_games;
use pegboard::runtime::replay::{Until, replay, stream};
use pegboard::sim::{Style, simulate};
use pegboard::trace::{self, Reading};
use shakmaty::Bitboard;

fn idle_scan(c: &mut Criterion) {
    let mut ctl = Controller::new(
        &StartPosition::default(),
        Settings::default(),
        &[BLIND_BOARD],
    )
    .expect("start");
    let mut out = Vec::new();
    let occ = Bitboard(0xffff_0000_0000_ffff);
    let mut t = 0u64;
    c.bench_function("idle_scan", |b| {
        b.iter(|| {
            t += 5;
            ctl.scan(black_box(t), 0, black_box(occ), &mut out);
        })
    });
    assert!(out.is_empty());
}

fn clock_tick(c: &mut Criterion) {
    use pegboard::core::clock::{Bonus, Clock, TimeControl};
    // Time enough that no flag falls however many ticks criterion asks
    // for: every tick is a tick of a running clock.
    let control = TimeControl::sudden_death(1 << 50, Bonus::Increment(30_000));
    let mut clock = Clock::new(control.clone()).with_warnings(
        &[600_000, 300_000, 60_000, 30_000, 10_000],
        shakmaty::ByColor::new_with(|_| true),
    );
    clock.start(0, shakmaty::Color::White);
    let mut t = 0u64;
    c.bench_function("clock_tick", |b| {
        b.iter(|| {
            t += 1;
            black_box(clock.fire(black_box(t)));
            black_box(clock.face(black_box(t)));
        })
    });
    let mut settings = Settings::default();
    settings.clock.control = Some(control);
    let mut ctl =
        Controller::new(&StartPosition::default(), settings, &[BLIND_BOARD]).expect("start");
    let mut out = Vec::new();
    ctl.start(0, &mut out);
    let occ = Bitboard(0xffff_0000_0000_ffff);
    let mut t = 0u64;
    c.bench_function("idle_scan_with_clock", |b| {
        b.iter(|| {
            t += 1;
            ctl.scan(black_box(t), 0, black_box(occ), &mut out);
        })
    });
}

fn dense_trace() -> String {
    let games = read_games(pegboard::runtime::demo::GAME.as_bytes()).expect("demo game");
    let style = Style {
        scan_period: 5,
        ..Style::default()
    };
    let entries = simulate(&games[0].record, 7, style).expect("simulate");
    let mut text = String::new();
    for e in &entries {
        text.push_str(&trace::write_line(e.t, &e.reading));
        text.push('\n');
    }
    text
}

fn replay_throughput(c: &mut Criterion) -> u64 {
    let text = dense_trace();
    let entries = trace::read(text.as_bytes(), "dense").expect("valid");
    let scans = entries
        .iter()
        .filter(|e| matches!(e.reading, Reading::Scan { .. }))
        .count() as u64;
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(scans));
    group.measurement_time(bench::pick(Duration::from_secs(10), Duration::from_secs(2)));
    group.bench_function("parse_and_replay_dense_trace", |b| {
        // What `pegboard replay` does: a line read, fed, its events handed
        // on, then the next line.
        b.iter(|| {
            let mut events = 0usize;
            let lines = trace::Reader::new(black_box(text.as_bytes()), "dense");
            stream(
                lines,
                "dense",
                Settings::default(),
                Phrasebook::default(),
                &[BLIND_BOARD],
                Until::Idle,
                |new: &[Stamped]| {
                    events += new.len();
                    Ok(())
                },
            )
            .expect("replay");
            black_box(events)
        })
    });
    group.bench_function("replay_parsed_dense_trace", |b| {
        b.iter(|| {
            let events = replay(
                black_box(&entries),
                "dense",
                Settings::default(),
                Phrasebook::default(),
                &[BLIND_BOARD],
                Until::Idle,
            )
            .expect("replay");
            black_box(events.len())
        })
    });
    group.finish();
    println!("dense trace: {scans} raw scans, {} lines", entries.len());
    scans
}

fn main() {
    let mut targets = bench::Targets::new("core");
    let mut c = bench::criterion();
    idle_scan(&mut c);
    let scans = replay_throughput(&mut c);
    clock_tick(&mut c);
    c.final_summary();
    targets.at_most(
        "an idle scan",
        bench::criterion_mean_ns("idle_scan"),
        100.0,
        "ns",
    );
    let per_game = bench::criterion_mean_ns("replay/parse_and_replay_dense_trace");
    targets.at_least(
        "replay of a trace read a line at a time",
        scans as f64 / (per_game / 1e9),
        1_000_000.0,
        "raw scans/s",
    );
    targets.finish();
}
