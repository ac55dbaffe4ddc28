#!/usr/bin/env bash
# The one-instance load measurement of docs/server.md ("Tests", Load): 2,000 live
# friend games with 5+3 clocks on one `chimera serve` (release build) on
# SQLite, both seats of each game on their own WebSocket (4,000 sockets),
# each player thinking a uniform random 0-10 s (mean 5 s: about 400 moves a
# second in all), random legal moves; the move round trip's p50/p95/p99,
# the server's CPU and memory; every acknowledged move checked through the
# API at the end. Prints the figures and writes them to
# target/blitz-report.txt.
#
#   scripts/bench-blitz.sh
#   CHIMERA_BLITZ_GAMES=500 CHIMERA_BLITZ_SECS=60 scripts/bench-blitz.sh
#   CHIMERA_BLITZ_THINK_MIN_MS=2000 CHIMERA_BLITZ_THINK_MAX_MS=8000 scripts/bench-blitz.sh
#
# The clients run on the same machine as the server: on a small machine the
# figures are the whole system's, and the report gives the client's CPU too.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
export CHIMERA_BLITZ_BENCH=1
export CHIMERA_BLITZ_REPORT="$PWD/target/blitz-report.txt"
cargo test --release -p chimera --test scale_out -- blitz_bench --nocapture --test-threads=1
echo "report: $CHIMERA_BLITZ_REPORT"
