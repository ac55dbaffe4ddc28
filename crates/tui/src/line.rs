//! The line mode of `chimera play` (stdin not a terminal, or `--lines`): a
//! diagram and a prompt after every move, moves typed in SAN or UCI. Scripts
//! drive it through a pipe. [`run_online`] plays a game on a server so.

use crate::app::Config;
use crate::remote::Remote;
use crate::session::{DrawOutcome, Session};
use anyhow::{anyhow, Result};
use chimera_engine::{Engine, EngineOptions};
use chimera_rules::{pgn, san, AnyPosition, Color, Game, Position};
use chimera_session::{takeback, think_time, Level, Load, Opponent};
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

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

/// Plays a game on a server line by line (`chimera play --online --lines`,
/// or not on a terminal): the board after every change, the opponent's
/// moves as they come, a prompt on this side's turn. Lines are read only on
/// this side's turn (lines typed ahead wait for it): a move in SAN or UCI,
/// or `resign`, `draw` (offer or accept), `moves`, `pgn`, `help`, `quit`.
/// Ends when the game does, on `quit`, or at the end of input on this
/// side's turn (the game goes on on the server).
pub fn run_online(
    config: &Config,
    remote: Remote,
    input: impl BufRead + Send + 'static,
    mut out: impl Write,
) -> Result<()> {
    let mut session = Session::new(config);
    session.attach(remote);
    // The input on a thread of its own, so that the server's moves show
    // while nobody types.
    let (tx, lines) = std::sync::mpsc::channel::<String>();
    std::thread::Builder::new().name("input".into()).spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    })?;
    let me = session.human;
    writeln!(
        out,
        "{} — online: you play {} against {}. Moves in SAN (Nf3) or UCI (g1f3); 'help' for commands.",
        session.variant().name(),
        me.name(),
        session.player_name(!me)
    )?;
    let mut shown: Option<(usize, bool)> = None;
    let mut prompted = false;
    let mut ended_at: Option<std::time::Instant> = None;
    loop {
        session.tick(std::time::Instant::now());
        if let Some(n) = session.take_notice() {
            writeln!(out, "{}", n.text)?;
        }
        // A game the rules end here ends when the server says so too (so
        // that its last move is on the server before this returns); ten
        // seconds at most.
        if session.end.is_some() && !session.server_over() {
            let since = *ended_at.get_or_insert_with(std::time::Instant::now);
            if since.elapsed() < Duration::from_secs(10) {
                session.wait_remote(Duration::from_millis(100));
                continue;
            }
        }
        let key = (session.game.moves().len(), session.end.is_some());
        if shown != Some(key) {
            shown = Some(key);
            prompted = false;
            let pos = session.position();
            writeln!(out, "\n{}", pos.board().diagram())?;
            writeln!(out, "FEN: {}", pos.fen())?;
            if let (Some(w), Some(b)) = (session.time_left(Color::White), session.time_left(Color::Black)) {
                writeln!(out, "Clocks: White {} · Black {}", clock_text(w), clock_text(b))?;
            }
            if let Some(e) = &session.end {
                writeln!(out, "Game over: {}", e.text)?;
                return Ok(());
            }
            if pos.is_check() {
                writeln!(out, "{} is in check.", pos.turn())?;
            }
            if !session.human_to_move() {
                writeln!(out, "Waiting for {}…", session.player_name(pos.turn()))?;
            }
        }
        if !session.human_to_move() {
            session.wait_remote(Duration::from_millis(100));
            continue;
        }
        if !prompted {
            write!(out, "{} to move> ", session.position().turn())?;
            out.flush()?;
            prompted = true;
        }
        let line = match lines.recv_timeout(Duration::from_millis(100)) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                writeln!(out, "\nEnd of input: the game goes on on the server.")?;
                return Ok(());
            }
        };
        let cmd = line.trim();
        let said = match cmd {
            "" => continue,
            "quit" | "exit" => {
                writeln!(out, "The game goes on on the server.")?;
                return Ok(());
            }
            "help" => "commands: <move> | moves (list legal moves) | resign | draw | pgn | quit".to_string(),
            "moves" => san::all_san(session.position()).into_iter().map(|(_, s)| s).collect::<Vec<_>>().join(" "),
            "resign" => session.resign().unwrap_or_else(|e| e),
            "draw" => match session.offer_draw() {
                Ok(DrawOutcome::Sent { accepting: true }) => "Accepting the draw…".into(),
                Ok(_) => format!("Draw offered to {}.", session.player_name(!me)),
                Err(e) => e,
            },
            "pgn" => {
                let result = pgn::result_string(session.game.outcome());
                pgn::write_pgn(&[], session.game.start(), session.game.moves(), result).trim_end().to_string()
            }
            _ => match san::parse_san(session.position(), cmd) {
                Ok(m) => match session.play(m) {
                    Ok(()) => continue,
                    Err(e) => e,
                },
                Err(e) => e.to_string(),
            },
        };
        writeln!(out, "{said}")?;
        prompted = false;
    }
}

/// `4:59` or `0:09.5` (tenths under 20 seconds), as the full screen shows it.
fn clock_text(d: Duration) -> String {
    let ms = d.as_millis();
    let s = ms / 1000;
    if s < 20 {
        format!("{}:{:02}.{}", s / 60, s % 60, (ms % 1000) / 100)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}
