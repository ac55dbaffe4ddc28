//! HTTP routes, the WebSocket protocol and the embedded assets.

use crate::live::{self, Actor, JoinError, Live, Meta, Mode};
use crate::net::{self, error as err, SocketKind, SocketSlot};
use crate::pool::{self, Admission, PoolError, SearchJob, StopOnDrop};
use crate::{change, color_name, random_hex, App, GameHandle, LEVELS};
use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chimera_engine::Score;
use chimera_rules::pgn;
use chimera_rules::{AnyPosition, Color, Position, RuleOptions, Variant};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

#[derive(rust_embed::Embed)]
#[folder = "assets/"]
pub(crate) struct Assets;

/// The routes with their layers, outermost first: JSON errors, then the
/// Host/Origin guard, the request timeout (the whole request, body
/// included: every handler reads its body first), the body limit. (Game
/// creation's per-client limit is `AppState::admit_game`, which rematches
/// pass too.)
pub fn router(app: App) -> Router {
    crate::i18n::check();
    let cfg = &app.config;
    let small = Router::new()
        .route("/", get(|| async { page("index.html") }))
        .route("/game/{id}", get(game_page))
        // The service worker of Web Push, at the root: its scope is the site.
        .route("/sw.js", get(|| async { asset_response("sw.js") }))
        .route("/favicon.svg", get(|| async { asset_response("favicon.svg") }))
        .route("/favicon.ico", get(|| async { asset_response("favicon.svg") }))
        // Installable: the web app manifest, and the page the service
        // worker keeps for when the network is gone.
        .route("/manifest.webmanifest", get(|| async { asset_response("manifest.webmanifest") }))
        .route("/offline", get(|| async { page("offline.html") }))
        .route("/analysis", get(|| async { page("analysis.html") }))
        .route("/login", get(|| async { page("login.html") }))
        .route("/account", get(|| async { page("account.html") }))
        .route("/players", get(|| async { page("players.html") }))
        .route("/players/{variant}", get(|| async { page("players.html") }))
        .route("/@/{name}", get(|| async { page("profile.html") }))
        .route("/rules", get(|| async { page("rules.html") }))
        .route("/rules/{variant}", get(rules_page))
        .route("/docs/", get(crate::docs::index))
        .route("/docs/{*path}", get(crate::docs::page))
        .route("/assets/{*path}", get(asset))
        .route("/api/meta", get(meta))
        .route("/api/rules/{variant}", get(rules_glance))
        .route("/api/health", get(health))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/join", post(join_game))
        .route("/api/games/{id}/cancel", post(cancel_seek))
        .route("/api/seeks", get(list_seeks))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/position", post(position))
        .route("/api/games/{id}/review", get(get_review).post(post_review))
        .route("/api/analyse", post(analyse))
        .route("/api/analyse/stream", post(analyse_stream))
        .route("/ws/{id}", get(ws_upgrade))
        .merge(crate::accounts::routes())
        .merge(crate::ratings::routes())
        .merge(crate::notify::routes())
        .merge(crate::challenges::routes())
        .merge(crate::pairing::routes())
        .merge(crate::webpush::routes())
        .merge(crate::tokens::routes())
        .merge(crate::botapi::routes())
        .merge(crate::explorer::routes())
        .merge(crate::learn::routes())
        .merge(crate::puzzles::routes());
    // The balance lab's pages (cargo feature `lab`, on by default).
    #[cfg(feature = "lab")]
    let small = small.merge(crate::lab::routes());
    let small = small.layer(RequestBodyLimitLayer::new(cfg.max_body));
    let big = Router::new()
        .route("/api/pgn/import", post(pgn_import))
        .route("/api/pgn/tree", post(crate::tree::pgn_tree))
        .merge(crate::workers::routes())
        .layer(RequestBodyLimitLayer::new(cfg.max_pgn_body));
    small
        .merge(big)
        .fallback(not_found)
        .method_not_allowed_fallback(|| async {
            err(StatusCode::METHOD_NOT_ALLOWED, "this path does not take that method")
        })
        // tower-http's limit replaces axum's default one.
        .layer(DefaultBodyLimit::disable())
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, cfg.request_timeout))
        .layer(axum::middleware::from_fn_with_state(app.clone(), net::guard))
        .layer(axum::middleware::from_fn(net::json_errors))
        // Pages in the reader's language (crate::i18n).
        .layer(axum::middleware::from_fn(crate::i18n::middleware))
        .layer(axum::middleware::from_fn(net::security_headers))
        // Outermost: what is compressed is the finished response.
        .layer(compression())
        .with_state(app)
}

/// gzip or Brotli for a client that accepts them (pages, scripts, style
/// sheets, JSON), as tower-http's default predicate chooses (not images,
/// not tiny bodies), except the NDJSON streams (a compressor holds back
/// the lines that must reach the client as they come) and WebSocket
/// upgrades.
fn compression() -> CompressionLayer<impl Predicate> {
    let not_upgrade = |status: StatusCode, _: axum::http::Version, _: &HeaderMap, _: &axum::http::Extensions| {
        status != StatusCode::SWITCHING_PROTOCOLS
    };
    CompressionLayer::new()
        .compress_when(DefaultPredicate::new().and(NotForContentType::new("application/x-ndjson")).and(not_upgrade))
}

pub(crate) fn page(name: &str) -> Response {
    asset_response(name)
}

/// The `<head>` elements after the title that every page of the site has
/// (the static pages in assets/ write the same by hand): the description
/// for search engines and link previews (Open Graph), the icon and the
/// site's style sheet. Pages the server writes (docs, lab) take it from
/// here; `title` and `description` are plain text.
pub(crate) fn head_meta(title: &str, description: &str) -> String {
    let (t, d) = (attr(title), attr(description));
    format!(
        "<meta name=\"description\" content=\"{d}\">\n<meta property=\"og:type\" content=\"website\"><meta property=\"og:site_name\" content=\"Chimera\">\n\
         <meta property=\"og:title\" content=\"{t}\"><meta property=\"og:description\" content=\"{d}\">\n\
         <link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\"><link rel=\"manifest\" href=\"/manifest.webmanifest\">\
         <link rel=\"apple-touch-icon\" href=\"/assets/icons/icon-192.png\"><link rel=\"stylesheet\" href=\"/assets/style.css\">\n\
         <meta name=\"theme-color\" content=\"#161512\"><script src=\"/assets/theme.js\"></script>"
    )
}

/// Text made safe for an HTML attribute (or element) value.
pub(crate) fn attr(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A game's page; a game that does not exist gets a page saying so, with
/// a 404 (not an empty board that waits for it forever).
async fn game_page(State(app): State<App>, Path(id): Path<String>) -> Response {
    match app.game(&id).await {
        Ok(Some(h)) => {
            // The variant's state lines (Clown's and Magic Ring's are
            // three) get their room before the script writes them, so the
            // page does not move when they come.
            let lines = {
                use chimera_rules::Describe;
                h.live.lock().await.game.position().state_lines().len().clamp(1, 4)
            };
            let html = Assets::get("game.html").expect("game.html is an asset").data;
            let html = String::from_utf8_lossy(&html).replacen(
                r#"<div class="vstate" id="vstate">"#,
                &format!(r#"<div class="vstate lines-{lines}" id="vstate">"#),
                1,
            );
            ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], html)
                .into_response()
        }
        Ok(None) => {
            let mut r = page("nogame.html");
            *r.status_mut() = StatusCode::NOT_FOUND;
            r
        }
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// A path nothing answers: the API's (and the WebSockets') get a JSON
/// error, any other path is a page a browser went to and gets the site's
/// "page not found" page, with a 404 and a link home.
async fn not_found(uri: axum::http::Uri) -> Response {
    let p = uri.path();
    if p == "/api" || p.starts_with("/api/") || p == "/ws" || p.starts_with("/ws/") {
        err(StatusCode::NOT_FOUND, "no such page or API path")
    } else {
        not_found_page()
    }
}

/// The site's "page not found" page, with a 404.
pub(crate) fn not_found_page() -> Response {
    let mut r = page("notfound.html");
    *r.status_mut() = StatusCode::NOT_FOUND;
    r
}

/// A variant's rules page; a variant that does not exist is a missing page.
async fn rules_page(Path(id): Path<String>) -> Response {
    match Variant::from_str(&id) {
        Ok(_) => page("rules.html"),
        Err(_) => not_found_page(),
    }
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
                Some("png") => "image/png",
                Some("webmanifest") => "application/manifest+json",
                _ => "application/octet-stream",
            };
            ([(header::CONTENT_TYPE, mime), (header::CACHE_CONTROL, "no-cache")], f.data.into_owned()).into_response()
        }
        None => err(StatusCode::NOT_FOUND, format!("no such file: {path}")),
    }
}

pub(crate) fn bad(message: impl Into<String>) -> Response {
    err(StatusCode::BAD_REQUEST, message)
}

/// JSON body parsing with an error reply naming the problem (bad UTF-8
/// included: serde_json reads bytes). See [`json_object`].
pub(crate) fn parse_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, Box<Response>> {
    json_object(body).map_err(|e| Box::new(bad(format!("malformed request: {e}"))))
}

/// Reads a JSON object into `T`: every request body and every WebSocket
/// message goes through here. serde's derived structs (and internally
/// tagged enums) also accept a JSON array, its elements taken as the fields
/// in order, which would pass by `deny_unknown_fields` (`[]`, `["<invite>",
/// "Eve"]`): the text must be an object, and nested structs take
/// [`opt_object`]. The struct is read from the text itself, not from a
/// parsed `Value`, so that a field given twice is refused (a `Value` keeps
/// the last of two equal keys without a word).
pub(crate) fn json_object<T: serde::de::DeserializeOwned>(text: &[u8]) -> Result<T, String> {
    if text.iter().find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r')) != Some(&b'{') {
        let v: Value = serde_json::from_slice(text).map_err(|e| e.to_string())?;
        return Err(format!("expected a JSON object {{...}}, not {}", json_kind(&v)));
    }
    serde_json::from_slice(text).map_err(|e| e.to_string())
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// An optional nested struct field that must be a JSON object (not an
/// array), `null` or absent (`None`):
/// `#[serde(default, deserialize_with = "opt_object")]`.
pub(crate) fn opt_object<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    match Option::<Value>::deserialize(d)? {
        None | Some(Value::Null) => Ok(None),
        Some(v @ Value::Object(_)) => serde_json::from_value(v).map(Some).map_err(serde::de::Error::custom),
        Some(v) => Err(serde::de::Error::custom(format!("expected a JSON object {{...}}, not {}", json_kind(&v)))),
    }
}

/// The answer to a pooled job that did not run.
pub(crate) fn pool_error(e: PoolError) -> Response {
    match e {
        PoolError::Busy => {
            let mut r =
                err(StatusCode::SERVICE_UNAVAILABLE, "the server is busy with other work; try again in a few seconds");
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            r
        }
        PoolError::Stopped => err(StatusCode::SERVICE_UNAVAILABLE, "the work was stopped"),
        PoolError::Failed => err(StatusCode::INTERNAL_SERVER_ERROR, "the work failed"),
    }
}

/// Counters for operators and the fault suite: games in memory, open
/// connections, the engine and CPU pools.
/// For people and load balancers: 200 while the store answers (a trivial
/// query, 2 s at most), 503 when it does not, so a balancer stops sending
/// players to an instance that cannot store their moves.
async fn health(State(app): State<App>) -> Response {
    let probe = tokio::time::timeout(Duration::from_secs(2), sqlx::query("SELECT 1").fetch_one(&app.db)).await;
    let store_ok = matches!(probe, Ok(Ok(_)));
    let backend = chimera_store::backend(&app.db).as_str();
    let body = Json(json!({
        "instance": app.instance,
        "store": backend,
        "store_ok": store_ok,
        "live_games": app.live_games().await,
        "connections": app.conns.counts().0,
        "sockets": app.sockets.counts(),
        "engine": app.engine.stats(),
        "cpu": app.cpu.stats(),
    }));
    if store_ok {
        body.into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, body).into_response()
    }
}

/// `GET /api/meta`: the variants as each one's own module describes itself
/// (`chimera_rules::VariantInfo`: names, rules page, the pieces beside the
/// board, the rule options with their defaults) and the engine levels.
/// `GET /api/meta`: the variants (their descriptors) and the engine levels.
/// A variant's summary and its options' words are the reader's language's
/// where the catalogs have them (`crate::i18n::variant_words`), else the
/// rules crate's English.
async fn meta(headers: HeaderMap) -> Response {
    let lang = crate::i18n::pick(&headers);
    let variants: Vec<Value> = Variant::ALL
        .iter()
        .map(|v| {
            let i = v.info();
            let said = |key: String, english: &'static str| crate::i18n::text(lang, &key).unwrap_or(english);
            json!({
                "id": i.id,
                "name": i.name,
                "summary": said(crate::i18n::summary_key(i.id), i.summary),
                "rules_page": i.rules_page,
                "rules": format!("/docs/rules/{}.md", i.rules_page),
                "pocket": i.pocket,
                "pocket_note": i.pocket_note,
                "options": i.options.iter().map(|o| json!({
                    "key": o.key,
                    "label": said(crate::i18n::option_key(o.key, false), o.label),
                    "help": said(crate::i18n::option_key(o.key, true), o.help),
                    "default": o.default, "pattern": o.pattern,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let levels: Vec<Value> = LEVELS.iter().map(|l| json!({"level": l.level, "words": l.words})).collect();
    let mut r = Json(json!({"variants": variants, "levels": levels})).into_response();
    r.headers_mut().insert(header::VARY, HeaderValue::from_static("Accept-Language, Cookie"));
    r
}

/// `GET /api/rules/{variant}`: the variant's rules at a glance, from the
/// section "At a glance" of its page in `docs/rules/`: `{id, name, html,
/// diagrams: [{fen, caption, moves, gallery}]}`; 404 for an unknown variant.
async fn rules_glance(Path(id): Path<String>) -> Response {
    let variant = match Variant::from_str(&id) {
        Ok(v) => v,
        Err(e) => return err(StatusCode::NOT_FOUND, e.to_string()),
    };
    match crate::docs::glance(variant.rules_page()) {
        Some((html, diagrams)) => {
            Json(json!({"id": variant.id(), "name": variant.name(), "html": html, "diagrams": diagrams}))
                .into_response()
        }
        None => err(StatusCode::NOT_FOUND, format!("{} has no rules summary", variant.id())),
    }
}

async fn list_games(State(app): State<App>) -> Response {
    match crate::store::list_games(&app.db).await {
        Ok(g) => Json(g).into_response(),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClockReq {
    minutes: f64,
    increment: f64,
}

impl ClockReq {
    pub(crate) fn new(minutes: f64, increment: f64) -> ClockReq {
        ClockReq { minutes, increment }
    }
}

/// A clock's initial time in minutes as lichess shows it (`5`, `0.5`).
pub(crate) fn minutes_text(ms: i64) -> String {
    let m = ms as f64 / 60_000.0;
    if m.fract() == 0.0 {
        format!("{m}")
    } else {
        format!("{}", (m * 100.0).round() / 100.0)
    }
}

/// A request's time control: a clock of minutes (see [`clock_bounds`]),
/// days per move (a correspondence game: its clock is the allowance), or
/// neither. Returns the clock (initial, increment) in ms.
pub(crate) fn time_control(clock: Option<ClockReq>, days: Option<u8>) -> Result<Option<(i64, i64)>, String> {
    match (clock, days) {
        (Some(_), Some(_)) => Err("a game has a clock or days per move, not both".into()),
        (Some(c), None) => clock_bounds(c).map(Some),
        (None, Some(d)) if !live::CORRESPONDENCE_DAYS.contains(&d) => {
            Err(format!("days per move are one of {:?}, not {d}", live::CORRESPONDENCE_DAYS))
        }
        (None, Some(d)) => Ok(Some((i64::from(d) * live::DAY_MS, 0))),
        (None, None) => Ok(None),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    variant: String,
    /// The variant's rule options by key (`{"ring_powers": "NQ"}`); an
    /// option left out or empty keeps its default.
    #[serde(default)]
    options: Option<BTreeMap<String, String>>,
    mode: String,
    #[serde(default)]
    level: Option<u8>,
    /// "white", "black" or "random": the creator's colour.
    #[serde(default)]
    color: Option<String>,
    #[serde(default, deserialize_with = "opt_object")]
    clock: Option<ClockReq>,
    #[serde(default)]
    fen: Option<String>,
    /// The creator's name (shown, never an identity).
    #[serde(default)]
    name: Option<String>,
    /// A rated game (an open seek or a friend game between two accounts).
    #[serde(default)]
    rated: bool,
    /// An open seek's rating range, `[lowest, highest]`: only an account
    /// rated within it in the variant may join.
    #[serde(default)]
    rating_range: Option<(i64, i64)>,
    /// A correspondence game: days per move (1, 2, 3, 5, 7 or 14), instead
    /// of a clock.
    #[serde(default)]
    days: Option<u8>,
}

/// Open correspondence seeks an account may have at once (they stay until
/// taken or cancelled).
const MAX_LASTING_SEEKS: i64 = 10;

/// The ratings a seek's range may name.
const RATING_RANGE_BOUNDS: std::ops::RangeInclusive<i64> = 400..=4000;

/// A clock of whole seconds: 15 s to 180 min, increment 0 to 180 s.
/// Returns (initial, increment) in ms.
fn clock_bounds(c: ClockReq) -> Result<(i64, i64), String> {
    let secs = c.minutes * 60.0;
    if !(15.0..=10_800.0).contains(&secs) || secs.fract() != 0.0 {
        return Err(format!(
            "clock minutes must give a whole number of seconds from 15 s to 180 min (0.25 to 180), not {}",
            c.minutes
        ));
    }
    if !(0.0..=180.0).contains(&c.increment) || c.increment.fract() != 0.0 {
        return Err(format!("clock increment must be a whole number of seconds from 0 to 180, not {}", c.increment));
    }
    Ok((secs as i64 * 1000, c.increment as i64 * 1000))
}

/// A request's rule options, each checked against the variant's schema:
/// an option the variant does not have is refused, an empty value keeps
/// the default.
pub(crate) fn rule_options(variant: Variant, given: Option<&BTreeMap<String, String>>) -> Result<RuleOptions, String> {
    let mut opts = RuleOptions::default();
    for (key, value) in given.into_iter().flatten() {
        let Some(spec) = variant.info().options.iter().find(|o| o.key == key) else {
            let known: Vec<&str> = variant.info().options.iter().map(|o| o.key).collect();
            return Err(format!(
                "{} has no rule option '{}' ({})",
                variant.id(),
                key.chars().take(40).collect::<String>(),
                if known.is_empty() { "it has none".to_string() } else { format!("its options: {}", known.join(", ")) }
            ));
        };
        if !value.trim().is_empty() {
            (spec.set)(&mut opts, value).map_err(|e| format!("{}: {e}", spec.key))?;
        }
    }
    Ok(opts)
}

/// The answer to a refused new game (`AppState::admit_game`).
fn refused(r: crate::Refused) -> Response {
    let code = StatusCode::from_u16(r.status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
    too_many(code, r.message, r.retry_after)
}

/// An error with `Retry-After` when `retry_after` is given.
pub(crate) fn too_many(code: StatusCode, message: impl Into<String>, retry_after: Option<u64>) -> Response {
    let mut resp = err(code, message);
    if let Some(v) = retry_after.and_then(|s| HeaderValue::from_str(&s.to_string()).ok()) {
        resp.headers_mut().insert(header::RETRY_AFTER, v);
    }
    resp
}

async fn create_game(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let req: CreateReq = match parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    // A logged-in creator's seat belongs to the account.
    let account = match crate::accounts::current(&app, &headers).await {
        Ok(a) => a.map(|a| a.id),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    if let Err(r) = crate::tokens::refuse_bot(&app, account.as_deref()).await {
        return r;
    }
    let variant = match Variant::from_str(&req.variant) {
        Ok(v) => v,
        Err(e) => return bad(e.to_string()),
    };
    let opts = match rule_options(variant, req.options.as_ref()) {
        Ok(o) => o,
        Err(e) => return bad(e),
    };
    let Some(mode) = Mode::parse(&req.mode) else {
        return bad(format!("unknown opponent '{}': expected engine, friend, seek or hotseat", req.mode));
    };
    let level = match (mode, req.level) {
        (Mode::Engine, Some(l)) if crate::Level::new(l).is_some() => Some(l),
        (Mode::Engine, None) => Some(crate::Level::DEFAULT.number()),
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
    let name = match live::check_name(req.name.as_deref()) {
        Ok(n) => n,
        Err(e) => return bad(e),
    };
    if mode == Mode::Hotseat && name.is_some() {
        return bad(
            "a name is given for a game with a seat of your own, not for hot-seat (both seats are this device's)",
        );
    }
    let clock = match time_control(req.clock, req.days) {
        Ok(c) => c,
        Err(e) => return bad(e),
    };
    if req.days.is_some() {
        if !matches!(mode, Mode::Seek | Mode::Friend) {
            return bad("correspondence games are between two people (an open seek, a friend game)");
        }
        if account.is_none() {
            return err(StatusCode::UNAUTHORIZED, "log in to play correspondence: a game of days needs your account");
        }
    }
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
    let invite = (mode == Mode::Friend).then(|| random_hex(16));
    let (white_token, black_token, engine_color) = match mode {
        Mode::Hotseat => (Some(token.clone()), Some(token.clone()), None),
        Mode::Engine => {
            if color == Color::White {
                (Some(token.clone()), None, Some(Color::Black))
            } else {
                (None, Some(token.clone()), Some(Color::White))
            }
        }
        Mode::Friend | Mode::Seek => {
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
        opts,
        start_fen: start.fen(),
        mode,
        engine_level: level,
        engine_color,
        clock,
        created_at: live::now_ms(),
        rated: req.rated,
        rating_range: req.rating_range,
        days: req.days,
    };
    if let Some((lo, hi)) = req.rating_range {
        if mode != Mode::Seek {
            return bad("a rating range is given only for an open seek");
        }
        if account.is_none() {
            return err(StatusCode::UNAUTHORIZED, "log in to give your seek a rating range");
        }
        if !(RATING_RANGE_BOUNDS.contains(&lo) && RATING_RANGE_BOUNDS.contains(&hi) && lo <= hi) {
            return bad(format!(
                "a rating range is two ratings from {} to {}, the lower first, not {lo} to {hi}",
                RATING_RANGE_BOUNDS.start(),
                RATING_RANGE_BOUNDS.end()
            ));
        }
    }
    if req.rated {
        if !matches!(mode, Mode::Seek | Mode::Friend) {
            return bad("only games between two people (an open seek, a friend game) are rated");
        }
        if account.is_none() {
            return err(StatusCode::UNAUTHORIZED, "log in to create a rated game");
        }
        if let Err(e) = crate::ratings::ratable(variant, &meta.opts, &meta.start_fen) {
            return bad(e);
        }
    }
    if let (Some(_), Mode::Seek, Some(acc)) = (req.days, mode, &account) {
        match crate::store::lasting_seeks_of(&app.db, acc).await {
            Ok(n) if n >= MAX_LASTING_SEEKS => {
                return err(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!("you have {n} open correspondence seeks: cancel one before making another"),
                )
            }
            Ok(_) => {}
            Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        }
    }
    if let Err(r) = app.admit_game(peer.ip(), mode == Mode::Engine).await {
        return refused(r);
    }
    let mut live = Live::new(meta, start, white_token, black_token, invite.clone());
    // The creator's seats (both in hot-seat, none of the engine's).
    if live.white_token.is_some() {
        live.white_account = account.clone();
    }
    if live.black_token.is_some() {
        live.black_account = account;
    }
    if color == Color::White {
        live.white_name = name;
    } else {
        live.black_name = name;
    }
    if let Err(e) = crate::ratings::seat_players(&app.db, &mut live).await {
        return err(StatusCode::INTERNAL_SERVER_ERROR, format!("could not read your rating: {e}"));
    }
    live.owner = Some(app.instance.clone());
    if let Err(e) = crate::store::insert_game(&app.db, &live).await {
        return err(StatusCode::INTERNAL_SERVER_ERROR, format!("could not store the game: {e}"));
    }
    let id = live.meta.id.clone();
    let h = match app.insert(live).await {
        Ok(h) => h,
        Err(e) => return err(StatusCode::SERVICE_UNAVAILABLE, e),
    };
    if mode == Mode::Seek {
        // The creator's page must open within the grace period.
        crate::arm_seek_timer(&app, &h, id.clone());
    }
    let colors: Vec<&str> = if mode == Mode::Hotseat { vec!["white", "black"] } else { vec![color_name(color)] };
    let mut r = json!({"id": id, "token": token, "colors": colors, "url": format!("/game/{id}")});
    if let Some(i) = invite {
        r["invite"] = json!(i);
        r["invite_url"] = json!(format!("/game/{id}#invite={i}"));
    }
    Json(r).into_response()
}

/// A game's whole state. Its history is serialised once per stored version
/// (`GameHandle::state`), so repeated requests for a long game cost a copy.
/// While no clock runs the state changes only with the version, and the
/// answer carries an `ETag`: a client that sends it back in
/// `If-None-Match` gets `304 Not Modified` and no body.
async fn get_game(State(app): State<App>, Path(id): Path<String>, headers: axum::http::HeaderMap) -> Response {
    let h = match live_game(&app, &id).await {
        Ok(h) => h,
        Err(r) => return *r,
    };
    let (body, etag) = h.state().await;
    let etag = etag.and_then(|e| HeaderValue::from_str(&e).ok());
    if let Some(tag) = &etag {
        let matches = headers.get_all(header::IF_NONE_MATCH).iter().filter_map(|v| v.to_str().ok()).any(|v| {
            v.split(',').map(str::trim).any(|t| t == "*" || t.trim_start_matches("W/") == tag.to_str().unwrap_or(""))
        });
        if matches {
            return (StatusCode::NOT_MODIFIED, [(header::ETAG, tag.clone())]).into_response();
        }
    }
    let mut r = ([(header::CONTENT_TYPE, "application/json")], body).into_response();
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Some(tag) = etag {
        r.headers_mut().insert(header::ETAG, tag);
    }
    r
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinReq {
    /// The secret of the invite link (friend games; none for open seeks).
    #[serde(default)]
    invite: Option<String>,
    /// The joiner's name (shown, never an identity).
    #[serde(default)]
    name: Option<String>,
}

/// The live game `id`, or the answer to give: 404 for no such game, 500
/// when the store fails.
async fn live_game(app: &App, id: &str) -> Result<Arc<GameHandle>, Box<Response>> {
    match app.game(id).await {
        Ok(Some(h)) => Ok(h),
        Ok(None) => Err(Box::new(err(StatusCode::NOT_FOUND, format!("no game '{id}'")))),
        Err(e) => Err(Box::new(err(StatusCode::INTERNAL_SERVER_ERROR, e))),
    }
}

/// A join or cancel that checks a secret, refused while the client's
/// address is over the limit of failed ones (`FailedJoins`): before the
/// secret is compared.
fn guesses_left(app: &App, client: IpAddr) -> Result<(), Box<Response>> {
    app.failed_joins.check(client).map_err(|wait| {
        Box::new(too_many(
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many failed joins from your address: wait {wait} s"),
            Some(wait),
        ))
    })
}

async fn join_game(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let req: JoinReq = match parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    // A logged-in joiner's seat belongs to the account.
    let account = match crate::accounts::current(&app, &headers).await {
        Ok(a) => a.map(|a| a.id),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    if let Err(r) = crate::tokens::refuse_bot(&app, account.as_deref()).await {
        return r;
    }
    let h = match live_game(&app, &id).await {
        Ok(h) => h,
        Err(r) => return *r,
    };
    let name = match live::check_name(req.name.as_deref()) {
        Ok(n) => n,
        Err(e) => return bad(e),
    };
    // The joiner's account, with its rating in the variant now.
    let player = match &account {
        Some(acc) => match crate::ratings::player(&app.db, acc, h.live.lock().await.meta.variant.id()).await {
            Ok(p) => p.map(|p| (acc.clone(), p)),
            Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, format!("could not read your rating: {e}")),
        },
        None => None,
    };
    {
        // A rated game is between two accounts, never one account twice.
        let l = h.live.lock().await;
        if l.meta.rated {
            let Some(me) = account.as_deref() else {
                return err(StatusCode::UNAUTHORIZED, "log in to play a rated game");
            };
            if l.white_account.as_deref() == Some(me) || l.black_account.as_deref() == Some(me) {
                return err(
                    StatusCode::CONFLICT,
                    "you hold the other seat of this rated game: it needs another player",
                );
            }
        }
        if l.meta.days.is_some() && account.is_none() {
            return err(StatusCode::UNAUTHORIZED, "log in to play correspondence: a game of days needs your account");
        }
        if let Some((lo, hi)) = l.meta.rating_range {
            let Some((_, p)) = &player else {
                return err(
                    StatusCode::UNAUTHORIZED,
                    format!("this seek is for players rated {lo} to {hi}: log in to join it"),
                );
            };
            if !(lo..=hi).contains(&p.rating) {
                return err(
                    StatusCode::FORBIDDEN,
                    format!(
                        "this seek is for players rated {lo} to {hi} in {}: yours is {}",
                        l.meta.variant.name(),
                        p.shown()
                    ),
                );
            }
        }
    }
    let token = random_hex(16);
    let mode = h.live.lock().await.meta.mode;
    if mode == Mode::Seek {
        if req.invite.is_some() {
            return bad("an open seek takes no invite: anyone may join it");
        }
        return match crate::claim_seek(&app, &h, token.clone(), name, player).await {
            Ok(c) => Json(json!({"id": id, "token": token, "colors": [color_name(c)]})).into_response(),
            Err(JoinError::Forbidden(e)) => err(StatusCode::FORBIDDEN, e),
            Err(JoinError::Conflict(e)) => err(StatusCode::CONFLICT, e),
        };
    }
    let Some(invite) = req.invite else {
        return bad("joining a friend game needs its invite: ask its creator for the invite link");
    };
    if let Err(r) = guesses_left(&app, peer.ip()) {
        return *r;
    }
    let mut outcome = None;
    let t2 = token.clone();
    let r = change(&app, &h, |l| match l.join(&invite, t2.clone(), name.clone(), account.clone()) {
        Ok(c) => {
            l.players[if c == Color::White { 0 } else { 1 }] = player.as_ref().map(|p| p.1.clone());
            outcome = Some(Ok(c));
            Ok(l.game.moves().len())
        }
        Err(e) => {
            outcome = Some(Err(e));
            Err(String::new())
        }
    })
    .await;
    match (r, outcome) {
        (Ok(()), Some(Ok(c))) => Json(json!({"id": id, "token": token, "colors": [color_name(c)]})).into_response(),
        (_, Some(Err(JoinError::Forbidden(e)))) => {
            app.failed_joins.failed(peer.ip());
            err(StatusCode::FORBIDDEN, e)
        }
        (_, Some(Err(JoinError::Conflict(e)))) => err(StatusCode::CONFLICT, e),
        (Err(e), _) => err(StatusCode::INTERNAL_SERVER_ERROR, e),
        _ => err(StatusCode::INTERNAL_SERVER_ERROR, "join failed"),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CancelReq {
    /// The creator's seat token.
    token: String,
}

/// The creator cancels an open seek: it leaves the lobby and the store.
async fn cancel_seek(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let req: CancelReq = match parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    if let Err(r) = guesses_left(&app, peer.ip()) {
        return *r;
    }
    let h = match live_game(&app, &id).await {
        Ok(h) => h,
        Err(r) => return *r,
    };
    {
        let l = h.live.lock().await;
        if l.meta.mode != Mode::Seek {
            return err(StatusCode::CONFLICT, "only an open seek can be cancelled; a game is resigned");
        }
        if l.seats_of(Some(&req.token)).is_empty() {
            app.failed_joins.failed(peer.ip());
            return err(StatusCode::FORBIDDEN, "only the seek's creator may cancel it");
        }
        if !l.is_open_seek() {
            return err(StatusCode::CONFLICT, "someone has joined: the game is on (resign it to end it)");
        }
    }
    drop(h);
    match crate::cancel_seek(&app, &id, crate::store::SeekCancel::Any, "the seek was cancelled by its creator").await {
        Ok(true) => Json(json!({"id": id, "cancelled": true})).into_response(),
        Ok(false) => err(StatusCode::CONFLICT, "someone has joined: the game is on (resign it to end it)"),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// `GET /api/seeks`: the open seeks, people's first, then the house bots'
/// (one in each variant with no person's seek: `bots::seeks`).
async fn list_seeks(State(app): State<App>) -> Response {
    match crate::store::list_seeks(&app.db).await {
        Ok(mut s) => {
            let bots = crate::bots::seeks(&app, &s).await;
            s.extend(bots);
            Json(s).into_response()
        }
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

async fn game_pgn(State(app): State<App>, Path(id): Path<String>) -> Response {
    let h = match live_game(&app, &id).await {
        Ok(h) => h,
        Err(r) => return *r,
    };
    let review = crate::pgn_comments::stored_review(&app, &id).await;
    let text = pgn_of(&*h.live.lock().await, review.as_ref());
    (
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8"),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"chimera.pgn\""),
        ],
        text,
    )
        .into_response()
}

/// A game as PGN: the players' names (or the engine's level), the result
/// and how it ended, from the start position the rules write; each move's
/// `[%eval]` (from `review`) and `[%clk]` comments ([`crate::pgn_comments`]).
pub(crate) fn pgn_of(l: &Live, review: Option<&crate::review::Review>) -> String {
    let who = |c: Color| {
        let name = if c == Color::White { &l.white_name } else { &l.black_name };
        if l.meta.engine_color == Some(c) {
            format!("Chimera level {}", l.meta.engine_level.unwrap_or(4))
        } else {
            name.clone().unwrap_or_else(|| "Player".to_string())
        }
    };
    let mut tags = vec![
        ("Event".to_string(), format!("Chimera {} game", l.meta.mode.as_str())),
        ("Site".to_string(), format!("chimera serve, game {}", l.meta.id)),
        ("White".to_string(), who(Color::White)),
        ("Black".to_string(), who(Color::Black)),
    ];
    // The day the game was created (UTC); unknown (`????.??.??`) without one.
    if l.meta.created_at > 0 {
        tags.push(("Date".to_string(), pgn_date(l.meta.created_at)));
    }
    if let Some(r) = &l.reason {
        tags.push(("Termination".to_string(), r.clone()));
    }
    let clocks: Vec<Option<i64>> = (0..l.game.moves().len()).map(|i| l.ply_clock(i).map(|c| c.0)).collect();
    let comments = crate::pgn_comments::move_comments(review, &clocks);
    pgn::write_pgn_with_comments(&tags, l.game.start(), l.game.moves(), &comments, &l.result)
}

/// A PGN `Date` (`YYYY.MM.DD`, UTC) of a time in ms since 1970.
pub(crate) fn pgn_date(ms: i64) -> String {
    // Days since 1970-01-01 to a civil date: Howard Hinnant's algorithm.
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionReq {
    variant: String,
    #[serde(default)]
    options: Option<BTreeMap<String, String>>,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// A move as a person types it (SAN, tolerantly, or UCI), read in the
    /// position after `moves` by the rules crate: the screen-reader mode's
    /// move field. The answer's `parsed` is `{uci, san}` or `{error}`.
    #[serde(default)]
    parse: Option<String>,
}

/// (uci, SAN, FEN after) of each move replayed.
type Replayed = Vec<(String, String, String)>;

/// The start position and moves of a request, replayed through the rules.
fn replay(req: &PositionReq) -> Result<(AnyPosition, Replayed, AnyPosition), String> {
    let variant = Variant::from_str(&req.variant).map_err(|e| e.to_string())?;
    let opts = rule_options(variant, req.options.as_ref())?;
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

/// A typed move read by the rules crate's SAN reader (which takes UCI too):
/// `{uci, san}` for the one legal move it names, else `{error}` saying why
/// (no such legal move, ambiguous between two, the game is over).
fn parse_typed(pos: &AnyPosition, text: &str) -> Value {
    if text.len() > 40 {
        return json!({"error": "a move is a few characters, not a sentence"});
    }
    if pos.outcome().is_some() {
        return json!({"error": "the game is over: no move can be played"});
    }
    match chimera_rules::san::parse_san(pos, text) {
        Ok(m) => json!({"uci": m.to_string(), "san": chimera_rules::san::to_san(pos, m)}),
        Err(e) => json!({"error": e.reason}),
    }
}

/// Replays a request in the CPU pool (off the async workers).
async fn replay_pooled(
    app: &App,
    req: PositionReq,
) -> Result<Result<(AnyPosition, Replayed, AnyPosition), String>, PoolError> {
    app.cpu.run(Admission::Bounded, Arc::new(AtomicBool::new(false)), move |_| replay(&req)).await
}

async fn position(State(app): State<App>, body: Bytes) -> Response {
    let req: PositionReq = match parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    let guard = StopOnDrop::new();
    let r = app
        .cpu
        .run(Admission::Bounded, guard.flag(), move |_| {
            let (start, moves, pos) = replay(&req)?;
            let mut v = live::position_view(&pos, pos.outcome().is_none());
            let o = v.as_object_mut().expect("object");
            o.insert("start_fen".into(), json!(start.fen()));
            o.insert("start_tags".into(), json!(pgn::start_tags(&start)));
            o.insert(
                "history".into(),
                json!(moves.iter().map(|(u, s, f)| json!({"uci": u, "san": s, "fen": f})).collect::<Vec<_>>()),
            );
            o.insert("outcome".into(), json!(pos.outcome().map(|o| o.to_string())));
            if let Some(text) = &req.parse {
                o.insert("parsed".into(), parse_typed(&pos, text));
            }
            Ok::<Value, String>(v)
        })
        .await;
    match r {
        Ok(Ok(v)) => Json(v).into_response(),
        Ok(Err(e)) => bad(e),
        Err(e) => pool_error(e),
    }
}

/// The position a request's body names (`/api/position`'s body),
/// replayed in the CPU pool; else the answer to give.
async fn position_of(app: &App, body: &[u8]) -> Result<AnyPosition, Box<Response>> {
    let req: PositionReq = parse_body(body)?;
    match replay_pooled(app, req).await {
        Ok(Ok((_, _, pos))) => Ok(pos),
        Ok(Err(e)) => Err(Box::new(bad(e))),
        Err(e) => Err(Box::new(pool_error(e))),
    }
}

/// Analysis: the replay in the CPU pool, then one search in the engine
/// pool. The search stops when this request is dropped (the client went
/// away): `StopOnDrop` sets its flag, and the worker is free again.
async fn analyse(State(app): State<App>, body: Bytes) -> Response {
    let pos = match position_of(&app, &body).await {
        Ok(p) => p,
        Err(r) => return *r,
    };
    if let Some(o) = pos.outcome() {
        return Json(json!({"score": null, "outcome": o.to_string(), "pv": [], "pv_san": []})).into_response();
    }
    let guard = StopOnDrop::new();
    let job =
        SearchJob { pos: pos.clone(), history: vec![], skill: 20, depth: None, movetime_ms: Some(1000), nodes: None };
    let a = match pool::search(&app.engine, Admission::Bounded, guard.flag(), job).await {
        Ok(a) => a,
        Err(e) => return pool_error(e),
    };
    let (pv, pv_san) = legal_pv(&pos, &a.pv);
    Json(json!({
        "score": white_score(&pos, a.score), "depth": a.depth,
        "best": a.best.map(|m| m.to_string()),
        "pv": pv,
        "pv_san": pv_san,
    }))
    .into_response()
}

/// A search's score from White's point of view (the eval bar's), as JSON.
fn white_score(pos: &AnyPosition, score: Score) -> Value {
    let sign = if pos.turn() == Color::White { 1 } else { -1 };
    match score {
        Score::Cp(c) => json!({"cp": c * sign}),
        Score::Mate(m) => json!({"mate": m * sign}),
    }
}

/// An engine line from `pos` as UCI and SAN, up to its first move that is
/// not legal where it stands.
fn legal_pv(pos: &AnyPosition, line: &[chimera_rules::Move]) -> (Vec<String>, Vec<String>) {
    let mut p = pos.clone();
    let (mut pv, mut pv_san) = (Vec::new(), Vec::new());
    for &m in line {
        if !p.is_legal(m) {
            break;
        }
        pv.push(m.to_string());
        pv_san.push(chimera_rules::san::to_san(&p, m));
        p.play_unchecked(m);
    }
    (pv, pv_san)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinesQuery {
    #[serde(default)]
    lines: Option<String>,
}

/// The most lines the analysis board asks for.
pub const MAX_LINES: usize = 5;

/// Analysis that deepens while its client reads it: `POST
/// /api/analyse/stream?lines=N` (1 to 5) with the body of `/api/analyse`
/// answers NDJSON, one object at each depth the search completes:
/// `{"depth": d, "lines": [{"score": {"cp": 31}, "pv": [...], "pv_san":
/// [...]}, ...]}`, the best line first, scores from White's side. One job
/// of the engine pool, refused like `/api/analyse` when its queue is full;
/// it ends after `Config::analysis_time`, or at once when the client goes
/// away (the page leaves the position or closes).
async fn analyse_stream(
    State(app): State<App>,
    q: Result<Query<LinesQuery>, axum::extract::rejection::QueryRejection>,
    body: Bytes,
) -> Response {
    let lines = match q.as_ref().map(|q| q.0.lines.as_deref().unwrap_or("1").parse::<usize>()) {
        Ok(Ok(n)) if (1..=MAX_LINES).contains(&n) => n,
        _ => return bad(format!("lines is a number from 1 to {MAX_LINES}")),
    };
    let pos = match position_of(&app, &body).await {
        Ok(p) => p,
        Err(r) => return *r,
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(8);
    if let Some(o) = pos.outcome() {
        let _ = tx.try_send(crate::botapi::line(&json!({"outcome": o.to_string(), "lines": []})));
        return crate::botapi::ndjson(rx);
    }
    // A full queue is a 503 now, not an error line later.
    if app.engine.is_full() {
        return pool_error(PoolError::Busy);
    }
    let stop = Arc::new(AtomicBool::new(false));
    // The client gone: the search stops at once.
    {
        let (tx, stop) = (tx.clone(), stop.clone());
        tokio::spawn(async move {
            tx.closed().await;
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        });
    }
    let time = app.config.analysis_time;
    let (app2, tx2) = (app.clone(), tx.clone());
    tokio::spawn(async move {
        let tx = tx2.clone();
        let r = app2
            .engine
            .run(Admission::Bounded, stop.clone(), move |flag| deepen(&pos, lines, time, flag, &stop, &tx2))
            .await;
        let why = match r {
            Ok(()) | Err(PoolError::Stopped) => return,
            Err(PoolError::Busy) => "the server is busy with other work; try again in a few seconds",
            Err(PoolError::Failed) => "the work failed",
        };
        let _ = tx.send(crate::botapi::line(&json!({ "error": why }))).await;
    });
    drop(tx);
    crate::botapi::ndjson(rx)
}

/// The search of [`analyse_stream`], on an engine pool thread: a line to
/// `tx` at each completed depth.
fn deepen(
    pos: &AnyPosition,
    lines: usize,
    time: std::time::Duration,
    flag: &AtomicBool,
    stop: &AtomicBool,
    tx: &tokio::sync::mpsc::Sender<Bytes>,
) {
    let lines = lines.min(pos.legal_move_list().len()).max(1);
    let mut engine = chimera_engine::Engine::new(chimera_engine::EngineOptions {
        multi_pv: lines,
        ..chimera_engine::EngineOptions::default()
    });
    let limits = chimera_engine::Limits { movetime: Some(time), ..chimera_engine::Limits::default() };
    // Each line with its rank for the side to move (higher is better): a
    // mate of its own, sooner first; then centipawns; then a mate against
    // it, later first.
    let rank = |sc: Score| match sc {
        Score::Mate(m) if m > 0 => (2, -i64::from(m)),
        Score::Mate(m) => (0, -i64::from(m)),
        Score::Cp(c) => (1, i64::from(c)),
    };
    let mut got: Vec<Option<((i32, i64), Value)>> = vec![None; lines];
    let mut on_info = |i: &chimera_engine::SearchInfo| {
        let k = (i.multipv.max(1) as usize) - 1;
        if k >= lines || i.pv.is_empty() {
            return;
        }
        let (pv, pv_san) = legal_pv(pos, &i.pv);
        got[k] = Some((rank(i.score), json!({"score": white_score(pos, i.score), "pv": pv, "pv_san": pv_san})));
        if k + 1 == lines && got.iter().all(Option::is_some) {
            // The engine may finish a later line with a better score: best
            // first, as the board shows them.
            let mut sorted: Vec<&((i32, i64), Value)> = got.iter().flatten().collect();
            sorted.sort_by_key(|l| std::cmp::Reverse(l.0));
            let v = json!({"depth": i.depth, "lines": sorted.iter().map(|l| &l.1).collect::<Vec<_>>()});
            if tx.blocking_send(crate::botapi::line(&v)).is_err() {
                stop.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
    };
    engine.search(pos, &[], &limits, &chimera_engine::Strength { skill: 20, elo: None }, flag, &mut on_info);
}

/// A stored review's JSON, as it was written.
fn review_json(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// Asks for a game's review at the server's node count
/// (`Config::review_nodes`): 200 with the review when it is stored, else
/// 202 with the job's state (`workers::state`), the job queued for a worker
/// (docs/server.md, "Analysis workers"). Only a finished game is reviewed
/// (409).
async fn post_review(State(app): State<App>, Path(id): Path<String>) -> Response {
    let h = match live_game(&app, &id).await {
        Ok(h) => h,
        Err(r) => return *r,
    };
    if h.live.lock().await.status != live::Status::Finished {
        return err(StatusCode::CONFLICT, "the game is not finished: a review comes after the game");
    }
    if let Err(e) = crate::workers::enqueue(&app, &id, app.config.review_nodes).await {
        return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    }
    get_review(State(app), Path(id)).await
}

/// A game's review at the server's node count: 200 with the stored review,
/// 202 with the state of its job while one is queued or running, 404 when
/// none was asked for.
async fn get_review(State(app): State<App>, Path(id): Path<String>) -> Response {
    let nodes = app.config.review_nodes;
    match crate::store::review(&app.db, &id, nodes).await {
        Ok(Some(text)) => return review_json(text),
        Ok(None) => {}
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
    match crate::workers::state(&app.db, &id, nodes).await {
        Ok(Some(state)) => (StatusCode::ACCEPTED, Json(state)).into_response(),
        // Stored between the two reads.
        Ok(None) => match crate::store::review(&app.db, &id, nodes).await {
            Ok(Some(text)) => review_json(text),
            Ok(None) => err(StatusCode::NOT_FOUND, format!("no review of game '{id}' (POST asks for one)")),
            Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        },
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportReq {
    pgn: String,
}

/// PGN import: parsed and replayed in the CPU pool.
async fn pgn_import(State(app): State<App>, body: Bytes) -> Response {
    let req: ImportReq = match parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    if req.pgn.len() > 1_000_000 {
        return bad("PGN too long (1 MB at most)");
    }
    let guard = StopOnDrop::new();
    let r = app
        .cpu
        .run(Admission::Bounded, guard.flag(), move |_| {
            let Some(first) = pgn::read_pgn(&req.pgn).into_iter().next() else {
                return Err("no game found in the PGN".to_string());
            };
            let g = first.map_err(|e| e.to_string())?;
            let (start, moves) = g.replay().map_err(|e| e.to_string())?;
            Ok(json!({
                "variant": start.variant().id(),
                "options": live::options_json(start.variant(), &chimera_rules::Describe::rule_options(&start)),
                "fen": start.fen(),
                "moves": moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                "tags": g.tags.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
                "result": g.result,
            }))
        })
        .await;
    match r {
        Ok(Ok(v)) => Json(v).into_response(),
        Ok(Err(e)) => bad(e),
        Err(e) => pool_error(e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WsQuery {
    token: Option<String>,
}

/// A game's WebSocket. It takes a place in the seat holders' budget (a
/// valid player token for this game) or in the spectators' (see
/// [`net::Sockets`]); refused before the upgrade when the budget is full.
async fn ws_upgrade(
    ws: WebSocketUpgrade,
    State(app): State<App>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
) -> Response {
    let h = match live_game(&app, &id).await {
        Ok(h) => h,
        Err(r) => return *r,
    };
    let seated = !crate::seats_fresh(&app, &h, q.token.as_deref()).await.is_empty();
    let kind = if seated { SocketKind::Seat } else { SocketKind::Spectator };
    let slot = match app.sockets.take(peer.ip(), kind) {
        Ok(s) => s,
        Err(net::Refusal::PerClient) => {
            let mut r = err(
                StatusCode::TOO_MANY_REQUESTS,
                match kind {
                    SocketKind::Seat => "too many open player sockets from your address",
                    SocketKind::Spectator => "too many spectator sockets from your address",
                },
            );
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            return r;
        }
        Err(net::Refusal::Total) => {
            let mut r =
                err(StatusCode::SERVICE_UNAVAILABLE, "the server has too many open player sockets; try again soon");
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            return r;
        }
    };
    // Small buffers: a socket at rest holds little memory (messages are
    // 16 KiB at most; tungstenite reads in 128 KiB chunks by default).
    ws.max_message_size(16 * 1024)
        .max_frame_size(16 * 1024)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .on_upgrade(move |socket| client(app, h, socket, q.token, peer.ip(), slot))
}

/// A message from a client. Every type takes exactly its fields: an unknown
/// field (`{"t":"resign","confirm":false}`) is refused, never ignored.
#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMsg {
    Move {
        uci: String,
        #[serde(default)]
        ply: Option<usize>,
    },
    Resign {},
    DrawOffer {},
    DrawAccept {},
    DrawDecline {},
    Takeback {},
    /// Asks for a rematch of the finished game (or accepts the opponent's).
    Rematch {},
    /// Declines (or withdraws) the rematch offer.
    RematchDecline {},
    /// Asks the server to check the clock of the side to move.
    Flag {},
    Ping {},
}

pub(crate) async fn send(socket: &mut WebSocket, text: &str) -> bool {
    socket.send(Message::Text(text.into())).await.is_ok()
}

/// Sends a close frame with a code and reason (RFC 6455 7.4), then waits
/// for the peer's close (two seconds at most) before the socket is dropped.
pub(crate) async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let frame = CloseFrame { code, reason: reason.into() };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), async {
        if socket.send(Message::Close(Some(frame))).await.is_err() {
            return;
        }
        while let Some(Ok(m)) = socket.recv().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// Completes a close handshake the client began: tungstenite has queued
/// the answering close frame (the client's code echoed, or 1002 for a code
/// no endpoint may send, such as 999 or 1005, RFC 6455 7.4); reading on
/// sends it and ends at the closed stream (two seconds at most).
pub(crate) async fn finish_close(socket: &mut WebSocket) {
    let _ =
        tokio::time::timeout(Duration::from_secs(2), async { while let Some(Ok(_)) = socket.recv().await {} }).await;
}

/// Close code for a spectator closed after a long silence (its page offers
/// to watch again instead of reconnecting at once).
pub const CLOSE_IDLE: u16 = 4000;

/// The close code and reason for a WebSocket read error.
fn close_for(e: &axum::Error) -> (u16, String) {
    use tungstenite::error::{CapacityError, Error as WsError};
    let inner = e.to_string();
    let src = std::error::Error::source(e).and_then(|s| s.downcast_ref::<WsError>());
    match src {
        Some(WsError::Capacity(CapacityError::MessageTooLong { .. })) => {
            (1009, "message too big: 16 KiB at most".into())
        }
        Some(WsError::Capacity(_)) => (1009, "message too big".into()),
        Some(WsError::Utf8(_)) => (1007, "text message is not valid UTF-8".into()),
        Some(WsError::Protocol(p)) => (1002, format!("protocol error: {p}")),
        _ => (1002, format!("protocol error: {inner}")),
    }
}

async fn client(
    app: App,
    h: std::sync::Arc<crate::GameHandle>,
    mut socket: WebSocket,
    token: Option<String>,
    peer: IpAddr,
    slot: SocketSlot,
) {
    let mut rx = h.tx.subscribe();
    // A page that (re)connects sees every committed move, even one made on
    // another instance a moment ago (a player coming over from an instance
    // that died).
    crate::catch_up(&app, &h).await;
    let seats = crate::seats_fresh(&app, &h, token.as_deref()).await;
    let (hello, state, seated) = {
        let l = h.live.lock().await;
        let seats: Vec<&str> = seats.into_iter().map(live::color_char).collect();
        let seated = !seats.is_empty();
        (json!({"t": "hello", "you": seats}).to_string(), l.view().to_string(), seated)
    };
    // A seated page keeps an open seek in the lobby (see `seat_page`).
    if seated {
        crate::seat_page(&app, &h, true).await;
    }
    client_loop(&app, &h, &mut socket, token, peer, &slot, &mut rx, [hello, state]).await;
    if seated {
        crate::seat_page(&app, &h, false).await;
    }
}

#[allow(clippy::too_many_arguments)]
async fn client_loop(
    app: &App,
    h: &std::sync::Arc<crate::GameHandle>,
    socket: &mut WebSocket,
    token: Option<String>,
    peer: IpAddr,
    slot: &SocketSlot,
    rx: &mut tokio::sync::broadcast::Receiver<Arc<str>>,
    [hello, state]: [String; 2],
) {
    let mut shutdown = app.shutdown.clone();
    if !send(socket, &hello).await || !send(socket, &state).await {
        return;
    }
    let (every, limit) = (app.config.ws_ping, app.config.ws_timeout);
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let mut last_heard = Instant::now();
    // The client's last message (pongs aside): a spectator silent for
    // `spectator_idle` is closed.
    let mut last_message = Instant::now();
    let spectator = slot.kind == SocketKind::Spectator;
    loop {
        tokio::select! {
            msg = socket.recv() => {
                last_heard = Instant::now();
                if matches!(msg, Some(Ok(Message::Text(_) | Message::Binary(_)))) {
                    last_message = last_heard;
                    slot.heard();
                }
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Binary(_))) => {
                        if !send(socket, &json!({"t": "error", "message": "binary messages are not understood: send JSON text"}).to_string()).await { return; }
                        continue;
                    }
                    Some(Ok(Message::Close(_))) => {
                        finish_close(socket).await;
                        return;
                    }
                    None => return,
                    Some(Err(e)) => {
                        let (code, reason) = close_for(&e);
                        close(socket, code, &reason).await;
                        return;
                    }
                    Some(Ok(_)) => continue,
                };
                let reply = handle_msg(app, h, token.as_deref(), peer, &text).await;
                if let Some(r) = reply {
                    if !send(socket, &r).await { return; }
                }
            }
            b = rx.recv() => {
                match b {
                    Ok(s) => if !send(socket, &s).await { return; },
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        // Missed deltas: the whole state instead.
                        let s = h.live.lock().await.view().to_string();
                        if !send(socket, &s).await { return; }
                    }
                    Err(_) => return,
                }
            }
            _ = slot.kick.notified() => {
                close(socket, 1013, "too many spectators: the one silent longest makes room; try again later").await;
                return;
            }
            _ = ping.tick() => {
                if spectator && last_message.elapsed() >= app.config.spectator_idle {
                    let mins = app.config.spectator_idle.as_secs().div_ceil(60);
                    close(socket, CLOSE_IDLE, &format!("idle for {mins} min: watch again to resume")).await;
                    return;
                }
                if last_heard.elapsed() >= limit {
                    close(socket, 1001, &format!("no reply for {} s", limit.as_secs())).await;
                    return;
                }
                if socket.send(Message::Ping(Bytes::from_static(b"chimera"))).await.is_err() {
                    return;
                }
            }
            _ = shutdown.changed() => {
                close(socket, 1001, "the server is shutting down").await;
                return;
            }
        }
    }
}
/// A player's draw offer (or acceptance of the opponent's): against the
/// engine, the session policy answers at once (`Ok(Some(why))`: declined,
/// which is not an error); otherwise the offer stands until answered.
pub(crate) async fn draw_offer(
    app: &App,
    h: &std::sync::Arc<crate::GameHandle>,
    actor: &Actor,
) -> Result<Option<String>, String> {
    let to_engine = {
        let l = h.live.lock().await;
        let seated = matches!(actor, Actor::Seats(s) if !s.is_empty());
        if l.meta.mode == Mode::Engine && l.status == live::Status::Active && seated {
            let eval = *h.engine_eval.lock().unwrap_or_else(|e| e.into_inner());
            let answer = chimera_session::draw_answer(l.game.moves().len(), eval);
            if answer != chimera_session::DrawAnswer::Accept {
                return Ok(Some(answer.message().to_string()));
            }
            Some(answer)
        } else {
            None
        }
    };
    match to_engine {
        Some(answer) => change(app, h, |l| l.offer_draw_to_engine(actor, answer).map(|_| l.game.moves().len())).await,
        None => change(app, h, |l| l.offer_draw(actor).map(|_| l.game.moves().len())).await,
    }
    .map(|_| None)
}

/// Handles one client message; returns a direct reply (errors, pong).
/// Changes are broadcast to every client of the game, the sender included.
async fn handle_msg(
    app: &App,
    h: &std::sync::Arc<crate::GameHandle>,
    token: Option<&str>,
    peer: IpAddr,
    text: &str,
) -> Option<String> {
    let msg: ClientMsg = match json_object(text.as_bytes()) {
        Ok(m) => m,
        Err(e) => return Some(json!({"t": "error", "message": format!("malformed message: {e}")}).to_string()),
    };
    let seats = crate::seats_fresh(app, h, token).await;
    let actor = Actor::Seats(seats);
    let r = match msg {
        ClientMsg::Ping {} => return Some(json!({"t": "pong"}).to_string()),
        ClientMsg::Move { uci, ply } => {
            change(app, h, |l| {
                let keep = l.game.moves().len();
                l.play(&actor, &uci, ply).map(|_| keep)
            })
            .await
        }
        ClientMsg::Resign {} => change(app, h, |l| l.resign(&actor).map(|_| l.game.moves().len())).await,
        ClientMsg::DrawOffer {} => match draw_offer(app, h, &actor).await {
            Ok(Some(declined)) => return Some(json!({"t": "notice", "message": declined}).to_string()),
            Ok(None) => Ok(()),
            Err(e) => Err(e),
        },
        ClientMsg::Rematch {} => crate::rematch(app, h, token, peer).await.map(|_| ()),
        ClientMsg::RematchDecline {} => {
            change(app, h, |l| l.decline_rematch(&actor).map(|_| l.game.moves().len())).await
        }
        ClientMsg::DrawAccept {} => change(app, h, |l| l.accept_draw(&actor).map(|_| l.game.moves().len())).await,
        ClientMsg::DrawDecline {} => change(app, h, |l| l.decline_draw(&actor).map(|_| l.game.moves().len())).await,
        ClientMsg::Takeback {} => change(app, h, |l| l.takeback(&actor)).await,
        ClientMsg::Flag {} => {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_take_exactly_their_fields() {
        let p = |s: &str| json_object::<ClientMsg>(s.as_bytes());
        assert_eq!(p(r#"{"t":"resign"}"#).unwrap(), ClientMsg::Resign {});
        assert_eq!(
            p(r#"{"t":"move","uci":"e2e4","ply":0}"#).unwrap(),
            ClientMsg::Move { uci: "e2e4".into(), ply: Some(0) }
        );
        for bad in [
            r#"{"t":"resign","confirm":false}"#,
            r#"{"t":"ping","x":1}"#,
            r#"{"t":"draw_offer","to":"b"}"#,
            r#"{"t":"move","uci":"e2e4","promo":"q"}"#,
            r#"{"t":"flag","color":"w"}"#,
            r#"{"t":"takeback","n":2}"#,
            r#"["resign"]"#,
            r#"["move","e2e4",0]"#,
            r#""resign""#,
            r#"{"t":"resign","t":"resign"}"#,
            r#"{"t":"ping","t":"ping"}"#,
            r#"{"t":"move","uci":"e2e4","uci":"d2d4"}"#,
            r#" [] "#,
        ] {
            assert!(p(bad).is_err(), "{bad} must be refused");
        }
    }

    /// The screen-reader mode's typed moves: each variant's special moves
    /// read by the rules crate, and a move that is illegal or ambiguous
    /// refused with its reason.
    #[test]
    fn typed_moves_are_read_by_the_rules() {
        let pos = |v: &str, fen: Option<&str>, moves: &[&str]| {
            let req = PositionReq {
                variant: v.into(),
                options: None,
                fen: fen.map(Into::into),
                moves: moves.iter().map(|m| m.to_string()).collect(),
                parse: None,
            };
            replay(&req).unwrap().2
        };
        let chess = pos("chess", None, &[]);
        assert_eq!(parse_typed(&chess, "Nf3"), json!({"uci": "g1f3", "san": "Nf3"}));
        assert_eq!(parse_typed(&chess, "g1f3"), json!({"uci": "g1f3", "san": "Nf3"}));
        assert_eq!(parse_typed(&chess, " e4 "), json!({"uci": "e2e4", "san": "e4"}));
        assert_eq!(parse_typed(&chess, "Nf4"), json!({"error": "no knight can go to f4"}));
        assert!(parse_typed(&chess, "hello")["error"].is_string());
        assert!(parse_typed(&chess, "")["error"].is_string());
        // Two knights reach d2: the reason names both.
        let two = pos("chess", Some("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"), &[]);
        let amb = parse_typed(&two, "Nd2");
        assert!(amb["error"].as_str().unwrap().contains("ambiguous"), "{amb}");
        assert_eq!(parse_typed(&two, "Nbd2")["uci"], "b1d2");
        // Genie: a flip; Genesis: a placement; Clown: a declaration.
        assert_eq!(parse_typed(&pos("genie", None, &[]), "Gd2")["uci"], "d2d2g");
        assert_eq!(parse_typed(&pos("genesis", None, &[]), "K@e1")["san"], "K@e1");
        assert!(parse_typed(&pos("genesis", None, &[]), "Q@d1")["error"].is_string(), "the King comes first");
        assert_eq!(parse_typed(&pos("clown", None, &[]), "Nc3(!C)")["uci"], "b1c3c");
        // Magic Ring: the ring passed from the King to the pawn beside it.
        assert_eq!(parse_typed(&pos("magicring", None, &[]), "e1~d2")["uci"], "e1d2");
        // The game is over: nothing is read.
        let mated = pos("chess", None, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert!(parse_typed(&mated, "e4")["error"].as_str().unwrap().contains("over"));
    }

    #[test]
    fn pgn_dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_796_601_599_999), "2026.12.06");
        assert_eq!(pgn_date(1_796_601_600_000), "2026.12.07");
    }

    #[test]
    fn clock_bounds_are_sane() {
        let c = |minutes, increment| clock_bounds(ClockReq { minutes, increment });
        assert_eq!(c(5.0, 2.0), Ok((300_000, 2_000)));
        assert_eq!(c(0.25, 0.0), Ok((15_000, 0)));
        for (m, i) in [
            (1e-9, 0.0),
            (0.0, 0.0),
            (0.2, 0.0),
            (181.0, 0.0),
            (1.0 / 7.0, 0.0),
            (5.0, -1.0),
            (5.0, 0.5),
            (5.0, 181.0),
            (-5.0, 0.0),
        ] {
            assert!(c(m, i).is_err(), "{m} + {i} must be refused");
        }
    }
}
