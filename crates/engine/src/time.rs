//! Time management: the soft and hard limits of a search from the clock
//! ([`Engine::time_budget`]) and when iterative deepening stops short of
//! the soft limit ([`SoftStop`]).

use crate::search::RootMove;
use crate::{Engine, Limits};
use chimera_rules::Move;
use std::time::Duration;

/// The moves a clock with an increment is shared over when the GUI sends
/// no `movestogo` (strength §38).
const INCREMENT_HORIZON: u32 = 15;

/// The same without an increment: sharing the clock over fewer moves would
/// leave too little of it for a long game.
const SUDDEN_DEATH_HORIZON: u32 = 30;

/// An iteration ends the search once the time spent passes the soft limit,
/// scaled by the best move's stability and share of the nodes, over this:
/// 1.4, where 2 left a 10+0.1 game with a sixth of its clock unused and
/// spent half what Stockfish does on the first 20 moves (strength §44).
const SOFT_DIVISOR: f64 = 1.4;

impl Engine {
    /// Soft (no new iteration once the time spent passes it, scaled, over
    /// [`SOFT_DIVISOR`]) and hard (stop
    /// now) limits from the clock, or from `movetime`. `reserve`: the pieces
    /// the side to move still holds off the board (Genesis; 0 elsewhere).
    pub(crate) fn time_budget(
        &self,
        limits: &Limits,
        reserve: u32,
        n_moves: usize,
    ) -> (Option<Duration>, Option<Duration>) {
        let overhead = self.move_overhead;
        if let Some(mt) = limits.movetime {
            // A fixed time per move is used in full: no soft limit.
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            return (None, Some(t));
        }
        if limits.infinite {
            return (None, None);
        }
        let Some(left) = limits.time_left else {
            return (None, None);
        };
        let avail = left.saturating_sub(overhead).max(Duration::from_millis(1));
        let inc = limits.increment.unwrap_or_default();
        // Without `movestogo` the clock is shared over a horizon of moves:
        // 15 with an increment, so that the clock settles at a few
        // increments where 30 (and ¾ of the increment) left a quarter of a
        // 10+0.1 clock unused to the end of the game; the time goes to the
        // first moves, which decide Genesis (strength §38). 30 in
        // sudden death, where the clock must last however long the game
        // runs.
        let horizon = if inc.is_zero() { SUDDEN_DEATH_HORIZON } else { INCREMENT_HORIZON };
        let mtg = limits.moves_to_go.unwrap_or(horizon).clamp(1, 50);
        // Placement: the clock's share of each move grows with the pieces
        // still to place, 1 + reserve/8 (3× with a full reserve of 16); as
        // the soft limit is a share of what is left it shrinks as the clock
        // does (strength §32).
        let share = if reserve > 0 && limits.moves_to_go.is_none() {
            (avail / mtg).mul_f64(1.0 + reserve as f64 / 8.0)
        } else {
            avail / mtg
        };
        let mut soft = share + inc;
        if n_moves == 1 {
            soft /= 10;
        }
        let soft = soft.min(avail / 2);
        let hard = (soft * 3).min(avail * 3 / 4).max(soft);
        (Some(soft), Some(hard))
    }
}

/// Whether iterative deepening stops after an iteration: the soft limit
/// scales with the best move's stability (fewer changes: less time), its
/// share of the iteration's nodes (a clear best move: less time) and a
/// falling score (more time).
#[derive(Default)]
pub(crate) struct SoftStop {
    /// How many iterations in a row kept the best move.
    stable: usize,
    last_best: Option<Move>,
    last_score: i32,
}

impl SoftStop {
    /// After the iteration at `depth` that found `completed` (best first),
    /// `elapsed` into a search of soft limit `soft`: whether to stop.
    pub(crate) fn done(&mut self, completed: &[RootMove], depth: i32, elapsed: Duration, soft: Duration) -> bool {
        let best = completed[0].score;
        let best_move = completed[0].mv;
        self.stable = if self.last_best == Some(best_move) { self.stable + 1 } else { 0 };
        self.last_best = Some(best_move);
        let stability = [2.0, 1.3, 1.0, 0.85, 0.75][self.stable.min(4)];
        let total: u64 = completed.iter().map(|r| r.nodes).sum();
        let share = if total > 0 { completed[0].nodes as f64 / total as f64 } else { 0.5 };
        let effort = (1.6 - share).clamp(0.7, 1.4);
        let falling = if depth > 1 && best < self.last_score - 30 { 1.3 } else { 1.0 };
        self.last_score = best;
        elapsed.as_secs_f64() >= soft.as_secs_f64() * stability * effort * falling / SOFT_DIVISOR
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineOptions, TimePolicy};
    use chimera_rules::{with_position, AnyPosition};

    fn clock(secs: u64, inc_ms: u64, mtg: Option<u32>) -> Limits {
        Limits {
            time_left: Some(Duration::from_secs(secs)),
            increment: Some(Duration::from_millis(inc_ms)),
            moves_to_go: mtg,
            ..Limits::default()
        }
    }

    /// A Genesis side with its whole reserve gets three times the clock's
    /// share (the increment's share unchanged), half as many pieces twice,
    /// none the orthodox budget; with `movestogo` the reserve is ignored.
    #[test]
    fn placement_scales_the_soft_limit() {
        let e = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() });
        let l = clock(10, 100, None);
        let share = (Duration::from_secs(10) - e.move_overhead) / INCREMENT_HORIZON;
        let inc = Duration::from_millis(100);
        let soft = |reserve| e.time_budget(&l, reserve, 20).0.unwrap();
        assert_eq!(soft(0), share + inc);
        assert_eq!(soft(16), share.mul_f64(3.0) + inc);
        assert_eq!(soft(8), share.mul_f64(2.0) + inc);
        let (s, h) = e.time_budget(&l, 16, 20);
        assert!(h.unwrap() >= s.unwrap() && h.unwrap() <= Duration::from_millis(7500));
        let m = clock(10, 0, Some(5));
        assert_eq!(e.time_budget(&m, 16, 20), e.time_budget(&m, 0, 20));
        // A single legal move still gets a tenth.
        assert_eq!(e.time_budget(&l, 16, 1).0.unwrap(), (share.mul_f64(3.0) + inc) / 10);
    }

    /// With an increment the clock is shared over 15 moves and the whole
    /// increment is added; in sudden death over 30; `movestogo` overrides
    /// both.
    #[test]
    fn the_horizon_depends_on_the_increment() {
        let e = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() });
        let avail = Duration::from_secs(60) - e.move_overhead;
        let soft = |l: &Limits| e.time_budget(l, 0, 20).0.unwrap();
        assert_eq!(soft(&clock(60, 0, None)), avail / 30);
        assert_eq!(soft(&clock(60, 1000, None)), avail / 15 + Duration::from_secs(1));
        assert_eq!(soft(&clock(60, 0, Some(40))), avail / 40);
        assert_eq!(soft(&clock(60, 1000, Some(40))), avail / 40 + Duration::from_secs(1));
        // The hard limit never passes three quarters of the clock.
        let (_, h) = e.time_budget(&clock(1, 1000, None), 16, 20);
        assert!(h.unwrap() <= (Duration::from_secs(1) - e.move_overhead) * 3 / 4);
    }

    /// The side to move's reserve: 16 at the Genesis start, one fewer for
    /// White once it has placed its King, none in chess or Clown.
    #[test]
    fn reserve_to_place_counts_the_movers_pieces() {
        use chimera_rules::{Position, RuleOptions, Variant};
        let mut g = chimera_rules::Genesis::new();
        assert_eq!(g.reserve_to_place(), 16);
        let m = g.legal_move_list()[0];
        g.play_unchecked(m);
        assert_eq!(g.reserve_to_place(), 16, "Black has placed nothing");
        let m = g.legal_move_list()[0];
        g.play_unchecked(m);
        assert_eq!(g.reserve_to_place(), 15, "White placed its King");
        for v in [Variant::Chess, Variant::Clown] {
            with_position!(&AnyPosition::new(v, &RuleOptions::default()), p => assert_eq!(p.reserve_to_place(), 0));
        }
    }
}
