#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Fits the engine levels' ratings to the games of scripts/calibrate-levels.sh.

    scripts/fit-levels.py OUT [--anchor-level 4] [--prior-draws 1] [--json FILE]
    scripts/fit-levels.py --self-test

OUT holds one folder per variant id (chess, genie, ...) of PGN files whose
players are named `level-N` (Chimera at the server's level N) or
`stockfish-ELO` (Stockfish with UCI_LimitStrength at that UCI_Elo; chess
only). Only the White, Black and Result tags are read.

The model is Bradley-Terry on the Elo scale: a player rated r_a scores
p = 1 / (1 + 10^(-(r_a - r_b) / 400)) a game against one rated r_b, a draw
counting as half a point (so a pairing of n games in which a scored s points
adds s log p + (n - s) log(1 - p) to the log-likelihood). All games are
fitted jointly, by maximum likelihood (Newton's method), with:

- each Stockfish player fixed at its UCI_Elo;
- each other variant's level `--anchor-level` the same parameter as chess's
  (its rating is that level's chess rating: the anchor of the variant's
  ladder);
- `--prior-draws` virtual draws added to every pairing that played (as
  BayesElo does), so that a pairing one side swept has a finite estimate;
  they pull each pairing's difference towards 0 by about as much as one
  drawn game would.

Each rating's 95% interval is its profile-likelihood interval: the values t
where, with that rating fixed at t and every other free rating fitted again,
2 (logL_max - logL(t)) <= 3.841 (chi-squared, one degree of freedom). It
holds the uncertainty of everything between the figure and the anchors
(the ladder's steps, the anchor level's own rating), unlike a Wald interval
it need not be symmetric, and an open end (no bound within 3000 Elo) is
printed as such.

`--self-test` simulates games between players of known ratings on the same
schedule as the calibration and fails unless the fit recovers them.

Python 3 standard library only.
"""

import argparse
import json
import math
import os
import random
import re
import sys

CHI2_95 = 3.841458820694124
LN10_400 = math.log(10) / 400
SEARCH_LIMIT = 3000.0  # Elo from the estimate beyond which an interval end counts as open


def expected(diff):
    """Score expected by a player `diff` Elo above its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))


# ----- reading games --------------------------------------------------------

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def read_pgn_results(path):
    """(white, black, points for White) of every game in a PGN file: a game
    is its tag lines and the movetext after them."""
    games, tags, moves = [], {}, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                if moves:
                    add_game(games, tags, path)
                    tags, moves = {}, False
                tags[m.group(1)] = m.group(2)
            elif line.strip():
                moves = True
    if tags:
        add_game(games, tags, path)
    return games


def add_game(games, tags, path):
    points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(tags.get("Result"))
    if points is None:
        raise SystemExit(f"{path}: a game without a result ({tags.get('Result')!r})")
    games.append((tags["White"], tags["Black"], points))


def player_of(variant, name):
    """('level', variant, N) or ('stockfish', ELO) for a player's name."""
    m = re.fullmatch(r"level-([1-8])", name)
    if m:
        return ("level", variant, int(m.group(1)))
    m = re.fullmatch(r"stockfish-(\d+)", name)
    if m:
        if variant != "chess":
            raise SystemExit(f"{name} in {variant}: Stockfish anchors are chess only")
        return ("stockfish", int(m.group(1)))
    raise SystemExit(f"unknown player '{name}' in {variant} (expected level-N or stockfish-ELO)")


def read_results(out):
    """Every game under `out`, as (player A, player B, points of A)."""
    games = []
    for variant in sorted(os.listdir(out)):
        d = os.path.join(out, variant)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith(".pgn"):
                for w, b, pts in read_pgn_results(os.path.join(d, f)):
                    games.append((player_of(variant, w), player_of(variant, b), pts))
    return games


# ----- the model ------------------------------------------------------------


class Model:
    """Players, their parameters, and the pairings' tallies.

    `players` maps each player to a parameter index or, for a fixed one, to
    ('fixed', rating). `pairs` maps (a, b) to [games, points of a]."""

    def __init__(self, games, anchor_level, prior_draws):
        self.anchor_level = anchor_level
        self.games_of = {}
        tallies = {}
        for a, b, pts in games:
            if a == b:
                raise SystemExit(f"{a} played itself")
            key, p = ((a, b), pts) if a < b else ((b, a), 1.0 - pts)
            t = tallies.setdefault(key, [0, 0.0])
            t[0] += 1
            t[1] += p
            for x in (a, b):
                self.games_of[x] = self.games_of.get(x, 0) + 1
        self.real = {k: tuple(v) for k, v in tallies.items()}
        # Parameters: one per free rating (each variant's anchor level shares
        # chess's); a Stockfish player is ('fixed', its UCI_Elo).
        self.names = []
        index = {}
        self.param_of = {}
        for p in sorted({x for k in tallies for x in k}):
            if p[0] == "stockfish":
                self.param_of[p] = ("fixed", float(p[1]))
                continue
            key = ("level", "chess", p[2]) if p[2] == anchor_level else p
            if key not in index:
                index[key] = len(self.names)
                self.names.append(key)
            self.param_of[p] = index[key]
        # Each pairing between parameter slots: (i, j, n, s), i/j = index or fixed rating.
        self.pairs = []
        for (a, b), (n, s) in tallies.items():
            self.pairs.append((self.param_of[a], self.param_of[b], n + prior_draws, s + prior_draws / 2.0))
        self.check_connected()

    def check_connected(self):
        """Every free rating must be joined to a fixed one by games."""
        n = len(self.names)
        reach = [False] * n
        frontier = []
        edges = [[] for _ in range(n)]
        for i, j, _, _ in self.pairs:
            fi, fj = isinstance(i, tuple), isinstance(j, tuple)
            if fi and not fj:
                reach[j] = True
                frontier.append(j)
            elif fj and not fi:
                reach[i] = True
                frontier.append(i)
            elif not fi and not fj:
                edges[i].append(j)
                edges[j].append(i)
        while frontier:
            k = frontier.pop()
            for m in edges[k]:
                if not reach[m]:
                    reach[m] = True
                    frontier.append(m)
        self.unanchored = [self.names[k] for k in range(n) if not reach[k]]

    def rating(self, slot, r):
        return slot[1] if isinstance(slot, tuple) else r[slot]

    def loglik(self, r):
        ll = 0.0
        for i, j, n, s in self.pairs:
            p = expected(self.rating(i, r) - self.rating(j, r))
            p = min(max(p, 1e-300), 1 - 1e-16)
            ll += s * math.log(p) + (n - s) * math.log(1.0 - p)
        return ll

    def grad_hess(self, r, fixed=None):
        """Gradient and Hessian of the log-likelihood in Elo units; a
        parameter in `fixed` (index) is held (its row and column left out by
        the caller)."""
        k = len(r)
        g = [0.0] * k
        h = [[0.0] * k for _ in range(k)]
        for i, j, n, s in self.pairs:
            p = expected(self.rating(i, r) - self.rating(j, r))
            d = (s - n * p) * LN10_400
            w = n * p * (1.0 - p) * LN10_400**2
            fi, fj = isinstance(i, tuple), isinstance(j, tuple)
            if not fi:
                g[i] += d
                h[i][i] -= w
            if not fj:
                g[j] -= d
                h[j][j] -= w
            if not fi and not fj:
                h[i][j] += w
                h[j][i] += w
        return g, h

    def fit(self, start=None, hold=None):
        """The maximum-likelihood ratings; `hold` = (index, value) keeps one
        at a value (for the profile)."""
        r = list(start) if start else [1500.0] * len(self.names)
        if hold:
            r[hold[0]] = hold[1]
        ll = self.loglik(r)
        for _ in range(200):
            g, h = self.grad_hess(r)
            free = [k for k in range(len(r)) if not hold or k != hold[0]]
            step = solve([[-h[a][b] for b in free] for a in free], [g[a] for a in free])
            t = 1.0
            while True:
                cand = list(r)
                for a, dx in zip(free, step):
                    cand[a] += t * dx
                cll = self.loglik(cand)
                if cll >= ll - 1e-12 or t < 1e-6:
                    break
                t /= 2
            moved = max((abs(t * dx) for dx in step), default=0.0)
            r, ll = cand, cll
            if moved < 1e-7:
                break
        return r, ll

    def profile_interval(self, k, r_hat, ll_hat):
        """The 95% profile-likelihood interval of parameter k."""
        target = ll_hat - CHI2_95 / 2

        def below(t, start):
            r, ll = self.fit(start, hold=(k, t))
            return ll < target, r

        ends = []
        for sign in (-1.0, 1.0):
            inside, step, start = r_hat[k], 25.0, r_hat
            while True:
                t = inside + sign * step
                if abs(t - r_hat[k]) > SEARCH_LIMIT:
                    ends.append(None)
                    break
                out, r = below(t, start)
                if out:
                    lo, hi = inside, t
                    while abs(hi - lo) > 0.01:
                        mid = (lo + hi) / 2
                        out_mid, r_mid = below(mid, start)
                        if out_mid:
                            hi = mid
                        else:
                            lo, start = mid, r_mid
                    ends.append((lo + hi) / 2)
                    break
                inside, start, step = t, r, step * 2
        return ends[0], ends[1]


def solve(a, b):
    """x with a x = b (Gaussian elimination with partial pivoting; a is
    positive definite here)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda i: abs(m[i][c]))
        if abs(m[p][c]) < 1e-300:
            raise SystemExit("singular system: a rating the games do not determine")
        m[c], m[p] = m[p], m[c]
        for i in range(c + 1, n):
            f = m[i][c] / m[c][c]
            if f:
                row_i, row_c = m[i], m[c]
                for j in range(c, n + 1):
                    row_i[j] -= f * row_c[j]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return x


def fit_all(games, anchor_level, prior_draws, intervals=True):
    """{player: (rating, lower, upper, games)} for every level played, and
    the model. Levels that no chain of games joins to an anchor (a ladder
    cut short) are left out, with a warning."""
    model = Model(games, anchor_level, prior_draws)
    if model.unanchored:
        lost = set(model.unanchored)
        canon = lambda p: ("level", "chess", p[2]) if p[0] == "level" and p[2] == anchor_level else p
        print(f"warning: no chain of games joins {sorted(lost)} to an anchor: left out", file=sys.stderr)
        games = [g for g in games if canon(g[0]) not in lost and canon(g[1]) not in lost]
        if not games:
            raise SystemExit("no games joined to an anchor")
        model = Model(games, anchor_level, prior_draws)
    r, ll = model.fit()
    ivals = {}
    for k in range(len(model.names)):
        ivals[k] = model.profile_interval(k, r, ll) if intervals else (None, None)
    out = {}
    for p, slot in model.param_of.items():
        if p[0] != "level":
            continue
        lo, hi = ivals[slot]
        out[p] = (r[slot], lo, hi, model.games_of.get(p, 0))
    return out, model


# ----- the report -----------------------------------------------------------

def variant_order(res, known):
    """The variants fitted, in the order of `known` (`chimera variants
    --ids`: the binary's own list, kept nowhere here), others after it."""
    return sorted({p[1] for p in res}, key=lambda v: (known.index(v) if v in known else len(known), v))


def report(res, model, anchor_level, prior_draws, known):
    lines = []
    variants = variant_order(res, known)
    lines.append(
        f"Ratings (Elo, Stockfish 15.1's UCI_Elo scale; each variant's level {anchor_level} = chess level "
        f"{anchor_level}; virtual draws a pairing: {prior_draws:g}; 95% profile-likelihood intervals)"
    )
    lines.append("")
    lines.append("| level | " + " | ".join(variants) + " |")
    lines.append("| --- |" + " --- |" * len(variants))
    for level in range(1, 9):
        cells = []
        for v in variants:
            x = res.get(("level", v, level))
            cells.append("—" if x is None else cell(x))
        lines.append(f"| {level} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Pairings (games, points of the first; real games only):")
    for (a, b), (n, s) in sorted(model.real.items(), key=lambda kv: (str(kv[0][0][1]), kv[0])):
        lines.append(f"  {name(a)} vs {name(b)}: {s:g}/{n} ({100 * s / n:.1f}%)")
    return "\n".join(lines)


def cell(x):
    r, lo, hi, n = x
    lo_s = "open" if lo is None else f"{lo:.0f}"
    hi_s = "open" if hi is None else f"{hi:.0f}"
    return f"{r:.0f} [{lo_s}, {hi_s}] ({n})"


def name(p):
    return f"{p[1]} level {p[2]}" if p[0] == "level" else f"stockfish {p[1]}"


def to_json(res, anchor_level, prior_draws):
    rows = []
    for (_, v, level), (r, lo, hi, n) in sorted(res.items(), key=lambda kv: (kv[0][1], kv[0][2])):
        rows.append({"variant": v, "level": level, "rating": r, "lower": lo, "upper": hi, "games": n})
    return {"anchor_level": anchor_level, "prior_draws": prior_draws, "interval": "95% profile likelihood", "ratings": rows}


def to_rust(res, anchor_level, prior_draws, source, known):
    """The module crates/session/src/level_ratings.rs: the figures as
    `LEVEL_RATINGS`, rounded to whole Elo (the interval outwards), each
    variant as its place in `Variant::ALL` (`known`, which is `chimera
    variants --ids`)."""
    missing = sorted({p[1] for p in res} - set(known))
    if missing:
        raise SystemExit(f"--variants does not list {missing}")
    rows = sorted(res.items(), key=lambda kv: (kv[0][2], known.index(kv[0][1])))
    out = [
        "// Written by scripts/fit-levels.py --rust from " + source + "; do not edit by hand:",
        "// run scripts/calibrate-levels.sh again (docs/bots.md).",
        "",
        "use crate::LevelRating;",
        "use chimera_rules::Variant;",
        "",
        "/// Each level's rating as a house bot in each variant, with its 95%",
        "/// interval and the games behind it (`docs/bots.md`): Elo on the scale of",
        "/// Stockfish 15.1's `UCI_Elo` in chess, each other variant tied to chess",
        f"/// at level {anchor_level}; a joint Bradley-Terry fit with {prior_draws:g} virtual",
        f"/// draw{'' if prior_draws == 1 else 's'} a pairing, profile-likelihood intervals.",
        "///",
        "/// `Variant::ALL`: " + ", ".join(f"{k} {v}" for k, v in enumerate(known)) + ".",
        f"pub const LEVEL_RATINGS: [LevelRating; {len(rows)}] = [",
    ]
    for (_, v, level), (r, lo, hi, n) in rows:
        if lo is None or hi is None:
            raise SystemExit(f"{v} level {level}: an open interval cannot go into the Rust table")
        out.append(
            f"    LevelRating {{ variant: Variant::ALL[{known.index(v)}], level: {level}, rating: {round(r)}, "
            f"lower: {math.floor(lo)}, upper: {math.ceil(hi)}, games: {n} }},"
        )
    out.append("];")
    return "\n".join(out) + "\n"


# ----- self-test ------------------------------------------------------------


def simulate(truth, schedule, rng, draw_rate=0.2):
    """Games on `schedule` ((a, b, n) triples) between players of known
    ratings: a draw with probability draw_rate * (1 - |2p - 1|), so that the
    expected score stays p."""
    games = []
    for a, b, n in schedule:
        p = expected(truth[a] - truth[b])
        d = draw_rate * (1 - abs(2 * p - 1))
        for _ in range(n):
            u = rng.random()
            pts = 0.5 if u < d else (1.0 if u < d + (p - d / 2) else 0.0)
            games.append((a, b, pts))
    return games


def self_test():
    failures = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    # 1. One free player against one fixed one, no prior: the closed form.
    sf = ("stockfish", 1500)
    l1 = ("level", "chess", 1)
    games = [(l1, sf, 1.0)] * 70 + [(l1, sf, 0.5)] * 10 + [(l1, sf, 0.0)] * 20
    res, model = fit_all(games, 4, 0)
    r, lo, hi, n = res[l1]
    check(abs(r - (1500 + 400 * math.log10(3))) < 0.01, f"75% of 100 games: +190.8 Elo (got {r - 1500:.2f})")
    ll = lambda x: 75 * math.log(expected(x - 1500)) + 25 * math.log(1 - expected(x - 1500))
    check(
        abs(2 * (ll(r) - ll(lo)) - CHI2_95) < 0.01 and abs(2 * (ll(r) - ll(hi)) - CHI2_95) < 0.01,
        f"its interval's ends lie 3.84 below the peak of 2 logL ([{lo:.1f}, {hi:.1f}])",
    )
    check(n == 100 and lo < r < hi and (hi - r) > (r - lo), "games counted; interval contains the figure, longer upwards at 75%")
    # 2. A sweep with the prior is finite; without it, open above.
    games = [(l1, sf, 1.0)] * 10
    res, _ = fit_all(games, 4, 1)
    r, lo, hi, _ = res[l1]
    check(abs(r - (1500 + 400 * math.log10(10.5 / 0.5))) < 0.01, f"10/10 with one virtual draw: 10.5/11 (+{r - 1500:.0f})")
    res, _ = fit_all(games, 4, 0.0001)
    check(res[l1][2] is None, "10/10 without a real prior: no upper bound")
    # 3. The calibration's schedule with known ratings, many games: recovered.
    rng = random.Random(20261207)
    variants = ["chess", "genie", "genesis"]
    truth = {}
    base = [700, 900, 1150, 1400, 1700, 2000, 2300, 2550]
    for v, shift in zip(variants, [0, 80, -120]):
        for lv in range(1, 9):
            truth[("level", v, lv)] = base[lv - 1] + (0 if v == "chess" or lv == 4 else shift * (lv - 4) / 4)
    schedule = []
    for v in variants:
        for lv in range(1, 8):
            schedule.append((("level", v, lv), ("level", v, lv + 1), 600))
    for lv, elo in [(2, 1350), (3, 1350), (4, 1500), (5, 1700), (6, 2000), (7, 2300), (8, 2600)]:
        truth[("stockfish", elo)] = elo
        schedule.append((("level", "chess", lv), ("stockfish", elo), 600))
    games = simulate(truth, schedule, rng)
    res, model = fit_all(games, 4, 1)
    errs = {p: res[p][0] - truth[p] for p in res}
    worst = max(errs, key=lambda p: abs(errs[p]))
    check(abs(errs[worst]) < 60, f"every rating within 60 Elo of the truth (worst {name(worst)}: {errs[worst]:+.1f})")
    covered = sum(1 for p in res if res[p][1] <= truth[p] <= res[p][2])
    check(covered >= 0.8 * len(res), f"intervals contain the truth: {covered} of {len(res)}")
    check(all(res[p][1] < res[p][0] < res[p][2] for p in res), "every interval contains its figure")
    far = ("level", "genesis", 8)
    check(
        res[far][2] - res[far][1] > res[("level", "chess", 8)][2] - res[("level", "chess", 8)][1],
        "a variant's far level is less certain than chess's (its ladder's steps add up)",
    )
    check(res[("level", "genie", 4)][0] == res[("level", "chess", 4)][0], "each variant's anchor level is chess's")
    # 4. A player no games join to an anchor is left out, not given a number.
    cut = [(("level", "genie", 1), ("level", "genie", 2), 1.0)] * 3 + [(l1, sf, 0.5)] * 4
    res, _ = fit_all(cut, 4, 1)
    check(list(res) == [l1], "a ladder with no anchor is left out")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", help="the results folder of scripts/calibrate-levels.sh")
    ap.add_argument("--anchor-level", type=int, default=4, help="each variant's level tied to chess's [4]")
    ap.add_argument("--prior-draws", type=float, default=1.0, help="virtual draws per pairing [1]")
    ap.add_argument("--json", help="also write the figures as JSON to this file")
    ap.add_argument(
        "--variants",
        default="chess",
        help="the variant ids in the order of Variant::ALL, as `chimera variants --ids` prints them "
        "(columns in that order; needed by --rust) [chess, then the rest alphabetically]",
    )
    ap.add_argument("--rust", help="also write the figures as the Rust module crates/session/src/level_ratings.rs")
    ap.add_argument("--self-test", action="store_true", help="check the fit on simulated games")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.out:
        ap.error("give the results folder (or --self-test)")
    games = read_results(a.out)
    if not games:
        raise SystemExit(f"no games under {a.out}")
    res, model = fit_all(games, a.anchor_level, a.prior_draws)
    known = a.variants.split()
    print(report(res, model, a.anchor_level, a.prior_draws, known))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(to_json(res, a.anchor_level, a.prior_draws), f, indent=1)
            f.write("\n")
    if a.rust:
        with open(a.rust, "w", encoding="utf-8") as f:
            f.write(to_rust(res, a.anchor_level, a.prior_draws, os.path.normpath(a.out), known))
    return 0


if __name__ == "__main__":
    sys.exit(main())
