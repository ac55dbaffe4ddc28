#!/usr/bin/env python3
"""Random Genesis Chess playouts judged by Fairy-Stockfish (pyffish).

Used by `crates/rules/tests/genesis.rs` (test `pyffish_oracle_playouts`),
which replays every game through Chimera's rules and checks that the legal
move sets and the game outcomes agree at every ply.

Usage: genesis_playouts.py [INI_PATH] [--games N] [--seed S] [--max-plies P]

INI_PATH is the Fairy-Stockfish variant configuration; by default the
project's own `scripts/oracle/genesis.ini` beside this script.

Output, one line each (tab-separated fields):

    game <index>
    ply <fen> <sorted legal moves, space-separated> <nomoves> <insufficient> <optional> <move>
    end <plies> <why>

Fields of a `ply` line, all as Fairy-Stockfish reports them:
  fen           pyffish.get_fen of the position
  moves         pyffish.legal_moves, sorted, UCI strings
  nomoves       '-' when there are legal moves, else pyffish.game_result
                (negative: the side to move is mated; 0: stalemate)
  insufficient  pyffish.has_insufficient_material as two letters 'TF'
                (White, Black); both 'T' means FSF calls the game drawn
  optional      pyffish.is_optional_game_end: '-' or its result value; FSF
                uses it for the n-move rule and repetition. It is asked with
                the position after the last capture or placement as start
                and the moves since then: FSF never looks back further (its
                rule-50 counter is reset exactly by those moves here), so
                this is the same answer as with the whole game, but cheap.
  move          the move then played, or '-' on the last ply

Playouts are biased towards long games with captures and checks: with some
probability a capture, else a checking move, else a move of a piece already
on the board is preferred to a random move. A game ends when FSF says it is
over (no legal move, insufficient material on both sides, optional end) or
after --max-plies plies.
"""

import argparse
import multiprocessing
import os
import random
import sys

import pyffish as sf

VARIANT = "genesis"


def board_colors(fen):
    """Map square name -> 'w'/'b' for the board part of a FEN."""
    placement = fen.split()[0].split("[")[0]
    out = {}
    for i, row in enumerate(placement.split("/")):
        rank = 8 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            elif ch == "~":
                continue
            else:
                out["abcdefgh"[f] + str(rank)] = "w" if ch.isupper() else "b"
                f += 1
    return out


def is_capture(move, colors, turn):
    if "@" in move:
        return False
    to = move[2:4]
    return to in colors and colors[to] != turn


def near_king(move, fen):
    """Whether `move` lands within two squares of the enemy King (a cheap
    stand-in for "gives check": asking FSF costs a full position set-up)."""
    turn = fen.split()[1]
    enemy = "k" if turn == "w" else "K"
    placement = fen.split()[0].split("[")[0]
    for i, row in enumerate(placement.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            elif ch != "~":
                if ch == enemy:
                    to = move[-2:]
                    df = abs("abcdefgh".index(to[0]) - f)
                    dr = abs(int(to[1]) - (8 - i))
                    return max(df, dr) <= 2
                f += 1
    return False


def pick(rng, fen, moves):
    turn = fen.split()[1]
    colors = board_colors(fen)
    caps = [m for m in moves if is_capture(m, colors, turn)]
    if caps and rng.random() < 0.7:
        return rng.choice(caps)
    if rng.random() < 0.35:
        near = [m for m in moves if near_king(m, fen)]
        if near:
            return rng.choice(near)
    board_moves = [m for m in moves if "@" not in m]
    if board_moves and rng.random() < 0.5:
        return rng.choice(board_moves)
    return rng.choice(moves)


def position_key(fen):
    """Board with reserves, and side to move: what a repetition compares."""
    f = fen.split()
    return f[0] + " " + f[1]


def few_pieces(fen):
    """Both reserves empty and at most four pieces besides the Kings: the only
    positions where FSF can find both sides without mating material (it needs
    every non-King piece to be a lone minor/pawn or bishops of one colour)."""
    board = fen.split()[0]
    pocket = board[board.index("[") + 1 : -1] if "[" in board else ""
    if pocket not in ("", "-"):
        return False
    placement = board.split("[")[0]
    return sum(1 for ch in placement if ch.isalpha() and ch not in "kK") <= 4


def play_game(args):
    index, seed, max_plies = args
    rng = random.Random(seed * 100003 + index)
    out = [f"game\t{index}\n"]
    fen = START
    window_fen, window_moves, window_keys = fen, [], {position_key(fen): 1}
    why = "max-plies"
    ply = 0
    while True:
        moves = sorted(sf.legal_moves(VARIANT, fen, []))
        nomoves = "-" if moves else str(sf.game_result(VARIANT, fen, []))
        w = b = False
        if few_pieces(fen):
            w, b = sf.has_insufficient_material(VARIANT, fen, [])
        insuf = ("T" if w else "F") + ("T" if b else "F")
        opt_end = False
        optional = "-"
        if int(fen.split()[4]) >= 100 or window_keys[position_key(fen)] >= 3:
            opt_end, opt_val = sf.is_optional_game_end(VARIANT, window_fen, window_moves)
            optional = str(opt_val) if opt_end else "-"
        over = not moves or (w and b) or opt_end or ply >= max_plies
        move = "-" if over else pick(rng, fen, moves)
        out.append(f"ply\t{fen}\t{' '.join(moves)}\t{nomoves}\t{insuf}\t{optional}\t{move}\n")
        if over:
            if not moves:
                why = "no legal moves"
            elif w and b:
                why = "insufficient material"
            elif opt_end:
                why = "optional end"
            break
        irreversible = "@" in move or is_capture(move, board_colors(fen), fen.split()[1])
        fen = sf.get_fen(VARIANT, fen, [move])
        if irreversible:
            window_fen, window_moves, window_keys = fen, [], {}
        else:
            window_moves.append(move)
        key = position_key(fen)
        window_keys[key] = window_keys.get(key, 0) + 1
        ply += 1
    out.append(f"end\t{ply}\t{why}\n")
    return "".join(out)


START = None

# The project's Genesis configuration, beside this script.
DEFAULT_INI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "genesis.ini")


def init_worker(ini):
    global START
    with open(ini) as f:
        sf.load_variant_config(f.read())
    # As FSF writes it (its reserve order), not as the .ini spells it.
    START = sf.get_fen(VARIANT, sf.start_fen(VARIANT), [])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ini", nargs="?", default=DEFAULT_INI)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--max-plies", type=int, default=150)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()

    tasks = [(g, args.seed, args.max_plies) for g in range(args.games)]
    if args.jobs <= 1:
        init_worker(args.ini)
        results = map(play_game, tasks)
    else:
        pool = multiprocessing.Pool(args.jobs, initializer=init_worker, initargs=(args.ini,))
        results = pool.imap(play_game, tasks, chunksize=4)
    for text in results:
        sys.stdout.write(text)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
