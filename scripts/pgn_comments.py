"""What the analysis scripts read from a `chimera match` PGN: game results,
and the search score in cutechess's comment after each engine move,
`{+0.31/12 0.412s}` (docs/match.md). Standard library only; imported by
scripts/score-by-opening.py and scripts/eval-gap.py."""
import math
import re

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
SCORE = re.compile(r"([+-]?)(?:(\d+\.\d+)|M(\d+))/")


def search_score(comment):
    """The comment's search score in pawns from the mover's side (a mate:
    plus or minus infinity), or None when the comment has no score."""
    m = SCORE.match(comment.strip())
    if not m:
        return None
    pawns = float(m.group(2)) if m.group(2) else math.inf
    return -pawns if m.group(1) == "-" else pawns
