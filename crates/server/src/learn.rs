//! Lessons (`/learn`, `/learn/{variant}`): the pages, the lessons as JSON,
//! the judge of each answer (`chimera-learn`, which asks the rules crate),
//! and a logged-in player's progress in the store (`learn_progress`).
//! `docs/learn.md` describes the lessons and the API.

use crate::accounts::{body_and_account, need};
use crate::net::error as err;
use crate::web::{bad, not_found_page, page};
use crate::App;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chimera_learn::{find_step, judge, lessons_of, replay, LessonView};
use chimera_rules::{Position, Variant};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;
use std::str::FromStr;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/learn", get(|| async { page("learn.html") }))
        .route("/learn/{variant}", get(lesson_page))
        .route("/api/learn", get(index))
        .route("/api/learn/{variant}", get(variant_lessons))
        .route("/api/learn/{variant}/{lesson}/{step}", post(answer))
        .route("/api/account/learn", get(get_progress).post(add_progress))
}

/// The most moves a lesson step takes (answers and replies): far more than
/// any step has, so that a request cannot make the judge replay a game.
const MAX_MOVES: usize = 40;

async fn lesson_page(Path(v): Path<String>) -> Response {
    match Variant::from_str(&v) {
        Ok(_) => page("lesson.html"),
        Err(_) => not_found_page(),
    }
}

/// `GET /api/learn`: every variant with its lessons' titles and step keys.
async fn index() -> Response {
    let variants: Vec<Value> = Variant::ALL
        .into_iter()
        .map(|v| {
            let lessons: Vec<Value> = lessons_of(v)
                .map(|l| {
                    let keys: Vec<String> = (1..=l.steps.len()).map(|n| l.step_key(n)).collect();
                    json!({"id": l.id, "title": l.title, "intro": l.intro, "steps": keys})
                })
                .collect();
            json!({"id": v.id(), "name": v.name(), "summary": v.summary(), "lessons": lessons})
        })
        .collect();
    Json(json!({ "variants": variants })).into_response()
}

/// `GET /api/learn/{variant}`: the variant's lessons with their steps
/// (task, FEN, side, hint; not the answers).
async fn variant_lessons(Path(v): Path<String>) -> Response {
    let Ok(variant) = Variant::from_str(&v) else {
        return err(StatusCode::NOT_FOUND, format!("no variant '{v}'"));
    };
    let lessons: Vec<LessonView> = lessons_of(variant).map(LessonView::of).collect();
    Json(json!({"variant": variant.id(), "name": variant.name(), "lessons": lessons})).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerReq {
    /// The moves played so far in the step (answers and replies).
    #[serde(default)]
    moves: Vec<String>,
    /// The answer to judge (UCI or SAN); none asks only for the position.
    #[serde(default)]
    answer: Option<String>,
}

/// `POST /api/learn/{variant}/{lesson}/{n}` with `{"moves": [...],
/// "answer": "e6e6g"}`: the judge's verdict (`ok`, `done`, `explanation`,
/// `reply`...) and `position`, the board after the accepted answer and
/// its reply (or, for a refused one, the board it was refused on) as
/// `/api/position` gives it. Without `answer`, only the position.
async fn answer(Path((v, l, n)): Path<(String, String, String)>, body: Bytes) -> Response {
    let Some((_, step)) = n.parse::<usize>().ok().and_then(|n| find_step(&v, &l, n)) else {
        return err(StatusCode::NOT_FOUND, format!("no lesson step {v}/{l}/{n}"));
    };
    let req: AnswerReq = match crate::web::parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    if req.moves.len() > MAX_MOVES || req.answer.as_ref().is_some_and(|a| a.len() > 16) {
        return bad("too many moves, or an answer too long");
    }
    let (pos, _) = match replay(step, &req.moves) {
        Ok(x) => x,
        Err(e) => return bad(e.to_string()),
    };
    let Some(text) = req.answer else {
        return Json(json!({ "position": crate::live::position_view(&pos, true) })).into_response();
    };
    let verdict = match judge(step, &req.moves, &text) {
        Ok(v) => v,
        Err(e) => return bad(e.to_string()),
    };
    let mut shown = pos.clone();
    if verdict.ok {
        for u in verdict.uci.iter().chain(verdict.reply.iter()) {
            if let Ok(m) = shown.parse_uci(u) {
                shown.play_unchecked(m);
            }
        }
    }
    let mut out = serde_json::to_value(&verdict).unwrap_or_default();
    if let Some(o) = out.as_object_mut() {
        o.insert("position".into(), crate::live::position_view(&shown, !verdict.done));
    }
    Json(out).into_response()
}

/// The step keys an account has finished.
async fn done_steps(app: &App, account: &str) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query("SELECT step FROM learn_progress WHERE account_id = $1 ORDER BY step")
        .bind(account)
        .fetch_all(&app.db)
        .await?;
    Ok(rows.iter().map(|r| r.get::<String, _>("step")).collect())
}

fn no_store(mut r: Response) -> Response {
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `GET /api/account/learn`: `{"done": [step keys]}` of the logged-in player.
async fn get_progress(State(app): State<App>, headers: HeaderMap) -> Response {
    let a = match need(&app, &headers).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    match done_steps(&app, &a.id).await {
        Ok(d) => no_store(Json(json!({ "done": d })).into_response()),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgressReq {
    done: Vec<String>,
}

/// `POST /api/account/learn` with `{"done": [step keys]}`: adds the steps
/// (a browser sends what it finished before logging in, too) and answers
/// the whole list, as GET does. A key that names no step is refused.
async fn add_progress(State(app): State<App>, headers: HeaderMap, body: Bytes) -> Response {
    let (req, a): (ProgressReq, _) = match body_and_account(&app, &headers, &body).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    if req.done.len() > 500 {
        return bad("at most 500 steps at once");
    }
    if let Some(k) = req.done.iter().find(|k| !chimera_learn::is_step_key(k)) {
        return bad(format!("'{k}' names no lesson step (variant/lesson/n)"));
    }
    let now = crate::live::now_ms();
    for k in &req.done {
        let r = sqlx::query(
            "INSERT INTO learn_progress (account_id, step, done_at) VALUES ($1, $2, $3) \
             ON CONFLICT (account_id, step) DO NOTHING",
        )
        .bind(&a.id)
        .bind(k)
        .bind(now)
        .execute(&app.db)
        .await;
        if let Err(e) = r {
            return err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
        }
    }
    match done_steps(&app, &a.id).await {
        Ok(d) => no_store(Json(json!({ "done": d })).into_response()),
        Err(e) => err(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}
