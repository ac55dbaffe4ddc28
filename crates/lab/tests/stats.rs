//! The statistics checked against values computed by hand on a small fixed
//! set of games (the arithmetic is in the comments).

use chimera_lab::analysis;
use chimera_lab::spec::StudySpec;
use chimera_lab::stats::{self, proportion_difference, score_difference, wilson, Wdl};
use chimera_lab::store::GameRow;
use chimera_rules::Variant;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 5e-5
}

fn row(k: u64, moves: &str, result: &str, termination: &str) -> GameRow {
    let n = moves.split_whitespace().count();
    GameRow {
        k,
        result: result.into(),
        termination: termination.into(),
        opening_plies: 0,
        moves: moves.into(),
        scores: vec!["0"; n].join(" "),
        pgn: String::new(),
    }
}

/// Four chess games: two White wins after 1. e4, a draw after 1. d4, a loss
/// after 1. f3 (Fool's mate); White castles in the first game only.
fn games() -> Vec<GameRow> {
    vec![
        row(0, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5", "1-0", "adjudication"),
        row(1, "e2e4 e7e5", "1-0", "adjudication"),
        row(2, "d2d4 d7d5", "1/2-1/2", "ply limit"),
        row(3, "f2f3 e7e5 g2g4 d8h4", "0-1", "checkmate"),
    ]
}

#[test]
fn wilson_and_score_intervals_by_hand() {
    // Wilson, 1 of 4, z = 1.959964 (z² = 3.841459):
    // centre = (0.25 + z²/8) / (1 + z²/4) = 0.730182 / 1.960365 = 0.372473
    // half = z / (1 + z²/4) · √(0.25·0.75/4 + z²/64) = 0.999795 · 0.326953 = 0.326886
    let w = wilson(1, 4);
    assert!(close(w.value, 0.25) && close(w.lower, 0.045587) && close(w.upper, 0.699359), "{w:?}");
    // 0 of 10: [0, z²/(10 + z²)] = [0, 0.277533].
    let w = wilson(0, 10);
    assert!(close(w.lower, 0.0) && close(w.upper, 0.277533), "{w:?}");
    // Score of +2 =1 −1: s = 2.5/4 = 0.625; per-game variance
    // (2·0.375² + 0.125² + 0.625²)/4 = 0.6875/4 = 0.171875; se = √(0.171875/4) = 0.207289;
    // 0.625 ± 1.959964·0.207289 = [0.218721, 1.031279], clipped to 1.
    let s = stats::score(&Wdl { wins: 2, draws: 1, losses: 1 });
    assert!(close(s.value, 0.625) && close(s.lower, 0.218721) && close(s.upper, 1.0), "{s:?}");
}

#[test]
fn comparisons_by_hand() {
    // 30/100 against 45/100: pooled 0.375, se = √(0.375·0.625·0.02) = 0.0684653,
    // z = 0.15/0.0684653 = 2.190890, two-sided p = 0.028459: significant at 5%, not at 1%.
    let d = proportion_difference("draws", 30, 100, 45, 100);
    assert!(close(d.diff, 0.15) && close(d.z, 2.190890) && (d.p - 0.028459).abs() < 1e-5, "{d:?}");
    assert_eq!(d.verdict(), "significant at 5%");
    // Scores: A = +40 =20 −40 (0.5, variance 0.2 → se² = 0.002), B = +60 =20 −20
    // (0.7, variance (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16 → se² = 0.0016):
    // z = 0.2/√0.0036 = 3.333333, p = 0.000858: significant at 1%.
    let d =
        score_difference("score", &Wdl { wins: 40, draws: 20, losses: 40 }, &Wdl { wins: 60, draws: 20, losses: 20 });
    assert!(close(d.diff, 0.2) && close(d.z, 3.333333) && (d.p - 0.000858).abs() < 1e-5, "{d:?}");
    assert_eq!(d.verdict(), "significant at 1%");
    // Fewer than 20 games on a side: no test.
    assert_eq!(proportion_difference("x", 1, 5, 4, 5).verdict(), "too few games to test");
}

#[test]
fn study_statistics_by_hand() {
    let spec = StudySpec::new(Variant::Chess);
    let g = analysis::replay(&spec, games()).unwrap();
    let s = analysis::compute(&g);
    assert_eq!(s.games, 4);
    assert_eq!(s.wdl, (2, 1, 1));
    assert!(close(s.white_score.value, 0.625) && close(s.white_score.lower, 0.218721));
    // Draws 1 of 4 and decisive 3 of 4: the Wilson intervals of 1/4 and its mirror.
    assert!(close(s.draw_rate.lower, 0.045587) && close(s.draw_rate.upper, 0.699359));
    assert!(close(s.decisive_rate.lower, 1.0 - 0.699359) && close(s.decisive_rate.upper, 1.0 - 0.045587));
    // Terminations by count, then name.
    let t: Vec<(&str, u64)> = s.terminations.iter().map(|t| (t.0.as_str(), t.1)).collect();
    assert_eq!(t, vec![("adjudication", 2), ("checkmate", 1), ("ply limit", 1)]);
    // Lengths 8, 2, 2, 4: mean 4; sorted 2 2 4 8: median 3, 10th percentile 2,
    // 90th at position 2.7: 4 + 0.7·4 = 6.8.
    assert_eq!(s.lengths, vec![8, 2, 2, 4]);
    assert!(close(s.length_mean, 4.0) && close(s.length_median, 3.0));
    assert!(close(s.length_p10, 2.0) && close(s.length_p90, 6.8));
    // First moves: e4 twice (both won), then d4 and f3 once each.
    let f: Vec<(&str, u64, f64)> = s.by_first_move.iter().map(|f| (f.san.as_str(), f.score.n, f.score.value)).collect();
    assert_eq!(f, vec![("e4", 2, 1.0), ("d4", 1, 0.5), ("f3", 1, 0.0)]);
    // Castling: once, by White at ply 7 (opening phase), in 1 game of 4.
    let c = s.special.iter().find(|u| u.kind == "castling").expect("castling counted");
    assert_eq!(c.by_phase, [1, 0, 0]);
    assert!(close(c.per_game, 0.25) && close(c.games_used.lower, 0.045587));
    // The side that castled scored 1 (one game-side); the seven that did not:
    // 0 (Black, game 0), 1 and 0 (game 1), ½ and ½ (game 2), 0 and 1 (game 3) = 3/7.
    assert_eq!((c.user_score.n, c.user_score.value), (1, 1.0));
    assert!(c.non_user_score.n == 7 && close(c.non_user_score.value, 3.0 / 7.0));
    assert_eq!(c.test.verdict(), "too few games to test");
    // No other special move in orthodox chess here.
    assert_eq!(s.special.len(), 1);
    // The typical game: lengths nearest the median 3 are 2 and 4; the lowest number wins: game 1.
    assert_eq!(s.typical.as_ref().map(|t| t.0), Some(1));
}

#[test]
fn corrupt_rows_are_errors_not_panics() {
    let spec = StudySpec::new(Variant::Chess);
    let e = analysis::replay(&spec, vec![row(0, "e2e4 e2e4", "1-0", "x")]).err().expect("an illegal move is an error");
    assert!(e.to_string().contains("game 0: move e2e4 does not replay"), "{e}");
    let e = analysis::replay(&spec, vec![row(0, "e2e4", "2-0", "x")]).err().expect("a bad result is an error");
    assert!(e.to_string().contains("bad result"), "{e}");
}
