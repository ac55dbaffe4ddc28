//! HTTP routes, the WebSocket protocol and the embedded assets.

use crate::live::{self, Actor, Live, Meta, Mode};
use crate::{change, color_name, random_hex, search, App, LEVELS};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chimera_engine::Score;
use chimera_rules::pgn;
use chimera_rules::{AnyPosition, Color, Position, RingPowers, RuleOptions, Variant};
use serde::Deserialize;
use serde_json::{json, Value};
use std::str::FromStr;

#[derive(rust_embed::Embed)]
#[folder = "assets/"]
struct Assets;

pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(|| async { page("index.html") }))
        .route("/game/{id}", get(|| async { page("game.html") }))
        .route("/analysis", get(|| async { page("analysis.html") }))
        .route("/rules/{variant}", get(|| async { page("rules.html") }))
        .route("/assets/{*path}", get(asset))
        .route("/api/meta", get(meta))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/join", post(join_game))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/position", post(position))
        .route("/api/analyse", post(analyse))
        .route("/api/pgn/import", post(pgn_import))
        .route("/ws/{id}", get(ws_upgrade))
        .with_state(app)
}

fn page(name: &str) -> Response {
    asset_response(name)
}

async fn asset(Path(path): Path<String>) -> Response {
    asset_response(&path)
}

fn asset_response(path: &str) -> Response {
    match Assets::get(path) {
        Some(f) => {
            let mime = match path.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                Some("svg") => "image/svg+xml",
                _ => "application/octet-stream",
            };
            ([(header::CONTENT_TYPE, mime), (header::CACHE_CONTROL, "no-cache")], f.data.into_owned()).into_response()
        }
        None => err(StatusCode::NOT_FOUND, format!("no such file: {path}")),
    }
}

fn err(code: StatusCode, message: impl Into<String>) -> Response {
    (code, Json(json!({ "error": message.into() }))).into_response()
}

fn bad(message: impl Into<String>) -> Response {
    err(StatusCode::BAD_REQUEST, message)
}

/// JSON body parsing with an error reply naming the problem.
fn parse_body<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, Box<Response>> {
    serde_json::from_str(body).map_err(|e| Box::new(bad(format!("malformed request: {e}"))))
}

async fn meta() -> Response {
    let variants: Vec<Value> = Variant::ALL.iter().map(|v| json!({"id": v.id(), "name": v.name()})).collect();
    let levels: Vec<Value> = LEVELS.iter().map(|l| json!({"level": l.level, "words": l.words})).collect();
    Json(json!({"variants": variants, "levels": levels, "default_ring_powers": RingPowers::DEFAULT})).into_response()
}

async fn list_games(State(app): State<App>) -> Response {
    match crate::store::list_games(&app.db).await {
        Ok(g) => Json(g).into_response(),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockReq {
    minutes: f64,
    increment: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    variant: String,
    #[serde(default)]
    ring_powers: Option<String>,
    mode: String,
    #[serde(default)]
    level: Option<u8>,
    /// "white", "black" or "random": the creator's colour.
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    clock: Option<ClockReq>,
    #[serde(default)]
    fen: Option<String>,
}

fn rule_options(variant: Variant, ring_powers: Option<&str>) -> Result<(RuleOptions, String), String> {
    let powers = match ring_powers.map(str::trim).filter(|s| !s.is_empty()) {
        Some(p) => RingPowers::from_str(p).map_err(|e| e.to_string())?,
        None => RingPowers::default(),
    };
    if variant != Variant::MagicRing && !powers.is_default() {
        return Err(format!("ring powers apply only to magicring, not {}", variant.id()));
    }
    let s = powers.to_string();
    Ok((RuleOptions { ring_powers: powers }, s))
}

async fn create_game(State(app): State<App>, body: String) -> Response {
    let req: CreateReq = match parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    let variant = match Variant::from_str(&req.variant) {
        Ok(v) => v,
        Err(e) => return bad(e.to_string()),
    };
    let (opts, powers) = match rule_options(variant, req.ring_powers.as_deref()) {
        Ok(o) => o,
        Err(e) => return bad(e),
    };
    let Some(mode) = Mode::parse(&req.mode) else {
        return bad(format!("unknown opponent '{}': expected engine, friend or hotseat", req.mode));
    };
    let level = match (mode, req.level) {
        (Mode::Engine, Some(l @ 1..=8)) => Some(l),
        (Mode::Engine, None) => Some(4),
        (Mode::Engine, Some(l)) => return bad(format!("engine level {l} is not in 1-8")),
        (_, Some(_)) => return bad("a level is given only for games against the engine"),
        (_, None) => None,
    };
    let color = match req.color.as_deref().unwrap_or("white") {
        "white" => Color::White,
        "black" => Color::Black,
        "random" => {
            if random_hex(1).as_bytes()[1].is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            }
        }
        c => return bad(format!("unknown colour '{c}': expected white, black or random")),
    };
    let clock = match req.clock {
        None => None,
        Some(c) => {
            if !(c.minutes > 0.0 && c.minutes <= 180.0) {
                return bad("clock minutes must be more than 0 and at most 180");
            }
            if !(0.0..=180.0).contains(&c.increment) {
                return bad("clock increment must be 0 to 180 seconds");
            }
            Some(((c.minutes * 60_000.0) as i64, (c.increment * 1000.0) as i64))
        }
    };
    let start = match req.fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        Some(f) => match AnyPosition::from_fen(variant, f, &opts) {
            Ok(p) => p,
            Err(e) => return bad(format!("bad FEN: {e}")),
        },
        None => AnyPosition::new(variant, &opts),
    };
    if start.outcome().is_some() {
        return bad("the start position is already finished");
    }
    let token = random_hex(16);
    let (white_token, black_token, engine_color) = match mode {
        Mode::Hotseat => (Some(token.clone()), Some(token.clone()), None),
        Mode::Engine => {
            if color == Color::White {
                (Some(token.clone()), None, Some(Color::Black))
            } else {
                (None, Some(token.clone()), Some(Color::White))
            }
        }
        Mode::Friend => {
            if color == Color::White {
                (Some(token.clone()), None, None)
            } else {
                (None, Some(token.clone()), None)
            }
        }
    };
    let meta = Meta {
        id: random_hex(6),
        variant,
        ring_powers: powers,
        opts,
        start_fen: start.fen(),
        mode,
        engine_level: level,
        engine_color,
        clock,
        created_at: live::now_ms(),
    };
    let live = Live::new(meta, start, white_token, black_token);
    if let Err(e) = crate::store::insert_game(&app.db, &live).await {
        return err(StatusCode::INTERNAL_SERVER_ERROR, format!("could not store the game: {e}"));
    }
    let id = live.meta.id.clone();
    app.insert(live).await;
    let colors: Vec<&str> = if mode == Mode::Hotseat { vec!["white", "black"] } else { vec![color_name(color)] };
    Json(json!({"id": id, "token": token, "colors": colors, "url": format!("/game/{id}")})).into_response()
}

async fn get_game(State(app): State<App>, Path(id): Path<String>) -> Response {
    match app.game(&id).await {
        Ok(Some(h)) => Json(h.live.lock().await.view()).into_response(),
        Ok(None) => err(StatusCode::NOT_FOUND, format!("no game '{id}'")),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

async fn join_game(State(app): State<App>, Path(id): Path<String>) -> Response {
    let h = match app.game(&id).await {
        Ok(Some(h)) => h,
        Ok(None) => return err(StatusCode::NOT_FOUND, format!("no game '{id}'")),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    let token = random_hex(16);
    let mut color = None;
    let t2 = token.clone();
    let r = change(&app, &h, |l| {
        color = Some(l.join(t2)?);
        Ok(l.game.moves().len())
    })
    .await;
    match (r, color) {
        (Ok(()), Some(c)) => Json(json!({"id": id, "token": token, "colors": [color_name(c)]})).into_response(),
        (Err(e), _) => err(StatusCode::CONFLICT, e),
        _ => err(StatusCode::INTERNAL_SERVER_ERROR, "join failed"),
    }
}

async fn game_pgn(State(app): State<App>, Path(id): Path<String>) -> Response {
    let h = match app.game(&id).await {
        Ok(Some(h)) => h,
        Ok(None) => return err(StatusCode::NOT_FOUND, format!("no game '{id}'")),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    let l = h.live.lock().await;
    let who = |c: Color| {
        if l.meta.engine_color == Some(c) {
            format!("Chimera level {}", l.meta.engine_level.unwrap_or(4))
        } else {
            "Player".to_string()
        }
    };
    let mut tags = vec![
        ("Event".to_string(), format!("Chimera {} game", l.meta.mode.as_str())),
        ("Site".to_string(), format!("chimera serve, game {}", l.meta.id)),
        ("White".to_string(), who(Color::White)),
        ("Black".to_string(), who(Color::Black)),
        ("RingPowers".to_string(), l.meta.ring_powers.clone()),
    ];
    if let Some(r) = &l.reason {
        tags.push(("Termination".to_string(), r.clone()));
    }
    let text = pgn::write_pgn(&tags, l.game.start(), l.game.moves(), &l.result);
    (
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8"),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"chimera.pgn\""),
        ],
        text,
    )
        .into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionReq {
    variant: String,
    #[serde(default)]
    ring_powers: Option<String>,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

/// (uci, SAN, FEN after) of each move replayed.
type Replayed = Vec<(String, String, String)>;

/// The start position and moves of a request, replayed through the rules.
fn replay(req: &PositionReq) -> Result<(AnyPosition, Replayed, AnyPosition), String> {
    let variant = Variant::from_str(&req.variant).map_err(|e| e.to_string())?;
    let (opts, _) = rule_options(variant, req.ring_powers.as_deref())?;
    let start = match req.fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        Some(f) => AnyPosition::from_fen(variant, f, &opts).map_err(|e| format!("bad FEN: {e}"))?,
        None => AnyPosition::new(variant, &opts),
    };
    if req.moves.len() > 2000 {
        return Err("too many moves".into());
    }
    let mut pos = start.clone();
    let mut out = Vec::new();
    for (i, u) in req.moves.iter().enumerate() {
        let m = pos.parse_uci(u).map_err(|e| format!("move {}: {e}", i + 1))?;
        let san = chimera_rules::san::to_san(&pos, m);
        pos.play_unchecked(m);
        out.push((m.to_string(), san, pos.fen()));
    }
    Ok((start, out, pos))
}

async fn position(body: String) -> Response {
    let req: PositionReq = match parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    match replay(&req) {
        Ok((start, moves, pos)) => {
            let mut v = live::position_view(&pos, pos.outcome().is_none());
            let o = v.as_object_mut().expect("object");
            o.insert("start_fen".into(), json!(start.fen()));
            o.insert(
                "history".into(),
                json!(moves.iter().map(|(u, s, f)| json!({"uci": u, "san": s, "fen": f})).collect::<Vec<_>>()),
            );
            o.insert("outcome".into(), json!(pos.outcome().map(|o| o.to_string())));
            Json(v).into_response()
        }
        Err(e) => bad(e),
    }
}

async fn analyse(State(app): State<App>, body: String) -> Response {
    let req: PositionReq = match parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    let (_, _, pos) = match replay(&req) {
        Ok(r) => r,
        Err(e) => return bad(e),
    };
    if let Some(o) = pos.outcome() {
        return Json(json!({"score": null, "outcome": o.to_string(), "pv": [], "pv_san": []})).into_response();
    }
    let Some(a) = search(&app, pos.clone(), vec![], 20, None, Some(1000)).await else {
        return err(StatusCode::INTERNAL_SERVER_ERROR, "the search failed");
    };
    // Scores from White's point of view for the eval bar.
    let sign = if pos.turn() == Color::White { 1 } else { -1 };
    let score = match a.score {
        Score::Cp(c) => json!({"cp": c * sign}),
        Score::Mate(m) => json!({"mate": m * sign}),
    };
    let mut p = pos.clone();
    let mut pv_san = Vec::new();
    for &m in &a.pv {
        if !p.is_legal(m) {
            break;
        }
        pv_san.push(chimera_rules::san::to_san(&p, m));
        p.play_unchecked(m);
    }
    Json(json!({
        "score": score, "depth": a.depth,
        "best": a.best.map(|m| m.to_string()),
        "pv": a.pv.iter().take(pv_san.len()).map(|m| m.to_string()).collect::<Vec<_>>(),
        "pv_san": pv_san,
    }))
    .into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportReq {
    pgn: String,
}

async fn pgn_import(body: String) -> Response {
    let req: ImportReq = match parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    if req.pgn.len() > 1_000_000 {
        return bad("PGN too long (1 MB at most)");
    }
    let Some(first) = pgn::read_pgn(&req.pgn).into_iter().next() else {
        return bad("no game found in the PGN");
    };
    let g = match first {
        Ok(g) => g,
        Err(e) => return bad(e.to_string()),
    };
    match g.replay() {
        Ok((start, moves)) => Json(json!({
            "variant": start.variant().id(),
            "ring_powers": g.rule_options().map(|o| o.ring_powers.to_string()).unwrap_or_default(),
            "fen": start.fen(),
            "moves": moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "tags": g.tags.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
            "result": g.result,
        }))
        .into_response(),
        Err(e) => bad(e.to_string()),
    }
}

#[derive(Deserialize)]
struct WsQuery {
    token: Option<String>,
}

async fn ws_upgrade(
    ws: WebSocketUpgrade,
    State(app): State<App>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
) -> Response {
    let h = match app.game(&id).await {
        Ok(Some(h)) => h,
        Ok(None) => return err(StatusCode::NOT_FOUND, format!("no game '{id}'")),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    ws.max_message_size(16 * 1024).on_upgrade(move |socket| client(app, h, socket, q.token))
}

/// A message from a client.
#[derive(Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMsg {
    Move {
        uci: String,
        #[serde(default)]
        ply: Option<usize>,
    },
    Resign,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Takeback,
    /// Asks the server to check the clock of the side to move.
    Flag,
    Ping,
}

async fn send(socket: &mut WebSocket, text: &str) -> bool {
    socket.send(Message::Text(text.into())).await.is_ok()
}

async fn client(app: App, h: std::sync::Arc<crate::GameHandle>, mut socket: WebSocket, token: Option<String>) {
    let mut rx = h.tx.subscribe();
    let (hello, state) = {
        let l = h.live.lock().await;
        let seats: Vec<&str> = l.seats_of(token.as_deref()).into_iter().map(live::color_char).collect();
        (json!({"t": "hello", "you": seats}).to_string(), l.view().to_string())
    };
    if !send(&mut socket, &hello).await || !send(&mut socket, &state).await {
        return;
    }
    loop {
        tokio::select! {
            msg = socket.recv() => {
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Binary(_))) => {
                        if !send(&mut socket, &json!({"t": "error", "message": "binary messages are not understood: send JSON text"}).to_string()).await { return; }
                        continue;
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => continue,
                };
                let reply = handle_msg(&app, &h, token.as_deref(), &text).await;
                if let Some(r) = reply {
                    if !send(&mut socket, &r).await { return; }
                }
            }
            b = rx.recv() => {
                match b {
                    Ok(s) => if !send(&mut socket, &s).await { return; },
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        let s = h.live.lock().await.view().to_string();
                        if !send(&mut socket, &s).await { return; }
                    }
                    Err(_) => return,
                }
            }
        }
    }
}

/// Handles one client message; returns a direct reply (errors, pong).
/// Changes are broadcast to every client of the game, the sender included.
async fn handle_msg(
    app: &App,
    h: &std::sync::Arc<crate::GameHandle>,
    token: Option<&str>,
    text: &str,
) -> Option<String> {
    let msg: ClientMsg = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => return Some(json!({"t": "error", "message": format!("malformed message: {e}")}).to_string()),
    };
    let seats = h.live.lock().await.seats_of(token);
    let actor = Actor::Seats(seats);
    let r = match msg {
        ClientMsg::Ping => return Some(json!({"t": "pong"}).to_string()),
        ClientMsg::Move { uci, ply } => {
            change(app, h, |l| {
                let keep = l.game.moves().len();
                l.play(&actor, &uci, ply).map(|_| keep)
            })
            .await
        }
        ClientMsg::Resign => change(app, h, |l| l.resign(&actor).map(|_| l.game.moves().len())).await,
        ClientMsg::DrawOffer => change(app, h, |l| l.offer_draw(&actor).map(|_| l.game.moves().len())).await,
        ClientMsg::DrawAccept => change(app, h, |l| l.accept_draw(&actor).map(|_| l.game.moves().len())).await,
        ClientMsg::DrawDecline => change(app, h, |l| l.decline_draw(&actor).map(|_| l.game.moves().len())).await,
        ClientMsg::Takeback => change(app, h, |l| l.takeback(&actor)).await,
        ClientMsg::Flag => {
            let r = change(app, h, |l| {
                let keep = l.game.moves().len();
                if l.check_flag() {
                    Ok(keep)
                } else {
                    Err("no clock has run out".into())
                }
            })
            .await;
            return r.err().map(|e| json!({"t": "error", "message": e}).to_string());
        }
    };
    r.err().map(|e| json!({"t": "error", "message": e}).to_string())
}
