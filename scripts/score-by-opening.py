#!/usr/bin/env python3
"""Each engine's score on balanced and on lopsided openings, from a `chimera match` PGN.

    python3 scripts/score-by-opening.py games.pgn [THRESHOLD]

`chimera match` plays every opening twice, once with each colour, and
writes cutechess's comment after every engine move, `{+0.31/12 0.412s}`
(docs/match.md). Random plies (`--random-plies`) make many openings far
from level: one side may already have a piece more when the engines start.
This pairs the games by their opening (the `FEN` tag and the plies played
before the engines started) and calls a pair lopsided when the first search score
of either game, seen from White, is at least THRESHOLD pawns either way
(1.00 unless given; a mate score counts as lopsided), balanced otherwise.
For each engine and each kind of pair it prints the pairs, the games'
W-D-L and the score with a 95% interval over the pairs (their score's
spread, as `chimera match` counts pairs): an engine that scores less on
the balanced openings than overall is flattered by the lopsided ones,
which it wins with the good side more often than its opponent does
(docs/strength.md §50). Standard library only.
"""
import sys
from collections import defaultdict

from pgn_comments import games, interval


def main(path, threshold):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    by_opening = defaultdict(list)
    for g in games(text):
        by_opening[g[3]].append(g)
    # stats[(engine, kind)] = [pair scores a game, wins, draws, losses]
    stats = defaultdict(lambda: [[], 0, 0, 0])
    engines, unpaired = [], 0
    for group in by_opening.values():
        # Two games of one opening with the colours swapped make a pair; any
        # other group (a match cut short, an opening drawn twice) is left out.
        if len(group) != 2 or group[0][0] != group[1][1] or group[0][1] != group[1][0]:
            unpaired += len(group)
            continue
        scores = [g[4] for g in group]
        lop = any(s is None or abs(s) >= threshold for s in scores)
        kind = "lopsided" if lop else "balanced"
        for engine in (group[0][0], group[0][1]):
            if engine not in engines:
                engines.append(engine)
            s = stats[(engine, kind)]
            points = 0.0
            for white, _, result, _, _ in group:
                p = result if white == engine else 1.0 - result
                points += p
                s[1 + {1.0: 0, 0.5: 1, 0.0: 2}[p]] += 1
            s[0].append(points / 2)
    if not engines:
        sys.exit(f"{path}: no opening played with both colours")
    print(f"| engine | pairs (lopsided: a first score at least {threshold:.2f} from level) | W-D-L | score (95%) |")
    print("| --- | --- | --- | --- |")
    for engine in engines:
        for kind in ("balanced", "lopsided", "all"):
            if kind == "all":
                parts = [stats[(engine, k)] for k in ("balanced", "lopsided")]
                s = [parts[0][0] + parts[1][0]] + [parts[0][i] + parts[1][i] for i in (1, 2, 3)]
            else:
                s = stats[(engine, kind)]
            if not s[0]:
                print(f"| {engine} | {kind}: 0 | - | - |")
                continue
            mean, ci = interval(s[0])
            ci_text = f" [{ci[0]:.1f}%, {ci[1]:.1f}%]" if ci else ""
            print(f"| {engine} | {kind}: {len(s[0])} | {s[1]}-{s[2]}-{s[3]} | {mean:.1f}%{ci_text} |")
    if unpaired:
        print(f"({unpaired} game{'s' if unpaired > 1 else ''} without a colour-swapped twin left out)")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    try:
        limit = float(sys.argv[2]) if len(sys.argv) == 3 else 1.0
    except ValueError:
        sys.exit(f"THRESHOLD must be a number of pawns, not {sys.argv[2]!r}")
    if not limit > 0:
        sys.exit(f"THRESHOLD must be more than 0 pawns, not {sys.argv[2]}")
    main(sys.argv[1], limit)
