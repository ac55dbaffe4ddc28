//! A UCI engine as a child process: the handshake, options, and one `go`
//! at a time with a deadline. Every way an engine can misbehave comes back
//! as an [`EngineError`], never a panic or a hang.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The default for how long the handshakes (`uci`/`uciok`,
/// `isready`/`readyok`) may take: generous, because an engine loading a
/// network file on a busy machine can take seconds.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// One `--engine` argument: `name=A,cmd=/path,args=-x -y,dir=/wd,option.Hash=16`,
/// and optionally this engine's own limits (`movetime=MS`, `depth=D`) or a
/// server level (`level=N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// `setoption` pairs, in the order given.
    pub options: Vec<(String, String)>,
    /// This engine's own search limits, which replace the match's limit
    /// for its moves (none: it plays the match's).
    pub own: OwnLimits,
    /// `ucinewgame` before every move, so that each search starts with an
    /// empty hash table and histories, as the web server's engine does
    /// (it makes a new engine for every move). Set by `level=`.
    pub fresh: bool,
    /// The level of `chimera_session::LEVELS` it plays as (`level=N`).
    pub level: Option<u8>,
}

/// An engine's own search limits (`depth=`, `movetime=` in its spec): sent
/// together as `go depth D movetime MS`; with a movetime, a move later than
/// it plus `--timemargin` loses on time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwnLimits {
    pub depth: Option<u32>,
    pub movetime_ms: Option<u64>,
}

impl OwnLimits {
    /// Whether any is set (then the match's limit does not apply).
    pub fn any(&self) -> bool {
        self.depth.is_some() || self.movetime_ms.is_some()
    }

    /// `depth 4, movetime 300 ms`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("movetime {ms} ms"));
        }
        parts.join(", ")
    }
}

impl EngineSpec {
    /// What limits this engine's moves when it has its own: `level 4: skill
    /// 9, depth 4, movetime 300 ms, a fresh search each move` or `movetime
    /// 300 ms`; `None` when it plays the match's limit.
    pub fn describe_own(&self) -> Option<String> {
        if !self.own.any() {
            return None;
        }
        let mut s = match self.level {
            Some(n) => {
                let skill = self.options.iter().find(|(k, _)| k == "Skill Level").map_or("?", |(_, v)| v.as_str());
                format!("level {n}: skill {skill}, {}", self.own.describe())
            }
            None => self.own.describe(),
        };
        if self.fresh {
            s.push_str(", a fresh search each move");
        }
        Some(s)
    }
}

const SPEC_KEYS: &str = "name, cmd, args, dir, option.NAME, movetime, depth, level";

impl FromStr for EngineSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<EngineSpec, String> {
        let (mut name, mut cmd, mut args, mut dir, mut options) = (None, None, Vec::new(), None, Vec::new());
        let (mut own, mut level) = (OwnLimits::default(), None);
        for part in s.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("engine spec '{s}': '{part}' is not key=value (keys: {SPEC_KEYS})"))?;
            let (k, v) = (k.trim(), v.trim());
            match k {
                "name" => name = Some(v.to_string()),
                "cmd" => cmd = Some(v.to_string()),
                "args" => args = v.split_whitespace().map(String::from).collect(),
                "dir" => dir = Some(PathBuf::from(v)),
                "movetime" => {
                    own.movetime_ms = Some(v.parse::<u64>().ok().filter(|&ms| ms > 0).ok_or_else(|| {
                        format!("engine spec '{s}': bad movetime '{v}': expected whole milliseconds, at least 1")
                    })?)
                }
                "depth" => {
                    own.depth = Some(v.parse::<u32>().ok().filter(|&d| d > 0).ok_or_else(|| {
                        format!("engine spec '{s}': bad depth '{v}': expected a whole number of plies, at least 1")
                    })?)
                }
                "level" => {
                    let l: chimera_session::Level = v.parse().map_err(|e| format!("engine spec '{s}': {e}"))?;
                    level = Some(l);
                }
                _ => match k.strip_prefix("option.") {
                    Some(o) if !o.is_empty() => options.push((o.to_string(), v.to_string())),
                    _ => return Err(format!("engine spec '{s}': unknown key '{k}' (keys: {SPEC_KEYS})")),
                },
            }
        }
        let cmd = cmd.filter(|c| !c.is_empty()).ok_or_else(|| format!("engine spec '{s}': cmd=... is required"))?;
        let mut fresh = false;
        if let Some(l) = level {
            // As the server plays it: `chimera_session::think_time` with no
            // clock and no load is the level's movetime, depth cap and skill;
            // `chimera_server::pool::search` runs it on a new engine.
            if own.any() || options.iter().any(|(k, _)| k.eq_ignore_ascii_case("Skill Level")) {
                return Err(format!(
                    "engine spec '{s}': level={l} sets the Skill Level, depth and movetime itself; \
                     give no movetime=, depth= or option.Skill Level= with it"
                ));
            }
            let spec = l.spec();
            options.push(("Skill Level".to_string(), spec.skill.to_string()));
            own = OwnLimits { depth: spec.depth, movetime_ms: Some(spec.movetime.as_millis() as u64) };
            fresh = true;
        }
        let name = name.unwrap_or_else(|| {
            let file = std::path::Path::new(&cmd).file_name().map_or(cmd.clone(), |f| f.to_string_lossy().into_owned());
            match level {
                Some(l) => format!("{file} level {l}"),
                None => file,
            }
        });
        Ok(EngineSpec { name, cmd, args, dir, options, own, fresh, level: level.map(|l| l.number()) })
    }
}

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started, exited, or closed its pipes.
    Crashed(String),
    /// It did not answer in time.
    Timeout(String),
    /// It answered something the protocol does not allow (or lacks a needed feature).
    Protocol(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Crashed(s) | EngineError::Timeout(s) | EngineError::Protocol(s) => f.write_str(s),
        }
    }
}

/// The evaluation an engine last reported, from its own side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in n moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, mates as ±100000.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 100_000,
            Score::Mate(_) => -100_000,
        }
    }
}

/// The answer to one `go`.
#[derive(Clone, Debug)]
pub struct BestMove {
    /// The move string as sent (not yet checked).
    pub mv: String,
    pub score: Option<Score>,
    /// `depth` and `nodes` of the last `info` line that gave them.
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// From writing `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// Why waiting for `bestmove` ended without one.
#[derive(Clone, Debug)]
pub struct GoFailure {
    pub error: EngineError,
    pub elapsed: Duration,
}

pub struct UciEngine {
    pub name: String,
    /// `id name` the engine gave.
    pub id_name: Option<String>,
    /// Names of the options the engine announced.
    pub option_names: Vec<String>,
    /// The `var` values of its `UCI_Variant` combo, if it has one.
    pub variants: Vec<String>,
    handshake: Duration,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl UciEngine {
    /// Starts the process and runs `uci` … `uciok`; `handshake` bounds
    /// this and every later `isready` … `readyok`.
    pub fn start(spec: &EngineSpec, handshake: Duration) -> Result<UciEngine, EngineError> {
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Crashed(format!("{}: cannot start '{}': {e}", spec.name, spec.cmd)))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\r', '\n']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut e = UciEngine {
            name: spec.name.clone(),
            id_name: None,
            option_names: Vec::new(),
            variants: Vec::new(),
            handshake,
            child,
            stdin,
            lines,
        };
        e.handshake()?;
        Ok(e)
    }

    /// `uci` … `uciok`, reading the engine's name and options afresh. Run
    /// again after options that change the others (Fairy-Stockfish's
    /// `VariantPath` adds variants to its `UCI_Variant` list).
    pub fn handshake(&mut self) -> Result<(), EngineError> {
        self.option_names.clear();
        self.variants.clear();
        self.send("uci")?;
        let deadline = Instant::now() + self.handshake;
        loop {
            let line = self.recv(deadline, "uciok")?;
            let mut t = line.split_whitespace();
            match t.next() {
                Some("uciok") => return Ok(()),
                Some("id") if t.next() == Some("name") => self.id_name = Some(t.collect::<Vec<_>>().join(" ")),
                Some("option") => self.read_option(&line),
                _ => {}
            }
        }
    }

    /// `option name N type T ... var a var b`: keeps the name and, for
    /// `UCI_Variant`, the variant list.
    fn read_option(&mut self, line: &str) {
        let Some(rest) = line.split_once(" name ").map(|x| x.1) else { return };
        let name = rest.split(" type ").next().unwrap_or("").trim().to_string();
        if name == "UCI_Variant" {
            let words: Vec<&str> = rest.split_whitespace().collect();
            self.variants = words.windows(2).filter(|w| w[0] == "var").map(|w| w[1].to_string()).collect();
        }
        self.option_names.push(name);
    }

    pub fn has_option(&self, name: &str) -> bool {
        self.option_names.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Writes one command line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let r = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        match r {
            Ok(()) => Ok(()),
            Err(e) => {
                let why = self.exit_description(e.to_string());
                Err(EngineError::Crashed(format!("{}: {why} (writing '{line}')", self.name)))
            }
        }
    }

    /// The next output line, or why there is none before `deadline`.
    fn recv(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => {
                Err(EngineError::Timeout(format!("{}: no '{waiting_for}' in time", self.name)))
            }
            Err(RecvTimeoutError::Disconnected) => {
                let why = self.exit_description("closed its output".into());
                Err(EngineError::Crashed(format!("{}: {why} while waiting for '{waiting_for}'", self.name)))
            }
        }
    }

    /// "exited with status N" when the process is gone, else `fallback`.
    fn exit_description(&mut self, fallback: String) -> String {
        // Give a dying process a moment to be reaped so the status is known.
        for _ in 0..20 {
            if let Ok(Some(st)) = self.child.try_wait() {
                return format!("the engine process exited ({st})");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        fallback
    }

    /// `isready` … `readyok`.
    pub fn sync(&mut self) -> Result<(), EngineError> {
        self.sync_lines().map(|_| ())
    }

    /// `isready` … `readyok`, returning what the engine said before
    /// `readyok`.
    pub fn sync_lines(&mut self) -> Result<Vec<String>, EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + self.handshake;
        let mut said = Vec::new();
        loop {
            let line = self.recv(deadline, "readyok")?;
            if line.trim() == "readyok" {
                return Ok(said);
            }
            said.push(line);
        }
    }

    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `ucinewgame` then `isready` … `readyok`.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.sync()
    }

    /// Sends `position` and `go`, then waits for `bestmove` at most `limit`
    /// (measured from the moment `go` is written). `info` lines give the last
    /// score, depth and node count.
    pub fn go(&mut self, position: &str, go: &str, limit: Duration) -> Result<BestMove, GoFailure> {
        let t0 = Instant::now();
        let fail = |error, t0: Instant| GoFailure { error, elapsed: t0.elapsed() };
        self.send(position).map_err(|e| fail(e, t0))?;
        let t0 = Instant::now();
        self.send(go).map_err(|e| fail(e, t0))?;
        let deadline = t0 + limit;
        let (mut score, mut depth, mut nodes) = (None, None, None);
        loop {
            let line = self.recv(deadline, "bestmove").map_err(|e| fail(e, t0))?;
            let mut t = line.split_whitespace();
            match t.next() {
                Some("bestmove") => {
                    let elapsed = t0.elapsed();
                    return match t.next() {
                        Some(mv) => Ok(BestMove { mv: mv.to_string(), score, depth, nodes, elapsed }),
                        None => Err(GoFailure {
                            error: EngineError::Protocol(format!("{}: 'bestmove' without a move", self.name)),
                            elapsed,
                        }),
                    };
                }
                Some("info") => {
                    if let Some(s) = parse_score(&line) {
                        score = Some(s);
                    }
                    depth = info_value(&line, "depth").or(depth);
                    nodes = info_value(&line, "nodes").or(nodes);
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, then makes sure it is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Drop kills it.
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The number after `key` in an `info` line (`depth`, `nodes`...); none in
/// an `info string`, whose words are free text.
pub fn info_value<T: std::str::FromStr>(line: &str, key: &str) -> Option<T> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut words = words.peekable();
    if words.peek() == Some(&"string") {
        return None;
    }
    words.skip_while(|w| *w != key).nth(1)?.parse().ok()
}

/// `score cp X` or `score mate N` of an `info` line (bounds are ignored).
pub fn parse_score(line: &str) -> Option<Score> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "score")?;
    if words.get(i + 3).is_some_and(|w| *w == "lowerbound" || *w == "upperbound") {
        return None;
    }
    let v: i32 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(Score::Cp(v)),
        "mate" => Some(Score::Mate(v)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs() {
        let s: EngineSpec =
            "name=A,cmd=/usr/games/stockfish,args=-a -b,option.Hash=16,option.UCI_Elo=1500".parse().unwrap();
        assert_eq!(s.name, "A");
        assert_eq!(s.cmd, "/usr/games/stockfish");
        assert_eq!(s.args, vec!["-a", "-b"]);
        assert_eq!(s.options, vec![("Hash".into(), "16".into()), ("UCI_Elo".into(), "1500".into())]);
        // The name defaults to the file name of the command.
        assert_eq!("cmd=/usr/games/stockfish".parse::<EngineSpec>().unwrap().name, "stockfish");
        // Option names may contain spaces (`Skill Level`).
        let s: EngineSpec = "cmd=x,option.Skill Level=3".parse().unwrap();
        assert_eq!(s.options, vec![("Skill Level".into(), "3".into())]);
        assert!("name=A".parse::<EngineSpec>().unwrap_err().contains("cmd=... is required"));
        assert!("cmd=x,foo=1".parse::<EngineSpec>().unwrap_err().contains("unknown key 'foo'"));
        let plain: EngineSpec = "cmd=x".parse().unwrap();
        assert_eq!(
            (plain.own, plain.fresh, plain.level, plain.describe_own()),
            (OwnLimits::default(), false, None, None)
        );
        assert!("cmd=x,stockfish".parse::<EngineSpec>().unwrap_err().contains("not key=value"));
    }

    #[test]
    fn own_limits_in_engine_specs() {
        let s: EngineSpec = "cmd=x,movetime=250,depth=7".parse().unwrap();
        assert_eq!(s.own, OwnLimits { depth: Some(7), movetime_ms: Some(250) });
        assert!(!s.fresh);
        assert_eq!(s.describe_own().as_deref(), Some("depth 7, movetime 250 ms"));
        let s: EngineSpec = "cmd=x,depth=3".parse().unwrap();
        assert_eq!(s.own, OwnLimits { depth: Some(3), movetime_ms: None });
        for bad in ["movetime=0", "movetime=-5", "movetime=1.5", "movetime=", "depth=0", "depth=x"] {
            let e = format!("cmd=x,{bad}").parse::<EngineSpec>().unwrap_err();
            assert!(e.contains("bad movetime") || e.contains("bad depth"), "{bad}: {e}");
        }
    }

    #[test]
    fn levels_in_engine_specs_play_as_the_server_does() {
        // Every level: the session's skill, depth cap and movetime, and a
        // fresh engine each move, as `chimera_session::think_time` and the
        // server's pool give them with no clock and no load.
        for level in chimera_session::Level::all() {
            let spec = level.spec();
            let s: EngineSpec = format!("cmd=/bin/chimera,level={level}").parse().unwrap();
            let think = chimera_session::think_time(level, None, 10, chimera_session::Load::IDLE);
            assert_eq!(s.level, Some(level.number()));
            assert_eq!(s.options, vec![("Skill Level".to_string(), think.skill.to_string())]);
            assert_eq!(s.own.depth, think.depth);
            assert_eq!(s.own.movetime_ms, Some(think.movetime.as_millis() as u64));
            assert_eq!(s.own.movetime_ms, Some(spec.movetime.as_millis() as u64));
            assert!(s.fresh);
            assert_eq!(s.name, format!("chimera level {level}"));
        }
        let s: EngineSpec = "name=L4,cmd=x,level=4,option.Hash=16".parse().unwrap();
        assert_eq!(s.name, "L4");
        assert_eq!(s.options, vec![("Hash".into(), "16".into()), ("Skill Level".into(), "9".into())]);
        assert_eq!(s.own, OwnLimits { depth: Some(4), movetime_ms: Some(300) });
        assert_eq!(
            s.describe_own().as_deref(),
            Some("level 4: skill 9, depth 4, movetime 300 ms, a fresh search each move")
        );
        let s: EngineSpec = "cmd=x,level=8".parse().unwrap();
        assert_eq!(s.own, OwnLimits { depth: None, movetime_ms: Some(1000) });
        assert_eq!(s.options, vec![("Skill Level".into(), "20".into())]);
        // A bad level is a clear error.
        for bad in ["0", "9", "-1", "four", "", "4.5"] {
            let e = format!("cmd=x,level={bad}").parse::<EngineSpec>().unwrap_err();
            assert!(e.contains(&format!("bad level '{bad}': expected a whole number from 1 to 8")), "{bad}: {e}");
        }
        // A level with limits or a skill of its own is a contradiction.
        for clash in ["movetime=100", "depth=2", "option.Skill Level=3", "option.skill level=3"] {
            let e = format!("cmd=x,level=2,{clash}").parse::<EngineSpec>().unwrap_err();
            assert!(e.contains("level=2 sets the Skill Level, depth and movetime itself"), "{clash}: {e}");
        }
    }

    #[test]
    fn scores_from_info_lines() {
        assert_eq!(parse_score("info depth 5 score cp -31 nodes 100 pv e2e4"), Some(Score::Cp(-31)));
        assert_eq!(parse_score("info depth 9 score mate 3 pv a1a8"), Some(Score::Mate(3)));
        assert_eq!(parse_score("info depth 9 score cp 20 lowerbound"), None);
        assert_eq!(parse_score("info string score is nice"), None);
        assert_eq!(parse_score("info nodes 10"), None);
    }

    #[test]
    fn info_values() {
        let line = "info depth 12 seldepth 19 multipv 1 score cp 31 nodes 412345 nps 1000000 pv e2e4";
        assert_eq!(info_value::<u32>(line, "depth"), Some(12));
        assert_eq!(info_value::<u64>(line, "nodes"), Some(412_345));
        assert_eq!(info_value::<u32>(line, "seldepth"), Some(19));
        assert_eq!(info_value::<u32>("info nodes 10", "depth"), None);
        assert_eq!(info_value::<u32>("info depth x", "depth"), None);
        assert_eq!(info_value::<u32>("info depth", "depth"), None);
        assert_eq!(info_value::<u32>("info string depth 5", "depth"), None);
        assert_eq!(info_value::<u32>("bestmove e2e4 depth 5", "depth"), None);
        assert_eq!(Score::Mate(-2).as_cp(), -100_000);
    }

    #[test]
    fn a_missing_program_is_a_crash_not_a_panic() {
        let spec: EngineSpec = "cmd=/nonexistent/engine-binary".parse().unwrap();
        match UciEngine::start(&spec, HANDSHAKE_TIMEOUT) {
            Err(EngineError::Crashed(m)) => assert!(m.contains("cannot start"), "{m}"),
            Err(e) => panic!("wrong error {e:?}"),
            Ok(_) => panic!("started a missing program"),
        }
    }
}
