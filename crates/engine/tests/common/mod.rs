//! Shared by the engine's integration tests: one deterministic fixed-depth
//! search (one thread, no clock) from `pos` after the game `history` (the
//! hashes of earlier positions), keeping every `info` it reported.

use chimera_engine::{Engine, EngineOptions, Limits, SearchInfo, SearchResult, Strength};
use chimera_rules::AnyPosition;
use std::sync::atomic::AtomicBool;

pub fn search_to_depth(
    pos: &AnyPosition,
    history: &[u64],
    options: EngineOptions,
    depth: u32,
) -> (SearchResult, Vec<SearchInfo>) {
    let mut engine = Engine::new(options);
    let limits = Limits { depth: Some(depth), ..Default::default() };
    let mut infos = Vec::new();
    let result = engine
        .search(pos, history, &limits, &Strength::default(), &AtomicBool::new(false), &mut |i| infos.push(i.clone()));
    (result, infos)
}
