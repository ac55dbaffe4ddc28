#!/usr/bin/env python3
"""Position-by-position comparison of two `chimera bench` runs.

    chimera bench --records genesis.bin --sample 200 --depth 10 > base.txt 2>&1
    chimera bench --records genesis.bin --sample 200 --depth 10 --nnue > new.txt 2>&1
    python3 scripts/bench-ratio.py base.txt new.txt

`chimera bench` prints one line per position (variant, nodes, time, best
move, FEN). A total over many positions can be carried by one large tree;
this prints instead the geometric mean of the per-position ratios new/base
of the nodes and of the time to the depth, with a 95% interval (normal
approximation on the logarithms), and the median node ratio. Both runs
must have searched the same positions in the same order (checked by FEN).
Standard library only (docs/benchmarks.md).
"""
import math
import re
import sys

LINE = re.compile(r"^(\S+)\s+(\d+) nodes\s+(\d+) ms\s+best \S+\s+(.+)$")


def load(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if m:
                rows.append((int(m.group(2)), int(m.group(3)), m.group(4).strip()))
    return rows


def geomean(logs):
    n = len(logs)
    mean = sum(logs) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in logs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: bench-ratio.py BASE NEW (two saved `chimera bench` outputs)")
    base, new = load(sys.argv[1]), load(sys.argv[2])
    if not base or not new:
        sys.exit("no position lines found: save the bench's whole output (2>&1)")
    if [r[2] for r in base] != [r[2] for r in new]:
        sys.exit("the two runs searched different positions (same --records, --sample and --plies?)")
    nodes = [math.log(b[0] / a[0]) for a, b in zip(base, new) if a[0] > 0 and b[0] > 0]
    times = [math.log(max(b[1], 1) / max(a[1], 1)) for a, b in zip(base, new)]
    if not nodes:
        sys.exit("no position with nodes in both runs")
    g, lo, hi = geomean(nodes)
    median = math.exp(sorted(nodes)[len(nodes) // 2])
    print(f"positions: {len(base)}")
    print(f"nodes new/base: geometric mean {g:.3f} [{lo:.3f}, {hi:.3f}], median {median:.3f}")
    g, lo, hi = geomean(times)
    print(f"time  new/base: geometric mean {g:.3f} [{lo:.3f}, {hi:.3f}] (ms rounded; 1 ms floor)")
    tb, tn = sum(r[0] for r in base), sum(r[0] for r in new)
    print(f"totals: {tb:,} and {tn:,} nodes ({tn / tb:.3f})")


if __name__ == "__main__":
    main()
