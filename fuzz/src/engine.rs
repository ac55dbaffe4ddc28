//! The bodies of the engine's fuzz targets, shared with the normal test
//! run: `crates/train/tests/readers.rs` includes this file and feeds it
//! the seed corpus (`fuzz/seeds/network/`, `fuzz/seeds/records/`) and
//! mutated files, so the engine's file readers are fuzzed even where
//! cargo-fuzz is not installed.
//!
//! Each body must never panic on any input. Where a reader accepts the
//! input, what it returns must be usable and consistent: a network read
//! evaluates positions and writes back to bytes that read again to the
//! same net; records read replay, train and write back to the same games.

use chimera_engine::nnue::Network;
use chimera_rules::{with_position, AnyPosition, Move, Position, RuleOptions, Variant};
use chimera_train::datagen::{self, GameRecord};
use chimera_train::train::Data;

/// A network file (UCI `EvalFile`).
pub fn network(data: &[u8]) {
    let Ok(net) = Network::from_bytes(data, "fuzz") else { return };
    // Written back and read again: the same net (a file of an older
    // version's shape is written in that version, so compare the nets'
    // bytes, not the input's).
    let bytes = net.to_bytes();
    let again = Network::from_bytes(&bytes, "fuzz")
        .unwrap_or_else(|e| panic!("a net read, but its own bytes are refused: {e}"));
    assert_eq!(again.to_bytes(), bytes, "a net does not round-trip");
    // Evaluated at its variant's start and after each first move: any
    // value (weights are the file's), but never a panic.
    let pos = AnyPosition::new(net.variant, &RuleOptions::default());
    let _ = with_position!(&pos, p => net.evaluate(p));
    for &m in pos.legal_move_list().iter().take(8) {
        let child = pos.after(m);
        let _ = with_position!(&child, p => net.evaluate(p));
    }
}

/// A `chimera datagen` record file (what `chimera train` reads).
pub fn records(data: &[u8]) {
    let Ok(games) = datagen::read_records(data) else { return };
    // Written back and read again: the same games.
    let mut bytes = datagen::header();
    for g in &games {
        datagen::write_record(g, &mut bytes);
    }
    let again =
        datagen::read_records(&bytes).unwrap_or_else(|e| panic!("records read, but their own bytes are refused: {e}"));
    assert_eq!(again.len(), games.len(), "records do not round-trip");
    for (a, b) in games.iter().zip(&again) {
        assert_eq!(key(a), key(b), "a record does not round-trip");
    }
    // What the trainer and the pawn report make of them, in every variant.
    for v in Variant::ALL {
        Data::default().add_games(&games, v, 0, 2, true);
        let _ = datagen::pawn_report(&games, v, 0, u32::MAX);
    }
}

fn key(g: &GameRecord) -> (String, f32, &[Move], &[i16]) {
    (g.start.fen(), g.result, &g.moves, &g.scores)
}
