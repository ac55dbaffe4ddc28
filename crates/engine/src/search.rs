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

/// Coloured piece index (colour * 8 + role) and square of a move: the keys
/// of the continuation history and the counter-moves.
#[inline]
fn piece_square(color: Color, role: Role, to: Square) -> usize {
    (color.index() * Role::COUNT + role.index()) * 64 + to.index()
}

/// Move counts the late-move reduction table covers: a Genesis placement
/// node holds up to 300 moves, and the reduction keeps growing with the
/// count as Fairy-Stockfish's does (§36 of strength.md).
const LMR_MOVES: usize = 256;

/// Number of piece-square keys (16 coloured pieces × 64 squares).
const PS: usize = 2 * Role::COUNT * 64;
/// The continuation-history row of a missing earlier move.
static ZERO_ROW: [i16; PS] = [0; PS];
/// History values stay within ±`HIST_MAX` (the gravity formula).
const HIST_MAX: i32 = 16_384;

/// The move-ordering statistics one search thread learns, kept from one
/// search to the next within a game (cleared by `ucinewgame`).
pub struct Histories {
    /// Butterfly history of quiet moves: [colour][moving role][to].
    main: Box<[[[i16; 64]; Role::COUNT]; 2]>,
    /// Continuation history: [piece-square of an earlier move][piece-square
    /// of this quiet move], read for the moves 1 and 2 plies back.
    cont: Vec<i16>,
    /// Capture history: [moving piece-square][captured role].
    capture: Vec<i16>,
    /// Counter-moves: [piece-square of the previous move] → move code.
    counter: Vec<u32>,
    /// Correction history: [side to move × pawn-structure slot] → how far
    /// the searches found the static evaluation off, in 1/`CORR_GRAIN`
    /// centipawns (a moving average over the nodes with that structure).
    corr: Vec<i32>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            main: Box::new([[[0; 64]; Role::COUNT]; 2]),
            cont: vec![0; PS * PS],
            capture: vec![0; PS * Role::COUNT],
            counter: vec![0; PS],
            corr: vec![0; 2 * CORR_SIZE],
        }
    }
}

impl Histories {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Histories::default();
    }
}

/// Bits of a pawn-structure hash that choose its correction slot.
const CORR_BITS: u32 = 14;
/// Pawn-structure slots of the correction history, per side to move.
const CORR_SIZE: usize = 1 << CORR_BITS;
/// Fixed-point unit of a correction entry (1 cp = `CORR_GRAIN`).
const CORR_GRAIN: i32 = 256;
/// A correction stays within ±64 cp.
const CORR_MAX: i32 = 64 * CORR_GRAIN;

/// A 64-bit finaliser (every input bit reaches every output bit), so the
/// top bits of a slot depend on pawns on every rank.
#[inline]
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 31)).wrapping_mul(0x7FB5_D329_728E_A185);
    let x = (x ^ (x >> 27)).wrapping_mul(0x81DA_DEF4_BC2D_D44D);
    x ^ (x >> 33)
}

/// `pos`'s correction-history slot: the side to move and a hash of each
/// side's pawns (a collision only blurs two structures' averages).
#[inline]
fn corr_slot<P: Evaluate>(pos: &P) -> usize {
    let b = pos.board();
    let pawns = b.by_role(Role::Pawn);
    let w = (pawns & b.by_color(Color::White)).0;
    let k = (pawns & b.by_color(Color::Black)).0;
    let h = mix(w.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(k.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)));
    pos.turn().index() * CORR_SIZE + (h >> (64 - CORR_BITS)) as usize
}

/// The history bonus (or, negated, malus) of a search to `depth`.
#[inline]
fn stat_bonus(depth: i32) -> i32 {
    (150 * depth - 100).clamp(0, 1500)
}

#[inline]
fn gravity(h: &mut i16, bonus: i32) {
    let v = *h as i32;
    *h = (v + bonus - v * bonus.abs() / HIST_MAX) as i16;
}

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
/// depth (Stockfish's form; §65 of strength.md).
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
/// side's view. §64 of strength.md.
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
/// (Stockfish's 6; 8 until §63 of strength.md).
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
    /// its parent's depth (§68 of strength.md).
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

/// Value of the role `role` once it stands on `sq`, for SEE (a King is
/// worth more than everything else together).
#[inline]
fn see_value<P: Evaluate>(pos: &P, role: Role, sq: Square) -> i32 {
    if role == Role::King {
        20_000
    } else {
        pos.see_value(role, sq)
    }
}

/// Static exchange evaluation: whether the capture `m` wins at least
/// `threshold` centipawns when both sides keep recapturing on its square
/// with their least valuable attacker, each free to stop, x-rays included,
/// and a King capturing only onto an undefended square. The attackers come
/// from `Position::attackers_with`, so every variant's pieces and powers
/// take part (Genie leaps, Clowns by file, Genesis pawns, ring powers);
/// pins are ignored, as usual. A quiet move (or placement) asks whether
/// the piece can stand on its square; promotions and en passant count
/// their material gain without the exchange.
pub fn see_ge<P: Evaluate>(pos: &P, m: Move, threshold: i32) -> bool {
    let b = pos.board();
    let to = m.to;
    let (mover, captured, mut occ) = match m.kind {
        MoveKind::Normal | MoveKind::Declare => {
            let Some(r) = b.role_at(m.from) else {
                return 0 >= threshold;
            };
            let r = if m.kind == MoveKind::Declare { Role::Clown } else { r };
            let cap = b.role_at(to).map_or(0, |v| see_value(pos, v, to));
            (r, cap, b.occupied().without(m.from))
        }
        MoveKind::Drop(r) | MoveKind::ReEntry(r) => (r, 0, b.occupied()),
        MoveKind::EnPassant => {
            return see_value(pos, Role::Pawn, to) >= threshold;
        }
        MoveKind::Promotion(r) => {
            let cap = b.role_at(to).map_or(0, |v| see_value(pos, v, to));
            return cap + see_value(pos, r, to) - see_value(pos, Role::Pawn, m.from) >= threshold;
        }
        _ => return 0 >= threshold,
    };
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    swap = see_value(pos, mover, to) - swap;
    if swap <= 0 {
        return true;
    }
    occ = occ.with(to);
    let mut stm = pos.turn();
    let mut attackers = pos.attackers_with(to, occ) & occ;
    let mut res = true;
    loop {
        stm = !stm;
        attackers &= occ;
        let mine = attackers & b.by_color(stm);
        if mine.is_empty() {
            break;
        }
        res = !res;
        // Least valuable attacker (by its value once on the square).
        let mut best: Option<(i32, Role, Square)> = None;
        for sq in mine {
            let Some(r) = b.role_at(sq) else { continue };
            let v = see_value(pos, r, to);
            if best.is_none_or(|(bv, _, _)| v < bv) {
                best = Some((v, r, sq));
            }
        }
        let Some((value, role, sq)) = best else { break };
        if role == Role::King {
            // The King may only take last.
            return if (attackers & b.by_color(!stm)).any() { !res } else { res };
        }
        swap = value - swap;
        if swap < res as i32 {
            break;
        }
        occ.clear(sq);
        // X-rays revealed by removing the attacker.
        attackers = pos.attackers_with(to, occ) & occ;
    }
    res
}

// ----- the staged move picker -----

/// Score offset of the losing captures (kept apart from the winning ones).
const BAD_NOISY: i32 = -(1 << 28);
/// Quiet moves a node picks one at a time before it sorts the rest
/// ([`Worker::pick_quiet`]).
const SELECT_QUIETS: usize = 8;

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    Tt,
    GoodNoisy,
    GenQuiets,
    Killer1,
    Killer2,
    Counter,
    Quiets,
    BadNoisy,
    Done,
}

/// What the picker says about the move it returned.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Picked {
    Tt,
    GoodNoisy,
    /// Killer or counter-move.
    Refutation,
    Quiet,
    BadNoisy,
}

#[derive(Default)]
struct PickBufs {
    noisy: Vec<(i32, Move)>,
    quiets: Vec<(i32, Move)>,
}

/// A staged move picker: the TT move (tested by the rules before anything
/// is generated where that is cheap, else found by the generators), the
/// noisy generator (captures by victim and capture history, each tested
/// by SEE when it comes up), the quiet generator only when the noisy
/// moves did not cut (killers, counter-move, then by history), losing
/// captures last. Quiescence stops after the winning captures.
struct Picker {
    stage: Stage,
    bufs: PickBufs,
    tt: u32,
    tt_move: Option<Move>,
    /// The codes of the two killers and of the counter-move (0: none).
    refs: [u32; 3],
    /// Those moves, once found among the quiet moves (so legal here),
    /// kept out of the scored list.
    refutations: [Option<Move>; 3],
    /// The noisy moves are in `bufs.noisy`, scored.
    noisy_done: bool,
    noisy_cur: usize,
    quiet_cur: usize,
    /// The quiet moves before this index are in their final order.
    quiet_sorted: usize,
    /// The quiet moves are in `bufs.quiets` (perhaps not scored yet).
    quiets_done: bool,
    /// They are scored (by history).
    quiets_scored: bool,
    /// Quiescence: no quiet stages, no losing captures (when not in check).
    qsearch: bool,
    /// Set by the search (late-move pruning): no more quiet moves.
    pub skip_quiets: bool,
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

    /// `raw` (a static evaluation) with the correction history's average
    /// error at `slot` added, kept off mate scores.
    #[inline]
    fn corrected(&self, slot: usize, raw: i32) -> i32 {
        (raw + self.hist.corr[slot] / CORR_GRAIN).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Learns from a search to `depth` that found `best` where the static
    /// evaluation said `raw`: the entry at `slot` moves towards the error
    /// by a weight growing with the depth (at most 16/256 a time).
    #[inline]
    fn update_corr(&mut self, slot: usize, raw: i32, best: i32, depth: i32) {
        let w = (depth + 1).min(16);
        let target = (best - raw).clamp(-CORR_MAX / CORR_GRAIN, CORR_MAX / CORR_GRAIN) * CORR_GRAIN;
        let e = &mut self.hist.corr[slot];
        *e = ((*e * (256 - w) + target * w) / 256).clamp(-CORR_MAX, CORR_MAX);
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
    /// search steer into repeats it took for draws; §51 of strength.md).
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

    /// Piece-square keys of the moves 1 and 2 plies before `ply`.
    #[inline]
    fn cont_keys(&self, ply: usize) -> [Option<usize>; 2] {
        [self.stack[ply + STACK_OFF - 1].moved, self.stack[ply + STACK_OFF - 2].moved]
    }

    /// A quiet move's history score (main plus both continuation
    /// histories) and its piece-square key, which the continuation
    /// pruning reads again.
    #[inline]
    fn quiet_stats(&self, pos: &P, m: Move, cont: [Option<usize>; 2]) -> (i32, usize) {
        Self::quiet_stats_in(&self.hist.main[pos.turn().index()], self.cont_rows(cont), pos, m)
    }

    /// The continuation-history rows of the two earlier moves' keys (a
    /// row of zeros for a missing one, which adds nothing).
    #[inline]
    fn cont_rows(&self, cont: [Option<usize>; 2]) -> [&[i16]; 2] {
        cont.map(|k| k.map_or(&ZERO_ROW[..], |k| &self.hist.cont[k * PS..(k + 1) * PS]))
    }

    /// [`Worker::quiet_stats`] with the side to move's butterfly table and
    /// the continuation rows looked up once, for a node's whole list.
    #[inline(always)]
    fn quiet_stats_in(main: &[[i16; 64]; Role::COUNT], rows: [&[i16]; 2], pos: &P, m: Move) -> (i32, usize) {
        let role = pos.moving_role(m).unwrap_or(Role::Pawn);
        let ps = piece_square(pos.turn(), role, m.to);
        let s = main[role.index()][m.to.index()] as i32 + rows[0][ps] as i32 + rows[1][ps] as i32;
        (s, ps)
    }

    /// Whether the continuation histories of both earlier moves (1 and 2
    /// plies back) score the move with piece-square key `ps` below zero;
    /// false when either is missing.
    #[inline]
    fn cont_both_bad(&self, ps: usize, cont: [Option<usize>; 2]) -> bool {
        // A missing move's row of zeros is never below zero.
        self.cont_rows(cont).iter().all(|row| row[ps] < 0)
    }

    /// The late-move reduction, in plies, of the `count`th move searched
    /// at `depth`.
    #[inline]
    fn reduction(&self, depth: i32, count: usize) -> i32 {
        self.lmr[(depth.max(0) as usize).min(63)][count.min(LMR_MOVES - 1)] as i32
    }

    #[inline]
    fn capture_key(pos: &P, m: Move) -> usize {
        let role = pos.moving_role(m).unwrap_or(Role::Pawn);
        let victim =
            if m.kind == MoveKind::EnPassant { Role::Pawn } else { pos.board().role_at(m.to).unwrap_or(Role::Pawn) };
        piece_square(pos.turn(), role, m.to) * Role::COUNT + victim.index()
    }

    fn new_picker(&mut self, pos: &P, tt: u32, ply: usize, qsearch: bool) -> Picker {
        let mut bufs = std::mem::take(&mut self.bufs[ply]);
        bufs.noisy.clear();
        bufs.quiets.clear();
        let refs = if qsearch {
            [0; 3]
        } else {
            let c = self.stack[ply + STACK_OFF - 1].moved.map_or(0, |k| self.hist.counter[k]);
            [self.killers[ply][0], self.killers[ply][1], c]
        };
        let mut pk = Picker {
            stage: Stage::Tt,
            bufs,
            tt,
            tt_move: None,
            refs,
            refutations: [None; 3],
            noisy_done: false,
            noisy_cur: 0,
            quiet_cur: 0,
            quiet_sorted: 0,
            quiets_done: false,
            quiets_scored: false,
            qsearch,
            skip_quiets: false,
        };
        if !P::CHEAP_IS_LEGAL {
            // The TT move is legal here if the generators yield it: the
            // noisy moves are generated now, the quiet ones if need be.
            self.gen_noisy(pos, &mut pk);
        }
        pk
    }

    /// Whether quiescence leaves `m` out: a promotion to less than a
    /// Queen that takes nothing.
    #[inline]
    fn minor_push_promotion(pos: &P, m: Move) -> bool {
        matches!(m.kind, MoveKind::Promotion(r) if r != Role::Queen) && !pos.is_capture(m)
    }

    /// Generates and scores the noisy moves (`Position::noisy_moves`): by
    /// the victim, the promotion and the capture history, the captures
    /// that lose material (by SEE) put last. A move with the TT move's
    /// code is set aside as the TT move (so found legal here).
    fn gen_noisy(&self, pos: &P, pk: &mut Picker) {
        let mut list = MoveList::new();
        pos.noisy_moves(&mut list);
        for &m in list.iter() {
            if pk.qsearch && Self::minor_push_promotion(pos, m) {
                continue;
            }
            if encode_move(m) == pk.tt {
                pk.tt_move = Some(m);
                continue;
            }
            let victim = match m.kind {
                MoveKind::EnPassant => see_value(pos, Role::Pawn, m.to),
                _ => pos.board().role_at(m.to).map_or(0, |r| see_value(pos, r, m.to)),
            };
            let promo = match m.kind {
                MoveKind::Promotion(r) => see_value(pos, r, m.to),
                _ => 0,
            };
            // Whether it loses material is asked when it comes up
            // ([`Worker::pick_good_noisy`]): a cut often comes first.
            let score = 8 * (victim + promo) + self.hist.capture[Self::capture_key(pos, m)] as i32;
            pk.bufs.noisy.push((score, m));
        }
        pk.noisy_done = true;
    }

    /// The TT move, if it is legal here by the rules' own test (for
    /// positions whose test is cheap) and a move this picker plays:
    /// quiescence takes a quiet one only in check, and never a minor
    /// promotion that takes nothing (as [`Worker::gen_noisy`] and the
    /// quiet generator would find it).
    fn legal_tt(pos: &P, pk: &Picker, in_check: bool) -> Option<Move> {
        decode_move(pk.tt).filter(|&m| {
            let noisy = pos.is_capture(m) || m.promotion().is_some();
            (noisy || !pk.qsearch || in_check) && !(pk.qsearch && Self::minor_push_promotion(pos, m)) && pos.is_legal(m)
        })
    }

    /// Generates the quiet moves (`Position::quiet_moves`), unscored. The
    /// TT move, the killers and the counter-move are set aside as they are
    /// met: a quiet TT move is legal here only if it is in the list (where
    /// the rules' own test is not cheap, this is how a node learns it, and
    /// the TT move often cuts before any other quiet is wanted), and so is
    /// a killer, so their stages need not search the list, which holds
    /// hundreds of placements in Genesis.
    fn gen_quiets(&self, pos: &P, pk: &mut Picker) {
        let mut all = MoveList::new();
        pos.quiet_moves(&mut all);
        let refs = pk.refs;
        // The squares of the four codes: a move whose squares match none
        // of them is none of the four, and is pushed without being encoded.
        let squares = [pk.tt & SQUARE_MASK, refs[0] & SQUARE_MASK, refs[1] & SQUARE_MASK, refs[2] & SQUARE_MASK];
        for &m in all.iter() {
            if !squares.contains(&encode_squares(m)) {
                pk.bufs.quiets.push((0, m));
                continue;
            }
            let code = encode_move(m);
            if code == pk.tt {
                // Found here, or already by the rules' own test.
                pk.tt_move = Some(m);
                continue;
            }
            // The first of the three with this code (the counter-move may
            // be a killer too).
            if let Some(i) = refs.iter().position(|&r| r == code) {
                pk.refutations[i] = Some(m);
                continue;
            }
            pk.bufs.quiets.push((0, m));
        }
        pk.quiets_done = true;
    }

    /// Scores the quiet moves by history (once, when the first of them is
    /// wanted after the refutations), and brings the best to the front on
    /// the way, so the first pick needs no pass of its own.
    fn score_quiets(&self, pos: &P, pk: &mut Picker, ply: usize) {
        let rows = self.cont_rows(self.cont_keys(ply));
        let main = &self.hist.main[pos.turn().index()];
        let list = &mut pk.bufs.quiets[pk.quiet_cur..];
        let (mut best, mut best_score) = (0, i32::MIN);
        for (i, e) in list.iter_mut().enumerate() {
            e.0 = Self::quiet_stats_in(main, rows, pos, e.1).0;
            if e.0 > best_score {
                (best, best_score) = (i, e.0);
            }
        }
        if !list.is_empty() {
            list[..=best].rotate_right(1);
            pk.quiet_sorted = pk.quiet_cur + 1;
        }
        pk.quiets_scored = true;
    }

    /// The quiet move of code `code` if it is legal here, by the rules'
    /// own test (for positions whose test is cheap).
    fn legal_quiet(pos: &P, code: u32) -> Option<Move> {
        decode_move(code).filter(|&m| !pos.is_capture(m) && m.promotion().is_none() && pos.is_legal(m))
    }

    /// Killer `i` (0 or 1) or the counter-move (2), if it is a legal quiet
    /// move here, not the TT move and not one of the earlier two: tested
    /// by the rules where that is cheap, else looked up in the quiet list.
    fn refutation(pos: &P, pk: &Picker, i: usize) -> Option<Move> {
        if !P::CHEAP_IS_LEGAL {
            return pk.refutations[i];
        }
        let code = pk.refs[i];
        if code == 0 || code == pk.tt || pk.refs[..i].contains(&code) {
            return None;
        }
        Self::legal_quiet(pos, code)
    }

    /// The next quiet move by score. The first [`SELECT_QUIETS`] are
    /// picked one by one (a cut usually comes among them; the first was
    /// found by [`Worker::score_quiets`]); after them the
    /// moves are ordered a block at a time: the best of the rest are
    /// selected and sorted, a block as long as the moves already taken, so
    /// a Genesis node's hundreds of placements are not all sorted when
    /// late-move pruning will take only the first few dozen.
    fn pick_quiet(pk: &mut Picker) -> Option<Move> {
        let (cur, list) = (pk.quiet_cur, &mut pk.bufs.quiets);
        if cur >= list.len() {
            return None;
        }
        if cur < pk.quiet_sorted {
            // In place already.
        } else if cur < SELECT_QUIETS {
            let (mut best, mut best_score) = (cur, list[cur].0);
            for (j, &(s, _)) in list.iter().enumerate().skip(cur + 1) {
                if s > best_score {
                    (best, best_score) = (j, s);
                }
            }
            list[cur..=best].rotate_right(1);
        } else {
            let rest = &mut list[cur..];
            let block = cur.min(rest.len());
            if block < rest.len() {
                rest.select_nth_unstable_by_key(block - 1, |&(s, _)| std::cmp::Reverse(s));
            }
            rest[..block].sort_unstable_by_key(|&(s, _)| std::cmp::Reverse(s));
            pk.quiet_sorted = cur + block;
        }
        pk.quiet_cur += 1;
        Some(list[cur].1)
    }

    /// The index of the best remaining noisy move (the first of equals).
    #[inline]
    fn best_noisy(pk: &Picker) -> Option<usize> {
        let list = &pk.bufs.noisy;
        if pk.noisy_cur >= list.len() {
            return None;
        }
        let mut best = pk.noisy_cur;
        for j in pk.noisy_cur + 1..list.len() {
            if list[j].0 > list[best].0 {
                best = j;
            }
        }
        Some(best)
    }

    /// Takes the noisy move at `best` out of the remaining ones.
    #[inline]
    fn take_noisy(pk: &mut Picker, best: usize) -> Move {
        pk.bufs.noisy.swap(pk.noisy_cur, best);
        let m = pk.bufs.noisy[pk.noisy_cur].1;
        pk.noisy_cur += 1;
        m
    }

    /// The best remaining noisy move that does not lose material (SEE ≥ 0).
    /// A move is tested when it comes up: one that loses is marked with
    /// [`BAD_NOISY`] and left for [`Worker::pick_bad_noisy`], so the moves
    /// come in the order that testing them all first would give.
    fn pick_good_noisy(pos: &P, pk: &mut Picker) -> Option<Move> {
        loop {
            let best = Self::best_noisy(pk)?;
            let (score, m) = pk.bufs.noisy[best];
            if score < BAD_NOISY / 2 {
                return None;
            }
            if see_ge(pos, m, 0) {
                return Some(Self::take_noisy(pk, best));
            }
            pk.bufs.noisy[best].0 = score + BAD_NOISY;
        }
    }

    /// The best remaining noisy move: after [`Worker::pick_good_noisy`],
    /// the ones that lose material.
    fn pick_bad_noisy(pk: &mut Picker) -> Option<Move> {
        let best = Self::best_noisy(pk)?;
        Some(Self::take_noisy(pk, best))
    }

    fn next_move(&mut self, pos: &P, pk: &mut Picker, ply: usize, in_check: bool) -> Option<(Move, Picked)> {
        loop {
            match pk.stage {
                Stage::Tt => {
                    pk.stage = Stage::GoodNoisy;
                    if P::CHEAP_IS_LEGAL {
                        // Tested by the rules before anything is generated:
                        // when it cuts, nothing is.
                        if pk.tt != 0 {
                            pk.tt_move = Self::legal_tt(pos, pk, in_check);
                        }
                    } else if pk.tt_move.is_none() && pk.tt != 0 && (!pk.qsearch || in_check) {
                        // Not a noisy move: the quiet list tells whether
                        // the TT move is legal here.
                        self.gen_quiets(pos, pk);
                    }
                    if let Some(m) = pk.tt_move {
                        return Some((m, Picked::Tt));
                    }
                }
                Stage::GoodNoisy => {
                    if !pk.noisy_done {
                        self.gen_noisy(pos, pk);
                    }
                    if let Some(m) = Self::pick_good_noisy(pos, pk) {
                        return Some((m, Picked::GoodNoisy));
                    }
                    pk.stage = if pk.qsearch && !in_check {
                        Stage::Done
                    } else if P::CHEAP_IS_LEGAL && !pk.qsearch {
                        // The refutations are tested one by one; the quiets
                        // are generated only if none of them cuts.
                        Stage::Killer1
                    } else {
                        Stage::GenQuiets
                    };
                }
                Stage::GenQuiets => {
                    if !pk.quiets_done {
                        self.gen_quiets(pos, pk);
                    }
                    pk.stage = if pk.qsearch || P::CHEAP_IS_LEGAL { Stage::Quiets } else { Stage::Killer1 };
                }
                Stage::Killer1 => {
                    pk.stage = Stage::Killer2;
                    if !pk.skip_quiets {
                        if let Some(m) = Self::refutation(pos, pk, 0) {
                            return Some((m, Picked::Refutation));
                        }
                    }
                }
                Stage::Killer2 => {
                    pk.stage = Stage::Counter;
                    if !pk.skip_quiets {
                        if let Some(m) = Self::refutation(pos, pk, 1) {
                            return Some((m, Picked::Refutation));
                        }
                    }
                }
                Stage::Counter => {
                    pk.stage = if P::CHEAP_IS_LEGAL { Stage::GenQuiets } else { Stage::Quiets };
                    if !pk.skip_quiets {
                        if let Some(m) = Self::refutation(pos, pk, 2) {
                            return Some((m, Picked::Refutation));
                        }
                    }
                }
                Stage::Quiets => {
                    if !pk.skip_quiets {
                        if !pk.quiets_scored {
                            self.score_quiets(pos, pk, ply);
                        }
                        if let Some(m) = Self::pick_quiet(pk) {
                            return Some((m, Picked::Quiet));
                        }
                    }
                    pk.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if let Some(m) = Self::pick_bad_noisy(pk) {
                        return Some((m, Picked::BadNoisy));
                    }
                    pk.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    fn end_picker(&mut self, pk: Picker, ply: usize) {
        self.bufs[ply] = pk.bufs;
    }

    fn update_quiet_stats(&mut self, pos: &P, best: Move, quiets: &[Move], depth: i32, ply: usize) {
        let us = pos.turn();
        let code = encode_move(best);
        if self.killers[ply][0] != code {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = code;
        }
        let cont = self.cont_keys(ply);
        if let Some(k) = cont[0] {
            self.hist.counter[k] = code;
        }
        let bonus = stat_bonus(depth);
        let hist = &mut self.hist;
        let mut upd = |m: Move, b: i32| {
            let role = pos.moving_role(m).unwrap_or(Role::Pawn);
            gravity(&mut hist.main[us.index()][role.index()][m.to.index()], b);
            let ps = piece_square(us, role, m.to);
            for k in cont.into_iter().flatten() {
                gravity(&mut hist.cont[k * PS + ps], b);
            }
        };
        upd(best, bonus);
        for &q in quiets {
            if q != best {
                upd(q, -bonus);
            }
        }
    }

    /// A node where every move failed low: the quiet move that led to it
    /// refuted them all, so its histories (the butterfly one at half the
    /// bonus, the continuation ones of the two moves before it) gain as a
    /// cut-off move's would (Stockfish's prior-countermove bonus).
    fn reward_prior_quiet(&mut self, pos: &P, depth: i32, ply: usize) {
        let sp = ply + STACK_OFF;
        if !self.stack[sp - 1].quiet_move {
            return;
        }
        let Some(prev) = self.stack[sp - 1].moved else { return };
        let bonus = stat_bonus(depth);
        // `prev` is `piece_square(them, role, to)`.
        let (role, to) = ((prev / 64) % Role::COUNT, prev % 64);
        gravity(&mut self.hist.main[(!pos.turn()).index()][role][to], bonus / 2);
        // The continuation keys of the move one ply up: the two before it.
        for k in self.cont_keys(ply - 1).into_iter().flatten() {
            gravity(&mut self.hist.cont[k * PS + prev], bonus);
        }
    }

    fn update_capture_stats(&mut self, pos: &P, best: Option<Move>, captures: &[Move], depth: i32) {
        let bonus = stat_bonus(depth);
        if let Some(b) = best {
            gravity(&mut self.hist.capture[Self::capture_key(pos, b)], bonus);
        }
        for &c in captures {
            if Some(c) != best {
                gravity(&mut self.hist.capture[Self::capture_key(pos, c)], -bonus);
            }
        }
    }

    #[inline]
    fn moved_key(pos: &P, m: Move) -> Option<usize> {
        pos.moving_role(m).map(|r| piece_square(pos.turn(), r, m.to))
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
    /// (no bonus after a capture, as in Stockfish) lost in three 800-game
    /// matches at 10,000 nodes (−10.4, −16.1, −10.4), and marking every
    /// ProbCut capture quiet did not win (−6.1; §44 of strength.md).
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
            // bound says it is the nearer guess (§59 of strength.md). The
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
            // continuation histories do not favour; not in Genesis: §61 of
            // strength.md).
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
                    // Stockfish's; §67 of strength.md).
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
        // (§40 of strength.md).
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
            // (Stockfish's; §68 of strength.md: it lost until quiescence's
            // fail-low floor, §67), in the variants where that wins;
            // razoring and the move loop's pruning from the evaluation.
            let eval = if excluded == 0 && self.table_eval { nearer_guess(static_eval, tt, ply) } else { static_eval };
            // Reverse futility pruning (to depth 8 with 75 a ply: §44 of
            // strength.md), only where the table has no move or a capture
            // (Stockfish's: a quiet table move is a plan the evaluation
            // may not see; §69).
            if depth <= 8
                && eval - param::rfp_margin() * depth + if improving { param::rfp_improving() } else { 0 } >= beta
                && eval.abs() < MATE_BOUND
                && tt_move_is_capture_or_none(pos, tt_move)
            {
                return eval;
            }
            // Razoring, at every depth, with Stockfish's quadratic margin
            // (§65 of strength.md; depth ≤ 2 and 300·depth until then).
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
        // the TT move is reduced instead. From depth 6 (§63 of
        // strength.md: +19.8 Elo at 10,000 nodes over depth 8).
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
                // kept, so a quiet mate is not lost (§35 of strength.md).
                if quiet && (!pv_node || placement) {
                    // The depth a late-move reduction would leave this
                    // move: it sets the margins of the pruning below.
                    let lmr_depth = (depth - 1 - self.reduction(depth, searched)).max(0);
                    // Late move pruning: the rest of the quiets too, at
                    // every depth. A board move follows Stockfish's limit
                    // over every move seen, pruned or not (§42 of
                    // strength.md); a Genesis placement the older, looser
                    // one over the moves searched (a node can hold
                    // hundreds of them; §32. Stockfish's limit for
                    // placements was not kept in §34, and lost with other
                    // changes in §36).
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
                // at the root (§61 of strength.md); in Genesis, where that
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
                // §59 of strength.md), not from twice the iteration's depth
                // on (§68); not again when that is no deeper than the
                // reduced search.
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

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_rules::{AnyPosition, Chess, Genesis, MagicRing, Position, RuleOptions, Variant};

    fn with_worker<P: Evaluate>(history: &[u64], f: impl FnOnce(&mut Worker<'_, '_, P>)) {
        with_worker_capped(1, None, history, f);
    }

    /// [`with_worker`] with a table of `hash_mb` and a node limit.
    fn with_worker_capped<P: Evaluate>(
        hash_mb: usize,
        max_nodes: Option<u64>,
        history: &[u64],
        f: impl FnOnce(&mut Worker<'_, '_, P>),
    ) {
        let tt = TranspositionTable::new(hash_mb);
        let (user_stop, pondering) = (AtomicBool::new(false), AtomicBool::new(false));
        let shared = Shared {
            tt: &tt,
            user_stop: &user_stop,
            stop: AtomicBool::new(false),
            pondering: &pondering,
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            clock_start: std::sync::Mutex::new(None),
            soft: None,
            hard: None,
            max_nodes,
            net: None,
            hybrid: 0,
            scale: 100,
        };
        let mut w = Worker::<P>::new(&shared, 0, history, Histories::default());
        f(&mut w);
    }

    use crate::SplitMix as Rng;

    /// The staged picker yields every legal move exactly once, the TT move
    /// first when it is legal, whatever the TT move, killers and counter
    /// codes (legal or not, equal to each other or not), in every variant,
    /// and the quiets it picks by score in falling order of their history
    /// (random here); quiescence (not in check) yields exactly the captures
    /// and queen promotions that SEE does not call losing.
    fn picker_is_a_permutation<P: Evaluate>(start: P, seed: u64) {
        let mut rng = Rng(seed);
        let mut pos = start;
        with_worker::<P>(&[], |w| {
            for v in w.hist.main.iter_mut().flatten().flatten() {
                *v = (rng.next() % 2001) as i16 - 1000;
            }
            for _ in 0..150 {
                let legal = pos.legal_move_list();
                if legal.is_empty() {
                    break;
                }
                let pick = |rng: &mut Rng| encode_move(legal[(rng.next() % legal.len() as u64) as usize]);
                let tt = match rng.next() % 3 {
                    0 => 0,
                    1 => pick(&mut rng),
                    _ => (rng.next() & 0xFFFFF) as u32,
                };
                let k0 = if rng.next().is_multiple_of(4) { tt } else { pick(&mut rng) };
                w.killers[3] = [k0, (rng.next() & 0xFFFFF) as u32];
                let mut pk = w.new_picker(&pos, tt, 3, false);
                pk.refs[2] = match rng.next() % 3 {
                    0 => k0,
                    1 => pick(&mut rng),
                    _ => 0,
                };
                let in_check = pos.is_check();
                let cont = w.cont_keys(3);
                let counter = pk.refs[2];
                let mut got = Vec::new();
                let mut last_quiet = i32::MAX;
                while let Some((m, picked)) = w.next_move(&pos, &mut pk, 3, in_check) {
                    if picked == Picked::Quiet {
                        let s = w.quiet_stats(&pos, m, cont).0;
                        assert!(s <= last_quiet, "quiet {m} ({s}) after one scored {last_quiet} at {}", pos.fen());
                        last_quiet = s;
                    }
                    // A legal quiet killer or counter-move comes as a
                    // refutation (unless it is the TT move).
                    let code = encode_move(m);
                    if code != tt && (code == k0 || code == counter) && !pos.is_capture(m) && m.promotion().is_none() {
                        assert_eq!(picked, Picked::Refutation, "{m} at {}", pos.fen());
                    }
                    got.push(m);
                }
                w.end_picker(pk, 3);
                if legal.iter().any(|&m| encode_move(m) == tt) {
                    assert_eq!(encode_move(got[0]), tt, "TT move first at {}", pos.fen());
                }
                let mut a: Vec<String> = got.iter().map(|m| m.to_string()).collect();
                let mut b: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
                a.sort();
                b.sort();
                assert_eq!(a, b, "picker at {}", pos.fen());
                if !in_check {
                    let mut pk = w.new_picker(&pos, tt, 3, true);
                    let mut q = Vec::new();
                    while let Some((m, _)) = w.next_move(&pos, &mut pk, 3, false) {
                        q.push(m.to_string());
                    }
                    w.end_picker(pk, 3);
                    let mut want: Vec<String> = legal
                        .iter()
                        .filter(|&&m| {
                            (pos.is_capture(m) || m.promotion() == Some(Role::Queen))
                                && (see_ge(&pos, m, 0) || encode_move(m) == tt)
                        })
                        .map(|m| m.to_string())
                        .collect();
                    q.sort();
                    want.sort();
                    assert_eq!(q, want, "quiescence picker at {}", pos.fen());
                }
                pos.play_unchecked(legal[(rng.next() % legal.len() as u64) as usize]);
            }
        });
    }

    #[test]
    fn staged_picker_yields_every_legal_move_once() {
        let opts = RuleOptions::default();
        for (i, v) in Variant::ALL.iter().enumerate() {
            match AnyPosition::new(*v, &opts) {
                AnyPosition::Chess(p) => picker_is_a_permutation(p, 1 + i as u64),
                AnyPosition::Genie(p) => picker_is_a_permutation(p, 1 + i as u64),
                AnyPosition::Genesis(p) => picker_is_a_permutation(p, 1 + i as u64),
                AnyPosition::Clown(p) => picker_is_a_permutation(p, 1 + i as u64),
                AnyPosition::MagicRing(p) => picker_is_a_permutation(p, 1 + i as u64),
            }
        }
    }

    /// Repetition: a repeat of a position of the search's own path is a
    /// draw; one of the root or of a position before it only when it is
    /// the third occurrence; never across a null move; and a long game of
    /// other positions costs no scan (the count filter is zero).
    #[test]
    fn repetition_inside_the_search_or_threefold_and_null_floor() {
        let pos = Genesis::new();
        let h = pos.hash();
        let mut history: Vec<u64> = (0..6000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1 << 63).collect();
        with_worker::<Genesis>(&history, |w| {
            assert!(!w.is_repetition(&pos, 10));
            assert_eq!(
                w.rep.0[RepFilter::slot(h)],
                history.iter().filter(|&&x| x & 0xFFFF == h & 0xFFFF).count() as u16
            );
        });
        // `pos` occurred 4 plies back.
        history.extend([h, 1, 2, 3]);
        with_worker::<Genesis>(&history, |w| {
            // At ply 5 or deeper that occurrence is inside the search.
            assert!(w.is_repetition(&pos, 5));
            assert!(w.is_repetition(&pos, 60));
            // At ply 4 it is the root, below that a position of the game:
            // a second occurrence, not a draw.
            for ply in 0..=4 {
                assert!(!w.is_repetition(&pos, ply), "ply {ply}");
            }
            // A null move two plies back: the earlier position is not a repeat.
            w.null_floor = w.hashes.len() - 2;
            assert!(!w.is_repetition(&pos, 5));
            w.null_floor = 0;
            w.pop_hash();
            w.pop_hash();
            w.push_hash(7);
            w.push_hash(8);
            assert!(w.is_repetition(&pos, 5));
            w.pop_hash();
            w.pop_hash();
            w.pop_hash();
            w.pop_hash();
            w.pop_hash();
            // The occurrence left the path: its filter count is back to zero.
            assert!(!w.is_repetition(&pos, 5));
        });
        // Twice before: `pos` is the game's third occurrence, a draw at any
        // ply, unless a null move hides the older one.
        history.extend([h, 4, 5, 6]);
        with_worker::<Genesis>(&history, |w| {
            for ply in 0..=10 {
                assert!(w.is_repetition(&pos, ply), "ply {ply}");
            }
            w.null_floor = w.hashes.len() - 6;
            assert!(!w.is_repetition(&pos, 4));
            assert!(w.is_repetition(&pos, 5));
        });
    }

    /// Quiescence's first ply tries the quiet checks of a variant that lists
    /// them: in this Genesis position the fork Nc7+ wins the Queen, which
    /// captures alone do not see (White, a Knight and a Pawn against a
    /// Queen, stands below -3 on captures only). A variant without the
    /// list (chess) is unchanged.
    #[test]
    fn quiescence_in_check_leaves_out_quiet_evasions_with_bad_histories_after_the_first() {
        // The rook on a1 checks; the King's three moves off the first rank
        // are the only evasions, all quiet.
        let pos = Chess::from_fen("4k3/8/8/8/8/8/8/r5K1 w - - 0 1").unwrap();
        assert!(pos.is_check());
        let run = |h: i16| {
            let mut out = (0, 0);
            with_worker::<Chess>(&[], |w| {
                for row in w.hist.main[Color::White.index()].iter_mut() {
                    row.fill(h);
                }
                out = (w.qsearch(&pos, -INF, INF, 0, true), w.nodes);
            });
            out
        };
        let ((bad, bad_nodes), (good, good_nodes)) = (run(-1000), run(1000));
        // The first evasion is always searched, so no mate is read.
        assert!(bad > -MATE_BOUND && good > -MATE_BOUND, "{bad} {good}");
        // With bad histories the other two are left out; with good ones
        // all three are searched.
        assert_eq!((bad_nodes, good_nodes), (2, 4));
    }

    #[test]
    fn quiescence_tries_quiet_checks_on_its_first_ply() {
        let pos = Genesis::from_fen("q3k3/8/8/1N6/8/8/7P/6K1 w - - 0 1").unwrap();
        let mut checks = MoveList::new();
        assert!(pos.quiet_checks(&mut checks));
        assert!(checks.iter().any(|m| m.to_string() == "b5c7"), "{checks:?}");
        with_worker::<Genesis>(&[], |w| {
            let captures_only = w.qsearch(&pos, -INF, INF, 0, false);
            let with_checks = w.qsearch(&pos, -INF, INF, 0, true);
            assert!(captures_only < -300, "{captures_only}");
            assert!(with_checks > 100, "{with_checks}");
        });
        let chess = Chess::from_fen("q3k3/8/8/1N6/8/8/7P/6K1 w - - 0 1").unwrap();
        assert!(!chess.quiet_checks(&mut MoveList::new()));
        with_worker::<Chess>(&[], |w| {
            assert_eq!(w.qsearch(&chess, -INF, INF, 0, true), w.qsearch(&chess, -INF, INF, 0, false));
        });
    }

    /// Quiescence starts from the table's score instead of the evaluation
    /// where its bound says it is nearer (a lower bound above the
    /// evaluation, an upper one below it), and never from a bound on the
    /// other side or a mate score.
    #[test]
    fn quiescence_starts_from_the_tables_score_where_its_bound_allows() {
        // No capture and no check for White: quiescence is the stand-pat.
        let pos = Chess::from_fen("4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1").unwrap();
        with_worker::<Chess>(&[], |w| {
            let eval = w.qsearch(&pos, -INF, INF, 0, false);
            let with = |w: &mut Worker<'_, '_, Chess>, score: i32, bound: Bound| {
                w.shared.tt.clear();
                w.shared.tt.store(pos.hash(), TtEntry { mv: 0, score, eval, depth: 1, bound });
                w.qsearch(&pos, -INF, INF, 0, false)
            };
            assert_eq!(with(w, eval + 80, Bound::Lower), eval + 80);
            assert_eq!(with(w, eval - 80, Bound::Upper), eval - 80);
            // A bound on the wrong side of the evaluation says nothing.
            assert_eq!(with(w, eval - 80, Bound::Lower), eval);
            assert_eq!(with(w, eval + 80, Bound::Upper), eval);
            assert_eq!(with(w, MATE_BOUND + 5, Bound::Lower), eval);
        });
    }

    /// A capture delta pruning skips still sets the fail-low floor: the
    /// node returns at least the stand-pat plus the victim plus the
    /// margin, never the bare stand-pat (§67 of strength.md).
    #[test]
    fn quiescence_fails_low_no_lower_than_a_pruned_captures_margin() {
        // White a queen down; e4xd5 wins an undefended pawn, far too
        // little to reach alpha = 0.
        let pos = Chess::from_fen("7q/4k3/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
        with_worker::<Chess>(&[], |w| {
            let raw = w.static_eval(&pos, 0);
            let stand_pat = w.corrected(corr_slot(&pos), raw);
            let victim = pos.piece_value(Role::Pawn, Square::D5);
            assert!(stand_pat + victim + param::qs_delta() < 0, "{stand_pat}");
            assert_eq!(w.qsearch(&pos, 0, 1, 0, false), stand_pat + victim + param::qs_delta());
        });
    }

    /// The pruning's guess: the table's score where its bound says it is
    /// nearer than the evaluation, the evaluation otherwise (a bound on
    /// the other side, an exact or empty entry, a mate score, no entry).
    #[test]
    fn the_nearer_guess_takes_the_tables_bound_only_on_its_side() {
        let entry = |score: i32, bound: Bound| Some(TtEntry { mv: 0, score, eval: 0, depth: 4, bound });
        assert_eq!(nearer_guess(30, entry(90, Bound::Lower), 3), 90);
        assert_eq!(nearer_guess(30, entry(-50, Bound::Upper), 3), -50);
        assert_eq!(nearer_guess(30, entry(-50, Bound::Lower), 3), 30);
        assert_eq!(nearer_guess(30, entry(90, Bound::Upper), 3), 30);
        assert_eq!(nearer_guess(30, entry(90, Bound::Exact), 3), 30);
        assert_eq!(nearer_guess(30, entry(90, Bound::None), 3), 30);
        assert_eq!(nearer_guess(30, entry(MATE_BOUND + 10, Bound::Lower), 3), 30);
        assert_eq!(nearer_guess(30, entry(-MATE_BOUND - 10, Bound::Upper), 3), 30);
        assert_eq!(nearer_guess(30, None, 3), 30);
    }

    /// Magic Ring's start position, searched to depth 10 with the table's
    /// score in the pruning, stays a search of depth 10. Without the
    /// limit on re-searches a ply deeper, reduced moves searched again at
    /// their parent's depth ply after ply took it a hundred plies down and
    /// past 3 million nodes in that iteration (§68 of strength.md); with
    /// it the whole search takes about 200,000 nodes. (Magic Ring
    /// itself keeps the table's score out of its pruning.)
    #[test]
    fn magic_ring_search_does_not_descend_past_twice_its_depth() {
        let opts = RuleOptions::default();
        let start = Variant::MagicRing.start_fen(&opts);
        let Ok(AnyPosition::MagicRing(pos)) = AnyPosition::from_fen(Variant::MagicRing, &start, &opts) else {
            panic!("Magic Ring's start position");
        };
        with_worker_capped::<MagicRing>(16, Some(2_000_000), &[], |w| {
            w.table_eval = true;
            w.root_moves = pos.legal_move_list().iter().map(|&mv| RootMove::new(mv)).collect();
            let (_, depth) = crate::iterate(w, &pos, 10, 1, &crate::Limits::default(), &mut |_| {}, true);
            assert_eq!(depth, 10, "stopped by the node limit after {} nodes", w.nodes);
        });
    }

    /// The singular test runs from `SINGULAR_DEPTH` (6) on: with a TT
    /// lower bound from depth − 3 whose margin, `ttScore − 2·depth`, is at
    /// or above beta, and the other moves' reduced search clearing that
    /// margin too (every move of the start position scores about level),
    /// the node is cut by the multi-cut and returns the margin itself; a
    /// ply shallower there is no singular test, and the search returns
    /// the position's own score.
    #[test]
    fn singular_test_runs_from_depth_6_and_multi_cuts() {
        let pos = Chess::new();
        let tt_score = -300;
        let search = |depth: i32| {
            let mut v = 0;
            with_worker::<Chess>(&[], |w| {
                let mv = encode_move(Move::new(Square::E2, Square::E4, MoveKind::DoublePush));
                let eval = w.static_eval(&pos, 1);
                let entry = TtEntry { mv, score: tt_score, eval, depth: depth - 3, bound: Bound::Lower };
                w.shared.tt.store(pos.hash(), entry);
                // No null move here (it would cut first).
                w.stack[1 + STACK_OFF].excluded_null = true;
                v = w.search(&pos, depth, -351, -350, 1, true);
            });
            v
        };
        assert_eq!(search(SINGULAR_DEPTH), tt_score - 2 * SINGULAR_DEPTH, "multi-cut at depth 6");
        assert_eq!(search(SINGULAR_DEPTH + 2), tt_score - 2 * (SINGULAR_DEPTH + 2), "and deeper");
        let below = search(SINGULAR_DEPTH - 1);
        assert!(below > -300, "no singular test at depth 5: the search's own score, {below}");
    }

    /// Continuation-history pruning asks both earlier moves: a quiet is
    /// called bad only when the entries of the moves 1 and 2 plies back
    /// are both below zero, never when either move is missing.
    #[test]
    fn continuation_pruning_needs_both_histories_below_zero() {
        let pos = Chess::new();
        let m = Move::normal(Square::G1, Square::F3);
        let ps = piece_square(Color::White, Role::Knight, Square::F3);
        let (k1, k2) =
            (piece_square(Color::Black, Role::Pawn, Square::E5), piece_square(Color::White, Role::Pawn, Square::E4));
        with_worker::<Chess>(&[], |w| {
            assert_eq!(w.quiet_stats(&pos, m, [None, None]).1, ps, "the key the pruning reads");
            assert!(!w.cont_both_bad(ps, [Some(k1), Some(k2)]), "nothing learnt yet");
            w.hist.cont[k1 * PS + ps] = -1;
            assert!(!w.cont_both_bad(ps, [Some(k1), Some(k2)]), "one below zero");
            assert!(!w.cont_both_bad(ps, [Some(k1), None]), "the second move is missing");
            w.hist.cont[k2 * PS + ps] = -1;
            assert!(w.cont_both_bad(ps, [Some(k1), Some(k2)]), "both below zero");
            assert!(!w.cont_both_bad(ps, [None, Some(k2)]), "the first move is missing");
            let other = w.quiet_stats(&pos, Move::normal(Square::B1, Square::C3), [None, None]).1;
            assert!(!w.cont_both_bad(other, [Some(k1), Some(k2)]), "another move's entries");
        });
    }

    /// A node that fails low rewards the quiet move that led to it: its
    /// continuation entries under the two moves before it by the bonus,
    /// its butterfly entry (the mover's colour) by half; nothing for a
    /// capture or a null move.
    #[test]
    fn a_fail_low_rewards_the_quiet_move_before_it() {
        // After 1. e4 e5 2. Nf3: Black to move, White's Nf3 led here.
        let pos = Chess::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2").unwrap();
        let prev = piece_square(Color::White, Role::Knight, Square::F3);
        let (k1, k2) =
            (piece_square(Color::Black, Role::Pawn, Square::E5), piece_square(Color::White, Role::Pawn, Square::E4));
        with_worker::<Chess>(&[], |w| {
            let (ply, depth) = (3, 5);
            let sp = ply + STACK_OFF;
            w.stack[sp - 1].moved = Some(prev);
            w.stack[sp - 2].moved = Some(k1);
            w.stack[sp - 3].moved = Some(k2);
            w.stack[sp - 1].quiet_move = false;
            w.reward_prior_quiet(&pos, depth, ply);
            assert_eq!(w.hist.cont[k1 * PS + prev], 0, "a capture is not rewarded");
            w.stack[sp - 1].quiet_move = true;
            w.reward_prior_quiet(&pos, depth, ply);
            let bonus = 150 * depth - 100;
            assert_eq!(w.hist.cont[k1 * PS + prev] as i32, bonus);
            assert_eq!(w.hist.cont[k2 * PS + prev] as i32, bonus);
            assert_eq!(w.hist.main[Color::White.index()][Role::Knight.index()][Square::F3.index()] as i32, bonus / 2);
            assert_eq!(w.hist.main[Color::Black.index()][Role::Knight.index()][Square::F3.index()], 0);
            w.stack[sp - 1].moved = None;
            w.reward_prior_quiet(&pos, depth, ply);
            assert_eq!(w.hist.cont[k1 * PS + prev] as i32, bonus, "a null move: nothing");
        });
    }

    /// Reverse futility: Kiwipete far above beta returns the evaluation
    /// at once, unless the table's move for it is quiet (§69).
    #[test]
    fn reverse_futility_waits_for_a_quiet_table_move() {
        let pos = Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        let (ply, depth) = (1, 2);
        let mut eval = 0;
        with_worker::<Chess>(&[], |w| eval = w.static_eval(&pos, ply));
        let beta = eval - 800;
        let run = |tt_move: Option<&str>| {
            let mut got = (0, 0);
            with_worker::<Chess>(&[], |w| {
                if let Some(uci) = tt_move {
                    let m = pos.parse_uci(uci).unwrap();
                    // Too shallow to cut, an exact bound (so the guess
                    // stays the evaluation): only its move is read.
                    let e = TtEntry { mv: encode_move(m), score: 0, eval, depth: 0, bound: Bound::Exact };
                    w.shared.tt.store(pos.hash(), e);
                }
                got = (w.search(&pos, depth, beta - 1, beta, ply, true), w.nodes);
            });
            got
        };
        assert!(
            tt_move_is_capture_or_none(&pos, 0) && !tt_move_is_capture_or_none(&pos, (1 << 20) - 1),
            "no move: pruned; an undecodable code: not"
        );
        assert_eq!(run(None), (eval, 1), "no table move: pruned");
        assert_eq!(run(Some("e2a6")), (eval, 1), "a capture: pruned");
        let (_, nodes) = run(Some("a2a3"));
        assert!(nodes > 1, "a quiet table move: the moves are searched");
    }

    /// Razoring: at any depth, a node whose static evaluation lies more
    /// than `450 + 250·depth²` below alpha returns quiescence's fail-low
    /// score, having searched nothing else; just inside the margin it
    /// searches its moves (another score or node count).
    #[test]
    fn razoring_asks_quiescence_beyond_its_margin_at_any_depth() {
        assert_eq!((razor_margin(1), razor_margin(2), razor_margin(3)), (700, 1450, 2700));
        // Kiwipete: many moves, captures on both sides.
        let pos = Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        let ply = 1;
        let mut eval = 0;
        with_worker::<Chess>(&[], |w| eval = w.static_eval(&pos, ply));
        for depth in [1, 2, 3, 5] {
            let run = |alpha: i32| {
                let (mut q, mut search) = ((0, 0), (0, 0));
                with_worker::<Chess>(&[], |w| q = (w.qsearch(&pos, alpha, alpha + 1, ply, true), w.nodes));
                with_worker::<Chess>(&[], |w| search = (w.search(&pos, depth, alpha, alpha + 1, ply, true), w.nodes));
                (q, search)
            };
            let ((qv, qn), got) = run(eval + razor_margin(depth) + 1);
            assert_eq!(got, (qv, qn + 1), "depth {depth}: razored, quiescence's score and nodes");
            let ((qv, qn), got) = run(eval + razor_margin(depth) - 1);
            assert_ne!(got, (qv, qn + 1), "depth {depth}: inside the margin the moves are searched");
        }
    }

    /// Hindsight depth: a ply more after a reduction of 3 where the
    /// opponent did not get worse, a ply less after one of 2 where both
    /// evaluations stand well; in the search, a node so reduced searches
    /// exactly as the node at the adjusted depth with no reduction (same
    /// nodes, same score), and the parent's mark is cleared after the
    /// reduced search.
    #[test]
    fn hindsight_adjusts_a_reduced_nodes_depth() {
        assert_eq!(hindsight_depth(6, 3, -50, 40), 7, "opponent not worse: deeper");
        assert_eq!(hindsight_depth(6, 3, -40, 40), 7, "equal counts as not worse");
        assert_eq!(hindsight_depth(6, 3, 0, 40), 6, "opponent worse, sum under 175");
        assert_eq!(hindsight_depth(6, 2, -50, 40), 6, "a reduction of 2 never deepens");
        assert_eq!(hindsight_depth(6, 2, 100, 100), 5, "both stand well: shallower");
        assert_eq!(hindsight_depth(6, 2, 100, 75), 6, "a sum of 175 is not over it");
        assert_eq!(hindsight_depth(1, 2, 100, 100), 1, "never below depth 1");
        assert_eq!(hindsight_depth(6, 1, 100, 100), 6, "a reduction of 1 changes nothing");
        assert_eq!(hindsight_depth(6, 0, -500, 40), 6, "no reduction, no hindsight");

        let pos = Chess::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
        let (ply, sp) = (1, 1 + STACK_OFF);
        let run = |depth: i32, reduction: i32, parent: &dyn Fn(i32) -> i32| {
            let mut out = (0, 0);
            with_worker::<Chess>(&[], |w| {
                let eval = w.static_eval(&pos, ply);
                w.stack[sp - 1].static_eval = parent(eval);
                w.stack[sp - 1].reduction = reduction;
                let v = w.search(&pos, depth, -1, 0, ply, true);
                out = (v, w.nodes);
            });
            out
        };
        let worse_not = |e: i32| -e - 100;
        assert_eq!(run(5, 3, &worse_not), run(6, 0, &worse_not), "reduced by 3: searched at depth 6");
        assert_ne!(run(5, 3, &worse_not), run(5, 0, &worse_not));
        let both_well = |e: i32| 200 - e;
        assert_eq!(run(6, 2, &both_well), run(5, 0, &both_well), "reduced by 2: searched at depth 5");
        assert_ne!(run(6, 2, &both_well), run(6, 0, &both_well));
        with_worker::<Chess>(&[], |w| {
            w.search(&pos, 8, -INF, INF, 0, false);
            assert!(w.stack.iter().all(|e| e.reduction == 0), "every mark cleared");
        });
    }

    /// Every child (a ProbCut capture and a null move's included) starts
    /// from the path's count of double extensions, not a count another
    /// node left at its ply.
    #[test]
    fn entering_a_child_passes_the_double_extensions_on() {
        let pos = Chess::new();
        with_worker::<Chess>(&[], |w| {
            let sp = 4 + STACK_OFF;
            w.stack[sp].double_ext = 3;
            w.stack[sp + 1].double_ext = 7;
            let child = w.enter(&pos, Move::normal(Square::E2, Square::E4), pos.hash(), sp);
            w.pop_hash();
            assert_eq!(w.stack[sp + 1].double_ext, 3, "the child's count is the path's");
            assert_eq!(w.stack[sp].moved, Some(piece_square(Color::White, Role::Pawn, Square::E4)));
            assert_ne!(child.hash(), pos.hash());
        });
    }

    /// The reduction table keeps growing past the 63rd move (a Genesis
    /// placement node holds hundreds) and never shrinks with the count.
    #[test]
    fn reductions_grow_with_the_move_count_past_63() {
        with_worker::<Chess>(&[], |w| {
            let row = &w.lmr[12];
            assert!(row.windows(2).all(|p| p[0] <= p[1]));
            assert!(row[200] > row[63], "{} {}", row[200], row[63]);
        });
    }

    /// The correction history: a position's slot follows its pawns (a
    /// knight move keeps it, a black pawn's move changes it) and the side
    /// to move; learning moves the correction towards the searches' error,
    /// deeper searches faster, within ±64 cp, and other structures keep
    /// theirs.
    #[test]
    fn correction_history_learns_the_error_of_its_slot() {
        let fen = |f: &str| Chess::from_fen(f).unwrap();
        let start = corr_slot(&Chess::new());
        let knight = corr_slot(&fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"));
        let black = corr_slot(&fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"));
        let black_pawn = corr_slot(&fen("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"));
        assert_eq!(knight, black, "same pawns, same side to move");
        assert_ne!(start, black, "the side to move differs");
        assert_ne!(black_pawn, black, "a black pawn moved");
        assert!(start < CORR_SIZE && black >= CORR_SIZE);
        with_worker::<Chess>(&[], |w| {
            assert_eq!(w.corrected(start, 37), 37, "nothing learnt yet");
            w.update_corr(start, 0, 100, 3);
            let shallow = w.corrected(start, 0);
            w.hist.clear();
            w.update_corr(start, 0, 100, 20);
            let deep = w.corrected(start, 0);
            assert!(0 < shallow && shallow < deep && deep < 100, "{shallow} {deep}");
            for _ in 0..200 {
                w.update_corr(start, 0, 100, 20);
            }
            assert!((60..=64).contains(&w.corrected(start, 0)), "at most 64 cp");
            for _ in 0..400 {
                w.update_corr(start, 10, -5000, 20);
            }
            assert!((-64..=-60).contains(&(w.corrected(start, 10) - 10)), "at most 64 cp");
            for other in [black, black_pawn] {
                assert_eq!(w.corrected(other, 10), 10, "another slot is untouched");
            }
            assert_eq!(w.corrected(start, MATE_BOUND + 500), MATE_BOUND - 1, "never a mate score");
        });
    }

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
