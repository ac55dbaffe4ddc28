//! `chimera train`: trains a network evaluation (`chimera_engine::nnue`)
//! on a CPU from `chimera datagen` records (method in
//! `chimera_train::train` and `docs/engine.md`, "Network evaluation"), and
//! writes the quantised net, ready for the UCI option `EvalFile` or for
//! embedding under `crates/engine/nets/`.

use anyhow::{bail, Context, Result};
use chimera_engine::nnue::{Activation, Network, Shape, DEFAULT_HIDDEN, MAX_BUCKETS, MAX_HIDDEN};
use chimera_rules::{Position, Variant};
use chimera_train::datagen::{pawn_report as pawn_report_rows, read_records};
use chimera_train::train::{Config, Data, Trainer};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// `chimera datagen` record files.
    #[arg(required = true)]
    records: Vec<std::path::PathBuf>,
    /// Variant whose positions are learnt (other games in the files are
    /// left out).
    #[arg(long, default_value = "chess", ignore_case = true, value_parser = crate::variant_arg::parser())]
    variant: Variant,
    /// Output net file.
    #[arg(long, required_unless_present = "pawn_report")]
    out: Option<std::path::PathBuf>,
    /// Train nothing: print what the files' search labels say a Pawn is
    /// worth. For the positions of moves FIRST-LAST (10-40 unless given)
    /// whose sides have the same pieces but Pawns on the board, by the
    /// Pawns one side is up: the positions, the side's mean label and its
    /// game score (docs/engine.md, "Network evaluation").
    #[arg(long, value_name = "FIRST-LAST", num_args = 0..=1, default_missing_value = "10-40")]
    pawn_report: Option<String>,
    /// Start from this net (fine-tuning, e.g. a variant from the chess
    /// net) instead of random weights. The new net keeps its shape unless
    /// `--hidden`, `--activation`, `--buckets` or `--kings` is given.
    #[arg(long)]
    init: Option<std::path::PathBuf>,
    /// Hidden units per perspective, 16 to 256 in steps of 16 [default:
    /// 128, or the `--init` net's]. A fine-tuned net may be made wider (its
    /// units are kept, the new ones start with zero output weights), not
    /// narrower.
    #[arg(long)]
    hidden: Option<usize>,
    /// Activation of the hidden layer: `crelu` (clipped ReLU) or `screlu`
    /// (its square) [default: crelu, or the `--init` net's].
    #[arg(long)]
    activation: Option<Activation>,
    /// Output buckets, chosen by the material on the board and in reserve
    /// (1 to 8) [default: 1, or the `--init` net's].
    #[arg(long)]
    buckets: Option<usize>,
    /// Input sets chosen by the square of the perspective's own King: 1;
    /// 4 (its home rank's files a-d and e-h, the other ranks' a-d and e-h);
    /// or 8 (the home rank's a-b, c-d, e-f and g-h, the second rank's a-d
    /// and e-h, the ranks beyond's a-d and e-h) [default: 1, or the
    /// `--init` net's]. A fine-tuned net may be given more (1 to 4 or 8, 4
    /// to 8): each new set starts as a copy of the one it lies inside.
    #[arg(long)]
    kings: Option<usize>,
    /// With king buckets, learn each bucket's input weights on their own.
    /// By default they are factorised: each weight is a part shared by all
    /// buckets, which every position trains, plus the bucket's own part.
    #[arg(long)]
    no_factorise: bool,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's first step size (it falls along a cosine to 1% of it).
    #[arg(long, default_value_t = 0.002)]
    lr: f32,
    /// Weight of the game result in the target, 0 to 1 (the rest is the
    /// search score).
    #[arg(long, default_value_t = 0.0)]
    wdl: f32,
    /// Plies skipped after each game's random opening.
    #[arg(long, default_value_t = 4)]
    skip: usize,
    /// Hold out every Nth game for validation (0 = none).
    #[arg(long, default_value_t = 20)]
    validation: usize,
    /// Learn each training position without castling rights a second time
    /// in a mirror (files a ↔ h); every variant but Clown, whose Knights
    /// move by their file.
    #[arg(long)]
    mirror: bool,
    /// Use only the first N training positions (0 = all): the points of an
    /// Elo-against-data curve.
    #[arg(long, default_value_t = 0)]
    positions: usize,
    /// Seed of the initial weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads computing gradients.
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    threads: usize,
}

pub fn run(a: Args) -> Result<()> {
    if !(a.lr > 0.0 && a.lr.is_finite()) || a.batch == 0 || a.epochs == 0 || a.threads == 0 {
        bail!("--lr must be positive; --batch, --epochs and --threads at least 1");
    }
    if !(0.0..=1.0).contains(&a.wdl) {
        bail!("--wdl must be between 0 and 1");
    }
    if a.buckets.is_some_and(|b| !(1..=MAX_BUCKETS).contains(&b)) {
        bail!("--buckets must be between 1 and {MAX_BUCKETS}");
    }
    if a.kings.is_some_and(|k| !Shape::valid_kings(k)) {
        bail!("--kings must be 1, 4 or 8");
    }
    if a.hidden.is_some_and(|h| !Shape::valid_width(h)) {
        bail!("--hidden must be 16 to {MAX_HIDDEN} in steps of 16");
    }
    if let Some(w) = &a.pawn_report {
        return pawn_report(&a.records, a.variant, w);
    }
    let Some(out) = &a.out else { bail!("--out is needed to train") };
    let t0 = Instant::now();
    let mut data = Data::default();
    for f in &a.records {
        let bytes = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
        data.add_records(&bytes, a.variant, a.skip, a.validation, a.mirror)
            .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
    }
    if a.positions > 0 {
        data.train.truncate(a.positions);
    }
    if data.train.is_empty() {
        bail!("no {} position to learn from in the record files", a.variant.id());
    }
    println!(
        "data: {} games of {}, {} training positions, {} held out ({:.1} s)",
        data.games,
        a.variant.id(),
        data.train.len(),
        data.validation.len(),
        t0.elapsed().as_secs_f64()
    );
    let mut trainer = match &a.init {
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("reading {}", p.display()))?;
            let net = Network::from_bytes(&bytes, &p.display().to_string())
                .map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
            let mut t = Trainer::from_network(a.variant, &net);
            let parent = t.shape();
            let shape = Shape {
                activation: a.activation.unwrap_or(parent.activation),
                buckets: a.buckets.unwrap_or(parent.buckets),
                width: a.hidden.unwrap_or(parent.width),
                kings: a.kings.unwrap_or(parent.kings),
            };
            if shape != parent {
                t.reshape(shape, a.seed).map_err(|e| anyhow::anyhow!("--init {}: {e}", p.display()))?;
            }
            t
        }
        None => Trainer::new(
            a.variant,
            a.seed,
            Shape {
                activation: a.activation.unwrap_or_default(),
                buckets: a.buckets.unwrap_or(1),
                width: a.hidden.unwrap_or(DEFAULT_HIDDEN),
                kings: a.kings.unwrap_or(1),
            },
        ),
    };
    let cfg = Config {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        wdl: a.wdl,
        seed: a.seed,
        threads: a.threads,
        factorise: !a.no_factorise,
    };
    let v0 = trainer.error(&data.validation, a.wdl, a.threads);
    println!(
        "net {}; {} epochs, batch {}, lr {}, λ {}, seed {}, {} threads; held-out error at start {v0:.6}",
        trainer.shape().describe(),
        a.epochs,
        a.batch,
        a.lr,
        a.wdl,
        a.seed,
        a.threads
    );
    let n = data.train.len();
    let best = trainer.train(&data, &cfg, &mut |epoch, train, val, secs| {
        println!(
            "epoch {epoch:>3}  training {train:.6}  held out {val:.6}  ({secs:.0} s, {:.0} positions/s)",
            (n * epoch) as f64 / secs.max(1e-9)
        );
    });
    let net = trainer.quantise();
    let bytes = net.to_bytes();
    std::fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    println!(
        "kept held-out error {best:.6}; wrote {} ({} bytes) in {:.0} s",
        out.display(),
        bytes.len(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `--pawn-report`: the table of `datagen::pawn_report` for the files.
fn pawn_report(files: &[std::path::PathBuf], variant: Variant, window: &str) -> Result<()> {
    let bad = || {
        anyhow::anyhow!(
            "--pawn-report takes FIRST-LAST, two move numbers with 1 <= FIRST <= LAST (like 10-40), not '{window}'"
        )
    };
    let (first, last) = window.split_once('-').ok_or_else(bad)?;
    let (first, last): (u32, u32) = (first.trim().parse().map_err(|_| bad())?, last.trim().parse().map_err(|_| bad())?);
    if first < 1 || last < first {
        return Err(bad());
    }
    let mut games = Vec::new();
    for f in files {
        let bytes = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
        games.extend(read_records(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?);
    }
    let n = games.iter().filter(|g| g.start.variant() == variant).count();
    if n == 0 {
        bail!("no {} game in the record files", variant.id());
    }
    println!("{n} games of {}, moves {first}-{last}, the other pieces level, labels within ±4 pawns", variant.id());
    println!("| Pawns up | positions | mean label of the side up | its game score | games |");
    println!("| --- | --- | --- | --- | --- |");
    for r in pawn_report_rows(&games, variant, first, last) {
        let up = if r.up == 3 { "3 or more".to_string() } else { r.up.to_string() };
        let note = if r.up == 0 { " (White's)" } else { "" };
        if r.positions == 0 {
            println!("| {up} | 0 | | | 0 |");
        } else {
            println!(
                "| {up} | {} | {:+.2}{note} | {:.1}%{note} | {} |",
                r.positions,
                r.label,
                100.0 * r.result,
                r.games
            );
        }
    }
    Ok(())
}
