//! Mate finding in orthodox chess: hand-made positions with a unique
//! mating line, searched to a fixed depth (deterministic: one thread).

use chimera_engine::{Engine, EngineOptions, Limits, Score, SearchResult, Strength};
use chimera_rules::{AnyPosition, RuleOptions, Variant};
use std::sync::atomic::AtomicBool;

fn search(fen: &str, depth: u32) -> SearchResult {
    let pos = AnyPosition::from_fen(Variant::Chess, fen, &RuleOptions::default()).unwrap();
    let mut e = Engine::new(EngineOptions::default());
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let mut infos = Vec::new();
    let r = e.search(
        &pos,
        &[],
        &limits,
        &Strength::default(),
        &AtomicBool::new(false),
        &mut |i| infos.push(i.clone()),
    );
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

/// Mate in one with the king's opposition: Rb8#.
#[test]
fn mate_in_one_opposition() {
    let r = search("6k1/8/6K1/8/8/8/8/1R6 w - - 0 1", 4);
    assert_eq!(r.best.unwrap().to_string(), "b1b8");
    assert_eq!(r.score, Score::Mate(1));
}

/// Scholar's mate: Qxf7#.
#[test]
fn mate_in_one_scholar() {
    let r = search(
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
        4,
    );
    assert_eq!(r.best.unwrap().to_string(), "f3f7");
    assert_eq!(r.score, Score::Mate(1));
}

/// Légal-style mate in two, the only first move (checked by brute force
/// with python-chess): 1.Nf6+ gxf6 2.Bxf7#.
#[test]
fn mate_in_two_unique_knight_sacrifice() {
    let r = search(
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        6,
    );
    assert_eq!(r.best.unwrap().to_string(), "d5f6");
    assert_eq!(r.score, Score::Mate(2));
}

/// Two-rook ladder, mate in two: 1.Ra7 (or 1.Rb7) and mate on the 8th rank.
#[test]
fn mate_in_two_rook_ladder() {
    let r = search("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 6);
    assert!(
        ["a2a7", "b1b7"].contains(&r.best.unwrap().to_string().as_str()),
        "{:?}",
        r.best
    );
    assert_eq!(r.score, Score::Mate(2));
}

/// Mate in three with two rooks against a king on c8 (first moves h1h7 or
/// a1a7, no mate in two: brute-forced with python-chess).
#[test]
fn mate_in_three_rooks() {
    let r = search("2k5/8/8/8/8/8/8/R3K2R w - - 0 1", 8);
    assert!(
        ["h1h7", "a1a7"].contains(&r.best.unwrap().to_string().as_str()),
        "{:?}",
        r.best
    );
    assert_eq!(r.score, Score::Mate(3));
}

/// The side being mated sees it: after 1.Nf6+ Black is mated in one more move
/// whatever it plays (score `mate -1`).
#[test]
fn being_mated_is_negative() {
    let r = search(
        "r2qkb1r/pp2nppp/3p1N2/2p1N1B1/2BnP3/3P4/PPP2PPP/R2bK2R b KQkq - 2 1",
        5,
    );
    assert_eq!(r.score, Score::Mate(-1));
}

/// No legal move: no best move; checkmate scores mate 0, stalemate 0.
#[test]
fn no_legal_move() {
    let mated = search_no_info("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    assert_eq!((mated.best, mated.score), (None, Score::Mate(0)));
    let stalemate = search_no_info("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!((stalemate.best, stalemate.score), (None, Score::Cp(0)));
}

fn search_no_info(fen: &str) -> SearchResult {
    let pos = AnyPosition::from_fen(Variant::Chess, fen, &RuleOptions::default()).unwrap();
    let mut e = Engine::new(EngineOptions {
        hash_mb: 1,
        ..Default::default()
    });
    e.search(
        &pos,
        &[],
        &Limits {
            depth: Some(3),
            ..Default::default()
        },
        &Strength::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

/// Avoids a draw by repetition when winning: the game history (hashes of
/// earlier positions) makes the repeating move worth 0, so with a queen up
/// the engine plays something else. Here White could go back with Qd1-d2
/// to a position seen twice.
#[test]
fn threefold_history_is_a_draw_in_search() {
    use chimera_rules::Position;
    let opts = RuleOptions::default();
    let start =
        AnyPosition::from_fen(Variant::Chess, "7k/8/8/8/8/8/3Q4/K7 w - - 0 1", &opts).unwrap();
    // Qd2-d1, Kh8-g8, Qd1-d2, Kg8-h8, Qd2-d1, Kh8-g8: now Qd1-d2 repeats.
    let mut pos = start.clone();
    let mut hist = Vec::new();
    for m in ["d2d1", "h8g8", "d1d2", "g8h8", "d2d1", "h8g8"] {
        hist.push(pos.hash());
        let mv = pos.parse_uci(m).unwrap();
        pos.play_unchecked(mv);
    }
    let mut e = Engine::new(EngineOptions {
        hash_mb: 1,
        ..Default::default()
    });
    let r = e.search(
        &pos,
        &hist,
        &Limits {
            depth: Some(6),
            ..Default::default()
        },
        &Strength::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_ne!(
        r.best.unwrap().to_string(),
        "d1d2",
        "the engine walks into a repetition while a queen up"
    );
    match r.score {
        Score::Cp(c) => assert!(c > 500, "score {c}"),
        Score::Mate(m) => assert!(m > 0),
    }
}
