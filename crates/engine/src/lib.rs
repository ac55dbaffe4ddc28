//! chimera-engine: search, evaluation and the UCI protocol, generic over the
//! rules crate's `Position`.
//!
//! Public API used by the CLI and the web server (keep it stable):
//! [`Engine::search`] with [`Limits`] and [`Strength`], reporting through a
//! callback; nothing below the binary prints to stdout.

use chimera_rules::{AnyPosition, Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub mod uci;

/// A score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
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
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions { hash_mb: 16, threads: 1, multi_pv: 1 }
    }
}

/// A search engine with its own transposition table. `Send`: the web server
/// runs searches on blocking threads.
pub struct Engine {
    pub options: EngineOptions,
}

impl Engine {
    pub fn new(options: EngineOptions) -> Engine {
        Engine { options }
    }

    /// Forget everything learned (new game).
    pub fn new_game(&mut self) {}

    /// Searches `root`. `history` holds the hashes of the positions before
    /// `root` in the game (oldest first), for repetition detection. `stop`
    /// may be set from another thread. Interim implementation: one ply of
    /// material; the real search replaces it behind the same signature.
    pub fn search(
        &mut self,
        root: &AnyPosition,
        _history: &[u64],
        limits: &Limits,
        _strength: &Strength,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = std::time::Instant::now();
        let mut best: Option<(Move, i32)> = None;
        for &m in root.legal_move_list().iter() {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            if !limits.search_moves.is_empty() && !limits.search_moves.contains(&m) {
                continue;
            }
            let after = root.after(m);
            let score = if after.is_checkmate() { 100_000 } else { -material(&after) };
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((m, score));
            }
        }
        let score = Score::Cp(best.map_or(0, |b| b.1));
        let pv: Vec<Move> = best.iter().map(|b| b.0).collect();
        on_info(&SearchInfo { depth: 1, seldepth: 1, multipv: 1, score, nodes: pv.len() as u64, time: start.elapsed(), hashfull: 0, pv: pv.clone() });
        SearchResult { best: best.map(|b| b.0), ponder: None, score, depth: 1, nodes: 1, pv }
    }
}

fn material<P: Position>(p: &P) -> i32 {
    use chimera_rules::Role::*;
    let b = p.board();
    let us = p.turn();
    let mut s = 0;
    for (role, v) in [(Pawn, 100), (Knight, 300), (Bishop, 320), (Rook, 500), (Queen, 900), (Genie, 600), (Clown, 400)] {
        let bb = b.by_role(role);
        s += v * ((bb & b.by_color(us)).count() as i32 - (bb & b.by_color(!us)).count() as i32);
    }
    s
}
