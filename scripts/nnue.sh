#!/usr/bin/env bash
# The network evaluation (docs/engine.md, "Network evaluation"): self-play
# data, training on the CPU, and the match of each net against the
# hand-made evaluation. Long (tens of minutes to hours); not part of the
# test suite. The data is regenerated here, never committed.
#
#   scripts/nnue.sh [data|train|curve|match|all]
#
#   data   chimera datagen: $VARIANT self-play at $NODES nodes a move for
#          $SECONDS seconds → $OUT/$VARIANT.bin
#   train  chimera train on $DATA → $OUT/$VARIANT.nnue
#          (from $INIT when set: fine-tuning, e.g. a variant from the chess net)
#   curve  one net per size in $CURVE (training positions), each against the
#          hand-made evaluation at $CURVE_NODES nodes a move, $CURVE_GAMES
#          games: the Elo-against-data table
#   match  $OUT/$VARIANT.nnue against the hand-made evaluation at $TC,
#          SPRT $SPRT_BOUNDS capped at $GAMES games
#   all    data, train, match
#
# Environment (defaults in brackets):
#   CHIMERA      engine binary [target/release/chimera, built here]
#   VARIANT      [chess]
#   OUT          folder for data, nets and reports [data/nnue]
#   SECONDS_DG   datagen time budget [2100]; NODES [2000]; SEED [1801]
#   RESIGN_CP    datagen adjudicates a win beyond it for 8 plies [2500]
#   DG_NNUE      datagen plays with a net: "builtin", or a net file [none:
#                the hand-made evaluation]
#   THREADS      datagen and training threads [all cores]
#   DATA         record files train and curve learn from, space-separated
#                [$OUT/$VARIANT.bin]; e.g. a first run's data and a second
#                one's, made in another $OUT
#   EPOCHS [10]  LR [0.002]  WDL [0]  INIT [none]
#   MIRROR       1: learn positions without castling rights in a mirror
#                too (--mirror), in every variant but Clown; 0: not (the
#                Genie, Genesis and Magic Ring nets of docs/strength.md
#                before §16 were trained without it) [1]
#   ACTIVATION   crelu or screlu [crelu for a new net; INIT's shape otherwise]
#   BUCKETS      output buckets, 1-8 [1 for a new net; INIT's otherwise]
#   KINGS        king buckets, 1, 4 or 8 [1 for a new net; INIT's otherwise]
#   FACTORISE    1: a net of king buckets learns a part of each input weight
#                shared by all buckets; 0: each bucket alone
#                (--no-factorise, as the chess net of strength.md §48) [1]
#   HIDDEN       hidden width, 16-256 in steps of 16 [128 for a new net;
#                INIT's otherwise; wider than INIT's widens it]
#   CURVE        training-set sizes of the curve ["1250000 2500000 0"; 0 = all]
#   CURVE_NODES [5000]  CURVE_GAMES [200]  CURVE_SEED [5] (the openings)
#   TC [10+0.1]  GAMES [400]  SPRT_BOUNDS [elo0=0,elo1=20,alpha=0.05,beta=0.05]
#   CONCURRENCY  games at once [2]
#   ADJUDICATE   --adjudicate spec [resign=3:1000,draw=40:8:10, and
#                ,maxmoves=300 for every variant but chess]
set -euo pipefail
cd "$(dirname "$0")/.."
WHAT=${1:-all}
VARIANT=${VARIANT:-chess}
OUT=${OUT:-data/nnue}
SECONDS_DG=${SECONDS_DG:-2100}
NODES=${NODES:-2000}
SEED=${SEED:-1801}
RESIGN_CP=${RESIGN_CP:-2500}
DG_NNUE=${DG_NNUE:-}
THREADS=${THREADS:-$(nproc)}
EPOCHS=${EPOCHS:-10}
MIRROR=${MIRROR:-1}
LR=${LR:-0.002}
WDL=${WDL:-0}
INIT=${INIT:-}
ACTIVATION=${ACTIVATION:-}
BUCKETS=${BUCKETS:-}
KINGS=${KINGS:-}
FACTORISE=${FACTORISE:-1}
HIDDEN=${HIDDEN:-}
DATA=${DATA:-$OUT/$VARIANT.bin}
CURVE=${CURVE:-"1250000 2500000 0"}
CURVE_NODES=${CURVE_NODES:-5000}
CURVE_GAMES=${CURVE_GAMES:-200}
CURVE_SEED=${CURVE_SEED:-5}
TC=${TC:-10+0.1}
GAMES=${GAMES:-400}
SPRT_BOUNDS=${SPRT_BOUNDS:-elo0=0,elo1=20,alpha=0.05,beta=0.05}
CONCURRENCY=${CONCURRENCY:-2}
# Variant games longer than 300 moves are drawn (as in §9-§11 of docs/strength.md).
adjudicate=resign=3:1000,draw=40:8:10
[ "$VARIANT" = chess ] || adjudicate+=,maxmoves=300
ADJUDICATE=${ADJUDICATE:-$adjudicate}
if [ -z "${CHIMERA:-}" ]; then
    cargo build --release -p chimera
    CHIMERA=$PWD/target/release/chimera
fi
mkdir -p "$OUT"

data() {
    local net=()
    case "$DG_NNUE" in
        "") ;;
        builtin) net=(--nnue) ;;
        *) net=(--nnue --eval-file "$(realpath "$DG_NNUE")") ;;
    esac
    "$CHIMERA" datagen --variant "$VARIANT" --games 100000000 --nodes "$NODES" --random-plies 8 \
        --max-plies 600 --resign-cp "$RESIGN_CP" --resign-plies 8 --seed "$SEED" --threads "$THREADS" \
        --seconds "$SECONDS_DG" "${net[@]}" --out "$OUT/$VARIANT.bin" | tee "$OUT/$VARIANT-data.txt"
}

# train_net OUT_NET [extra chimera train args...]
train_net() {
    local net=$1
    shift
    local init=()
    [ -z "$INIT" ] || init=(--init "$INIT")
    # Positions without castling rights are learnt in a mirror too, where
    # the rules are the same in a mirror (not Clown: its Knights move by
    # their file).
    [ "$MIRROR" = 0 ] || [ "$VARIANT" = clown ] || init+=(--mirror)
    [ -z "$ACTIVATION" ] || init+=(--activation "$ACTIVATION")
    [ -z "$BUCKETS" ] || init+=(--buckets "$BUCKETS")
    [ -z "$KINGS" ] || init+=(--kings "$KINGS")
    [ "$FACTORISE" = 1 ] || init+=(--no-factorise)
    [ -z "$HIDDEN" ] || init+=(--hidden "$HIDDEN")
    # shellcheck disable=SC2086 # DATA is a list of files
    "$CHIMERA" train $DATA --variant "$VARIANT" --epochs "$EPOCHS" --lr "$LR" --wdl "$WDL" \
        --threads "$THREADS" "${init[@]}" --out "$net" "$@" | tee "${net%.nnue}-train.txt"
}

# versus NET NAME ARGS...: the net (Use NNUE) against the hand-made evaluation.
versus() {
    local net name=$2
    net=$(realpath "$1")
    shift 2
    "$CHIMERA" match --variant "$VARIANT" \
        --engine "name=nnue,cmd=$CHIMERA,args=uci,option.Hash=64,option.Use NNUE=true,option.EvalFile=$net" \
        --engine "name=hce,cmd=$CHIMERA,args=uci,option.Hash=64,option.Use NNUE=false" \
        --random-plies 8 --adjudicate "$ADJUDICATE" --concurrency "$CONCURRENCY" \
        --pgn "$OUT/$name.pgn" "$@" | tee "$OUT/$name.txt"
}

train() { train_net "$OUT/$VARIANT.nnue"; }

curve() {
    for n in $CURVE; do
        # A net already trained (same name) is reused: delete it to retrain.
        [ -s "$OUT/$VARIANT-$n.nnue" ] || train_net "$OUT/$VARIANT-$n.nnue" --positions "$n"
        versus "$OUT/$VARIANT-$n.nnue" "$VARIANT-$n-vs-hce" --nodes "$CURVE_NODES" --games "$CURVE_GAMES" --seed "$CURVE_SEED"
    done
    echo "| training positions | result against the hand-made evaluation |"
    for n in $CURVE; do
        echo "| $(head -1 "$OUT/$VARIANT-$n-train.txt" | sed 's/.*, \([0-9]*\) training positions.*/\1/') | $(grep -h 'Elo difference by pairs' "$OUT/$VARIANT-$n-vs-hce.txt") |"
    done
}

match() { versus "$OUT/$VARIANT.nnue" "$VARIANT-vs-hce-$TC" --tc "$TC" --games "$GAMES" --seed 9 --timemargin 200 --sprt "$SPRT_BOUNDS"; }

case "$WHAT" in
    data) data ;;
    train) train ;;
    curve) curve ;;
    match) match ;;
    all) data; train; match ;;
    *) echo "usage: $0 [data|train|curve|match|all]" >&2; exit 2 ;;
esac
