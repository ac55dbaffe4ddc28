//! The material-only yardstick (`EngineOptions::baseline`, UCI option
//! `Baseline`): it must play legal, sensible moves in every variant, find
//! what plain alpha-beta finds (a short mate, a free piece), and know no
//! positional term (a quiet position scores exactly the material).

mod common;

use chimera_engine::{EngineOptions, Score, SearchResult};
use chimera_rules::{AnyPosition, Position, RuleOptions, Variant};

fn baseline(variant: Variant, fen: Option<&str>, depth: u32) -> SearchResult {
    let opts = RuleOptions::default();
    let pos = match fen {
        Some(f) => AnyPosition::from_fen(variant, f, &opts).unwrap(),
        None => AnyPosition::new(variant, &opts),
    };
    let (r, infos) = common::search_to_depth(&pos, &[], EngineOptions { baseline: true, ..Default::default() }, depth);
    assert_eq!(infos.len(), depth as usize, "one info per completed depth");
    if let Some(m) = r.best {
        assert!(pos.is_legal(m), "{variant}: illegal best move {m}");
    }
    r
}

#[test]
fn finds_a_mate_in_two() {
    // Ladder mate: 1.Ra7 (the 7th rank cut) Kf8/Kh8 2.Rb8#. Plain
    // alpha-beta at depth 3 must see it.
    let r = baseline(Variant::Chess, Some("6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1"), 3);
    assert_eq!(r.score, Score::Mate(2));
}

#[test]
fn takes_a_free_queen_and_counts_only_material() {
    let r = baseline(Variant::Chess, Some("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1"), 2);
    assert_eq!(r.best.unwrap().to_string(), "d1d5");
    // Rook against nothing: exactly the rook's material value, no PST or tempo.
    let v = chimera_engine::eval::simple_value(chimera_rules::Role::Rook, chimera_rules::Square::A1);
    assert_eq!(r.score, Score::Cp(v));
}

#[test]
fn plays_every_variant_from_the_start() {
    for v in Variant::ALL {
        let r = baseline(v, None, 3);
        assert!(r.best.is_some(), "{v}: no move");
        // Material is level at the start of every variant.
        assert!(matches!(r.score, Score::Cp(s) if s.abs() < 1000), "{v}: {:?}", r.score);
    }
}

#[test]
fn genesis_material_counts_the_reserve() {
    // At the start everything is in reserve: level material, so a depth-1
    // search scores 0 whatever King placement it picks.
    let r = baseline(Variant::Genesis, None, 1);
    assert_eq!(r.score, Score::Cp(0));
}
