//! Shared by the engine's integration tests: one deterministic fixed-depth
//! search (one thread, no clock) from `pos` after the game `history` (the
//! hashes of earlier positions), keeping every `info` it reported.

use chimera_engine::{Engine, EngineOptions, Limits, SearchInfo, SearchResult, Strength};
use chimera_rules::AnyPosition;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// A writer into a shared buffer: what the UCI loop says, read back by the
/// test (`uci::run` takes the writer and keeps it).
#[allow(dead_code)] // each test binary uses what it needs of this module
#[derive(Clone, Default)]
pub struct Shared(pub Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[allow(dead_code)]
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
