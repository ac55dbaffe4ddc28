#!/usr/bin/env bash
# Calibration of the engine's levels 1-8 (chimera_session::LEVELS) as
# house-bot ratings, for docs/bots.md and chimera_session::LEVEL_RATINGS.
# Long (an hour or more); not part of the test suite.
#
#   scripts/calibrate-levels.sh [play|fit|all]
#
# `play` plays the matches, `fit` fits every game under $OUT
# (scripts/fit-levels.py) and writes $OUT/ratings.txt, $OUT/ratings.json
# and $OUT/level_ratings.rs (the figures as crates/session/src/level_ratings.rs,
# to copy there); `all` (the default) does both.
#
# Every level is Chimera as the web server plays it, through `chimera
# match --engine "cmd=...,level=N"`: the level's Skill Level, depth cap and
# movetime, a fresh engine each move, no clock.
#
# The matches, in rounds (each round a new --seed, so new openings):
#   - chess: each level of ANCHORS against Debian's Stockfish
#     (/usr/games/stockfish, 15.1: UCI_Elo 1350-2850) with
#     UCI_LimitStrength=true at the anchor's UCI_Elo, Stockfish on the same
#     movetime as the level it plays; and the ladder of adjacent levels
#     1v2, 2v3, ... 7v8, which places the levels below Stockfish's floor;
#   - every other variant (`chimera variants --ids`): the same ladder.
# The fit ties each variant to chess at ANCHOR_LEVEL (that level's rating in
# the variant is its chess rating; docs/bots.md says why).
#
# Openings: RANDOM_PLIES random legal plies from the start position, each
# opening played with both colours (the levels are deterministic for a given
# position and seed, so a fixed opening would repeat one game). Round r of
# the k-th variant of VARIANTS (chess: 0) uses seed SEED + r - 1 + 100 k:
# with one seed for all, genie and genie-ownhalf, which differ only in where
# a pawn may flip, replayed the same games move for move at levels 1-5.
#
# Games per pairing and round, by what a game costs: GAMES_LOW for two
# levels up to 5 (their depth caps end each search in milliseconds: a game
# takes about a second), GAMES_MID where level 6 or Stockfish against levels
# 2-6 plays (a tenth to half a second a move), GAMES_HIGH where level 7 or 8
# plays (0.7 and 1 s a move, a minute or two a game). Rounds go on until ROUNDS are played or DEADLINE passes: no match
# starts after it, so a deadline gives every pairing its share of the time
# rather than the first ones all of it. Each round starts with the next
# variant in turn, so a round cut short does not always favour chess.
#
# Environment (defaults in brackets):
#   CHIMERA       the engine binary [target/release/chimera, built here]
#   STOCKFISH     Stockfish binary [/usr/games/stockfish]
#   OUT           results folder [results/calibrate-levels/<UTC date-time>]
#   CONCURRENCY   games at once [1: a level's strength at levels 6-8 is its
#                 nodes in the movetime, which a busy machine shrinks]
#   VARIANTS      variants [every one the binary knows]
#   ANCHORS       chess anchors, LEVEL:UCI_ELO ["2:1350 3:1500 4:1700 5:1900 6:2200 7:2300 8:2600"]
#   ANCHOR_LEVEL  the level each variant shares with chess in the fit [4]
#   GAMES_LOW     games per pairing and round, levels 1-5 [40]
#   GAMES_MID     ... with level 6 or Stockfish below level 7 [6]
#   GAMES_HIGH    ... with level 7 or 8 [2]
#   ROUNDS        rounds at most [1]
#   DEADLINE      no match starts after this (anything `date -d` reads, e.g.
#                 "06:00 UTC") [none]
#   SEED          seed of the first round's openings (above) [1]
#   RANDOM_PLIES  random plies of each opening [4]
#   TIMEMARGIN    ms a level or Stockfish may overrun its movetime before it
#                 loses on time [1000: a loaded two-core machine delays a
#                 process by hundreds of ms at times]
#   ADJUDICATE    --adjudicate spec [resign=4:800,draw=40:8:10,maxmoves=150]
#   PRIOR_DRAWS   the fit's virtual draws per pairing [1]
set -euo pipefail

cd "$(dirname "$0")/.."
WHAT=${1:-all}
OUT=${OUT:-results/calibrate-levels/$(date -u +%Y%m%dT%H%M%SZ)}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
CONCURRENCY=${CONCURRENCY:-1}
ANCHORS=${ANCHORS:-"2:1350 3:1500 4:1700 5:1900 6:2200 7:2300 8:2600"}
ANCHOR_LEVEL=${ANCHOR_LEVEL:-4}
GAMES_LOW=${GAMES_LOW:-40}
GAMES_MID=${GAMES_MID:-6}
GAMES_HIGH=${GAMES_HIGH:-2}
ROUNDS=${ROUNDS:-1}
DEADLINE=${DEADLINE:-}
SEED=${SEED:-1}
RANDOM_PLIES=${RANDOM_PLIES:-4}
TIMEMARGIN=${TIMEMARGIN:-1000}
ADJUDICATE=${ADJUDICATE:-resign=4:800,draw=40:8:10,maxmoves=150}
PRIOR_DRAWS=${PRIOR_DRAWS:-1}
if [ -z "${CHIMERA:-}" ]; then
    cargo build --release -p chimera
    CHIMERA=$PWD/target/release/chimera
fi
VARIANTS=${VARIANTS:-$("$CHIMERA" variants --ids | xargs)}
DEADLINE_S=
[ -z "$DEADLINE" ] || DEADLINE_S=$(date -d "$DEADLINE" +%s)
mkdir -p "$OUT"
echo "results in $OUT"

# games_for LEVEL [stockfish]: games per round of a pairing whose stronger
# level is LEVEL (with Stockfish: against Stockfish).
games_for() {
    if [ "$1" -le 5 ] && [ -z "${2:-}" ]; then
        echo "$GAMES_LOW"
    elif [ "$1" -le 6 ]; then
        echo "$GAMES_MID"
    else
        echo "$GAMES_HIGH"
    fi
}

# past_deadline: true once DEADLINE has passed.
past_deadline() {
    [ -n "$DEADLINE_S" ] && [ "$(date +%s)" -ge "$DEADLINE_S" ]
}

# match VARIANT NAME GAMES SEED ENGINE ENGINE [ARGS...]: one `chimera match`,
# games to $OUT/VARIANT/NAME.sSEED.pgn, its report beside them (.txt).
match() {
    local variant=$1 name=$2 games=$3 seed=$4 e1=$5 e2=$6
    shift 6
    local dir=$OUT/$variant
    mkdir -p "$dir"
    local base=$dir/$name.s$seed
    if [ -s "$base.txt" ]; then
        echo "== $variant $name seed $seed: done before, kept"
        return
    fi
    echo "== $(date -u +%H:%M:%S) $variant $name: $games games, seed $seed"
    "$CHIMERA" match --variant "$variant" --games "$games" --seed "$seed" --random-plies "$RANDOM_PLIES" \
        --concurrency "$CONCURRENCY" --timemargin "$TIMEMARGIN" --adjudicate "$ADJUDICATE" \
        --engine "$e1" --engine "$e2" "$@" --pgn "$base.pgn.part" >"$base.txt.part"
    mv "$base.pgn.part" "$base.pgn"
    mv "$base.txt.part" "$base.txt"
    grep -E '^(Score of|Faults)' "$base.txt" | sed 's/^/   /'
}

level() {
    echo "name=level-$1,cmd=$CHIMERA,args=uci,level=$1"
}

movetime_of() {
    # The level's movetime, as `chimera match` announces it for level=N
    # before it starts the engines (here none: the command is a missing file).
    local said mt
    said=$("$CHIMERA" match --engine "cmd=/nonexistent,level=$1" --engine cmd=/nonexistent --movetime 1 2>&1 || true)
    mt=$(sed -n 's/.*level [0-9]*: .*movetime \([0-9]*\) ms.*/\1/p' <<<"$said" | head -n 1)
    [ -n "$mt" ] || { echo "cannot read level $1's movetime from: $said" >&2; exit 1; }
    echo "$mt"
}

play() {
    if [ ! -x "$STOCKFISH" ]; then
        echo "no Stockfish at $STOCKFISH (apt-get install stockfish)" >&2
        exit 1
    fi
    local variants=($VARIANTS) round
    for ((round = 1; round <= ROUNDS; round++)); do
        local n=${#variants[@]} k
        echo "== round $round"
        for ((k = 0; k < n; k++)); do
            local vi=$(((k + round - 1) % n))
            local v=${variants[$vi]} lo seed=$((SEED + round - 1 + 100 * vi))
            for ((lo = 1; lo < 8; lo++)); do
                past_deadline && { echo "== deadline $DEADLINE passed: stopping"; return; }
                match "$v" "level-$lo-vs-level-$((lo + 1))" "$(games_for $((lo + 1)))" "$seed" \
                    "$(level $lo)" "$(level $((lo + 1)))" --movetime 1000
            done
            if [ "$v" = chess ]; then
                local a
                for a in $ANCHORS; do
                    past_deadline && { echo "== deadline $DEADLINE passed: stopping"; return; }
                    local l=${a%%:*} elo=${a##*:} mt
                    mt=$(movetime_of "$l")
                    match chess "level-$l-vs-stockfish-$elo" "$(games_for "$l" stockfish)" "$seed" "$(level "$l")" \
                        "name=stockfish-$elo,cmd=$STOCKFISH,option.Threads=1,option.UCI_LimitStrength=true,option.UCI_Elo=$elo" \
                        --movetime "$mt"
                done
            fi
        done
    done
}

fit() {
    python3 scripts/fit-levels.py "$OUT" --anchor-level "$ANCHOR_LEVEL" --prior-draws "$PRIOR_DRAWS" \
        --variants "$("$CHIMERA" variants --ids | xargs)" --json "$OUT/ratings.json" \
        --rust "$OUT/level_ratings.rs" | tee "$OUT/ratings.txt"
}

case $WHAT in
    play) play ;;
    fit) fit ;;
    all) play && fit ;;
    *) echo "usage: $0 [play|fit|all]" >&2; exit 2 ;;
esac
