#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test.
# Run it from anywhere:  bash .ci/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=setup.sh
. .ci/setup.sh

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --locked --all-targets -- -D warnings
echo "== cargo test"
cargo test --locked --lib --bins --tests
