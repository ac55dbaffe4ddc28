//! A small blocking client of the Bot and Board API (docs/api.md), shared by
//! `chimera bot` and `chimera play --online`: JSON requests with a bearer
//! token, and the NDJSON streams read line by line.
//!
//! The requests run on one small tokio runtime of the client's own; the
//! callers are plain threads that wait for each answer (`block_on`), so a
//! game is a loop in its own thread. A stream read waits at most
//! [`IDLE_LIMIT`] for the next bytes: the server sends an empty line every
//! 6 seconds, so a longer silence is a dead connection, and the caller
//! reconnects.
//!
//! This file uses only std, reqwest, tokio and serde_json, so that the
//! integration tests (tests/api_clients.rs) can include it as it is.

use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// A stream silent this long (no line, no keep-alive) is taken for dead.
pub const IDLE_LIMIT: Duration = Duration::from_secs(20);
/// An ordinary request (not a stream) gets this long for its whole answer.
pub const REQUEST_LIMIT: Duration = Duration::from_secs(30);
const CONNECT_LIMIT: Duration = Duration::from_secs(10);

/// Why a request brought no answer to use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// The server answered with an error status, and its `error` text (or
    /// the body as it came).
    Status { status: u16, error: String },
    /// No answer: no connection, a dropped one, a timeout, a body that is
    /// not JSON.
    Net(String),
}

impl ApiError {
    /// The status of an answer that came.
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Status { status, .. } => Some(*status),
            ApiError::Net(_) => None,
        }
    }

    /// A refused token or scope (401, 403): asking again will not help.
    pub fn is_auth(&self) -> bool {
        matches!(self.status(), Some(401 | 403))
    }

    /// Worth asking again later: no answer, too many requests, a server error.
    pub fn is_transient(&self) -> bool {
        match self.status() {
            None => true,
            Some(s) => s == 429 || s >= 500,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiError::Status { status, error } => write!(f, "{status}: {error}"),
            ApiError::Net(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for ApiError {}

/// The error text of an error answer: `{"error": "..."}`'s text, else the
/// body itself (cut short).
pub fn error_text(body: &str) -> String {
    match serde_json::from_str::<Value>(body) {
        Ok(v) if v["error"].is_string() => v["error"].as_str().unwrap_or_default().to_string(),
        _ => body.trim().chars().take(200).collect(),
    }
}

/// A server and the token to use on it.
#[derive(Clone)]
pub struct Api {
    base: String,
    token: String,
    client: reqwest::Client,
    rt: Arc<tokio::runtime::Runtime>,
}

impl Api {
    /// A client of the server at `base` (`http://host:port`, `https://...`;
    /// a trailing `/` is dropped) acting with `token`.
    pub fn new(base: &str, token: &str) -> Result<Api, String> {
        let base = base.trim().trim_end_matches('/').to_string();
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(format!("the server's URL must start with http:// or https://, not '{base}'"));
        }
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("chimera-http")
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the HTTP runtime: {e}"))?;
        let client = reqwest::Client::builder()
            .connect_timeout(CONNECT_LIMIT)
            .read_timeout(IDLE_LIMIT)
            .user_agent(concat!("chimera/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot make an HTTP client: {e}"))?;
        Ok(Api { base, token: token.trim().to_string(), client, rt: Arc::new(rt) })
    }

    /// The server's URL, without a trailing `/`.
    pub fn base(&self) -> &str {
        &self.base
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.client.request(method, self.url(path)).bearer_auth(&self.token)
    }

    /// Sends a request and reads its JSON answer (an empty body is `null`).
    fn json(&self, rb: reqwest::RequestBuilder) -> Result<Value, ApiError> {
        self.rt.block_on(async move {
            let resp = rb.timeout(REQUEST_LIMIT).send().await.map_err(|e| ApiError::Net(describe(&e)))?;
            let status = resp.status();
            let body = resp.text().await.map_err(|e| ApiError::Net(describe(&e)))?;
            if !status.is_success() {
                return Err(ApiError::Status { status: status.as_u16(), error: error_text(&body) });
            }
            if body.trim().is_empty() {
                return Ok(Value::Null);
            }
            serde_json::from_str(&body).map_err(|e| ApiError::Net(format!("an answer that is not JSON: {e}")))
        })
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Result<Value, ApiError> {
        self.json(self.request(reqwest::Method::GET, path))
    }

    /// `POST path`, with a JSON body when one is given.
    pub fn post(&self, path: &str, body: Option<&Value>) -> Result<Value, ApiError> {
        let mut rb = self.request(reqwest::Method::POST, path);
        if let Some(b) = body {
            rb = rb.header(reqwest::header::CONTENT_TYPE, "application/json").body(b.to_string());
        }
        self.json(rb)
    }

    /// Opens an NDJSON stream (`GET path`); an error status is an error.
    pub fn stream(&self, path: &str) -> Result<NdjsonStream, ApiError> {
        let rb = self.request(reqwest::Method::GET, path).header(reqwest::header::ACCEPT, "application/x-ndjson");
        let resp = self.rt.block_on(async move {
            let resp = rb.send().await.map_err(|e| ApiError::Net(describe(&e)))?;
            let status = resp.status();
            if !status.is_success() {
                let body = resp.text().await.unwrap_or_default();
                return Err(ApiError::Status { status: status.as_u16(), error: error_text(&body) });
            }
            Ok(resp)
        })?;
        Ok(NdjsonStream { resp, lines: LineBuffer::default(), rt: self.rt.clone(), ended: false })
    }
}

/// What went wrong with a request, in a few words (reqwest's own text
/// leaves out the cause).
fn describe(e: &reqwest::Error) -> String {
    use std::error::Error;
    // The innermost cause says most ("Connection refused (os error 111)").
    let mut cause = None;
    let mut src = e.source();
    while let Some(c) = src {
        cause = Some(c.to_string());
        src = c.source();
    }
    let what = if e.is_timeout() {
        "timed out".to_string()
    } else if e.is_connect() {
        "cannot connect".to_string()
    } else {
        e.to_string()
    };
    match cause {
        Some(c) if c != what => format!("{what}: {c}"),
        _ => what,
    }
}

/// Bytes cut into lines: chunks go in, whole lines (without `\r\n`) come out.
#[derive(Default, Debug)]
pub struct LineBuffer {
    buf: Vec<u8>,
}

impl LineBuffer {
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole line, if one has come.
    pub fn pop_line(&mut self) -> Option<String> {
        let i = self.buf.iter().position(|&b| b == b'\n')?;
        let line: Vec<u8> = self.buf.drain(..=i).collect();
        Some(String::from_utf8_lossy(&line).trim_end_matches(['\n', '\r']).to_string())
    }

    /// What is left after the last newline.
    pub fn rest(&mut self) -> String {
        String::from_utf8_lossy(&std::mem::take(&mut self.buf)).trim().to_string()
    }
}

/// An open NDJSON stream.
pub struct NdjsonStream {
    resp: reqwest::Response,
    lines: LineBuffer,
    rt: Arc<tokio::runtime::Runtime>,
    ended: bool,
}

impl NdjsonStream {
    /// The next JSON object: keep-alive (empty) lines are skipped, `None`
    /// when the stream ended; a line that is not JSON, a silence beyond
    /// [`IDLE_LIMIT`] or a dropped connection is an error.
    pub fn next_value(&mut self) -> Result<Option<Value>, ApiError> {
        loop {
            if let Some(line) = self.next_line()? {
                if line.trim().is_empty() {
                    continue;
                }
                return parse_line(&line).map(Some);
            }
            return Ok(None);
        }
    }

    /// The next line, keep-alive lines included; `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<String>, ApiError> {
        loop {
            if let Some(l) = self.lines.pop_line() {
                return Ok(Some(l));
            }
            if self.ended {
                let rest = self.lines.rest();
                return Ok(if rest.is_empty() { None } else { Some(rest) });
            }
            let chunk = self.rt.block_on(self.resp.chunk()).map_err(|e| ApiError::Net(describe(&e)))?;
            match chunk {
                Some(bytes) => self.lines.push(&bytes),
                None => self.ended = true,
            }
        }
    }
}

/// One NDJSON line as a JSON value.
pub fn parse_line(line: &str) -> Result<Value, ApiError> {
    serde_json::from_str(line.trim())
        .map_err(|e| ApiError::Net(format!("a stream line that is not JSON ({e}): {line:.120}")))
}

/// Waits between reconnections: 0.5 s, doubling up to 10 s; back to 0.5 s
/// once a connection works again.
#[derive(Clone, Debug)]
pub struct Backoff {
    next: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff { next: Backoff::FIRST }
    }
}

impl Backoff {
    pub const FIRST: Duration = Duration::from_millis(500);
    pub const MAX: Duration = Duration::from_secs(10);

    /// The wait before the next try (and the one after it doubles).
    pub fn next_delay(&mut self) -> Duration {
        let d = self.next;
        self.next = (self.next * 2).min(Backoff::MAX);
        d
    }

    pub fn reset(&mut self) {
        self.next = Backoff::FIRST;
    }
}

/// A player of a game stream's `gameFull`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// The account id (lower case), empty when the stream gives none.
    pub id: String,
    pub name: String,
    pub title: Option<String>,
    pub rating: Option<i64>,
}

impl Player {
    fn from_json(v: &Value) -> Player {
        let id = v["id"].as_str().unwrap_or_default().to_string();
        let name = v["name"].as_str().or(v["username"].as_str()).map_or_else(|| id.clone(), str::to_string);
        Player { id, name, title: v["title"].as_str().map(str::to_string), rating: v["rating"].as_i64() }
    }

    /// `BOT Name (1500)`.
    pub fn display(&self) -> String {
        let mut s = match &self.title {
            Some(t) if !t.is_empty() => format!("{t} {}", self.name),
            _ => self.name.clone(),
        };
        if let Some(r) = self.rating {
            s.push_str(&format!(" ({r})"));
        }
        s
    }

    /// Whether this player is the account `id` (ids compare in any case;
    /// a stream without ids is compared by name).
    pub fn is(&self, id: &str) -> bool {
        let mine = if self.id.is_empty() { &self.name } else { &self.id };
        !id.is_empty() && mine.eq_ignore_ascii_case(id)
    }
}

/// A game stream's `gameState` (also the `state` of its `gameFull`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameState {
    pub moves: Vec<String>,
    /// Milliseconds left (0 when the stream gives none).
    pub wtime: u64,
    pub btime: u64,
    pub winc: u64,
    pub binc: u64,
    /// lichess's status names: `started`, `mate`, `resign`, `outoftime`...
    pub status: String,
    /// `white` or `black`, once the game is won.
    pub winner: Option<String>,
    pub wdraw: bool,
    pub bdraw: bool,
}

fn ms(v: &Value) -> u64 {
    v.as_i64().map(|x| x.max(0) as u64).or_else(|| v.as_f64().map(|x| x.max(0.0) as u64)).unwrap_or(0)
}

impl GameState {
    pub fn from_json(v: &Value) -> GameState {
        GameState {
            moves: v["moves"].as_str().unwrap_or_default().split_whitespace().map(str::to_string).collect(),
            wtime: ms(&v["wtime"]),
            btime: ms(&v["btime"]),
            winc: ms(&v["winc"]),
            binc: ms(&v["binc"]),
            status: v["status"].as_str().unwrap_or("started").to_string(),
            winner: v["winner"].as_str().map(str::to_string),
            wdraw: v["wdraw"].as_bool().unwrap_or(false),
            bdraw: v["bdraw"].as_bool().unwrap_or(false),
        }
    }

    /// Whether the game is still going on (lichess's `created` is a game
    /// whose first move is awaited).
    pub fn ongoing(&self) -> bool {
        matches!(self.status.as_str(), "started" | "created")
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `*` (aborted, or not over).
    pub fn result(&self) -> &'static str {
        match (self.winner.as_deref(), self.status.as_str()) {
            (Some("white"), _) => "1-0",
            (Some("black"), _) => "0-1",
            (_, "draw" | "stalemate") => "1/2-1/2",
            _ => "*",
        }
    }
}

/// A game stream's first line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFull {
    pub id: String,
    /// The API's variant key (`standard`, `genie`...).
    pub variant: String,
    pub rated: bool,
    /// Initial time and increment in milliseconds; `None` for a
    /// correspondence or unlimited game.
    pub clock: Option<(u64, u64)>,
    pub days_per_turn: Option<u64>,
    pub white: Player,
    pub black: Player,
    /// `startpos` or a FEN.
    pub initial_fen: String,
    /// The variant's rule options that are not the default (Chimera's
    /// `rules` field, `ring_powers=NKQ`), as (key, value).
    pub options: Vec<(String, String)>,
    pub state: GameState,
}

impl GameFull {
    pub fn from_json(v: &Value) -> GameFull {
        let clock = v["clock"].as_object().map(|c| (ms(&c["initial"]), ms(&c["increment"])));
        // Chimera's `rules` (`ring_powers=NKQ`, only what is not the
        // default), or an `options` object as its challenges give them.
        let options = match (v["rules"].as_str(), v["options"].as_object()) {
            (Some(text), _) => text
                .split(',')
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, x)| (k.trim().to_string(), x.trim().to_string()))
                .collect(),
            (None, Some(o)) => {
                o.iter().map(|(k, x)| (k.clone(), x.as_str().map_or_else(|| x.to_string(), str::to_string))).collect()
            }
            (None, None) => Vec::new(),
        };
        GameFull {
            id: v["id"].as_str().unwrap_or_default().to_string(),
            variant: v["variant"]["key"].as_str().unwrap_or("standard").to_string(),
            rated: v["rated"].as_bool().unwrap_or(false),
            clock,
            days_per_turn: v["daysPerTurn"].as_u64(),
            white: Player::from_json(&v["white"]),
            black: Player::from_json(&v["black"]),
            initial_fen: v["initialFen"].as_str().unwrap_or("startpos").to_string(),
            options,
            state: GameState::from_json(&v["state"]),
        }
    }

    /// Whether the initial position has White to move (`startpos`, or a FEN
    /// whose second field is not `b`).
    pub fn white_starts(&self) -> bool {
        fen_white_starts(&self.initial_fen)
    }

    /// `white` or `black`: the side to move after `plies` moves. Every move
    /// is one ply in every variant (a Genesis placement too), so the turn
    /// alternates from the initial position's side.
    pub fn turn_after(&self, plies: usize) -> &'static str {
        if self.white_starts() == plies.is_multiple_of(2) {
            "white"
        } else {
            "black"
        }
    }

    /// The colour account `id` plays here, if it plays.
    pub fn color_of(&self, id: &str) -> Option<&'static str> {
        if self.white.is(id) {
            Some("white")
        } else if self.black.is(id) {
            Some("black")
        } else {
            None
        }
    }
}

/// Whether a FEN (or `startpos`) has White to move.
pub fn fen_white_starts(fen: &str) -> bool {
    let fen = fen.trim();
    fen.is_empty() || fen == "startpos" || fen.split_whitespace().nth(1) != Some("b")
}

/// The account a token acts for, from `GET /api/account`: its id (lower
/// case; the username's lower case when the answer has no `id`) and name.
pub fn account_of(v: &Value) -> Option<(String, String)> {
    let name = v["username"].as_str().or(v["name"].as_str()).or(v["id"].as_str())?.to_string();
    let id = v["id"].as_str().map_or_else(|| name.to_lowercase(), str::to_lowercase);
    Some((id, name))
}

/// The challenge in an answer to `POST /api/challenge/{user}`: lichess
/// answers the challenge itself, older servers `{"challenge": {...}}`.
pub fn challenge_of(v: &Value) -> &Value {
    if v["challenge"].is_object() {
        &v["challenge"]
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lines_come_whole_across_chunks() {
        let mut b = LineBuffer::default();
        b.push(b"{\"type\":\"gameSt");
        assert_eq!(b.pop_line(), None);
        b.push(b"ate\"}\n\n{\"a\":1}\r\n{\"b\"");
        assert_eq!(b.pop_line().as_deref(), Some("{\"type\":\"gameState\"}"));
        assert_eq!(b.pop_line().as_deref(), Some(""), "a keep-alive line");
        assert_eq!(b.pop_line().as_deref(), Some("{\"a\":1}"));
        assert_eq!(b.pop_line(), None);
        assert_eq!(b.rest(), "{\"b\"");
        assert!(parse_line("{\"b\"").is_err());
        assert_eq!(parse_line(" {\"a\": 1} ").unwrap(), json!({"a": 1}));
    }

    #[test]
    fn backoff_doubles_to_ten_seconds() {
        let mut b = Backoff::default();
        let waits: Vec<u64> = (0..8).map(|_| b.next_delay().as_millis() as u64).collect();
        assert_eq!(waits, [500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
        b.reset();
        assert_eq!(b.next_delay(), Duration::from_millis(500));
    }

    #[test]
    fn errors_read_the_error_field() {
        assert_eq!(error_text(r#"{"error": "Not your turn"}"#), "Not your turn");
        assert_eq!(error_text("plain text\n"), "plain text");
        let e = ApiError::Status { status: 400, error: "x".into() };
        assert!(!e.is_auth() && !e.is_transient());
        assert!(ApiError::Status { status: 401, error: String::new() }.is_auth());
        assert!(ApiError::Status { status: 429, error: String::new() }.is_transient());
        assert!(ApiError::Status { status: 503, error: String::new() }.is_transient());
        assert!(ApiError::Net("reset".into()).is_transient());
        assert!(Api::new("ftp://x", "t").is_err());
        assert_eq!(Api::new("http://127.0.0.1:9/", "t").unwrap().base(), "http://127.0.0.1:9");
    }

    fn full() -> Value {
        json!({"type": "gameFull", "id": "a1b2c3d4e5f6", "rated": false, "createdAt": 1765000000000u64,
            "variant": {"key": "genesis", "name": "Genesis Chess", "short": "Gen"},
            "clock": {"initial": 300000, "increment": 3000}, "speed": "blitz",
            "white": {"id": "ann", "name": "Ann", "title": null, "rating": 1500, "provisional": true},
            "black": {"id": "deepgenie", "name": "DeepGenie", "title": "BOT", "rating": 1612},
            "initialFen": "startpos",
            "state": {"type": "gameState", "moves": "K@e1 K@e8 Q@d1", "wtime": 299000, "btime": 300000,
                      "winc": 3000, "binc": 3000, "status": "started", "wdraw": false, "bdraw": true}})
    }

    #[test]
    fn game_full_reads_lichess_fields() {
        let g = GameFull::from_json(&full());
        assert_eq!(g.id, "a1b2c3d4e5f6");
        assert_eq!(g.variant, "genesis");
        assert_eq!(g.clock, Some((300_000, 3000)));
        assert_eq!(g.white.display(), "Ann (1500)");
        assert_eq!(g.black.display(), "BOT DeepGenie (1612)");
        assert_eq!(g.state.moves, ["K@e1", "K@e8", "Q@d1"]);
        assert_eq!((g.state.wtime, g.state.btime, g.state.winc, g.state.binc), (299_000, 300_000, 3000, 3000));
        assert!(g.state.ongoing() && g.state.bdraw && !g.state.wdraw);
        assert_eq!(g.state.result(), "*");
        // Correspondence: no clock.
        let mut v = full();
        v["clock"] = Value::Null;
        v["daysPerTurn"] = json!(3);
        let g = GameFull::from_json(&v);
        assert_eq!((g.clock, g.days_per_turn), (None, Some(3)));
        assert!(g.options.is_empty());
        v["rules"] = json!("ring_powers=NKQ");
        assert_eq!(GameFull::from_json(&v).options, [("ring_powers".to_string(), "NKQ".to_string())]);
        let end = GameState::from_json(
            &json!({"type": "gameState", "moves": "", "status": "resign", "winner": "black", "wtime": -5}),
        );
        assert!(!end.ongoing());
        assert_eq!((end.result(), end.wtime, end.moves.len()), ("0-1", 0, 0));
        assert_eq!(GameState::from_json(&json!({"status": "stalemate"})).result(), "1/2-1/2");
        assert_eq!(GameState::from_json(&json!({"status": "aborted"})).result(), "*");
    }

    #[test]
    fn colour_and_turn() {
        let g = GameFull::from_json(&full());
        assert_eq!(g.color_of("ann"), Some("white"));
        assert_eq!(g.color_of("DeepGenie"), Some("black"));
        assert_eq!(g.color_of("bob"), None);
        assert_eq!(g.color_of(""), None);
        // Genesis too: every move is one ply, White after an even number.
        assert_eq!(g.turn_after(0), "white");
        assert_eq!(g.turn_after(3), "black");
        assert_eq!(g.turn_after(4), "white");
        // A FEN with Black to move turns it round.
        let mut v = full();
        v["initialFen"] = json!("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let g = GameFull::from_json(&v);
        assert_eq!((g.turn_after(0), g.turn_after(1)), ("black", "white"));
        assert!(fen_white_starts("8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1"));
        assert!(!fen_white_starts("8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] b - - 0 1"));
        // Without ids the names decide.
        let p = Player::from_json(&json!({"name": "Ann"}));
        assert!(p.is("ann") && !p.is("bob"));
    }

    #[test]
    fn accounts_and_challenges() {
        assert_eq!(account_of(&json!({"id": "ann", "username": "Ann"})), Some(("ann".into(), "Ann".into())));
        assert_eq!(account_of(&json!({"username": "Ann", "ratings": {}})), Some(("ann".into(), "Ann".into())));
        assert_eq!(account_of(&json!({})), None);
        assert_eq!(challenge_of(&json!({"challenge": {"id": "x"}}))["id"], "x");
        assert_eq!(challenge_of(&json!({"id": "y", "status": "created"}))["id"], "y");
    }
}
