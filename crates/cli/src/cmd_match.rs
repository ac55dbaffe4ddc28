//! `chimera match`: engine-versus-engine matches.

use anyhow::{bail, Result};

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_a: Args) -> Result<()> {
    bail!("match is not built yet")
}
