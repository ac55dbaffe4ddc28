//! Mate finding in orthodox chess: hand-made positions with a unique
//! mating line, searched to a fixed depth (deterministic: one thread).

use chimera_engine::{Engine, EngineOptions, Limits, Score, SearchResult, Strength};
use chimera_rules::{AnyPosition, RuleOptions, Variant};
use std::sync::atomic::AtomicBool;

fn search(fen: &str, depth: u32) -> SearchResult {
    let pos = AnyPosition::from_fen(Variant::Chess, fen, &RuleOptions::default()).unwrap();
    let mut e = Engine::new(EngineOptions::default());
    let limits = Limits { depth: Some(depth), ..Default::default() };
    let mut infos = Vec::new();
    let r = e.search(&pos, &[], &limits, &Strength::default(), &AtomicBool::new(false), &mut |i| infos.push(i.clone()));
    assert!(!infos.is_empty(), "the search reports at least one info");
    r
}

/// Back-rank mate: Ra8# (the f7-g7-h7 pawns box the king in).
#[test]
fn mate_in_one_back_rank() {
    let r = search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3);
    assert_eq!(r.best.unwrap().to_string(), "a1a8");
    assert_eq!(r.score, Score::Mate(1));
}

