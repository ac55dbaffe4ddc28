//! The worked example of Glickman's "Example of the Glicko-2 system" (a
//! player 1500 / 200 / 0.06, τ = 0.5, who beats 1400/30 and loses to
//! 1550/100 and 1700/300), and lila's own test values for one game.
//!
//! The paper prints its table (g to 4 places, E to 3) and then computes each
//! later step from those rounded numbers, so some printed values are not
//! what exact arithmetic gives at their printed precision:
//!
//! | value | paper | exact | why |
//! |---|---|---|---|
//! | v | 1.7785 | 1.77898 | from the rounded g and E |
//! | Δ | −0.4834 | −0.48393 | from the rounded v, g and E |
//! | σ' | 0.05999 | 0.0599960 | printed cut to 5 places, not rounded |
//! | r' | 1464.06 | 1464.0507 | 173.7178 × (−0.2069) + 1500, from the rounded μ' |
//!
//! So the test asserts: every value the paper prints that exact arithmetic
//! reproduces at the printed precision (μ, φ, g, E, μ', φ', RD'); for the
//! four above, that the paper's own arithmetic on its printed numbers gives
//! the printed value and that the exact value is within that rounding of it;
//! and the exact results to 1e-7, as the independent oracle
//! (`tests/oracle_pyglicko2.rs`) computes them too.

use chimera_rating::{expected_score, g, update_pair, GameResult, Outcome, Rating, Score, Settings, GLICKO2_SCALE};

/// `x` rounded to `places` decimals.
fn round(x: f64, places: i32) -> f64 {
    let k = 10f64.powi(places);
    (x * k).round() / k
}

/// Asserts that `x` rounded to `places` decimals is `printed`.
#[track_caller]
fn assert_printed(what: &str, x: f64, places: i32, printed: f64) {
    assert_eq!(round(x, places), printed, "{what}: {x} does not print as {printed}");
}

const PLAYER: Rating = Rating::new(1500.0, 200.0, 0.06);
const GAMES: [GameResult; 3] = [
    GameResult::new(1400.0, 30.0, Score::Win),
    GameResult::new(1550.0, 100.0, Score::Loss),
    GameResult::new(1700.0, 300.0, Score::Loss),
];

#[test]
fn glickman_example_steps_and_result() {
    let steps = PLAYER.rate_period_steps(&GAMES, &Settings::glickman(0.5)).unwrap();

    // Step 2: the player and the opponents on the Glicko-2 scale, g and E.
    assert_eq!(steps.before.mu, 0.0);
    assert_printed("φ", steps.before.phi, 4, 1.1513);
    let table = [(-0.5756, 0.1727, 0.9955, 0.639), (0.2878, 0.5756, 0.9531, 0.432), (1.1513, 1.7269, 0.7242, 0.303)];
    for (game, &(mu_j, phi_j, g_j, e_j)) in GAMES.iter().zip(&table) {
        let opp = Rating::new(game.opponent_rating, game.opponent_deviation, 0.06).to_glicko2();
        assert_printed("μj", opp.mu, 4, mu_j);
        assert_printed("φj", opp.phi, 4, phi_j);
        assert_printed("g(φj)", g(opp.phi), 4, g_j);
        assert_printed("E", expected_score(steps.before.mu, opp.mu, opp.phi), 3, e_j);
    }

    // Steps 3 and 4: the paper's v and Δ come from its rounded table.
    let paper_v = 1.0 / table.iter().map(|&(_, _, g, e)| g * g * e * (1.0 - e)).sum::<f64>();
    let paper_sum: f64 = table.iter().zip(&GAMES).map(|(&(_, _, g, e), game)| g * (game.score.value() - e)).sum();
    assert_printed("the paper's v", paper_v, 4, 1.7785);
    assert_printed("the paper's Δ", round(paper_v, 4) * paper_sum, 4, -0.4834);
    let v = steps.v.unwrap();
    let delta = steps.delta.unwrap();
    assert!((v - 1.7785).abs() < 1e-3, "v = {v}, the paper has 1.7785");
    assert!((delta - -0.4834).abs() < 1e-3, "Δ = {delta}, the paper has −0.4834");
    assert_printed("v", v, 5, 1.77898);
    assert_printed("Δ", delta, 5, -0.48393);

    // Step 5: σ' = 0.05999 as the paper prints it (cut, not rounded).
    assert_eq!((steps.sigma * 1e5).floor() / 1e5, 0.05999, "σ' = {}", steps.sigma);
    assert!((steps.sigma - 0.05999).abs() < 1e-5, "σ' = {}", steps.sigma);
    assert!(steps.iterations > 0 && steps.iterations < 10, "{} iterations", steps.iterations);

    // Steps 6 and 7.
    assert_eq!(steps.phi_star, (steps.before.phi.powi(2) + steps.sigma.powi(2)).sqrt());
    assert_printed("φ'", steps.after.phi, 4, 0.8722);
    assert_printed("μ'", steps.after.mu, 4, -0.2069);

    // Step 8: RD' is exact at the printed precision; r' = 1464.06 is the
    // paper's conversion of its rounded μ'.
    let r = steps.rating;
    assert_printed("RD'", r.deviation, 2, 151.52);
    assert_printed("the paper's r'", GLICKO2_SCALE * round(steps.after.mu, 4) + 1500.0, 2, 1464.06);
    assert!((r.rating - 1464.06).abs() < 0.01, "r' = {}", r.rating);
    assert_printed("r'", r.rating, 2, 1464.05);
    assert_eq!(r.volatility, steps.sigma);

    // The exact values, as pyglicko2 0.0.1a2 computes them too.
    assert!((r.rating - 1464.0506705).abs() < 1e-7, "{r:?}");
    assert!((r.deviation - 151.5165241).abs() < 1e-7, "{r:?}");
    assert!((r.volatility - 0.0599959843).abs() < 1e-10, "{r:?}");
    assert_eq!(PLAYER.rate_period(&GAMES, &Settings::glickman(0.5)).unwrap(), r);
}

#[test]
fn the_order_of_a_periods_games_does_not_matter() {
    let s = Settings::glickman(0.5);
    let a = PLAYER.rate_period(&GAMES, &s).unwrap();
    let b = PLAYER.rate_period(&[GAMES[2], GAMES[0], GAMES[1]], &s).unwrap();
    assert!((a.rating - b.rating).abs() < 1e-9 && (a.deviation - b.deviation).abs() < 1e-9);
}

#[test]
fn a_period_without_games_only_grows_the_deviation() {
    let steps = PLAYER.rate_period_steps(&[], &Settings::glickman(0.5)).unwrap();
    assert_eq!((steps.v, steps.delta, steps.iterations), (None, None, 0));
    // φ* = √(φ² + σ²) on the Glicko-2 scale; on the Glicko scale
    // √(200² + (0.06 × 173.7178)²) = 200.27.
    let phi = 200.0 / GLICKO2_SCALE;
    assert_eq!(steps.phi_star, (phi * phi + 0.06 * 0.06).sqrt());
    let r = steps.rating;
    assert_eq!((r.rating, r.volatility), (1500.0, 0.06));
    assert_printed("RD after an empty period", r.deviation, 2, 200.27);
}

/// lila's (scalachess's) `GlickoCalculatorTest`, "default deviation: white
/// wins", with no colour advantage: two players 1500 / 350 / 0.06 (τ 0.75),
/// and two new lichess players 1500 / 500 / 0.09.
#[test]
fn one_game_as_lila_rates_it() {
    let s = Settings::LICHESS;
    let p = Rating::new(1500.0, 350.0, 0.06);
    let (w, b) = update_pair(&p, &p, Outcome::WhiteWins, &s).unwrap();
    assert_printed("white's rating", w.rating, 2, 1662.21);
    assert_printed("black's rating", b.rating, 2, 1337.79);
    assert_printed("deviations", w.deviation, 2, 290.23);
    assert_eq!(w.deviation, b.deviation);
    assert!((w.volatility - 0.0599993).abs() < 1e-7, "{w:?}");
    assert_eq!(w.volatility, b.volatility);

    let (w, b) = update_pair(&s.new_player, &s.new_player, Outcome::WhiteWins, &s).unwrap();
    assert_eq!((w.rating.round(), b.rating.round()), (1741.0, 1259.0), "{w:?} {b:?}");
    assert_eq!(w.deviation.round(), 397.0, "{w:?}");
    assert!((w.volatility - 0.0899983).abs() < 1e-7, "{w:?}");

    // A draw between equals moves neither rating.
    let (w, b) = update_pair(&p, &p, Outcome::Draw, &s).unwrap();
    assert_eq!((w.rating, b.rating), (1500.0, 1500.0));
}
