//! The sensor side's CPU cost. The target: one full matrix scan,
//! without the settle waits, must cost under 1% of one core at 200 Hz,
//! i.e. under 50 µs.
//!
//!   cargo bench --bench sensors
//!
//! Instructions per scan, comparable across machines:
//!   tools/callgrind-scan.sh
//!
//! The target is checked on criterion's mean; the smoke run
//! (`PEGBOARD_BENCH_SMOKE=1`) measures each for a second.

#[path = "../support/bench.rs"]
mod bench;

use criterion::Criterion;
use std::hint::black_box;

use pegboard::sensors::Layout;
use pegboard::sensors::matrix::{MatrixScanner, MatrixTiming};
use pegboard::sensors::mcp23017::{DEFAULT_ADDRESSES, Mcp23017Bank};
use pegboard::sensors::serial::protocol::{FrameParser, Message, encode};
use pegboard::sim::hardware::{NoDelay, RegisterPins, SimI2cBus};

const START: u64 = 0xFFFF_0000_0000_FFFF;

fn sensors(c: &mut Criterion) {
    let pins = RegisterPins::new(START);
    let timing = MatrixTiming {
        settle_us: 10,
        check_every: 200,
    };
    let mut scanner = MatrixScanner::new(pins.drive_pins(), pins.sense_pins(), NoDelay, timing)
        .expect("register pins cannot fail");
    c.bench_function("matrix_scan", |b| {
        b.iter(|| black_box(scanner.read().unwrap_or_default()))
    });

    let turned = Layout::new(
        (7, 7),
        (7, 0),
        (0, 0),
        [0, 1, 2, 3, 4, 5, 6, 7],
        [0, 1, 2, 3, 4, 5, 6, 7],
    )
    .expect("a board");
    c.bench_function("layout_turned_board", |b| {
        b.iter(|| black_box(turned.to_board(black_box(START))))
    });

    let bus = SimI2cBus::new();
    for a in DEFAULT_ADDRESSES {
        bus.add_chip(a);
    }
    let mut bank = Mcp23017Bank::new(bus, DEFAULT_ADDRESSES, 50).expect("chips answer");
    c.bench_function("mcp23017_scan_simulated_bus", |b| {
        b.iter(|| black_box(bank.read().unwrap_or_default()))
    });

    let frame = encode(&Message::Scan {
        seq: 1,
        occ: START,
        buttons: 0,
    });
    let mut parser = FrameParser::new();
    let mut out = Vec::with_capacity(4);
    c.bench_function("serial_scan_frame_parse", |b| {
        b.iter(|| {
            out.clear();
            parser.push(black_box(&frame), &mut out);
            black_box(out.len())
        })
    });
}

fn main() {
    let mut targets = bench::Targets::new("sensors");
    let mut c = bench::criterion();
    sensors(&mut c);
    c.final_summary();
    targets.at_most(
        "a full matrix scan without the settle waits",
        bench::criterion_mean_ns("matrix_scan") / 1000.0,
        50.0,
        "µs",
    );
    targets.finish();
}
