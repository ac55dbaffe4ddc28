#!/usr/bin/env python3
"""A UCI proxy that gives an engine a fraction of its clock (time odds).

    uci-time-odds.py FACTOR ENGINE [ARGS...]

Every `go` line's wtime, btime, winc and binc are multiplied by FACTOR
(0.5: the engine thinks on half its clock) before ENGINE sees them; all
else passes through unchanged. `chimera match` keeps the real clock, so
the engine plays its full time control on FACTOR of the thinking time.
docs/strength.md §34 plays Fairy-Stockfish this way:

    chimera match ... --engine "name=fsf-half,cmd=scripts/uci-time-odds.py,args=0.5 /path/to/fairy-stockfish,..."
"""
import re
import subprocess
import sys


def scale(line: str, factor: float) -> str:
    """The `go` line with its clock fields scaled; other lines unchanged."""
    if not line.startswith("go"):
        return line
    return re.sub(
        r"\b(wtime|btime|winc|binc)\s+(-?\d+)",
        lambda m: f"{m.group(1)} {int(int(m.group(2)) * factor)}",
        line,
    )


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
    engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=sys.stdout, bufsize=0)
    for line in sys.stdin:
        try:
            engine.stdin.write(scale(line, factor).encode())
            engine.stdin.flush()
        except BrokenPipeError:
            break
        if line.strip() == "quit":
            break
    engine.stdin.close()
    return engine.wait()


if __name__ == "__main__":
    sys.exit(main())
