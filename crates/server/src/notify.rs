//! Notifications for accounts (`docs/server.md`, "Challenges and
//! notifications"): a challenge received, declined or accepted, a seek
//! taken, the opponent's move and the end of a correspondence game.
//!
//! Each is a row of `notifications`, then delivered at once to the
//! account's open pages: every page of the site keeps one WebSocket,
//! `/ws/notify`, authenticated by the session cookie. An instance delivers
//! to the pages it serves; on PostgreSQL the writing transaction's
//! `NOTIFY` (payload `@` and the notification's id) tells the other
//! instances, which deliver it to theirs. A page that was closed reads the
//! list (`GET /api/notifications`) when it opens.

use crate::net::{self, error as err, SocketKind};
use crate::App;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use sqlx::Row;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::Instant;
use tokio::sync::broadcast;

/// The most notifications the list gives (the newest).
const LIST: i64 = 50;

/// Notifications older than this are deleted (30 days).
pub const KEEP_MS: i64 = 30 * 24 * 3600 * 1000;

/// The open notification sockets of this instance, by account.
#[derive(Default)]
pub struct Hub {
    subs: Mutex<HashMap<String, broadcast::Sender<String>>>,
}

impl Hub {
    fn subscribe(&self, account: &str) -> broadcast::Receiver<String> {
        let mut m = self.subs.lock().unwrap_or_else(|e| e.into_inner());
        m.entry(account.to_string()).or_insert_with(|| broadcast::channel(32).0).subscribe()
    }

    /// Delivers `text` to the account's open sockets here; forgets an
    /// account with none.
    fn deliver(&self, account: &str, text: String) {
        let mut m = self.subs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = m.get(account) {
            if tx.send(text).is_err() {
                m.remove(account);
            }
        }
    }

    pub(crate) fn listening(&self, account: &str) -> bool {
        self.subs.lock().unwrap_or_else(|e| e.into_inner()).get(account).is_some_and(|t| t.receiver_count() > 0)
    }
}

/// One notification as pages get it.
fn item(id: &str, kind: &str, data: &str, created_at: i64, read: bool) -> Value {
    json!({
        "id": id, "kind": kind, "data": serde_json::from_str::<Value>(data).unwrap_or(Value::Null),
        "created_at": created_at, "read": read,
    })
}

/// Tells `account` `kind` with `data`: stored, then delivered to its open
/// pages on every instance. A failure is logged; nothing else depends on it.
pub async fn push(app: &App, account: &str, kind: &str, data: Value) {
    let id = crate::random_hex(8);
    let now = crate::live::now_ms();
    let text = data.to_string();
    let stored = async {
        let mut tx = app.db.begin().await?;
        sqlx::query("INSERT INTO notifications (id, account_id, kind, data, created_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(&id)
            .bind(account)
            .bind(kind)
            .bind(&text)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        if chimera_store::backend(&app.db) == chimera_store::Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(crate::store::CHANNEL)
                .bind(format!("@{id} {account}"))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await
    }
    .await;
    if let Err(e) = stored {
        eprintln!("notification for {account}: {e}");
        return;
    }
    app.notes.deliver(account, json!({"t": "notification", "item": item(&id, kind, &text, now, false)}).to_string());
    crate::botapi::wake(app, account);
    // A challenge or a correspondence move also goes to the account's
    // devices by Web Push while it has no page open.
    crate::webpush::after_note(app, account, kind, &data);
}

/// True when `account` has no notification socket open on any instance:
/// none here (the hub knows), and no other instance's presence row newer
/// than two ping periods (each open socket refreshes it at every ping).
pub(crate) async fn away(app: &App, account: &str) -> Result<bool, sqlx::Error> {
    if app.notes.listening(account) {
        return Ok(false);
    }
    let fresh = crate::live::now_ms() - 2 * app.config.ws_ping.as_millis() as i64;
    let n: i64 =
        sqlx::query("SELECT COUNT(*) FROM notify_presence WHERE account_id = $1 AND instance <> $2 AND seen_at >= $3")
            .bind(account)
            .bind(&app.instance)
            .bind(fresh)
            .fetch_one(&app.db)
            .await?
            .get(0);
    Ok(n == 0)
}

/// Records that this instance has a page of `account` open now.
async fn present(app: &App, account: &str) {
    let r = sqlx::query(
        "INSERT INTO notify_presence (account_id, instance, seen_at) VALUES ($1, $2, $3) \
         ON CONFLICT (account_id, instance) DO UPDATE SET seen_at = excluded.seen_at",
    )
    .bind(account)
    .bind(&app.instance)
    .bind(crate::live::now_ms())
    .execute(&app.db)
    .await;
    if let Err(e) = r {
        eprintln!("presence of {account}: {e}");
    }
}

/// A notification socket ended: when it was this instance's last of the
/// account, its presence row goes (at once, not after two ping periods).
struct Leaving {
    app: App,
    account: String,
}

impl Drop for Leaving {
    fn drop(&mut self) {
        let (app, account) = (self.app.clone(), std::mem::take(&mut self.account));
        if app.notes.listening(&account) {
            return;
        }
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                let _ = sqlx::query("DELETE FROM notify_presence WHERE account_id = $1 AND instance = $2")
                    .bind(&account)
                    .bind(&app.instance)
                    .execute(&app.db)
                    .await;
            });
        }
    }
}

/// After a stored change of a correspondence game (`before` → `after`):
/// the player to move is told of the opponent's move, and both players of
/// the end. (Games of minutes are played with the page open: no word.)
pub(crate) fn game_changed(app: &App, before: &crate::live::Live, after: &crate::live::Live) {
    if after.meta.days.is_none() {
        return;
    }
    use crate::live::Status;
    let mut notes: Vec<(String, &'static str, Value)> = Vec::new();
    let id = &after.meta.id;
    let name = |c: chimera_rules::Color| {
        let i = if c == chimera_rules::Color::White { 0 } else { 1 };
        after.players[i].as_ref().map(|p| p.username.clone())
    };
    let account = |c: chimera_rules::Color| {
        if c == chimera_rules::Color::White {
            after.white_account.clone()
        } else {
            after.black_account.clone()
        }
    };
    let url = format!("/game/{id}");
    if after.status == Status::Finished && before.status == Status::Active {
        for c in [chimera_rules::Color::White, chimera_rules::Color::Black] {
            if let Some(acc) = account(c) {
                notes.push((
                    acc,
                    "game_over",
                    json!({"game": id, "url": url, "result": after.result, "reason": after.reason, "opponent": name(!c),
                           "variant": after.meta.variant.name()}),
                ));
            }
        }
    } else if after.game.moves().len() > before.game.moves().len() && after.status == Status::Active {
        let to_move = after.turn();
        if let Some(acc) = account(to_move) {
            notes.push((
                acc,
                "move",
                json!({"game": id, "url": url, "san": after.sans.last(), "opponent": name(!to_move),
                       "variant": after.meta.variant.name(), "ms_left": after.remaining(to_move, crate::live::now_ms())}),
            ));
        }
    }
    for (acc, kind, data) in notes {
        let app = app.clone();
        tokio::spawn(async move { push(&app, &acc, kind, data).await });
    }
}

/// Another instance stored notification `payload` (`@ID ACCOUNT`): delivers
/// it to this instance's pages of the account, if any are open.
pub(crate) async fn heard(app: &App, payload: &str) {
    let Some((id, account)) = payload.strip_prefix('@').and_then(|p| p.split_once(' ')) else { return };
    // The account's API event streams here read their challenges again.
    crate::botapi::wake(app, account);
    if !app.notes.listening(account) {
        return;
    }
    let row = sqlx::query("SELECT kind, data, created_at FROM notifications WHERE id = $1 AND account_id = $2")
        .bind(id)
        .bind(account)
        .fetch_optional(&app.db)
        .await;
    if let Ok(Some(r)) = row {
        let it = item(id, &r.get::<String, _>(0), &r.get::<String, _>(1), r.get(2), false);
        app.notes.deliver(account, json!({"t": "notification", "item": it}).to_string());
    }
}

/// The account's newest notifications and how many are unread.
async fn list(app: &App, account: &str) -> Result<Value, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, kind, data, created_at, read_at FROM notifications WHERE account_id = $1 \
         ORDER BY created_at DESC LIMIT $2",
    )
    .bind(account)
    .bind(LIST)
    .fetch_all(&app.db)
    .await?;
    let items: Vec<Value> = rows
        .iter()
        .map(|r| {
            item(
                &r.get::<String, _>(0),
                &r.get::<String, _>(1),
                &r.get::<String, _>(2),
                r.get(3),
                r.get::<Option<i64>, _>(4).is_some(),
            )
        })
        .collect();
    Ok(json!({"unread": unread(app, account).await?, "items": items}))
}

/// How many of the account's notifications are unread.
async fn unread(app: &App, account: &str) -> Result<i64, sqlx::Error> {
    Ok(sqlx::query("SELECT COUNT(*) FROM notifications WHERE account_id = $1 AND read_at IS NULL")
        .bind(account)
        .fetch_one(&app.db)
        .await?
        .get(0))
}

/// Deletes notifications older than [`KEEP_MS`], and presence rows that
/// no socket refreshed for an hour (an instance that died) (on the
/// heartbeat).
pub(crate) async fn sweep(app: &App) {
    let now = crate::live::now_ms();
    let _ = sqlx::query("DELETE FROM notifications WHERE created_at < $1").bind(now - KEEP_MS).execute(&app.db).await;
    let _ =
        sqlx::query("DELETE FROM notify_presence WHERE seen_at < $1").bind(now - 3600 * 1000).execute(&app.db).await;
}

pub fn routes() -> axum::Router<App> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/api/notifications", get(api_list))
        .route("/api/notifications/read", post(api_read))
        .route("/ws/notify", get(ws_upgrade))
}

fn no_store(mut r: Response) -> Response {
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `GET /api/notifications`: `{unread, items: [{id, kind, data, created_at, read}]}`.
async fn api_list(State(app): State<App>, headers: HeaderMap) -> Response {
    let a = match crate::accounts::need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    match list(&app, &a.id).await {
        Ok(v) => no_store(Json(v).into_response()),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadReq {
    /// The notifications read; all the account's when left out.
    #[serde(default)]
    ids: Option<Vec<String>>,
}

/// `POST /api/notifications/read` `{ids?}`: marks them read: `{unread}`.
async fn api_read(State(app): State<App>, headers: HeaderMap, body: axum::body::Bytes) -> Response {
    let a = match crate::accounts::need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let req: ReadReq = match crate::web::parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    let now = crate::live::now_ms();
    let done = match req.ids {
        None => {
            sqlx::query("UPDATE notifications SET read_at = $2 WHERE account_id = $1 AND read_at IS NULL")
                .bind(&a.id)
                .bind(now)
                .execute(&app.db)
                .await
        }
        Some(ids) if ids.len() > LIST as usize => return err(StatusCode::BAD_REQUEST, "50 notifications at most"),
        Some(ids) => {
            let ids: Vec<&String> = ids.iter().filter(|i| i.len() <= 32).collect();
            if ids.is_empty() {
                Ok(Default::default())
            } else {
                let marks: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 3)).collect();
                let sql = format!(
                    "UPDATE notifications SET read_at = $2 WHERE account_id = $1 AND read_at IS NULL AND id IN ({})",
                    marks.join(", ")
                );
                let mut q = sqlx::query(&sql).bind(&a.id).bind(now);
                for id in ids {
                    q = q.bind(id);
                }
                q.execute(&app.db).await
            }
        }
    };
    if let Err(e) = done {
        return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    }
    match unread(&app, &a.id).await {
        Ok(n) => no_store(Json(json!({"unread": n})).into_response()),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// `/ws/notify`: the logged-in account's notifications as they come
/// (`{"t":"notification","item":...}`), after the list so far
/// (`{"t":"notifications","unread":N,"items":[...]}`). 401 before the
/// upgrade without a session; a place in the players' socket budget.
async fn ws_upgrade(
    ws: WebSocketUpgrade,
    State(app): State<App>,
    headers: HeaderMap,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> Response {
    let a = match crate::accounts::need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let slot = match app.sockets.take(peer.ip(), SocketKind::Seat) {
        Ok(s) => s,
        Err(net::Refusal::PerClient) => {
            return crate::web::too_many(
                StatusCode::TOO_MANY_REQUESTS,
                "too many open player sockets from your address",
                Some(5),
            )
        }
        Err(net::Refusal::Total) => {
            return crate::web::too_many(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server has too many open player sockets; try again soon",
                Some(5),
            )
        }
    };
    ws.max_message_size(4 * 1024)
        .max_frame_size(4 * 1024)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .on_upgrade(move |socket| async move {
            let _slot = slot;
            session(app, a.id, socket).await
        })
}

async fn session(app: App, account: String, mut socket: WebSocket) {
    // Dropped after `rx` (declared before it): the hub then knows whether
    // another socket of the account is still open here.
    let _leaving = Leaving { app: app.clone(), account: account.clone() };
    let mut rx = app.notes.subscribe(&account);
    present(&app, &account).await;
    let first = match list(&app, &account).await {
        Ok(mut v) => {
            v["t"] = json!("notifications");
            v.to_string()
        }
        Err(_) => return,
    };
    if !crate::web::send(&mut socket, &first).await {
        return;
    }
    let mut shutdown = app.shutdown.clone();
    let (every, limit) = (app.config.ws_ping, app.config.ws_timeout);
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let mut last_heard = Instant::now();
    loop {
        tokio::select! {
            msg = socket.recv() => {
                last_heard = Instant::now();
                match msg {
                    Some(Ok(Message::Close(_))) => { crate::web::finish_close(&mut socket).await; return; }
                    None | Some(Err(_)) => return,
                    // The page says nothing on this socket but pongs.
                    Some(Ok(_)) => {}
                }
            }
            n = rx.recv() => match n {
                Ok(text) => if !crate::web::send(&mut socket, &text).await { return },
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    let Ok(mut v) = list(&app, &account).await else { return };
                    v["t"] = json!("notifications");
                    if !crate::web::send(&mut socket, &v.to_string()).await { return }
                }
                Err(_) => return,
            },
            _ = ping.tick() => {
                if last_heard.elapsed() >= limit {
                    crate::web::close(&mut socket, 1001, &format!("no reply for {} s", limit.as_secs())).await;
                    return;
                }
                if socket.send(Message::Ping(axum::body::Bytes::from_static(b"chimera"))).await.is_err() {
                    return;
                }
                present(&app, &account).await;
            }
            _ = shutdown.changed() => {
                crate::web::close(&mut socket, 1001, "the server is shutting down").await;
                return;
            }
        }
    }
}
