//! Texel tuning of [`Params`]: the evaluation's values are fitted to game
//! results. Method (`docs/engine.md`, "Tuning"):
//!
//! 1. Positions come from self-play games (PGN, or the binary records of
//!    `chimera datagen`, replayed by the rules library). Kept: after the random opening plies, side to move not in
//!    check, the game's move from it not a capture or promotion, and the
//!    move before not a capture (so no exchange is pending and the static
//!    evaluation means something); each position once.
//! 2. Each position is labelled with its game's result `r` (1, ½, 0 for
//!    White) and predicted by `σ(e) = 1 / (1 + 10^(−K·e/400))`, `e` the
//!    evaluation for White. The error is the mean of `(r − σ(e))²`.
//! 3. `K` is fitted first (golden section) with the current values, then
//!    held fixed.
//! 4. Local search (Texel's method) over every value: try `+step`, then
//!    `−step`, keep what lowers the error; when a whole pass changes
//!    nothing, halve the step, down to 1. A value only moves the error of
//!    the variants it appears in, so only those positions are re-evaluated.
//! 5. Every `validation`-th game is held out and its error reported before
//!    and after, to show the fit generalises.

use crate::eval::{Evaluate, Params, S};
use chimera_rules::pgn::{read_pgn, PgnGame};
use chimera_rules::{with_position, AnyPosition, Color, Move, MoveKind, Position, Variant};
use std::collections::HashSet;

/// One tunable value: its name and the variants whose evaluation reads it.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    /// Bit `i` set = `Variant::ALL[i]` reads this value.
    pub variants: u8,
}

const ALL: u8 = 0b11_1111;
const GENIE: u8 = 0b110;
const GENESIS: u8 = 1 << 3;
const CLOWN: u8 = 1 << 4;
const MAGICRING: u8 = 1 << 5;

#[cfg(test)]
fn variant_bit(v: Variant) -> u8 {
    1 << Variant::ALL.iter().position(|&x| x == v).unwrap_or(0)
}

/// Where each tunable value lives in [`Params`], in one place: the flat
/// order of [`params_to_vec`], [`params_from_vec`] and [`fields`].
enum Slot {
    /// An (midgame, endgame) pair: two values.
    Pair(&'static str, u8, fn(&mut Params) -> &mut S),
    /// One value.
    One(&'static str, u8, fn(&mut Params) -> &mut i32),
}

fn slots() -> Vec<Slot> {
    use Slot::*;
    // Values only the orthodox evaluation reads (Genesis has its own pawns,
    // King and Rook terms).
    let orthodox_pawn = ALL & !GENESIS;
    vec![
        Pair("material.pawn", orthodox_pawn, |p| &mut p.material[0]),
        Pair("material.knight", ALL, |p| &mut p.material[1]),
        Pair("material.bishop", ALL, |p| &mut p.material[2]),
        Pair("material.rook", ALL, |p| &mut p.material[3]),
        Pair("material.queen", ALL, |p| &mut p.material[4]),
        Pair("material.genie", GENIE, |p| &mut p.material[6]),
        Pair("clown.ah", CLOWN, |p| &mut p.clown_by_file[0]),
        Pair("clown.bg", CLOWN, |p| &mut p.clown_by_file[1]),
        Pair("clown.cf", CLOWN, |p| &mut p.clown_by_file[2]),
        Pair("clown.d", CLOWN, |p| &mut p.clown_by_file[3]),
        Pair("clown.e", CLOWN, |p| &mut p.clown_by_file[4]),
        Pair("mobility.knight", ALL, |p| &mut p.mobility[1]),
        Pair("mobility.bishop", ALL, |p| &mut p.mobility[2]),
        Pair("mobility.rook", ALL, |p| &mut p.mobility[3]),
        Pair("mobility.queen", ALL, |p| &mut p.mobility[4]),
        Pair("mobility.genie", GENIE, |p| &mut p.mobility[6]),
        Pair("mobility.clown", CLOWN, |p| &mut p.mobility[7]),
        Pair("bishop_pair", ALL, |p| &mut p.bishop_pair),
        Pair("doubled_pawn", orthodox_pawn, |p| &mut p.doubled_pawn),
        Pair("isolated_pawn", orthodox_pawn, |p| &mut p.isolated_pawn),
        One("tempo", ALL, |p| &mut p.tempo),
        Pair("genie.flip_right", GENIE, |p| &mut p.flip_right),
        One("clown.reentry_pct", CLOWN, |p| &mut p.reentry_pct),
        Pair("clown.declare_right", CLOWN, |p| &mut p.declare_right),
        Pair("genesis.pawn", GENESIS, |p| &mut p.genesis_pawn),
        Pair("genesis.reserve.pawn", GENESIS, |p| &mut p.reserve[0]),
        Pair("genesis.reserve.knight", GENESIS, |p| &mut p.reserve[1]),
        Pair("genesis.reserve.bishop", GENESIS, |p| &mut p.reserve[2]),
        Pair("genesis.reserve.rook", GENESIS, |p| &mut p.reserve[3]),
        Pair("genesis.reserve.queen", GENESIS, |p| &mut p.reserve[4]),
        Pair("ring.power.knight", MAGICRING, |p| &mut p.ring_power[1]),
        Pair("ring.power.bishop", MAGICRING, |p| &mut p.ring_power[2]),
        Pair("ring.power.rook", MAGICRING, |p| &mut p.ring_power[3]),
        Pair("ring.power.queen", MAGICRING, |p| &mut p.ring_power[4]),
        Pair("ring.power.king", MAGICRING, |p| &mut p.ring_power[5]),
        One("ring.on_king_pct", MAGICRING, |p| &mut p.ring_on_king_pct),
        Pair("pawn_rank.3", orthodox_pawn, |p| &mut p.pawn_rank[2]),
        Pair("pawn_rank.4", orthodox_pawn, |p| &mut p.pawn_rank[3]),
        Pair("pawn_rank.5", orthodox_pawn, |p| &mut p.pawn_rank[4]),
        Pair("pawn_rank.6", orthodox_pawn, |p| &mut p.pawn_rank[5]),
        Pair("pawn_rank.7", orthodox_pawn, |p| &mut p.pawn_rank[6]),
        One("pawn_center", orthodox_pawn, |p| &mut p.pawn_center),
        Pair("passed.2", orthodox_pawn, |p| &mut p.passed[1]),
        Pair("passed.3", orthodox_pawn, |p| &mut p.passed[2]),
        Pair("passed.4", orthodox_pawn, |p| &mut p.passed[3]),
        Pair("passed.5", orthodox_pawn, |p| &mut p.passed[4]),
        Pair("passed.6", orthodox_pawn, |p| &mut p.passed[5]),
        Pair("passed.7", orthodox_pawn, |p| &mut p.passed[6]),
        Pair("center_slope.knight", ALL, |p| &mut p.center_slope[1]),
        Pair("center_slope.bishop", ALL, |p| &mut p.center_slope[2]),
        Pair("center_slope.queen", ALL, |p| &mut p.center_slope[4]),
        One("center_slope.king.eg", orthodox_pawn, |p| &mut p.center_slope[5].1),
        Pair("center_slope.genie", GENIE, |p| &mut p.center_slope[6]),
        Pair("center_slope.clown", CLOWN, |p| &mut p.center_slope[7]),
        One("rook_seventh", orthodox_pawn, |p| &mut p.rook_seventh),
        One("rook_center_file", orthodox_pawn, |p| &mut p.rook_center_file),
        One("king_wing", orthodox_pawn, |p| &mut p.king_wing),
        One("king_rank", orthodox_pawn, |p| &mut p.king_rank),
        One("king_attack", ALL, |p| &mut p.king_attack),
        One("pawn_shield", orthodox_pawn, |p| &mut p.pawn_shield),
    ]
}

/// The tunable values, in flat order.
pub fn fields() -> Vec<Field> {
    let mut out = Vec::new();
    for s in slots() {
        match s {
            Slot::Pair(n, m, _) => {
                out.push(Field { name: format!("{n}.mg"), variants: m });
                out.push(Field { name: format!("{n}.eg"), variants: m });
            }
            Slot::One(n, m, _) => out.push(Field { name: n.to_string(), variants: m }),
        }
    }
    out
}

/// `p`'s tunable values in flat order.
pub fn params_to_vec(p: &Params) -> Vec<i32> {
    let mut p = p.clone();
    let mut out = Vec::new();
    for s in slots() {
        match s {
            Slot::Pair(_, _, f) => {
                let v = *f(&mut p);
                out.extend([v.0, v.1]);
            }
            Slot::One(_, _, f) => out.push(*f(&mut p)),
        }
    }
    out
}

/// `base` with its tunable values replaced by `v` (flat order).
pub fn params_from_vec(base: &Params, v: &[i32]) -> Params {
    let mut p = base.clone();
    let mut i = 0;
    for s in slots() {
        match s {
            Slot::Pair(_, _, f) => {
                *f(&mut p) = S(v[i], v[i + 1]);
                i += 2;
            }
            Slot::One(_, _, f) => {
                *f(&mut p) = v[i];
                i += 1;
            }
        }
    }
    p
}

/// A labelled position.
pub struct Sample {
    pub pos: AnyPosition,
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f32,
    /// Index of `pos.variant()` in `Variant::ALL`.
    pub variant: u8,
}

/// Positions for training and for validation.
#[derive(Default)]
pub struct Dataset {
    pub train: Vec<Sample>,
    pub validation: Vec<Sample>,
    pub games: usize,
    /// Games that could not be replayed or had no result (skipped).
    pub skipped_games: usize,
}

impl Dataset {
    /// Adds the positions of every game in `pgn`. Every `validation`-th
    /// pair of games (counting across calls; `chimera match` plays each
    /// opening twice, once with each colour, and between copies of one
    /// deterministic engine the two games are the same) goes to the
    /// validation set (0 = none).
    /// `extra_skip` plies are skipped after the game's random opening
    /// (tag `OpeningPlies`).
    pub fn add_pgn(&mut self, pgn: &str, validation: usize, extra_skip: usize, seen: &mut HashSet<u64>) {
        for g in read_pgn(pgn) {
            match g {
                Ok(g) if self.add_game(&g, validation, extra_skip, seen) => {}
                _ => self.skipped_games += 1,
            }
        }
    }

    /// Adds the positions of every game of a `chimera datagen` file (its
    /// bytes; see [`crate::datagen`]). The records start after the random
    /// opening, so only `extra_skip` plies are skipped. Returns how many
    /// games were added; a corrupt file is an error.
    pub fn add_records(
        &mut self,
        bytes: &[u8],
        validation: usize,
        extra_skip: usize,
        seen: &mut HashSet<u64>,
    ) -> Result<usize, String> {
        let games = crate::datagen::read_records(bytes)?;
        for g in &games {
            self.add_moves(g.start.clone(), &g.moves, g.result, extra_skip, validation, seen);
        }
        Ok(games.len())
    }

    fn add_game(&mut self, g: &PgnGame, validation: usize, extra_skip: usize, seen: &mut HashSet<u64>) -> bool {
        let result = match g.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => return false,
        };
        let Ok((start, moves)) = g.replay() else {
            return false;
        };
        let skip = g.tag("OpeningPlies").and_then(|s| s.parse::<usize>().ok()).unwrap_or(0) + extra_skip;
        self.add_moves(start, &moves, result, skip, validation, seen);
        true
    }

    /// Adds the quiet positions of one replayed game (rules in the module
    /// documentation), from ply `skip` on.
    fn add_moves(
        &mut self,
        start: AnyPosition,
        moves: &[Move],
        result: f32,
        skip: usize,
        validation: usize,
        seen: &mut HashSet<u64>,
    ) {
        let held_out = validation > 0 && (self.games / 2) % validation == validation - 1;
        self.games += 1;
        let variant = Variant::ALL.iter().position(|&v| v == start.variant()).unwrap_or(0) as u8;
        let mut pos = start;
        let mut prev_capture = false;
        for (ply, &m) in moves.iter().enumerate() {
            let capture = pos.is_capture(m);
            let quiet = !capture && !matches!(m.kind, MoveKind::Promotion(_)) && !prev_capture;
            if ply >= skip && quiet && !pos.is_check() && seen.insert(pos.hash() ^ variant as u64) {
                let sample = Sample { pos: pos.clone(), result, variant };
                if held_out {
                    self.validation.push(sample);
                } else {
                    self.train.push(sample);
                }
            }
            prev_capture = capture;
            pos.play_unchecked(m);
        }
    }

    /// Positions per variant in the training set (order of `Variant::ALL`).
    pub fn counts(&self) -> [usize; 6] {
        let mut c = [0; 6];
        for s in &self.train {
            c[s.variant as usize] += 1;
        }
        c
    }
}

/// The evaluation of `pos` for White with the values `p`.
pub fn white_eval(p: &Params, pos: &AnyPosition) -> i32 {
    let (v, turn) = with_position!(pos, q => (q.evaluate_with(p), q.turn()));
    if turn == Color::White {
        v
    } else {
        -v
    }
}

fn sigmoid(e: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Sum of squared errors per variant over `samples` (only the variants in
/// `mask` are evaluated; the others stay 0), spread over `threads`.
fn error_sums(samples: &[Sample], p: &Params, k: f64, mask: u8, threads: usize) -> [f64; 6] {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<[f64; 6]> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut e = [0f64; 6];
                    for s in part {
                        if mask & (1 << s.variant) == 0 {
                            continue;
                        }
                        let d = s.result as f64 - sigmoid(white_eval(p, &s.pos) as f64, k);
                        e[s.variant as usize] += d * d;
                    }
                    e
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or([0.0; 6])).collect()
    });
    let mut e = [0f64; 6];
    for part in parts {
        for i in 0..6 {
            e[i] += part[i];
        }
    }
    e
}

/// Mean squared error of the prediction over `samples`.
pub fn mean_error(samples: &[Sample], p: &Params, k: f64, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    error_sums(samples, p, k, ALL, threads).iter().sum::<f64>() / samples.len() as f64
}

/// Mean squared error per variant (order of `Variant::ALL`; 0 when a
/// variant has no sample).
pub fn variant_errors(samples: &[Sample], p: &Params, k: f64, threads: usize) -> [f64; 6] {
    let sums = error_sums(samples, p, k, ALL, threads);
    let mut counts = [0usize; 6];
    for s in samples {
        counts[s.variant as usize] += 1;
    }
    let mut out = [0.0; 6];
    for i in 0..6 {
        if counts[i] > 0 {
            out[i] = sums[i] / counts[i] as f64;
        }
    }
    out
}

/// The scaling constant `K` that minimises the error with the values `p`
/// (golden-section search on [0.05, 4]).
pub fn fit_k(samples: &[Sample], p: &Params, threads: usize) -> f64 {
    let (mut a, mut b) = (0.05f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let f = |k: f64| mean_error(samples, p, k, threads);
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > 1e-3 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// Progress of [`tune`]: after each pass, the step and the training error.
pub struct Progress {
    pub pass: usize,
    pub step: i32,
    pub error: f64,
    pub changed: usize,
}

/// What [`tune`] fits and how hard it holds the values to their start.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// First step of the local search, halved whenever a pass changes
    /// nothing; the search ends after the pass at step 1 that changes
    /// nothing, or after `max_passes`.
    pub first_step: i32,
    pub max_passes: usize,
    /// Only the values whose name starts with one of these (empty = all).
    pub only: Vec<String>,
    /// Weight of the prior: the objective is the mean squared error plus
    /// `prior · Σ ((value − start) / 100)²`, so a value moves far from its
    /// hand-set start only when the data clearly asks for it (self-play
    /// positions of one game are strongly correlated; without the prior,
    /// values the data barely identifies drift to compensate each other).
    pub prior: f64,
    pub threads: usize,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions { first_step: 8, max_passes: 100, only: Vec::new(), prior: 0.0, threads: 1 }
    }
}

/// Texel's local search from `start` (see the module text and [`TuneOptions`]).
pub fn tune(
    samples: &[Sample],
    start: &Params,
    k: f64,
    opts: &TuneOptions,
    on_pass: &mut dyn FnMut(&Progress),
) -> Params {
    let threads = opts.threads;
    let fields = fields();
    let origin = params_to_vec(start);
    let mut values = origin.clone();
    let mut sums = error_sums(samples, start, k, ALL, threads);
    let n = samples.len().max(1) as f64;
    let prior = |i: usize, v: i32| {
        let d = (v - origin[i]) as f64 / 100.0;
        opts.prior * d * d
    };
    let active: Vec<bool> = fields
        .iter()
        .map(|f| opts.only.is_empty() || opts.only.iter().any(|o| f.name.starts_with(o.as_str())))
        .collect();
    let mut step = opts.first_step.max(1);
    for pass in 1..=opts.max_passes {
        let mut changed = 0;
        for (i, f) in fields.iter().enumerate() {
            if !active[i] {
                continue;
            }
            let current = sums.iter().sum::<f64>() / n + prior(i, values[i]);
            let mut best: Option<(i32, [f64; 6])> = None;
            for delta in [step, -step] {
                let mut trial = values.clone();
                trial[i] += delta;
                let p = params_from_vec(start, &trial);
                let part = error_sums(samples, &p, k, f.variants, threads);
                let mut total = sums;
                for v in 0..6 {
                    if f.variants & (1 << v) != 0 {
                        total[v] = part[v];
                    }
                }
                if total.iter().sum::<f64>() / n + prior(i, trial[i]) < current - 1e-12 {
                    best = Some((delta, total));
                    break;
                }
            }
            if let Some((delta, total)) = best {
                values[i] += delta;
                sums = total;
                changed += 1;
            }
        }
        on_pass(&Progress { pass, step, error: sums.iter().sum::<f64>() / n, changed });
        if changed == 0 {
            if step == 1 {
                break;
            }
            step = (step / 2).max(1);
        }
    }
    params_from_vec(start, &values)
}

/// `p` as the Rust source of the `PARAMS` constant in `eval.rs`.
pub fn params_source(p: &Params) -> String {
    let s = |x: S| format!("S({}, {})", x.0, x.1);
    let list = |xs: &[S]| xs.iter().map(|&x| s(x)).collect::<Vec<_>>().join(", ");
    format!(
        "pub const PARAMS: Params = Params {{\n    material: [{}],\n    clown_by_file: [{}],\n    mobility: [{}],\n    bishop_pair: {},\n    doubled_pawn: {},\n    isolated_pawn: {},\n    tempo: {},\n    flip_right: {},\n    reentry_pct: {},\n    declare_right: {},\n    genesis_pawn: {},\n    reserve: [{}],\n    ring_power: [{}],\n    ring_on_king_pct: {},\n    pawn_rank: [{}],\n    pawn_center: {},\n    passed: [{}],\n    center_slope: [{}],\n    rook_seventh: {},\n    rook_center_file: {},\n    king_wing: {},\n    king_rank: {},\n    king_attack: {},\n    pawn_shield: {},\n}};\n",
        list(&p.material),
        list(&p.clown_by_file),
        list(&p.mobility),
        s(p.bishop_pair),
        s(p.doubled_pawn),
        s(p.isolated_pawn),
        p.tempo,
        s(p.flip_right),
        p.reentry_pct,
        s(p.declare_right),
        s(p.genesis_pawn),
        list(&p.reserve),
        list(&p.ring_power),
        p.ring_on_king_pct,
        list(&p.pawn_rank),
        p.pawn_center,
        list(&p.passed),
        list(&p.center_slope),
        p.rook_seventh,
        p.rook_center_file,
        p.king_wing,
        p.king_rank,
        p.king_attack,
        p.pawn_shield,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::PARAMS;

    #[test]
    fn flat_order_round_trips_and_names_are_unique() {
        let v = params_to_vec(&PARAMS);
        assert_eq!(v.len(), fields().len());
        assert_eq!(params_from_vec(&PARAMS, &v), PARAMS);
        let mut bumped = v.clone();
        for x in bumped.iter_mut() {
            *x += 1;
        }
        assert_eq!(params_to_vec(&params_from_vec(&PARAMS, &bumped)), bumped);
        let names: HashSet<String> = fields().into_iter().map(|f| f.name).collect();
        assert_eq!(names.len(), v.len());
    }

    /// Each value really moves the evaluation of the variants its mask names
    /// (so a wrong mask would freeze a value or waste work): changing it by
    /// 50 changes the evaluation of at least one hand-picked position.
    #[test]
    fn every_value_moves_some_position_of_its_variants() {
        let o = chimera_rules::RuleOptions::default();
        let fens: [(Variant, &str); 6] = [
            (Variant::Chess, "r1bqkb1r/pp3ppp/2n2n2/3pp3/3P4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 0 6"),
            (Variant::Chess, "4k3/p7/8/8/8/P7/P1P5/2B1KB2 w - - 0 1"),
            (Variant::Genie, "rnbqkbnr/pppppppp/8/8/3G4/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            (Variant::Genesis, "8/8/3k4/8/2P5/3K4/8/8[QRBNPqrbnp] w - - 0 1"),
            (Variant::Clown, "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[N] w KQkq - 0 1"),
            (Variant::MagicRing, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1 rings:a1.1,e8.0"),
        ];
        let positions: Vec<AnyPosition> = fens.iter().map(|(v, f)| AnyPosition::from_fen(*v, f, &o).unwrap()).collect();
        // Extra positions for the values the seven above do not touch.
        let mut extra = Vec::new();
        for (v, f) in [
            (Variant::Chess, "4k3/8/8/8/8/8/8/RQ2K3 w - - 0 1"),
            (Variant::Genie, "4k3/p7/8/8/3G4/8/P7/4K3 w - - 0 1"),
            (Variant::Chess, "4k3/1P6/2P5/3P4/4P3/5P2/6P1/4K3 w - - 0 1"),
            (Variant::Chess, "r3k3/1P6/2P5/3P4/4P3/5P2/6P1/R2QKR2 w - - 0 1"),
            (Variant::Chess, "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R w - - 0 1"),
            (Variant::Chess, "6k1/R5pp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
            (Variant::Chess, "6k1/5ppp/8/8/8/8/8/3RK3 w - - 0 1"),
            (Variant::Chess, "8/8/8/3k4/8/8/P7/K7 w - - 0 1"),
            (Variant::Chess, "3qk3/8/8/8/8/4K3/8/3Q4 w - - 0 1"),
            (Variant::Genie, "4k3/p7/8/8/G7/8/P7/4K3 w - - 0 1"),
            (Variant::Chess, "r5k1/5ppp/3Q4/8/4N3/8/8/4KR2 w - - 0 1"),
            (Variant::Genesis, "8/8/3k4/8/2P5/3K4/8/8[QRBNP] w - - 0 1"),
            (Variant::MagicRing, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 rings:a1.2,e8.0"),
            (Variant::MagicRing, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1 rings:a1.3,e8.0"),
            (Variant::MagicRing, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1 rings:a1.4,e8.0"),
            (Variant::MagicRing, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1"),
            (Variant::MagicRing, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1 rings:a1.1,e8.0 powers:QNRBK"),
        ] {
            if let Ok(p) = AnyPosition::from_fen(v, f, &o) {
                extra.push(p);
            }
        }
        let o5 = chimera_rules::RuleOptions { ring_powers: "QNRBK".parse().unwrap() };
        extra.push(
            AnyPosition::from_fen(Variant::MagicRing, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1 rings:a1.5,e8.0", &o5).unwrap(),
        );
        for file in "abcde".chars() {
            let fen = format!(
                "rnbqkbnr/pppppppp/8/8/{}/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1 clown:w",
                match file {
                    'a' => "C7",
                    'b' => "1C6",
                    'c' => "2C5",
                    'd' => "3C4",
                    _ => "4C3",
                }
            );
            extra.push(AnyPosition::from_fen(Variant::Clown, &fen.replace("R1BQKBNR", "R2QKBNR"), &o).unwrap());
        }
        let all: Vec<&AnyPosition> = positions.iter().chain(extra.iter()).collect();
        let base = params_to_vec(&PARAMS);
        let mut frozen = Vec::new();
        for (i, f) in fields().iter().enumerate() {
            let mut v = base.clone();
            v[i] += 50;
            let p = params_from_vec(&PARAMS, &v);
            let moved = all.iter().any(|pos| {
                f.variants & variant_bit(pos.variant()) != 0 && white_eval(&p, pos) != white_eval(&PARAMS, pos)
            });
            if !moved {
                frozen.push(f.name.clone());
            }
        }
        assert!(frozen.is_empty(), "values that move no position of their variants: {frozen:?}");
    }

    /// The tuner finds a value the data implies: games where White is a
    /// Knight up are all won, games a Bishop up drawn; from a Knight worth
    /// 1, tuning must raise it far above the Bishop's.
    #[test]
    fn tuning_recovers_what_the_results_say() {
        let o = chimera_rules::RuleOptions::default();
        let mut samples = Vec::new();
        let knight_up =
            ["4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K1N1 b - - 0 1", "3k4/8/8/8/8/5N2/8/4K3 w - - 0 1"];
        let bishop_up =
            ["4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "4k3/8/8/8/8/8/8/4KB2 b - - 0 1", "3k4/8/8/8/8/4B3/8/4K3 w - - 0 1"];
        for (fens, r) in [(knight_up, 1.0), (bishop_up, 0.5)] {
            for f in fens {
                samples.push(Sample {
                    pos: AnyPosition::from_fen(Variant::Chess, f, &o).unwrap(),
                    result: r,
                    variant: 0,
                });
            }
        }
        let mut start = PARAMS.clone();
        start.material[1] = S(1, 1);
        let before = mean_error(&samples, &start, 1.0, 1);
        let opts = TuneOptions { first_step: 64, max_passes: 200, ..Default::default() };
        let tuned = tune(&samples, &start, 1.0, &opts, &mut |_| {});
        let after = mean_error(&samples, &tuned, 1.0, 1);
        assert!(after < before / 2.0, "{before} -> {after}");
        assert!(tuned.material[1].1 > tuned.material[2].1 + 200, "{:?}", tuned.material);
        let k = fit_k(&samples, &tuned, 2);
        assert!(k > 0.05 && k < 4.0);
    }

    /// `only` freezes every other value; a strong prior keeps even the
    /// named value at its start when the data asks for little.
    #[test]
    fn only_and_prior_hold_values() {
        let o = chimera_rules::RuleOptions::default();
        let samples: Vec<Sample> = ["4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "3k4/8/8/8/8/5N2/8/4K3 w - - 0 1"]
            .iter()
            .map(|f| Sample { pos: AnyPosition::from_fen(Variant::Chess, f, &o).unwrap(), result: 1.0, variant: 0 })
            .collect();
        let only = TuneOptions { only: vec!["material.knight".into()], ..Default::default() };
        let t = tune(&samples, &PARAMS, 1.0, &only, &mut |_| {});
        let (a, b) = (params_to_vec(&PARAMS), params_to_vec(&t));
        for (f, (x, y)) in fields().iter().zip(a.iter().zip(&b)) {
            if !f.name.starts_with("material.knight") {
                assert_eq!(x, y, "{} moved", f.name);
            }
        }
        assert!(t.material[1].1 > PARAMS.material[1].1);
        let held = TuneOptions { prior: 1000.0, ..only };
        assert_eq!(tune(&samples, &PARAMS, 1.0, &held, &mut |_| {}), PARAMS);
    }

    #[test]
    fn games_become_quiet_samples_with_results() {
        let pgn = "[Variant \"chess\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Nxd5 6. Nxf7 Kxf7 1-0\n\n[Variant \"chess\"]\n[Result \"*\"]\n\n1. e4 *\n";
        let mut d = Dataset::default();
        let mut seen = HashSet::new();
        d.add_pgn(pgn, 0, 0, &mut seen);
        assert_eq!((d.games, d.skipped_games), (1, 1));
        // 12 plies; the last four are captures, so only the positions
        // before the first eight moves are kept.
        assert!(d.train.iter().all(|s| s.result == 1.0 && !s.pos.is_check()));
        assert_eq!(d.train.len(), 8);
        assert_eq!(d.counts()[0], 8);
    }
}
