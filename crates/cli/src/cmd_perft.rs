//! `chimera perft`: leaf counts of the legal move tree, printed as Stockfish
//! prints `go perft` (`move: count` lines with `--divide`, then the total).

use anyhow::{anyhow, Context, Result};
use chimera_rules::{AnyPosition, Position, RuleOptions, Variant};

#[derive(clap::Args)]
pub struct Args {
    /// Variant id.
    #[arg(long, default_value = "chess", ignore_case = true, value_parser = crate::variant_arg::parser())]
    variant: Variant,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves (UCI strings, space-separated) to play first.
    #[arg(long)]
    moves: Option<String>,
    /// Print the count below each legal move.
    #[arg(long)]
    divide: bool,
    /// Magic Ring power list (1-8 letters of Q R B N K).
    #[arg(long, default_value = "QNRB")]
    ring_powers: String,
}

/// Builds a position from the common `--variant --fen --moves --ring-powers` flags.
pub fn position_from(
    variant: Variant,
    fen: Option<&str>,
    moves: Option<&str>,
    ring_powers: &str,
) -> Result<AnyPosition> {
    let opts = RuleOptions { ring_powers: ring_powers.parse()? };
    let mut pos = match fen {
        Some(f) => AnyPosition::from_fen(variant, f, &opts).map_err(|e| anyhow!("bad FEN: {e}"))?,
        None => AnyPosition::new(variant, &opts),
    };
    for (i, m) in moves.unwrap_or("").split_whitespace().enumerate() {
        let mv = pos.parse_uci(m).map_err(|e| anyhow!("{e}")).with_context(|| format!("move {} of --moves", i + 1))?;
        pos.play_unchecked(mv);
    }
    Ok(pos)
}

pub fn run(a: Args) -> Result<()> {
    let pos = position_from(a.variant, a.fen.as_deref(), a.moves.as_deref(), &a.ring_powers)?;
    let total = if a.divide {
        let mut total = 0;
        for (m, n) in pos.divide(a.depth) {
            println!("{m}: {n}");
            total += n;
        }
        println!();
        total
    } else {
        pos.perft(a.depth)
    };
    println!("Nodes searched: {total}");
    Ok(())
}
