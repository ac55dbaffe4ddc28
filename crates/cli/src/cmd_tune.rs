//! `chimera tune`: gradient-based Texel tuning (Adam) of the evaluation's
//! values from self-play games (method in `chimera_train::tune` and
//! `docs/engine.md`). Prints the data size, the fitted K, the error per
//! epoch and before and after (training and held-out games, per variant),
//! the values that moved most, and the new values file, which replaces
//! `crates/engine/src/eval/values.rs` as it is.

use anyhow::{bail, Context, Result};
use chimera_engine::eval::{start_params, Params};
use chimera_rules::Variant;
use chimera_train::tune::{self, Dataset};
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
    /// Passes over the training positions (the values of the epoch with
    /// the lowest held-out error are kept).
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Start from the hand-set values (`eval::start_params`) instead of the
    /// values the engine plays with (`eval::PARAMS`).
    #[arg(long)]
    from_start: bool,
    /// Seed of the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
    /// Write the tuned values here, as the file `crates/engine/src/eval/values.rs` (default: print it).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    let t0 = Instant::now();
    let mut data = Dataset::default();
    let mut seen = HashSet::new();
    for f in &a.pgn {
        let bytes = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
        if chimera_train::datagen::is_records(&bytes) {
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
    if !(a.lr > 0.0 && a.lr.is_finite()) || a.batch == 0 || a.epochs == 0 {
        bail!("--lr must be positive, --batch and --epochs at least 1");
    }
    let start: Params = if a.from_start { start_params() } else { chimera_engine::eval::PARAMS };
    let train = tune::Model::new(&data.train, a.threads);
    let validation = tune::Model::new(&data.validation, a.threads);
    println!("traced in {:.1} s", t0.elapsed().as_secs_f64());
    let k = tune::fit_k_model(&train, &start);
    let e0 = tune::mean_error(&data.train, &start, k, a.threads);
    let v0 = tune::mean_error(&data.validation, &start, k, a.threads);
    println!("K = {k:.4}; error before: training {e0:.6}, validation {v0:.6}");
    let opts = tune::TuneOptions {
        epochs: a.epochs,
        batch: a.batch,
        learning_rate: a.lr,
        only: a.only.clone(),
        prior: a.prior,
        seed: a.seed,
        threads: a.threads,
    };
    let tuned = tune::tune(&train, &validation, &start, k, &opts, &mut |p| {
        println!(
            "epoch {:>3}  training {:.6}  validation {:.6}  ({:.0} s)",
            p.epoch,
            p.error,
            p.validation,
            t0.elapsed().as_secs_f64()
        );
    });
    let e1 = tune::mean_error(&data.train, &tuned, k, a.threads);
    let v1 = tune::mean_error(&data.validation, &tuned, k, a.threads);
    println!("error after (the engine's evaluation, rounded values): training {e1:.6}, validation {v1:.6}");
    let (tb, ta) = (
        tune::variant_errors(&data.train, &start, k, a.threads),
        tune::variant_errors(&data.train, &tuned, k, a.threads),
    );
    let (vb, va) = (
        tune::variant_errors(&data.validation, &start, k, a.threads),
        tune::variant_errors(&data.validation, &tuned, k, a.threads),
    );
    println!("| variant | training error before → after | validation error before → after |");
    println!("| --- | --- | --- |");
    for (i, v) in Variant::ALL.iter().enumerate() {
        println!("| {} | {:.5} → {:.5} | {:.5} → {:.5} |", v.id(), tb[i], ta[i], vb[i], va[i]);
    }
    let (before, after) = (tune::params_to_vec(&start), tune::params_to_vec(&tuned));
    let moved = before.iter().zip(&after).filter(|(b, t)| b != t).count();
    println!("{moved} of {} values moved; the largest moves:", before.len());
    let mut moves: Vec<(i32, &str, i32, i32)> = Vec::new();
    let fields = tune::fields();
    for ((f, &b), &t) in fields.iter().zip(&before).zip(&after) {
        if b != t {
            moves.push(((t - b).abs(), &f.name, b, t));
        }
    }
    moves.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(y.1)));
    println!("| value | before | after |");
    println!("| --- | --- | --- |");
    for (_, name, b, t) in moves.iter().take(40) {
        println!("| {name} | {b} | {t} |");
    }
    let src = tune::params_source(&tuned);
    match &a.out {
        Some(p) => std::fs::write(p, &src).with_context(|| format!("writing {}", p.display()))?,
        None => print!("{src}"),
    }
    Ok(())
}
