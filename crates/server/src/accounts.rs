//! Accounts: sign-up, log-in and log-out, sessions in the store, change of
//! password, log-out everywhere, deletion, the download of one's data, and
//! the seats an account holds. The rules for names, passwords, hashes,
//! secrets and the log-in throttle are `chimera-auth`'s; this module keeps
//! them in the store and speaks HTTP (`docs/accounts.md`).
//!
//! - A session is a 256-bit secret in the cookie `chimera_session`
//!   (`HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` when the server is
//!   started with `--secure-cookies`, as it must be behind TLS); the store
//!   keeps its SHA-256 only. A new secret at every log-in (no fixation). A
//!   session ends after [`SESSION_IDLE_MS`] unused or [`SESSION_MAX_MS`] in
//!   all, at log-out, log-out everywhere, a change of password (the others)
//!   or the account's deletion.
//! - Log-in: the same answer and about the same time for an unknown name as
//!   for a wrong password (a dummy hash is checked). Attempts are limited per
//!   account (in the store, so every instance counts) and per client
//!   address (in memory), by `chimera_auth::ThrottlePolicy`; an attempt is
//!   counted before its password is checked, so concurrent guesses cannot
//!   pass the budget.
//! - Cross-site requests: every state change is a JSON POST, which a form of
//!   another site cannot send, and a foreign `Origin` is refused
//!   (`net::guard`); the cookie is `SameSite=Lax` besides.

use crate::net::error as err;
use crate::pool::Admission;
use crate::{random_hex, App};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chimera_auth::{SessionId, ThrottlePolicy, ThrottleState, Username, Verdict};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// The session cookie's name.
pub const COOKIE: &str = "chimera_session";
/// A session unused for this long ends (30 days).
pub const SESSION_IDLE_MS: i64 = 30 * 24 * 3600 * 1000;
/// A session ends this long after its log-in, used or not (90 days).
pub const SESSION_MAX_MS: i64 = 90 * 24 * 3600 * 1000;
/// `seen_at` is written at most this often per session (1 hour).
const SEEN_EVERY_MS: i64 = 3600 * 1000;
/// The one answer to a failed log-in, whatever failed.
pub const WRONG: &str = "wrong username or password";

/// A logged-in account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    pub username: String,
    pub created_at: i64,
}

/// The in-memory throttles: per client address, and per name for names
/// with no account (so that an unknown name is refused exactly as a known
/// one would be, and the refusal tells nothing).
#[derive(Default)]
pub struct Throttles {
    by_address: Mutex<HashMap<IpAddr, ThrottleState>>,
    by_unknown_name: Mutex<HashMap<String, ThrottleState>>,
}

impl Throttles {
    fn address(&self, ip: IpAddr) -> ThrottleState {
        self.by_address.lock().expect("lock").get(&chimera_auth::address_key(ip)).copied().unwrap_or_default()
    }

    fn set_address(&self, ip: IpAddr, s: ThrottleState, now: i64) {
        let mut m = self.by_address.lock().expect("lock");
        // Forget the idle counters now and then: the map stays small.
        if m.len() > 10_000 {
            m.retain(|_, v| !ThrottlePolicy::ADDRESS.is_idle(*v, now));
        }
        m.insert(chimera_auth::address_key(ip), s);
    }

    fn unknown(&self, key: &str) -> ThrottleState {
        self.by_unknown_name.lock().expect("lock").get(key).copied().unwrap_or_default()
    }

    fn set_unknown(&self, key: &str, s: ThrottleState, now: i64) {
        let mut m = self.by_unknown_name.lock().expect("lock");
        if m.len() > 10_000 {
            m.retain(|_, v| !ThrottlePolicy::ACCOUNT.is_idle(*v, now));
        }
        m.insert(key.to_string(), s);
    }
}

pub fn routes() -> Router<App> {
    Router::new()
        .route("/api/account", get(me))
        .route("/api/session", get(session))
        .route("/api/account/signup", post(signup))
        .route("/api/account/login", post(login))
        .route("/api/account/logout", post(logout))
        .route("/api/account/logout-everywhere", post(logout_everywhere))
        .route("/api/account/password", post(change_password))
        .route("/api/account/delete", post(delete))
        .route("/api/account/export", get(export_json))
        .route("/api/account/export.pgn", get(export_pgn))
        .route("/api/account/playing", get(crate::playing::api_playing))
        .route("/api/account/prefs", get(get_prefs).post(set_prefs))
        .route("/api/games/{id}/seat", get(seat))
}

fn now_ms() -> i64 {
    crate::live::now_ms()
}

/// The session secret in the request's cookies, if well formed.
fn session_id(headers: &HeaderMap) -> Option<SessionId> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .and_then(|(_, v)| SessionId::parse(v.trim()))
}

/// The account of the request's session, if it is live (and marks it seen).
pub async fn current(app: &App, headers: &HeaderMap) -> Result<Option<Account>, String> {
    let Some(sid) = session_id(headers) else { return Ok(None) };
    let key = sid.storage_key().to_hex();
    let row = sqlx::query(
        "SELECT a.id, a.username, a.created_at, s.seen_at, s.expires_at FROM account_sessions s \
         JOIN accounts a ON a.id = s.account_id WHERE s.key = $1 AND a.deleted_at IS NULL",
    )
    .bind(&key)
    .fetch_optional(&app.db)
    .await
    .map_err(|e| e.to_string())?;
    let Some(r) = row else { return Ok(None) };
    let now = now_ms();
    let (seen, expires): (i64, i64) = (r.get("seen_at"), r.get("expires_at"));
    if now >= expires || now - seen >= SESSION_IDLE_MS {
        let _ = sqlx::query("DELETE FROM account_sessions WHERE key = $1").bind(&key).execute(&app.db).await;
        return Ok(None);
    }
    if now - seen >= SEEN_EVERY_MS {
        let _ = sqlx::query("UPDATE account_sessions SET seen_at = $2 WHERE key = $1")
            .bind(&key)
            .bind(now)
            .execute(&app.db)
            .await;
    }
    Ok(Some(Account { id: r.get("id"), username: r.get("username"), created_at: r.get("created_at") }))
}

/// The account of the request, or the 401 to answer.
pub(crate) async fn need(app: &App, headers: &HeaderMap) -> Result<Account, Response> {
    // A request with an API token is the token's alone: its cookies are
    // not read (`tokens`), and this is a page's endpoint.
    if crate::tokens::bearer(headers).is_some() {
        return Err(err(StatusCode::FORBIDDEN, "this takes a logged-in page's session, not an API token"));
    }
    match current(app, headers).await {
        Ok(Some(a)) => Ok(a),
        Ok(None) => Err(err(StatusCode::UNAUTHORIZED, "not logged in")),
        Err(e) => Err(err(StatusCode::INTERNAL_SERVER_ERROR, e)),
    }
}

/// A request's JSON body and its logged-in account, or the answer to give
/// (400 for the body, 401 when not logged in).
pub(crate) async fn body_and_account<T: serde::de::DeserializeOwned>(
    app: &App,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<(T, Account), Response> {
    let req: T = crate::web::parse_body(body).map_err(|e| *e)?;
    Ok((req, need(app, headers).await?))
}

/// The logged-in account and the ids of its games, newest first.
async fn account_and_games(app: &App, headers: &HeaderMap) -> Result<(Account, Vec<String>), Response> {
    let a = need(app, headers).await?;
    let ids = games_of(app, &a.id).await.map_err(|e| err(StatusCode::INTERNAL_SERVER_ERROR, e))?;
    Ok((a, ids))
}

fn cookie(app: &App, value: &str, max_age_secs: i64) -> HeaderValue {
    let secure = if app.config.secure_cookies { "; Secure" } else { "" };
    HeaderValue::from_str(&format!("{COOKIE}={value}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age_secs}{secure}"))
        .expect("a cookie of plain characters")
}

/// Starts a session for `account`: its row in the store and the cookie.
async fn new_session(app: &App, account: &str) -> Result<HeaderValue, String> {
    let sid = SessionId::generate().map_err(|e| e.to_string())?;
    let now = now_ms();
    sqlx::query(
        "INSERT INTO account_sessions (key, account_id, created_at, seen_at, expires_at) VALUES ($1, $2, $3, $3, $4)",
    )
    .bind(sid.storage_key().to_hex())
    .bind(account)
    .bind(now)
    .bind(now + SESSION_MAX_MS)
    .execute(&app.db)
    .await
    .map_err(|e| e.to_string())?;
    Ok(cookie(app, sid.as_str(), SESSION_MAX_MS / 1000))
}

fn with_cookie(mut r: Response, c: HeaderValue) -> Response {
    r.headers_mut().insert(header::SET_COOKIE, c);
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// Runs a password hash or check in the CPU pool (Argon2id takes tens of
/// milliseconds and 19 MiB): off the async workers, bounded.
async fn cpu<T: Send + 'static>(app: &App, f: impl FnOnce() -> T + Send + 'static) -> Result<T, Response> {
    app.cpu
        .run(Admission::Bounded, Arc::new(AtomicBool::new(false)), move |_| f())
        .await
        .map_err(|e| err(StatusCode::SERVICE_UNAVAILABLE, format!("the server is busy: {e:?}; try again")))
}

fn too_many(verdict: Verdict, now_s: i64) -> Response {
    let wait = verdict.retry_after_secs(now_s).max(1);
    let mut r = err(
        StatusCode::TOO_MANY_REQUESTS,
        format!("too many failed log-ins: try again in {} minute(s)", (wait + 59) / 60),
    );
    if let Ok(v) = HeaderValue::from_str(&wait.to_string()) {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    id: String,
    token: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignupReq {
    username: String,
    password: String,
    /// Games played anonymously in this browser: `{id, token}` of each seat.
    #[serde(default)]
    claim: Vec<Claim>,
}

async fn signup(State(app): State<App>, ConnectInfo(peer): ConnectInfo<SocketAddr>, body: Bytes) -> Response {
    let req: SignupReq = match crate::web::parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    let name: Username = match req.username.parse() {
        Ok(n) => n,
        Err(e) => return err(StatusCode::BAD_REQUEST, format!("{e}")),
    };
    if let Err(e) = chimera_auth::check_new_password(&req.password, &name) {
        return err(StatusCode::BAD_REQUEST, e.to_string());
    }
    if app.signups.check_key(&chimera_auth::address_key(peer.ip())).is_err() {
        return err(StatusCode::TOO_MANY_REQUESTS, "too many new accounts from this address: try again later");
    }
    let password = req.password;
    let hash = match cpu(&app, move || chimera_auth::hash_password(&password)).await {
        Ok(Ok(h)) => h,
        Ok(Err(e)) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        Err(r) => return r,
    };
    let id = random_hex(12);
    let inserted = sqlx::query(
        "INSERT INTO accounts (id, username, username_key, password_hash, created_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (username_key) DO NOTHING",
    )
    .bind(&id)
    .bind(name.as_str())
    .bind(name.key())
    .bind(&hash)
    .bind(now_ms())
    .execute(&app.db)
    .await;
    match inserted {
        Ok(r) if r.rows_affected() == 1 => {}
        Ok(_) => return err(StatusCode::CONFLICT, format!("the name '{name}' is taken: choose another")),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
    let mut claimed = 0;
    // The 200 first (a browser with more keeps the rest anonymous).
    for c in req.claim.iter().take(200) {
        claimed += claim_game(&app, &id, &c.id, &c.token).await;
    }
    match new_session(&app, &id).await {
        Ok(c) => with_cookie(
            (StatusCode::CREATED, Json(json!({"username": name.as_str(), "claimed": claimed}))).into_response(),
            c,
        ),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// Makes the seats of game `game` that `token` holds and no account holds
/// yet the account's; 1 when it claimed any (both seats of a hot-seat game
/// are one game), else 0. The store decides
/// (`... AND white_account IS NULL`); a game in memory is reloaded after.
async fn claim_game(app: &App, account: &str, game: &str, token: &str) -> usize {
    if game.len() > 64 || token.len() > 128 {
        return 0;
    }
    let mut n = 0;
    for side in ["white", "black"] {
        let sql = format!(
            "UPDATE games SET {side}_account = $1, version = version + 1 WHERE id = $2 AND {side}_token = $3 \
             AND {side}_account IS NULL"
        );
        if let Ok(r) = sqlx::query(&sql).bind(account).bind(game).bind(token).execute(&app.db).await {
            n += r.rows_affected() as usize;
        }
    }
    if n > 0 {
        app.reload_game(game).await;
    }
    usize::from(n > 0)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoginReq {
    username: String,
    password: String,
}

/// The account row a log-in needs.
struct Stored {
    id: String,
    username: String,
    hash: String,
    throttle: ThrottleState,
}

async fn stored(app: &App, key: &str) -> Result<Option<Stored>, String> {
    let row = sqlx::query(
        "SELECT id, username, password_hash, login_failures, login_failed_at FROM accounts \
         WHERE username_key = $1 AND deleted_at IS NULL",
    )
    .bind(key)
    .fetch_optional(&app.db)
    .await
    .map_err(|e| e.to_string())?;
    Ok(row.map(|r| Stored {
        id: r.get("id"),
        username: r.get("username"),
        hash: r.get("password_hash"),
        throttle: throttle_of(&r, 3),
    }))
}

/// The log-in throttle of a row whose columns from `at` on are
/// `login_failures, login_failed_at`.
fn throttle_of(r: &sqlx::any::AnyRow, at: usize) -> ThrottleState {
    ThrottleState { failures: r.get::<i64, _>(at).clamp(0, u32::MAX as i64) as u32, last_failure: r.get(at + 1) }
}

/// Counts an attempt on the account before its password is checked (a
/// compare-and-set on the two throttle columns, so concurrent attempts on
/// several instances each count): `Ok(Allow)` when it may go ahead.
async fn reserve_attempt(app: &App, acc: &Stored, now_s: i64) -> Result<Verdict, String> {
    let mut state = acc.throttle;
    for _ in 0..20 {
        let verdict = ThrottlePolicy::ACCOUNT.check(state, now_s);
        if !verdict.is_allowed() {
            return Ok(verdict);
        }
        let next = ThrottlePolicy::ACCOUNT.record_failure(state, now_s);
        let r = sqlx::query(
            "UPDATE accounts SET login_failures = $2, login_failed_at = $3 \
             WHERE id = $1 AND login_failures = $4 AND login_failed_at = $5",
        )
        .bind(&acc.id)
        .bind(next.failures as i64)
        .bind(next.last_failure)
        .bind(state.failures as i64)
        .bind(state.last_failure)
        .execute(&app.db)
        .await
        .map_err(|e| e.to_string())?;
        if r.rows_affected() == 1 {
            return Ok(Verdict::Allow);
        }
        // Another attempt counted first: read the columns again.
        let r = sqlx::query("SELECT login_failures, login_failed_at FROM accounts WHERE id = $1")
            .bind(&acc.id)
            .fetch_one(&app.db)
            .await
            .map_err(|e| e.to_string())?;
        state = throttle_of(&r, 0);
    }
    Err("the log-in counter is too busy: try again".into())
}

async fn clear_attempts(app: &App, id: &str) {
    let _ = sqlx::query("UPDATE accounts SET login_failures = 0, login_failed_at = 0 WHERE id = $1")
        .bind(id)
        .execute(&app.db)
        .await;
}

/// Checks `password` for the name `username` with every limit: `Ok` with the
/// account, or the response to give (401 with [`WRONG`], or 429).
async fn authenticate(app: &App, ip: IpAddr, username: &str, password: String) -> Result<Stored, Response> {
    let now_s = now_ms() / 1000;
    let addr = app.throttles.address(ip);
    let v = ThrottlePolicy::ADDRESS.check(addr, now_s);
    if !v.is_allowed() {
        return Err(too_many(v, now_s));
    }
    // A name that cannot exist is an unknown name: the same path.
    let key = Username::parse_existing(username).map(|u| u.key()).unwrap_or_else(|_| username.to_lowercase());
    let acc = stored(app, &key).await.map_err(|e| err(StatusCode::INTERNAL_SERVER_ERROR, e))?;
    let verdict = match &acc {
        Some(a) => reserve_attempt(app, a, now_s).await.map_err(|e| err(StatusCode::SERVICE_UNAVAILABLE, e))?,
        None => {
            let s = app.throttles.unknown(&key);
            let v = ThrottlePolicy::ACCOUNT.check(s, now_s);
            if v.is_allowed() {
                app.throttles.set_unknown(&key, ThrottlePolicy::ACCOUNT.record_failure(s, now_s), now_s);
            }
            v
        }
    };
    if !verdict.is_allowed() {
        return Err(too_many(verdict, now_s));
    }
    let hash = acc.as_ref().map(|a| a.hash.clone());
    let ok = cpu(app, move || match hash {
        Some(h) => chimera_auth::verify_password(&h, &password),
        None => chimera_auth::verify_dummy(&password),
    })
    .await?;
    match acc {
        Some(a) if ok => {
            clear_attempts(app, &a.id).await;
            Ok(a)
        }
        _ => {
            app.throttles.set_address(ip, ThrottlePolicy::ADDRESS.record_failure(addr, now_s), now_s);
            Err(err(StatusCode::UNAUTHORIZED, WRONG))
        }
    }
}

async fn login(State(app): State<App>, ConnectInfo(peer): ConnectInfo<SocketAddr>, body: Bytes) -> Response {
    let req: LoginReq = match crate::web::parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    if req.username.chars().count() > 64 || req.password.chars().count() > chimera_auth::MAX_PASSWORD_CHARS {
        return err(StatusCode::UNAUTHORIZED, WRONG);
    }
    let password = req.password.clone();
    let acc = match authenticate(&app, peer.ip(), &req.username, req.password).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    // Stronger parameters since the hash was made: hash again.
    if chimera_auth::needs_rehash(&acc.hash) {
        if let Ok(Ok(h)) = cpu(&app, move || chimera_auth::hash_password(&password)).await {
            let _ = sqlx::query("UPDATE accounts SET password_hash = $2 WHERE id = $1")
                .bind(&acc.id)
                .bind(h)
                .execute(&app.db)
                .await;
        }
    }
    match new_session(&app, &acc.id).await {
        Ok(c) => with_cookie(Json(json!({"username": acc.username})).into_response(), c),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// `GET /api/account`: the account of a page's session or of any API token
/// (lichess's `id`, `username`, `title` and `createdAt` besides Chimera's
/// fields).
async fn me(State(app): State<App>, ConnectInfo(peer): ConnectInfo<SocketAddr>, headers: HeaderMap) -> Response {
    match crate::tokens::authorize(&app, &headers, peer.ip(), &crate::tokens::Scope::ALL, true).await {
        Ok(c) => match account_json(&app, &c.account, c.bot).await {
            Ok(v) => no_store(Json(v).into_response()),
            Err(r) => r,
        },
        Err(r) => r,
    }
}

/// `GET /api/session`: the page's session, `{"account": {...}}` as
/// `GET /api/account` gives it, or `{"account": null}` when nobody is
/// logged in: 200 either way, since every page asks on load and a visitor
/// is no error (a 401 is one in the browser's console). The session's
/// cookie only; a request with an API token is refused as on the other
/// page endpoints.
async fn session(State(app): State<App>, headers: HeaderMap) -> Response {
    if crate::tokens::bearer(&headers).is_some() {
        return err(StatusCode::FORBIDDEN, "this takes a logged-in page's session, not an API token");
    }
    let account = match current(&app, &headers).await {
        Ok(Some(a)) => match account_json(&app, &a, false).await {
            Ok(v) => v,
            Err(r) => return r,
        },
        Ok(None) => Value::Null,
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    no_store(Json(json!({ "account": account })).into_response())
}

/// An account as `GET /api/account` shows it (lichess's `id`, `username`,
/// `title` and `createdAt` besides Chimera's fields).
async fn account_json(app: &App, a: &Account, bot: bool) -> Result<Value, Response> {
    let ratings = crate::ratings::now_of(&app.db, &a.id)
        .await
        .map_err(|e| err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(json!({
        "id": a.username.to_lowercase(), "username": a.username, "title": if bot { Some("BOT") } else { None },
        "created_at": a.created_at, "createdAt": a.created_at, "ratings": ratings,
    }))
}

fn no_store(mut r: Response) -> Response {
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// The look's keys (assets/theme.js keeps the values each may take; the
/// server takes any short lower-case word, so that a new board colour needs
/// no server change, and the page reads an unknown one as the default), the
/// UI's language (`lang`: en, de, fr, es; crate::i18n), which a browser
/// without its own choice takes from the account (assets/common.js), and
/// `blind`, the screen-reader mode (`on` or `off`).
const PREF_KEYS: [&str; 5] = ["theme", "board", "pieces", "lang", "blind"];

/// `GET /api/account/prefs`: `{"prefs": {theme, board, pieces, lang}}`, or
/// `{"prefs": null}` before the account has chosen.
async fn get_prefs(State(app): State<App>, headers: HeaderMap) -> Response {
    let a = match need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let row =
        sqlx::query("SELECT prefs FROM account_prefs WHERE account_id = $1").bind(&a.id).fetch_optional(&app.db).await;
    match row {
        Ok(r) => {
            let prefs = r.and_then(|r| serde_json::from_str::<Value>(&r.get::<String, _>("prefs")).ok());
            let mut r = Json(json!({ "prefs": prefs })).into_response();
            r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            r
        }
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// `POST /api/account/prefs` with `{theme, board, pieces, lang}` (each a word of
/// 1 to 16 lower-case letters): the account's look from now on.
async fn set_prefs(State(app): State<App>, headers: HeaderMap, body: Bytes) -> Response {
    let (req, a): (HashMap<String, String>, Account) = match body_and_account(&app, &headers, &body).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    for (k, v) in &req {
        if !PREF_KEYS.contains(&k.as_str()) {
            return err(
                StatusCode::BAD_REQUEST,
                format!("unknown setting '{k}': the settings are {}", PREF_KEYS.join(", ")),
            );
        }
        if v.is_empty() || v.len() > 16 || !v.bytes().all(|b| b.is_ascii_lowercase()) {
            return err(StatusCode::BAD_REQUEST, format!("{k}: a word of 1 to 16 lower-case letters"));
        }
    }
    let text = serde_json::to_string(&req.iter().collect::<std::collections::BTreeMap<_, _>>()).unwrap_or_default();
    let done = sqlx::query(
        "INSERT INTO account_prefs (account_id, prefs, updated_at) VALUES ($1, $2, $3) \
         ON CONFLICT (account_id) DO UPDATE SET prefs = excluded.prefs, updated_at = excluded.updated_at",
    )
    .bind(&a.id)
    .bind(&text)
    .bind(now_ms())
    .execute(&app.db)
    .await;
    match done {
        Ok(_) => Json(json!({ "prefs": req })).into_response(),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

async fn logout(State(app): State<App>, headers: HeaderMap) -> Response {
    if let Some(sid) = session_id(&headers) {
        if let Err(e) = sqlx::query("DELETE FROM account_sessions WHERE key = $1")
            .bind(sid.storage_key().to_hex())
            .execute(&app.db)
            .await
        {
            return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
        }
    }
    with_cookie(Json(json!({})).into_response(), cookie(&app, "", 0))
}

async fn logout_everywhere(State(app): State<App>, headers: HeaderMap) -> Response {
    let a = match need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let done = async {
        let ended =
            sqlx::query("DELETE FROM account_sessions WHERE account_id = $1").bind(&a.id).execute(&app.db).await?;
        let revoked = crate::tokens::revoke_all(&app.db, &a.id).await?;
        Ok::<_, sqlx::Error>((ended.rows_affected(), revoked))
    }
    .await;
    match done {
        Ok((ended, revoked)) => {
            with_cookie(Json(json!({"ended": ended, "tokens_revoked": revoked})).into_response(), cookie(&app, "", 0))
        }
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordReq {
    current: String,
    new: String,
}

async fn change_password(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (req, a): (PasswordReq, Account) = match body_and_account(&app, &headers, &body).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let name = match Username::parse_existing(&a.username) {
        Ok(n) => n,
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    if let Err(e) = chimera_auth::check_new_password(&req.new, &name) {
        return err(StatusCode::BAD_REQUEST, e.to_string());
    }
    // The current password, under the log-in's limits.
    if let Err(r) = authenticate(&app, peer.ip(), &a.username, req.current).await {
        return r;
    }
    let new = req.new;
    let hash = match cpu(&app, move || chimera_auth::hash_password(&new)).await {
        Ok(Ok(h)) => h,
        Ok(Err(e)) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        Err(r) => return r,
    };
    let done = async {
        sqlx::query("UPDATE accounts SET password_hash = $2 WHERE id = $1")
            .bind(&a.id)
            .bind(&hash)
            .execute(&app.db)
            .await?;
        // Every session ends, and every API token; this device gets a new
        // session.
        sqlx::query("DELETE FROM account_sessions WHERE account_id = $1").bind(&a.id).execute(&app.db).await?;
        crate::tokens::revoke_all(&app.db, &a.id).await?;
        Ok::<_, sqlx::Error>(())
    }
    .await;
    if let Err(e) = done {
        return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    }
    match new_session(&app, &a.id).await {
        Ok(c) => with_cookie(Json(json!({})).into_response(), c),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeleteReq {
    password: String,
}

async fn delete(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (req, a): (DeleteReq, Account) = match body_and_account(&app, &headers, &body).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    if let Err(r) = authenticate(&app, peer.ip(), &a.username, req.password).await {
        return r;
    }
    let ids = games_of(&app, &a.id).await.unwrap_or_default();
    let done = async {
        let mut tx = app.db.begin().await?;
        for side in ["white", "black"] {
            sqlx::query(&format!(
                "UPDATE games SET {side}_account = NULL, {side}_name = NULL, version = version + 1 WHERE {side}_account = $1"
            ))
            .bind(&a.id)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("DELETE FROM account_sessions WHERE account_id = $1").bind(&a.id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM notifications WHERE account_id = $1").bind(&a.id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM pool_entries WHERE account_id = $1").bind(&a.id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM push_subscriptions WHERE account_id = $1").bind(&a.id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM notify_presence WHERE account_id = $1").bind(&a.id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM api_tokens WHERE account_id = $1").bind(&a.id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM account_prefs WHERE account_id = $1").bind(&a.id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM learn_progress WHERE account_id = $1").bind(&a.id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM puzzle_rounds WHERE account_id = $1").bind(&a.id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM puzzle_players WHERE account_id = $1").bind(&a.id).execute(&mut *tx).await?;
        sqlx::query("UPDATE challenges SET status = 'canceled' WHERE (challenger = $1 OR dest = $1) AND status = 'created'")
            .bind(&a.id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE accounts SET password_hash = '', deleted_at = $2 WHERE id = $1")
            .bind(&a.id)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }
    .await;
    if let Err(e) = done {
        return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    }
    for id in ids {
        app.reload_game(&id).await;
    }
    with_cookie(Json(json!({})).into_response(), cookie(&app, "", 0))
}

/// The ids of the games whose seats `account` holds, newest first.
async fn games_of(app: &App, account: &str) -> Result<Vec<String>, String> {
    let rows = sqlx::query(
        "SELECT id FROM games WHERE white_account = $1 OR black_account = $1 ORDER BY created_at DESC LIMIT 10000",
    )
    .bind(account)
    .fetch_all(&app.db)
    .await
    .map_err(|e| e.to_string())?;
    Ok(rows.into_iter().map(|r| r.get::<String, _>(0)).collect())
}

fn attachment(mut r: Response, name: &str) -> Response {
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `GET /api/account/export`: everything the store keeps of the account, as
/// JSON: the account (never its password hash or sessions' keys) and its
/// games, each as the game page shows it (no seat tokens).
async fn export_json(State(app): State<App>, headers: HeaderMap) -> Response {
    let (a, ids) = match account_and_games(&app, &headers).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let sessions: Vec<Value> =
        match sqlx::query("SELECT created_at, seen_at, expires_at FROM account_sessions WHERE account_id = $1")
            .bind(&a.id)
            .fetch_all(&app.db)
            .await
        {
            Ok(rows) => rows
                .into_iter()
                .map(|r| {
                    json!({"created_at": r.get::<i64, _>(0), "seen_at": r.get::<i64, _>(1), "expires_at": r.get::<i64, _>(2)})
                })
                .collect(),
            Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        };
    let mut games = Vec::new();
    for id in ids {
        if let Ok(Some(l)) = crate::store::load_game(&app.db, &app.cpu, &id).await {
            let mut v = l.view();
            if let Some(o) = v.as_object_mut() {
                let color = if l.white_account.as_deref() == Some(&a.id) { "white" } else { "black" };
                o.insert("your_color".into(), json!(color));
                for k in ["legal", "t", "history_from"] {
                    o.remove(k);
                }
            }
            games.push(v);
        }
    }
    // Its notifications and the challenges it made or received.
    let rows = |sql: &'static str| {
        let (db, id) = (app.db.clone(), a.id.clone());
        async move {
            sqlx::query(sql).bind(id).fetch_all(&db).await.map(|rows| {
                rows.iter()
                    .map(|r| {
                        let mut o = serde_json::Map::new();
                        for (i, c) in r.columns().iter().enumerate() {
                            let v = r
                                .try_get::<Option<String>, _>(i)
                                .map(|s| json!(s))
                                .or_else(|_| r.try_get::<Option<i64>, _>(i).map(|n| json!(n)))
                                .unwrap_or(Value::Null);
                            o.insert(sqlx::Column::name(c).to_string(), v);
                        }
                        Value::Object(o)
                    })
                    .collect::<Vec<Value>>()
            })
        }
    };
    let notifications = rows("SELECT kind, data, created_at, read_at FROM notifications WHERE account_id = $1").await;
    let challenges = rows(
        "SELECT c.id, fa.username AS challenger, ta.username AS dest, c.variant, c.rule_options, c.clock_initial, \
         c.clock_increment, c.days_per_move, c.rated, c.color, c.status, c.decline_reason, c.created_at \
         FROM challenges c LEFT JOIN accounts fa ON fa.id = c.challenger LEFT JOIN accounts ta ON ta.id = c.dest \
         WHERE c.challenger = $1 OR c.dest = $1",
    )
    .await;
    let push = crate::webpush::list(&app, &a.id).await;
    let tokens = crate::tokens::list_of(&app, &a.id).await;
    let (Ok(notifications), Ok(challenges), Ok(push), Ok(tokens)) = (notifications, challenges, push, tokens) else {
        return err(
            StatusCode::INTERNAL_SERVER_ERROR,
            "could not read the notifications, challenges, push subscriptions and API tokens",
        );
    };
    let body = json!({
        "account": {"username": a.username, "created_at": a.created_at},
        "sessions": sessions,
        "games": games,
        "challenges": challenges,
        "notifications": notifications,
        "push_subscriptions": push,
        "api_tokens": tokens,
    });
    attachment(Json(body).into_response(), "chimera-account.json")
}

/// `GET /api/account/export.pgn`: every game of the account as PGN.
async fn export_pgn(State(app): State<App>, headers: HeaderMap) -> Response {
    let (_, ids) = match account_and_games(&app, &headers).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let mut text = String::new();
    for id in ids {
        if let Ok(Some(l)) = crate::store::load_game(&app.db, &app.cpu, &id).await {
            let review = crate::pgn_comments::stored_review(&app, &id).await;
            text.push_str(&crate::web::pgn_of(&l, review.as_ref()));
            text.push('\n');
        }
    }
    let r = ([(header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8")], text).into_response();
    attachment(r, "chimera-games.pgn")
}

/// `GET /api/games/{id}/seat`: the seat token(s) the logged-in account
/// holds in game `id` (so its seats follow it to any device); 404 when it
/// holds none, or when nobody is logged in (as for a spectator).
async fn seat(State(app): State<App>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let a = match current(&app, &headers).await {
        Ok(Some(a)) => a,
        Ok(None) => return err(StatusCode::NOT_FOUND, "no seat of yours in this game (not logged in)"),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    let h = match app.game(&id).await {
        Ok(Some(h)) => h,
        Ok(None) => return err(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    let l = h.live.lock().await;
    let mut colors = Vec::new();
    let mut token = None;
    for (acc, tok, c) in [(&l.white_account, &l.white_token, "white"), (&l.black_account, &l.black_token, "black")] {
        if acc.as_deref() == Some(&a.id) {
            colors.push(c);
            token = token.or(tok.clone());
        }
    }
    match token {
        Some(t) => {
            let mut r = Json(json!({"token": t, "colors": colors})).into_response();
            r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            r
        }
        None => err(StatusCode::NOT_FOUND, "no seat of yours in this game"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_auth::StorageKey;

    #[test]
    fn the_session_cookie_is_read_among_others() {
        let id = SessionId::generate().unwrap();
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, HeaderValue::from_str(&format!("a=b; {COOKIE}={}; c=d", id.as_str())).unwrap());
        assert_eq!(session_id(&h).map(|s| s.storage_key()), Some(id.storage_key()));
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, HeaderValue::from_static("chimera_session=not-a-session"));
        assert!(session_id(&h).is_none(), "a malformed secret is no session");
        assert!(session_id(&HeaderMap::new()).is_none());
    }

    #[test]
    fn storage_keys_are_hex_of_the_secret() {
        let id = SessionId::generate().unwrap();
        assert_eq!(StorageKey::from_hex(&id.storage_key().to_hex()), Some(id.storage_key()));
        assert_ne!(id.storage_key().to_hex(), id.as_str());
    }
}
