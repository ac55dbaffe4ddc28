//! The search, generic over `P: Evaluate` (so over every variant's
//! `Position`): iterative deepening with aspiration windows, principal
//! variation search, a shared transposition table, a staged move picker
//! (TT move, captures and promotions from the noisy generator by SEE and
//! capture history, killers, counter-move, quiets by butterfly and
//! continuation history, losing captures), quiescence on the noisy
//! generator with SEE pruning, null-move pruning, late-move reductions
//! (by history too), late-move, futility, history, continuation-history
//! and SEE pruning of quiet moves (by the depth a reduction would leave),
//! razoring, singular (double and negative) extensions, repetition (a
//! repeat inside the search or a game's third occurrence; a hash-count
//! filter before a bounded scan that stops at null moves), fifty-move and
//! dead-material draws, mate scores; Lazy SMP across threads. The histories persist
//! across the searches of one game ([`Histories`], owned by the `Engine`).

mod history;
pub(crate) mod iterate;
mod picker;
mod see;
#[cfg(test)]
mod tests;

pub use history::Histories;
use history::*;
use picker::*;
use see::see_value;
pub use see::{mvv_lva, see_ge};

use crate::eval::Evaluate;
use crate::nnue::{self, Network};
use crate::search_params as param;
use crate::tt::{decode_move, encode_move, encode_squares, Bound, TranspositionTable, TtEntry, SQUARE_MASK};
use chimera_rules::{Color, Move, MoveKind, MoveList, Role, Square};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub const MATE: i32 = 32_000;
pub const INF: i32 = 32_500;
pub const MAX_PLY: usize = 128;
/// Below this hard limit the main thread checks the clock every 64 nodes
/// instead of every 1024.
const SHORT_CLOCK: Duration = Duration::from_millis(250);

/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 * 2;
/// The largest static evaluation a network may give, well inside
/// [`MATE_BOUND`] (a built-in net's output stays within a few thousand).
pub const NET_LIMIT: i32 = 20_000;

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
    /// The network evaluation, when the search uses one (else the
    /// hand-made evaluation).
    pub net: Option<&'a Network>,
    /// With `net`: beyond this material balance the hand-made evaluation
    /// is used ([`crate::EngineOptions::nnue_hybrid`]; 0 = never).
    pub hybrid: i32,
    /// With `net`: the percentage of its output used
    /// ([`crate::EngineOptions::nnue_scale`]).
    pub scale: i32,
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
    /// Nodes spent on this move's subtree in the current iteration (time
    /// management: the best move's share).
    pub nodes: u64,
}

impl RootMove {
    /// A root move not yet searched.
    pub fn new(mv: Move) -> Self {
        RootMove { mv, score: -INF, prev_score: -INF, pv: vec![mv], seldepth: 0, nodes: 0 }
    }
}

/// Move counts the late-move reduction table covers: a Genesis placement
/// node holds up to 300 moves, and the reduction keeps growing with the
/// count as Fairy-Stockfish's does (strength §36).
const LMR_MOVES: usize = 256;

#[derive(Copy, Clone, Default)]
struct StackEntry {
    /// Piece-square of the move being searched from this ply (`None`:
    /// a null move, or none yet).
    moved: Option<usize>,
    static_eval: i32,
    excluded_null: bool,
    /// Code of the move a singular-extension search leaves out (0: none).
    excluded: u32,
    /// Whether the move being searched from this ply is quiet (no capture
    /// or promotion): the child rewards it when it fails low.
    quiet_move: bool,
    /// Double singular extensions on the path to this ply (capped, so
    /// that they cannot take the search ever deeper).
    double_ext: u8,
    /// The late-move reduction of the move being searched from this ply
    /// (0 outside its reduced search): the child's hindsight reads it.
    reduction: i32,
}

/// The evaluation, or the table's score where its bound says that is the
/// nearer guess: a lower bound above the evaluation, an upper bound below
/// it (never a mate score).
#[inline]
fn nearer_guess(eval: i32, tt: Option<TtEntry>, ply: usize) -> i32 {
    match tt {
        Some(e) => {
            let s = from_tt(e.score, ply);
            let nearer = match e.bound {
                Bound::Lower => s > eval,
                Bound::Upper => s < eval,
                Bound::Exact | Bound::None => false,
            };
            if nearer && s.abs() < MATE_BOUND {
                s
            } else {
                eval
            }
        }
        None => eval,
    }
}

/// Whether the table gave no move (`code` 0) or a capture: reverse
/// futility prunes only then (Stockfish's `!ttMove || ttCapture`). A
/// stale code is read against this position's board, so at worst it
/// decides one pruning.
#[inline]
fn tt_move_is_capture_or_none<P: Evaluate>(pos: &P, code: u32) -> bool {
    code == 0 || decode_move(code).is_some_and(|m| pos.is_capture(m))
}

/// How far below alpha the static evaluation must be for razoring to ask
/// quiescence whether the node fails low: `450 + 250·depth²`, at any
/// depth, Stockfish's form (+16.5 Elo, strength §65).
#[inline]
fn razor_margin(depth: i32) -> i32 {
    param::razor_base() + param::razor_quad() * depth * depth
}

/// Hindsight depth (Stockfish 17's): a node its parent reduced by 3 plies
/// or more, where the opponent's position did not get worse (this side's
/// evaluation is no better than the parent's, negated), is searched a ply
/// deeper; one reduced by 2 or more, where the two evaluations together
/// say both sides stand well (their sum over 175, so the reduction looks
/// right), a ply shallower. `eval` and `parent_eval` are the corrected
/// static evaluations of this node and its parent, each from its own
/// side's view (+20.5 Elo with the root's fail-high depth, strength §64).
#[inline]
fn hindsight_depth(depth: i32, prior_reduction: i32, eval: i32, parent_eval: i32) -> i32 {
    let mut d = depth;
    if prior_reduction >= 3 && eval <= -parent_eval {
        d += 1;
    }
    if prior_reduction >= 2 && d >= 2 && eval + parent_eval > param::hindsight_margin() {
        d -= 1;
    }
    d
}

/// The least depth at which a TT move is tested for a singular extension
/// (Stockfish's 6: +19.8 Elo, strength §63).
const SINGULAR_DEPTH: i32 = 6;

/// The most double singular extensions on one path.
const MAX_DOUBLE_EXT: u8 = 8;

/// Offset of ply 0 in the stack, so `ply - 2` is always an index.
const STACK_OFF: usize = 2;

/// Repetition filter: a count of the positions on the path (game plus
/// search) per low 16 bits of their hash. A zero count proves there is no
/// earlier occurrence, so the scan runs only on a (rare) filter hit.
struct RepFilter(Box<[u16; 1 << 16]>);

impl RepFilter {
    #[inline]
    fn slot(h: u64) -> usize {
        (h & 0xFFFF) as usize
    }
}

pub struct Worker<'s, 'a, P: Evaluate> {
    pub shared: &'s Shared<'a>,
    pub id: usize,
    /// Hashes of the positions from the game start to the current node
    /// (excluded: the current node).
    hashes: Vec<u64>,
    rep: RepFilter,
    /// Index of `hashes` where the path after the latest null move begins:
    /// no repetition is looked for before it.
    null_floor: usize,
    pub nodes: u64,
    pub seldepth: u32,
    /// The ply from which no reduced move is searched again a ply deeper
    /// than planned: twice the iteration's depth (set by the iterative
    /// deepening; [`MAX_PLY`] otherwise). Without it, Magic Ring's search
    /// went a hundred plies deep at depth 10, each ply searched again at
    /// its parent's depth (strength §68).
    pub deeper_limit: usize,
    /// Whether reverse futility and the null move measure from the table's
    /// score ([`Evaluate::TABLE_EVAL_PRUNING`]; a test turns it on).
    table_eval: bool,
    killers: Vec<[u32; 2]>,
    hist: Histories,
    stack: Vec<StackEntry>,
    pv_table: Vec<Vec<Move>>,
    pub root_moves: Vec<RootMove>,
    /// One picker buffer per ply (noisy and quiet lists, reused: no
    /// allocation per node).
    bufs: Vec<PickBufs>,
    lmr: Box<[[u8; LMR_MOVES]; 64]>,
    /// MultiPV: the root searches `root_moves[pv_idx..]`.
    pub pv_idx: usize,
    /// Accumulators of the network evaluation along the path.
    nnue: nnue::Stack,
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

/// Takes a searched move's score into a quiescence node's best score, the
/// lower end of its window and its best move; true when the move cuts
/// (score ≥ beta).
#[inline]
fn raise(best: &mut i32, alpha: &mut i32, best_move: &mut u32, m: Move, score: i32, beta: i32) -> bool {
    if score > *best {
        *best = score;
        if score > *alpha {
            *alpha = score;
            *best_move = encode_move(m);
            return score >= beta;
        }
    }
    false
}

impl<'s, 'a, P: Evaluate> Worker<'s, 'a, P> {
    pub fn new(shared: &'s Shared<'a>, id: usize, history: &[u64], hist: Histories) -> Self {
        let mut rep = RepFilter(Box::new([0; 1 << 16]));
        for &h in history {
            let c = &mut rep.0[RepFilter::slot(h)];
            *c = c.saturating_add(1);
        }
        let mut lmr = Box::new([[0u8; LMR_MOVES]; 64]);
        let (base, div) = (param::lmr_base() as f64 / 100.0, param::lmr_div() as f64 / 100.0);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (n as f64).ln() / div).max(0.0) as u8;
            }
        }
        Worker {
            shared,
            id,
            hashes: history.to_vec(),
            rep,
            null_floor: 0,
            nodes: 0,
            seldepth: 0,
            deeper_limit: MAX_PLY,
            table_eval: P::TABLE_EVAL_PRUNING,
            killers: vec![[0; 2]; MAX_PLY + 8],
            hist,
            stack: vec![StackEntry::default(); MAX_PLY + 8 + STACK_OFF],
            pv_table: vec![Vec::new(); MAX_PLY + 8],
            root_moves: Vec::new(),
            bufs: (0..MAX_PLY + 8).map(|_| PickBufs::default()).collect(),
            lmr,
            pv_idx: 0,
            nnue: nnue::Stack::new(if shared.net.is_some() { MAX_PLY + 8 } else { 1 }),
            _p: std::marker::PhantomData,
        }
    }

    /// Gives the learned histories back (to keep them for the next search).
    pub fn into_histories(self) -> Histories {
        self.hist
    }

    /// The static evaluation of `pos` at `ply`: the network's when the
    /// search has one (and the material balance is within its hybrid
    /// limit), the hand-made one otherwise.
    #[inline]
    fn static_eval(&mut self, pos: &P, ply: usize) -> i32 {
        match self.shared.net {
            Some(net) if self.shared.hybrid == 0 || pos.material().abs() <= self.shared.hybrid => {
                // Kept off mate scores: a net's output is bounded only by
                // its weights, and an `EvalFile` may hold any (a hostile
                // file's reached ±52 million centipawns, which times the
                // scale overflowed).
                let v = self.nnue.evaluate(net, pos, ply) as i64 * self.shared.scale as i64 / 100;
                v.clamp(-NET_LIMIT as i64, NET_LIMIT as i64) as i32
            }
            _ => pos.evaluate(),
        }
    }

    #[inline]
    fn push_hash(&mut self, h: u64) {
        self.hashes.push(h);
        let c = &mut self.rep.0[RepFilter::slot(h)];
        *c = c.saturating_add(1);
    }

    #[inline]
    fn pop_hash(&mut self) {
        if let Some(h) = self.hashes.pop() {
            let c = &mut self.rep.0[RepFilter::slot(h)];
            *c = c.saturating_sub(1);
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
        } else if self.id == 0 && self.nodes & 63 == 0 && self.shared.hard.is_some_and(|h| h < SHORT_CLOCK) {
            // Little time left: look at the clock every 64 nodes (a
            // Genesis node with its placements can take tens of µs).
            self.check_limits(self.shared.nodes.load(Ordering::Relaxed) + (self.nodes & 1023));
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

    /// Draw by repetition, as Stockfish counts it: `pos`, at `ply`, repeats
    /// a position of the search's own path (after the root), or is the
    /// third occurrence of a position of the game. A single earlier
    /// occurrence before the root (or the root itself) is no draw: the
    /// game goes on, and the side to move there may well play on to win
    /// (counting it a draw scored forced lost positions 0.00 and let the
    /// search steer into repeats it took for draws; strength §51).
    /// The count filter answers most nodes at once; otherwise the scan
    /// looks back over the variant's horizon, never past the latest null
    /// move.
    fn is_repetition(&self, pos: &P, ply: usize) -> bool {
        let h = pos.hash();
        if self.rep.0[RepFilter::slot(h)] == 0 {
            return false;
        }
        let n = self.hashes.len();
        let limit = (pos.repetition_horizon() as usize).min(n - self.null_floor);
        // `hashes[n - i]` is the position `i` plies before `pos`: inside
        // the search when `i < ply`.
        let mut seen_before_root = false;
        let mut i = 4;
        while i <= limit {
            if self.hashes[n - i] == h {
                if i < ply || seen_before_root {
                    return true;
                }
                seen_before_root = true;
            }
            i += 2;
        }
        false
    }

    /// The late-move reduction, in plies, of the `count`th move searched
    /// at `depth`.
    #[inline]
    fn reduction(&self, depth: i32, count: usize) -> i32 {
        self.lmr[(depth.max(0) as usize).min(63)][count.min(LMR_MOVES - 1)] as i32
    }

    /// Makes `m` for the search at stack slot `sp`: the child position, its
    /// hash bucket prefetched, the move for the continuation histories, the
    /// path's double extensions for the child, and `key` (this node's hash)
    /// pushed for repetitions. `pop_hash` undoes it.
    ///
    /// The quiet mark (`StackEntry::quiet_move`) is left as it is: the main
    /// move loop sets it for its moves, and a ProbCut capture reads the
    /// mark of the last move searched at its ply, so its child's fail-low
    /// often rewards it as a quiet move would be. Clearing the mark here
    /// (no bonus after a capture, as in Stockfish) loses (−10.4 Elo,
    /// strength §44).
    #[inline]
    fn enter(&mut self, pos: &P, m: Move, key: u64, sp: usize) -> P {
        let child = pos.after(m);
        self.shared.tt.prefetch(child.hash());
        self.stack[sp].moved = Self::moved_key(pos, m);
        self.stack[sp + 1].double_ext = self.stack[sp].double_ext;
        self.push_hash(key);
        child
    }

    /// Quiescence search. `checks`: its first ply (called from the main
    /// search), where the quiet moves that give check are searched too,
    /// in the variants that list them (`Position::quiet_checks`).
    pub fn qsearch(&mut self, pos: &P, mut alpha: i32, beta: i32, ply: usize, checks: bool) -> i32 {
        self.count_node();
        if ply as u32 > self.seldepth {
            self.seldepth = ply as u32;
        }
        if self.shared.stopped() {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.static_eval(pos, ply) };
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
        let mut raw_eval = 0;
        if in_check {
            best = -INF;
            stand_pat = -INF;
        } else {
            raw_eval = match tt {
                Some(e) => e.eval,
                None => self.static_eval(pos, ply),
            };
            stand_pat = self.corrected(corr_slot(pos), raw_eval);
            // The table's score stands in for the evaluation where its
            // bound says it is the nearer guess (+13.4 Elo, strength §59). The
            // pruning below still measures from the evaluation.
            best = nearer_guess(stand_pat, tt, ply);
            if best >= beta {
                return best;
            }
            if best > alpha {
                alpha = best;
            }
        }
        // Captures and queen promotions from the noisy generator (losing
        // captures never come out); every evasion when in check.
        let mut pk = self.new_picker(pos, tt.map_or(0, |e| e.mv), ply, true);
        let mut best_move = 0;
        let mut any = false;
        let prune_evasions = in_check && P::FEWER_LATE_MOVES;
        let cont = if prune_evasions { self.cont_keys(ply) } else { [None, None] };
        while let Some((m, _)) = self.next_move(pos, &mut pk, ply, in_check) {
            any = true;
            // In check, once an evasion has been found that is not mated,
            // a quiet evasion the histories score below zero is left out
            // (as Stockfish's quiescence leaves out quiet evasions its
            // continuation histories do not favour; not in Genesis (+13.2 Elo,
            // −46.1 in Genesis, strength §61).
            if prune_evasions
                && best > -MATE_BOUND
                && !pos.is_capture(m)
                && m.promotion().is_none()
                && self.quiet_stats(pos, m, cont).0 < 0
            {
                continue;
            }
            if !in_check {
                // Delta pruning.
                let victim = pos.board().role_at(m.to).map_or(100, |r| pos.piece_value(r, m.to));
                if stand_pat + victim + param::qs_delta() < alpha && m.promotion().is_none() {
                    // The capture's margin is what the node could have
                    // reached by it: a fail-low score no lower than that,
                    // so that the parent's fail-high is not too high (as
                    // Stockfish's; strength §67).
                    best = best.max(stand_pat + victim + param::qs_delta());
                    continue;
                }
                // Futility: far below alpha, a capture that does not win
                // material by exchange cannot bring the score up to it.
                if stand_pat + param::qs_futility() <= alpha && m.promotion().is_none() && !see_ge(pos, m, 1) {
                    best = best.max(stand_pat + param::qs_futility());
                    continue;
                }
            }
            let child = self.enter(pos, m, key, ply + STACK_OFF);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, false);
            self.pop_hash();
            if self.shared.stopped() {
                self.end_picker(pk, ply);
                return 0;
            }
            if raise(&mut best, &mut alpha, &mut best_move, m, score, beta) {
                break;
            }
        }
        self.end_picker(pk, ply);
        // The first ply also tries the quiet checks (as Fairy-Stockfish
        // does): in Genesis a King stands in the open from the first
        // moves, and a check is often the tactic that decides the game.
        // A check that loses material by exchange, or that both earlier
        // moves' continuation histories call bad, is left out.
        if checks && !in_check && best < beta {
            let mut list = MoveList::new();
            if pos.quiet_checks(&mut list) {
                let cont = self.cont_keys(ply);
                for &m in list.iter() {
                    let (_, ps) = self.quiet_stats(pos, m, cont);
                    if self.cont_both_bad(ps, cont) || !see_ge(pos, m, 0) {
                        continue;
                    }
                    let child = self.enter(pos, m, key, ply + STACK_OFF);
                    let score = -self.qsearch(&child, -beta, -alpha, ply + 1, false);
                    self.pop_hash();
                    if self.shared.stopped() {
                        return 0;
                    }
                    if raise(&mut best, &mut alpha, &mut best_move, m, score, beta) {
                        break;
                    }
                }
            }
        }
        if in_check && !any {
            return -mate_in(ply);
        }
        let bound = if best >= beta { Bound::Lower } else { Bound::Upper };
        self.shared.tt.store(key, TtEntry { mv: best_move, score: to_tt(best, ply), eval: raw_eval, depth: 0, bound });
        best
    }

    /// Principal variation search. `cut_node`: a node expected to fail
    /// high (reduced more).
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
        // No check extension: a node in check is searched at the depth it
        // was given, as in Stockfish. In Genesis, where checks come by the
        // dozen, the extension took the search 30 plies deep at depth 11
        // (strength §40).
        let in_check = pos.is_check();
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, true);
        }
        self.count_node();
        if ply as u32 > self.seldepth {
            self.seldepth = ply as u32;
        }
        let sp = ply + STACK_OFF;
        if !root {
            if self.shared.stopped() {
                return 0;
            }
            if ply >= MAX_PLY {
                return if in_check { 0 } else { self.static_eval(pos, ply) };
            }
            if self.is_repetition(pos, ply) || pos.is_dead_material() {
                return 0;
            }
            if pos.halfmoves() >= 100 {
                return if in_check && pos.count_legal_moves() == 0 { -mate_in(ply) } else { 0 };
            }
            // Mate distance pruning.
            alpha = alpha.max(-mate_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let key = pos.hash();
        let excluded = self.stack[sp].excluded;
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.map_or(0, |e| e.mv);
        if let Some(e) = tt {
            let s = from_tt(e.score, ply);
            if !pv_node
                && excluded == 0
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
        // The table keeps the raw evaluation; the search works with it
        // corrected by what earlier searches found.
        let raw_eval = match tt {
            _ if in_check => 0,
            Some(e) => e.eval,
            None => self.static_eval(pos, ply),
        };
        // In check there is no static evaluation, so no correction slot.
        let slot = (!in_check).then(|| corr_slot(pos));
        let static_eval = slot.map_or(-INF, |s| self.corrected(s, raw_eval));
        self.stack[sp].static_eval = static_eval;
        // Improving: better than two plies ago, or, when that node was in
        // check (no evaluation), than four plies ago.
        let improving = !in_check && ply >= 2 && {
            let two = self.stack[sp - 2].static_eval;
            if two != -INF {
                static_eval > two
            } else {
                ply < 4 || static_eval > self.stack[sp - 4].static_eval
            }
        };

        // Hindsight: the parent's reduction of this node, judged by the
        // two evaluations (not in check, not in a singular search).
        if !root && excluded == 0 && !in_check && self.stack[sp - 1].static_eval != -INF {
            depth = hindsight_depth(depth, self.stack[sp - 1].reduction, static_eval, self.stack[sp - 1].static_eval);
        }
        // Internal iterative reduction: a node the table knows no move for
        // is searched shallower (its next visit has a move to start with).
        if tt_move == 0 && !root && excluded == 0 {
            if pv_node && depth >= 3 {
                depth -= 2;
            } else if cut_node && depth >= 8 {
                depth -= 1;
            }
        }

        if !pv_node && !in_check && !root {
            // Reverse futility and the null move measure from the table's
            // score where its bound says it is the nearer guess
            // (Stockfish's), in the variants where that wins (+10.7 Elo in
            // chess, strength §68);
            // razoring and the move loop's pruning from the evaluation.
            let eval = if excluded == 0 && self.table_eval { nearer_guess(static_eval, tt, ply) } else { static_eval };
            // Reverse futility pruning (to depth 8 with 75 a ply;
            // strength §44), only where the table has no move or a capture
            // (Stockfish's: a quiet table move is a plan the evaluation
            // may not see; +11.7 Elo, strength §69).
            if depth <= 8
                && eval - param::rfp_margin() * depth + if improving { param::rfp_improving() } else { 0 } >= beta
                && eval.abs() < MATE_BOUND
                && tt_move_is_capture_or_none(pos, tt_move)
            {
                return eval;
            }
            // Razoring, at every depth, with Stockfish's quadratic margin
            // (+16.5 Elo, strength §65).
            if static_eval < alpha - razor_margin(depth) {
                let v = self.qsearch(pos, alpha, beta, ply, true);
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
                && eval >= beta
                && !self.stack[sp].excluded_null
                && excluded == 0
                && non_pawn.any()
                && beta.abs() < MATE_BOUND
            {
                if let Some(child) = pos.null_move() {
                    let r = 3 + depth / 4 + ((eval - beta) / param::nmp_eval_div()).min(3);
                    self.stack[sp].moved = None;
                    self.stack[sp + 1].excluded_null = true;
                    self.stack[sp + 1].double_ext = self.stack[sp].double_ext;
                    self.push_hash(key);
                    let floor = self.null_floor;
                    self.null_floor = self.hashes.len();
                    let v = -self.search(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, !cut_node);
                    self.null_floor = floor;
                    self.pop_hash();
                    self.stack[sp + 1].excluded_null = false;
                    if self.shared.stopped() {
                        return 0;
                    }
                    if v >= beta {
                        return if v >= MATE_BOUND { beta } else { v };
                    }
                }
            }
        }

        // ProbCut: when a good capture's reduced search clears beta by a
        // margin, a full search would almost surely fail high too. Skipped
        // when the table already holds a deep enough score below the margin.
        let pc_beta = beta + param::probcut_margin() - if improving { param::probcut_improving() } else { 0 };
        if !pv_node
            && !in_check
            && !root
            && excluded == 0
            && depth >= 5
            && beta.abs() < MATE_BOUND
            && !tt.is_some_and(|e| e.depth >= depth - 3 && from_tt(e.score, ply) < pc_beta)
        {
            let mut pk = self.new_picker(pos, tt_move, ply, true);
            while let Some((m, _)) = self.next_move(pos, &mut pk, ply, false) {
                if !see_ge(pos, m, pc_beta - static_eval) {
                    continue;
                }
                let child = self.enter(pos, m, key, sp);
                let mut v = -self.qsearch(&child, -pc_beta, -pc_beta + 1, ply + 1, true);
                if v >= pc_beta {
                    v = -self.search(&child, depth - 4, -pc_beta, -pc_beta + 1, ply + 1, !cut_node);
                }
                self.pop_hash();
                if self.shared.stopped() {
                    self.end_picker(pk, ply);
                    return 0;
                }
                if v >= pc_beta {
                    self.end_picker(pk, ply);
                    self.shared.tt.store(
                        key,
                        TtEntry {
                            mv: encode_move(m),
                            score: to_tt(v, ply),
                            eval: raw_eval,
                            depth: depth - 3,
                            bound: Bound::Lower,
                        },
                    );
                    return v;
                }
            }
            self.end_picker(pk, ply);
        }

        // Singular extension: when every other move fails well below the
        // TT move's score (a reduced search without it), the TT move is
        // extended, by two plies outside the PV when they fail below it by
        // a margin more (a few times a path at most); when even without it
        // the search clears beta, the node is cut (multi-cut); when the TT
        // score alone clears beta, or the node is expected to fail high,
        // the TT move is reduced instead. From depth 6 (+19.8 Elo,
        // strength §63).
        let mut tt_ext = 0;
        if !root && excluded == 0 && depth >= SINGULAR_DEPTH && tt_move != 0 && ply < MAX_PLY / 2 {
            if let Some(e) = tt {
                let tt_score = from_tt(e.score, ply);
                if e.depth >= depth - 3 && matches!(e.bound, Bound::Lower | Bound::Exact) && tt_score.abs() < MATE_BOUND
                {
                    let sb = tt_score - param::singular_margin() * depth / 10;
                    self.stack[sp].excluded = tt_move;
                    let v = self.search(pos, (depth - 1) / 2, sb - 1, sb, ply, cut_node);
                    self.stack[sp].excluded = 0;
                    if self.shared.stopped() {
                        return 0;
                    }
                    if v < sb {
                        tt_ext = if !pv_node
                            && v < sb - param::double_ext_margin()
                            && self.stack[sp].double_ext < MAX_DOUBLE_EXT
                        {
                            2
                        } else {
                            1
                        };
                    } else if sb >= beta {
                        return sb;
                    } else if tt_score >= beta || cut_node {
                        tt_ext = -1;
                    }
                }
            }
        }

        // The root plays the moves of the root list (searchmoves, MultiPV
        // exclusions) in their current order; other nodes use the picker.
        let root_list: Vec<Move> =
            if root { self.root_moves[self.pv_idx..].iter().map(|r| r.mv).collect() } else { Vec::new() };
        let mut pk = if root { None } else { Some(self.new_picker(pos, tt_move, ply, false)) };
        let mut root_i = 0;

        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        let mut quiets = [Move::normal(Square::A1, Square::A1); 64];
        let mut n_quiets = 0;
        let mut captures = [Move::normal(Square::A1, Square::A1); 32];
        let mut n_captures = 0;
        let mut searched = 0;
        let mut seen = 0;
        let cont = self.cont_keys(ply);
        loop {
            let (m, picked) = match pk.as_mut() {
                Some(pk) => match self.next_move(pos, pk, ply, in_check) {
                    Some(x) => x,
                    None => break,
                },
                None => {
                    let Some(&m) = root_list.get(root_i) else {
                        break;
                    };
                    root_i += 1;
                    let picked = if pos.is_capture(m) { Picked::GoodNoisy } else { Picked::Quiet };
                    (m, picked)
                }
            };
            if excluded != 0 && encode_move(m) == excluded {
                continue;
            }
            seen += 1;
            let is_capture = pos.is_capture(m);
            let quiet = !is_capture && m.promotion().is_none();
            let placement = matches!(m.kind, MoveKind::Drop(_));
            let (stat, ps) = if quiet { self.quiet_stats(pos, m, cont) } else { (0, 0) };

            if !root && !in_check && best > -MATE_BOUND && searched > 0 {
                // At PV nodes only placements are pruned so, as a Genesis
                // PV node holds hundreds of them; a board move there is
                // kept, so a quiet mate is not lost (strength §35).
                if quiet && (!pv_node || placement) {
                    // The depth a late-move reduction would leave this
                    // move: it sets the margins of the pruning below.
                    let lmr_depth = (depth - 1 - self.reduction(depth, searched)).max(0);
                    // Late move pruning: the rest of the quiets too, at
                    // every depth. A board move follows Stockfish's limit
                    // over every move seen, pruned or not (strength §42); a
                    // Genesis placement a looser one over the moves
                    // searched, as a node can hold hundreds of them
                    // (strength §32).
                    let lmp = if placement {
                        searched as i32 >= 4 + depth * depth * if improving { 2 } else { 1 }
                    } else {
                        seen >= (3 + depth * depth) / if improving { 1 } else { 2 }
                    };
                    if lmp {
                        if let Some(pk) = pk.as_mut() {
                            pk.skip_quiets = true;
                        }
                        continue;
                    }
                    // Futility pruning (the same for every later quiet: the
                    // reduced depth only shrinks as the count grows).
                    if lmr_depth <= 6
                        && static_eval + param::futility_base() + param::futility_depth() * lmr_depth <= alpha
                    {
                        if let Some(pk) = pk.as_mut() {
                            pk.skip_quiets = true;
                        }
                        continue;
                    }
                    // History pruning.
                    if lmr_depth <= 4 && picked == Picked::Quiet && stat < -param::hist_prune() * depth {
                        continue;
                    }
                    // Continuation-history pruning (Fairy-Stockfish's): a
                    // quiet that both earlier moves' histories call bad.
                    if lmr_depth < 5 && picked == Picked::Quiet && self.cont_both_bad(ps, cont) {
                        continue;
                    }
                    // A quiet move that loses material by exchange, unless
                    // it gives check.
                    if lmr_depth <= 8
                        && !see_ge(pos, m, -param::see_quiet() * lmr_depth * lmr_depth)
                        && !pos.after(m).is_check()
                    {
                        continue;
                    }
                }
                // Losing captures at low depth.
                if is_capture
                    && depth <= 3
                    && picked == Picked::BadNoisy
                    && !see_ge(pos, m, -param::see_capture() * depth)
                {
                    continue;
                }
            }

            let child = self.enter(pos, m, key, sp);
            self.stack[sp].quiet_move = quiet;
            let nodes_before = self.nodes;
            let ext = if encode_move(m) == tt_move { tt_ext } else { 0 };
            self.stack[sp + 1].double_ext += u8::from(ext == 2);
            let new_depth = depth - 1 + ext;
            let mut score;
            if searched == 0 {
                score = -self.search(&child, new_depth, -beta, -alpha, ply + 1, !pv_node && !cut_node);
            } else {
                // Late-move reductions.
                let mut r = 0;
                // From the second move at depth 2 (Stockfish's), but never
                // at the root (+13.2 Elo, strength §61); in Genesis, where that
                // lost, from the third move at depth 3, the root's too.
                let from = if P::FEWER_LATE_MOVES { !root && depth >= 2 } else { depth >= 3 && searched >= 2 };
                if from && !child.is_check() && (quiet || picked == Picked::BadNoisy) {
                    r = self.reduction(depth, searched);
                    if !pv_node {
                        r += 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if cut_node {
                        r += 1;
                    }
                    if picked == Picked::Refutation {
                        r -= 1;
                    }
                    if quiet {
                        r -= (stat / param::lmr_hist_div()).clamp(-2, 2);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                self.stack[sp].reduction = r;
                score = -self.search(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                self.stack[sp].reduction = 0;
                // A reduced move that beats alpha is searched again, a ply
                // deeper than planned when it beat the best score so far
                // by a margin, a ply shallower when only just (Stockfish's;
                // +6.6 Elo, strength §59), not from twice the iteration's
                // depth on (strength §68); not again when that is no deeper
                // than the reduced search.
                let mut full_depth = new_depth;
                if r > 0 && score > alpha {
                    full_depth +=
                        i32::from(score > best + param::research_deeper() + 10 * r && ply < self.deeper_limit)
                            - i32::from(score < best + new_depth);
                    if full_depth > new_depth - r {
                        score = -self.search(&child, full_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
                    }
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(&child, full_depth, -beta, -alpha, ply + 1, false);
                }
            }
            self.pop_hash();
            searched += 1;
            if self.shared.stopped() {
                if let Some(pk) = pk {
                    self.end_picker(pk, ply);
                }
                return 0;
            }
            if root {
                let spent = self.nodes - nodes_before;
                if let Some(rm) = self.root_moves[self.pv_idx..].iter_mut().find(|r| r.mv == m) {
                    rm.nodes += spent;
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
                            self.update_quiet_stats(pos, m, &quiets[..n_quiets], depth, ply);
                        }
                        self.update_capture_stats(
                            pos,
                            if is_capture { Some(m) } else { None },
                            &captures[..n_captures],
                            depth,
                        );
                        break;
                    }
                }
            }
            if quiet {
                if n_quiets < quiets.len() {
                    quiets[n_quiets] = m;
                    n_quiets += 1;
                }
            } else if is_capture && n_captures < captures.len() {
                captures[n_captures] = m;
                n_captures += 1;
            }
        }
        if let Some(pk) = pk {
            self.end_picker(pk, ply);
        }
        if seen == 0 {
            if excluded != 0 {
                // The left-out move is the only one: singular.
                return alpha;
            }
            return if in_check { -mate_in(ply) } else { 0 };
        }
        if searched == 0 {
            // Every move was pruned (only possible outside the root):
            // fall back to the static evaluation.
            return alpha.max(static_eval.min(beta));
        }
        if excluded != 0 {
            // A search without one move: not this position's value.
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha && pv_node {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if bound == Bound::Upper && !root {
            self.reward_prior_quiet(pos, depth, ply);
        }
        // The correction history learns from quiet (or no) best moves, and
        // only from scores their bound says are beyond the evaluation.
        if let Some(slot) = slot {
            if best_move.is_none_or(|m| !pos.is_capture(m) && m.promotion().is_none())
                && best.abs() < MATE_BOUND
                && !(bound == Bound::Lower && best <= static_eval)
                && !(bound == Bound::Upper && best >= static_eval)
            {
                self.update_corr(slot, raw_eval, best, depth);
            }
        }
        self.shared.tt.store(
            key,
            TtEntry { mv: best_move.map_or(0, encode_move), score: to_tt(best, ply), eval: raw_eval, depth, bound },
        );
        best
    }
}
