//! Analysis workers and the review job queue (docs/server.md, "Analysis
//! workers"), as lichess's fishnet has them.
//!
//! A review asked for (`POST /api/games/{id}/review`, or a rated game's
//! end when `Config::review_rated`) is a row of `review_jobs` until its
//! review is stored. A worker, `chimera worker --server URL --key KEY` on
//! any machine, asks for a job (`POST /api/worker/acquire`), searches every
//! position of the game at the job's node count
//! ([`crate::review::search_positions`]) and posts the searches
//! (`POST /api/worker/result/{job}`). The server checks them as a
//! stranger's ([`crate::review::assemble`]: one per position, legal moves
//! and lines, the rules' own verdict where the game is over) and builds
//! the review from them; the worker sends no judgements, accuracies or
//! SAN.
//!
//! - **Keys**: one per worker, made by the operator with `chimera
//!   worker-key add NAME` ([`add_worker`]); the store keeps the SHA-256.
//!   A wrong key counts as a failed token check of its address (the API
//!   tokens' limiter).
//! - **Leases**: a job given to a worker gets a fresh lease (the job id the
//!   worker sees) and a deadline, `Config::review_job_time` away. After
//!   the deadline another worker may take the job with a new lease; the
//!   first worker's result is then refused (409), as is a result posted
//!   twice or for a job already done.
//! - **Once**: a result is stored in the transaction that deletes the job
//!   with that lease, and `reviews` has one row per game and node count,
//!   so a job is done into the store once, whichever worker dies, is
//!   killed or lies.
//! - **The server's own engine** ([`spawn`]) takes jobs when no worker has
//!   asked for one within `Config::review_worker_idle`, one at a time, in
//!   the engine pool (a busy pool puts the job back); `--local-reviews
//!   off` leaves every job to the workers.

use crate::net::error as err;
use crate::review::{self, PositionEval};
use crate::store::Db;
use crate::{live, App};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use chimera_auth::WorkerKey;
use chimera_rules::{AnyPosition, Game, Position, RuleOptions, Variant};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::Row;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// What this instance keeps for the queue: the wake-up of its own engine's
/// worker when a job is queued here.
#[derive(Default)]
pub struct Queue {
    wake: tokio::sync::Notify,
}

/// A job as a worker gets it: the game (variant, rule options, start FEN,
/// moves in UCI), the nodes to search each position at, and the seconds it
/// has before another worker may take the job.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    /// The lease: the job's id for this worker.
    pub id: String,
    pub game: String,
    pub variant: String,
    pub rules: String,
    pub fen: String,
    pub moves: Vec<String>,
    pub nodes: u64,
    pub seconds: u64,
}

impl Job {
    /// The game to review, replayed from the job's words.
    pub fn replay(&self) -> Result<Game<AnyPosition>, String> {
        let variant: Variant = self.variant.parse().map_err(|_| format!("no variant '{}'", self.variant))?;
        let opts: RuleOptions = self.rules.parse().map_err(|e| format!("rule options '{}': {e:?}", self.rules))?;
        let start =
            AnyPosition::from_fen(variant, &self.fen, &opts).map_err(|e| format!("start FEN '{}': {e}", self.fen))?;
        let mut g = Game::new(start);
        for u in &self.moves {
            let m = g.position().parse_uci(u).map_err(|e| format!("move '{u}': {e}"))?;
            g.play(m).map_err(|e| format!("move '{u}': {e}"))?;
        }
        Ok(g)
    }
}

/// What a worker posts: the search of each position of the game, the start
/// first.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobResult {
    pub positions: Vec<PositionEval>,
}

pub fn routes() -> Router<App> {
    Router::new().route("/api/worker/acquire", post(acquire_job)).route("/api/worker/result/{id}", post(post_result))
}

/// Queues a review of `game` at `nodes` unless it is stored or queued, and
/// wakes this instance's own worker.
pub async fn enqueue(app: &App, game: &str, nodes: u64) -> Result<(), sqlx::Error> {
    if crate::store::review(&app.db, game, nodes).await?.is_some() {
        return Ok(());
    }
    {
        let _writer = crate::store::writer(&app.db).await;
        sqlx::query(
            "INSERT INTO review_jobs (game_id, nodes, queued_at) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id, nodes) DO NOTHING",
        )
        .bind(game)
        .bind(nodes as i64)
        .bind(live::now_ms())
        .execute(&app.db)
        .await?;
    }
    app.reviews.wake.notify_one();
    Ok(())
}

/// A queued or running job's state, for `GET /api/games/{id}/review`:
/// `{"state": "queued", "ahead": N}` (jobs queued before it) or
/// `{"state": "running"}`; `None` when no job is there.
pub async fn state(db: &Db, game: &str, nodes: u64) -> Result<Option<serde_json::Value>, sqlx::Error> {
    let row = sqlx::query("SELECT queued_at, lease, deadline FROM review_jobs WHERE game_id = $1 AND nodes = $2")
        .bind(game)
        .bind(nodes as i64)
        .fetch_optional(db)
        .await?;
    let Some(r) = row else { return Ok(None) };
    let (queued_at, lease, deadline): (i64, Option<String>, Option<i64>) = (r.get(0), r.get(1), r.get(2));
    if lease.is_some() && deadline.is_some_and(|d| d >= live::now_ms()) {
        return Ok(Some(json!({"state": "running"})));
    }
    let ahead: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM review_jobs WHERE nodes = $1 AND queued_at < $2 \
         AND (lease IS NULL OR deadline < $3)",
    )
    .bind(nodes as i64)
    .bind(queued_at)
    .bind(live::now_ms())
    .fetch_one(db)
    .await?;
    Ok(Some(json!({"state": "queued", "ahead": ahead})))
}

/// Gives the oldest free job at `nodes` (waiting, or taken and past its
/// deadline) to `worker` with a fresh lease: (lease, game id), or `None`
/// when the queue is empty. Two workers asking at once get two jobs: the
/// update takes a job only while it is still free.
async fn acquire(db: &Db, worker: &str, nodes: u64, time: Duration) -> Result<Option<(String, String)>, sqlx::Error> {
    for _ in 0..8 {
        let now = live::now_ms();
        let free: Option<String> = sqlx::query_scalar(
            "SELECT game_id FROM review_jobs WHERE nodes = $1 AND (lease IS NULL OR deadline < $2) \
             ORDER BY queued_at, game_id LIMIT 1",
        )
        .bind(nodes as i64)
        .bind(now)
        .fetch_optional(db)
        .await?;
        let Some(game) = free else { return Ok(None) };
        let lease = crate::random_hex(16);
        let taken = {
            let _writer = crate::store::writer(db).await;
            sqlx::query(
                "UPDATE review_jobs SET lease = $3, worker = $4, taken_at = $5, deadline = $6, tries = tries + 1 \
                 WHERE game_id = $1 AND nodes = $2 AND (lease IS NULL OR deadline < $5)",
            )
            .bind(&game)
            .bind(nodes as i64)
            .bind(&lease)
            .bind(worker)
            .bind(now)
            .bind(now + time.as_millis() as i64)
            .execute(db)
            .await?
            .rows_affected()
        };
        if taken == 1 {
            return Ok(Some((lease, game)));
        }
    }
    Ok(None)
}

/// Stores `review` for the job with `lease`, if `worker` still holds it, in
/// the transaction that deletes the job: true when stored, false when the
/// lease is no longer the job's (done, or taken back).
async fn complete(db: &Db, lease: &str, worker: &str, review: &str) -> Result<bool, sqlx::Error> {
    let _writer = crate::store::writer(db).await;
    let mut tx = db.begin().await?;
    let row = sqlx::query("DELETE FROM review_jobs WHERE lease = $1 AND worker = $2 RETURNING game_id, nodes")
        .bind(lease)
        .bind(worker)
        .fetch_optional(&mut *tx)
        .await?;
    let Some(r) = row else {
        tx.rollback().await?;
        return Ok(false);
    };
    let (game, nodes): (String, i64) = (r.get(0), r.get(1));
    sqlx::query(
        "INSERT INTO reviews (game_id, nodes, review, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (game_id, nodes) DO NOTHING",
    )
    .bind(&game)
    .bind(nodes)
    .bind(review)
    .bind(live::now_ms())
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE review_workers SET jobs_done = jobs_done + 1 WHERE id = $1")
        .bind(worker)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

/// Puts a job back in the queue (its worker gave up on it or sent a result
/// that was refused): the next worker takes it at once.
async fn release(db: &Db, lease: &str) -> Result<(), sqlx::Error> {
    let _writer = crate::store::writer(db).await;
    sqlx::query("UPDATE review_jobs SET lease = NULL, worker = NULL, deadline = NULL WHERE lease = $1")
        .bind(lease)
        .execute(db)
        .await?;
    Ok(())
}

/// A worker as `chimera worker-key list` shows it.
#[derive(Debug, Serialize)]
pub struct WorkerRow {
    pub id: String,
    pub name: String,
    pub created_at: i64,
    pub seen_at: Option<i64>,
    pub jobs_done: i64,
    pub revoked_at: Option<i64>,
}

/// Makes a worker's key (`chimera worker-key add`): its id and the key,
/// shown once.
pub async fn add_worker(db: &Db, name: &str) -> Result<(String, WorkerKey), String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err("a worker's name is 1 to 64 characters, no control characters".into());
    }
    let key = WorkerKey::generate().map_err(|e| e.to_string())?;
    let id = crate::random_hex(8);
    let _writer = crate::store::writer(db).await;
    sqlx::query("INSERT INTO review_workers (id, name, key, created_at) VALUES ($1, $2, $3, $4)")
        .bind(&id)
        .bind(name)
        .bind(key.storage_key().to_hex())
        .bind(live::now_ms())
        .execute(db)
        .await
        .map_err(|e| e.to_string())?;
    Ok((id, key))
}

/// Every worker's row, oldest first.
pub async fn list_workers(db: &Db) -> Result<Vec<WorkerRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, name, created_at, seen_at, jobs_done, revoked_at FROM review_workers ORDER BY created_at, id",
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .iter()
        .map(|r| WorkerRow {
            id: r.get(0),
            name: r.get(1),
            created_at: r.get(2),
            seen_at: r.get(3),
            jobs_done: r.get(4),
            revoked_at: r.get(5),
        })
        .collect())
}

/// Revokes a worker's key at once (every instance reads the store): true
/// if it was in use.
pub async fn revoke_worker(db: &Db, id: &str) -> Result<bool, sqlx::Error> {
    let _writer = crate::store::writer(db).await;
    let n = sqlx::query("UPDATE review_workers SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL")
        .bind(id)
        .bind(live::now_ms())
        .execute(db)
        .await?
        .rows_affected();
    Ok(n == 1)
}

/// The worker a request's key names, or the answer to give: 401 for no
/// key, a malformed, unknown or revoked one (counted as a failed check of
/// the address), 429 after too many failures.
async fn worker_of(app: &App, headers: &HeaderMap, ip: IpAddr) -> Result<String, Response> {
    let client = crate::net::client_key(ip);
    if let Err(wait) = app.api.failures.check(client) {
        return Err(crate::tokens::too_many(
            format!("too many failed key checks from your address: wait {wait} s"),
            wait,
        ));
    }
    let key = crate::tokens::bearer(headers).and_then(Result::ok).and_then(WorkerKey::parse);
    let id: Option<String> = match key {
        None => None,
        Some(k) => sqlx::query_scalar("SELECT id FROM review_workers WHERE key = $1 AND revoked_at IS NULL")
            .bind(k.storage_key().to_hex())
            .fetch_optional(&app.db)
            .await
            .map_err(|e| err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?,
    };
    id.ok_or_else(|| {
        app.api.failures.failed(client);
        err(StatusCode::UNAUTHORIZED, "no such worker key (chimera worker-key add makes one)")
    })
}

/// The job for a lease, with its node count, and its game as the store
/// replayed it.
async fn job_of(app: &App, lease: &str, game: &str, nodes: u64) -> Result<(Job, Game<AnyPosition>), String> {
    let live = crate::store::load_game(&app.db, &app.cpu, game).await?.ok_or_else(|| format!("no game '{game}'"))?;
    let job = Job {
        id: lease.to_string(),
        game: game.to_string(),
        variant: live.meta.variant.to_string(),
        rules: live.meta.opts.to_string(),
        fen: live.meta.start_fen.clone(),
        moves: live.game.moves().iter().map(|m| m.to_string()).collect(),
        nodes,
        seconds: app.config.review_job_time.as_secs(),
    };
    Ok((job, live.game))
}

/// `POST /api/worker/acquire`: the next job (200), or 204 when none waits.
async fn acquire_job(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    let worker = match worker_of(&app, &headers, peer.ip()).await {
        Ok(w) => w,
        Err(r) => return r,
    };
    let now = live::now_ms();
    let seen = {
        let _writer = crate::store::writer(&app.db).await;
        sqlx::query("UPDATE review_workers SET seen_at = $2 WHERE id = $1")
            .bind(&worker)
            .bind(now)
            .execute(&app.db)
            .await
    };
    if let Err(e) = seen {
        return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    }
    let nodes = app.config.review_nodes;
    match acquire(&app.db, &worker, nodes, app.config.review_job_time).await {
        Ok(Some((lease, game))) => match job_of(&app, &lease, &game, nodes).await {
            Ok((job, _)) => Json(job).into_response(),
            Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e),
        },
        Ok(None) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// `POST /api/worker/result/{id}`: a worker's searches for the job it
/// holds. 200 `{"stored": true}`; 400 with the reason when they are not a
/// valid review of the game (the job goes back to the queue); 409 when the
/// job is not this worker's now (done, or taken back after its deadline).
async fn post_result(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(lease): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let worker = match worker_of(&app, &headers, peer.ip()).await {
        Ok(w) => w,
        Err(r) => return r,
    };
    let gone = || err(StatusCode::CONFLICT, "no such job for this worker: done, or taken back after its deadline");
    if lease.len() > 64 {
        return gone();
    }
    let row = sqlx::query("SELECT game_id, nodes FROM review_jobs WHERE lease = $1 AND worker = $2")
        .bind(&lease)
        .bind(&worker)
        .fetch_optional(&app.db)
        .await;
    let (game, nodes): (String, i64) = match row {
        Ok(Some(r)) => (r.get(0), r.get(1)),
        Ok(None) => return gone(),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let result: JobResult = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return err(StatusCode::BAD_REQUEST, format!("the result is not {{\"positions\": [...]}}: {e}")),
    };
    let (job, game) = match job_of(&app, &lease, &game, nodes as u64).await {
        Ok(j) => j,
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    match finish(&app, &job, &game, &worker, &result.positions).await {
        Ok(true) => Json(json!({"stored": true})).into_response(),
        Ok(false) => gone(),
        Err(Refusal::Bad(why)) => {
            let _ = release(&app.db, &lease).await;
            err(StatusCode::BAD_REQUEST, format!("the result was refused: {why}"))
        }
        Err(Refusal::Store(e)) => err(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

enum Refusal {
    /// Not a valid review of the game: why.
    Bad(String),
    Store(String),
}

/// Checks a job's searches, builds the review and stores it with the job's
/// lease: true when stored, false when the lease was no longer the job's.
async fn finish(
    app: &App,
    job: &Job,
    game: &Game<AnyPosition>,
    worker: &str,
    positions: &[PositionEval],
) -> Result<bool, Refusal> {
    let review = review::assemble(game, job.nodes, positions).map_err(Refusal::Bad)?;
    let text = serde_json::to_string(&review).map_err(|e| Refusal::Store(e.to_string()))?;
    complete(&app.db, &job.id, worker, &text).await.map_err(|e| Refusal::Store(e.to_string()))
}

/// True when some worker with a key in force asked for a job within
/// `Config::review_worker_idle`.
async fn workers_active(app: &App) -> Result<bool, sqlx::Error> {
    let since = live::now_ms() - app.config.review_worker_idle.as_millis() as i64;
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM review_workers WHERE revoked_at IS NULL AND seen_at > $1")
        .bind(since)
        .fetch_one(&app.db)
        .await?;
    Ok(n > 0)
}

/// This instance's own worker: takes jobs while no worker is active (see
/// the module's text), until the server stops.
pub fn spawn(app: &App, mut shutdown: tokio::sync::watch::Receiver<bool>) {
    if !app.config.review_local {
        return;
    }
    let app = app.clone();
    tokio::spawn(async move {
        let me = format!("local:{}", app.instance);
        loop {
            tokio::select! {
                _ = app.reviews.wake.notified() => {}
                _ = tokio::time::sleep(app.config.event_poll) => {}
                _ = shutdown.changed() => return,
            }
            loop {
                if *shutdown.borrow() {
                    return;
                }
                match workers_active(&app).await {
                    Ok(false) => {}
                    Ok(true) => break,
                    Err(e) => {
                        eprintln!("reviews: {e}");
                        break;
                    }
                }
                match local_job(&app, &me).await {
                    Ok(true) => continue,
                    Ok(false) => break,
                    Err(e) => {
                        eprintln!("reviews: {e}");
                        break;
                    }
                }
            }
        }
    });
}

/// Takes one job and does it in the engine pool: true if there was one.
async fn local_job(app: &App, me: &str) -> Result<bool, String> {
    let nodes = app.config.review_nodes;
    let time = app.config.review_job_time;
    let Some((lease, game)) = acquire(&app.db, me, nodes, time).await.map_err(|e| e.to_string())? else {
        return Ok(false);
    };
    let (job, replayed) = job_of(app, &lease, &game, nodes).await?;
    // Stopped at the deadline, when another worker may take the job.
    let stop = Arc::new(AtomicBool::new(false));
    let timer = {
        let stop = stop.clone();
        tokio::spawn(async move {
            tokio::time::sleep(time).await;
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        })
    };
    let searched = app
        .engine
        .run(crate::pool::Admission::Bounded, stop, move |stop| {
            let positions = review::search_positions(&replayed, nodes, stop);
            (positions, replayed)
        })
        .await;
    timer.abort();
    match searched {
        Ok((Some(positions), replayed)) => match finish(app, &job, &replayed, me, &positions).await {
            Ok(_) => Ok(true),
            Err(Refusal::Bad(why) | Refusal::Store(why)) => {
                let _ = release(&app.db, &lease).await;
                Err(format!("game {game}: {why}"))
            }
        },
        // Stopped, or the pool is busy: the job waits for the next worker.
        Ok((None, _)) | Err(_) => {
            release(&app.db, &lease).await.map_err(|e| e.to_string())?;
            tokio::time::sleep(Duration::from_secs(1)).await;
            Ok(false)
        }
    }
}
