#!/usr/bin/env bash
# The scale-out measurement of docs/deploy.md: 200 live friend games (5+3
# clocks) over two `chimera serve` instances (release build) on one
# throwaway PostgreSQL cluster (fsync on), half with both players on one
# instance and half with the players on different instances; random legal
# moves after a think time; instance B SIGKILLed midway, its clients
# reconnecting to A; every acknowledged move checked in the database at the
# end. Prints the figures and writes them to target/scale-report.txt.
#
#   scripts/bench-scale.sh
#   CHIMERA_SCALE_GAMES=400 CHIMERA_SCALE_SECS=180 scripts/bench-scale.sh
#   CHIMERA_SCALE_THINK_MIN_MS=200 CHIMERA_SCALE_THINK_MAX_MS=600 scripts/bench-scale.sh
#
# Needs PostgreSQL's server binaries (scripts/setup-postgres.sh installs them).
# The clients run on the same machine as the servers and the database: on a
# small machine the figures are the whole system's, not the server's alone.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-postgres.sh
mkdir -p target
export CHIMERA_SCALE_BENCH=1
export CHIMERA_SCALE_REPORT="$PWD/target/scale-report.txt"
cargo test --release -p chimera --test scale_out -- scale_bench --nocapture --test-threads=1
echo "report: $CHIMERA_SCALE_REPORT"
