#!/usr/bin/env python3
"""How one engine's scores and results go with the pawns it is up, from a chess PGN.

    .venv/bin/python scripts/eval-gap.py games.pgn ENGINE [FIRST-LAST]

Reads the games of a `chimera match` PGN (orthodox chess only; games of
other variants are left out and counted) that ENGINE played, with the
cutechess comment after each move, `{+0.31/12 0.412s}` (docs/match.md).
For each of ENGINE's moves from move FIRST to move LAST (10-40 unless
given) it takes the position after the move when both sides have the same
pieces (Knights, Bishops, Rooks, Queens; Pawns aside), and sorts it by the
Pawns ENGINE is up (-2 or fewer to +2 or more). For each row it prints:

- positions: ENGINE's moves that reached such a position;
- ENGINE's score: the mean of its own search score there, in pawns from
  its side, and the opponent's: the mean of the opponent's next search
  score, from ENGINE's side too (only pairs where neither is a mate nor
  beyond ±4 pawns count);
- games: the games that reached such a position at least once, and
  ENGINE's score in them.

Games of other variants, and games with a move python-chess cannot read,
are left out and counted. An engine whose score rises with its extra
Pawns while its results do not values Pawns more than its opponent lets
them be worth: in docs/strength.md §51 the built-in chess net, one Pawn
up against Stockfish 2600, said +1.02 where Stockfish said -0.09, and
scored 34.1% in the games where that happened against 32.5% where it
stood level. Needs python-chess (scripts/setup-python.sh puts it in .venv).
"""
import sys
from collections import defaultdict

from chess_games import EngineGames, chess
from pgn_comments import search_score

PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
# Scores beyond this (mates among them: infinite) say who wins, not what a
# Pawn is worth, and stay out of the means.
CLIP = 4.0


def window(text):
    try:
        first, last = (int(x) for x in text.split("-"))
    except ValueError:
        sys.exit(f"eval-gap.py: FIRST-LAST must be two move numbers like 10-40, not '{text}'")
    if first < 1 or last < first:
        sys.exit(f"eval-gap.py: FIRST-LAST must have 1 <= FIRST <= LAST, not '{text}'")
    return first, last


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[1].strip().replace(".venv/bin/python ", "usage: "))
    path, engine = argv[1], argv[2]
    first, last = window(argv[3]) if len(argv) == 4 else (10, 40)
    ours, theirs, counts = defaultdict(list), defaultdict(list), defaultdict(int)
    reached = defaultdict(list)
    played = 0
    read = EngineGames(path, engine)
    for _, game, side, result in read:
        played += 1
        board = game.board()
        pending, rows = None, set()
        for node in game.mainline():
            mover, number = board.turn, board.fullmove_number
            board.push(node.move)
            s = search_score(node.comment)
            if mover != side:
                if pending is not None and s is not None and abs(s) <= CLIP:
                    row, mine = pending
                    ours[row].append(mine)
                    theirs[row].append(-s)
                pending = None
                continue
            if not first <= number <= last:
                continue
            if any(len(board.pieces(p, side)) != len(board.pieces(p, not side)) for p in PIECES):
                continue
            up = len(board.pieces(chess.PAWN, side)) - len(board.pieces(chess.PAWN, not side))
            row = max(-2, min(2, up))
            counts[row] += 1
            rows.add(row)
            pending = (row, s) if s is not None and abs(s) <= CLIP else None
        for row in rows:
            reached[row].append(result)
    if played == 0:
        sys.exit(f"eval-gap.py: no finished chess game of '{engine}' in {path}")
    print(f"{engine}: {played} games, moves {first}-{last}, positions with the same pieces on both sides")
    read.print_left_out()
    print()
    print(f"| Pawns up | positions | {engine}'s score | opponent's score | games | {engine}'s game score |")
    print("| --- | --- | --- | --- | --- | --- |")
    names = {-2: "-2 or fewer", 0: "0", 2: "+2 or more"}

    def mean(xs):
        return f"{sum(xs) / len(xs):+.2f}" if xs else "-"

    for row in range(-2, 3):
        games = reached[row]
        game_score = f"{100 * sum(games) / len(games):.1f}%" if games else "-"
        print(
            f"| {names.get(row, f'{row:+d}')} | {counts[row]} | {mean(ours[row])} | {mean(theirs[row])} "
            f"| {len(games)} | {game_score} |"
        )


if __name__ == "__main__":
    main(sys.argv)
