#!/usr/bin/env bash
# Plays the demo game in real time. Extra arguments go to `pegboard demo`,
# e.g.  bash .ci/demo.sh --speed 10
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=setup.sh
. .ci/setup.sh
cargo run --locked --release --quiet -- demo "$@"
