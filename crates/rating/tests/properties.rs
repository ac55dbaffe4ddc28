//! Property tests of the rating maths:
//!
//! - symmetry: swapping the colours and the result mirrors a game's result
//!   exactly;
//! - a win never lowers a rating and a loss never raises one, in a game
//!   rated at once and in a rating period of wins (or losses) only; a draw
//!   never lowers the lower of two ratings nor raises the higher;
//! - a game never raises the deviation it was rated with: the deviation
//!   after the game is at most the one before it, which is the deviation
//!   after inactivity growth when time has passed since the last game;
//! - every result is finite and inside the settings' bounds, for any finite
//!   input (however extreme) and any settings within `limits`; a NaN or
//!   infinite input is refused;
//! - inactivity growth is monotone in the time, capped at `max_deviation`,
//!   and changes nothing for no time.

use chimera_rating::{
    limits, update_pair, GameResult, Outcome, Rating, RatingError, Score, Settings, PROVISIONAL_DEVIATION,
};
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::time::Duration;

/// A rating inside the lichess bounds.
fn lichess_rating() -> impl Strategy<Value = Rating> {
    let s = Settings::LICHESS;
    (s.min_rating..=s.max_rating, s.min_deviation..=s.max_deviation, s.min_volatility..=s.max_volatility)
        .prop_map(|(r, d, v)| Rating::new(r, d, v))
}

/// Any finite number, the extremes and the edges weighted up.
fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        2 => -5000.0..5000.0f64,
        1 => prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
        1 => prop::sample::select(vec![f64::MAX, f64::MIN, f64::MIN_POSITIVE, -0.0, 1e-300, -1e300, 1e300]),
    ]
}

/// Any rating with finite fields.
fn finite_rating() -> impl Strategy<Value = Rating> {
    (finite(), finite(), finite()).prop_map(|(r, d, v)| Rating::new(r, d, v))
}

/// A value of `range`, its ends weighted up.
fn within((lo, hi): (f64, f64)) -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(lo), 1 => Just(hi), 3 => lo..=hi]
}

/// Two values of `range`, in order.
fn bounds(range: (f64, f64)) -> impl Strategy<Value = (f64, f64)> {
    (within(range), within(range)).prop_map(|(a, b)| (a.min(b), a.max(b)))
}

/// Any settings that `Settings::validate` accepts, the extremes included.
fn settings() -> impl Strategy<Value = Settings> {
    (
        within(limits::TAU),
        bounds(limits::RATING),
        bounds(limits::DEVIATION),
        bounds(limits::VOLATILITY),
        prop_oneof![Just(0.0), 0.0..10.0f64, Just(1e300)],
    )
        .prop_map(|(tau, (r0, r1), (d0, d1), (v0, v1), rating_periods_per_day)| Settings {
            tau,
            new_player: Rating::new(r0, d1, v0),
            min_rating: r0,
            max_rating: r1,
            min_deviation: d0,
            max_deviation: d1,
            min_volatility: v0,
            max_volatility: v1,
            rating_periods_per_day,
        })
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop::sample::select(vec![Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins])
}

fn score() -> impl Strategy<Value = Score> {
    prop::sample::select(vec![Score::Win, Score::Draw, Score::Loss])
}

fn games(rating: impl Strategy<Value = Rating>, len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<GameResult>> {
    prop::collection::vec((rating, score()).prop_map(|(r, s)| GameResult::new(r.rating, r.deviation, s)), len)
}

/// `r` is finite and inside the bounds of `s`.
#[track_caller]
fn assert_in_bounds(r: &Rating, s: &Settings) {
    assert!(r.is_finite(), "{r:?}");
    assert!((s.min_rating..=s.max_rating).contains(&r.rating), "{r:?} {s:?}");
    assert!((s.min_deviation..=s.max_deviation).contains(&r.deviation), "{r:?} {s:?}");
    assert!((s.min_volatility..=s.max_volatility).contains(&r.volatility), "{r:?} {s:?}");
}

proptest! {
    #![proptest_config(Config { cases: 2000, ..Config::default() })]

    #[test]
    fn swapping_colours_and_result_mirrors_the_game(w in lichess_rating(), b in lichess_rating(), o in outcome()) {
        let s = Settings::LICHESS;
        let (w1, b1) = update_pair(&w, &b, o, &s).unwrap();
        let (b2, w2) = update_pair(&b, &w, o.flipped(), &s).unwrap();
        prop_assert_eq!((w1, b1), (w2, b2));
    }

    #[test]
    fn a_win_never_lowers_a_rating_and_a_loss_never_raises_one(
        w in lichess_rating(), b in lichess_rating(), o in outcome(),
    ) {
        let (w1, b1) = update_pair(&w, &b, o, &Settings::LICHESS).unwrap();
        match o {
            Outcome::WhiteWins => prop_assert!(w1.rating >= w.rating && b1.rating <= b.rating),
            Outcome::BlackWins => prop_assert!(w1.rating <= w.rating && b1.rating >= b.rating),
            // A draw never lowers the lower rating nor raises the higher.
            Outcome::Draw if w.rating <= b.rating => prop_assert!(w1.rating >= w.rating && b1.rating <= b.rating),
            Outcome::Draw => prop_assert!(w1.rating <= w.rating && b1.rating >= b.rating),
        }
    }

    #[test]
    fn a_period_of_wins_never_lowers_a_rating_nor_one_of_losses_raises_it(
        p in lichess_rating(), g in games(lichess_rating(), 1..12), tau in within((0.3, 1.2)),
    ) {
        let s = Settings { tau, ..Settings::LICHESS };
        let wins: Vec<_> = g.iter().map(|g| GameResult { score: Score::Win, ..*g }).collect();
        let losses: Vec<_> = g.iter().map(|g| GameResult { score: Score::Loss, ..*g }).collect();
        prop_assert!(p.rate_period(&wins, &s).unwrap().rating >= p.rating);
        prop_assert!(p.rate_period(&losses, &s).unwrap().rating <= p.rating);
    }

    #[test]
    fn a_game_never_raises_the_deviation_it_was_rated_with(
        w in lichess_rating(), b in lichess_rating(), o in outcome(), days in 0u64..3000,
    ) {
        let s = Settings::LICHESS;
        let (w1, b1) = update_pair(&w, &b, o, &s).unwrap();
        prop_assert!(w1.deviation <= w.deviation && b1.deviation <= b.deviation, "{w:?} {w1:?} {b:?} {b1:?}");
        // After inactivity: at most the grown deviation the game was rated with.
        let since = Duration::from_secs(days * 86_400);
        let (wg, bg) = (w.after_inactivity(since, &s).unwrap(), b.after_inactivity(since, &s).unwrap());
        let (w2, b2) = update_pair(&wg, &bg, o, &s).unwrap();
        prop_assert!(w2.deviation <= wg.deviation && b2.deviation <= bg.deviation);
        prop_assert!(wg.deviation >= w.deviation && bg.deviation >= b.deviation);
    }

    #[test]
    fn every_result_is_finite_and_in_bounds(
        s in settings(), w in finite_rating(), b in finite_rating(), o in outcome(),
        g in games(finite_rating(), 0..6), millis in any::<u64>(),
    ) {
        prop_assert_eq!(s.validate(), Ok(()));
        let (w1, b1) = update_pair(&w, &b, o, &s).unwrap();
        assert_in_bounds(&w1, &s);
        assert_in_bounds(&b1, &s);
        let steps = w.rate_period_steps(&g, &s).unwrap();
        assert_in_bounds(&steps.rating, &s);
        prop_assert!(steps.iterations < chimera_rating::MAX_ITERATIONS, "{steps:?}");
        // Every intermediate value is finite too (v and Δ included: a game
        // whose expected score rounds to 0 or 1 must not make v infinite).
        let all = [steps.v.unwrap_or(0.0), steps.delta.unwrap_or(0.0), steps.sigma, steps.phi_star, steps.after.mu, steps.after.phi];
        prop_assert!(all.iter().all(|x| x.is_finite()), "{steps:?}");
        prop_assert_eq!(steps.v.is_some(), !g.is_empty());
        let grown = w.after_inactivity(Duration::from_millis(millis), &s).unwrap();
        assert_in_bounds(&grown, &s);
        prop_assert_eq!(grown.is_provisional(), grown.deviation > PROVISIONAL_DEVIATION);
    }

    #[test]
    fn a_non_finite_input_is_refused(
        w in lichess_rating(), field in 0usize..3, bad in prop::sample::select(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY]),
    ) {
        let s = Settings::LICHESS;
        let mut broken = w;
        *[&mut broken.rating, &mut broken.deviation, &mut broken.volatility][field] = bad;
        prop_assert!(matches!(update_pair(&broken, &w, Outcome::Draw, &s), Err(RatingError::NonFinite(_))));
        prop_assert!(matches!(update_pair(&w, &broken, Outcome::Draw, &s), Err(RatingError::NonFinite(_))));
        prop_assert!(matches!(broken.rate_period(&[], &s), Err(RatingError::NonFinite(_))));
        prop_assert!(matches!(broken.after_inactivity(Duration::ZERO, &s), Err(RatingError::NonFinite(_))));
        if field < 2 {
            let game = GameResult::new(broken.rating, broken.deviation, Score::Win);
            prop_assert!(matches!(w.rate_period(&[game], &s), Err(RatingError::NonFinite(_))));
        }
    }

    #[test]
    fn inactivity_growth_is_monotone_capped_and_nothing_for_no_time(
        s in settings(), r in finite_rating(), a in any::<u64>(), b in any::<u64>(),
    ) {
        let (early, late) = (Duration::from_millis(a.min(b)), Duration::from_millis(a.max(b)));
        let now = r.after_inactivity(Duration::ZERO, &s).unwrap();
        let r1 = r.after_inactivity(early, &s).unwrap();
        let r2 = r.after_inactivity(late, &s).unwrap();
        prop_assert!(now.deviation <= r1.deviation && r1.deviation <= r2.deviation && r2.deviation <= s.max_deviation);
        prop_assert_eq!((r1.rating, r1.volatility), (now.rating, now.volatility));
        // No time: the rating clamped into the bounds and nothing else.
        let clamped = Rating::new(
            r.rating.clamp(s.min_rating, s.max_rating),
            r.deviation.clamp(s.min_deviation, s.max_deviation),
            r.volatility.clamp(s.min_volatility, s.max_volatility),
        );
        prop_assert_eq!(now, clamped);
    }
}

/// With the lichess settings, the deviation of a player who stops playing
/// reaches the cap of 500 and stays there.
#[test]
fn inactivity_growth_reaches_the_cap() {
    let s = Settings::LICHESS;
    let r = Rating::new(2000.0, 45.0, 0.09);
    let day = Duration::from_secs(86_400);
    let mut last = r.deviation;
    for years in [1, 2, 5, 10, 20, 40, 80] {
        let d = r.after_inactivity(day * 365 * years, &s).unwrap().deviation;
        assert!(d >= last, "{years} years: {d} < {last}");
        last = d;
    }
    assert_eq!(last, 500.0);
    assert_eq!(r.after_inactivity(Duration::MAX, &s).unwrap().deviation, 500.0);
}
