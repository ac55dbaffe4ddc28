//! # chimera-tui
//!
//! The terminal player behind `chimera play`: a full-screen board for every
//! variant (ratatui + crossterm) with the mouse, cursor keys and a command
//! line with completion of legal moves; clocks, the move list, the engine's
//! line, and each variant's own state (reserves, hands, flip rights, rings).
//! The engine searches on its own thread, so the screen never freezes.
//!
//! [`app::App`] holds the state and takes plain events (tests drive it with
//! key events and draw it on ratatui's `TestBackend`); [`run`] puts it on a
//! real terminal; [`line::run`] is the line-by-line mode for scripts.

pub mod app;
pub mod engine;
pub mod line;
pub mod ui;

pub use app::{parse_clock, App, Config};

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::Write;
use std::time::{Duration, Instant};

/// Restores the terminal however the player ends (error or panic included).
struct TerminalGuard;

impl TerminalGuard {
    fn enter() -> std::io::Result<TerminalGuard> {
        enable_raw_mode()?;
        let guard = TerminalGuard;
        execute!(std::io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let mut out = std::io::stdout();
        let _ = execute!(out, DisableMouseCapture, LeaveAlternateScreen, crossterm::cursor::Show);
        let _ = disable_raw_mode();
        let _ = out.flush();
    }
}

/// Plays on the terminal until the player quits. Returns the game's PGN.
pub fn run(config: Config) -> anyhow::Result<String> {
    let guard = TerminalGuard::enter()?;
    let backend = CrosstermBackend::new(std::io::stdout());
    let mut terminal = Terminal::new(backend)?;
    terminal.clear()?;
    let mut app = App::new(config);
    let size = terminal.size()?;
    app.size = (size.width, size.height);
    app.sync_engine();
    while !app.quit {
        app.tick(Instant::now());
        let size = terminal.size()?;
        app.size = (size.width, size.height);
        terminal.draw(|f| ui::render(f, &app))?;
        // Wake up at least ten times a second for the clocks and the engine.
        if event::poll(Duration::from_millis(100))? {
            let ev = event::read()?;
            app.now = Instant::now();
            app.handle_event(ev);
            // Take whatever else is already waiting before drawing again.
            let mut n = 0;
            while n < 64 && event::poll(Duration::ZERO)? {
                app.handle_event(event::read()?);
                n += 1;
            }
        }
    }
    drop(terminal);
    drop(guard);
    Ok(app.pgn())
}
