//! Training data for Texel tuning from in-process self-play (`chimera
//! datagen`): the engine plays itself at a fixed node count, with random
//! opening plies, and each game is written as one compact binary record.
//!
//! File format (little-endian), read back by [`read_records`]:
//!
//! - the 8 bytes `CHIMDG1\n` (version 1: move codes of the layout
//!   [`LAYOUT_V1`]), or `CHIMDG2\n` and a `u32` move-code layout
//!   ([`chimera_engine::tt::MOVE_CODE_LAYOUT`]) (version 2); a reader
//!   refuses codes of a layout other than its build's, and a writer uses
//!   version 1 while the build's layout is version 1's ([`header`]);
//! - then games, each: `u8` variant (index in `Variant::ALL`), `u8` result
//!   (0 Black won, 1 draw, 2 White won), `u16` length of the start FEN,
//!   the FEN (UTF-8; the position after the random opening plies, default
//!   rule options), `u16` number of plies, then per ply a `u32` move code
//!   (`tt::encode_move`: from, to and kind in 20 bits) and an `i16` search
//!   score for White in centipawns (mates as ±30,000).
//!
//! Six bytes a position; a reader replays the codes against the legal moves
//! (a code names exactly one legal move), so a record can never hold an
//! illegal game.

use chimera_engine::tt::{encode_move, MOVE_CODE_LAYOUT};
use chimera_engine::{Engine, EngineOptions, Limits, Score, SplitMix, Strength};
use chimera_rules::{AnyPosition, Color, Game, Move, Position, RuleOptions, Variant};
use std::sync::atomic::AtomicBool;

/// The first bytes of a record file of version 1 (move codes of the
/// layout [`LAYOUT_V1`]).
pub const MAGIC: &[u8; 8] = b"CHIMDG1\n";
/// The first bytes of a record file of version 2, followed by its move
/// codes' layout (`u32`).
pub const MAGIC2: &[u8; 8] = b"CHIMDG2\n";
/// The move-code layout of every version 1 file (8 roles, 10 kinds of
/// move, 33 kinds of code; [`chimera_engine::tt::MOVE_CODE_LAYOUT`]).
pub const LAYOUT_V1: u32 = 8 | 10 << 8 | 33 << 16;

/// The header of a record file whose move codes are of `layout`: version 1
/// for [`LAYOUT_V1`], version 2 naming it otherwise.
pub fn header_of(layout: u32) -> Vec<u8> {
    if layout == LAYOUT_V1 {
        MAGIC.to_vec()
    } else {
        let mut h = MAGIC2.to_vec();
        h.extend_from_slice(&layout.to_le_bytes());
        h
    }
}

/// The header a record file of this build starts with (its move codes'
/// layout, [`MOVE_CODE_LAYOUT`]).
pub fn header() -> Vec<u8> {
    header_of(MOVE_CODE_LAYOUT)
}

/// Whether `bytes` start as a record file does (either version).
pub fn is_records(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC) || bytes.starts_with(MAGIC2)
}

/// A move-code layout in words.
fn describe_layout(layout: u32) -> String {
    format!(
        "{:#x} ({} roles, {} kinds of move, {} kinds of code)",
        layout,
        layout & 0xFF,
        (layout >> 8) & 0xFF,
        (layout >> 16) & 0xFF
    )
}

/// The records after a file's header, or why they cannot be read by this
/// build.
fn body(bytes: &[u8]) -> Result<&[u8], String> {
    let (layout, rest) = if let Some(rest) = bytes.strip_prefix(MAGIC.as_slice()) {
        (LAYOUT_V1, rest)
    } else if let Some(rest) = bytes.strip_prefix(MAGIC2.as_slice()) {
        let l = rest.get(..4).ok_or("not a chimera datagen file (the header ends inside the move-code layout)")?;
        (u32::from_le_bytes([l[0], l[1], l[2], l[3]]), &rest[4..])
    } else {
        return Err("not a chimera datagen file (the magic CHIMDG1 or CHIMDG2 is missing)".into());
    };
    if layout != MOVE_CODE_LAYOUT {
        return Err(format!(
            "move codes of another layout: the file's are {}, this build's {}; make the records again with this build",
            describe_layout(layout),
            describe_layout(MOVE_CODE_LAYOUT)
        ));
    }
    Ok(rest)
}

/// How the games are played.
#[derive(Clone, Debug)]
pub struct GenConfig {
    pub variant: Variant,
    /// Nodes per move.
    pub nodes: u64,
    /// Random legal plies before the engine plays.
    pub random_plies: usize,
    /// A game still running after this many plies is a draw.
    pub max_plies: usize,
    /// A side whose score stays beyond ±`resign_cp` (for White) for
    /// `resign_plies` plies in a row has won (0 = never adjudicate).
    pub resign_cp: i32,
    pub resign_plies: usize,
    pub seed: u64,
}

/// One self-play game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start: AnyPosition,
    /// For White: 0.0, 0.5 or 1.0.
    pub result: f32,
    pub moves: Vec<Move>,
    /// Search score for White after each move was chosen.
    pub scores: Vec<i16>,
}

/// A random opening: `plies` random legal moves from the start, drawn again
/// (up to 100 times) when they end the game.
fn random_opening(cfg: &GenConfig, index: u64) -> AnyPosition {
    random_opening_from(&AnyPosition::new(cfg.variant, &RuleOptions::default()), cfg.random_plies, cfg.seed, index).0
}

/// Game `index`'s random opening from `start`: `plies` random legal moves
/// drawn from `seed` and `index` (the same arguments give the same moves),
/// drawn again (up to 100 times) when they end the game. Returns the
/// position reached and the moves (none when every draw ended the game).
pub fn random_opening_from(start: &AnyPosition, plies: usize, seed: u64, index: u64) -> (AnyPosition, Vec<Move>) {
    let mut rng = SplitMix(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    for _ in 0..100 {
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(plies);
        let mut ok = true;
        for _ in 0..plies {
            let legal = pos.legal_move_list();
            if legal.is_empty() {
                ok = false;
                break;
            }
            let m = legal[(rng.next() % legal.len() as u64) as usize];
            moves.push(m);
            pos.play_unchecked(m);
        }
        if ok && pos.outcome().is_none() {
            return (pos, moves);
        }
    }
    (start.clone(), Vec::new())
}

fn white_score(score: Score, turn: Color) -> i16 {
    let s = match score {
        Score::Cp(c) => c.clamp(-29_000, 29_000),
        Score::Mate(n) if n > 0 => 30_000,
        Score::Mate(_) => -30_000,
    };
    (if turn == Color::White { s } else { -s }) as i16
}

/// Plays game number `index` of the configuration with `engine` (one
/// thread; its table and histories are cleared first).
pub fn play_game(engine: &mut Engine, cfg: &GenConfig, index: u64) -> GameRecord {
    let start = random_opening(cfg, index);
    let limits = Limits { nodes: Some(cfg.nodes.max(1)), ..Default::default() };
    play_from(engine, cfg, start, &limits)
}

/// Plays one self-play game from `start` with `limits` per move (the
/// configuration's `nodes`, `variant`, `random_plies` and `seed` are not
/// read; its ply limit and adjudication are). The engine's table and
/// histories are cleared first.
pub fn play_from(engine: &mut Engine, cfg: &GenConfig, start: AnyPosition, limits: &Limits) -> GameRecord {
    engine.new_game();
    let mut game = Game::new(start.clone());
    let mut scores = Vec::new();
    let stop = AtomicBool::new(false);
    let mut streak: (i32, usize) = (0, 0);
    // Hashes of the positions before the current one (repetition).
    let mut history: Vec<u64> = Vec::new();
    let result = loop {
        if let Some(o) = game.outcome() {
            break match o.winner() {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        if game.moves().len() >= cfg.max_plies {
            break 0.5;
        }
        let pos = game.position().clone();
        let r = engine.search(&pos, &history, limits, &Strength::default(), &stop, &mut |_| {});
        let Some(m) = r.best else {
            break 0.5; // unreachable: the outcome above saw the legal moves
        };
        let s = white_score(r.score, pos.turn());
        scores.push(s);
        history.push(pos.hash());
        game.push_unchecked(m);
        if cfg.resign_plies > 0 {
            let side = if s as i32 >= cfg.resign_cp {
                1
            } else if s as i32 <= -cfg.resign_cp {
                -1
            } else {
                0
            };
            streak = if side != 0 && side == streak.0 { (side, streak.1 + 1) } else { (side, usize::from(side != 0)) };
            if streak.1 >= cfg.resign_plies {
                break if streak.0 > 0 { 1.0 } else { 0.0 };
            }
        }
    };
    GameRecord { start, result, moves: game.moves().to_vec(), scores }
}

/// Appends the binary record of `g` to `out`.
pub fn write_record(g: &GameRecord, out: &mut Vec<u8>) {
    let variant = Variant::ALL.iter().position(|&v| v == g.start.variant()).unwrap_or(0) as u8;
    out.push(variant);
    out.push((g.result * 2.0).round() as u8);
    let fen = g.start.fen();
    out.extend_from_slice(&(fen.len() as u16).to_le_bytes());
    out.extend_from_slice(fen.as_bytes());
    out.extend_from_slice(&(g.moves.len() as u16).to_le_bytes());
    for (i, &m) in g.moves.iter().enumerate() {
        out.extend_from_slice(&encode_move(m).to_le_bytes());
        out.extend_from_slice(&g.scores.get(i).copied().unwrap_or(0).to_le_bytes());
    }
}

/// Reads every record of a file's bytes (the header included). A record
/// whose moves do not replay is an error naming the game.
pub fn read_records(bytes: &[u8]) -> Result<Vec<GameRecord>, String> {
    let rest = body(bytes)?;
    let mut games = Vec::new();
    let mut r = Reader(rest);
    while !r.0.is_empty() {
        let n = games.len() + 1;
        let err = |what: &str| format!("game {n}: {what}");
        let v = r.u8().ok_or_else(|| err("truncated"))? as usize;
        let variant = *Variant::ALL.get(v).ok_or_else(|| err("unknown variant"))?;
        let result = match r.u8().ok_or_else(|| err("truncated"))? {
            0 => 0.0,
            1 => 0.5,
            2 => 1.0,
            _ => return Err(err("bad result byte")),
        };
        let len = r.u16().ok_or_else(|| err("truncated"))? as usize;
        let fen =
            std::str::from_utf8(r.take(len).ok_or_else(|| err("truncated"))?).map_err(|_| err("FEN is not UTF-8"))?;
        let start =
            AnyPosition::from_fen(variant, fen, &RuleOptions::default()).map_err(|e| err(&format!("bad FEN: {e}")))?;
        let plies = r.u16().ok_or_else(|| err("truncated"))? as usize;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(plies);
        let mut scores = Vec::with_capacity(plies);
        for ply in 0..plies {
            let code = r.u32().ok_or_else(|| err("truncated"))?;
            let s = r.u16().ok_or_else(|| err("truncated"))? as i16;
            let m = pos
                .legal_move_list()
                .iter()
                .copied()
                .find(|&m| encode_move(m) == code)
                .ok_or_else(|| err(&format!("ply {}: no legal move has code {code:#x}", ply + 1)))?;
            pos.play_unchecked(m);
            moves.push(m);
            scores.push(s);
        }
        games.push(GameRecord { start, result, moves, scores });
    }
    Ok(games)
}

/// One row of [`pawn_report`]: the positions where one side is `up` Pawns
/// ahead (3 stands for 3 or more) with the other pieces level.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PawnRow {
    pub up: u32,
    /// Positions (one per recorded ply) in the row.
    pub positions: u64,
    /// Mean search label of the side up, in pawns (White's for a level row).
    pub label: f64,
    /// Mean game result of the side up, 0 to 1, over the same positions.
    pub result: f64,
    /// Games with at least one position in the row.
    pub games: u64,
}

/// The search labels of `games` against the Pawns on the board: for each
/// recorded position of `variant` from move `first` to move `last` (a
/// position before its move, with the score of the search that chose the
/// move) whose sides have the same number of every piece but Pawns and
/// Kings on the board, not in check, and labelled within ±4 pawns (beyond
/// that a label says who wins, not what a Pawn is worth), the row of the
/// Pawns one side is up. What self-play says a Pawn is worth, to set
/// beside what the net says in games against another engine
/// (`scripts/eval-gap.py`; strength §51, §52).
pub fn pawn_report(games: &[GameRecord], variant: Variant, first: u32, last: u32) -> Vec<PawnRow> {
    use chimera_rules::Role;
    let mut rows: Vec<PawnRow> = (0..4).map(|up| PawnRow { up, ..PawnRow::default() }).collect();
    for g in games.iter().filter(|g| g.start.variant() == variant) {
        let mut seen = [false; 4];
        let mut pos = g.start.clone();
        for (&m, &score) in g.moves.iter().zip(&g.scores) {
            let b = pos.board();
            let count = |c: Color, r: Role| (b.by_color(c) & b.by_role(r)).count();
            let level = Role::ALL
                .iter()
                .filter(|&&r| r != Role::Pawn && r != Role::King)
                .all(|&r| count(Color::White, r) == count(Color::Black, r));
            if (first..=last).contains(&pos.fullmoves()) && level && !pos.is_check() && score.unsigned_abs() <= 400 {
                let d = count(Color::White, Role::Pawn) as i32 - count(Color::Black, Role::Pawn) as i32;
                let (label, result) = if d < 0 {
                    (-(score as f64) / 100.0, 1.0 - g.result as f64)
                } else {
                    (score as f64 / 100.0, g.result as f64)
                };
                let k = d.unsigned_abs().min(3) as usize;
                let row = &mut rows[k];
                row.positions += 1;
                row.label += label;
                row.result += result;
                if !seen[k] {
                    seen[k] = true;
                    row.games += 1;
                }
            }
            pos.play_unchecked(m);
        }
    }
    for row in &mut rows {
        if row.positions > 0 {
            row.label /= row.positions as f64;
            row.result /= row.positions as f64;
        }
    }
    rows
}

struct Reader<'a>(&'a [u8]);
impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// A fresh one-thread engine for self-play, with the hand-made evaluation
/// (`chimera datagen --nnue` switches the net on; the balance lab's
/// studies are fingerprinted by the hand-made values, so they keep it).
/// A net plays at its full output (`nnue_scale` 100): its search scores
/// are the next net's labels, in the units every net has learnt (a scaled
/// output would shrink each generation's labels again).
pub fn engine() -> Engine {
    Engine::new(EngineOptions { hash_mb: 16, use_nnue: false, nnue_scale: 100, ..EngineOptions::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(g: &GameRecord) -> (String, f32, Vec<Move>, Vec<i16>) {
        (g.start.fen(), g.result, g.moves.clone(), g.scores.clone())
    }

    /// Records written and read back give the same games, in every variant;
    /// a corrupt move code or a truncated file is an error, not a panic.
    #[test]
    fn records_round_trip() {
        let mut bytes = header();
        let mut games = Vec::new();
        for (i, &v) in Variant::ALL.iter().enumerate() {
            let cfg = GenConfig {
                variant: v,
                nodes: 300,
                random_plies: 6,
                max_plies: 40,
                resign_cp: 1000,
                resign_plies: 6,
                seed: 7,
            };
            let g = play_game(&mut engine(), &cfg, i as u64);
            assert!(!g.moves.is_empty());
            assert_eq!(g.moves.len(), g.scores.len());
            write_record(&g, &mut bytes);
            games.push(g);
        }
        let back: Vec<_> = read_records(&bytes).unwrap().iter().map(key).collect();
        assert_eq!(back, games.iter().map(key).collect::<Vec<_>>());
        assert!(read_records(&bytes[..bytes.len() - 3]).unwrap_err().contains("truncated"));
        assert!(read_records(b"PGN...").is_err());
        // Corrupt the first move code of the first game.
        let fen_len = u16::from_le_bytes([bytes[10], bytes[11]]) as usize;
        let at = 8 + 4 + fen_len + 2;
        bytes[at..at + 4].copy_from_slice(&0xFFFFFu32.to_le_bytes());
        assert!(read_records(&bytes).unwrap_err().contains("no legal move"));
    }

    /// Hand-worked rows. 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Nge2, White
    /// won, labels for White +0.20, +0.10, +0.30, +1.00, +5.00, -0.40,
    /// +0.50. Counted: the positions before 1. e4, 1... d5, 2. exd5 and
    /// 3... Qe5+ (level) and before 2... Qxd5 (White a Pawn up). Left out:
    /// before 3. Nc3 (its label is beyond ±4 pawns), before 4. Nge2 (White
    /// is in check), a game of another variant; with moves 1-1 only the
    /// first two positions count.
    #[test]
    fn pawn_report_rows_by_hand() {
        let start = AnyPosition::new(Variant::Chess, &RuleOptions::default());
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for uci in ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5", "g1e2"] {
            let m = pos.parse_uci(uci).unwrap();
            pos.play_unchecked(m);
            moves.push(m);
        }
        let chess = GameRecord { start, result: 1.0, moves, scores: vec![20, 10, 30, 100, 500, -40, 50] };
        let genie = GameRecord {
            start: AnyPosition::new(Variant::Genie, &RuleOptions::default()),
            result: 0.0,
            moves: vec![],
            scores: vec![],
        };
        let check = |row: &PawnRow, up, positions, label: f64, result: f64, games| {
            assert_eq!((row.up, row.positions, row.games), (up, positions, games), "{row:?}");
            assert!((row.label - label).abs() < 1e-9 && (row.result - result).abs() < 1e-9, "{row:?}");
        };
        let rows = pawn_report(&[chess.clone(), genie], Variant::Chess, 1, 4);
        assert_eq!(rows.len(), 4);
        check(&rows[0], 0, 4, 0.05, 1.0, 1);
        check(&rows[1], 1, 1, 1.00, 1.0, 1);
        // Black a Pawn up, in a game Black won: 1. Nf3 d5 2. e4 dxe4 3. Nc3,
        // labels 0 while level and -1.20 for White before 3. Nc3, so
        // +1.20 and a win for the side up.
        let mut pos = AnyPosition::new(Variant::Chess, &RuleOptions::default());
        let mut moves = Vec::new();
        for uci in ["g1f3", "d7d5", "e2e4", "d5e4", "b1c3"] {
            let m = pos.parse_uci(uci).unwrap();
            pos.play_unchecked(m);
            moves.push(m);
        }
        let black = GameRecord {
            start: AnyPosition::new(Variant::Chess, &RuleOptions::default()),
            result: 0.0,
            moves,
            scores: vec![0, 0, 0, 0, -120],
        };
        let rows = pawn_report(&[chess.clone(), black], Variant::Chess, 1, 4);
        check(&rows[0], 0, 8, 0.025, 0.5, 2);
        check(&rows[1], 1, 2, 1.10, 1.0, 2);
        check(&rows[2], 2, 0, 0.0, 0.0, 0);
        check(&rows[3], 3, 0, 0.0, 0.0, 0);
        let rows = pawn_report(&[chess], Variant::Chess, 1, 1);
        check(&rows[0], 0, 2, 0.15, 1.0, 1);
        check(&rows[1], 1, 0, 0.0, 0.0, 0);
    }

    /// The same configuration and game number give the same game.
    #[test]
    fn games_are_reproducible() {
        let cfg = GenConfig {
            variant: Variant::Chess,
            nodes: 500,
            random_plies: 8,
            max_plies: 30,
            resign_cp: 0,
            resign_plies: 0,
            seed: 3,
        };
        let a = play_game(&mut engine(), &cfg, 5);
        assert_eq!(key(&a), key(&play_game(&mut engine(), &cfg, 5)));
        assert_ne!(key(&a).0, key(&play_game(&mut engine(), &cfg, 6)).0);
    }

    /// A file names its move codes' layout: version 1 is today's layout,
    /// version 2 says which; codes of another layout are refused with both
    /// layouts named, never read as other moves.
    #[test]
    fn records_of_another_move_code_layout_are_refused() {
        let cfg = GenConfig {
            variant: Variant::Chess,
            nodes: 200,
            random_plies: 4,
            max_plies: 12,
            resign_cp: 1000,
            resign_plies: 6,
            seed: 3,
        };
        let g = play_game(&mut engine(), &cfg, 0);
        let mut games = Vec::new();
        write_record(&g, &mut games);
        assert_eq!(header(), MAGIC.to_vec(), "this build's codes are version 1's");
        // Version 2 with this build's layout reads; with another it is refused.
        let with = |layout: u32| [header_of(layout), games.clone()].concat();
        let v2 = [MAGIC2.to_vec(), MOVE_CODE_LAYOUT.to_le_bytes().to_vec(), games.clone()].concat();
        assert_eq!(read_records(&v2).expect("version 2 of this layout").len(), 1);
        let nine_roles = 9 | 10 << 8 | 36 << 16;
        let e = read_records(&with(nine_roles)).unwrap_err();
        assert!(e.starts_with("move codes of another layout"), "{e}");
        assert!(e.contains("9 roles") && e.contains("8 roles"), "{e}");
        assert!(read_records(&v2[..10]).unwrap_err().contains("the header ends inside the move-code layout"));
        assert!(is_records(&v2) && is_records(&with(LAYOUT_V1)) && !is_records(b"[Event"));
    }
}
