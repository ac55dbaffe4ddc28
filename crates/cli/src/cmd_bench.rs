//! `chimera bench`: speed measurements.

use anyhow::{bail, Result};

#[derive(clap::Args)]
pub struct Args {
    /// What to measure: `perft` or `search`.
    #[arg(default_value = "search")]
    what: String,
}

pub fn run(a: Args) -> Result<()> {
    bail!("bench {} is not built yet", a.what)
}
