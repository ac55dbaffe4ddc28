//! Snapshots of the rendered screen (ratatui's TestBackend, read back as
//! text): every variant's state panel and every chooser. `INSTA_UPDATE=always`
//! rewrites them after a deliberate change; review the diff.

mod common;
use chimera_engine::Score;
use chimera_rules::{MoveKind, Position, Role};
use chimera_tui::app::Analysis;
use common::*;
use crossterm::event::KeyCode;
use std::time::Duration;

const W: u16 = 100;
const H: u16 = 30;

#[test]
fn chess_start_large() {
    let mut a = app("chess");
    insta::assert_snapshot!(screen(&mut a, W, H));
}

#[test]
fn chess_narrow_80x24_with_check_and_move_list() {
    let mut a = app("chess");
    play(&mut a, &["e4", "f5", "Qh5+"]);
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("check"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn chess_ascii_monochrome() {
    let mut c = config("chess");
    c.ascii = true;
    c.monochrome = true;
    let mut a = chimera_tui::App::new(c);
    play(&mut a, &["e4", "e5", "Nf3"]);
    // Select the b8 knight: its targets are marked.
    a.cursor = sq("b8");
    key(&mut a, KeyCode::Enter);
    let s = screen(&mut a, 80, 24);
    assert!(s.is_ascii(), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn chess_with_clocks_and_engine_line() {
    let mut c = config("chess");
    c.clock = Some((Duration::from_secs(300), Duration::from_secs(3)));
    c.hot_seat = false;
    let mut a = chimera_tui::App::new(c);
    // The engine line is filled by hand here (a real search is not
    // deterministic); tests/game.rs runs the real one.
    a.session.analysis_on = true;
    a.session.analysis = Some(Analysis {
        depth: 12,
        score: Score::Cp(31),
        nodes: 1_234_567,
        pv_san: vec!["e4".into(), "e5".into(), "Nf3".into()],
    });
    insta::assert_snapshot!(screen(&mut a, W, H));
}

#[test]
fn genie_flip_rights_and_flip_chooser() {
    let mut a = app("genie");
    play(&mut a, &["e4", "e5"]);
    let flip = find(&a, |m| m.kind == MoveKind::Flip && m.from == sq("d2"));
    a.cursor = flip.from;
    key(&mut a, KeyCode::Enter); // select the pawn
    key(&mut a, KeyCode::Enter); // Enter on the pawn itself: the flip chooser
    let s = screen(&mut a, W, H);
    assert!(s.contains("Flip into a Genie"), "{s}");
    insta::assert_snapshot!("genie_flip_chooser", s);
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.position().board().role_at(sq("d2")), Some(Role::Genie));
    let s = screen(&mut a, W, H);
    assert!(s.contains("Genie: Black"), "{s}");
    insta::assert_snapshot!("genie_after_flip", s);
}

#[test]
fn genesis_reserves_and_placement_chooser() {
    let mut a = app("genesis");
    let s = screen(&mut a, W, H);
    assert!(s.contains("must place the King first"), "{s}");
    insta::assert_snapshot!("genesis_start", s);
    play(&mut a, &["K@e1", "K@e8"]);
    a.cursor = sq("d1");
    key(&mut a, KeyCode::Enter);
    let s = screen(&mut a, W, H);
    assert!(s.contains("Place on d1"), "{s}");
    insta::assert_snapshot!("genesis_placement_chooser", s);
    // The first option is the Queen.
    key(&mut a, KeyCode::Char('1'));
    assert_eq!(a.session.sans.last().map(String::as_str), Some("Q@d1"));
    insta::assert_snapshot!("genesis_after_placements", screen(&mut a, W, H));
}

#[test]
fn clown_hands_and_declaration_chooser() {
    let mut a = app("clown");
    insta::assert_snapshot!("clown_start", screen(&mut a, W, H));
    a.cursor = sq("b1");
    key(&mut a, KeyCode::Enter);
    a.cursor = sq("c3");
    key(&mut a, KeyCode::Enter);
    let s = screen(&mut a, W, H);
    assert!(s.contains("Declare a Clown"), "{s}");
    insta::assert_snapshot!("clown_declaration_chooser", s);
}

#[test]
fn clown_reentry_from_the_hand() {
    // The board after 1. Nc3(!C) d5 2. Cd4 e5 3. a3 exd4, with the capture
    // not the last move (no `lastcap:`): White may bring its Knight back.
    let mut a = app_fen("clown", "rnbqkbnr/ppp2ppp/8/3p4/3p4/P7/1PPPPPPP/R1BQKBNR[N] w KQkq - 0 4 clown:w");
    let s = screen(&mut a, W, H);
    assert!(s.contains("White: ♘"), "{s}");
    insta::assert_snapshot!("clown_hand", s);
    key(&mut a, KeyCode::Char('p')); // pick the piece in hand
    insta::assert_snapshot!("clown_reentry_targets", screen(&mut a, W, H));
}

#[test]
fn magic_ring_rings_levels_powers_and_tainted_pawns() {
    let mut a =
        app_fen("magicring", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 2 4 rings:f1.1,e7.1 tainted:e7");
    let s = screen(&mut a, W, H);
    assert!(s.contains("White's ring") && s.contains("Bishop on f1"), "{s}");
    assert!(s.contains("Tainted pawns") && s.contains("e7"), "{s}");
    insta::assert_snapshot!("magicring_rings", s);
}

#[test]
fn magic_ring_pass_chooser_when_one_piece_holds_both_rings() {
    let mut a =
        app_fen("magicring", "rnbq1bnr/ppp1pppp/2k5/3p4/8/8/PPPP1PPP/RNBQKBNR b KQ - 0 4 rings:c6.2,c6.0 powers:NKQ");
    let pass = find(&a, |m| matches!(m.kind, MoveKind::RingPass(Some(_))));
    a.cursor = pass.from;
    key(&mut a, KeyCode::Enter);
    a.cursor = pass.to;
    key(&mut a, KeyCode::Enter);
    let s = screen(&mut a, W, H);
    assert!(s.contains("Pass which ring?"), "{s}");
    insta::assert_snapshot!("magicring_pass_chooser", s);
}

#[test]
fn promotion_chooser() {
    let mut a = app_fen("chess", "8/4P1k1/8/8/8/8/6K1/8 w - - 0 1");
    a.cursor = sq("e7");
    key(&mut a, KeyCode::Enter);
    a.cursor = sq("e8");
    key(&mut a, KeyCode::Enter);
    let s = screen(&mut a, W, H);
    assert!(s.contains("Promote to"), "{s}");
    insta::assert_snapshot!("promotion_chooser", s);
    keys(&mut a, &[KeyCode::Down, KeyCode::Enter]); // the second choice: a Rook
    assert_eq!(a.session.sans, vec!["e8=R"]);
}

#[test]
fn help_overlay() {
    let mut a = app("chess");
    key(&mut a, KeyCode::Char('?'));
    insta::assert_snapshot!(screen(&mut a, 80, 24));
    key(&mut a, KeyCode::Char('x'));
    assert!(!a.help);
}

#[test]
fn command_line_shows_completions() {
    let mut a = app("chess");
    key(&mut a, KeyCode::Char(':'));
    key(&mut a, KeyCode::Char('N'));
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("Na3 Nc3 Nf3 Nh3"), "{s}");
    assert!(s.contains("move> N"), "{s}");
}

#[test]
fn colours_mark_last_move_check_and_selection() {
    use ratatui::style::Color as C;
    let mut a = app("chess");
    play(&mut a, &["e4", "f5", "Qh5+"]);
    let king = square_style(&mut a, W, H, sq("e8"));
    assert_eq!(king.bg, Some(C::Rgb(215, 70, 60)), "the king in check is on red");
    let last = square_style(&mut a, W, H, sq("h5"));
    assert_ne!(last.bg, square_style(&mut a, W, H, sq("a5")).bg, "the last move's square is tinted");
    let mut mono = config("chess");
    mono.monochrome = true;
    let mut m = chimera_tui::App::new(mono);
    assert!(!matches!(square_style(&mut m, W, H, sq("e2")).bg, Some(C::Rgb(..))), "no colours in monochrome mode");
}
