//! `chimera play`: play any variant in the terminal against the engine (or
//! against yourself with `--hot-seat`). Moves are typed in SAN or as UCI
//! strings; `help` lists the commands.

use anyhow::{anyhow, Result};
use chimera_engine::{Engine, EngineOptions, Limits, Strength};
use chimera_rules::{san, AnyPosition, Color, Game, Position, RuleOptions, Variant};
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Variant id: chess, genie, genie-ownhalf, genesis, clown, magicring.
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Your colour: white or black.
    #[arg(long, default_value = "white")]
    color: String,
    /// Engine level 1-8 (1 = beginner, 8 = full strength at one second a move).
    #[arg(long, default_value_t = 4)]
    level: u8,
    /// Both sides are played from this terminal.
    #[arg(long)]
    hot_seat: bool,
    /// Start from this FEN.
    #[arg(long)]
    fen: Option<String>,
    /// Magic Ring power list.
    #[arg(long, default_value = "QNRB")]
    ring_powers: String,
}

/// Engine strength and time for a level 1-8 (the same table as the web UI's).
pub fn level_limits(level: u8) -> (Strength, Limits) {
    let level = level.clamp(1, 8);
    let skill = [0u8, 3, 6, 9, 12, 15, 18, 20][level as usize - 1];
    let ms = [50u64, 100, 150, 200, 300, 500, 700, 1000][level as usize - 1];
    (Strength { skill, elo: None }, Limits { movetime: Some(Duration::from_millis(ms)), ..Limits::default() })
}

pub fn run(a: Args) -> Result<()> {
    let variant: Variant = a.variant.parse().map_err(|e| anyhow!("{e}"))?;
    let opts = RuleOptions { ring_powers: a.ring_powers.parse()? };
    let start = match &a.fen {
        Some(f) => AnyPosition::from_fen(variant, f, &opts).map_err(|e| anyhow!("bad FEN: {e}"))?,
        None => AnyPosition::new(variant, &opts),
    };
    let human = match a.color.as_str() {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        other => return Err(anyhow!("--color must be white or black, not '{other}'")),
    };
    let mut game = Game::new(start);
    let mut engine = Engine::new(EngineOptions::default());
    let (strength, limits) = level_limits(a.level);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    println!("{} — type moves in SAN (Nf3) or UCI (g1f3); 'help' for commands.", variant.name());
    loop {
        let pos = game.position().clone();
        println!("\n{}", pos.board().diagram());
        println!("FEN: {}", pos.fen());
        if let Some(o) = game.outcome() {
            println!("Game over: {o}");
            return Ok(());
        }
        if pos.is_check() {
            println!("{} is in check.", pos.turn());
        }
        if a.hot_seat || pos.turn() == human {
            print!("{} to move> ", pos.turn());
            std::io::stdout().flush()?;
            let Some(line) = lines.next() else { return Ok(()) };
            let line = line?;
            let cmd = line.trim();
            match cmd {
                "" => continue,
                "quit" | "exit" => return Ok(()),
                "help" => {
                    println!("commands: <move> | moves (list legal moves) | undo | pgn | quit");
                    continue;
                }
                "moves" => {
                    let all: Vec<String> = san::all_san(&pos).into_iter().map(|(_, s)| s).collect();
                    println!("{}", all.join(" "));
                    continue;
                }
                "undo" => {
                    game.undo();
                    if !a.hot_seat {
                        game.undo();
                    }
                    continue;
                }
                "pgn" => {
                    let result = chimera_rules::pgn::result_string(game.outcome());
                    print!("{}", chimera_rules::pgn::write_pgn(&[], game.start(), game.moves(), result));
                    continue;
                }
                _ => {}
            }
            if let Err(e) = game.play_str(cmd) {
                println!("{e}");
            }
        } else {
            let history: Vec<u64> = game.positions()[..game.positions().len() - 1].iter().map(|p| p.hash()).collect();
            let stop = AtomicBool::new(false);
            let r = engine.search(&pos, &history, &limits, &strength, &stop, &mut |_| {});
            let Some(m) = r.best else { return Err(anyhow!("engine found no move")) };
            println!("Chimera plays {}", san::to_san(&pos, m));
            game.push_unchecked(m);
        }
    }
}
