#!/usr/bin/env bash
# Instructions one resume takes in the process (read a 120-move game's
# journal, feed it through the core, restart), counted by valgrind's
# callgrind inside the bench's resume function only: the same count on any
# machine for the same build, for estimating the time on a slower one.
#   tools/callgrind-resume.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --bench journal --no-run 2>/dev/null
bin=$(ls -t target/release/deps/journal-* | grep -v '\.d$' | head -1)
JOURNAL_BENCH=resume-once valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    --toggle-collect='*resume_in_process*' "$bin" 2>&1 |
    sed -n 's/.*Collected : *\([0-9]*\).*/instructions in one resume: \1/p'
