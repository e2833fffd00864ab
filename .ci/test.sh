#!/usr/bin/env bash
# The whole test suite: formatting, lints, every test, the benchmarks' short
# runs against their targets, and the Pi's build under qemu.
# Run it from anywhere:  bash .ci/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=setup.sh
. .ci/setup.sh

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --locked --all-targets -- -D warnings
echo "== cargo clippy --features rpi (the Raspberry Pi build)"
cargo clippy --locked --features rpi --all-targets -- -D warnings
echo "== cargo test"
cargo test --locked --lib --bins --tests
echo "== the benchmarks' smoke runs (PEGBOARD_BENCH_SMOKE=1): each target, with a margin"
PEGBOARD_BENCH_SMOKE=1 cargo bench --locked --bench '*'
echo "== the Raspberry Pi build (aarch64) under qemu"
bash .ci/cross.sh
