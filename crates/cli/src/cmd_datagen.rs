//! `chimera datagen`: training data for `chimera tune` from in-process
//! self-play at a fixed node count, every thread its own engine, written as
//! compact binary records (format in `chimera_train::datagen`).

use anyhow::{anyhow, bail, Context, Result};
use chimera_rules::Variant;
use chimera_train::datagen::{self, GenConfig};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(clap::Args)]
pub struct Args {
    /// Variant id.
    #[arg(long, default_value = "chess", ignore_case = true, value_parser = crate::variant_arg::parser())]
    variant: Variant,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Random legal plies before the engine plays.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// A game still running after this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Adjudicate a win when the score stays beyond ±CP for `--resign-plies`
    /// plies in a row (0 = never).
    #[arg(long, default_value_t = 1500)]
    resign_cp: i32,
    #[arg(long, default_value_t = 8)]
    resign_plies: usize,
    /// Seed of the random openings (game k uses the seed and k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (one engine each).
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    threads: usize,
    /// Time budget in seconds (0 = none): no new game starts after it, the
    /// games in play are finished, so the file holds only whole games.
    #[arg(long, default_value_t = 0)]
    seconds: u64,
    /// Output file (created or truncated).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Play with the network evaluation (the variant's built-in net, or
    /// `--eval-file`) instead of the hand-made one: the next net learns
    /// from the scores of the last.
    #[arg(long)]
    nnue: bool,
    /// `--nnue`: a network file for the variant.
    #[arg(long)]
    eval_file: Option<std::path::PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    let variant = a.variant;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    if a.max_plies == 0 || a.max_plies > u16::MAX as usize {
        bail!("--max-plies must be between 1 and {}", u16::MAX);
    }
    let cfg = GenConfig {
        variant,
        nodes: a.nodes,
        random_plies: a.random_plies,
        max_plies: a.max_plies,
        resign_cp: a.resign_cp,
        resign_plies: a.resign_plies,
        seed: a.seed,
    };
    // One engine per thread, all made (and the net checked) before any
    // file is touched.
    let new_engine = || -> Result<chimera_engine::Engine> {
        let mut engine = datagen::engine();
        engine.options.use_nnue = a.nnue;
        if let Some(path) = &a.eval_file {
            if !a.nnue {
                bail!("--eval-file needs --nnue");
            }
            engine.set_eval_file(Some(path)).map_err(|e| anyhow!(e))?;
            if engine.network(variant).is_none_or(|n| n.source != path.display().to_string()) {
                bail!("{} is not a net for {}", path.display(), variant.id());
            }
        }
        if a.nnue && engine.network(variant).is_none() {
            bail!("no network for {} (give one with --eval-file)", variant.id());
        }
        Ok(engine)
    };
    let engines =
        (0..a.threads.clamp(1, 256).min(a.games as usize)).map(|_| new_engine()).collect::<Result<Vec<_>>>()?;
    let mut file = std::fs::File::create(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    file.write_all(&datagen::header())?;
    let out = Mutex::new(std::io::BufWriter::new(file));
    let next = AtomicU64::new(0);
    let positions = AtomicUsize::new(0);
    let played = AtomicU64::new(0);
    let pb = ProgressBar::with_draw_target(Some(a.games), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed_precise} < {eta_precise}] {msg}")
            .expect("valid template"),
    );
    let t0 = std::time::Instant::now();
    let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for engine in engines {
            s.spawn(|| {
                let mut engine = engine;
                let mut buf = Vec::new();
                loop {
                    if a.seconds > 0 && t0.elapsed().as_secs() >= a.seconds {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= a.games || failed.lock().map_or(true, |f| f.is_some()) {
                        break;
                    }
                    let g = datagen::play_game(&mut engine, &cfg, i);
                    buf.clear();
                    datagen::write_record(&g, &mut buf);
                    let n = positions.fetch_add(g.moves.len(), Ordering::Relaxed) + g.moves.len();
                    let written = out
                        .lock()
                        .map_err(|_| anyhow!("writer poisoned"))
                        .and_then(|mut w| w.write_all(&buf).with_context(|| format!("writing {}", a.out.display())));
                    if let Err(e) = written {
                        if let Ok(mut f) = failed.lock() {
                            f.get_or_insert(e);
                        }
                        break;
                    }
                    played.fetch_add(1, Ordering::Relaxed);
                    pb.inc(1);
                    pb.set_message(format!("{n} positions, {:.0}/s", n as f64 / t0.elapsed().as_secs_f64().max(1e-3)));
                }
            });
        }
    });
    pb.finish_and_clear();
    if let Some(e) = failed.into_inner().map_err(|_| anyhow!("error slot poisoned"))? {
        return Err(e);
    }
    out.into_inner()
        .map_err(|_| anyhow!("writer poisoned"))?
        .flush()
        .with_context(|| format!("writing {}", a.out.display()))?;
    let n = positions.load(Ordering::Relaxed);
    println!(
        "{} games of {}, {n} positions ({:.0} a second) in {} ({:.1} s)",
        played.load(Ordering::Relaxed),
        variant.id(),
        n as f64 / t0.elapsed().as_secs_f64().max(1e-3),
        a.out.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}
