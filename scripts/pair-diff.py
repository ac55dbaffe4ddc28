#!/usr/bin/env python3
"""How much better one engine did than another on the same openings, pair by pair.

    python3 scripts/pair-diff.py A.pgn:ENGINE B.pgn:ENGINE [A2.pgn:ENGINE B2.pgn:ENGINE ...]

Two `chimera match` runs with the same `--seed`, `--random-plies` and
opponent play the same openings, each twice with the colours swapped
(docs/match.md). Give each run's PGN and the name its engine had there
(say the engine with one option changed, then without). For every
opening played with both colours in both runs, the pair's difference is
the first engine's points in the pair minus the second's, halved: the
score a game it gained. The openings share their bias, so these
differences spread much less than either score does, and their mean
with a 95% interval over the pairs says more than two separate intervals
(docs/strength.md §52). More couples of runs (other seeds) are pooled
pair by pair. Openings are matched by the `FEN` tag and the plies played
before the engines started (tag `OpeningPlies`), not by game number, so a
run cut short loses only its unfinished pairs. Standard library only.
"""
import math
import sys
from collections import defaultdict

from pgn_comments import games, interval


def elo(score):
    """Elo of a score in per cent (logistic), None at 0% or 100%."""
    return -400 * math.log10(100 / score - 1) if 0 < score < 100 else None


def pair_points(spec):
    """{opening: engine's points in the pair (0 to 2)} of one run."""
    path, sep, engine = spec.rpartition(":")
    if not sep or not path or not engine:
        sys.exit(f"each run is PGN:ENGINE (the engine's name in that PGN), not {spec!r}")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    by_opening = defaultdict(list)
    for white, black, result, key, _ in games(text):
        if engine in (white, black):
            by_opening[key].append((white == engine, result if white == engine else 1.0 - result))
    # Two games of an opening, one with each colour, make a pair.
    pairs = {
        key: sum(points for _, points in played)
        for key, played in by_opening.items()
        if sorted(as_white for as_white, _ in played) == [False, True]
    }
    if not pairs:
        sys.exit(f"{path}: no opening where '{engine}' played both colours")
    return pairs


def row(label, diffs, a_points, b_points):
    n = len(diffs)
    sa, sb = 50 * sum(a_points) / n, 50 * sum(b_points) / n
    mean, ci = interval([d / 100 for d in diffs])
    ci_text = f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else ""
    ea, eb = elo(sa), elo(sb)
    elo_text = f"{ea - eb:+.1f}" if ea is not None and eb is not None else "-"
    print(f"| {label} | {n} | {sa:.2f}% | {sb:.2f}% | {mean:+.2f}{ci_text} | {elo_text} |")


def main(specs):
    print("| runs | pairs | first's score | second's score | first minus second, points in 100 (95%) | Elo of the scores' gap |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    all_diffs, all_a, all_b, left_out = [], [], [], 0
    for i in range(0, len(specs), 2):
        a, b = pair_points(specs[i]), pair_points(specs[i + 1])
        common = [k for k in a if k in b]
        left_out += len(a) + len(b) - 2 * len(common)
        if not common:
            sys.exit(f"{specs[i]} and {specs[i + 1]} share no opening: were they played with the same --seed?")
        diffs = [(a[k] - b[k]) * 50 for k in common]
        row(f"{specs[i]} − {specs[i + 1]}", diffs, [a[k] for k in common], [b[k] for k in common])
        all_diffs += diffs
        all_a += [a[k] for k in common]
        all_b += [b[k] for k in common]
    if len(specs) > 2:
        row("pooled", all_diffs, all_a, all_b)
    if left_out:
        print(f"({left_out} pair{'s' if left_out > 1 else ''} played in only one run of a couple left out)")


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or len(args) % 2:
        sys.exit(__doc__)
    main(args)
