#!/usr/bin/env bash
# Instructions per full matrix scan, counted by valgrind's callgrind: the
# same count on any machine for the same build, whatever else it is doing.
# Runs the scan_cost example with 0 and with N scans and divides the
# difference by N, so start-up costs cancel out.
#   tools/callgrind-scan.sh [N]      (default 20000)
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-20000}"
cargo build --release --example scan_cost >/dev/null
bin=target/release/examples/scan_cost
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" 2>&1 |
        sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
base=$(count 0)
total=$(count "$n")
echo "instructions: $total for $n scans, $base for none"
echo "instructions per scan: $(( (total - base) / n ))"
