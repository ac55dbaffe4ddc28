//! lichess's PGN comments on each move: `{ [%eval 0.35] [%clk 0:04:58] }`.
//!
//! Written by every PGN export of a game (`GET /api/games/{id}/pgn`, a
//! player's and an account's exports): `[%eval]` where the game has a
//! stored review (the evaluation after the move, White's view, in pawns
//! with two decimals, `#3` / `#-3` for a mate; none after the move that
//! ends the game), `[%clk]` where the game had a clock (the mover's time
//! left after the move, `H:MM:SS`). Read back by the analysis board's
//! import (`POST /api/pgn/tree`: `eval` and `clock` on each move).

use crate::review::{Eval, Review};
use crate::App;

/// A game's stored review at the server's node count, when there is one.
pub async fn stored_review(app: &App, id: &str) -> Option<Review> {
    let text = crate::store::review(&app.db, id, app.config.review_nodes).await.ok()??;
    serde_json::from_str(&text).ok()
}

/// `0.35`, `-1.20`, `#3`, `#-2`: an evaluation as `[%eval]` writes it; none
/// for a finished position.
pub fn eval_text(e: Eval) -> Option<String> {
    match e {
        Eval::Cp(c) => Some(format!("{:.2}", c as f64 / 100.0)),
        Eval::Mate(m) => Some(format!("#{m}")),
        Eval::Won(_) => None,
    }
}

/// `H:MM:SS` of a time left in ms (whole seconds, rounded down).
pub fn clock_text(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The comment after each move: its `[%eval]` from `review` and its
/// `[%clk]` from `clocks` (the mover's ms left after each move), where
/// known; `None` for a move with neither.
pub fn move_comments(review: Option<&Review>, clocks: &[Option<i64>]) -> Vec<Option<String>> {
    let plies = review.map_or(0, |r| r.plies.len());
    (0..plies.max(clocks.len()))
        .map(|i| {
            let mut parts = Vec::new();
            if let Some(e) = review.and_then(|r| r.plies.get(i)).and_then(|p| eval_text(p.eval)) {
                parts.push(format!("[%eval {e}]"));
            }
            if let Some(ms) = clocks.get(i).copied().flatten() {
                parts.push(format!("[%clk {}]", clock_text(ms)));
            }
            (!parts.is_empty()).then(|| format!(" {} ", parts.join(" ")))
        })
        .collect()
}

/// The `[%eval]` and `[%clk]` (in ms) of a move's comments, where there.
pub fn read_comments(comments: &[String]) -> (Option<Eval>, Option<i64>) {
    let (mut eval, mut clock) = (None, None);
    for c in comments {
        if let Some(v) = command(c, "eval") {
            eval = read_eval(v).or(eval);
        }
        if let Some(v) = command(c, "clk") {
            clock = read_clock(v).or(clock);
        }
    }
    (eval, clock)
}

/// The argument of `[%name arg]` in a comment.
fn command<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    let start = comment.find(&format!("[%{name} "))? + name.len() + 3;
    let rest = &comment[start..];
    Some(rest[..rest.find(']')?].trim())
}

fn read_eval(v: &str) -> Option<Eval> {
    // lichess may follow the score with a depth: `[%eval 0.35,20]`.
    let v = v.split(',').next()?.trim();
    if let Some(m) = v.strip_prefix('#') {
        return m.parse::<i32>().ok().filter(|&m| m != 0).map(Eval::Mate);
    }
    let p: f64 = v.parse().ok()?;
    (p.is_finite() && p.abs() <= 1000.0).then(|| Eval::Cp((p * 100.0).round() as i32))
}

fn read_clock(v: &str) -> Option<i64> {
    let mut secs = 0.0;
    for part in v.split(':') {
        let x: f64 = part.parse().ok()?;
        if !x.is_finite() || x < 0.0 {
            return None;
        }
        secs = secs * 60.0 + x;
    }
    (secs < 1e9).then(|| (secs * 1000.0).round() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_rules::Color;

    #[test]
    fn texts_as_lichess_writes_them() {
        assert_eq!(eval_text(Eval::Cp(35)).as_deref(), Some("0.35"));
        assert_eq!(eval_text(Eval::Cp(-120)).as_deref(), Some("-1.20"));
        assert_eq!(eval_text(Eval::Mate(3)).as_deref(), Some("#3"));
        assert_eq!(eval_text(Eval::Mate(-2)).as_deref(), Some("#-2"));
        assert_eq!(eval_text(Eval::Won(Color::White)), None);
        assert_eq!(clock_text(298_999), "0:04:58");
        assert_eq!(clock_text(3_725_000), "1:02:05");
        assert_eq!(clock_text(-5), "0:00:00");
    }

    #[test]
    fn comments_read_back() {
        let c = |s: &str| vec![s.to_string()];
        assert_eq!(read_comments(&c("[%eval 0.35] [%clk 0:04:58]")), (Some(Eval::Cp(35)), Some(298_000)));
        assert_eq!(read_comments(&c("[%eval #-2]")), (Some(Eval::Mate(-2)), None));
        assert_eq!(read_comments(&c("[%eval -1.2,18] [%clk 1:02:05.3]")), (Some(Eval::Cp(-120)), Some(3_725_300)));
        assert_eq!(read_comments(&c("good move [%clk 0:00:07]")), (None, Some(7_000)));
        assert_eq!(read_comments(&c("[%eval x] [%clk -1:00] [%eval #0]")), (None, None));
        assert_eq!(read_comments(&[]), (None, None));
    }
}
