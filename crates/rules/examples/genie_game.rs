//! Plays a game of Genie Of The Lamp from move strings (UCI or SAN), then
//! prints the final position, its legal flips and the game as PGN.
//!
//! ```sh
//! cargo run -p chimera-rules --example genie_game
//! cargo run -p chimera-rules --example genie_game -- e2e4 d7d5 e4e4g ...
//! ```
//!
//! A flip is the pawn's square twice plus `g` (`e4e4g`, SAN `Ge4`); the
//! Genie leaps one or two squares along any line (`e4c6`), or double-jumps
//! over two occupied squares. An illegal move stops the game with the reason.

use chimera_rules::{pgn, san, AnyPosition, Game, Genie, MoveKind, Position, Role};
use std::process::ExitCode;

/// An opening: both sides flip their d-pawn into a Genie, leap it two
/// squares forward, and White's Genie takes the e5 pawn.
const DEFAULT: &[&str] = &["e2e4", "e7e5", "d2d2g", "d7d7g", "d2d4", "d7d5", "d4e5"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let moves: Vec<&str> = if args.is_empty() { DEFAULT.to_vec() } else { args.iter().map(String::as_str).collect() };

    let mut game = Game::new(Genie::new(false));
    for s in &moves {
        let before = game.position().clone();
        match game.play_str(s) {
            Ok(m) => {
                let what = match m.kind {
                    MoveKind::Flip => " (flip: the pawn becomes a Genie)",
                    _ if before.board().role_at(m.from) == Some(Role::Genie) => " (Genie leap)",
                    _ => "",
                };
                println!("ply {:>2}: {:<8} {m}{what}", game.moves().len(), san::to_san(&before, m));
            }
            Err(e) => {
                eprintln!("move {} stops the game: {e}", game.moves().len() + 1);
                return ExitCode::FAILURE;
            }
        }
    }
    let pos = game.position();
    println!("\nposition: {}", pos.fen());
    let flips: Vec<String> =
        pos.legal_move_list().iter().filter(|m| m.kind == MoveKind::Flip).map(|m| m.to_string()).collect();
    println!("flips available to {}: {}", pos.turn(), if flips.is_empty() { "none".into() } else { flips.join(" ") });
    let result = pgn::result_string(game.outcome());
    let tags = [("Event".to_string(), "chimera-rules example".to_string())];
    println!("\n{}", pgn::write_pgn(&tags, &AnyPosition::from(game.start().clone()), game.moves(), result));
    ExitCode::SUCCESS
}
