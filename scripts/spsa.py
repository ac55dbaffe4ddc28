#!/usr/bin/env python3
"""SPSA tuning of the search's numbers by self-play at fixed nodes.

    cargo build --release --features spsa
    cp target/release/chimera /tmp/chimera-spsa      # the tuning build
    python3 scripts/spsa.py --engine /tmp/chimera-spsa --iterations 800 --log spsa.csv

A tuning build (`--features spsa`) offers every number of
`crates/engine/src/search_params.rs` as a UCI option `Tune_<name>` and
tells the tuner its range and step (`info string spsa ...` after `uci`).
Each iteration perturbs all the chosen numbers at once, each by plus or
minus its current perturbation `c_k`, plays `--pairs` opening pairs
(`chimera match`, both colours each, openings from `--seed` plus the
iteration) between the plus side and the minus side, and moves every number
by `a_k · (wins − losses) · sign / c_k` towards the side that won (Spall's
simultaneous perturbation; the schedule is fishtest's: `c_k = step ·
(N/k)^0.101`, `a_k = r_end · step² · ((A + N)/(A + k))^0.602`, A = N/10).

Every iteration is a line of `--log` (CSV: iteration, wins, losses, draws,
then each number's value); a run stopped at any point resumes from its
last line with the same command. `--report` prints the log's last values
beside the defaults, and the `--engine` options that set them
(`option.Tune_<name>=<value>`), to play the result against the defaults
with `chimera match`. The result is an estimate from noisy games:
keep it only after a match on openings it was not tuned on
(docs/engine.md, "Tuning the search"). Standard library only.
"""
import argparse
import csv
import os
import random
import re
import subprocess
import sys
import time

ALPHA, GAMMA = 0.602, 0.101


def engine_params(engine):
    """(name, default, min, max, step) of each tunable number the engine offers."""
    out = subprocess.run([engine, "uci"], input="uci\nquit\n", capture_output=True, text=True, timeout=60).stdout
    params = []
    for line in out.splitlines():
        if line.startswith("info string spsa "):
            name, *nums = line[len("info string spsa "):].split(",")
            params.append((name, *map(int, nums)))
    if not params:
        sys.exit(f"{engine} offers no tunable numbers: build it with `cargo build --release --features spsa`")
    return params


def read_log(path, names):
    """The rows of an existing log (as dicts), checked against the names."""
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if rows and [k for k in rows[0] if k not in ("iteration", "wins", "losses", "draws")] != names:
        sys.exit(f"{path} tunes other numbers than these; give another --log")
    return rows


SCORE = re.compile(r"Score of plus vs minus: (\d+) - (\d+) - (\d+)")


def play(args, plus, minus, seed):
    """(wins, losses, draws) of the plus side over the iteration's games."""
    def spec(name, values):
        opts = ",".join(f"option.Tune_{k}={v}" for k, v in values.items())
        return f"name={name},cmd={args.engine},args=uci,option.Hash={args.hash},{opts}"

    adjudicate = "resign=3:1000,draw=40:8:10" + ("" if args.variant == "chess" else ",maxmoves=300")
    cmd = [args.match, "match", "--variant", args.variant, "--nodes", str(args.nodes),
           "--games", str(2 * args.pairs), "--seed", str(seed), "--random-plies", str(args.random_plies),
           "--concurrency", str(args.concurrency), "--adjudicate", adjudicate,
           "--engine", spec("plus", plus), "--engine", spec("minus", minus)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    m = SCORE.search(r.stdout)
    if r.returncode != 0 or not m:
        sys.exit(f"the match failed (exit {r.returncode}):\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    if "Faults: none" not in r.stdout:
        sys.exit(f"the match had faults:\n{r.stdout[-2000:]}")
    return tuple(map(int, m.groups()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True, help="a tuning build of chimera (--features spsa)")
    ap.add_argument("--match", help="the chimera that runs the matches (default: --engine)")
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--iterations", type=int, default=800, help="N, the schedule's length")
    ap.add_argument("--pairs", type=int, default=8, help="opening pairs an iteration")
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--random-plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1000, help="openings: iteration k plays seed + k")
    ap.add_argument("--params", help="comma-separated names to tune (default: all)")
    ap.add_argument("--r-end", type=float, default=0.01, help="the learning rate at the end, in step² units")
    ap.add_argument("--log", default="spsa.csv")
    ap.add_argument("--report", action="store_true", help="print the log's values and stop")
    args = ap.parse_args()
    args.match = args.match or args.engine

    params = engine_params(args.engine)
    if args.params:
        wanted = args.params.split(",")
        unknown = [w for w in wanted if w not in [p[0] for p in params]]
        if unknown:
            sys.exit(f"unknown numbers: {', '.join(unknown)}")
        params = [p for p in params if p[0] in wanted]
    names = [p[0] for p in params]
    rows = read_log(args.log, names)
    theta = {p[0]: float(p[1]) for p in params}
    if rows:
        theta = {n: float(rows[-1][n]) for n in names}

    if args.report:
        print(f"{len(rows)} iterations, {sum(int(r['wins']) + int(r['losses']) + int(r['draws']) for r in rows)} games")
        for name, default, lo, hi, step in params:
            print(f"{name:20} {default:7} -> {theta[name]:9.1f}  ({(theta[name] - default) / step:+.2f} steps)")
        print(",".join(f"option.Tune_{n}={round(theta[n])}" for n in names))
        return

    n_total = args.iterations
    big_a = n_total / 10
    new_log = not rows
    with open(args.log, "a", newline="") as f:
        w = csv.writer(f)
        if new_log:
            w.writerow(["iteration", "wins", "losses", "draws", *names])
            f.flush()
        start = time.time()
        for k in range(len(rows) + 1, n_total + 1):
            rng = random.Random(args.seed * 1_000_003 + k)
            plus, minus, shift = {}, {}, {}
            for name, _default, lo, hi, step in params:
                c_k = step * (n_total / k) ** GAMMA
                sign = rng.choice((-1, 1))
                shift[name] = (sign, c_k)
                plus[name] = min(hi, max(lo, round(theta[name] + sign * c_k)))
                minus[name] = min(hi, max(lo, round(theta[name] - sign * c_k)))
            wins, losses, draws = play(args, plus, minus, args.seed + k)
            for name, _default, lo, hi, step in params:
                sign, c_k = shift[name]
                a_k = args.r_end * step * step * ((big_a + n_total) / (big_a + k)) ** ALPHA
                theta[name] = min(hi, max(lo, theta[name] + a_k * (wins - losses) * sign / c_k))
            w.writerow([k, wins, losses, draws, *(f"{theta[n]:.3f}" for n in names)])
            f.flush()
            done = k - len(rows)
            eta = (time.time() - start) / done * (n_total - k)
            print(f"iteration {k}/{n_total}: +{wins} -{losses} ={draws}; eta {eta / 60:.0f} min", file=sys.stderr)


if __name__ == "__main__":
    main()
