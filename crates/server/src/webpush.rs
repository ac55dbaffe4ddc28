//! Web Push (`docs/server.md`, "Web Push"): a challenge received or the
//! opponent's move in a correspondence game reaches an account's devices
//! while no page of the site is open, as a system notification.
//!
//! - A page asks for it on its device (opt-in): the browser subscribes with
//!   its push service, the page sends the subscription here
//!   (`POST /api/push/subscribe`) and the store keeps it.
//! - After [`crate::notify::push`] stores a notification of kind
//!   `challenge`, `move` or `game_over` (correspondence games only make the
//!   last two), an account with no `/ws/notify` socket on any instance
//!   (`notify::away`) gets a push on each of its subscriptions, in a task
//!   of its own.
//! - Each push is one HTTP POST to the subscription's endpoint: the payload
//!   encrypted for the browser (RFC 8291, aes128gcm) and signed for the
//!   push service with the server's VAPID key (RFC 8292), built by
//!   `web-push-native`, sent by `reqwest` (rustls). The key pair is in the
//!   store (`server_keys`), the same for every instance of one store.
//! - Only to the push services of [`Config::push_services`]: the endpoint's
//!   origin must match one (SSRF: the server never posts to an address a
//!   client chose), checked at subscription and again before each send; no
//!   redirect is followed; 10 s at most.
//!
//! [`Config::push_services`]: crate::Config::push_services

use crate::net::error as err;
use crate::App;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64ct::{Base64UrlUnpadded, Encoding};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;
use std::sync::Arc;
use std::time::Duration;
use web_push_native::jwt_simple::algorithms::{ECDSAP256KeyPairLike, ECDSAP256PublicKeyLike, ES256KeyPair};
use web_push_native::jwt_simple::claims::Claims;

/// The push services of the browsers people use: Chrome (and the
/// Chromium browsers), Firefox, Safari, Edge (Windows Push Notification
/// Services, one of its hosts per region).
pub const DEFAULT_SERVICES: &[&str] = &[
    "https://fcm.googleapis.com",
    "https://updates.push.services.mozilla.com",
    "https://web.push.apple.com",
    "https://*.notify.windows.com",
];

/// The longest endpoint taken (the services' are a few hundred bytes).
pub const MAX_ENDPOINT: usize = 1024;
/// Subscriptions an account keeps at most: one more drops its oldest.
pub const MAX_PER_ACCOUNT: i64 = 10;
/// A push request's time limit, connection included.
const TIMEOUT: Duration = Duration::from_secs(10);
/// The VAPID token's lifetime (RFC 8292: 24 hours at most).
const TOKEN_LIFE_HOURS: u64 = 12;
/// A day, the TTL of a move's and a game's end's push.
const DAY_SECS: u64 = 24 * 3600;

/// The server's push sender: its VAPID key (read from the store, or made
/// there, on first use) and its HTTP client.
#[derive(Default)]
pub struct Sender {
    key: tokio::sync::OnceCell<Arc<ES256KeyPair>>,
    client: std::sync::OnceLock<reqwest::Client>,
}

/// An origin as the allowlist and the endpoints have it.
#[derive(Debug, PartialEq, Eq)]
struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    fn text(&self) -> String {
        let default = if self.scheme == "https" { 443 } else { 80 };
        if self.port == default {
            format!("{}://{}", self.scheme, self.host)
        } else {
            format!("{}://{}:{}", self.scheme, self.host, self.port)
        }
    }
}

/// Reads `scheme://host[:port]` followed by `rest` (a path, or nothing for
/// an allowlist entry), refusing what two URL parsers might read apart:
/// anything but visible ASCII, a backslash, user information, an empty or
/// percent-encoded host.
fn parse_origin(text: &str, wildcard: bool) -> Result<(Origin, &str), String> {
    if !text.bytes().all(|b| b.is_ascii_graphic()) || text.contains('\\') {
        return Err("only visible ASCII characters, and no backslash".into());
    }
    let (scheme, rest) = text.split_once("://").ok_or("no scheme://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return Err(format!("{scheme}: only https (and http for a test) are sent to"));
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    if authority.contains('@') {
        return Err("no user name or password in the address".into());
    }
    // (An IPv6 literal's brackets fail the host check below: refused.)
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (h, p.parse::<u16>().map_err(|_| format!("bad port '{p}'"))?),
        None => (authority, if scheme == "https" { 443 } else { 80 }),
    };
    let host = host.to_ascii_lowercase();
    let label_ok = |l: &str| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let ok = if wildcard {
        host.strip_prefix("*.").unwrap_or(&host).split('.').all(label_ok)
    } else {
        host.split('.').all(label_ok)
    };
    if !ok {
        return Err(format!("bad host name '{host}'"));
    }
    Ok((Origin { scheme, host, port }, tail))
}

/// Checks an allowlist entry (`chimera serve --push-service`): an origin,
/// `https://HOST[:PORT]`, whose host may start with `*.` (any one label).
pub fn check_service(s: &str) -> Result<(), String> {
    match parse_origin(s, true) {
        Ok((_, "")) => Ok(()),
        Ok(_) => Err(format!("'{s}': an origin has no path")),
        Err(e) => Err(format!("'{s}': {e}")),
    }
}

fn matches(pattern: &Origin, o: &Origin) -> bool {
    if pattern.scheme != o.scheme || pattern.port != o.port {
        return false;
    }
    match pattern.host.strip_prefix("*.") {
        Some(suffix) => o
            .host
            .strip_suffix(suffix)
            .and_then(|h| h.strip_suffix('.'))
            .is_some_and(|label| !label.is_empty() && !label.contains('.')),
        None => pattern.host == o.host,
    }
}

/// The origin of `endpoint` if it is one of `services`' (why not, in words).
fn allowed(endpoint: &str, services: &[String]) -> Result<Origin, String> {
    if endpoint.len() > MAX_ENDPOINT {
        return Err(format!("the endpoint is {} bytes long: {MAX_ENDPOINT} at most", endpoint.len()));
    }
    let (o, _) = parse_origin(endpoint, false).map_err(|e| format!("unreadable endpoint: {e}"))?;
    if services.iter().filter_map(|s| parse_origin(s, true).ok()).any(|(p, _)| matches(&p, &o)) {
        Ok(o)
    } else {
        Err(format!("{} is not a push service this server sends to", o.text()))
    }
}

/// The URL parser of the HTTP client reads the same origin as [`allowed`].
fn same_origin(url: &reqwest::Url, o: &Origin) -> bool {
    url.scheme() == o.scheme
        && url.host_str() == Some(o.host.as_str())
        && url.port_or_known_default() == Some(o.port)
        && url.username().is_empty()
        && url.password().is_none()
}

fn b64(s: &str) -> Option<Vec<u8>> {
    Base64UrlUnpadded::decode_vec(s.trim_end_matches('=')).ok()
}

/// The server's VAPID key pair: read from the store, or made and written
/// there by the first instance that needs it (the others read that one).
async fn key(app: &App) -> Result<Arc<ES256KeyPair>, String> {
    app.push
        .key
        .get_or_try_init(|| async {
            let fresh = ES256KeyPair::generate();
            sqlx::query(
                "INSERT INTO server_keys (name, value, created_at) VALUES ('vapid', $1, $2) ON CONFLICT (name) DO NOTHING",
            )
            .bind(Base64UrlUnpadded::encode_string(&fresh.to_bytes()))
            .bind(crate::live::now_ms())
            .execute(&app.db)
            .await
            .map_err(|e| format!("could not store the push key: {e}"))?;
            let stored: String = sqlx::query("SELECT value FROM server_keys WHERE name = 'vapid'")
                .fetch_one(&app.db)
                .await
                .map_err(|e| format!("could not read the push key: {e}"))?
                .get(0);
            let kp = b64(&stored)
                .and_then(|b| ES256KeyPair::from_bytes(&b).ok())
                .ok_or("the stored push key is not a P-256 key")?;
            Ok(Arc::new(kp))
        })
        .await
        .cloned()
}

/// The key's public half as browsers take it (`applicationServerKey`): the
/// uncompressed point, base64url.
fn public_text(kp: &ES256KeyPair) -> String {
    Base64UrlUnpadded::encode_string(&kp.public_key().public_key().to_bytes_uncompressed())
}

fn client(app: &App) -> Result<&reqwest::Client, String> {
    if let Some(c) = app.push.client.get() {
        return Ok(c);
    }
    let c = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(TIMEOUT)
        .connect_timeout(TIMEOUT)
        // Straight to the push service: no proxy from the environment.
        .no_proxy()
        .user_agent(concat!("chimera/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("cannot make the push client: {e}"))?;
    Ok(app.push.client.get_or_init(|| c))
}

/// One push: what the notification says, where it leads, and the request's
/// `TTL` (seconds), `Urgency` and `Topic` (RFC 8030: a newer push of one
/// topic replaces an undelivered older one).
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub title: String,
    pub body: String,
    pub url: String,
    pub tag: String,
    pub ttl: u64,
    pub urgency: &'static str,
    pub topic: String,
}

/// A topic: 32 characters of the base64url alphabet at most.
fn topic(prefix: &str, id: &str) -> String {
    let mut t: String =
        format!("{prefix}-{id}").chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    t.truncate(32);
    t
}

/// The push for a stored notification, if its kind gets one.
pub fn message(kind: &str, d: &Value, now_ms: i64) -> Option<Message> {
    let s = |v: &Value| v.as_str().map(str::to_string);
    match kind {
        "challenge" => {
            let id = s(&d["id"])?;
            let from = s(&d["challenger"]["name"]).unwrap_or_else(|| "Someone".into());
            let variant = s(&d["variant"]["name"]).unwrap_or_default();
            let tc = &d["timeControl"];
            let (time, urgency) = match tc["type"].as_str() {
                Some("correspondence") => {
                    let n = tc["daysPerTurn"].as_i64().unwrap_or(1);
                    (format!("{n} {} a move", if n == 1 { "day" } else { "days" }), "normal")
                }
                Some("clock") => (s(&tc["show"]).unwrap_or_default(), "high"),
                _ => ("no clock".into(), "high"),
            };
            let rated = if d["rated"].as_bool() == Some(true) { "rated" } else { "casual" };
            let left = d["createdAt"].as_i64().unwrap_or(now_ms) + crate::challenges::WAITS_MS - now_ms;
            Some(Message {
                title: format!("A challenge from {from}"),
                body: format!("{from} challenges you: {variant} {time} {rated}"),
                // Challenges are answered from the notifications' list.
                url: "/#notifications".into(),
                tag: format!("challenge-{id}"),
                ttl: (left.max(60_000) / 1000) as u64,
                urgency,
                topic: topic("c", &id),
            })
        }
        "move" => {
            let game = s(&d["game"])?;
            let who = s(&d["opponent"]).unwrap_or_else(|| "Your opponent".into());
            let san = s(&d["san"]).unwrap_or_default();
            let variant = s(&d["variant"]).unwrap_or_default();
            // No longer than the time left for the move.
            let ttl = d["ms_left"].as_i64().map_or(DAY_SECS, |ms| (ms.max(60_000) / 1000) as u64).min(DAY_SECS);
            Some(Message {
                title: "Your move".into(),
                body: format!("{who} moved {san} in your {variant} game"),
                url: s(&d["url"]).unwrap_or_else(|| format!("/game/{game}")),
                tag: format!("game-{game}"),
                ttl,
                urgency: "normal",
                topic: topic("g", &game),
            })
        }
        "game_over" => {
            let game = s(&d["game"])?;
            let variant = s(&d["variant"]).unwrap_or_default();
            let against = s(&d["opponent"]).map(|o| format!(" against {o}")).unwrap_or_default();
            let result = s(&d["result"]).unwrap_or_default();
            let reason = s(&d["reason"]).map(|r| format!(" ({r})")).unwrap_or_default();
            Some(Message {
                title: "Game over".into(),
                body: format!("Your {variant} game{against} is over: {result}{reason}"),
                url: s(&d["url"]).unwrap_or_else(|| format!("/game/{game}")),
                tag: format!("game-{game}"),
                ttl: DAY_SECS,
                urgency: "low",
                topic: topic("g", &game),
            })
        }
        _ => None,
    }
}

/// After `notify::push` stored notification `kind` for `account`: when it
/// gets a push and the account has no page open here, the rest (is one
/// open on another instance? the sends) runs in a task of its own.
pub(crate) fn after_note(app: &App, account: &str, kind: &str, data: &Value) {
    let Some(msg) = message(kind, data, crate::live::now_ms()) else { return };
    if app.notes.listening(account) {
        return;
    }
    let (app, account) = (app.clone(), account.to_string());
    tokio::spawn(async move {
        match crate::notify::away(&app, &account).await {
            Ok(true) => send_all(&app, &account, &msg).await,
            Ok(false) => {}
            Err(e) => eprintln!("push to {account}: {e}"),
        }
    });
}

/// Sends `msg` to every subscription of `account`, one after the other.
pub async fn send_all(app: &App, account: &str, msg: &Message) {
    let rows = sqlx::query("SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE account_id = $1")
        .bind(account)
        .fetch_all(&app.db)
        .await;
    let rows = match rows {
        Ok(r) => r,
        Err(e) => return eprintln!("push to {account}: {e}"),
    };
    for r in rows {
        let (id, endpoint): (String, String) = (r.get(0), r.get(1));
        match send_one(app, &endpoint, &r.get::<String, _>(2), &r.get::<String, _>(3), msg).await {
            Ok(Outcome::Sent) => {
                let _ = sqlx::query("UPDATE push_subscriptions SET used_at = $2 WHERE id = $1")
                    .bind(&id)
                    .bind(crate::live::now_ms())
                    .execute(&app.db)
                    .await;
            }
            Ok(Outcome::Gone) => {
                let _ = sqlx::query("DELETE FROM push_subscriptions WHERE id = $1").bind(&id).execute(&app.db).await;
            }
            Err(e) => eprintln!("push {id} to {account}: {e}"),
        }
    }
}

enum Outcome {
    Sent,
    /// The service no longer knows the subscription (404, 410).
    Gone,
}

async fn send_one(app: &App, endpoint: &str, p256dh: &str, auth: &str, msg: &Message) -> Result<Outcome, String> {
    use web_push_native::p256;
    let origin = allowed(endpoint, &app.config.push_services)?;
    let ua_public = b64(p256dh)
        .and_then(|b| p256::PublicKey::from_sec1_bytes(&b).ok())
        .ok_or("the subscription's p256dh is not a P-256 point")?;
    let ua_auth = b64(auth).filter(|b| b.len() == 16).ok_or("the subscription's auth is not 16 bytes")?;
    let uri: axum::http::Uri = endpoint.parse().map_err(|e| format!("unreadable endpoint: {e}"))?;
    let payload = json!({"title": msg.title, "body": msg.body, "url": msg.url, "tag": msg.tag}).to_string();
    let mut req =
        web_push_native::WebPushBuilder::new(uri, ua_public, web_push_native::Auth::clone_from_slice(&ua_auth))
            .with_valid_duration(Duration::from_secs(msg.ttl))
            .build(payload)
            .map_err(|e| format!("cannot encrypt the push: {e}"))?;
    // RFC 8292: a JWT for the push service's origin (its port too, which
    // the crate's own signer leaves out), valid for hours, with a contact.
    let kp = key(app).await?;
    let claims = Claims::create(web_push_native::jwt_simple::prelude::Duration::from_hours(TOKEN_LIFE_HOURS))
        .with_audience(origin.text())
        .with_subject(&app.config.push_contact);
    let token = kp.sign(claims).map_err(|e| format!("cannot sign the push: {e}"))?;
    let h = req.headers_mut();
    let value = |s: String| HeaderValue::from_str(&s).map_err(|e| e.to_string());
    h.insert(header::AUTHORIZATION, value(format!("vapid t={token}, k={}", public_text(&kp)))?);
    h.insert("urgency", HeaderValue::from_static(msg.urgency));
    h.insert("topic", value(msg.topic.clone())?);
    let req = reqwest::Request::try_from(req).map_err(|e| format!("cannot make the request: {e}"))?;
    if !same_origin(req.url(), &origin) {
        return Err(format!("{endpoint}: the HTTP client reads another origin; not sent"));
    }
    let res = client(app)?.execute(req).await.map_err(|e| format!("{}: {e}", origin.text()))?;
    match res.status().as_u16() {
        200..=299 => Ok(Outcome::Sent),
        404 | 410 => Ok(Outcome::Gone),
        st => Err(format!("{} answered {st}", origin.text())),
    }
}

pub fn routes() -> axum::Router<App> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/api/push/key", get(api_key))
        .route("/api/push/subscriptions", get(api_list))
        .route("/api/push/subscribe", post(api_subscribe))
        .route("/api/push/unsubscribe", post(api_unsubscribe))
}

fn no_store(mut r: Response) -> Response {
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `GET /api/push/key`: `{key, services}`: the VAPID public key (base64url
/// of the uncompressed P-256 point) and whether this server sends pushes
/// at all (`services`: false with an empty allowlist).
async fn api_key(State(app): State<App>) -> Response {
    match key(&app).await {
        Ok(kp) => {
            Json(json!({"key": public_text(&kp), "services": !app.config.push_services.is_empty()})).into_response()
        }
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// `GET /api/push/subscriptions`: the logged-in account's subscriptions,
/// `{subscriptions: [{endpoint, created_at, used_at}]}`, newest first.
async fn api_list(State(app): State<App>, headers: HeaderMap) -> Response {
    let a = match crate::accounts::need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    match list(&app, &a.id).await {
        Ok(v) => no_store(Json(json!({"subscriptions": v})).into_response()),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// An account's subscriptions as it may see them (and its data export
/// gives them): the endpoint and the dates, not the keys.
pub(crate) async fn list(app: &App, account: &str) -> Result<Vec<Value>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT endpoint, created_at, used_at FROM push_subscriptions WHERE account_id = $1 \
         ORDER BY created_at DESC, id DESC",
    )
    .bind(account)
    .fetch_all(&app.db)
    .await?;
    Ok(rows
        .iter()
        .map(|r| {
            json!({"endpoint": r.get::<String, _>(0), "created_at": r.get::<i64, _>(1),
                   "used_at": r.get::<Option<i64>, _>(2)})
        })
        .collect())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    p256dh: String,
    auth: String,
}

/// `PushSubscription.toJSON()`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SubscribeReq {
    endpoint: String,
    #[serde(default)]
    #[allow(dead_code)]
    expiration_time: Option<Value>,
    #[serde(default, deserialize_with = "crate::web::opt_object")]
    keys: Option<Keys>,
}

/// `POST /api/push/subscribe` `{endpoint, keys: {p256dh, auth}}` (the
/// browser's `PushSubscription.toJSON()`): this device gets the account's
/// pushes; `{subscriptions: N}`. An account keeps [`MAX_PER_ACCOUNT`] at
/// most (the oldest goes); an endpoint already kept moves to this account.
async fn api_subscribe(State(app): State<App>, headers: HeaderMap, body: Bytes) -> Response {
    // Who asks first: a stranger learns nothing of the body's rules.
    let a = match crate::accounts::need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let req: SubscribeReq = match crate::web::parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    let Some(keys) = req.keys else {
        return err(StatusCode::BAD_REQUEST, "no keys: {endpoint, keys: {p256dh, auth}} expected");
    };
    if app.config.push_services.is_empty() {
        return err(StatusCode::BAD_REQUEST, "this server sends no Web Push (no push service is allowed)");
    }
    if let Err(e) = allowed(&req.endpoint, &app.config.push_services) {
        return err(StatusCode::BAD_REQUEST, e);
    }
    match b64(&keys.p256dh) {
        Some(b) if b.len() == 65 => {
            if web_push_native::p256::PublicKey::from_sec1_bytes(&b).is_err() {
                return err(StatusCode::BAD_REQUEST, "keys.p256dh is not a point of P-256");
            }
        }
        Some(b) => {
            return err(
                StatusCode::BAD_REQUEST,
                format!("keys.p256dh is {} bytes: an uncompressed P-256 point is 65", b.len()),
            )
        }
        None => return err(StatusCode::BAD_REQUEST, "keys.p256dh is not base64url"),
    }
    match b64(&keys.auth) {
        Some(b) if b.len() == 16 => {}
        Some(b) => return err(StatusCode::BAD_REQUEST, format!("keys.auth is {} bytes: 16 expected", b.len())),
        None => return err(StatusCode::BAD_REQUEST, "keys.auth is not base64url"),
    }
    let now = crate::live::now_ms();
    let done = async {
        let mut tx = app.db.begin().await?;
        sqlx::query(
            "INSERT INTO push_subscriptions (id, account_id, endpoint, p256dh, auth, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (endpoint) DO UPDATE SET account_id = excluded.account_id, \
             p256dh = excluded.p256dh, auth = excluded.auth, created_at = excluded.created_at, used_at = NULL",
        )
        .bind(crate::random_hex(8))
        .bind(&a.id)
        .bind(&req.endpoint)
        .bind(keys.p256dh.trim_end_matches('='))
        .bind(keys.auth.trim_end_matches('='))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM push_subscriptions WHERE account_id = $1 AND id NOT IN \
             (SELECT id FROM push_subscriptions WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)",
        )
        .bind(&a.id)
        .bind(MAX_PER_ACCOUNT)
        .execute(&mut *tx)
        .await?;
        let n: i64 = sqlx::query("SELECT COUNT(*) FROM push_subscriptions WHERE account_id = $1")
            .bind(&a.id)
            .fetch_one(&mut *tx)
            .await?
            .get(0);
        tx.commit().await?;
        Ok::<_, sqlx::Error>(n)
    }
    .await;
    match done {
        Ok(n) => no_store(Json(json!({"subscriptions": n})).into_response()),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnsubscribeReq {
    endpoint: String,
}

/// `POST /api/push/unsubscribe` `{endpoint}`: the account's subscription
/// of that endpoint is deleted; `{removed: true|false}` (false when the
/// account has none with it: another account's is left alone).
async fn api_unsubscribe(State(app): State<App>, headers: HeaderMap, body: Bytes) -> Response {
    // Who asks first: a stranger learns nothing of the body's rules.
    let a = match crate::accounts::need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let req: UnsubscribeReq = match crate::web::parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    if req.endpoint.len() > MAX_ENDPOINT {
        return err(StatusCode::BAD_REQUEST, format!("the endpoint is over {MAX_ENDPOINT} bytes"));
    }
    match sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1 AND account_id = $2")
        .bind(&req.endpoint)
        .bind(&a.id)
        .execute(&app.db)
        .await
    {
        Ok(r) => no_store(Json(json!({"removed": r.rows_affected() > 0})).into_response()),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn services() -> Vec<String> {
        DEFAULT_SERVICES.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_browsers_push_services_are_allowed() {
        for e in [
            "https://fcm.googleapis.com/fcm/send/abc:APA91b",
            "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
            "https://web.push.apple.com/QGx1Y2s",
            "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
            "https://FCM.googleapis.com:443/fcm/send/x",
        ] {
            assert!(allowed(e, &services()).is_ok(), "{e}");
        }
    }

    #[test]
    fn other_addresses_are_refused() {
        for e in [
            "http://fcm.googleapis.com/fcm/send/x",
            "https://fcm.googleapis.com:8443/x",
            "https://fcm.googleapis.com.evil.example/x",
            "https://evil.example/fcm.googleapis.com",
            "https://fcm.googleapis.com@evil.example/x",
            "https://evil.example#@fcm.googleapis.com/",
            "https://notify.windows.com/w/",
            "https://a.b.notify.windows.com/w/",
            "https://evilnotify.windows.com/w/",
            "https://fcm.googleapis.com\\@evil.example/",
            "https://127.0.0.1/x",
            "https://[::1]/x",
            "file:///etc/passwd",
            "https://fcm.googleapis.com /x",
            "https://fcm%2egoogleapis.com/x",
        ] {
            assert!(allowed(e, &services()).is_err(), "{e}");
        }
    }

    #[test]
    fn a_test_origin_with_a_port() {
        let s = vec!["http://127.0.0.1:4567".to_string()];
        assert!(allowed("http://127.0.0.1:4567/push/1", &s).is_ok());
        assert!(allowed("http://127.0.0.1:4568/push/1", &s).is_err());
        assert!(allowed("http://127.0.0.1/push/1", &s).is_err());
        assert!(check_service("http://127.0.0.1:4567").is_ok());
        assert!(check_service("https://*.notify.windows.com").is_ok());
        assert!(check_service("https://x.example/path").is_err());
        assert!(check_service("ftp://x.example").is_err());
    }

    #[test]
    fn both_parsers_read_one_origin() {
        let (o, _) = parse_origin("https://Web.Push.Apple.com/abc?x=1", false).unwrap();
        assert!(same_origin(&reqwest::Url::parse("https://Web.Push.Apple.com/abc?x=1").unwrap(), &o));
        assert_eq!(o.text(), "https://web.push.apple.com");
    }

    #[test]
    fn messages_in_words() {
        let m = message(
            "move",
            &json!({"game": "abc123", "url": "/game/abc123", "san": "Nf3", "opponent": "Bob", "variant": "Genesis", "ms_left": 3_600_000_i64 * 48}),
            0,
        )
        .unwrap();
        assert_eq!(m.body, "Bob moved Nf3 in your Genesis game");
        assert_eq!((m.ttl, m.topic.as_str()), (DAY_SECS, "g-abc123"));
        let c = message(
            "challenge",
            &json!({"id": "c1", "challenger": {"name": "Ann"}, "variant": {"name": "Clown Chess"},
                    "timeControl": {"type": "clock", "show": "5+3"}, "rated": true, "createdAt": 0}),
            0,
        )
        .unwrap();
        assert_eq!(c.body, "Ann challenges you: Clown Chess 5+3 rated");
        assert_eq!((c.urgency, c.ttl), ("high", (crate::challenges::WAITS_MS / 1000) as u64));
        assert!(message("seek_taken", &json!({}), 0).is_none());
        assert_eq!(topic("g", &"x".repeat(40)).len(), 32);
    }
}
