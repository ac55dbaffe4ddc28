#!/usr/bin/env bash
# Strength and robustness runs for docs/strength.md. Long (hours); not part
# of the test suite. Each section writes its PGN and the `chimera match`
# report under $OUT and prints the report.
#
#   scripts/strength.sh [stockfish|baseline|sprt|robust|all]
#
# Environment (defaults in brackets):
#   CHIMERA      engine binary under test [target/release/chimera, built here]
#   CONCURRENCY  games at once [2]
#   OUT          results folder [results/strength/<UTC date-time>]
#   SF_ELOS      Stockfish UCI_Elo levels ["1500 2000 2300 2600"]
#   SF_GAMES     games per level [200: about ±50 Elo at a 50% score]
#   BASELINE_SPEC  the material-only baseline as a --engine spec; there is
#                no default yet (see docs/strength.md): the baseline section
#                is skipped until it is set
#   OLD_REV      earlier version for the SPRT runs [HEAD~1]
#   SPRT_TC      time control of the SPRT runs [10+0.1]
#   SPRT_MAX     game cap of each SPRT run [20000]
#   ROBUST_GAMES games per variant in the robustness run [170: 1020 in all]
#   ROBUST_TC    time control of the robustness run [1+0.03]
set -euo pipefail

cd "$(dirname "$0")/.."
WHAT=${1:-all}
CONCURRENCY=${CONCURRENCY:-2}
OUT=${OUT:-results/strength/$(date -u +%Y%m%dT%H%M%SZ)}
SF=/usr/games/stockfish
SF_ELOS=${SF_ELOS:-"1500 2000 2300 2600"}
SF_GAMES=${SF_GAMES:-200}
OLD_REV=${OLD_REV:-HEAD~1}
SPRT_TC=${SPRT_TC:-10+0.1}
SPRT_MAX=${SPRT_MAX:-20000}
ROBUST_GAMES=${ROBUST_GAMES:-170}
ROBUST_TC=${ROBUST_TC:-1+0.03}
VARIANTS="chess genie genie-ownhalf genesis clown magicring"

if [ -z "${CHIMERA:-}" ]; then
    cargo build --release -p chimera
    CHIMERA=$PWD/target/release/chimera
fi
mkdir -p "$OUT"
echo "results in $OUT"

# run NAME ARGS...: one chimera match, report to $OUT/NAME.txt, games to $OUT/NAME.pgn.
run() {
    local name=$1
    shift
    echo "== $name: chimera match $*"
    "$CHIMERA" match "$@" --concurrency "$CONCURRENCY" --pgn "$OUT/$name.pgn" | tee "$OUT/$name.txt"
}

ENGINE="name=chimera,cmd=$CHIMERA,args=uci,option.Hash=64,option.Threads=1"

stockfish() {
    if [ ! -x "$SF" ]; then
        echo "SKIPPED stockfish section: $SF is not installed (apt-get install stockfish)"
        return
    fi
    for elo in $SF_ELOS; do
        run "chess-vs-stockfish-$elo" --variant chess --games "$SF_GAMES" --tc 10+0.1 \
            --random-plies 6 --seed 1 \
            --engine "$ENGINE" \
            --engine "name=stockfish-$elo,cmd=$SF,option.Hash=64,option.Threads=1,option.UCI_LimitStrength=true,option.UCI_Elo=$elo"
    done
}

baseline() {
    if [ -z "${BASELINE_SPEC:-}" ]; then
        echo "SKIPPED baseline section: set BASELINE_SPEC to the material-only baseline's --engine spec"
        return
    fi
    for v in $VARIANTS; do
        run "$v-vs-baseline" --variant "$v" --games 200 --tc 10+0.1 --random-plies 8 --seed 2 \
            --engine "$ENGINE" --engine "$BASELINE_SPEC"
    done
}

sprt() {
    local old_dir=/tmp/chimera-old-$$
    git worktree add --detach "$old_dir" "$OLD_REV"
    (cd "$old_dir" && cargo build --release -p chimera)
    local old_bin=$old_dir/target/release/chimera
    local rev
    rev=$(git rev-parse --short "$OLD_REV")
    for v in $VARIANTS; do
        run "$v-sprt-vs-$rev" --variant "$v" --games "$SPRT_MAX" --tc "$SPRT_TC" --random-plies 8 --seed 3 \
            --sprt elo0=0,elo1=10,alpha=0.05,beta=0.05 \
            --engine "$ENGINE" --engine "name=chimera-$rev,cmd=$old_bin,args=uci,option.Hash=64,option.Threads=1"
    done
    git worktree remove --force "$old_dir"
}

robust() {
    local bad=0
    for v in $VARIANTS; do
        run "$v-robustness" --variant "$v" --games "$ROBUST_GAMES" --tc "$ROBUST_TC" --random-plies 8 --seed 4 \
            --engine "name=chimera-a,cmd=$CHIMERA,args=uci,option.Hash=16" \
            --engine "name=chimera-b,cmd=$CHIMERA,args=uci,option.Hash=16"
        grep -q '^Faults: none' "$OUT/$v-robustness.txt" || { echo "FAULTS in $v"; bad=1; }
    done
    local total
    total=$(cat "$OUT"/*-robustness.pgn | grep -c '^\[Round ' || true)
    echo "robustness: $total games across all variants; faults: $([ $bad = 0 ] && echo none || echo SOME, see above)"
    return $bad
}

case $WHAT in
    stockfish) stockfish ;;
    baseline) baseline ;;
    sprt) sprt ;;
    robust) robust ;;
    all) stockfish; baseline; sprt; robust ;;
    *) echo "usage: $0 [stockfish|baseline|sprt|robust|all]" >&2; exit 2 ;;
esac
