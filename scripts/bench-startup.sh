#!/usr/bin/env bash
# Start-up time of `chimera` as a UCI engine: how long `printf 'uci\nquit\n' | chimera`
# takes, over many runs, beside Stockfish in the same run (machines here are
# noisy: compare within one run). Also the first `go perft` answer time
# (tables warm), which includes nothing but move generation.
#
#   scripts/bench-startup.sh                     builds chimera (release) first; 200 runs each
#   RUNS=500 OLD_BIN=/path/to/old/chimera scripts/bench-startup.sh   also an older build
#
# Needs Debian's `stockfish` for the comparison (skipped when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-200}
cargo build --release -q -p chimera
SF=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}

measure() { # label command...
    local label=$1
    shift
    local t0 t1 c0 c1
    # Warm-up run (page cache).
    printf 'uci\nquit\n' | "$@" >/dev/null
    c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
    t0=$(date +%s%N)
    for ((i = 0; i < RUNS; i++)); do
        printf 'uci\nquit\n' | "$@" | grep -q uciok
    done
    t1=$(date +%s%N)
    c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
    awk -v l="$label" -v n="$RUNS" -v ns=$((t1 - t0)) -v ticks=$((c1 - c0)) -v hz="$(getconf CLK_TCK)" 'BEGIN {
        printf "%-28s %5d runs  wall %7.2f ms/run  CPU (user+sys, children) %7.2f ms/run\n", l, n, ns / n / 1e6, ticks / hz * 1000 / n }'
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
measure "chimera (this build)" target/release/chimera
if [[ -n ${OLD_BIN:-} ]]; then
    measure "chimera (OLD_BIN)" "$OLD_BIN"
fi
if [[ -x $SF ]]; then
    measure "stockfish ($("$SF" </dev/null | head -1 | awk '{print $2}'))" "$SF"
fi
