//! The statistics of games, shared by `chimera match` (the arena) and the
//! lab: the mean score with its 95% interval (normal approximation), the
//! Elo difference it means (logistic model), the SPRT of
//! fishtest/cutechess in its normal approximation with logistic Elo
//! bounds, the Wilson interval of a proportion, and the two-sided z-tests
//! that compare two samples (two proportions, two mean scores).
//!
//! Two models of the sample: games as independent trials ([`Wdl`], the
//! trinomial variance cutechess uses), and game pairs ([`Pairs`], the
//! pentanomial variance fishtest and fastchess use), right when each
//! opening is played twice with colours swapped: the two games of a pair
//! share the opening's bias, so they are not independent, and in a
//! variant where the opening decides much (Genesis), the per-game model
//! overstates the noise.
//!
//! Everything is from the first side's point of view (the first engine of
//! a match, White in a lab study): `wins` are its wins.

use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of the first engine.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (1 win, 1/2 draw), or `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }
}

/// Game pairs (one opening, each engine White once) counted by the first
/// engine's points in the pair: `counts[k]` pairs brought it `k/2` points
/// (0, ½, 1, 1½ or 2).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    pub counts: [u64; 5],
}

impl Pairs {
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Counts a pair worth `half_points` half-points (0..=4) to the first engine.
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    /// The mean score per game and its standard error: the variance of a
    /// pair's mean score (0, ¼, ½, ¾ or 1) over the pairs, over the number
    /// of pairs (the pentanomial variance). `None` before any pair.
    pub fn score_with_se(&self) -> Option<(f64, f64)> {
        let (n, s, var) = moments(&self.counts.map(|c| c as f64), 4.0)?;
        Some((s, (var / n).sqrt()))
    }
}

/// `(N, mean, variance)` of `counts[k]` trials scoring `k / top` each (the
/// counts may be fractional: the SPRT's prior). `None` when `N` is 0.
fn moments(counts: &[f64], top: f64) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n == 0.0 {
        return None;
    }
    let x = |k: usize| k as f64 / top;
    let s = counts.iter().enumerate().map(|(k, &c)| c * x(k)).sum::<f64>() / n;
    let var = counts.iter().enumerate().map(|(k, &c)| c * (x(k) - s).powi(2)).sum::<f64>() / n;
    Some((n, s, var))
}

/// The Elo difference that gives the expected score `s` in the logistic
/// model `s = 1 / (1 + 10^(-elo/400))`; `±inf` at 1 and 0.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10() + 0.0 // + 0.0 turns -0 into 0
    }
}

/// The expected score of an Elo difference in the logistic model.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95% interval and the likelihood of superiority.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
    /// Likelihood of superiority in percent (draws ignored), as cutechess prints it.
    pub los: f64,
}

impl EloEstimate {
    /// Half the interval's width, the `±` figure.
    /// Infinite when the score is 0 or 1 (every game won or lost).
    pub fn margin(&self) -> f64 {
        if self.lower.is_finite() && self.upper.is_finite() {
            (self.upper - self.lower) / 2.0
        } else {
            f64::INFINITY
        }
    }
}

/// Elo difference and 95% interval: the mean score with the per-game
/// (trinomial) variance of the sample, the interval on the score mapped
/// through the logistic curve. `None` before any game.
pub fn elo_estimate(r: &Wdl) -> Option<EloEstimate> {
    let (s, se) = score_with_se(r)?;
    let decisive = (r.wins + r.losses) as f64;
    let los = if decisive == 0.0 {
        50.0
    } else {
        50.0 * (1.0 + erf((r.wins as f64 - r.losses as f64) / (2.0 * decisive).sqrt()))
    };
    Some(estimate(s, se, los))
}

/// The Elo of the mean score `s` and its 95% interval `s ± 1.96 se`,
/// mapped through the logistic curve.
fn estimate(s: f64, se: f64, los: f64) -> EloEstimate {
    EloEstimate {
        elo: elo_from_score(s),
        lower: elo_from_score(s - Z95 * se),
        upper: elo_from_score(s + Z95 * se),
        los,
    }
}

/// Elo difference and 95% interval from game pairs: the mean score with
/// the pentanomial variance ([`Pairs::score_with_se`]), mapped through the
/// logistic curve. LOS is the normal approximation Φ((s − ½)/se).
/// `None` before any pair.
pub fn elo_estimate_pairs(p: &Pairs) -> Option<EloEstimate> {
    let (s, se) = p.score_with_se()?;
    let los = if se > 0.0 {
        50.0 * (1.0 + erf((s - 0.5) / (se * std::f64::consts::SQRT_2)))
    } else if s > 0.5 {
        100.0
    } else if s < 0.5 {
        0.0
    } else {
        50.0
    };
    Some(estimate(s, se, los))
}

/// The mean score and its standard error: the per-game variance of the
/// sample (wins 1, draws ½, losses 0; the trinomial variance) over `n`.
/// `None` before any game.
pub fn score_with_se(r: &Wdl) -> Option<(f64, f64)> {
    let (n, s, var) = moments(&[r.losses, r.draws, r.wins].map(|c| c as f64), 2.0)?;
    Some((s, (var / n).sqrt()))
}

/// The error function (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// The pseudo-count added to every outcome (win, draw, loss; or each of
/// the five pair scores) before the SPRT's mean and variance are taken:
/// the Jeffreys prior of a multinomial. It keeps the variance of a short
/// or one-sided run away from 0 and shrinks its mean a little towards ½;
/// after a hundred trials its weight is a percent or two.
pub const SPRT_PRIOR: f64 = 0.5;

/// SPRT bounds: H0 `elo = elo0` against H1 `elo = elo1` (logistic Elo),
/// with error rates `alpha` (accept H1 when H0 holds) and `beta`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// H0 accepted: the first engine is not `elo1` better.
    H0,
    /// H1 accepted.
    H1,
    Continue,
}

impl fmt::Display for SprtVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtVerdict::H0 => "H0 was accepted",
            SprtVerdict::H1 => "H1 was accepted",
            SprtVerdict::Continue => "no conclusion yet",
        })
    }
}

impl Sprt {
    /// `(lower, upper)`: accept H0 at or below `ln(beta/(1-alpha))`, H1 at or
    /// above `ln((1-beta)/alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Log-likelihood ratio of H1 against H0, normal approximation (the
    /// "GSPRT" of fishtest's `LLR_logistic`): with the mean score `s`, its
    /// per-game variance `v` and `s0`, `s1` the scores of `elo0`, `elo1`,
    /// `LLR = N (s1 - s0) (2s - s0 - s1) / (2v)`.
    ///
    /// `N`, `s` and `v` are taken over the counts regularized by half a
    /// game added to each of win, draw and loss ([`SPRT_PRIOR`]): the raw
    /// sample variance means nothing until all three have been seen (one
    /// lost game gives `v = 0` and an LLR of minus infinity), and a guard
    /// that waited for all three would never stop a match the first engine
    /// never loses.
    pub fn llr(&self, r: &Wdl) -> f64 {
        self.llr_regularized(&[r.losses, r.draws, r.wins], 2.0)
    }

    /// The same LLR over game pairs (fishtest's pentanomial model): `N`
    /// pairs, `s` the mean score, `v` the variance of a pair's mean score,
    /// over the five counts each regularized by half a pair
    /// ([`SPRT_PRIOR`]). A run of split pairs (no variance) or of won pairs
    /// only then gives a finite LLR that grows with the evidence, instead
    /// of an infinite one after the first pair or none at all.
    pub fn llr_pairs(&self, p: &Pairs) -> f64 {
        self.llr_regularized(&p.counts, 4.0)
    }

    /// The LLR of `counts[k]` trials scoring `k / top` each, every count
    /// raised by [`SPRT_PRIOR`]. 0 before any trial.
    fn llr_regularized(&self, counts: &[u64], top: f64) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let c: Vec<f64> = counts.iter().map(|&c| c as f64 + SPRT_PRIOR).collect();
        let (n, s, var) = moments(&c, top).expect("the prior makes every count positive");
        self.llr_normal(n, s, var)
    }

    /// `N (s1 - s0) (2s - s0 - s1) / (2v)` for `n` trials of mean score `s`
    /// and variance `var` a trial.
    fn llr_normal(&self, n: f64, s: f64, var: f64) -> f64 {
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    pub fn verdict(&self, r: &Wdl) -> SprtVerdict {
        self.decide(self.llr(r))
    }

    /// The verdict an LLR gives against this test's bounds.
    pub fn decide(&self, llr: f64) -> SprtVerdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::H1
        } else if llr <= lo {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

impl FromStr for Sprt {
    type Err = String;
    /// `elo0=0,elo1=10,alpha=0.05,beta=0.05` (alpha and beta default to 0.05).
    fn from_str(s: &str) -> Result<Sprt, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| format!("SPRT: '{part}' is not key=value"))?;
            let x: f64 = v.trim().parse().map_err(|_| format!("SPRT: '{v}' is not a number"))?;
            if !x.is_finite() {
                return Err(format!("SPRT: {k} must be finite"));
            }
            match k.trim() {
                "elo0" => elo0 = Some(x),
                "elo1" => elo1 = Some(x),
                "alpha" => alpha = x,
                "beta" => beta = x,
                other => return Err(format!("SPRT: unknown key '{other}' (expected elo0, elo1, alpha, beta)")),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err("SPRT: elo0 and elo1 are required, e.g. elo0=0,elo1=10".into());
        };
        if elo1 <= elo0 {
            return Err(format!("SPRT: elo1 ({elo1}) must be greater than elo0 ({elo0})"));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("SPRT: {name} must be between 0 and 0.5, got {p}"));
            }
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }
}

/// An estimate with its 95% interval, out of `n` observations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Est {
    pub value: f64,
    pub lower: f64,
    pub upper: f64,
    pub n: u64,
}

impl Est {
    /// `52.3% [50.1, 54.5]`.
    pub fn pct(&self) -> String {
        if self.n == 0 {
            return "–".into();
        }
        format!("{:.1}% [{:.1}, {:.1}]", 100.0 * self.value, 100.0 * self.lower, 100.0 * self.upper)
    }
}

/// The Wilson score interval of `k` successes in `n` trials (95%).
pub fn wilson(k: u64, n: u64) -> Est {
    if n == 0 {
        return Est { value: 0.0, lower: 0.0, upper: 0.0, n: 0 };
    }
    let (k, nf) = (k as f64, n as f64);
    let p = k / nf;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
    let half = Z95 / (1.0 + z2 / nf) * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    Est { value: p, lower: (centre - half).max(0.0), upper: (centre + half).min(1.0), n }
}

/// The mean score of `r` (wins 1, draws ½) with its 95% interval
/// (trinomial variance, normal approximation; clipped to [0, 1]).
pub fn score(r: &Wdl) -> Est {
    match score_with_se(r) {
        Some((s, se)) => Est { value: s, lower: (s - Z95 * se).max(0.0), upper: (s + Z95 * se).min(1.0), n: r.games() },
        None => Est { value: 0.0, lower: 0.0, upper: 0.0, n: 0 },
    }
}

/// Two-sided p-value of a standard normal z.
pub fn p_value(z: f64) -> f64 {
    1.0 - erf(z.abs() / std::f64::consts::SQRT_2)
}

/// A difference between two studies and its test.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    pub what: String,
    pub a: f64,
    pub b: f64,
    /// `b − a`.
    pub diff: f64,
    pub z: f64,
    pub p: f64,
    /// Fewer than [`MIN_TEST`] observations on one side: no test is made.
    pub too_few: bool,
}

/// The fewest observations on each side for a comparison to be tested
/// (below, the normal approximation means nothing).
pub const MIN_TEST: u64 = 20;

impl Difference {
    /// `significant at 1%`, `significant at 5%`, `not significant`, or `too few games to test`.
    pub fn verdict(&self) -> &'static str {
        if self.too_few {
            "too few games to test"
        } else if self.p < 0.01 {
            "significant at 1%"
        } else if self.p < 0.05 {
            "significant at 5%"
        } else {
            "not significant"
        }
    }
}

/// The pooled two-proportion z-test of `k1/n1` against `k2/n2`.
pub fn proportion_difference(what: &str, k1: u64, n1: u64, k2: u64, n2: u64) -> Difference {
    let (p1, p2) = (k1 as f64 / n1.max(1) as f64, k2 as f64 / n2.max(1) as f64);
    let pooled = (k1 + k2) as f64 / (n1 + n2).max(1) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / n1.max(1) as f64 + 1.0 / n2.max(1) as f64)).sqrt();
    let z = if se > 0.0 { (p2 - p1) / se } else { 0.0 };
    let too_few = n1.min(n2) < MIN_TEST;
    Difference { what: what.into(), a: p1, b: p2, diff: p2 - p1, z, p: p_value(z), too_few }
}

/// The difference of two mean scores: z = (s2 − s1) / √(se1² + se2²).
pub fn score_difference(what: &str, a: &Wdl, b: &Wdl) -> Difference {
    let (s1, se1) = score_with_se(a).unwrap_or((0.0, 0.0));
    let (s2, se2) = score_with_se(b).unwrap_or((0.0, 0.0));
    let se = (se1 * se1 + se2 * se2).sqrt();
    let z = if se > 0.0 { (s2 - s1) / se } else { 0.0 };
    let too_few = a.games().min(b.games()) < MIN_TEST;
    Difference { what: what.into(), a: s1, b: s2, diff: s2 - s1, z, p: p_value(z), too_few }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_of_known_scores() {
        // 50% is equal strength; 75% is 400*log10(3) = 190.85 Elo; 64% ≈ 100 Elo.
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(0.25), -190.848_501_887_865, 1e-9));
        assert!(close(score_from_elo(100.0), 0.640_065_000, 1e-9));
        assert!(close(elo_from_score(score_from_elo(-37.5)), -37.5, 1e-9));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn interval_worked_by_hand() {
        // W60 D20 L20: score 0.7; per-game variance
        // (60*0.3^2 + 20*0.2^2 + 20*0.7^2)/100 = (5.4 + 0.8 + 9.8)/100 = 0.16,
        // standard error sqrt(0.16/100) = 0.04, so the score interval is
        // 0.7 ± 1.96*0.04 = [0.62160, 0.77840]. In Elo:
        // -400 log10(1/0.7 - 1) = 147.19, bounds 86.23 and 218.25.
        let e = elo_estimate(&Wdl { wins: 60, draws: 20, losses: 20 }).unwrap();
        assert!(close(e.elo, 147.190_714_117_8, 1e-6), "{e:?}");
        assert!(close(e.lower, 86.225_0, 1e-3), "{e:?}");
        assert!(close(e.upper, 218.251_8, 1e-3), "{e:?}");
        // LOS = Phi((W-L)/sqrt(W+L)) = Phi(40/sqrt(80)) = Phi(4.472) ≈ 99.9996%.
        assert!(e.los > 99.999 && e.los <= 100.0);
    }

    #[test]
    fn interval_of_an_even_match_is_symmetric() {
        // W10 D80 L10: score 0.5, variance (10*0.25 + 0 + 10*0.25)/100 = 0.05,
        // se = sqrt(0.05/100) = 0.022361; bounds 0.5 ± 0.043826 → ±30.53 Elo.
        let e = elo_estimate(&Wdl { wins: 10, draws: 80, losses: 10 }).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(close(e.upper, -e.lower, 1e-9));
        assert!(close(e.upper, 30.531_9, 1e-3), "{e:?}");
        assert!(close(e.los, 50.0, 1e-6)); // erf is an approximation (error < 1.5e-7)
        assert!(elo_estimate(&Wdl::default()).is_none());
        // Every game lost: -inf, and no finite interval.
        let e = elo_estimate(&Wdl { wins: 0, draws: 0, losses: 2 }).unwrap();
        assert_eq!(e.elo, f64::NEG_INFINITY);
        assert_eq!(e.margin(), f64::INFINITY);
    }

    #[test]
    fn sprt_bounds_are_cutechess_values() {
        // alpha = beta = 0.05: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        let s: Sprt = "elo0=0,elo1=10,alpha=0.05,beta=0.05".parse().unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_438_979, 1e-8) && close(hi, 2.944_438_979, 1e-8));
    }

    #[test]
    fn sprt_llr_known_values() {
        // Worked step by step with fishtest's formula over the counts each
        // raised by half a game (and checked with a short Python evaluation
        // of it): W1000 D3000 L900, elo0 = 0, elo1 = 10: N = 4901.5,
        // s = 2500.75/4901.5 = 0.5102010, variance
        // (1000.5*0.4897990^2 + 3000.5*0.0102010^2 + 900.5*0.5102010^2)/4901.5
        // = 0.0968561, s0 = 0.5, s1 = 0.5143868;
        // LLR = 4901.5*0.0143868*(1.0204019-1.0143868)/(2*0.0968561) = 2.18960.
        let s: Sprt = "elo0=0,elo1=10".parse().unwrap();
        let llr = s.llr(&Wdl { wins: 1000, draws: 3000, losses: 900 });
        assert!(close(llr, 2.189_60, 1e-4), "{llr}");
        assert_eq!(s.verdict(&Wdl { wins: 1000, draws: 3000, losses: 900 }), SprtVerdict::Continue);
        // An even score favours H0.
        assert!(s.llr(&Wdl { wins: 500, draws: 1000, losses: 500 }) < 0.0);
        // Clear results conclude.
        assert_eq!(s.verdict(&Wdl { wins: 300, draws: 400, losses: 100 }), SprtVerdict::H1);
        assert_eq!(s.verdict(&Wdl { wins: 100, draws: 400, losses: 300 }), SprtVerdict::H0);
        // One-sided runs: 30 straight wins conclude (N = 31.5, s = 0.9761905,
        // v = 0.0192744, LLR = 11.0275), where a guard waiting for a loss
        // would wait for ever; six games do not.
        let sweep = s.llr(&Wdl { wins: 30, draws: 0, losses: 0 });
        assert!(close(sweep, 11.027_47, 1e-4), "{sweep}");
        assert_eq!(s.decide(sweep), SprtVerdict::H1);
        assert_eq!(s.verdict(&Wdl { wins: 0, draws: 5, losses: 1 }), SprtVerdict::Continue);
        assert_eq!(s.llr(&Wdl::default()), 0.0);
        // W1 D2 L1 against elo1 = 200: counts 1.5, 2.5, 1.5, N = 5.5, s = 0.5,
        // v = (1.5*0.25 + 0 + 1.5*0.25)/5.5 = 0.1363636, s1 = 1/(1+10^-0.5) =
        // 0.7597469; LLR = 5.5 * 0.2597469 * (-0.2597469) / 0.2727273 = -1.36061.
        let wide: Sprt = "elo0=0,elo1=200".parse().unwrap();
        assert!(close(wide.llr(&Wdl { wins: 1, draws: 2, losses: 1 }), -1.360_61, 1e-4));
    }

    #[test]
    fn pair_interval_worked_by_hand() {
        // Pairs worth 0, ½, 1, 1½, 2 points: 1, 2, 4, 2, 1. A pair's mean
        // score x is 0, ¼, ½, ¾ or 1; the mean is (0 + 0.5 + 2 + 1.5 + 1)/10
        // = 0.5; variance (0.25 + 2*0.0625 + 0 + 2*0.0625 + 0.25)/10 = 0.075;
        // se = sqrt(0.075/10) = 0.0866025; bounds 0.5 ± 0.169741 → ±122.818 Elo.
        let p = Pairs { counts: [1, 2, 4, 2, 1] };
        let (s, se) = p.score_with_se().unwrap();
        assert!(close(s, 0.5, 1e-12) && close(se, 0.086_602_5, 1e-7), "{s} {se}");
        let e = elo_estimate_pairs(&p).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(close(e.upper, 122.818_4, 1e-3) && close(e.lower, -122.818_4, 1e-3), "{e:?}");
        assert!(close(e.los, 50.0, 1e-6));
        // 0, 1, 2, 3, 4 pairs: s = (0.25 + 1 + 2.25 + 4)/10 = 0.75 (+190.85 Elo);
        // variance (0.25 + 2*0.0625 + 0 + 4*0.0625)/10 = 0.0625, se = 0.0790569;
        // bounds 0.75 ± 0.154949 → [+66.862, +391.466]; LOS Φ(0.25/se) = 99.9217%.
        let p = Pairs { counts: [0, 1, 2, 3, 4] };
        let e = elo_estimate_pairs(&p).unwrap();
        assert!(close(e.elo, 190.848_5, 1e-3), "{e:?}");
        assert!(close(e.lower, 66.861_7, 1e-3) && close(e.upper, 391.466_5, 1e-3), "{e:?}");
        assert!(close(e.los, 99.921_7, 1e-3), "{e:?}");
        assert!(elo_estimate_pairs(&Pairs::default()).is_none());
        let mut q = Pairs::default();
        q.add(4);
        q.add(1);
        assert_eq!(q.counts, [0, 1, 0, 0, 1]);
    }

    #[test]
    fn pairs_are_tighter_than_games_when_the_opening_decides() {
        // Every opening won by White, whoever plays it: each pair is split
        // (1 point) and the games are 50% wins, 50% losses. As independent
        // games the variance is 0.25 a game; as pairs there is no noise at all.
        let games = elo_estimate(&Wdl { wins: 50, draws: 0, losses: 50 }).unwrap();
        let pairs = elo_estimate_pairs(&Pairs { counts: [0, 0, 50, 0, 0] }).unwrap();
        assert!(games.margin() > 60.0, "{games:?}");
        assert_eq!((pairs.lower, pairs.elo, pairs.upper), (0.0, 0.0, 0.0));
    }

    #[test]
    fn sprt_llr_of_pairs_worked_by_hand() {
        // 0, 1, 2, 3, 4 pairs (above), each count raised by half a pair:
        // 0.5, 1.5, 2.5, 3.5, 4.5, N = 12.5, s = (0.375 + 1.25 + 2.625 + 4.5)/12.5
        // = 0.7, v = (0.5*0.49 + 1.5*0.2025 + 2.5*0.04 + 3.5*0.0025 + 4.5*0.09)/12.5
        // = 0.085; elo0 = 0, elo1 = 200: s0 = 0.5, s1 = 0.7597469;
        // LLR = 12.5 * 0.2597469 * (1.4 - 1.2597469) / (2 * 0.085) = 2.67870:
        // not yet a verdict on ten pairs; twice as many pairs give one.
        let s: Sprt = "elo0=0,elo1=200".parse().unwrap();
        let p = Pairs { counts: [0, 1, 2, 3, 4] };
        assert!(close(s.llr_pairs(&p), 2.678_70, 1e-4), "{}", s.llr_pairs(&p));
        assert_eq!(s.decide(s.llr_pairs(&p)), SprtVerdict::Continue);
        assert_eq!(s.decide(s.llr_pairs(&Pairs { counts: [0, 2, 4, 6, 8] })), SprtVerdict::H1);
        // Mirrored: H0.
        assert_eq!(s.decide(s.llr_pairs(&Pairs { counts: [4, 3, 2, 1, 0] })), SprtVerdict::H0);
        // A lopsided run the first engine never lost a pair of (§33 of
        // docs/strength.md: pairs 0/0/22/12/18, +173.5 Elo) concludes against
        // elo1 = 20: N = 54.5, s = 0.7201835, v = 0.0535835, LLR = 6.01831.
        // Before the prior, the LLR stayed 0 until a lost pair came.
        let narrow: Sprt = "elo0=0,elo1=20".parse().unwrap();
        let lopsided = narrow.llr_pairs(&Pairs { counts: [0, 0, 22, 12, 18] });
        assert!(close(lopsided, 6.018_31, 1e-4), "{lopsided}");
        assert_eq!(narrow.decide(lopsided), SprtVerdict::H1);
        // 20 won pairs conclude; one does not, nor do three split pairs.
        assert_eq!(narrow.decide(narrow.llr_pairs(&Pairs { counts: [0, 0, 0, 0, 20] })), SprtVerdict::H1);
        assert_eq!(narrow.decide(narrow.llr_pairs(&Pairs { counts: [0, 0, 0, 0, 1] })), SprtVerdict::Continue);
        assert_eq!(narrow.decide(narrow.llr_pairs(&Pairs { counts: [0, 0, 3, 0, 0] })), SprtVerdict::Continue);
        // 40 split pairs are strong evidence against +200 (LLR −194.98).
        let split = s.llr_pairs(&Pairs { counts: [0, 0, 40, 0, 0] });
        assert!(close(split, -194.983_9, 1e-3), "{split}");
        assert_eq!(s.llr_pairs(&Pairs::default()), 0.0);
        assert_eq!(s.decide(3.0), SprtVerdict::H1);
        assert_eq!(s.decide(-3.0), SprtVerdict::H0);
        assert_eq!(s.decide(0.0), SprtVerdict::Continue);
    }

    #[test]
    fn sprt_parse_errors_are_clear() {
        assert!("elo0=0".parse::<Sprt>().unwrap_err().contains("elo1"));
        assert!("elo0=5,elo1=0".parse::<Sprt>().unwrap_err().contains("greater"));
        assert!("elo0=0,elo1=5,alpha=0.7".parse::<Sprt>().unwrap_err().contains("alpha"));
        assert!("elo0=0,elo1=x".parse::<Sprt>().unwrap_err().contains("not a number"));
        assert!("elo0=0,elo1=5,gamma=1".parse::<Sprt>().unwrap_err().contains("unknown key"));
        let s: Sprt = " elo0=-1.5 , elo1=3.5 ,beta=0.1".parse().unwrap();
        assert_eq!(s, Sprt { elo0: -1.5, elo1: 3.5, alpha: 0.05, beta: 0.1 });
    }
}
