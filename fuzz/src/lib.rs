//! The bodies of the fuzz targets, shared with the normal test run:
//! `crates/rules/tests/properties.rs` includes this file and feeds it the
//! seed corpus (`fuzz/seeds/`) and random input, so panics in the readers
//! are caught even where cargo-fuzz is not installed.
//!
//! Each body must never panic on any input; where a reader accepts the
//! input, what it returns must also be consistent (a FEN read writes back
//! and reads again to the same position, a SAN/UCI string read names a legal
//! move, a PGN game read replays move by move).

use chimera_rules::pgn;
use chimera_rules::{san, AnyPosition, Position, RuleOptions, UciMove, Variant};

/// Positions the move readers are tried on: every variant's start and a
/// few orthodox positions with castling, en passant and promotions.
pub fn positions() -> Vec<AnyPosition> {
    let opts = RuleOptions::default();
    let mut v: Vec<AnyPosition> = Variant::ALL.iter().map(|&var| AnyPosition::new(var, &opts)).collect();
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        v.push(AnyPosition::from_fen(Variant::Chess, fen, &opts).expect("valid FEN"));
    }
    v
}

fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// FEN reader, every variant. The first byte picks the variant.
pub fn fen(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else { return };
    let variant = Variant::ALL[sel as usize % Variant::ALL.len()];
    let s = text(rest);
    let opts = RuleOptions::default();
    let Ok(pos) = AnyPosition::from_fen(variant, &s, &opts) else { return };
    let fen = pos.fen();
    let again = AnyPosition::from_fen(variant, &fen, &opts)
        .unwrap_or_else(|e| panic!("{variant}: FEN '{s}' read, but its FEN '{fen}' is refused: {e}"));
    assert_eq!(again.fen(), fen, "{variant}: FEN does not round-trip");
    assert_eq!(again.hash(), pos.hash(), "{variant}: hash differs after a FEN round trip");
    assert_eq!(pos.board().hash(), pos.board().compute_hash(), "{variant}: placement hash");
    // The position must be playable: generate, write and play every move.
    let moves = pos.legal_move_list();
    for &m in moves.iter() {
        let _ = san::to_san(&pos, m);
        let _ = pos.after(m).fen();
    }
    let _ = pos.outcome();
}

/// SAN reader (which also takes UCI strings). The first byte picks the position.
pub fn san(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else { return };
    let all = positions();
    let pos = &all[sel as usize % all.len()];
    let s = text(rest);
    if let Ok(m) = san::parse_san(pos, &s) {
        assert!(pos.is_legal(m), "parse_san('{s}') gave {m}, not a legal move");
    }
}

/// UCI move-string reader, alone and against a position.
pub fn uci(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else { return };
    let all = positions();
    let pos = &all[sel as usize % all.len()];
    let s = text(rest);
    let _ = UciMove::parse(&s);
    if let Ok(m) = pos.parse_uci(&s) {
        assert!(pos.is_legal(m), "parse_uci('{s}') gave {m}, not a legal move");
    }
}

/// PGN reader: read every game, replay the ones read, write them back.
pub fn pgn(data: &[u8]) {
    let s = text(data);
    for game in pgn::read_pgn(&s).into_iter().flatten() {
        let _ = game.variant();
        if let Ok((start, moves)) = game.replay() {
            let out = pgn::write_pgn(&game.tags, &start, &moves, &game.result);
            let back = pgn::read_pgn(&out);
            assert_eq!(back.len(), 1, "written PGN reads as {} games:\n{out}", back.len());
            let g = back.into_iter().next().unwrap().expect("written PGN reads");
            let (start2, moves2) = g.replay().expect("written PGN replays");
            assert_eq!(start2.fen(), start.fen());
            assert_eq!(moves2, moves);
        }
    }
}
