//! Challenges: an account asks a named player for a game (variant, rule
//! options, a clock or days per move, rated or casual, colour); the player
//! accepts or declines; the challenger may cancel. The paths and the
//! answer's fields are lichess's (`/api/challenge/{username}`, `destUser`,
//! `timeControl`, ...), with JSON bodies (`docs/server.md`).
//!
//! Acceptance is decided by the store: one conditional `UPDATE ... WHERE
//! status = 'created'` in the transaction that also inserts the game, whose
//! id is the challenge's. The challenged player hears of a challenge, and
//! the challenger of its answer, through the notifications (`notify`).

use crate::live::{Live, Meta, Mode};
use crate::net::error as err;
use crate::tokens::{Caller, Scope};
use crate::web::{parse_body, rule_options, time_control, ClockReq};
use crate::App;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chimera_rules::{AnyPosition, Color, Position, Variant};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;
use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::str::FromStr;

/// Pending challenges an account may have made at once.
pub const MAX_OUT: i64 = 20;

/// How long a challenge waits for its answer: a week (then it is gone from
/// the lists and can no longer be accepted).
pub const WAITS_MS: i64 = 7 * 24 * 3600 * 1000;

/// lichess's reasons to decline, with the words the challenger is shown.
pub const REASONS: [(&str, &str); 11] = [
    ("generic", "not now"),
    ("later", "later, please ask again"),
    ("tooFast", "too fast a clock"),
    ("tooSlow", "too slow a clock"),
    ("timeControl", "not this time control"),
    ("rated", "please ask for a rated game"),
    ("casual", "please ask for a casual game"),
    ("standard", "not a variant: please ask for chess"),
    ("variant", "not this variant"),
    ("noBot", "no games against bots"),
    ("onlyBot", "only games against bots"),
];

pub fn routes() -> axum::Router<App> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/api/challenge", get(api_list))
        .route("/api/challenge/{name}", post(api_create))
        .route("/api/challenge/{id}/accept", post(api_accept))
        .route("/api/challenge/{id}/decline", post(api_decline))
        .route("/api/challenge/{id}/cancel", post(api_cancel))
}

/// The scopes that let a token read or answer challenges (lichess's: the
/// play scopes include them).
const READ: &[Scope] = &[Scope::ChallengeRead, Scope::ChallengeWrite, Scope::BotPlay, Scope::BoardPlay];
const WRITE: &[Scope] = &[Scope::ChallengeWrite, Scope::BotPlay, Scope::BoardPlay];

/// The account a challenge request acts for: a page's session, or a token
/// with one of `scopes`. A BOT account makes and answers challenges with
/// its token only (it plays through the Bot API).
async fn caller(app: &App, headers: &HeaderMap, peer: SocketAddr, scopes: &[Scope]) -> Result<Caller, Response> {
    let c = crate::tokens::authorize(app, headers, peer.ip(), scopes, true).await?;
    if c.bot && c.token.is_none() && scopes == WRITE {
        return Err(err(StatusCode::FORBIDDEN, "BOT accounts play through the Bot API only (docs/api.md)"));
    }
    Ok(c)
}

fn is_form(headers: &HeaderMap) -> bool {
    headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
        v.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/x-www-form-urlencoded"))
    })
}

/// A challenge request: Chimera's JSON shape ([`ChallengeReq`]), or
/// lichess's fields (`clock.limit`, `clock.increment` in seconds, `days`,
/// `rated`, `color`, `variant`, `rules`) as a form or as JSON, which is
/// what lichess's clients send.
fn request(headers: &HeaderMap, body: &[u8]) -> Result<ChallengeReq, String> {
    let fields: serde_json::Map<String, Value> = if is_form(headers) {
        let pairs: Vec<(String, String)> =
            serde_urlencoded::from_bytes(body).map_err(|e| format!("malformed form: {e}"))?;
        let mut m = serde_json::Map::new();
        for (k, v) in pairs {
            if m.insert(k.clone(), Value::String(v)).is_some() {
                return Err(format!("field '{k:.30}' is given twice"));
            }
        }
        m
    } else if body.iter().all(u8::is_ascii_whitespace) {
        serde_json::Map::new()
    } else {
        let m: serde_json::Map<String, Value> =
            crate::web::json_object(body).map_err(|e| format!("malformed request: {e}"))?;
        let chimera = m.contains_key("variant")
            && !m.keys().any(|k| k.contains('.'))
            && m.get("clock").is_none_or(|c| c.is_object() || c.is_null())
            && m.get("rated").is_none_or(Value::is_boolean);
        if chimera {
            return crate::web::json_object(body).map_err(|e| format!("malformed request: {e}"));
        }
        m
    };
    lichess_request(&fields)
}

/// lichess's challenge fields (strings in a form, JSON values in JSON;
/// null is absent) as a [`ChallengeReq`].
fn lichess_request(m: &serde_json::Map<String, Value>) -> Result<ChallengeReq, String> {
    const KNOWN: [&str; 10] = [
        "rated",
        "clock.limit",
        "clock.increment",
        "days",
        "color",
        "variant",
        "fen",
        "rules",
        "keepAliveStream",
        "message",
    ];
    if let Some(k) = m.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(format!("unknown field '{k:.30}': lichess's fields are {}", KNOWN.join(", ")));
    }
    let text = |k: &str| -> Option<String> {
        match m.get(k) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.is_empty() => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(v) => Some(v.to_string()),
        }
    };
    let number = |k: &str| -> Result<Option<f64>, String> {
        text(k).map(|s| s.parse::<f64>().map_err(|_| format!("{k} must be a number, not '{s:.20}'"))).transpose()
    };
    let flag = |k: &str| -> Result<bool, String> {
        match text(k).as_deref() {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(o) => Err(format!("{k} must be true or false, not '{o:.20}'")),
        }
    };
    if text("fen").is_some() {
        return Err("a challenge from a position (fen) is not offered here: challenge from the start".into());
    }
    if flag("keepAliveStream")? {
        return Err(
            "keepAliveStream is not offered here: the challenge comes back at once; follow /api/stream/event".into()
        );
    }
    if text("message").is_some() {
        return Err("a challenge carries no message here".into());
    }
    let clock = match (number("clock.limit")?, number("clock.increment")?) {
        (None, None) => None,
        (Some(limit), inc) => Some(ClockReq::new(limit / 60.0, inc.unwrap_or(0.0))),
        (None, Some(_)) => return Err("clock.increment needs clock.limit".into()),
    };
    let days = match number("days")? {
        None => None,
        Some(d) if d.fract() == 0.0 && (1.0..=255.0).contains(&d) => Some(d as u8),
        Some(d) => return Err(format!("days must be one of {:?}, not {d}", crate::live::CORRESPONDENCE_DAYS)),
    };
    let options = match text("rules") {
        None => None,
        Some(r) => {
            let mut o = BTreeMap::new();
            for part in r.split(',').filter(|p| !p.trim().is_empty()) {
                let (k, v) = part.split_once('=').ok_or_else(|| format!("rules: '{part:.30}' is not key=value"))?;
                o.insert(k.trim().to_string(), v.trim().to_string());
            }
            Some(o)
        }
    };
    Ok(ChallengeReq {
        variant: text("variant").unwrap_or_else(|| "standard".into()),
        options,
        clock,
        days,
        rated: flag("rated")?,
        color: text("color"),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChallengeReq {
    variant: String,
    #[serde(default)]
    options: Option<BTreeMap<String, String>>,
    #[serde(default, deserialize_with = "crate::web::opt_object")]
    clock: Option<ClockReq>,
    #[serde(default)]
    days: Option<u8>,
    #[serde(default)]
    rated: bool,
    /// The challenger's colour: white, black or random (the default).
    #[serde(default)]
    color: Option<String>,
}

const COLUMNS: &str = "c.id, c.variant, c.rule_options, c.clock_initial, c.clock_increment, c.days_per_move, c.rated, \
     c.color, c.status, c.decline_reason, c.created_at, c.challenger, c.dest, \
     fa.username AS from_name, ta.username AS to_name, fa.kind AS from_kind, ta.kind AS to_kind";

const FROM: &str = "FROM challenges c JOIN accounts fa ON fa.id = c.challenger JOIN accounts ta ON ta.id = c.dest";

/// A challenge as lichess shows it (plus `options`, and `direction` for
/// the account asking).
pub(crate) fn view(r: &sqlx::any::AnyRow, me: Option<&str>) -> Value {
    let variant_id: String = r.get("variant");
    let variant = Variant::from_str(&variant_id).ok();
    let days: Option<i64> = r.get("days_per_move");
    let clock = r.get::<Option<i64>, _>("clock_initial").zip(r.get::<Option<i64>, _>("clock_increment"));
    let time_control = match (days, clock) {
        (Some(d), _) => json!({"type": "correspondence", "daysPerTurn": d}),
        (None, Some((i, inc))) => json!({
            "type": "clock", "limit": i / 1000, "increment": inc / 1000,
            "show": format!("{}+{}", crate::web::minutes_text(i), inc / 1000),
        }),
        (None, None) => json!({"type": "unlimited"}),
    };
    let user = |name: String, kind: String| json!({"id": name.to_lowercase(), "name": name, "title": (kind == "bot").then_some("BOT")});
    let id: String = r.get("id");
    let challenger: String = r.get("challenger");
    let options = variant
        .and_then(|v| v.rule_options(r.get::<String, _>("rule_options").as_str()).ok().map(|o| (v, o)))
        .map_or(Value::Null, |(v, o)| crate::live::options_json(v, &o));
    let mut v = json!({
        "id": id,
        "url": format!("/game/{id}"),
        "status": r.get::<String, _>("status"),
        "challenger": user(r.get("from_name"), r.get("from_kind")),
        "destUser": user(r.get("to_name"), r.get("to_kind")),
        "variant": match variant {
            Some(v) => json!({"key": crate::botapi::variant_key(v), "name": v.name()}),
            None => json!({"key": variant_id, "name": ""}),
        },
        "options": options,
        "rated": r.get::<i64, _>("rated") == 1,
        "timeControl": time_control,
        "color": r.get::<String, _>("color"),
        "createdAt": r.get::<i64, _>("created_at"),
    });
    if let Some(reason) = r.get::<Option<String>, _>("decline_reason") {
        v["declineReason"] = json!(reason);
    }
    if let Some(me) = me {
        v["direction"] = json!(if me == challenger { "out" } else { "in" });
    }
    v
}

async fn one(app: &App, id: &str) -> Result<Option<sqlx::any::AnyRow>, sqlx::Error> {
    sqlx::query(&format!("SELECT {COLUMNS} {FROM} WHERE c.id = $1")).bind(id).fetch_optional(&app.db).await
}

/// `POST /api/challenge/{username}`: challenges the player; the challenge.
async fn api_create(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(name): Path<String>,
    body: Bytes,
) -> Response {
    let me = match caller(&app, &headers, peer, WRITE).await {
        Ok(c) => c.account,
        Err(r) => return r,
    };
    let req = match request(&headers, &body) {
        Ok(r) => r,
        Err(e) => return err(StatusCode::BAD_REQUEST, e),
    };
    let dest: Option<(String, String, Option<i64>)> = if name.len() > 40 {
        None
    } else {
        match sqlx::query("SELECT id, username, bot_level FROM accounts WHERE username_key = $1 AND deleted_at IS NULL")
            .bind(name.to_lowercase())
            .fetch_optional(&app.db)
            .await
        {
            Ok(r) => r.map(|r| (r.get(0), r.get(1), r.get(2))),
            Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        }
    };
    let Some((dest, dest_name, dest_bot)) = dest else { return err(StatusCode::NOT_FOUND, "no such player") };
    if dest == me.id {
        return err(StatusCode::BAD_REQUEST, "you cannot challenge yourself");
    }
    let variant = match Variant::from_str(&req.variant) {
        Ok(v) => v,
        Err(e) => return err(StatusCode::BAD_REQUEST, e.to_string()),
    };
    let opts = match rule_options(variant, req.options.as_ref()) {
        Ok(o) => o,
        Err(e) => return err(StatusCode::BAD_REQUEST, e),
    };
    let clock = match time_control(req.clock, req.days) {
        Ok(c) => c,
        Err(e) => return err(StatusCode::BAD_REQUEST, e),
    };
    if req.rated {
        if let Err(e) = crate::ratings::ratable(variant, &opts, &AnyPosition::new(variant, &opts).fen()) {
            return err(StatusCode::BAD_REQUEST, e);
        }
    }
    let color = req.color.as_deref().unwrap_or("random");
    if !["white", "black", "random"].contains(&color) {
        return err(StatusCode::BAD_REQUEST, format!("unknown colour '{color:.20}': expected white, black or random"));
    }
    let now = crate::live::now_ms();
    let pending = sqlx::query(
        "SELECT COUNT(*), SUM(CASE WHEN dest = $2 THEN 1 ELSE 0 END) FROM challenges \
         WHERE challenger = $1 AND status = 'created' AND created_at >= $3",
    )
    .bind(&me.id)
    .bind(&dest)
    .bind(now - WAITS_MS)
    .fetch_one(&app.db)
    .await;
    match pending {
        Ok(r) if r.get::<Option<i64>, _>(1).unwrap_or(0) > 0 => {
            return err(StatusCode::CONFLICT, format!("you have already challenged {dest_name}: wait for the answer"))
        }
        Ok(r) if r.get::<i64, _>(0) >= MAX_OUT => {
            return err(
                StatusCode::TOO_MANY_REQUESTS,
                format!("you have {MAX_OUT} challenges waiting: cancel one before making another"),
            )
        }
        Ok(_) => {}
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
    if let Err(r) = app.admit_game(peer.ip(), false).await {
        return crate::web::too_many(
            StatusCode::from_u16(r.status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE),
            r.message,
            r.retry_after,
        );
    }
    let id = crate::random_hex(6);
    let stored = sqlx::query(
        "INSERT INTO challenges (id, challenger, dest, variant, rule_options, clock_initial, clock_increment, \
         days_per_move, rated, color, status, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'created', $11, $11)",
    )
    .bind(&id)
    .bind(&me.id)
    .bind(&dest)
    .bind(variant.id())
    .bind(opts.to_string())
    .bind(clock.map(|c| c.0).filter(|_| req.days.is_none()))
    .bind(clock.map(|c| c.1).filter(|_| req.days.is_none()))
    .bind(req.days.map(i64::from))
    .bind(i64::from(req.rated))
    .bind(color)
    .bind(now)
    .execute(&app.db)
    .await;
    if let Err(e) = stored {
        return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    }
    let row = match one(&app, &id).await {
        Ok(Some(r)) => r,
        Ok(None) => return err(StatusCode::INTERNAL_SERVER_ERROR, "the challenge was not stored"),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    if let Some(level) = dest_bot.and_then(|l| u8::try_from(l).ok()) {
        return bot_answer(&app, &row, &me.id, level).await;
    }
    crate::notify::push(&app, &dest, "challenge", view(&row, None)).await;
    Json(view(&row, Some(&me.id))).into_response()
}

/// A house bot answers challenge `row` of `challenger` at once (`bots`):
/// declined with lichess's reason (`timeControl`, `later`), or accepted,
/// and then the answer carries the challenger's seat in the new game
/// (`game`: `{id, url, token, colors}`).
async fn bot_answer(app: &App, row: &sqlx::any::AnyRow, challenger: &str, level: u8) -> Response {
    let id: String = row.get("id");
    let clock = row.get::<Option<i64>, _>("clock_initial").zip(row.get::<Option<i64>, _>("clock_increment"));
    let decline = match crate::bots::time_control_answer(row.get("days_per_move"), clock) {
        Err(reason) => Some(reason),
        Ok(()) => match crate::bots::busy(app).await {
            Ok(r) => r,
            Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        },
    };
    let game = match decline {
        Some(reason) => {
            let closed = sqlx::query(
                "UPDATE challenges SET status = 'declined', decline_reason = $2, updated_at = $3 \
                 WHERE id = $1 AND status = 'created'",
            )
            .bind(&id)
            .bind(reason)
            .bind(crate::live::now_ms())
            .execute(&app.db)
            .await;
            if let Err(e) = closed {
                return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
            }
            None
        }
        None => match start(app, row, Some(level)).await {
            Ok(s) => Some(json!({
                "id": id, "url": format!("/game/{id}"), "token": s.challenger_token,
                "colors": [crate::color_name(!s.accepter_color)],
            })),
            Err(resp) => return resp,
        },
    };
    let mut v = match one(app, &id).await {
        Ok(Some(r)) => view(&r, Some(challenger)),
        Ok(None) => return err(StatusCode::INTERNAL_SERVER_ERROR, "the challenge was not stored"),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    if let Some(g) = game {
        v["game"] = g;
    }
    Json(v).into_response()
}

/// The challenges of `account` waiting for their answer (made or
/// received), newest first.
async fn waiting_rows(app: &App, account: &str) -> Result<Vec<sqlx::any::AnyRow>, sqlx::Error> {
    sqlx::query(&format!(
        "SELECT {COLUMNS} {FROM} WHERE (c.challenger = $1 OR c.dest = $1) AND c.status = 'created' \
         AND c.created_at >= $2 ORDER BY c.created_at DESC LIMIT 100"
    ))
    .bind(account)
    .bind(crate::live::now_ms() - WAITS_MS)
    .fetch_all(&app.db)
    .await
}

/// The waiting challenges of `account` by id, as it sees them (`botapi`'s
/// event stream).
pub(crate) async fn waiting(app: &App, account: &str) -> Result<HashMap<String, Value>, sqlx::Error> {
    Ok(waiting_rows(app, account).await?.iter().map(|r| (r.get::<String, _>("id"), view(r, Some(account)))).collect())
}

/// Challenge `id` as `account` sees it, if it is one of its.
pub(crate) async fn get(app: &App, id: &str, account: &str) -> Result<Option<Value>, sqlx::Error> {
    Ok(one(app, id)
        .await?
        .filter(|r| r.get::<String, _>("challenger") == account || r.get::<String, _>("dest") == account)
        .map(|r| view(&r, Some(account))))
}

/// `GET /api/challenge`: the account's waiting challenges, `{in, out}`.
async fn api_list(State(app): State<App>, ConnectInfo(peer): ConnectInfo<SocketAddr>, headers: HeaderMap) -> Response {
    let me = match caller(&app, &headers, peer, READ).await {
        Ok(c) => c.account,
        Err(r) => return r,
    };
    let rows = match waiting_rows(&app, &me.id).await {
        Ok(r) => r,
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let (mut inc, mut out) = (Vec::new(), Vec::new());
    for r in &rows {
        let v = view(r, Some(&me.id));
        if v["direction"] == "out" {
            out.push(v);
        } else {
            inc.push(v);
        }
    }
    let mut r = Json(json!({"in": inc, "out": out})).into_response();
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// The challenge `id` if `me` is its `side` ("dest" or "challenger"), or
/// the answer to give (404 for a challenge that is not the account's).
async fn mine(app: &App, id: &str, me: &str, side: &str) -> Result<sqlx::any::AnyRow, Response> {
    match one(app, id).await {
        Ok(Some(r)) if r.get::<String, _>(side) == me => Ok(r),
        Ok(_) => Err(err(StatusCode::NOT_FOUND, "no such challenge")),
        Err(e) => Err(err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
    }
}

/// Why a challenge can no longer be answered, from its row.
fn closed(r: &sqlx::any::AnyRow) -> Option<String> {
    let status: String = r.get("status");
    if status != "created" {
        return Some(format!("the challenge was {status}"));
    }
    (r.get::<i64, _>("created_at") < crate::live::now_ms() - WAITS_MS).then(|| "the challenge expired".into())
}

/// `POST /api/challenge/{id}/accept`: the challenged player accepts; the
/// game starts (its id is the challenge's): `{id, url, token, colors}`.
async fn api_accept(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let me = match caller(&app, &headers, peer, WRITE).await {
        Ok(c) => c.account,
        Err(r) => return r,
    };
    let r = match mine(&app, &id, &me.id, "dest").await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    if let Some(why) = closed(&r) {
        return err(StatusCode::CONFLICT, why);
    }
    let started = match start(&app, &r, None).await {
        Ok(s) => s,
        Err(resp) => return resp,
    };
    let challenger: String = r.get("challenger");
    let variant = started.variant;
    let url = format!("/game/{id}");
    crate::notify::push(
        &app,
        &challenger,
        "challenge_accepted",
        json!({"challenge": id, "game": id, "url": url, "by": me.username, "variant": variant.name()}),
    )
    .await;
    Json(json!({"id": id, "url": url, "token": started.accepter_token, "colors": [crate::color_name(started.accepter_color)]}))
        .into_response()
}

/// A challenge's game, started.
struct Started {
    variant: Variant,
    /// The challenged player's seat: its token (none for a house bot, the
    /// engine's seat) and colour.
    accepter_token: Option<String>,
    accepter_color: Color,
    challenger_token: String,
}

/// Starts the game of challenge `r` for its challenged player, a house bot
/// when `bot` is its level (a game against the engine at that level, the
/// bot's account at the engine's seat). The store decides: the challenge
/// changes from created once, in the transaction that inserts the game
/// (whose id is the challenge's).
async fn start(app: &App, r: &sqlx::any::AnyRow, bot: Option<u8>) -> Result<Started, Response> {
    let id: String = r.get("id");
    let accepter: String = r.get("dest");
    let challenger: String = r.get("challenger");
    let Ok(variant) = Variant::from_str(&r.get::<String, _>("variant")) else {
        return Err(err(StatusCode::INTERNAL_SERVER_ERROR, "bad variant in store"));
    };
    let Ok(opts) = variant.rule_options(r.get::<String, _>("rule_options").as_str()) else {
        return Err(err(StatusCode::INTERNAL_SERVER_ERROR, "bad rule options in store"));
    };
    let days = r.get::<Option<i64>, _>("days_per_move").and_then(|d| u8::try_from(d).ok());
    let clock = match days {
        Some(d) => Some((i64::from(d) * crate::live::DAY_MS, 0)),
        None => r.get::<Option<i64>, _>("clock_initial").zip(r.get::<Option<i64>, _>("clock_increment")),
    };
    let challenger_white = match r.get::<String, _>("color").as_str() {
        "white" => true,
        "black" => false,
        _ => crate::random_hex(1).as_bytes()[1].is_multiple_of(2),
    };
    let accepter_color = if challenger_white { Color::Black } else { Color::White };
    let start = AnyPosition::new(variant, &opts);
    let meta = Meta {
        id: id.clone(),
        variant,
        opts,
        start_fen: start.fen(),
        mode: if bot.is_some() { Mode::Engine } else { Mode::Friend },
        engine_level: bot,
        engine_color: bot.map(|_| accepter_color),
        clock,
        days,
        created_at: crate::live::now_ms(),
        rated: r.get::<i64, _>("rated") == 1,
        rating_range: None,
    };
    let challenger_token = crate::random_hex(16);
    let accepter_token = bot.is_none().then(|| crate::random_hex(16));
    let (wt, bt) = if challenger_white {
        (Some(challenger_token.clone()), accepter_token.clone())
    } else {
        (accepter_token.clone(), Some(challenger_token.clone()))
    };
    let mut live = Live::new(meta, start, wt, bt, None);
    (live.white_account, live.black_account) = if challenger_white {
        (Some(challenger), Some(accepter.clone()))
    } else {
        (Some(accepter.clone()), Some(challenger))
    };
    if let Err(e) = crate::ratings::seat_players(&app.db, &mut live).await {
        return Err(err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()));
    }
    live.owner = Some(app.instance.clone());
    let done = async {
        let _w = crate::store::writer(&app.db).await;
        let mut tx = app.db.begin().await?;
        let won = sqlx::query(
            "UPDATE challenges SET status = 'accepted', updated_at = $3 WHERE id = $1 AND dest = $2 AND status = 'created'",
        )
        .bind(&id)
        .bind(&accepter)
        .bind(crate::live::now_ms())
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if won {
            crate::store::insert_game_in(&mut tx, &live).await?;
        }
        tx.commit().await.map(|_| won)
    }
    .await;
    match done {
        Ok(true) => {}
        Ok(false) => return Err(err(StatusCode::CONFLICT, "the challenge was answered already")),
        Err(e) => return Err(err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
    }
    if let Err(e) = app.insert(live).await {
        eprintln!("challenge {id}: the game is stored but not held here: {e}");
    }
    Ok(Started { variant, accepter_token, accepter_color, challenger_token })
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DeclineReq {
    #[serde(default)]
    reason: Option<String>,
}

/// `POST /api/challenge/{id}/decline` `{reason?}`: the challenged player
/// declines (lichess's reasons; `generic` by default).
async fn api_decline(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let me = match caller(&app, &headers, peer, WRITE).await {
        Ok(c) => c.account,
        Err(r) => return r,
    };
    let req: DeclineReq = if body.is_empty() {
        DeclineReq::default()
    } else if is_form(&headers) {
        match serde_urlencoded::from_bytes(&body) {
            Ok(r) => r,
            Err(e) => return err(StatusCode::BAD_REQUEST, format!("malformed form: {e}")),
        }
    } else {
        match parse_body(&body) {
            Ok(r) => r,
            Err(e) => return *e,
        }
    };
    let reason = req.reason.unwrap_or_else(|| "generic".into());
    if !REASONS.iter().any(|r| r.0 == reason) {
        let known: Vec<&str> = REASONS.iter().map(|r| r.0).collect();
        return err(StatusCode::BAD_REQUEST, format!("unknown reason '{reason:.20}': one of {}", known.join(", ")));
    }
    answer(&app, &id, &me, "dest", "declined", Some(&reason)).await
}

/// `POST /api/challenge/{id}/cancel`: the challenger takes it back.
async fn api_cancel(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let me = match caller(&app, &headers, peer, WRITE).await {
        Ok(c) => c.account,
        Err(r) => return r,
    };
    answer(&app, &id, &me, "challenger", "canceled", None).await
}

/// Closes challenge `id` as `status` on behalf of `side`, and tells the
/// other side.
async fn answer(
    app: &App,
    id: &str,
    me: &crate::accounts::Account,
    side: &str,
    status: &str,
    reason: Option<&str>,
) -> Response {
    let r = match mine(app, id, &me.id, side).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let changed = sqlx::query(&format!(
        "UPDATE challenges SET status = $2, decline_reason = $3, updated_at = $4 WHERE id = $1 AND {side} = $5 \
         AND status = 'created'"
    ))
    .bind(id)
    .bind(status)
    .bind(reason)
    .bind(crate::live::now_ms())
    .bind(&me.id)
    .execute(&app.db)
    .await;
    match changed {
        Ok(c) if c.rows_affected() == 1 => {}
        Ok(_) => {
            return err(StatusCode::CONFLICT, closed(&r).unwrap_or_else(|| "the challenge was answered already".into()))
        }
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
    let other: String = r.get(if side == "dest" { "challenger" } else { "dest" });
    let kind = if status == "declined" { "challenge_declined" } else { "challenge_canceled" };
    crate::notify::push(
        app,
        &other,
        kind,
        json!({"challenge": id, "by": me.username, "reason": reason, "reason_words": reason.and_then(|x| REASONS.iter().find(|r| r.0 == x)).map(|r| r.1), "variant": r.get::<String, _>("variant")}),
    )
    .await;
    Json(json!({"ok": true})).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn form() -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-www-form-urlencoded"));
        h
    }

    #[test]
    fn lichess_fields_read_as_a_challenge() {
        let r = request(&form(), b"variant=genie&clock.limit=180&clock.increment=2&color=black&rated=true").unwrap();
        assert_eq!((r.variant.as_str(), r.rated, r.color.as_deref(), r.days), ("genie", true, Some("black"), None));
        assert_eq!(time_control(r.clock, r.days), Ok(Some((180_000, 2_000))));
        // berserk's JSON: dotted keys, nulls for what is not given.
        let body = br#"{"rated": false, "clock.limit": 60, "clock.increment": 1, "days": null, "color": "random", "variant": "standard", "fen": null}"#;
        let r = request(&HeaderMap::new(), body).unwrap();
        assert_eq!((r.variant.as_str(), r.rated), ("standard", false));
        assert_eq!(time_control(r.clock, r.days), Ok(Some((60_000, 1_000))));
        // Chimera's own shape still reads as before.
        let r =
            request(&HeaderMap::new(), br#"{"variant": "chess", "clock": {"minutes": 5, "increment": 3}}"#).unwrap();
        assert_eq!(time_control(r.clock, r.days), Ok(Some((300_000, 3_000))));
        let r = request(&form(), b"days=3&rules=ring_powers%3DNKQ&variant=magicring").unwrap();
        assert_eq!(r.options.unwrap().get("ring_powers").map(String::as_str), Some("NKQ"));
        // The empty body: lichess's defaults (chess, no clock, casual).
        let r = request(&form(), b"").unwrap();
        assert_eq!((r.variant.as_str(), r.clock.is_none(), r.rated), ("standard", true, false));
        for bad in [&b"fen=x"[..], b"clock.increment=3", b"rated=1", b"nope=1", b"variant=a&variant=b", b"days=0.5"] {
            assert!(request(&form(), bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }

    proptest! {
        /// Whatever bytes come, as a form or as JSON: an answer, never a
        /// panic.
        #[test]
        fn any_body_is_read_or_refused(body in proptest::collection::vec(any::<u8>(), 0..200), as_form in any::<bool>()) {
            let h = if as_form { form() } else { HeaderMap::new() };
            let _ = request(&h, &body);
        }

        /// Forms of lichess's field names with any values.
        #[test]
        fn any_values_of_lichess_fields(values in proptest::collection::vec(("(rated|clock\\.limit|clock\\.increment|days|color|variant|rules)", ".{0,12}"), 0..6)) {
            let body = serde_urlencoded::to_string(&values).unwrap();
            let _ = request(&form(), body.as_bytes());
        }
    }
}
