//! Finding puzzles, and checking them again.
//!
//! [`mine`] plays self-play games between two weakened engines (so that
//! somebody blunders), and reads stored games ([`mine_games`]); in each
//! position after the opening it asks a full-strength engine, searching
//! `nodes` nodes, for its best move and then for the best of the other
//! moves (a search restricted to them). A position is a candidate when the
//! best move wins and no other move does ([`Eval::wins`],
//! [`Eval::within_margin`]); a candidate is kept when a second search at
//! [`DEEPER`] times the budget agrees, both for the winning move and for
//! the others. After a puzzle, a game gives no other for [`COOLDOWN`] plies
//! (the next positions are the same tactic again).
//!
//! Everything is a function of the set, the seed and the inputs: game `k`
//! draws its random opening, its two players' levels and their engines'
//! seeds from the seed and `k`; each game is searched on one thread by its
//! own engines; the puzzles come out in game order, whatever the number of
//! threads.
//!
//! [`verify`] is the independent check: a fresh engine for every puzzle,
//! its own table, the winning move searched alone and then every other
//! move, at the budget it is given (ten times the mining budget).

use crate::{puzzle_id, starting_rating, themes, Eval, Puzzle, SetSpec, LINE_PLIES, WIN_CP};
use chimera_engine::{Engine, EngineOptions, Limits, SplitMix, Strength};
use chimera_rules::{AnyPosition, Game, Move, Position};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// The deeper check's budget, in mining budgets.
pub const DEEPER: u64 = 3;

/// The first look at a position searches the budget divided by this; a
/// position it scores under half a win is no puzzle.
pub const GLANCE: u64 = 8;

/// The budgets (nodes) of [`difficulty`]'s searches.
pub const SIGHT: [u64; 6] = [16, 64, 256, 1024, 4096, 16384];

/// Plies after a puzzle in which the same game gives no other.
pub const COOLDOWN: usize = 6;

/// What to mine.
#[derive(Clone, Debug)]
pub struct MineConfig {
    pub set: &'static SetSpec,
    pub seed: u64,
    /// Self-play games.
    pub games: u64,
    /// Nodes of the mining searches.
    pub nodes: u64,
    /// Nodes of the self-play players' searches (their skill levels may
    /// cap them lower).
    pub player_nodes: u64,
    /// Random legal plies at the start of each self-play game.
    pub random_plies: usize,
    /// Keep only puzzles whose winning move is one of the variant's own,
    /// and play no such move in the random opening (so that each player
    /// still has them).
    pub special: bool,
    /// A self-play game stops after this many plies.
    pub max_plies: usize,
    pub threads: usize,
    /// A self-play game ends when the player to move scores at least this
    /// much (either way) for `decided_plies` plies in a row: a decided game
    /// seldom has a move that alone wins.
    pub decided_cp: i32,
    pub decided_plies: usize,
    /// Stop after the first block of [`BLOCK`] games at which the puzzles
    /// found number at least this many (the blocks are whole, so the result
    /// does not depend on the threads).
    pub until: Option<usize>,
}

/// Games mined between two looks at `until`.
pub const BLOCK: u64 = 16;

/// The players' skill levels are drawn from this range (0-20): weak enough
/// to blunder often, strong enough to play real positions.
pub const PLAYER_SKILLS: std::ops::RangeInclusive<u8> = 3..=13;

fn engine(hash_mb: usize) -> Engine {
    Engine::new(EngineOptions { hash_mb, threads: 1, ..EngineOptions::default() })
}

/// A full-strength search of `pos` (no game history) at `nodes` nodes,
/// among `moves` (all when empty): the move, its score, its line.
fn search(engine: &mut Engine, pos: &AnyPosition, nodes: u64, moves: Vec<Move>) -> (Option<Move>, Eval, Vec<Move>) {
    let limits = Limits { nodes: Some(nodes), search_moves: moves, ..Limits::default() };
    let stop = AtomicBool::new(false);
    let r = engine.search(pos, &[], &limits, &Strength::default(), &stop, &mut |_| {});
    (r.best, Eval::of(r.score), r.pv)
}

/// The moves of `legal` other than `m`.
fn others(legal: &[Move], m: Move) -> Vec<Move> {
    legal.iter().copied().filter(|&x| x != m).collect()
}

/// The puzzle at `pos`, if there is one: `analyst` searches, `source` says
/// where the position comes from.
/// With `special`, only a puzzle whose winning move is one of the
/// variant's own ([`crate::is_special`]).
pub fn candidate(
    analyst: &mut Engine,
    set: &'static SetSpec,
    pos: &AnyPosition,
    nodes: u64,
    special: bool,
    source: String,
) -> Option<Puzzle> {
    let legal = pos.legal_move_list();
    if pos.outcome().is_some() || legal.len() < 2 {
        return None;
    }
    // A quick look first: most positions are nowhere near a win.
    let (_, glance, _) = search(analyst, pos, (nodes / GLANCE).max(1), Vec::new());
    if matches!(glance, Eval::Cp(c) if c < WIN_CP / 2) {
        return None;
    }
    let (best, eval, _) = search(analyst, pos, nodes, Vec::new());
    let best = best?;
    if !eval.wins() || (special && !crate::is_special(pos, best)) {
        return None;
    }
    let rest = others(&legal, best);
    let (_, other, _) = search(analyst, pos, nodes, rest.clone());
    if !other.within_margin() {
        return None;
    }
    let (_, deep, line) = search(analyst, pos, nodes * DEEPER, vec![best]);
    if !deep.wins() {
        return None;
    }
    let (_, deep_other, _) = search(analyst, pos, nodes * DEEPER, rest);
    if !deep_other.within_margin() {
        return None;
    }
    let mut line: Vec<Move> = if line.first() == Some(&best) { line } else { vec![best] };
    line.truncate(LINE_PLIES + 1);
    let themes = themes(pos, &line, deep);
    let quiet = themes.iter().any(|t| t == "quiet");
    let found = difficulty(pos, best);
    let fen = pos.fen();
    Some(Puzzle {
        id: puzzle_id(set.name, &fen, &best.to_string()),
        set: set.name.to_string(),
        fen,
        moves: line.iter().map(|m| m.to_string()).collect(),
        eval: deep,
        themes,
        rating: starting_rating(found, quiet),
        source,
    })
}

/// How hard the winning move is to find: the index in [`SIGHT`] of the
/// smallest budget from which a fresh search (and every larger one) picks
/// it; `SIGHT.len()` when none does.
pub fn difficulty(pos: &AnyPosition, best: Move) -> u32 {
    let mut found = SIGHT.len();
    for (k, &n) in SIGHT.iter().enumerate().rev() {
        let mut e = engine(1);
        match search(&mut e, pos, n, Vec::new()).0 {
            Some(m) if m == best => found = k,
            _ => break,
        }
    }
    found as u32
}

/// The puzzles of one game's positions (`game`'s positions after the
/// first `skip` plies), in order, a cooldown after each.
fn mine_positions(
    analyst: &mut Engine,
    set: &'static SetSpec,
    game: &Game<AnyPosition>,
    skip: usize,
    nodes: u64,
    special: bool,
    source: &str,
) -> Vec<Puzzle> {
    let mut out = Vec::new();
    let mut cooldown = 0;
    for (ply, pos) in game.positions().iter().enumerate().skip(skip) {
        if cooldown > 0 {
            cooldown -= 1;
            continue;
        }
        if let Some(p) = candidate(analyst, set, pos, nodes, special, format!("{source} ply {ply}")) {
            out.push(p);
            cooldown = COOLDOWN;
        }
    }
    out
}

/// Self-play game `index` of the configuration.
pub fn self_play(cfg: &MineConfig, index: u64) -> Game<AnyPosition> {
    let mut rng = SplitMix(cfg.seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let span = (*PLAYER_SKILLS.end() - *PLAYER_SKILLS.start() + 1) as u64;
    let skills = [0, 1].map(|_| PLAYER_SKILLS.start() + (rng.next() % span) as u8);
    let mut player = engine(8);
    player.seed = rng.next();
    let mut game = Game::new(cfg.set.start());
    let mut history = Vec::new();
    let stop = AtomicBool::new(false);
    let limits = Limits { nodes: Some(cfg.player_nodes), ..Limits::default() };
    let mut decided = 0;
    while game.outcome().is_none() && game.moves().len() < cfg.max_plies && decided < cfg.decided_plies {
        let pos = game.position().clone();
        let legal = pos.legal_move_list();
        let m = if game.moves().len() < cfg.random_plies {
            // A special run keeps the variant's own moves out of the opening.
            let plain: Vec<Move> = if cfg.special {
                legal.iter().copied().filter(|&m| !crate::is_special(&pos, m)).collect()
            } else {
                Vec::new()
            };
            let from: &[Move] = if plain.is_empty() { &legal } else { &plain };
            from[(rng.next() % from.len() as u64) as usize]
        } else {
            let skill = skills[game.moves().len() % 2];
            let r = player.search(&pos, &history, &limits, &Strength { skill, elo: None }, &stop, &mut |_| {});
            decided = match r.score {
                chimera_engine::Score::Cp(c) if c.abs() < cfg.decided_cp => 0,
                _ => decided + 1,
            };
            match r.best {
                Some(m) => m,
                None => break,
            }
        };
        history.push(pos.hash());
        game.push_unchecked(m);
    }
    game
}

/// Runs `work(index)` for indices `0..n` on `threads` threads; the results
/// in index order. `progress` is called after each with the number done.
fn in_parallel<T: Send>(
    n: u64,
    threads: usize,
    work: &(dyn Fn(u64) -> T + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<T> {
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let results: Mutex<Vec<(u64, T)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= n {
                    break;
                }
                let r = work(i);
                results.lock().unwrap().push((i, r));
                progress(done.fetch_add(1, Ordering::SeqCst) + 1);
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Drops the puzzles of a position seen before (same position and move
/// counters aside), keeping the first.
pub fn dedupe(puzzles: Vec<Puzzle>) -> Vec<Puzzle> {
    let mut seen = HashSet::new();
    puzzles.into_iter().filter(|p| seen.insert(p.fen.split(' ').take(4).collect::<Vec<_>>().join(" "))).collect()
}

/// Mines the configuration's self-play games.
/// The puzzles and the number of games played.
pub fn mine(cfg: &MineConfig, progress: &(dyn Fn(u64, usize) + Sync)) -> (Vec<Puzzle>, u64) {
    let mut found = Vec::new();
    let mut start = 0;
    while start < cfg.games && cfg.until.is_none_or(|n| found.len() < n) {
        let n = BLOCK.min(cfg.games - start);
        let so_far = found.len();
        let per_game = in_parallel(
            n,
            cfg.threads,
            &|i| {
                let i = start + i;
                let game = self_play(cfg, i);
                let mut analyst = engine(16);
                let source = format!("seed {} game {i}", cfg.seed);
                mine_positions(&mut analyst, cfg.set, &game, cfg.random_plies, cfg.nodes, cfg.special, &source)
            },
            &|done| progress(start + done, so_far),
        );
        found = dedupe(found.into_iter().chain(per_game.into_iter().flatten()).collect());
        start += n;
    }
    (found, start)
}

/// Mines stored games (each with a name for the puzzles' source), from
/// their first position on.
pub fn mine_games(
    set: &'static SetSpec,
    games: &[(String, Game<AnyPosition>)],
    nodes: u64,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Puzzle> {
    let per_game = in_parallel(
        games.len() as u64,
        threads,
        &|i| {
            let (name, game) = &games[i as usize];
            mine_positions(&mut engine(16), set, game, 0, nodes, false, name)
        },
        progress,
    );
    dedupe(per_game.into_iter().flatten().collect())
}

/// The independent check of one puzzle.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The winning move's score.
    pub best: Eval,
    /// The best other move and its score.
    pub other: Option<(String, Eval)>,
}

impl Verdict {
    /// Whether the puzzle stands: its move wins, no other does.
    pub fn holds(&self) -> bool {
        self.best.wins() && self.other.as_ref().is_none_or(|(_, e)| e.within_margin())
    }
}

/// Checks `puzzle` with a fresh engine at `nodes` nodes a search.
pub fn verify(puzzle: &Puzzle, nodes: u64) -> Verdict {
    let pos = puzzle.position();
    let m = pos.parse_uci(puzzle.solution()).expect("a puzzle's move is legal");
    let mut e = engine(32);
    let (_, best, _) = search(&mut e, &pos, nodes, vec![m]);
    e.new_game();
    let rest = others(&pos.legal_move_list(), m);
    let other = if rest.is_empty() {
        None
    } else {
        let (mv, ev, _) = search(&mut e, &pos, nodes, rest);
        Some((mv.map_or_else(String::new, |m| m.to_string()), ev))
    };
    Verdict { best, other }
}

/// Checks `puzzles` on `threads` threads; the verdicts in order.
pub fn verify_all(puzzles: &[Puzzle], nodes: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> Vec<Verdict> {
    in_parallel(puzzles.len() as u64, threads, &|i| verify(&puzzles[i as usize], nodes), progress)
}

/// The engine's answer to a wrong move: its line from the position after
/// `wrong` (UCI, the answer first), searched at `nodes` nodes; empty when
/// that position is over.
pub fn refutation(pos: &AnyPosition, wrong: Move, nodes: u64) -> (Vec<Move>, Eval) {
    let after = pos.after(wrong);
    if after.outcome().is_some() {
        return (Vec::new(), Eval::Cp(0));
    }
    let mut e = engine(16);
    let (best, eval, pv) = search(&mut e, &after, nodes, Vec::new());
    let mut line = if pv.first() == best.as_ref() { pv } else { best.into_iter().collect() };
    line.truncate(LINE_PLIES);
    (line, eval)
}
