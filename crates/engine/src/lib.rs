//! chimera-engine: search, evaluation and the UCI protocol.

pub mod uci {
    /// Runs the UCI loop on stdin/stdout.
    pub fn run_stdio() -> anyhow::Result<()> {
        anyhow::bail!("UCI loop not built yet")
    }
}
