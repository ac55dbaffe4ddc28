//! Ratings: one Glicko-2 rating per account and variant id
//! (`chimera-rating`, lichess's constants), changed by each finished rated
//! game exactly once, and the leaderboards (`docs/ratings.md`).
//!
//! A game is rated when its creator asks for it and the rules allow it: an
//! open seek or a friend game, two accounts (never the same), the
//! variant's own start position and default rule options. Engine and
//! hot-seat games are never rated.
//!
//! **Exactly once.** [`settle`] applies a finished rated game in one
//! transaction that begins by setting the game's `rating_done` from 0 to 1
//! (`UPDATE ... WHERE rating_done = 0`): of any number of callers, on any
//! number of instances, the store lets one through and the others change
//! nothing. It is called after the change that finishes a game, and by
//! every instance's heartbeat for any finished rated game still not done
//! (an instance that died in between), so no result is lost either.

use crate::live::Player;
use crate::store::Db;
use crate::App;
use chimera_rating::{Outcome, Rating, Settings};
use chimera_rules::{Position, Variant};
use serde::Serialize;
use sqlx::Row;
use std::str::FromStr;
use std::time::Duration;

/// The settings of players' ratings: lichess's.
pub const SETTINGS: Settings = Settings::LICHESS;

/// How recently a player must have played a rated game of the variant to be
/// on its leaderboard: 90 days. lichess uses a week for its large pools; a
/// small community plays a variant less often, and a quarter keeps the
/// board full without showing players who have left.
pub const BOARD_WINDOW_MS: i64 = 90 * 24 * 3600 * 1000;

/// Places on a leaderboard.
pub const BOARD_SIZE: i64 = 100;

/// A rating as stored, with its games and the time of the last one.
#[derive(Clone, Debug, Serialize)]
pub struct Stored {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    pub rated_at: i64,
}

impl Stored {
    fn glicko(&self) -> Rating {
        Rating::new(self.rating, self.deviation, self.volatility)
    }

    /// The rating as it stands `now` (ms): the deviation grown by the time
    /// since the last rated game (Glickman's step 6 per rating period).
    pub fn now(&self, now: i64) -> Rating {
        let idle = Duration::from_millis((now - self.rated_at).max(0) as u64);
        self.glicko().after_inactivity(idle, &SETTINGS).unwrap_or(self.glicko())
    }
}

/// The columns [`Stored::from_row`] reads, in its order (of `ratings r`).
const STORED_COLUMNS: &str = "r.rating, r.deviation, r.volatility, r.games, r.wins, r.draws, r.losses, r.rated_at";

impl Stored {
    /// A rating from a row whose columns from `at` on are [`STORED_COLUMNS`].
    fn from_row(r: &sqlx::any::AnyRow, at: usize) -> Stored {
        Stored {
            rating: r.get(at),
            deviation: r.get(at + 1),
            volatility: r.get(at + 2),
            games: r.get(at + 3),
            wins: r.get(at + 4),
            draws: r.get(at + 5),
            losses: r.get(at + 6),
            rated_at: r.get(at + 7),
        }
    }
}

/// The stored rating of `account` in `variant`, if it played one.
pub async fn get<'e, E>(db: E, account: &str, variant: &str) -> Result<Option<Stored>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row =
        sqlx::query(&format!("SELECT {STORED_COLUMNS} FROM ratings r WHERE r.account_id = $1 AND r.variant = $2"))
            .bind(account)
            .bind(variant)
            .fetch_optional(db)
            .await?;
    Ok(row.map(|r| Stored::from_row(&r, 0)))
}

/// A rating as players see it: `1500?` while provisional.
pub fn shown(r: &Rating) -> String {
    r.to_string()
}

/// Whether a game of `variant` with these options and start may be rated.
pub fn ratable(variant: Variant, opts: &chimera_rules::RuleOptions, start_fen: &str) -> Result<(), String> {
    if !opts.to_string().is_empty() {
        return Err("a rated game keeps the variant's default rule options: other options are casual only".into());
    }
    if chimera_rules::AnyPosition::new(variant, opts).fen() != start_fen {
        return Err("a rated game starts from the variant's own position: a position of your own is casual only".into());
    }
    Ok(())
}

fn outcome(result: &str) -> Option<Outcome> {
    match result {
        "1-0" => Some(Outcome::WhiteWins),
        "0-1" => Some(Outcome::BlackWins),
        "1/2-1/2" => Some(Outcome::Draw),
        _ => None,
    }
}

/// Applies finished rated game `id` to both players' ratings, once: `true`
/// if this call applied it, `false` if it was applied before (or is not a
/// finished rated game between two accounts).
pub async fn settle(db: &Db, id: &str) -> Result<bool, String> {
    let _writer = crate::store::writer(db).await;
    let mut tx = db.begin().await.map_err(|e| e.to_string())?;
    let claimed = sqlx::query(
        "UPDATE games SET rating_done = 1 WHERE id = $1 AND rated = 1 AND rating_done = 0 AND status = 'finished' \
         AND white_account IS NOT NULL AND black_account IS NOT NULL",
    )
    .bind(id)
    .execute(&mut *tx)
    .await
    .map_err(|e| e.to_string())?;
    if claimed.rows_affected() != 1 {
        return Ok(false);
    }
    let g = sqlx::query("SELECT variant, result, white_account, black_account, updated_at FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| e.to_string())?;
    let (variant, result): (String, String) = (g.get(0), g.get(1));
    let (wa, ba): (String, String) = (g.get(2), g.get(3));
    let at: i64 = g.get(4);
    let Some(out) = outcome(&result) else {
        // No result (an aborted game): nothing to rate; done all the same.
        tx.commit().await.map_err(|e| e.to_string())?;
        return Ok(true);
    };
    // A house bot's rating is pinned (`bots`): it plays at its level's
    // measured figure, and the game leaves it as it is.
    let levels = crate::bots::levels_of(&mut *tx, [&wa, &ba]).await.map_err(|e| e.to_string())?;
    let pinned = |level: Option<u8>| Some(crate::bots::pinned(Variant::from_str(&variant).ok()?, level?));
    let (pin_w, pin_b) = (pinned(levels[0]), pinned(levels[1]));
    let before_w = get(&mut *tx, &wa, &variant).await.map_err(|e| e.to_string())?;
    let before_b = get(&mut *tx, &ba, &variant).await.map_err(|e| e.to_string())?;
    let now_w = pin_w.unwrap_or_else(|| before_w.as_ref().map_or(SETTINGS.new_player, |s| s.now(at)));
    let now_b = pin_b.unwrap_or_else(|| before_b.as_ref().map_or(SETTINGS.new_player, |s| s.now(at)));
    let (mut after_w, mut after_b) =
        chimera_rating::update_pair(&now_w, &now_b, out, &SETTINGS).map_err(|e| e.to_string())?;
    if pin_w.is_some() {
        after_w = now_w;
    }
    if pin_b.is_some() {
        after_b = now_b;
    }
    for (acc, before, after, score, _) in
        [(&wa, &before_w, &after_w, out.white(), pin_w), (&ba, &before_b, &after_b, out.black(), pin_b)]
            .into_iter()
            .filter(|x| x.4.is_none())
    {
        let (w, d, l) = match score.value() {
            v if v > 0.75 => (1, 0, 0),
            v if v < 0.25 => (0, 0, 1),
            _ => (0, 1, 0),
        };
        let counts = before.as_ref().map_or((0, 0, 0, 0), |b| (b.games, b.wins, b.draws, b.losses));
        sqlx::query(
            "INSERT INTO ratings (account_id, variant, rating, deviation, volatility, games, wins, draws, losses, rated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             ON CONFLICT (account_id, variant) DO UPDATE SET rating = $3, deviation = $4, volatility = $5, games = $6, \
             wins = $7, draws = $8, losses = $9, rated_at = $10",
        )
        .bind(acc)
        .bind(&variant)
        .bind(after.rating)
        .bind(after.deviation)
        .bind(after.volatility)
        .bind(counts.0 + 1)
        .bind(counts.1 + w)
        .bind(counts.2 + d)
        .bind(counts.3 + l)
        .bind(at)
        .execute(&mut *tx)
        .await
        .map_err(|e| e.to_string())?;
        sqlx::query(
            "INSERT INTO rating_history (account_id, variant, game_id, rating, deviation, at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(acc)
        .bind(&variant)
        .bind(id)
        .bind(after.rating)
        .bind(after.deviation)
        .bind(at)
        .execute(&mut *tx)
        .await
        .map_err(|e| e.to_string())?;
    }
    let diff = |b: &Rating, a: &Rating| chimera_rating::rating_diff(b, a).0;
    sqlx::query(
        "UPDATE games SET white_rating = $2, black_rating = $3, white_rating_diff = $4, black_rating_diff = $5, \
         white_provisional = $6, black_provisional = $7 WHERE id = $1",
    )
    .bind(id)
    .bind(now_w.rounded())
    .bind(now_b.rounded())
    .bind(diff(&now_w, &after_w))
    .bind(diff(&now_b, &after_b))
    .bind(i64::from(now_w.is_provisional()))
    .bind(i64::from(now_b.is_provisional()))
    .execute(&mut *tx)
    .await
    .map_err(|e| e.to_string())?;
    tx.commit().await.map_err(|e| e.to_string())?;
    Ok(true)
}

/// Settles every finished rated game still not applied (an instance died
/// between the end of a game and its rating): on each heartbeat.
pub async fn settle_pending(app: &App) {
    let ids: Vec<String> = match sqlx::query(
        "SELECT id FROM games WHERE rated = 1 AND rating_done = 0 AND status = 'finished' \
         AND white_account IS NOT NULL AND black_account IS NOT NULL LIMIT 100",
    )
    .fetch_all(&app.db)
    .await
    {
        Ok(rows) => rows.into_iter().map(|r| r.get::<String, _>(0)).collect(),
        Err(e) => {
            eprintln!("ratings: {e}");
            return;
        }
    };
    for id in ids {
        if let Err(e) = settle(&app.db, &id).await {
            eprintln!("ratings: game {id}: {e}");
        }
    }
}

/// One place on a leaderboard.
#[derive(Clone, Debug, Serialize)]
pub struct Place {
    pub rank: usize,
    pub username: String,
    pub rating: i64,
    pub deviation: i64,
    pub games: i64,
    pub rated_at: i64,
}

/// The top players of `variant`: a settled rating (deviation at most 110
/// as it stands now) and a rated game within [`BOARD_WINDOW_MS`].
pub async fn board(db: &Db, variant: &str, now: i64) -> Result<Vec<Place>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT a.username, {STORED_COLUMNS} FROM ratings r JOIN accounts a ON a.id = r.account_id \
             WHERE r.variant = $1 AND r.rated_at >= $2 AND a.deleted_at IS NULL AND a.kind <> 'bot' \
             ORDER BY r.rating DESC LIMIT 1000"
    ))
    .bind(variant)
    .bind(now - BOARD_WINDOW_MS)
    .fetch_all(db)
    .await?;
    let mut out = Vec::new();
    for r in rows {
        let s = Stored::from_row(&r, 1);
        let now_r = s.now(now);
        if now_r.is_provisional() {
            continue;
        }
        out.push(Place {
            rank: out.len() + 1,
            username: r.get(0),
            rating: now_r.rounded(),
            deviation: now_r.deviation.round() as i64,
            games: s.games,
            rated_at: s.rated_at,
        });
        if out.len() as i64 >= BOARD_SIZE {
            break;
        }
    }
    Ok(out)
}

/// An account's name and its rating in `variant` as it stands now (1500,
/// provisional, for one who never played it): what a seat keeps when the
/// account takes it. `None` for an unknown or deleted account.
pub async fn player(db: &Db, account: &str, variant: &str) -> Result<Option<Player>, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT a.username, {STORED_COLUMNS}, a.bot_level, a.kind FROM accounts a \
         LEFT JOIN ratings r ON r.account_id = a.id AND r.variant = $2 WHERE a.id = $1 AND a.deleted_at IS NULL"
    ))
    .bind(account)
    .bind(variant)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| {
        // A house bot's is its level's measured rating (`bots::pinned`).
        let bot = r
            .get::<Option<i64>, _>(9)
            .and_then(|l| u8::try_from(l).ok())
            .zip(Variant::from_str(variant).ok())
            .map(|(l, v)| crate::bots::pinned(v, l));
        let now = bot.unwrap_or_else(|| {
            r.get::<Option<f64>, _>(1)
                .map_or(SETTINGS.new_player, |_| Stored::from_row(&r, 1).now(crate::live::now_ms()))
        });
        Player {
            username: r.get(0),
            rating: now.rounded(),
            provisional: now.is_provisional(),
            bot: r.get::<String, _>(10) == "bot",
        }
    }))
}

/// `account`'s ratings as they stand now, by variant id (only the variants
/// it played rated), for the lobby to tell which seeks' ranges it is in.
pub async fn now_of(db: &Db, account: &str) -> Result<serde_json::Map<String, serde_json::Value>, sqlx::Error> {
    let rows = sqlx::query(&format!("SELECT r.variant, {STORED_COLUMNS} FROM ratings r WHERE r.account_id = $1"))
        .bind(account)
        .fetch_all(db)
        .await?;
    let now = crate::live::now_ms();
    Ok(rows
        .iter()
        .map(|r| {
            let n = Stored::from_row(r, 1).now(now);
            (r.get::<String, _>(0), json!({"rating": n.rounded(), "provisional": n.is_provisional()}))
        })
        .collect())
}

/// Fills in the players of `live`'s seats that an account holds and no
/// player is known for yet (a new game, a seat just taken, a rematch).
pub async fn seat_players(db: &Db, live: &mut crate::live::Live) -> Result<(), sqlx::Error> {
    let variant = live.meta.variant.id();
    for (i, acc) in [live.white_account.clone(), live.black_account.clone()].into_iter().enumerate() {
        if let (Some(acc), None) = (acc, &live.players[i]) {
            live.players[i] = player(db, &acc, variant).await?;
        }
    }
    Ok(())
}

pub fn routes() -> axum::Router<App> {
    use axum::routing::get;
    axum::Router::new()
        .route("/api/players", get(api_boards))
        .route("/api/players/{variant}", get(api_board))
        .route("/api/@/{name}", get(api_profile))
        .route("/api/@/{name}/games.pgn", get(api_profile_pgn))
}

use crate::net::error as err;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

async fn api_boards(State(app): State<App>) -> Response {
    let now = crate::live::now_ms();
    let mut out = Vec::new();
    for v in Variant::ALL {
        match board(&app.db, v.id(), now).await {
            Ok(mut p) => {
                p.truncate(10);
                out.push(json!({"id": v.id(), "name": v.name(), "players": p}));
            }
            Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        }
    }
    Json(json!({"window_days": BOARD_WINDOW_MS / 86_400_000, "variants": out})).into_response()
}

async fn api_board(State(app): State<App>, Path(id): Path<String>) -> Response {
    let v: Variant = match id.parse() {
        Ok(v) => v,
        Err(e) => return err(StatusCode::NOT_FOUND, format!("{e}")),
    };
    match board(&app.db, v.id(), crate::live::now_ms()).await {
        Ok(p) => {
            Json(json!({"id": v.id(), "name": v.name(), "window_days": BOARD_WINDOW_MS / 86_400_000, "players": p}))
                .into_response()
        }
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// `GET /api/@/{name}`: a player's ratings per variant with their history,
/// and the latest games.
async fn api_profile(
    State(app): State<App>,
    Path(name): Path<String>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Response {
    let key = name.to_lowercase();
    if key.len() > 40 {
        return err(StatusCode::NOT_FOUND, "no such player");
    }
    let acc = match sqlx::query(
        "SELECT id, username, created_at, bot_level, kind FROM accounts WHERE username_key = $1 AND deleted_at IS NULL",
    )
    .bind(&key)
    .fetch_optional(&app.db)
    .await
    {
        Ok(Some(r)) => (
            r.get::<String, _>(0),
            r.get::<String, _>(1),
            r.get::<i64, _>(2),
            r.get::<Option<i64>, _>(3),
            r.get::<String, _>(4) == "bot",
        ),
        Ok(None) => return err(StatusCode::NOT_FOUND, "no such player"),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let now = crate::live::now_ms();
    let mut ratings = Vec::new();
    // A house bot: its level's measured ratings, each with its 95% interval.
    let bot = acc.3.and_then(|l| u8::try_from(l).ok());
    for v in Variant::ALL.into_iter().filter(|_| bot.is_some()) {
        let level = bot.unwrap_or(1);
        let m = chimera_session::Level::clamped(level).rating(v);
        let r = crate::bots::pinned(v, level);
        ratings.push(json!({
            "variant": v.id(), "name": v.name(), "rating": shown(&r), "provisional": r.is_provisional(),
            "lower": m.lower, "upper": m.upper, "calibration_games": m.games, "history": [],
        }));
    }
    for v in Variant::ALL.into_iter().filter(|_| bot.is_none()) {
        let Ok(Some(s)) = get(&app.db, &acc.0, v.id()).await else { continue };
        let r = s.now(now);
        let history: Vec<serde_json::Value> = match sqlx::query(
            "SELECT at, rating FROM rating_history WHERE account_id = $1 AND variant = $2 ORDER BY at LIMIT 5000",
        )
        .bind(&acc.0)
        .bind(v.id())
        .fetch_all(&app.db)
        .await
        {
            Ok(rows) => rows
                .into_iter()
                .map(|h| json!({"at": h.get::<i64, _>(0), "rating": h.get::<f64, _>(1).round()}))
                .collect(),
            Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        };
        ratings.push(json!({
            "variant": v.id(), "name": v.name(), "rating": shown(&r), "provisional": r.is_provisional(),
            "games": s.games, "wins": s.wins, "draws": s.draws, "losses": s.losses, "history": history,
        }));
    }
    let filter = match Filter::read(&q) {
        Ok(f) => f,
        Err(e) => return err(StatusCode::BAD_REQUEST, e),
    };
    let (games, more) = match archive(&app.db, &acc.0, &filter).await {
        Ok(x) => x,
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    Json(json!({
        "username": acc.1, "created_at": acc.2, "ratings": ratings, "games": games, "page": filter.page, "more": more,
        "bot": bot.map(|l| json!({"level": l})), "title": acc.4.then_some("BOT"),
    }))
    .into_response()
}

/// `GET /api/@/{name}/games.pgn`: the player's games matching the same
/// search as the archive (all pages, 5,000 at most), as one PGN download.
async fn api_profile_pgn(
    State(app): State<App>,
    Path(name): Path<String>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Response {
    let acc: String = match sqlx::query("SELECT id FROM accounts WHERE username_key = $1 AND deleted_at IS NULL")
        .bind(name.to_lowercase())
        .fetch_optional(&app.db)
        .await
    {
        Ok(Some(r)) => r.get(0),
        Ok(None) => return err(StatusCode::NOT_FOUND, "no such player"),
        Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let mut filter = match Filter::read(&q) {
        Ok(f) => f,
        Err(e) => return err(StatusCode::BAD_REQUEST, e),
    };
    let mut text = String::new();
    for page in 0..100 {
        filter.page = page;
        let (games, more) = match archive(&app.db, &acc, &filter).await {
            Ok(x) => x,
            Err(e) => return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        };
        for g in games {
            let id = g["id"].as_str().unwrap_or_default();
            if let Ok(Some(l)) = crate::store::load_game(&app.db, &app.cpu, id).await {
                let review = crate::pgn_comments::stored_review(&app, id).await;
                text.push_str(&crate::web::pgn_of(&l, review.as_ref()));
                text.push('\n');
            }
        }
        if !more {
            break;
        }
    }
    let mut r = ([(axum::http::header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8")], text).into_response();
    if let Ok(v) = axum::http::HeaderValue::from_str(&format!("attachment; filename=\"{}.pgn\"", name.to_lowercase())) {
        r.headers_mut().insert(axum::http::header::CONTENT_DISPOSITION, v);
    }
    r
}

/// Games on a page of a profile's archive.
pub const ARCHIVE_PAGE: i64 = 50;

/// The archive search of a profile: each field is optional.
#[derive(Debug, Default)]
pub struct Filter {
    pub variant: Option<String>,
    /// The opponent's username (any case).
    pub opponent: Option<String>,
    /// `win`, `draw` or `loss`, for the profile's player.
    pub result: Option<String>,
    pub rated: Option<bool>,
    /// Created at or after / before (ms since the epoch).
    pub since: Option<i64>,
    pub until: Option<i64>,
    /// 0 for the newest games.
    pub page: i64,
}

impl Filter {
    /// Reads the query string; an unknown key or a bad value is an error
    /// that says which.
    pub fn read(q: &std::collections::HashMap<String, String>) -> Result<Filter, String> {
        let mut f = Filter::default();
        for (k, v) in q {
            let v = v.trim();
            if v.is_empty() {
                continue;
            }
            let int =
                |what: &str| v.parse::<i64>().map_err(|_| format!("{what} must be a whole number, not '{v:.40}'"));
            match k.as_str() {
                "variant" => f.variant = Some(v.parse::<Variant>().map_err(|e| e.to_string())?.id().to_string()),
                "opponent" => {
                    if v.chars().count() > 40 {
                        return Err("opponent: a username has 40 characters at most".into());
                    }
                    f.opponent = Some(v.to_lowercase());
                }
                "result" => match v {
                    "win" | "draw" | "loss" => f.result = Some(v.to_string()),
                    _ => return Err(format!("result must be win, draw or loss, not '{v:.40}'")),
                },
                "rated" => match v {
                    "true" => f.rated = Some(true),
                    "false" => f.rated = Some(false),
                    _ => return Err(format!("rated must be true or false, not '{v:.40}'")),
                },
                "since" => f.since = Some(int("since")?),
                "until" => f.until = Some(int("until")?),
                "page" => {
                    f.page = int("page")?;
                    if !(0..=10_000).contains(&f.page) {
                        return Err("page must be from 0 to 10000".into());
                    }
                }
                other => {
                    return Err(format!(
                        "unknown search field '{other:.40}' (variant, opponent, result, rated, since, until, page)"
                    ))
                }
            }
        }
        Ok(f)
    }
}

/// A page of `account`'s games matching `f`, newest first, and whether more
/// follow. Every value is a bound parameter.
pub async fn archive(db: &Db, account: &str, f: &Filter) -> Result<(Vec<serde_json::Value>, bool), sqlx::Error> {
    enum Arg {
        S(String),
        I(i64),
    }
    let mut sql = String::from(
        "SELECT g.id, g.variant, g.result, g.rated, g.created_at, wa.username, ba.username, wa.kind, ba.kind FROM games g \
         LEFT JOIN accounts wa ON wa.id = g.white_account AND wa.deleted_at IS NULL \
         LEFT JOIN accounts ba ON ba.id = g.black_account AND ba.deleted_at IS NULL \
         WHERE (g.white_account = $1 OR g.black_account = $1)",
    );
    let mut args = vec![Arg::S(account.to_string())];
    // A condition with its value, whose `?` becomes the value's `$n`.
    fn add(sql: &mut String, args: &mut Vec<Arg>, cond: &str, a: Arg) {
        args.push(a);
        sql.push_str(&cond.replace('?', &format!("${}", args.len())));
    }
    if let Some(v) = &f.variant {
        add(&mut sql, &mut args, " AND g.variant = ?", Arg::S(v.clone()));
    }
    if let Some(o) = &f.opponent {
        add(
            &mut sql,
            &mut args,
            " AND (CASE WHEN g.white_account = $1 THEN ba.username_key ELSE wa.username_key END) = ?",
            Arg::S(o.clone()),
        );
    }
    match f.result.as_deref() {
        Some("win") => sql.push_str(
            " AND ((g.white_account = $1 AND g.result = '1-0') OR (g.black_account = $1 AND g.result = '0-1'))",
        ),
        Some("loss") => sql.push_str(
            " AND ((g.white_account = $1 AND g.result = '0-1') OR (g.black_account = $1 AND g.result = '1-0'))",
        ),
        Some(_) => sql.push_str(" AND g.result = '1/2-1/2'"),
        None => {}
    }
    if let Some(r) = f.rated {
        add(&mut sql, &mut args, " AND g.rated = ?", Arg::I(i64::from(r)));
    }
    if let Some(t) = f.since {
        add(&mut sql, &mut args, " AND g.created_at >= ?", Arg::I(t));
    }
    if let Some(t) = f.until {
        add(&mut sql, &mut args, " AND g.created_at < ?", Arg::I(t));
    }
    sql.push_str(&format!(
        " ORDER BY g.created_at DESC, g.id LIMIT {} OFFSET {}",
        ARCHIVE_PAGE + 1,
        f.page * ARCHIVE_PAGE
    ));
    let mut query = sqlx::query(&sql);
    for a in args {
        query = match a {
            Arg::S(s) => query.bind(s),
            Arg::I(i) => query.bind(i),
        };
    }
    let rows = query.fetch_all(db).await?;
    let more = rows.len() as i64 > ARCHIVE_PAGE;
    let games = rows
        .into_iter()
        .take(ARCHIVE_PAGE as usize)
        .map(|g| {
            let v: String = g.get(1);
            let name = v.parse::<Variant>().map(|x| x.name()).unwrap_or("");
            json!({
                "id": g.get::<String, _>(0), "variant": v, "variant_name": name, "result": g.get::<String, _>(2),
                "rated": g.get::<i64, _>(3) == 1, "created_at": g.get::<i64, _>(4),
                "white": g.get::<Option<String>, _>(5), "black": g.get::<Option<String>, _>(6),
                "white_title": (g.get::<Option<String>, _>(7).as_deref() == Some("bot")).then_some("BOT"),
                "black_title": (g.get::<Option<String>, _>(8).as_deref() == Some("bot")).then_some("BOT"),
            })
        })
        .collect();
    Ok((games, more))
}
