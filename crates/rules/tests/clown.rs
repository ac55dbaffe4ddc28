//! Clown Chess (`docs/rules/clown.md`): hand-worked positions, each with
//! the reason for its expected answer written beside it; the seed's example
//! game as a PGN; and a cross-check of every position of
//! `tests/data/clown.perft` against an independent slow reference generator
//! (module `reference` at the end of this file).

use chimera_rules::pgn::read_pgn;
use chimera_rules::san::{parse_san, to_san};
use chimera_rules::{Clown, Color, Game, MoveKind, Position, Role, Square};

fn pos(fen: &str) -> Clown {
    Clown::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// Every legal move string, sorted.
fn moves(p: &Clown) -> Vec<String> {
    let mut v: Vec<String> = p.legal_move_list().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Destination squares of the legal moves from `from`, sorted.
fn targets(p: &Clown, from: &str) -> Vec<String> {
    let f = sq(from);
    let mut v: Vec<String> =
        p.legal_move_list().iter().filter(|m| m.from == f && !m.is_drop()).map(|m| m.to.to_string()).collect();
    v.sort();
    v
}

fn sorted(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

/// Plays UCI moves from `p`, each of which must be legal.
fn play(p: &Clown, line: &str) -> Clown {
    let mut p = p.clone();
    for s in line.split_whitespace() {
        let m = p.parse_uci(s).unwrap_or_else(|e| panic!("{s} in {}: {e}", p.fen()));
        p.play_unchecked(m);
    }
    p
}

fn reentries(p: &Clown) -> Vec<String> {
    let mut v: Vec<String> = p.legal_move_list().iter().filter(|m| m.is_drop()).map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn has(p: &Clown, s: &str) -> bool {
    p.legal_move_list().iter().any(|m| m.to_string() == s)
}

// ---------------------------------------------------------------- start

#[test]
fn start_position_counts() {
    // 20 orthodox moves + Nb1-a3/c3 and Ng1-f3/h3 again as declarations.
    let p = Clown::new();
    assert_eq!(p.count_legal_moves(), 24);
    assert!(has(&p, "b1c3c") && has(&p, "g1h3c") && has(&p, "b1a3c") && has(&p, "g1f3c"));
    assert_eq!(chimera_rules::perft::perft(&p, 2), 576); // 24 x 24, no interaction at ply 2
    assert_eq!(p.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), p);
    // SAN of a declaration, and the seed's spaced spelling read back.
    let m = p.parse_uci("b1c3c").unwrap();
    assert_eq!(to_san(&p, m), "Nc3(!C)");
    assert_eq!(parse_san(&p, "Nc3 (!C)").unwrap(), m);
    assert_eq!(parse_san(&p, "Nc3").unwrap().to_string(), "b1c3");
}

// ---------------------------------------------------------------- the Clown by file

#[test]
fn clown_on_a_file_moves_as_rook() {
    // Ca4: a-file rook. Up a5, captures the pawn on a6 and stops; down a3 a2 a1;
    // right along rank 4 b4..h4. Kings e1/e8 are not on those lines.
    let p = pos("4k3/8/p7/8/C7/8/8/4K3 w - - 0 1");
    assert_eq!(targets(&p, "a4"), sorted("a1 a2 a3 a5 a6 b4 c4 d4 e4 f4 g4 h4"));
}

#[test]
fn clown_on_b_file_moves_as_knight() {
    // Cb4: knight jumps a2 c2 d3 d5 a6 c6 (it jumps over the pawn on b5).
    let p = pos("4k3/8/8/1p6/1C6/8/8/4K3 w - - 0 1");
    assert_eq!(targets(&p, "b4"), sorted("a2 c2 d3 d5 a6 c6"));
}

#[test]
fn clown_on_c_file_moves_as_bishop() {
    // Cc4: diagonals b3 a2 / d3 e2 f1 / b5 a6 / d5 e6 f7 g8; no c-file step.
    let p = pos("4k3/8/8/8/2C5/8/8/4K3 w - - 0 1");
    assert_eq!(targets(&p, "c4"), sorted("b3 a2 d3 e2 f1 b5 a6 d5 e6 f7 g8"));
}

#[test]
fn clown_on_d_file_moves_as_queen_at_most_four_squares() {
    // Cd1: up d2 d3 d4 d5 and stops (d6 d7 d8 are 5-7 squares away); left
    // c1 b1 a1; right e1 f1 g1 h1; diagonals e2 f3 g4 h5 and c2 b3 a4.
    let p = pos("7k/8/8/8/8/8/7K/3C4 w - - 0 1");
    assert_eq!(targets(&p, "d1"), sorted("d2 d3 d4 d5 c1 b1 a1 e1 f1 g1 h1 e2 f3 g4 h5 c2 b3 a4"));
    // The limit holds for captures too: a piece on d6 is out of reach, on d5 it is taken.
    let p = pos("7k/8/3r4/8/8/8/7K/3C4 w - - 0 1");
    assert!(!targets(&p, "d1").contains(&"d6".to_string()));
    let p = pos("7k/8/8/3r4/8/8/7K/3C4 w - - 0 1");
    assert!(targets(&p, "d1").contains(&"d5".to_string()));
}

#[test]
fn clown_on_e_file_moves_one_king_step() {
    // Ce4: the eight neighbours, nothing further; it never castles (below).
    let p = pos("4k3/8/8/8/4C3/8/8/4K3 w - - 0 1");
    assert_eq!(targets(&p, "e4"), sorted("d3 d4 d5 e3 e5 f3 f4 f5"));
}

#[test]
fn clown_on_f_file_moves_as_bishop() {
    // Cf4: e3 d2 c1 / g5 h6 / g3 h2 / e5 d6 c7 b8.
    let p = pos("4k3/8/8/8/5C2/8/8/4K3 w - - 0 1");
    assert_eq!(targets(&p, "f4"), sorted("e3 d2 c1 g5 h6 g3 h2 e5 d6 c7 b8"));
}

#[test]
fn clown_on_g_file_moves_as_knight() {
    // Cg4: f2 h2 e3 e5 f6 h6.
    let p = pos("4k3/8/8/8/6C1/8/8/4K3 w - - 0 1");
    assert_eq!(targets(&p, "g4"), sorted("f2 h2 e3 e5 f6 h6"));
}

#[test]
fn clown_on_h_file_moves_as_rook() {
    // Ch4: h1 h2 h3 h5 h6 h7 h8 and the whole fourth rank to a4.
    let p = pos("4k3/8/8/8/7C/8/8/4K3 w - - 0 1");
    assert_eq!(targets(&p, "h4"), sorted("h1 h2 h3 h5 h6 h7 h8 g4 f4 e4 d4 c4 b4 a4"));
}

#[test]
fn black_clown_uses_the_same_table() {
    // A black Clown on b6 is a knight (files, not colours, decide): a4 c4 d5 d7 a8 c8.
    let p = pos("4k3/8/1c6/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(targets(&p, "b6"), sorted("a4 c4 d5 d7 a8 c8"));
}

// ---------------------------------------------------------------- Clown attacks: check, pins, castling, en passant

#[test]
fn clown_gives_check_by_its_file() {
    // Black Clown b3 is a knight: it attacks c1, so the White king is in check.
    // Kc1 may go to b1, b2, c2, d1 (d2 is attacked by the same knight jump).
    let p = pos("4k3/8/8/8/8/1c6/8/2K5 w - - 0 1");
    assert!(p.is_check());
    assert_eq!(p.checkers().first(), Some(sq("b3")));
    assert_eq!(moves(&p), sorted("c1b1 c1b2 c1c2 c1d1"));
    // The same Clown on c3 is a bishop: c3-c1 is a file, so no check.
    let p = pos("4k3/8/8/8/8/2c5/8/2K5 w - - 0 1");
    assert!(!p.is_check());
}

#[test]
fn clown_pins_along_a_rank() {
    // Black Clown a1 (a rook) pins the White knight d1 to the king e1: the knight has no move.
    let p = pos("4k3/8/8/8/8/8/8/c2NK3 w - - 0 1");
    assert!(targets(&p, "d1").is_empty());
}

#[test]
fn d_file_clown_pins_only_within_four_squares() {
    // Black Clown d5 reaches d1 (4 squares): the bishop d3 is pinned and cannot move.
    let p = pos("4k3/8/8/3c4/8/3B4/8/3K4 w - - 0 1");
    assert!(targets(&p, "d3").is_empty());
    // On d6 the king is 5 squares away: no pin, the bishop has its 11 diagonal moves.
    let p = pos("4k3/8/3c4/8/8/3B4/8/3K4 w - - 0 1");
    assert_eq!(targets(&p, "d3").len(), 11);
}

#[test]
fn e_file_clown_pinned_along_its_file_may_step_along_it() {
    // White Clown e2 (king step) pinned by the rook e8 may go to e3 (still on
    // the line) but nowhere else.
    let p = pos("4r2k/8/8/8/8/8/4C3/4K3 w - - 0 1");
    assert_eq!(targets(&p, "e2"), sorted("e3"));
}

#[test]
fn castling_through_a_clown_attacked_square_is_illegal() {
    // Black Clown c4 is a bishop: c4-d3-e2-f1 attacks f1, so O-O is illegal.
    let p = pos("4k3/8/8/8/2c5/8/8/4K2R w K - 0 1");
    assert!(!has(&p, "e1g1"));
    // On b4 it is a knight (a2 c2 d3 d5 a6 c6): f1 and g1 are free, O-O is legal.
    let p = pos("4k3/8/8/8/1c6/8/8/4K2R w K - 0 1");
    assert!(has(&p, "e1g1"));
    // A Clown is no king: on f1 it blocks O-O like any piece and has no
    // castling move of its own (on the f-file it has just the bishop moves e2 d3 c4 b5 a6 g2 h3).
    let p = pos("4k3/8/8/8/8/8/8/R3KC1R w KQ - 0 1");
    assert!(!has(&p, "e1g1") && has(&p, "e1c1"));
    assert_eq!(targets(&p, "f1"), sorted("e2 d3 c4 b5 a6 g2 h3"));
}

#[test]
fn en_passant_exposing_the_king_to_a_clown_is_illegal() {
    // After ...c7-c5, bxc6 e.p. would empty b5 and c5 and open rank 5 to
    // the black Clown h5 (a rook on the h-file): illegal, so no e.p. square.
    let p = play(&pos("4k3/2p5/8/KP5c/8/8/8/8 b - - 0 1"), "c7c5");
    assert!(!has(&p, "b5c6"));
    assert_eq!(p.ep_square(), None);
    // With the Clown on g5 (a knight) the capture is legal.
    let p = play(&pos("4k3/2p5/8/KP4c1/8/8/8/8 b - - 0 1"), "c7c5");
    assert!(has(&p, "b5c6"));
    assert_eq!(p.ep_square(), Some(sq("c6")));
}

// ---------------------------------------------------------------- declaration

#[test]
fn declaration_only_on_a_knights_first_move() {
    // Ng1-f3-g1 has moved, even though it stands on g1 again: g1f3c is gone,
    // the untouched b1 Knight may still declare.
    let p = play(&Clown::new(), "g1f3 g8f6 f3g1 f6g8");
    assert!(has(&p, "g1f3") && !has(&p, "g1f3c"));
    assert!(has(&p, "b1c3c"));
    assert_eq!(p.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3 unmoved:b1b8");
    // The declaring move is a Knight move; the piece is a Clown after it.
    let p = play(&Clown::new(), "b1c3c");
    assert_eq!(p.board().role_at(sq("c3")), Some(Role::Clown));
    assert!(p.had_clown(Color::White));
    // One Clown per player: the other Knight may no longer declare.
    let p = play(&p, "e7e6");
    assert!(has(&p, "g1f3") && !has(&p, "g1f3c"));
}

#[test]
fn declaration_may_capture() {
    // The untouched g1 Knight takes on f3 and declares.
    let p = pos("4k3/8/8/8/8/5p2/8/4K1N1 w - - 0 1");
    assert!(has(&p, "g1f3c"));
    let m = p.parse_uci("g1f3c").unwrap();
    assert!(p.is_capture(m));
    assert_eq!(to_san(&p, m), "Nxf3(!C)");
}

#[test]
fn no_declaration_after_the_clown_was_captured() {
    // 1. Nc3(!C) d5 2. Cd4 e5 3. a3 exd4: the White Clown is gone, but
    // White has had one, so Ng1 may move only as a Knight.
    let p = play(&Clown::new(), "b1c3c d7d5 c3d4 e7e5 a2a3 e5d4");
    assert!(has(&p, "g1f3") && !has(&p, "g1f3c"));
    assert_eq!(p.hand(Color::White), (1, 0)); // the captured Clown is a Knight in hand
}

// ---------------------------------------------------------------- re-entry

const LINE_A: &str = "b1c3c d7d5 c3d4 e7e5 a2a3 e5d4";

#[test]
fn reentry_refused_right_after_the_capture_allowed_a_turn_later() {
    // The Clown (a Knight in hand) was captured by Black's last move: not yet.
    let p = play(&Clown::new(), LINE_A);
    assert!(reentries(&p).is_empty());
    // A turn later it may re-enter, as a Knight only (White has had a Clown).
    let p = play(&p, "a3a4 h7h6");
    let r = reentries(&p);
    assert!(r.contains(&"N@b4".to_string()));
    assert!(r.iter().all(|m| m.starts_with("N@")));
}

#[test]
fn captured_clown_reenters_as_a_plain_knight() {
    let p = play(&Clown::new(), &format!("{LINE_A} a3a4 h7h6 N@b1"));
    assert_eq!(p.board().role_at(sq("b1")), Some(Role::Knight));
    assert!(p.reentry_used(Color::White));
    assert_eq!(p.hand(Color::White), (0, 0));
    assert_eq!(p.halfmoves(), 0); // a piece comes into play
                                  // A Knight that re-entered (even onto b1) has made its first move: no declaration ever.
    assert!(!p.unmoved_knights().contains(sq("b1")));
}

#[test]
fn reentry_refused_after_an_enemy_clown_move() {
    // ... 4. a4 Nf6(!C): a declaration is a Knight's move, so White may re-enter.
    let p = play(&Clown::new(), &format!("{LINE_A} a3a4 g8f6c"));
    assert!(!reentries(&p).is_empty());
    // 5. h3 Cg5: the black Clown (on f6, a bishop) moved: no re-entry now.
    let p = play(&p, "h2h3 f6g5");
    assert!(p.last_move_by_clown());
    assert!(reentries(&p).is_empty());
    // 6. h4 h6: the last move was a pawn's: re-entry is open again.
    let p = play(&p, "h3h4 h7h6");
    assert!(has(&p, "N@b4"));
}

#[test]
fn reentry_as_clown_is_not_a_clown_move() {
    // Black re-enters a Knight as a Clown; White, with a Bishop in hand, may answer with B@.
    let p = pos("4k3/8/8/8/8/8/8/4K3[Bn] b - - 0 1");
    let p = play(&p, "C@g5");
    assert!(!p.last_move_by_clown());
    assert!(has(&p, "B@d2"));
    // But once that Clown moves (g5 is a knight square), White may not.
    let p = play(&p, "e1f1 g5e4");
    assert!(reentries(&p).is_empty());
}

#[test]
fn entry_zone_exactly() {
    // White: ranks 1-2 (15 empty squares, e1 holds the king) + a3 b3 g3 h3 a4 b4 g4 h4 = 23.
    let p = pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    let n: Vec<String> =
        reentries(&p).into_iter().filter(|m| m.starts_with("N@")).map(|m| m[2..].to_string()).collect();
    assert_eq!(n, sorted("a1 b1 c1 d1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 g3 h3 a4 b4 g4 h4"));
    assert!(has(&p, "N@b4") && has(&p, "N@g4") && !has(&p, "N@d3") && !has(&p, "N@b5"));
    // Never White has had a Clown: C@ on the same 23 squares.
    assert_eq!(reentries(&p).iter().filter(|m| m.starts_with("C@")).count(), 23);
    // Black: the mirror, ranks 7-8 + a6 b6 g6 h6 a5 b5 g5 h5.
    let p = pos("4k3/8/8/8/8/8/8/4K3[n] b - - 0 1");
    let n: Vec<String> =
        reentries(&p).into_iter().filter(|m| m.starts_with("N@")).map(|m| m[2..].to_string()).collect();
    assert_eq!(n, sorted("a8 b8 c8 d8 f8 g8 h8 a7 b7 c7 d7 e7 f7 g7 h7 a6 b6 g6 h6 a5 b5 g5 h5"));
    assert!(has(&p, "N@b5") && has(&p, "N@g5") && !has(&p, "N@d6") && !has(&p, "N@b4"));
}

#[test]
fn reentry_never_captures_and_only_blocks_a_check() {
    // The rook a1 checks along rank 1: re-entry only on b1 c1 d1 (blocking);
    // occupied squares (the rook) are never entry squares.
    let p = pos("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1");
    assert_eq!(reentries(&p), sorted("C@b1 C@c1 C@d1 N@b1 N@c1 N@d1"));
}

#[test]
fn reentry_may_give_check() {
    // A Knight entering on g3 attacks h5, where the Black king stands: check.
    let p = pos("8/8/8/7k/8/8/8/4K3[N] w - - 0 1 clown:w");
    let m = p.parse_uci("N@g3").unwrap();
    assert_eq!(to_san(&p, m), "!Ng3+");
}

#[test]
fn just_captured_piece_waits_but_an_earlier_one_may_enter() {
    // Two Knights in hand, one just taken: N@ is legal (the other was taken earlier).
    let p = pos("4k3/8/8/8/8/8/8/4K3[NN] w - - 0 1 lastcap:N");
    assert!(has(&p, "N@b4"));
    // One Knight, just taken: no N@ and no C@; the Bishop taken earlier may enter.
    let p = pos("4k3/8/8/8/8/8/8/4K3[NB] w - - 0 1 lastcap:N");
    assert!(!has(&p, "N@b4") && !has(&p, "C@b4") && has(&p, "B@b4"));
}

#[test]
fn one_reentry_per_game() {
    let p = pos("4k3/8/8/8/8/8/8/4K3[NB] w - - 0 1");
    let p = play(&p, "B@d2 e8e7");
    assert!(reentries(&p).is_empty()); // the Knight stays in hand for good
    assert!(p.fen().contains("reentry:w"));
}

#[test]
fn two_bishops_on_the_same_colour_after_a_reentry() {
    // White keeps the dark-squared c1 Bishop and re-enters the captured one on d2 (dark too).
    let p = pos("4k3/8/8/8/8/8/8/2B1K3[B] w - - 0 1");
    let p = play(&p, "B@d2");
    assert_eq!(p.board().role_at(sq("c1")), Some(Role::Bishop));
    assert_eq!(p.board().role_at(sq("d2")), Some(Role::Bishop));
    assert!(sq("c1").is_dark() && sq("d2").is_dark());
}

#[test]
fn reentry_move_strings_and_san() {
    let p = pos("4k3/8/8/8/8/8/8/4K3[NB] w - - 0 1");
    for (uci, san) in [("N@b4", "!Nb4"), ("B@d2", "!Bd2"), ("C@g4", "!Cg4")] {
        let m = p.parse_uci(uci).unwrap();
        assert_eq!(m.to_string(), uci);
        assert_eq!(to_san(&p, m), san);
        assert_eq!(parse_san(&p, san).unwrap(), m);
    }
    assert!(matches!(p.parse_uci("C@g4").unwrap().kind, MoveKind::ReEntry(Role::Clown)));
    assert!(p.parse_uci("N@d3").is_err());
}

// ---------------------------------------------------------------- promotion, game end

#[test]
fn promotion_never_to_a_clown() {
    let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(targets(&p, "a7"), sorted("a8 a8 a8 a8"));
    assert!(!has(&p, "a7a8c"));
}

#[test]
fn dead_material() {
    // K v K, nothing in hand: dead.
    assert!(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_dead_material());
    // A Clown can mate (as a rook on the a/h files): K+C v K is not dead.
    assert!(!pos("4k3/8/8/8/8/8/8/C3K3 w - - 0 1").is_dead_material());
    // A captured Knight that may still re-enter (as a Clown even): not dead.
    assert!(!pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1").is_dead_material());
    // ... but not once White has used the re-entry.
    assert!(pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1 reentry:w").is_dead_material());
    // An unmoved Knight that may still be declared a Clown: not dead.
    assert!(!pos("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1").is_dead_material());
    assert!(pos("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1 unmoved:-").is_dead_material());
}

// ---------------------------------------------------------------- FEN, hash

#[test]
fn fen_round_trip_and_fields() {
    let p = play(&Clown::new(), &format!("{LINE_A} a3a4 g8f6c h2h3 f6g5"));
    let f = p.fen();
    assert_eq!(f, "rnbqkb1r/ppp2ppp/8/3p2c1/P2p4/7P/1PPPPPP1/R1BQKBNR[N] w KQkq - 1 6 clown:wb clownmoved:1");
    let q = pos(&f);
    assert_eq!(q, p);
    assert_eq!(q.hash(), p.hash());
    // The white Clown was captured: White has had one even with none on the board.
    let p = play(&Clown::new(), LINE_A);
    assert_eq!(p.fen(), "rnbqkbnr/ppp2ppp/8/3p4/3p4/P7/1PPPPPPP/R1BQKBNR[N] w KQkq - 0 4 clown:w lastcap:N");
}

#[test]
fn fen_errors_are_typed() {
    for bad in [
        "4k3/8/8/8/8/8/8/C2CK3 w - - 0 1",            // two White Clowns
        "4k3/8/8/8/8/8/8/C3K3 w - - 0 1 clown:-",     // a Clown but "never had one"
        "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1",           // a Queen in hand
        "4k3/8/8/8/8/8/8/4K3[C] w - - 0 1",           // a Clown in hand (it is an N)
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 lastcap:N",    // captured a Knight that is not in hand
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 clownmoved:1", // no black Clown
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 unmoved:g1",   // no Knight on g1
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 clown:x",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 foo:1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 reentry:w reentry:b",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 unmoved:zz",
    ] {
        assert!(Clown::from_fen(bad).is_err(), "{bad} should be refused");
    }
}

#[test]
fn hash_follows_the_variant_state() {
    let a = pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    let b = pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1 reentry:w");
    let c = pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1 clown:w");
    let d = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(a.hash() != b.hash() && a.hash() != c.hash() && a.hash() != d.hash() && b.hash() != c.hash());
    // A flag that changes nothing is not part of the position: with the
    // re-entry used, the hand no longer matters (b == b without the Knight).
    assert_eq!(b.hash(), pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1 reentry:w").hash());
    // Repetition sees the state: Nf3-g1-f3 is not the start position again.
    let mut g = Game::new(Clown::new());
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        g.play_str(m).unwrap();
    }
    assert_ne!(g.position().hash(), Clown::new().hash());
}

// ---------------------------------------------------------------- the seed's example game

/// The seed's annotated game: White exchanges a Bishop for the f6 Knight to
/// lure out the Black Queen (3. Bxf6 Qxf6), Black answers with 4...d5,
/// White declares 5. Nf3(!C) (written with the seed's space), and Black
/// brings the captured Knight back as a Clown on b5: 5...!Cb5, legal
/// because it was captured two moves earlier and White's last move was a
/// declaration, not a Clown's move. (The text says the Clown on b5
/// "attacks the White Clown"; a knight-like Clown on b5 attacks d4, a3,
/// c3, d6, a7, c7 — the pressure on d4 is there, the f3 Clown is attacked
/// by the Queen on f6.)
const SEED_PGN: &str = r#"[Event "Clown Chess: the seed's example"]
[Variant "clown"]
[Result "*"]

1. d3 e6 2. Bg5 Nf6 3. Bxf6 Qxf6 4. e4 d5 5. Nf3 (!C) !Cb5 *
"#;

#[test]
fn seed_example_game_replays() {
    let games = read_pgn(SEED_PGN);
    assert_eq!(games.len(), 1);
    let g = games[0].as_ref().unwrap();
    let (start, moves) = g.replay().unwrap();
    let strs: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(strs.join(" "), "d2d3 e7e6 c1g5 g8f6 g5f6 d8f6 e2e4 d7d5 g1f3c C@b5");
    let mut p = start;
    for m in &moves {
        p.play_unchecked(*m);
    }
    assert_eq!(p.board().role_at(sq("f3")), Some(Role::Clown));
    assert_eq!(p.board().role_at(sq("b5")), Some(Role::Clown));
    // SAN written back as the seed writes it (without the space).
    let mut c = Clown::new();
    let mut sans = Vec::new();
    for m in &moves {
        sans.push(to_san(&c, *m));
        c.play_unchecked(*m);
    }
    assert_eq!(sans[8], "Nf3(!C)");
    assert_eq!(sans[9], "!Cb5");
}

#[test]
fn pgn_round_trip_from_a_position_with_clown_state() {
    // A start FEN with a hand, a used re-entry and a pending "just captured":
    // written as [SetUp]/[FEN], read back, replayed to the same moves.
    use chimera_rules::pgn::write_pgn;
    use chimera_rules::AnyPosition;
    let fen = "rnbqkbnr/ppp2ppp/8/3p4/3p4/P7/1PPPPPPP/R1BQKBNR[N] w KQkq - 0 4 clown:w lastcap:N";
    let start = AnyPosition::Clown(pos(fen));
    let line = ["a3a4", "g8f6c", "h2h3", "f6g5", "h3h4", "h7h6", "N@b3"];
    let mut p = start.clone();
    let mut moves = Vec::new();
    for s in line {
        let m = p.parse_uci(s).unwrap();
        p.play_unchecked(m);
        moves.push(m);
    }
    let text = write_pgn(&[], &start, &moves, "*");
    assert!(text.contains("[Variant \"clown\"]") && text.contains(fen));
    assert!(text.contains("Nf6(!C)") && text.contains("!Nb3"));
    let g = read_pgn(&text).remove(0).unwrap();
    let (s2, m2) = g.replay().unwrap();
    assert_eq!(s2.fen(), fen);
    assert_eq!(m2, moves);
}

// ---------------------------------------------------------------- cross-check with the reference

/// The positions of `tests/data/clown.perft`.
fn data_positions() -> Vec<(String, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/clown.perft");
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    let mut id = String::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.trim().to_string();
        } else if let Some(rest) = line.strip_prefix("epd ") {
            out.push((id.clone(), rest.trim().to_string()));
        }
    }
    out
}

/// Walks the tree with both generators side by side: at every node the two
/// move sets must be equal, the FEN must read back to the same position and
/// hash, and the child positions are reached by each side's own make-move.
fn walk(p: &Clown, r: &reference::Ref, depth: u32, path: &mut Vec<String>) -> u64 {
    let mut mine: Vec<String> = p.legal_move_list().iter().map(|m| m.to_string()).collect();
    mine.sort();
    let theirs = r.legal();
    let mut names: Vec<String> = theirs.iter().map(|(s, _)| s.clone()).collect();
    names.sort();
    assert_eq!(mine, names, "move sets differ at {} after {:?}", p.fen(), path);
    let back = Clown::from_fen(&p.fen()).unwrap_or_else(|e| panic!("{}: {e}", p.fen()));
    assert_eq!(back, p.clone(), "FEN round trip at {}", p.fen());
    assert_eq!(back.hash(), p.hash());
    if depth <= 1 {
        return mine.len() as u64;
    }
    let mut n = 0;
    for (s, child_ref) in &theirs {
        let m = p.parse_uci(s).unwrap();
        let child = p.after(m);
        path.push(s.clone());
        n += walk(&child, child_ref, depth - 1, path);
        path.pop();
    }
    n
}

#[test]
fn data_positions_match_the_reference_generator() {
    let positions = data_positions();
    assert!(positions.len() >= 10);
    let depth: u32 = std::env::var("CLOWN_REF_DEPTH").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    for (id, fen) in positions {
        let p = pos(&fen);
        let r = reference::Ref::from_position(&p);
        let walked = walk(&p, &r, depth.min(2), &mut Vec::new());
        assert_eq!(walked, chimera_rules::perft::perft(&p, depth.min(2)), "{id}");
        let expected = r.perft(depth);
        assert_eq!(chimera_rules::perft::perft(&p, depth), expected, "{id}: perft {depth} differs from the reference");
    }
}

#[test]
fn random_games_match_the_reference_generator() {
    // Long random games from the start (a fixed-seed generator, so the test
    // is repeatable): at every ply both generators agree on the legal moves.
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _game in 0..40 {
        let mut p = Clown::new();
        let mut r = reference::Ref::from_position(&p);
        for _ply in 0..120 {
            let mut mine: Vec<String> = p.legal_move_list().iter().map(|m| m.to_string()).collect();
            mine.sort();
            let mut theirs = r.legal();
            theirs.sort_by(|a, b| a.0.cmp(&b.0));
            let names: Vec<String> = theirs.iter().map(|(s, _)| s.clone()).collect();
            assert_eq!(mine, names, "move sets differ at {}", p.fen());
            if mine.is_empty() || p.halfmoves() >= 100 {
                break;
            }
            // Prefer drops and declarations now and then so they happen.
            let special: Vec<usize> =
                (0..names.len()).filter(|&i| names[i].contains('@') || names[i].ends_with('c')).collect();
            let k = if !special.is_empty() && next() % 4 == 0 {
                special[(next() % special.len() as u64) as usize]
            } else {
                (next() % names.len() as u64) as usize
            };
            let m = p.parse_uci(&names[k]).unwrap();
            p.play_unchecked(m);
            r = theirs.swap_remove(k).1;
            let back = Clown::from_fen(&p.fen()).unwrap();
            assert_eq!(back, p);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..Default::default() })]

    /// Along any line of play (chosen by the indices, shrunk on failure):
    /// the reference agrees on the legal moves, every move's SAN reads back
    /// to the same move, the FEN reads back to the same position and hash,
    /// and no legal move leaves the mover's king attacked.
    #[test]
    fn random_lines_keep_every_invariant(choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..60)) {
        let mut p = Clown::new();
        let mut r = reference::Ref::from_position(&p);
        for c in choices {
            let list = p.legal_move_list();
            if list.is_empty() {
                break;
            }
            let mut theirs = r.legal();
            let mut names: Vec<String> = theirs.iter().map(|(s, _)| s.clone()).collect();
            names.sort();
            let mut mine: Vec<String> = list.iter().map(|m| m.to_string()).collect();
            mine.sort();
            proptest::prop_assert_eq!(&mine, &names, "at {}", p.fen());
            for &m in list.iter() {
                let san = to_san(&p, m);
                proptest::prop_assert_eq!(parse_san(&p, &san).ok(), Some(m), "SAN {} at {}", san, p.fen());
                let after = p.after(m);
                let k = after.board().king_of(p.turn()).unwrap();
                proptest::prop_assert!(!reference::Ref::from_position(&after).attacked(k.index(), after.turn()));
            }
            let m = list[c as usize % list.len()];
            p.play_unchecked(m);
            let k = theirs.iter().position(|(s, _)| *s == m.to_string()).unwrap();
            r = theirs.swap_remove(k).1;
            let back = Clown::from_fen(&p.fen()).unwrap();
            proptest::prop_assert_eq!(back.hash(), p.hash());
            proptest::prop_assert_eq!(back, p.clone());
        }
    }
}

/// An independent, slow reference move generator, written from the rules
/// (`docs/rules/clown.md`) alone: a 64-square mailbox, pseudo-legal moves
/// by stepping rays square by square, and an "is my king attacked after the
/// move" filter. It shares no move-generation code with the library (only
/// the plain `Color`/`Role`/`Square` types, and the position's public
/// accessors to read a start state).
mod reference {

    use chimera_rules::{Clown, Color, Position, Role, Square};

    #[derive(Clone, Debug)]
    pub struct Ref {
        pub sq: [Option<(Color, Role)>; 64],
        pub turn: Color,
        /// White king side, White queen side, Black king side, Black queen side.
        pub castle: [bool; 4],
        pub ep: Option<usize>,
        pub unmoved: [bool; 64],
        pub had: [bool; 2],
        pub used: [bool; 2],
        /// [colour][0 Knight, 1 Bishop]
        pub hand: [[u8; 2]; 2],
        pub lastcap: Option<usize>,
        pub lastclown: bool,
    }

    fn ci(c: Color) -> usize {
        if c == Color::White {
            0
        } else {
            1
        }
    }

    fn name(i: usize) -> String {
        format!("{}{}", (b'a' + (i % 8) as u8) as char, (b'1' + (i / 8) as u8) as char)
    }

    const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    const KING: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
    const ORTHO: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

    fn step(i: usize, df: i32, dr: i32) -> Option<usize> {
        let f = (i % 8) as i32 + df;
        let r = (i / 8) as i32 + dr;
        if (0..8).contains(&f) && (0..8).contains(&r) {
            Some((r * 8 + f) as usize)
        } else {
            None
        }
    }

    impl Ref {
        pub fn from_position(p: &Clown) -> Ref {
            let mut sq = [None; 64];
            let mut unmoved = [false; 64];
            for i in 0..64 {
                let s = Square::new(i as u32);
                sq[i] = p.board().piece_at(s).map(|pc| (pc.color, pc.role));
                unmoved[i] = p.unmoved_knights().contains(s);
            }
            let c = p.castling();
            let (wn, wb) = p.hand(Color::White);
            let (bn, bb) = p.hand(Color::Black);
            Ref {
                sq,
                turn: p.turn(),
                castle: [
                    c.has(Color::White, true),
                    c.has(Color::White, false),
                    c.has(Color::Black, true),
                    c.has(Color::Black, false),
                ],
                ep: p.ep_square().map(|s| s.index()),
                unmoved,
                had: [p.had_clown(Color::White), p.had_clown(Color::Black)],
                used: [p.reentry_used(Color::White), p.reentry_used(Color::Black)],
                hand: [[wn, wb], [bn, bb]],
                lastcap: p.last_captured().map(|r| if r == Role::Knight { 0 } else { 1 }),
                lastclown: p.last_move_by_clown(),
            }
        }

        fn ray(&self, from: usize, dirs: &[(i32, i32)], max: usize, out: &mut Vec<usize>) {
            for &(df, dr) in dirs {
                let mut cur = from;
                for _ in 0..max {
                    match step(cur, df, dr) {
                        None => break,
                        Some(n) => {
                            out.push(n);
                            if self.sq[n].is_some() {
                                break;
                            }
                            cur = n;
                        }
                    }
                }
            }
        }

        /// Squares a non-pawn piece attacks (for a slider, up to and including
        /// the first occupied square).
        fn piece_attacks(&self, from: usize, role: Role) -> Vec<usize> {
            let mut out = Vec::new();
            let role = if role == Role::Clown {
                // The Clown moves as the piece whose start file it stands on.
                match from % 8 {
                    0 | 7 => Role::Rook,
                    1 | 6 => Role::Knight,
                    2 | 5 => Role::Bishop,
                    3 => {
                        // Queen, at most four squares.
                        self.ray(from, &ORTHO, 4, &mut out);
                        self.ray(from, &DIAG, 4, &mut out);
                        return out;
                    }
                    _ => Role::King,
                }
            } else {
                role
            };
            match role {
                Role::Knight => out.extend(KNIGHT.iter().filter_map(|&(f, r)| step(from, f, r))),
                Role::King => out.extend(KING.iter().filter_map(|&(f, r)| step(from, f, r))),
                Role::Rook => self.ray(from, &ORTHO, 8, &mut out),
                Role::Bishop => self.ray(from, &DIAG, 8, &mut out),
                Role::Queen => {
                    self.ray(from, &ORTHO, 8, &mut out);
                    self.ray(from, &DIAG, 8, &mut out);
                }
                _ => unreachable!(),
            }
            out
        }

        pub fn attacked(&self, target: usize, by: Color) -> bool {
            for i in 0..64 {
                if let Some((c, r)) = self.sq[i] {
                    if c != by {
                        continue;
                    }
                    let hit = if r == Role::Pawn {
                        let dr = if by == Color::White { 1 } else { -1 };
                        step(i, 1, dr) == Some(target) || step(i, -1, dr) == Some(target)
                    } else {
                        self.piece_attacks(i, r).contains(&target)
                    };
                    if hit {
                        return true;
                    }
                }
            }
            false
        }

        fn king(&self, c: Color) -> usize {
            (0..64).find(|&i| self.sq[i] == Some((c, Role::King))).expect("king")
        }

        fn zone(c: Color, i: usize) -> bool {
            let (f, r) = (i % 8, i / 8);
            let r = if c == Color::White { r } else { 7 - r };
            r <= 1 || (r <= 3 && (f <= 1 || f >= 6))
        }

        /// Pseudo-legal moves as (string, next state).
        fn pseudo(&self) -> Vec<(String, Ref)> {
            let us = self.turn;
            let u = ci(us);
            let mut out = Vec::new();
            for from in 0..64 {
                let Some((c, role)) = self.sq[from] else { continue };
                if c != us {
                    continue;
                }
                if role == Role::Pawn {
                    let dr: i32 = if us == Color::White { 1 } else { -1 };
                    let start_rank = if us == Color::White { 1 } else { 6 };
                    let last_rank = if us == Color::White { 7 } else { 0 };
                    let mut tos = Vec::new();
                    if let Some(one) = step(from, 0, dr) {
                        if self.sq[one].is_none() {
                            tos.push((one, false));
                            if from / 8 == start_rank {
                                let two = step(one, 0, dr).unwrap();
                                if self.sq[two].is_none() {
                                    out.push((
                                        format!("{}{}", name(from), name(two)),
                                        self.make(from, two, None, false),
                                    ));
                                }
                            }
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(t) = step(from, df, dr) {
                            match self.sq[t] {
                                Some((tc, _)) if tc != us => tos.push((t, false)),
                                None if self.ep == Some(t) => tos.push((t, true)),
                                _ => {}
                            }
                        }
                    }
                    for (to, ep) in tos {
                        if to / 8 == last_rank {
                            for (r, l) in
                                [(Role::Queen, 'q'), (Role::Rook, 'r'), (Role::Bishop, 'b'), (Role::Knight, 'n')]
                            {
                                out.push((
                                    format!("{}{}{}", name(from), name(to), l),
                                    self.make(from, to, Some(r), false),
                                ));
                            }
                        } else {
                            let _ = ep;
                            out.push((format!("{}{}", name(from), name(to)), self.make(from, to, None, false)));
                        }
                    }
                    continue;
                }
                for to in self.piece_attacks(from, role) {
                    if matches!(self.sq[to], Some((tc, _)) if tc == us) {
                        continue;
                    }
                    out.push((format!("{}{}", name(from), name(to)), self.make(from, to, None, false)));
                    if role == Role::Knight && self.unmoved[from] && !self.had[u] {
                        out.push((format!("{}{}c", name(from), name(to)), self.make(from, to, None, true)));
                    }
                }
                if role == Role::King {
                    let back = if us == Color::White { 0 } else { 56 };
                    if from == back + 4 && !self.attacked(from, !us) {
                        let rook = Some((us, Role::Rook));
                        if self.castle[2 * u]
                            && self.sq[back + 7] == rook
                            && self.sq[back + 5].is_none()
                            && self.sq[back + 6].is_none()
                            && !self.attacked(back + 5, !us)
                            && !self.attacked(back + 6, !us)
                        {
                            let mut n = self.make(from, back + 6, None, false);
                            n.sq[back + 5] = n.sq[back + 7].take();
                            out.push((format!("{}{}", name(from), name(back + 6)), n));
                        }
                        if self.castle[2 * u + 1]
                            && self.sq[back] == rook
                            && (1..4).all(|f| self.sq[back + f].is_none())
                            && !self.attacked(back + 3, !us)
                            && !self.attacked(back + 2, !us)
                        {
                            let mut n = self.make(from, back + 2, None, false);
                            n.sq[back + 3] = n.sq[back].take();
                            out.push((format!("{}{}", name(from), name(back + 2)), n));
                        }
                    }
                }
            }
            // Re-entry.
            if !self.used[u] && !self.lastclown {
                let n_ok = self.hand[u][0] > u8::from(self.lastcap == Some(0));
                let b_ok = self.hand[u][1] > u8::from(self.lastcap == Some(1));
                let c_ok = n_ok && !self.had[u];
                for to in 0..64 {
                    if self.sq[to].is_some() || !Ref::zone(us, to) {
                        continue;
                    }
                    for (ok, role, l) in
                        [(n_ok, Role::Knight, 'N'), (b_ok, Role::Bishop, 'B'), (c_ok, Role::Clown, 'C')]
                    {
                        if ok {
                            let mut n = self.clone();
                            n.sq[to] = Some((us, role));
                            n.hand[u][if role == Role::Bishop { 1 } else { 0 }] -= 1;
                            n.used[u] = true;
                            if role == Role::Clown {
                                n.had[u] = true;
                            }
                            n.unmoved[to] = false;
                            n.ep = None;
                            n.lastcap = None;
                            n.lastclown = false;
                            n.turn = !us;
                            out.push((format!("{l}@{}", name(to)), n));
                        }
                    }
                }
            }
            out
        }

        fn make(&self, from: usize, to: usize, promo: Option<Role>, declare: bool) -> Ref {
            let us = self.turn;
            let mut n = self.clone();
            let (_, role) = self.sq[from].unwrap();
            let mut captured = self.sq[to];
            if role == Role::Pawn && self.ep == Some(to) && captured.is_none() && from % 8 != to % 8 {
                let cap = if us == Color::White { to - 8 } else { to + 8 };
                captured = n.sq[cap].take();
            }
            n.sq[from] = None;
            n.sq[to] = Some((us, promo.unwrap_or(if declare { Role::Clown } else { role })));
            if declare {
                n.had[ci(us)] = true;
            }
            n.unmoved[from] = false;
            n.unmoved[to] = false;
            for (sqi, bit) in [(0, 1), (4, 0), (4, 1), (7, 0), (56, 3), (60, 2), (60, 3), (63, 2)] {
                if from == sqi || to == sqi {
                    n.castle[bit] = false;
                }
            }
            n.ep =
                if role == Role::Pawn && (to as i32 - from as i32).abs() == 16 { Some((from + to) / 2) } else { None };
            n.lastcap = None;
            if let Some((cc, cr)) = captured {
                let idx = match cr {
                    Role::Knight | Role::Clown => Some(0),
                    Role::Bishop => Some(1),
                    _ => None,
                };
                if let Some(i) = idx {
                    n.hand[ci(cc)][i] += 1;
                    n.lastcap = Some(i);
                }
            }
            n.lastclown = role == Role::Clown && !declare;
            n.turn = !us;
            n
        }

        /// Legal moves: pseudo-legal ones after which the mover's king is safe.
        pub fn legal(&self) -> Vec<(String, Ref)> {
            let us = self.turn;
            self.pseudo().into_iter().filter(|(_, n)| !n.attacked(n.king(us), !us)).collect()
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let l = self.legal();
            if depth == 1 {
                return l.len() as u64;
            }
            l.iter().map(|(_, n)| n.perft(depth - 1)).sum()
        }
    }
}
