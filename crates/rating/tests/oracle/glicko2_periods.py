"""Seeded random Glicko-2 rating periods, rated by pyglicko2 (the oracle of
crates/rating/tests/oracle_pyglicko2.rs; why this package: see that file).

    python glicko2_periods.py --periods N --seed S

Prints one header line, `# pyglicko2 <version>`, then one line per period:

    tau r rd sigma n  r_1 rd_1 s_1 ... r_n rd_n s_n  mu' phi' sigma'

the inputs on the Glicko scale (n games, each the opponent's rating and
deviation and the player's score 0, 0.5 or 1), then pyglicko2's result on
the Glicko-2 scale. Floats are written with repr(), so they read back
exactly. A period has no games about one time in ten.
"""

import argparse
import random

import pyglicko2


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--periods", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"# pyglicko2 {pyglicko2.__version__}")
    for _ in range(args.periods):
        tau = rng.uniform(0.3, 1.2)
        r, rd, sigma = rng.uniform(600, 2900), rng.uniform(30, 500), rng.uniform(0.03, 0.1)
        n = 0 if rng.random() < 0.1 else rng.randint(1, 15)
        games = [(rng.uniform(600, 2900), rng.uniform(30, 500), rng.choice([0.0, 0.5, 1.0])) for _ in range(n)]
        with pyglicko2.system(tau):
            p = pyglicko2.Player(r, rd, sigma)
            p.update([pyglicko2.Player(rj, rdj) for rj, rdj, _ in games], [pyglicko2.Outcome(s) for *_, s in games])
        fields = [tau, r, rd, sigma, n]
        for g in games:
            fields.extend(g)
        fields.extend([p.μ, p.φ, p.σ])
        print(" ".join(repr(x) for x in fields))


if __name__ == "__main__":
    main()
