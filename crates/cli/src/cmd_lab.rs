//! `chimera lab`: the balance lab (crate `chimera-lab`, `docs/lab/README.md`).
//! `lab run` plays a study by self-play into the server's store and resumes
//! it after Ctrl-C or a crash; `lab report` writes its statistics and plots
//! as one HTML file; `lab compare` tests two studies' differences; `lab
//! list` shows the studies and `lab pgn` prints a study's games.

use anyhow::{anyhow, bail, Context, Result};
use chimera_lab::spec::{read_book, Budget, StudySpec};
use chimera_lab::{analysis, report, run, stats, store, LabError};
use chimera_rules::Variant;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    /// Data directory: the store is DIR/chimera.sqlite3, the file `chimera
    /// serve --data DIR` uses.
    #[arg(long, default_value = "data", global = true)]
    data: PathBuf,
    /// A database URL instead (`postgres://user:password@host/db`): several
    /// machines running one study share its games, each claiming batches.
    #[arg(long, env = "CHIMERA_DATABASE_URL", global = true, value_name = "URL", hide_env_values = true)]
    database: Option<String>,
    #[command(subcommand)]
    command: LabCommand,
}

#[derive(clap::Subcommand)]
enum LabCommand {
    /// Play a study (or resume it): self-play games stored one by one.
    Run(RunArgs),
    /// Write a study's report: statistics with 95% intervals and SVG plots.
    Report(ReportArgs),
    /// Compare two studies: which differences are significant.
    Compare(CompareArgs),
    /// List the studies in the store with their progress.
    List(ListArgs),
    /// Print a study's games as PGN, by game number (for `chimera tune`, other tools).
    Pgn(PgnArgs),
}

#[derive(clap::Args)]
struct ListArgs {
    /// Also draw every study's White score and draw rate with their 95% intervals in one SVG.
    #[arg(long)]
    svg: Option<PathBuf>,
}

#[derive(clap::Args)]
struct PgnArgs {
    /// Study id.
    study: String,
}

#[derive(clap::Args)]
struct RunArgs {
    /// Study id (letters, digits, '.', '_', '-'). A study that exists is
    /// resumed; options given again must match its own.
    study: String,
    /// Variant id (required for a new study).
    #[arg(long, ignore_case = true, value_parser = crate::variant_arg::parser())]
    variant: Option<Variant>,
    /// Rule options, `key=value` joined by `,` (for example
    /// `ring_powers=NKQ`); `chimera variants` lists each variant's.
    #[arg(long)]
    rules: Option<String>,
    /// Nodes per move (default 1000).
    #[arg(long, conflicts_with = "movetime")]
    nodes: Option<u64>,
    /// Milliseconds per move instead of nodes (games then depend on the machine's speed).
    #[arg(long)]
    movetime: Option<u64>,
    /// Random legal plies before the engine plays (default 4).
    #[arg(long)]
    random_plies: Option<usize>,
    /// Start positions: a file of FEN lines (game k starts from line k mod n, then the random plies).
    #[arg(long)]
    book: Option<PathBuf>,
    /// A game still running after this many engine plies is a draw (default 300).
    #[arg(long)]
    max_plies: Option<usize>,
    /// Adjudicate a win when the engine's score stays beyond ±CP (default 1200) ...
    #[arg(long)]
    resign_cp: Option<i32>,
    /// ... for this many engine plies in a row (default 6; 0 = never).
    #[arg(long)]
    resign_plies: Option<usize>,
    /// Seed of the random openings (default 1).
    #[arg(long)]
    seed: Option<u64>,
    /// Number of games of the study (required for a new one; a larger number extends a study).
    #[arg(long)]
    games: Option<u64>,
    /// Games played at once, one engine thread each.
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    concurrency: usize,
}

#[derive(clap::Args)]
struct ReportArgs {
    /// Study id.
    study: String,
    /// Write the report as one self-contained HTML file (default: print the summary only).
    #[arg(long)]
    html: Option<PathBuf>,
    /// Also write the plots as SVG files and a Markdown summary into this directory.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Skip the piece-value fit (it takes a while; the report says it was skipped).
    #[arg(long)]
    no_fit: bool,
    /// Threads for the fit.
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    threads: usize,
}

#[derive(clap::Args)]
struct CompareArgs {
    /// First study id.
    a: String,
    /// Second study id.
    b: String,
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread().enable_all().build().context("starting the async runtime")
}

pub fn run(a: Args) -> Result<()> {
    let rt = runtime()?;
    rt.block_on(async {
        let at = store::Location::new(&a.data, a.database.as_deref());
        let db = store::open_at(&at).await.map_err(|e| anyhow!(e))?;
        match a.command {
            LabCommand::Run(r) => run_study(&db, r).await,
            LabCommand::Report(r) => report_study(&db, r).await,
            LabCommand::Compare(c) => compare(&db, c).await,
            LabCommand::List(l) => list(&db, l).await,
            LabCommand::Pgn(p) => pgn(&db, p).await,
        }
    })
}

/// The spec of `r` over `base` (the stored spec, or the defaults).
fn apply(r: &RunArgs, mut s: StudySpec) -> Result<StudySpec> {
    if let Some(v) = r.variant {
        s.variant = v.id().to_string();
    }
    if let Some(p) = &r.rules {
        // The canonical text, so that a study resumed with the same
        // options written otherwise compares equal.
        s.rules = p.parse::<chimera_rules::RuleOptions>().map_err(|e| anyhow!("--rules: {e}"))?.to_string();
    }
    match (r.nodes, r.movetime) {
        (Some(n), _) => s.budget = Budget::Nodes(n),
        (_, Some(t)) => s.budget = Budget::MovetimeMs(t),
        _ => {}
    }
    if let Some(x) = r.random_plies {
        s.random_plies = x;
    }
    if let Some(p) = &r.book {
        let text = std::fs::read_to_string(p).with_context(|| format!("reading the book {}", p.display()))?;
        s.book = read_book(&text);
        if s.book.is_empty() {
            bail!("the book {} has no position (one FEN a line)", p.display());
        }
    }
    if let Some(x) = r.max_plies {
        s.max_plies = x;
    }
    if let Some(x) = r.resign_cp {
        s.resign_cp = x;
    }
    if let Some(x) = r.resign_plies {
        s.resign_plies = x;
    }
    if let Some(x) = r.seed {
        s.seed = x;
    }
    Ok(s)
}

async fn run_study(db: &store::Db, r: RunArgs) -> Result<()> {
    store::check_id(&r.study).map_err(|e| anyhow!(e))?;
    let (spec, games) = match store::get_study(db, &r.study).await {
        Ok(s) => (apply(&r, s.spec.clone())?, r.games.unwrap_or(s.games_target).max(s.games_target)),
        Err(LabError::NoSuchStudy(_)) => {
            let Some(v) = r.variant else {
                bail!("study '{}' does not exist yet: give --variant (and --games) to start it", r.study);
            };
            let Some(g) = r.games else {
                bail!("study '{}' does not exist yet: give --games to start it", r.study);
            };
            if g == 0 {
                bail!("--games must be at least 1");
            }
            (apply(&r, StudySpec::new(v))?, g)
        }
        Err(e) => return Err(anyhow!(e)),
    };
    let study = store::create_or_check(db, &r.study, &spec, games, &run::engine_id()).await.map_err(|e| anyhow!(e))?;
    eprintln!("study {}: {} games of {}", study.id, study.games_target, study.spec.describe());
    let stop = Arc::new(AtomicBool::new(false));
    // First Ctrl-C: no new game starts, the games in flight finish and are
    // stored. A second Ctrl-C exits at once (the games in flight are lost;
    // every stored game is whole).
    signal_hook::flag::register_conditional_shutdown(signal_hook::consts::SIGINT, 130, stop.clone())
        .context("installing the Ctrl-C handler")?;
    signal_hook::flag::register(signal_hook::consts::SIGINT, stop.clone()).context("installing the Ctrl-C handler")?;
    let tty = std::io::stderr().is_terminal();
    let pb = ProgressBar::with_draw_target(Some(study.games_target), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed_precise}, ETA {msg}")
            .expect("valid template"),
    );
    let every = (study.games_target / 20).max(1);
    let mut announced = false;
    let mut on_game = |p: &run::Progress| {
        if stop.load(Ordering::SeqCst) && !announced {
            announced = true;
            pb.println("stopping: the games in flight finish and are stored (Ctrl-C again to drop them)");
        }
        let left = p.to_play.saturating_sub(p.played);
        let eta = p.elapsed.as_secs_f64() / p.played.max(1) as f64 * left as f64;
        let n = (p.white_wins + p.draws + p.black_wins).max(1) as f64;
        let msg = format!(
            "{}] +{} ={} -{} (White {:.1}%)",
            fmt_secs(eta),
            p.white_wins,
            p.draws,
            p.black_wins,
            100.0 * (p.white_wins as f64 + 0.5 * p.draws as f64) / n
        );
        pb.set_position(p.stored);
        pb.set_message(msg.clone());
        if !tty && (p.stored.is_multiple_of(every) || left == 0) {
            eprintln!("{}/{} games [{:.0} s, ETA {msg}", p.stored, p.target, p.elapsed.as_secs_f64());
        }
    };
    let summary =
        run::run_study(db, &study.id, r.concurrency, stop.clone(), &mut on_game).await.map_err(|e| anyhow!(e))?;
    pb.finish_and_clear();
    let total = summary.before + summary.played;
    println!(
        "study {}: {} games stored of {} ({} before this run, {} played now in {:.1} s{})",
        study.id,
        total,
        study.games_target,
        summary.before,
        summary.played,
        summary.elapsed.as_secs_f64(),
        if summary.duplicates_skipped > 0 {
            format!(", {} already stored by another run and skipped", summary.duplicates_skipped)
        } else {
            String::new()
        }
    );
    if summary.stopped {
        println!(
            "stopped by Ctrl-C: the games in flight were finished and stored; {} games missing, `chimera lab run {}` resumes",
            summary.missing, study.id
        );
        std::process::exit(130);
    }
    Ok(())
}

fn fmt_secs(s: f64) -> String {
    let s = s.max(0.0).round() as u64;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

async fn report_study(db: &store::Db, r: ReportArgs) -> Result<()> {
    let rep = report::build(db, &r.study, !r.no_fit, r.threads).await.map_err(|e| anyhow!(e))?;
    print!("{}", report::markdown(&rep, None));
    if let Some(p) = &r.html {
        if let Some(parent) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(p, report::html(&rep)).with_context(|| format!("writing {}", p.display()))?;
        println!("\nreport written to {}", p.display());
    }
    if let Some(d) = &r.dir {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
        for (name, svg) in report::plots(&rep) {
            let p = d.join(format!("{name}.svg"));
            std::fs::write(&p, svg).with_context(|| format!("writing {}", p.display()))?;
        }
        let p = d.join("README.md");
        std::fs::write(&p, report::markdown(&rep, Some(""))).with_context(|| format!("writing {}", p.display()))?;
        println!("plots and summary written to {}", d.display());
    }
    Ok(())
}

async fn compare(db: &store::Db, c: CompareArgs) -> Result<()> {
    let a = report::build(db, &c.a, false, 1).await.map_err(|e| anyhow!(e))?;
    let b = report::build(db, &c.b, false, 1).await.map_err(|e| anyhow!(e))?;
    print!("{}", analysis::compare_text(&a.stats, &b.stats, &a.id, &b.id));
    Ok(())
}

async fn pgn(db: &store::Db, p: PgnArgs) -> Result<()> {
    store::get_study(db, &p.study).await.map_err(|e| anyhow!(e))?;
    let mut out = std::io::stdout().lock();
    for g in store::load_games(db, &p.study).await.map_err(|e| anyhow!(e))? {
        writeln!(out, "{}", g.pgn)?;
    }
    Ok(())
}

async fn list(db: &store::Db, l: ListArgs) -> Result<()> {
    let studies = store::list_studies(db).await.map_err(|e| anyhow!(e))?;
    if let Some(p) = &l.svg {
        let mut rows = Vec::new();
        for s in &studies {
            let w = stats::Wdl { wins: s.white_wins, draws: s.draws, losses: s.black_wins };
            rows.push((format!("{}: White's score", s.id), stats::score(&w)));
            rows.push((format!("{}: draws", s.id), stats::wilson(s.draws, s.games)));
        }
        let svg = report::forest(
            "White's score and draws by study (95% intervals)",
            "White's score; share of draws",
            &rows,
            Some(0.5),
        );
        std::fs::write(p, svg).with_context(|| format!("writing {}", p.display()))?;
    }
    if studies.is_empty() {
        println!("no study yet: `chimera lab run ID --variant V --games N` starts one");
        return Ok(());
    }
    println!("{:<24} {:>11} {:>6} {:>6} {:>6}  options", "study", "games", "+", "=", "-");
    for s in studies {
        println!(
            "{:<24} {:>5}/{:<5} {:>6} {:>6} {:>6}  {}",
            s.id, s.games, s.games_target, s.white_wins, s.draws, s.black_wins, s.description
        );
    }
    Ok(())
}
