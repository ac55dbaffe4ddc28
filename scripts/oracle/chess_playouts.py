#!/usr/bin/env python3
"""Random chess playouts judged by python-chess, as JSON lines.

The differential test `crates/rules/tests/oracle_chess.rs` runs this script
and checks that the chimera rules agree with python-chess at every ply:
the FEN, the set of legal moves, the SAN of every legal move, and the
outcome when the game is over.

One JSON object per ply:

    {"game": 3, "ply": 17, "fen": "...", "legal": ["a2a3", ...],
     "san": ["a3", ...], "played": "e1g1" | null,
     "outcome": null | {"result": "1/2-1/2", "reason": "stalemate"}}

`legal` is sorted; `san[i]` is the SAN of `legal[i]`. `played` is null on
the last line of a game (game over, or the ply cap reached). Ply 0 of each
game carries its start position.

Outcomes use python-chess semantics aligned with chimera's (automatic
draws, checked in this order): checkmate, stalemate, dead material
(`is_insufficient_material()`: K v K, K+minor v K, every bishop on one
square colour), fifty moves (halfmove clock >= 100), threefold repetition
(`is_repetition(3)`).

Playouts are seeded and biased in several styles so that captures, checks,
promotions, castling, en passant, long games and repetitions all occur.
"""

import argparse
import json
import random
import sys

import chess

# Start positions besides the standard one: the chessprogramming wiki's
# perft positions (castling, en passant, promotions), and endgames close to
# the fifty-move rule or to dead material.
START_FENS = [
    # Kiwipete (perft position 2): castling both ways, pins, en passant.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    # Position 3: en passant with a horizontal pin on the fifth rank.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    # Position 4 and its mirror: promotions, castling, checks.
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    # Position 5.
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    # Position 6.
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    # En passant available at once (and a double step for Black to answer).
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    # Pawns about to promote on both sides.
    "8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    # Rook endgame near the fifty-move limit.
    "8/8/4k3/8/8/3K4/8/R7 w - - 90 120",
    # Knight and bishop endgames that can reach dead material by captures.
    "8/8/3nk3/8/8/3BK3/8/8 w - - 0 60",
    "8/2b5/4k3/8/8/3KB3/8/8 w - - 40 70",
    "8/1b6/4k3/8/3N4/3K4/8/8 b - - 96 90",
    # Queens and rooks only: long games with checks and repetitions.
    "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
]

STYLES = ["uniform", "captures", "checks", "pawns", "special", "quiet", "shuffle"]


def outcome(board):
    """(result, reason) or None, in chimera's order."""
    if not any(board.generate_legal_moves()):
        if board.is_check():
            return ("0-1" if board.turn == chess.WHITE else "1-0", "checkmate")
        return ("1/2-1/2", "stalemate")
    if board.is_insufficient_material():
        return ("1/2-1/2", "dead material")
    if board.halfmove_clock >= 100:
        return ("1/2-1/2", "fifty-move rule")
    if board.is_repetition(3):
        return ("1/2-1/2", "threefold repetition")
    return None


def choose(board, legal, style, rng, history):
    """Picks the move to play, biased by the game's style."""
    def pick(pred, p):
        if rng.random() < p:
            cands = [m for m in legal if pred(m)]
            if cands:
                return rng.choice(cands)
        return None

    m = None
    if style == "captures":
        m = pick(board.is_capture, 0.7)
    elif style == "checks":
        m = pick(board.gives_check, 0.6) or pick(board.is_capture, 0.3)
    elif style == "pawns":
        m = pick(lambda x: x.promotion is not None, 0.9) or pick(
            lambda x: board.piece_type_at(x.from_square) == chess.PAWN, 0.6)
    elif style == "special":
        m = (pick(lambda x: board.is_castling(x) or board.is_en_passant(x) or x.promotion is not None, 0.95)
             or pick(lambda x: board.piece_type_at(x.from_square) == chess.PAWN
                     and abs(x.to_square - x.from_square) == 16, 0.5))
    elif style == "quiet":
        m = pick(lambda x: not board.is_zeroing(x), 0.9)
    elif style == "shuffle":
        # Undo the move played two plies ago when possible: repetitions.
        if len(history) >= 2 and rng.random() < 0.8:
            back = chess.Move(history[-2].to_square, history[-2].from_square)
            if back in legal:
                m = back
        if m is None:
            m = pick(lambda x: not board.is_zeroing(x), 0.8)
    return m if m is not None else rng.choice(legal)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=200)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    out = sys.stdout
    for g in range(args.games):
        if g % 4 == 3:
            board = chess.Board(rng.choice(START_FENS))
        else:
            board = chess.Board()
        style = STYLES[g % len(STYLES)]
        # Most games run to the cap; some are cut short to keep the run quick.
        cap = args.max_plies if rng.random() < 0.6 else rng.randint(20, args.max_plies)
        history = []
        for ply in range(cap + 1):
            legal = sorted(board.legal_moves, key=lambda m: m.uci())
            over = outcome(board)
            rec = {
                "game": g,
                "ply": ply,
                "fen": board.fen(),
                "legal": [m.uci() for m in legal],
                "san": [board.san(m) for m in legal],
                "played": None,
                "outcome": None if over is None else {"result": over[0], "reason": over[1]},
            }
            if over is None and ply < cap:
                m = choose(board, legal, style, rng, history)
                rec["played"] = m.uci()
                out.write(json.dumps(rec, separators=(",", ":")) + "\n")
                board.push(m)
                history.append(m)
            else:
                out.write(json.dumps(rec, separators=(",", ":")) + "\n")
                break
    out.flush()


if __name__ == "__main__":
    main()
