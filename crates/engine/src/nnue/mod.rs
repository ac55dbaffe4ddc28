//! The network evaluation (NNUE): a perspective network
//! `INPUTS → H ×2 → 1` (H, the hidden width, 16 to [`MAX_HIDDEN`] in steps
//! of 16: 128 or 256 in practice), evaluated with integer arithmetic and
//! accumulators kept from one node to the next.
//!
//! # Inputs
//!
//! What the network sees of a position is a [`Snapshot`]: for each colour,
//! ten 64-bit words:
//!
//! - one bitboard per role (Pawn, Knight, Bishop, Rook, Queen, King, Genie,
//!   Clown): 8 planes, one per `Role::COUNT`;
//! - a *mark* plane: squares with a right attached (Clown Chess: the Knights
//!   that may still be declared Clowns; Magic Ring Chess: the square of the
//!   ring the colour owns);
//! - 64 flags of variant state ([`flag`]: Genesis reserve counts, Genie flip
//!   right, Clown re-entry right and hand, ring level).
//!
//! Each perspective (White's, Black's) numbers the same features its own
//! way: the colour relative to the perspective ("ours", "theirs") and, for
//! Black, the board turned upside down (`square ^ 56`); flags are not
//! squares and are not turned. So 2 × 9 × 64 board inputs and 2 × 64 flag
//! inputs: [`INPUTS`] = 1,280 per perspective.
//!
//! The planes and flags are laid out from the rules crate's counts
//! (`Role::COUNT`; [`PLANES`], [`flag`]), with `const` checks that they fit
//! their words; [`LAYOUT`] fingerprints the layout, and a file of another
//! layout is refused (File format, below).
//!
//! A net may have several sets of these inputs, *king buckets*, each with
//! its own first-layer weights: each perspective uses the set of the square
//! of its own King ([`king_bucket`]: 1 set, 4 or 8). When a King moves to
//! another bucket, every input of that perspective changes (see Updates).
//!
//! # Evaluation
//!
//! `acc[p] = b1 + Σ W1[kb(p)][index(p, f)]` over the active features `f`
//! (`kb(p)`: perspective p's king bucket; `i16`,
//! scaled by [`QA`]). The output layer has one or more *buckets* (up to
//! [`MAX_BUCKETS`]), chosen by the material on the board and in reserve
//! ([`material`], [`bucket`]): each bucket `k` has its own weights `W2[k]`
//! and bias `b2[k]`. The output is, in centipawns for the side to move,
//!
//! - [`Activation::CReLU`]: `(Σ crelu(acc[us]) · W2[k][..H] +
//!   Σ crelu(acc[them]) · W2[k][H..] + b2[k]) · SCALE / (QA · QB)`, with
//!   `crelu(x) = clamp(x, 0, QA)`;
//! - [`Activation::SCReLU`]: the same with `crelu(x)² / QA` in place of
//!   `crelu(x)` (the square of the clipped activation, brought back to the
//!   scale QA; the division is made once, on the sum of both halves);
//!
//! with `W2` scaled by [`QB`] and `b2` by `QA · QB`.
//!
//! # Updates
//!
//! The search keeps one accumulator per ply ([`Stack`]). A node's
//! accumulator is made from the nearest accumulator of the plies around it
//! (its parent, its previous sibling, its grandparent) by adding the
//! features that appear and subtracting those that vanish between the two
//! snapshots, or from scratch when that is cheaper. When a King changes
//! bucket, its perspective is made from the accumulator that perspective
//! last had in the new bucket ([`KingCache`]), the other perspective
//! updated as usual. The difference of two
//! snapshots is exact for any two positions, so the update needs no
//! knowledge of the move (drops, flips, declarations, re-entries and ring
//! transfers included), and integer sums make it bit-exact with a full
//! refresh (tested).
//!
//! # File format
//!
//! Little-endian: the 8 bytes `CHIMNN1\n` (version 1), `CHIMNN2\n`
//! (version 2), `CHIMNN3\n` (version 3) or `CHIMNN4\n` (version 4, then a
//! `u32`: the layout of its inputs, [`LAYOUT`]; versions 1-3 are all of
//! the layout [`LAYOUT_V1_3`], and a file of a layout other than the
//! build's is refused); a `u8` length and the variant id
//! (UTF-8) the net was trained for; `u32` inputs and `u32` hidden width H
//! (must be [`INPUTS`], and 16 to [`MAX_HIDDEN`] in steps of 16; 128 in
//! version 1); versions 2 to 4: a `u8` activation (0 CReLU, 1 SCReLU) and
//! a `u8` number of output buckets B (1 to [`MAX_BUCKETS`]); versions 3
//! and 4: a `u8` number of king buckets K (4 or 8 in version 3, 1, 4 or 8
//! in version 4; 1 in versions 1 and 2); then
//! `i16` × K × inputs × hidden input weights (input-major, king bucket by
//! king bucket); `i16` × hidden biases; `i16` × B × 2·hidden output
//! weights (bucket by bucket: ours, then theirs); `i32` × B output biases.
//! Nothing after. A version 1 file is a CReLU net with one bucket, and such
//! a net is written as version 1; a net with king buckets is written as
//! version 3, any other as version 2, while the build's layout is theirs;
//! a build of another layout writes version 4 ([`file_version`]).

mod accumulator;
mod embedded;
mod features;
mod format;
pub mod simd;
#[cfg(test)]
mod tests;

pub use accumulator::*;
pub use embedded::*;
pub use features::*;
pub use format::*;

use crate::Evaluate;
use chimera_rules::{Color, Role, Variant};

/// The widest hidden layer a net may have (units per perspective); the
/// accumulators are this wide, and a narrower net uses their first lanes.
pub const MAX_HIDDEN: usize = 256;
/// The hidden width of a version 1 file, and of a new net unless told.
pub const DEFAULT_HIDDEN: usize = 128;
/// Planes per colour: one per role ([`Role::COUNT`]) and the mark plane.
pub const PLANES: usize = Role::COUNT + 1;
/// The mark plane's place among a colour's words (after the roles').
pub const MARK_PLANE: usize = Role::COUNT;
/// Words of a snapshot per colour: the planes and the flags.
pub const WORDS: usize = PLANES + 1;
/// Board inputs per perspective.
pub const BOARD_INPUTS: usize = 2 * PLANES * 64;
/// Inputs per perspective.
pub const INPUTS: usize = BOARD_INPUTS + 2 * 64;
/// Feature codes (colour, word, bit): the absolute numbering.
pub const CODES: usize = 2 * WORDS * 64;
/// Scale of the accumulator (an activation of 1.0 is `QA`).
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;

/// The numbers of king buckets a net may have ([`king_bucket`]).
pub const KING_BUCKETS: [usize; 3] = [1, 4, 8];
/// The activation of the hidden layer (module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Activation {
    /// `clamp(x, 0, 1)`.
    #[default]
    CReLU = 0,
    /// `clamp(x, 0, 1)²`.
    SCReLU = 1,
}

impl Activation {
    /// Every activation, in the order of their codes in a version 2 file.
    pub const ALL: [Activation; 2] = [Activation::CReLU, Activation::SCReLU];

    /// The name used by `chimera train --activation` and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Activation::CReLU => "crelu",
            Activation::SCReLU => "screlu",
        }
    }

    /// The byte that stands for it in a version 2 file (its place in
    /// [`Activation::ALL`]).
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl std::str::FromStr for Activation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Activation::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown activation {s:?} (crelu or screlu)"))
    }
}

/// The shape of a net's output layer: its activation and its number of
/// buckets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shape {
    pub activation: Activation,
    pub buckets: usize,
    /// Hidden units per perspective (16 to [`MAX_HIDDEN`], a multiple of 16).
    pub width: usize,
    /// Input sets, one per king bucket ([`king_bucket`]: 1, 4 or 8).
    pub kings: usize,
}

impl Default for Shape {
    fn default() -> Self {
        Shape { activation: Activation::CReLU, buckets: 1, width: DEFAULT_HIDDEN, kings: 1 }
    }
}

impl Shape {
    /// Whether a net of this shape is written as file version 1 (CReLU,
    /// one output, 128 wide, one set of inputs); every other shape needs
    /// version 2 or 3.
    pub const fn is_version1(&self) -> bool {
        matches!(self.activation, Activation::CReLU)
            && self.buckets == 1
            && self.width == DEFAULT_HIDDEN
            && self.kings == 1
    }

    /// Whether a net of this shape is written as file version 3 (more than
    /// one king bucket); version 2 otherwise, unless version 1.
    pub const fn is_version3(&self) -> bool {
        self.kings > 1
    }

    /// Whether a net may have `kings` king buckets ([`KING_BUCKETS`]).
    pub fn valid_kings(kings: usize) -> bool {
        KING_BUCKETS.contains(&kings)
    }

    /// Rows of the first layer: [`INPUTS`] per king bucket.
    pub const fn rows(&self) -> usize {
        self.kings * INPUTS
    }

    /// Whether a net may be `width` units wide.
    pub const fn valid_width(width: usize) -> bool {
        width >= 16 && width <= MAX_HIDDEN && width.is_multiple_of(16)
    }

    /// `1280→128×2→1` (the hidden width H in the middle), with the
    /// activation and buckets when not the version 1 defaults.
    pub fn describe(&self) -> String {
        let mut s = if self.kings > 1 {
            format!("{}×{INPUTS}→{}×2→1", self.kings, self.width)
        } else {
            format!("{INPUTS}→{}×2→1", self.width)
        };
        if self.activation != Activation::CReLU {
            s += &format!(" {}", self.activation.name());
        }
        if self.buckets > 1 {
            s += &format!(" ({} output buckets)", self.buckets);
        }
        s
    }
}

/// A network, quantised.
#[derive(Clone)]
pub struct Network {
    /// The variant it was trained for.
    pub variant: Variant,
    /// Where it came from (`<embedded>` or a path), for the UCI report.
    pub source: String,
    /// The activation of the hidden layer.
    pub activation: Activation,
    /// Hidden units per perspective: the first `width` lanes of the rows
    /// below are the net's, the rest zero.
    width: usize,
    /// King buckets: `w` has [`INPUTS`] rows for each.
    kings: usize,
    w: Box<[[i16; MAX_HIDDEN]]>,
    b: [i16; MAX_HIDDEN],
    /// One row per output bucket: ours (from lane 0), then theirs (from
    /// lane `MAX_HIDDEN`).
    out_w: Box<[[i16; 2 * MAX_HIDDEN]]>,
    out_b: Box<[i32]>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}, {})", self.variant.id(), self.source)
    }
}

impl Network {
    /// The shape of the output layer.
    pub fn shape(&self) -> Shape {
        Shape { activation: self.activation, buckets: self.out_b.len(), width: self.width, kings: self.kings }
    }

    /// What the net is, for reports: its shape.
    pub fn describe(&self) -> String {
        self.shape().describe()
    }

    /// A network from quantised values: `b` (its length is the net's
    /// hidden width H), `w` input-major (`INPUTS` rows of H per king
    /// bucket, bucket by bucket: their number is the net's), `out_w`
    /// (bucket by bucket, ours then theirs: 2·H each), `out_b` (one per
    /// bucket: their number is the net's number of buckets).
    pub fn from_parts(
        variant: Variant,
        activation: Activation,
        w: &[i16],
        b: &[i16],
        out_w: &[i16],
        out_b: &[i32],
    ) -> Network {
        let h = b.len();
        assert!(Shape::valid_width(h), "hidden width {h}");
        let kings = w.len() / (INPUTS * h);
        assert!(Shape::valid_kings(kings), "{kings} king buckets");
        assert_eq!(w.len(), kings * INPUTS * h);
        assert!((1..=MAX_BUCKETS).contains(&out_b.len()));
        assert_eq!(out_w.len(), out_b.len() * 2 * h);
        let mut rows = vec![[0i16; MAX_HIDDEN]; kings * INPUTS].into_boxed_slice();
        for (row, src) in rows.iter_mut().zip(w.chunks_exact(h)) {
            row[..h].copy_from_slice(src);
        }
        let mut bias = [0i16; MAX_HIDDEN];
        bias[..h].copy_from_slice(b);
        let mut out_rows = vec![[0i16; 2 * MAX_HIDDEN]; out_b.len()].into_boxed_slice();
        for (row, src) in out_rows.iter_mut().zip(out_w.chunks_exact(2 * h)) {
            row[..h].copy_from_slice(&src[..h]);
            row[MAX_HIDDEN..MAX_HIDDEN + h].copy_from_slice(&src[h..]);
        }
        Network {
            variant,
            source: "<trained>".into(),
            activation,
            width: h,
            kings,
            w: rows,
            b: bias,
            out_w: out_rows,
            out_b: out_b.into(),
        }
    }

    /// The quantised values: input weights (input-major, king bucket by
    /// king bucket), biases, output weights (bucket by bucket), output
    /// biases.
    pub fn parts(&self) -> (Vec<i16>, &[i16], Vec<i16>, &[i32]) {
        let h = self.width;
        (
            self.w.iter().flat_map(|row| &row[..h]).copied().collect(),
            &self.b[..h],
            self.out_w
                .iter()
                .flat_map(|row| row[..h].iter().chain(&row[MAX_HIDDEN..MAX_HIDDEN + h]))
                .copied()
                .collect(),
            &self.out_b,
        )
    }

    /// The output in centipawns for `turn`, of the position whose
    /// accumulator is `acc` and snapshot `snap` (it chooses the bucket).
    pub fn output(&self, acc: &Accumulator, turn: Color, snap: &Snapshot) -> i32 {
        let k = if self.out_b.len() == 1 { 0 } else { bucket(material(snap), self.out_b.len()) };
        let h = self.width;
        let (us, them) = (&acc.v[turn.index()][..h], &acc.v[(!turn).index()][..h]);
        let (w_us, w_them) = (&self.out_w[k][..h], &self.out_w[k][MAX_HIDDEN..MAX_HIDDEN + h]);
        let sum = match self.activation {
            Activation::CReLU => {
                (simd::crelu_dot(us, w_us).wrapping_add(simd::crelu_dot(them, w_them)).wrapping_add(self.out_b[k]))
                    as i64
            }
            Activation::SCReLU => {
                (simd::screlu_dot(us, w_us) as i64 + simd::screlu_dot(them, w_them) as i64) / QA as i64
                    + self.out_b[k] as i64
            }
        };
        (sum * SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The evaluation of a position from scratch (no stack).
    pub fn evaluate<P: Evaluate>(&self, pos: &P) -> i32 {
        let snap = Snapshot::of(pos);
        self.output(&self.refresh(&snap), pos.turn(), &snap)
    }
}
