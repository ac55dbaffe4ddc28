#!/usr/bin/env bash
# Self-play games for Texel tuning (`chimera tune`, docs/engine.md "Tuning"):
# the engine against itself at a fixed node count in every variant, random
# opening plies, PGN per variant under $OUT. Not part of the test suite.
#
#   scripts/texel-data.sh
#
# Environment (defaults in brackets):
#   CHIMERA      engine binary [target/release/chimera, built here]
#   OUT          folder for the PGNs [data/texel]
#   GAMES        games per variant [600]
#   NODES        nodes per move [5000]
#   SEED0        first seed (variant i uses SEED0 + i) [100]
#   CONCURRENCY  games at once [2]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CHIMERA:-}" ]; then
    cargo build --release -p chimera
    CHIMERA=$PWD/target/release/chimera
fi
OUT=${OUT:-data/texel}
GAMES=${GAMES:-600}
NODES=${NODES:-5000}
seed=${SEED0:-100}
mkdir -p "$OUT"
for v in chess genie genie-ownhalf genesis clown magicring; do
    seed=$((seed + 1))
    "$CHIMERA" match --variant "$v" --games "$GAMES" --nodes "$NODES" --random-plies 8 --seed "$seed" \
        --concurrency "${CONCURRENCY:-2}" --adjudicate maxmoves=300 --pgn "$OUT/$v.pgn" \
        --engine "name=a,cmd=$CHIMERA,args=uci,option.Hash=16" \
        --engine "name=b,cmd=$CHIMERA,args=uci,option.Hash=16" | tee "$OUT/$v.txt"
done
echo "then: $CHIMERA tune $OUT/*.pgn --only material.genie,clown.,genie.,genesis.,ring. --prior 0.0002"
