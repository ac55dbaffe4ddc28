//! Mate finding: hand-made positions with a unique mating line, searched to
//! a fixed depth (deterministic: one thread, no time limit). Orthodox chess
//! first, then one or more per variant; each variant mate is checked with
//! the rules crate too (`is_checkmate()` after the mating move), so a test
//! fails if the position does not mean what its comment says.

mod common;

use chimera_engine::{EngineOptions, Score, SearchResult};
use chimera_rules::{AnyPosition, RuleOptions, Variant};

/// The orthodox cases are searched twice, with the hand-made evaluation and
/// with the built-in chess net (`Use NNUE`, default `NNUE Hybrid`): both must
/// see the same mate at the same depth. Returns the hand-made search.
fn search(fen: &str, depth: u32) -> SearchResult {
    let pos = AnyPosition::from_fen(Variant::Chess, fen, &RuleOptions::default()).unwrap();
    let with = |use_nnue| common::search_to_depth(&pos, &[], EngineOptions { use_nnue, ..Default::default() }, depth).0;
    let (r, n) = (with(false), with(true));
    assert_eq!(n.score, r.score, "{fen}: with the net {:?} {:?}, by hand {:?} {:?}", n.score, n.best, r.score, r.best);
    r
}

fn search_in(variant: Variant, opts: &RuleOptions, fen: &str, depth: u32) -> SearchResult {
    let pos = AnyPosition::from_fen(variant, fen, opts).unwrap();
    let (r, infos) = common::search_to_depth(&pos, &[], EngineOptions::default(), depth);
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
    let r = search("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1", 4);
    assert_eq!(r.best.unwrap().to_string(), "f3f7");
    assert_eq!(r.score, Score::Mate(1));
}

/// Légal-style mate in two, the only first move (checked by brute force
/// with python-chess): 1.Nf6+ gxf6 2.Bxf7#.
#[test]
fn mate_in_two_unique_knight_sacrifice() {
    let r = search("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 6);
    assert_eq!(r.best.unwrap().to_string(), "d5f6");
    assert_eq!(r.score, Score::Mate(2));
}

/// Two-rook ladder, mate in two: 1.Ra7 (or 1.Rb7) and mate on the 8th rank.
#[test]
fn mate_in_two_rook_ladder() {
    let r = search("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 6);
    assert!(["a2a7", "b1b7"].contains(&r.best.unwrap().to_string().as_str()), "{:?}", r.best);
    assert_eq!(r.score, Score::Mate(2));
}

/// Mate in three with two rooks against a king on c8 (first moves h1h7 or
/// a1a7, no mate in two: brute-forced with python-chess).
#[test]
fn mate_in_three_rooks() {
    let r = search("2k5/8/8/8/8/8/8/R3K2R w - - 0 1", 8);
    assert!(["h1h7", "a1a7"].contains(&r.best.unwrap().to_string().as_str()), "{:?}", r.best);
    assert_eq!(r.score, Score::Mate(3));
}

/// The side being mated sees it: after 1.Nf6+ Black is mated in one more move
/// whatever it plays (score `mate -1`).
#[test]
fn being_mated_is_negative() {
    let r = search("r2qkb1r/pp2nppp/3p1N2/2p1N1B1/2BnP3/3P4/PPP2PPP/R2bK2R b KQkq - 2 1", 5);
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
    let options = EngineOptions { hash_mb: 1, ..Default::default() };
    common::search_to_depth(&pos, &[], options, 3).0
}

/// Avoids a draw by repetition when winning: the game history (hashes of
/// earlier positions) makes the repeating move worth 0, so with a queen up
/// the engine plays something else. Here White could go back with Qd1-d2
/// to a position seen twice.
#[test]
fn threefold_history_is_a_draw_in_search() {
    use chimera_rules::Position;
    let opts = RuleOptions::default();
    let start = AnyPosition::from_fen(Variant::Chess, "7k/8/8/8/8/8/3Q4/K7 w - - 0 1", &opts).unwrap();
    // Qd2-d1, Kh8-g8, Qd1-d2, Kg8-h8, Qd2-d1, Kh8-g8: now Qd1-d2 repeats.
    let mut pos = start.clone();
    let mut hist = Vec::new();
    for m in ["d2d1", "h8g8", "d1d2", "g8h8", "d2d1", "h8g8"] {
        hist.push(pos.hash());
        let mv = pos.parse_uci(m).unwrap();
        pos.play_unchecked(mv);
    }
    let options = EngineOptions { hash_mb: 1, ..Default::default() };
    let (r, _) = common::search_to_depth(&pos, &hist, options, 6);
    assert_ne!(r.best.unwrap().to_string(), "d1d2", "the engine walks into a repetition while a queen up");
    match r.score {
        Score::Cp(c) => assert!(c > 500, "score {c}"),
        Score::Mate(m) => assert!(m > 0),
    }
}

/// A second occurrence is no draw: the game goes on. From a game against
/// Stockfish (docs/strength.md §51), White's only move, Kf2-g1, brings back
/// the position after 29. b5, and Black mates soon after (Ng4). Counting
/// that single repeat a draw scored the lost position 0.00.
#[test]
fn a_second_occurrence_before_the_root_is_no_draw() {
    use chimera_rules::Position;
    let moves = "b2b4 b8c6 a2a3 d7d5 g1h3 c6d4 c1b2 c8h3 b2d4 h3g4 h2h3 g4h5 d1c1 f7f6 d4b2 e7e6 \
                 c2c4 d8d7 e2e3 c7c6 d2d4 g8h6 b1d2 f6f5 f1d3 f8d6 d2b3 d7e7 e1g1 e8g8 c4c5 d6c7 \
                 f2f4 g8h8 b3a5 g7g5 a5b7 g5f4 b7d6 f8g8 f1f4 g8g3 c1e1 a8g8 d3f1 g3h3 d6c4 h5f3 \
                 b2c3 f3e4 c4e5 e7g5 e1e2 c7e5 d4e5 g5g3 b4b5 g3h2 g1f2 h2g3";
    let mut pos = AnyPosition::new(Variant::Chess, &RuleOptions::default());
    let mut hist = Vec::new();
    for m in moves.split_whitespace() {
        hist.push(pos.hash());
        let mv = pos.parse_uci(m).unwrap();
        pos.play_unchecked(mv);
    }
    assert_eq!(pos.legal_move_list().len(), 1);
    let after_kg1 = pos.after(pos.parse_uci("f2g1").unwrap()).hash();
    assert_eq!(hist.iter().filter(|&&h| h == after_kg1).count(), 1, "Kg1 repeats one earlier position");
    let options = EngineOptions { hash_mb: 1, ..Default::default() };
    let (r, _) = common::search_to_depth(&pos, &hist, options, 8);
    assert_eq!(r.best.unwrap().to_string(), "f2g1");
    match r.score {
        Score::Cp(c) => assert!(c < -300, "score {c}"),
        Score::Mate(m) => assert!(m < 0, "mate {m}"),
    }
}

/// The position after `uci` (parsed by the rules crate, so it must be legal).
fn after(variant: Variant, opts: &RuleOptions, fen: &str, uci: &str) -> AnyPosition {
    use chimera_rules::Position;
    let pos = AnyPosition::from_fen(variant, fen, opts).unwrap();
    let m = pos.parse_uci(uci).unwrap_or_else(|e| panic!("{uci} in {fen}: {e}"));
    pos.after(m)
}

/// Searches `fen` and checks that the engine finds `mating` with score
/// `mate 1`, and that the rules crate agrees it is checkmate.
fn assert_mate_in_one(variant: Variant, opts: &RuleOptions, fen: &str, mating: &str, depth: u32) {
    use chimera_rules::Position;
    assert!(after(variant, opts, fen, mating).is_checkmate(), "{mating} does not mate in {fen}");
    let r = search_in(variant, opts, fen, depth);
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some(mating), "{fen}");
    assert_eq!(r.score, Score::Mate(1), "{fen}");
}

/// Genie: Black's King on h8 is walled in by its own Rook (g8), Knight (g7)
/// and pawn (h7). The Genie leaps d4-f6 (two diagonal steps over e5, an
/// ordinary move, no double jump) and checks h8 by leaping over g7: a Genie
/// check cannot be blocked, and nothing of Black attacks f6 (the g7 Knight
/// covers e8 e6 f5 h5; the h7 pawn takes only on g6). f6 is the only
/// square within the Genie's reach that checks h8.
#[test]
fn genie_mate_in_one_by_leap() {
    assert_mate_in_one(Variant::Genie, &RuleOptions::default(), "6rk/6np/8/8/3G4/8/8/K7 w - - 0 1", "d4f6", 3);
}

/// Clown: a Clown on the d-file moves as a Queen limited to 4 squares. From
/// d4 it goes up 4 squares to d8 and checks h8 along the rank (e8 f8 g8 h8:
/// exactly 4 squares). g8 is covered, g7 and h7 are Black's own pawns.
/// Without the 4-square limit d1-d8 would mate too; here the Clown stands on
/// d4 so the mate uses the limit's full reach.
#[test]
fn clown_mate_in_one_d_file_queen() {
    let fen = "7k/6pp/8/8/3C4/8/8/K7 w - - 0 1";
    assert_mate_in_one(Variant::Clown, &RuleOptions::default(), fen, "d4d8", 3);
}

/// Clown reach: from d1 the same Clown cannot reach d8 (7 squares), so
/// there is no mate in one; the rules crate refuses d1d8.
#[test]
fn clown_on_d1_has_no_back_rank_mate() {
    use chimera_rules::Position;
    let fen = "7k/6pp/8/8/8/8/8/K2C4 w - - 0 1";
    let pos = AnyPosition::from_fen(Variant::Clown, fen, &RuleOptions::default()).unwrap();
    assert!(pos.parse_uci("d1d8").is_err());
    let r = search_in(Variant::Clown, &RuleOptions::default(), fen, 3);
    assert_ne!(r.score, Score::Mate(1));
}

/// Magic Ring: White's ring at level 1 (power list QNRB: a Queen power)
/// sits on the Knight on a1, so the Knight may also move as a Queen:
/// a1-a8 checks h8 along the empty back rank, g7/h7 are Black's own pawns.
/// The mate exists only through the ring: with the rings on the Kings the
/// rules crate refuses a1a8 (a Knight move cannot go there).
#[test]
fn magicring_mate_in_one_by_ring_power() {
    use chimera_rules::Position;
    let opts = RuleOptions::default();
    let with_ring = "7k/6pp/8/8/8/8/8/N5K1 w - - 0 1 rings:a1.1,h8.0";
    assert_mate_in_one(Variant::MagicRing, &opts, with_ring, "a1a8", 3);
    let plain = "7k/6pp/8/8/8/8/8/N5K1 w - - 0 1";
    let pos = AnyPosition::from_fen(Variant::MagicRing, plain, &opts).unwrap();
    assert!(pos.parse_uci("a1a8").is_err(), "a Knight without ring reaches a8");
    let r = search_in(Variant::MagicRing, &opts, plain, 3);
    assert_ne!(r.score, Score::Mate(1));
}

/// Genesis, mate that no placement can block: Qg6-g7 is a contact check
/// (protected by the King on f6); g8 and h7 are covered by the Queen. Black
/// still holds pieces in reserve, but a placement cannot capture and cannot
/// stand between adjacent squares, so it is mate.
#[test]
fn genesis_contact_mate_not_blockable() {
    assert_mate_in_one(
        Variant::Genesis,
        &RuleOptions::default(),
        "7k/8/5KQ1/8/8/8/8/8[qrrbbnnpppppppp] w - - 0 1",
        "g6g7",
        3,
    );
}

/// Genesis, the back-rank "mate" that a placement blocks. The black King on
/// h8 is boxed in by the white King (f7 covers g8 g7) and a Genesis pawn on
/// g6 (it attacks its four diagonal neighbours, h7 among them); Black's
/// pawn on h6 shuts the h-file (else Ra1-h1 would mate too). Ra1-a8
/// checks along the rank:
/// - Black's reserve empty: mate in one (the rules crate agrees);
/// - Black holds one Rook: a8 is NOT mate, the Rook is placed on b8..g8 to
///   block (the legal replies are exactly those placements, f8 excluded as
///   it would check the King on f7), and the engine must not report mate in
///   one. White then takes the blocker with check and it is mate: mate in 2.
#[test]
fn genesis_placement_blocks_back_rank_check() {
    use chimera_rules::{MoveKind, Position};
    let opts = RuleOptions::default();
    let empty = "7k/5K2/6Pp/8/8/8/8/R7[] w - - 0 1";
    assert_mate_in_one(Variant::Genesis, &opts, empty, "a1a8", 4);

    let rook = "7k/5K2/6Pp/8/8/8/8/R7[r] w - - 0 1";
    let checked = after(Variant::Genesis, &opts, rook, "a1a8");
    assert!(checked.is_check());
    assert!(!checked.is_checkmate(), "a placement blocks the check");
    let mut replies: Vec<String> = checked
        .legal_move_list()
        .iter()
        .map(|m| {
            assert_eq!(m.kind, MoveKind::Drop(chimera_rules::Role::Rook), "{m}");
            m.to_string()
        })
        .collect();
    replies.sort();
    assert_eq!(replies, ["R@b8", "R@c8", "R@d8", "R@e8", "R@g8"]);
    let r = search_in(Variant::Genesis, &opts, rook, 5);
    assert_ne!(r.score, Score::Mate(1), "the engine reports a blockable check as mate");
    assert_eq!(r.score, Score::Mate(2));
}
