//! Iterative deepening: one worker's search from depth 1 up, each
//! iteration in an aspiration window around the last score, with the
//! reports (`info`) the main thread makes.

use super::{RootMove, Worker, INF, MATE, MATE_BOUND};
use crate::time::SoftStop;
use crate::{search_params, Evaluate, Limits, Score, ScoreBound, SearchInfo};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The depth of an aspiration search at iteration `depth` after
/// `failed_high` fail highs in a row (none since the last fail low): a ply
/// less for each, never below 1.
fn window_depth(depth: i32, failed_high: i32) -> i32 {
    (depth - failed_high).max(1)
}

/// Iterative deepening with aspiration windows for one worker. Returns the
/// root lines of the last completed iteration and its depth.
pub(crate) fn iterate<P: Evaluate>(
    w: &mut Worker<'_, '_, P>,
    root: &P,
    max_depth: i32,
    multipv: usize,
    limits: &Limits,
    on_info: &mut dyn FnMut(&SearchInfo),
    main: bool,
) -> (Vec<RootMove>, u32) {
    let mut completed: Vec<RootMove> = Vec::new();
    let mut depth_done = 0;
    let start_depth = 1 + if main { 0 } else { (w.id % 2) as i32 };
    let mut soft_stop = SoftStop::default();
    for depth in start_depth..=max_depth {
        for rm in w.root_moves.iter_mut() {
            rm.prev_score = rm.score;
            rm.nodes = 0;
        }
        for pv_idx in 0..multipv {
            w.pv_idx = pv_idx;
            w.seldepth = 0;
            w.deeper_limit = 2 * depth as usize;
            let prev = w.root_moves[pv_idx].prev_score;
            let mut delta = search_params::aspiration();
            // Fail highs of this iteration's window since its last fail
            // low: each searches the root a ply shallower (Stockfish's
            // `failedHighCnt`; +20.5 Elo with hindsight depth, strength
            // §64), to confirm the new best score sooner.
            let mut failed_high = 0;
            let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
                ((prev - delta).max(-INF), (prev + delta).min(INF))
            } else {
                (-INF, INF)
            };
            loop {
                // Scores are of this search only (the previous ones are in
                // `prev_score`): a move not reached keeps -INF, so an
                // interrupted search still ranks the moves it finished.
                for rm in w.root_moves[pv_idx..].iter_mut() {
                    rm.score = -INF;
                }
                let score = w.search(root, window_depth(depth, failed_high), alpha, beta, 0, false);
                w.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score)); // stable
                if w.shared.stopped() {
                    break;
                }
                let bound = if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INF);
                    failed_high = 0;
                    ScoreBound::Upper
                } else if score >= beta {
                    beta = (score + delta).min(INF);
                    failed_high += 1;
                    ScoreBound::Lower
                } else {
                    break;
                };
                if main && w.shared.start.elapsed() > Duration::from_millis(1000) {
                    report(w, root, depth, pv_idx, bound, on_info);
                }
                delta += delta / 2;
            }
            if w.shared.stopped() {
                break;
            }
            if main {
                report(w, root, depth, pv_idx, ScoreBound::Exact, on_info);
            }
        }
        if w.shared.stopped() {
            // A partial iteration is kept when it finished at least one
            // move: its best move has a score of this depth (the previous
            // best, or a move that beat it).
            if main && multipv == 1 && !completed.is_empty() && w.root_moves[0].score > -INF {
                completed = w.root_moves.clone();
            }
            break;
        }
        depth_done = depth as u32;
        completed = w.root_moves.clone();
        if !main {
            continue;
        }
        let best = completed[0].score;
        if let Some(m) = limits.mate {
            if best >= MATE_BOUND && (MATE - best + 1) / 2 <= m as i32 {
                break;
            }
        }
        if let (Some(soft), Some(e)) = (w.shared.soft, w.shared.clock_elapsed()) {
            if soft_stop.done(&completed, depth, e, soft) {
                break;
            }
        }
    }
    if completed.is_empty() {
        // Stopped before the first iteration ended: the moves searched so
        // far are sorted first, the rest keep generator order.
        completed = w.root_moves.clone();
    }
    (completed, depth_done)
}

pub(crate) fn report<P: Evaluate>(
    w: &Worker<'_, '_, P>,
    _root: &P,
    depth: i32,
    pv_idx: usize,
    bound: ScoreBound,
    on_info: &mut dyn FnMut(&SearchInfo),
) {
    let rm = &w.root_moves[pv_idx];
    let threads_nodes = w.shared.nodes.load(Ordering::Relaxed) + (w.nodes & 1023);
    on_info(&SearchInfo {
        depth: depth as u32,
        seldepth: rm.seldepth.max(depth as u32),
        multipv: pv_idx as u32 + 1,
        score: to_score(rm.score.max(-MATE)),
        bound,
        nodes: threads_nodes,
        time: w.shared.start.elapsed(),
        hashfull: w.shared.tt.hashfull(),
        pv: rm.pv.clone(),
    });
}

pub(crate) fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-(MATE + s) / 2)
    } else {
        Score::Cp(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The root's aspiration search loses a ply per fail high in a row.
    #[test]
    fn window_depth_drops_a_ply_per_fail_high() {
        assert_eq!(window_depth(12, 0), 12);
        assert_eq!(window_depth(12, 1), 11);
        assert_eq!(window_depth(12, 3), 9);
        assert_eq!(window_depth(2, 5), 1, "never below depth 1");
    }
}
