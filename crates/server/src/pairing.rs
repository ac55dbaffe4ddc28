//! Quick pairing (`docs/server.md`, "Quick pairing"): pools of a variant
//! and a clock (3+2, 5+3, 10+5, 15+10, as lichess's lobby offers), where
//! logged-in players wait to be paired by rating into a rated game.
//!
//! An entrant accepts an opponent whose rating is within its range: 100
//! points at first, widening by 20 a second of waiting to 1,000 (after 45
//! s). Each tick ([`Config::pairing_every`](crate::Config)) one instance
//! pairs every pool ([`pair`]: the longest waiting first, each with the
//! nearest rating within both ranges) in one transaction that inserts the
//! games and marks the entries paired only while they are unpaired. The
//! store decides which instance pairs: on PostgreSQL the transaction holds
//! an advisory lock (others skip the tick), on SQLite the one writer. The
//! page that entered polls its entry (`GET /api/pool`), which keeps it in
//! the pool; an entry not polled for 10 s leaves.

use crate::live::{Live, Meta, Mode, Player};
use crate::net::error as err;
use crate::App;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chimera_rules::{AnyPosition, Position, Variant};
use serde_json::{json, Value};
use sqlx::Row;
use std::collections::BTreeMap;

/// The clocks of the pools: (minutes, increment in seconds).
pub const CLOCKS: [(u32, u32); 4] = [(3, 2), (5, 3), (10, 5), (15, 10)];

/// The rating difference an entrant accepts at first.
pub const RANGE_START: i64 = 100;
/// How much it widens each second of waiting.
pub const RANGE_PER_SECOND: i64 = 20;
/// The widest it gets.
pub const RANGE_MAX: i64 = 1000;
/// An entry whose page has not polled it for this long leaves the pool.
pub const STALE_MS: i64 = 10_000;

/// The rating difference an entrant accepts after waiting `waited_ms`.
pub fn range(waited_ms: i64) -> i64 {
    (RANGE_START + waited_ms.max(0) / 1000 * RANGE_PER_SECOND).min(RANGE_MAX)
}

/// A pool: a variant and a clock; its id reads `chess-5+3`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PoolId {
    pub variant: Variant,
    pub minutes: u32,
    pub increment: u32,
}

impl PoolId {
    pub fn all() -> impl Iterator<Item = PoolId> {
        Variant::ALL
            .into_iter()
            .flat_map(|variant| CLOCKS.map(|(minutes, increment)| PoolId { variant, minutes, increment }))
    }

    pub fn id(&self) -> String {
        format!("{}-{}+{}", self.variant.id(), self.minutes, self.increment)
    }

    pub fn parse(s: &str) -> Option<PoolId> {
        PoolId::all().find(|p| p.id() == s)
    }
}

/// One waiting entrant of a pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub account: String,
    pub rating: i64,
    pub entered_at: i64,
}

/// The pairs to make in one pool at `now` (indices into `waiting`): the
/// longest waiting first (then by account, so the result is determined),
/// each with the unpaired entrant whose rating is nearest, if the
/// difference is within both entrants' ranges. Nobody is paired twice or
/// with itself.
pub fn pair(waiting: &[Entrant], now: i64) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by(|&a, &b| {
        (waiting[a].entered_at, &waiting[a].account).cmp(&(waiting[b].entered_at, &waiting[b].account))
    });
    let mut taken = vec![false; waiting.len()];
    let mut pairs = Vec::new();
    for &i in &order {
        if taken[i] {
            continue;
        }
        let reach_i = range(now - waiting[i].entered_at);
        let mut best: Option<(i64, usize)> = None;
        for &j in &order {
            if j == i || taken[j] || waiting[j].account == waiting[i].account {
                continue;
            }
            let d = (waiting[i].rating - waiting[j].rating).abs();
            if d <= reach_i.min(range(now - waiting[j].entered_at)) && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, j));
            }
        }
        if let Some((_, j)) = best {
            taken[i] = true;
            taken[j] = true;
            pairs.push((i, j));
        }
    }
    pairs
}

/// One tick of pairing: every pool's pairs made into games, in one
/// transaction (skipped when another instance holds the pairing lock).
/// Returns the games made.
pub async fn tick(app: &App) -> Result<usize, String> {
    let now = crate::live::now_ms();
    let db = &app.db;
    // Nobody in any pool (nearly always on a small server): no writer's
    // lock, no transaction, one read.
    let anyone =
        sqlx::query("SELECT 1 FROM pool_entries LIMIT 1").fetch_optional(db).await.map_err(|e| e.to_string())?;
    if anyone.is_none() {
        return Ok(0);
    }
    let mut made: Vec<Live> = Vec::new();
    {
        let _w = crate::store::writer(db).await;
        let mut tx = db.begin().await.map_err(|e| e.to_string())?;
        if chimera_store::backend(db) == chimera_store::Backend::Postgres {
            let got: bool = sqlx::query("SELECT pg_try_advisory_xact_lock(728361)")
                .fetch_one(&mut *tx)
                .await
                .map_err(|e| e.to_string())?
                .get(0);
            if !got {
                return Ok(0);
            }
        }
        sqlx::query("DELETE FROM pool_entries WHERE (game_id IS NULL AND seen_at < $1) OR paired_at < $2")
            .bind(now - STALE_MS)
            .bind(now - 60_000)
            .execute(&mut *tx)
            .await
            .map_err(|e| e.to_string())?;
        let rows = sqlx::query(
            "SELECT e.account_id, e.pool, e.rating, e.provisional, e.entered_at, a.username FROM pool_entries e \
             JOIN accounts a ON a.id = e.account_id AND a.deleted_at IS NULL WHERE e.game_id IS NULL ORDER BY e.pool",
        )
        .fetch_all(&mut *tx)
        .await
        .map_err(|e| e.to_string())?;
        let mut pools: BTreeMap<String, Vec<(Entrant, Player)>> = BTreeMap::new();
        for r in &rows {
            let rating: i64 = r.get("rating");
            pools.entry(r.get("pool")).or_default().push((
                Entrant { account: r.get("account_id"), rating, entered_at: r.get("entered_at") },
                Player {
                    username: r.get("username"),
                    rating,
                    provisional: r.get::<i64, _>("provisional") == 1,
                    bot: false,
                },
            ));
        }
        for (pool, entrants) in &pools {
            let Some(p) = PoolId::parse(pool) else { continue };
            let waiting: Vec<Entrant> = entrants.iter().map(|e| e.0.clone()).collect();
            for (i, j) in pair(&waiting, now) {
                let live = new_game(app, p, &entrants[i], &entrants[j], now);
                crate::store::insert_game_in(&mut tx, &live).await.map_err(|e| e.to_string())?;
                let marked = sqlx::query(
                    "UPDATE pool_entries SET game_id = $1, paired_at = $2 WHERE account_id IN ($3, $4) AND game_id IS NULL",
                )
                .bind(&live.meta.id)
                .bind(now)
                .bind(&entrants[i].0.account)
                .bind(&entrants[j].0.account)
                .execute(&mut *tx)
                .await
                .map_err(|e| e.to_string())?;
                if marked.rows_affected() != 2 {
                    return Err("a pool entry changed while it was paired".into());
                }
                made.push(live);
            }
        }
        tx.commit().await.map_err(|e| e.to_string())?;
    }
    let n = made.len();
    for live in made {
        if let Err(e) = app.insert(live).await {
            eprintln!("pairing: a game is stored but not held here: {e}");
        }
    }
    Ok(n)
}

/// The rated game of a pair: colours by a coin, both seats the accounts'.
fn new_game(app: &App, p: PoolId, a: &(Entrant, Player), b: &(Entrant, Player), now: i64) -> Live {
    let opts = chimera_rules::RuleOptions::default();
    let start = AnyPosition::new(p.variant, &opts);
    let meta = Meta {
        id: crate::random_hex(6),
        variant: p.variant,
        opts,
        start_fen: start.fen(),
        mode: Mode::Friend,
        engine_level: None,
        engine_color: None,
        clock: Some((i64::from(p.minutes) * 60_000, i64::from(p.increment) * 1000)),
        days: None,
        created_at: now,
        rated: true,
        rating_range: None,
    };
    let (w, b) = if crate::random_hex(1).as_bytes()[1].is_multiple_of(2) { (a, b) } else { (b, a) };
    let mut live = Live::new(meta, start, Some(crate::random_hex(16)), Some(crate::random_hex(16)), None);
    live.white_account = Some(w.0.account.clone());
    live.black_account = Some(b.0.account.clone());
    live.players = [Some(w.1.clone()), Some(b.1.clone())];
    live.owner = Some(app.instance.clone());
    live
}

/// Runs [`tick`] every `pairing_every` until the server stops.
pub(crate) fn spawn(app: &App) {
    let app = app.clone();
    let mut stop = app.shutdown.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = tokio::time::sleep(app.config.pairing_every) => {}
                _ = stop.changed() => return,
            }
            if let Err(e) = tick(&app).await {
                eprintln!("pairing: {e}");
            }
        }
    });
}

pub fn routes() -> axum::Router<App> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/api/pools", get(api_pools))
        .route("/api/pool", get(api_mine))
        .route("/api/pool/leave", post(api_leave))
        .route("/api/pool/{id}", post(api_enter))
}

fn no_store(mut r: Response) -> Response {
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `GET /api/pools`: every pool with the number waiting in it.
async fn api_pools(State(app): State<App>) -> Response {
    let rows =
        sqlx::query("SELECT pool, COUNT(*) FROM pool_entries WHERE game_id IS NULL AND seen_at >= $1 GROUP BY pool")
            .bind(crate::live::now_ms() - STALE_MS)
            .fetch_all(&app.db)
            .await;
    let counts: BTreeMap<String, i64> = match rows {
        Ok(rows) => rows.iter().map(|r| (r.get(0), r.get(1))).collect(),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let pools: Vec<Value> = PoolId::all()
        .map(|p| {
            json!({"id": p.id(), "variant": p.variant.id(), "variant_name": p.variant.name(), "minutes": p.minutes,
                   "increment": p.increment, "waiting": counts.get(&p.id()).copied().unwrap_or(0)})
        })
        .collect();
    no_store(Json(pools).into_response())
}

/// `POST /api/pool/{id}`: the account enters the pool (leaving any other
/// it waited in): `{pool, waiting: true, rating, range}`.
async fn api_enter(State(app): State<App>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let me = match crate::accounts::need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    if let Err(r) = crate::tokens::refuse_bot(&app, Some(&me.id)).await {
        return r;
    }
    let Some(p) = PoolId::parse(&id) else {
        return err(StatusCode::NOT_FOUND, format!("no pool '{:.30}': GET /api/pools lists them", id));
    };
    let (rating, provisional) = match crate::ratings::player(&app.db, &me.id, p.variant.id()).await {
        Ok(Some(pl)) => (pl.rating, pl.provisional),
        Ok(None) => return err(StatusCode::UNAUTHORIZED, "not logged in"),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let now = crate::live::now_ms();
    let done = async {
        let _w = crate::store::writer(&app.db).await;
        let mut tx = app.db.begin().await?;
        sqlx::query("DELETE FROM pool_entries WHERE account_id = $1 AND game_id IS NULL")
            .bind(&me.id)
            .execute(&mut *tx)
            .await?;
        let r = sqlx::query(
            "INSERT INTO pool_entries (account_id, pool, rating, provisional, entered_at, seen_at) \
             VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (account_id) DO NOTHING",
        )
        .bind(&me.id)
        .bind(p.id())
        .bind(rating)
        .bind(i64::from(provisional))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await.map(|_| r.rows_affected() == 1)
    }
    .await;
    match done {
        Ok(true) => no_store(
            Json(json!({"pool": p.id(), "waiting": true, "rating": rating, "range": range(0)})).into_response(),
        ),
        // Paired a moment ago: the game is there to take.
        Ok(false) => err(StatusCode::CONFLICT, "you were just paired: GET /api/pool gives your game"),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// `GET /api/pool`: the account's entry, kept in its pool by the asking:
/// `{pool, waiting: true, waited_ms, range}`, or once paired `{pool, game,
/// url}` (then the entry is gone); 404 when it waits in none.
async fn api_mine(State(app): State<App>, headers: HeaderMap) -> Response {
    let me = match crate::accounts::need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let now = crate::live::now_ms();
    let row = sqlx::query("SELECT pool, entered_at, game_id FROM pool_entries WHERE account_id = $1")
        .bind(&me.id)
        .fetch_optional(&app.db)
        .await;
    let r = match row {
        Ok(Some(r)) => r,
        Ok(None) => return err(StatusCode::NOT_FOUND, "you are in no pool"),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let pool: String = r.get(0);
    if let Some(game) = r.get::<Option<String>, _>(2) {
        let _ = sqlx::query("DELETE FROM pool_entries WHERE account_id = $1 AND game_id = $2")
            .bind(&me.id)
            .bind(&game)
            .execute(&app.db)
            .await;
        return no_store(Json(json!({"pool": pool, "game": game, "url": format!("/game/{game}")})).into_response());
    }
    let _ = sqlx::query("UPDATE pool_entries SET seen_at = $2 WHERE account_id = $1 AND game_id IS NULL")
        .bind(&me.id)
        .bind(now)
        .execute(&app.db)
        .await;
    let waited = now - r.get::<i64, _>(1);
    no_store(Json(json!({"pool": pool, "waiting": true, "waited_ms": waited, "range": range(waited)})).into_response())
}

/// `POST /api/pool/leave`: the account leaves its pool: `{left: bool}`.
async fn api_leave(State(app): State<App>, headers: HeaderMap) -> Response {
    let me = match crate::accounts::need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    match sqlx::query("DELETE FROM pool_entries WHERE account_id = $1 AND game_id IS NULL")
        .bind(&me.id)
        .execute(&app.db)
        .await
    {
        Ok(r) => no_store(Json(json!({"left": r.rows_affected() == 1})).into_response()),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(a: &str, rating: i64, entered_at: i64) -> Entrant {
        Entrant { account: a.into(), rating, entered_at }
    }

    #[test]
    fn the_range_widens_with_waiting() {
        assert_eq!(
            (range(0), range(999), range(1000), range(10_000), range(45_000), range(600_000)),
            (100, 100, 120, 300, 1000, 1000)
        );
    }

    #[test]
    fn pools_are_named_and_found() {
        assert_eq!(PoolId::all().count(), Variant::ALL.len() * CLOCKS.len());
        let p = PoolId::parse("genesis-5+3").unwrap();
        assert_eq!((p.variant, p.minutes, p.increment, p.id()), (Variant::Genesis, 5, 3, "genesis-5+3".to_string()));
        assert_eq!(PoolId::parse("genesis-5+4"), None);
        assert_eq!(PoolId::parse("nope-5+3"), None);
    }

    #[test]
    fn nearest_within_both_ranges_longest_waiting_first() {
        let now = 100_000;
        // a waited longest: it takes c (nearest), not b.
        let w = [e("a", 1500, 0), e("b", 1590, now), e("c", 1520, now), e("d", 2000, now)];
        assert_eq!(pair(&w, now), vec![(0, 2)]);
        // Two new entrants 150 apart: not yet; 3 s later (range 160): yes.
        let w = [e("a", 1500, now), e("b", 1650, now)];
        assert!(pair(&w, now).is_empty());
        assert_eq!(pair(&w, now + 3000), vec![(0, 1)]);
        // One account twice is never a pair.
        assert!(pair(&[e("a", 1500, 0), e("a", 1500, 0)], now).is_empty());
    }
}
