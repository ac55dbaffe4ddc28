//! A study's statistics, every rate with its 95% interval ([`crate::stats`]
//! does the maths):
//!
//! - proportions (draw rate, decisive rate, a termination's share, how
//!   often a special move is used): the Wilson score interval;
//! - scores (White's score, the score after a first move, the score of the
//!   side that used a special move): the mean score with the per-game
//!   (trinomial) variance and the normal approximation, as `chimera match`
//!   computes it;
//! - comparisons ([`compare`]): the difference of two proportions (pooled
//!   two-proportion z-test) or of two mean scores (z = difference over the
//!   root of the summed squared standard errors), two-sided, significant at
//!   5% when |z| ≥ 1.96 and at 1% when |z| ≥ 2.576.

use crate::spec::StudySpec;
use crate::stats::{proportion_difference, score, score_difference, wilson, Difference, Est, Wdl};
use crate::store::GameRow;
use crate::LabError;
use chimera_rules::{san, AnyPosition, Color, Move, MoveKind, Position, Role};
use serde::Serialize;
use std::collections::BTreeMap;

/// One row of the score by first move.
#[derive(Clone, Debug, Serialize)]
pub struct FirstMove {
    /// White's first move in SAN.
    pub san: String,
    pub wdl: (u64, u64, u64),
    /// White's score after it.
    pub score: Est,
}

/// Use of one kind of special move (engine moves only; the random opening
/// plies are not the engine's choice).
#[derive(Clone, Debug, Serialize)]
pub struct SpecialUse {
    /// `flip`, `placement`, `declaration`, `re-entry`, `ring pass`, `castling`, `promotion`.
    pub kind: String,
    /// Moves of this kind in the opening (plies 1–20), middlegame (21–60)
    /// and endgame (61 on).
    pub by_phase: [u64; 3],
    /// Average per game.
    pub per_game: f64,
    /// Share of the games in which at least one side used it.
    pub games_used: Est,
    /// Score of a side in the games where it used it (over game-sides).
    pub user_score: Est,
    /// Score of a side in the games where it did not.
    pub non_user_score: Est,
    /// Is the difference between the two significant?
    pub test: Difference,
}

/// Where each role is placed in a side's placement order (Genesis).
#[derive(Clone, Debug, Serialize)]
pub struct Placement {
    pub role: String,
    /// Pieces of this role placed (both sides, all games).
    pub placed: u64,
    /// Mean position in its side's order of placements (1 = first).
    pub mean_index: f64,
    /// Share of these placements made in the first 8 of the side's placements.
    pub early_share: f64,
}

/// The statistics of a study.
#[derive(Clone, Debug, Serialize)]
pub struct StudyStats {
    pub games: u64,
    /// White's wins, draws and losses.
    pub wdl: (u64, u64, u64),
    pub white_score: Est,
    pub white_wins: Est,
    pub black_wins: Est,
    pub draw_rate: Est,
    pub decisive_rate: Est,
    /// Termination, count, share.
    pub terminations: Vec<(String, u64, Est)>,
    /// Plies of every game (the random opening included), by game number.
    pub lengths: Vec<u64>,
    pub length_mean: f64,
    pub length_median: f64,
    pub length_p10: f64,
    pub length_p90: f64,
    pub by_first_move: Vec<FirstMove>,
    pub special: Vec<SpecialUse>,
    pub placement_order: Vec<Placement>,
    /// The typical game: the game whose length is nearest the median (the
    /// lowest number among equals); its number, result and White's score
    /// after each engine move (centipawns).
    pub typical: Option<(u64, String, usize, Vec<i32>)>,
}

/// Phase of ply `i` (0-based from the start): 0 opening (plies 1–20), 1
/// middlegame (21–60), 2 endgame.
pub fn phase(ply: usize) -> usize {
    if ply < 20 {
        0
    } else if ply < 60 {
        1
    } else {
        2
    }
}

fn special_kind(k: MoveKind) -> Option<&'static str> {
    Some(match k {
        MoveKind::Flip => "flip",
        MoveKind::Drop(_) => "placement",
        MoveKind::Declare => "declaration",
        MoveKind::ReEntry(_) => "re-entry",
        MoveKind::RingPass(_) => "ring pass",
        MoveKind::Castle => "castling",
        MoveKind::Promotion(_) => "promotion",
        _ => return None,
    })
}

const KINDS: [&str; 7] = ["flip", "placement", "declaration", "re-entry", "ring pass", "castling", "promotion"];

fn percentile(sorted: &[u64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] as f64 + (sorted[hi] as f64 - sorted[lo] as f64) * (pos - lo as f64)
}

fn add(w: &mut Wdl, s: f64) {
    if s > 0.75 {
        w.wins += 1;
    } else if s < 0.25 {
        w.losses += 1;
    } else {
        w.draws += 1;
    }
}

/// A stored game replayed: its start, its moves and White's score.
pub struct Replayed {
    pub row: GameRow,
    pub start: AnyPosition,
    pub moves: Vec<Move>,
    /// White's score: 1, ½ or 0.
    pub white: f64,
}

/// Replays the stored games of a study (a game that does not replay is an
/// error naming it: the store was changed by hand or is corrupt).
pub fn replay(spec: &StudySpec, rows: Vec<GameRow>) -> Result<Vec<Replayed>, LabError> {
    let starts = spec.start_positions()?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let start = starts[(row.k % starts.len() as u64) as usize].clone();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for s in row.moves.split_whitespace() {
            let m = pos
                .parse_uci(s)
                .map_err(|e| LabError::Store(format!("game {}: move {s} does not replay: {e}", row.k)))?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        let white = match row.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            r => return Err(LabError::Store(format!("game {}: bad result '{r}'", row.k))),
        };
        out.push(Replayed { row, start, moves, white });
    }
    Ok(out)
}

/// Computes the statistics of replayed games.
pub fn compute(games: &[Replayed]) -> StudyStats {
    let n = games.len() as u64;
    let mut wdl = Wdl::default();
    let mut terms: BTreeMap<String, u64> = BTreeMap::new();
    let mut first: BTreeMap<String, Wdl> = BTreeMap::new();
    let mut lengths = Vec::with_capacity(games.len());
    // Per kind: moves by phase, games used, user/non-user scores.
    let mut by_phase: BTreeMap<&str, [u64; 3]> = BTreeMap::new();
    let mut used_games: BTreeMap<&str, u64> = BTreeMap::new();
    let mut user: BTreeMap<&str, (Wdl, Wdl)> = BTreeMap::new();
    let mut placements: BTreeMap<Role, (u64, u64, u64)> = BTreeMap::new();
    for g in games {
        add(&mut wdl, g.white);
        *terms.entry(g.row.termination.clone()).or_default() += 1;
        lengths.push(g.moves.len() as u64);
        if let Some(&m) = g.moves.first() {
            add(first.entry(san::to_san(&g.start, m)).or_default(), g.white);
        }
        let mut used = [[false; 2]; KINDS.len()];
        let mut pos = g.start.clone();
        let mut placed = [0u64; 2];
        for (ply, &m) in g.moves.iter().enumerate() {
            let side = pos.turn();
            if let MoveKind::Drop(role) = m.kind {
                let i = &mut placed[side as usize];
                *i += 1;
                let e = placements.entry(role).or_default();
                e.0 += 1;
                e.1 += *i;
                e.2 += u64::from(*i <= 8);
            }
            if ply >= g.row.opening_plies {
                if let Some(kind) = special_kind(m.kind) {
                    by_phase.entry(kind).or_default()[phase(ply)] += 1;
                    let ki = KINDS.iter().position(|&k| k == kind).unwrap_or(0);
                    used[ki][side as usize] = true;
                }
            }
            pos.play_unchecked(m);
        }
        for (ki, kind) in KINDS.iter().enumerate() {
            if used[ki][0] || used[ki][1] {
                *used_games.entry(kind).or_default() += 1;
            }
            let e = user.entry(kind).or_default();
            for c in [Color::White, Color::Black] {
                let s = if c == Color::White { g.white } else { 1.0 - g.white };
                if used[ki][c as usize] {
                    add(&mut e.0, s);
                } else {
                    add(&mut e.1, s);
                }
            }
        }
    }
    let mut sorted = lengths.clone();
    sorted.sort_unstable();
    let length_median = percentile(&sorted, 0.5);
    let typical = games
        .iter()
        .min_by(|a, b| {
            let da = (a.moves.len() as f64 - length_median).abs();
            let db = (b.moves.len() as f64 - length_median).abs();
            da.total_cmp(&db).then(a.row.k.cmp(&b.row.k))
        })
        .map(|g| {
            let scores = g.row.scores.split_whitespace().filter_map(|s| s.parse::<i32>().ok()).collect();
            (g.row.k, g.row.result.clone(), g.row.opening_plies, scores)
        });
    let mut by_first_move: Vec<FirstMove> = first
        .into_iter()
        .map(|(san, w)| FirstMove { san, wdl: (w.wins, w.draws, w.losses), score: score(&w) })
        .collect();
    by_first_move.sort_by(|a, b| b.score.n.cmp(&a.score.n).then(a.san.cmp(&b.san)));
    let special = KINDS
        .iter()
        .filter(|k| by_phase.contains_key(*k))
        .map(|&k| {
            let ph = by_phase[k];
            let (u, nu) = user.get(k).copied().unwrap_or_default();
            SpecialUse {
                kind: k.into(),
                by_phase: ph,
                per_game: ph.iter().sum::<u64>() as f64 / n.max(1) as f64,
                games_used: wilson(used_games.get(k).copied().unwrap_or(0), n),
                user_score: score(&u),
                non_user_score: score(&nu),
                test: score_difference(&format!("score of the side that used {k} vs not"), &nu, &u),
            }
        })
        .collect();
    let placement_order = placements
        .into_iter()
        .map(|(role, (count, sum, early))| Placement {
            role: role.upper_char().to_string(),
            placed: count,
            mean_index: sum as f64 / count.max(1) as f64,
            early_share: early as f64 / count.max(1) as f64,
        })
        .collect();
    let decisive = wdl.wins + wdl.losses;
    StudyStats {
        games: n,
        wdl: (wdl.wins, wdl.draws, wdl.losses),
        white_score: score(&wdl),
        white_wins: wilson(wdl.wins, n),
        black_wins: wilson(wdl.losses, n),
        draw_rate: wilson(wdl.draws, n),
        decisive_rate: wilson(decisive, n),
        terminations: {
            let mut t: Vec<_> = terms.into_iter().map(|(t, c)| (t, c, wilson(c, n))).collect();
            t.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            t
        },
        length_mean: lengths.iter().sum::<u64>() as f64 / n.max(1) as f64,
        length_median,
        length_p10: percentile(&sorted, 0.1),
        length_p90: percentile(&sorted, 0.9),
        lengths,
        by_first_move,
        special,
        placement_order,
        typical,
    }
}

/// The differences between two studies' statistics, each with its test.
pub fn compare(a: &StudyStats, b: &StudyStats) -> Vec<Difference> {
    let wa = Wdl { wins: a.wdl.0, draws: a.wdl.1, losses: a.wdl.2 };
    let wb = Wdl { wins: b.wdl.0, draws: b.wdl.1, losses: b.wdl.2 };
    let mut out = vec![
        score_difference("White's score", &wa, &wb),
        proportion_difference("draw rate", a.wdl.1, a.games, b.wdl.1, b.games),
        proportion_difference("White's win rate", a.wdl.0, a.games, b.wdl.0, b.games),
        proportion_difference("Black's win rate", a.wdl.2, a.games, b.wdl.2, b.games),
    ];
    let mut terms: Vec<&String> = a.terminations.iter().map(|t| &t.0).collect();
    for t in &b.terminations {
        if !terms.contains(&&t.0) {
            terms.push(&t.0);
        }
    }
    for t in terms {
        let ka = a.terminations.iter().find(|x| &x.0 == t).map_or(0, |x| x.1);
        let kb = b.terminations.iter().find(|x| &x.0 == t).map_or(0, |x| x.1);
        out.push(proportion_difference(&format!("termination: {t}"), ka, a.games, kb, b.games));
    }
    for s in &a.special {
        if let Some(t) = b.special.iter().find(|x| x.kind == s.kind) {
            let ka = (s.games_used.value * a.games as f64).round() as u64;
            let kb = (t.games_used.value * b.games as f64).round() as u64;
            out.push(proportion_difference(&format!("games using {}", s.kind), ka, a.games, kb, b.games));
        }
    }
    out
}

/// [`compare`] as text for the terminal.
pub fn compare_text(a: &StudyStats, b: &StudyStats, name_a: &str, name_b: &str) -> String {
    let mut s = format!(
        "A = {name_a} ({} games), B = {name_b} ({} games); two-sided tests, 95% intervals\n\n",
        a.games, b.games
    );
    s.push_str(&format!("{:<34} {:>8} {:>8} {:>9} {:>7} {:>8}  verdict\n", "", "A", "B", "B − A", "z", "p"));
    for d in compare(a, b) {
        s.push_str(&format!(
            "{:<34} {:>7.1}% {:>7.1}% {:>+8.1}% {:>7.2} {:>8.4}  {}\n",
            d.what,
            100.0 * d.a,
            100.0 * d.b,
            100.0 * d.diff,
            d.z,
            d.p,
            d.verdict()
        ));
    }
    s
}
