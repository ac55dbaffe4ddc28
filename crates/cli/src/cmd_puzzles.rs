//! `chimera puzzles`: mine puzzles from self-play and stored games, check
//! them again at a deeper budget, and list the shipped sets
//! (crates/puzzles, docs/puzzles.md).

use anyhow::{anyhow, bail, Context, Result};
use chimera_puzzles::mine::{self, MineConfig};
use chimera_puzzles::{parse_set, set_spec, shipped, write_set, Puzzle, SetSpec, SETS, THEMES};
use chimera_rules::{pgn, AnyPosition, Game};
use clap::{Args as ClapArgs, Subcommand};
use std::io::Write;
use std::path::PathBuf;

#[derive(ClapArgs)]
#[command(
    about = "Mine, verify and list puzzles",
    long_about = "Puzzles are positions where exactly one move wins (a score of +300 centipawns or a mate, with every \
other move at +100 or less). `mine` finds them in self-play games between weakened engines and in PGN files, \
`verify` checks them again with a fresh engine at a deeper budget (the shipped sets: ten times the mining budget), \
`list` counts the shipped sets by theme. docs/puzzles.md says how the shipped sets were made."
)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Subcommand)]
enum Sub {
    /// Find puzzles: the same set, seed and inputs give the same file.
    Mine(MineArgs),
    /// Check every puzzle of a file (or a shipped set) again, with a fresh engine.
    Verify(VerifyArgs),
    /// The shipped sets: sizes, themes and ratings (Markdown).
    List,
}

fn set_names() -> String {
    SETS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
}

fn parse_set_name(s: &str) -> Result<&'static SetSpec, String> {
    set_spec(s).ok_or_else(|| format!("no puzzle set {s:?}: the sets are {}", set_names()))
}

#[derive(ClapArgs)]
struct MineArgs {
    /// The set: a variant id, or magicring-rnbq (Magic Ring with the power list RNBQ).
    #[arg(long, value_parser = parse_set_name)]
    set: &'static SetSpec,
    /// Seed of the self-play games (openings, players' levels).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play games, at most.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Stop at the first block of 16 games after which at least this many puzzles are found.
    #[arg(long)]
    until: Option<usize>,
    /// Nodes of each mining search (the deeper check searches three times as many).
    #[arg(long, default_value_t = 6000)]
    nodes: u64,
    /// Nodes of the self-play players' searches (default: --nodes; their
    /// skill levels, drawn from 3 to 13, may cap them lower).
    #[arg(long)]
    player_nodes: Option<u64>,
    /// Keep only puzzles whose winning move is one of the variant's own (a flip, a placement,
    /// a declaration, a re-entry, a ring pass, a Genie's or a Clown's move), and play none of
    /// those in the random opening.
    #[arg(long)]
    special: bool,
    /// Random legal plies at the start of each self-play game.
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// A self-play game stops after this many plies.
    #[arg(long, default_value_t = 160)]
    max_plies: usize,
    /// A self-play game ends when the player to move scores at least this
    /// many centipawns, either way, for --decided-plies plies in a row.
    #[arg(long, default_value_t = 700)]
    decided_cp: i32,
    #[arg(long, default_value_t = 6)]
    decided_plies: usize,
    /// Also mine these games (PGN, every position; games of other variants are skipped).
    #[arg(long)]
    pgn: Vec<PathBuf>,
    /// Threads (each game on one).
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    threads: usize,
    /// Output file (created or truncated).
    #[arg(long)]
    out: PathBuf,
}

#[derive(ClapArgs)]
struct VerifyArgs {
    /// Puzzle files to check, together (their set from --set; a position in two is checked
    /// once); without them, the shipped set --set.
    files: Vec<PathBuf>,
    /// The set.
    #[arg(long, value_parser = parse_set_name)]
    set: &'static SetSpec,
    /// Nodes of each search: the winning move alone, then every other move.
    #[arg(long, default_value_t = 60_000)]
    nodes: u64,
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    threads: usize,
    /// Write the puzzles that hold to this file (with the input's comments and this command).
    #[arg(long)]
    keep: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    match a.command {
        Sub::Mine(m) => run_mine(m),
        Sub::Verify(v) => run_verify(v),
        Sub::List => run_list(),
    }
}

fn pgn_games(set: &'static SetSpec, path: &PathBuf) -> Result<Vec<(String, Game<AnyPosition>)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let opts = set.rule_options();
    let mut games = Vec::new();
    for (i, g) in pgn::read_pgn(&text).into_iter().enumerate() {
        let g = g.map_err(|e| anyhow!("{} game {}: {e}", path.display(), i + 1))?;
        if g.variant().ok() != Some(set.variant) || g.rule_options().ok().as_ref() != Some(&opts) {
            continue;
        }
        let (start, moves) = g.replay().map_err(|e| anyhow!("{} game {}: {e}", path.display(), i + 1))?;
        let mut game = Game::new(start);
        for m in moves {
            game.push_unchecked(m);
        }
        let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        games.push((format!("{name} game {}", i + 1), game));
    }
    Ok(games)
}

fn run_mine(a: MineArgs) -> Result<()> {
    if a.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    let cfg = MineConfig {
        set: a.set,
        seed: a.seed,
        games: a.games,
        nodes: a.nodes,
        player_nodes: a.player_nodes.unwrap_or(a.nodes),
        random_plies: a.random_plies,
        special: a.special,
        max_plies: a.max_plies,
        threads: a.threads,
        until: a.until,
        decided_cp: a.decided_cp,
        decided_plies: a.decided_plies,
    };
    let mut command = format!(
        "chimera puzzles mine --set {} --seed {} --games {} --nodes {} --random-plies {} --max-plies {} \
         --decided-cp {} --decided-plies {}",
        a.set.name, a.seed, a.games, a.nodes, a.random_plies, a.max_plies, a.decided_cp, a.decided_plies
    );
    if a.special {
        command.push_str(" --special");
    }
    if let Some(n) = a.player_nodes {
        command.push_str(&format!(" --player-nodes {n}"));
    }
    if let Some(n) = a.until {
        command.push_str(&format!(" --until {n}"));
    }
    let mut stored = Vec::new();
    for p in &a.pgn {
        command.push_str(&format!(" --pgn {}", p.display()));
        stored.extend(pgn_games(a.set, p)?);
    }
    let t = std::time::Instant::now();
    let (mut puzzles, played) = mine::mine(&cfg, &|done, found| {
        eprint!("\r{done} games, {found} puzzles   ");
    });
    eprintln!();
    if !stored.is_empty() {
        puzzles.extend(mine::mine_games(a.set, &stored, a.nodes, a.threads, &|_| {}));
        puzzles = mine::dedupe(puzzles);
    }
    let comments = vec![
        command,
        format!("{} puzzles from {played} self-play games and {} stored games", puzzles.len(), stored.len()),
    ];
    std::fs::write(&a.out, write_set(&puzzles, &comments))
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    eprintln!("{} puzzles in {:.0} s -> {}", puzzles.len(), t.elapsed().as_secs_f64(), a.out.display());
    Ok(())
}

fn run_verify(a: VerifyArgs) -> Result<()> {
    let (puzzles, mut comments) = if a.files.is_empty() {
        let s = shipped().iter().find(|s| std::ptr::eq(s.spec, a.set)).expect("every set is shipped");
        (s.puzzles.clone(), s.comments.clone())
    } else {
        let (mut puzzles, mut comments) = (Vec::new(), Vec::new());
        for f in &a.files {
            let text = std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
            let (p, c) = parse_set(a.set, &text).map_err(|e| anyhow!("{}: {e}", f.display()))?;
            puzzles.extend(p);
            comments.extend(c);
        }
        (mine::dedupe(puzzles), comments)
    };
    let t = std::time::Instant::now();
    let verdicts = mine::verify_all(&puzzles, a.nodes, a.threads, &|done| eprint!("\r{done}/{}   ", puzzles.len()));
    eprintln!();
    let mut kept: Vec<Puzzle> = Vec::new();
    let mut out = std::io::stdout().lock();
    let mut gaps: Vec<i32> = Vec::new();
    for (p, v) in puzzles.iter().zip(&verdicts) {
        if v.holds() {
            kept.push(p.clone());
        } else {
            let other = v.other.as_ref().map_or_else(|| "-".to_string(), |(m, e)| format!("{m} {e}"));
            writeln!(out, "fails {}: {} {} / other {}", p.id, p.solution(), v.best, other)?;
        }
        if let (chimera_puzzles::Eval::Cp(b), Some((_, chimera_puzzles::Eval::Cp(o)))) = (v.best, &v.other) {
            gaps.push(b - o);
        }
    }
    let mates = verdicts.iter().filter(|v| matches!(v.best, chimera_puzzles::Eval::Mate(n) if n > 0)).count();
    let worst_other = verdicts
        .iter()
        .filter_map(|v| match v.other {
            Some((_, chimera_puzzles::Eval::Cp(c))) => Some(c),
            _ => None,
        })
        .max();
    gaps.sort_unstable();
    writeln!(
        out,
        "{}: {} puzzles at {} nodes a search, {} hold, {} fail; {} winning moves mate; best other move at most {} cp; \
         median gap (winning move minus best other, no mates) {} cp; {:.0} s",
        a.set.name,
        puzzles.len(),
        a.nodes,
        kept.len(),
        puzzles.len() - kept.len(),
        mates,
        worst_other.map_or_else(|| "-".to_string(), |c| format!("{c:+}")),
        gaps.get(gaps.len() / 2).map_or_else(|| "-".to_string(), |g| g.to_string()),
        t.elapsed().as_secs_f64()
    )?;
    if let Some(path) = a.keep {
        comments.push(format!(
            "chimera puzzles verify --set {} --nodes {}: {} of {} hold",
            a.set.name,
            a.nodes,
            kept.len(),
            puzzles.len()
        ));
        std::fs::write(&path, write_set(&kept, &comments))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if kept.len() < puzzles.len() && a.files.is_empty() {
        bail!("{} shipped puzzles do not hold", puzzles.len() - kept.len());
    }
    Ok(())
}

fn run_list() -> Result<()> {
    let mut out = std::io::stdout().lock();
    let sets = shipped();
    write!(out, "| theme |")?;
    for s in sets {
        write!(out, " {} |", s.spec.name)?;
    }
    writeln!(out)?;
    writeln!(out, "|---|{}", "---:|".repeat(sets.len()))?;
    write!(out, "| **puzzles** |")?;
    for s in sets {
        write!(out, " **{}** |", s.puzzles.len())?;
    }
    writeln!(out)?;
    for (theme, _) in THEMES {
        write!(out, "| {theme} |")?;
        for s in sets {
            write!(out, " {} |", s.puzzles.iter().filter(|p| p.themes.iter().any(|t| t == theme)).count())?;
        }
        writeln!(out)?;
    }
    write!(out, "| median rating |")?;
    for s in sets {
        let mut r: Vec<u32> = s.puzzles.iter().map(|p| p.rating).collect();
        r.sort_unstable();
        write!(out, " {} |", r.get(r.len() / 2).copied().unwrap_or(0))?;
    }
    writeln!(out)?;
    Ok(())
}
