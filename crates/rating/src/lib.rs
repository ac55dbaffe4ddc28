//! # chimera-rating
//!
//! Glicko-2 ratings for Chimera's players (one rating per variant), and
//! later for puzzles and the calibration of house bots. The maths is Mark
//! Glickman's "Example of the Glicko-2 system" (glicko.net, the 2012/2013
//! text with its March 2022 correction of step 5, see [`Rating::rate_period`]);
//! the constants and the way a single game is applied are lichess's (lila),
//! see [`Settings::LICHESS`].
//!
//! - [`Rating`]: rating, deviation (RD) and volatility on the Glicko scale
//!   (a new player is 1500), with [`Rating::to_glicko2`] /
//!   [`Rating::from_glicko2`] for the Glicko-2 scale (μ, φ, σ; 173.7178).
//! - [`Rating::rate_period`]: one rating period of the paper, steps 1-8, with
//!   any number of games ([`GameResult`]), or none (then only the deviation
//!   grows). [`Rating::rate_period_steps`] also returns the intermediate
//!   values the paper prints.
//! - [`update_pair`]: one game between two players applied at once, as lila
//!   applies it: each game is its own rating period for both players, each
//!   rated against the other's pre-game values.
//! - [`Rating::after_inactivity`]: the deviation grown for the time since the
//!   player's last rated game, in fractional rating periods as lila grows it.
//! - [`Rating::is_provisional`] and the [`Display`](fmt::Display) of a
//!   [`Rating`] (`1500?` while provisional, `1623` after), [`rating_diff`]
//!   for the `+12` / `-12` shown after a game.
//!
//! Every result is finite and inside the [`Settings`]' bounds for any finite
//! input; a NaN or infinite input is refused with a [`RatingError`].
//!
//! A rated game, the way the server applies it (the deviations first grow for
//! the days since each player's last game, then the game is rated):
//!
//! ```
//! use chimera_rating::{rating_diff, update_pair, Outcome, Rating, Settings};
//! use std::time::Duration;
//!
//! let s = Settings::LICHESS;
//! let day = Duration::from_secs(86_400);
//! let white = Rating::new(1623.4, 60.0, 0.06).after_inactivity(day * 30, &s)?;
//! let black = s.new_player; // 1500, RD 500: provisional
//! assert_eq!(white.to_string(), "1623");
//! assert_eq!(black.to_string(), "1500?");
//!
//! let (w, b) = update_pair(&white, &black, Outcome::WhiteWins, &s)?;
//! assert!(w.rating > white.rating && b.rating < black.rating);
//! assert_eq!((w.to_string(), b.to_string()), ("1629".into(), "1330?".into()));
//! assert_eq!(rating_diff(&white, &w).to_string(), "+6");
//! assert_eq!(rating_diff(&black, &b).to_string(), "-170");
//! # Ok::<(), chimera_rating::RatingError>(())
//! ```
//!
//! `docs/ratings.md` ("Glicko-2") describes the maths, the constants and
//! their sources, and the tests.

#![warn(missing_docs)]

use std::fmt;
use std::time::Duration;

/// The factor between the Glicko and the Glicko-2 scales (the paper's step 2:
/// μ = (r − 1500) / 173.7178, φ = RD / 173.7178).
pub const GLICKO2_SCALE: f64 = 173.7178;

/// The centre of the Glicko scale: the rating a Glicko-2 μ of 0 stands for.
pub const GLICKO_CENTRE: f64 = 1500.0;

/// The convergence tolerance ε of the volatility iteration (the paper's step
/// 5: "ε = 0.000001"; lila's `CONVERGENCE_TOLERANCE` is the same).
pub const CONVERGENCE_TOLERANCE: f64 = 0.000_001;

/// A rating is provisional while its deviation is above this (lila's
/// `provisionalDeviation`, 110; see [`Rating::is_provisional`]).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The most iterations of the volatility loop (step 5.4). The Illinois
/// algorithm converges in a handful; the cap only bounds the work on
/// pathological input, as lila's `ITERATION_MAX` (also 1000) does.
pub const MAX_ITERATIONS: u32 = 1000;

/// The widest bounds any [`Settings`] may give (checked by
/// [`Settings::validate`]): inside them every step of the algorithm stays
/// finite in `f64`, so every result is finite. They are far outside any
/// rating a person or a bot has.
pub mod limits {
    /// The lowest and highest rating (Glicko scale).
    pub const RATING: (f64, f64) = (-10_000.0, 10_000.0);
    /// The lowest and highest deviation (Glicko scale).
    pub const DEVIATION: (f64, f64) = (0.01, 10_000.0);
    /// The lowest and highest volatility.
    pub const VOLATILITY: (f64, f64) = (0.0001, 1.0);
    /// The lowest and highest system constant τ.
    pub const TAU: (f64, f64) = (0.01, 10.0);
}

/// Milliseconds in a day: lila counts the time since the last game in whole
/// milliseconds.
const MILLIS_PER_DAY: f64 = 86_400_000.0;

/// A player's rating on the Glicko scale (new players start at 1500).
///
/// The fields are public; a value outside the [`Settings`]' bounds is
/// clamped into them when it is rated (see [`Settings`]), and a non-finite
/// one is refused.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rating {
    /// The rating r (Glicko scale).
    pub rating: f64,
    /// The rating deviation RD (Glicko scale): the uncertainty of `rating`;
    /// the player's strength is within `rating ± 2 × deviation` with about
    /// 95% confidence.
    pub deviation: f64,
    /// The volatility σ: how much the player's strength is expected to
    /// fluctuate. It has no Glicko-scale form; it is the same number on both
    /// scales.
    pub volatility: f64,
}

/// A rating on the Glicko-2 scale (the paper's μ, φ, σ).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Glicko2 {
    /// μ = (r − 1500) / 173.7178.
    pub mu: f64,
    /// φ = RD / 173.7178.
    pub phi: f64,
    /// σ, the volatility (the same as on the Glicko scale).
    pub sigma: f64,
}

impl Rating {
    /// The rating `rating` / `deviation` / `volatility`.
    pub const fn new(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating { rating, deviation, volatility }
    }

    /// This rating on the Glicko-2 scale (the paper's step 2).
    ///
    /// ```
    /// use chimera_rating::Rating;
    /// let g = Rating::new(1500.0, 200.0, 0.06).to_glicko2();
    /// assert_eq!(g.mu, 0.0);
    /// assert_eq!((g.phi * 1e4).round() / 1e4, 1.1513);
    /// ```
    pub fn to_glicko2(&self) -> Glicko2 {
        Glicko2 {
            mu: (self.rating - GLICKO_CENTRE) / GLICKO2_SCALE,
            phi: self.deviation / GLICKO2_SCALE,
            sigma: self.volatility,
        }
    }

    /// The rating on the Glicko scale of a Glicko-2 `(μ, φ, σ)` (the paper's
    /// step 8).
    pub fn from_glicko2(g: Glicko2) -> Rating {
        Rating { rating: g.mu * GLICKO2_SCALE + GLICKO_CENTRE, deviation: g.phi * GLICKO2_SCALE, volatility: g.sigma }
    }

    /// Whether the rating is still provisional: its deviation is above
    /// [`PROVISIONAL_DEVIATION`] (110). A new lichess player (RD 500) is
    /// provisional until about a dozen games have brought the deviation down.
    ///
    /// lila writes the test as `deviation >= 110`; here it is `> 110`, so
    /// the two differ only for a deviation of exactly 110.0.
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as shown: rounded to the nearest integer (halves away from
    /// zero). lila truncates instead (`rating.toInt`), so a rating of 1623.7
    /// shows as 1624 here and 1623 on lichess. A NaN gives 0 and an infinity
    /// the `i64` bound (Rust's saturating `as`).
    pub fn rounded(&self) -> i64 {
        self.rating.round() as i64
    }

    /// Whether every field is finite.
    pub fn is_finite(&self) -> bool {
        self.rating.is_finite() && self.deviation.is_finite() && self.volatility.is_finite()
    }

    /// This rating with its deviation grown for `elapsed`, the time since the
    /// player's last rated game, as lila grows it before a game and when it
    /// shows a rating (`Glicko.liveDeviation`).
    ///
    /// The time counts in whole milliseconds (lila's `Duration.toMillis`), and
    /// `t = milliseconds × rating_periods_per_day / 86 400 000` rating
    /// periods elapse, a fraction as often as not (no rounding to whole
    /// periods). The deviation becomes `√(RD² + t × (σ × 173.7178)²)`: the
    /// paper's step 6, `φ* = √(φ² + σ²)`, applied for `t` periods (on the
    /// Glicko-2 scale `√(φ² + t σ²)`). The result is clamped to
    /// `[min_deviation, max_deviation]`; the rating and the volatility are
    /// only clamped into the settings' bounds. With the lichess settings
    /// (σ 0.06, 0.21436 periods a day) an RD of 60 grows to about 110 in a
    /// year, and never past 500.
    ///
    /// The growth is monotone in `elapsed`, and a zero `elapsed` returns the
    /// (clamped) rating unchanged.
    ///
    /// ```
    /// use chimera_rating::{Rating, Settings};
    /// use std::time::Duration;
    ///
    /// let s = Settings::LICHESS;
    /// let year = Duration::from_secs(365 * 86_400);
    /// let r = Rating::new(1800.0, 60.0, 0.06).after_inactivity(year, &s)?;
    /// assert_eq!(r.deviation.round(), 110.0);
    /// assert_eq!(r.rating, 1800.0);
    /// let r = Rating::new(1800.0, 60.0, 0.06).after_inactivity(year * 100, &s)?;
    /// assert_eq!(r.deviation, 500.0);
    /// # Ok::<(), chimera_rating::RatingError>(())
    /// ```
    pub fn after_inactivity(&self, elapsed: Duration, settings: &Settings) -> Result<Rating, RatingError> {
        settings.validate()?;
        let r = settings.clamp_input(self, "rating")?;
        let periods = elapsed.as_millis() as f64 * settings.rating_periods_per_day / MILLIS_PER_DAY;
        let sigma_glicko = r.volatility * GLICKO2_SCALE;
        let deviation = (r.deviation * r.deviation + periods * sigma_glicko * sigma_glicko).sqrt();
        Ok(Rating { deviation: settings.clamp_deviation(deviation), ..r })
    }

    /// The rating after one rating period of the paper (steps 1-8) in which
    /// the player played `games` (any number, in any order: a rating period
    /// treats them as simultaneous).
    ///
    /// With games: v and Δ from the games (steps 3-4), the new volatility σ'
    /// by the Illinois algorithm (step 5, ε = [`CONVERGENCE_TOLERANCE`]),
    /// `φ* = √(φ² + σ'²)` (step 6), then
    /// `φ' = 1 / √(1/φ*² + 1/v)` and `μ' = μ + φ'² Σ g(φⱼ)(sⱼ − E(μ, μⱼ, φⱼ))`
    /// (step 7). Without games only the deviation grows:
    /// `φ* = √(φ² + σ²)`, μ and σ unchanged.
    ///
    /// Step 5.4(b) is the paper's as revised on 22 March 2022: "if
    /// f(C)f(B) ≤ 0" where the 2012/2013 text had "< 0" (the revision is the
    /// paper's only change; with "<", an iteration that lands exactly on the
    /// root halves f(A) forever and never stops). lila has "≤" too. The two
    /// give the same result on the paper's example and wherever f(C) ≠ 0.
    ///
    /// The inputs (the player's and each opponent's rating and deviation) are
    /// first clamped into the settings' bounds, and the result is clamped
    /// again (step 8 then clamping); with [`Settings::glickman`] the bounds
    /// are [`limits`], wide enough that a real rating is never moved by them.
    ///
    /// ```
    /// use chimera_rating::{GameResult, Rating, Score, Settings};
    ///
    /// // The paper's example (τ = 0.5).
    /// let player = Rating::new(1500.0, 200.0, 0.06);
    /// let games = [
    ///     GameResult::new(1400.0, 30.0, Score::Win),
    ///     GameResult::new(1550.0, 100.0, Score::Loss),
    ///     GameResult::new(1700.0, 300.0, Score::Loss),
    /// ];
    /// let after = player.rate_period(&games, &Settings::glickman(0.5))?;
    /// assert_eq!((after.rating * 100.0).round() / 100.0, 1464.05);
    /// assert_eq!((after.deviation * 100.0).round() / 100.0, 151.52);
    /// # Ok::<(), chimera_rating::RatingError>(())
    /// ```
    pub fn rate_period(&self, games: &[GameResult], settings: &Settings) -> Result<Rating, RatingError> {
        Ok(self.rate_period_steps(games, settings)?.rating)
    }

    /// [`Rating::rate_period`], with the intermediate values of each step.
    pub fn rate_period_steps(&self, games: &[GameResult], settings: &Settings) -> Result<PeriodSteps, RatingError> {
        settings.validate()?;
        let player = settings.clamp_input(self, "rating")?;
        let opponents = games
            .iter()
            .map(|g| {
                let opp = settings.clamp_input(
                    &Rating::new(g.opponent_rating, g.opponent_deviation, settings.new_player.volatility),
                    "opponent",
                )?;
                let o = opp.to_glicko2();
                Ok((o.mu, o.phi, g.score.value()))
            })
            .collect::<Result<Vec<_>, RatingError>>()?;
        Ok(period(&player, &opponents, settings, 1.0))
    }
}

/// The rating as shown: the rounded rating ([`Rating::rounded`]), then `?`
/// while it is provisional ([`Rating::is_provisional`]): `1500?`, `1623`.
impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rounded(), if self.is_provisional() { "?" } else { "" })
    }
}

/// A game's result for one player: 1 for a win, ½ for a draw, 0 for a loss.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// The player lost (0).
    Loss,
    /// A draw (½).
    Draw,
    /// The player won (1).
    Win,
}

impl Score {
    /// The score sⱼ of the paper: 0, 0.5 or 1.
    pub fn value(self) -> f64 {
        match self {
            Score::Loss => 0.0,
            Score::Draw => 0.5,
            Score::Win => 1.0,
        }
    }

    /// The opponent's score for the same game.
    pub fn opposite(self) -> Score {
        match self {
            Score::Loss => Score::Win,
            Score::Draw => Score::Draw,
            Score::Win => Score::Loss,
        }
    }
}

/// One game of a rating period: the opponent's rating and deviation at the
/// start of the period, and the player's score.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The opponent's rating rⱼ (Glicko scale).
    pub opponent_rating: f64,
    /// The opponent's deviation RDⱼ (Glicko scale).
    pub opponent_deviation: f64,
    /// The player's score.
    pub score: Score,
}

impl GameResult {
    /// A game against an opponent rated `opponent_rating` with deviation
    /// `opponent_deviation`, in which the player scored `score`.
    pub const fn new(opponent_rating: f64, opponent_deviation: f64, score: Score) -> GameResult {
        GameResult { opponent_rating, opponent_deviation, score }
    }
}

/// The result of a game between White and Black.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// A draw.
    Draw,
    /// Black won.
    BlackWins,
}

impl Outcome {
    /// White's score.
    pub fn white(self) -> Score {
        match self {
            Outcome::WhiteWins => Score::Win,
            Outcome::Draw => Score::Draw,
            Outcome::BlackWins => Score::Loss,
        }
    }

    /// Black's score.
    pub fn black(self) -> Score {
        self.white().opposite()
    }

    /// The same result with the colours swapped (White's win becomes
    /// Black's).
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::WhiteWins => Outcome::BlackWins,
            Outcome::Draw => Outcome::Draw,
            Outcome::BlackWins => Outcome::WhiteWins,
        }
    }
}

/// The intermediate values of one rating period ([`Rating::rate_period_steps`]),
/// named as in the paper.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PeriodSteps {
    /// Step 2: the player's rating on the Glicko-2 scale (after clamping).
    pub before: Glicko2,
    /// Step 3: v, the estimated variance of the player's rating from the
    /// games alone; `None` when the period had no games.
    pub v: Option<f64>,
    /// Step 4: Δ, the estimated improvement; `None` when the period had no
    /// games.
    pub delta: Option<f64>,
    /// Step 5: how many times the loop of step 5.4 ran (0 without games).
    pub iterations: u32,
    /// Step 5: σ', the new volatility (σ unchanged without games).
    pub sigma: f64,
    /// Step 6: φ*, the pre-period deviation grown by the elapsed periods.
    pub phi_star: f64,
    /// Step 7: μ' and φ' (σ' as above), before clamping.
    pub after: Glicko2,
    /// Step 8: the new rating on the Glicko scale, clamped into the settings'
    /// bounds.
    pub rating: Rating,
}

/// The system's constants and bounds.
///
/// [`Settings::LICHESS`] (the [`Default`]) is lichess's set for players;
/// [`Settings::glickman`] is the paper's system with a τ of one's choice and
/// no bounds but the [`limits`].
///
/// Every rating, deviation and volatility that goes in (the player's and the
/// opponents') is first clamped into `[min, max]` of its kind, and every
/// result is clamped into the same bounds, as lila caps a rating before
/// storing it (`Glicko.cap`). Clamping a value that is inside the bounds
/// leaves it as it is.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Settings {
    /// The system constant τ, which limits how fast the volatility changes
    /// (the paper: "reasonable choices are between 0.3 and 1.2").
    pub tau: f64,
    /// A new player's rating, deviation and volatility.
    pub new_player: Rating,
    /// The lowest rating.
    pub min_rating: f64,
    /// The highest rating.
    pub max_rating: f64,
    /// The lowest deviation: however many games a player plays, the rating
    /// keeps this much uncertainty, so it can still move.
    pub min_deviation: f64,
    /// The highest deviation: inactivity grows the deviation up to this.
    pub max_deviation: f64,
    /// The lowest volatility.
    pub min_volatility: f64,
    /// The highest volatility.
    pub max_volatility: f64,
    /// Rating periods per day, for [`Rating::after_inactivity`].
    pub rating_periods_per_day: f64,
}

impl Settings {
    /// lichess's constants for players, as lila has them
    /// (github.com/lichess-org/lila, `modules/rating/src/main/Glicko.scala`,
    /// its `Glicko` object, as of commit `0101445c`; the glicko2
    /// `RatingCalculator` beside it has the same `Tau.default`):
    ///
    /// | field | value | lila |
    /// |---|---|---|
    /// | `tau` | 0.75 | `tau = 0.75d` |
    /// | `new_player` | 1500 / 500 / 0.09 | `default = Glicko(1500d, maxDeviation, defaultVolatility)` |
    /// | `min_rating` | 400 | `minRating = IntRating(400)`, applied by `cap` |
    /// | `max_rating` | 4000 | `maxRating = IntRating(4000)` (lila does not clamp to it: its `sanityCheck` resets a rating of 4000 or more to the default; clamping is this crate's choice) |
    /// | `min_deviation` | 45 | `minDeviation = 45` |
    /// | `max_deviation` | 500 | `maxDeviation = 500d` |
    /// | `min_volatility` | 0.0001 | none (this crate's floor, [`limits::VOLATILITY`]) |
    /// | `max_volatility` | 0.1 | `maxVolatility = 0.1d` ("past this, it might not stabilize ever again") |
    /// | `rating_periods_per_day` | 0.21436 | `ratingPeriodsPerDay = 0.21436d` ("chosen so a typical player's RD goes from 60 -> 110 in 1 year") |
    ///
    /// The provisional threshold, lila's `provisionalDeviation = 110`, is
    /// [`PROVISIONAL_DEVIATION`].
    pub const LICHESS: Settings = Settings {
        tau: 0.75,
        new_player: Rating::new(1500.0, 500.0, 0.09),
        min_rating: 400.0,
        max_rating: 4000.0,
        min_deviation: 45.0,
        max_deviation: 500.0,
        min_volatility: limits::VOLATILITY.0,
        max_volatility: 0.1,
        rating_periods_per_day: 0.21436,
    };

    /// The paper's system with the constant `tau`: a new player is
    /// 1500 / 350 / 0.06 (the paper's step 1), one rating period a day, and
    /// no bounds but the [`limits`].
    pub const fn glickman(tau: f64) -> Settings {
        Settings {
            tau,
            new_player: Rating::new(1500.0, 350.0, 0.06),
            min_rating: limits::RATING.0,
            max_rating: limits::RATING.1,
            min_deviation: limits::DEVIATION.0,
            max_deviation: limits::DEVIATION.1,
            min_volatility: limits::VOLATILITY.0,
            max_volatility: limits::VOLATILITY.1,
            rating_periods_per_day: 1.0,
        }
    }

    /// Checks the settings: every field finite, each `min` at most its
    /// `max`, all bounds and τ within [`limits`], `rating_periods_per_day` at
    /// least 0, and `new_player` inside the bounds. Every function of the
    /// crate checks its settings first and refuses bad ones with
    /// [`RatingError::Settings`].
    pub fn validate(&self) -> Result<(), RatingError> {
        let within = |what: &'static str, lo: f64, hi: f64, (min, max): (f64, f64)| {
            if lo.is_finite() && hi.is_finite() && min <= lo && lo <= hi && hi <= max {
                Ok(())
            } else {
                Err(RatingError::Settings(what))
            }
        };
        within("tau", self.tau, self.tau, limits::TAU)?;
        within("min_rating/max_rating", self.min_rating, self.max_rating, limits::RATING)?;
        within("min_deviation/max_deviation", self.min_deviation, self.max_deviation, limits::DEVIATION)?;
        within("min_volatility/max_volatility", self.min_volatility, self.max_volatility, limits::VOLATILITY)?;
        within("rating_periods_per_day", self.rating_periods_per_day, self.rating_periods_per_day, (0.0, f64::MAX))?;
        let p = &self.new_player;
        within("new_player.rating", p.rating, p.rating, (self.min_rating, self.max_rating))?;
        within("new_player.deviation", p.deviation, p.deviation, (self.min_deviation, self.max_deviation))?;
        within("new_player.volatility", p.volatility, p.volatility, (self.min_volatility, self.max_volatility))?;
        Ok(())
    }

    /// `r` clamped into the bounds, or an error naming `what` if a field of
    /// it is not finite.
    fn clamp_input(&self, r: &Rating, what: &'static str) -> Result<Rating, RatingError> {
        if !r.is_finite() {
            return Err(RatingError::NonFinite(what));
        }
        Ok(self.clamp(r))
    }

    /// `r` clamped into the bounds (`r` finite, or a NaN field stays NaN).
    fn clamp(&self, r: &Rating) -> Rating {
        Rating {
            rating: r.rating.clamp(self.min_rating, self.max_rating),
            deviation: self.clamp_deviation(r.deviation),
            volatility: r.volatility.clamp(self.min_volatility, self.max_volatility),
        }
    }

    fn clamp_deviation(&self, deviation: f64) -> f64 {
        deviation.clamp(self.min_deviation, self.max_deviation)
    }
}

impl Default for Settings {
    /// [`Settings::LICHESS`].
    fn default() -> Settings {
        Settings::LICHESS
    }
}

/// Why a rating could not be computed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RatingError {
    /// An input (the named one) is NaN or infinite.
    NonFinite(&'static str),
    /// The settings are out of bounds (the named field; see
    /// [`Settings::validate`]).
    Settings(&'static str),
}

impl fmt::Display for RatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingError::NonFinite(what) => write!(f, "the {what} is not a finite number"),
            RatingError::Settings(what) => write!(f, "rating settings out of bounds: {what}"),
        }
    }
}

impl std::error::Error for RatingError {}

/// One game between `white` and `black`, rated at once as lila rates it:
/// the game is a rating period of its own for each player ([`Rating::rate_period`]
/// with that one game), each player rated against the other's pre-game rating
/// and deviation, and returns the new ratings `(white, black)`.
///
/// As in lila (`computeGame(..., skipDeviationIncrease = true)`), step 6 adds
/// no elapsed period here (φ* = φ): the growth for the time since each
/// player's last game is [`Rating::after_inactivity`], which the caller
/// applies to both ratings first (lila's stored ratings are read with that
/// growth applied). So a game never raises a deviation: the new one is at
/// most the pre-game one (or `min_deviation`). The new volatility σ' (step
/// 5) does not move this game's rating; it is kept for the growth of the
/// deviation after the game.
///
/// There is no colour advantage (lila gives White about 6 points in
/// standard chess and 10 in crazyhouse; Chimera's variants have no measured
/// value), so swapping the colours and the result mirrors the result exactly.
pub fn update_pair(
    white: &Rating,
    black: &Rating,
    outcome: Outcome,
    settings: &Settings,
) -> Result<(Rating, Rating), RatingError> {
    settings.validate()?;
    let w = settings.clamp_input(white, "white rating")?;
    let b = settings.clamp_input(black, "black rating")?;
    let (wg, bg) = (w.to_glicko2(), b.to_glicko2());
    let new_w = period(&w, &[(bg.mu, bg.phi, outcome.white().value())], settings, 0.0).rating;
    let new_b = period(&b, &[(wg.mu, wg.phi, outcome.black().value())], settings, 0.0).rating;
    Ok((new_w, new_b))
}

/// The change of the rating shown after a game: `+12`, `-12`, `0`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RatingDiff(pub i64);

impl fmt::Display for RatingDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 > 0 {
            write!(f, "+{}", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// The rating diff shown for a game: the shown (rounded) new rating less the
/// shown old one, `after.rounded() − before.rounded()`, so that "1512 (+12)"
/// always adds up. (lila does the same with its truncated ratings; the
/// rounded difference of the exact ratings can differ from this by 1.)
///
/// ```
/// use chimera_rating::{rating_diff, Rating};
/// let before = Rating::new(1499.6, 80.0, 0.06);
/// let after = Rating::new(1511.4, 79.0, 0.06);
/// assert_eq!(rating_diff(&before, &after).0, 11); // 1500 → 1511
/// assert_eq!(rating_diff(&after, &before).to_string(), "-11");
/// ```
pub fn rating_diff(before: &Rating, after: &Rating) -> RatingDiff {
    RatingDiff(after.rounded().saturating_sub(before.rounded()))
}

/// g(φ) of the paper's step 3: how much an opponent's deviation φ (Glicko-2
/// scale) discounts a game against them.
pub fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// E(μ, μⱼ, φⱼ) of the paper's step 3: the expected score of a player rated
/// `mu` against an opponent rated `mu_j` with deviation `phi_j` (Glicko-2
/// scale).
///
/// ```
/// use chimera_rating::{expected_score, Rating};
/// let me = Rating::new(1500.0, 200.0, 0.06).to_glicko2();
/// let opp = Rating::new(1400.0, 30.0, 0.06).to_glicko2();
/// assert_eq!((expected_score(me.mu, opp.mu, opp.phi) * 1e3).round() / 1e3, 0.639);
/// ```
pub fn expected_score(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// One rating period for `player` (already clamped) against `games`
/// (opponent μⱼ, φⱼ and the score sⱼ, on the Glicko-2 scale), with
/// `elapsed_periods` periods of deviation growth in step 6 (1 in the paper,
/// 0 for lila's game-by-game rating).
fn period(player: &Rating, games: &[(f64, f64, f64)], settings: &Settings, elapsed_periods: f64) -> PeriodSteps {
    let before = player.to_glicko2();
    let Glicko2 { mu, phi, sigma } = before;
    if games.is_empty() {
        // Only step 6: the deviation grows, μ and σ stay.
        let phi_star = (phi * phi + elapsed_periods * sigma * sigma).sqrt();
        let after = Glicko2 { mu, phi: phi_star, sigma };
        let rating = settings.clamp(&Rating { deviation: phi_star * GLICKO2_SCALE, ..*player });
        return PeriodSteps { before, v: None, delta: None, iterations: 0, sigma, phi_star, after, rating };
    }

    // Step 3: v, and (for step 4) the sum of g(φⱼ)(sⱼ − E). 1 − E is
    // computed as E(−z) rather than by subtracting: when E rounds to 1 (a
    // rating gap of a few thousand points), 1 − E would be 0 and v infinite,
    // while E(−z) stays a tiny positive number.
    let mut information = 0.0;
    let mut surprise = 0.0;
    for &(mu_j, phi_j, s_j) in games {
        let g_j = g(phi_j);
        let e_j = expected_score(mu, mu_j, phi_j);
        let not_e_j = expected_score(mu_j, mu, phi_j);
        information += g_j * g_j * e_j * not_e_j;
        // sⱼ − E = sⱼ(1 − E) − (1 − sⱼ)E
        surprise += g_j * (s_j * not_e_j - (1.0 - s_j) * e_j);
    }
    let v = 1.0 / information;
    // Step 4.
    let delta = v * surprise;
    // Step 5.
    let (new_sigma, iterations) = new_volatility(delta, phi, v, sigma, settings.tau);
    // Step 6.
    let phi_star = (phi * phi + elapsed_periods * new_sigma * new_sigma).sqrt();
    // Step 7. φ' ≤ φ* holds exactly in the maths; the min keeps rounding from
    // breaking it.
    let new_phi = (1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt()).min(phi_star);
    let step = new_phi * new_phi * surprise;
    let after = Glicko2 { mu: mu + step, phi: new_phi, sigma: new_sigma };
    // Step 8. The rating moves by the step from the player's own Glicko-scale
    // rating (not from μ converted back), so a rating no game moves stays
    // exactly as it was and a win never rounds to a loss of points.
    let deviation = if elapsed_periods == 0.0 {
        // φ* = φ: keep the new RD at most the old one despite the round trip
        // through the Glicko-2 scale.
        (new_phi * GLICKO2_SCALE).min(player.deviation)
    } else {
        new_phi * GLICKO2_SCALE
    };
    let rating =
        settings.clamp(&Rating { rating: player.rating + step * GLICKO2_SCALE, deviation, volatility: new_sigma });
    PeriodSteps { before, v: Some(v), delta: Some(delta), iterations, sigma: new_sigma, phi_star, after, rating }
}

/// Step 5 of the paper: the new volatility σ' by the Illinois algorithm, and
/// the number of iterations of step 5.4.
fn new_volatility(delta: f64, phi: f64, v: f64, sigma: f64, tau: f64) -> (f64, u32) {
    // 5.1
    let a = (sigma * sigma).ln();
    let phi2 = phi * phi;
    let delta2 = delta * delta;
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi2 + v + ex;
        ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    // 5.2. The k loop ends: the first term of f is above −½, so
    // f(a − kτ) > k/τ − ½ is positive once k ≥ τ/2.
    let mut big_a = a;
    let mut big_b = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    // 5.3
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    // 5.4
    let mut iterations = 0;
    while (big_b - big_a).abs() > CONVERGENCE_TOLERANCE && iterations < MAX_ITERATIONS {
        if f_b == f_a {
            // Only reachable when rounding has flattened f; C would divide
            // by zero.
            break;
        }
        iterations += 1;
        // (a)
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        // (b), as revised in March 2022 ("≤ 0"; the 2013 text has "< 0").
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        // (c)
        big_b = c;
        f_b = f_c;
    }
    // 5.5
    ((big_a / 2.0).exp(), iterations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provisional_and_shown_ratings() {
        let r = |rating, deviation| Rating::new(rating, deviation, 0.06);
        assert_eq!(Settings::LICHESS.new_player.to_string(), "1500?");
        assert_eq!(r(1623.4, 60.0).to_string(), "1623");
        assert_eq!(r(1623.5, 60.0).to_string(), "1624");
        assert_eq!(r(1623.5, 110.0).to_string(), "1624");
        assert_eq!(r(1623.5, 110.000_001).to_string(), "1624?");
        assert!(!r(1500.0, PROVISIONAL_DEVIATION).is_provisional());
        assert_eq!(r(-0.5, 50.0).rounded(), -1);
    }

    #[test]
    fn rating_diffs_are_of_the_shown_ratings() {
        let r = |rating| Rating::new(rating, 60.0, 0.06);
        assert_eq!(rating_diff(&r(1500.4), &r(1512.6)), RatingDiff(13));
        assert_eq!(rating_diff(&r(1512.6), &r(1500.4)).to_string(), "-13");
        assert_eq!(rating_diff(&r(1500.0), &r(1500.4)).to_string(), "0");
        assert_eq!(RatingDiff(12).to_string(), "+12");
    }

    #[test]
    fn glicko2_scale_round_trip() {
        let r = Rating::new(1700.0, 300.0, 0.06);
        let g = r.to_glicko2();
        assert_eq!((g.mu * 1e4).round() / 1e4, 1.1513);
        assert_eq!((g.phi * 1e4).round() / 1e4, 1.7269);
        let back = Rating::from_glicko2(g);
        assert!((back.rating - 1700.0).abs() < 1e-9 && (back.deviation - 300.0).abs() < 1e-9);
        assert_eq!(back.volatility, 0.06);
    }

    #[test]
    fn settings_are_checked() {
        assert_eq!(Settings::LICHESS.validate(), Ok(()));
        assert_eq!(Settings::default(), Settings::LICHESS);
        assert_eq!(Settings::glickman(0.5).validate(), Ok(()));
        let bad = [
            Settings { tau: 0.0, ..Settings::LICHESS },
            Settings { tau: f64::NAN, ..Settings::LICHESS },
            Settings { min_rating: 5000.0, ..Settings::LICHESS },
            Settings { max_rating: 1e6, ..Settings::LICHESS },
            Settings { min_deviation: 0.0, ..Settings::LICHESS },
            Settings { max_volatility: 2.0, ..Settings::LICHESS },
            Settings { rating_periods_per_day: -1.0, ..Settings::LICHESS },
            Settings { rating_periods_per_day: f64::INFINITY, ..Settings::LICHESS },
            Settings { new_player: Rating::new(1500.0, 600.0, 0.09), ..Settings::LICHESS },
        ];
        let r = Settings::LICHESS.new_player;
        for s in bad {
            assert!(matches!(s.validate(), Err(RatingError::Settings(_))), "{s:?}");
            assert!(update_pair(&r, &r, Outcome::Draw, &s).is_err(), "{s:?}");
            assert!(r.rate_period(&[], &s).is_err(), "{s:?}");
            assert!(r.after_inactivity(Duration::ZERO, &s).is_err(), "{s:?}");
        }
    }

    #[test]
    fn errors_say_what_was_wrong() {
        let r = Rating::new(f64::NAN, 60.0, 0.06);
        let e = update_pair(&Settings::LICHESS.new_player, &r, Outcome::Draw, &Settings::LICHESS).unwrap_err();
        assert_eq!(e, RatingError::NonFinite("black rating"));
        assert_eq!(e.to_string(), "the black rating is not a finite number");
        let e = Settings { tau: 0.0, ..Settings::LICHESS }.validate().unwrap_err();
        assert_eq!(e.to_string(), "rating settings out of bounds: tau");
    }

    #[test]
    fn inputs_out_of_bounds_are_clamped() {
        let s = Settings::LICHESS;
        let r = Rating::new(100.0, 9000.0, 0.5).after_inactivity(Duration::ZERO, &s).unwrap();
        assert_eq!(r, Rating::new(400.0, 500.0, 0.1));
        let (w, b) = update_pair(&Rating::new(-3.0, -1.0, -1.0), &s.new_player, Outcome::BlackWins, &s).unwrap();
        assert_eq!(w.rating, 400.0);
        assert_eq!(w.deviation, 45.0);
        // Black beat a 400 with RD 45: a small gain.
        assert!(b.rating > 1500.0 && b.rating < 1505.0, "{b:?}");
    }

    /// Two ratings 20 000 points apart: E rounds to exactly 1, and 1 − E by
    /// subtraction would be 0 and v infinite. v stays finite, and the
    /// result is the mirror image of the reverse game.
    #[test]
    fn a_certain_expected_score_keeps_v_finite() {
        let s = Settings::glickman(0.5);
        assert_eq!(expected_score(115.0, -1.0, 0.0), 1.0);
        let top = Rating::new(10_000.0, 0.01, 0.06);
        let bottom = Rating::new(-10_000.0, 0.01, 0.06);
        let lost = top.rate_period_steps(&[GameResult::new(-10_000.0, 0.01, Score::Loss)], &s).unwrap();
        let won = bottom.rate_period_steps(&[GameResult::new(10_000.0, 0.01, Score::Win)], &s).unwrap();
        assert!(lost.v.unwrap().is_finite() && lost.v.unwrap() > 1e40, "{lost:?}");
        assert_eq!(lost.v, won.v);
        assert_eq!(lost.delta.map(|d| -d), won.delta);
        assert_eq!(lost.rating.rating - 10_000.0, -10_000.0 - won.rating.rating);
    }
}
