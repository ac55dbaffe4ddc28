//! `chimera uci`: the UCI loop of the engine crate on stdin/stdout.

use anyhow::Result;

#[derive(clap::Args, Default)]
pub struct Args {}

pub fn run(_a: Args) -> Result<()> {
    chimera_engine::uci::run_stdio()
}
