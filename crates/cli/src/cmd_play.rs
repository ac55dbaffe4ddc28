//! `chimera play`: play any variant in the terminal against the engine (or
//! against yourself with `--hot-seat`). On a terminal it is a full-screen
//! app (crates/tui); with stdin or stdout not a terminal (a script, a pipe)
//! or with `--lines`, it reads moves line by line as it always did. With
//! `--online URL --token T` it plays a game on a server (`play_online`).

use anyhow::{anyhow, Result};
use chimera_rules::{AnyPosition, Color, Variant};
use chimera_tui::{parse_clock, Config};
use std::io::IsTerminal;

#[derive(clap::Args)]
pub struct Args {
    /// Variant id.
    #[arg(long, default_value = "chess", ignore_case = true, value_parser = crate::variant_arg::parser())]
    variant: Variant,
    /// Your colour: white or black (online challenges: random too).
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
    /// Play on this server (http://HOST:PORT or https://NAME) through its
    /// Board API: the account's game going on, or the one `--challenge`
    /// starts (docs/api.md).
    #[arg(long, value_name = "URL", requires = "token")]
    online: Option<String>,
    /// With --online: a personal API token of your account, with the
    /// board:play scope.
    #[arg(long, env = "CHIMERA_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// With --online: challenge this player first (with --variant, --rules,
    /// --clock, --color and --rated), and play the game once accepted.
    #[arg(long, value_name = "USERNAME", requires = "online")]
    challenge: Option<String>,
    /// With --challenge: a rated game.
    #[arg(long, requires = "challenge")]
    rated: bool,
}

pub fn run(a: Args) -> Result<()> {
    let variant = a.variant;
    let opts = crate::variant_arg::rules(variant, &a.rules)?;
    if let Some(url) = &a.online {
        return online(&a, url, opts);
    }
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
        pgn_path: a.pgn.clone(),
    };
    if line_mode(&a) {
        return chimera_tui::line::run(&config, std::io::stdin().lock(), std::io::stdout().lock());
    }
    chimera_tui::run(config)?;
    Ok(())
}

fn line_mode(a: &Args) -> bool {
    a.lines || !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal()
}

/// `--online`: a game on a server.
fn online(a: &Args, url: &str, rules: chimera_rules::RuleOptions) -> Result<()> {
    if a.hot_seat || a.fen.is_some() {
        return Err(anyhow!("--online plays the server's game: no --hot-seat or --fen with it"));
    }
    if !["white", "black", "random"].contains(&a.color.as_str()) {
        return Err(anyhow!("--color must be white, black or random, not '{}'", a.color));
    }
    let clock = a.clock.as_deref().map(parse_clock).transpose().map_err(|e| anyhow!(e))?;
    let o = crate::play_online::Online {
        url: url.to_string(),
        token: a.token.clone().unwrap_or_default(),
        challenge: a.challenge.clone(),
        variant: a.variant,
        rules,
        color: a.color.clone(),
        clock,
        rated: a.rated,
    };
    let (ascii_env, mono_env) = chimera_tui::detect_fallbacks(|k| std::env::var(k).ok());
    let mut base = Config::new(a.variant);
    base.ascii = a.ascii || ascii_env;
    base.monochrome = a.no_color || mono_env;
    base.pgn_path = a.pgn.clone();
    let (config, remote, link) = crate::play_online::connect(&o, base)?;
    let played = if line_mode(a) {
        let input = std::io::BufReader::new(std::io::stdin());
        chimera_tui::line::run_online(&config, remote, input, std::io::stdout().lock())
    } else {
        chimera_tui::run_online(config, remote).map(|_| ())
    };
    link.finish();
    played
}
