//! The balance lab in the web UI: `/lab` lists the studies of the store
//! (`chimera lab run` plays them), `/lab/{id}` shows one study's report
//! (statistics with 95% intervals and SVG plots, the piece-value fit that
//! `chimera lab report` kept), and `/api/lab/studies[/{id}]` answers the
//! same as JSON. Reading only: nothing here plays or fits.

use crate::net::error as err;
use crate::App;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chimera_lab::{report, store, LabError};

/// The lab's routes, merged into the server's router.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/lab", get(index))
        .route("/lab/{id}", get(study_page))
        .route("/api/lab/studies", get(list))
        .route("/api/lab/studies/{id}", get(study_json))
}

fn lab_error(e: LabError) -> Response {
    match e {
        LabError::NoSuchStudy(id) => err(StatusCode::NOT_FOUND, format!("no study '{id}'")),
        LabError::BadInput(m) => err(StatusCode::BAD_REQUEST, m),
        e => err(StatusCode::INTERNAL_SERVER_ERROR, format!("the lab store: {e}")),
    }
}

/// A lab page in the site's dress: the report's own light style sheet
/// (kept for the report files `chimera lab report` writes) gives way to the
/// site's head (description, style sheet, theme) and the site's header
/// (drawn by doc.js, as on the docs pages); style.css styles the lab's
/// tables and plots.
fn html(body: String, title: &str, description: &str) -> Response {
    let body = body
        .replacen(&format!("<style>{}</style>", report::CSS), &crate::web::head_meta(title, description), 1)
        .replacen("<body><main>", "<body><div id=\"hdr\"></div><main class=\"lab\" lang=\"en\">", 1)
        .replacen("</main></body>", "</main><script type=\"module\" src=\"/assets/doc.js\"></script></body>", 1);
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

fn esc(s: &str) -> String {
    crate::web::attr(s)
}

async fn list(State(app): State<App>) -> Response {
    match store::list_studies(&app.db).await {
        Ok(s) => Json(s).into_response(),
        Err(e) => lab_error(e),
    }
}

async fn study_json(State(app): State<App>, Path(id): Path<String>) -> Response {
    if let Err(e) = store::check_id(&id) {
        return lab_error(e);
    }
    match report::build(&app.db, &id, false, 1).await {
        Ok(r) => Json(r).into_response(),
        Err(e) => lab_error(e),
    }
}

async fn index(State(app): State<App>) -> Response {
    let studies = match store::list_studies(&app.db).await {
        Ok(s) => s,
        Err(e) => return lab_error(e),
    };
    let mut rows = String::new();
    for s in &studies {
        let n = s.games.max(1) as f64;
        let score = chimera_lab::stats::score(&chimera_lab::stats::Wdl {
            wins: s.white_wins,
            draws: s.draws,
            losses: s.black_wins,
        });
        rows.push_str(&format!(
            "<tr><td><a class=\"study\" href=\"/lab/{id}\">{id}</a></td><td>{games}/{target}</td><td class=\"score\">{score}</td><td>{draws:.1}%</td><td>{desc}</td></tr>",
            id = esc(&s.id),
            games = s.games,
            target = s.games_target,
            score = if s.games > 0 { esc(&score.pct()) } else { "–".into() },
            draws = 100.0 * s.draws as f64 / n,
            desc = esc(&s.description),
        ));
    }
    let table = if studies.is_empty() {
        "<p id=\"empty\">No study yet. <code>chimera lab run ID --variant V --games N --data DIR</code> plays one into this server's store.</p>".to_string()
    } else {
        format!(
            "<div class=\"scroll\"><table id=\"studies\"><tr><th>study</th><th>games</th><th>White's score [95%]</th><th>draws</th><th>options</th></tr>{rows}</table></div>"
        )
    };
    html(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Chimera lab</title><style>{css}</style></head><body><main><h1>Balance lab</h1>\
         <p>Self-play studies of each variant and rule option. Each study's page shows White's score, draws, terminations, game lengths, the score by first move, special-move use, a typical game's evaluation and piece values fitted from its games, every rate with its 95% interval.</p>\
         {table}</main></body></html>\n",
        css = report::CSS
    ), "Chimera balance lab", "Self-play studies of each Chimera chess variant and rule option: White's score, draws, game lengths and piece values, with 95% intervals.")
}

/// A study's page; a study that does not exist (or an id that cannot be
/// one) is the site's "page not found" page, not the API's JSON error.
async fn study_page(State(app): State<App>, Path(id): Path<String>) -> Response {
    if store::check_id(&id).is_err() {
        return crate::web::not_found_page();
    }
    match report::build(&app.db, &id, false, 1).await {
        Ok(r) => html(
            report::html(&r).replacen("<main>", "<main><p><a href=\"/lab\">All studies</a></p>", 1),
            &format!("Chimera lab: {id}"),
            &format!("The balance lab's study {id} on Chimera: self-play results, game lengths and piece values with 95% intervals."),
        ),
        Err(LabError::NoSuchStudy(_)) => crate::web::not_found_page(),
        Err(e) => lab_error(e),
    }
}
