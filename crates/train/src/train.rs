//! Training the network evaluation ([`chimera_engine::nnue`]) on a CPU from
//! `chimera datagen` records (`chimera train`).
//!
//! - **Positions**: every game of the records in the chosen variant is
//!   replayed; a position is kept when it is `skip` plies or more past the
//!   random opening, the side to move is not in check, the move played from
//!   it (the engine's choice) is neither a capture nor a promotion, and its
//!   search score is not a mate. Every `validation`-th game is held out.
//! - **Shape**: the hidden width, the output layer's activation (CReLU or
//!   SCReLU), its number of buckets and the number of king buckets
//!   ([`chimera_engine::nnue::Shape`]): a new net takes them from the
//!   [`Trainer::new`] call, a fine-tuned one keeps its parent's unless
//!   [`Trainer::reshape`] changes them (each new bucket starts as a copy of
//!   the parent's first; a wider net keeps the parent's units and adds
//!   units with small random input weights and zero output weights; a net
//!   given more king buckets starts each with a copy of the inputs' weights
//!   of the bucket it lies inside; so each starts with the parent's
//!   evaluation).
//! - **Target**: `λ · result + (1 − λ) · sigmoid(score / 400)` for the side
//!   to move (`result` 1 win, ½ draw, 0 loss; `score` the search score in
//!   centipawns), against `sigmoid(output)`, the output in units of
//!   400 centipawns ([`chimera_engine::nnue::SCALE`]); squared error.
//! - **Factorised king buckets** ([`Config::factorise`]): each input
//!   weight of a net of several king buckets is learnt as a part shared by
//!   all buckets plus the bucket's own; only the sum is stored, so the net
//!   and its file are as without.
//! - **Optimiser**: Adam on mini-batches, the step size falling from `lr`
//!   to `lr / 100` along a cosine over all steps; weights clipped to ±1.98
//!   so the quantised net cannot overflow. The epoch with the lowest
//!   held-out error is kept. Batches are split over threads, each with its
//!   own gradient; the same seed, data and thread count give the same net.
//! - **Quantisation**: input weights and biases × [`chimera_engine::nnue::QA`],
//!   output weights × [`chimera_engine::nnue::QB`], output biases × QA·QB, rounded.

use chimera_engine::nnue::{
    bucket, king_bucket_parent, king_rows_of_codes, material_of_codes, Activation, Network, Shape, Snapshot, INDEX,
    INPUTS, KING_BUCKETS, MAX_HIDDEN, QA, QB,
};
use chimera_engine::SplitMix;
use chimera_rules::{with_position, Color, MoveKind, Position, Variant};

/// Weights stay within ±CLIP (the quantised sums then fit in `i16`/`i32`).
const CLIP: f32 = 1.98;
/// Scores at or beyond this (mates) are left out.
const MATE_SCORE: i32 = 20_000;

/// Positions in a compact form: the active feature codes of each.
#[derive(Default)]
pub struct Positions {
    codes: Vec<u16>,
    /// `codes[start[i]..start[i + 1]]` are position i's.
    start: Vec<u32>,
    /// Side to move is Black.
    black: Vec<bool>,
    /// Search score for the side to move, centipawns.
    score: Vec<i16>,
    /// Result for the side to move: 0 loss, 1 draw, 2 win.
    result: Vec<u8>,
}

impl Positions {
    pub fn len(&self) -> usize {
        self.black.len()
    }

    pub fn is_empty(&self) -> bool {
        self.black.is_empty()
    }

    fn push(&mut self, snap: &Snapshot, black: bool, score: i32, result: u8) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        self.codes.extend(snap.codes());
        self.start.push(self.codes.len() as u32);
        self.black.push(black);
        self.score.push(score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16);
        self.result.push(result);
    }

    fn codes_of(&self, i: usize) -> &[u16] {
        &self.codes[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// The first `n` positions only.
    pub fn truncate(&mut self, n: usize) {
        if n < self.len() {
            self.black.truncate(n);
            self.score.truncate(n);
            self.result.truncate(n);
            self.start.truncate(n + 1);
            self.codes.truncate(self.start[n] as usize);
        }
    }
}

/// Training and held-out positions.
#[derive(Default)]
pub struct Data {
    pub train: Positions,
    pub validation: Positions,
    pub games: usize,
}

impl Data {
    /// Adds the positions of `variant` from a `chimera datagen` file (its
    /// bytes). With `mirror`, a training position without castling rights
    /// is added a second time seen in a mirror (files a ↔ h: the rules and
    /// so the value are the same), in every variant whose rules allow it
    /// ([`Variant::mirror_symmetric`]: all but Clown). Returns the number of
    /// games of that variant read.
    pub fn add_records(
        &mut self,
        bytes: &[u8],
        variant: Variant,
        skip: usize,
        validation: usize,
        mirror: bool,
    ) -> Result<usize, String> {
        Ok(self.add_games(&crate::datagen::read_records(bytes)?, variant, skip, validation, mirror))
    }

    /// [`Data::add_records`] for games already read.
    pub fn add_games(
        &mut self,
        games: &[crate::datagen::GameRecord],
        variant: Variant,
        skip: usize,
        validation: usize,
        mirror: bool,
    ) -> usize {
        let mut n = 0;
        for g in games.iter().filter(|g| g.start.variant() == variant) {
            n += 1;
            let held = validation > 0 && self.games % validation == validation - 1;
            self.games += 1;
            let set = if held { &mut self.validation } else { &mut self.train };
            let white_result = (g.result * 2.0).round() as u8;
            let mut pos = g.start.clone();
            for (ply, (&m, &score)) in g.moves.iter().zip(&g.scores).enumerate() {
                let keep = ply >= skip
                    && !pos.is_check()
                    && !pos.is_capture(m)
                    && !matches!(m.kind, MoveKind::Promotion(_))
                    && (score as i32).abs() < MATE_SCORE;
                if keep {
                    let black = pos.turn() == Color::Black;
                    let snap = with_position!(&pos, p => Snapshot::of(p));
                    let (s, r) = if black { (-(score as i32), 2 - white_result) } else { (score as i32, white_result) };
                    set.push(&snap, black, s, r);
                    if mirror && !held && variant.mirror_symmetric() && pos.castling().0 == 0 {
                        set.push(&snap.mirrored(), black, s, r);
                    }
                }
                pos.play_unchecked(m);
            }
        }
        n
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct Config {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// λ: the weight of the game result in the target (the rest is the
    /// search score).
    pub wdl: f32,
    pub seed: u64,
    pub threads: usize,
    /// A net of several king buckets learns each input weight as a shared
    /// part, moved by every position, plus its bucket's own part, moved
    /// only by positions of that bucket (the module's "Factorised king
    /// buckets"; the step is in `Trainer::batch_step`).
    pub factorise: bool,
}

/// The network in floating point, with Adam's moments.
#[derive(Clone)]
pub struct Trainer {
    pub variant: Variant,
    shape: Shape,
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// Bucket by bucket: ours, then theirs.
    w2: Vec<f32>,
    /// One per bucket.
    b2: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    /// Adam's moments of the shared input weights of a factorised net of
    /// king buckets (`INPUTS` rows of the width H; empty until used).
    fm: Vec<f32>,
    fv: Vec<f32>,
    step: u64,
}

/// Parameters of a net of `shape`, in one flat list: w1 (`INPUTS` rows of
/// the width H per king bucket), b1 (H), w2 (2·H per bucket), b2 (one per
/// bucket).
const fn n_params(shape: Shape) -> usize {
    let h = shape.width;
    shape.rows() * h + h + shape.buckets * (2 * h + 1)
}

/// Small random values in ±1 (seeded).
fn uniform(seed: u64) -> impl FnMut() -> f32 {
    let mut rng = SplitMix(seed);
    move || (rng.next() >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
}

struct Grad {
    g: Vec<f32>,
    loss: f64,
}

impl Grad {
    fn new(n: usize) -> Grad {
        Grad { g: vec![0.0; n], loss: 0.0 }
    }
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// For each of `to` king buckets, the one of `from` it lies inside
/// ([`king_bucket_parent`]), or `None` when `to` is not a valid count or one
/// of its buckets straddles several of `from` (a net of `from` buckets can be
/// given `to` only by splitting its sets, never by merging them).
fn king_bucket_parents(from: usize, to: usize) -> Option<Vec<usize>> {
    if !Shape::valid_kings(to) {
        return None;
    }
    (0..to).map(|b| king_bucket_parent(from, to, b)).collect()
}

impl Trainer {
    /// A new network of `shape` with small random weights (seeded).
    pub fn new(variant: Variant, seed: u64, shape: Shape) -> Trainer {
        assert!(Shape::valid_width(shape.width), "hidden width {}", shape.width);
        let h = shape.width;
        let mut uni = uniform(seed ^ 0x5EED);
        let w1 = (0..shape.rows() * h).map(|_| uni() * 0.1).collect();
        let b1 = (0..h).map(|_| 0.1 + uni() * 0.05).collect();
        let w2 = (0..shape.buckets * 2 * h).map(|_| uni() * 0.1).collect();
        let n = n_params(shape);
        Trainer {
            variant,
            shape,
            w1,
            b1,
            w2,
            b2: vec![0.0; shape.buckets],
            m: vec![0.0; n],
            v: vec![0.0; n],
            fm: Vec::new(),
            fv: Vec::new(),
            step: 0,
        }
    }

    /// Starts from a quantised network (fine-tuning a variant from the
    /// chess net), of the same shape.
    pub fn from_network(variant: Variant, net: &Network) -> Trainer {
        let (w, b, ow, ob) = net.parts();
        let shape = net.shape();
        let n = n_params(shape);
        Trainer {
            variant,
            shape,
            w1: w.iter().map(|&x| x as f32 / QA as f32).collect(),
            b1: b.iter().map(|&x| x as f32 / QA as f32).collect(),
            w2: ow.iter().map(|&x| x as f32 / QB as f32).collect(),
            b2: ob.iter().map(|&x| x as f32 / (QA * QB) as f32).collect(),
            m: vec![0.0; n],
            v: vec![0.0; n],
            fm: Vec::new(),
            fv: Vec::new(),
            step: 0,
        }
    }

    /// The shape of the network.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Changes the shape (fine-tuning a net into another shape): every
    /// bucket starts as a copy of the first; the hidden layer is kept, and
    /// a wider one gets new units with small random input weights (from
    /// `seed`) and zero output weights; a net given more king buckets (1 to
    /// 4 or 8, 4 to 8) starts each new bucket as a copy of the inputs of the
    /// bucket it lies inside ([`king_bucket_parent`]). So the evaluation is
    /// unchanged until they learn. A net cannot be made narrower, nor its
    /// king buckets merged (the error says so).
    pub fn reshape(&mut self, shape: Shape, seed: u64) -> Result<(), String> {
        let (old, h) = (self.shape.width, shape.width);
        if !Shape::valid_width(h) || h < old {
            return Err(format!(
                "a net {old} wide can be fine-tuned {old} to {MAX_HIDDEN} wide in steps of 16, not {h} wide"
            ));
        }
        // A net's king buckets may be split (1 into 4 or 8, 4 into 8: each
        // new bucket lies inside one old one, whose inputs it starts from),
        // never merged.
        let Some(parents) = king_bucket_parents(self.shape.kings, shape.kings) else {
            let can: Vec<String> = KING_BUCKETS
                .iter()
                .filter(|&&k| king_bucket_parents(self.shape.kings, k).is_some())
                .map(|k| k.to_string())
                .collect();
            let can = match can.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
                _ => can.concat(),
            };
            return Err(format!(
                "a net of {} king buckets can be fine-tuned with {can}, not {}",
                self.shape.kings, shape.kings
            ));
        };
        if h > old {
            let mut uni = uniform(seed ^ 0x3D1E);
            let mut w1 = Vec::with_capacity(self.shape.rows() * h);
            for row in self.w1.chunks_exact(old) {
                w1.extend_from_slice(row);
                w1.extend((old..h).map(|_| uni() * 0.1));
            }
            self.w1 = w1;
            self.b1.extend((old..h).map(|_| 0.1 + uni() * 0.05));
            let mut w2 = Vec::with_capacity(self.shape.buckets * 2 * h);
            for half in self.w2.chunks_exact(old) {
                w2.extend_from_slice(half);
                w2.extend(std::iter::repeat_n(0.0, h - old));
            }
            self.w2 = w2;
        }
        if shape.buckets != self.shape.buckets {
            let first = self.w2[..2 * h].to_vec();
            self.w2 = first.repeat(shape.buckets);
            self.b2 = vec![self.b2[0]; shape.buckets];
        }
        if shape.kings != self.shape.kings {
            let set = INPUTS * h;
            self.w1 = parents.iter().flat_map(|&p| self.w1[p * set..(p + 1) * set].iter().copied()).collect();
        }
        self.shape = shape;
        let n = n_params(shape);
        self.m = vec![0.0; n];
        self.v = vec![0.0; n];
        self.fm.clear();
        self.fv.clear();
        self.step = 0;
        Ok(())
    }

    /// The output (units of 400 cp) and, when `grad` is given, the
    /// gradient of the squared error against `target` added to it.
    fn forward(&self, codes: &[u16], black: bool, target: f32, grad: Option<&mut Grad>) -> f32 {
        let (us, them) = if black { (1, 0) } else { (0, 1) };
        let h = self.shape.width;
        let n_w1 = self.shape.rows() * h;
        let base = king_rows_of_codes(codes, self.shape.kings);
        let mut acc_buf = [[0f32; MAX_HIDDEN]; 2];
        let [acc0, acc1] = &mut acc_buf;
        let acc = [&mut acc0[..h], &mut acc1[..h]];
        acc[0].copy_from_slice(&self.b1);
        acc[1].copy_from_slice(&self.b1);
        for &c in codes {
            for (side, persp) in [(0, us), (1, them)] {
                let row = (base[persp] + INDEX[persp][c as usize]) as usize * h;
                for (a, w) in acc[side].iter_mut().zip(&self.w1[row..row + h]) {
                    *a += *w;
                }
            }
        }
        let buckets = self.shape.buckets;
        let k = if buckets == 1 { 0 } else { bucket(material_of_codes(codes), buckets) };
        let w2 = &self.w2[k * 2 * h..(k + 1) * 2 * h];
        let screlu = self.shape.activation == Activation::SCReLU;
        let act = |a: f32| {
            let c = a.clamp(0.0, 1.0);
            if screlu {
                c * c
            } else {
                c
            }
        };
        let mut out = self.b2[k];
        for (acc_side, w2) in acc.iter().zip(w2.chunks_exact(h)) {
            for (a, w) in acc_side.iter().zip(w2) {
                out += act(*a) * w;
            }
        }
        if let Some(gr) = grad {
            let p = sigmoid(out);
            let e = p - target;
            gr.loss += (e * e) as f64;
            let g = 2.0 * e * p * (1.0 - p);
            let off_b1 = n_w1;
            let off_w2 = n_w1 + h + k * 2 * h;
            gr.g[n_w1 + h + buckets * 2 * h + k] += g;
            let mut gh = [[0f32; MAX_HIDDEN]; 2];
            for side in 0..2 {
                for i in 0..h {
                    let a = acc[side][i];
                    gr.g[off_w2 + side * h + i] += g * act(a);
                    if a > 0.0 && a < 1.0 {
                        let slope = if screlu { 2.0 * a } else { 1.0 };
                        gh[side][i] = g * w2[side * h + i] * slope;
                    }
                }
                for (gb, x) in gr.g[off_b1..off_b1 + h].iter_mut().zip(&gh[side][..h]) {
                    *gb += *x;
                }
            }
            for &c in codes {
                for (side, persp) in [(0, us), (1, them)] {
                    let row = (base[persp] + INDEX[persp][c as usize]) as usize * h;
                    for (gw, x) in gr.g[row..row + h].iter_mut().zip(&gh[side][..h]) {
                        *gw += *x;
                    }
                }
            }
        }
        out
    }

    fn target(data: &Positions, i: usize, wdl: f32) -> f32 {
        wdl * data.result[i] as f32 / 2.0 + (1.0 - wdl) * sigmoid(data.score[i] as f32 / 400.0)
    }

    /// Mean squared error over `data` (float network).
    pub fn error(&self, data: &Positions, wdl: f32, threads: usize) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let n = data.len();
        let chunk = n.div_ceil(threads.max(1));
        let total: f64 = std::thread::scope(|s| {
            let hs: Vec<_> = (0..n)
                .step_by(chunk)
                .map(|lo| {
                    s.spawn(move || {
                        let mut sum = 0f64;
                        for i in lo..(lo + chunk).min(n) {
                            let out = self.forward(data.codes_of(i), data.black[i], 0.0, None);
                            let e = sigmoid(out) - Self::target(data, i, wdl);
                            sum += (e * e) as f64;
                        }
                        sum
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
        });
        total / n as f64
    }

    /// One Adam step over the positions `ids` of `data`; returns their
    /// mean error before the step.
    fn batch_step(&mut self, data: &Positions, ids: &[u32], cfg: &Config, lr: f32, grads: &mut [Grad]) -> f64 {
        let per = ids.len().div_ceil(grads.len());
        let this = &*self;
        std::thread::scope(|s| {
            for (gr, part) in grads.iter_mut().zip(ids.chunks(per.max(1))) {
                s.spawn(move || {
                    gr.g.iter_mut().for_each(|x| *x = 0.0);
                    gr.loss = 0.0;
                    for &i in part {
                        let i = i as usize;
                        let t = Self::target(data, i, cfg.wdl);
                        this.forward(data.codes_of(i), data.black[i], t, Some(gr));
                    }
                });
            }
        });
        let (first, rest) = grads.split_first_mut().expect("one thread at least");
        let mut loss = first.loss;
        for gr in rest.iter() {
            for (a, b) in first.g.iter_mut().zip(&gr.g) {
                *a += *b;
            }
            loss += gr.loss;
        }
        self.step += 1;
        let (b1, b2) = (0.9f32, 0.999f32);
        let bc1 = 1.0 - b1.powi(self.step.min(1 << 20) as i32);
        let bc2 = 1.0 - b2.powi(self.step.min(1 << 20) as i32);
        let scale = 1.0 / ids.len() as f32;
        if cfg.factorise && self.shape.kings > 1 {
            // Each weight of a bucket is a shared part plus the bucket's own;
            // only their sum, the weight the net uses, is stored. The shared
            // part's gradient is the sum of its buckets' gradients; its Adam
            // step moves the weight in every bucket alike, and the step of
            // the bucket's own part follows below.
            let per = INPUTS * self.shape.width;
            if self.fm.len() != per {
                self.fm = vec![0.0; per];
                self.fv = vec![0.0; per];
            }
            let kings = self.shape.kings;
            for (i, (m, v)) in self.fm.iter_mut().zip(self.fv.iter_mut()).enumerate() {
                let g = (0..kings).map(|k| first.g[k * per + i]).sum::<f32>() * scale;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                let delta = lr * (*m / bc1) / ((*v / bc2).sqrt() + 1e-8);
                for k in 0..kings {
                    self.w1[k * per + i] -= delta;
                }
            }
        }
        let params = self.w1.iter_mut().chain(self.b1.iter_mut()).chain(self.w2.iter_mut()).chain(self.b2.iter_mut());
        for (((p, g), m), v) in params.zip(&first.g).zip(self.m.iter_mut()).zip(self.v.iter_mut()) {
            let g = g * scale;
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *p -= lr * (*m / bc1) / ((*v / bc2).sqrt() + 1e-8);
            *p = p.clamp(-CLIP, CLIP);
        }
        loss / ids.len() as f64
    }

    /// Trains on `data.train`, keeping the epoch with the lowest error on
    /// `data.validation` (the last, when nothing is held out). `report`
    /// gets (epoch, training error, held-out error, seconds).
    pub fn train(&mut self, data: &Data, cfg: &Config, report: &mut dyn FnMut(usize, f64, f64, f64)) -> f64 {
        let n = data.train.len();
        let threads = cfg.threads.max(1);
        let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::new(n_params(self.shape))).collect();
        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut rng = SplitMix(cfg.seed);
        let batch = cfg.batch.max(1);
        let steps_per_epoch = n.div_ceil(batch);
        let total_steps = (steps_per_epoch * cfg.epochs).max(1);
        let mut best = (f64::INFINITY, self.clone());
        let start = std::time::Instant::now();
        let mut step = 0;
        for epoch in 1..=cfg.epochs {
            for i in (1..n).rev() {
                order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
            }
            let mut sum = 0.0;
            for ids in order.chunks(batch) {
                let t = step as f32 / total_steps as f32;
                let lr = cfg.lr * (0.01 + 0.99 * 0.5 * (1.0 + (std::f32::consts::PI * t).cos()));
                sum += self.batch_step(&data.train, ids, cfg, lr, &mut grads) * ids.len() as f64;
                step += 1;
            }
            let train_err = sum / n.max(1) as f64;
            let val =
                if data.validation.is_empty() { train_err } else { self.error(&data.validation, cfg.wdl, threads) };
            report(epoch, train_err, val, start.elapsed().as_secs_f64());
            if val <= best.0 || data.validation.is_empty() {
                best = (val, self.clone());
            }
        }
        *self = best.1;
        best.0
    }

    /// The quantised network.
    pub fn quantise(&self) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round() as i16;
        let w: Vec<i16> = self.w1.iter().map(|&x| q(x, QA)).collect();
        let b: Vec<i16> = self.b1.iter().map(|&x| q(x, QA)).collect();
        let o: Vec<i16> = self.w2.iter().map(|&x| q(x, QB)).collect();
        let ob: Vec<i32> = self.b2.iter().map(|&x| (x * (QA * QB) as f32).round() as i32).collect();
        Network::from_parts(self.variant, self.shape.activation, &w, &b, &o, &ob)
    }

    /// The float network's evaluation in centipawns for the side to move
    /// (to compare with the quantised one).
    pub fn eval_cp(&self, snap: &Snapshot, black: bool) -> f32 {
        let codes: Vec<u16> = snap.codes().collect();
        self.forward(&codes, black, 0.0, None) * chimera_engine::nnue::SCALE as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_rules::{AnyPosition, RuleOptions};

    /// 300 random games from seed `seed0` on, every position's target its
    /// material balance for the side to move (every 10th game held out).
    fn material_data(seed0: u64) -> Data {
        let mut data = Data::default();
        for game in 0..300 {
            for pos in crate::test_support::random_walk(Variant::Chess, seed0 + game, 60).into_iter().skip(1) {
                let b = pos.board();
                let mat = |c: Color| {
                    (b.by_color(c) & b.pawns()).count() as i32 * 100
                        + (b.by_color(c) & (b.knights() | b.bishops())).count() as i32 * 300
                        + (b.by_color(c) & b.rooks()).count() as i32 * 500
                        + (b.by_color(c) & b.queens()).count() as i32 * 900
                };
                let white = mat(Color::White) - mat(Color::Black);
                let black = pos.turn() == Color::Black;
                let snap = with_position!(&pos, p => Snapshot::of(p));
                let set = if game % 10 == 9 { &mut data.validation } else { &mut data.train };
                set.push(&snap, black, if black { -white } else { white }, 1);
            }
        }
        data
    }

    /// Positions whose target is a known function of the material: the
    /// trainer must learn it (the error falls well below the start's).
    #[test]
    fn training_learns_material_and_quantises_faithfully() {
        let data = material_data(4000);
        let cfg = Config { epochs: 12, batch: 256, lr: 0.01, wdl: 0.0, seed: 1, threads: 2, factorise: false };
        let mut t = Trainer::new(Variant::Chess, 1, Shape::default());
        let before = t.error(&data.validation, 0.0, 2);
        let after = t.train(&data, &cfg, &mut |_, _, _, _| {});
        assert!(after < before / 4.0, "held-out error {before} → {after}");
        // The quantised net agrees with the float one within a few cp.
        let net = t.quantise();
        let pos =
            AnyPosition::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/QR2K3 w - - 0 1", &RuleOptions::default()).unwrap();
        let snap = with_position!(&pos, p => Snapshot::of(p));
        let float = t.eval_cp(&snap, false);
        let int = with_position!(&pos, p => net.evaluate(p)) as f32;
        assert!((float - int).abs() < 8.0 + float.abs() * 0.03, "float {float} int {int}");
        assert!(int > 300.0, "a queen and a rook up is winning: {int}");
        // Fine-tuning starts from the same network.
        let again = Trainer::from_network(Variant::Chess, &net).quantise();
        assert_eq!(again.to_bytes(), net.to_bytes());
    }

    /// One parameter of the flat list (w1, b1, w2, b2).
    fn param(t: &mut Trainer, i: usize) -> &mut f32 {
        let (n1, n2) = (t.w1.len(), t.b1.len());
        let n3 = t.w2.len();
        if i < n1 {
            &mut t.w1[i]
        } else if i < n1 + n2 {
            &mut t.b1[i - n1]
        } else if i < n1 + n2 + n3 {
            &mut t.w2[i - n1 - n2]
        } else {
            &mut t.b2[i - n1 - n2 - n3]
        }
    }

    /// The gradient of every shape (CReLU, SCReLU; one bucket or several)
    /// against central differences of the loss, for the parameters one
    /// position touches: the input rows of its features, the biases, the
    /// output weights and bias of its bucket.
    #[test]
    fn gradients_match_finite_differences_for_every_shape() {
        let shapes = [
            Shape::default(),
            Shape { activation: Activation::SCReLU, buckets: 1, width: 128, kings: 1 },
            Shape { activation: Activation::CReLU, buckets: 4, width: 32, kings: 1 },
            Shape { activation: Activation::SCReLU, buckets: 8, width: MAX_HIDDEN, kings: 1 },
            Shape { activation: Activation::SCReLU, buckets: 8, width: 64, kings: 4 },
            Shape { activation: Activation::CReLU, buckets: 2, width: 64, kings: 8 },
        ];
        for shape in shapes {
            let mut t = Trainer::new(Variant::Chess, 3, shape);
            let pos = crate::test_support::random_walk(Variant::Chess, 77, 40).pop().unwrap();
            let snap = with_position!(&pos, p => Snapshot::of(p));
            let codes: Vec<u16> = snap.codes().collect();
            let black = pos.turn() == Color::Black;
            let target = 0.8;
            let mut gr = Grad::new(n_params(shape));
            t.forward(&codes, black, target, Some(&mut gr));
            let k = bucket(material_of_codes(&codes), shape.buckets);
            let (h, n_w1) = (shape.width, shape.rows() * shape.width);
            let base = king_rows_of_codes(&codes, shape.kings)[usize::from(black)];
            let row = (base + INDEX[usize::from(black)][codes[3] as usize]) as usize * h;
            let mut ids: Vec<usize> = (row..row + h).step_by(7).collect();
            ids.extend((n_w1..n_w1 + h).step_by(5));
            let w2 = n_w1 + h + k * 2 * h;
            ids.extend((w2..w2 + 2 * h).step_by(9));
            ids.push(n_w1 + h + shape.buckets * 2 * h + k);
            let mut checked = 0;
            for i in ids {
                let loss = |t: &Trainer| {
                    let e = sigmoid(t.forward(&codes, black, 0.0, None)) - target;
                    (e * e) as f64
                };
                let eps = 1e-3;
                let x = *param(&mut t, i);
                *param(&mut t, i) = x + eps;
                let up = loss(&t);
                *param(&mut t, i) = x - eps;
                let down = loss(&t);
                *param(&mut t, i) = x;
                let numeric = (up - down) / (2.0 * eps as f64);
                let analytic = gr.g[i] as f64;
                assert!(
                    (numeric - analytic).abs() < 2e-4 + 0.02 * analytic.abs(),
                    "{shape:?} parameter {i}: analytic {analytic} numeric {numeric}"
                );
                checked += usize::from(analytic != 0.0);
            }
            assert!(checked > 12, "{shape:?}: only {checked} non-zero gradients checked");
        }
    }

    /// SCReLU with 8 buckets learns the material target too (more slowly),
    /// and its quantised net agrees with the float one; reshaping a
    /// one-bucket net keeps its evaluation.
    #[test]
    fn screlu_buckets_learn_and_quantise_faithfully() {
        let data = material_data(7000);
        let shape = Shape { activation: Activation::SCReLU, buckets: 8, width: 128, kings: 1 };
        let cfg = Config { epochs: 12, batch: 256, lr: 0.02, wdl: 0.0, seed: 1, threads: 2, factorise: false };
        let mut t = Trainer::new(Variant::Chess, 1, shape);
        let before = t.error(&data.validation, 0.0, 2);
        let after = t.train(&data, &cfg, &mut |_, _, _, _| {});
        // A linear target suits SCReLU less than CReLU (above: a quarter); the
        // gradient itself is checked against finite differences.
        assert!(after < before / 2.0, "held-out error {before} → {after}");
        let net = t.quantise();
        assert_eq!(net.shape(), shape);
        for fen in ["4k3/8/8/8/8/8/8/QR2K3 w - - 0 1", "r3k3/pp6/8/8/8/8/PPP5/4K2Q b - - 0 1"] {
            let pos = AnyPosition::from_fen(Variant::Chess, fen, &RuleOptions::default()).unwrap();
            let snap = with_position!(&pos, p => Snapshot::of(p));
            let float = t.eval_cp(&snap, pos.turn() == Color::Black);
            let int = with_position!(&pos, p => net.evaluate(p)) as f32;
            assert!((float - int).abs() < 8.0 + float.abs() * 0.03, "{fen}: float {float} int {int}");
        }
        let again = Trainer::from_network(Variant::Chess, &net).quantise();
        assert_eq!(again.to_bytes(), net.to_bytes());
        // A one-bucket net reshaped to 8 buckets evaluates as before.
        let one = Trainer::new(Variant::Chess, 2, Shape::default());
        let mut eight = one.clone();
        eight.reshape(Shape { activation: Activation::CReLU, buckets: 8, width: 128, kings: 1 }, 0).unwrap();
        for pos in crate::test_support::random_walk(Variant::Chess, 5, 60) {
            let snap = with_position!(&pos, p => Snapshot::of(p));
            let black = pos.turn() == Color::Black;
            assert_eq!(one.eval_cp(&snap, black), eight.eval_cp(&snap, black));
        }
    }

    /// A net made wider (128 → 256 units, 1 → 4 buckets) evaluates as
    /// before, in floating point and quantised, and its new units learn; a
    /// net cannot be made narrower.
    #[test]
    fn a_widened_net_keeps_its_evaluation_and_learns() {
        let data = material_data(9000);
        let cfg = Config { epochs: 2, batch: 256, lr: 0.01, wdl: 0.0, seed: 1, threads: 2, factorise: false };
        let mut narrow =
            Trainer::new(Variant::Chess, 4, Shape { activation: Activation::SCReLU, buckets: 1, width: 128, kings: 1 });
        narrow.train(&data, &cfg, &mut |_, _, _, _| {});
        let parent = narrow.quantise();
        let mut wide = Trainer::from_network(Variant::Chess, &parent);
        let shape = Shape { activation: Activation::SCReLU, buckets: 4, width: MAX_HIDDEN, kings: 1 };
        wide.reshape(shape, 7).unwrap();
        assert_eq!(wide.shape(), shape);
        let widened = wide.quantise();
        assert_eq!(widened.shape(), shape);
        assert!(widened.to_bytes().len() > parent.to_bytes().len());
        for pos in crate::test_support::random_walk(Variant::Chess, 6, 80) {
            let snap = with_position!(&pos, p => Snapshot::of(p));
            let black = pos.turn() == Color::Black;
            let start = Trainer::from_network(Variant::Chess, &parent);
            assert!((start.eval_cp(&snap, black) - wide.eval_cp(&snap, black)).abs() < 1e-3);
            assert_eq!(with_position!(&pos, p => parent.evaluate(p)), with_position!(&pos, p => widened.evaluate(p)));
        }
        let before = wide.w2.clone();
        wide.train(&data, &cfg, &mut |_, _, _, _| {});
        let new_units = |w2: &[f32]| w2.chunks_exact(MAX_HIDDEN).flat_map(|half| &half[128..]).any(|&x| x != 0.0);
        assert!(!new_units(&before) && new_units(&wide.w2), "the new units' output weights learn");
        let e = wide.reshape(Shape { width: 128, ..shape }, 0).unwrap_err();
        assert!(e.contains("not 128 wide"), "{e}");
        let e = wide.reshape(Shape { width: 100, ..shape }, 0).unwrap_err();
        assert!(e.contains("steps of 16"), "{e}");
    }

    /// A net of one input set given four king buckets starts as four
    /// copies: the same evaluation, float and quantised, wherever the Kings
    /// stand; training then makes the buckets differ (each learns from the
    /// positions whose King is in it). Buckets cannot be changed back.
    #[test]
    fn king_buckets_start_as_copies_and_learn_apart() {
        let data = material_data(9100);
        let cfg = Config { epochs: 2, batch: 256, lr: 0.01, wdl: 0.0, seed: 1, threads: 2, factorise: false };
        let mut one = Trainer::new(Variant::Chess, 5, Shape { activation: Activation::SCReLU, ..Shape::default() });
        one.train(&data, &cfg, &mut |_, _, _, _| {});
        let parent = one.quantise();
        let mut four = Trainer::from_network(Variant::Chess, &parent);
        let shape = Shape { kings: 4, ..parent.shape() };
        four.reshape(shape, 0).unwrap();
        let child = four.quantise();
        assert_eq!(child.shape(), shape);
        assert_eq!(&child.to_bytes()[..8], chimera_engine::nnue::MAGIC3);
        // Along random games from `seed0`, the reshaped net evaluates as the
        // one it came from, in float and quantised; the King rows of `kings`
        // buckets the walks met are returned.
        let same_evaluation = |from: &Network, to: &Network, to_float: &Trainer, seed0: u64, kings: usize| {
            let from_float = Trainer::from_network(Variant::Chess, from);
            let mut rows = std::collections::HashSet::new();
            for seed in 0..3 {
                for pos in crate::test_support::random_walk(Variant::Chess, seed0 + seed, 120) {
                    let snap = with_position!(&pos, p => Snapshot::of(p));
                    rows.insert(snap.king_rows(kings));
                    let black = pos.turn() == Color::Black;
                    assert!((from_float.eval_cp(&snap, black) - to_float.eval_cp(&snap, black)).abs() < 1e-3);
                    assert_eq!(with_position!(&pos, p => from.evaluate(p)), with_position!(&pos, p => to.evaluate(p)));
                }
            }
            rows
        };
        let rows_seen = same_evaluation(&parent, &child, &four, 20, 4);
        assert!(rows_seen.len() > 2, "the walks put the Kings in several buckets: {rows_seen:?}");
        four.train(&data, &cfg, &mut |_, _, _, _| {});
        let sets: Vec<&[f32]> = four.w1.chunks_exact(four.w1.len() / 4).collect();
        assert!(sets[1..].iter().any(|s| *s != sets[0]), "the king buckets learn apart");
        // Four buckets that differ, split into eight: each of the eight
        // starts as the one of the four it lies inside, so the evaluation is
        // unchanged wherever the Kings stand.
        let trained = four.quantise();
        let mut eight = Trainer::from_network(Variant::Chess, &trained);
        let shape8 = Shape { kings: 8, ..shape };
        eight.reshape(shape8, 0).unwrap();
        let child8 = eight.quantise();
        assert_eq!(child8.shape(), shape8);
        let rows8 = same_evaluation(&trained, &child8, &eight, 40, 8);
        assert!(rows8.len() > rows_seen.len(), "eight buckets tell more King squares apart: {rows8:?}");
        let e = four.reshape(Shape { kings: 1, ..shape }, 0).unwrap_err();
        assert!(e.contains("4 king buckets can be fine-tuned with 4 or 8") && e.contains("not 1"), "{e}");
        let e = eight.reshape(Shape { kings: 4, ..shape }, 0).unwrap_err();
        assert!(e.contains("8 king buckets can be fine-tuned with 8,") && e.contains("not 4"), "{e}");
        let e = one.reshape(Shape { kings: 3, ..one.shape() }, 0).unwrap_err();
        assert!(e.contains("with 1, 4 or 8, not 3"), "{e}");
    }

    /// Factorised, one step on one position moves each of its inputs'
    /// weights in every king bucket (the shared part); unfactorised, only
    /// in the bucket each perspective's King chose. Weights of inputs not
    /// in the position stay put either way.
    #[test]
    fn a_factorised_step_moves_the_shared_part_of_every_bucket() {
        let data = material_data(9200);
        let shape = Shape { activation: Activation::SCReLU, kings: 4, ..Shape::default() };
        let (h, per) = (shape.width, INPUTS * shape.width);
        let mut checked = 0;
        for i in (0..data.train.len()).filter(|&i| data.train.score[i] != 0).step_by(97).take(6) {
            let codes = data.train.codes_of(i).to_vec();
            let base = king_rows_of_codes(&codes, 4);
            // (bucket, input) of each perspective's active inputs.
            let used: Vec<(usize, usize)> = (0..2)
                .flat_map(|p| codes.iter().map(move |&c| (base[p] as usize / INPUTS, INDEX[p][c as usize] as usize)))
                .collect();
            let inputs: Vec<usize> = used.iter().map(|u| u.1).collect();
            let unused = (0..INPUTS).find(|r| !inputs.contains(r)).expect("an input the position does not use");
            for factorise in [false, true] {
                let cfg = Config { epochs: 1, batch: 1, lr: 0.01, wdl: 0.0, seed: 1, threads: 1, factorise };
                let mut t = Trainer::new(Variant::Chess, 6, shape);
                let before = t.w1.clone();
                let mut grads = vec![Grad::new(n_params(shape))];
                t.batch_step(&data.train, &[i as u32], &cfg, cfg.lr, &mut grads);
                let moved = |k: usize, r: usize| {
                    let at = k * per + r * h;
                    t.w1[at..at + h].iter().zip(&before[at..at + h]).any(|(a, b)| a != b)
                };
                for &r in &inputs {
                    for k in 0..4 {
                        let expect = factorise || used.contains(&(k, r));
                        assert_eq!(moved(k, r), expect, "factorise {factorise}: bucket {k}, input {r}");
                        checked += usize::from(!used.contains(&(k, r)));
                    }
                }
                for k in 0..4 {
                    assert!(!moved(k, unused), "input {unused} is not in the position (bucket {k})");
                }
            }
        }
        assert!(checked > 100, "inputs of buckets the position's Kings did not choose: {checked}");
    }

    #[test]
    fn datagen_records_become_quiet_positions_with_side_to_move_targets() {
        let cfg = crate::datagen::GenConfig {
            variant: Variant::Chess,
            nodes: 200,
            random_plies: 4,
            max_plies: 80,
            resign_cp: 0,
            resign_plies: 0,
            seed: 3,
        };
        let mut engine = crate::datagen::engine();
        let mut bytes = crate::datagen::header();
        let mut recs = Vec::new();
        for i in 0..4 {
            let g = crate::datagen::play_game(&mut engine, &cfg, i);
            crate::datagen::write_record(&g, &mut bytes);
            recs.push(g);
        }
        let mut data = Data::default();
        assert_eq!(data.add_records(&bytes, Variant::Chess, 0, 0, false).unwrap(), 4);
        assert_eq!(data.add_records(&bytes, Variant::Genesis, 0, 0, false).unwrap(), 0);
        // Count the kept positions independently.
        let (mut kept, mut no_castling) = (0, 0);
        for g in &recs {
            let mut pos = g.start.clone();
            for (&m, &s) in g.moves.iter().zip(&g.scores) {
                if !pos.is_check()
                    && !pos.is_capture(m)
                    && !matches!(m.kind, MoveKind::Promotion(_))
                    && s.abs() < 20_000
                {
                    kept += 1;
                    no_castling += usize::from(pos.castling().0 == 0);
                    // The first kept position's target is for its side to move.
                    if kept == 1 {
                        let expect = if pos.turn() == Color::Black { -s } else { s };
                        assert_eq!(data.train.score[0], expect);
                    }
                }
                pos.play_unchecked(m);
            }
        }
        assert_eq!(data.train.len(), kept);
        assert!(kept > 0);
        // Mirroring adds the positions without castling rights once more.
        let mut mirrored = Data::default();
        mirrored.add_records(&bytes, Variant::Chess, 0, 0, true).unwrap();
        assert_eq!(mirrored.train.len(), kept + no_castling);
        assert!(no_castling > 0);
    }
}
