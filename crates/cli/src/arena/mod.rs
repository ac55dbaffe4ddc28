//! The match arena: UCI engines play each other on worker threads while the
//! rules library arbitrates; results, Elo and SPRT on the main thread.

pub mod game;
pub mod openings;
pub mod uci_client;

use anyhow::{anyhow, Context, Result};
use chimera_rules::pgn::write_pgn_with_comments;
use chimera_rules::{Color, Position};
use game::{play_game, start_engine, Fault, GameConfig, GameRecord, MoveStat};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use openings::Opening;
// The statistics (Elo, SPRT, intervals) are the lab's `stats` module, one
// copy of the formulas for matches and studies.
use chimera_lab::stats::{self, elo_estimate, elo_estimate_pairs, Pairs, Sprt, SprtVerdict, Wdl};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use uci_client::{EngineSpec, UciEngine};

pub struct MatchConfig {
    /// Engine A (index 0) and B (index 1); results are A's.
    pub engines: [EngineSpec; 2],
    pub game: GameConfig,
    pub games: usize,
    pub concurrency: usize,
    /// Opening pairs: game `2k` and `2k+1` play `openings[k % len]` with colours swapped.
    pub openings: Vec<Opening>,
    pub pgn_out: Option<String>,
    pub sprt: Option<Sprt>,
    pub event: String,
    /// Print a line for every finished game, not just the faulty ones.
    pub verbose: bool,
}

/// A finished game with who played it.
pub struct Finished {
    pub index: usize,
    /// Index into `engines` of the White player.
    pub white: usize,
    pub record: GameRecord,
}

/// The match as it stands.
#[derive(Default)]
pub struct Tally {
    pub wdl: Wdl,
    /// Complete opening pairs (games `2k` and `2k+1`) by A's points in the pair.
    pub pairs: Pairs,
    /// A's half-points in the first finished game of each pair still open.
    open_pairs: HashMap<usize, usize>,
    pub terminations: BTreeMap<String, u64>,
    /// Faults per engine (0 = A, 1 = B).
    pub faults: [BTreeMap<Fault, u64>; 2],
    /// Search statistics per engine (0 = A, 1 = B).
    pub search: [SearchSums; 2],
}

/// One engine's searches over a match, summed: what its moves' depth, nodes
/// and time were on average (at a time control, where two evaluations'
/// fixed-node results and clock results part, this says whether speed or
/// time use is why).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchSums {
    pub moves: u64,
    pub ms: u64,
    /// Moves that reported a depth, and the sum of those depths.
    pub depth_moves: u64,
    pub depth: u64,
    /// Moves that reported a node count, their nodes and their time.
    pub nodes_moves: u64,
    pub nodes: u64,
    pub nodes_ms: u64,
}

impl SearchSums {
    pub fn add(&mut self, m: &MoveStat) {
        self.moves += 1;
        self.ms += m.ms;
        if let Some(d) = m.depth {
            self.depth_moves += 1;
            self.depth += u64::from(d);
        }
        if let Some(n) = m.nodes {
            self.nodes_moves += 1;
            self.nodes += n;
            self.nodes_ms += m.ms;
        }
    }

    /// `412 moves: depth 12.3, 0.412 s and 415,203 nodes a move, 1,007,773 nodes a second`
    /// (the parts the engine reported).
    pub fn describe(&self) -> Option<String> {
        if self.moves == 0 {
            return None;
        }
        let mut parts = Vec::new();
        if self.depth_moves > 0 {
            parts.push(format!("depth {:.1}", self.depth as f64 / self.depth_moves as f64));
        }
        parts.push(format!("{:.3} s", self.ms as f64 / 1000.0 / self.moves as f64));
        let plural = if self.moves == 1 { "" } else { "s" };
        let mut line = format!("{} move{plural}: {}", self.moves, parts.join(", "));
        match self.nodes.checked_div(self.nodes_moves) {
            Some(per_move) => {
                line.push_str(&format!(" and {} nodes a move", thousands(per_move)));
                if let Some(per_second) = (self.nodes * 1000).checked_div(self.nodes_ms) {
                    line.push_str(&format!(", {} nodes a second", thousands(per_second)));
                }
            }
            None => line.push_str(" a move"),
        }
        Some(line)
    }
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

impl Tally {
    pub fn add(&mut self, f: &Finished) {
        let a_color = if f.white == 0 { Color::White } else { Color::Black };
        let half_points = match f.record.winner() {
            None => {
                self.wdl.draws += 1;
                1
            }
            Some(c) if c == a_color => {
                self.wdl.wins += 1;
                2
            }
            Some(_) => {
                self.wdl.losses += 1;
                0
            }
        };
        match self.open_pairs.remove(&(f.index / 2)) {
            Some(other) => self.pairs.add(half_points + other),
            None => {
                self.open_pairs.insert(f.index / 2, half_points);
            }
        }
        *self.terminations.entry(f.record.termination.clone()).or_default() += 1;
        let engine_of = |c: Color| if c == Color::White { f.white } else { 1 - f.white };
        if let Some((c, fault)) = f.record.fault {
            *self.faults[engine_of(c)].entry(fault).or_default() += 1;
        }
        let mut mover = f.record.start.turn();
        if f.record.opening_plies % 2 == 1 {
            mover = !mover;
        }
        for m in &f.record.stats {
            self.search[engine_of(mover)].add(m);
            mover = !mover;
        }
    }

    /// Games not in a complete pair (an odd `--games`, or an SPRT stop).
    pub fn unpaired(&self) -> u64 {
        self.open_pairs.len() as u64
    }

    pub fn fault_count(&self) -> u64 {
        self.faults.iter().flat_map(|m| m.values()).sum()
    }
}

/// Starts each engine once to check it speaks UCI and can play the variant,
/// so a wrong path or option fails the run at once rather than every game.
pub fn check_engines(cfg: &MatchConfig) -> Result<()> {
    for spec in &cfg.engines {
        let e = start_engine(spec, &cfg.game).map_err(|e| anyhow!("engine check failed: {e}"))?;
        for (k, _) in &spec.options {
            if !e.has_option(k) {
                eprintln!("warning: {}: the engine announced no option '{k}'", spec.name);
            }
        }
        e.quit();
    }
    Ok(())
}

pub fn run_match(cfg: MatchConfig) -> Result<Tally> {
    let cfg = Arc::new(cfg);
    let mut pgn_file = match &cfg.pgn_out {
        Some(p) => {
            Some(std::io::BufWriter::new(std::fs::File::create(p).with_context(|| format!("cannot create {p}"))?))
        }
        None => None,
    };
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Finished>();
    let mut workers = Vec::new();
    for _ in 0..cfg.concurrency.max(1).min(cfg.games.max(1)) {
        let (cfg, next, stop, tx) = (cfg.clone(), next.clone(), stop.clone(), tx.clone());
        workers.push(std::thread::spawn(move || worker(&cfg, &next, &stop, &tx)));
    }
    drop(tx);

    let pb = ProgressBar::with_draw_target(Some(cfg.games as u64), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed_precise} < {eta_precise}] {msg}")
            .expect("valid template"),
    );
    let say = |pb: &ProgressBar, line: String| {
        if pb.is_hidden() {
            eprintln!("{line}");
        } else {
            pb.println(line);
        }
    };
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    let mut tally = Tally::default();
    let mut pending: HashMap<usize, Finished> = HashMap::new();
    let mut next_to_write = 0;
    for f in rx {
        tally.add(&f);
        let r = &f.record;
        let line = format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            f.index + 1,
            names[f.white],
            names[1 - f.white],
            r.result,
            r.details
        );
        if cfg.verbose || r.fault.is_some() {
            say(&pb, line);
        }
        pb.inc(1);
        let mut msg = format!("{}-{}-{} (W-D-L of {})", tally.wdl.wins, tally.wdl.draws, tally.wdl.losses, names[0]);
        if let Some(e) = elo_estimate_pairs(&tally.pairs).or_else(|| elo_estimate(&tally.wdl)) {
            msg.push_str(&format!("  Elo {} ± {}", fmt_elo(e.elo), fmt_elo(e.margin())));
        }
        if let Some(s) = &cfg.sprt {
            let llr = s.llr_pairs(&tally.pairs);
            msg.push_str(&format!("  LLR {llr:.2}"));
            let verdict = s.decide(llr);
            if verdict != SprtVerdict::Continue && !stop.swap(true, Ordering::SeqCst) {
                say(&pb, format!("SPRT: {verdict} after {} games; finishing the games under way", tally.wdl.games()));
            }
        }
        pb.set_message(msg);
        // PGN in game order, each game as soon as those before it are written.
        pending.insert(f.index, f);
        while let Some(f) = pending.remove(&next_to_write) {
            if let Some(out) = pgn_file.as_mut() {
                out.write_all(pgn_of(&cfg, &f).as_bytes()).context("writing the PGN file")?;
                out.write_all(b"\n").context("writing the PGN file")?;
                out.flush().context("writing the PGN file")?;
            }
            next_to_write += 1;
        }
    }
    // Games after a gap (only when SPRT stopped early with games still unfinished).
    let mut rest: Vec<_> = pending.into_values().collect();
    rest.sort_by_key(|f| f.index);
    for f in rest {
        if let Some(out) = pgn_file.as_mut() {
            out.write_all(pgn_of(&cfg, &f).as_bytes())?;
            out.write_all(b"\n")?;
        }
    }
    if let Some(mut out) = pgn_file {
        out.flush().context("writing the PGN file")?;
    }
    pb.finish_and_clear();
    for w in workers {
        w.join().map_err(|_| anyhow!("a match worker thread panicked"))?;
    }
    Ok(tally)
}

fn worker(cfg: &MatchConfig, next: &AtomicUsize, stop: &AtomicBool, tx: &mpsc::Sender<Finished>) {
    let mut engines: [Option<UciEngine>; 2] = [None, None];
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let index = next.fetch_add(1, Ordering::SeqCst);
        if index >= cfg.games {
            break;
        }
        let opening = &cfg.openings[(index / 2) % cfg.openings.len()];
        let white = index % 2;
        let [a, b] = &mut engines;
        let slots = if white == 0 { [a, b] } else { [b, a] };
        let specs = [&cfg.engines[white], &cfg.engines[1 - white]];
        let record = play_game(slots, specs, &cfg.game, opening);
        if tx.send(Finished { index, white, record }).is_err() {
            break;
        }
    }
    for e in engines.into_iter().flatten() {
        e.quit();
    }
}

/// The PGN of one game, with the match's tags.
pub fn pgn_of(cfg: &MatchConfig, f: &Finished) -> String {
    let r = &f.record;
    let mut tags = vec![
        ("Event".to_string(), cfg.event.clone()),
        ("Site".to_string(), "chimera match".to_string()),
        ("Date".to_string(), today_utc()),
        ("Round".to_string(), (f.index + 1).to_string()),
        ("White".to_string(), cfg.engines[f.white].name.clone()),
        ("Black".to_string(), cfg.engines[1 - f.white].name.clone()),
        ("Termination".to_string(), r.termination.clone()),
        ("TerminationDetails".to_string(), r.details.clone()),
        ("TimeControl".to_string(), cfg.game.limit.pgn_time_control()),
    ];
    match cfg.game.limit {
        game::Limit::Nodes(_) | game::Limit::Depth(_) | game::Limit::MoveTime(_) => {
            tags.push(("SearchLimit".into(), cfg.game.limit.to_string()))
        }
        _ => {}
    }
    // An engine with its own limits (`level=`, `movetime=`, `depth=`).
    for (tag, e) in [("WhiteSearchLimit", f.white), ("BlackSearchLimit", 1 - f.white)] {
        if let Some(own) = cfg.engines[e].describe_own() {
            tags.push((tag.into(), own));
        }
    }
    tags.push(("PlyCount".into(), r.moves.len().to_string()));
    if r.opening_plies > 0 {
        tags.push(("OpeningPlies".into(), r.opening_plies.to_string()));
    }
    let comments: Vec<Option<String>> =
        std::iter::repeat_n(None, r.opening_plies).chain(r.stats.iter().map(|m| Some(m.pgn_comment()))).collect();
    write_pgn_with_comments(&tags, &r.start, &r.moves, &comments, r.result)
}

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day), Howard Hinnant's algorithm.
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    (y, m, d)
}

pub fn fmt_elo(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else if x.is_nan() {
        "nan".into()
    } else {
        format!("{x:.1}")
    }
}

/// The closing report, printed on stdout.
pub fn report(cfg_names: [&str; 2], tally: &Tally, sprt: Option<&Sprt>) -> String {
    let mut s = String::new();
    let w = &tally.wdl;
    let score = w.score().unwrap_or(0.5);
    s.push_str(&format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}\n",
        cfg_names[0],
        cfg_names[1],
        w.wins,
        w.losses,
        w.draws,
        score,
        w.games()
    ));
    s.push_str(&format!("Wins {}, draws {}, losses {} (of {})\n", w.wins, w.draws, w.losses, cfg_names[0]));
    let interval = |e: stats::EloEstimate| {
        format!(
            "{} +/- {}, 95% interval [{}, {}], LOS: {:.1} %",
            fmt_elo(e.elo),
            fmt_elo(e.margin()),
            fmt_elo(e.lower),
            fmt_elo(e.upper),
            e.los
        )
    };
    if let Some(e) = elo_estimate(w) {
        s.push_str(&format!("Elo difference: {}\n", interval(e)));
    }
    let p = &tally.pairs;
    if p.pairs() > 0 {
        let c = p.counts;
        let unpaired = match tally.unpaired() {
            0 => String::new(),
            n => format!("; {n} game(s) outside a complete pair not counted"),
        };
        s.push_str(&format!(
            "Pairs: {} (by {}'s points in the pair, 0 / 0.5 / 1 / 1.5 / 2: {} / {} / {} / {} / {}{unpaired})\n",
            p.pairs(),
            cfg_names[0],
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        ));
        if let Some(e) = elo_estimate_pairs(p) {
            s.push_str(&format!("Elo difference by pairs: {}\n", interval(e)));
        }
    }
    if let Some(sp) = sprt {
        let (lo, hi) = sp.bounds();
        let llr = sp.llr_pairs(p);
        s.push_str(&format!(
            "SPRT (by pairs): elo0 {} elo1 {} alpha {} beta {}: LLR {:.3} (bounds {:.3}, {:.3}): {}\n",
            sp.elo0,
            sp.elo1,
            sp.alpha,
            sp.beta,
            llr,
            lo,
            hi,
            sp.decide(llr)
        ));
    }
    for (i, name) in cfg_names.iter().enumerate() {
        if let Some(line) = tally.search[i].describe() {
            s.push_str(&format!("Search of {name}: {line}\n"));
        }
    }
    let terms: Vec<String> = tally.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect();
    s.push_str(&format!("Terminations: {}\n", terms.join(", ")));
    if tally.fault_count() == 0 {
        s.push_str("Faults: none (no illegal move, crash, missing bestmove or time loss)\n");
    } else {
        for (i, name) in cfg_names.iter().enumerate() {
            let parts: Vec<String> = Fault::ALL
                .iter()
                .map(|f| format!("{} {}", f.as_str(), tally.faults[i].get(f).copied().unwrap_or(0)))
                .collect();
            s.push_str(&format!("Faults of {name}: {}\n", parts.join(", ")));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_rules::Variant;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29)); // leap day of a century leap year
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn tally_counts_from_a_point_of_view() {
        use chimera_rules::{AnyPosition, RuleOptions};
        let rec = |result: &'static str, fault| GameRecord {
            start: AnyPosition::new(Variant::Chess, &RuleOptions::default()),
            moves: vec![],
            opening_plies: 0,
            result,
            termination: "x".into(),
            details: String::new(),
            fault,
            stats: vec![],
        };
        let mut t = Tally::default();
        // A is White and wins; A is Black and White wins; B (White) loses on time.
        t.add(&Finished { index: 0, white: 0, record: rec("1-0", None) });
        t.add(&Finished { index: 1, white: 1, record: rec("1-0", None) });
        t.add(&Finished { index: 2, white: 1, record: rec("0-1", Some((Color::White, Fault::TimeForfeit))) });
        t.add(&Finished { index: 3, white: 0, record: rec("1/2-1/2", None) });
        assert_eq!(t.wdl, Wdl { wins: 2, draws: 1, losses: 1 });
        assert_eq!(t.faults[1].get(&Fault::TimeForfeit), Some(&1));
        assert!(t.faults[0].is_empty());
        assert_eq!(t.fault_count(), 1);
        // Pairs: games 1-2 give A 1 point (a win, a loss), games 3-4 1.5 (a win, a draw).
        assert_eq!(t.pairs.counts, [0, 0, 1, 1, 0]);
        assert_eq!(t.unpaired(), 0);
        // Games finish out of order under concurrency: game 6 before game 5.
        t.add(&Finished { index: 5, white: 1, record: rec("1-0", None) });
        assert_eq!((t.pairs.pairs(), t.unpaired()), (2, 1));
        t.add(&Finished { index: 4, white: 0, record: rec("0-1", None) });
        assert_eq!(t.pairs.counts, [1, 0, 1, 1, 0]);
        assert_eq!(t.unpaired(), 0);
    }

    #[test]
    fn search_statistics_go_to_the_engine_that_moved() {
        use chimera_rules::{AnyPosition, RuleOptions};
        use uci_client::Score;
        let stat = |depth, nodes, ms| MoveStat { score: Some(Score::Cp(10)), depth, nodes, ms };
        // One opening ply (White's), so Black moves first; B plays White.
        // Black (A) searched 10 and 12 deep, White (B) 7 deep with no node count.
        let record = GameRecord {
            start: AnyPosition::new(Variant::Chess, &RuleOptions::default()),
            moves: vec![],
            opening_plies: 1,
            result: "1/2-1/2",
            termination: "x".into(),
            details: String::new(),
            fault: None,
            stats: vec![stat(Some(10), Some(1_000), 100), stat(Some(7), None, 50), stat(Some(12), Some(3_000), 300)],
        };
        let mut t = Tally::default();
        t.add(&Finished { index: 0, white: 1, record });
        let a =
            SearchSums { moves: 2, ms: 400, depth_moves: 2, depth: 22, nodes_moves: 2, nodes: 4_000, nodes_ms: 400 };
        let b = SearchSums { moves: 1, ms: 50, depth_moves: 1, depth: 7, nodes_moves: 0, nodes: 0, nodes_ms: 0 };
        assert_eq!(t.search, [a, b]);
        assert_eq!(a.describe().unwrap(), "2 moves: depth 11.0, 0.200 s and 2,000 nodes a move, 10,000 nodes a second");
        assert_eq!(b.describe().unwrap(), "1 move: depth 7.0, 0.050 s a move");
        assert_eq!(SearchSums::default().describe(), None);
        let text = report(["A", "B"], &t, None);
        assert!(text.contains("Search of A: 2 moves: depth 11.0"), "{text}");
        assert!(text.contains("Search of B: 1 move: depth 7.0"), "{text}");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
    }

    #[test]
    fn pgn_comments_follow_the_engine_moves() {
        use uci_client::Score;
        let m = |score, depth, ms| MoveStat { score, depth, nodes: None, ms }.pgn_comment();
        assert_eq!(m(Some(Score::Cp(31)), Some(12), 412), "+0.31/12 0.412s");
        assert_eq!(m(Some(Score::Cp(-5)), Some(3), 1_000), "-0.05/3 1.000s");
        assert_eq!(m(Some(Score::Cp(0)), None, 7), "+0.00 0.007s");
        assert_eq!(m(Some(Score::Mate(3)), Some(9), 20), "+M3/9 0.020s");
        assert_eq!(m(Some(Score::Mate(-2)), Some(9), 20), "-M2/9 0.020s");
        assert_eq!(m(None, None, 20), "0.020s");
    }
}
