//! `chimera bench`: speed measurements. `bench search` (the default)
//! searches fixed positions of every variant to a fixed depth on one thread
//! and prints the total node count (a behaviour signature: any change to the
//! search or evaluation changes it) and the speed. With `--records`,
//! positions sampled from `chimera datagen` games replace the fixed ones
//! (to compare the nodes two evaluations need to a depth).

use anyhow::{bail, Result};
use chimera_engine::{Engine, EngineOptions, Limits, Strength};
use chimera_rules::{AnyPosition, Position, RuleOptions, Variant};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// What to measure: `search` or `perft`.
    #[arg(default_value = "search")]
    what: String,
    /// Search depth of every position.
    #[arg(long, default_value_t = 11)]
    depth: u32,
    /// Hash size in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// `bench perft`: only the cases whose name contains this text.
    /// `bench search`: only the positions of this variant (e.g. `chess`).
    #[arg(long)]
    only: Option<String>,
    /// `bench search`: evaluate with the network of each variant (built
    /// in, or `--eval-file`) instead of the hand-made evaluation.
    #[arg(long)]
    nnue: bool,
    /// `bench search --nnue`: a network file for its variant.
    #[arg(long)]
    eval_file: Option<std::path::PathBuf>,
    /// `bench search --nnue`: the hand-made evaluation takes over where the
    /// material balance is beyond this many centipawns (UCI `NNUE Hybrid`;
    /// 0 = never).
    #[arg(long, default_value_t = chimera_engine::NNUE_HYBRID)]
    nnue_hybrid: i32,
    /// `bench search`: instead of the fixed positions, positions sampled
    /// from the games of a `chimera datagen` file (`--sample` of them, one
    /// per game spread evenly over the file, each at a ply of `--plies`
    /// after the opening). Run once with and once without `--nnue` to
    /// compare the nodes each evaluation's search needs to a depth.
    #[arg(long)]
    records: Option<std::path::PathBuf>,
    /// `bench search --records`: how many positions to sample.
    #[arg(long, default_value_t = 100)]
    sample: usize,
    /// `bench search --records`: the plies after the opening to sample
    /// from, `FIRST-LAST` (e.g. `120-199` for late positions; a game too
    /// short for its sampled ply is skipped).
    #[arg(long, default_value = "8-59", value_parser = parse_plies)]
    plies: (usize, usize),
}

/// `--plies FIRST-LAST`: two numbers, the first not above the last.
fn parse_plies(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = s.split_once('-').ok_or_else(|| format!("`{s}`: give the plies as FIRST-LAST, e.g. 8-59"))?;
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| format!("`{t}` is not a ply number (in `{s}`)"));
    let (a, b) = (num(a)?, num(b)?);
    if a > b {
        return Err(format!("`{s}`: the first ply must not be above the last"));
    }
    if b > 100_000 {
        return Err(format!("`{s}`: the last ply must be at most 100000"));
    }
    Ok((a, b))
}

/// Orthodox positions: the start, Kiwipete, chessprogramming.org perft
/// positions 3-5 and a few middlegames/endgames.
const CHESS_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1NPP/PPP1NPB1/R1BQ1RK1 b - - 0 9",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "8/8/8/3k4/8/8/3PK3/8 w - - 0 1",
];

pub fn run(a: Args) -> Result<()> {
    match a.what.as_str() {
        "perft" => crate::bench_perft::run(a.only.as_deref()),
        "search" => bench_search(&a),
        other => bail!("unknown benchmark '{other}': use 'search' or 'perft'"),
    }
}

fn bench_search(a: &Args) -> Result<()> {
    let mut positions = match &a.records {
        Some(path) => sampled_positions(path, a.sample, a.plies)?,
        None => fixed_positions()?,
    };
    if let Some(only) = &a.only {
        positions.retain(|(v, _)| v == only);
        if positions.is_empty() {
            bail!("no bench position of variant '{only}'");
        }
    }
    let mut engine = Engine::new(EngineOptions {
        hash_mb: a.hash,
        threads: 1,
        multi_pv: 1,
        use_nnue: a.nnue,
        nnue_hybrid: a.nnue_hybrid,
        ..Default::default()
    });
    if let Some(path) = &a.eval_file {
        if !a.nnue {
            bail!("--eval-file needs --nnue");
        }
        let what = engine.set_eval_file(Some(path)).map_err(|e| anyhow::anyhow!(e))?;
        eprintln!("using the {what}");
    }
    let limits = Limits { depth: Some(a.depth), ..Default::default() };
    let stop = AtomicBool::new(false);
    let mut total = 0u64;
    let cpu0 = cpu_seconds();
    let start = Instant::now();
    for (variant, pos) in &positions {
        engine.new_game();
        let t = Instant::now();
        let r = engine.search(pos, &[], &limits, &Strength::default(), &stop, &mut |_| {});
        let ms = t.elapsed().as_millis();
        eprintln!(
            "{variant:14} {:>10} nodes {:>6} ms  best {}  {}",
            r.nodes,
            ms,
            r.best.map_or("(none)".into(), |m| m.to_string()),
            pos.fen()
        );
        total += r.nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    println!("Total time (ms) : {}", (secs * 1000.0) as u64);
    println!("Nodes searched  : {total}");
    println!("Nodes/second    : {}", (total as f64 / secs.max(1e-9)) as u64);
    // On a loaded machine wall-clock speed says little: also per CPU second.
    if let (Some(a), Some(b)) = (cpu0, cpu_seconds()) {
        if b > a {
            println!("CPU time (ms)   : {}", ((b - a) * 1000.0) as u64);
            println!("Nodes/CPU-second: {}", (total as f64 / (b - a)) as u64);
        }
    }
    Ok(())
}

/// The fixed bench positions: [`CHESS_FENS`] and every variant's start.
fn fixed_positions() -> Result<Vec<(String, AnyPosition)>> {
    let opts = RuleOptions::default();
    let mut positions: Vec<(String, AnyPosition)> = Vec::new();
    for fen in CHESS_FENS {
        positions.push(("chess".into(), AnyPosition::from_fen(Variant::Chess, fen, &opts)?));
    }
    for v in Variant::ALL.iter().skip(1) {
        positions.push((v.id().into(), AnyPosition::new(*v, &opts)));
    }
    Ok(positions)
}

/// Up to `n` positions from the games of a `chimera datagen` file: one from
/// each of `n` games spread evenly over the file, game `i`'s position after
/// ply `first + (7919 · i) mod (last − first + 1)` (skipped when the game
/// ends there or sooner; the same file gives the same positions).
fn sampled_positions(
    path: &std::path::Path,
    n: usize,
    (first, last): (usize, usize),
) -> Result<Vec<(String, AnyPosition)>> {
    if n == 0 {
        bail!("--sample must be at least 1");
    }
    let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let games = chimera_train::datagen::read_records(&bytes)
        .map_err(|e| anyhow::anyhow!("{} is not a chimera datagen file: {e}", path.display()))?;
    let step = (games.len() / n).max(1);
    let mut positions = Vec::new();
    for (i, g) in games.iter().step_by(step).take(n).enumerate() {
        let ply = first + (i * 7919) % (last - first + 1);
        if g.moves.len() <= ply {
            continue;
        }
        let mut pos = g.start.clone();
        for &m in &g.moves[..ply] {
            pos.play_unchecked(m);
        }
        positions.push((pos.variant().id().to_string(), pos));
    }
    if positions.is_empty() {
        bail!("{}: no sampled game lasts past its sampled ply ({first} to {last})", path.display());
    }
    Ok(positions)
}

/// User + system CPU time of this process (Linux `/proc/self/stat`, in
/// clock ticks of 1/100 s); `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
