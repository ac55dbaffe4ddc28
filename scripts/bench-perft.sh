#!/usr/bin/env bash
# Perft speed of chimera against Stockfish's `go perft` on the same
# positions, in the same run (machines here are noisy: compare ratios, not
# absolute times). Needs the Debian package `stockfish` (/usr/games/stockfish).
#   scripts/bench-perft.sh            # builds chimera in release mode first
set -euo pipefail
cd "$(dirname "$0")/.."
SF=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
[ -x "$SF" ] || { echo "stockfish not found (apt-get install stockfish)"; exit 1; }
cargo build --release -q -p chimera
CH=target/release/chimera

now_ms() { date +%s%3N; }

run_case() { # name fen depth
  local name=$1 fen=$2 depth=$3
  local t0 t1 t2 t3 ours theirs
  t0=$(now_ms)
  if [ "$fen" = startpos ]; then
    ours=$($CH perft --variant chess --depth "$depth" | awk '/Nodes searched/ {print $3}')
  else
    ours=$($CH perft --variant chess --depth "$depth" --fen "$fen" | awk '/Nodes searched/ {print $3}')
  fi
  t1=$(now_ms)
  local pos="position startpos"
  [ "$fen" = startpos ] || pos="position fen $fen"
  t2=$(now_ms)
  theirs=$(printf '%s\ngo perft %s\nquit\n' "$pos" "$depth" | "$SF" | awk '/Nodes searched/ {print $3}')
  t3=$(now_ms)
  local ms_ours=$((t1 - t0)) ms_sf=$((t3 - t2))
  [ "$ours" = "$theirs" ] || { echo "$name: node counts differ: chimera $ours, stockfish $theirs"; exit 1; }
  awk -v n="$name" -v d="$depth" -v nodes="$ours" -v a="$ms_ours" -v b="$ms_sf" 'BEGIN {
    printf "%-16s depth %d  %11d nodes  chimera %6d ms (%5.0f Mnps)  stockfish %6d ms (%5.0f Mnps)  speed ratio chimera/stockfish %.2fx\n",
      n, d, nodes, a, nodes/(a>0?a:1)/1000, b, nodes/(b>0?b:1)/1000, (b>0?b:1)/(a>0?a:1) }'
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) cores, $("$SF" </dev/null | head -1)"
run_case startpos startpos 6
run_case kiwipete "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 5
echo
echo "chimera bench perft (every variant):"
$CH bench perft
