//! The line mode of `chimera play` (stdin not a terminal, or `--lines`): a
//! diagram and a prompt after every move, moves typed in SAN or UCI. Scripts
//! drive it through a pipe.

use crate::app::Config;
use anyhow::{anyhow, Result};
use chimera_engine::{Engine, EngineOptions};
use chimera_rules::{pgn, san, AnyPosition, Game, Position};
use chimera_session::{takeback, think_time, Level, Load, Opponent};
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

/// Plays line by line on `input`/`output` until the game ends or input does.
pub fn run(config: &Config, input: impl BufRead, mut out: impl Write) -> Result<()> {
    let start = config.start.clone().unwrap_or_else(|| AnyPosition::new(config.variant, &config.rule_options));
    let variant = start.variant();
    let human = config.human;
    let mut game = Game::new(start);
    let mut engine = Engine::new(EngineOptions::default());
    let level = Level::clamped(config.level);
    let opponent = if config.hot_seat { Opponent::SameBoard } else { Opponent::Engine { human } };
    let mut lines = input.lines();
    writeln!(out, "{} — type moves in SAN (Nf3) or UCI (g1f3); 'help' for commands.", variant.name())?;
    loop {
        let pos = game.position().clone();
        writeln!(out, "\n{}", pos.board().diagram())?;
        writeln!(out, "FEN: {}", pos.fen())?;
        if let Some(o) = game.outcome() {
            writeln!(out, "Game over: {o}")?;
            return Ok(());
        }
        if pos.is_check() {
            writeln!(out, "{} is in check.", pos.turn())?;
        }
        if config.hot_seat || pos.turn() == human {
            write!(out, "{} to move> ", pos.turn())?;
            out.flush()?;
            let Some(line) = lines.next() else { return Ok(()) };
            let line = line?;
            let cmd = line.trim();
            match cmd {
                "" => continue,
                "quit" | "exit" => return Ok(()),
                "help" => {
                    writeln!(out, "commands: <move> | moves (list legal moves) | undo | pgn | quit")?;
                    continue;
                }
                "moves" => {
                    let all: Vec<String> = san::all_san(&pos).into_iter().map(|(_, s)| s).collect();
                    writeln!(out, "{}", all.join(" "))?;
                    continue;
                }
                "undo" => {
                    // The house rules: against the engine back to your last turn.
                    match takeback(opponent, pos.turn(), game.moves().len(), false) {
                        Ok(n) => (0..n).for_each(|_| {
                            game.undo();
                        }),
                        Err(e) => writeln!(out, "No take-back: {e}.")?,
                    }
                    continue;
                }
                "pgn" => {
                    let result = pgn::result_string(game.outcome());
                    write!(out, "{}", pgn::write_pgn(&[], game.start(), game.moves(), result))?;
                    continue;
                }
                _ => {}
            }
            if let Err(e) = game.play_str(cmd) {
                writeln!(out, "{e}")?;
            }
        } else {
            let history: Vec<u64> = game.positions()[..game.positions().len() - 1].iter().map(|p| p.hash()).collect();
            let stop = AtomicBool::new(false);
            // The house rules' think time (no clock in the line mode).
            let t = think_time(level, None, game.moves().len(), Load::IDLE);
            let r = engine.search(&pos, &history, &t.limits(), &t.strength(), &stop, &mut |_| {});
            let Some(m) = r.best else { return Err(anyhow!("engine found no move")) };
            writeln!(out, "Chimera plays {}", san::to_san(&pos, m))?;
            game.push_unchecked(m);
        }
    }
}
