//! Personal API tokens and who a request acts for (`docs/api.md`,
//! "Tokens"): a program sends `Authorization: Bearer chp_...`; a page sends
//! its session cookie. The token is `chimera_auth::ApiToken` (256 random
//! bits); the store keeps its SHA-256 only, and looks a presented token up
//! by that key, so no token is ever compared.
//!
//! - Scopes are lichess's (`bot:play`, `board:play`, `challenge:read`,
//!   `challenge:write`); a token lacking the scope gets 403, an unknown or
//!   revoked one 401. Every request reads the store, so a revocation holds
//!   at once on every instance.
//! - A request with a token is authenticated by the token alone: its
//!   cookies are not read, and a page's endpoints (the account's password,
//!   deletion, its tokens) refuse it. Such a request cannot come from
//!   another site's page (browsers send no `Authorization` header across
//!   sites without a CORS preflight, which this server never grants), so
//!   it may post a form or an empty body (`net::guard`).
//! - Limits: failed token checks per client address (after
//!   `Config::token_failure_burst` within a minute, every token from that
//!   address is refused before it is looked up), requests per token
//!   (`Config::token_rate` a second), streams per account (`botapi`).

use crate::net::error as err;
use crate::App;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chimera_auth::ApiToken;
use governor::DefaultKeyedRateLimiter;
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;
use std::net::IpAddr;

/// What a token may be used for (lichess's scope names).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    BotPlay,
    BoardPlay,
    ChallengeRead,
    ChallengeWrite,
}

impl Scope {
    pub const ALL: [Scope; 4] = [Scope::BotPlay, Scope::BoardPlay, Scope::ChallengeRead, Scope::ChallengeWrite];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::BotPlay => "bot:play",
            Scope::BoardPlay => "board:play",
            Scope::ChallengeRead => "challenge:read",
            Scope::ChallengeWrite => "challenge:write",
        }
    }

    pub fn parse(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// The most live (unrevoked) tokens an account may have.
pub const MAX_TOKENS: i64 = 20;

/// `used_at` is written at most this often per token (one minute).
const USED_EVERY_MS: i64 = 60_000;

/// Who a request acts for.
#[derive(Clone, Debug)]
pub struct Caller {
    pub account: crate::accounts::Account,
    /// A BOT account (`docs/api.md`): plays only through the Bot API.
    pub bot: bool,
    /// The token's id and scopes; `None` for a page's session.
    pub token: Option<(String, Vec<Scope>)>,
}

impl Caller {
    pub fn has(&self, scope: Scope) -> bool {
        self.token.as_ref().is_none_or(|(_, s)| s.contains(&scope))
    }
}

/// The token of a request: `Some(Ok)` for `Authorization: Bearer <token>`,
/// `Some(Err)` for any other `Authorization` header.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<Result<&str, ()>> {
    let v = headers.get(header::AUTHORIZATION)?;
    let s = v.to_str().map_err(|_| ());
    Some(s.and_then(|s| {
        let (scheme, rest) = s.split_once(' ').ok_or(())?;
        scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim()).ok_or(())
    }))
}

/// The limits kept in memory: failed token checks per address, requests per
/// token.
pub struct Limits {
    pub(crate) failures: crate::FailedJoins,
    pub(crate) per_token: DefaultKeyedRateLimiter<String>,
}

impl Limits {
    pub(crate) fn new(cfg: &crate::Config) -> Limits {
        use governor::{Quota, RateLimiter};
        use std::num::NonZeroU32;
        // A burst of two seconds' worth of requests.
        let rate = NonZeroU32::new(cfg.token_rate.max(1)).expect("at least one");
        let burst = NonZeroU32::new(cfg.token_rate.max(1).saturating_mul(2)).expect("at least two");
        Limits {
            failures: crate::FailedJoins::new(cfg.token_failure_burst, std::time::Duration::from_secs(60)),
            per_token: RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst)),
        }
    }

    pub(crate) fn sweep(&self) {
        self.failures.sweep();
        self.per_token.retain_recent();
        self.per_token.shrink_to_fit();
    }
}

pub(crate) fn too_many(message: impl Into<String>, wait: u64) -> Response {
    let mut r = err(StatusCode::TOO_MANY_REQUESTS, message);
    if let Ok(v) = HeaderValue::from_str(&wait.max(1).to_string()) {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}

/// The account a request acts for, with a token that has one of `scopes`,
/// or (when `session` allows it) a page's session; else the answer to give:
/// 401 (no such token, not logged in), 403 (missing scope), 429 (limits).
pub async fn authorize(
    app: &App,
    headers: &HeaderMap,
    ip: IpAddr,
    scopes: &[Scope],
    session: bool,
) -> Result<Caller, Response> {
    let Some(presented) = bearer(headers) else {
        if !session {
            return Err(err(StatusCode::UNAUTHORIZED, "No such token"));
        }
        let a = crate::accounts::need(app, headers).await?;
        let bot = is_bot(app, &a.id).await.map_err(|e| err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        return Ok(Caller { account: a, bot, token: None });
    };
    let client = crate::net::client_key(ip);
    if let Err(wait) = app.api.failures.check(client) {
        return Err(too_many(format!("too many failed token checks from your address: wait {wait} s"), wait));
    }
    let key = presented.ok().and_then(ApiToken::parse).map(|t| t.storage_key().to_hex());
    let row = match &key {
        None => None,
        Some(k) => sqlx::query(
            "SELECT t.id, t.scopes, t.used_at, a.id, a.username, a.created_at, a.kind FROM api_tokens t \
             JOIN accounts a ON a.id = t.account_id WHERE t.key = $1 AND t.revoked_at IS NULL AND a.deleted_at IS NULL",
        )
        .bind(k)
        .fetch_optional(&app.db)
        .await
        .map_err(|e| err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?,
    };
    let Some(r) = row else {
        app.api.failures.failed(client);
        return Err(err(StatusCode::UNAUTHORIZED, "No such token"));
    };
    let id: String = r.get(0);
    if let Err(not_until) = app.api.per_token.check_key(&id) {
        use governor::clock::{Clock, DefaultClock};
        let wait = not_until.wait_time_from(DefaultClock::default().now()).as_secs().max(1);
        return Err(too_many(format!("too many requests with this token: wait {wait} s"), wait));
    }
    let have: Vec<Scope> = r.get::<String, _>(1).split_whitespace().filter_map(Scope::parse).collect();
    if !scopes.iter().any(|s| have.contains(s)) {
        return Err(err(StatusCode::FORBIDDEN, "Missing scope"));
    }
    let now = crate::live::now_ms();
    if r.get::<Option<i64>, _>(2).is_none_or(|u| now - u >= USED_EVERY_MS) {
        let _ =
            sqlx::query("UPDATE api_tokens SET used_at = $2 WHERE id = $1").bind(&id).bind(now).execute(&app.db).await;
    }
    let account = crate::accounts::Account { id: r.get(3), username: r.get(4), created_at: r.get(5) };
    Ok(Caller { account, bot: r.get::<String, _>(6) == "bot", token: Some((id, have)) })
}

/// True if `account` is a BOT account (a house bot's or a program's).
pub async fn is_bot(app: &App, account: &str) -> Result<bool, sqlx::Error> {
    let kind: Option<String> =
        sqlx::query_scalar("SELECT kind FROM accounts WHERE id = $1").bind(account).fetch_optional(&app.db).await?;
    Ok(kind.as_deref() == Some("bot"))
}

/// A BOT account takes no seat from a page (seeks, pools, invites,
/// challenges made or accepted with the session): the 403 to answer.
pub async fn refuse_bot(app: &App, account: Option<&str>) -> Result<(), Response> {
    let Some(a) = account else { return Ok(()) };
    match is_bot(app, a).await {
        Ok(false) => Ok(()),
        Ok(true) => Err(err(StatusCode::FORBIDDEN, "BOT accounts play through the Bot API only (docs/api.md)")),
        Err(e) => Err(err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
    }
}

/// Revokes every live token of `account` (a change of password, log-out
/// everywhere, the account's deletion).
pub async fn revoke_all<'e, E>(db: E, account: &str) -> Result<u64, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    Ok(sqlx::query("UPDATE api_tokens SET revoked_at = $2 WHERE account_id = $1 AND revoked_at IS NULL")
        .bind(account)
        .bind(crate::live::now_ms())
        .execute(db)
        .await?
        .rows_affected())
}

pub fn routes() -> axum::Router<App> {
    use axum::routing::{delete, get, post};
    axum::Router::new()
        .route("/api/account/tokens", get(api_list).post(api_create))
        .route("/api/account/tokens/{id}/revoke", post(api_revoke))
        .route("/api/token", delete(api_revoke_self))
}

/// The account of a page's session; a token is refused here (a token
/// cannot make or see tokens).
async fn page_account(app: &App, headers: &HeaderMap) -> Result<crate::accounts::Account, Response> {
    if bearer(headers).is_some() {
        return Err(err(StatusCode::FORBIDDEN, "tokens are managed from the account page, not with a token"));
    }
    crate::accounts::need(app, headers).await
}

fn view(r: &sqlx::any::AnyRow) -> Value {
    let scopes: String = r.get("scopes");
    json!({
        "id": r.get::<String, _>("id"),
        "description": r.get::<String, _>("description"),
        "scopes": scopes.split_whitespace().collect::<Vec<_>>(),
        "createdAt": r.get::<i64, _>("created_at"),
        "usedAt": r.get::<Option<i64>, _>("used_at"),
        "revokedAt": r.get::<Option<i64>, _>("revoked_at"),
    })
}

/// An account's tokens as its data export and its page show them (never the
/// token).
pub async fn list_of(app: &App, account: &str) -> Result<Vec<Value>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, description, scopes, created_at, used_at, revoked_at FROM api_tokens WHERE account_id = $1 \
         ORDER BY created_at DESC LIMIT 200",
    )
    .bind(account)
    .fetch_all(&app.db)
    .await?;
    Ok(rows.iter().map(view).collect())
}

/// `GET /api/account/tokens`: the account's tokens.
async fn api_list(State(app): State<App>, headers: HeaderMap) -> Response {
    let a = match page_account(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    match list_of(&app, &a.id).await {
        Ok(list) => {
            let mut r = Json(json!({"tokens": list})).into_response();
            r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            r
        }
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    description: String,
    scopes: Vec<String>,
}

/// `POST /api/account/tokens` `{description, scopes}`: a new token, shown
/// this once.
async fn api_create(State(app): State<App>, headers: HeaderMap, body: Bytes) -> Response {
    let a = match page_account(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let req: CreateReq = match crate::web::parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    let description = req.description.trim();
    if description.is_empty() || description.chars().count() > 60 || description.chars().any(char::is_control) {
        return err(StatusCode::BAD_REQUEST, "a token's description is 1 to 60 characters, no control characters");
    }
    let mut scopes = Vec::new();
    for s in &req.scopes {
        match Scope::parse(s) {
            Some(x) if !scopes.contains(&x) => scopes.push(x),
            Some(_) => {}
            None => {
                let known: Vec<&str> = Scope::ALL.iter().map(|s| s.as_str()).collect();
                return err(StatusCode::BAD_REQUEST, format!("unknown scope '{s:.30}': one of {}", known.join(", ")));
            }
        }
    }
    if scopes.is_empty() {
        return err(StatusCode::BAD_REQUEST, "a token needs at least one scope");
    }
    let bot = match is_bot(&app, &a.id).await {
        Ok(b) => b,
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    if bot && scopes.contains(&Scope::BoardPlay) {
        return err(StatusCode::BAD_REQUEST, "a BOT account plays through the Bot API: board:play is for people");
    }
    let live: i64 =
        match sqlx::query_scalar("SELECT COUNT(*) FROM api_tokens WHERE account_id = $1 AND revoked_at IS NULL")
            .bind(&a.id)
            .fetch_one(&app.db)
            .await
        {
            Ok(n) => n,
            Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        };
    if live >= MAX_TOKENS {
        return err(StatusCode::CONFLICT, format!("you have {MAX_TOKENS} tokens: revoke one before making another"));
    }
    let token = match ApiToken::generate() {
        Ok(t) => t,
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let id = crate::random_hex(8);
    let now = crate::live::now_ms();
    let scope_text = scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ");
    let stored = sqlx::query(
        "INSERT INTO api_tokens (id, account_id, key, description, scopes, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&id)
    .bind(&a.id)
    .bind(token.storage_key().to_hex())
    .bind(description)
    .bind(&scope_text)
    .bind(now)
    .execute(&app.db)
    .await;
    if let Err(e) = stored {
        return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    }
    let mut r = Json(json!({
        "id": id, "token": token.as_str(), "description": description,
        "scopes": scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>(), "createdAt": now,
    }))
    .into_response();
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `POST /api/account/tokens/{id}/revoke`: revokes one of the account's
/// tokens.
async fn api_revoke(State(app): State<App>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let a = match page_account(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let done =
        sqlx::query("UPDATE api_tokens SET revoked_at = $3 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL")
            .bind(&id)
            .bind(&a.id)
            .bind(crate::live::now_ms())
            .execute(&app.db)
            .await;
    match done {
        Ok(r) if r.rows_affected() == 1 => Json(json!({"ok": true})).into_response(),
        Ok(_) => err(StatusCode::NOT_FOUND, "no such token (or it was revoked already)"),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// `DELETE /api/token`: the token that asks is revoked (lichess's path).
async fn api_revoke_self(
    State(app): State<App>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
) -> Response {
    let c = match authorize(&app, &headers, peer.ip(), &Scope::ALL, false).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let Some((id, _)) = c.token else { return err(StatusCode::UNAUTHORIZED, "No such token") };
    match sqlx::query("UPDATE api_tokens SET revoked_at = $2 WHERE id = $1")
        .bind(&id)
        .bind(crate::live::now_ms())
        .execute(&app.db)
        .await
    {
        Ok(_) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_is_read_from_the_authorization_header() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), None);
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer chp_abc"));
        assert_eq!(bearer(&h), Some(Ok("chp_abc")));
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("bearer   chp_abc "));
        assert_eq!(bearer(&h), Some(Ok("chp_abc")));
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic YTpi"));
        assert_eq!(bearer(&h), Some(Err(())));
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("chp_abc"));
        assert_eq!(bearer(&h), Some(Err(())));
    }

    #[test]
    fn scopes_are_lichess_names() {
        for s in Scope::ALL {
            assert_eq!(Scope::parse(s.as_str()), Some(s));
        }
        assert_eq!(Scope::parse("bot:Play"), None);
        assert_eq!(Scope::parse("web:login"), None);
    }
}
