//! Magic Ring Chess (`docs/rules/magicring.md`): hand-worked positions,
//! each with the reason for its expected moves, the perft data positions
//! replayed from real move sequences, and a cross-check of every data
//! position against the naive reference generator in `magicring_reference`.

mod magicring_reference;

use chimera_rules::pgn::{read_pgn, write_pgn};
use chimera_rules::san::{parse_san, to_san};
use chimera_rules::{
    AnyPosition, Color, FenError, Game, MagicRing, Move, MoveKind, Position, RingPowers, Role, RuleOptions, Square,
};
use magicring_reference::Ref;
use std::collections::BTreeSet;
use std::path::Path;

fn powers(s: &str) -> RingPowers {
    s.parse().unwrap()
}

fn fen(f: &str) -> MagicRing {
    MagicRing::from_fen(f, &RingPowers::default()).unwrap_or_else(|e| panic!("{f}: {e}"))
}

fn names(p: &MagicRing) -> BTreeSet<String> {
    p.legal_move_list().iter().map(|m| m.to_string()).collect()
}

fn from_sq(p: &MagicRing, sq: &str) -> BTreeSet<String> {
    names(p).into_iter().filter(|m| m.starts_with(sq)).collect()
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn play(p: &mut MagicRing, uci: &str) -> Move {
    let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{e} in {}", p.fen()));
    p.play_unchecked(m);
    m
}

fn replay(list: &str, moves: &str) -> MagicRing {
    let mut p = MagicRing::new(powers(list));
    for m in moves.split_whitespace() {
        play(&mut p, m);
    }
    p
}

#[test]
fn start_position_counts() {
    // 20 orthodox moves + 5 passes from the King (d1 d2 e2 f2 f1).
    let p = MagicRing::new(RingPowers::default());
    assert_eq!(p.count_legal_moves(), 25);
    assert_eq!(chimera_rules::perft::perft(&p, 2), 625);
    assert_eq!(p.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let passes: Vec<String> = p
        .legal_move_list()
        .iter()
        .filter(|m| matches!(m.kind, MoveKind::RingPass(None)))
        .map(|m| m.to_string())
        .collect();
    assert_eq!(passes.len(), 5);
}

#[test]
fn bishop_with_queen_ring_checks_along_a_file() {
    // White's ring at level 1 (Queen) on the Bishop e4: the Bishop now
    // moves as a Queen too, so it checks the King e8 along the e-file.
    let p = fen("4k3/8/8/8/4B3/8/8/7K b - - 0 1 rings:e4.1,e8.0");
    assert!(p.is_check());
    assert_eq!(p.checkers().first(), Some(Square::E4));
    // e7 is on the file; d7/f7/d8/f8 are free. No pass while in check.
    assert_eq!(names(&p), set(&["e8d8", "e8f8", "e8d7", "e8f7"]));
    // Same board, ring still on the White King: no check.
    let q = fen("4k3/8/8/8/4B3/8/8/7K b - - 0 1");
    assert!(!q.is_check());
}

#[test]
fn pin_that_exists_only_through_a_ring_power() {
    // Black's ring at level 3 (Rook) on the Bishop e5 makes it a Rook on
    // the e-file: the Knight e3 stands between it and the King e1.
    let p = fen("k7/8/8/4b3/8/4N3/8/4K3 w - - 0 1 rings:e1.0,e5.3");
    assert!(from_sq(&p, "e3").is_empty(), "pinned knight moved: {:?}", from_sq(&p, "e3"));
    // At level 4 (Bishop) the power adds nothing on the file: all 8 knight moves.
    let q = fen("k7/8/8/4b3/8/4N3/8/4K3 w - - 0 1 rings:e1.0,e5.4");
    assert_eq!(from_sq(&q, "e3").len(), 8);
}

#[test]
fn every_pass_is_refused_in_check() {
    // The Bishop h4 checks e1 through the empty f2. White holds both its own
    // ring (on the King) and Black's ring (on the Queen d1, level 2).
    let p = fen("4k3/8/8/8/7b/8/3PP3/3QK3 w - - 0 1 rings:e1.0,d1.2");
    assert!(p.is_check());
    assert!(p.legal_move_list().iter().all(|m| !matches!(m.kind, MoveKind::RingPass(_))));
    let e = p.parse_uci("e1d2").unwrap_err();
    assert!(e.reason.contains("check"), "{e}");
    // Without the check the same passes exist: e1 -> d1 d2 e2, d1 -> d2 e2 e1.
    let q = fen("4k3/8/8/8/8/7b/3PP3/3QK3 w - - 0 1 rings:e1.0,d1.2");
    assert!(!q.is_check());
    let passes: BTreeSet<String> =
        q.legal_move_list().iter().filter(|m| matches!(m.kind, MoveKind::RingPass(_))).map(|m| m.to_string()).collect();
    assert_eq!(passes, set(&["e1d1", "e1d2", "e1e2", "d1d2", "d1e2", "d1e1"]));
}

#[test]
fn capturing_a_carrier_takes_its_ring_one_level_up_with_wrap() {
    // The Knight h2 holds Black's ring at level 4 (Bishop), the last of QNRB.
    // Rxh2 takes it: the ring goes to the Rook at level 1 (wraps to Queen).
    let mut p = fen("4k3/8/8/8/8/8/7n/4K2R w - - 0 1 rings:e1.0,h2.4");
    play(&mut p, "h1h2");
    assert_eq!(p.ring(Color::Black), (Square::H2, 1));
    assert_eq!(p.powers_at(Square::H2), vec![Role::Queen]);
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/7R/4K3 b - - 0 1 rings:e1.0,h2.1");
    // Without wrap: level 2 (Knight) becomes level 3 (Rook).
    let mut q = fen("4k3/8/8/8/8/8/7n/4K2R w - - 0 1 rings:e1.0,h2.2");
    play(&mut q, "h1h2");
    assert_eq!(q.ring(Color::Black), (Square::H2, 3));
    // A list of one power: every change lands on level 1 again.
    let mut r = MagicRing::from_fen("4k3/8/8/8/8/8/7n/4K2R w - - 0 1 rings:e1.0,h2.1", &powers("N")).unwrap();
    play(&mut r, "h1h2");
    assert_eq!(r.ring(Color::Black), (Square::H2, 1));
}

#[test]
fn a_piece_with_both_rings_passes_one() {
    // The Queen d4 holds White's ring (level 2) and Black's ring (level 3):
    // each pass names its ring, w or b.
    let p = fen("4k3/8/8/8/3QP3/8/8/4K3 w - - 0 1 rings:d4.2,d4.3");
    let passes: BTreeSet<String> =
        p.legal_move_list().iter().filter(|m| matches!(m.kind, MoveKind::RingPass(_))).map(|m| m.to_string()).collect();
    assert_eq!(passes, set(&["d4e4w", "d4e4b"]));
    // The bare string names no move: it needs the ring letter.
    let e = p.parse_uci("d4e4").unwrap_err();
    assert!(e.reason.contains("d4e4w") && e.reason.contains("d4e4b"), "{e}");
    let m = parse_san(&p, "d4~e4(b)").unwrap();
    assert_eq!(m.to_string(), "d4e4b");
    assert_eq!(to_san(&p, m), "d4~e4(b)");
    let mut q = p.clone();
    q.play_unchecked(m);
    assert_eq!(q.ring(Color::Black), (Square::E4, 4));
    assert_eq!(q.ring(Color::White), (Square::D4, 2));
    // A pass is not a pawn move nor a capture: the clock runs on.
    assert_eq!(q.halfmoves(), 1);
    // The Pawn e4 now has Bishop power, the Queen keeps Knight power.
    assert_eq!(q.powers_at(Square::E4), vec![Role::Bishop]);
    assert_eq!(q.powers_at(Square::D4), vec![Role::Knight]);
}

#[test]
fn king_capturing_a_carrier_takes_the_ring_without_power() {
    // White's Bishop d7 with White's ring at level 1 (Queen) checks e8; the
    // King takes it and with it the ring (now level 2, Knight).
    let mut p = fen("4k3/3B4/8/8/8/8/8/4K3 b - - 0 1 rings:d7.1,e8.0");
    assert!(p.is_check());
    play(&mut p, "e8d7");
    assert_eq!(p.ring(Color::White), (Square::D7, 2));
    assert_eq!(p.ring(Color::Black), (Square::D7, 0));
    assert!(p.powers_at(Square::D7).is_empty());
    play(&mut p, "e1e2");
    // The King moves only as a King: no knight jumps; passes need a neighbour.
    assert_eq!(from_sq(&p, "d7"), set(&["d7c8", "d7d8", "d7e8", "d7c7", "d7e7", "d7c6", "d7d6", "d7e6"]));
    // ...and attacks only as a King: a White King a knight's jump away is not in check.
    let q = fen("8/3k4/8/4K3/8/8/8/8 w - - 0 1 rings:d7.2,d7.0");
    assert!(!q.is_check());
    assert!(q.is_dead_material(), "K v K: no ring can ever give power");
}

#[test]
fn ringed_pawn_double_step_cannot_be_taken_en_passant() {
    // White passes its ring to the d2 pawn, then d2-d4 passes the e4 pawn:
    // a pawn with a ring is not subject to en passant, so no e4xd3.
    let p = replay("QNRB", "e1d2 e7e5 h2h3 e5e4 d2d4");
    assert!(!names(&p).contains("e4d3"));
    assert_eq!(p.ep_square(), None);
    assert_eq!(p.fen(), "rnbqkbnr/pppp1ppp/8/8/3Pp3/7P/PPP1PPP1/RNBQKBNR b KQkq - 0 3 rings:d4.1,e8.0");
    // The same double step without the ring: e4xd3 en passant.
    let q = replay("QNRB", "h2h3 e7e5 h3h4 e5e4 d2d4");
    assert!(names(&q).contains("e4d3"));
    assert_eq!(q.ep_square(), Some(Square::D3));
}

#[test]
fn ringed_pawn_may_capture_en_passant() {
    // Black's e4 pawn carries Black's ring (Queen power); White's d-pawn
    // double-steps without a ring: e4xd3 is the en-passant capture (pawn
    // geometry wins over the Queen power's quiet move to d3).
    let mut p = replay("QNRB", "a2a3 e8e7 a3a4 e7e5 h2h3 e5e4 d2d4");
    let l = p.legal_move_list();
    let ep: Vec<&Move> = l.iter().filter(|m| m.from == Square::E4 && m.to == Square::D3).collect();
    assert_eq!(ep.len(), 1);
    assert_eq!(ep[0].kind, MoveKind::EnPassant);
    play(&mut p, "e4d3");
    assert!(p.board().piece_at(Square::D4).is_none());
    assert!(!p.tainted().contains(Square::D3), "an en-passant capture is a pawn move");
}

#[test]
fn diagonal_power_onto_the_ep_square_is_the_capture_even_when_illegal() {
    // White f5 pawn with White's ring at level 1 (Queen); Black plays e7-e5
    // (no ring). f5xe6 e.p. would open the rank 5 for the Rook a5 onto the
    // King h5... the King is on h5 and the rook on a5: after removing e5 and
    // f5 the rank is open, so the capture is illegal, and no quiet Queen-power
    // move f5-e6 replaces it.
    let mut p = fen("4k3/4p3/8/r4P1K/8/8/8/8 b - - 0 1 rings:f5.1,e8.0");
    play(&mut p, "e7e5");
    let n = names(&p);
    assert!(!n.contains("f5e6"), "{n:?}");
    // The square still matters (it forbids f5-e6), so the FEN keeps it.
    assert_eq!(p.ep_square(), None);
    assert!(p.fen().contains(" e6 "), "{}", p.fen());
    let back = fen(&p.fen());
    assert_eq!(back, p);
    // Other Queen-power moves of the pawn stand (f5-g6, a power move).
    assert!(n.contains("f5g6"));
}

#[test]
fn tainted_pawn_on_its_second_rank_may_not_double_step() {
    // e2 is tainted (it came back by a power move) and has no ring now.
    let p = fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 tainted:e2");
    assert_eq!(from_sq(&p, "e2"), set(&["e2e3"]));
    // A real game: Black's ringed e-pawn goes e7-e6 and back e6-e7 by its
    // Queen power: tainted; e7-e5 is still possible, but only as a Queen-
    // power move (no double step, so no en-passant square afterwards).
    let mut q = replay("QNRB", "e2e4 e8e7 e1e2 e7e6 e2f1 e6e7");
    assert!(q.tainted().contains(Square::E7));
    play(&mut q, "d2d4");
    let m = q.parse_uci("e7e5").unwrap();
    assert_eq!(m.kind, MoveKind::Normal);
    // And a tainted pawn with a Knight-power ring has no forward two-step at all.
    let r = MagicRing::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 rings:e2.1,e8.0 tainted:e2", &powers("NKQ")).unwrap();
    // e2e1 is the ring pass back to the King.
    assert_eq!(from_sq(&r, "e2"), set(&["e2e3", "e2c1", "e2g1", "e2c3", "e2g3", "e2d4", "e2f4", "e2e1"]));
}

#[test]
fn knight_tainted_pawn_reaches_last_rank_and_stays_a_pawn() {
    // List NKQ: level 1 = Knight. e5-d7 is a Knight-power move: tainted.
    let mut p =
        MagicRing::from_fen("k7/8/8/4P3/8/8/8/4K3 w - - 0 1 rings:e5.1,a8.0 powers:NKQ", &RingPowers::default())
            .unwrap();
    assert_eq!(p.powers().to_string(), "NKQ");
    play(&mut p, "e5d7");
    assert!(p.tainted().contains(Square::D7));
    play(&mut p, "a8a7");
    // d7-d8 is a pawn push, but a tainted pawn never promotes: one plain move.
    let d7: BTreeSet<String> = from_sq(&p, "d7");
    assert!(d7.contains("d7d8") && !d7.iter().any(|m| m.len() == 5), "{d7:?}");
    play(&mut p, "d7d8");
    assert_eq!(p.board().role_at(Square::D8), Some(Role::Pawn));
    assert!(p.tainted().contains(Square::D8));
    play(&mut p, "a7a6");
    // On the last rank the pawn has only its ring's moves (Knight).
    assert_eq!(from_sq(&p, "d8"), set(&["d8b7", "d8c6", "d8e6", "d8f7"]));
}

#[test]
fn untainted_ringed_pawn_must_promote() {
    // e7 carries White's ring at level 1 (Queen). e7-e8 is a pawn push, so
    // it must promote; no plain e7e8 exists. d8/f8 are quiet diagonal moves
    // only the Queen power allows: the pawn stays a pawn there, tainted.
    let p = fen("k7/4P3/8/8/8/8/8/4K3 w - - 0 1 rings:e7.1,a8.0");
    let e7 = from_sq(&p, "e7");
    for s in ["e7e8q", "e7e8r", "e7e8b", "e7e8n", "e7d8", "e7f8"] {
        assert!(e7.contains(s), "{s} missing from {e7:?}");
    }
    assert!(!e7.contains("e7e8"));
    let mut q = p.clone();
    play(&mut q, "e7e8q");
    assert_eq!(q.board().role_at(Square::E8), Some(Role::Queen));
    assert_eq!(q.ring(Color::White), (Square::E8, 1), "promotion keeps the ring");
    let mut r = p.clone();
    play(&mut r, "e7f8");
    assert_eq!(r.board().role_at(Square::F8), Some(Role::Pawn));
    assert!(r.tainted().contains(Square::F8));
}

#[test]
fn castling_with_a_ring_on_the_rook() {
    // The ring walks e1 -> f1 (Bishop) -> g1 (Knight) -> h1 (Rook, level 3);
    // after castling the Rook on f1 still carries it.
    let p = replay("QNRB", "e1f1 a7a6 f1g1 a6a5 g1h1 b7b6 g1f3 b6b5 e2e3 h7h6 f1e2 h6h5 e1g1");
    assert_eq!(p.ring(Color::White), (Square::F1, 3));
    assert_eq!(p.board().role_at(Square::F1), Some(Role::Rook));
    // Castling through a square a ring power attacks is refused: the Knight
    // f5 with Black's ring at level 3 (Rook) sweeps the f-file down to f1.
    let q = fen("4k3/8/8/5n2/8/8/8/4K2R w K - 0 1 rings:e1.0,f5.3");
    assert!(!names(&q).contains("e1g1"));
    let r = fen("4k3/8/8/5n2/8/8/8/4K2R w K - 0 1 rings:e1.0,f5.2");
    assert!(names(&r).contains("e1g1"));
}

#[test]
fn pawn_power_moves_are_not_pawn_moves_for_the_clock() {
    // A Rook-power pawn moving sideways is neither a capture nor a pawn
    // move: the fifty-move clock runs on; a push resets it.
    let mut p = fen("7k/8/8/8/4P3/8/8/4K3 w - - 7 10 rings:e4.3,h8.0");
    let m = p.parse_uci("e4a4").unwrap();
    assert!(!p.is_zeroing(m));
    p.play_unchecked(m);
    assert_eq!(p.halfmoves(), 8);
    assert!(p.tainted().contains(Square::A4));
    play(&mut p, "h8g8");
    let push = p.parse_uci("a4a5").unwrap();
    assert!(p.is_zeroing(push));
    p.play_unchecked(push);
    assert_eq!(p.halfmoves(), 0);
}

#[test]
fn san_of_pawn_power_moves_is_unambiguous() {
    // NKQ: the e2 pawn has Knight power; e2-f4 and f2-f4 both reach f4.
    let p = replay("NKQ", "e1e2 a7a6");
    let power = p.parse_uci("e2f4").unwrap();
    let push = p.parse_uci("f2f4").unwrap();
    let (a, b) = (to_san(&p, power), to_san(&p, push));
    assert_ne!(a, b);
    assert_eq!(parse_san(&p, &a).unwrap(), power);
    assert_eq!(parse_san(&p, &b).unwrap(), push);
    // Every legal move's SAN reads back as that move, in every data position.
    for case in cases() {
        let p = case_position(&case);
        for &m in p.legal_move_list().iter() {
            let s = to_san(&p, m);
            assert_eq!(parse_san(&p, &s), Ok(m), "{} in {}", s, p.fen());
        }
    }
}

#[test]
fn repetition_sees_ring_levels() {
    // Passing the ring back and forth changes its level: the positions
    // differ (hash too) until the level comes round again.
    let mut g = Game::new(fen("7k/8/8/8/8/8/3P4/4K3 w - - 0 1"));
    let start_hash = g.position().hash();
    for m in ["e1d2", "h8g8", "d2e1", "g8h8"] {
        let mv = g.position().parse_uci(m).unwrap();
        g.play(mv).unwrap();
    }
    assert_ne!(g.position().hash(), start_hash, "ring level 2 on the King differs from level 0");
    assert_eq!(g.repetitions(), 1);
    // Knight shuffles with the ring untouched do repeat.
    let mut g = Game::new(fen("4k1n1/8/8/8/8/8/8/4K1N1 w - - 0 1"));
    for _ in 0..2 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let mv = g.position().parse_uci(m).unwrap();
            g.play(mv).unwrap();
        }
    }
    assert_eq!(g.repetitions(), 3);
}

#[test]
fn fen_errors_are_typed_and_clear() {
    let d = RingPowers::default();
    let bad = |f: &str| MagicRing::from_fen(f, &d).unwrap_err();
    assert!(
        matches!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1 rings:e2.1,e8.0"), FenError::Variant(s) if s.contains("empty square"))
    );
    assert!(
        matches!(bad("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 rings:e2.5,e8.0"), FenError::Variant(s) if s.contains("level 5"))
    );
    assert!(
        matches!(bad("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 rings:e2.0,e8.0"), FenError::Variant(s) if s.contains("level 0"))
    );
    assert!(matches!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1 rings:e1"), FenError::Variant(_)));
    assert!(matches!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1 tainted:e4"), FenError::Variant(s) if s.contains("no pawn")));
    assert!(matches!(bad("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"), FenError::Variant(s) if s.contains("h8")));
    assert!(matches!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1 powers:QX"), FenError::RingPowers(_)));
    assert!(matches!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1 colour:red"), FenError::UnexpectedField(_)));
    assert!(matches!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1 tainted:- tainted:-"), FenError::Variant(_)));
    // The side not to move in check through a ring power alone.
    assert_eq!(bad("4k3/8/8/8/4B3/8/8/7K w - - 0 1 rings:e4.1,e8.0"), FenError::OppositeCheck);
    // Counters may be left out before the named fields.
    assert_eq!(
        MagicRing::from_fen("4k3/8/8/8/4B3/8/8/7K b - - rings:e4.1,e8.0", &d).unwrap().fen(),
        "4k3/8/8/8/4B3/8/8/7K b - - 0 1 rings:e4.1,e8.0"
    );
    assert!(matches!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1 7"), FenError::UnexpectedField(_)));
    // A tainted pawn on the last rank is fine.
    assert!(MagicRing::from_fen("4k2P/8/8/8/8/8/8/4K3 b - - 0 1 tainted:h8", &d).is_ok());
}

#[test]
fn pgn_writes_and_reads_the_power_list() {
    let opts = RuleOptions { ring_powers: powers("NKQ") };
    let start = AnyPosition::new(chimera_rules::Variant::MagicRing, &opts);
    let mut pos = start.clone();
    let mut moves = vec![];
    for s in ["e1e2", "d7d5", "e2d4", "e8d7", "d4c6", "d7c6"] {
        let m = pos.parse_uci(s).unwrap();
        pos.play_unchecked(m);
        moves.push(m);
    }
    let text = write_pgn(&[], &start, &moves, "*");
    assert!(text.contains("[RingPowers \"NKQ\"]"), "{text}");
    assert!(!text.contains("[FEN"), "a game from the start needs no FEN: {text}");
    let g = read_pgn(&text).remove(0).unwrap();
    let (s2, m2) = g.replay().unwrap();
    assert_eq!(m2, moves);
    assert_eq!(s2.fen(), start.fen());
}

// ----- perft data positions: real sequences, and the reference cross-check -----

/// id, power list, moves from the start position.
const SEQUENCES: &[(&str, &str, &str)] = &[
    ("startpos", "QNRB", ""),
    ("pass-king-to-bishop-and-pawn", "QNRB", "e2e4 e8e7 e1e2 e7e6 e2f1"),
    ("queen-takes-ringed-bishop", "QNRB", "e2e4 d7d5 e1f1 d5e4 f1b5 c8d7 b5d7 d8d7"),
    ("queen-holds-both-rings", "QNRB", "e2e4 d7d5 e1f1 d5e4 f1b5 c8d7 b5d7 d8d7 a2a3 e8d7"),
    ("king-takes-ringed-pawn", "QNRB", "e1e2 e7e6 e2h5 e8e7 h5f7 e7f7"),
    ("tainted-pawn-back-home", "QNRB", "e2e4 e8e7 e1e2 e7e6 e2f1 e6e7"),
    ("ringed-double-step-no-ep", "QNRB", "e1d2 e7e5 h2h3 e5e4 d2d4"),
    ("ringed-capturer-ep", "QNRB", "a2a3 e8e7 a3a4 e7e5 h2h3 e5e4 d2d4"),
    ("castled-ring-on-rook", "QNRB", "e1f1 a7a6 f1g1 a6a5 g1h1 b7b6 g1f3 b6b5 e2e3 h7h6 f1e2 h6h5 e1g1"),
    ("nkq-start", "NKQ", ""),
    ("nkq-king-takes-knight-pawn", "NKQ", "e1e2 d7d5 e2d4 e8d7 d4c6 d7c6"),
    ("rb-wrap-on-recapture", "RB", "e1d2 e7e5 d2d4 e5d4 d1d4"),
    ("ringed-pawn-takes-on-d7-check", "QNRB", "e1e2 a7a6 e2e4 a6a5 e4e5 a5a4 e5e6 b7b6 e6d7"),
    ("nkq-knight-pawn-on-last-rank", "NKQ", "e1e2 a7a6 e2d4 a6a5 d4c6 a5a4 c6b8"),
];

struct Case {
    id: String,
    powers: String,
    epd: String,
    perfts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/magicring.perft");
    let text = std::fs::read_to_string(path).unwrap();
    let mut out: Vec<Case> = vec![];
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (k, v) = line.split_once(' ').unwrap();
        match k {
            "id" => {
                out.push(Case { id: v.into(), powers: RingPowers::DEFAULT.into(), epd: String::new(), perfts: vec![] })
            }
            "variant" => assert_eq!(v, "magicring"),
            "powers" => out.last_mut().unwrap().powers = v.into(),
            "epd" => out.last_mut().unwrap().epd = v.into(),
            "perft" => {
                let (d, n) = v.split_once(' ').unwrap();
                out.last_mut().unwrap().perfts.push((d.parse().unwrap(), n.parse().unwrap()));
            }
            _ => panic!("unknown key {k}"),
        }
    }
    out
}

fn case_position(c: &Case) -> MagicRing {
    MagicRing::from_fen(&c.epd, &powers(&c.powers)).unwrap_or_else(|e| panic!("{}: {e}", c.id))
}

#[test]
fn data_positions_are_reached_by_real_sequences() {
    let cases = cases();
    assert!(cases.len() >= 10);
    for &(id, list, moves) in SEQUENCES {
        let c = cases.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("no data case {id}"));
        assert_eq!(c.powers, list, "{id}");
        let p = replay(list, moves);
        assert_eq!(p.fen(), c.epd, "{id}: the sequence does not reach the data position");
    }
    assert_eq!(cases.len(), SEQUENCES.len());
}

/// Walks the tree in both generators at once, comparing the legal move
/// strings at every node, the FEN round trip and the hash.
fn walk(p: &MagicRing, r: &Ref, depth: u32, path: &mut Vec<String>) -> u64 {
    let mine = names(p);
    let theirs: BTreeSet<String> = r.legal().iter().map(|m| m.name()).collect();
    assert_eq!(mine.len(), p.legal_move_list().len(), "duplicate move strings at {}", p.fen());
    assert_eq!(mine, theirs, "after {path:?} ({}): crate vs reference", p.fen());
    assert_eq!(p.is_check(), r.in_check(), "check after {path:?}");
    let back = MagicRing::from_fen(&p.fen(), &RingPowers::default()).unwrap();
    assert_eq!(&back, p, "FEN round trip after {path:?}: {}", p.fen());
    assert_eq!(back.hash(), p.hash());
    if depth <= 1 {
        return mine.len() as u64;
    }
    let mut n = 0;
    for m in p.legal_move_list().iter() {
        let s = m.to_string();
        let mut r2 = r.clone();
        r2.play_str(&s);
        path.push(s);
        n += walk(&p.after(*m), &r2, depth - 1, path);
        path.pop();
    }
    n
}

#[test]
fn reference_generator_agrees_on_every_data_position() {
    for c in cases() {
        let p = case_position(&c);
        let r = Ref::from_fen(&c.epd, &c.powers);
        let depth = 3;
        let n = walk(&p, &r, depth, &mut vec![]);
        assert_eq!(n, r.perft(depth), "{}", c.id);
        if let Some(&(_, expected)) = c.perfts.iter().find(|&&(d, _)| d == depth) {
            assert_eq!(n, expected, "{}: data file depth {depth}", c.id);
        }
    }
}

// ----- property test: random games -----

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Random games with random power lists, biased towards passes and
    /// captures so that rings change hands: at every ply the move list
    /// equals the reference generator's, the FEN round-trips, the hash is
    /// a function of the FEN, SAN reads back, and the clock follows
    /// `is_zeroing`.
    #[test]
    fn random_games_agree_with_the_reference(list in "[QRBNK]{1,8}", choices in prop::collection::vec(any::<u32>(), 1..70)) {
        let mut p = MagicRing::new(powers(&list));
        let mut r = Ref::from_fen(&p.fen(), &list);
        for c in choices {
            let l = p.legal_move_list();
            let mine: BTreeSet<String> = l.iter().map(|m| m.to_string()).collect();
            let theirs: BTreeSet<String> = r.legal().iter().map(|m| m.name()).collect();
            prop_assert_eq!(&mine, &theirs, "at {}", p.fen());
            let back = MagicRing::from_fen(&p.fen(), &RingPowers::default()).unwrap();
            prop_assert_eq!(&back, &p);
            prop_assert_eq!(back.hash(), p.hash());
            prop_assert_eq!(p.board().hash(), p.board().compute_hash());
            if l.is_empty() {
                break;
            }
            let special: Vec<Move> = l.iter().copied().filter(|&m| matches!(m.kind, MoveKind::RingPass(_)) || p.is_capture(m)).collect();
            let m = if c % 3 == 0 && !special.is_empty() {
                special[(c / 3) as usize % special.len()]
            } else {
                l[c as usize % l.len()]
            };
            let s = to_san(&p, m);
            prop_assert_eq!(parse_san(&p, &s), Ok(m), "SAN {} at {}", s, p.fen());
            let zeroing = p.is_zeroing(m);
            let before = p.halfmoves();
            p.play_unchecked(m);
            r.play_str(&m.to_string());
            prop_assert_eq!(p.halfmoves(), if zeroing { 0 } else { before + 1 });
        }
    }
}

#[test]
fn mate_given_only_through_a_ring_power() {
    // The Bishop d1 with White's ring at level 1 (Queen) goes d1-d8 along
    // the file, a move only the power allows: the back rank is shut by the
    // Black pawns, g8-h8 stays on the rank: checkmate.
    let p = fen("6k1/5ppp/8/8/8/8/8/3BK3 w - - 0 1 rings:d1.1,g8.0");
    let q = p.after(p.parse_uci("d1d8").unwrap());
    assert!(q.is_checkmate());
    assert_eq!(q.outcome().map(|o| o.winner()), Some(Some(Color::White)));
    // With the ring still on the King the Bishop has no such move.
    assert!(fen("6k1/5ppp/8/8/8/8/8/3BK3 w - - 0 1").parse_uci("d1d8").is_err());
}

#[test]
fn pawn_on_its_own_first_rank_single_steps_only() {
    // e1 holds a tainted pawn (a power move brought it back). Its pawn move
    // is the single step; e1-e3 exists only as a Rook-power move (level 3).
    let p = fen("4k3/8/8/8/8/8/8/K3P3 w - - 0 1 tainted:e1");
    assert_eq!(from_sq(&p, "e1"), set(&["e1e2"]));
    let q = fen("3k4/8/8/8/8/8/8/K3P3 w - - 0 1 rings:e1.3,d8.0 tainted:e1");
    let m = q.parse_uci("e1e3").unwrap();
    assert_eq!(m.kind, MoveKind::Normal);
    assert!(!q.is_zeroing(m), "a power move, not a pawn move");
    assert!(q.is_zeroing(q.parse_uci("e1e2").unwrap()));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Mangled FENs never panic: they are refused with an error, or read
    /// into a position whose moves can be generated and whose FEN reads
    /// back to the same position.
    #[test]
    fn mangled_fens_never_panic(which in 0usize..14, edits in prop::collection::vec((any::<usize>(), prop::sample::select(
        "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh.,:0123456789ringstaedpow".chars().collect::<Vec<char>>())), 1..4)) {
        let cases = cases();
        let mut s: Vec<char> = cases[which % cases.len()].epd.chars().collect();
        for (at, c) in edits {
            let i = at % s.len();
            s[i] = c;
        }
        let text: String = s.into_iter().collect();
        if let Ok(p) = MagicRing::from_fen(&text, &RingPowers::default()) {
            let l = p.legal_move_list();
            let _ = p.outcome();
            let back = MagicRing::from_fen(&p.fen(), &RingPowers::default()).unwrap();
            prop_assert_eq!(&back, &p);
            for &m in l.iter() {
                let _ = to_san(&p, m);
                let _ = p.after(m).fen();
            }
        }
    }
}

/// A pawn carrying a ring with the Rook power moves back (a power move)
/// and forward again (an ordinary push, which resets the halfmove clock),
/// yet the position repeats: the third occurrence is a draw by threefold
/// repetition, though the earlier ones lie before the last clock reset.
/// (Found in an engine match: a 5,614-ply game that no rule ended.)
#[test]
fn pawn_power_shuffle_is_a_threefold_repetition() {
    // Level 3 of QNRB is the Rook power, on the d4 pawn.
    let start = fen("6nk/8/8/8/3P4/8/8/4K3 w - - 0 1 rings:d4.3,h8.0");
    let mut g = Game::new(start);
    let moves = ["d4d3", "g8f6", "d3d4", "f6g8", "d4d3", "g8f6", "d3d4", "f6g8", "d4d3"];
    for (i, m) in moves.iter().enumerate() {
        assert!(g.outcome().is_none(), "over before ply {i}");
        g.play_str(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    // After d4d3 (ply 1, the pawn now tainted), ply 5 and ply 9 repeat it.
    assert_eq!(g.position().halfmoves(), 2, "d3d4 (ply 7) reset the clock");
    let o = g.outcome().expect("threefold repetition");
    assert_eq!(o.result(), "1/2-1/2", "{o:?}");
    assert!(format!("{o:?}").to_lowercase().contains("repetition"), "{o:?}");
}
