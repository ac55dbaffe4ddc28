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
pub mod eval;
pub mod nnue;
pub mod search;
pub mod search_params;
mod skill;
#[cfg(test)]
mod test_support;
mod time;
pub mod tt;
pub mod uci;

pub use eval::{Evaluate, NetInputs, SearchPolicy, TimePolicy};
use search::iterate::{iterate, to_score};
use search::{Histories, RootMove, Shared, Worker, MATE, MAX_PLY};
pub use skill::Strength;
#[cfg(test)]
pub(crate) use test_support::{flip_fen, mirror_fen, mirror_file, random_walk};
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
    /// (strength §52, §53).
    /// `chimera datagen` plays at 100 whatever this says, so that the
    /// labels stay in the units the nets learn.
    pub nnue_scale: i32,
}

/// The default [`EngineOptions::use_nnue`]: on, since every built-in net
/// (chess, Genie, Clown, Magic Ring, Genesis) beats the hand-made evaluation
/// at 10+0.1 (strength §10, §11, §12, §23, §31, §48).
pub const USE_NNUE: bool = true;

/// The default [`EngineOptions::nnue_hybrid`] (strength §10).
pub const NNUE_HYBRID: i32 = 800;

/// The default [`EngineOptions::nnue_scale`]: the nets' own output
/// (65 is level with it at 10+0.1, strength §53).
pub const NNUE_SCALE: i32 = 100;

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
        let weak = skill::is_weak(skill);
        let multipv = self.options.multi_pv.max(1).max(if weak { skill::LINES } else { 1 }).min(root_list.len());
        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 8, |d| (d as i32).clamp(1, MAX_PLY as i32 - 8));
        let (max_depth, max_nodes) =
            if weak { skill::caps(skill, max_depth, limits.nodes) } else { (max_depth, limits.nodes) };
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

/// SplitMix64: a small, fast, seedable generator. The engine's one source of
/// reproducible randomness (skill levels, self-play openings in
/// `chimera_train::datagen`); tests use it for seeded random positions.
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
