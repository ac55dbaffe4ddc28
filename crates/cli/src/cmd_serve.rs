//! `chimera serve`: the web server (crate `chimera-server`).

use anyhow::{anyhow, Result};

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Data directory for the SQLite store (created on first run).
    /// Default: `data` in the current directory.
    #[arg(long, default_value = "data")]
    data: std::path::PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    chimera_server::run(&a.addr, &a.data).map_err(|e| anyhow!(e))
}
