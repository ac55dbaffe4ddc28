//! Differential test against python-chess.
//!
//! `scripts/oracle/chess_playouts.py` plays seeded random games with
//! python-chess and writes, per ply, the FEN, the sorted legal moves, the SAN
//! of each, the move played and the outcome (JSON lines). Here the same games
//! are replayed with `Game<Chess>` and every ply must agree: FEN, legal move
//! set, SAN of every legal move, SAN read back to the same move, outcome.
//!
//! Python comes from `CHIMERA_PYTHON` (default `<workspace>/.venv/bin/python`,
//! made by `scripts/setup-python.sh`).

use chimera_rules::{san, Chess, Game, Outcome, Position};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Two shards of this many games each, run side by side.
const GAMES_PER_SHARD: u32 = 500;
const SEEDS: [u32; 2] = [20_261_122, 7];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root")
}

fn python() -> PathBuf {
    match std::env::var_os("CHIMERA_PYTHON") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => workspace_root().join(".venv/bin/python"),
    }
}

#[test]
fn python_chess_oracle_playouts() {
    let py = python();
    assert!(
        py.exists(),
        "python for the oracle not found at {} — run scripts/setup-python.sh (or ./scripts/test.sh), \
         or set CHIMERA_PYTHON to a python with python-chess installed",
        py.display()
    );
    let script = workspace_root().join("scripts/oracle/chess_playouts.py");
    let mut children: Vec<_> = SEEDS
        .iter()
        .map(|seed| {
            Command::new(&py)
                .arg(&script)
                .args(["--games", &GAMES_PER_SHARD.to_string(), "--seed", &seed.to_string()])
                .stdout(Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| panic!("cannot run {} {}: {e}", py.display(), script.display()))
        })
        .collect();

    // One checking thread per shard, so both python processes run at once.
    let results: Vec<(Stats, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = children
            .iter_mut()
            .zip(SEEDS)
            .map(|(child, seed)| {
                let out = BufReader::new(child.stdout.take().expect("piped stdout"));
                s.spawn(move || {
                    let mut stats = Stats::default();
                    let mut failures = Vec::new();
                    check_stream(out, seed, &mut stats, &mut failures);
                    (stats, failures)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("checker thread")).collect()
    });
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for (s, f) in results {
        stats.games += s.games;
        stats.plies += s.plies;
        stats.moves += s.moves;
        for (k, v) in s.outcomes {
            *stats.outcomes.entry(k).or_default() += v;
        }
        failures.extend(f);
    }
    for mut child in children {
        let status = child.wait().expect("wait for python");
        assert!(status.success(), "the oracle script failed: {status} (is python-chess installed?)");
    }
    eprintln!(
        "python-chess oracle: {} games, {} plies, {} legal moves (SAN each), outcomes {:?}",
        stats.games, stats.plies, stats.moves, stats.outcomes
    );
    assert!(
        failures.is_empty(),
        "{} disagreements with python-chess; first ones:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(stats.games, GAMES_PER_SHARD as usize * SEEDS.len(), "every game must be read");
    // The biased styles must reach every kind of ending, or the test proves less than it says.
    for reason in ["checkmate", "stalemate", "dead material", "fifty-move rule", "threefold repetition"] {
        assert!(stats.outcomes.get(reason).copied().unwrap_or(0) > 0, "no game ended by {reason}");
    }
}

#[derive(Default)]
struct Stats {
    games: usize,
    plies: usize,
    moves: usize,
    outcomes: BTreeMap<String, usize>,
}

fn check_stream(out: impl BufRead, seed: u32, stats: &mut Stats, failures: &mut Vec<String>) {
    let mut game: Option<Game<Chess>> = None;
    // After a disagreement the rest of that game is skipped.
    let mut broken = false;
    for (n, line) in out.lines().enumerate() {
        let line = line.expect("read python output");
        let rec = Json::parse(&line).unwrap_or_else(|e| panic!("seed {seed} line {}: bad JSON ({e}): {line}", n + 1));
        let g = rec.get("game").as_u64();
        let ply = rec.get("ply").as_u64();
        let fen = rec.get("fen").as_str();
        let at = format!("seed {seed} game {g} ply {ply} ({fen})");
        if ply == 0 {
            stats.games += 1;
            broken = false;
            match Chess::from_fen(fen) {
                Ok(p) => game = Some(Game::new(p)),
                Err(e) => {
                    failures.push(format!("{at}: start FEN refused: {e}"));
                    broken = true;
                }
            }
        }
        if broken {
            continue;
        }
        let game = game.as_mut().expect("ply 0 comes first");
        stats.plies += 1;
        match check_ply(game, &rec) {
            Ok(played) => {
                if let Some(o) = game.outcome() {
                    *stats.outcomes.entry(o.reason().as_str().to_string()).or_default() += 1;
                }
                stats.moves += game.position().count_legal_moves() as usize;
                if let Some(m) = played {
                    game.push_unchecked(m);
                }
            }
            Err(why) => {
                if failures.len() < 30 {
                    failures.push(format!("{at}: {why}"));
                }
                broken = true;
            }
        }
    }
}

/// Checks one ply; returns the move to play next, if any.
fn check_ply(game: &Game<Chess>, rec: &Json) -> Result<Option<chimera_rules::Move>, String> {
    let pos = game.position();
    let fen = rec.get("fen").as_str();
    if pos.fen() != fen {
        return Err(format!("FEN differs: ours {}", pos.fen()));
    }
    // Reading python's FEN gives the same position and FEN.
    match Chess::from_fen(fen) {
        Ok(p) if p.fen() == fen && p.hash() == pos.hash() => {}
        Ok(p) => return Err(format!("FEN read back differs: {} (hash equal: {})", p.fen(), p.hash() == pos.hash())),
        Err(e) => return Err(format!("FEN refused: {e}")),
    }
    let legal = pos.legal_move_list();
    let mut ours: Vec<(String, chimera_rules::Move)> = legal.iter().map(|&m| (m.to_string(), m)).collect();
    ours.sort_by(|a, b| a.0.cmp(&b.0));
    let theirs: Vec<&str> = rec.get("legal").as_array().iter().map(|j| j.as_str()).collect();
    let sans: Vec<&str> = rec.get("san").as_array().iter().map(|j| j.as_str()).collect();
    let our_strings: Vec<&str> = ours.iter().map(|(s, _)| s.as_str()).collect();
    if our_strings != theirs {
        let missing: Vec<_> = theirs.iter().filter(|s| !our_strings.contains(s)).collect();
        let extra: Vec<_> = our_strings.iter().filter(|s| !theirs.contains(s)).collect();
        return Err(format!("legal moves differ: we lack {missing:?}, we add {extra:?}"));
    }
    // (UCI strings read back are checked in properties.rs, for every variant.)
    for ((uci, m), &expected) in ours.iter().zip(&sans) {
        let got = san::to_san(pos, *m);
        if got != expected {
            return Err(format!("SAN of {uci}: ours {got}, python-chess {expected}"));
        }
        match san::parse_san(pos, expected) {
            Ok(back) if back == *m => {}
            Ok(back) => return Err(format!("SAN {expected} read back as {back}, not {uci}")),
            Err(e) => return Err(format!("SAN {expected} not read: {e}")),
        }
    }
    let expected = match rec.get("outcome") {
        Json::Null => None,
        o => Some((o.get("result").as_str().to_string(), o.get("reason").as_str().to_string())),
    };
    let got = game.outcome().map(|o: Outcome| (o.result().to_string(), o.reason().as_str().to_string()));
    if got != expected {
        return Err(format!("outcome: ours {got:?}, python-chess {expected:?}"));
    }
    match rec.get("played") {
        Json::Null => Ok(None),
        p => {
            if got.is_some() {
                return Err("python played on after the game ended".into());
            }
            let s = p.as_str();
            pos.parse_uci(s).map(Some).map_err(|e| format!("played move: {e}"))
        }
    }
}

/// Just enough JSON for the oracle's lines (no dependency needed).
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn parse(s: &str) -> Result<Json, String> {
        let b = s.as_bytes();
        let mut i = 0;
        let v = Self::value(b, &mut i)?;
        Self::ws(b, &mut i);
        if i != b.len() {
            return Err(format!("trailing text at {i}"));
        }
        Ok(v)
    }

    fn ws(b: &[u8], i: &mut usize) {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }

    fn value(b: &[u8], i: &mut usize) -> Result<Json, String> {
        Self::ws(b, i);
        match b.get(*i) {
            None => Err("unexpected end".into()),
            Some(b'n') if b[*i..].starts_with(b"null") => {
                *i += 4;
                Ok(Json::Null)
            }
            Some(b't') if b[*i..].starts_with(b"true") => {
                *i += 4;
                Ok(Json::Bool(true))
            }
            Some(b'f') if b[*i..].starts_with(b"false") => {
                *i += 5;
                Ok(Json::Bool(false))
            }
            Some(b'"') => Self::string(b, i).map(Json::Str),
            Some(b'[') => {
                *i += 1;
                let mut v = Vec::new();
                Self::ws(b, i);
                if b.get(*i) == Some(&b']') {
                    *i += 1;
                    return Ok(Json::Arr(v));
                }
                loop {
                    v.push(Self::value(b, i)?);
                    Self::ws(b, i);
                    match b.get(*i) {
                        Some(b',') => *i += 1,
                        Some(b']') => {
                            *i += 1;
                            return Ok(Json::Arr(v));
                        }
                        _ => return Err(format!("expected , or ] at {i}")),
                    }
                }
            }
            Some(b'{') => {
                *i += 1;
                let mut v = Vec::new();
                Self::ws(b, i);
                if b.get(*i) == Some(&b'}') {
                    *i += 1;
                    return Ok(Json::Obj(v));
                }
                loop {
                    Self::ws(b, i);
                    let k = Self::string(b, i)?;
                    Self::ws(b, i);
                    if b.get(*i) != Some(&b':') {
                        return Err(format!("expected : at {i}"));
                    }
                    *i += 1;
                    v.push((k, Self::value(b, i)?));
                    Self::ws(b, i);
                    match b.get(*i) {
                        Some(b',') => *i += 1,
                        Some(b'}') => {
                            *i += 1;
                            return Ok(Json::Obj(v));
                        }
                        _ => return Err(format!("expected , or }} at {i}")),
                    }
                }
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = *i;
                while *i < b.len()
                    && (b[*i] == b'-'
                        || b[*i] == b'+'
                        || b[*i] == b'.'
                        || b[*i] == b'e'
                        || b[*i] == b'E'
                        || b[*i].is_ascii_digit())
                {
                    *i += 1;
                }
                let t = std::str::from_utf8(&b[start..*i]).map_err(|e| e.to_string())?;
                t.parse().map(Json::Num).map_err(|_| format!("bad number {t}"))
            }
            Some(c) => Err(format!("unexpected '{}' at {i}", *c as char)),
        }
    }

    fn string(b: &[u8], i: &mut usize) -> Result<String, String> {
        if b.get(*i) != Some(&b'"') {
            return Err(format!("expected string at {i}"));
        }
        *i += 1;
        let mut s = Vec::new();
        loop {
            match b.get(*i) {
                None => return Err("unterminated string".into()),
                Some(b'"') => {
                    *i += 1;
                    return String::from_utf8(s).map_err(|e| e.to_string());
                }
                Some(b'\\') => {
                    let c = *b.get(*i + 1).ok_or("bad escape")?;
                    *i += 2;
                    match c {
                        b'"' | b'\\' | b'/' => s.push(c),
                        b'n' => s.push(b'\n'),
                        b't' => s.push(b'\t'),
                        b'r' => s.push(b'\r'),
                        b'b' => s.push(8),
                        b'f' => s.push(12),
                        b'u' => {
                            let hex = b.get(*i..*i + 4).ok_or("bad \\u escape")?;
                            let code = u32::from_str_radix(std::str::from_utf8(hex).map_err(|e| e.to_string())?, 16)
                                .map_err(|e| e.to_string())?;
                            *i += 4;
                            let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                            s.extend_from_slice(ch.to_string().as_bytes());
                        }
                        _ => return Err(format!("bad escape \\{}", c as char)),
                    }
                }
                Some(&c) => {
                    s.push(c);
                    *i += 1;
                }
            }
        }
    }

    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(v) => v.iter().find(|(k, _)| k == key).map_or(&Json::Null, |(_, v)| v),
            _ => &Json::Null,
        }
    }

    fn as_str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            other => panic!("expected a string, got {other:?}"),
        }
    }

    fn as_u64(&self) -> u64 {
        match self {
            Json::Num(n) if *n >= 0.0 => *n as u64,
            other => panic!("expected a number, got {other:?}"),
        }
    }

    fn as_array(&self) -> &[Json] {
        match self {
            Json::Arr(v) => v,
            other => panic!("expected an array, got {other:?}"),
        }
    }
}

#[test]
fn json_reader_reads_what_python_writes() {
    let j = Json::parse(r#"{"a":[1,"x\"y",null,true],"b":{"c":"\u00e9"},"d":[]}"#).unwrap();
    assert_eq!(j.get("a").as_array().len(), 4);
    assert_eq!(j.get("a").as_array()[1].as_str(), "x\"y");
    assert_eq!(j.get("b").get("c").as_str(), "é");
    assert!(j.get("d").as_array().is_empty());
    assert_eq!(j.get("missing"), &Json::Null);
    assert!(Json::parse("{\"a\":").is_err());
    assert!(Json::parse("[1,]x").is_err());
}
