"""What the analysis scripts read from a `chimera match` PGN: game results,
and the search score in cutechess's comment after each engine move,
`{+0.31/12 0.412s}` (docs/match.md). Standard library only; imported by
scripts/score-by-opening.py, scripts/pair-diff.py and scripts/eval-gap.py."""
import math
import re

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
TOKEN = re.compile(r"\{([^}]*)\}|(\d+)\.(\.\.)?|(\S+)")
SCORE = re.compile(r"([+-]?)(?:(\d+\.\d+)|M(\d+))/")


def search_score(comment):
    """The comment's search score in pawns from the mover's side (a mate:
    plus or minus infinity), or None when the comment has no score."""
    m = SCORE.match(comment.strip())
    if not m:
        return None
    pawns = float(m.group(2)) if m.group(2) else math.inf
    return -pawns if m.group(1) == "-" else pawns


def first_score(body):
    """(moves, first search score from White's view in pawns or None): the
    moves up to the first comment (the last of them the engine's, the
    comment's), and that comment's score."""
    opening, white_to_move = [], True
    for comment, num, dots, word in TOKEN.findall(body):
        if num:
            white_to_move = not dots
        elif word:
            if word in RESULTS or word == "*":
                break
            opening.append(word)
            white_to_move = not white_to_move
        else:
            pawns = search_score(comment)
            if pawns is None:
                return opening, None
            # The comment follows the move just made: its mover is the side
            # that is no longer to move.
            return opening, pawns if not white_to_move else -pawns
    return opening, None


def games(text):
    """(white, black, result for White, opening key, first score) of each finished game."""
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', chunk, re.M))
        if "White" not in tags or "Black" not in tags or tags.get("Result") not in RESULTS:
            continue
        body = re.sub(r"^\[.*\]$", "", chunk, flags=re.M)
        moves, score = first_score(body)
        # The opening: the plies `chimera match` played before the engines
        # started (its `OpeningPlies` tag), else the moves before the first
        # engine move's comment.
        plies = tags.get("OpeningPlies", "")
        opening = moves[: int(plies)] if plies.isdigit() else moves[:-1]
        key = (tags.get("FEN", ""), " ".join(opening))
        yield tags["White"], tags["Black"], RESULTS[tags["Result"]], key, score


def interval(pair_scores):
    """Mean score a game in per cent, and its 95% interval over the pairs."""
    n = len(pair_scores)
    mean = sum(pair_scores) / n
    if n < 2:
        return 100 * mean, None
    sd = math.sqrt(sum((x - mean) ** 2 for x in pair_scores) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return 100 * mean, (100 * (mean - half), 100 * (mean + half))
