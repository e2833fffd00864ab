//! Runs N full matrix scans on register-cost pins, for counting the
//! instructions per scan with callgrind (tools/callgrind-scan.sh):
//!
//!   scan_cost N

use pegboard::sensors::matrix::{MatrixScanner, MatrixTiming};
use pegboard::sim::hardware::{NoDelay, RegisterPins};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let pins = RegisterPins::new(0xFFFF_0000_0000_FFFF);
    let timing = MatrixTiming {
        settle_us: 10,
        check_every: 200,
    };
    let Ok(mut scanner) = MatrixScanner::new(pins.drive_pins(), pins.sense_pins(), NoDelay, timing)
    else {
        eprintln!("scan_cost: the scanner could not start");
        std::process::exit(1);
    };
    let mut x = 0u64;
    for _ in 0..n {
        x ^= scanner.read().unwrap_or_default();
    }
    println!("{n} scans, xor {x:x}");
}
