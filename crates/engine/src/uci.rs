//! The UCI loop, as Stockfish and Fairy-Stockfish speak it (see
//! `docs/protocol.md`). Input is read on its own thread, so `stop`,
//! `isready` and `ponderhit` are answered while a search runs; the search
//! runs on another thread that prints its `info` lines and `bestmove`.

use crate::{Engine, EngineOptions, Limits, Score, ScoreBound, SearchInfo, Strength};
use chimera_rules::{AnyPosition, Position, RuleOptions, Variant};
use std::io::{BufRead, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Runs the UCI loop on stdin/stdout.
pub fn run_stdio() -> anyhow::Result<()> {
    run(std::io::BufReader::new(std::io::stdin()), std::io::stdout())
}

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed output (GUI gone) is not worth a panic.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

struct Running {
    handle: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
}

struct Uci {
    out: Out,
    variant: Variant,
    rule_opts: RuleOptions,
    pos: AnyPosition,
    /// Hashes of the positions before `pos` in the game, oldest first.
    history: Vec<u64>,
    engine: Option<Engine>,
    running: Option<Running>,
    skill: u8,
    limit_strength: bool,
    elo: u32,
    ponder: bool,
}

/// The `UCI_Variant` combo's values: every id of `Variant::ALL`, in order.
fn variant_vars() -> String {
    Variant::ALL.iter().map(|v| format!("var {}", v.id())).collect::<Vec<_>>().join(" ")
}

/// Runs the UCI loop on any line reader and writer (tests drive it with
/// in-memory pipes). Returns after `quit` or the end of the input.
pub fn run<R, W>(reader: R, writer: W) -> anyhow::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::Builder::new().name("uci-input".into()).spawn(move || {
        for line in reader.lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
    })?;
    let rule_opts = RuleOptions::default();
    let mut uci = Uci {
        out: Arc::new(Mutex::new(Box::new(writer))),
        variant: Variant::Chess,
        pos: AnyPosition::new(Variant::Chess, &rule_opts),
        rule_opts,
        history: Vec::new(),
        engine: Some(Engine::new(EngineOptions::default())),
        running: None,
        skill: 20,
        limit_strength: false,
        elo: 1500,
        ponder: false,
    };
    while let Ok(line) = rx.recv() {
        if !uci.command(line.trim()) {
            break;
        }
    }
    uci.stop_and_wait();
    Ok(())
}

impl Uci {
    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    fn error(&self, what: &str) {
        self.say(&format!("info string error: {what}"));
    }

    /// Stops the running search (it prints its `bestmove`) and takes the engine back.
    fn stop_and_wait(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            r.pondering.store(false, Ordering::Relaxed);
            match r.handle.join() {
                Ok(e) => self.engine = Some(e),
                Err(_) => {
                    self.error("the search thread failed; starting a fresh engine");
                    self.engine = Some(Engine::new(EngineOptions::default()));
                }
            }
        }
    }

    /// The engine, once the search (if any) has finished by itself.
    fn engine(&mut self) -> &mut Engine {
        // An option change or a new game during a search stops it first.
        self.stop_and_wait();
        self.engine.as_mut().expect("engine is home when no search runs")
    }

    /// Handles one line; `false` = quit.
    fn command(&mut self, line: &str) -> bool {
        let mut parts = line.split_whitespace();
        let Some(cmd) = parts.next() else { return true };
        let rest: Vec<&str> = parts.collect();
        match cmd {
            "uci" => self.cmd_uci(),
            "isready" => self.say("readyok"),
            "setoption" => self.cmd_setoption(&rest),
            "ucinewgame" => {
                self.engine().new_game();
                self.pos = AnyPosition::new(self.variant, &self.rule_opts);
                self.history.clear();
            }
            "position" => self.cmd_position(&rest),
            "go" => self.cmd_go(&rest),
            "stop" => {
                if let Some(r) = &self.running {
                    r.stop.store(true, Ordering::Relaxed);
                }
            }
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.pondering.store(false, Ordering::Relaxed);
                }
            }
            "quit" => return false,
            "d" => self.cmd_d(),
            "debug" | "register" => {}
            other => self.error(&format!("unknown command '{other}'")),
        }
        true
    }

    fn cmd_uci(&self) {
        let lines = [
            format!("id name Chimera {}", env!("CARGO_PKG_VERSION")),
            "id author the Chimera developers".to_string(),
            String::new(),
            format!("option name UCI_Variant type combo default chess {}", variant_vars()),
        ];
        for l in lines {
            self.say(&l);
        }
        // The variants' rule options, each as its variant's module names it.
        for o in RuleOptions::specs() {
            self.say(&format!("option name {} type string default {}", o.uci, o.default));
        }
        let lines = [
            "option name Hash type spin default 16 min 1 max 65536".into(),
            "option name Threads type spin default 1 min 1 max 256".into(),
            "option name MultiPV type spin default 1 min 1 max 256".into(),
            "option name Skill Level type spin default 20 min 0 max 20".into(),
            "option name UCI_LimitStrength type check default false".into(),
            "option name UCI_Elo type spin default 1500 min 600 max 2800".into(),
            "option name Move Overhead type spin default 10 min 0 max 5000".into(),
            "option name Clear Hash type button".into(),
            "option name Ponder type check default false".into(),
            "option name Baseline type check default false".into(),
            format!("option name Use NNUE type check default {}", crate::USE_NNUE),
            "option name EvalFile type string default <embedded>".into(),
            format!("option name NNUE Hybrid type spin default {} min 0 max 10000", crate::NNUE_HYBRID),
            format!("option name NNUE Scale type spin default {} min 10 max 400", crate::NNUE_SCALE),
        ];
        for l in lines {
            self.say(&l);
        }
        // A tuning build (`--features spsa`) offers the search's numbers.
        if crate::search_params::TUNABLE {
            for p in crate::search_params::ALL {
                self.say(&format!(
                    "option name Tune_{} type spin default {} min {} max {}",
                    p.name, p.default, p.min, p.max
                ));
            }
            // The tuner's line for each (scripts/spsa.py): name, default,
            // min, max, step.
            for p in crate::search_params::ALL {
                self.say(&format!("info string spsa {},{},{},{},{}", p.name, p.default, p.min, p.max, p.step));
            }
        }
        self.say("uciok");
    }

    fn cmd_setoption(&mut self, rest: &[&str]) {
        if rest.first() != Some(&"name") {
            return self.error("setoption needs 'name <option> [value <value>]'");
        }
        let vpos = rest.iter().position(|&t| t == "value");
        let name = rest[1..vpos.unwrap_or(rest.len())].join(" ");
        let value = vpos.map(|i| rest[i + 1..].join(" ")).unwrap_or_default();
        let spin = |lo: i64, hi: i64| -> Result<i64, String> {
            let v: i64 = value.parse().map_err(|_| format!("option '{name}' needs a number, got '{value}'"))?;
            if v < lo || v > hi {
                return Err(format!("option '{name}' must be between {lo} and {hi}, got {v}"));
            }
            Ok(v)
        };
        let check = || -> Result<bool, String> {
            match value.to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(format!("option '{name}' needs true or false, got '{value}'")),
            }
        };
        let result: Result<(), String> = match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match Variant::from_str(&value) {
                Ok(v) => {
                    self.variant = v;
                    self.pos = AnyPosition::new(v, &self.rule_opts);
                    self.history.clear();
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            },
            n if RuleOptions::specs().any(|o| o.uci.eq_ignore_ascii_case(n)) => {
                match self.rule_opts.set(n, &value) {
                    Ok(()) => {
                        // The position is remade when its variant has the option.
                        if self.variant.info().options.iter().any(|o| o.uci.eq_ignore_ascii_case(n)) {
                            self.pos = AnyPosition::new(self.variant, &self.rule_opts);
                            self.history.clear();
                        }
                        Ok(())
                    }
                    Err(e) => Err(e.to_string()),
                }
            }
            "hash" => spin(1, 65536).map(|v| {
                let e = self.engine();
                e.options.hash_mb = v as usize;
                e.resize_hash();
                let got = e.hash_size_mb();
                if got < v as usize / 2 {
                    say(
                        &self.out,
                        &format!("info string Hash {v} MB is more than this machine can give: using {got} MB"),
                    );
                }
            }),
            "threads" => spin(1, 256).map(|v| self.engine().options.threads = v as usize),
            "multipv" => spin(1, 256).map(|v| self.engine().options.multi_pv = v as usize),
            "skill level" => spin(0, 20).map(|v| self.skill = v as u8),
            "uci_limitstrength" => check().map(|v| self.limit_strength = v),
            "uci_elo" => spin(600, 2800).map(|v| self.elo = v as u32),
            "move overhead" => spin(0, 5000).map(|v| self.engine().move_overhead = Duration::from_millis(v as u64)),
            "clear hash" => {
                self.engine().clear_hash();
                Ok(())
            }
            "ponder" => check().map(|v| self.ponder = v),
            "baseline" => check().map(|v| self.engine().options.baseline = v),
            "use nnue" => check().map(|v| self.engine().options.use_nnue = v),
            "nnue hybrid" => spin(0, 10000).map(|v| self.engine().options.nnue_hybrid = v as i32),
            "nnue scale" => spin(10, 400).map(|v| self.engine().options.nnue_scale = v as i32),
            "evalfile" => {
                let path = value.trim();
                let path = (!path.is_empty() && path != "<embedded>").then(|| std::path::PathBuf::from(path));
                self.engine()
                    .set_eval_file(path.as_deref())
                    .map(|what| say(&self.out, &format!("info string EvalFile: {what}")))
            }
            n if n.starts_with("tune_") => {
                spin(i32::MIN as i64, i32::MAX as i64).and_then(|v| crate::search_params::set(&n[5..], v as i32))
            }
            _ => Err(format!("unknown option '{name}'")),
        };
        if let Err(e) = result {
            self.error(&e);
        }
    }

    fn cmd_position(&mut self, rest: &[&str]) {
        let moves_at = rest.iter().position(|&t| t == "moves");
        let setup = &rest[..moves_at.unwrap_or(rest.len())];
        let mut pos = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => AnyPosition::new(self.variant, &self.rule_opts),
            Some(&"fen") if setup.len() > 1 => {
                let fen = setup[1..].join(" ");
                match AnyPosition::from_fen(self.variant, &fen, &self.rule_opts) {
                    Ok(p) => p,
                    Err(e) => return self.error(&format!("bad FEN for {}: {e}", self.variant)),
                }
            }
            _ => return self.error("position needs 'startpos' or 'fen <fen>', then optionally 'moves ...'"),
        };
        let mut history = Vec::new();
        if let Some(i) = moves_at {
            for s in &rest[i + 1..] {
                match pos.parse_uci(s) {
                    Ok(m) => {
                        history.push(pos.hash());
                        pos.play_unchecked(m);
                    }
                    Err(e) => return self.error(&e.to_string()),
                }
            }
        }
        self.pos = pos;
        self.history = history;
    }

    fn cmd_d(&self) {
        let b = self.pos.board();
        let mut s = String::new();
        s.push('\n');
        s.push_str(&b.diagram());
        s.push('\n');
        s.push_str(&format!("Fen: {}\n", self.pos.fen()));
        s.push_str(&format!("Key: {:016X}\n", self.pos.hash()));
        let checkers: Vec<String> = self.pos.checkers().into_iter().map(|sq| sq.to_string()).collect();
        s.push_str(&format!("Checkers: {}", checkers.join(" ")));
        self.say(&s);
    }

    fn cmd_go(&mut self, rest: &[&str]) {
        const KEYWORDS: [&str; 12] = [
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "depth",
            "nodes",
            "mate",
            "movetime",
            "infinite",
            "searchmoves",
            "ponder",
        ];
        if rest.first() == Some(&"perft") {
            return self.cmd_perft(&rest[1..]);
        }
        let mut limits = Limits::default();
        let mut ponder = false;
        let (mut wtime, mut btime, mut winc, mut binc) = (None, None, None, None);
        let mut i = 0;
        let num = |i: usize, key: &str| -> Result<i64, String> {
            let v = rest.get(i + 1).ok_or_else(|| format!("'go {key}' needs a number"))?;
            v.parse::<i64>().map_err(|_| format!("'go {key}' needs a number, got '{v}'"))
        };
        let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
        while i < rest.len() {
            let key = rest[i];
            let r: Result<usize, String> = (|| {
                Ok(match key {
                    "wtime" => {
                        wtime = Some(ms(num(i, key)?));
                        2
                    }
                    "btime" => {
                        btime = Some(ms(num(i, key)?));
                        2
                    }
                    "winc" => {
                        winc = Some(ms(num(i, key)?));
                        2
                    }
                    "binc" => {
                        binc = Some(ms(num(i, key)?));
                        2
                    }
                    "movestogo" => {
                        limits.moves_to_go = Some(num(i, key)?.max(1) as u32);
                        2
                    }
                    "depth" => {
                        limits.depth = Some(num(i, key)?.clamp(1, 1000) as u32);
                        2
                    }
                    "nodes" => {
                        limits.nodes = Some(num(i, key)?.max(1) as u64);
                        2
                    }
                    "mate" => {
                        limits.mate = Some(num(i, key)?.max(1) as u32);
                        2
                    }
                    "movetime" => {
                        limits.movetime = Some(ms(num(i, key)?));
                        2
                    }
                    "infinite" => {
                        limits.infinite = true;
                        1
                    }
                    "ponder" => {
                        ponder = true;
                        1
                    }
                    "searchmoves" => {
                        let mut j = i + 1;
                        while j < rest.len() && !KEYWORDS.contains(&rest[j]) {
                            let m = self.pos.parse_uci(rest[j]).map_err(|e| format!("searchmoves: {e}"))?;
                            limits.search_moves.push(m);
                            j += 1;
                        }
                        j - i
                    }
                    other => return Err(format!("unknown 'go' parameter '{other}'")),
                })
            })();
            match r {
                Ok(n) => i += n,
                Err(e) => return self.error(&e),
            }
        }
        let white = self.pos.turn() == chimera_rules::Color::White;
        limits.time_left = if white { wtime } else { btime };
        limits.increment = if white { winc } else { binc };
        let strength = Strength { skill: self.skill, elo: if self.limit_strength { Some(self.elo) } else { None } };
        self.stop_and_wait();
        let mut engine = self.engine.take().expect("engine is home");
        let stop = Arc::new(AtomicBool::new(false));
        let pondering = engine.pondering.clone();
        pondering.store(ponder, Ordering::Relaxed);
        let pos = self.pos.clone();
        let history = self.history.clone();
        let out = self.out.clone();
        let (stop2, pondering2) = (stop.clone(), pondering.clone());
        let infinite = limits.infinite;
        let handle = std::thread::Builder::new().name("uci-search".into()).stack_size(64 << 20).spawn(move || {
            let result =
                engine.search(&pos, &history, &limits, &strength, &stop2, &mut |info| say(&out, &format_info(info)));
            // UCI: with `infinite` or while pondering, bestmove waits for stop / ponderhit.
            while !stop2.load(Ordering::Relaxed) && (infinite || pondering2.load(Ordering::Relaxed)) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let line = match (result.best, result.ponder) {
                (None, _) => "bestmove (none)".to_string(),
                (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
                (Some(b), None) => format!("bestmove {b}"),
            };
            say(&out, &line);
            engine
        });
        match handle {
            Ok(handle) => self.running = Some(Running { handle, stop, pondering }),
            Err(e) => {
                self.error(&format!("cannot start the search thread: {e}"));
                self.engine = Some(Engine::new(EngineOptions::default()));
            }
        }
    }

    fn cmd_perft(&mut self, rest: &[&str]) {
        let depth = match rest.first().map(|d| d.parse::<u32>()) {
            Some(Ok(d)) if (1..=20).contains(&d) => d,
            _ => return self.error("'go perft' needs a depth between 1 and 20"),
        };
        self.stop_and_wait();
        let mut total = 0;
        let mut s = String::new();
        for (m, n) in self.pos.divide(depth) {
            s.push_str(&format!("{m}: {n}\n"));
            total += n;
        }
        s.push_str(&format!("\nNodes searched: {total}\n"));
        self.say(&s);
    }
}

/// One `info` line.
pub fn format_info(i: &SearchInfo) -> String {
    let score = match i.score {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let bound = match i.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let ms = i.time.as_millis() as u64;
    let nps = i.nodes * 1000 / ms.max(1);
    let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} hashfull {} time {ms} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        i.nodes,
        i.hashfull,
        pv.join(" ")
    )
}
