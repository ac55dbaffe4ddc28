//! The analysis board's PGN import with side lines: `POST /api/pgn/tree`
//! reads the first game of a PGN and returns its moves as a tree, each
//! variation replayed against the rules from the position it branches from.
//! (The rules crate's reader keeps a variation as raw movetext; it is read
//! again here, recursively.)

use crate::net::error as err;
use crate::pool::{Admission, PoolError, StopOnDrop};
use crate::App;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chimera_rules::pgn::{self, PgnMove};
use chimera_rules::{AnyPosition, Color, Position};
use serde::Deserialize;
use serde_json::{json, Value};

/// Side lines nested deeper than this are refused (each level is a recursion).
pub const MAX_DEPTH: usize = 32;
/// Moves in all lines together.
pub const MAX_NODES: usize = 20_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TreeReq {
    pgn: String,
}

/// The route's handler: `{pgn}` in, `{variant, options, fen, tree, tags, result}` out, where
/// `tree` is the main line `[{uci, san, variations: [[...], ...]}]`.
pub async fn pgn_tree(State(app): State<App>, body: Bytes) -> Response {
    let req: TreeReq = match crate::web::parse_body(&body) {
        Ok(r) => r,
        Err(e) => return *e,
    };
    if req.pgn.len() > 1_000_000 {
        return err(StatusCode::BAD_REQUEST, "PGN too long (1 MB at most)");
    }
    let guard = StopOnDrop::new();
    match app.cpu.run(Admission::Bounded, guard.flag(), move |_| read_tree(&req.pgn)).await {
        Ok(Ok(v)) => Json(v).into_response(),
        Ok(Err(e)) => err(StatusCode::BAD_REQUEST, e),
        Err(PoolError::Busy) => {
            err(StatusCode::SERVICE_UNAVAILABLE, "the server is busy with other work; try again in a few seconds")
        }
        Err(PoolError::Stopped) => err(StatusCode::SERVICE_UNAVAILABLE, "the work was stopped"),
        Err(PoolError::Failed) => err(StatusCode::INTERNAL_SERVER_ERROR, "the work failed"),
    }
}

/// The first game of `text` as a tree of moves, or what is wrong with it.
pub fn read_tree(text: &str) -> Result<Value, String> {
    let Some(first) = pgn::read_pgn(text).into_iter().next() else {
        return Err("no game found in the PGN".to_string());
    };
    let g = first.map_err(|e| e.to_string())?;
    let start = g.start_position().map_err(|e| e.to_string())?;
    let mut count = 0;
    let tree = line(&start, &g.moves, 0, &mut count)?;
    Ok(json!({
        "variant": start.variant().id(),
        "options": crate::live::options_json(start.variant(), &chimera_rules::Describe::rule_options(&start)),
        "fen": start.fen(),
        "tree": tree,
        "tags": g.tags.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
        "result": g.result,
    }))
}

/// Move number and side for messages: `12.` or `12...`.
fn move_label(pos: &AnyPosition) -> String {
    let dots = if pos.turn() == Color::White { "." } else { "..." };
    format!("{}{dots}", pos.fullmoves())
}

/// Replays `moves` from `start`; each move's variations are read and
/// replayed from the position before that move.
fn line(start: &AnyPosition, moves: &[PgnMove], depth: usize, count: &mut usize) -> Result<Vec<Value>, String> {
    if depth > MAX_DEPTH {
        return Err(format!("side lines nested more than {MAX_DEPTH} deep"));
    }
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for pm in moves {
        *count += 1;
        if *count > MAX_NODES {
            return Err(format!("more than {MAX_NODES} moves in all lines"));
        }
        let m = chimera_rules::san::parse_san(&pos, &pm.san).map_err(|e| {
            format!("{} {}{}: {e}", move_label(&pos), pm.san, if depth > 0 { " (in a side line)" } else { "" })
        })?;
        let mut variations = Vec::new();
        for text in &pm.variations {
            let sub = read_variation(text)?;
            variations.push(Value::Array(line(&pos, &sub, depth + 1, count)?));
        }
        let san = chimera_rules::san::to_san(&pos, m);
        pos.play_unchecked(m);
        let mut v = json!({"uci": m.to_string(), "san": san, "variations": variations});
        // lichess's `[%eval]` and `[%clk]` comments, kept (`crate::pgn_comments`).
        let (eval, clock) = crate::pgn_comments::read_comments(&pm.comments);
        if let Some(e) = eval {
            v["eval"] = json!(e);
        }
        if let Some(ms) = clock {
            v["clock"] = json!(ms);
        }
        out.push(v);
    }
    Ok(out)
}

/// A variation's raw movetext as moves (its own variations kept raw).
fn read_variation(text: &str) -> Result<Vec<PgnMove>, String> {
    match pgn::read_pgn(text).into_iter().next() {
        Some(Ok(g)) => Ok(g.moves),
        Some(Err(e)) => Err(format!("side line ({text}): {e}")),
        None => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sans(v: &Value) -> Vec<String> {
        v.as_array().unwrap().iter().map(|m| m["san"].as_str().unwrap().to_string()).collect()
    }

    #[test]
    fn variations_are_replayed_from_where_they_branch() {
        let t = read_tree("1. e4 (1. d4 d5 (1... Nf6 2. c4)) 1... e5 2. Nf3 (2. f4 exf4) Nc6 *").unwrap();
        let main = &t["tree"];
        assert_eq!(sans(main), ["e4", "e5", "Nf3", "Nc6"]);
        let d4 = &main[0]["variations"][0];
        assert_eq!(sans(d4), ["d4", "d5"]);
        assert_eq!(sans(&d4[1]["variations"][0]), ["Nf6", "c4"]);
        assert_eq!(d4[1]["variations"][0][0]["uci"], "g8f6");
        assert_eq!(sans(&main[2]["variations"][0]), ["f4", "exf4"]);
    }

    #[test]
    fn an_illegal_move_in_a_side_line_is_named() {
        let e = read_tree("1. e4 (1. e5) e5 *").unwrap_err();
        assert!(e.contains("1. e5") && e.contains("side line"), "{e}");
    }

    #[test]
    fn variant_moves_in_side_lines() {
        let t = read_tree("[Variant \"clown\"]\n\n1. Nf3(!C) (1. Nc3(!C) d5) d5 *").unwrap();
        assert_eq!(t["variant"], "clown");
        assert_eq!(t["tree"][0]["uci"], "g1f3c");
        assert_eq!(t["tree"][0]["variations"][0][0]["uci"], "b1c3c");
    }

    #[test]
    fn nesting_is_bounded() {
        let mut text = String::from("1. e4 ");
        for _ in 0..(MAX_DEPTH + 2) {
            text.push_str("(1. d4 ");
        }
        for _ in 0..(MAX_DEPTH + 2) {
            text.push(')');
        }
        text.push_str(" *");
        let e = read_tree(&text).unwrap_err();
        assert!(e.contains("nested"), "{e}");
    }
}
