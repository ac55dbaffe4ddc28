//! The search, generic over `P: Evaluate` (so over every variant's
//! `Position`): iterative deepening with aspiration windows, principal
//! variation search, a shared transposition table, a staged move picker,
//! quiescence with SEE pruning, null-move pruning, late-move reductions,
//! futility pruning and razoring, check extensions, repetition, fifty-move
//! and dead-material draws, mate scores; Lazy SMP across threads.

use crate::eval::Evaluate;
use crate::tt::{encode_move, Bound, TranspositionTable, TtEntry};
use chimera_rules::{Bitboard, Color, Move, MoveKind, MoveList, Role, Square};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub const MATE: i32 = 32_000;
pub const INF: i32 = 32_500;
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 * 2;

/// Everything the threads of one search share.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    /// Set by the caller (UCI `stop`).
    pub user_stop: &'a AtomicBool,
    /// Set internally (time, nodes, main thread finished).
    pub stop: AtomicBool,
    /// While `true`, time limits do not run (UCI `go ponder`).
    pub pondering: &'a AtomicBool,
    pub nodes: AtomicU64,
    pub start: Instant,
    /// Time counted from here (start, or the moment of `ponderhit`).
    pub clock_start: std::sync::Mutex<Option<Instant>>,
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
    pub max_nodes: Option<u64>,
}

impl Shared<'_> {
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.user_stop.load(Ordering::Relaxed)
    }

    /// Elapsed time on the clock (zero while pondering).
    pub fn clock_elapsed(&self) -> Option<Duration> {
        if self.pondering.load(Ordering::Relaxed) {
            return None;
        }
        let mut cs = self.clock_start.lock().unwrap_or_else(|e| e.into_inner());
        let s = *cs.get_or_insert_with(Instant::now);
        Some(s.elapsed())
    }
}

/// A root move with its latest score.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: u32,
}

#[derive(Copy, Clone, Default)]
struct StackEntry {
    /// Moving role and destination of the move that led here (counter-moves).
    prev: Option<(Role, Square)>,
    static_eval: i32,
    excluded_null: bool,
}

pub struct Worker<'s, 'a, P: Evaluate> {
    pub shared: &'s Shared<'a>,
    pub id: usize,
    /// Hashes of the positions from the game start to the current node
    /// (excluded: the current node).
    pub hashes: Vec<u64>,
    /// Number of entries of `hashes` that come from the game before the root.
    pub game_len: usize,
    pub nodes: u64,
    pub seldepth: u32,
    killers: Vec<[u32; 2]>,
    history: Box<[[[i32; 64]; 8]; 2]>,
    counter: Box<[[[u32; 64]; 8]; 2]>,
    stack: Vec<StackEntry>,
    pv_table: Vec<Vec<Move>>,
    pub root_moves: Vec<RootMove>,
    /// One move-score buffer per ply (no 2 KB zeroing at every node).
    score_bufs: Vec<Vec<i32>>,
    /// MultiPV: the root searches `root_moves[pv_idx..]`.
    pub pv_idx: usize,
    _p: std::marker::PhantomData<P>,
}

#[inline]
fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Most valuable victim, then least valuable attacker: the capture
/// ordering key (higher first) of the search and the baseline.
pub fn mvv_lva<P: Evaluate>(pos: &P, m: Move) -> i32 {
    let victim = if m.kind == MoveKind::EnPassant {
        pos.piece_value(Role::Pawn, m.to)
    } else {
        pos.board().role_at(m.to).map_or(0, |r| pos.piece_value(r, m.to))
    };
    let attacker = pos.moving_role(m).map_or(0, |r| pos.piece_value(r, m.from));
    victim * 16 - attacker / 16
}

/// Static exchange evaluation: whether the capture `m` wins at least
/// `threshold` centipawns, with orthodox attacks (x-rays included).
pub fn see_ge<P: Evaluate>(pos: &P, m: Move, threshold: i32) -> bool {
    if !P::EXACT_SEE || m.kind != MoveKind::Normal {
        return 0 >= threshold || pos.is_capture(m);
    }
    let b = pos.board();
    let from = m.from;
    let to = m.to;
    let Some(mover) = b.role_at(from) else {
        return true;
    };
    let captured = b.role_at(to).map_or(0, |r| pos.piece_value(r, to));
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    swap = pos.piece_value(mover, to) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = (b.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let mut stm = pos.turn();
    let mut attackers = (b.attackers_to(to, Color::White, occ) | b.attackers_to(to, Color::Black, occ)) & occ;
    let mut res = true;
    loop {
        stm = !stm;
        attackers &= occ;
        let mine = attackers & b.by_color(stm);
        if mine.is_empty() {
            break;
        }
        res = !res;
        // Least valuable attacker.
        let mut found = None;
        for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Genie, Role::Rook, Role::Queen, Role::King] {
            let bb = mine & b.by_role(role);
            if let Some(sq) = bb.first() {
                found = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = found else { break };
        if role == Role::King {
            // The king may only take last.
            return if (attackers & b.by_color(!stm)).any() { !res } else { res };
        }
        swap = pos.piece_value(role, to) - swap;
        if swap < res as i32 {
            break;
        }
        occ ^= Bitboard::from_square(sq);
        // X-rays revealed by removing the attacker.
        attackers |= (b.attackers_to(to, Color::White, occ) | b.attackers_to(to, Color::Black, occ)) & occ;
    }
    res
}

impl<'s, 'a, P: Evaluate> Worker<'s, 'a, P> {
    pub fn new(shared: &'s Shared<'a>, id: usize, history: &[u64]) -> Self {
        Worker {
            shared,
            id,
            hashes: history.to_vec(),
            game_len: history.len(),
            nodes: 0,
            seldepth: 0,
            killers: vec![[0; 2]; MAX_PLY + 8],
            history: Box::new([[[0; 64]; 8]; 2]),
            counter: Box::new([[[0; 64]; 8]; 2]),
            stack: vec![StackEntry::default(); MAX_PLY + 8],
            pv_table: vec![Vec::new(); MAX_PLY + 8],
            root_moves: Vec::new(),
            score_bufs: vec![vec![0; 512]; MAX_PLY + 8],
            pv_idx: 0,
            _p: std::marker::PhantomData,
        }
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let total = self.shared.nodes.fetch_add(1024, Ordering::Relaxed) + 1024;
            if self.id == 0 {
                self.check_limits(total);
            }
        }
    }

    fn check_limits(&self, total: u64) {
        if let Some(n) = self.shared.max_nodes {
            if total >= n {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if let (Some(h), Some(e)) = (self.shared.hard, self.shared.clock_elapsed()) {
            if e >= h {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Draw by repetition (any earlier occurrence within the reversible
    /// moves counts: the standard engine simplification) or fifty moves.
    fn is_repetition(&self, pos: &P) -> bool {
        let h = pos.hash();
        let n = self.hashes.len();
        let limit = (pos.repetition_horizon() as usize).min(n);
        let mut i = 4;
        while i <= limit {
            if self.hashes[n - i] == h {
                return true;
            }
            i += 2;
        }
        false
    }

    fn score_moves(&self, pos: &P, moves: &MoveList, tt_move: u32, ply: usize, scores: &mut [i32]) {
        let us = pos.turn().index();
        let killers = self.killers[ply];
        let counter = self.stack[ply].prev.map_or(0, |(r, sq)| self.counter[us][r.index()][sq.index()]);
        for (i, &m) in moves.iter().enumerate() {
            let code = encode_move(m);
            scores[i] = if code == tt_move {
                4_000_000
            } else if pos.is_capture(m) || matches!(m.kind, MoveKind::Promotion(Role::Queen)) {
                let promo = if matches!(m.kind, MoveKind::Promotion(Role::Queen)) { 900 } else { 0 };
                let mvv = mvv_lva(pos, m) + promo;
                if see_ge(pos, m, 0) {
                    2_000_000 + mvv
                } else {
                    -1_000_000 + mvv
                }
            } else if code == killers[0] {
                1_500_000
            } else if code == killers[1] {
                1_400_000
            } else if code == counter {
                1_300_000
            } else {
                let role = pos.moving_role(m).map_or(0, |r| r.index());
                self.history[us][role][m.to.index()]
            };
        }
    }

    fn update_quiet_stats(&mut self, pos: &P, best: Move, quiets: &[Move], depth: i32, ply: usize) {
        let us = pos.turn().index();
        let code = encode_move(best);
        if self.killers[ply][0] != code {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = code;
        }
        if let Some((r, sq)) = self.stack[ply].prev {
            self.counter[us][r.index()][sq.index()] = code;
        }
        let bonus = (depth * depth).min(400);
        let mut upd = |m: Move, b: i32| {
            let role = pos.moving_role(m).map_or(0, |r| r.index());
            let h = &mut self.history[us][role][m.to.index()];
            *h += b - *h * b.abs() / 16_384;
        };
        upd(best, bonus);
        for &q in quiets {
            if q != best {
                upd(q, -bonus);
            }
        }
    }

    /// Picks the best-scored remaining move (selection: the stages TT move,
    /// good captures, killers, counter-move, quiets by history, bad captures
    /// come out in order without sorting the whole list).
    #[inline]
    fn pick(moves: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
        let n = moves.len();
        let mut best = i;
        for j in i + 1..n {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        if best != i {
            moves.as_mut_slice().swap(i, best);
            scores.swap(i, best);
        }
        moves[i]
    }

    pub fn qsearch(&mut self, pos: &P, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        if ply as u32 > self.seldepth {
            self.seldepth = ply as u32;
        }
        if self.shared.stopped() {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { pos.evaluate() };
        }
        if pos.is_dead_material() {
            return 0;
        }
        let key = pos.hash();
        let tt = self.shared.tt.probe(key);
        if let Some(e) = tt {
            let s = from_tt(e.score, ply);
            if match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
                Bound::None => false,
            } {
                return s;
            }
        }
        let mut best;
        let stand_pat;
        if in_check {
            best = -INF;
            stand_pat = -INF;
        } else {
            stand_pat = tt.map_or_else(|| pos.evaluate(), |e| e.eval);
            best = stand_pat;
            if best >= beta {
                return best;
            }
            if best > alpha {
                alpha = best;
            }
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return if in_check { -mate_in(ply) } else { 0 };
        }
        if !in_check {
            // Captures and queen promotions only; never placements.
            moves.retain(|&m| pos.is_capture(m) || matches!(m.kind, MoveKind::Promotion(Role::Queen)));
        }
        let mut scores = std::mem::take(&mut self.score_bufs[ply]);
        self.score_moves(pos, &moves, tt.map_or(0, |e| e.mv), ply, &mut scores);
        let mut best_move = 0;
        for i in 0..moves.len() {
            let m = Self::pick(&mut moves, &mut scores, i);
            if !in_check {
                // SEE pruning: skip captures that lose material.
                if !see_ge(pos, m, 0) {
                    continue;
                }
                // Delta pruning.
                let victim = pos.board().role_at(m.to).map_or(100, |r| pos.piece_value(r, m.to));
                if stand_pat + victim + 200 < alpha && m.promotion().is_none() {
                    continue;
                }
            }
            let child = pos.after(m);
            self.hashes.push(key);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            self.hashes.pop();
            if self.shared.stopped() {
                self.score_bufs[ply] = scores;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = encode_move(m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.score_bufs[ply] = scores;
        let bound = if best >= beta { Bound::Lower } else { Bound::Upper };
        self.shared.tt.store(
            key,
            TtEntry {
                mv: best_move,
                score: to_tt(best, ply),
                eval: if in_check { 0 } else { stand_pat },
                depth: 0,
                bound,
            },
        );
        best
    }

    #[allow(clippy::too_many_arguments)]
    /// `cut_node` (expected fail-high node) is tracked for future
    /// reduction rules; no rule reads it yet.
    #[allow(clippy::only_used_in_recursion)]
    pub fn search(
        &mut self,
        pos: &P,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv_table[ply].clear();
        let in_check = pos.is_check();
        if in_check {
            depth += 1; // check extension
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.count_node();
        if ply as u32 > self.seldepth {
            self.seldepth = ply as u32;
        }
        if !root {
            if self.shared.stopped() {
                return 0;
            }
            if ply >= MAX_PLY {
                return if in_check { 0 } else { pos.evaluate() };
            }
            if self.is_repetition(pos) || pos.is_dead_material() {
                return 0;
            }
            // Mate distance pruning.
            alpha = alpha.max(-mate_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let key = pos.hash();
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.map_or(0, |e| e.mv);
        if let Some(e) = tt {
            let s = from_tt(e.score, ply);
            if !pv_node
                && e.depth >= depth
                && pos.halfmoves() < 90
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                }
            {
                return s;
            }
        }
        let static_eval = if in_check { -INF } else { tt.map_or_else(|| pos.evaluate(), |e| e.eval) };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;

        if !pv_node && !in_check && !root {
            // Reverse futility pruning.
            if depth <= 6
                && static_eval - 90 * depth + if improving { 40 } else { 0 } >= beta
                && static_eval.abs() < MATE_BOUND
            {
                return static_eval;
            }
            // Razoring.
            if depth <= 2 && static_eval + 300 * depth < alpha {
                let v = self.qsearch(pos, alpha, beta, ply);
                if v < alpha {
                    return v;
                }
            }
            // Null-move pruning: not in check, not twice in a row, only with
            // pieces besides pawns (zugzwang guard), only where the variant
            // says passing is a safe assumption.
            let us = pos.turn();
            let b = pos.board();
            let non_pawn = b.by_color(us) & !b.by_role(Role::Pawn) & !b.by_role(Role::King);
            if depth >= 3
                && static_eval >= beta
                && !self.stack[ply].excluded_null
                && non_pawn.any()
                && beta.abs() < MATE_BOUND
            {
                if let Some(child) = pos.null_move() {
                    let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                    self.stack[ply + 1].prev = None;
                    self.stack[ply + 1].excluded_null = true;
                    self.hashes.push(key);
                    let v = -self.search(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, !cut_node);
                    self.hashes.pop();
                    self.stack[ply + 1].excluded_null = false;
                    if self.shared.stopped() {
                        return 0;
                    }
                    if v >= beta {
                        return if v >= MATE_BOUND { beta } else { v };
                    }
                }
            }
        }

        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return if in_check { -mate_in(ply) } else { 0 };
        }
        if pos.halfmoves() >= 100 && !root {
            return 0;
        }
        if root {
            // The root plays only the moves of the root list (searchmoves,
            // MultiPV exclusions), in their current order.
            let allowed: Vec<Move> = self.root_moves[self.pv_idx..].iter().map(|r| r.mv).collect();
            moves.retain(|m| allowed.contains(m));
        }
        let mut scores = std::mem::take(&mut self.score_bufs[ply]);
        if root {
            for (i, m) in moves.iter().enumerate() {
                let idx = self.root_moves.iter().position(|r| r.mv == *m).unwrap_or(0);
                scores[i] = 1_000_000 - idx as i32;
            }
        } else {
            self.score_moves(pos, &moves, tt_move, ply, &mut scores);
        }

        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        let mut quiets: Vec<Move> = Vec::new();
        let mut searched = 0;
        for i in 0..moves.len() {
            let m = Self::pick(&mut moves, &mut scores, i);
            let is_capture = pos.is_capture(m);
            let quiet = !is_capture && m.promotion().is_none();

            // Shallow-depth pruning of late quiet moves.
            if !root && !in_check && quiet && best > -MATE_BOUND && searched > 0 {
                // Late move pruning.
                if !pv_node && depth <= 4 && searched as i32 >= 4 + depth * depth * if improving { 2 } else { 1 } {
                    continue;
                }
                // Futility pruning.
                if !pv_node && depth <= 3 && static_eval + 120 + 100 * depth <= alpha {
                    continue;
                }
            }
            // Losing captures at low depth.
            if !root && !in_check && is_capture && depth <= 3 && best > -MATE_BOUND && !see_ge(pos, m, -80 * depth) {
                continue;
            }

            let child = pos.after(m);
            self.stack[ply + 1].prev = pos.moving_role(m).map(|r| (r, m.to));
            self.hashes.push(key);
            let new_depth = depth - 1;
            let mut score;
            if searched == 0 {
                score = -self.search(&child, new_depth, -beta, -alpha, ply + 1, false);
            } else {
                // Late-move reductions.
                let mut r = 0;
                if depth >= 3 && searched >= 2 && quiet && !child.is_check() {
                    r = lmr(depth, searched);
                    if !pv_node {
                        r += 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if scores[i] >= 1_300_000 {
                        r -= 1; // killers and counter-moves
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if r > 0 && score > alpha {
                    score = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(&child, new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            self.hashes.pop();
            searched += 1;
            if self.shared.stopped() {
                self.score_bufs[ply] = scores;
                return 0;
            }
            if root {
                if let Some(rm) = self.root_moves[self.pv_idx..].iter_mut().find(|r| r.mv == m) {
                    if searched == 1 || score > alpha {
                        rm.score = score;
                        rm.seldepth = self.seldepth;
                        let mut pv = vec![m];
                        pv.extend_from_slice(&self.pv_table[ply + 1]);
                        rm.pv = pv;
                    } else {
                        rm.score = -INF;
                    }
                }
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.pv_table.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(m);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(pos, m, &quiets, depth, ply);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(m);
            }
        }
        self.score_bufs[ply] = scores;
        if searched == 0 {
            // Every move was pruned (only possible outside the root):
            // fall back to the static evaluation.
            return if in_check { -mate_in(ply) } else { alpha.max(static_eval.min(beta)) };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha && pv_node {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            TtEntry {
                mv: best_move.map_or(0, encode_move),
                score: to_tt(best, ply),
                eval: if in_check { 0 } else { static_eval },
                depth,
                bound,
            },
        );
        best
    }
}

fn lmr(depth: i32, searched: usize) -> i32 {
    let d = (depth as f32).ln();
    let n = (searched as f32).ln();
    (0.5 + d * n / 2.2) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_rules::{Chess, Position};

    fn see(fen: &str, mv: &str, t: i32) -> bool {
        let p = Chess::from_fen(fen).unwrap();
        let m = p.parse_uci(mv).unwrap();
        see_ge(&p, m, t)
    }

    /// Hand-worked exchanges.
    #[test]
    fn static_exchange() {
        // Rook takes an undefended pawn: wins a pawn.
        assert!(see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 1));
        // Knight takes a pawn defended by a pawn: loses (knight for pawn).
        assert!(!see("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", 0));
        // Queen takes a rook defended once: queen for rook, loses material.
        assert!(!see("4k3/2p5/3r4/8/8/8/8/3QK3 w - - 0 1", "d1d6", 0));
        // Pawn takes a knight defended by a pawn: still wins (knight for pawn).
        assert!(see("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100));
        // Rook takes a rook on a file doubled by our second rook (x-ray): wins a rook.
        assert!(see("3rk3/8/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d8", 0));
    }
}
