#!/usr/bin/env python3
"""Perft of Genesis Chess positions by Fairy-Stockfish (pyffish), to confirm
the numbers in `crates/rules/tests/data/genesis.perft`.

Usage:
  genesis_perft.py [INI] perft FEN DEPTH   print the leaf count
  genesis_perft.py [INI] pick PLAYOUTS N   choose N positions from an output
                                           of genesis_playouts.py and print
                                           perft-file cases for them

INI is the Fairy-Stockfish variant configuration; by default the project's
own `scripts/oracle/genesis.ini` beside this script.

The count is the plain recursion over pyffish.legal_moves (no bulk tricks):
leaves at depth 1 are len(legal_moves). Each pyffish call costs about 2 ms
(it rebuilds its piece tables), so depth 3 is used only for positions with
few moves.
"""

import os
import sys

import pyffish as sf

VARIANT = "genesis"
DEFAULT_INI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "genesis.ini")


def perft(fen, moves, depth):
    legal = sf.legal_moves(VARIANT, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(fen, moves + [m], depth - 1) for m in legal)


def pick(path, n):
    games = []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "game":
            games.append([])
        elif f[0] == "ply":
            games[-1].append((f[1], f[2].split(" ") if f[2] else [], f[6]))
    chosen = []
    # In-check positions (the previous move gave check), then a spread of plies.
    for g in games:
        for i in range(1, len(g)):
            prev_fen, _, prev_move = g[i - 1]
            if len(chosen) < n // 3 and i > 8 and sf.gives_check(VARIANT, prev_fen, [prev_move]) and g[i][1]:
                chosen.append(g[i])
                break
        if len(chosen) >= n // 3:
            break
    k = 0
    for gi, g in enumerate(games[1:], 1):
        if len(chosen) >= n:
            break
        i = [1, 3, 12, 25, 40, 60, 80, 100, 120, 140, 7, 50][k % 12]
        if i < len(g) and g[i][1]:
            chosen.append(g[i])
            k += 1
    for j, (fen, legal, _) in enumerate(chosen):
        depth = 3 if len(legal) <= 40 else 2
        print(f"id playout{j}")
        print("variant genesis")
        print(f"epd {fen}")
        for d in range(1, depth + 1):
            print(f"perft {d} {perft(fen, [], d)}")
        print(flush=True)


def main():
    args = sys.argv[1:]
    ini = DEFAULT_INI if args and args[0] in ("perft", "pick") else (args.pop(0) if args else None)
    if ini is None or len(args) != 3 or args[0] not in ("perft", "pick"):
        sys.exit(__doc__)
    with open(ini) as f:
        sf.load_variant_config(f.read())
    if args[0] == "perft":
        print(perft(args[1], [], int(args[2])))
    else:
        pick(args[1], int(args[2]))


if __name__ == "__main__":
    main()
