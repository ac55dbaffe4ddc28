//! Puzzles (`/puzzles`, `/puzzles/{set}`): the pages, the shipped puzzle
//! sets of `chimera-puzzles` as JSON, the judge of a round (the rules say
//! whether the move is legal; the puzzle says whether it is the one winning
//! move), the engine's refutation of a wrong move (in the engine pool), and
//! a logged-in player's puzzle rating per set (`docs/puzzles-web.md`).
//!
//! **Ratings.** A round is one Glicko-2 game between the player and the
//! puzzle (`chimera-rating`, lichess's constants, as `ratings`): the player
//! wins when the first move is the solution. Both ratings change, each
//! against the other's rating before the round. Only an account's first
//! round of a puzzle is rated (a replay is not, as on lichess): `rate`
//! begins its transaction with the conditional insert of the round's row
//! (`ON CONFLICT DO NOTHING`), so of any number of concurrent rounds (two
//! tabs, two instances) one is applied and the others change nothing.
//! A visitor (no session) solves the same puzzles; nothing is stored.

use crate::accounts::Account;
use crate::net::error as err;
use crate::pool::{Admission, StopOnDrop};
use crate::ratings::SETTINGS;
use crate::web::{bad, not_found_page, page};
use crate::App;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chimera_puzzles::{shipped_set, Puzzle, Set};
use chimera_rating::{rating_diff, update_pair, Outcome, Rating};
use chimera_rules::{san, AnyPosition, Color, Move, Position};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/puzzles", get(|| async { page("puzzles.html") }))
        .route("/puzzles/{set}", get(set_page))
        .route("/puzzles/{set}/daily", get(set_page))
        .route("/api/puzzles", get(index))
        .route("/api/puzzles/{set}/next", get(next))
        .route("/api/puzzles/{set}/daily", get(daily))
        .route("/api/puzzles/{set}/{id}", get(one))
        .route("/api/puzzles/{set}/{id}/round", post(round))
}

/// The engine's budget for a refutation: nodes of a fresh engine, so the
/// same wrong move gets the same answer on every instance.
pub const REFUTATION_NODES: u64 = 20_000;

/// A puzzle's deviation when its rating row is made: lichess starts its
/// puzzles as uncertain as a new player (500), so their first solvers
/// move them fast towards their real difficulty; the starting rating is
/// the miner's estimate.
pub const PUZZLE_DEVIATION: f64 = 500.0;

/// A puzzle's volatility when its rating row is made (Glicko-2's default,
/// lichess's).
pub const PUZZLE_VOLATILITY: f64 = 0.09;

/// How many of the unplayed puzzles closest to the player's rating "next"
/// chooses among, at random.
pub const NEXT_AMONG: usize = 20;

/// The rating a player without a puzzle rating in a set is matched at.
const START: f64 = 1500.0;

/// Today, as days since 1970-01-01 (UTC): the daily puzzle's day.
fn today() -> u64 {
    (crate::live::now_ms().max(0) / 86_400_000) as u64
}

async fn set_page(Path(set): Path<String>) -> Response {
    match shipped_set(&set) {
        Some(_) => page("puzzle.html"),
        None => not_found_page(),
    }
}

fn no_store(mut r: Response) -> Response {
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

fn internal(e: impl ToString) -> Response {
    err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

fn no_set(set: &str) -> Response {
    err(StatusCode::NOT_FOUND, format!("no puzzle set '{}'", short(set)))
}

/// A name from the request, cut short for an error message.
fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

/// The account of the request's session, if any. A request with an API
/// token is refused: these are a page's endpoints (as `accounts::need`).
async fn viewer(app: &App, headers: &HeaderMap) -> Result<Option<Account>, Response> {
    if crate::tokens::bearer(headers).is_some() {
        return Err(err(StatusCode::FORBIDDEN, "this takes a logged-in page's session, not an API token"));
    }
    crate::accounts::current(app, headers).await.map_err(internal)
}

/// A stored Glicko-2 rating with its counts.
#[derive(Clone, Debug)]
struct Stored {
    rating: Rating,
    plays: i64,
    wins: i64,
    rated_at: i64,
}

fn shown(r: &Rating) -> Value {
    json!({"rating": r.rounded(), "deviation": r.deviation.round() as i64, "provisional": r.is_provisional()})
}

/// A player's rating in `set` as it stands `now` (its deviation grown by
/// the time since the last rated round, as game ratings grow).
fn player_now(s: &Stored, now: i64) -> Rating {
    let idle = Duration::from_millis((now - s.rated_at).max(0) as u64);
    s.rating.after_inactivity(idle, &SETTINGS).unwrap_or(s.rating)
}

async fn player_rating<'e, E>(db: E, account: &str, set: &str) -> Result<Option<Stored>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, plays, wins, rated_at FROM puzzle_players \
         WHERE account_id = $1 AND puzzle_set = $2",
    )
    .bind(account)
    .bind(set)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| Stored {
        rating: Rating::new(r.get(0), r.get(1), r.get(2)),
        plays: r.get(3),
        wins: r.get(4),
        rated_at: r.get(5),
    }))
}

/// A puzzle's starting rating (before its first rated round).
fn puzzle_start(p: &Puzzle) -> Rating {
    Rating::new(p.rating as f64, PUZZLE_DEVIATION, PUZZLE_VOLATILITY)
}

async fn puzzle_rating<'e, E>(db: E, p: &Puzzle) -> Result<Stored, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, plays, wins FROM puzzle_ratings WHERE puzzle_set = $1 AND puzzle_id = $2",
    )
    .bind(&p.set)
    .bind(&p.id)
    .fetch_optional(db)
    .await?;
    Ok(match row {
        Some(r) => {
            Stored { rating: Rating::new(r.get(0), r.get(1), r.get(2)), plays: r.get(3), wins: r.get(4), rated_at: 0 }
        }
        None => Stored { rating: puzzle_start(p), plays: 0, wins: 0, rated_at: 0 },
    })
}

/// Every rated puzzle of `set`: id → rating.
async fn set_ratings(app: &App, set: &str) -> Result<HashMap<String, f64>, sqlx::Error> {
    let rows = sqlx::query("SELECT puzzle_id, rating FROM puzzle_ratings WHERE puzzle_set = $1")
        .bind(set)
        .fetch_all(&app.db)
        .await?;
    Ok(rows.iter().map(|r| (r.get::<String, _>(0), r.get::<f64, _>(1))).collect())
}

/// The puzzles of `set` that `account` has played.
async fn played(app: &App, account: &str, set: &str) -> Result<HashSet<String>, sqlx::Error> {
    let rows = sqlx::query("SELECT puzzle_id FROM puzzle_rounds WHERE account_id = $1 AND puzzle_set = $2")
        .bind(account)
        .bind(set)
        .fetch_all(&app.db)
        .await?;
    Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
}

/// `GET /api/puzzles`: every set with its size, its themes' counts, today's
/// puzzle and, logged in, the player's rating in it.
async fn index(State(app): State<App>, headers: HeaderMap) -> Response {
    let account = match viewer(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let now = crate::live::now_ms();
    let mut sets = Vec::new();
    for set in chimera_puzzles::shipped() {
        let mut themes: BTreeMap<&str, usize> = BTreeMap::new();
        for p in &set.puzzles {
            for t in &p.themes {
                *themes.entry(t.as_str()).or_default() += 1;
            }
        }
        let mut v = json!({
            "name": set.spec.name,
            "variant": set.spec.variant.id(),
            "variant_name": set.spec.variant.name(),
            "options": set.spec.options,
            "count": set.puzzles.len(),
            "themes": themes,
            "daily": set.daily(today()).map(|p| p.id.clone()),
        });
        if let Some(a) = &account {
            let mine = match player_rating(&app.db, &a.id, set.spec.name).await {
                Ok(r) => r,
                Err(e) => return internal(e),
            };
            v["you"] = match mine {
                Some(s) => {
                    let mut y = shown(&player_now(&s, now));
                    y["plays"] = json!(s.plays);
                    y["wins"] = json!(s.wins);
                    y
                }
                None => Value::Null,
            };
        }
        sets.push(v);
    }
    no_store(Json(json!({"sets": sets, "logged_in": account.is_some()})).into_response())
}

/// The puzzle as the page shows it: not its solution.
async fn view(app: &App, p: &Puzzle, account: Option<&Account>) -> Result<Value, sqlx::Error> {
    let pos = p.position();
    let r = puzzle_rating(&app.db, p).await?;
    let mut v = json!({
        "id": p.id,
        "set": p.set,
        "fen": p.fen,
        "variant": p.spec().variant.id(),
        "variant_name": p.spec().variant.name(),
        "options": p.spec().options,
        "side": if pos.turn() == Color::White { "w" } else { "b" },
        "themes": p.themes,
        "rating": r.rating.rounded(),
        "plays": r.plays,
        "position": crate::live::position_view(&pos, true),
    });
    if let Some(a) = account {
        let done =
            sqlx::query("SELECT win FROM puzzle_rounds WHERE account_id = $1 AND puzzle_set = $2 AND puzzle_id = $3")
                .bind(&a.id)
                .bind(&p.set)
                .bind(&p.id)
                .fetch_optional(&app.db)
                .await?;
        v["played"] = json!(done.is_some());
        let now = crate::live::now_ms();
        v["you"] = match player_rating(&app.db, &a.id, &p.set).await? {
            Some(s) => shown(&player_now(&s, now)),
            None => shown(&SETTINGS.new_player),
        };
    }
    Ok(v)
}

async fn answer_puzzle(app: &App, headers: &HeaderMap, p: &Puzzle) -> Response {
    let account = match viewer(app, headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    match view(app, p, account.as_ref()).await {
        Ok(v) => no_store(Json(v).into_response()),
        Err(e) => internal(e),
    }
}

/// `GET /api/puzzles/{set}/{id}`: one puzzle (position, side, themes,
/// current rating, plays; not the solution).
async fn one(State(app): State<App>, headers: HeaderMap, Path((set, id)): Path<(String, String)>) -> Response {
    let Some(s) = shipped_set(&set) else { return no_set(&set) };
    let Some(p) = s.get(&id) else {
        return err(StatusCode::NOT_FOUND, format!("no puzzle '{}' in set {set}", short(&id)));
    };
    answer_puzzle(&app, &headers, p).await
}

/// `GET /api/puzzles/{set}/daily`: today's puzzle of the set (the same on
/// every instance for the UTC day).
async fn daily(State(app): State<App>, headers: HeaderMap, Path(set): Path<String>) -> Response {
    let Some(s) = shipped_set(&set) else { return no_set(&set) };
    let Some(p) = s.daily(today()) else {
        return err(StatusCode::NOT_FOUND, format!("the set {set} has no puzzles yet"));
    };
    answer_puzzle(&app, &headers, p).await
}

/// The puzzle "next" gives: among the [`NEXT_AMONG`] unplayed puzzles whose
/// current ratings are closest to `target`, one at random (`pick` is the
/// random number); when every puzzle was played, among all of them.
fn choose<'a>(
    set: &'a Set,
    target: f64,
    ratings: &HashMap<String, f64>,
    done: &HashSet<String>,
    pick: usize,
) -> Option<&'a Puzzle> {
    let rating = |p: &Puzzle| ratings.get(&p.id).copied().unwrap_or(p.rating as f64);
    let mut pool: Vec<&Puzzle> = set.puzzles.iter().filter(|p| !done.contains(&p.id)).collect();
    if pool.is_empty() {
        pool = set.puzzles.iter().collect();
    }
    pool.sort_by(|a, b| (rating(a) - target).abs().total_cmp(&(rating(b) - target).abs()).then(a.id.cmp(&b.id)));
    pool.truncate(NEXT_AMONG);
    if pool.is_empty() {
        return None;
    }
    Some(pool[pick % pool.len()])
}

/// `GET /api/puzzles/{set}/next`: a puzzle for the player: unplayed, near
/// the player's rating in the set (a visitor's: 1500).
async fn next(State(app): State<App>, headers: HeaderMap, Path(set): Path<String>) -> Response {
    let Some(s) = shipped_set(&set) else { return no_set(&set) };
    if s.puzzles.is_empty() {
        return err(StatusCode::NOT_FOUND, format!("the set {set} has no puzzles yet"));
    }
    let account = match viewer(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let (target, done) = match &account {
        Some(a) => {
            let r = match player_rating(&app.db, &a.id, &set).await {
                Ok(r) => r,
                Err(e) => return internal(e),
            };
            let d = match played(&app, &a.id, &set).await {
                Ok(d) => d,
                Err(e) => return internal(e),
            };
            (r.map_or(START, |r| r.rating.rating), d)
        }
        None => (START, HashSet::new()),
    };
    let ratings = match set_ratings(&app, &set).await {
        Ok(r) => r,
        Err(e) => return internal(e),
    };
    let pick = usize::from_str_radix(&crate::random_hex(4), 16).unwrap_or(0);
    let Some(p) = choose(s, target, &ratings, &done, pick) else {
        return err(StatusCode::NOT_FOUND, format!("the set {set} has no puzzles yet"));
    };
    match view(&app, p, account.as_ref()).await {
        Ok(v) => no_store(Json(v).into_response()),
        Err(e) => internal(e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoundReq {
    /// The player's move (UCI, or SAN as typed).
    #[serde(rename = "move", default)]
    mv: Option<String>,
    /// The player asks for the solution without a move: a lost round.
    #[serde(default)]
    give_up: bool,
}

/// A line of moves from `pos` as UCI, SAN and the board after each move
/// (as `/api/position` gives it, without the legal moves), up to its first
/// move that is not legal where it stands.
fn line_of(pos: &AnyPosition, moves: &[Move]) -> (Vec<String>, Vec<String>, Vec<Value>) {
    let mut p = pos.clone();
    let (mut uci, mut sans, mut boards) = (Vec::new(), Vec::new(), Vec::new());
    for &m in moves {
        if !p.is_legal(m) {
            break;
        }
        uci.push(m.to_string());
        sans.push(san::to_san(&p, m));
        p.play_unchecked(m);
        boards.push(crate::live::position_view(&p, false));
    }
    (uci, sans, boards)
}

/// Reads a move typed as UCI or SAN; the rules' reason when it is neither.
fn read_move(pos: &AnyPosition, text: &str) -> Result<Move, String> {
    match pos.parse_uci(text) {
        Ok(m) => Ok(m),
        Err(e) => san::parse_san(pos, text).map_err(|_| e.reason.clone()),
    }
}

/// `POST /api/puzzles/{set}/{id}/round` with `{"move": "e6e6g"}` (or
/// `{"give_up": true}`): the verdict, the solution, the refutation of a
/// wrong move, and, for a logged-in player's first round of the puzzle,
/// both rating changes.
async fn round(
    State(app): State<App>,
    headers: HeaderMap,
    Path((set, id)): Path<(String, String)>,
    body: Bytes,
) -> Response {
    let Some(s) = shipped_set(&set) else { return no_set(&set) };
    let Some(p) = s.get(&id) else {
        return err(StatusCode::NOT_FOUND, format!("no puzzle '{}' in set {set}", short(&id)));
    };
    let req: RoundReq = match crate::web::parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    let account = match viewer(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let pos = p.position();
    let solution = pos.parse_uci(p.solution()).expect("a shipped puzzle's solution is legal");
    let played = match (&req.mv, req.give_up) {
        (Some(m), false) => {
            if m.len() > 16 {
                return bad("a move is at most 16 characters");
            }
            match read_move(&pos, m) {
                Ok(m) => Some(m),
                Err(why) => return bad(why),
            }
        }
        (None, true) => None,
        _ => return bad("send either {\"move\": \"<uci>\"} or {\"give_up\": true}"),
    };
    let win = played == Some(solution);
    // The solution line, as the puzzle has it (its moves are checked legal
    // when the set is read).
    let mut after = pos.clone();
    let mut sol = Vec::new();
    for u in &p.moves {
        match after.parse_uci(u) {
            Ok(m) => {
                sol.push(m);
                after.play_unchecked(m);
            }
            Err(_) => break,
        }
    }
    let (solution_uci, solution_san, solution_boards) = line_of(&pos, &sol);
    // The engine's answer to a wrong move, in the engine pool.
    let (mut refutation, mut refutation_san, mut refutation_boards) = (Vec::new(), Vec::new(), Vec::new());
    if let Some(m) = played.filter(|_| !win) {
        let guard = StopOnDrop::new();
        let p2 = pos.clone();
        let line = match app
            .engine
            .run(Admission::Bounded, guard.flag(), move |_| {
                chimera_puzzles::mine::refutation(&p2, m, REFUTATION_NODES).0
            })
            .await
        {
            Ok(l) => l,
            Err(e) => return crate::web::pool_error(e),
        };
        let mut full = vec![m];
        full.extend(line);
        // The boards start with the one after the wrong move; the moves
        // and SAN are the engine's answer line only.
        (refutation, refutation_san, refutation_boards) = line_of(&pos, &full);
        refutation.remove(0);
        refutation_san.remove(0);
    }
    let mut out = json!({
        "win": win,
        "move": played.map(|m| m.to_string()),
        "move_san": played.map(|m| san::to_san(&pos, m)),
        "solution": solution_uci,
        "solution_san": solution_san,
        "solution_boards": solution_boards,
        "refutation": refutation,
        "refutation_san": refutation_san,
        "refutation_boards": refutation_boards,
        "rated": false,
    });
    let rated = match &account {
        Some(a) => match rate(&app, &a.id, p, win).await {
            Ok(r) => r,
            Err(e) => return internal(e),
        },
        None => None,
    };
    match rated {
        Some(r) => {
            out["rated"] = json!(true);
            out["you"] = json!({
                "before": shown(&r.player_before),
                "after": shown(&r.player_after),
                "diff": rating_diff(&r.player_before, &r.player_after).0,
            });
            out["puzzle"] = json!({"rating": r.puzzle_after.rounded(), "plays": r.puzzle_plays});
        }
        None => {
            let cur = match puzzle_rating(&app.db, p).await {
                Ok(c) => c,
                Err(e) => return internal(e),
            };
            out["puzzle"] = json!({"rating": cur.rating.rounded(), "plays": cur.plays});
            if let Some(a) = &account {
                if let Ok(Some(s)) = player_rating(&app.db, &a.id, &p.set).await {
                    let now = player_now(&s, crate::live::now_ms());
                    out["you"] = json!({"before": shown(&now), "after": shown(&now), "diff": 0});
                }
            }
        }
    }
    no_store(Json(out).into_response())
}

/// What a rated round changed.
struct Rated {
    player_before: Rating,
    player_after: Rating,
    puzzle_after: Rating,
    puzzle_plays: i64,
}

/// Applies `account`'s round of `p` once: `None` when the account has
/// played it before (a replay, or a concurrent round that came first).
async fn rate(app: &App, account: &str, p: &Puzzle, win: bool) -> Result<Option<Rated>, sqlx::Error> {
    let now = crate::live::now_ms();
    let _writer = crate::store::writer(&app.db).await;
    let mut tx = app.db.begin().await?;
    // The claim: one row per account and puzzle. Of concurrent rounds the
    // store lets one insert it; the others find it and change nothing.
    let claimed = sqlx::query(
        "INSERT INTO puzzle_rounds (account_id, puzzle_set, puzzle_id, win, played_at, rating_diff) \
         VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT (account_id, puzzle_set, puzzle_id) DO NOTHING",
    )
    .bind(account)
    .bind(&p.set)
    .bind(&p.id)
    .bind(i64::from(win))
    .bind(now)
    .execute(&mut *tx)
    .await?;
    if claimed.rows_affected() != 1 {
        tx.rollback().await?;
        return Ok(None);
    }
    // The puzzle's row, made from its starting rating on its first round,
    // then locked (PostgreSQL: the row, until the commit; SQLite: the one
    // writer) by a no-op update, so that two players' rounds of one puzzle
    // read it one after the other. Puzzle first, then player: one order.
    let start = puzzle_start(p);
    sqlx::query(
        "INSERT INTO puzzle_ratings (puzzle_set, puzzle_id, rating, deviation, volatility, plays, wins) \
         VALUES ($1, $2, $3, $4, $5, 0, 0) ON CONFLICT (puzzle_set, puzzle_id) DO NOTHING",
    )
    .bind(&p.set)
    .bind(&p.id)
    .bind(start.rating)
    .bind(start.deviation)
    .bind(start.volatility)
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE puzzle_ratings SET plays = plays WHERE puzzle_set = $1 AND puzzle_id = $2")
        .bind(&p.set)
        .bind(&p.id)
        .execute(&mut *tx)
        .await?;
    let puzzle = puzzle_rating(&mut *tx, p).await?;
    sqlx::query("UPDATE puzzle_players SET plays = plays WHERE account_id = $1 AND puzzle_set = $2")
        .bind(account)
        .bind(&p.set)
        .execute(&mut *tx)
        .await?;
    let player = player_rating(&mut *tx, account, &p.set).await?;
    let before = player.as_ref().map_or(SETTINGS.new_player, |s| player_now(s, now));
    let outcome = if win { Outcome::WhiteWins } else { Outcome::BlackWins };
    let (after, puzzle_after) = update_pair(&before, &puzzle.rating, outcome, &SETTINGS)
        .map_err(|e| sqlx::Error::Protocol(format!("rating: {e}")))?;
    let (plays, wins) = player.as_ref().map_or((0, 0), |s| (s.plays, s.wins));
    sqlx::query(
        "INSERT INTO puzzle_players (account_id, puzzle_set, rating, deviation, volatility, plays, wins, rated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (account_id, puzzle_set) DO UPDATE SET rating = $3, deviation = $4, volatility = $5, \
         plays = $6, wins = $7, rated_at = $8",
    )
    .bind(account)
    .bind(&p.set)
    .bind(after.rating)
    .bind(after.deviation)
    .bind(after.volatility)
    .bind(plays + 1)
    .bind(wins + i64::from(win))
    .bind(now)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE puzzle_ratings SET rating = $3, deviation = $4, volatility = $5, plays = $6, wins = $7 \
         WHERE puzzle_set = $1 AND puzzle_id = $2",
    )
    .bind(&p.set)
    .bind(&p.id)
    .bind(puzzle_after.rating)
    .bind(puzzle_after.deviation)
    .bind(puzzle_after.volatility)
    .bind(puzzle.plays + 1)
    .bind(puzzle.wins + i64::from(win))
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE puzzle_rounds SET rating_diff = $4 WHERE account_id = $1 AND puzzle_set = $2 AND puzzle_id = $3",
    )
    .bind(account)
    .bind(&p.set)
    .bind(&p.id)
    .bind(rating_diff(&before, &after).0)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some(Rated { player_before: before, player_after: after, puzzle_after, puzzle_plays: puzzle.plays + 1 }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_chooses_among_the_closest_unplayed() {
        let Some(set) = chimera_puzzles::shipped().iter().find(|s| s.puzzles.len() > NEXT_AMONG) else { return };
        let none = HashMap::new();
        let mut by: Vec<&Puzzle> = set.puzzles.iter().collect();
        by.sort_by_key(|p| (p.rating as i64 - 1500).abs());
        let near: HashSet<&str> = by.iter().take(NEXT_AMONG).map(|p| p.id.as_str()).collect();
        let far = (by[NEXT_AMONG - 1].rating as i64 - 1500).abs();
        for pick in 0..50 {
            let p = choose(set, 1500.0, &none, &HashSet::new(), pick).unwrap();
            assert!((p.rating as i64 - 1500).abs() <= far, "{} at {}", p.id, p.rating);
            let _ = near.contains(p.id.as_str());
        }
        // Played puzzles are never chosen while others remain.
        let done: HashSet<String> = set.puzzles.iter().skip(1).map(|p| p.id.clone()).collect();
        assert_eq!(choose(set, 1500.0, &none, &done, 7).unwrap().id, set.puzzles[0].id);
        // All played: one of them all the same.
        let all: HashSet<String> = set.puzzles.iter().map(|p| p.id.clone()).collect();
        assert!(choose(set, 1500.0, &none, &all, 3).is_some());
    }

    /// The page names every theme the miner can give (crates/puzzles'
    /// THEMES), so no theme shows as its bare id.
    #[test]
    fn the_page_names_every_theme() {
        let words = include_str!("../assets/puzzle-words.js");
        for (id, _) in chimera_puzzles::THEMES {
            let key = id.to_lowercase();
            assert!(
                words.contains(&format!("  {id}: [t('puzzle-theme-{key}'), t('puzzle-theme-{key}-help')],")),
                "{id}"
            );
        }
    }
}
