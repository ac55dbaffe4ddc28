//! `chimera tune`: Texel tuning of the evaluation's values from PGN games
//! (method in `chimera_engine::tune` and `docs/engine.md`). Prints the data
//! size, the fitted K, the error before and after (training and held-out
//! games, per variant), every value that moved, and the new `PARAMS`
//! source to paste into `crates/engine/src/eval.rs`.

use anyhow::{bail, Context, Result};
use chimera_engine::eval::PARAMS;
use chimera_engine::tune::{self, Dataset};
use chimera_rules::Variant;
use std::collections::HashSet;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Game files to learn from: PGN (e.g. `chimera match --pgn` output) or
    /// `chimera datagen` records (recognised by their first bytes).
    #[arg(required = true)]
    pgn: Vec<std::path::PathBuf>,
    /// Hold out every Nth pair of games for validation (0 = none).
    #[arg(long, default_value_t = 10)]
    validation: usize,
    /// Plies skipped after each game's random opening (tag `OpeningPlies`).
    #[arg(long, default_value_t = 2)]
    skip: usize,
    /// First step of the local search (halved when a pass changes nothing).
    #[arg(long, default_value_t = 8)]
    step: i32,
    /// Most passes over all values.
    #[arg(long, default_value_t = 100)]
    max_passes: usize,
    /// Tune only the values whose name starts with one of these
    /// (comma-separated, e.g. `material.,clown.`; default all).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Weight of the prior that holds values near their start: the
    /// objective adds `prior · Σ ((value − start) / 100)²`.
    #[arg(long, default_value_t = 0.0)]
    prior: f64,
    /// Threads evaluating the positions.
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    threads: usize,
    /// Write the tuned `PARAMS` source here (default: print it).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    let t0 = Instant::now();
    let mut data = Dataset::default();
    let mut seen = HashSet::new();
    for f in &a.pgn {
        let bytes = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
        if bytes.starts_with(chimera_engine::datagen::MAGIC) {
            data.add_records(&bytes, a.validation, a.skip, &mut seen)
                .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
        } else {
            let text = String::from_utf8(bytes)
                .with_context(|| format!("{} is neither a PGN nor a datagen file", f.display()))?;
            data.add_pgn(&text, a.validation, a.skip, &mut seen);
        }
    }
    if data.train.is_empty() {
        bail!("no usable position in the PGN files (games need a result and legal moves)");
    }
    let counts = data.counts();
    println!(
        "data: {} games ({} skipped), {} training positions, {} validation positions ({:.1} s)",
        data.games,
        data.skipped_games,
        data.train.len(),
        data.validation.len(),
        t0.elapsed().as_secs_f64()
    );
    for (v, n) in Variant::ALL.iter().zip(counts) {
        println!("  {:<14} {n} training positions", v.id());
    }
    let k = tune::fit_k(&data.train, &PARAMS, a.threads);
    let e0 = tune::mean_error(&data.train, &PARAMS, k, a.threads);
    let v0 = tune::mean_error(&data.validation, &PARAMS, k, a.threads);
    println!("K = {k:.4}; error before: training {e0:.6}, validation {v0:.6}");
    let opts = tune::TuneOptions {
        first_step: a.step,
        max_passes: a.max_passes,
        only: a.only.clone(),
        prior: a.prior,
        threads: a.threads,
    };
    let tuned = tune::tune(&data.train, &PARAMS, k, &opts, &mut |p| {
        println!(
            "pass {:>3}  step {:>2}  changed {:>3}  error {:.6}  ({:.0} s)",
            p.pass,
            p.step,
            p.changed,
            p.error,
            t0.elapsed().as_secs_f64()
        );
    });
    let e1 = tune::mean_error(&data.train, &tuned, k, a.threads);
    let v1 = tune::mean_error(&data.validation, &tuned, k, a.threads);
    println!("error after: training {e1:.6}, validation {v1:.6}");
    let (tb, ta) = (
        tune::variant_errors(&data.train, &PARAMS, k, a.threads),
        tune::variant_errors(&data.train, &tuned, k, a.threads),
    );
    let (vb, va) = (
        tune::variant_errors(&data.validation, &PARAMS, k, a.threads),
        tune::variant_errors(&data.validation, &tuned, k, a.threads),
    );
    println!("| variant | training error before → after | validation error before → after |");
    println!("| --- | --- | --- |");
    for (i, v) in Variant::ALL.iter().enumerate() {
        println!("| {} | {:.5} → {:.5} | {:.5} → {:.5} |", v.id(), tb[i], ta[i], vb[i], va[i]);
    }
    println!("| value | before | after |");
    println!("| --- | --- | --- |");
    let (before, after) = (tune::params_to_vec(&PARAMS), tune::params_to_vec(&tuned));
    for ((f, b), t) in tune::fields().iter().zip(before).zip(after) {
        println!("| {} | {b} | {t} |", f.name);
    }
    let src = tune::params_source(&tuned);
    match &a.out {
        Some(p) => std::fs::write(p, &src).with_context(|| format!("writing {}", p.display()))?,
        None => print!("{src}"),
    }
    Ok(())
}
