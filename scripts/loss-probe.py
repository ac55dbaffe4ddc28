#!/usr/bin/env python3
"""Where an engine's lost games turned, and whether a deeper search of its own sees it.

    .venv/bin/python scripts/loss-probe.py games.pgn ENGINE NODES "ENGINE COMMAND" ["JUDGE COMMAND"]

Reads the chess games ENGINE lost in a `chimera match` PGN, with the
cutechess comment after each move, `{+0.31/12 0.412s}` (docs/match.md),
and keeps those that started level: ENGINE's first search score within
one pawn either way. In each it finds the turn: the first position where
the opponent's search score, seen from ENGINE's side, was 1.5 pawns or
worse, with ENGINE to move. It prints how many plies later ENGINE's own
score first said as much (the lag; median and quartiles), and ENGINE's
score at its first move from the turn.

Then it searches each turn again: with ENGINE COMMAND (a UCI engine, run
once, e.g. "target/release/chimera uci") at each node count of NODES
(comma-separated, e.g. 200000,2000000), and with JUDGE COMMAND when given
(e.g. "stockfish", at full strength) at the last of them. Each position
starts a new game (`ucinewgame`), so no search remembers another. One
line per turn, then per probe the median and mean score (mates as ±10
pawns) and how many turns it scored at −1.00 or worse. A deeper search
that still scores the turns near level, where the judge and the game's
result say they were lost, points at the evaluation rather than the
search (docs/strength.md §55). Games of other variants, games with a move
python-chess cannot read and lost games that started lopsided are left
out and counted. Needs python-chess (scripts/setup-python.sh puts it in
.venv).
"""
import shlex
import statistics
import subprocess
import sys

from chess_games import EngineGames, plural
from pgn_comments import search_score

TURN = -1.5  # the opponent's score, from ENGINE's side, that marks the turn
LEVEL = 1.0  # a game started level when ENGINE's first score was within this
LOST = -1.0  # a probe "sees" the loss at this score or below
MATE = 10.0  # a mate, in pawns, in the means


def turns(read):
    """([(game number, move number, opponent's score, ENGINE's next score, fen, lag)], lost, lopsided)."""
    found, lopsided, lost = [], 0, 0
    for number, game, side, result in read:
        if result != 0:
            continue
        lost += 1
        board = game.board()
        first, turn = None, None
        for node in game.mainline():
            mover, move_number = board.turn, board.fullmove_number
            board.push(node.move)
            s = search_score(node.comment)
            if s is None:
                continue
            if mover == side:
                if first is None:
                    first = s
                    if abs(first) > LEVEL:
                        break
                if turn is not None:
                    if turn[3] is None:
                        turn[3] = s
                    if s <= TURN:
                        turn[5] = board.ply() - turn[6]
                        break
            elif first is not None and turn is None and -s <= TURN:
                turn = [number, move_number, -s, None, board.fen(), None, board.ply()]
        if first is None or abs(first) > LEVEL:
            lopsided += 1
        elif turn is not None:
            found.append(turn[:6])
    return found, lost, lopsided


class Uci:
    """One UCI engine process, asked for a score at a node count."""

    def __init__(self, command):
        try:
            self.proc = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
            )
        except OSError as e:
            sys.exit(f"loss-probe.py: cannot start '{command}': {e.strerror}")
        self.command = command
        self.send("uci")
        self.wait("uciok")

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            sys.exit(f"loss-probe.py: '{self.command}' stopped before it was sent '{line}'")

    def wait(self, word):
        """The lines up to the one that starts with word."""
        lines = []
        for line in self.proc.stdout:
            lines.append(line.strip())
            if line.split()[:1] == [word]:
                return lines
        sys.exit(f"loss-probe.py: '{self.command}' stopped before answering '{word}'")

    def score(self, fen, nodes):
        """The last score the search printed, in pawns from the side to move."""
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        pawns = None
        for line in self.wait("bestmove"):
            words = line.split()
            if "score" in words:
                kind, value = words[words.index("score") + 1 : words.index("score") + 3]
                if kind == "cp":
                    pawns = int(value) / 100
                elif kind == "mate":
                    pawns = MATE if int(value) > 0 else -MATE
        if pawns is None:
            sys.exit(f"loss-probe.py: '{self.command}' gave no score for {fen}")
        return pawns

    def quit(self):
        self.send("quit")
        self.proc.wait()


def quartiles(values):
    v = sorted(values)
    return f"{statistics.median(v):g} ({v[len(v) // 4]:g} to {v[(3 * len(v)) // 4]:g})"


def main(argv):
    if len(argv) not in (5, 6):
        sys.exit(__doc__.split("\n\n")[1].strip().replace(".venv/bin/python ", "usage: "))
    path, engine, nodes_text, command = argv[1:5]
    judge = argv[5] if len(argv) == 6 else None
    try:
        nodes = [int(n) for n in nodes_text.split(",")]
    except ValueError:
        nodes = []
    if not nodes or min(nodes) < 1:
        sys.exit(f"loss-probe.py: NODES must be node counts like 200000,2000000, not '{nodes_text}'")
    read = EngineGames(path, engine)
    found, lost, lopsided = turns(read)
    if lost == 0:
        sys.exit(f"loss-probe.py: no lost chess game of '{engine}' in {path}")
    print(f"{engine}: {plural(lost, 'lost game')}, {lopsided} of them started lopsided; {plural(len(found), 'turn')}")
    read.print_left_out()
    if not found:
        return
    lags = [t[5] for t in found if t[5] is not None]
    if lags:
        print(f"{engine}'s own score at {TURN:+.2f} or worse: {quartiles(lags)} plies after the turn")
    if len(lags) < len(found):
        print(f"({plural(len(found) - len(lags), 'turn')} where it never said so)")
    probes = [(f"{engine} {n}", Uci(command), n) for n in nodes]
    if judge:
        probes.append((f"judge {nodes[-1]}", Uci(judge), nodes[-1]))
    names = ["in the game"] + [name for name, _, _ in probes]
    columns = [[t[3] if t[3] is not None else float("nan") for t in found]] + [[] for _ in probes]
    print()
    print("| game | move | opponent | " + " | ".join(names) + " | position |")
    print("| ---: | ---: | ---: | " + " | ".join("---:" for _ in names) + " | --- |")
    for i, (number, move, theirs, ours, fen, _) in enumerate(found):
        for j, (_, uci, n) in enumerate(probes):
            columns[j + 1].append(uci.score(fen, n))
        cells = " | ".join(f"{c[i]:+.2f}" for c in columns)
        print(f"| {number} | {move} | {theirs:+.2f} | {cells} | {fen} |")
    for _, uci, _ in probes:
        uci.quit()
    print()
    print(f"| search | median | mean | at {LOST:+.2f} or worse |")
    print("| --- | ---: | ---: | ---: |")
    for name, column in zip(names, columns):
        column = [max(-MATE, min(MATE, c)) for c in column if c == c]
        if column:
            worse = sum(1 for c in column if c <= LOST)
            print(
                f"| {name} | {statistics.median(column):+.2f} | {statistics.mean(column):+.2f} "
                f"| {worse} of {len(column)} |"
            )


if __name__ == "__main__":
    main(sys.argv)
