//! The UCI loop.

/// Runs the UCI loop on stdin/stdout.
pub fn run_stdio() -> anyhow::Result<()> {
    anyhow::bail!("UCI loop not built yet")
}
