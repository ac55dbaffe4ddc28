//! Reads a position and lists its legal moves in SAN, with their UCI strings.
//!
//! ```sh
//! cargo run -p chimera-rules --example legal_moves -- [VARIANT] [FEN]
//! cargo run -p chimera-rules --example legal_moves -- genie "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
//! ```
//!
//! With no FEN it lists the variant's start position; with no arguments,
//! orthodox chess.

use chimera_rules::{san, AnyPosition, Position, RuleOptions, Variant};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant: Variant = match args.first().map(|s| s.parse()).transpose() {
        Ok(v) => v.unwrap_or(Variant::Chess),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let opts = RuleOptions::default();
    let pos = match args.get(1) {
        Some(fen) => match AnyPosition::from_fen(variant, fen, &opts) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad FEN for {variant}: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => AnyPosition::new(variant, &opts),
    };
    println!("{} — {}", variant.name(), pos.fen());
    let moves = san::all_san(&pos);
    println!("{} legal moves, {} to play:", moves.len(), pos.turn());
    for (m, s) in &moves {
        println!("  {s:<10} {m}");
    }
    if let Some(outcome) = pos.outcome() {
        println!("game over: {outcome}");
    }
    ExitCode::SUCCESS
}
