//! Skill levels and Lazy SMP: deterministic properties only.

use chimera_engine::{Engine, EngineOptions, Limits, Score, Strength};
use chimera_rules::{AnyPosition, Position, RuleOptions, Variant};
use std::sync::atomic::AtomicBool;

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1NPP/PPP1NPB1/R1BQ1RK1 b - - 0 9",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 8",
];

fn best(fen: &str, strength: &Strength, seed: u64) -> String {
    let pos = AnyPosition::from_fen(Variant::Chess, fen, &RuleOptions::default()).unwrap();
    let mut e = Engine::new(EngineOptions { hash_mb: 4, ..Default::default() });
    e.seed = seed;
    let limits = Limits { depth: Some(6), ..Default::default() };
    let r = e.search(&pos, &[], &limits, strength, &AtomicBool::new(false), &mut |_| {});
    let m = r.best.unwrap();
    assert!(pos.is_legal(m));
    m.to_string()
}

/// A weakened level is reproducible: same seed, same position, same move.
#[test]
fn weak_levels_are_deterministic_for_a_seed() {
    let s = Strength { skill: 3, elo: None };
    for fen in FENS {
        assert_eq!(best(fen, &s, 7), best(fen, &s, 7));
    }
}

/// Level 0 does not simply play the full-strength moves.
#[test]
fn level_zero_differs_from_full_strength() {
    let weak = Strength { skill: 0, elo: None };
    let full = Strength::default();
    let differ = FENS.iter().filter(|f| best(f, &weak, 1) != best(f, &full, 1)).count();
    assert!(differ >= 2, "level 0 chose the full-strength move in {} of {} positions", FENS.len() - differ, FENS.len());
}

/// Elo maps linearly onto the levels, 600 -> 0 and 2800 -> 20.
#[test]
fn elo_maps_onto_skill() {
    let at = |elo| Strength { skill: 20, elo: Some(elo) }.effective_skill();
    assert_eq!(at(100), 0);
    assert_eq!(at(600), 0);
    assert_eq!(at(1700), 10);
    assert_eq!(at(2800), 20);
    assert_eq!(at(4000), 20);
    assert!((600..2800).step_by(100).map(at).collect::<Vec<_>>().windows(2).all(|w| w[0] <= w[1]));
}

/// Lazy SMP: with several threads the result is still a legal move and a
/// forced mate is still found.
#[test]
fn several_threads_find_the_mate() {
    let pos =
        AnyPosition::from_fen(Variant::Chess, "2k5/8/8/8/8/8/8/R3K2R w - - 0 1", &RuleOptions::default()).unwrap();
    let mut e = Engine::new(EngineOptions { hash_mb: 8, threads: 3, multi_pv: 1, ..Default::default() });
    let r = e.search(
        &pos,
        &[],
        &Limits { depth: Some(8), ..Default::default() },
        &Strength::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(r.score, Score::Mate(3));
    assert!(pos.is_legal(r.best.unwrap()));
}

/// The histories persist from one search to the next of a game (a second
/// search of the same position, the table cleared in between, differs from
/// a fresh engine's), and `new_game` clears them with the table (then it is
/// a fresh engine's search again).
#[test]
fn histories_persist_within_a_game_and_new_game_clears_them() {
    let run = |e: &mut Engine, fen: &str| {
        let pos = AnyPosition::from_fen(Variant::Chess, fen, &RuleOptions::default()).unwrap();
        let r = e.search(
            &pos,
            &[],
            &Limits { depth: Some(7), ..Default::default() },
            &Strength::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert!(pos.is_legal(r.best.unwrap()));
        r.nodes
    };
    let opts = || EngineOptions { hash_mb: 4, ..Default::default() };
    let fresh = run(&mut Engine::new(opts()), FENS[2]);
    let mut e = Engine::new(opts());
    run(&mut e, FENS[3]);
    run(&mut e, FENS[2]);
    // Only the histories carry over: the table is cleared in between.
    e.clear_hash();
    let warm = run(&mut e, FENS[2]);
    assert_ne!(warm, fresh, "the second search learned nothing from the first");
    run(&mut e, FENS[3]);
    e.new_game();
    assert_eq!(run(&mut e, FENS[2]), fresh);
}
