//! Reads a PGN file of any variant (the `[Variant]` tag picks the rules),
//! replays each game against the rules and reports its result, or the first
//! move that is not legal and why.
//!
//! ```sh
//! cargo run -p chimera-rules --example read_pgn -- games.pgn
//! cargo run -p chimera-rules --example read_pgn          # a built-in Clown Chess game
//! ```

use chimera_rules::{pgn, Position};
use std::process::ExitCode;

const SAMPLE: &str = r#"[Event "Sample"]
[Variant "clown"]
[White "A"]
[Black "B"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 *
"#;

fn main() -> ExitCode {
    let text = match std::env::args().nth(1) {
        Some(path) => match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("cannot read {path}: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => SAMPLE.to_string(),
    };
    let mut bad = 0;
    for (i, game) in pgn::read_pgn(&text).into_iter().enumerate() {
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                println!("game {}: unreadable: {e}", i + 1);
                bad += 1;
                continue;
            }
        };
        let variant = game.variant().map(|v| v.to_string()).unwrap_or_else(|e| e.to_string());
        match game.replay() {
            Ok((start, moves)) => {
                let mut pos = start.clone();
                for &m in &moves {
                    pos.play_unchecked(m);
                }
                let state = match pos.outcome() {
                    Some(o) => o.to_string(),
                    None => format!("{} to move", pos.turn()),
                };
                println!(
                    "game {} ({variant}): {} vs {}, {} plies, tag result {}, position: {state}",
                    i + 1,
                    game.tag("White").unwrap_or("?"),
                    game.tag("Black").unwrap_or("?"),
                    moves.len(),
                    game.result
                );
                println!("  final FEN: {}", pos.fen());
            }
            Err(e) => {
                println!("game {} ({variant}): {e}", i + 1);
                bad += 1;
            }
        }
    }
    if bad > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
