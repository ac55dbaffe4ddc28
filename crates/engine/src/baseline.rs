//! The yardstick (strength §2): a plain alpha-beta searcher with
//! a material-only evaluation, selected by the UCI option `Baseline`.
//!
//! What it has, and nothing more: iterative deepening (so it can play on a
//! clock), negamax alpha-beta, a capture-only quiescence search (without
//! it a fixed-depth search blunders pieces at the horizon and the gap it
//! measures would be mostly that), MVV-LVA capture ordering and the previous
//! iteration's best move first at the root. Mate, stalemate, repetition,
//! fifty-move and dead-material draws are scored exactly like the real
//! search, through the same rules library. No transposition table, no
//! pruning or reductions, no extensions, no evaluation beyond
//! [`Evaluate::material`].

use crate::eval::Evaluate;
use crate::search::{mvv_lva, Shared, INF, MATE, MATE_BOUND, MAX_PLY};
use chimera_rules::{Move, MoveList};
use std::sync::atomic::Ordering;

/// Called after each completed iteration: depth, score, PV, nodes, seldepth.
pub type Report<'r> = dyn FnMut(u32, i32, &[Move], u64, u32) + 'r;

pub struct Baseline<'s, 'a> {
    shared: &'s Shared<'a>,
    /// Game history then the search path (repetition detection).
    hashes: Vec<u64>,
    pub nodes: u64,
    pub seldepth: u32,
}

impl<'s, 'a> Baseline<'s, 'a> {
    pub fn new(shared: &'s Shared<'a>, history: &[u64]) -> Self {
        Baseline { shared, hashes: history.to_vec(), nodes: 0, seldepth: 0 }
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let s = self.shared;
            if s.max_nodes.is_some_and(|n| self.nodes >= n)
                || matches!((s.hard, s.clock_elapsed()), (Some(h), Some(e)) if e >= h)
            {
                s.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    fn is_draw<P: Evaluate>(&self, pos: &P) -> bool {
        if pos.halfmoves() >= 100 || pos.is_dead_material() {
            return true;
        }
        let h = pos.hash();
        let n = self.hashes.len();
        let limit = (pos.repetition_horizon() as usize).min(n);
        (4..=limit).step_by(2).any(|i| self.hashes[n - i] == h)
    }

    /// Captures first, most valuable victim then least valuable attacker.
    fn order<P: Evaluate>(pos: &P, moves: &mut MoveList) {
        let key = |m: &Move| {
            if pos.is_capture(*m) {
                -mvv_lva(pos, *m) - 1_000_000
            } else {
                0
            }
        };
        moves.as_mut_slice().sort_by_key(key);
    }

    fn qsearch<P: Evaluate>(&mut self, pos: &P, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        self.seldepth = self.seldepth.max(ply as u32);
        if self.shared.stopped() {
            return 0;
        }
        if pos.is_dead_material() {
            return 0;
        }
        let in_check = pos.is_check();
        let mut moves = pos.legal_move_list();
        if moves.is_empty() {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        if ply >= MAX_PLY {
            return pos.material();
        }
        let mut best = -INF;
        if !in_check {
            best = pos.material();
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            moves.retain(|&m| pos.is_capture(m));
        }
        Self::order(pos, &mut moves);
        for &m in moves.iter() {
            let score = -self.qsearch(&pos.after(m), -beta, -alpha, ply + 1);
            if self.shared.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn search<P: Evaluate>(
        &mut self,
        pos: &P,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv: &mut Vec<Move>,
    ) -> i32 {
        pv.clear();
        if ply > 0 && self.is_draw(pos) {
            self.count_node();
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.count_node();
        let mut moves = pos.legal_move_list();
        if moves.is_empty() {
            return if pos.is_check() { -(MATE - ply as i32) } else { 0 };
        }
        Self::order(pos, &mut moves);
        let mut best = -INF;
        let mut child_pv = Vec::new();
        self.hashes.push(pos.hash());
        for &m in moves.iter() {
            let score = -self.search(&pos.after(m), depth - 1, -beta, -alpha, ply + 1, &mut child_pv);
            if self.shared.stopped() {
                self.hashes.pop();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    pv.clear();
                    pv.push(m);
                    pv.extend_from_slice(&child_pv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.hashes.pop();
        best
    }

    /// Iterative deepening over `root_moves` (the caller's legal or
    /// `searchmoves` list); the best move of each completed iteration is
    /// searched first in the next. Returns the last completed iteration's
    /// score, PV and depth; `report(depth, score, pv, nodes, seldepth)` is
    /// called after each.
    pub fn iterate<P: Evaluate>(
        &mut self,
        root: &P,
        root_moves: &[Move],
        max_depth: i32,
        report: &mut Report<'_>,
    ) -> (i32, Vec<Move>, u32) {
        let mut order: Vec<Move> = root_moves.to_vec();
        let mut result = (0, vec![order[0]], 0);
        let mut child_pv = Vec::new();
        self.hashes.push(root.hash());
        for depth in 1..=max_depth {
            let (mut alpha, mut best_pv) = (-INF, Vec::new());
            for &m in order.iter() {
                let score = -self.search(&root.after(m), depth - 1, -INF, -alpha, 1, &mut child_pv);
                if self.shared.stopped() {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    best_pv = std::iter::once(m).chain(child_pv.iter().copied()).collect();
                }
            }
            if self.shared.stopped() {
                // A partial iteration searched the last best move first, so
                // whatever it completed is at least as well informed.
                if !best_pv.is_empty() {
                    result = (alpha, best_pv, result.2);
                }
                break;
            }
            let best = best_pv[0];
            order.retain(|&m| m != best);
            order.insert(0, best);
            result = (alpha, best_pv, depth as u32);
            report(depth as u32, alpha, &result.1, self.nodes, self.seldepth);
            if alpha.abs() >= MATE_BOUND && depth >= MATE - alpha.abs() {
                break; // a mate found within the full-width depth is exact
            }
            if let (Some(soft), Some(e)) = (self.shared.soft, self.shared.clock_elapsed()) {
                if e >= soft / 2 {
                    break;
                }
            }
        }
        self.hashes.pop();
        result
    }
}
