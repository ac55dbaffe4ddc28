//! The opening explorer (docs/server.md, "Opening explorer"): from any
//! position of a variant, the moves played from it in stored games, with
//! how those games ended, separately for people's rated games (`people`)
//! and for the engines' games (`engines`: games against the engine or a
//! BOT, and the balance lab's self-play).
//!
//! Each instance reads finished games it has not read yet, a batch at a
//! time ([`spawn`]): the first [`PLIES`] moves of each, one row per
//! (variant, source, position, move) with the games' results counted. A
//! game's counts are added in the transaction that records it as read, so
//! a game counts once, whichever instance reads it. A position is its
//! Zobrist key (the one the engine and the repetition rule use), so the
//! same position reached by other moves is one row.

use crate::net::error as err;
use crate::store::Db;
use crate::{live, App};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chimera_rules::{san, AnyPosition, Position, RuleOptions, Variant};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;
use std::collections::HashMap;

/// Moves of a game the explorer reads: the opening and the early middle
/// game.
pub const PLIES: usize = 40;

/// Games read in one transaction.
const BATCH: i64 = 200;

/// Moves listed per source.
const LISTED: usize = 12;

/// The sources, as the API names them.
pub const SOURCES: [&str; 2] = ["people", "engines"];

pub fn routes() -> Router<App> {
    Router::new().route("/api/explorer", get(explore))
}

/// The explorer's name for a variant and its rule options.
pub fn variant_key(variant: Variant, opts: &RuleOptions) -> String {
    let o = opts.to_string();
    if o.is_empty() {
        variant.to_string()
    } else {
        format!("{variant} {o}")
    }
}

/// One game to read: its explorer id, source, variant key, start, moves
/// and result.
pub struct ToRead {
    pub id: String,
    pub source: &'static str,
    pub variant: Variant,
    pub opts: RuleOptions,
    pub fen: Option<String>,
    pub moves: Vec<String>,
    pub result: String,
}

/// The (position, move) pairs of a game's first [`PLIES`] moves; `None`
/// for a game whose moves do not replay (it is recorded as read and left
/// out).
fn pairs(g: &ToRead) -> Option<Vec<(i64, String)>> {
    let mut pos = match &g.fen {
        Some(f) => AnyPosition::from_fen(g.variant, f, &g.opts).ok()?,
        None => AnyPosition::new(g.variant, &g.opts),
    };
    let mut out = Vec::with_capacity(g.moves.len().min(PLIES));
    for u in g.moves.iter().take(PLIES) {
        let m = pos.parse_uci(u).ok()?;
        out.push((pos.hash() as i64, m.to_string()));
        pos = pos.after(m);
    }
    Some(out)
}

/// Records `games` as read and adds their counts, in one transaction; a
/// game already read (by another instance) adds nothing.
pub async fn add(db: &Db, games: &[ToRead]) -> Result<(), sqlx::Error> {
    let _writer = crate::store::writer(db).await;
    let mut tx = db.begin().await?;
    for g in games {
        let counted = g.source != "none" && ["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str());
        let pairs = if counted { pairs(g) } else { None };
        let source = if pairs.is_some() { g.source } else { "none" };
        let fresh = sqlx::query(
            "INSERT INTO explorer_games (game_id, source, added_at) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(&g.id)
        .bind(source)
        .bind(live::now_ms())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let Some(pairs) = pairs.filter(|_| fresh == 1) else { continue };
        let (w, d, b): (i64, i64, i64) = match g.result.as_str() {
            "1-0" => (1, 0, 0),
            "0-1" => (0, 0, 1),
            _ => (0, 1, 0),
        };
        let key = variant_key(g.variant, &g.opts);
        for (position, uci) in pairs {
            sqlx::query(
                "INSERT INTO explorer_moves (variant, source, position, uci, white, draws, black) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (variant, position, source, uci) DO UPDATE \
                 SET white = explorer_moves.white + $5, draws = explorer_moves.draws + $6, \
                 black = explorer_moves.black + $7",
            )
            .bind(&key)
            .bind(source)
            .bind(position)
            .bind(&uci)
            .bind(w)
            .bind(d)
            .bind(b)
            .execute(&mut *tx)
            .await?;
        }
    }
    tx.commit().await
}

/// The next finished web games the explorer has not read, with their
/// sources: people's rated games between two people, games against the
/// engine or a BOT; every other game is read as `none`.
async fn unread_games(db: &Db) -> Result<Vec<ToRead>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT g.id, g.variant, g.rule_options, g.start_fen, g.result, g.mode, g.rated, \
         (SELECT COUNT(*) FROM accounts a WHERE a.kind = 'bot' AND (a.id = g.white_account OR a.id = g.black_account)) \
         FROM games g LEFT JOIN explorer_games e ON e.game_id = g.id \
         WHERE g.status = 'finished' AND e.game_id IS NULL ORDER BY g.updated_at, g.id LIMIT $1",
    )
    .bind(BATCH)
    .fetch_all(db)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let id: String = r.get(0);
        let moves: Vec<String> =
            sqlx::query_scalar("SELECT uci FROM moves WHERE game_id = $1 AND ply < $2 ORDER BY ply")
                .bind(&id)
                .bind(PLIES as i64)
                .fetch_all(db)
                .await?;
        let (mode, rated, bots): (String, i64, i64) = (r.get(5), r.get(6), r.get(7));
        let source = if mode == "engine" || bots > 0 {
            "engines"
        } else if rated == 1 {
            "people"
        } else {
            "none"
        };
        let variant = r.get::<String, _>(1).parse().ok();
        let opts = r.get::<String, _>(2).parse().ok();
        let (variant, opts, source) = match (variant, opts) {
            (Some(v), Some(o)) => (v, o, source),
            _ => (Variant::Chess, RuleOptions::default(), "none"),
        };
        let fen: String = r.get(3);
        let fen = (fen != AnyPosition::new(variant, &opts).fen()).then_some(fen);
        out.push(ToRead { id, source, variant, opts, fen, moves, result: r.get(4) });
    }
    Ok(out)
}

/// The next lab games the explorer has not read (all `engines`).
async fn unread_lab_games(db: &Db) -> Result<Vec<ToRead>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT l.study_id, l.k, s.variant, s.rule_options, l.result, l.moves FROM lab_games l \
         JOIN lab_studies s ON s.id = l.study_id \
         LEFT JOIN explorer_games e ON e.game_id = 'lab:' || l.study_id || ':' || CAST(l.k AS TEXT) \
         WHERE e.game_id IS NULL ORDER BY l.created_at, l.study_id, l.k LIMIT $1",
    )
    .bind(BATCH)
    .fetch_all(db)
    .await?;
    Ok(rows
        .iter()
        .map(|r| {
            let (study, k): (String, i64) = (r.get(0), r.get(1));
            let variant = r.get::<String, _>(2).parse().ok();
            let opts = r.get::<String, _>(3).parse().ok();
            let moves: String = r.get(5);
            let (variant, opts, source) = match (variant, opts) {
                (Some(v), Some(o)) => (v, o, "engines"),
                _ => (Variant::Chess, RuleOptions::default(), "none"),
            };
            ToRead {
                id: format!("lab:{study}:{k}"),
                source,
                variant,
                opts,
                fen: None,
                moves: moves.split_whitespace().take(PLIES).map(str::to_string).collect(),
                result: r.get(4),
            }
        })
        .collect())
}

/// Reads every unread game there is now, a batch at a time: how many.
pub async fn catch_up(db: &Db) -> Result<usize, sqlx::Error> {
    let mut n = 0;
    loop {
        let mut batch = unread_games(db).await?;
        if batch.len() < BATCH as usize {
            batch.extend(unread_lab_games(db).await?);
        }
        if batch.is_empty() {
            return Ok(n);
        }
        n += batch.len();
        add(db, &batch).await?;
    }
}

/// The reader: catches up every `Config::explorer_every` until the server
/// stops.
pub fn spawn(app: &App, mut shutdown: tokio::sync::watch::Receiver<bool>) {
    let app = app.clone();
    tokio::spawn(async move {
        loop {
            if let Err(e) = catch_up(&app.db).await {
                eprintln!("explorer: {e}");
            }
            tokio::select! {
                _ = tokio::time::sleep(app.config.explorer_every) => {}
                _ = shutdown.changed() => return,
            }
        }
    });
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExploreQuery {
    variant: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    fen: Option<String>,
    /// Moves from the position, UCI, joined by `,`.
    #[serde(default)]
    play: Option<String>,
}

/// `GET /api/explorer?variant=V[&rules=R][&fen=F][&play=m1,m2]`: the moves
/// played from the position in each source, most played first.
async fn explore(
    State(app): State<App>,
    q: Result<Query<ExploreQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Ok(Query(q)) = q else {
        return err(StatusCode::BAD_REQUEST, "the query is variant=ID and optionally rules=, fen= and play=m1,m2");
    };
    let variant: Variant = match q.variant.parse() {
        Ok(v) => v,
        Err(_) => return err(StatusCode::BAD_REQUEST, format!("no variant '{:.40}'", q.variant)),
    };
    let opts: RuleOptions = match q.rules.as_deref().unwrap_or("").parse() {
        Ok(o) => o,
        Err(e) => return err(StatusCode::BAD_REQUEST, format!("rules: {e:?}")),
    };
    let mut pos = match &q.fen {
        Some(f) => match AnyPosition::from_fen(variant, f, &opts) {
            Ok(p) => p,
            Err(e) => return err(StatusCode::BAD_REQUEST, format!("fen: {e}")),
        },
        None => AnyPosition::new(variant, &opts),
    };
    let play: Vec<&str> = q.play.as_deref().unwrap_or("").split(',').filter(|s| !s.is_empty()).collect();
    if play.len() > 600 {
        return err(StatusCode::BAD_REQUEST, "at most 600 moves in play=");
    }
    for u in play {
        match pos.parse_uci(u) {
            Ok(m) => pos = pos.after(m),
            Err(e) => return err(StatusCode::BAD_REQUEST, format!("play: '{u:.12}': {e}")),
        }
    }
    match lookup(&app.db, &variant_key(variant, &opts), &pos).await {
        Ok(v) => Json(v).into_response(),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// A move from a position: UCI, SAN, white wins, draws, black wins.
type Counted = (String, String, i64, i64, i64);

/// The explorer's answer for `pos`: per source, its games' totals and the
/// moves (UCI, SAN, white wins, draws, black wins), most played first.
pub async fn lookup(db: &Db, variant: &str, pos: &AnyPosition) -> Result<Value, sqlx::Error> {
    let rows =
        sqlx::query("SELECT source, uci, white, draws, black FROM explorer_moves WHERE variant = $1 AND position = $2")
            .bind(variant)
            .bind(pos.hash() as i64)
            .fetch_all(db)
            .await?;
    let mut by: HashMap<String, Vec<Counted>> = HashMap::new();
    for r in rows {
        let uci: String = r.get(1);
        // A key shared with another position (a 64-bit collision) may name
        // a move that is no move here: left out.
        let Ok(m) = pos.parse_uci(&uci) else { continue };
        by.entry(r.get(0)).or_default().push((uci, san::to_san(pos, m), r.get(2), r.get(3), r.get(4)));
    }
    let mut out = serde_json::Map::new();
    out.insert("fen".into(), json!(pos.fen()));
    for s in SOURCES {
        let mut moves = by.remove(s).unwrap_or_default();
        let (w, d, b) = moves.iter().fold((0, 0, 0), |t, m| (t.0 + m.2, t.1 + m.3, t.2 + m.4));
        moves.sort_by(|x, y| (y.2 + y.3 + y.4).cmp(&(x.2 + x.3 + x.4)).then_with(|| x.0.cmp(&y.0)));
        let listed: Vec<Value> = moves
            .iter()
            .take(LISTED)
            .map(|(u, sn, w, d, b)| json!({"uci": u, "san": sn, "white": w, "draws": d, "black": b}))
            .collect();
        out.insert(s.into(), json!({"white": w, "draws": d, "black": b, "moves": listed}));
    }
    Ok(Value::Object(out))
}
