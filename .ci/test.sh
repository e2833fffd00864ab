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
# The Pi's build (aarch64) is compiled in the background, at the lowest
# priority, while the native tests run: they spend most of their time
# waiting on their own clocks, and the processor they leave idle builds it.
# Its output is shown when it is waited for, before the benchmarks (which
# must measure a machine at rest).
# It runs in a session of its own (so that it can be stopped whole), and
# Linux gives each session an equal share of the processor whatever its
# processes' nice value (autogroups): the session itself is set to nice 19
# too, where the kernel has autogroups.
mkdir -p target
cross_log=target/cross-build.log
echo "== the Raspberry Pi build (aarch64), compiling in the background at nice 19 (its output: $cross_log)"
setsid bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null || true; exec nice -n 19 bash .ci/cross.sh build' >"$cross_log" 2>&1 &
cross_pid=$!
# If the suite stops early, the background build stops with it.
trap 'kill -- -"$cross_pid" 2>/dev/null || true' EXIT
echo "== cargo test"
cargo test --locked --lib --bins --tests -- --skip play_on_lichess_
# The online games of tests/lichess_play.rs spend their time waiting on
# their own clocks (the opponent's replies, a minute of silence, lichess's
# minute after a 429), not on the processor: they run eight at a time
# rather than two. Sixteen at once, beside another build on two cores,
# starved the simulated hands and scanners.
echo "== the online games through play (tests/lichess_play.rs), eight at a time"
cargo test --locked --test lichess_play -- play_on_lichess_ --test-threads 8
echo "== the Raspberry Pi build (aarch64): waiting for it to end"
# Nothing of the suite's runs beside it now: it is waited for, so it leaves
# nice 19, where any other work on the machine (another build) would leave
# it almost no processor at all.
echo 0 >"/proc/$cross_pid/autogroup" 2>/dev/null || true
if wait "$cross_pid"; then
    cat "$cross_log"
else
    cat "$cross_log"
    echo "== the Raspberry Pi build (aarch64) FAILED (above)" >&2
    exit 1
fi
echo "== the benchmarks' smoke runs (PEGBOARD_BENCH_SMOKE=1): each target, with a margin"
cargo bench --locked --bench '*' --no-run
# The build's output is on the disk before anything is timed: a bench
# measures pegboard, not the kernel writing back what the linker wrote
# (a scan 103 ms late and an announcement 87 ms late were seen right after
# the build, never on a machine at rest).
sync
PEGBOARD_BENCH_SMOKE=1 cargo bench --locked --bench '*'
echo "== the Raspberry Pi build (aarch64) under qemu"
bash .ci/cross.sh
