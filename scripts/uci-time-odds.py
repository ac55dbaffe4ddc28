#!/usr/bin/env python3
"""A UCI proxy that gives an engine a fraction of its clock (time odds).

    uci-time-odds.py FACTOR ENGINE [ARGS...]

The engine behind the proxy plays on a clock of its own: FACTOR of the
starting time and FACTOR of each increment, less all the time it has
thought in this game (counted by the proxy from each `go` to its
`bestmove`, since the last `ucinewgame`). So at 10+0.1 with FACTOR 0.5
it plays 5+0.05 from the first move to the last. The opponent's clock is
shown scaled by FACTOR too. `chimera match` keeps the real clock, which
always holds more than the engine's own (for FACTOR <= 1), so the odds
cost the engine no time forfeit. Other lines pass through unchanged; a
`go` without a clock (`nodes`, `depth`, `movetime`, `infinite`) too.
Pondering is not modelled: a `go ponder` counts as thinking from the
`go`. docs/strength.md §34 plays Fairy-Stockfish this way:

    chimera match ... --engine "name=fsf-half,cmd=scripts/uci-time-odds.py,args=0.5 /path/to/fairy-stockfish,..."

Until 1 Dec 2026 the proxy scaled the clock it was sent on each `go`, so
the engine's view drifted back to the real increment as the game went on
(docs/strength.md §54).
"""
import re
import subprocess
import sys
import threading
import time


class OwnClock:
    """The engine's clock under the odds: FACTOR of the start and of each
    increment, less all it has thought; that is, FACTOR of the real clock
    less (1 - FACTOR) of the time it has thought in the game."""

    def __init__(self, factor: float):
        self.factor = factor
        self.used_ms = 0.0  # thinking time of this game, from go to bestmove
        self.white = True  # whether the engine moves as White in the next go
        self.go_at = None
        self.lock = threading.Lock()

    def new_game(self) -> None:
        with self.lock:
            self.used_ms = 0.0
            self.go_at = None

    def position(self, line: str) -> None:
        """Learn the side to move from a `position` line."""
        words = line.split()
        moves = words.index("moves") if "moves" in words else len(words)
        white = True
        if "fen" in words:
            fen = words[words.index("fen") + 1 : moves]
            white = len(fen) < 2 or fen[1] != "b"
        played = len(words) - moves - 1 if moves < len(words) else 0
        self.white = white if played % 2 == 0 else not white

    def go(self, line: str) -> str:
        """The `go` line the engine sees; starts timing its search."""
        own = "wtime" if self.white else "btime"
        with self.lock:
            used_ms = self.used_ms

        def field(m: "re.Match[str]") -> str:
            name, value = m.group(1), int(m.group(2))
            if name == own:
                value = max(int(self.factor * value - (1.0 - self.factor) * used_ms), 1)
            else:
                value = int(value * self.factor)
            return f"{name} {value}"

        scaled = re.sub(r"\b(wtime|btime|winc|binc)\s+(-?\d+)", field, line)
        with self.lock:
            self.go_at = time.monotonic()
        return scaled

    def bestmove(self) -> None:
        with self.lock:
            if self.go_at is not None:
                self.used_ms += (time.monotonic() - self.go_at) * 1000.0
                self.go_at = None


def main() -> int:
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    try:
        factor = float(sys.argv[1])
    except ValueError:
        sys.stderr.write(f"uci-time-odds: FACTOR '{sys.argv[1]}' is not a number\n")
        return 2
    if not 0.0 < factor <= 1.0:
        sys.stderr.write(f"uci-time-odds: FACTOR must be in (0, 1], got {factor}\n")
        return 2
    clock = OwnClock(factor)
    engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def relay() -> None:
        out = sys.stdout.buffer
        for raw in iter(engine.stdout.readline, b""):
            if raw.startswith(b"bestmove"):
                clock.bestmove()
            try:
                out.write(raw)
                out.flush()
            except BrokenPipeError:
                return

    relay_thread = threading.Thread(target=relay)
    relay_thread.start()
    for line in sys.stdin:
        word = line.split(maxsplit=1)[0] if line.strip() else ""
        if word == "ucinewgame":
            clock.new_game()
        elif word == "position":
            clock.position(line)
        elif word == "go":
            line = clock.go(line)
        try:
            engine.stdin.write(line.encode())
            engine.stdin.flush()
        except BrokenPipeError:
            break
        if line.strip() == "quit":
            break
    engine.stdin.close()
    code = engine.wait()
    relay_thread.join()
    return code


if __name__ == "__main__":
    sys.exit(main())
