#!/usr/bin/env bash
# Strength and robustness runs for docs/strength.md. Long (hours); not part
# of the test suite. Each section writes its PGN and the `chimera match`
# report under $OUT and prints the report.
#
#   scripts/strength.sh [stockfish|fsf|baseline|versus|sprt|robust|tally|all]
#
# `tally` counts the games of every section run into the same $OUT and
# fails if any report shows a fault (illegal move, crash, time loss).
#
# Environment (defaults in brackets):
#   CHIMERA      engine binary under test [target/release/chimera, built here]
#   CONCURRENCY  games at once [2]
#   OUT          results folder [results/strength/<UTC date-time>]
#   SF_LEVELS    Stockfish UCI_Elo levels and games, ELO:GAMES
#                ["2000:60 2300:200 2600:60"; 200 games give about ±50 Elo
#                at a 50% score]
#   SF_TC        time control against Stockfish [10+0.1]
#   FSF          a Fairy-Stockfish binary built from its public source (never
#                committed) for the Genesis section; the section is skipped
#                without it. It plays Genesis from scripts/oracle/genesis.ini
#   FSF_GAMES    Genesis games against Fairy-Stockfish [100]
#   FSF_TC       their time control [10+0.1]
#   FSF_MAXMOVES a Genesis game still running after this many full moves is
#                adjudicated a draw [300; Genesis pawns move every way, so a
#                fifty-move count that pawn moves reset can run for 15,000 plies]
#   ADJUDICATE   a --adjudicate spec for every match [none; the runs of
#                25 Nov 2026 used resign=3:1000,draw=40:8:10]
#   BASELINE_SPEC  the material-only baseline as a --engine spec [the same
#                binary with the UCI option Baseline=true]
#   BASE_GAMES   games per variant against the baseline [60]
#   BASE_TC      time control against the baseline [2+0.02]
#   OLD_REV      earlier version for the versus and SPRT runs [HEAD~1]
#   OLD_BIN      an already built binary of OLD_REV (skips the build)
#   VS_GAMES     chess games against OLD_REV in the versus section [400]
#   VS_TC        their time control [10+0.1]
#   VS_VARIANT_GAMES  games per other variant against OLD_REV [40]
#   VS_VARIANT_TC     their time control [2+0.02]
#   SPRT_TC      time control of the SPRT runs [2+0.02]
#   SPRT_BOUNDS  SPRT bounds [elo0=0,elo1=20,alpha=0.05,beta=0.05]
#   SPRT_MAX     game cap of each SPRT run [400]
#   SPRT_VARIANTS  variants of the SPRT runs [every variant: `chimera variants --ids`]
#   SPRT_CONCURRENCY  games at once in the SPRT runs [$CONCURRENCY]
#   TIMEMARGIN   ms an engine may overrun its clock [100; raise it on a
#                loaded machine so the scheduler's delays are not time losses]
#   ROBUST_GAMES games per variant in the robustness run [170: 1020 in all]
#   ROBUST_TC    time control of the robustness run [1+0.03]
set -euo pipefail

cd "$(dirname "$0")/.."
WHAT=${1:-all}
CONCURRENCY=${CONCURRENCY:-2}
OUT=${OUT:-results/strength/$(date -u +%Y%m%dT%H%M%SZ)}
SF=/usr/games/stockfish
SF_LEVELS=${SF_LEVELS:-"2000:60 2300:200 2600:60"}
SF_TC=${SF_TC:-10+0.1}
BASE_GAMES=${BASE_GAMES:-60}
BASE_TC=${BASE_TC:-2+0.02}
OLD_REV=${OLD_REV:-HEAD~1}
SPRT_TC=${SPRT_TC:-2+0.02}
SPRT_BOUNDS=${SPRT_BOUNDS:-elo0=0,elo1=20,alpha=0.05,beta=0.05}
SPRT_MAX=${SPRT_MAX:-400}
SPRT_CONCURRENCY=${SPRT_CONCURRENCY:-$CONCURRENCY}
TIMEMARGIN=${TIMEMARGIN:-100}
ROBUST_GAMES=${ROBUST_GAMES:-170}
ROBUST_TC=${ROBUST_TC:-1+0.03}
FSF=${FSF:-}
FSF_GAMES=${FSF_GAMES:-100}
FSF_TC=${FSF_TC:-10+0.1}
FSF_MAXMOVES=${FSF_MAXMOVES:-300}
VS_GAMES=${VS_GAMES:-400}
VS_TC=${VS_TC:-10+0.1}
VS_VARIANT_GAMES=${VS_VARIANT_GAMES:-40}
VS_VARIANT_TC=${VS_VARIANT_TC:-2+0.02}
ADJUDICATE=${ADJUDICATE:-}
if [ -z "${CHIMERA:-}" ]; then
    cargo build --release -p chimera
    CHIMERA=$PWD/target/release/chimera
fi
# Every variant the binary knows (Variant::ALL), not a list kept here.
VARIANTS=$("$CHIMERA" variants --ids | xargs)
SPRT_VARIANTS=${SPRT_VARIANTS:-$VARIANTS}
mkdir -p "$OUT"
echo "results in $OUT"

# run NAME ARGS...: one chimera match, report to $OUT/NAME.txt, games to $OUT/NAME.pgn.
run() {
    local name=$1
    shift
    echo "== $name: chimera match $*"
    local adj=()
    [ -z "$ADJUDICATE" ] || adj=(--adjudicate "$ADJUDICATE")
    "$CHIMERA" match "$@" "${adj[@]}" --concurrency "$CONCURRENCY" --pgn "$OUT/$name.pgn" | tee "$OUT/$name.txt"
}

ENGINE="name=chimera,cmd=$CHIMERA,args=uci,option.Hash=64,option.Threads=1"
BASELINE_SPEC=${BASELINE_SPEC:-"name=baseline,cmd=$CHIMERA,args=uci,option.Baseline=true"}

stockfish() {
    if [ ! -x "$SF" ]; then
        echo "SKIPPED stockfish section: $SF is not installed (apt-get install stockfish)"
        return
    fi
    for level in $SF_LEVELS; do
        local elo=${level%%:*} games=${level##*:}
        run "chess-vs-stockfish-$elo" --variant chess --games "$games" --tc "$SF_TC" \
            --random-plies 6 --seed 1 \
            --engine "$ENGINE" \
            --engine "name=stockfish-$elo,cmd=$SF,option.Hash=64,option.Threads=1,option.UCI_LimitStrength=true,option.UCI_Elo=$elo"
    done
}

# Genesis against Fairy-Stockfish at full strength, the project's config.
fsf() {
    if [ -z "$FSF" ] || [ ! -x "$FSF" ]; then
        echo "SKIPPED fsf section: set FSF to a Fairy-Stockfish binary built from its source"
        return
    fi
    ADJUDICATE=${ADJUDICATE:+$ADJUDICATE,}maxmoves=$FSF_MAXMOVES run "genesis-vs-fairy-stockfish" --variant genesis --games "$FSF_GAMES" --tc "$FSF_TC" --random-plies 2 --seed 6 \
        --engine "$ENGINE" \
        --engine "name=fairy-stockfish,cmd=$FSF,option.VariantPath=$PWD/scripts/oracle/genesis.ini,option.Hash=64,option.Threads=1"
}

baseline() {
    for v in $VARIANTS; do
        run "$v-vs-baseline" --variant "$v" --games "$BASE_GAMES" --tc "$BASE_TC" --random-plies 8 --seed 2 \
            --engine "$ENGINE" --engine "$BASELINE_SPEC"
    done
}

# old_engine: sets OLD_ENGINE (an engine spec) and OLD_NAME for OLD_REV,
# building it once per run in a worktree unless OLD_BIN is given (`all`
# reuses the build for versus and sprt); the worktree goes when the script exits.
OLD_DIR=/tmp/chimera-old-$$
OLD_ENGINE=
old_engine() {
    [ -z "$OLD_ENGINE" ] || return 0
    local old_bin=${OLD_BIN:-}
    if [ -z "$old_bin" ]; then
        git worktree add --detach "$OLD_DIR" "$OLD_REV"
        trap 'git worktree remove --force "$OLD_DIR"' EXIT
        (cd "$OLD_DIR" && cargo build --release -p chimera)
        old_bin=$OLD_DIR/target/release/chimera
    fi
    OLD_NAME=chimera-$(git rev-parse --short "$OLD_REV")
    OLD_ENGINE="name=$OLD_NAME,cmd=$old_bin,args=uci,option.Hash=64,option.Threads=1"
}

# The engine against an earlier version: chess at VS_TC (the issue's
# yardstick, seed 5), every other variant at VS_VARIANT_TC (seed 7).
versus() {
    old_engine
    local v games tc seed
    for v in $VARIANTS; do
        if [ "$v" = chess ]; then
            games=$VS_GAMES tc=$VS_TC seed=5
        else
            games=$VS_VARIANT_GAMES tc=$VS_VARIANT_TC seed=7
        fi
        run "$v-vs-$OLD_NAME" --variant "$v" --games "$games" --tc "$tc" --random-plies 8 --seed "$seed" \
            --timemargin "$TIMEMARGIN" --engine "$ENGINE" --engine "$OLD_ENGINE"
    done
}

sprt() {
    old_engine
    local v
    for v in $SPRT_VARIANTS; do
        CONCURRENCY=$SPRT_CONCURRENCY run "$v-sprt-vs-$OLD_NAME" --variant "$v" --games "$SPRT_MAX" --tc "$SPRT_TC" \
            --random-plies 8 --seed 3 --timemargin "$TIMEMARGIN" --sprt "$SPRT_BOUNDS" \
            --engine "$ENGINE" --engine "$OLD_ENGINE"
    done
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

# Every game of this run (all sections) and every fault the arbiter saw.
tally() {
    local games faults
    games=$(cat "$OUT"/*.pgn 2>/dev/null | grep -c '^\[Round ' || true)
    faults=$(grep -h '^Faults:' "$OUT"/*.txt 2>/dev/null | grep -vc '^Faults: none' || true)
    echo "tally: $games games in $OUT; reports with faults: $faults"
    [ "$faults" = 0 ]
}

case $WHAT in
    stockfish) stockfish ;;
    fsf) fsf ;;
    baseline) baseline ;;
    versus) versus ;;
    sprt) sprt ;;
    robust) robust ;;
    tally) tally ;;
    all) stockfish; fsf; baseline; versus; sprt; robust; tally ;;
    *) echo "usage: $0 [stockfish|fsf|baseline|versus|sprt|robust|tally|all]" >&2; exit 2 ;;
esac
