//! Texel tuning of [`Params`]: the evaluation's values are fitted to game
//! results by gradient descent. Method (`docs/engine.md`, "Tuning"):
//!
//! 1. Positions come from self-play games (PGN, or the binary records of
//!    `chimera datagen`, replayed by the rules library). Kept: after the
//!    random opening plies, side to move not in check, the game's move from
//!    it not a capture or promotion, and the move before not a capture (so
//!    no exchange is pending and the static evaluation means something);
//!    each position once.
//! 2. Each position is labelled with its game's result `r` (1, ½, 0 for
//!    White) and predicted by `σ(e) = 1 / (1 + 10^(−K·e/400))`, `e` the
//!    evaluation for White. The error is the mean of `(r − σ(e))²`.
//! 3. The evaluation is linear in its values but for the game phase and
//!    the endgame scale ([`chimera_engine::eval::Evaluate::trace`]): each position
//!    becomes its phase, scale and the counts of its terms ([`Model`]), so
//!    the error and its exact gradient cost one pass over sparse counts.
//! 4. `K` is fitted first (golden section) with the current values, then
//!    held fixed.
//! 5. Adam over mini-batches in an order shuffled by a fixed seed, the
//!    gradient of a batch summed over threads in a fixed order (the same
//!    data, seed and thread count give the same values); an optional prior
//!    holds values near their start. After every epoch the held-out error
//!    is measured, and the values of the best epoch are returned.

use chimera_engine::eval::{Evaluate, Params, S, SCALE_NORMAL};
use chimera_engine::SplitMix;
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

/// How many variants there are: the length of the per-variant arrays.
const N: usize = Variant::ALL.len();
const ALL: u8 = ((1u16 << N) - 1) as u8;
const GENIE: u8 = 0b110;
const GENESIS: u8 = 1 << 3;
const CLOWN: u8 = 1 << 4;
const MAGICRING: u8 = 1 << 5;
/// Variants with the orthodox board evaluation (every one but Genesis).
const ORTH: u8 = ALL & !GENESIS;

#[cfg(test)]
fn variant_bit(v: Variant) -> u8 {
    1 << Variant::ALL.iter().position(|&x| x == v).unwrap_or(0)
}

/// Where the tunable pairs live in [`Params`], in one place: the flat order
/// of [`params_to_vec`], [`params_from_vec`] and [`fields`]. Each entry is
/// a name, the variants that read it, and its pairs.
type Slot = (String, u8, fn(&mut Params) -> &mut [S]);

const ROLES: [&str; 8] = ["pawn", "knight", "bishop", "rook", "queen", "king", "genie", "clown"];

fn slots() -> Vec<Slot> {
    fn s(name: &str, m: u8, f: fn(&mut Params) -> &mut [S]) -> Slot {
        (name.to_string(), m, f)
    }
    let mut v = vec![
        s("material.pawn", ORTH, |p| &mut p.material[0..1]),
        s("material.knight", ALL, |p| &mut p.material[1..2]),
        s("material.bishop", ALL, |p| &mut p.material[2..3]),
        s("material.rook", ALL, |p| &mut p.material[3..4]),
        s("material.queen", ALL, |p| &mut p.material[4..5]),
        s("material.genie", GENIE, |p| &mut p.material[6..7]),
        s("clown.file", CLOWN, |p| &mut p.clown_by_file[..]),
        s("pst.pawn", ORTH, |p| &mut p.pst[0][..]),
        s("pst.knight", ORTH, |p| &mut p.pst[1][..]),
        s("pst.bishop", ORTH, |p| &mut p.pst[2][..]),
        s("pst.rook", ORTH, |p| &mut p.pst[3][..]),
        s("pst.queen", ORTH, |p| &mut p.pst[4][..]),
        s("pst.king", ORTH, |p| &mut p.pst[5][..]),
        s("pst.genie", GENIE, |p| &mut p.pst[6][..]),
        s("pst.clown", CLOWN, |p| &mut p.pst[7][..]),
        s("mobility.knight", ALL, |p| &mut p.mobility[1][..]),
        s("mobility.bishop", ALL, |p| &mut p.mobility[2][..]),
        s("mobility.rook", ALL, |p| &mut p.mobility[3][..]),
        s("mobility.queen", ALL, |p| &mut p.mobility[4][..]),
        s("mobility.genie", GENIE, |p| &mut p.mobility[6][..]),
        s("mobility.clown", CLOWN, |p| &mut p.mobility[7][..]),
        s("bishop_pair", ALL, |p| std::slice::from_mut(&mut p.bishop_pair)),
        s("doubled_pawn", ORTH, |p| std::slice::from_mut(&mut p.doubled_pawn)),
        s("isolated_pawn", ORTH, |p| std::slice::from_mut(&mut p.isolated_pawn)),
        s("passed", ORTH, |p| &mut p.passed[1..7]),
        s("passed_own_king", ORTH, |p| std::slice::from_mut(&mut p.passed_own_king)),
        s("passed_their_king", ORTH, |p| std::slice::from_mut(&mut p.passed_their_king)),
        s("passed_free", ORTH, |p| &mut p.passed_free[1..7]),
        s("rook_open", ORTH, |p| std::slice::from_mut(&mut p.rook_open)),
        s("rook_half_open", ORTH, |p| std::slice::from_mut(&mut p.rook_half_open)),
        s("outpost", ORTH, |p| &mut p.outpost[..]),
        s("threat_by_pawn", ALL, |p| std::slice::from_mut(&mut p.threat_by_pawn)),
        s("threat_by_minor", ALL, |p| &mut p.threat_by_minor[..]),
        s("threat_by_rook", ALL, |p| &mut p.threat_by_rook[..]),
        s("hanging", ALL, |p| std::slice::from_mut(&mut p.hanging)),
        s("king_danger", ALL, |p| &mut p.king_danger[..]),
        s("pawn_shield", ORTH, |p| &mut p.pawn_shield[..]),
        s("tempo", ALL, |p| std::slice::from_mut(&mut p.tempo)),
        s("genie.flip_right", GENIE, |p| std::slice::from_mut(&mut p.flip_right)),
        s("clown.reentry", CLOWN, |p| &mut p.reentry[..]),
        s("clown.declare_right", CLOWN, |p| std::slice::from_mut(&mut p.declare_right)),
        s("genesis.pawn", GENESIS, |p| std::slice::from_mut(&mut p.genesis_pawn)),
        s("genesis.pst.pawn", GENESIS, |p| &mut p.genesis_pst[0][..]),
        s("genesis.pst.knight", GENESIS, |p| &mut p.genesis_pst[1][..]),
        s("genesis.pst.bishop", GENESIS, |p| &mut p.genesis_pst[2][..]),
        s("genesis.pst.rook", GENESIS, |p| &mut p.genesis_pst[3][..]),
        s("genesis.pst.queen", GENESIS, |p| &mut p.genesis_pst[4][..]),
        s("genesis.pst.king", GENESIS, |p| &mut p.genesis_pst[5][..]),
        s("genesis.reserve", GENESIS, |p| &mut p.reserve[..]),
        s("genesis.drop_danger", GENESIS, |p| p.genesis_drop_danger.as_flattened_mut()),
        s("ring.power", MAGICRING, |p| &mut p.ring_power[..]),
        s("ring.king_partial", MAGICRING, |p| std::slice::from_mut(&mut p.ring_king_partial)),
        s("ring.on_king", MAGICRING, |p| &mut p.ring_on_king[..]),
    ];
    v.shrink_to_fit();
    v
}

/// The name of element `i` of a slot of `len` pairs: a square for a board
/// table, a role for a per-role array, else the index.
fn element_name(slot: &str, len: usize, i: usize) -> String {
    if len == 1 {
        slot.to_string()
    } else if len == 64 {
        format!("{slot}.{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1)
    } else if (len == 8 && !slot.starts_with("passed")) || slot == "genesis.reserve" {
        format!("{slot}.{}", ROLES[i])
    } else if slot == "genesis.drop_danger" {
        format!("{slot}.{}.{}", ROLES[i / 9], i % 9) // reserve role, open squares
    } else if slot.starts_with("passed") {
        format!("{slot}.{}", i + 2) // the slices start at rank index 1 (rank 2)
    } else {
        format!("{slot}.{i}")
    }
}

/// The tunable values, in flat order (each pair as `NAME.mg`, `NAME.eg`).
pub fn fields() -> Vec<Field> {
    let mut p = chimera_engine::eval::zero_params();
    let mut out = Vec::new();
    for (name, m, f) in slots() {
        let len = f(&mut p).len();
        for i in 0..len {
            let n = element_name(&name, len, i);
            out.push(Field { name: format!("{n}.mg"), variants: m });
            out.push(Field { name: format!("{n}.eg"), variants: m });
        }
    }
    out
}

/// `p`'s tunable values in flat order.
pub fn params_to_vec(p: &Params) -> Vec<i32> {
    let mut p = p.clone();
    let mut out = Vec::new();
    for (_, _, f) in slots() {
        for s in f(&mut p).iter() {
            out.extend([s.0, s.1]);
        }
    }
    out
}

/// `base` with its tunable values replaced by `v` (flat order).
pub fn params_from_vec(base: &Params, v: &[i32]) -> Params {
    let mut p = base.clone();
    let mut i = 0;
    for (_, _, f) in slots() {
        for s in f(&mut p).iter_mut() {
            if let (Some(&a), Some(&b)) = (v.get(i), v.get(i + 1)) {
                *s = S(a, b);
            }
            i += 2;
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
    pub fn counts(&self) -> [usize; N] {
        let mut c = [0; N];
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
fn error_sums(samples: &[Sample], p: &Params, k: f64, mask: u8, threads: usize) -> [f64; N] {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<[f64; N]> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut e = [0f64; N];
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
        handles.into_iter().map(|h| h.join().unwrap_or([0.0; N])).collect()
    });
    let mut e = [0f64; N];
    for part in parts {
        for i in 0..N {
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
pub fn variant_errors(samples: &[Sample], p: &Params, k: f64, threads: usize) -> [f64; N] {
    let sums = error_sums(samples, p, k, ALL, threads);
    let mut counts = [0usize; N];
    for s in samples {
        counts[s.variant as usize] += 1;
    }
    let mut out = [0.0; N];
    for i in 0..N {
        if counts[i] > 0 {
            out[i] = sums[i] / counts[i] as f64;
        }
    }
    out
}

/// The scaling constant `K` that minimises the error with the values `p`
/// (golden-section search on [0.05, 4]).
pub fn fit_k(samples: &[Sample], p: &Params, threads: usize) -> f64 {
    golden(|k| mean_error(samples, p, k, threads))
}

/// The positions as the tuner sees them: per position its result, variant,
/// phase, scale and the sparse counts of its terms (pair index, count; a
/// pair index `j` is the flat values `2j` (midgame) and `2j + 1` (endgame)).
#[derive(Default)]
pub struct Model {
    pub results: Vec<f32>,
    pub variants: Vec<u8>,
    pub phases: Vec<u8>,
    pub scales: Vec<u8>,
    /// Where each position's counts start in `index` and `count`.
    offsets: Vec<u32>,
    index: Vec<u16>,
    count: Vec<i16>,
}

impl Model {
    /// The traces of `samples` (their phase and scale taken with the
    /// engine's values), spread over `threads`.
    pub fn new(samples: &[Sample], threads: usize) -> Model {
        let chunk = samples.len().div_ceil(threads.max(1)).max(1);
        let parts: Vec<Model> = std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        let mut m = Model::default();
                        for s in part {
                            m.push(s);
                        }
                        m
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
        });
        let mut m = Model { offsets: vec![0], ..Default::default() };
        for part in parts {
            let base = m.index.len() as u32;
            m.results.extend(part.results);
            m.variants.extend(part.variants);
            m.phases.extend(part.phases);
            m.scales.extend(part.scales);
            m.offsets.extend(part.offsets.iter().skip(1).map(|o| o + base));
            m.index.extend(part.index);
            m.count.extend(part.count);
        }
        m
    }

    fn push(&mut self, s: &Sample) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        let t = with_position!(&s.pos, q => q.trace());
        let counts = params_to_vec(&t.counts);
        for (j, pair) in counts.chunks(2).enumerate() {
            if pair[0] != 0 {
                self.index.push(j as u16);
                self.count.push(pair[0].clamp(i16::MIN as i32, i16::MAX as i32) as i16);
            }
        }
        self.offsets.push(self.index.len() as u32);
        self.results.push(s.result);
        self.variants.push(s.variant);
        self.phases.push(t.phase as u8);
        self.scales.push(t.scale as u8);
    }

    pub fn len(&self) -> usize {
        self.results.len()
    }

    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// The evaluation for White of position `i` with the flat values `v`.
    pub fn eval(&self, i: usize, v: &[f64]) -> f64 {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        let (mut mg, mut eg) = (0.0, 0.0);
        for k in a..b {
            let (j, c) = (self.index[k] as usize, self.count[k] as f64);
            mg += c * v[2 * j];
            eg += c * v[2 * j + 1];
        }
        let ph = self.phases[i] as f64;
        (mg * ph + eg * self.scales[i] as f64 / SCALE_NORMAL as f64 * (24.0 - ph)) / 24.0
    }

    /// Mean squared error with the flat values `v` (0 when empty).
    pub fn error(&self, v: &[f64], k: f64) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        (0..self.len())
            .map(|i| {
                let d = self.results[i] as f64 - sigmoid(self.eval(i, v), k);
                d * d
            })
            .sum::<f64>()
            / self.len() as f64
    }

    /// Adds to `grad` the gradient of the summed squared error of the
    /// positions `ids`; returns that sum.
    fn gradient(&self, ids: &[u32], v: &[f64], k: f64, grad: &mut [f64]) -> f64 {
        let mut sum = 0.0;
        let dk = k * std::f64::consts::LN_10 / 400.0;
        for &i in ids {
            let i = i as usize;
            let s = sigmoid(self.eval(i, v), k);
            let d = s - self.results[i] as f64;
            sum += d * d;
            let g = 2.0 * d * s * (1.0 - s) * dk;
            let ph = self.phases[i] as f64;
            let (gm, ge) = (g * ph / 24.0, g * (24.0 - ph) / 24.0 * self.scales[i] as f64 / SCALE_NORMAL as f64);
            for kk in self.offsets[i] as usize..self.offsets[i + 1] as usize {
                let (j, c) = (self.index[kk] as usize, self.count[kk] as f64);
                grad[2 * j] += gm * c;
                grad[2 * j + 1] += ge * c;
            }
        }
        sum
    }
}

/// Progress of [`tune`]: after each epoch, the training and held-out error.
pub struct Progress {
    pub epoch: usize,
    pub error: f64,
    pub validation: f64,
}

/// What [`tune`] fits and how.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's step size, in centipawns.
    pub learning_rate: f64,
    /// Only the values whose name starts with one of these (empty = all).
    pub only: Vec<String>,
    /// Weight of the prior: the objective is the mean squared error plus
    /// `prior · Σ ((value − start) / 100)²`, so a value moves far from its
    /// start only when the data clearly asks for it (self-play positions of
    /// one game are strongly correlated; without the prior, values the
    /// data barely identifies drift to compensate each other).
    pub prior: f64,
    /// Seed of the order of the positions.
    pub seed: u64,
    pub threads: usize,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions { epochs: 20, batch: 16384, learning_rate: 1.0, only: Vec::new(), prior: 0.0, seed: 1, threads: 1 }
    }
}

/// The scaling constant `K` that minimises the model's error with the
/// values `p` (golden-section search on [0.05, 4]).
pub fn fit_k_model(m: &Model, p: &Params) -> f64 {
    let v: Vec<f64> = params_to_vec(p).iter().map(|&x| x as f64).collect();
    golden(|k| m.error(&v, k))
}

fn golden(f: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (0.05f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
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

/// Adam from `start` on the positions of `train` (see the module text and
/// [`TuneOptions`]); `validation` (may be empty) picks the best epoch.
pub fn tune(
    train: &Model,
    validation: &Model,
    start: &Params,
    k: f64,
    opts: &TuneOptions,
    on_epoch: &mut dyn FnMut(&Progress),
) -> Params {
    let fields = fields();
    let origin: Vec<f64> = params_to_vec(start).iter().map(|&x| x as f64).collect();
    let active: Vec<bool> = fields
        .iter()
        .map(|f| opts.only.is_empty() || opts.only.iter().any(|o| f.name.starts_with(o.as_str())))
        .collect();
    let n = origin.len();
    let mut v = origin.clone();
    let (mut m1, mut m2) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut t = 0i32;
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = SplitMix(opts.seed);
    let threads = opts.threads.max(1);
    let batch = opts.batch.max(1);
    let mut best = (validation.error(&v, k), v.clone());
    if validation.is_empty() {
        best.0 = f64::INFINITY;
    }
    for epoch in 1..=opts.epochs {
        // Fisher-Yates with the fixed seed.
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
        }
        let mut sum = 0.0;
        for ids in order.chunks(batch) {
            let part = ids.len().div_ceil(threads).max(1);
            let grads: Vec<(Vec<f64>, f64)> = std::thread::scope(|scope| {
                let handles: Vec<_> = ids
                    .chunks(part)
                    .map(|chunk| {
                        let v = &v;
                        scope.spawn(move || {
                            let mut g = vec![0.0; n];
                            let e = train.gradient(chunk, v, k, &mut g);
                            (g, e)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or_else(|_| (vec![0.0; n], 0.0))).collect()
            });
            let mut g = vec![0.0; n];
            for (part, e) in grads {
                sum += e;
                for (a, b) in g.iter_mut().zip(part) {
                    *a += b;
                }
            }
            t += 1;
            let scale = 1.0 / ids.len() as f64;
            for i in 0..n {
                if !active[i] {
                    continue;
                }
                let gi = g[i] * scale + 2.0 * opts.prior * (v[i] - origin[i]) / 10_000.0;
                m1[i] = b1 * m1[i] + (1.0 - b1) * gi;
                m2[i] = b2 * m2[i] + (1.0 - b2) * gi * gi;
                let mh = m1[i] / (1.0 - b1.powi(t));
                let vh = m2[i] / (1.0 - b2.powi(t));
                v[i] -= opts.learning_rate * mh / (vh.sqrt() + eps);
            }
        }
        let err = sum / train.len().max(1) as f64;
        let val = validation.error(&v, k);
        on_epoch(&Progress { epoch, error: err, validation: val });
        if validation.is_empty() || val < best.0 {
            best = (val, v.clone());
        }
    }
    let rounded: Vec<i32> = best.1.iter().map(|x| x.round() as i32).collect();
    params_from_vec(start, &rounded)
}

/// Values a row of [`params_source`]: a table by square is a row per rank.
const ROW: usize = 8;

/// `s` as Rust source.
fn s_source(s: &S) -> String {
    format!("S({}, {})", s.0, s.1)
}

/// A list of values at `indent` spaces: on one line when it holds at most
/// [`ROW`] values, else [`ROW`] a line.
fn list_source(xs: &[S], indent: usize) -> String {
    let items: Vec<String> = xs.iter().map(s_source).collect();
    if xs.len() <= ROW {
        return format!("[{}]", items.join(", "));
    }
    let pad = " ".repeat(indent + 4);
    let rows: String = items.chunks(ROW).map(|r| format!("{pad}{},\n", r.join(", "))).collect();
    format!("[\n{rows}{}]", " ".repeat(indent))
}

/// A table (a list of lists) at `indent` spaces: a list a line or a block.
fn table_source<const N: usize>(rows: &[[S; N]], indent: usize) -> String {
    let pad = " ".repeat(indent + 4);
    let body: String = rows.iter().map(|r| format!("{pad}{},\n", list_source(r, indent + 4))).collect();
    format!("[\n{body}{}]", " ".repeat(indent))
}

/// `p` as the Rust source of `crates/engine/src/eval/values.rs`, the file
/// that holds the values the engine plays with (`chimera tune --out`
/// writes it; a test checks that the file in the tree is what this
/// writes for its values).
pub fn params_source(p: &Params) -> String {
    let mut o = String::from(
        "//! The values the engine plays with, generated: `chimera tune --out FILE`\n\
         //! writes this file (`chimera_train::tune::params_source`); fit and data in\n\
         //! `docs/engine.md`, \"Tuning\". Eight values a row; a table by square is\n\
         //! a row per rank, rank 1 first.\n\n\
         use super::{Params, S};\n\n\
         /// The values the engine plays with ([`Params`]).\n\
         #[rustfmt::skip]\n\
         pub const PARAMS: Params = Params {\n",
    );
    let mut line = |name: &str, v: String| o.push_str(&format!("    {name}: {v},\n"));
    line("material", list_source(&p.material, 4));
    line("clown_by_file", list_source(&p.clown_by_file, 4));
    line("pst", table_source(&p.pst, 4));
    line("mobility", table_source(&p.mobility, 4));
    line("bishop_pair", s_source(&p.bishop_pair));
    line("doubled_pawn", s_source(&p.doubled_pawn));
    line("isolated_pawn", s_source(&p.isolated_pawn));
    line("passed", list_source(&p.passed, 4));
    line("passed_own_king", s_source(&p.passed_own_king));
    line("passed_their_king", s_source(&p.passed_their_king));
    line("passed_free", list_source(&p.passed_free, 4));
    line("rook_open", s_source(&p.rook_open));
    line("rook_half_open", s_source(&p.rook_half_open));
    line("outpost", list_source(&p.outpost, 4));
    line("threat_by_pawn", s_source(&p.threat_by_pawn));
    line("threat_by_minor", list_source(&p.threat_by_minor, 4));
    line("threat_by_rook", list_source(&p.threat_by_rook, 4));
    line("hanging", s_source(&p.hanging));
    line("king_danger", list_source(&p.king_danger, 4));
    line("pawn_shield", list_source(&p.pawn_shield, 4));
    line("tempo", s_source(&p.tempo));
    line("flip_right", s_source(&p.flip_right));
    line("reentry", list_source(&p.reentry, 4));
    line("declare_right", s_source(&p.declare_right));
    line("genesis_pawn", s_source(&p.genesis_pawn));
    line("genesis_pst", table_source(&p.genesis_pst, 4));
    line("reserve", list_source(&p.reserve, 4));
    line("genesis_drop_danger", table_source(&p.genesis_drop_danger, 4));
    line("ring_power", list_source(&p.ring_power, 4));
    line("ring_king_partial", s_source(&p.ring_king_partial));
    line("ring_on_king", list_source(&p.ring_on_king, 4));
    o.push_str("};\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_engine::eval::PARAMS;
    use chimera_rules::RuleOptions;

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
        assert!(names.contains("pst.knight.e4.mg") && names.contains("mobility.queen.27.eg"));
    }

    /// Positions along seeded random playouts of every variant.
    fn random_positions(per_variant: usize, seed: u64) -> Vec<AnyPosition> {
        let mut rng = SplitMix(seed);
        let mut out = Vec::new();
        for v in Variant::ALL {
            let mut pos = AnyPosition::new(v, &RuleOptions::default());
            let mut taken = 0;
            while taken < per_variant {
                let moves = pos.legal_move_list();
                if moves.is_empty() || pos.outcome().is_some() {
                    pos = AnyPosition::new(v, &RuleOptions::default());
                    continue;
                }
                pos.play_unchecked(moves[(rng.next() % moves.len() as u64) as usize]);
                out.push(pos.clone());
                taken += 1;
            }
        }
        out
    }

    /// The trace is the evaluation: counts times values, tapered and
    /// scaled, give back the evaluation (±2 for the integer rounding), and
    /// a term counts only in the variants its mask names (a wrong mask
    /// would freeze a value or let `--only` miss it).
    #[test]
    fn traces_reproduce_the_evaluation_and_respect_the_masks() {
        let positions = random_positions(150, 11);
        let samples: Vec<Sample> = positions
            .iter()
            .map(|p| Sample {
                pos: p.clone(),
                result: 0.5,
                variant: Variant::ALL.iter().position(|&v| v == p.variant()).unwrap_or(0) as u8,
            })
            .collect();
        let m = Model::new(&samples, 2);
        let v: Vec<f64> = params_to_vec(&PARAMS).iter().map(|&x| x as f64).collect();
        let fields = fields();
        let mut used = vec![false; fields.len()];
        for (i, s) in samples.iter().enumerate() {
            let want = white_eval(&PARAMS, &s.pos) as f64;
            assert!((m.eval(i, &v) - want).abs() <= 2.0, "{}: {} vs {want}", s.pos.fen(), m.eval(i, &v));
            for k in m.offsets[i] as usize..m.offsets[i + 1] as usize {
                let f = &fields[2 * m.index[k] as usize];
                used[2 * m.index[k] as usize] = true;
                assert!(f.variants & variant_bit(s.pos.variant()) != 0, "{} counts in {}", f.name, s.pos.variant());
            }
        }
        // The new terms all occur somewhere in random play.
        for name in ["threat_by_pawn", "hanging", "king_danger", "rook_open", "passed_free", "pst.clown", "genesis.pst"]
        {
            assert!(fields.iter().zip(&used).any(|(f, &u)| u && f.name.starts_with(name)), "{name} never counted");
        }
    }

    /// The tuner recovers known values: positions labelled with the win
    /// probability of a known evaluation (a Knight 80 cp dearer, an open
    /// file 40 cp more, mobility of a Bishop flat) are fitted from the
    /// engine's values back to the known ones.
    #[test]
    fn tuning_recovers_known_values() {
        let mut truth = PARAMS.clone();
        truth.material[1] = S(PARAMS.material[1].0 + 80, PARAMS.material[1].1 + 80);
        truth.rook_open = S(PARAMS.rook_open.0 + 40, PARAMS.rook_open.1 + 40);
        let k = 1.0;
        let make = |seed| -> Vec<Sample> {
            random_positions(600, seed)
                .into_iter()
                .filter(|p| p.variant() == Variant::Chess || p.variant() == Variant::Clown)
                .map(|p| Sample {
                    result: sigmoid(white_eval(&truth, &p) as f64, k) as f32,
                    variant: Variant::ALL.iter().position(|&v| v == p.variant()).unwrap_or(0) as u8,
                    pos: p,
                })
                .collect()
        };
        let (train, val) = (Model::new(&make(1), 2), Model::new(&make(2), 2));
        let opts = TuneOptions {
            epochs: 300,
            batch: 256,
            learning_rate: 2.0,
            only: vec!["material.knight".into(), "rook_open".into()],
            prior: 0.0,
            seed: 5,
            threads: 2,
        };
        let start_err = train.error(&params_to_vec(&PARAMS).iter().map(|&x| x as f64).collect::<Vec<_>>(), k);
        let mut last = (0.0, 0.0);
        let tuned = tune(&train, &val, &PARAMS, k, &opts, &mut |p| last = (p.error, p.validation));
        assert!(last.0 < start_err / 10.0, "{start_err} -> {last:?}");
        for (got, want) in [(tuned.material[1], truth.material[1]), (tuned.rook_open, truth.rook_open)] {
            assert!((got.0 - want.0).abs() <= 6 && (got.1 - want.1).abs() <= 6, "{got:?} vs {want:?}");
        }
        // Same data, seed and threads: same values.
        assert_eq!(tune(&train, &val, &PARAMS, k, &opts, &mut |_| {}), tuned);
    }

    /// `only` freezes every other value; a strong prior keeps even the
    /// named value at its start.
    #[test]
    fn only_and_prior_hold_values() {
        let o = RuleOptions::default();
        let samples: Vec<Sample> = ["4k3/8/8/8/8/8/P7/1N2K3 w - - 0 1", "3k4/8/8/8/8/5N2/P7/4K3 w - - 0 1"]
            .iter()
            .map(|f| Sample { pos: AnyPosition::from_fen(Variant::Chess, f, &o).unwrap(), result: 1.0, variant: 0 })
            .collect();
        let m = Model::new(&samples, 1);
        let only = TuneOptions { only: vec!["material.knight".into()], epochs: 50, batch: 2, ..Default::default() };
        let t = tune(&m, &Model::default(), &PARAMS, 1.0, &only, &mut |_| {});
        let (a, b) = (params_to_vec(&PARAMS), params_to_vec(&t));
        for (f, (x, y)) in fields().iter().zip(a.iter().zip(&b)) {
            if !f.name.starts_with("material.knight") {
                assert_eq!(x, y, "{} moved", f.name);
            }
        }
        assert!(t.material[1].1 > PARAMS.material[1].1);
        let held = TuneOptions { prior: 1e7, learning_rate: 0.01, ..only };
        assert_eq!(tune(&m, &Model::default(), &PARAMS, 1.0, &held, &mut |_| {}), PARAMS);
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

    /// The generated file in the tree is what the writer writes for the
    /// engine's values (so `chimera tune --out` output drops in as is, and
    /// a hand edit of the file shows here).
    #[test]
    fn the_values_file_is_the_writers_output() {
        let file = include_str!("../../engine/src/eval/values.rs");
        let written = params_source(&PARAMS);
        if let Some((i, (a, b))) = file.lines().zip(written.lines()).enumerate().find(|(_, (a, b))| a != b) {
            panic!("line {}: the file has\n{a}\nthe writer\n{b}", i + 1);
        }
        assert_eq!(file, written);
    }
}
