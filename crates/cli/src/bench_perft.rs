//! `chimera bench perft`: written by the integrator (move-generation speed).
//! Stub so the engine branch builds on its own.

pub fn run() -> anyhow::Result<()> {
    anyhow::bail!("bench perft is not built in this branch (the integrator provides crates/cli/src/bench_perft.rs)")
}
