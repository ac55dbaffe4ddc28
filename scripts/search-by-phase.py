#!/usr/bin/env python3
"""Each engine's search by phase of the game, from a `chimera match` PGN.

    python3 scripts/search-by-phase.py games.pgn

`chimera match` writes cutechess's comment after every engine move,
`{+0.31/12 0.412s}` (score/depth time; docs/match.md). This sums them per
engine and per band of move numbers and prints, for each band, each
engine's moves, mean depth and mean time a move, and, when the game's
`TimeControl` tag is `BASE+INC` or `BASE` (seconds), the mean clock it had
left after those moves (the base, less the times, plus an increment a
move): where in the game one engine searched less deep or used its clock
differently (docs/strength.md §24, §38). Standard library only.
"""
import re
import sys
from collections import defaultdict

BANDS = [(1, 10), (11, 20), (21, 30), (31, 45), (46, 70), (71, None)]
COMMENT = re.compile(r"(?:[+-](?:\d+\.\d+|M\d+))?(?:/(\d+))?\s*(\d+\.\d+)s$")
TOKEN = re.compile(r"\{([^}]*)\}|(\d+)\.(\.\.)?|(\S+)")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def clock_of(tags):
    """(base, increment) in seconds from a `TimeControl` tag, or None."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?", tags.get("TimeControl", ""))
    return (float(m.group(1)), float(m.group(2) or 0)) if m else None


def games(text):
    """(white, black, movetext, clock) of each game."""
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', chunk, re.M))
        body = re.sub(r"^\[.*\]$", "", chunk, flags=re.M)
        if "White" in tags and "Black" in tags:
            yield tags["White"], tags["Black"], body, clock_of(tags)


def band_of(move_number):
    for lo, hi in BANDS:
        if move_number >= lo and (hi is None or move_number <= hi):
            return lo
    return BANDS[-1][0]


def main(path):
    # sums[(engine, band)] = [moves, moves with a depth, depth sum, seconds,
    # moves with a clock, clock left sum]
    sums = defaultdict(lambda: [0, 0, 0, 0.0, 0, 0.0])
    engines = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for white, black, body, tc in games(text):
        left = {white: tc[0], black: tc[0]} if tc else None
        for e in (white, black):
            if e not in engines:
                engines.append(e)
        number, side, mover = 1, white, None
        for comment, num, dots, word in TOKEN.findall(body):
            if num:
                # `N.` comes before White's move, `N...` before Black's.
                number, side = int(num), black if dots else white
            elif word:
                if word in RESULTS:
                    break
                mover, side = side, black if side == white else white
            elif mover is not None:
                m = COMMENT.match(comment.strip())
                if m:
                    if left is not None:
                        left[mover] += tc[1] - float(m.group(2))
                    for key in ((mover, band_of(number)), (mover, "all")):
                        s = sums[key]
                        s[0] += 1
                        if m.group(1):
                            s[1] += 1
                            s[2] += int(m.group(1))
                        s[3] += float(m.group(2))
                        if left is not None:
                            s[4] += 1
                            s[5] += left[mover]
    if not engines:
        sys.exit(f"{path}: no game with White and Black tags")
    head = "| moves | " + " | ".join(f"{e}: moves, depth, time a move, clock left" for e in engines) + " |"
    print(head)
    print("| --- " * (len(engines) + 1) + "|")
    for lo, hi in BANDS + [("all", "")]:
        label = "all" if lo == "all" else (f"{lo}-{hi}" if hi else f"{lo} on")
        cells = []
        for e in engines:
            n, nd, d, t, nc, c = sums[(e, lo)]
            depth = f"{d / nd:.1f}" if nd else "-"
            clock = f"{c / nc:.2f} s" if nc else "-"
            cells.append(f"{n:,}, {depth}, {t / n:.3f} s, {clock}" if n else "-")
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
