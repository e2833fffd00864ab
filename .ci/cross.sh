#!/usr/bin/env bash
# The Raspberry Pi build, verified on this machine: cross-compiles pegboard
# for aarch64-unknown-linux-gnu (64-bit Raspberry Pi OS) with the `rpi`
# feature, using Debian's gcc-aarch64-linux-gnu and arm64 libraries, and
# runs the test suite under qemu-aarch64 (Debian's qemu-user), but for the tests named
# below that need a serial port or hold nothing that differs on the Pi.
# docs/cross-build.md explains each step.
#
# If this machine cannot get the target's standard library or the arm64
# packages, it says so plainly and fails: a green run must mean that the
# Pi's build was built and tested. A build or test failure is a failure.
#
#   bash .ci/cross.sh          build, then run the tests under qemu
#   bash .ci/cross.sh build    build only (.ci/test.sh builds it this way
#                              while the native tests run, then runs it)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-all}
case "$mode" in
    all | build) ;;
    *)
        echo "usage: bash .ci/cross.sh [build]" >&2
        exit 2
        ;;
esac

target=aarch64-unknown-linux-gnu

cannot() {
    echo "== aarch64: FAILED: $*" >&2
    echo "== aarch64: the Pi build cannot be verified on this machine." >&2
    exit 1
}

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

# 1. The Rust standard library for the Pi.
if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    echo "== aarch64: installing the Rust standard library for $target"
    rustup target add "$target" ||
        cannot "the Rust standard library for $target cannot be installed (rustup target add failed; this machine may not reach the Rust distribution server)"
fi

# 2. The cross compiler, the Pi's libraries (Debian multiarch) and qemu-user.
# (libjack and ALSA's plugins for arm64: tests/cli.rs catches libjack's
# noise under emulation as natively, so it must be there to make it.)
packages=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
    libspeechd-dev:arm64 libasound2-dev:arm64 liblouis-dev:arm64
    libbrlapi-dev:arm64
    libasound2-plugins:arm64 libjack-jackd2-0:arm64)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "== aarch64: installing ${missing[*]}"
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        $sudo dpkg --add-architecture arm64
    fi
    { $sudo apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } ||
        cannot "the arm64 packages (${missing[*]}) cannot be installed"
fi

# 3. Build and test. The linker and pkg-config are the cross ones; bindgen
# (speech-dispatcher's bindings) reads the arm64 headers. qemu-aarch64 runs
# each test binary, finding the arm64 C library in /lib/aarch64-linux-gnu
# (multiarch); the tests start the pegboard binary through it as well.
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER=qemu-aarch64
export PEGBOARD_TEST_RUNNER=qemu-aarch64
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export PKG_CONFIG_aarch64_unknown_linux_gnu=aarch64-linux-gnu-pkg-config
export BINDGEN_EXTRA_CLANG_ARGS_aarch64_unknown_linux_gnu="--target=aarch64-linux-gnu -I/usr/include/aarch64-linux-gnu"

# Release mode: the tests then run against the very binary the Pi runs
# (the tests start target/$target/release/pegboard), and under emulation
# optimised code keeps the suite quick.
echo "== aarch64: the test suite, release build with --features rpi, under qemu-aarch64"
# The tests that open a serial port (three in tests/serial_scanner.rs, the
# chaos test of tests/chaos.rs, whose daemon reads a serial scanner, and the
# online games of tests/lichess_play.rs played on a simulated scanner,
# `play_on_lichess_…`; its game read from a trace runs here) are left to
# the native run:
# qemu-user does not emulate the termios2 ioctls (TCGETS2/TCSETS2) that
# serialport uses to set a port's speed, so opening a serial port fails under
# emulation with "Function not implemented". On a real Pi, and natively in
# .ci/test.sh, they run.
# Four test files hold what is the same on the Pi, byte for byte, and run
# in the native pass only: the language files against espeak-ng and the
# dictionaries (pronunciation), the pages as Chromium shows them
# (mirror_browser, console_browser; the Pi's own server is tried by
# mirror_http and console_http here), and the test lichess against berserk
# (lichess_server; pegboard's own client is tried by lichess_client here).
# So do the hall view in Chromium (hall_browser) and the whole round of 24
# boards (hall_round: 24 emulated plays would take the emulator's whole
# time; the hub itself is tried here by hall and https).
tests=()
for file in tests/*.rs; do
    name=$(basename "$file" .rs)
    case "$name" in
        pronunciation | mirror_browser | console_browser | lichess_server | hall_browser | hall_round) ;;
        *) tests+=(--test "$name") ;;
    esac
done
if [ "$mode" = build ]; then
    cargo test --locked --release --features rpi --target "$target" --lib --bins "${tests[@]}" --no-run
    exit 0
fi
cargo test --locked --release --features rpi --target "$target" --lib --bins "${tests[@]}" -- \
    --skip handshake_garbage_corruption_staleness_and_unplug_without_losing_the_move \
    --skip play_over_the_serial_scanner_says_the_board_is_lost_and_back_and_keeps_the_move \
    --skip play_over_a_scanner_that_answers_but_sends_no_scan_says_lost_once_and_reports_the_noise \
    --skip fifty_kills_lose_no_move_and_no_second \
    --skip play_on_lichess_
echo "== aarch64: the Pi's binary"
file "target/$target/release/pegboard" 2>/dev/null || ls -l "target/$target/release/pegboard"
