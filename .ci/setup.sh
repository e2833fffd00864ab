#!/usr/bin/env bash
# Installs what pegboard needs to build and test on a fresh Debian or
# Raspberry Pi OS machine: system packages through apt, and Rust through
# rustup if there is no cargo yet. Safe to run again: it installs only what
# is missing. Sourced by .ci/test.sh and .ci/demo.sh.
set -euo pipefail

packages=(
    build-essential pkg-config ca-certificates curl
    # Speech: speech-dispatcher's client library (the tts crate binds it with
    # bindgen, which needs libclang) and ALSA headers for cpal.
    libspeechd-dev libclang-dev clang libasound2-dev
    # The real-component tests: speech-dispatcher with espeak-ng, a
    # PulseAudio server with a null sink, and parecord to record it.
    speech-dispatcher speech-dispatcher-espeak-ng espeak-ng
    pulseaudio pulseaudio-utils
    # ALSA's plugins with libjack, as a desktop install has them: the test
    # that their noise is caught while an output opens needs them there.
    libasound2-plugins libjack-jackd2-0
    # The clip maker (tools/make-clips.py), which the pronunciation test
    # runs to check that the shipped clips are what it makes.
    sox libsox-fmt-all
    # The serial scanner's test: a linked pseudo-terminal pair.
    socat
    # The scoresheet's tests read every PGN back with python-chess too
    # (from PyPI below: Debian 12 has no python3-chess).
    python3 python3-pip
    # The mirror's browser tests: Debian's Chromium and its chromedriver,
    # driven over WebDriver (never a browser downloaded by a tool).
    chromium chromium-driver
    # The journal bench's slow disk: strace holds every sync a while.
    strace
    # The engine a player practises against (Debian puts it in /usr/games),
    # and the public-domain Polyglot opening book it plays the opening from.
    stockfish gnuchess-book
    # The classification of openings the `opening` question names the
    # opening from (/usr/share/pgn-extract/eco.pgn), and pgn-extract
    # itself, whose own classification the tests hold pegboard's against.
    pgn-extract
    # The HTTPS certificate's fingerprint, held against openssl's.
    openssl
    # The scoresheet in Braille: liblouis to link and its tables, and its
    # own lou_translate, which the tests hold pegboard's Braille against.
    liblouis-dev liblouis-bin
    # A refreshable Braille display: brltty's client library to link, and
    # brltty itself, whose Virtual driver the tests play as the display.
    libbrlapi-dev brltty
)
# A package installed for this machine and for the Pi's (the cross build's
# arm64 libraries) answers only to its name with this machine's
# architecture.
native=$(dpkg --print-architecture)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || dpkg -s "$p:$native" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "pegboard setup: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# python-chess, the reader the scoresheet tests hold pegboard's PGN against.
if ! python3 -c 'import chess.pgn' >/dev/null 2>&1; then
    echo "pegboard setup: installing python-chess (PyPI: chess)"
    python3 -m pip install --quiet --disable-pip-version-check "chess==1.*" 2>/dev/null ||
        python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "chess==1.*"
fi

# berserk, the lichess Python client, which the test lichess is held
# against (tests/lichess_server.rs).
if ! python3 -c 'import berserk' >/dev/null 2>&1; then
    echo "pegboard setup: installing berserk (PyPI)"
    python3 -m pip install --quiet --disable-pip-version-check "berserk==0.14.0" 2>/dev/null ||
        python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "berserk==0.14.0"
fi

# lichess's published API types (made by lichess from its OpenAPI
# description: @lichess-org/types) and the TypeScript compiler, with which
# the tests hold the test lichess's requests and answers against that
# description (tests/lichess_server.rs). From the npm registry, at pinned
# versions, kept outside the repository.
if ! command -v npm >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "pegboard setup: installing nodejs npm"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm
fi
npm_dir="${PEGBOARD_NPM:-$HOME/.cache/pegboard-npm}"
if ! grep -q '"version": "2.0.171"' "$npm_dir/node_modules/@lichess-org/types/package.json" 2>/dev/null ||
    [ ! -x "$npm_dir/node_modules/.bin/tsc" ]; then
    echo "pegboard setup: installing @lichess-org/types and typescript (npm) into $npm_dir"
    mkdir -p "$npm_dir"
    npm install --no-audit --no-fund --silent --prefix "$npm_dir" \
        "@lichess-org/types@2.0.171" "typescript@5.9.3"
fi

if ! command -v cargo >/dev/null 2>&1 && [ -f "$HOME/.cargo/env" ]; then
    # shellcheck disable=SC1091
    . "$HOME/.cargo/env"
fi
if ! command -v cargo >/dev/null 2>&1; then
    echo "pegboard setup: installing Rust 1.95 with rustup"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs |
        sh -s -- -y --profile minimal --default-toolchain 1.95 -c clippy -c rustfmt
    # shellcheck disable=SC1091
    . "$HOME/.cargo/env"
fi
