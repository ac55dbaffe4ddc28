//! `chimera match`: engine-versus-engine matches with the rules library as
//! arbiter. See `docs/match.md`.

use crate::arena::game::{Adjudication, GameConfig, Limit};
use crate::arena::openings::{load_file, random_opening, Opening};
use crate::arena::uci_client::EngineSpec;
use crate::arena::{check_engines, report, run_match, MatchConfig};
use anyhow::{anyhow, bail, Result};
use chimera_lab::stats::Sprt;
use chimera_rules::{AnyPosition, Variant};

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["tc", "nodes", "depth", "movetime"])))]
pub struct Args {
    /// An engine, twice: `name=A,cmd=/path,args=-x -y,dir=/wd,option.Hash=16`.
    /// Results are the first engine's. Its own limits replace the match's
    /// for its moves: `movetime=MS`, `depth=D` (sent together as `go depth D
    /// movetime MS`), or `level=N` (1-8: Chimera playing as the server's
    /// level N, its Skill Level, depth cap and movetime, a fresh search
    /// each move).
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Variant id.
    #[arg(long, default_value = "chess", ignore_case = true, value_parser = crate::variant_arg::parser())]
    variant: Variant,
    /// Number of games (colours alternate; each opening is played with both colours).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Time control `X+Y`: X seconds per game, Y seconds added per move.
    #[arg(long)]
    tc: Option<String>,
    /// Fixed nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Fixed depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed time per move in milliseconds (for an engine without its own
    /// `movetime=`/`depth=`/`level=`).
    #[arg(long)]
    movetime: Option<u64>,
    /// Milliseconds an engine may overrun its clock or movetime before it loses on time.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// Seconds to wait for a bestmove under --nodes or --depth before the game is lost.
    #[arg(long, default_value_t = 60.0)]
    move_timeout: f64,
    /// Seconds an engine may take to answer `uci` and `isready`.
    #[arg(long, default_value_t = crate::arena::uci_client::HANDSHAKE_TIMEOUT.as_secs_f64())]
    startup_timeout: f64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Openings: an EPD/FEN file (one position a line) or a PGN file (start and main line).
    #[arg(long)]
    openings: Option<String>,
    /// Random legal plies played (after the file's opening, if any) before the engines start.
    #[arg(long, default_value_t = 0)]
    random_plies: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write every game to this PGN file (each engine move followed by its
    /// search as cutechess writes it: `{+0.31/12 0.412s}`, score/depth time).
    #[arg(long)]
    pgn: Option<String>,
    /// Sequential probability ratio test over opening pairs, stopping early: `elo0=0,elo1=10,alpha=0.05,beta=0.05`.
    #[arg(long)]
    sprt: Option<String>,
    /// Rule options, `key=value` joined by `,` (for example
    /// `ring_powers=NKQ`); sent to each engine as
    /// the UCI option its variant names (`setoption name RingPowers ...`).
    #[arg(long, default_value = "")]
    rules: String,
    /// Optional adjudication: `resign=MOVES:CP,draw=FROMMOVE:MOVES:CP,maxmoves=N`.
    #[arg(long)]
    adjudicate: Option<String>,
    /// PGN Event tag.
    #[arg(long, default_value = "chimera match")]
    event: String,
    /// Print a line for every finished game (faults are always printed).
    #[arg(long, short)]
    verbose: bool,
}

pub fn run(a: Args) -> Result<()> {
    let cfg = config(a)?;
    for e in &cfg.engines {
        if let Some(own) = e.describe_own() {
            eprintln!("{} plays its own limits: {own}", e.name);
        }
    }
    check_engines(&cfg)?;
    let names = [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()];
    let sprt = cfg.sprt;
    eprintln!(
        "{} vs {}: {} games of {} at {}, concurrency {}",
        names[0], names[1], cfg.games, cfg.game.variant, cfg.game.limit, cfg.concurrency
    );
    let tally = run_match(cfg)?;
    print!("{}", report([&names[0], &names[1]], &tally, sprt.as_ref()));
    Ok(())
}

fn config(a: Args) -> Result<MatchConfig> {
    if a.engines.len() != 2 {
        bail!("give exactly two --engine arguments (got {})", a.engines.len());
    }
    let e0: EngineSpec = a.engines[0].parse().map_err(|e: String| anyhow!(e))?;
    let mut e1: EngineSpec = a.engines[1].parse().map_err(|e: String| anyhow!(e))?;
    if e0.name == e1.name {
        e1.name.push_str(" (2)");
    }
    let variant = a.variant;
    let opts = crate::variant_arg::rules(variant, &a.rules)?;
    let limit = if let Some(tc) = &a.tc {
        Limit::parse_tc(tc).map_err(|e| anyhow!(e))?
    } else if let Some(n) = a.nodes {
        if n == 0 {
            bail!("--nodes must be at least 1");
        }
        Limit::Nodes(n)
    } else if let Some(d) = a.depth {
        if d == 0 {
            bail!("--depth must be at least 1");
        }
        Limit::Depth(d)
    } else if let Some(ms) = a.movetime {
        if ms == 0 {
            bail!("--movetime must be at least 1 ms");
        }
        Limit::MoveTime(ms)
    } else {
        bail!("give one of --tc, --nodes, --depth, --movetime");
    };
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    if a.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    if !(a.move_timeout.is_finite() && a.move_timeout > 0.0) {
        bail!("--move-timeout must be a positive number of seconds");
    }
    if !(a.startup_timeout.is_finite() && a.startup_timeout > 0.0) {
        bail!("--startup-timeout must be a positive number of seconds");
    }
    let adjudication: Adjudication = match &a.adjudicate {
        Some(s) => s.parse().map_err(|e: String| anyhow!(e))?,
        None => Adjudication::default(),
    };
    let sprt: Option<Sprt> = a.sprt.as_deref().map(str::parse).transpose().map_err(|e: String| anyhow!(e))?;

    let base = match &a.openings {
        Some(path) => load_file(path, variant, &opts)?,
        None => vec![Opening { start: AnyPosition::new(variant, &opts), moves: Vec::new() }],
    };
    let pairs = a.games.div_ceil(2);
    let openings: Vec<Opening> = if a.random_plies > 0 {
        (0..pairs).map(|k| random_opening(&base[k % base.len()], a.random_plies, a.seed, k as u64)).collect()
    } else {
        base
    };
    Ok(MatchConfig {
        engines: [e0, e1],
        game: GameConfig {
            variant,
            opts,
            limit,
            margin_ms: a.timemargin,
            move_timeout_ms: (a.move_timeout * 1000.0).round() as u64,
            handshake_ms: (a.startup_timeout * 1000.0).round() as u64,
            adjudication,
        },
        games: a.games,
        concurrency: a.concurrency,
        openings,
        pgn_out: a.pgn,
        sprt,
        event: a.event,
        verbose: a.verbose,
    })
}
