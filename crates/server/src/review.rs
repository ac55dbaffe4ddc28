//! A computer review of a finished game: lichess's winning-chance,
//! accuracy and judgement formulas.
//!
//! The formulas are lichess's own, read from its sources (file names
//! below, in `lichess-org/lila` and `lichess-org/scalachess`), so a
//! Chimera review reads like a lichess one:
//!
//! - [`winning_chances`] and [`win_percent`]: scalachess
//!   `core/src/main/scala/eval.scala` (`WinPercent.winningChances`,
//!   `WinPercent.fromCentiPawns`, `Cp.CEILING`; the multiplier
//!   −0.00368208 is lila pull request 11148). The winning chances of `cp`
//!   centipawns (White's view) are `2 / (1 + exp(−0.00368208 · cp)) − 1`,
//!   in −1..+1; the win percent is `50 + 50 ·` that, the centipawns first
//!   capped to ±1000 ([`CP_CEILING`]), a mate counting as ±1000.
//! - [`move_accuracy`]: lila `modules/analyse/src/main/AccuracyPercent.scala`
//!   (`fromWinPercents`): 100 when the mover's win percent did not drop,
//!   else `103.1668100711649 · exp(−0.04354415386753951 · drop) −
//!   3.166924740191411`, plus lila's "uncertainty bonus" of 1, clamped to
//!   0..100.
//! - [`game_accuracy`]: the same file (`gameAccuracy`): each move's
//!   accuracy is weighted by the volatility of the win percents around it
//!   (the population standard deviation of a sliding window of
//!   `clamp(moves / 10, 2, 8)` win percents, clamped to 0.5..12); a side's
//!   accuracy is the mean of the weighted mean and the harmonic mean of its
//!   moves' accuracies (each at least 1 in the harmonic mean, as lichess's
//!   `scalalib` `Maths.harmonicMean` has it).
//! - [`judgement`]: lila `modules/tree/src/main/Advice.scala`: a move whose
//!   winning chances (mover's view, uncapped centipawns) drop by 0.3 or
//!   more is a blunder, 0.2 a mistake, 0.1 an inaccuracy (`CpAdvice`); a
//!   mate found or lost is judged by `MateAdvice` (a forced mate against
//!   the mover that appears from −700..+∞ cp is a blunder, from −999..−700
//!   a mistake, below −999 an inaccuracy; a forced mate of the mover's
//!   that is lost likewise by the score after it). lila judges a move only
//!   where the engine preferred another (`Info.hasVariation`), and so does
//!   the review.
//!
//! [`review_game`] reviews a game: every position of it, the start and
//! the one after each move, searched at a fixed node count on one thread
//! with one fresh engine (a new hash table) per review, so that the same
//! game at the same node count always gets the same review, byte for byte
//! once written as JSON. lila's game accuracy starts from its fixed
//! [`INITIAL_CP`]; the review starts from its own search of the start
//! position, which is also right for variants and games from a FEN.

use crate::pool::{run_search, SearchJob};
use chimera_engine::{Engine, EngineOptions, Score};
use chimera_rules::{san, AnyPosition, Color, Game, Outcome, Position};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};

/// The centipawns at which lichess caps a score before its win percent
/// (scalachess `Cp.CEILING`); a mate counts as this.
pub const CP_CEILING: i32 = 1000;

/// The score lichess gives the start position when it has none
/// (scalachess `WhiteScore.initial`, lila `Cp.initial`).
pub const INITIAL_CP: i32 = 15;

/// lichess's winning-chance multiplier (lila pull request 11148).
const MULTIPLIER: f64 = -0.00368208;

/// An evaluation from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// Centipawns (positive: White is better).
    Cp(i32),
    /// Mate in this many moves (positive: White mates; never 0).
    Mate(i32),
    /// The game is over and this side won (a checkmate, or a variant's
    /// win on the board). A drawn position is `Cp(0)`.
    Won(#[serde(with = "side")] Color),
}

/// A side in JSON: `"white"` or `"black"`.
mod side {
    use chimera_rules::Color;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(if *c == Color::White { "white" } else { "black" })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(serde::de::Error::custom(format!("no side '{other}'"))),
        }
    }
}

impl Eval {
    /// The centipawns lichess uses for this evaluation in its win percent
    /// and game accuracy: a mate (or a won position) is ±[`CP_CEILING`],
    /// centipawns are capped to it.
    pub fn ceiled_cp(self) -> i32 {
        match self {
            Eval::Cp(c) => c.clamp(-CP_CEILING, CP_CEILING),
            Eval::Mate(m) => CP_CEILING * m.signum(),
            Eval::Won(Color::White) => CP_CEILING,
            Eval::Won(Color::Black) => -CP_CEILING,
        }
    }

    /// This evaluation from `side`'s point of view, as (centipawns, mate):
    /// one of them is `Some`, as lichess's `Info` has them.
    fn pov(self, side: Color) -> (Option<i32>, Option<i32>) {
        let s = if side == Color::White { 1 } else { -1 };
        match self {
            Eval::Cp(c) => (Some(c * s), None),
            Eval::Mate(m) => (None, Some(m * s)),
            // A position already won counts as a mate found for the winner.
            Eval::Won(c) => (None, Some(if c == side { 1 } else { -1 })),
        }
    }
}

/// The winning chances of `cp` centipawns, −1..+1 (scalachess
/// `WinPercent.winningChances`: no cap on the centipawns, the result
/// clamped).
pub fn winning_chances(cp: i32) -> f64 {
    (2.0 / (1.0 + (MULTIPLIER * cp as f64).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// The win percent, 0..100, of an evaluation for White (scalachess
/// `WinPercent.fromCentiPawns` / `fromMate`).
pub fn win_percent(eval: Eval) -> f64 {
    50.0 + 50.0 * winning_chances(eval.ceiled_cp())
}

/// The accuracy, 0..100, of a move that took its mover from `before` to
/// `after` win percent (both the mover's; lila
/// `AccuracyPercent.fromWinPercents`).
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    let raw = 103.1668100711649 * (-0.04354415386753951 * drop).exp() - 3.166924740191411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Population standard deviation (lichess `Maths.standardDeviation`).
fn std_dev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64).sqrt()
}

/// The accuracy of each side, `[White, Black]`, over a game (lila
/// `AccuracyPercent.gameAccuracy`): `cps` are the centipawns (White's
/// view, any size: capped here) of the start position and then of the
/// position after each move; `first` is the side that moved first. A side
/// that made no move has none.
pub fn game_accuracy(first: Color, cps: &[i32]) -> [Option<f64>; 2] {
    let wins: Vec<f64> = cps.iter().map(|&c| win_percent(Eval::Cp(c))).collect();
    let moves = wins.len().saturating_sub(1);
    if moves == 0 {
        return [None, None];
    }
    let window = (moves / 10).clamp(2, 8);
    // The first windows repeat the opening one, so that every move has
    // one: lila's `List.fill(window - 2)(take(window)) ::: sliding(window)`
    // (a list shorter than the window is one window).
    let mut windows: Vec<&[f64]> = vec![&wins[..window.min(wins.len())]; window.min(wins.len()) - 2];
    if wins.len() <= window {
        windows.push(&wins[..]);
    } else {
        windows.extend(wins.windows(window));
    }
    let weights = windows.iter().map(|w| std_dev(w).clamp(0.5, 12.0));
    // (accuracy, weight) of each move, per side.
    let mut per: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, weight)) in wins.windows(2).zip(weights).enumerate() {
        let mover = if i % 2 == 0 { first } else { !first };
        let (prev, next) = (pair[0], pair[1]);
        let acc = if mover == Color::White { move_accuracy(prev, next) } else { move_accuracy(next, prev) };
        per[mover.index()].push((acc, weight));
    }
    per.map(|moves| {
        if moves.is_empty() {
            return None;
        }
        let w: f64 = moves.iter().map(|m| m.1).sum();
        let weighted = moves.iter().map(|m| m.0 * m.1).sum::<f64>() / w;
        let harmonic = moves.len() as f64 / moves.iter().map(|m| 1.0 / m.0.max(1.0)).sum::<f64>();
        // Each term is within 0-100; the sum's rounding may not be.
        Some(((weighted + harmonic) / 2.0).clamp(0.0, 100.0))
    })
}

/// lichess's judgement of a bad move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// The judgement of a move by `mover` from `before` to `after` (both
/// White's view), if it is a bad one (lila `Advice.apply`: `CpAdvice`,
/// else `MateAdvice`).
pub fn judgement(before: Eval, after: Eval, mover: Color) -> Option<Judgement> {
    let (prev_cp, prev_mate) = before.pov(mover);
    let (next_cp, next_mate) = after.pov(mover);
    if let (Some(p), Some(n)) = (prev_cp, next_cp) {
        let drop = winning_chances(p) - winning_chances(n);
        return if drop >= 0.3 {
            Some(Judgement::Blunder)
        } else if drop >= 0.2 {
            Some(Judgement::Mistake)
        } else if drop >= 0.1 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        };
    }
    let (prev_cp, next_cp) = (prev_cp.unwrap_or(0), next_cp.unwrap_or(0));
    match (prev_mate, next_mate) {
        // MateCreated: a forced mate against the mover appears.
        (None, Some(n)) if n < 0 => Some(if prev_cp < -999 {
            Judgement::Inaccuracy
        } else if prev_cp < -700 {
            Judgement::Mistake
        } else {
            Judgement::Blunder
        }),
        // MateLost: the mover's forced mate is gone.
        (Some(p), None) if p > 0 => Some(if next_cp > 999 {
            Judgement::Inaccuracy
        } else if next_cp > 700 {
            Judgement::Mistake
        } else {
            Judgement::Blunder
        }),
        (Some(p), Some(n)) if p > 0 && n < 0 => Some(Judgement::Blunder),
        _ => None,
    }
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyReview {
    /// 1 for the game's first move.
    pub ply: usize,
    /// The move played.
    pub uci: String,
    pub san: String,
    /// The evaluation of the position after the move (White's view).
    pub eval: Eval,
    /// The engine's choice in the position before the move, when it had
    /// one.
    pub best: Option<String>,
    pub best_san: Option<String>,
    /// The engine's line from the position before the move, in SAN (at
    /// most [`LINE_PLIES`]), where the move is judged; empty elsewhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
    /// lichess's judgement of the move, for its mover; none where the
    /// move was the engine's choice.
    pub judgement: Option<Judgement>,
    /// The move's accuracy for its mover, 0..100, to 0.1
    /// ([`move_accuracy`]).
    pub accuracy: f64,
    /// A note in the variant's own terms on a judged move, where one
    /// applies ([`crate::review_notes`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One side's figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideReview {
    /// [`game_accuracy`], to 0.1; none for a side that made no move.
    pub accuracy: Option<f64>,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// A game's review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The node count each position was searched at.
    pub nodes: u64,
    /// The evaluation of the start position (White's view).
    pub start: Eval,
    pub plies: Vec<PlyReview>,
    pub white: SideReview,
    pub black: SideReview,
}

fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The longest line, in plies, a review keeps for a move it judges.
pub const LINE_PLIES: usize = 8;

/// The search of one position of a game, as a worker reports it: the
/// evaluation (White's view), the engine's move and its line (UCI, the
/// move first). A finished position has no move and no line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionEval {
    pub eval: Eval,
    #[serde(default)]
    pub best: Option<String>,
    #[serde(default)]
    pub pv: Vec<String>,
}

/// The evaluation of one position and the engine's move there.
fn evaluate(engine: &mut Engine, pos: &AnyPosition, history: &[u64], nodes: u64, stop: &AtomicBool) -> PositionEval {
    if let Some(eval) = finished(pos) {
        return PositionEval { eval, best: None, pv: Vec::new() };
    }
    let job = SearchJob {
        pos: pos.clone(),
        history: history.to_vec(),
        skill: 20,
        depth: None,
        movetime_ms: None,
        nodes: Some(nodes),
    };
    let a = run_search(engine, &job, stop);
    let turn = pos.turn();
    let s = if turn == Color::White { 1 } else { -1 };
    let eval = match a.score {
        Score::Cp(c) => Eval::Cp(c * s),
        Score::Mate(0) => Eval::Won(!turn),
        Score::Mate(m) => Eval::Mate(m * s),
    };
    let mut pv: Vec<String> = a.pv.iter().take(LINE_PLIES).map(|m| m.to_string()).collect();
    let best = a.best.map(|b| b.to_string());
    if pv.first() != best.as_ref() {
        pv = best.iter().cloned().collect();
    }
    PositionEval { eval, best, pv }
}

/// The evaluation of a position the rules have already ended.
fn finished(pos: &AnyPosition) -> Option<Eval> {
    match pos.outcome() {
        Some(Outcome::Decisive { winner, .. }) => Some(Eval::Won(winner)),
        Some(Outcome::Draw { .. }) => Some(Eval::Cp(0)),
        None => None,
    }
}

/// Searches every position of `game` (the start and the one after each
/// move) at `nodes` nodes, on this thread with one fresh engine: what a
/// worker does with a review job. `None` when `stop` was set before it
/// ended.
pub fn search_positions(game: &Game<AnyPosition>, nodes: u64, stop: &AtomicBool) -> Option<Vec<PositionEval>> {
    let mut engine = Engine::new(EngineOptions::default());
    let positions = game.positions();
    let hashes: Vec<u64> = positions.iter().map(|p| p.hash()).collect();
    let mut evals = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        evals.push(evaluate(&mut engine, pos, &hashes[..i], nodes, stop));
        if stop.load(Ordering::SeqCst) {
            return None;
        }
    }
    Some(evals)
}

/// Reviews `game` at `nodes` nodes a position (see the module's text);
/// `None` when `stop` was set before it ended.
pub fn review_game(game: &Game<AnyPosition>, nodes: u64, stop: &AtomicBool) -> Option<Review> {
    let evals = search_positions(game, nodes, stop)?;
    Some(assemble(game, nodes, &evals).expect("the review's own searches are a valid result"))
}

/// The moves of a line, checked: each legal where it is played.
fn legal_line(pos: &AnyPosition, line: &[String]) -> Result<Vec<chimera_rules::Move>, String> {
    let mut p = pos.clone();
    let mut moves = Vec::with_capacity(line.len());
    for u in line {
        let m = p.parse_uci(u).map_err(|e| format!("'{u}' is not legal in {}: {e}", p.fen()))?;
        p = p.after(m);
        moves.push(m);
    }
    Ok(moves)
}

/// Builds the review of `game` from the searches of its positions
/// (`evals`, one per position: the start and the one after each move),
/// after checking them as results from a stranger: one per position, a
/// finished position's evaluation the rules' own, every other with a move
/// that is legal there and a line of legal moves that starts with it, no
/// line longer than [`LINE_PLIES`], mates never 0, centipawns within
/// ±100,000. An error says what was wrong.
pub fn assemble(game: &Game<AnyPosition>, nodes: u64, evals: &[PositionEval]) -> Result<Review, String> {
    let positions = game.positions();
    if evals.len() != positions.len() {
        return Err(format!(
            "{} evaluations for {} positions (the start and one after each of the game's {} moves)",
            evals.len(),
            positions.len(),
            game.moves().len()
        ));
    }
    let mut best_moves = Vec::with_capacity(evals.len());
    for (i, (pos, e)) in positions.iter().zip(evals).enumerate() {
        let at = format!("position {i}");
        match (finished(pos), e.eval) {
            (Some(want), got) if got != want => {
                return Err(format!("{at}: the game is over there ({want:?}), not {got:?}"));
            }
            (Some(_), _) if e.best.is_some() || !e.pv.is_empty() => {
                return Err(format!("{at}: the game is over there, so there is no move"));
            }
            (None, Eval::Won(_)) => return Err(format!("{at}: the game goes on there, so no one has won")),
            (None, Eval::Mate(0)) => return Err(format!("{at}: a mate in 0 is no evaluation")),
            (None, Eval::Cp(c)) if c.abs() > 100_000 => return Err(format!("{at}: {c} centipawns is out of range")),
            (None, _) if e.best.is_none() => return Err(format!("{at}: no move")),
            _ => {}
        }
        if e.pv.len() > LINE_PLIES {
            return Err(format!("{at}: a line of {} plies (at most {LINE_PLIES})", e.pv.len()));
        }
        let best = match &e.best {
            Some(b) => Some(legal_line(pos, std::slice::from_ref(b)).map_err(|m| format!("{at}: {m}"))?[0]),
            None => None,
        };
        if !e.pv.is_empty() && e.pv.first() != e.best.as_ref() {
            return Err(format!("{at}: the line does not start with the move"));
        }
        legal_line(pos, &e.pv).map_err(|m| format!("{at}: {m}"))?;
        best_moves.push(best);
    }
    let first = game.start().turn();
    let mut sides = [SideReview::default(), SideReview::default()];
    let mut plies = Vec::with_capacity(game.moves().len());
    for (i, &m) in game.moves().iter().enumerate() {
        let pos = &positions[i];
        let mover = pos.turn();
        let (before, best, after) = (evals[i].eval, best_moves[i], evals[i + 1].eval);
        let judged = if best.is_some_and(|b| b != m) { judgement(before, after, mover) } else { None };
        let side = &mut sides[mover.index()];
        match judged {
            Some(Judgement::Inaccuracy) => side.inaccuracies += 1,
            Some(Judgement::Mistake) => side.mistakes += 1,
            Some(Judgement::Blunder) => side.blunders += 1,
            None => {}
        }
        let pov = |e: Eval| if mover == Color::White { win_percent(e) } else { 100.0 - win_percent(e) };
        // The better line, in SAN, where the move is judged.
        let line = if judged.is_some() { san_line(pos, &evals[i].pv) } else { Vec::new() };
        plies.push(PlyReview {
            ply: i + 1,
            uci: m.to_string(),
            san: san::to_san(pos, m),
            eval: after,
            best: best.map(|b| b.to_string()),
            best_san: best.map(|b| san::to_san(pos, b)),
            line,
            judgement: judged,
            accuracy: tenth(move_accuracy(pov(before), pov(after))),
            note: judged.and_then(|_| crate::review_notes::note(pos, m, best, after)),
        });
    }
    let cps: Vec<i32> = evals.iter().map(|e| e.eval.ceiled_cp()).collect();
    let acc = game_accuracy(first, &cps);
    for (side, a) in sides.iter_mut().zip(acc) {
        side.accuracy = a.map(tenth);
    }
    let [white, black] = sides;
    Ok(Review { nodes, start: evals[0].eval, plies, white, black })
}

/// A checked line in SAN.
fn san_line(pos: &AnyPosition, line: &[String]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for m in legal_line(pos, line).unwrap_or_default() {
        out.push(san::to_san(&p, m));
        p = p.after(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_rules::{RuleOptions, Variant};
    use proptest::prelude::*;
    use std::time::Instant;

    /// A game of `variant` from its start position.
    fn game_of(variant: Variant, ucis: &str) -> Game<AnyPosition> {
        let mut g = Game::new(AnyPosition::new(variant, &RuleOptions::default()));
        for u in ucis.split_whitespace() {
            let m = g.position().parse_uci(u).unwrap();
            g.play(m).unwrap();
        }
        g
    }

    /// The Opera Game (Morphy, Paris 1858): 33 plies ending in mate.
    const OPERA: &str = "e2e4 e7e5 g1f3 d7d6 d2d4 c8g4 d4e5 g4f3 d1f3 d6e5 f1c4 g8f6 f3b3 d8e7 b1c3 c7c6 \
        c1g5 b7b5 c3b5 c6b5 c4b5 b8d7 e1c1 a8d8 d1d7 d8d7 h1d1 e7e6 b5d7 f6d7 b3b8 d7b8 d1d8";

    #[test]
    fn a_review_is_the_same_every_time() {
        let g = game_of(Variant::Chess, OPERA);
        let stop = AtomicBool::new(false);
        let a = review_game(&g, 2_000, &stop).unwrap();
        let b = review_game(&g, 2_000, &stop).unwrap();
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
        // The plies are the game's, the last one mates.
        assert_eq!(a.plies.len(), 33);
        assert_eq!(
            a.plies.iter().map(|p| p.uci.as_str()).collect::<Vec<_>>().join(" "),
            OPERA.split_whitespace().collect::<Vec<_>>().join(" ")
        );
        assert_eq!((a.plies[0].san.as_str(), a.plies[32].san.as_str()), ("e4", "Rd8#"));
        assert_eq!(a.plies[32].eval, Eval::Won(Color::White));
        // The JSON reads back to the same review.
        let back: Review = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(back, a);
        // Counts match the judgements.
        let count = |c: Color, j: Judgement| {
            a.plies.iter().filter(|p| (p.ply % 2 == 1) == (c == Color::White) && p.judgement == Some(j)).count() as u32
        };
        assert_eq!(a.white.blunders, count(Color::White, Judgement::Blunder));
        assert_eq!(a.black.blunders, count(Color::Black, Judgement::Blunder));
        assert_eq!(a.black.mistakes, count(Color::Black, Judgement::Mistake));
        assert!(a.black.accuracy.unwrap() < a.white.accuracy.unwrap(), "{a:?}");
        // A stopped review gives nothing.
        assert_eq!(review_game(&g, 2_000, &AtomicBool::new(true)), None);
    }

    /// Results from a worker are checked before they make a review: each
    /// way of lying is refused with its reason, and the honest result
    /// makes the same review as the server's own search.
    #[test]
    fn hostile_results_are_refused() {
        let g = game_of(Variant::Chess, OPERA);
        let stop = AtomicBool::new(false);
        let honest = search_positions(&g, 2_000, &stop).unwrap();
        assert_eq!(assemble(&g, 2_000, &honest).unwrap(), review_game(&g, 2_000, &stop).unwrap());
        let refused = |f: &dyn Fn(&mut Vec<PositionEval>), why: &str| {
            let mut e = honest.clone();
            f(&mut e);
            let err = assemble(&g, 2_000, &e).unwrap_err();
            assert!(err.contains(why), "{err} (wanted '{why}')");
        };
        refused(&|e| drop(e.pop()), "33 evaluations for 34 positions");
        refused(&|e| e.push(e[0].clone()), "35 evaluations");
        refused(&|e| e[3].best = Some("e1e8".into()), "'e1e8' is not legal");
        refused(&|e| e[3].pv = vec![e[3].best.clone().unwrap(), "a1a8".into()], "'a1a8' is not legal");
        refused(&|e| e[3].pv = vec!["a2a3".into()], "does not start with the move");
        refused(&|e| e[3].best = None, "position 3: no move");
        refused(&|e| e[33].eval = Eval::Cp(0), "the game is over there");
        refused(&|e| e[33].best = Some("e8e7".into()), "there is no move");
        refused(&|e| e[5].eval = Eval::Won(Color::Black), "no one has won");
        refused(&|e| e[5].eval = Eval::Mate(0), "mate in 0");
        refused(&|e| e[5].eval = Eval::Cp(1_000_000), "out of range");
        refused(&|e| e[5].pv = vec![e[5].best.clone().unwrap(); 9], "a line of 9 plies");
    }

    /// The time a review of the Opera Game takes at several node counts:
    /// `cargo test -p chimera-server --lib review::tests::review_time -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn review_time() {
        let g = game_of(Variant::Chess, OPERA);
        for nodes in [5_000, 10_000, 20_000, 50_000, 100_000] {
            let t = Instant::now();
            let r = review_game(&g, nodes, &AtomicBool::new(false)).unwrap();
            let el = t.elapsed();
            let bad: Vec<String> =
                r.plies.iter().filter_map(|p| p.judgement.map(|j| format!("{}{:?}", p.san, j))).collect();
            println!(
                "nodes {nodes}: {:.2} s for 34 positions ({:.1} ms each); accuracy {:?}/{:?}; {}",
                el.as_secs_f64(),
                el.as_secs_f64() * 1000.0 / 34.0,
                r.white.accuracy,
                r.black.accuracy,
                bad.join(" ")
            );
        }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Worked values of the formulas, computed from lichess's definitions
    /// (python3: `50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)`
    /// and the accuracy curve above).
    #[test]
    fn worked_values() {
        assert_eq!(win_percent(Eval::Cp(0)), 50.0);
        assert!(close(win_percent(Eval::Cp(100)), 59.10258971916128, 1e-12));
        assert!(close(win_percent(Eval::Cp(-100)), 40.89741028083871, 1e-12));
        assert!(close(win_percent(Eval::Cp(300)), 75.11255009383484, 1e-12));
        assert!(close(win_percent(Eval::Cp(1000)), 97.54474363414323, 1e-12));
        // Capped at ±1000; a mate or a won position is the cap.
        assert_eq!(win_percent(Eval::Cp(5000)), win_percent(Eval::Cp(1000)));
        assert_eq!(win_percent(Eval::Mate(3)), win_percent(Eval::Cp(1000)));
        assert_eq!(win_percent(Eval::Mate(-1)), win_percent(Eval::Cp(-1000)));
        assert_eq!(win_percent(Eval::Won(Color::Black)), win_percent(Eval::Cp(-1000)));
        // Move accuracy, with lila's +1 bonus.
        assert_eq!(move_accuracy(50.0, 50.0), 100.0);
        assert_eq!(move_accuracy(40.0, 60.0), 100.0);
        assert!(close(move_accuracy(60.0, 40.0), 41.016818741417126, 1e-9));
        assert!(close(move_accuracy(90.0, 10.0), 1.000170640274321, 1e-9));
        assert!(close(move_accuracy(win_percent(Eval::Cp(50)), win_percent(Eval::Cp(-100))), 54.66683279915846, 1e-9));
        // Winning chances are not capped: +25.00 is nearer +1 than +10.00.
        assert!(winning_chances(2500) > winning_chances(1000));
        assert!(close(winning_chances(200) - winning_chances(-100), 0.5344750693533338, 1e-12));
    }

    /// lila's own `modules/analyse/src/test/AccuracyPercentTest.scala`:
    /// each case with its tolerance (`beCloseTo(value, delta)`).
    #[test]
    fn lila_game_accuracy_cases() {
        type Case = (Color, Vec<i32>, Option<(f64, f64)>, Option<(f64, f64)>);
        let rep = |n: usize, pair: [i32; 2]| -> Vec<i32> { (0..n).flat_map(|_| pair).collect() };
        let mut cases: Vec<Case> = vec![
            (Color::White, vec![], None, None),
            (Color::White, vec![15, 15], Some((100.0, 1.0)), Some((100.0, 1.0))),
            (Color::White, vec![-900, -900], Some((10.0, 5.0)), Some((100.0, 1.0))),
            (Color::White, vec![15, 900], Some((100.0, 1.0)), Some((10.0, 5.0))),
            (Color::White, vec![-900, 0], Some((10.0, 5.0)), Some((10.0, 5.0))),
            (Color::White, vec![15; 20], Some((100.0, 1.0)), Some((100.0, 1.0))),
            (Color::White, rep(5, [-50, 15]), Some((76.0, 8.0)), Some((76.0, 8.0))),
            (Color::White, rep(50, [-50, 15]), Some((76.0, 8.0)), Some((76.0, 8.0))),
            (Color::White, rep(50, [-135, 15]), Some((54.0, 8.0)), Some((54.0, 8.0))),
            (Color::White, rep(50, [-435, 15]), Some((20.0, 8.0)), Some((20.0, 8.0))),
            (Color::Black, vec![15, 15], Some((100.0, 1.0)), Some((100.0, 1.0))),
            (Color::Black, vec![900, 900], Some((100.0, 1.0)), Some((10.0, 5.0))),
            (Color::Black, vec![15, -900], Some((10.0, 5.0)), Some((100.0, 1.0))),
            (Color::Black, vec![900, 0], Some((10.0, 5.0)), Some((10.0, 5.0))),
        ];
        let mut blunder = vec![15; 20];
        blunder.push(-900);
        cases.push((Color::White, blunder, Some((50.0, 5.0)), Some((100.0, 1.0))));
        let mut blunder = vec![15; 21];
        blunder.push(900);
        cases.push((Color::White, blunder, Some((100.0, 1.0)), Some((50.0, 5.0))));
        for (first, cps, white, black) in cases {
            let mut all = vec![INITIAL_CP];
            all.extend(&cps);
            let got = game_accuracy(first, &all);
            for (side, want) in [(0, white), (1, black)] {
                match (got[side], want) {
                    (None, None) => {}
                    (Some(g), Some((v, d))) => {
                        assert!(close(g, v, d), "{first:?} {cps:?} side {side}: {g} not {v}±{d}")
                    }
                    (g, w) => panic!("{first:?} {cps:?} side {side}: {g:?} vs {w:?}"),
                }
            }
        }
        // lila: "single move" has no accuracy (one side never moved).
        assert_eq!(game_accuracy(Color::White, &[INITIAL_CP, 15])[1], None);
    }

    /// Judgements at lichess's thresholds, with the mover's view.
    #[test]
    fn judgements() {
        use Judgement::*;
        // A drop of exactly 0.3 / 0.2 / 0.1 winning chances and just under.
        let cp_for = |wc: f64| -> f64 { (2.0 / (wc + 1.0) - 1.0).ln() / MULTIPLIER };
        assert_eq!(judgement(Eval::Cp(0), Eval::Cp(0), Color::White), None);
        assert_eq!(judgement(Eval::Cp(0), Eval::Cp(-400), Color::White), Some(Blunder));
        assert_eq!(judgement(Eval::Cp(0), Eval::Cp(400), Color::Black), Some(Blunder));
        assert_eq!(judgement(Eval::Cp(0), Eval::Cp(400), Color::White), None);
        let (i, m, b) = (cp_for(-0.1), cp_for(-0.2), cp_for(-0.3));
        assert_eq!(judgement(Eval::Cp(0), Eval::Cp(i.floor() as i32), Color::White), Some(Inaccuracy));
        assert_eq!(judgement(Eval::Cp(0), Eval::Cp(i.ceil() as i32), Color::White), None);
        assert_eq!(judgement(Eval::Cp(0), Eval::Cp(m.floor() as i32), Color::White), Some(Mistake));
        assert_eq!(judgement(Eval::Cp(0), Eval::Cp(m.ceil() as i32), Color::White), Some(Inaccuracy));
        assert_eq!(judgement(Eval::Cp(0), Eval::Cp(b.floor() as i32), Color::White), Some(Blunder));
        assert_eq!(judgement(Eval::Cp(0), Eval::Cp(b.ceil() as i32), Color::White), Some(Mistake));
        // Mates (MateAdvice): created against the mover, by the score before.
        assert_eq!(judgement(Eval::Cp(0), Eval::Mate(-3), Color::White), Some(Blunder));
        assert_eq!(judgement(Eval::Cp(-800), Eval::Mate(-3), Color::White), Some(Mistake));
        assert_eq!(judgement(Eval::Cp(-1200), Eval::Mate(-3), Color::White), Some(Inaccuracy));
        assert_eq!(judgement(Eval::Cp(800), Eval::Mate(3), Color::Black), Some(Mistake));
        // Lost: by the score after.
        assert_eq!(judgement(Eval::Mate(2), Eval::Cp(1200), Color::White), Some(Inaccuracy));
        assert_eq!(judgement(Eval::Mate(2), Eval::Cp(800), Color::White), Some(Mistake));
        assert_eq!(judgement(Eval::Mate(2), Eval::Cp(100), Color::White), Some(Blunder));
        assert_eq!(judgement(Eval::Mate(2), Eval::Mate(-4), Color::White), Some(Blunder));
        // A slower mate, a mate kept, a mate delivered: no judgement.
        assert_eq!(judgement(Eval::Mate(2), Eval::Mate(5), Color::White), None);
        assert_eq!(judgement(Eval::Mate(-2), Eval::Mate(-1), Color::White), None);
        assert_eq!(judgement(Eval::Mate(1), Eval::Won(Color::White), Color::White), None);
    }

    proptest! {
        #[test]
        fn win_percent_is_monotone_and_bounded(a in -100_000i32..100_000, b in -100_000i32..100_000) {
            let (wa, wb) = (win_percent(Eval::Cp(a)), win_percent(Eval::Cp(b)));
            prop_assert!((0.0..=100.0).contains(&wa));
            if a <= b { prop_assert!(wa <= wb); }
            // Symmetric: White's chances are Black's mirrored.
            prop_assert!(close(wa + win_percent(Eval::Cp(-a)), 100.0, 1e-9));
        }

        #[test]
        fn move_accuracy_is_monotone_and_bounded(before in 0.0f64..=100.0, a in 0.0f64..=100.0, b in 0.0f64..=100.0) {
            let (x, y) = (move_accuracy(before, a), move_accuracy(before, b));
            prop_assert!((0.0..=100.0).contains(&x));
            // The bigger the drop, the lower the accuracy.
            if a <= b { prop_assert!(x <= y); }
        }

        #[test]
        fn judgement_grows_with_the_drop(before in -2000i32..2000, a in -2000i32..2000, b in -2000i32..2000) {
            for mover in [Color::White, Color::Black] {
                let s = if mover == Color::White { 1 } else { -1 };
                // `a` no better for the mover than `b`: at least as bad a judgement.
                let (worse, better) = if a * s <= b * s { (a, b) } else { (b, a) };
                prop_assert!(judgement(Eval::Cp(before), Eval::Cp(worse), mover) >= judgement(Eval::Cp(before), Eval::Cp(better), mover));
            }
        }

        #[test]
        fn game_accuracy_is_bounded(first_white: bool, cps in proptest::collection::vec(-3000i32..3000, 0..120)) {
            let first = if first_white { Color::White } else { Color::Black };
            let mut all = vec![INITIAL_CP];
            all.extend(&cps);
            let got = game_accuracy(first, &all);
            let movers = [cps.len().div_ceil(2), cps.len() / 2];
            let (fw, fb) = if first == Color::White { (movers[0], movers[1]) } else { (movers[1], movers[0]) };
            for (side, n) in [(0, fw), (1, fb)] {
                prop_assert_eq!(got[side].is_some(), n > 0);
                if let Some(g) = got[side] { prop_assert!((0.0..=100.0).contains(&g), "{}", g); }
            }
        }
    }
}
