//! chimera-engine: search, evaluation and the UCI protocol, generic over the
//! rules crate's `Position`.
//!
//! Public API used by the CLI and the web server (keep it stable):
//! [`Engine::search`] with [`Limits`] and [`Strength`], reporting through a
//! callback; nothing below the binary prints to stdout.

use chimera_rules::{with_position, AnyPosition, Move};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub mod baseline;
pub mod datagen;
pub mod eval;
pub mod nnue;
pub mod search;
pub mod search_params;
pub mod train;
pub mod tt;
pub mod tune;
pub mod uci;

pub use eval::Evaluate;
use search::{Histories, RootMove, Shared, Worker, INF, MATE, MATE_BOUND, MAX_PLY};
use tt::TranspositionTable;

/// A score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// Exactness of a reported score.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum ScoreBound {
    #[default]
    Exact,
    /// The true score is at least this (UCI `lowerbound`).
    Lower,
    /// The true score is at most this (UCI `upperbound`).
    Upper,
}

/// What bounds a search. Empty = until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub mate: Option<u32>,
    /// Clock of the side to move and the increment, for time management.
    pub time_left: Option<Duration>,
    pub increment: Option<Duration>,
    pub moves_to_go: Option<u32>,
    pub infinite: bool,
    /// Restrict the root to these moves (empty = all).
    pub search_moves: Vec<Move>,
}

/// Playing strength: `skill` 0-20 (20 = full), or an Elo target.
#[derive(Clone, Debug)]
pub struct Strength {
    pub skill: u8,
    pub elo: Option<u32>,
}

impl Strength {
    /// The skill level actually used: `elo` (when set) mapped onto 0-20,
    /// linearly from 600 (level 0) to 2800 (level 20 = full strength).
    pub fn effective_skill(&self) -> u8 {
        match self.elo {
            Some(elo) => ((elo.clamp(600, 2800) - 600) * 20 / 2200) as u8,
            None => self.skill.min(20),
        }
    }
}

impl Default for Strength {
    fn default() -> Self {
        Strength { skill: 20, elo: None }
    }
}

/// One `info` report.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    pub score: Score,
    /// Whether `score` is exact or only a bound (aspiration-window failure).
    pub bound: ScoreBound,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the position has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub multi_pv: usize,
    /// Play as the plain material-only alpha-beta yardstick
    /// ([`baseline`]; UCI option `Baseline`) instead of the real search.
    pub baseline: bool,
    /// Evaluate with the network of the variant ([`nnue`]: the `EvalFile`
    /// net, or the one built in) where there is one (default, [`USE_NNUE`]);
    /// `false`, or a variant without a net, uses the hand-made evaluation
    /// (UCI option `Use NNUE`).
    pub use_nnue: bool,
    /// With a network: a position whose material balance
    /// ([`eval::Evaluate::material`]) is beyond ± this many centipawns is
    /// evaluated by hand instead, because such positions are rare in the
    /// self-play games a net learns from (they end by adjudication); 0 = the
    /// net everywhere (UCI option `NNUE Hybrid`).
    pub nnue_hybrid: i32,
    /// With a network: the percentage of its output the search uses
    /// (UCI option `NNUE Scale`). The nets learn the search scores of the
    /// evaluation before them, in the hand-made evaluation's units, where
    /// the search's margins (futility, null move, razoring, ProbCut) were
    /// set; the chess net at 65% won at 5,000 and 50,000 nodes a move,
    /// not at 20,000, and is level against Stockfish 2600 at 10+0.1
    /// (docs/strength.md §52-§53).
    /// `chimera datagen` plays at 100 whatever this says, so that the
    /// labels stay in the units the nets learn.
    pub nnue_scale: i32,
}

/// The default [`EngineOptions::use_nnue`]: on, since every built-in net
/// (chess, Genie, Clown, Magic Ring, Genesis) beats the hand-made evaluation
/// at 10+0.1 (docs/strength.md §10-§12, §23, §31, §48).
pub const USE_NNUE: bool = true;

/// The default [`EngineOptions::nnue_hybrid`] (docs/strength.md §10).
pub const NNUE_HYBRID: i32 = 800;

/// The default [`EngineOptions::nnue_scale`]: the nets' own output
/// (docs/strength.md §52-§53: 65 is level with it at 10+0.1).
pub const NNUE_SCALE: i32 = 100;

/// The moves a clock with an increment is shared over when the GUI sends
/// no `movestogo` (docs/strength.md §38).
const INCREMENT_HORIZON: u32 = 15;

/// The same without an increment: sharing the clock over fewer moves would
/// leave too little of it for a long game.
const SUDDEN_DEATH_HORIZON: u32 = 30;

/// An iteration ends the search once the time spent passes the soft limit,
/// scaled by the best move's stability and share of the nodes, over this:
/// 1.4, where 2 left a 10+0.1 game with a sixth of its clock unused and
/// spent half what Stockfish does on the first 20 moves (docs/strength.md
/// §44).
const SOFT_DIVISOR: f64 = 1.4;

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            multi_pv: 1,
            baseline: false,
            use_nnue: USE_NNUE,
            nnue_hybrid: NNUE_HYBRID,
            nnue_scale: NNUE_SCALE,
        }
    }
}

/// The network a search of `variant` uses (see [`Engine::network`]);
/// the built-in one only when `default_rules`
/// ([`eval::Evaluate::nnue_default_rules`]): an `EvalFile` net is the
/// user's choice whatever the rules.
fn select_net<'a>(
    options: &EngineOptions,
    eval_file: &'a Option<Arc<nnue::Network>>,
    variant: chimera_rules::Variant,
    default_rules: bool,
) -> Option<&'a nnue::Network> {
    if !options.use_nnue || options.baseline {
        return None;
    }
    match eval_file {
        Some(n) if nnue::serves(n.variant, variant) => Some(n),
        _ if default_rules => nnue::embedded(variant),
        _ => None,
    }
}

/// A search engine with its own transposition table. `Send`: the web server
/// runs searches on blocking threads.
pub struct Engine {
    pub options: EngineOptions,
    tt: TranspositionTable,
    tt_mb: usize,
    /// Seed of the randomness used by reduced skill levels (mixed with the
    /// position's hash, so a given seed and position always give the same move).
    pub seed: u64,
    /// Subtracted from every time budget (GUI and network lag).
    pub move_overhead: Duration,
    /// While `true` the search ignores its time limits (UCI `go ponder`);
    /// clearing it (`ponderhit`) starts the clock.
    pub pondering: Arc<AtomicBool>,
    /// Move-ordering histories of each search thread, kept from one move to
    /// the next of a game (cleared by [`Engine::new_game`]).
    histories: Vec<Histories>,
    /// A network loaded from a file (UCI `EvalFile`), used for its variant
    /// instead of the built-in one.
    eval_file: Option<Arc<nnue::Network>>,
    /// The evaluation whose static values the table holds (the address of
    /// the network, the `nnue_hybrid` limit and the `nnue_scale`; `None` for the hand-made
    /// evaluation): a search with another one clears the table first.
    tt_eval: Option<(usize, i32, i32)>,
}

impl Engine {
    pub fn new(options: EngineOptions) -> Engine {
        let tt_mb = options.hash_mb.max(1);
        Engine {
            options,
            tt: TranspositionTable::new(tt_mb),
            tt_mb,
            seed: 0x9E37_79B9_7F4A_7C15,
            move_overhead: Duration::from_millis(10),
            pondering: Arc::new(AtomicBool::new(false)),
            histories: Vec::new(),
            eval_file: None,
            tt_eval: None,
        }
    }

    /// Loads a network file for its variant (UCI `EvalFile`); `None` goes
    /// back to the built-in nets. Returns what the engine will use, for the
    /// report; the error says what is wrong with the file.
    pub fn set_eval_file(&mut self, path: Option<&std::path::Path>) -> Result<String, String> {
        let Some(path) = path else {
            self.eval_file = None;
            return Ok("built-in nets".into());
        };
        // Read no more than the largest net can be (a path such as
        // /dev/zero must not fill the memory).
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| {
                std::io::Read::read_to_end(&mut std::io::Read::take(f, nnue::MAX_FILE_LEN as u64 + 1), &mut bytes)
            })
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if bytes.len() > nnue::MAX_FILE_LEN {
            return Err(format!(
                "{}: more than {} bytes, larger than any Chimera network file",
                path.display(),
                nnue::MAX_FILE_LEN
            ));
        }
        let net = nnue::Network::from_bytes(&bytes, &path.display().to_string())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let what = format!("{} net {} for {}", net.describe(), path.display(), net.variant.id());
        self.eval_file = Some(Arc::new(net));
        Ok(what)
    }

    /// The network a search of `variant` under its default rules uses, if
    /// any (option `use_nnue`, the `EvalFile` net, else the built-in one).
    pub fn network(&self, variant: chimera_rules::Variant) -> Option<&nnue::Network> {
        select_net(&self.options, &self.eval_file, variant, true)
    }

    /// Forget everything learned (new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// Megabytes the transposition table really uses (the request is capped
    /// by the memory available).
    pub fn hash_size_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Resizes the transposition table now (otherwise done at the next search).
    pub fn resize_hash(&mut self) {
        if self.options.hash_mb.max(1) != self.tt_mb {
            self.tt_mb = self.options.hash_mb.max(1);
            self.tt = TranspositionTable::new(self.tt_mb);
        }
    }

    /// Empties the transposition table (UCI `Clear Hash`).
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Searches `root`. `history` holds the hashes of the positions before
    /// `root` in the game (oldest first), for repetition detection. `stop`
    /// may be set from another thread.
    pub fn search(
        &mut self,
        root: &AnyPosition,
        history: &[u64],
        limits: &Limits,
        strength: &Strength,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        if self.options.hash_mb.max(1) != self.tt_mb {
            self.tt_mb = self.options.hash_mb.max(1);
            self.tt = TranspositionTable::new(self.tt_mb);
        }
        with_position!(root, p => self.search_generic(p, history, limits, strength, stop, on_info))
    }

    fn search_generic<P: Evaluate>(
        &mut self,
        root: &P,
        history: &[u64],
        limits: &Limits,
        strength: &Strength,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let legal = root.legal_move_list();
        if legal.is_empty() {
            let score = if root.is_check() { Score::Mate(0) } else { Score::Cp(0) };
            return SearchResult { best: None, ponder: None, score, depth: 0, nodes: 0, pv: Vec::new() };
        }
        let mut root_list: Vec<Move> = legal.iter().copied().filter(|m| limits.search_moves.contains(m)).collect();
        if root_list.is_empty() {
            root_list = legal.to_vec();
        }
        let skill = strength.effective_skill();
        let weak = skill < 20;
        let multipv = self.options.multi_pv.max(1).max(if weak { 4 } else { 1 }).min(root_list.len());
        let mut max_depth = limits.depth.map_or(MAX_PLY as i32 - 8, |d| (d as i32).clamp(1, MAX_PLY as i32 - 8));
        let mut max_nodes = limits.nodes;
        if weak {
            max_depth = max_depth.min((skill as i32 + 3) / 2 + 1);
            let cap = (200.0 * 1.6f64.powi(skill as i32)) as u64;
            max_nodes = Some(max_nodes.map_or(cap, |n| n.min(cap)));
        }
        let (soft, hard) = self.time_budget(limits, root.reserve_to_place(), root_list.len());
        // The table's static evaluations belong to the evaluation that
        // stored them (`Use NNUE`, `EvalFile`, `NNUE Hybrid`, `NNUE Scale`).
        let net = select_net(&self.options, &self.eval_file, root.variant(), root.nnue_default_rules());
        let eval_id = net.map(|n| (n as *const _ as usize, self.options.nnue_hybrid, self.options.nnue_scale));
        if eval_id != self.tt_eval {
            self.tt.clear();
            self.tt_eval = eval_id;
        }
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            user_stop: stop,
            stop: AtomicBool::new(false),
            pondering: &self.pondering,
            nodes: Default::default(),
            start,
            clock_start: std::sync::Mutex::new(None),
            soft,
            hard,
            max_nodes,
            net,
            hybrid: self.options.nnue_hybrid,
            scale: self.options.nnue_scale,
        };
        if !self.pondering.load(Ordering::Relaxed) {
            shared.clock_elapsed(); // starts the clock now
        }
        if self.options.baseline {
            return run_baseline(&shared, root, history, &root_list, max_depth, on_info);
        }
        let threads = self.options.threads.clamp(1, 256);
        let root_moves: Vec<RootMove> = root_list.iter().map(|&mv| RootMove::new(mv)).collect();
        while self.histories.len() < threads {
            self.histories.push(Histories::default());
        }
        let mut hists: Vec<Histories> = std::mem::take(&mut self.histories);
        let extra: Vec<Histories> = hists.split_off(threads);
        let mut hists = hists.into_iter();
        let main_hist = hists.next().expect("one history per thread");
        let (completed, depth_done, main_nodes, mut returned) = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for (id, hist) in (1..threads).zip(hists) {
                let shared = &shared;
                let rm = root_moves.clone();
                handles.push(scope.spawn(move || {
                    let mut w: Worker<P> = Worker::new(shared, id, history, hist);
                    w.root_moves = rm;
                    iterate(&mut w, root, max_depth, 1, limits, &mut |_| {}, false);
                    shared.nodes.fetch_add(w.nodes & 1023, Ordering::Relaxed);
                    w.into_histories()
                }));
            }
            let mut w: Worker<P> = Worker::new(&shared, 0, history, main_hist);
            w.root_moves = root_moves.clone();
            let r = iterate(&mut w, root, max_depth, multipv, limits, on_info, true);
            shared.stop.store(true, Ordering::Relaxed);
            let nodes = w.nodes;
            let mut returned = vec![w.into_histories()];
            for h in handles {
                // A helper that panicked loses its histories only.
                returned.push(h.join().unwrap_or_default());
            }
            (r.0, r.1, nodes, returned)
        });
        returned.extend(extra);
        self.histories = returned;
        let nodes = if threads == 1 { main_nodes } else { shared.nodes.load(Ordering::Relaxed) };
        let lines = if completed.is_empty() { root_moves } else { completed };
        let mut chosen = 0;
        if weak && lines.len() > 1 {
            chosen = self.weak_choice(&lines[..multipv.min(lines.len())], skill, root.hash());
        }
        let best = &lines[chosen];
        SearchResult {
            best: Some(best.mv),
            ponder: best.pv.get(1).copied(),
            score: to_score(best.score.max(-MATE)),
            depth: depth_done,
            nodes,
            pv: best.pv.clone(),
        }
    }

    /// Picks among the MultiPV lines the way a weaker player would: each
    /// line gets a random bonus that grows as the skill falls, so low levels
    /// often prefer a worse move while level 19 rarely does.
    fn weak_choice(&self, lines: &[RootMove], skill: u8, key: u64) -> usize {
        let mut rng = SplitMix(self.seed ^ key);
        let top = lines[0].score;
        let weakness = 120 - 2 * skill as i32;
        let delta = (top - lines[lines.len() - 1].score).clamp(0, 100);
        let mut best = 0;
        let mut best_val = i32::MIN;
        for (i, l) in lines.iter().enumerate() {
            if l.score <= -MATE_BOUND && i > 0 {
                continue;
            }
            let push = (weakness * (top - l.score) / 128).min(10_000);
            let noise =
                delta * (rng.next() % weakness as u64) as i32 / 128 + (rng.next() % (weakness as u64 + 1)) as i32;
            let v = l.score - push + noise;
            if v > best_val {
                best_val = v;
                best = i;
            }
        }
        best
    }

    /// Soft (no new iteration once the time spent passes it, scaled, over
    /// [`SOFT_DIVISOR`]) and hard (stop
    /// now) limits from the clock, or from `movetime`. `reserve`: the pieces
    /// the side to move still holds off the board (Genesis; 0 elsewhere).
    fn time_budget(&self, limits: &Limits, reserve: u32, n_moves: usize) -> (Option<Duration>, Option<Duration>) {
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
        // first moves, which decide Genesis (docs/strength.md §38). 30 in
        // sudden death, where the clock must last however long the game
        // runs.
        let horizon = if inc.is_zero() { SUDDEN_DEATH_HORIZON } else { INCREMENT_HORIZON };
        let mtg = limits.moves_to_go.unwrap_or(horizon).clamp(1, 50);
        // Placement: the clock's share of each move grows with the pieces
        // still to place, 1 + reserve/8 (3× with a full reserve of 16); as
        // the soft limit is a share of what is left it shrinks as the clock
        // does. docs/strength.md §32.
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
    // Time management: how many iterations in a row kept the best move.
    let mut stable = 0usize;
    let mut last_best: Option<Move> = None;
    let mut last_score = 0;
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
            // `failedHighCnt`; §64 of strength.md), to confirm the new best
            // score sooner.
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
            // The soft limit scales with the best move's stability (fewer
            // changes: less time), its share of the iteration's nodes (a
            // clear best move: less time) and a falling score (more time).
            let best_move = completed[0].mv;
            stable = if last_best == Some(best_move) { stable + 1 } else { 0 };
            last_best = Some(best_move);
            let stability = [2.0, 1.3, 1.0, 0.85, 0.75][stable.min(4)];
            let total: u64 = completed.iter().map(|r| r.nodes).sum();
            let share = if total > 0 { completed[0].nodes as f64 / total as f64 } else { 0.5 };
            let effort = (1.6 - share).clamp(0.7, 1.4);
            let falling = if depth > 1 && best < last_score - 30 { 1.3 } else { 1.0 };
            last_score = best;
            if e.as_secs_f64() >= soft.as_secs_f64() * stability * effort * falling / SOFT_DIVISOR {
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

/// The whole search when the option `Baseline` is on: one thread, no
/// MultiPV, no skill levels (it is a yardstick, not a player).
fn run_baseline<P: Evaluate>(
    shared: &Shared<'_>,
    root: &P,
    history: &[u64],
    root_list: &[Move],
    max_depth: i32,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let mut b = baseline::Baseline::new(shared, history);
    let (score, pv, depth) = b.iterate(root, root_list, max_depth, &mut |depth, score, pv, nodes, seldepth| {
        on_info(&SearchInfo {
            depth,
            seldepth: seldepth.max(depth),
            multipv: 1,
            score: to_score(score),
            bound: ScoreBound::Exact,
            nodes,
            time: shared.start.elapsed(),
            hashfull: 0,
            pv: pv.to_vec(),
        })
    });
    SearchResult {
        best: pv.first().copied(),
        ponder: pv.get(1).copied(),
        score: to_score(score),
        depth,
        nodes: b.nodes,
        pv,
    }
}

fn report<P: Evaluate>(
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

fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-(MATE + s) / 2)
    } else {
        Score::Cp(s)
    }
}

/// SplitMix64: a small, fast, seedable generator. The engine's one source of
/// reproducible randomness (skill levels, self-play openings in
/// [`datagen`]); tests use it for seeded random positions.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Tests: the positions of a seeded random game of `variant` from its start
/// (the start included), at most `plies` moves.
#[cfg(test)]
pub(crate) fn random_walk(variant: chimera_rules::Variant, seed: u64, plies: usize) -> Vec<AnyPosition> {
    use chimera_rules::{Position, RuleOptions};
    let mut rng = SplitMix(seed);
    let mut pos = AnyPosition::new(variant, &RuleOptions::default());
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let legal = pos.legal_move_list();
        if legal.is_empty() {
            break;
        }
        pos.play_unchecked(legal[(rng.next() % legal.len() as u64) as usize]);
        out.push(pos.clone());
    }
    out
}

/// A square name mirrored by rank ("e2" -> "e7").
#[cfg(test)]
fn flip_square(sq: &str) -> String {
    let b = sq.as_bytes();
    format!("{}{}", b[0] as char, (b'9' - (b[1] - b'0')) as char)
}

/// Tests: a file letter mirrored (a ↔ h).
#[cfg(test)]
pub(crate) fn mirror_file(file: u8) -> u8 {
    b'h' - (file - b'a')
}

/// A square name mirrored by file ("b2" -> "g2").
#[cfg(test)]
fn mirror_square(sq: &str) -> String {
    format!("{}{}", mirror_file(sq.as_bytes()[0]) as char, &sq[1..])
}

/// Tests: a FEN's first field split into the board and its pocket
/// (`[...]`, or empty).
#[cfg(test)]
fn board_and_pocket(field: &str) -> (&str, &str) {
    match field.find('[') {
        Some(i) => (&field[..i], &field[i..]),
        None => (field, ""),
    }
}

/// Tests: the variant fields after the move counters with every square in
/// them (unmoved, tainted, rings) mapped by `square`; with `swap_colours`
/// the colour fields (flips, clown, reentry) name the other colour and the
/// two rings change places. The one place both [`flip_fen`] and
/// [`mirror_fen`] rewrite them.
#[cfg(test)]
fn map_variant_fields(fields: &[&str], square: fn(&str) -> String, swap_colours: bool) -> Vec<String> {
    let colour = |v: &str| match v {
        "w" if swap_colours => "b".to_string(),
        "b" if swap_colours => "w".to_string(),
        x => x.to_string(),
    };
    fields
        .iter()
        .map(|x| {
            let (name, v) = x.split_once(':').unwrap_or((x, ""));
            match name {
                "flips" | "clown" | "reentry" => format!("{name}:{}", colour(v)),
                "unmoved" | "tainted" if v != "-" => {
                    let v = v.replace(',', "");
                    let sq: Vec<String> = (0..v.len() / 2).map(|i| square(&v[2 * i..2 * i + 2])).collect();
                    format!("{name}:{}", sq.join(if name == "tainted" { "," } else { "" }))
                }
                "rings" => {
                    let mut r: Vec<String> = v
                        .split(',')
                        .map(|part| match part.split_once('.') {
                            Some((sq, lvl)) => format!("{}.{lvl}", square(sq)),
                            None => square(part),
                        })
                        .collect();
                    if swap_colours {
                        r.reverse();
                    }
                    format!("rings:{}", r.join(","))
                }
                _ => x.to_string(),
            }
        })
        .collect()
}

/// Tests: the FEN of the position in a mirror (files a ↔ h): each rank
/// read backwards, and every square of the other fields (en passant,
/// unmoved, tainted, rings) mirrored. For positions without castling
/// rights (castling has no mirror).
#[cfg(test)]
pub(crate) fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    assert_eq!(f[2], "-", "castling rights have no mirror: {fen}");
    let (board, pocket) = board_and_pocket(f[0]);
    // A token is a digit, or a letter with the marks that follow it.
    let rank = |r: &str| {
        let mut tokens: Vec<String> = Vec::new();
        for c in r.chars() {
            match tokens.last_mut() {
                Some(t) if !c.is_ascii_alphanumeric() => t.push(c),
                _ => tokens.push(c.to_string()),
            }
        }
        tokens.into_iter().rev().collect::<String>()
    };
    let ranks: Vec<String> = board.split('/').map(rank).collect();
    let mut out = vec![format!("{}{pocket}", ranks.join("/")), f[1].into(), "-".into()];
    out.push(if f[3] == "-" { "-".into() } else { mirror_square(f[3]) });
    out.extend(f[4..6].iter().map(|x| x.to_string()));
    out.extend(map_variant_fields(&f[6..], mirror_square, false));
    out.join(" ")
}

/// Tests: the colour-flipped FEN: board mirrored by rank with the colours
/// swapped, pocket swapped, other side to move, castling and en passant
/// mirrored, and the variants' colour fields (flips, clown, reentry,
/// unmoved, rings) swapped.
#[cfg(test)]
pub(crate) fn flip_fen(fen: &str) -> String {
    let swap = |s: &str| {
        s.chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect::<String>()
    };
    let f: Vec<&str> = fen.split(' ').collect();
    let (board, pocket) = board_and_pocket(f[0]);
    let ranks: Vec<String> = board.split('/').rev().map(swap).collect();
    let mut out = vec![format!("{}{}", ranks.join("/"), swap(pocket))];
    out.push(if f[1] == "w" { "b".into() } else { "w".into() });
    let c = swap(f[2]);
    let mut cs: Vec<char> = c.chars().collect();
    cs.sort_by_key(|ch| (ch.is_ascii_lowercase(), "KQkq".find(ch.to_ascii_uppercase()).unwrap_or(0)));
    out.push(if c == "-" { c } else { cs.into_iter().collect() });
    out.push(if f[3] == "-" { "-".into() } else { flip_square(f[3]) });
    out.push(f[4].into());
    out.push(f[5].into());
    out.extend(map_variant_fields(&f[6..], flip_square, true));
    out.join(" ")
}

#[cfg(test)]
mod time_tests {
    use super::*;

    fn clock(secs: u64, inc_ms: u64, mtg: Option<u32>) -> Limits {
        Limits {
            time_left: Some(Duration::from_secs(secs)),
            increment: Some(Duration::from_millis(inc_ms)),
            moves_to_go: mtg,
            ..Limits::default()
        }
    }

    /// The root's aspiration search loses a ply per fail high in a row.
    #[test]
    fn window_depth_drops_a_ply_per_fail_high() {
        assert_eq!(window_depth(12, 0), 12);
        assert_eq!(window_depth(12, 1), 11);
        assert_eq!(window_depth(12, 3), 9);
        assert_eq!(window_depth(2, 5), 1, "never below depth 1");
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
