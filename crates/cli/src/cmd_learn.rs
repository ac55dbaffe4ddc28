//! `chimera learn [VARIANT]`: the lessons of `/learn` on the terminal board
//! (crates/learn, docs/learn.md). `--list` prints the lessons and their
//! steps instead of playing.

use anyhow::{bail, Result};
use chimera_rules::Variant;
use clap::Args as ClapArgs;
use std::io::{IsTerminal, Write};

#[derive(ClapArgs)]
#[command(
    about = "Interactive lessons for every special rule, on the terminal board",
    long_about = "Interactive lessons for every special rule of a variant, played on the same board as `chimera play`.\n\
Each step is a task (\"flip this pawn and give check\", \"declare a Clown where it forks\"); your move is judged by the \
rules, and the explanation says why it works or why not.\n\n\
Keys: move as in `chimera play` (arrows and Enter, the mouse, or ':' to type a move); 'i' shows the hint, 'r' starts \
the step again, 'n' goes to the next step, 'q' quits. The same lessons are on the web server's /learn pages."
)]
pub struct Args {
    /// The variant whose lessons to play (default: chess).
    #[arg(value_parser = crate::variant_arg::parser(), default_value = "chess")]
    variant: Variant,
    /// Start at this lesson (its id, as `--list` shows it).
    #[arg(long)]
    lesson: Option<String>,
    /// Print the variant's lessons and steps, and quit.
    #[arg(long)]
    list: bool,
    /// Letters instead of chess glyphs (also when the terminal cannot show them).
    #[arg(long)]
    ascii: bool,
    /// No colours.
    #[arg(long)]
    no_color: bool,
}

pub fn run(a: Args) -> Result<()> {
    if a.list {
        // A closed pipe (`| head`) ends the listing quietly.
        let mut out = std::io::stdout().lock();
        for l in chimera_learn::lessons_of(a.variant) {
            if writeln!(out, "{:<24} {}", l.id, l.title).is_err() {
                return Ok(());
            }
            for (i, s) in l.steps.iter().enumerate() {
                if writeln!(out, "  {:<30} {}", l.step_key(i + 1), s.task).is_err() {
                    return Ok(());
                }
            }
        }
        return Ok(());
    }
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!("chimera learn needs a terminal (try `chimera learn {} --list`)", a.variant);
    }
    let (ascii_env, mono_env) = chimera_tui::detect_fallbacks(|k| std::env::var(k).ok());
    let Some(app) =
        chimera_tui::App::learn(a.variant, a.lesson.as_deref(), a.ascii || ascii_env, a.no_color || mono_env)
    else {
        bail!(
            "{} has no lesson '{}' (see `chimera learn {} --list`)",
            a.variant,
            a.lesson.unwrap_or_default(),
            a.variant
        );
    };
    let done = chimera_tui::run_lessons(app)?;
    if !done.is_empty() {
        println!("Steps finished: {}", done.join(" "));
    }
    Ok(())
}
