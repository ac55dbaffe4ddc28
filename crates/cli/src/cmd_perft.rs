//! `chimera perft`: leaf counts of the legal move tree, printed as Stockfish
//! prints `go perft` (`move: count` lines with `--divide`, then the total).

use anyhow::{anyhow, Context, Result};
use chimera_rules::{AnyPosition, Position, Variant};

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
    /// Rule options, `key=value` joined by `,` (for example
    /// `ring_powers=NKQ`); `chimera variants` lists each variant's.
    #[arg(long, default_value = "")]
    rules: String,
}

/// Builds a position from the common `--variant --fen --moves --rules` flags.
pub fn position_from(variant: Variant, fen: Option<&str>, moves: Option<&str>, rules: &str) -> Result<AnyPosition> {
    let opts = crate::variant_arg::rules(variant, rules)?;
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
    let pos = position_from(a.variant, a.fen.as_deref(), a.moves.as_deref(), &a.rules)?;
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
