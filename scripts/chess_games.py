"""The finished chess games one engine played in a `chimera match` PGN, read
with python-chess: what scripts/eval-gap.py and scripts/loss-probe.py read.
Games of other variants and games with a move python-chess cannot read are
counted and left out."""
import logging
import os
import sys

from pgn_comments import RESULTS

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit(
        f"{os.path.basename(sys.argv[0])} needs python-chess: run scripts/setup-python.sh and use .venv/bin/python"
    )

# python-chess logs every game of another variant it cannot read; those are
# counted and left out here instead.
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)


def plural(n, word):
    """"1 game", "2 games"."""
    return f"{n} {word}{'s' if n != 1 else ''}"


class EngineGames:
    """Iterates over (game number in the file, game, the engine's colour, its
    result: 1, 0.5 or 0) for each finished chess game the engine played."""

    def __init__(self, path, engine):
        self.path, self.engine = path, engine
        self.other_variant = self.unreadable = 0

    def __iter__(self):
        try:
            handle = open(self.path, encoding="utf-8")
        except OSError as e:
            sys.exit(f"{os.path.basename(sys.argv[0])}: cannot read {self.path}: {e.strerror}")
        number = 0
        with handle:
            while True:
                game = chess.pgn.read_game(handle)
                if game is None:
                    return
                number += 1
                h = game.headers
                if self.engine not in (h.get("White"), h.get("Black")) or h.get("Result") not in RESULTS:
                    continue
                if h.get("Variant", "chess").lower() not in ("chess", "standard"):
                    self.other_variant += 1
                    continue
                if game.errors:
                    self.unreadable += 1
                    continue
                side = chess.WHITE if h.get("White") == self.engine else chess.BLACK
                result = RESULTS[h["Result"]] if side == chess.WHITE else 1 - RESULTS[h["Result"]]
                yield number, game, side, result

    def print_left_out(self):
        """One line for each kind of game left out, if any was."""
        for count, what in ((self.other_variant, "of other variants"), (self.unreadable, "with an illegal or unreadable move")):
            if count:
                print(f"({plural(count, 'game')} {what} left out)")
