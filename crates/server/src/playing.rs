//! An account's games in progress, its own turn first: the "your turn"
//! list of the lobby and of the player's own profile
//! (`GET /api/account/playing`, `docs/server.md`).

use crate::net::error as err;
use crate::App;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chimera_rules::Variant;
use serde::Serialize;
use sqlx::Row;
use std::str::FromStr;

/// The most games the list holds.
const MAX_GAMES: i64 = 200;

/// One game of the list.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Playing {
    pub id: String,
    pub variant: String,
    pub variant_name: String,
    /// The account's colour, "white" or "black" (the side to move's, when
    /// it holds both seats).
    pub color: &'static str,
    /// The opponent: an account's name, a chosen name, the engine, or null.
    pub opponent: Option<String>,
    pub opponent_rating: Option<String>,
    /// `BOT` for a BOT account.
    pub opponent_title: Option<&'static str>,
    pub is_my_turn: bool,
    /// When the side to move runs out of time (ms), if a clock runs.
    pub due_at: Option<i64>,
    /// The time left to it now, by the server's clock (ms).
    pub ms_left: Option<i64>,
    /// Days per move of a correspondence game.
    pub days: Option<i64>,
    pub rated: bool,
    pub plies: i64,
    pub updated_at: i64,
}

/// `account`'s games in progress: its turn first, the nearest deadline
/// first within each part, then the most recently moved.
pub async fn playing(db: &crate::store::Db, account: &str) -> Result<Vec<Playing>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT g.id, g.variant, g.start_fen, g.due_at, g.days_per_move, g.rated, g.updated_at, g.mode, g.engine_level, \
         g.white_account, g.black_account, g.white_name, g.black_name, g.white_rating, g.white_provisional, \
         g.black_rating, g.black_provisional, g.white_token, g.black_token, \
         (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies, {} \
         WHERE g.status = 'active' AND (g.white_account = $1 OR g.black_account = $1) \
         ORDER BY g.updated_at DESC LIMIT $2",
        crate::store::USERNAMES
    ))
    .bind(account)
    .bind(MAX_GAMES)
    .fetch_all(db)
    .await?;
    let now = crate::live::now_ms();
    let mut out: Vec<Playing> = rows
        .iter()
        .map(|r| {
            let variant: String = r.get("variant");
            let plies: i64 = r.get("plies");
            let start: String = r.get("start_fen");
            let white_starts = start.split_whitespace().nth(1) != Some("b");
            let white_to_move = white_starts == (plies % 2 == 0);
            let mine_w = r.get::<Option<String>, _>("white_account").as_deref() == Some(account);
            let mine_b = r.get::<Option<String>, _>("black_account").as_deref() == Some(account);
            let white = if mine_w && mine_b { white_to_move } else { mine_w };
            let them = if white { "black" } else { "white" };
            let engine = r.get::<String, _>("mode") == "engine";
            // The opponent's account (a house bot's too) with the rating it
            // took the seat at; else the engine's level or the name given.
            let seat = crate::store::seat_player(r, them);
            let opponent = seat.as_ref().map(|p| p.username.clone()).or_else(|| {
                if engine {
                    r.get::<Option<i64>, _>("engine_level").map(|l| format!("Computer level {l}"))
                } else {
                    r.get::<Option<String>, _>(format!("{them}_name").as_str())
                }
            });
            let opponent_rating = seat.as_ref().map(crate::live::Player::shown);
            let opponent_title = seat.as_ref().and_then(|p| p.bot.then_some("BOT"));
            // The game waits for an opponent (an open seek): nobody's turn.
            let seated = r.get::<Option<String>, _>(format!("{them}_token").as_str()).is_some() || engine;
            let is_my_turn = seated && white == white_to_move;
            // A deadline: a clock's (not the engine's turn, whose due time is
            // only when it should answer).
            let due_at = r.get::<Option<i64>, _>("due_at").filter(|_| !engine || is_my_turn);
            Playing {
                id: r.get("id"),
                variant_name: Variant::from_str(&variant).map(|v| v.name().to_string()).unwrap_or_default(),
                variant,
                color: if white { "white" } else { "black" },
                opponent,
                opponent_rating,
                opponent_title,
                is_my_turn,
                due_at,
                ms_left: due_at.map(|d| (d - now).max(0)),
                days: r.get("days_per_move"),
                rated: r.get::<i64, _>("rated") == 1,
                plies,
                updated_at: r.get("updated_at"),
            }
        })
        .collect();
    out.sort_by_key(|p| (!p.is_my_turn, p.due_at.unwrap_or(i64::MAX), -p.updated_at));
    Ok(out)
}

/// `GET /api/account/playing`: the logged-in account's games in progress.
pub(crate) async fn api_playing(State(app): State<App>, headers: HeaderMap) -> Response {
    let a = match crate::accounts::need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    match playing(&app.db, &a.id).await {
        Ok(list) => {
            let mut r = Json(list).into_response();
            r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            r
        }
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}
