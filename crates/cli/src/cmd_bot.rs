//! `chimera bot`: any UCI engine that speaks `UCI_Variant` plays as a BOT
//! account on a server through the Bot API (docs/api.md), as lichess-bot
//! does on lichess.
//!
//! One thread reads the account's event stream and answers challenges; each
//! game gets a thread of its own, which reads the game's stream, runs its
//! own engine process and posts the engine's moves. Both kinds of stream
//! are opened again after a dropped connection or a server restart (waits
//! of 0.5 s doubling to 10 s); the server then sends the whole state again,
//! and a game's thread posts a move only for a ply it has not had an answer
//! for.

use crate::api_client::{account_of, challenge_of, Api, ApiError, Backoff, GameFull, GameState};
use crate::arena::uci_client::{EngineSpec, UciEngine, HANDSHAKE_TIMEOUT};
use anyhow::{anyhow, bail, Result};
use chimera_rules::{RuleOptions, Variant};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// The server: http://HOST:PORT or https://NAME.
    #[arg(long, env = "CHIMERA_SERVER")]
    server: String,
    /// A personal API token of a BOT account, with the bot:play scope
    /// (docs/api.md, "Tokens").
    #[arg(long, env = "CHIMERA_TOKEN", hide_env_values = true)]
    token: String,
    /// The engine's command: a program and its arguments, split at spaces
    /// (default: this chimera's own engine, `chimera uci`).
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// A UCI option set on the engine before anything else, NAME=VALUE;
    /// repeat it for more (`--engine-option VariantPath=genesis.ini`).
    #[arg(long = "engine-option", value_name = "NAME=VALUE")]
    engine_options: Vec<String>,
    /// Challenge this account, play the game, repeat `--games` times, print
    /// each result and exit (without it the bot runs until it is stopped).
    #[arg(long, value_name = "USERNAME")]
    challenge: Option<String>,
    /// The challenges' variant (`standard` is chess).
    #[arg(long, default_value = "standard", ignore_case = true, value_parser = crate::variant_arg::parser())]
    variant: Variant,
    /// The challenges' clock: minutes per side + seconds of increment.
    #[arg(long, default_value = "3+2", value_name = "M+S")]
    clock: String,
    /// The challenges are rated.
    #[arg(long)]
    rated: bool,
    /// The colour the challenges ask for: white, black or random.
    #[arg(long, default_value = "random")]
    color: String,
    /// How many games to play with `--challenge`, one after the other.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// The variants whose challenges are accepted, by API key joined by `,`
    /// (default: every variant the engine plays).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    variants: Vec<String>,
    /// Games played at once, each with its own engine process; challenges
    /// beyond it are declined (`later`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    concurrency: u32,
    /// The engine's time a move in games without a clock (correspondence),
    /// in milliseconds.
    #[arg(long, default_value_t = 5000, value_name = "MS")]
    movetime: u64,
}

// ----- the pure parts -------------------------------------------------------

/// The API's key for a variant: lichess's `standard` for chess, else
/// Chimera's id.
pub fn api_key(v: Variant) -> &'static str {
    if v == Variant::Chess {
        "standard"
    } else {
        v.id()
    }
}

/// The name under which an engine offers `v` in its `UCI_Variant` list
/// (`offered`), if it offers it. Chimera's own ids first (Fairy-Stockfish
/// names chess `chess` too, and its Genesis from scripts/oracle/genesis.ini
/// is `genesis`), then the variant's other spellings (`magic-ring`...). An
/// engine without `UCI_Variant` (`offered` empty) plays only chess.
pub fn engine_variant(v: Variant, offered: &[String]) -> Option<String> {
    if offered.is_empty() {
        return (v == Variant::Chess).then(|| "chess".to_string());
    }
    std::iter::once(v.id())
        .chain(v.aliases().iter().copied())
        .find(|name| offered.iter().any(|o| o.eq_ignore_ascii_case(name)))
        .map(str::to_string)
}

/// `position startpos moves ...` or `position fen F moves ...`.
pub fn position_command(initial_fen: &str, moves: &[String]) -> String {
    let mut s = match initial_fen.trim() {
        "" | "startpos" => "position startpos".to_string(),
        fen => format!("position fen {fen}"),
    };
    if !moves.is_empty() {
        s.push_str(" moves ");
        s.push_str(&moves.join(" "));
    }
    s
}

/// The `go` command for a state: the clocks (milliseconds) when the game
/// has a clock, else a fixed time a move.
pub fn go_command(state: &GameState, clocked: bool, movetime_ms: u64) -> String {
    if clocked {
        format!("go wtime {} btime {} winc {} binc {}", state.wtime, state.btime, state.winc, state.binc)
    } else {
        format!("go movetime {}", movetime_ms.max(1))
    }
}

/// How long to wait for the engine's `bestmove` before taking it for hung:
/// all its time and its increment (or the fixed time), plus 10 s.
pub fn go_deadline(state: &GameState, clocked: bool, white: bool, movetime_ms: u64) -> Duration {
    let ms = if clocked {
        if white {
            state.wtime + state.winc
        } else {
            state.btime + state.binc
        }
    } else {
        movetime_ms
    };
    Duration::from_millis(ms) + Duration::from_secs(10)
}

/// What the bot answers a challenge: `None` accepts, else lichess's
/// decline reason.
pub fn challenge_answer(c: &Value, plays: &[Variant], rule_options_ok: bool, free_slot: bool) -> Option<&'static str> {
    let variant = c["variant"]["key"].as_str().unwrap_or("standard");
    match variant.parse::<Variant>() {
        Ok(v) if plays.contains(&v) && rule_options_ok => {}
        _ => return Some("variant"),
    }
    if c["timeControl"]["type"].as_str() == Some("unlimited") {
        return Some("timeControl");
    }
    if !free_slot {
        return Some("later");
    }
    None
}

/// The rule options of a challenge or a game (`{"ring_powers": "NKQ"}`),
/// with the UCI option that sets each, for those that are not the default.
pub fn rule_options(variant: Variant, pairs: &[(String, String)]) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for (k, v) in pairs {
        if let Some(spec) = RuleOptions::spec(k) {
            if variant.info().options.iter().any(|o| o.key == spec.key) && !v.eq_ignore_ascii_case(spec.default) {
                out.push((spec.uci, v.clone()));
            }
        }
    }
    out
}

fn json_pairs(v: &Value) -> Vec<(String, String)> {
    v.as_object()
        .map(|o| o.iter().map(|(k, x)| (k.clone(), x.as_str().map_or_else(|| x.to_string(), str::to_string))).collect())
        .unwrap_or_default()
}

/// The ply the bot is to post a move for in `state`, if any: the game goes
/// on, it is the turn of `me` (`white` or `black`), and the server has not
/// answered a move for that ply yet (`answered`: the last ply whose post
/// got an answer, accepted or refused). A state sent again (a reconnected
/// stream's `gameFull`, a draw offer) asks for no second move.
pub fn move_due(f: &GameFull, state: &GameState, me: &str, answered: Option<usize>) -> Option<usize> {
    let ply = state.moves.len();
    (state.ongoing() && f.turn_after(ply) == me && answered != Some(ply)).then_some(ply)
}

/// One line for a finished game: `1-0 mate`, `1/2-1/2 draw`, `* aborted`.
pub fn result_line(state: &GameState) -> String {
    format!("{} {}", state.result(), state.status)
}

// ----- the engine -------------------------------------------------------------

/// What to start for each game, and what it plays.
#[derive(Clone, Debug)]
struct EngineSetup {
    spec: EngineSpec,
    /// Its `UCI_Variant` list (empty: no such option, chess only).
    offered: Vec<String>,
    /// The UCI options it has (names as it gave them).
    options: Vec<String>,
}

impl EngineSetup {
    fn new(cmd: Option<&str>, opts: &[String]) -> Result<EngineSetup> {
        let (program, args) = match cmd.map(str::trim).filter(|c| !c.is_empty()) {
            Some(c) => {
                let mut words = c.split_whitespace().map(str::to_string);
                let p = words.next().unwrap_or_default();
                (p, words.collect())
            }
            None => {
                let me =
                    std::env::current_exe().map_err(|e| anyhow!("cannot find this program to run its engine: {e}"))?;
                (me.to_string_lossy().into_owned(), vec!["uci".to_string()])
            }
        };
        let mut options = Vec::new();
        for o in opts {
            let (k, v) = o
                .split_once('=')
                .ok_or_else(|| anyhow!("--engine-option '{o}' is not NAME=VALUE (for example Hash=64)"))?;
            options.push((k.trim().to_string(), v.trim().to_string()));
        }
        let name =
            std::path::Path::new(&program).file_name().map_or(program.clone(), |f| f.to_string_lossy().into_owned());
        let spec = EngineSpec {
            name,
            cmd: program,
            args,
            dir: None,
            options,
            own: Default::default(),
            fresh: false,
            level: None,
        };
        Ok(EngineSetup { spec, offered: Vec::new(), options: Vec::new() })
    }

    /// Starts the engine with the user's options (reading its option list
    /// again after them: Fairy-Stockfish's `VariantPath` adds variants).
    fn start(&self) -> Result<UciEngine> {
        let mut e = UciEngine::start(&self.spec, HANDSHAKE_TIMEOUT).map_err(|e| anyhow!("{e}"))?;
        for (k, v) in &self.spec.options {
            e.set_option(k, v).map_err(|e| anyhow!("{e}"))?;
        }
        if !self.spec.options.is_empty() {
            e.handshake().map_err(|e| anyhow!("{e}"))?;
        }
        refused(&mut e, "its options")?;
        Ok(e)
    }

    /// Runs the engine once to read what it plays.
    fn probe(&mut self) -> Result<String> {
        let e = self.start()?;
        self.offered = if e.has_option("UCI_Variant") { e.variants.clone() } else { Vec::new() };
        self.options = e.option_names.clone();
        let name = e.id_name.clone().unwrap_or_else(|| self.spec.name.clone());
        e.quit();
        Ok(name)
    }

    fn plays(&self) -> Vec<Variant> {
        Variant::ALL.into_iter().filter(|v| engine_variant(*v, &self.offered).is_some()).collect()
    }

    fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// An engine set up for one game: its variant and rule options, a new game.
    fn for_game(&self, variant: Variant, rules: &[(&'static str, String)]) -> Result<UciEngine> {
        let mut e = self.start()?;
        if e.has_option("UCI_Variant") {
            let name = engine_variant(variant, &self.offered)
                .ok_or_else(|| anyhow!("{} does not play {}", self.spec.name, variant.name()))?;
            e.set_option("UCI_Variant", &name).map_err(|e| anyhow!("{e}"))?;
        } else if variant != Variant::Chess {
            bail!("{} has no UCI_Variant option, so it plays chess only", self.spec.name);
        }
        for (k, v) in rules {
            e.set_option(k, v).map_err(|e| anyhow!("{e}"))?;
        }
        e.send("ucinewgame").map_err(|e| anyhow!("{e}"))?;
        refused(&mut e, "the game's set-up")?;
        Ok(e)
    }
}

/// `isready`, and an error if the engine refused anything before it
/// (Chimera says `info string error: ...`, Stockfish `No such option: ...`).
fn refused(e: &mut UciEngine, what: &str) -> Result<()> {
    let said = e.sync_lines().map_err(|e| anyhow!("{e}"))?;
    if let Some(l) = said.iter().find(|l| l.starts_with("info string error") || l.starts_with("No such option")) {
        bail!("{} refused {what}: {l}", e.name);
    }
    Ok(())
}

// ----- the bot ----------------------------------------------------------------

/// Something the event stream's thread tells the challenger.
enum Note {
    /// A challenge of ours was declined.
    Declined { id: String, reason: String },
    /// A game started, against this opponent (account id).
    Started { id: String, opponent: String },
}

struct Bot {
    api: Api,
    /// The account: id (lower case) and name.
    id: String,
    name: String,
    engine: EngineSetup,
    /// The variants it accepts challenges in.
    accepts: Vec<Variant>,
    concurrency: usize,
    movetime: u64,
    state: Mutex<Games>,
    /// (game id, its last state) when a game ends.
    done: Mutex<Sender<(String, GameState)>>,
    notes: Mutex<Sender<Note>>,
}

#[derive(Default)]
struct Games {
    /// Games with a thread.
    running: HashSet<String>,
    /// Games whose thread ended (a late `gameStart` starts none).
    finished: HashSet<String>,
    /// Challenges accepted whose game has not started yet, and when.
    accepted: HashMap<String, Instant>,
}

impl Games {
    fn busy(&mut self) -> usize {
        self.accepted.retain(|_, t| t.elapsed() < Duration::from_secs(60));
        let pending = self.accepted.keys().filter(|id| !self.running.contains(*id)).count();
        self.running.len() + pending
    }
}

fn log(msg: impl std::fmt::Display) {
    eprintln!("chimera bot: {msg}");
}

pub fn run(a: Args) -> Result<()> {
    let api = Api::new(&a.server, &a.token).map_err(|e| anyhow!(e))?;
    // A server that is starting (or restarting) gets a minute.
    let (mut backoff, since) = (Backoff::default(), Instant::now());
    let account = loop {
        match api.get("/api/account") {
            Ok(v) => break v,
            Err(e) if e.is_transient() && since.elapsed() < Duration::from_secs(60) => {
                log(format!("GET /api/account on {}: {e}; trying again", api.base()));
                std::thread::sleep(backoff.next_delay());
            }
            Err(e) => bail!("GET /api/account on {}: {e}", api.base()),
        }
    };
    let (id, name) = account_of(&account).ok_or_else(|| anyhow!("GET /api/account: no account in {account}"))?;
    if account["title"] != "BOT" {
        log(format!(
            "warning: {name} is not a BOT account: the Bot API refuses it (POST /api/bot/account/upgrade makes it one)"
        ));
    }
    let mut engine = EngineSetup::new(a.engine.as_deref(), &a.engine_options)?;
    let engine_name = engine.probe()?;
    let plays = engine.plays();
    if plays.is_empty() {
        bail!("{engine_name} offers none of the variants (its UCI_Variant list: {})", engine.offered.join(" "));
    }
    let accepts = if a.variants.is_empty() {
        plays.clone()
    } else {
        let mut list = Vec::new();
        for key in &a.variants {
            let v: Variant = key.parse().map_err(|e| anyhow!("--variants: {e}"))?;
            if !plays.contains(&v) {
                bail!("--variants: {engine_name} does not play {} (it plays {})", api_key(v), keys(&plays));
            }
            list.push(v);
        }
        list
    };
    if a.challenge.is_some() && !plays.contains(&a.variant) {
        bail!("--variant: {engine_name} does not play {} (it plays {})", api_key(a.variant), keys(&plays));
    }
    log(format!(
        "{name} on {} with {engine_name}; accepts challenges in {}; {} game{} at once",
        api.base(),
        keys(&accepts),
        a.concurrency,
        if a.concurrency == 1 { "" } else { "s" }
    ));
    let (done_tx, done_rx) = mpsc::channel();
    let (note_tx, note_rx) = mpsc::channel();
    let bot = Arc::new(Bot {
        api,
        id,
        name,
        engine,
        accepts,
        concurrency: a.concurrency as usize,
        movetime: a.movetime,
        state: Mutex::new(Games::default()),
        done: Mutex::new(done_tx),
        notes: Mutex::new(note_tx),
    });
    let fatal = Arc::new(Mutex::new(None::<String>));
    {
        let (bot, fatal) = (bot.clone(), fatal.clone());
        std::thread::Builder::new().name("events".into()).spawn(move || {
            let e = bot.events();
            *fatal.lock().unwrap() = Some(e);
        })?;
    }
    match &a.challenge {
        None => loop {
            // Without --challenge: until stopped, or the token is refused.
            std::thread::sleep(Duration::from_millis(200));
            if let Some(e) = fatal.lock().unwrap().take() {
                bail!(e);
            }
            while let Ok((id, st)) = done_rx.try_recv() {
                println!("{id} {}", result_line(&st));
            }
        },
        Some(user) => {
            let (limit, inc) = chimera_tui::parse_clock(&a.clock).map_err(|e| anyhow!("--clock: {e}"))?;
            if !["white", "black", "random"].contains(&a.color.as_str()) {
                bail!("--color must be white, black or random, not '{}'", a.color);
            }
            let body = json!({
                "rated": a.rated,
                "clock.limit": limit.as_secs_f64().round() as u64,
                "clock.increment": inc.as_secs_f64().round() as u64,
                "color": a.color,
                "variant": api_key(a.variant),
            });
            let mut finished: HashMap<String, GameState> = HashMap::new();
            for n in 1..=a.games {
                let id = bot.challenge(user, &body, &note_rx, &fatal)?;
                let st = loop {
                    if let Some(st) = finished.remove(&id) {
                        break st;
                    }
                    if let Some(e) = fatal.lock().unwrap().take() {
                        bail!(e);
                    }
                    match done_rx.recv_timeout(Duration::from_millis(200)) {
                        Ok((gid, st)) => {
                            finished.insert(gid, st);
                        }
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => bail!("the games' threads are gone"),
                    }
                };
                println!("game {n} of {}: {id} {}", a.games, result_line(&st));
            }
            Ok(())
        }
    }
}

fn keys(vs: &[Variant]) -> String {
    vs.iter().map(|v| api_key(*v)).collect::<Vec<_>>().join(", ")
}

impl Bot {
    /// Reads the event stream for ever (reconnecting); returns only when
    /// the token is refused, with why.
    fn events(self: &Arc<Self>) -> String {
        let mut backoff = Backoff::default();
        loop {
            match self.api.stream("/api/stream/event") {
                Ok(mut s) => loop {
                    match s.next_value() {
                        Ok(Some(ev)) => {
                            backoff.reset();
                            self.event(&ev);
                        }
                        Ok(None) => {
                            log("the event stream ended; reconnecting");
                            break;
                        }
                        Err(e) => {
                            log(format!("the event stream broke ({e}); reconnecting"));
                            break;
                        }
                    }
                },
                Err(e) if e.is_auth() => return format!("the server refuses the token: {e}"),
                Err(e) => log(format!("cannot open the event stream ({e}); trying again")),
            }
            std::thread::sleep(backoff.next_delay());
        }
    }

    fn event(self: &Arc<Self>, ev: &Value) {
        match ev["type"].as_str().unwrap_or_default() {
            "challenge" => self.answer(&ev["challenge"]),
            "gameStart" => {
                let g = &ev["game"];
                if let Some(id) = g["gameId"].as_str().or(g["id"].as_str()) {
                    self.start_game(id);
                    let opponent = g["opponent"]["id"].as_str().unwrap_or_default().to_string();
                    let _ = self.notes.lock().unwrap().send(Note::Started { id: id.to_string(), opponent });
                }
            }
            "challengeDeclined" => {
                let c = &ev["challenge"];
                if c["challenger"]["id"].as_str().is_some_and(|i| i.eq_ignore_ascii_case(&self.id)) {
                    let note = Note::Declined {
                        id: c["id"].as_str().unwrap_or_default().to_string(),
                        reason: c["declineReason"].as_str().unwrap_or("declined").to_string(),
                    };
                    let _ = self.notes.lock().unwrap().send(note);
                }
            }
            _ => {}
        }
    }

    /// Accepts or declines a challenge to this account.
    fn answer(self: &Arc<Self>, c: &Value) {
        let Some(id) = c["id"].as_str() else { return };
        let to_me = c["destUser"]["id"].as_str().is_some_and(|d| d.eq_ignore_ascii_case(&self.id));
        if !to_me || c["direction"] == "out" || c["status"].as_str().is_some_and(|s| s != "created") {
            return;
        }
        let from = c["challenger"]["name"].as_str().or(c["challenger"]["id"].as_str()).unwrap_or("?");
        let variant = c["variant"]["key"].as_str().unwrap_or("standard");
        let rules_ok = match variant.parse::<Variant>() {
            Ok(v) => rule_options(v, &json_pairs(&c["options"])).iter().all(|(uci, _)| self.engine.has_option(uci)),
            Err(_) => false,
        };
        let answer = {
            let mut g = self.state.lock().unwrap();
            let free = g.busy() < self.concurrency;
            let answer = challenge_answer(c, &self.accepts, rules_ok, free);
            if answer.is_none() {
                g.accepted.insert(id.to_string(), Instant::now());
            }
            answer
        };
        let r = match answer {
            None => {
                log(format!("accepting {from}'s challenge {id} ({variant})"));
                self.api.post(&format!("/api/challenge/{id}/accept"), None)
            }
            Some(reason) => {
                log(format!("declining {from}'s challenge {id} ({variant}): {reason}"));
                self.api.post(&format!("/api/challenge/{id}/decline"), Some(&json!({"reason": reason})))
            }
        };
        if let Err(e) = r {
            log(format!("answering challenge {id}: {e}"));
            self.state.lock().unwrap().accepted.remove(id);
        }
    }

    /// Starts the game's thread unless it has one (a reconnected event
    /// stream sends `gameStart` again for every game going on).
    fn start_game(self: &Arc<Self>, id: &str) {
        {
            let mut g = self.state.lock().unwrap();
            if g.running.contains(id) || g.finished.contains(id) {
                return;
            }
            g.running.insert(id.to_string());
            g.accepted.remove(id);
        }
        let (bot, gid) = (self.clone(), id.to_string());
        let spawned = std::thread::Builder::new().name(format!("game-{id}")).spawn(move || {
            let last = bot.play(&gid);
            {
                let mut g = bot.state.lock().unwrap();
                g.running.remove(&gid);
                g.finished.insert(gid.clone());
            }
            let _ = bot.done.lock().unwrap().send((gid, last));
        });
        if let Err(e) = spawned {
            log(format!("cannot start a thread for game {id}: {e}"));
            self.state.lock().unwrap().running.remove(id);
        }
    }

    /// Challenges `user`; returns the game's id once it has started.
    fn challenge(
        self: &Arc<Self>,
        user: &str,
        body: &Value,
        notes: &Receiver<Note>,
        fatal: &Mutex<Option<String>>,
    ) -> Result<String> {
        // Games that were going on before this challenge.
        let known: HashSet<String> = {
            let g = self.state.lock().unwrap();
            g.running.iter().chain(g.finished.iter()).cloned().collect()
        };
        while notes.try_recv().is_ok() {}
        let mut backoff = Backoff::default();
        let answer = loop {
            match self.api.post(&format!("/api/challenge/{user}"), Some(body)) {
                Ok(v) => break v,
                Err(e) if e.is_transient() => {
                    log(format!("challenging {user}: {e}; trying again"));
                    std::thread::sleep(backoff.next_delay());
                }
                Err(e) => bail!("challenging {user}: {e}"),
            }
        };
        let c = challenge_of(&answer);
        let id =
            c["id"].as_str().ok_or_else(|| anyhow!("challenging {user}: no id in the answer {answer}"))?.to_string();
        if c["status"] == "declined" {
            bail!("{user} declined the challenge: {}", c["declineReason"].as_str().unwrap_or("no reason given"));
        }
        log(format!("challenged {user}: {id}"));
        // The game has the challenge's id (lichess's rule, and Chimera's).
        let game = c["game"]["id"].as_str().unwrap_or(&id).to_string();
        if c["status"] == "accepted" || c["game"].is_object() {
            self.start_game(&game);
        }
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            {
                let g = self.state.lock().unwrap();
                if g.running.contains(&game) || g.finished.contains(&game) {
                    return Ok(game);
                }
            }
            if let Some(e) = fatal.lock().unwrap().take() {
                bail!(e);
            }
            match notes.recv_timeout(Duration::from_millis(100)) {
                Ok(Note::Declined { id: d, reason }) if d == id => bail!("{user} declined the challenge: {reason}"),
                // A server that gives the game an id of its own: the new
                // game against the account challenged.
                Ok(Note::Started { id: g, opponent }) if opponent.eq_ignore_ascii_case(user) && !known.contains(&g) => {
                    return Ok(g)
                }
                _ => {}
            }
            if Instant::now() > deadline {
                let _ = self.api.post(&format!("/api/challenge/{id}/cancel"), None);
                bail!("{user} did not answer the challenge {id} within two minutes (cancelled)");
            }
        }
    }

    /// Plays one game to its end; returns its last state.
    fn play(&self, id: &str) -> GameState {
        let mut backoff = Backoff::default();
        let mut full: Option<GameFull> = None;
        let mut last = GameState::default();
        let mut engine: Option<UciEngine> = None;
        let mut engine_failures = 0;
        // The ply whose move the server has answered (accepted or refused):
        // never posted again.
        let mut answered: Option<usize> = None;
        // The engine's move for a ply whose post brought no answer.
        let mut ready: Option<(usize, String)> = None;
        loop {
            let mut stream = match self.api.stream(&format!("/api/bot/game/stream/{id}")) {
                Ok(s) => s,
                Err(e) if matches!(e.status(), Some(401 | 403 | 404)) => {
                    log(format!("game {id}: {e}; leaving it"));
                    return last;
                }
                Err(e) => {
                    log(format!("game {id}: cannot open its stream ({e}); trying again"));
                    std::thread::sleep(backoff.next_delay());
                    continue;
                }
            };
            loop {
                let v = match stream.next_value() {
                    Ok(Some(v)) => v,
                    Ok(None) => {
                        log(format!("game {id}: its stream ended with the game going on; reconnecting"));
                        break;
                    }
                    Err(e) => {
                        log(format!("game {id}: the stream broke ({e}); reconnecting"));
                        break;
                    }
                };
                backoff.reset();
                let state = match v["type"].as_str() {
                    Some("gameFull") => {
                        let f = GameFull::from_json(&v);
                        let st = f.state.clone();
                        if full.is_none() {
                            log(format!(
                                "game {id} started: {} v {}, {}, {}",
                                f.white.display(),
                                f.black.display(),
                                f.variant,
                                match f.clock {
                                    Some((i, inc)) => format!("{}+{}", i as f64 / 60_000.0, inc / 1000),
                                    None => "no clock".into(),
                                }
                            ));
                        }
                        full = Some(f);
                        st
                    }
                    Some("gameState") => GameState::from_json(&v),
                    _ => continue,
                };
                last = state.clone();
                let Some(f) = &full else { continue };
                if !state.ongoing() {
                    log(format!("game {id} over: {}", result_line(&state)));
                    return state;
                }
                let Some(me) = f.color_of(&self.id) else {
                    log(format!("game {id}: {} plays neither side; leaving it", self.name));
                    return state;
                };
                let Some(ply) = move_due(f, &state, me, answered) else { continue };
                let mv = match &ready {
                    Some((p, m)) if *p == ply => m.clone(),
                    _ => match self.think(f, &state, me == "white", &mut engine) {
                        Ok(Some(m)) => m,
                        Ok(None) => {
                            answered = Some(ply);
                            continue;
                        }
                        Err(e) => {
                            engine = None;
                            engine_failures += 1;
                            log(format!("game {id}: the engine failed ({e:#})"));
                            if engine_failures >= 3 {
                                log(format!("game {id}: the engine failed three times; resigning"));
                                let _ = self.api.post(&format!("/api/bot/game/{id}/resign"), None);
                            }
                            break;
                        }
                    },
                };
                ready = Some((ply, mv.clone()));
                match self.post_move(id, &mv) {
                    Ok(()) => answered = Some(ply),
                    Err(ApiError::Status { status, error }) if !(status == 429 || status >= 500) => {
                        // A refusal ("not your turn" after a reconnect, a
                        // move the server thinks illegal): never sent again.
                        log(format!("game {id}: the server refused move {mv} ({status}: {error})"));
                        answered = Some(ply);
                    }
                    Err(e) => {
                        log(format!("game {id}: move {mv} not sent ({e}); reconnecting"));
                        break;
                    }
                }
            }
            std::thread::sleep(backoff.next_delay());
        }
    }

    /// Posts a move; a `429` is waited out and tried again (a few times).
    fn post_move(&self, id: &str, mv: &str) -> Result<(), ApiError> {
        let mut tries = 0;
        loop {
            match self.api.post(&format!("/api/bot/game/{id}/move/{mv}"), None) {
                Err(ApiError::Status { status: 429, .. }) if tries < 5 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_secs(1));
                }
                r => return r.map(|_| ()),
            }
        }
    }

    /// The engine's move for the position of `state` (`None`: it has none).
    fn think(
        &self,
        f: &GameFull,
        state: &GameState,
        white: bool,
        engine: &mut Option<UciEngine>,
    ) -> Result<Option<String>> {
        if engine.is_none() {
            let variant: Variant = f.variant.parse().map_err(|e| anyhow!("{e}"))?;
            let rules = rule_options(variant, &f.options);
            *engine = Some(self.engine.for_game(variant, &rules)?);
        }
        let e = engine.as_mut().expect("started above");
        let clocked = f.clock.is_some();
        let best = e
            .go(
                &position_command(&f.initial_fen, &state.moves),
                &go_command(state, clocked, self.movetime),
                go_deadline(state, clocked, white, self.movetime),
            )
            .map_err(|g| anyhow!("{}", g.error))?;
        Ok(Some(best.mv).filter(|m| m != "(none)" && m != "0000"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn variant_names_for_engines() {
        let chimera = names(&["chess", "genie", "genie-ownhalf", "genesis", "clown", "magicring"]);
        for v in Variant::ALL {
            assert_eq!(engine_variant(v, &chimera).as_deref(), Some(v.id()));
        }
        // Fairy-Stockfish with scripts/oracle/genesis.ini: chess and Genesis.
        let fairy = names(&["3check", "chess", "crazyhouse", "genesis", "xiangqi"]);
        let plays: Vec<Variant> = Variant::ALL.into_iter().filter(|v| engine_variant(*v, &fairy).is_some()).collect();
        assert_eq!(plays, [Variant::Chess, Variant::Genesis]);
        // Stockfish: no UCI_Variant, chess only.
        assert_eq!(engine_variant(Variant::Chess, &[]).as_deref(), Some("chess"));
        assert_eq!(engine_variant(Variant::Genie, &[]), None);
        // Another engine's spelling of a variant.
        assert_eq!(engine_variant(Variant::MagicRing, &names(&["Magic-Ring"])).as_deref(), Some("magic-ring"));
        assert_eq!(engine_variant(Variant::Chess, &names(&["standard"])).as_deref(), Some("standard"));
        // The API's keys.
        assert_eq!(api_key(Variant::Chess), "standard");
        assert_eq!(api_key(Variant::GenieOwnHalf), "genie-ownhalf");
        assert_eq!("standard".parse::<Variant>(), Ok(Variant::Chess));
    }

    #[test]
    fn position_and_go_commands() {
        assert_eq!(position_command("startpos", &[]), "position startpos");
        assert_eq!(position_command("startpos", &names(&["e2e4", "e7e5"])), "position startpos moves e2e4 e7e5");
        let fen = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1";
        assert_eq!(position_command(fen, &names(&["K@e1"])), format!("position fen {fen} moves K@e1"));
        let st = GameState { wtime: 60_000, btime: 59_000, winc: 1000, binc: 2000, ..GameState::default() };
        assert_eq!(go_command(&st, true, 5000), "go wtime 60000 btime 59000 winc 1000 binc 2000");
        assert_eq!(go_command(&st, false, 5000), "go movetime 5000");
        assert_eq!(go_command(&st, false, 0), "go movetime 1");
        assert_eq!(go_deadline(&st, true, true, 5000), Duration::from_millis(71_000));
        assert_eq!(go_deadline(&st, true, false, 5000), Duration::from_millis(71_000));
        assert_eq!(go_deadline(&st, false, false, 5000), Duration::from_millis(15_000));
    }

    #[test]
    fn challenges_are_answered_as_lichess_does() {
        let plays = [Variant::Chess, Variant::Genesis];
        let c = |variant: &str, tc: &str| json!({"variant": {"key": variant}, "timeControl": {"type": tc}});
        assert_eq!(challenge_answer(&c("standard", "clock"), &plays, true, true), None);
        assert_eq!(challenge_answer(&c("chess", "correspondence"), &plays, true, true), None);
        assert_eq!(challenge_answer(&c("genesis", "clock"), &plays, true, true), None);
        assert_eq!(challenge_answer(&c("genie", "clock"), &plays, true, true), Some("variant"));
        assert_eq!(challenge_answer(&c("shogi", "clock"), &plays, true, true), Some("variant"));
        assert_eq!(challenge_answer(&c("standard", "clock"), &plays, false, true), Some("variant"));
        assert_eq!(challenge_answer(&c("standard", "unlimited"), &plays, true, true), Some("timeControl"));
        assert_eq!(challenge_answer(&c("standard", "clock"), &plays, true, false), Some("later"));
    }

    #[test]
    fn rule_options_for_the_engine() {
        let pairs = |p: &[(&str, &str)]| p.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect::<Vec<_>>();
        assert_eq!(rule_options(Variant::MagicRing, &pairs(&[("ring_powers", "NKQ")])), [("RingPowers", "NKQ".into())]);
        assert!(rule_options(Variant::MagicRing, &pairs(&[("ring_powers", "QNRB")])).is_empty(), "the default");
        assert!(rule_options(Variant::Chess, &pairs(&[("ring_powers", "NKQ")])).is_empty(), "not chess's");
        assert!(rule_options(Variant::MagicRing, &pairs(&[("nonsense", "1")])).is_empty());
        let mut got = json_pairs(&json!({"ring_powers": "NK", "n": 3}));
        got.sort();
        assert_eq!(got, pairs(&[("n", "3"), ("ring_powers", "NK")]));
    }

    #[test]
    fn a_move_is_due_once_a_ply() {
        let f = GameFull { initial_fen: "startpos".into(), ..GameFull::default() };
        let st = |moves: &[&str], status: &str| GameState {
            moves: names(moves),
            status: status.into(),
            ..GameState::default()
        };
        assert_eq!(move_due(&f, &st(&[], "started"), "white", None), Some(0));
        assert_eq!(move_due(&f, &st(&[], "started"), "black", None), None);
        assert_eq!(move_due(&f, &st(&["e2e4"], "started"), "black", None), Some(1));
        // The same ply again (a reconnection's gameFull, a draw offer):
        // answered already, accepted or refused, so no second post.
        assert_eq!(move_due(&f, &st(&["e2e4"], "started"), "black", Some(1)), None);
        assert_eq!(move_due(&f, &st(&["e2e4", "e7e5"], "started"), "white", Some(1)), Some(2));
        // Over: nothing to play.
        assert_eq!(move_due(&f, &st(&["f2f3", "e7e5", "g2g4", "d8h4"], "mate"), "white", None), None);
        // Black starts a position given by FEN.
        let g = GameFull { initial_fen: "4k3/8/8/8/8/8/8/4K2R b K - 0 1".into(), ..GameFull::default() };
        assert_eq!(move_due(&g, &st(&[], "started"), "black", None), Some(0));
    }

    #[test]
    fn result_lines() {
        let st = GameState { status: "mate".into(), winner: Some("white".into()), ..GameState::default() };
        assert_eq!(result_line(&st), "1-0 mate");
        let st = GameState { status: "aborted".into(), ..GameState::default() };
        assert_eq!(result_line(&st), "* aborted");
    }
}
