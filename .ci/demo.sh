#!/usr/bin/env bash
# Plays the demo game in real time, with the sighted opponent's page (the
# mirror) at http://127.0.0.1:8080/. Extra arguments go to `pegboard demo`,
# e.g.  bash .ci/demo.sh --speed 10
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=setup.sh
. .ci/setup.sh
cargo run --locked --release --quiet -- demo --mirror 127.0.0.1:8080 "$@"
