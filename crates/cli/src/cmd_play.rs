//! `chimera play`: play any variant in the terminal against the engine (or
//! against yourself with `--hot-seat`). On a terminal it is a full-screen
//! app (crates/tui); with stdin or stdout not a terminal (a script, a pipe)
//! or with `--lines`, it reads moves line by line as it always did.

use anyhow::{anyhow, Result};
use chimera_rules::{AnyPosition, Color, Variant};
use chimera_tui::{parse_clock, Config};
use std::io::IsTerminal;

#[derive(clap::Args)]
pub struct Args {
    /// Variant id.
    #[arg(long, default_value = "chess", ignore_case = true, value_parser = crate::variant_arg::parser())]
    variant: Variant,
    /// Your colour: white or black.
    #[arg(long, default_value = "white")]
    color: String,
    /// Engine level 1-8 (1 = beginner, 8 = full strength at one second a move).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=8))]
    level: u8,
    /// Both sides are played from this terminal.
    #[arg(long)]
    hot_seat: bool,
    /// Start from this FEN.
    #[arg(long)]
    fen: Option<String>,
    /// Rule options, `key=value` joined by `,` (for example
    /// `ring_powers=NKQ`); `chimera variants` lists each variant's.
    #[arg(long, default_value = "")]
    rules: String,
    /// Clocks: minutes per side + seconds of increment, like 5+3 (full-screen mode).
    #[arg(long)]
    clock: Option<String>,
    /// Letters and ASCII marks only: for terminals without Unicode (also
    /// chosen for TERM=dumb, TERM=linux and a locale that is not UTF-8).
    #[arg(long)]
    ascii: bool,
    /// No colours (also with NO_COLOR set, or TERM=dumb).
    #[arg(long)]
    no_color: bool,
    /// The line-by-line mode even on a terminal.
    #[arg(long)]
    lines: bool,
    /// Where `save` (the `s` key) writes the game's PGN by default.
    #[arg(long, default_value = "chimera.pgn")]
    pgn: String,
}

pub fn run(a: Args) -> Result<()> {
    let variant = a.variant;
    let opts = crate::variant_arg::rules(variant, &a.rules)?;
    let start = match &a.fen {
        Some(f) => Some(AnyPosition::from_fen(variant, f, &opts).map_err(|e| anyhow!("bad FEN: {e}"))?),
        None => None,
    };
    let human = match a.color.as_str() {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        other => return Err(anyhow!("--color must be white or black, not '{other}'")),
    };
    let clock = a.clock.as_deref().map(parse_clock).transpose().map_err(|e| anyhow!(e))?;
    let (ascii_env, mono_env) = chimera_tui::detect_fallbacks(|k| std::env::var(k).ok());
    let config = Config {
        variant,
        rule_options: opts,
        start,
        human,
        hot_seat: a.hot_seat,
        level: a.level,
        clock,
        ascii: a.ascii || ascii_env,
        monochrome: a.no_color || mono_env,
        pgn_path: a.pgn,
    };
    if a.lines || !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return chimera_tui::line::run(&config, std::io::stdin().lock(), std::io::stdout().lock());
    }
    chimera_tui::run(config)?;
    Ok(())
}
