//! # chimera-tui
//!
//! The terminal player behind `chimera play`: a full-screen board for every
//! variant (ratatui + crossterm) with the mouse, cursor keys and a command
//! line with completion of legal moves; clocks, the move list, the engine's
//! line, and each variant's own state (reserves, hands, flip rights, rings).
//! The engine searches on its own thread, so the screen never freezes.
//!
//! [`session::Session`] is the game (moves, clocks, draws, take-backs, the
//! engine's turns) by the house rules of `chimera-session`, which the web
//! server's live games share; [`app::App`] is the view over it and takes
//! plain events (tests drive it with key events and draw it on ratatui's
//! `TestBackend`); [`run`] puts it on a real terminal; [`line::run`] is the
//! line-by-line mode for scripts. [`remote`] links a session to a game on
//! a server (`chimera play --online`), [`run_online`] and
//! [`line::run_online`] play one.

pub mod app;
pub mod engine;
pub mod lesson;
pub mod line;
pub mod remote;
pub mod session;
pub mod ui;

pub use app::{parse_clock, App, Config};
pub use remote::Remote;
pub use session::Session;

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::Write;
use std::time::{Duration, Instant};

/// What the environment says about the terminal: `(ascii, monochrome)`.
/// `TERM=dumb` gets both; the Linux console (no chess glyphs in its fonts)
/// and a locale that is not UTF-8 get ASCII; `NO_COLOR` (non-empty) gets no
/// colours. `get` reads a variable (`std::env::var` in the binary).
pub fn detect_fallbacks(get: impl Fn(&str) -> Option<String>) -> (bool, bool) {
    let term = get("TERM").unwrap_or_default();
    let dumb = term == "dumb";
    let locale =
        ["LC_ALL", "LC_CTYPE", "LANG"].iter().find_map(|k| get(k).filter(|v| !v.is_empty())).unwrap_or_default();
    let utf8 = {
        let l = locale.to_ascii_lowercase();
        l.contains("utf-8") || l.contains("utf8")
    };
    let ascii = dumb || term == "linux" || (!locale.is_empty() && !utf8);
    let monochrome = dumb || get("NO_COLOR").is_some_and(|v| !v.is_empty());
    (ascii, monochrome)
}

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
    run_app(App::new(config))
}

/// Plays the lessons of a variant (`chimera learn`) until the player quits;
/// returns the steps finished (`variant/lesson/n`).
pub fn run_lessons(app: App) -> anyhow::Result<Vec<String>> {
    let app = run_app_keep(app)?;
    Ok(app.lesson.map(|l| l.finished).unwrap_or_default())
}

/// Plays a game on a server (see [`remote`]) until the player quits.
/// Returns the game's PGN.
pub fn run_online(config: Config, remote: Remote) -> anyhow::Result<String> {
    run_app(App::online(config, remote))
}

fn run_app(app: App) -> anyhow::Result<String> {
    Ok(run_app_keep(app)?.pgn())
}

/// Runs the app on the terminal until the player quits; gives it back.
fn run_app_keep(mut app: App) -> anyhow::Result<App> {
    // A panic restores the terminal before its message is printed (the
    // guard below would only do it after, on the alternate screen).
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture, LeaveAlternateScreen, crossterm::cursor::Show);
        let _ = disable_raw_mode();
        previous(info);
    }));
    let guard = TerminalGuard::enter()?;
    let backend = CrosstermBackend::new(std::io::stdout());
    let mut terminal = Terminal::new(backend)?;
    terminal.clear()?;
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
            app.set_now(Instant::now());
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
    Ok(app)
}

#[cfg(test)]
mod tests {
    use super::detect_fallbacks;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[test]
    fn fallbacks_from_the_environment() {
        assert_eq!(detect_fallbacks(env(&[("TERM", "xterm-256color"), ("LANG", "en_US.UTF-8")])), (false, false));
        assert_eq!(detect_fallbacks(env(&[("TERM", "dumb")])), (true, true));
        assert_eq!(detect_fallbacks(env(&[("TERM", "linux"), ("LANG", "C.UTF-8")])), (true, false));
        assert_eq!(detect_fallbacks(env(&[("TERM", "xterm"), ("LANG", "C")])), (true, false));
        assert_eq!(
            detect_fallbacks(env(&[("TERM", "xterm"), ("LC_ALL", "de_DE.utf8"), ("LANG", "C")])),
            (false, false)
        );
        assert_eq!(detect_fallbacks(env(&[("TERM", "xterm"), ("NO_COLOR", "1")])), (false, true));
        assert_eq!(detect_fallbacks(env(&[("TERM", "xterm"), ("NO_COLOR", "")])), (false, false));
        // No locale at all says nothing about Unicode.
        assert_eq!(detect_fallbacks(env(&[("TERM", "xterm")])), (false, false));
    }
}
