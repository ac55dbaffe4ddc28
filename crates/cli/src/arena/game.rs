//! One game between two UCI engines, with the rules library as arbiter.

use super::openings::Opening;
use super::uci_client::{EngineError, EngineSpec, GoFailure, Score, UciEngine};
use chimera_rules::{AnyPosition, Color, Game, Move, Position, RuleOptions, Variant};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How long each move may take.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Limit {
    /// `X+Y`: a clock of `base_ms` plus `inc_ms` after each move.
    Clock {
        base_ms: u64,
        inc_ms: u64,
    },
    Nodes(u64),
    Depth(u32),
    MoveTime(u64),
}

impl Limit {
    /// Parses `X+Y` or `X` in seconds (decimals allowed), e.g. `10+0.1`.
    pub fn parse_tc(s: &str) -> Result<Limit, String> {
        let (base, inc) = s.trim().split_once('+').unwrap_or((s.trim(), "0"));
        let secs = |x: &str| -> Result<u64, String> {
            let v: f64 = x.trim().parse().map_err(|_| {
                format!("time control '{s}': '{x}' is not a number of seconds (expected X+Y, e.g. 10+0.1)")
            })?;
            if !v.is_finite() || v < 0.0 {
                return Err(format!("time control '{s}': '{x}' must be a non-negative number of seconds"));
            }
            Ok((v * 1000.0).round() as u64)
        };
        let (base_ms, inc_ms) = (secs(base)?, secs(inc)?);
        if base_ms == 0 && inc_ms == 0 {
            return Err(format!("time control '{s}' gives no time at all"));
        }
        Ok(Limit::Clock { base_ms, inc_ms })
    }

    /// The PGN `TimeControl` tag: `X+Y` in seconds, `-` for other limits
    /// (PGN has no way to write nodes, depth or a fixed time per move).
    pub fn pgn_time_control(&self) -> String {
        match *self {
            Limit::Clock { base_ms, inc_ms } => format!("{}+{}", secs_str(base_ms), secs_str(inc_ms)),
            _ => "-".into(),
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Limit::Clock { .. } => write!(f, "tc {}", self.pgn_time_control()),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
            Limit::Depth(d) => write!(f, "depth {d}"),
            Limit::MoveTime(ms) => write!(f, "movetime {ms} ms"),
        }
    }
}

fn secs_str(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').to_string()
    }
}

/// Optional adjudication: `resign=MOVES:CP`, `draw=FROMMOVE:MOVES:CP`, `maxmoves=N`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// A side whose own score is at or below `-cp` for `moves` of its moves in a row loses.
    pub resign: Option<(u32, i32)>,
    /// From full move `from`, both sides' scores within `±cp` for `moves` moves each: draw.
    pub draw: Option<(u32, u32, i32)>,
    /// A draw once this many full moves have been played by the engines.
    pub max_moves: Option<u32>,
}

impl FromStr for Adjudication {
    type Err = String;
    fn from_str(s: &str) -> Result<Adjudication, String> {
        let mut a = Adjudication::default();
        let num = |x: &str| -> Result<i64, String> {
            x.trim().parse().map_err(|_| format!("adjudication: '{x}' is not a whole number"))
        };
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| format!("adjudication: '{part}' is not key=value"))?;
            let vals: Vec<i64> = v.split(':').map(num).collect::<Result<_, _>>()?;
            if vals.iter().any(|&x| x < 0) {
                return Err(format!("adjudication: '{part}' has a negative number"));
            }
            match (k.trim(), vals.as_slice()) {
                ("resign", [m, cp]) if *m > 0 => a.resign = Some((*m as u32, *cp as i32)),
                ("draw", [from, m, cp]) if *m > 0 => a.draw = Some((*from as u32, *m as u32, *cp as i32)),
                ("maxmoves", [n]) if *n > 0 => a.max_moves = Some(*n as u32),
                ("resign" | "draw" | "maxmoves", _) => {
                    return Err(format!(
                        "adjudication: bad '{part}' (resign=MOVES:CP, draw=FROMMOVE:MOVES:CP, maxmoves=N; counts > 0)"
                    ))
                }
                (other, _) => return Err(format!("adjudication: unknown key '{other}' (resign, draw, maxmoves)")),
            }
        }
        Ok(a)
    }
}

#[derive(Clone, Debug)]
pub struct GameConfig {
    pub variant: Variant,
    pub opts: RuleOptions,
    pub limit: Limit,
    /// Allowed overrun of the clock or movetime before a time forfeit.
    pub margin_ms: u64,
    /// Longest wait for a `bestmove` under `--nodes`/`--depth`.
    pub move_timeout_ms: u64,
    /// Longest wait for `uciok` and `readyok`.
    pub handshake_ms: u64,
    pub adjudication: Adjudication,
}

/// An engine failure that loses the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fault {
    IllegalMove,
    Crash,
    NoBestMove,
    TimeForfeit,
}

impl Fault {
    pub const ALL: [Fault; 4] = [Fault::IllegalMove, Fault::Crash, Fault::NoBestMove, Fault::TimeForfeit];

    /// The PGN `Termination` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Fault::IllegalMove => "illegal move",
            Fault::Crash => "crash",
            Fault::NoBestMove => "no bestmove",
            Fault::TimeForfeit => "time forfeit",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start: AnyPosition,
    /// Opening moves and engine moves.
    pub moves: Vec<Move>,
    pub opening_plies: usize,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// The PGN `Termination` value: a rule (`checkmate`...), a fault, or `adjudication`.
    pub termination: String,
    /// One sentence saying what happened.
    pub details: String,
    /// The side that lost by a fault, and the fault.
    pub fault: Option<(Color, Fault)>,
    /// What each engine move's search reported, in order (the moves after
    /// the opening's).
    pub stats: Vec<MoveStat>,
}

/// One engine move's search, as its `info` lines and the clock gave it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveStat {
    /// From the mover's point of view.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// From `go` to `bestmove`.
    pub ms: u64,
}

impl MoveStat {
    /// The PGN comment cutechess writes after a move: `+0.31/12 0.412s`
    /// (score in pawns, or `+M3`/`-M3` for a mate, then `/` and the depth,
    /// then the time).
    pub fn pgn_comment(&self) -> String {
        let score = match self.score {
            Some(Score::Cp(cp)) => format!("{}{:.2}", if cp < 0 { "-" } else { "+" }, cp.unsigned_abs() as f64 / 100.0),
            Some(Score::Mate(n)) => format!("{}M{}", if n < 0 { "-" } else { "+" }, n.unsigned_abs()),
            None => String::new(),
        };
        let depth = self.depth.map_or(String::new(), |d| format!("/{d}"));
        let head = format!("{score}{depth}");
        let time = format!("{:.3}s", self.ms as f64 / 1000.0);
        if head.is_empty() {
            time
        } else {
            format!("{head} {time}")
        }
    }
}

impl GameRecord {
    pub fn winner(&self) -> Option<Color> {
        match self.result {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            _ => None,
        }
    }
}

/// Tracks the scores the engines report, for adjudication.
#[derive(Default)]
struct AdjState {
    resign_run: [u32; 2],
    draw_run: [u32; 2],
}

/// `White` / `Black`, capitalised for messages.
fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// `position startpos|fen F [moves ...]`.
pub fn position_command(start: &AnyPosition, moves: &[Move], opts: &RuleOptions) -> String {
    let mut s = if start.fen() == AnyPosition::new(start.variant(), opts).fen() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", start.fen())
    };
    if !moves.is_empty() {
        s.push_str(" moves");
        for m in moves {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

/// Starts an engine and sets it up for the match's variant.
pub fn start_engine(spec: &EngineSpec, cfg: &GameConfig) -> Result<UciEngine, EngineError> {
    let mut e = UciEngine::start(spec, Duration::from_millis(cfg.handshake_ms))?;
    // The engine's own options first: some decide what it can play
    // (Fairy-Stockfish's `VariantPath` loads variants from a file), and its
    // option list is read again after them when the variant is not in it.
    for (k, v) in &spec.options {
        e.set_option(k, v)?;
    }
    if cfg.variant != Variant::Chess
        && !spec.options.is_empty()
        && !e.variants.is_empty()
        && !e.variants.iter().any(|v| v == cfg.variant.id())
    {
        e.handshake()?;
    }
    if cfg.variant != Variant::Chess {
        if !e.has_option("UCI_Variant") {
            return Err(EngineError::Protocol(format!(
                "{}: has no UCI_Variant option, so it cannot play {}",
                spec.name, cfg.variant
            )));
        }
        if !e.variants.is_empty() && !e.variants.iter().any(|v| v == cfg.variant.id()) {
            return Err(EngineError::Protocol(format!(
                "{}: its UCI_Variant list does not offer '{}' (it offers: {})",
                spec.name,
                cfg.variant.id(),
                e.variants.join(" ")
            )));
        }
        e.set_option("UCI_Variant", cfg.variant.id())?;
        // The variant's rule options, each under its UCI name, to the
        // engines that have it.
        for (spec, value) in cfg.opts.values(cfg.variant) {
            if e.has_option(spec.uci) {
                e.set_option(spec.uci, &value)?;
            }
        }
    }
    // An option the engine refused (a misspelt name, a net file it cannot
    // read) would silently change who plays: stop here with its words.
    // Chimera says `info string error: ...`, Stockfish `No such option: ...`.
    let said = e.sync_lines()?;
    if let Some(err) = said.iter().find(|l| l.starts_with("info string error") || l.starts_with("No such option")) {
        return Err(EngineError::Protocol(format!("{}: refused its set-up: {err}", spec.name)));
    }
    Ok(e)
}

/// Plays one game. `engines[0]` plays White. An engine that faults is
/// killed and its slot emptied, so the caller starts a fresh one next game.
pub fn play_game(
    engines: [&mut Option<UciEngine>; 2],
    specs: [&EngineSpec; 2],
    cfg: &GameConfig,
    opening: &Opening,
) -> GameRecord {
    let mut stats = Vec::new();
    let mut record = play_moves(engines, specs, cfg, opening, &mut stats);
    record.stats = stats;
    record
}

/// [`play_game`] but for the search statistics, which go to `stats`.
fn play_moves(
    engines: [&mut Option<UciEngine>; 2],
    specs: [&EngineSpec; 2],
    cfg: &GameConfig,
    opening: &Opening,
    stats: &mut Vec<MoveStat>,
) -> GameRecord {
    let mut game = Game::new(opening.start.clone());
    for &m in &opening.moves {
        game.push_unchecked(m);
    }
    let mut clock = match cfg.limit {
        Limit::Clock { base_ms, .. } => [base_ms as i64; 2],
        _ => [0; 2],
    };
    let mut adj = AdjState::default();
    let mut engine_plies = 0u32;
    let finish =
        |game: &Game<AnyPosition>, result: &'static str, termination: String, details: String, fault| GameRecord {
            start: game.start().clone(),
            moves: game.moves().to_vec(),
            opening_plies: opening.moves.len(),
            result,
            termination,
            details,
            fault,
            stats: Vec::new(),
        };
    let lose = |c: Color| if c == Color::White { "0-1" } else { "1-0" };

    // Both engines get `ucinewgame` before the first move.
    for c in [Color::White, Color::Black] {
        let slot = &mut *engines[idx(c)];
        let ready = match slot.take() {
            Some(mut e) => e.new_game().map(|_| e),
            None => start_engine(specs[idx(c)], cfg).and_then(|mut e| e.new_game().map(|_| e)),
        };
        match ready {
            Ok(e) => *slot = Some(e),
            Err(e) => {
                let fault = fault_of_setup(&e);
                return finish(
                    &game,
                    lose(c),
                    fault.as_str().into(),
                    format!("{} ({}) {}: {e}", side_name(c), specs[idx(c)].name, setup_verb(fault)),
                    Some((c, fault)),
                );
            }
        }
    }

    loop {
        if let Some(o) = game.outcome() {
            return finish(&game, o.result(), o.reason().as_str().into(), format!("{o}"), None);
        }
        if let Some(max) = cfg.adjudication.max_moves {
            if engine_plies >= 2 * max {
                return finish(
                    &game,
                    "1/2-1/2",
                    "adjudication".into(),
                    format!("draw by adjudication: {max} moves played"),
                    None,
                );
            }
        }
        let pos = game.position().clone();
        let side_color = pos.turn();
        let side = side_name(side_color);
        let i = idx(side_color);
        let name = &specs[i].name;
        let (go, wait_ms, timed) = go_command(cfg, specs[i], clock, i);
        let position = position_command(game.start(), game.moves(), &cfg.opts);
        let engine = engines[i].as_mut().expect("started above");
        // A level plays each move on a fresh engine, as the server does.
        if specs[i].fresh {
            if let Err(e) = engine.new_game() {
                let fault = fault_of_setup(&e);
                *engines[i] = None;
                let details = format!("{side} ({name}) failed to start a fresh search: {e}");
                return finish(&game, lose(side_color), fault.as_str().into(), details, Some((side_color, fault)));
            }
        }
        let answer = engine.go(&position, &go, Duration::from_millis(wait_ms));
        let (best, elapsed) = match answer {
            Ok(b) => {
                let el = b.elapsed;
                (b, el)
            }
            Err(GoFailure { error, elapsed }) => {
                let fault = match (&error, timed) {
                    (EngineError::Crashed(_), _) => Fault::Crash,
                    (EngineError::Timeout(_), true) => Fault::TimeForfeit,
                    (EngineError::Timeout(_), false) => Fault::NoBestMove,
                    (EngineError::Protocol(_), _) => Fault::NoBestMove,
                };
                *engines[i] = None; // kill it: it may still be thinking
                let details = match fault {
                    Fault::TimeForfeit => format!(
                        "{side} ({name}) lost on time: no bestmove after {} ms ({})",
                        elapsed.as_millis(),
                        budget_text(cfg, specs[i], clock[i])
                    ),
                    Fault::NoBestMove => {
                        format!("{side} ({name}) gave no bestmove: {error} (waited {} ms)", elapsed.as_millis())
                    }
                    _ => format!("{side} ({name}) crashed: {error}"),
                };
                return finish(&game, lose(side_color), fault.as_str().into(), details, Some((side_color, fault)));
            }
        };
        // The clock first: a move made too late loses even if it is legal.
        if timed {
            let used = elapsed.as_millis() as i64;
            let allowed = match (specs[i].own.movetime_ms, cfg.limit) {
                (Some(ms), _) => ms as i64,
                (None, Limit::Clock { .. }) => clock[i],
                (None, Limit::MoveTime(ms)) => ms as i64,
                _ => i64::MAX,
            };
            if used > allowed + cfg.margin_ms as i64 {
                *engines[i] = None;
                let details =
                    format!("{side} ({name}) lost on time: took {used} ms ({})", budget_text(cfg, specs[i], clock[i]));
                return finish(
                    &game,
                    lose(side_color),
                    Fault::TimeForfeit.as_str().into(),
                    details,
                    Some((side_color, Fault::TimeForfeit)),
                );
            }
            if let (Limit::Clock { inc_ms, .. }, false) = (cfg.limit, specs[i].own.any()) {
                clock[i] = clock[i] - used + inc_ms as i64;
            }
        }
        let mv = match pos.parse_uci(&best.mv) {
            Ok(m) => m,
            Err(e) => {
                *engines[i] = None;
                let details = format!("{side} ({name}) played an {e}; position {}", pos.fen());
                return finish(
                    &game,
                    lose(side_color),
                    Fault::IllegalMove.as_str().into(),
                    details,
                    Some((side_color, Fault::IllegalMove)),
                );
            }
        };
        game.push_unchecked(mv);
        engine_plies += 1;
        stats.push(MoveStat {
            score: best.score,
            depth: best.depth,
            nodes: best.nodes,
            ms: elapsed.as_millis() as u64,
        });

        // Adjudication on the scores the engines report.
        let score = best.score.map(|s| s.as_cp());
        if let Some((moves, cp)) = cfg.adjudication.resign {
            adj.resign_run[i] = match score {
                Some(s) if s <= -cp => adj.resign_run[i] + 1,
                _ => 0,
            };
            if adj.resign_run[i] >= moves && game.outcome().is_none() {
                let details = format!("{side} ({name}) resigns by adjudication: score <= -{cp} cp for {moves} moves");
                return finish(&game, lose(side_color), "adjudication".into(), details, None);
            }
        }
        if let Some((from, moves, cp)) = cfg.adjudication.draw {
            adj.draw_run[i] = match score {
                Some(s) if s.abs() <= cp && pos.fullmoves() >= from => adj.draw_run[i] + 1,
                _ => 0,
            };
            if adj.draw_run.iter().all(|&r| r >= moves) && game.outcome().is_none() {
                let details = format!("draw by adjudication: both scores within ±{cp} cp for {moves} moves");
                return finish(&game, "1/2-1/2", "adjudication".into(), details, None);
            }
        }
    }
}

/// The `go` command, how long to wait for `bestmove` (for the side `mover`,
/// played by `spec`), and whether that wait is a clock (overrunning it is a
/// time forfeit). An engine with its own limits (`depth=`, `movetime=`,
/// `level=`) plays those instead of the match's.
fn go_command(cfg: &GameConfig, spec: &EngineSpec, clock: [i64; 2], mover: usize) -> (String, u64, bool) {
    if spec.own.any() {
        let mut go = "go".to_string();
        if let Some(d) = spec.own.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(ms) = spec.own.movetime_ms {
            go.push_str(&format!(" movetime {ms}"));
            return (go, ms + cfg.margin_ms, true);
        }
        return (go, cfg.move_timeout_ms, false);
    }
    match cfg.limit {
        Limit::Clock { inc_ms, .. } => {
            let (w, b) = (clock[0].max(0), clock[1].max(0));
            let go = format!("go wtime {w} btime {b} winc {inc_ms} binc {inc_ms}");
            (go, clock[mover].max(0) as u64 + cfg.margin_ms, true)
        }
        Limit::MoveTime(ms) => (format!("go movetime {ms}"), ms + cfg.margin_ms, true),
        Limit::Nodes(n) => (format!("go nodes {n}"), cfg.move_timeout_ms, false),
        Limit::Depth(d) => (format!("go depth {d}"), cfg.move_timeout_ms, false),
    }
}

fn budget_text(cfg: &GameConfig, spec: &EngineSpec, remaining: i64) -> String {
    if let Some(ms) = spec.own.movetime_ms {
        return format!("its own movetime {ms} ms, margin {} ms", cfg.margin_ms);
    }
    match cfg.limit {
        Limit::Clock { .. } => format!("{remaining} ms left on its clock, margin {} ms", cfg.margin_ms),
        Limit::MoveTime(ms) => format!("movetime {ms} ms, margin {} ms", cfg.margin_ms),
        _ => String::new(),
    }
}

fn fault_of_setup(e: &EngineError) -> Fault {
    match e {
        EngineError::Crashed(_) => Fault::Crash,
        _ => Fault::NoBestMove,
    }
}

fn setup_verb(f: Fault) -> &'static str {
    match f {
        Fault::Crash => "crashed before the game",
        _ => "failed to get ready",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(Limit::parse_tc("10+0.1"), Ok(Limit::Clock { base_ms: 10_000, inc_ms: 100 }));
        assert_eq!(Limit::parse_tc("60"), Ok(Limit::Clock { base_ms: 60_000, inc_ms: 0 }));
        assert_eq!(Limit::parse_tc("0.3+0"), Ok(Limit::Clock { base_ms: 300, inc_ms: 0 }));
        assert_eq!(Limit::parse_tc("10+0.1").unwrap().pgn_time_control(), "10+0.1");
        assert_eq!(Limit::parse_tc("0.3").unwrap().pgn_time_control(), "0.3+0");
        assert_eq!(Limit::Nodes(5).pgn_time_control(), "-");
        assert!(Limit::parse_tc("abc").unwrap_err().contains("not a number"));
        assert!(Limit::parse_tc("-1+0").unwrap_err().contains("non-negative"));
        assert!(Limit::parse_tc("0+0").unwrap_err().contains("no time"));
        assert!(Limit::parse_tc("NaN").is_err());
    }

    #[test]
    fn adjudication_specs() {
        let a: Adjudication = "resign=3:1000,draw=40:8:10,maxmoves=200".parse().unwrap();
        assert_eq!(a, Adjudication { resign: Some((3, 1000)), draw: Some((40, 8, 10)), max_moves: Some(200) });
        assert_eq!("".parse::<Adjudication>(), Ok(Adjudication::default()));
        assert!("resign=3".parse::<Adjudication>().unwrap_err().contains("resign=MOVES:CP"));
        assert!("resign=0:100".parse::<Adjudication>().is_err());
        assert!("draw=1:2:x".parse::<Adjudication>().unwrap_err().contains("not a whole number"));
        assert!("maxmoves=-3".parse::<Adjudication>().unwrap_err().contains("negative"));
        assert!("tablebase=1".parse::<Adjudication>().unwrap_err().contains("unknown key"));
    }

    #[test]
    fn go_commands_take_an_engines_own_limits() {
        let cfg = GameConfig {
            variant: Variant::Chess,
            opts: RuleOptions::default(),
            limit: Limit::Clock { base_ms: 10_000, inc_ms: 100 },
            margin_ms: 500,
            move_timeout_ms: 60_000,
            handshake_ms: 1_000,
            adjudication: Adjudication::default(),
        };
        let spec = |s: &str| s.parse::<EngineSpec>().unwrap();
        let clock = [9_000, 8_000];
        assert_eq!(
            go_command(&cfg, &spec("cmd=x"), clock, 1),
            ("go wtime 9000 btime 8000 winc 100 binc 100".to_string(), 8_500, true)
        );
        assert_eq!(
            go_command(&cfg, &spec("cmd=x,level=3"), clock, 1),
            ("go depth 3 movetime 200".to_string(), 700, true)
        );
        assert_eq!(go_command(&cfg, &spec("cmd=x,level=7"), clock, 0), ("go movetime 700".to_string(), 1_200, true));
        assert_eq!(go_command(&cfg, &spec("cmd=x,depth=5"), clock, 0), ("go depth 5".to_string(), 60_000, false));
        assert_eq!(budget_text(&cfg, &spec("cmd=x,movetime=300"), 0), "its own movetime 300 ms, margin 500 ms");
    }

    #[test]
    fn position_commands() {
        let opts = RuleOptions::default();
        let start = AnyPosition::new(Variant::Chess, &opts);
        assert_eq!(position_command(&start, &[], &opts), "position startpos");
        let e4 = start.parse_uci("e2e4").unwrap();
        assert_eq!(position_command(&start, &[e4], &opts), "position startpos moves e2e4");
        let other = AnyPosition::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", &opts).unwrap();
        assert_eq!(position_command(&other, &[], &opts), "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    }
}
