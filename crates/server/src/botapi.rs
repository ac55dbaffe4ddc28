//! The Bot and Board API (`docs/api.md`): lichess's paths, fields, status
//! codes and error shapes for programs that play. The event stream
//! (`/api/stream/event`), the game streams (`/api/{bot,board}/game/stream/{id}`),
//! and the acts in a game (move, resign, abort, draw), for BOT accounts
//! (`bot:play`) and for people's own programs (`board:play`).
//!
//! Streams are NDJSON with an empty line every [`KEEP_ALIVE`]. Both are
//! read from the game and the store, never from what was sent before, so a
//! client that reconnects (a dropped connection, a server restart) gets
//! the whole state again. The event stream reads the account's games and
//! challenges every `Config::event_poll`, and at once when this instance
//! changes them ([`wake`]); a game stream follows the game's broadcast.

use crate::live::{Actor, Live, Mode, Status};
use crate::net::error as err;
use crate::tokens::{authorize, Caller, Scope};
use crate::App;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chimera_rules::{AnyPosition, Color, Position, Variant};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};

/// A stream sends an empty line this often (lichess's keep-alive).
pub const KEEP_ALIVE: Duration = Duration::from_secs(6);

/// Which API a request speaks: the Bot API (BOT accounts, `bot:play`) or
/// the Board API (people's accounts, `board:play`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Api {
    Bot,
    Board,
}

impl Api {
    fn scope(self) -> Scope {
        match self {
            Api::Bot => Scope::BotPlay,
            Api::Board => Scope::BoardPlay,
        }
    }

    /// The refusal for an account of the other kind (lichess's words).
    fn refusal(self, c: &Caller) -> Option<Response> {
        match (self, c.bot) {
            (Api::Bot, false) => Some(err(StatusCode::FORBIDDEN, "This endpoint can only be used with a Bot account")),
            (Api::Board, true) => Some(err(StatusCode::FORBIDDEN, "This endpoint cannot be used with a Bot account")),
            _ => None,
        }
    }
}

/// The streams open on this instance, per account (event, game), and the
/// wake-ups of the event streams.
pub struct Streams {
    open: Mutex<HashMap<String, [usize; 2]>>,
    wake: broadcast::Sender<Arc<str>>,
}

impl Default for Streams {
    fn default() -> Streams {
        Streams { open: Mutex::default(), wake: broadcast::channel(256).0 }
    }
}

/// One open stream's place in [`Streams`]; dropping it frees the place.
struct StreamSlot {
    app: App,
    account: String,
    kind: usize,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut m = self.app.streams.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = m.get_mut(&self.account) {
            n[self.kind] = n[self.kind].saturating_sub(1);
            if *n == [0, 0] {
                m.remove(&self.account);
            }
        }
    }
}

const EVENT: usize = 0;
const GAME: usize = 1;

fn open_slot(app: &App, account: &str, kind: usize) -> Result<StreamSlot, Box<Response>> {
    let max = if kind == EVENT { app.config.event_streams_per_account } else { app.config.game_streams_per_account };
    let mut m = app.streams.open.lock().unwrap_or_else(|e| e.into_inner());
    let n = m.entry(account.to_string()).or_default();
    if n[kind] >= max {
        let what = if kind == EVENT { "event streams" } else { "game streams" };
        let mut r = err(StatusCode::TOO_MANY_REQUESTS, format!("this account has {max} {what} open: close one first"));
        r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
        return Err(Box::new(r));
    }
    n[kind] += 1;
    Ok(StreamSlot { app: app.clone(), account: account.to_string(), kind })
}

/// Wakes `account`'s event streams on this instance (a game of it started
/// or ended, a challenge to or from it changed).
pub(crate) fn wake(app: &App, account: &str) {
    let _ = app.streams.wake.send(Arc::from(account));
}

pub fn routes() -> axum::Router<App> {
    use axum::routing::{get, post};
    let mut r = axum::Router::new()
        .route("/api/stream/event", get(event_stream))
        .route("/api/bot/account/upgrade", post(upgrade));
    for (prefix, api) in [("bot", Api::Bot), ("board", Api::Board)] {
        r = r
            .route(
                &format!("/api/{prefix}/game/stream/{{id}}"),
                get(move |s: State<App>, p: ConnectInfo<SocketAddr>, h: HeaderMap, id: Path<String>| {
                    game_stream(api, s, p, h, id)
                }),
            )
            .route(
                &format!("/api/{prefix}/game/{{id}}/move/{{uci}}"),
                post(
                    move |s: State<App>,
                          p: ConnectInfo<SocketAddr>,
                          h: HeaderMap,
                          Path((id, uci)): Path<(String, String)>,
                          q: Query<MoveQuery>| {
                        act(api, s, p, h, id, Act::Move(uci, q.0.offering_draw.as_deref() == Some("true")))
                    },
                ),
            )
            .route(
                &format!("/api/{prefix}/game/{{id}}/resign"),
                post(move |s: State<App>, p: ConnectInfo<SocketAddr>, h: HeaderMap, Path(id): Path<String>| {
                    act(api, s, p, h, id, Act::Resign)
                }),
            )
            .route(
                &format!("/api/{prefix}/game/{{id}}/abort"),
                post(move |s: State<App>, p: ConnectInfo<SocketAddr>, h: HeaderMap, Path(id): Path<String>| {
                    act(api, s, p, h, id, Act::Abort)
                }),
            )
            .route(
                &format!("/api/{prefix}/game/{{id}}/draw/{{answer}}"),
                post(
                    move |s: State<App>,
                          p: ConnectInfo<SocketAddr>,
                          h: HeaderMap,
                          Path((id, answer)): Path<(String, String)>| {
                        act(api, s, p, h, id, Act::Draw(answer))
                    },
                ),
            );
    }
    r
}

#[derive(Deserialize)]
struct MoveQuery {
    #[serde(rename = "offeringDraw")]
    offering_draw: Option<String>,
}

/// An NDJSON response fed by `rx`.
pub(crate) fn ndjson(rx: mpsc::Receiver<Bytes>) -> Response {
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, std::convert::Infallible>(b), rx))
    });
    let mut r = Response::new(Body::from_stream(stream));
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-ndjson"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

pub(crate) fn line(v: &Value) -> Bytes {
    let mut s = v.to_string();
    s.push('\n');
    Bytes::from(s)
}

/// The API's key of a variant: lichess's `standard` for chess, else its id.
pub fn variant_key(v: Variant) -> &'static str {
    if v == Variant::Chess {
        "standard"
    } else {
        v.id()
    }
}

fn variant_json(v: Variant) -> Value {
    let short = match v {
        Variant::Chess => "Std",
        Variant::Genie => "Genie",
        Variant::GenieOwnHalf => "Genie½",
        Variant::Genesis => "Gen",
        Variant::Clown => "Clown",
        Variant::MagicRing => "Ring",
    };
    let name = if v == Variant::Chess { "Standard" } else { v.name() };
    json!({"key": variant_key(v), "name": name, "short": short})
}

/// lichess's speed of a time control: by the estimated game time, initial
/// + 40 increments (its thresholds), or `correspondence`.
pub fn speed(clock: Option<(i64, i64)>, days: Option<u8>) -> &'static str {
    match (clock, days) {
        (_, Some(_)) | (None, _) => "correspondence",
        (Some((initial, inc)), None) => match (initial + 40 * inc) / 1000 {
            0..=29 => "ultraBullet",
            30..=179 => "bullet",
            180..=479 => "blitz",
            480..=1499 => "rapid",
            _ => "classical",
        },
    }
}

/// lichess's status of a game: its name and number.
pub fn status(live: &Live) -> (&'static str, i64) {
    if live.status == Status::Active {
        return ("started", 20);
    }
    match live.reason.as_deref() {
        Some("aborted") => ("aborted", 25),
        Some("checkmate") => ("mate", 30),
        Some("resignation") => ("resign", 31),
        Some("stalemate") => ("stalemate", 32),
        Some("time forfeit") => ("outoftime", 35),
        Some("agreement" | "threefold repetition" | "fifty-move rule" | "dead material") => ("draw", 34),
        _ => ("unknownFinish", 38),
    }
}

fn winner(live: &Live) -> Option<&'static str> {
    match live.result.as_str() {
        "1-0" => Some("white"),
        "0-1" => Some("black"),
        _ => None,
    }
}

/// The seats `account` holds in the game.
fn seats_of(live: &Live, account: &str) -> Vec<Color> {
    let mut v = Vec::new();
    if live.white_account.as_deref() == Some(account) {
        v.push(Color::White);
    }
    if live.black_account.as_deref() == Some(account) {
        v.push(Color::Black);
    }
    v
}

/// A seat as the game stream shows it: an account (with `title` "BOT" for
/// a BOT account), the engine (`aiLevel`), or a name.
fn seat_json(live: &Live, c: Color) -> Value {
    let i = usize::from(c == Color::Black);
    if let Some(p) = &live.players[i] {
        return json!({
            "id": p.username.to_lowercase(), "name": p.username, "title": p.bot.then_some("BOT"),
            "rating": p.rating, "provisional": p.provisional,
        });
    }
    if live.meta.mode == Mode::Engine && live.meta.engine_color == Some(c) {
        return json!({"aiLevel": live.meta.engine_level.unwrap_or(4)});
    }
    let name = if c == Color::White { &live.white_name } else { &live.black_name };
    json!({"id": Value::Null, "name": name})
}

/// A move list as the streams give it: UCI strings joined by spaces.
fn moves_text(live: &Live) -> String {
    live.game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// The time left to `c` now (ms); lichess's largest int for no clock.
fn time_left(live: &Live, c: Color, now: i64) -> i64 {
    live.remaining(c, now).map_or(2_147_483_647, |t| t.max(0))
}

/// The `gameState` of the game now.
pub fn game_state(live: &Live) -> Value {
    let now = crate::live::now_ms();
    let inc = live.meta.clock.filter(|_| live.meta.days.is_none()).map_or(0, |c| c.1);
    let mut v = json!({
        "type": "gameState",
        "moves": moves_text(live),
        "wtime": time_left(live, Color::White, now),
        "btime": time_left(live, Color::Black, now),
        "winc": inc, "binc": inc,
        "status": status(live).0,
        "wdraw": live.draw_offer == Some(Color::White),
        "bdraw": live.draw_offer == Some(Color::Black),
        "wtakeback": false, "btakeback": false,
    });
    if let Some(w) = winner(live) {
        v["winner"] = json!(w);
    }
    v
}

/// The `gameFull` of the game now: what never changes, and the state.
pub fn game_full(live: &Live) -> Value {
    let m = &live.meta;
    let standard_start = AnyPosition::new(m.variant, &m.opts).fen();
    let speed = speed(m.clock, m.days);
    let mut v = json!({
        "type": "gameFull",
        "id": m.id,
        "variant": variant_json(m.variant),
        "clock": m.clock.filter(|_| m.days.is_none()).map(|(i, inc)| json!({"initial": i, "increment": inc})),
        "speed": speed,
        "perf": {"name": if m.variant == Variant::Chess { speed.to_string() } else { m.variant.name().to_string() }},
        "rated": m.rated,
        "createdAt": m.created_at,
        "white": seat_json(live, Color::White),
        "black": seat_json(live, Color::Black),
        "initialFen": if m.start_fen == standard_start { "startpos".to_string() } else { m.start_fen.clone() },
        "state": game_state(live),
    });
    if let Some(d) = m.days {
        v["daysPerTurn"] = json!(d);
    }
    if !m.opts.to_string().is_empty() {
        v["rules"] = json!(m.opts.to_string());
    }
    v
}

/// The caller of a request of `api` on game `id`, the game (caught up
/// with the store) and the caller's seats in it; or the answer: the
/// token's refusals, 404 for a game that is not the caller's.
async fn player_game(
    api: Api,
    app: &App,
    headers: &HeaderMap,
    peer: SocketAddr,
    id: &str,
) -> Result<(Caller, Arc<crate::GameHandle>, Vec<Color>), Box<Response>> {
    let c = authorize(app, headers, peer.ip(), &[api.scope()], false).await.map_err(Box::new)?;
    if let Some(r) = api.refusal(&c) {
        return Err(Box::new(r));
    }
    let h = match app.game(id).await {
        Ok(Some(h)) => h,
        Ok(None) => return Err(Box::new(err(StatusCode::NOT_FOUND, "No such game"))),
        Err(e) => return Err(Box::new(err(StatusCode::INTERNAL_SERVER_ERROR, e))),
    };
    crate::catch_up(app, &h).await;
    let seats = seats_of(&*h.live.lock().await, &c.account.id);
    if seats.is_empty() {
        return Err(Box::new(err(StatusCode::NOT_FOUND, "No such game")));
    }
    Ok((c, h, seats))
}

/// `GET /api/{bot,board}/game/stream/{id}`.
async fn game_stream(
    api: Api,
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let (c, h, _) = match player_game(api, &app, &headers, peer, &id).await {
        Ok(x) => x,
        Err(r) => return *r,
    };
    let full = h.live.lock().await.clone();
    let slot = match open_slot(&app, &c.account.id, GAME) {
        Ok(s) => s,
        Err(r) => return *r,
    };
    let first = game_full(&full);
    let (tx, rx) = mpsc::channel::<Bytes>(16);
    let mut sub = h.tx.subscribe();
    let mut shutdown = app.shutdown.clone();
    tokio::spawn(async move {
        let _slot = slot;
        let key = |s: &Value| (s["moves"].clone(), s["status"].clone(), s["wdraw"].clone(), s["bdraw"].clone());
        let mut last = key(&first["state"]);
        let mut over = first["state"]["status"] != "started";
        if tx.send(line(&first)).await.is_err() || over {
            return;
        }
        let mut keep = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        while !over {
            tokio::select! {
                m = sub.recv() => {
                    if matches!(m, Err(broadcast::error::RecvError::Closed)) {
                        return;
                    }
                    let state = game_state(&*h.live.lock().await);
                    over = state["status"] != "started";
                    if key(&state) != last {
                        last = key(&state);
                        if tx.send(line(&state)).await.is_err() {
                            return;
                        }
                    }
                }
                _ = keep.tick() => {
                    if tx.send(Bytes::from_static(b"\n")).await.is_err() {
                        return;
                    }
                }
                _ = tx.closed() => return,
                _ = shutdown.changed() => return,
            }
        }
    });
    ndjson(rx)
}

/// What a request does in a game.
enum Act {
    Move(String, bool),
    Resign,
    Abort,
    Draw(String),
}

/// `POST /api/{bot,board}/game/{id}/{move/UCI,resign,abort,draw/yes|no}`.
async fn act(
    api: Api,
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    id: String,
    what: Act,
) -> Response {
    let (_, h, seats) = match player_game(api, &app, &headers, peer, &id).await {
        Ok(x) => x,
        Err(r) => return *r,
    };
    let actor = Actor::Seats(seats);
    let done = match what {
        Act::Move(uci, offering_draw) => {
            let r = crate::change(&app, &h, |l| {
                let keep = l.game.moves().len();
                l.play(&actor, &uci, None).map(|_| keep)
            })
            .await;
            match r {
                Ok(()) if offering_draw => crate::web::draw_offer(&app, &h, &actor).await.map(|_| ()),
                other => other,
            }
        }
        Act::Resign => crate::change(&app, &h, |l| l.resign(&actor).map(|_| l.game.moves().len())).await,
        Act::Abort => crate::change(&app, &h, |l| l.abort(&actor).map(|_| l.game.moves().len())).await,
        Act::Draw(answer) => match answer.as_str() {
            "yes" | "true" => crate::web::draw_offer(&app, &h, &actor).await.and_then(|declined| match declined {
                Some(why) => Err(why),
                None => Ok(()),
            }),
            "no" | "false" => crate::change(&app, &h, |l| l.decline_draw(&actor).map(|_| l.game.moves().len())).await,
            other => Err(format!("draw answer '{other:.10}': yes or no")),
        },
    };
    match done {
        Ok(()) => Json(json!({"ok": true})).into_response(),
        Err(e) => err(StatusCode::BAD_REQUEST, e),
    }
}

/// `POST /api/bot/account/upgrade`: the account becomes a BOT account, for
/// good, while it has played no game (lichess's rule).
async fn upgrade(State(app): State<App>, ConnectInfo(peer): ConnectInfo<SocketAddr>, headers: HeaderMap) -> Response {
    let c = match authorize(&app, &headers, peer.ip(), &[Scope::BotPlay], false).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    if c.bot {
        return err(StatusCode::BAD_REQUEST, "This account is a BOT account already");
    }
    let done = sqlx::query(
        "UPDATE accounts SET kind = 'bot' WHERE id = $1 AND kind = 'person' AND NOT EXISTS \
         (SELECT 1 FROM games WHERE white_account = $1 OR black_account = $1)",
    )
    .bind(&c.account.id)
    .execute(&app.db)
    .await;
    match done {
        Ok(r) if r.rows_affected() == 1 => Json(json!({"ok": true})).into_response(),
        Ok(_) => err(StatusCode::BAD_REQUEST, "This account has played games: only a new account can become a BOT"),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// A game as the event stream's `gameStart` and `gameFinish` give it, for
/// the account at `color`.
fn event_game(live: &Live, color: Color) -> Value {
    let them = seat_json(live, !color);
    let (st, st_id) = status(live);
    let m = &live.meta;
    let now = crate::live::now_ms();
    let opponent = match them.get("aiLevel") {
        Some(l) => json!({"id": Value::Null, "username": format!("Computer level {l}"), "ai": l}),
        None => json!({"id": them["id"], "username": them["name"], "rating": them.get("rating")}),
    };
    let mut v = json!({
        "id": m.id, "gameId": m.id, "fullId": m.id,
        "color": crate::color_name(color),
        "fen": live.game.position().fen(),
        "hasMoved": moves_by(live, color) > 0,
        "isMyTurn": live.status == Status::Active && live.turn() == color,
        "lastMove": live.game.moves().last().map(|m| m.to_string()).unwrap_or_default(),
        "opponent": opponent,
        "rated": m.rated,
        "variant": {"key": variant_key(m.variant), "name": variant_json(m.variant)["name"]},
        "speed": speed(m.clock, m.days),
        "perf": if m.variant == Variant::Chess { speed(m.clock, m.days) } else { m.variant.id() },
        "secondsLeft": live.remaining(color, now).map(|t| t.max(0) / 1000),
        "source": match m.mode { Mode::Engine => "ai", Mode::Seek => "lobby", _ => "friend" },
        "status": {"id": st_id, "name": st},
        "compat": {"bot": true, "board": true},
    });
    if let Some(w) = winner(live) {
        v["winner"] = json!(w);
    }
    v
}

/// How many moves `color` has made in the game.
fn moves_by(live: &Live, color: Color) -> usize {
    let n = live.game.moves().len();
    let first = live.game.positions().first().map_or(Color::White, |p| p.turn());
    if first == color {
        n.div_ceil(2)
    } else {
        n / 2
    }
}

/// `GET /api/stream/event`.
async fn event_stream(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    let c = match authorize(&app, &headers, peer.ip(), &[Scope::BotPlay, Scope::BoardPlay, Scope::ChallengeRead], false)
        .await
    {
        Ok(c) => c,
        Err(r) => return r,
    };
    let slot = match open_slot(&app, &c.account.id, EVENT) {
        Ok(s) => s,
        Err(r) => return *r,
    };
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    let app2 = app.clone();
    tokio::spawn(async move {
        let _slot = slot;
        events(app2, c.account.id, tx).await;
    });
    ndjson(rx)
}

/// The account's games in progress (both seats taken) and waiting
/// challenges (made or received), by id.
async fn snapshot(app: &App, account: &str) -> Result<(Vec<String>, HashMap<String, Value>), String> {
    let games = crate::playing::playing(&app.db, account).await.map_err(|e| e.to_string())?;
    let challenges = crate::challenges::waiting(app, account).await.map_err(|e| e.to_string())?;
    Ok((games.into_iter().map(|g| g.id).collect(), challenges))
}

async fn events(app: App, account: String, tx: mpsc::Sender<Bytes>) {
    let mut wake = app.streams.wake.subscribe();
    let mut shutdown = app.shutdown.clone();
    let mut poll = tokio::time::interval(app.config.event_poll);
    let mut keep = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
    // What this stream has told: the games started (with the colour) and
    // the challenges waiting.
    let mut games: HashMap<String, Color> = HashMap::new();
    let mut challenges: HashMap<String, Value> = HashMap::new();
    loop {
        tokio::select! {
            _ = poll.tick() => {}
            w = wake.recv() => match w {
                Ok(a) if *a != *account => continue,
                Err(broadcast::error::RecvError::Closed) => return,
                _ => {}
            },
            _ = keep.tick() => {
                if tx.send(Bytes::from_static(b"\n")).await.is_err() {
                    return;
                }
                continue;
            }
            _ = tx.closed() => return,
            _ = shutdown.changed() => return,
        }
        let (ids, waiting) = match snapshot(&app, &account).await {
            Ok(s) => s,
            Err(e) => {
                eprintln!("event stream of {account}: {e}");
                continue;
            }
        };
        let mut out = Vec::new();
        // Challenges: new ones, then the ones closed since.
        for (id, c) in &waiting {
            if !challenges.contains_key(id) {
                out.push(json!({"type": "challenge", "challenge": c}));
            }
        }
        let gone: Vec<String> = challenges.keys().filter(|id| !waiting.contains_key(*id)).cloned().collect();
        for id in gone {
            challenges.remove(&id);
            if let Ok(Some(c)) = crate::challenges::get(&app, &id, &account).await {
                let kind = match c["status"].as_str() {
                    Some("declined") => "challengeDeclined",
                    Some("canceled") => "challengeCanceled",
                    _ => continue,
                };
                out.push(json!({"type": kind, "challenge": c}));
            }
        }
        challenges.extend(waiting);
        // Games: started (both seats taken), then ended.
        for id in &ids {
            if games.contains_key(id) {
                continue;
            }
            let Ok(Some(h)) = app.game(id).await else { continue };
            let live = h.live.lock().await.clone();
            let seats = seats_of(&live, &account);
            let seated = live.free_seat().is_none();
            let Some(&color) = seats.first().filter(|_| seated) else { continue };
            let color = if seats.len() == 2 { live.turn() } else { color };
            out.push(json!({"type": "gameStart", "game": event_game(&live, color)}));
            games.insert(id.clone(), color);
        }
        let ended: Vec<(String, Color)> =
            games.iter().filter(|(id, _)| !ids.contains(id)).map(|(id, c)| (id.clone(), *c)).collect();
        for (id, color) in ended {
            games.remove(&id);
            let Ok(Some(h)) = app.game(&id).await else { continue };
            let live = h.live.lock().await.clone();
            if live.status == Status::Finished {
                out.push(json!({"type": "gameFinish", "game": event_game(&live, color)}));
            }
        }
        for v in out {
            if tx.send(line(&v)).await.is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_are_lichess_thresholds() {
        // lichess: estimated seconds = initial + 40 × increment.
        assert_eq!(speed(Some((15_000, 0)), None), "ultraBullet");
        assert_eq!(speed(Some((60_000, 0)), None), "bullet");
        assert_eq!(speed(Some((120_000, 1_000)), None), "bullet"); // 120 + 40 = 160 s
        assert_eq!(speed(Some((180_000, 0)), None), "blitz");
        assert_eq!(speed(Some((300_000, 3_000)), None), "blitz");
        assert_eq!(speed(Some((600_000, 0)), None), "rapid");
        assert_eq!(speed(Some((1_800_000, 0)), None), "classical");
        assert_eq!(speed(None, None), "correspondence");
        assert_eq!(speed(Some((86_400_000, 0)), Some(1)), "correspondence");
    }

    #[test]
    fn chess_is_standard_in_the_api() {
        assert_eq!(variant_key(Variant::Chess), "standard");
        assert_eq!(variant_key(Variant::Genesis), "genesis");
        for v in Variant::ALL {
            assert_eq!(v.id().parse::<Variant>().ok(), Some(v));
            assert_eq!(variant_key(v).parse::<Variant>().ok(), Some(v), "{v:?}'s key reads back");
        }
    }
}
