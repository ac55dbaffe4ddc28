//! `chimera bench`: speed measurements.

use anyhow::{bail, Result};

#[derive(clap::Args)]
pub struct Args {
    /// What to measure: `perft` (move generation) or `search` (the engine).
    #[arg(default_value = "search")]
    what: String,
    /// Only the cases whose name contains this text.
    #[arg(long)]
    only: Option<String>,
}

pub fn run(a: Args) -> Result<()> {
    match a.what.as_str() {
        "perft" => crate::bench_perft::run(a.only.as_deref()),
        other => bail!("bench {other} is not built yet"),
    }
}
