//! Differential test against an independent Glicko-2: the PyPI package
//! pyglicko2 0.0.1a2 (pinned in `scripts/requirements.txt`).
//!
//! `tests/oracle/glicko2_periods.py` rates 600 seeded random rating periods
//! with pyglicko2 (τ 0.3-1.2, ratings 600-2900, deviations 30-500,
//! volatilities 0.03-0.1, 0 to 15 games, one period in ten without games) and
//! prints each period's inputs and pyglicko2's μ', φ', σ'. Here the same
//! periods are rated by `Rating::rate_period` with `Settings::glickman(τ)`,
//! and the two must agree to 1e-6 in rating and deviation (Glicko scale) and
//! 1e-8 in volatility.
//!
//! Python comes from `CHIMERA_PYTHON` (default `<workspace>/.venv/bin/python`,
//! made by `scripts/setup-python.sh`).
//!
//! Why pyglicko2. The brief named "glicko2" (Heungsub Lee's implementation);
//! that implementation is not on PyPI. The package PyPI calls `glicko2`
//! (2.1.0, and its 1.x releases) is Alexander Nordlund's fork of Ryan
//! Kirkman's pyglicko2, and its step 5 is wrong: its f(x) has μ² where the
//! paper has φ² (`_f` uses `self.__rating`, not `self.__rd`). It still rounds
//! to the paper's example (its own test asserts 1464.05, 151.52, 0.05999; its
//! σ' there is 0.0599934 where the paper's maths gives 0.0599960), but on
//! 300 random periods it differed from pyglicko2 by up to 0.038 rating
//! points, far over 1e-6. `glicko2-py` 0.1.0 returns e^(B/2) where the paper
//! returns e^(A/2) and stops on |B − A| < ε after the update, so it differs at
//! the 1e-6 level of ln σ², and it also installs as a module named `glicko2`.
//! pyglicko2 is a line-by-line transcription of the paper: step 5 with the
//! March 2022 "≤" (as here), ε = 0.000001, e^(A/2), and φ* = √(φ² + σ²) for a
//! period without games. Its no-game path updates φ but not its `RD`
//! attribute, so the script prints μ, φ, σ, never r and RD.

use chimera_rating::{GameResult, Rating, Score, Settings, GLICKO2_SCALE};
use std::path::{Path, PathBuf};
use std::process::Command;

const PERIODS: u32 = 600;
const SEED: u32 = 20_260_301;
/// The package version the script must report (`scripts/requirements.txt`).
const ORACLE: &str = "# pyglicko2 0.0.1a2";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root")
}

fn python() -> PathBuf {
    match std::env::var_os("CHIMERA_PYTHON") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => workspace_root().join(".venv/bin/python"),
    }
}

fn score(s: f64) -> Score {
    match s {
        0.0 => Score::Loss,
        0.5 => Score::Draw,
        1.0 => Score::Win,
        _ => panic!("score {s} is not 0, 0.5 or 1"),
    }
}

#[test]
fn pyglicko2_oracle_periods() {
    let py = python();
    assert!(
        py.exists(),
        "python for the oracle not found at {} — run scripts/setup-python.sh (or ./scripts/test.sh), \
         or set CHIMERA_PYTHON to a python with pyglicko2 installed",
        py.display()
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/glicko2_periods.py");
    let out = Command::new(&py)
        .arg(&script)
        .args(["--periods", &PERIODS.to_string(), "--seed", &SEED.to_string()])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} {}: {e}", py.display(), script.display()));
    assert!(
        out.status.success(),
        "{} failed ({}); is pyglicko2 installed (scripts/setup-python.sh)?\n{}",
        script.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(ORACLE), "the oracle is not the pinned pyglicko2");

    let (mut periods, mut games_total, mut empty) = (0, 0, 0);
    let (mut worst_r, mut worst_rd, mut worst_vol) = (0f64, 0f64, 0f64);
    let mut most_iterations = 0;
    let mut failures = Vec::new();
    for (i, line) in lines.enumerate() {
        let x: Vec<f64> = line.split(' ').map(|f| f.parse().unwrap_or_else(|e| panic!("{f}: {e}"))).collect();
        let (tau, player, n) = (x[0], Rating::new(x[1], x[2], x[3]), x[4] as usize);
        assert_eq!(x.len(), 5 + 3 * n + 3, "line {i}: {line}");
        let games: Vec<GameResult> =
            x[5..5 + 3 * n].chunks(3).map(|g| GameResult::new(g[0], g[1], score(g[2]))).collect();
        let (mu, phi, sigma) = (x[5 + 3 * n], x[6 + 3 * n], x[7 + 3 * n]);
        let want = Rating::new(mu * GLICKO2_SCALE + 1500.0, phi * GLICKO2_SCALE, sigma);

        let steps = player.rate_period_steps(&games, &Settings::glickman(tau)).unwrap();
        most_iterations = most_iterations.max(steps.iterations);
        let got = steps.rating;
        let (dr, drd, dvol) = (
            (got.rating - want.rating).abs(),
            (got.deviation - want.deviation).abs(),
            (got.volatility - want.volatility).abs(),
        );
        worst_r = worst_r.max(dr);
        worst_rd = worst_rd.max(drd);
        worst_vol = worst_vol.max(dvol);
        if dr > 1e-6 || drd > 1e-6 || dvol > 1e-8 {
            failures.push(format!("period {i} (τ {tau}, {player:?}, {games:?}): ours {got:?}, pyglicko2 {want:?}"));
        }
        periods += 1;
        games_total += n;
        empty += usize::from(n == 0);
    }
    eprintln!(
        "pyglicko2 oracle: {periods} periods, {games_total} games, {empty} without games; \
         largest differences: rating {worst_r:.1e}, deviation {worst_rd:.1e}, volatility {worst_vol:.1e}; \
         at most {most_iterations} iterations of step 5.4"
    );
    assert_eq!(periods, PERIODS as usize);
    assert!(empty > 20 && games_total > 3000, "the periods do not cover both cases");
    assert!(most_iterations < 10, "step 5.4 took {most_iterations} iterations");
    assert!(failures.is_empty(), "{} of {periods} periods disagree:\n{}", failures.len(), failures.join("\n"));
}
