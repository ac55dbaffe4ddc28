//! The store: one row per game, one row per move, in the SQLite file of the
//! data directory or in PostgreSQL (`--database postgres://...`), both
//! through sqlx's `Any` driver: one code path, plain SQL with `$n`
//! placeholders, which SQLite and PostgreSQL both read.
//!
//! Every change to a game is written in one transaction, so a stored game is
//! never half updated, and only if the game's `version` is still the one the
//! change was made from (compare and set): when two instances race to change
//! one game, the database lets exactly one through, and the moves' primary
//! key (game, ply) keeps a ply from being stored twice whatever happens. On
//! PostgreSQL the transaction also sends a notification (`NOTIFY`, delivered
//! on commit) that the other instances turn into a reload and a broadcast.

use crate::live::{Live, Meta, Mode, Player, Status};
use crate::pool::{Admission, Pool};
use chimera_rules::{Color, Game, Position, Variant};
pub use chimera_store::Location;
use chimera_store::{backend, Backend};
use serde::Serialize;
use sqlx::any::{AnyArguments, AnyRow};
use sqlx::{Any, Row};
use std::path::Path;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub type Db = sqlx::AnyPool;

/// The channel of the change notifications (PostgreSQL).
pub const CHANNEL: &str = "chimera_games";

/// SQLite has one writer at a time: writers of this process queue here,
/// fairly, rather than in SQLite's busy handler (which sleeps and retries).
/// PostgreSQL locks rows, so its writers need no queue.
static WRITER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub(crate) async fn writer(db: &Db) -> Option<tokio::sync::MutexGuard<'static, ()>> {
    match backend(db) {
        Backend::Sqlite => Some(WRITER.lock().await),
        Backend::Postgres => None,
    }
}

/// Opens the SQLite store of `data_dir` (created on first run).
pub async fn open(data_dir: &Path) -> Result<Db, String> {
    open_at(&Location::Dir(data_dir.to_path_buf()), 4).await
}

/// Opens the store at `at` with up to `connections` connections and brings
/// its schema up to date (`chimera_store::MIGRATIONS`, the one sequence of
/// the server's and the lab's tables). A store of an older schema is
/// upgraded in place, its games kept; several instances starting at once
/// on one PostgreSQL are serialised by sqlx's migration lock.
pub async fn open_at(at: &Location, connections: u32) -> Result<Db, String> {
    chimera_store::open_at(at, connections).await
}

/// Why a change was not stored.
#[derive(Debug)]
pub enum SaveError {
    /// The game changed meanwhile (another instance, or a ply already
    /// stored): reload it and decide again.
    Conflict,
    Db(sqlx::Error),
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveError::Conflict => write!(f, "the game changed meanwhile"),
            SaveError::Db(e) => write!(f, "{e}"),
        }
    }
}

impl From<sqlx::Error> for SaveError {
    fn from(e: sqlx::Error) -> SaveError {
        match &e {
            sqlx::Error::Database(d) if d.is_unique_violation() => SaveError::Conflict,
            _ => SaveError::Db(e),
        }
    }
}

/// Tells the other instances (PostgreSQL: `NOTIFY`, sent when `tx`
/// commits) that game `id` is at `version` now (-1: deleted).
async fn notify(
    tx: &mut sqlx::Transaction<'_, Any>,
    db: &Db,
    id: &str,
    version: i64,
    me: &str,
) -> Result<(), sqlx::Error> {
    if backend(db) == Backend::Postgres {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(format!("{id} {version} {me}"))
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

fn color_str(c: Option<Color>) -> Option<&'static str> {
    c.map(|c| if c == Color::White { "w" } else { "b" })
}

fn parse_color(s: Option<String>) -> Option<Color> {
    match s.as_deref() {
        Some("w") => Some(Color::White),
        Some("b") => Some(Color::Black),
        _ => None,
    }
}

/// Inserts a new game (no moves yet) in transaction `tx`.
pub async fn insert_game_in(tx: &mut sqlx::Transaction<'_, Any>, live: &Live) -> Result<(), sqlx::Error> {
    insert_query(live).execute(&mut **tx).await?;
    Ok(())
}

/// Inserts a new game (no moves yet).
pub async fn insert_game(db: &Db, live: &Live) -> Result<(), sqlx::Error> {
    let _writer = writer(db).await;
    insert_query(live).execute(db).await?;
    Ok(())
}

fn insert_query(live: &Live) -> sqlx::query::Query<'_, Any, AnyArguments<'_>> {
    let m = &live.meta;
    sqlx::query(
        "INSERT INTO games (id, variant, rule_options, start_fen, mode, engine_level, engine_color, white_token, black_token, \
         clock_initial, clock_increment, white_ms, black_ms, turn_started, status, result, reason, draw_offer, created_at, updated_at, invite, \
         white_name, black_name, rematch_offer, rematch_id, version, owner, due_at, white_account, black_account, rated, \
         white_rating, white_provisional, black_rating, black_provisional, rating_min, rating_max, days_per_move) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, \
         $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37, $38)",
    )
    .bind(&m.id)
    .bind(m.variant.id())
    .bind(m.opts.to_string())
    .bind(&m.start_fen)
    .bind(m.mode.as_str())
    .bind(m.engine_level.map(i64::from))
    .bind(color_str(m.engine_color))
    .bind(&live.white_token)
    .bind(&live.black_token)
    .bind(m.clock.map(|c| c.0))
    .bind(m.clock.map(|c| c.1))
    .bind(live.white_ms)
    .bind(live.black_ms)
    .bind(live.turn_started)
    .bind(live.status.as_str())
    .bind(&live.result)
    .bind(&live.reason)
    .bind(color_str(live.draw_offer))
    .bind(m.created_at)
    .bind(live.updated_at)
    .bind(&live.invite)
    .bind(&live.white_name)
    .bind(&live.black_name)
    .bind(color_str(live.rematch_offer))
    .bind(&live.rematch_id)
    .bind(live.version)
    .bind(&live.owner)
    .bind(live.due_at())
    .bind(&live.white_account)
    .bind(&live.black_account)
    .bind(i64::from(m.rated))
    .bind(seat_rating(live, 0))
    .bind(seat_provisional(live, 0))
    .bind(seat_rating(live, 1))
    .bind(seat_provisional(live, 1))
    .bind(m.rating_range.map(|r| r.0))
    .bind(m.rating_range.map(|r| r.1))
    .bind(m.days.map(i64::from))
}

/// The rating the account at seat `i` (0 White, 1 Black) took it at.
fn seat_rating(live: &Live, i: usize) -> Option<i64> {
    live.players[i].as_ref().map(|p| p.rating)
}

fn seat_provisional(live: &Live, i: usize) -> Option<i64> {
    live.players[i].as_ref().map(|p| i64::from(p.provisional))
}

/// Writes a change in one transaction: the game row first, only if its
/// stored version is `live.version - 1` (else [`SaveError::Conflict`] and
/// nothing is written), then the moves from ply `keep` on deleted (a
/// takeback) and those after inserted. `me` is the instance writing it.
pub async fn save(db: &Db, live: &Live, keep: usize, me: &str) -> Result<(), SaveError> {
    // SQLite: the first statement writes, so the transaction takes the
    // write lock at once (a read first would have to upgrade, and SQLite
    // refuses an upgrade while another writer commits).
    let _writer = writer(db).await;
    let mut tx = db.begin().await?;
    save_in(&mut tx, db, live, keep, me).await?;
    tx.commit().await?;
    Ok(())
}

/// A rematch: the finished game's change (`old`, which names the rematch)
/// and the new game's row, in one transaction: either both or neither.
pub async fn save_with_new(db: &Db, old: &Live, keep: usize, new: &Live, me: &str) -> Result<(), SaveError> {
    let _writer = writer(db).await;
    let mut tx = db.begin().await?;
    save_in(&mut tx, db, old, keep, me).await?;
    insert_query(new).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(())
}

async fn save_in(
    tx: &mut sqlx::Transaction<'_, Any>,
    db: &Db,
    live: &Live,
    keep: usize,
    me: &str,
) -> Result<(), SaveError> {
    let updated = sqlx::query(
        "UPDATE games SET white_token = $2, black_token = $3, white_ms = $4, black_ms = $5, turn_started = $6, \
         status = $7, result = $8, reason = $9, draw_offer = $10, updated_at = $11, invite = $12, \
         white_name = $13, black_name = $14, rematch_offer = $15, rematch_id = $16, version = $17, owner = $18, \
         due_at = $19, white_account = $21, black_account = $22, \
         white_rating = COALESCE(white_rating, $23), white_provisional = COALESCE(white_provisional, $24), \
         black_rating = COALESCE(black_rating, $25), black_provisional = COALESCE(black_provisional, $26) \
         WHERE id = $1 AND version = $20",
    )
    .bind(&live.meta.id)
    .bind(&live.white_token)
    .bind(&live.black_token)
    .bind(live.white_ms)
    .bind(live.black_ms)
    .bind(live.turn_started)
    .bind(live.status.as_str())
    .bind(&live.result)
    .bind(&live.reason)
    .bind(color_str(live.draw_offer))
    .bind(live.updated_at)
    .bind(&live.invite)
    .bind(&live.white_name)
    .bind(&live.black_name)
    .bind(color_str(live.rematch_offer))
    .bind(&live.rematch_id)
    .bind(live.version)
    .bind(&live.owner)
    .bind(live.due_at())
    .bind(live.version - 1)
    .bind(&live.white_account)
    .bind(&live.black_account)
    .bind(seat_rating(live, 0))
    .bind(seat_provisional(live, 0))
    .bind(seat_rating(live, 1))
    .bind(seat_provisional(live, 1))
    .execute(&mut **tx)
    .await?;
    if updated.rows_affected() != 1 {
        return Err(SaveError::Conflict);
    }
    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
        .bind(&live.meta.id)
        .bind(keep as i64)
        .execute(&mut **tx)
        .await?;
    for ply in keep..live.game.moves().len() {
        let (w, b) = live.move_clocks.get(ply).copied().unwrap_or((None, None));
        sqlx::query("INSERT INTO moves (game_id, ply, uci, san, white_ms, black_ms) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(&live.meta.id)
            .bind(ply as i64)
            .bind(live.game.moves()[ply].to_string())
            .bind(&live.sans[ply])
            .bind(w)
            .bind(b)
            .execute(&mut **tx)
            .await?;
    }
    notify(tx, db, &live.meta.id, live.version, me).await?;
    Ok(())
}

/// Loads a game and replays its moves through the rules (in the CPU pool,
/// off the async workers: a long game is thousands of moves to check).
pub async fn load_game(db: &Db, cpu: &Pool, id: &str) -> Result<Option<Live>, String> {
    let row = sqlx::query(&format!("SELECT g.*, {USERNAMES} WHERE g.id = $1"))
        .bind(id)
        .fetch_optional(db)
        .await
        .map_err(|e| e.to_string())?;
    let Some(row) = row else { return Ok(None) };
    let rows = sqlx::query("SELECT uci, san, white_ms, black_ms FROM moves WHERE game_id = $1 ORDER BY ply")
        .bind(id)
        .fetch_all(db)
        .await
        .map_err(|e| e.to_string())?;
    let moves: Vec<(String, String, Option<i64>, Option<i64>)> =
        rows.into_iter().map(|r| (r.get("uci"), r.get("san"), r.get("white_ms"), r.get("black_ms"))).collect();
    let variant = Variant::from_str(row.get::<String, _>("variant").as_str()).map_err(|e| e.to_string())?;
    let opts = variant.rule_options(row.get::<String, _>("rule_options").as_str()).map_err(|e| e.to_string())?;
    let start_fen: String = row.get("start_fen");
    let clock_initial: Option<i64> = row.get("clock_initial");
    let clock_increment: Option<i64> = row.get("clock_increment");
    let meta = Meta {
        id: row.get("id"),
        variant,
        opts,
        start_fen,
        mode: Mode::parse(row.get::<String, _>("mode").as_str()).ok_or("bad mode in store")?,
        engine_level: row.get::<Option<i64>, _>("engine_level").map(|l| l as u8),
        engine_color: parse_color(row.get("engine_color")),
        clock: clock_initial.zip(clock_increment),
        created_at: row.get("created_at"),
        rated: row.get::<i64, _>("rated") == 1,
        rating_range: row.get::<Option<i64>, _>("rating_min").zip(row.get::<Option<i64>, _>("rating_max")),
        days: row.get::<Option<i64>, _>("days_per_move").and_then(|d| u8::try_from(d).ok()),
    };
    let id2 = id.to_string();
    let m2 = meta.clone();
    let replayed = cpu
        .run(Admission::Always, Arc::new(AtomicBool::new(false)), move |_| -> Result<_, String> {
            let start =
                chimera_rules::AnyPosition::from_fen(m2.variant, &m2.start_fen, &m2.opts).map_err(|e| e.to_string())?;
            let mut game = Game::new(start);
            let mut sans = Vec::with_capacity(moves.len());
            let mut move_clocks = Vec::with_capacity(moves.len());
            for (uci, san, w, b) in moves {
                let m = game.position().parse_uci(&uci).map_err(|e| format!("stored game {id2}: {e}"))?;
                game.push_unchecked(m);
                sans.push(san);
                move_clocks.push((w, b));
            }
            Ok((game, sans, move_clocks))
        })
        .await
        .map_err(|e| format!("could not replay game {id}: {e:?}"))?;
    let (game, sans, move_clocks) = replayed?;
    Ok(Some(Live {
        players: [seat_player(&row, "white"), seat_player(&row, "black")],
        meta,
        game,
        sans,
        move_clocks,
        white_token: row.get("white_token"),
        black_token: row.get("black_token"),
        white_account: row.get("white_account"),
        black_account: row.get("black_account"),
        ratings: {
            let r = |k: &str| row.get::<Option<i64>, _>(k);
            match (r("white_rating"), r("black_rating"), r("white_rating_diff"), r("black_rating_diff")) {
                (Some(w), Some(b), Some(dw), Some(db)) => Some((w, b, dw, db)),
                _ => None,
            }
        },
        invite: row.get("invite"),
        white_name: row.get("white_name"),
        black_name: row.get("black_name"),
        rematch_offer: parse_color(row.get("rematch_offer")),
        rematch_id: row.get("rematch_id"),
        white_ms: row.get("white_ms"),
        black_ms: row.get("black_ms"),
        turn_started: row.get("turn_started"),
        status: if row.get::<String, _>("status") == "finished" { Status::Finished } else { Status::Active },
        result: row.get("result"),
        reason: row.get("reason"),
        draw_offer: parse_color(row.get("draw_offer")),
        updated_at: row.get("updated_at"),
        version: row.get("version"),
        owner: row.get("owner"),
        generation: 0,
        thinking: false,
    }))
}

/// The accounts' names at a game's seats (`white_username`,
/// `black_username`: a deleted account has none): the select list's tail
/// and the `FROM` of a query on `games g`.
pub(crate) const USERNAMES: &str = "wa.username AS white_username, ba.username AS black_username, \
     wa.kind AS white_kind, ba.kind AS black_kind FROM games g \
     LEFT JOIN accounts wa ON wa.id = g.white_account AND wa.deleted_at IS NULL \
     LEFT JOIN accounts ba ON ba.id = g.black_account AND ba.deleted_at IS NULL";

/// The account at a seat (`side` "white" or "black") of a row read with
/// [`USERNAMES`], with the rating it took the seat at.
pub(crate) fn seat_player(row: &AnyRow, side: &str) -> Option<Player> {
    Some(Player {
        username: row.get::<Option<String>, _>(format!("{side}_username").as_str())?,
        rating: row.get::<Option<i64>, _>(format!("{side}_rating").as_str()).unwrap_or(1500),
        provisional: row.get::<Option<i64>, _>(format!("{side}_provisional").as_str()).unwrap_or(1) == 1,
        bot: row.get::<Option<String>, _>(format!("{side}_kind").as_str()).as_deref() == Some("bot"),
    })
}

/// A seat as the lists show it: the account's name and the rating it took
/// the seat at.
#[derive(Serialize)]
pub struct SeatView {
    pub username: String,
    pub rating: String,
    /// `BOT` for a BOT account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'static str>,
}

fn seat_view(row: &AnyRow, side: &str) -> Option<SeatView> {
    seat_player(row, side).map(|p| SeatView { rating: p.shown(), title: p.bot.then_some("BOT"), username: p.username })
}

#[derive(Serialize)]
pub struct GameSummary {
    pub id: String,
    pub variant: String,
    pub variant_name: String,
    pub mode: String,
    pub engine_level: Option<i64>,
    pub status: String,
    pub result: String,
    pub reason: Option<String>,
    pub plies: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    /// The accounts at the seats, with their ratings.
    pub white: Option<SeatView>,
    pub black: Option<SeatView>,
    pub rated: bool,
    /// The ratings' changes of a rated game once applied (White's, Black's).
    pub rating_diffs: Option<(i64, i64)>,
}

pub async fn list_games(db: &Db) -> Result<Vec<GameSummary>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT g.id, g.variant, g.mode, g.engine_level, g.status, g.result, g.reason, g.created_at, g.updated_at, \
         g.white_name, g.black_name, g.rated, g.white_rating, g.white_provisional, g.black_rating, g.black_provisional, \
         g.white_rating_diff, g.black_rating_diff, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies, \
         {USERNAMES} WHERE NOT (g.mode = 'seek' AND g.status = 'active' AND (g.white_token IS NULL OR g.black_token IS NULL)) \
         ORDER BY g.updated_at DESC LIMIT 200"
    ))
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let variant: String = r.get("variant");
            GameSummary {
                id: r.get("id"),
                variant_name: Variant::from_str(&variant).map(|v| v.name().to_string()).unwrap_or_default(),
                variant,
                mode: r.get("mode"),
                engine_level: r.get("engine_level"),
                status: r.get("status"),
                result: r.get("result"),
                reason: r.get("reason"),
                plies: r.get("plies"),
                created_at: r.get("created_at"),
                updated_at: r.get("updated_at"),
                white_name: r.get("white_name"),
                black_name: r.get("black_name"),
                white: seat_view(&r, "white"),
                black: seat_view(&r, "black"),
                rated: r.get::<i64, _>("rated") == 1,
                rating_diffs: r
                    .get::<Option<i64>, _>("white_rating_diff")
                    .zip(r.get::<Option<i64>, _>("black_rating_diff")),
            }
        })
        .collect())
}

/// The condition of an open seek: a game against a stranger, not over,
/// with a seat free.
const OPEN_SEEK: &str = "mode = 'seek' AND status = 'active' AND (white_token IS NULL OR black_token IS NULL)";

/// Takes the free seat `color` of an open seek for `token`. The database
/// decides who comes first: the row changes only while that seat is still
/// empty, so of two joiners (in one process or several) exactly one gets
/// `true`.
pub async fn claim_seat(
    db: &Db,
    id: &str,
    color: Color,
    token: &str,
    name: Option<&str>,
    player: Option<(&str, &Player)>,
    me: &str,
) -> Result<bool, sqlx::Error> {
    let side = if color == Color::White { "white" } else { "black" };
    let sql = format!(
        "UPDATE games SET {side}_token = $2, {side}_name = $3, updated_at = $4, {side}_account = $5, \
         {side}_rating = $6, {side}_provisional = $7, version = version + 1 \
         WHERE id = $1 AND mode = 'seek' AND status = 'active' AND {side}_token IS NULL"
    );
    let _writer = writer(db).await;
    let mut tx = db.begin().await?;
    let r = sqlx::query(&sql)
        .bind(id)
        .bind(token)
        .bind(name)
        .bind(crate::live::now_ms())
        .bind(player.map(|p| p.0))
        .bind(player.map(|p| p.1.rating))
        .bind(player.map(|p| i64::from(p.1.provisional)))
        .execute(&mut *tx)
        .await?;
    if r.rows_affected() == 1 {
        let v: i64 = sqlx::query("SELECT version FROM games WHERE id = $1").bind(id).fetch_one(&mut *tx).await?.get(0);
        notify(&mut tx, db, id, v, me).await?;
    }
    tx.commit().await?;
    Ok(r.rows_affected() == 1)
}

/// Which open seek [`delete_open_seek`] may delete.
pub enum SeekCancel<'a> {
    /// Its creator cancelled it: whoever holds it.
    Any,
    /// Its creator's page closed on this instance: only if no page has
    /// opened on another instance since (that instance owns it then).
    OwnedBy(&'a str),
    /// Its owner is no instance that beat after `alive_since` (ms): every
    /// page on it went with a dead instance.
    Orphan { alive_since: i64 },
}

/// Deletes an open seek (its creator cancelled it or left). Only while its
/// seat is still free: a seek someone joined meanwhile stays. True if gone.
pub async fn delete_open_seek(db: &Db, id: &str, cond: SeekCancel<'_>, me: &str) -> Result<bool, sqlx::Error> {
    let _writer = writer(db).await;
    let mut tx = db.begin().await?;
    let sql = match cond {
        SeekCancel::Any => format!("DELETE FROM games WHERE id = $1 AND {OPEN_SEEK} AND $2 = $2"),
        SeekCancel::OwnedBy(_) => format!("DELETE FROM games WHERE id = $1 AND {OPEN_SEEK} AND owner = $2"),
        SeekCancel::Orphan { .. } => format!(
            "DELETE FROM games WHERE id = $1 AND {OPEN_SEEK} AND days_per_move IS NULL AND (owner IS NULL OR owner NOT IN \
             (SELECT id FROM instances WHERE heartbeat_at >= $2))"
        ),
    };
    let q = sqlx::query(&sql).bind(id);
    let q = match cond {
        SeekCancel::Any => q.bind(0i64),
        SeekCancel::OwnedBy(owner) => q.bind(owner),
        SeekCancel::Orphan { alive_since } => q.bind(alive_since),
    };
    let r = q.execute(&mut *tx).await?;
    if r.rows_affected() == 1 {
        // A seek has no moves (nobody moves before the seat is taken); this
        // keeps the foreign key whole even so.
        sqlx::query("DELETE FROM moves WHERE game_id = $1").bind(id).execute(&mut *tx).await?;
        notify(&mut tx, db, id, -1, me).await?;
    }
    tx.commit().await?;
    Ok(r.rows_affected() == 1)
}

/// Makes `me` the owner of an open seek (a page with its seat opened here):
/// the seek is this instance's to cancel when that page goes.
pub async fn own_seek(db: &Db, id: &str, me: &str) -> Result<(), sqlx::Error> {
    let _writer = writer(db).await;
    sqlx::query(&format!("UPDATE games SET owner = $2 WHERE id = $1 AND {OPEN_SEEK}"))
        .bind(id)
        .bind(me)
        .execute(db)
        .await?;
    Ok(())
}

/// An open seek as the lobby lists it.
#[derive(Serialize)]
pub struct SeekSummary {
    pub id: String,
    pub variant: String,
    pub variant_name: String,
    /// The variant's rule options with their values, defaults included.
    pub options: serde_json::Value,
    /// Whether it starts from a position of its own (not the variant's).
    pub custom_start: bool,
    /// (initial, increment) in ms; `null` = no clock.
    pub clock: Option<(i64, i64)>,
    /// The colour the joiner gets: "white" or "black".
    pub color: String,
    /// The creator's name, if given.
    pub name: Option<String>,
    /// A rated seek.
    pub rated: bool,
    /// The creator's account name and rating in the variant (`1500?`), when
    /// the creator is logged in.
    pub username: Option<String>,
    pub rating: Option<String>,
    /// Only an account rated from the first to the second may join.
    pub rating_range: Option<(i64, i64)>,
    /// Days per move of a correspondence seek (its `clock` is then null).
    pub days: Option<i64>,
    pub created_at: i64,
    /// A house bot's seek: the bot's level (`bots`). Its colour is
    /// "random", and joining it is a challenge to the bot with its terms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<u8>,
}

pub async fn list_seeks(db: &Db) -> Result<Vec<SeekSummary>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT g.id, g.variant, g.rule_options, g.start_fen, g.clock_initial, g.clock_increment, g.white_token, \
         g.white_name, g.black_name, g.rated, g.white_rating, g.white_provisional, g.black_rating, g.black_provisional, \
         g.rating_min, g.rating_max, g.days_per_move, g.created_at, {USERNAMES} WHERE {OPEN_SEEK} ORDER BY g.created_at DESC LIMIT 100"
    ))
    .fetch_all(db)
    .await?;
    let out: Vec<SeekSummary> = rows
        .into_iter()
        .filter_map(|r| {
            let variant_id: String = r.get("variant");
            let variant = Variant::from_str(&variant_id).ok()?;
            let start_fen: String = r.get("start_fen");
            let opts = variant.rule_options(r.get::<String, _>("rule_options").as_str()).ok()?;
            let standard = opts.clone();
            let custom_start = chimera_rules::AnyPosition::new(variant, &standard).fen() != start_fen;
            let white_free = r.get::<Option<String>, _>("white_token").is_none();
            let clock_initial: Option<i64> = r.get("clock_initial");
            let clock_increment: Option<i64> = r.get("clock_increment");
            let creator = seat_player(&r, if white_free { "black" } else { "white" });
            let days: Option<i64> = r.get("days_per_move");
            Some(SeekSummary {
                id: r.get("id"),
                variant_name: variant.name().to_string(),
                variant: variant_id,
                options: crate::live::options_json(variant, &opts),
                custom_start,
                clock: clock_initial.zip(clock_increment).filter(|_| days.is_none()),
                days,
                color: if white_free { "white" } else { "black" }.into(),
                name: if white_free { r.get("black_name") } else { r.get("white_name") },
                rated: r.get::<i64, _>("rated") == 1,
                username: creator.as_ref().map(|p| p.username.clone()),
                rating: creator.as_ref().map(Player::shown),
                rating_range: r.get::<Option<i64>, _>("rating_min").zip(r.get::<Option<i64>, _>("rating_max")),
                created_at: r.get("created_at"),
                bot: None,
            })
        })
        .collect();
    Ok(out)
}

/// How many open correspondence seeks `account` has.
pub async fn lasting_seeks_of(db: &Db, account: &str) -> Result<i64, sqlx::Error> {
    let r = sqlx::query(&format!(
        "SELECT COUNT(*) FROM games WHERE {OPEN_SEEK} AND days_per_move IS NOT NULL \
         AND (white_account = $1 OR black_account = $1)"
    ))
    .bind(account)
    .fetch_one(db)
    .await?;
    Ok(r.get(0))
}

/// The open seeks whose owner is no instance that beat after
/// `alive_since` (ms): their pages went with a dead instance (or with this
/// process before a restart).
pub async fn orphan_seek_ids(db: &Db, alive_since: i64) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT id FROM games WHERE {OPEN_SEEK} AND days_per_move IS NULL AND (owner IS NULL OR owner NOT IN \
         (SELECT id FROM instances WHERE heartbeat_at >= $1))"
    ))
    .bind(alive_since)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| r.get("id")).collect())
}

/// The current version of game `id` (None: no such game).
pub async fn version_of(db: &Db, id: &str) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query("SELECT version FROM games WHERE id = $1").bind(id).fetch_optional(db).await?;
    Ok(row.map(|r| r.get(0)))
}

/// Writes a game's due time as the held game works it out (after a
/// takeover: a game stored before due times were kept has 0).
pub async fn set_due(db: &Db, id: &str, due_at: Option<i64>) -> Result<(), sqlx::Error> {
    let _writer = writer(db).await;
    sqlx::query("UPDATE games SET due_at = $2 WHERE id = $1").bind(id).bind(due_at).execute(db).await?;
    Ok(())
}

/// Registers this instance (or renews its heartbeat).
pub async fn heartbeat(db: &Db, me: &str, started_at: i64) -> Result<(), sqlx::Error> {
    let _writer = writer(db).await;
    sqlx::query(
        "INSERT INTO instances (id, started_at, heartbeat_at) VALUES ($1, $2, $3) \
         ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
    )
    .bind(me)
    .bind(started_at)
    .bind(crate::live::now_ms())
    .execute(db)
    .await?;
    Ok(())
}

/// Removes this instance's row (a clean stop: its games are taken over at
/// once), and rows of instances silent for a day.
pub async fn unregister(db: &Db, me: &str) -> Result<(), sqlx::Error> {
    let _writer = writer(db).await;
    sqlx::query("DELETE FROM instances WHERE id = $1 OR heartbeat_at < $2")
        .bind(me)
        .bind(crate::live::now_ms() - 86_400_000)
        .execute(db)
        .await?;
    Ok(())
}

/// Takes over the games with something due (a running clock, the engine
/// to move) whose owner is no instance that beat after `alive_since` (ms):
/// each row changes owner in one conditional statement, so of two
/// instances taking over at once each game gets exactly one. Returns their
/// ids.
pub async fn take_over(db: &Db, me: &str, alive_since: i64) -> Result<Vec<String>, sqlx::Error> {
    let _writer = writer(db).await;
    let rows = sqlx::query(
        "UPDATE games SET owner = $1 WHERE status = 'active' AND due_at IS NOT NULL AND \
         (owner IS NULL OR owner NOT IN (SELECT id FROM instances WHERE heartbeat_at >= $2)) RETURNING id",
    )
    .bind(me)
    .bind(alive_since)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| r.get("id")).collect())
}

/// Takes over the due games of `prev`, this data directory's previous
/// process (dead: it no longer holds the directory's lock; see
/// `crate::dir_lock`): at once, without waiting for its heartbeat to go
/// stale. Returns their ids.
pub async fn take_over_from(db: &Db, me: &str, prev: &str) -> Result<Vec<String>, sqlx::Error> {
    let _writer = writer(db).await;
    let rows = sqlx::query(
        "UPDATE games SET owner = $1 WHERE status = 'active' AND due_at IS NOT NULL AND owner = $2 RETURNING id",
    )
    .bind(me)
    .bind(prev)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| r.get("id")).collect())
}

/// A game's stored review at `nodes` nodes a position (its JSON).
pub async fn review(db: &Db, game: &str, nodes: u64) -> Result<Option<String>, sqlx::Error> {
    let row = sqlx::query("SELECT review FROM reviews WHERE game_id = $1 AND nodes = $2")
        .bind(game)
        .bind(nodes as i64)
        .fetch_optional(db)
        .await?;
    Ok(row.map(|r| r.get(0)))
}
