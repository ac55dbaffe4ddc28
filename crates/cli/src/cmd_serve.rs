//! `chimera serve`: the web server (crate `chimera-server`).

use anyhow::{bail, Result};

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Data directory for the SQLite store (created on first run).
    #[arg(long)]
    data: Option<std::path::PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    let _ = (a.addr, a.data);
    bail!("the web server is not built yet")
}
