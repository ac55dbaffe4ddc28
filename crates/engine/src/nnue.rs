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
//!   Clown): 8 planes;
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
//! (version 2) or `CHIMNN3\n` (version 3); a `u8` length and the variant id
//! (UTF-8) the net was trained for; `u32` inputs and `u32` hidden width H
//! (must be [`INPUTS`], and 16 to [`MAX_HIDDEN`] in steps of 16; 128 in
//! version 1); versions 2 and 3: a `u8` activation (0 CReLU, 1 SCReLU) and
//! a `u8` number of output buckets B (1 to [`MAX_BUCKETS`]); version 3
//! only: a `u8` number of king buckets K (4; 1 in versions 1 and 2); then
//! `i16` × K × inputs × hidden input weights (input-major, king bucket by
//! king bucket); `i16` × hidden biases; `i16` × B × 2·hidden output
//! weights (bucket by bucket: ours, then theirs); `i32` × B output biases.
//! Nothing after. A version 1 file is a CReLU net with one bucket, and such
//! a net is written as version 1; a net with king buckets is written as
//! version 3, any other as version 2.

use crate::Evaluate;
use chimera_rules::{Board, Color, Piece, Role, Variant};

/// The widest hidden layer a net may have (units per perspective); the
/// accumulators are this wide, and a narrower net uses their first lanes.
pub const MAX_HIDDEN: usize = 256;
/// The hidden width of a version 1 file, and of a new net unless told.
pub const DEFAULT_HIDDEN: usize = 128;
/// Planes per colour: 8 roles and the mark plane.
pub const PLANES: usize = 9;
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

/// The first bytes of a network file, version 1 (CReLU, one output bucket).
pub const MAGIC: &[u8; 8] = b"CHIMNN1\n";
/// The first bytes of a network file, version 2 (activation and buckets in
/// the header).
pub const MAGIC2: &[u8; 8] = b"CHIMNN2\n";
/// Most output buckets a net may have.
pub const MAX_BUCKETS: usize = 8;
/// The first bytes of a network file, version 3 (version 2 with input sets
/// chosen by the king's square).
pub const MAGIC3: &[u8; 8] = b"CHIMNN3\n";
/// The numbers of king buckets a net may have ([`king_bucket`]).
pub const KING_BUCKETS: [usize; 3] = [1, 4, 8];
/// The reserve bits of the flag word ([`flag::RESERVE`]: 6 roles × 8).
const RESERVE_MASK: u64 = (1 << 48) - 1;

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

/// The material a snapshot counts for the output buckets: the pieces on the
/// board and, in Genesis, those in reserve (at most 32 in every variant).
pub fn material(s: &Snapshot) -> u32 {
    s.words
        .iter()
        .map(|w| {
            w[..PLANES - 1].iter().map(|x| x.count_ones()).sum::<u32>() + (w[WORDS - 1] & RESERVE_MASK).count_ones()
        })
        .sum()
}

/// [`material`] from a position's feature codes ([`Snapshot::codes`]).
pub fn material_of_codes(codes: &[u16]) -> u32 {
    codes
        .iter()
        .filter(|&&c| {
            let (k, b) = ((c as usize / 64) % WORDS, c % 64);
            k < PLANES - 1 || (k == WORDS - 1 && b < 48)
        })
        .count() as u32
}

/// The output bucket of a position with `material` pieces, of `buckets`:
/// equal slices of 2..=32 pieces, the fewest first.
#[inline]
pub fn bucket(material: u32, buckets: usize) -> usize {
    (material.saturating_sub(2) as usize * buckets / 31).min(buckets - 1)
}

/// The king bucket of perspective `p` (0 White, 1 Black) whose own King
/// stands on `sq` (`None`: no King on the board, as in Genesis's placement),
/// of `kings` ([`KING_BUCKETS`]), seen from `p`'s side of the board (Black's
/// turned over, as its inputs are). With 4: the home rank's files a-d, its
/// files e-h (the two castled Kings), then the other ranks' files a-d and
/// e-h. With 8, each of those split again: the home rank's files a-b, c-d,
/// e-f and g-h (a King castled long that stepped to b1, castled long on c1,
/// not castled, castled short), the second rank's a-d and e-h, the ranks
/// beyond's a-d and e-h. Each of the 8 lies inside one of the 4
/// ([`king_bucket_parent`]). No King counts as bucket 0.
#[inline]
pub const fn king_bucket(kings: usize, p: usize, sq: Option<u32>) -> usize {
    let Some(sq) = sq else { return 0 };
    let rel = if p == 0 { sq } else { sq ^ 56 };
    let (rank, file) = (rel / 8, rel % 8);
    match kings {
        4 => 2 * (rank >= 1) as usize + (file >= 4) as usize,
        8 if rank == 0 => (file / 2) as usize,
        8 => 4 + 2 * (rank >= 2) as usize + (file >= 4) as usize,
        _ => 0,
    }
}

/// The bucket of `from` king buckets that bucket `b` of `to` lies inside,
/// or `None` when it straddles several (so a net of `from` buckets cannot
/// be given `to` by copying each of its sets). Every bucket lies inside the
/// one bucket of 1; each of the 8 inside one of the 4.
pub fn king_bucket_parent(from: usize, to: usize, b: usize) -> Option<usize> {
    let mut parent = None;
    for sq in 0..64u32 {
        if king_bucket(to, 0, Some(sq)) == b {
            let q = king_bucket(from, 0, Some(sq));
            if parent.is_some_and(|x| x != q) {
                return None;
            }
            parent = Some(q);
        }
    }
    parent
}

/// Bits of the flag word ([`Snapshot`]).
pub mod flag {
    /// Genesis: bit `RESERVE + role · 8 + (k − 1)` is set while the colour
    /// holds at least `k` pieces of `role` (Pawn..King) in reserve (k ≤ 8).
    pub const RESERVE: u32 = 0;
    /// Genie: the colour may still flip a pawn.
    pub const GENIE_FLIP: u32 = 48;
    /// Clown: the re-entry is still unused.
    pub const CLOWN_REENTRY: u32 = 49;
    /// Clown: the colour has had a Clown.
    pub const CLOWN_HAD: u32 = 50;
    /// Clown: the colour has a captured Knight (or Clown) in hand.
    pub const CLOWN_HAND_KNIGHT: u32 = 51;
    /// Clown: the colour has a captured Bishop in hand.
    pub const CLOWN_HAND_BISHOP: u32 = 52;
    /// Magic Ring: bit `RING_LEVEL + level` (levels 0..=7) of the ring the
    /// colour owns.
    pub const RING_LEVEL: u32 = 53;
}

/// Everything the network sees of a position (module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Snapshot {
    pub words: [[u64; WORDS]; 2],
}

impl Snapshot {
    /// The board planes of `b` (marks and flags empty).
    pub fn of_board(b: &Board) -> Snapshot {
        let mut s = Snapshot::default();
        for c in Color::ALL {
            for r in Role::ALL {
                s.words[c.index()][r.index()] = b.by_piece(Piece { color: c, role: r }).0;
            }
        }
        s
    }

    /// The snapshot of a position: its board and its variant state.
    pub fn of<P: Evaluate>(pos: &P) -> Snapshot {
        let mut s = Snapshot::of_board(pos.board());
        for c in Color::ALL {
            let (mark, flags) = pos.nnue_extra(c);
            s.words[c.index()][PLANES - 1] = mark;
            s.words[c.index()][WORDS - 1] = flags;
        }
        s
    }

    /// The position seen in a mirror (files a ↔ h); flags unchanged.
    pub fn mirrored(&self) -> Snapshot {
        let mut s = *self;
        for words in &mut s.words {
            for w in &mut words[..PLANES] {
                *w = mirror_files(*w);
            }
        }
        s
    }

    /// The square of colour `c`'s King (the lowest, should it have two),
    /// if it has one on the board.
    #[inline]
    pub fn king(&self, c: usize) -> Option<u32> {
        let k = self.words[c][Role::King.index()];
        (k != 0).then(|| k.trailing_zeros())
    }

    /// The king bucket of each perspective ([`king_bucket`]) in a net of
    /// `kings` buckets, as the first-layer row of its input 0.
    #[inline]
    pub fn king_rows(&self, kings: usize) -> [u16; 2] {
        let t = &KING_ROWS[match kings {
            4 => 1,
            8 => 2,
            _ => 0,
        }];
        // A King's square, or 64 for none (64 trailing zeros of an empty
        // word).
        [0, 1].map(|p| t[p][self.words[p][Role::King.index()].trailing_zeros() as usize])
    }

    /// Number of active features.
    #[inline]
    pub fn count(&self) -> u32 {
        // Plain loops of constant length: unrolled into 20 POPCNTs (the
        // search asks at every evaluation).
        let mut n = 0;
        for c in 0..2 {
            for k in 0..WORDS {
                n += self.words[c][k].count_ones();
            }
        }
        n
    }

    /// Number of features active in one snapshot and not the other.
    #[inline]
    pub fn distance(&self, other: &Snapshot) -> u32 {
        let mut n = 0;
        for c in 0..2 {
            for k in 0..WORDS {
                n += (self.words[c][k] ^ other.words[c][k]).count_ones();
            }
        }
        n
    }

    /// The active feature codes ([`code`]), in increasing order.
    pub fn codes(&self) -> impl Iterator<Item = u16> + '_ {
        (0..2).flat_map(move |c| (0..WORDS).flat_map(move |k| bits(self.words[c][k]).map(move |b| code(c, k, b))))
    }
}

/// [`king_bucket`] as a first-layer row, for 1, 4 and 8 buckets, each
/// perspective and each square of its King (64: none).
static KING_ROWS: [[[u16; 65]; 2]; 3] = king_rows_table();

const fn king_rows_table() -> [[[u16; 65]; 2]; 3] {
    let mut t = [[[0u16; 65]; 2]; 3];
    let mut i = 0;
    while i < 3 {
        let kings = KING_BUCKETS[i];
        let mut p = 0;
        while p < 2 {
            let mut sq = 0;
            while sq < 65 {
                let k = if sq < 64 { Some(sq as u32) } else { None };
                t[i][p][sq] = (king_bucket(kings, p, k) * INPUTS) as u16;
                sq += 1;
            }
            p += 1;
        }
        i += 1;
    }
    t
}

/// [`Snapshot::king_rows`] from a position's feature codes
/// ([`Snapshot::codes`], in increasing order).
pub fn king_rows_of_codes(codes: &[u16], kings: usize) -> [u16; 2] {
    if kings == 1 {
        return [0, 0];
    }
    [0, 1].map(|p| {
        let first = code(p, Role::King.index(), 0);
        let sq = codes.iter().find(|&&c| (first..first + 64).contains(&c)).map(|&c| (c - first) as u32);
        (king_bucket(kings, p, sq) * INPUTS) as u16
    })
}

/// The flag word of a Genesis colour: its reserve counts.
pub fn reserve_flags(counts: impl Iterator<Item = (Role, u8)>) -> u64 {
    let mut f = 0u64;
    for (r, n) in counts {
        if r.index() < 6 {
            // The lowest min(n, 8) bits of the role's byte.
            let ones = (1u64 << n.min(8)) - 1;
            f |= ones << (flag::RESERVE + r.index() as u32 * 8);
        }
    }
    f
}

/// A bitboard with its files turned over (a ↔ h): the bits of each byte
/// reversed.
pub const fn mirror_files(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

#[inline]
fn bits(mut w: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if w == 0 {
            None
        } else {
            let b = w.trailing_zeros();
            w &= w - 1;
            Some(b)
        }
    })
}

/// The absolute code of a feature: colour `c`, word `k` (plane, or
/// `WORDS − 1` for the flags), bit `b`.
#[inline]
pub const fn code(c: usize, k: usize, b: u32) -> u16 {
    ((c * WORDS + k) * 64 + b as usize) as u16
}

/// The input index of feature `code` in perspective `p` (0 White, 1 Black).
pub const fn index(p: usize, code: u16) -> u16 {
    let code = code as usize;
    let c = code / (WORDS * 64);
    let k = (code / 64) % WORDS;
    let b = code % 64;
    let rel = (c != p) as usize;
    if k < PLANES {
        let sq = if p == 0 { b } else { b ^ 56 };
        ((rel * PLANES + k) * 64 + sq) as u16
    } else {
        (BOARD_INPUTS + rel * 64 + b) as u16
    }
}

const fn index_table() -> [[u16; CODES]; 2] {
    let mut t = [[0u16; CODES]; 2];
    let mut p = 0;
    while p < 2 {
        let mut c = 0;
        while c < CODES {
            t[p][c] = index(p, c as u16);
            c += 1;
        }
        p += 1;
    }
    t
}

/// [`index`] for every perspective and code.
pub static INDEX: [[u16; CODES]; 2] = index_table();

/// The hidden layer of both perspectives (by absolute colour: White's
/// view, Black's view).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub v: [[i16; MAX_HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { v: [[0; MAX_HIDDEN]; 2] }
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

/// Bytes of a network file of `shape` with a variant id of `id_len` bytes.
pub const fn file_len(id_len: usize, shape: Shape) -> usize {
    8 + 1
        + id_len
        + 8
        + if shape.is_version1() { 0 } else { 2 }
        + if shape.is_version3() { 1 } else { 0 }
        + 2 * (shape.rows() * shape.width + shape.width + shape.buckets * 2 * shape.width)
        + 4 * shape.buckets
}

/// No network file is longer: the widest net with the most king and
/// output buckets and the longest variant id.
pub const MAX_FILE_LEN: usize =
    file_len(255, Shape { activation: Activation::SCReLU, buckets: MAX_BUCKETS, width: MAX_HIDDEN, kings: 8 });

impl Network {
    /// Reads a network file (format in the module documentation). The
    /// error says what is wrong with the bytes.
    pub fn from_bytes(bytes: &[u8], source: &str) -> Result<Network, String> {
        let v3 = bytes.len() >= 8 && &bytes[..8] == MAGIC3;
        let v2 = v3 || (bytes.len() >= 8 && &bytes[..8] == MAGIC2);
        if bytes.len() < 9 || (&bytes[..8] != MAGIC && !v2) {
            return Err("not a Chimera network file (it must start with CHIMNN1, CHIMNN2 or CHIMNN3)".into());
        }
        let id_len = bytes[8] as usize;
        let id = bytes.get(9..9 + id_len).ok_or("the file ends inside the variant id")?;
        let id = std::str::from_utf8(id).map_err(|_| "the variant id is not UTF-8".to_string())?;
        let variant: Variant = id.parse().map_err(|_| format!("unknown variant id {id:?}"))?;
        let mut at = 9 + id_len;
        let u32_at = |at: &mut usize| -> Result<u32, String> {
            let s = bytes.get(*at..*at + 4).ok_or("the file ends inside the header")?;
            *at += 4;
            Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        };
        let inputs = u32_at(&mut at)? as usize;
        let hidden = u32_at(&mut at)? as usize;
        if inputs != INPUTS || !Shape::valid_width(hidden) || (!v2 && hidden != DEFAULT_HIDDEN) {
            return Err(format!(
                "the net is {inputs}→{hidden}×2→1{}; this build reads {INPUTS}→H×2→1, H 16 to {MAX_HIDDEN} in steps of 16 \
                 ({DEFAULT_HIDDEN} in version 1) (made for another version)",
                if v2 { "" } else { " (version 1)" }
            ));
        }
        let shape = if v2 {
            let s = bytes.get(at..at + 2).ok_or("the file ends inside the header")?;
            at += 2;
            let activation = *Activation::ALL
                .get(s[0] as usize)
                .ok_or_else(|| format!("unknown activation {} (0 CReLU, 1 SCReLU)", s[0]))?;
            let buckets = s[1] as usize;
            if !(1..=MAX_BUCKETS).contains(&buckets) {
                return Err(format!("{buckets} output buckets; a net has 1 to {MAX_BUCKETS}"));
            }
            let kings = if v3 {
                let k = *bytes.get(at).ok_or("the file ends inside the header")? as usize;
                at += 1;
                if k == 1 || !Shape::valid_kings(k) {
                    return Err(format!("{k} king buckets; a version 3 net has 4 or 8"));
                }
                k
            } else {
                1
            };
            Shape { activation, buckets, width: hidden, kings }
        } else {
            Shape::default()
        };
        if bytes.len() != file_len(id_len, shape) {
            return Err(format!(
                "the file has {} bytes; a {} net has {}",
                bytes.len(),
                shape.describe(),
                file_len(id_len, shape)
            ));
        }
        let tail = 4 * shape.buckets;
        // The length check above makes the slices the sizes `from_parts`
        // asks for.
        let i16s: Vec<i16> =
            bytes[at..bytes.len() - tail].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        let h = shape.width;
        let (w, rest) = i16s.split_at(shape.rows() * h);
        let (b, out_w) = rest.split_at(h);
        let out_b: Vec<i32> =
            bytes[bytes.len() - tail..].chunks_exact(4).map(|t| i32::from_le_bytes([t[0], t[1], t[2], t[3]])).collect();
        let mut net = Network::from_parts(variant, shape.activation, w, b, out_w, &out_b);
        net.source = source.to_string();
        Ok(net)
    }

    /// The shape of the output layer.
    pub fn shape(&self) -> Shape {
        Shape { activation: self.activation, buckets: self.out_b.len(), width: self.width, kings: self.kings }
    }

    /// What the net is, for reports: its shape.
    pub fn describe(&self) -> String {
        self.shape().describe()
    }

    /// The file bytes of this network (version 1 when its shape allows).
    pub fn to_bytes(&self) -> Vec<u8> {
        let id = self.variant.id().as_bytes();
        let shape = self.shape();
        let v2 = !shape.is_version1();
        let mut out = Vec::with_capacity(file_len(id.len(), shape));
        out.extend_from_slice(if shape.is_version3() {
            MAGIC3
        } else if v2 {
            MAGIC2
        } else {
            MAGIC
        });
        out.push(id.len() as u8);
        out.extend_from_slice(id);
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(self.width as u32).to_le_bytes());
        if v2 {
            out.extend_from_slice(&[shape.activation.code(), shape.buckets as u8]);
        }
        if shape.is_version3() {
            out.push(shape.kings as u8);
        }
        let (w, b, out_w, _) = self.parts();
        for x in w.iter().chain(b).chain(&out_w) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for x in self.out_b.iter() {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
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

    /// The accumulator of a snapshot, from scratch.
    pub fn refresh(&self, s: &Snapshot) -> Accumulator {
        let mut acc = Accumulator::default();
        self.refresh_into(s, &mut acc);
        acc
    }

    /// [`Network::refresh`] into `acc`, whose lanes past the net's width
    /// are left as they are.
    pub fn refresh_into(&self, s: &Snapshot, acc: &mut Accumulator) {
        self.refresh_masked(s, s.king_rows(self.kings), acc, [true; 2]);
    }

    /// The perspectives of `mask` in `acc` made from scratch (the biases
    /// and every feature) for `s`, whose king rows are `rows`.
    fn refresh_masked(&self, s: &Snapshot, rows: [u16; 2], acc: &mut Accumulator, mask: [bool; 2]) {
        let mut changes = Changes::new(self, acc, rows);
        changes.mask = mask;
        changes.source = Source::Bias;
        changes.diff(&Snapshot::default(), s);
        changes.apply();
    }

    /// Moves `acc` from the snapshot `from` to the snapshot `to`.
    pub fn update(&self, from: &Snapshot, to: &Snapshot, acc: &mut Accumulator) {
        self.update_from(None, from, to, acc);
    }

    /// [`Network::update`], reading the accumulator of `from` from `src`
    /// when given (`acc` is then overwritten in the net's lanes): one pass
    /// over the lanes of each perspective for all the changes together,
    /// the copy included. Should a King have changed bucket between the
    /// two, every input of its perspective changes: that perspective is
    /// made from scratch (the other is still updated).
    pub fn update_from(&self, src: Option<&Accumulator>, from: &Snapshot, to: &Snapshot, acc: &mut Accumulator) {
        let rows = [from.king_rows(self.kings), to.king_rows(self.kings)];
        self.update_with(src, from, to, rows, acc, None);
    }

    /// [`Network::update_from`]; with a [`KingCache`], a perspective whose
    /// King changed bucket starts from the accumulator it last had in the
    /// new bucket rather than from scratch. `rows`: the king rows
    /// ([`Snapshot::king_rows`]) of `from` and of `to`.
    #[inline]
    fn update_with(
        &self,
        src: Option<&Accumulator>,
        from: &Snapshot,
        to: &Snapshot,
        [old, rows]: [[u16; 2]; 2],
        acc: &mut Accumulator,
        cache: Option<&mut KingCache>,
    ) {
        if rows != old {
            self.update_across_buckets(src, from, to, [old, rows], acc, cache);
            return;
        }
        self.apply_diff(src, from, to, rows, acc, [true; 2]);
    }

    /// Moves the perspectives of `mask` in `acc` (from `src`'s when given)
    /// from `from` to `to`, whose king rows are `rows`, in one pass.
    #[inline(always)]
    fn apply_diff(
        &self,
        src: Option<&Accumulator>,
        from: &Snapshot,
        to: &Snapshot,
        rows: [u16; 2],
        acc: &mut Accumulator,
        mask: [bool; 2],
    ) {
        let mut changes = Changes::new(self, acc, rows);
        changes.mask = mask;
        if let Some(src) = src {
            changes.source = Source::Other(src);
        }
        changes.diff(from, to);
        changes.apply();
    }

    /// [`Network::update_with`] when a King has changed bucket: the
    /// perspective whose King kept its bucket is updated, the other made
    /// again (by way of the cache when there is one). Kept out of line, as
    /// it is the rare case.
    #[cold]
    #[inline(never)]
    fn update_across_buckets(
        &self,
        src: Option<&Accumulator>,
        from: &Snapshot,
        to: &Snapshot,
        [old, rows]: [[u16; 2]; 2],
        acc: &mut Accumulator,
        mut cache: Option<&mut KingCache>,
    ) {
        let same = [rows[0] == old[0], rows[1] == old[1]];
        if same[0] || same[1] {
            self.apply_diff(src, from, to, rows, acc, same);
        }
        for (p, _) in same.iter().enumerate().filter(|(_, same)| !**same) {
            match cache.as_deref_mut() {
                Some(cache) => cache.refresh(self, p, rows, to, acc),
                None => self.refresh_masked(to, rows, acc, [p == 0, p == 1]),
            }
        }
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

/// Where a batch of [`Changes`] starts from.
#[derive(Clone, Copy)]
enum Source<'a> {
    /// The accumulator being updated.
    Itself,
    /// Another accumulator (copied and updated in one pass).
    Other(&'a Accumulator),
    /// The net's biases (a refresh).
    Bias,
}

/// Additions (and removals) a fused pass takes at most.
const BATCH: usize = 16;

/// Feature changes gathered for one fused pass over an accumulator: up to
/// [`BATCH`] additions and as many removals at a time (a larger
/// change, such as a refresh, takes several passes).
struct Changes<'a> {
    net: &'a Network,
    acc: &'a mut Accumulator,
    source: Source<'a>,
    /// The row of input 0 in each perspective (its king bucket's first).
    base: [u16; 2],
    /// Rows of the first layer to add and to remove, per perspective.
    adds: [[u16; BATCH]; 2],
    subs: [[u16; BATCH]; 2],
    n_adds: usize,
    n_subs: usize,
    /// The perspectives the changes are applied to (both unless told).
    mask: [bool; 2],
}

impl<'a> Changes<'a> {
    fn new(net: &'a Network, acc: &'a mut Accumulator, base: [u16; 2]) -> Self {
        Changes {
            net,
            acc,
            source: Source::Itself,
            base,
            adds: [[0; BATCH]; 2],
            subs: [[0; BATCH]; 2],
            n_adds: 0,
            n_subs: 0,
            mask: [true; 2],
        }
    }

    /// Gathers every feature that differs between `from` and `to`: those
    /// of `to` alone are added, those of `from` alone removed.
    #[inline(always)]
    fn diff(&mut self, from: &Snapshot, to: &Snapshot) {
        // The words that differ, found in one branch-free pass (a move
        // changes two to four of the twenty), then only those are read.
        let (f, t) = (from.words.as_flattened(), to.words.as_flattened());
        let mut changed = 0u32;
        for i in 0..2 * WORDS {
            changed |= u32::from(f[i] != t[i]) << i;
        }
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            // Word i is colour i / WORDS's word i % WORDS: its codes start
            // at 64 i ([`code`]).
            let (old, new, first) = (f[i], t[i], (i * 64) as u16);
            for b in bits(new & !old) {
                self.add(first + b as u16);
            }
            for b in bits(old & !new) {
                self.sub(first + b as u16);
            }
        }
    }

    #[inline]
    fn add(&mut self, code: u16) {
        self.push(code, false);
    }

    #[inline]
    fn sub(&mut self, code: u16) {
        self.push(code, true);
    }

    /// Gathers the rows of feature `code` for both perspectives, to be
    /// added or (`remove`) subtracted; a full batch is applied first.
    #[inline]
    fn push(&mut self, code: u16, remove: bool) {
        if (if remove { self.n_subs } else { self.n_adds }) == BATCH {
            self.apply();
        }
        let (rows, n) = if remove { (&mut self.subs, &mut self.n_subs) } else { (&mut self.adds, &mut self.n_adds) };
        for ((rows, index), base) in rows.iter_mut().zip(&INDEX).zip(self.base) {
            rows[*n] = base + index[code as usize];
        }
        *n += 1;
    }

    /// Applies the gathered changes (and the copy from the source) to both
    /// perspectives; later batches start from the accumulator itself.
    fn apply(&mut self) {
        let net = self.net;
        let h = net.width;
        for p in 0..2 {
            if !self.mask[p] {
                continue;
            }
            let (adds, subs) = (&self.adds[p][..self.n_adds], &self.subs[p][..self.n_subs]);
            let dst = &mut self.acc.v[p][..h];
            let src = match self.source {
                Source::Itself => None,
                Source::Other(src) => Some(&src.v[p][..h]),
                Source::Bias => Some(&net.b[..h]),
            };
            simd::update(dst, src, &net.w, adds, subs);
        }
        self.source = Source::Itself;
        self.n_adds = 0;
        self.n_subs = 0;
    }
}

/// The vector kernels: AVX-512 (F and BW) where the CPU has it, else AVX2,
/// else a portable loop, chosen at run time. Integer sums (wrapping `i16`
/// adds, exact `i32` dots), so all three give the same bits (tested).
///
/// Every kernel takes two slices of the same length, a multiple of 16 (a
/// net's hidden width; the AVX2 loops work 16 lanes at a time, the AVX-512
/// ones 32 and end an odd multiple of 16 with AVX2's). A longer slice's
/// extra lanes are left out.
pub mod simd {
    use super::{MAX_HIDDEN, QA};

    /// The lanes both slices have, rounded down to a multiple of 16.
    #[inline]
    fn lanes(a: usize, b: usize) -> usize {
        a.min(b) & !15
    }

    /// The widest kernels the CPU can run.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
    pub enum Level {
        /// The plain loops (every CPU).
        Portable,
        /// AVX2: 16 lanes a register.
        Avx2,
        /// AVX-512F and BW, with AVX2 for a width that is an odd multiple
        /// of 16: 32 lanes a register.
        Avx512,
    }

    /// The kernels' level on this CPU, asked of it once and kept: a kernel
    /// call then costs one load and one branch to dispatch. AVX-512 is
    /// taken only with AVX2 as well (every such CPU has it; a virtual
    /// machine that hid it gets the plain loops).
    #[inline]
    pub fn level() -> Level {
        static LEVEL: std::sync::OnceLock<Level> = std::sync::OnceLock::new();
        *LEVEL.get_or_init(detect)
    }

    fn detect() -> Level {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx2") {
                return if has!("avx512f") && has!("avx512bw") { Level::Avx512 } else { Level::Avx2 };
            }
        }
        Level::Portable
    }

    /// `dst = src + Σ rows[adds] − Σ rows[subs]` (`src` absent: `dst`
    /// itself), lane by lane with wrapping `i16` arithmetic, in one pass:
    /// each lane of the source is read once and each lane of `dst` written
    /// once. `adds` and `subs` are indices into `rows`.
    #[inline]
    pub fn update(dst: &mut [i16], src: Option<&[i16]>, rows: &[[i16; MAX_HIDDEN]], adds: &[u16], subs: &[u16]) {
        #[cfg(target_arch = "x86_64")]
        match level() {
            // SAFETY: the CPU has AVX-512F, AVX-512BW and AVX2 (`level`).
            Level::Avx512 => return unsafe { x86::avx512::update(dst, src, rows, adds, subs) },
            // SAFETY: the CPU has AVX2 (`level`).
            Level::Avx2 => return unsafe { x86::update(dst, src, rows, adds, subs) },
            Level::Portable => {}
        }
        portable::update(dst, src, rows, adds, subs);
    }

    /// The lanes of an update: those `dst` and `src` both have, at most a
    /// row's, rounded down to a multiple of 16.
    #[inline]
    fn update_lanes(dst: &[i16], src: Option<&[i16]>) -> usize {
        lanes(dst.len().min(MAX_HIDDEN), src.map_or(dst.len(), |s| s.len()))
    }

    /// `Σ clamp(acc[i], 0, QA) · w[i]`.
    #[inline]
    pub fn crelu_dot(acc: &[i16], w: &[i16]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        match level() {
            // SAFETY: the CPU has AVX-512F, AVX-512BW and AVX2 (`level`).
            Level::Avx512 => return unsafe { x86::avx512::crelu_dot(acc, w) },
            // SAFETY: the CPU has AVX2 (`level`).
            Level::Avx2 => return unsafe { x86::crelu_dot(acc, w) },
            Level::Portable => {}
        }
        portable::crelu_dot(acc, w)
    }

    /// `Σ v · (v · w)` with `v = clamp(acc[i], 0, QA)` and `v · w` taken as
    /// a wrapping `i16` (exact while `|w| ≤ 128`, which the trainer's
    /// clipping keeps: the product then fits `i16`, and `madd` can sum
    /// pairs of `v · (v · w)` in `i32`).
    #[inline]
    pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        match level() {
            // SAFETY: the CPU has AVX-512F, AVX-512BW and AVX2 (`level`).
            Level::Avx512 => return unsafe { x86::avx512::screlu_dot(acc, w) },
            // SAFETY: the CPU has AVX2 (`level`).
            Level::Avx2 => return unsafe { x86::screlu_dot(acc, w) },
            Level::Portable => {}
        }
        portable::screlu_dot(acc, w)
    }

    /// The plain loops (the reference the AVX2 kernels must match).
    pub mod portable {
        use super::{lanes, update_lanes, MAX_HIDDEN, QA};

        pub fn update(dst: &mut [i16], src: Option<&[i16]>, rows: &[[i16; MAX_HIDDEN]], adds: &[u16], subs: &[u16]) {
            let n = update_lanes(dst, src);
            for i in 0..n {
                let mut v = src.map_or(dst[i], |s| s[i]);
                for &a in adds {
                    v = v.wrapping_add(rows[a as usize][i]);
                }
                for &s in subs {
                    v = v.wrapping_sub(rows[s as usize][i]);
                }
                dst[i] = v;
            }
        }

        pub fn crelu_dot(acc: &[i16], w: &[i16]) -> i32 {
            let mut s = 0i32;
            let n = lanes(acc.len(), w.len());
            for (a, x) in acc[..n].iter().zip(&w[..n]) {
                s = s.wrapping_add((*a as i32).clamp(0, QA) * *x as i32);
            }
            s
        }

        pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
            let mut s = 0i32;
            let n = lanes(acc.len(), w.len());
            for (a, x) in acc[..n].iter().zip(&w[..n]) {
                let v = (*a).clamp(0, QA as i16);
                s = s.wrapping_add(v.wrapping_mul(*x) as i32 * v as i32);
            }
            s
        }
    }

    #[cfg(target_arch = "x86_64")]
    pub mod x86 {
        use super::{lanes, update_lanes, MAX_HIDDEN, QA};
        use std::arch::x86_64::*;

        /// The accumulator update for one register width (AVX2's and
        /// AVX-512's), given its features, lanes, register type and
        /// intrinsics: `update` works `$regs` registers (128 lanes) at a
        /// time, held in registers while every row is added or removed, then
        /// one register at a time; 16 lanes left over (AVX-512 on a width
        /// that is an odd multiple of 16) go to `$tail`.
        macro_rules! update_kernel {
            (
                $update_features:literal, $tile_features:literal, $lanes:literal, $regs:literal, $tail:path,
                $reg:ty, $zero:ident, $load:ident, $store:ident, $add:ident, $sub:ident
            ) => {
                /// # Safety
                /// The CPU must have the features this kernel is built for.
                #[target_feature(enable = $update_features)]
                pub unsafe fn update(
                    dst: &mut [i16],
                    src: Option<&[i16]>,
                    rows: &[[i16; MAX_HIDDEN]],
                    adds: &[u16],
                    subs: &[u16],
                ) {
                    let n = update_lanes(dst, src);
                    let mut t = 0;
                    while t + $lanes * $regs <= n {
                        tile::<$regs>(dst, src, rows, adds, subs, t);
                        t += $lanes * $regs;
                    }
                    while t + $lanes <= n {
                        tile::<1>(dst, src, rows, adds, subs, t);
                        t += $lanes;
                    }
                    if t < n {
                        $tail(dst, src, rows, adds, subs, t);
                    }
                }

                /// `tile::<M>`: lanes `t .. t + L M` of `update`, `M`
                /// registers of `L` lanes.
                ///
                /// # Safety
                /// The CPU must have the features named, and `t + L M` must
                /// be at most `update_lanes(dst, src)` (so at most a row's
                /// length).
                #[target_feature(enable = $tile_features)]
                #[inline]
                unsafe fn tile<const M: usize>(
                    dst: &mut [i16],
                    src: Option<&[i16]>,
                    rows: &[[i16; MAX_HIDDEN]],
                    adds: &[u16],
                    subs: &[u16],
                    t: usize,
                ) {
                    // `src` may be `dst` itself: the tile is read before it is written.
                    let from = src.map_or(dst.as_ptr(), |s| s.as_ptr()).add(t);
                    let mut r = [$zero(); M];
                    for (c, v) in r.iter_mut().enumerate() {
                        *v = $load(from.add($lanes * c) as *const $reg);
                    }
                    for &a in adds {
                        let w = rows[a as usize].as_ptr().add(t);
                        for (c, v) in r.iter_mut().enumerate() {
                            *v = $add(*v, $load(w.add($lanes * c) as *const $reg));
                        }
                    }
                    for &s in subs {
                        let w = rows[s as usize].as_ptr().add(t);
                        for (c, v) in r.iter_mut().enumerate() {
                            *v = $sub(*v, $load(w.add($lanes * c) as *const $reg));
                        }
                    }
                    let to = dst.as_mut_ptr().add(t);
                    for (c, v) in r.iter().enumerate() {
                        $store(to.add($lanes * c) as *mut $reg, *v);
                    }
                }
            };
        }

        update_kernel!(
            "avx2",
            "avx2",
            16,
            8,
            tile::<1>,
            __m256i,
            _mm256_setzero_si256,
            _mm256_loadu_si256,
            _mm256_storeu_si256,
            _mm256_add_epi16,
            _mm256_sub_epi16
        );

        /// # Safety
        /// The CPU must have AVX2.
        #[target_feature(enable = "avx2")]
        pub unsafe fn crelu_dot(acc: &[i16], w: &[i16]) -> i32 {
            dot::<false>(acc, w)
        }

        /// # Safety
        /// The CPU must have AVX2.
        #[target_feature(enable = "avx2")]
        pub unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
            dot::<true>(acc, w)
        }

        /// `Σ v · w` (`SQUARE` false) or `Σ v · (v · w)` (true), with
        /// `v = clamp(acc, 0, QA)`.
        ///
        /// # Safety
        /// The CPU must have AVX2.
        #[target_feature(enable = "avx2")]
        unsafe fn dot<const SQUARE: bool>(acc: &[i16], w: &[i16]) -> i32 {
            let zero = _mm256_setzero_si256();
            let qa = _mm256_set1_epi16(QA as i16);
            let mut sum = _mm256_setzero_si256();
            for i in (0..lanes(acc.len(), w.len())).step_by(16) {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
                let b = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
                let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                let term =
                    if SQUARE { _mm256_madd_epi16(_mm256_mullo_epi16(v, b), v) } else { _mm256_madd_epi16(v, b) };
                sum = _mm256_add_epi32(sum, term);
            }
            let hi = _mm256_extracti128_si256(sum, 1);
            let s = _mm_add_epi32(_mm256_castsi256_si128(sum), hi);
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
            _mm_cvtsi128_si32(s)
        }

        /// The same kernels 32 lanes a register (AVX-512F and BW). A width
        /// that is not a multiple of 32 ends with the AVX2 kernels' 16.
        pub mod avx512 {
            use super::super::{lanes, update_lanes, MAX_HIDDEN, QA};
            use std::arch::x86_64::*;

            update_kernel!(
                "avx512f,avx512bw,avx2",
                "avx512f,avx512bw",
                32,
                4,
                super::tile::<1>,
                __m512i,
                _mm512_setzero_si512,
                _mm512_loadu_si512,
                _mm512_storeu_si512,
                _mm512_add_epi16,
                _mm512_sub_epi16
            );

            /// # Safety
            /// The CPU must have AVX-512F, AVX-512BW and AVX2.
            #[target_feature(enable = "avx512f,avx512bw,avx2")]
            pub unsafe fn crelu_dot(acc: &[i16], w: &[i16]) -> i32 {
                let n = lanes(acc.len(), w.len());
                let m = n & !31;
                dot::<false>(&acc[..m], &w[..m]).wrapping_add(super::crelu_dot(&acc[m..n], &w[m..n]))
            }

            /// # Safety
            /// The CPU must have AVX-512F, AVX-512BW and AVX2.
            #[target_feature(enable = "avx512f,avx512bw,avx2")]
            pub unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
                let n = lanes(acc.len(), w.len());
                let m = n & !31;
                dot::<true>(&acc[..m], &w[..m]).wrapping_add(super::screlu_dot(&acc[m..n], &w[m..n]))
            }

            /// [`super::dot`] over slices whose length is a multiple of 32
            /// (integer sums wrap, so the order of the additions does not
            /// change the result).
            ///
            /// # Safety
            /// The CPU must have AVX-512F and BW.
            #[target_feature(enable = "avx512f,avx512bw")]
            unsafe fn dot<const SQUARE: bool>(acc: &[i16], w: &[i16]) -> i32 {
                let zero = _mm512_setzero_si512();
                let qa = _mm512_set1_epi16(QA as i16);
                let mut sum = _mm512_setzero_si512();
                for i in (0..acc.len().min(w.len())).step_by(32) {
                    let a = _mm512_loadu_si512(acc.as_ptr().add(i) as *const __m512i);
                    let b = _mm512_loadu_si512(w.as_ptr().add(i) as *const __m512i);
                    let v = _mm512_min_epi16(_mm512_max_epi16(a, zero), qa);
                    let term =
                        if SQUARE { _mm512_madd_epi16(_mm512_mullo_epi16(v, b), v) } else { _mm512_madd_epi16(v, b) };
                    sum = _mm512_add_epi32(sum, term);
                }
                _mm512_reduce_add_epi32(sum)
            }
        }
    }
}

/// A distance between snapshots ([`Snapshot::distance`]) that a single
/// move rarely beats: [`Stack::evaluate`] looks no further once an
/// accumulator that near is found.
const NEAR: u32 = 3;

/// Accumulators along the search path, one per ply.
pub struct Stack {
    slots: Vec<Slot>,
    cache: KingCache,
}

/// For each perspective and king bucket, the accumulator that perspective
/// last had in that bucket and the snapshot it was made for (Stockfish's
/// "Finny tables"). When a King changes bucket, its perspective is made
/// from this entry by the changes since (a King stepping back to the
/// bucket it left a few moves ago: a handful), not from scratch (every
/// piece on the board).
///
/// The entries are allocated at the first change of bucket, so a search
/// without a net, or one whose Kings never change bucket, spends nothing
/// on them.
pub struct KingCache {
    entries: Option<Box<[[CacheEntry; MAX_KINGS]; 2]>>,
}

#[derive(Clone, Copy, Default)]
struct CacheEntry {
    valid: bool,
    snap: Snapshot,
    acc: Accumulator,
}

/// The most king buckets a net may have ([`KING_BUCKETS`]).
const MAX_KINGS: usize = 8;

impl KingCache {
    fn new() -> KingCache {
        KingCache { entries: None }
    }

    /// Sets perspective `p` of `acc` to the accumulator of `to`, whose
    /// king-bucket rows are `rows`, by way of the entry of its bucket
    /// (made from scratch when the entry is empty, or further from `to`
    /// than `to` has features).
    fn refresh(&mut self, net: &Network, p: usize, rows: [u16; 2], to: &Snapshot, acc: &mut Accumulator) {
        let entries = self.entries.get_or_insert_with(|| Box::new([[CacheEntry::default(); MAX_KINGS]; 2]));
        let e = &mut entries[p][rows[p] as usize / INPUTS];
        let mask = [p == 0, p == 1];
        if !e.valid || e.snap.distance(to) >= to.count() {
            net.refresh_masked(to, rows, &mut e.acc, mask);
        } else {
            net.apply_diff(None, &e.snap, to, rows, &mut e.acc, mask);
        }
        e.valid = true;
        e.snap = *to;
        let h = net.width;
        acc.v[p][..h].copy_from_slice(&e.acc.v[p][..h]);
    }
}

#[derive(Clone, Copy, Default)]
struct Slot {
    valid: bool,
    snap: Snapshot,
    /// The king rows of `snap` ([`Snapshot::king_rows`]) in the net's buckets.
    rows: [u16; 2],
    acc: Accumulator,
}

impl Stack {
    pub fn new(plies: usize) -> Stack {
        Stack { slots: vec![Slot::default(); plies], cache: KingCache::new() }
    }

    /// The network's evaluation of `pos` (at `ply` of the search) for the
    /// side to move, from the cheapest nearby accumulator (module
    /// documentation).
    pub fn evaluate<P: Evaluate>(&mut self, net: &Network, pos: &P, ply: usize) -> i32 {
        let ply = ply.min(self.slots.len() - 1);
        let snap = Snapshot::of(pos);
        let rows = snap.king_rows(net.kings);
        // The parent first: one move away, it usually differs by two to
        // four features (a capture three, a castling four), and then the
        // others are not looked at.
        let mut best: Option<(usize, u32)> = None;
        for q in [ply.wrapping_sub(1), ply, ply.wrapping_sub(2)] {
            if let Some(s) = self.slots.get(q).filter(|s| s.valid) {
                let d = s.snap.distance(&snap);
                if best.is_none_or(|(_, bd)| d < bd) {
                    best = Some((q, d));
                }
                if d <= NEAR {
                    break;
                }
            }
        }
        // The accumulator is built in its slot, copied from a parent's and
        // updated in one pass over the net's lanes (a 128-wide net touches
        // half of them).
        match best {
            Some((q, d)) if d <= NEAR || d < snap.count() => {
                let cache = Some(&mut self.cache);
                if q == ply {
                    let slot = &mut self.slots[ply];
                    net.update_with(None, &slot.snap, &snap, [slot.rows, rows], &mut slot.acc, cache);
                } else {
                    let (lo, hi) = self.slots.split_at_mut(ply);
                    net.update_with(Some(&lo[q].acc), &lo[q].snap, &snap, [lo[q].rows, rows], &mut hi[0].acc, cache);
                }
            }
            _ => net.refresh_into(&snap, &mut self.slots[ply].acc),
        }
        let slot = &mut self.slots[ply];
        slot.valid = true;
        slot.snap = snap;
        slot.rows = rows;
        net.output(&slot.acc, pos.turn(), &slot.snap)
    }
}

/// Whether a net trained for `net` evaluates `variant` (the Genie net
/// serves both Genie rule sets).
pub fn serves(net: Variant, variant: Variant) -> bool {
    net == variant || (net == Variant::Genie && variant == Variant::GenieOwnHalf)
}

/// The network built into the binary for `variant` (`None`: the variant
/// plays with the hand-made evaluation), read once from [`EMBEDDED`].
pub fn embedded(variant: Variant) -> Option<&'static Network> {
    use std::sync::OnceLock;
    static NETS: OnceLock<Vec<Network>> = OnceLock::new();
    let nets = NETS.get_or_init(|| {
        EMBEDDED
            .iter()
            .map(|(name, bytes)| match Network::from_bytes(bytes, &format!("<embedded {name}>")) {
                Ok(n) => n,
                Err(e) => panic!("embedded net {name} is broken: {e}"),
            })
            .collect()
    });
    nets.iter().find(|n| n.variant == variant).or_else(|| nets.iter().find(|n| serves(n.variant, variant)))
}

/// The net files built into the binary (`crates/engine/nets/`, how each
/// was made and measured in `docs/strength.md` §9-§22). Only nets that beat the
/// hand-made evaluation are listed: `Use NNUE` switches every variant
/// with a net here at once.
const EMBEDDED: &[(&str, &[u8])] = &[
    ("chess", include_bytes!("../nets/chess.nnue")),
    ("genie", include_bytes!("../nets/genie.nnue")),
    ("clown", include_bytes!("../nets/clown.nnue")),
    ("magicring", include_bytes!("../nets/magicring.nnue")),
    ("genesis", include_bytes!("../nets/genesis.nnue")),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix;
    use chimera_rules::with_position;
    use chimera_rules::{AnyPosition, Position, RuleOptions};

    /// A network of random small weights.
    pub fn random_net(variant: Variant, seed: u64) -> Network {
        random_net_of(variant, seed, Shape::default())
    }

    /// A network of random small weights and the given shape.
    pub fn random_net_of(variant: Variant, seed: u64, shape: Shape) -> Network {
        let mut rng = SplitMix(seed);
        let mut r = |m: u64| (rng.next() % (2 * m + 1)) as i32 - m as i32;
        let h = shape.width;
        let w: Vec<i16> = (0..shape.rows() * h).map(|_| r(40) as i16).collect();
        let b: Vec<i16> = (0..h).map(|_| r(60) as i16).collect();
        let o: Vec<i16> = (0..shape.buckets * 2 * h).map(|_| r(127) as i16).collect();
        let ob: Vec<i32> = (0..shape.buckets).map(|_| r(5000)).collect();
        Network::from_parts(variant, shape.activation, &w, &b, &o, &ob)
    }

    /// The non-default shape the tests try beside version 1.
    const SCRELU8: Shape = Shape { activation: Activation::SCReLU, buckets: 8, width: MAX_HIDDEN, kings: 1 };
    /// A net with four king buckets (version 3).
    const KINGS4: Shape = Shape { activation: Activation::SCReLU, buckets: 4, width: 64, kings: 4 };
    /// A net with eight king buckets (version 3).
    const KINGS8: Shape = Shape { activation: Activation::SCReLU, buckets: 1, width: 32, kings: 8 };

    /// The king buckets by hand: each side's own King, seen from its side
    /// of the board; a King that crosses between the d- and e-files or
    /// leaves its home rank changes bucket, and no King is bucket 0.
    #[test]
    fn king_buckets_by_hand() {
        let buckets = |fen: &str, n: usize| {
            let pos = AnyPosition::from_fen(Variant::Chess, fen, &RuleOptions::default()).unwrap();
            let snap = with_position!(&pos, p => Snapshot::of(p));
            let rows = snap.king_rows(n);
            assert_eq!(snap.king_rows(1), [0, 0]);
            [rows[0] as usize / INPUTS, rows[1] as usize / INPUTS]
        };
        let kings = |fen: &str| buckets(fen, 4);
        // White castled short (g1): 1; Black's King on b8, its home rank: 0.
        assert_eq!(kings("1k6/8/8/8/8/8/8/6K1 w - - 0 1"), [1, 0]);
        // White on c1: 0; Black on g8: 1.
        assert_eq!(kings("6k1/8/8/8/8/8/8/2K5 w - - 0 1"), [0, 1]);
        // Off the home rank: White e4 3, Black d6 (its third rank) 2.
        assert_eq!(kings("8/8/3k4/8/4K3/8/8/8 w - - 0 1"), [3, 2]);
        // Each side's home rank only: White on h8 is 3, Black on a1 is 2.
        assert_eq!(kings("7K/8/8/8/8/8/8/k7 w - - 0 1"), [3, 2]);
        assert_eq!(king_bucket(4, 0, None), 0);
        assert_eq!(king_bucket(1, 1, Some(60)), 0);
        // Eight: the home rank by pairs of files, then the second rank's
        // halves and the halves of the ranks beyond. White g1 3, Black b8 0;
        // White c1 1, Black g8 3; White e4 7, Black d6 6; White f2 5, Black
        // e7 (its second rank) 5; White h8 7, Black a1 6; White e1 2, Black
        // d8 1.
        assert_eq!(buckets("1k6/8/8/8/8/8/8/6K1 w - - 0 1", 8), [3, 0]);
        assert_eq!(buckets("6k1/8/8/8/8/8/8/2K5 w - - 0 1", 8), [1, 3]);
        assert_eq!(buckets("8/8/3k4/8/4K3/8/8/8 w - - 0 1", 8), [7, 6]);
        assert_eq!(buckets("8/4k3/8/8/8/8/5K2/8 w - - 0 1", 8), [5, 5]);
        assert_eq!(buckets("7K/8/8/8/8/8/8/k7 w - - 0 1", 8), [7, 6]);
        assert_eq!(buckets("3k4/8/8/8/8/8/8/4K3 w - - 0 1", 8), [2, 1]);
        assert_eq!(king_bucket(8, 1, None), 0);
        // Each of the 8 lies inside one of the 4, and every bucket inside
        // the one of 1; the 4 straddle the 8's edges, so not the other way.
        let parents: Vec<_> = (0..8).map(|b| king_bucket_parent(4, 8, b)).collect();
        assert_eq!(parents, [0, 0, 1, 1, 2, 3, 2, 3].map(Some));
        assert!((0..4).all(|b| king_bucket_parent(1, 4, b) == Some(0)));
        assert!((0..4).all(|b| king_bucket_parent(8, 4, b).is_none()));
        for sq in 0..64 {
            for p in 0..2 {
                let b8 = king_bucket(8, p, Some(sq));
                assert_eq!(king_bucket_parent(4, 8, b8), Some(king_bucket(4, p, Some(sq))), "square {sq}");
            }
        }
        // The same from the feature codes (the trainer's way).
        let pos =
            AnyPosition::from_fen(Variant::Chess, "8/8/3k4/8/4K3/8/8/8 w - - 0 1", &RuleOptions::default()).unwrap();
        let snap = with_position!(&pos, p => Snapshot::of(p));
        let codes: Vec<u16> = snap.codes().collect();
        assert_eq!(king_rows_of_codes(&codes, 4), snap.king_rows(4));
        assert_eq!(king_rows_of_codes(&codes, 4), [3 * INPUTS as u16, 2 * INPUTS as u16]);
        assert_eq!(king_rows_of_codes(&codes, 8), snap.king_rows(8));
        assert_eq!(king_rows_of_codes(&codes, 8), [7 * INPUTS as u16, 6 * INPUTS as u16]);
    }

    #[test]
    fn index_is_a_bijection_per_perspective_and_mirrors_colours() {
        for table in &INDEX {
            let mut seen = vec![false; INPUTS];
            for &i in table.iter() {
                let i = i as usize;
                assert!(i < INPUTS);
                assert!(!seen[i], "two codes share input {i}");
                seen[i] = true;
            }
            assert!(seen.iter().all(|&s| s));
        }
        // White's pawn on e2 seen by White = Black's pawn on e7 seen by Black.
        let e2 = code(0, 0, 12);
        let e7 = code(1, 0, 52);
        assert_eq!(INDEX[0][e2 as usize], INDEX[1][e7 as usize]);
        // A flag is not turned over.
        assert_eq!(INDEX[0][code(0, WORDS - 1, 48) as usize], INDEX[1][code(1, WORDS - 1, 48) as usize]);
    }

    #[test]
    fn mirrored_snapshots_are_the_mirrored_positions() {
        let a = AnyPosition::from_fen(Variant::Chess, "4k3/1p6/8/8/8/5N2/6PP/4K2R w - - 0 1", &RuleOptions::default())
            .unwrap();
        let b = AnyPosition::from_fen(Variant::Chess, "3k4/6p1/8/8/8/2N5/PP6/R2K4 w - - 0 1", &RuleOptions::default())
            .unwrap();
        let sa = with_position!(&a, p => Snapshot::of(p));
        let sb = with_position!(&b, p => Snapshot::of(p));
        assert_eq!(sa.mirrored(), sb);
        assert_eq!(sb.mirrored(), sa);
        assert_eq!(mirror_files(1), 0x80);
    }

    #[test]
    fn file_round_trip_and_clear_errors() {
        let net = random_net(Variant::Chess, 3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_len(5, Shape::default()));
        assert_eq!(&bytes[..8], MAGIC, "a CReLU net with one bucket is written as version 1");
        let back = Network::from_bytes(&bytes, "x").unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert!(Network::from_bytes(b"hello", "x").unwrap_err().contains("not a Chimera network"));
        // A net of `shape` is written with `magic`, its length as said, and
        // read back to the same shape and bytes.
        let written = |variant: Variant, shape: Shape, magic: &[u8; 8]| {
            let bytes = random_net_of(variant, 4, shape).to_bytes();
            assert_eq!(&bytes[..8], magic);
            assert_eq!(bytes.len(), file_len(variant.id().len(), shape));
            let back = Network::from_bytes(&bytes, "x").unwrap();
            assert_eq!(back.shape(), shape);
            assert_eq!(back.to_bytes(), bytes);
            (bytes, back)
        };
        // Version 2: activation and buckets in the header.
        for shape in [SCRELU8, Shape { activation: Activation::CReLU, buckets: 4, width: 64, kings: 1 }] {
            let (v2, _) = written(Variant::Genesis, shape, MAGIC2);
            let at = 8 + 1 + 7 + 8;
            let mut bad = v2.clone();
            bad[at] = 2;
            assert!(Network::from_bytes(&bad, "x").unwrap_err().contains("unknown activation 2"));
            for n in [0, MAX_BUCKETS as u8 + 1] {
                let mut bad = v2.clone();
                bad[at + 1] = n;
                let e = Network::from_bytes(&bad, "x").unwrap_err();
                assert!(e.contains(&format!("{n} output buckets")), "{e}");
            }
            let e = Network::from_bytes(&v2[..v2.len() - 4], "x").unwrap_err();
            assert!(e.contains("bytes") && e.contains(&shape.describe()), "{e}");
            assert!(Network::from_bytes(&v2[..at + 1], "x").unwrap_err().contains("ends inside the header"));
        }
        let e = Network::from_bytes(&bytes[..bytes.len() - 1], "x").unwrap_err();
        assert!(e.contains("bytes"), "{e}");
        let mut bad = bytes.clone();
        bad[9] = b'X';
        assert!(Network::from_bytes(&bad, "x").unwrap_err().contains("unknown variant"));
        // Version 3: the number of king buckets after version 2's header.
        let (_, back8) = written(Variant::Chess, KINGS8, MAGIC3);
        assert!(back8.describe().starts_with("8×1280→32×2→1"), "{}", back8.describe());
        let (v3, back) = written(Variant::Chess, KINGS4, MAGIC3);
        assert!(back.describe().starts_with("4×1280→64×2→1"), "{}", back.describe());
        let at = 8 + 1 + 5 + 8 + 2;
        for k in [0u8, 1, 2, 5, 16, 255] {
            let mut bad = v3.clone();
            bad[at] = k;
            let e = Network::from_bytes(&bad, "x").unwrap_err();
            assert!(e.contains(&format!("{k} king buckets")), "{e}");
        }
        assert!(Network::from_bytes(&v3[..at], "x").unwrap_err().contains("ends inside the header"));
        let mut big = bytes.clone();
        big[9 + 5 + 4] = 1; // hidden size 129 (and a version 1 net is 128 wide)
        assert!(Network::from_bytes(&big, "x").unwrap_err().contains("this build reads"));
    }

    /// Damaged files (truncated anywhere in the header, bytes changed,
    /// bytes added or cut at the end): a net file is either refused with a
    /// reason or read to a net that writes back the same bytes (its variant
    /// id in lower case); never a panic.
    #[test]
    fn damaged_net_files_are_refused_or_read_exactly() {
        let check = |b: &[u8]| match Network::from_bytes(b, "x") {
            Ok(n) => {
                // Variant ids are read in any case and written in lower case.
                let mut want = b.to_vec();
                want[9..9 + b[8] as usize].make_ascii_lowercase();
                assert!(
                    n.to_bytes() == want || (&b[..8] == MAGIC2 && n.shape() == Shape::default()),
                    "read a net that does not write back the same bytes"
                )
            }
            Err(e) => assert!(!e.is_empty()),
        };
        let mut rng = SplitMix(99);
        for f in [
            random_net(Variant::Chess, 1).to_bytes(),
            random_net_of(Variant::Genesis, 2, SCRELU8).to_bytes(),
            random_net_of(Variant::Chess, 3, KINGS4).to_bytes(),
            random_net_of(Variant::Chess, 4, KINGS8).to_bytes(),
        ] {
            for len in 0..64 {
                check(&f[..len]);
            }
            for _ in 0..400 {
                let mut b = f.clone();
                match rng.next() % 3 {
                    0 => {
                        for _ in 0..1 + rng.next() % 3 {
                            let i = (rng.next() % 40) as usize;
                            b[i] = rng.next() as u8;
                        }
                    }
                    1 => b.truncate((rng.next() as usize) % f.len()),
                    _ => b.extend((0..1 + rng.next() % 9).map(|_| rng.next() as u8)),
                }
                check(&b);
            }
        }
    }

    /// The vector kernels this CPU can run, by name, beside the dispatch.
    type Kernels = (
        &'static str,
        fn(&mut [i16], Option<&[i16]>, &[[i16; MAX_HIDDEN]], &[u16], &[u16]),
        fn(&[i16], &[i16]) -> i32,
        fn(&[i16], &[i16]) -> i32,
    );

    fn vector_kernels() -> Vec<Kernels> {
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut k: Vec<Kernels> = vec![("dispatch", simd::update, simd::crelu_dot, simd::screlu_dot)];
        #[cfg(target_arch = "x86_64")]
        {
            use simd::{level, Level};
            // SAFETY (each closure): called only when the CPU has the features.
            if level() >= Level::Avx2 {
                k.push((
                    "avx2",
                    |d, s, r, a, b| unsafe { simd::x86::update(d, s, r, a, b) },
                    |a, w| unsafe { simd::x86::crelu_dot(a, w) },
                    |a, w| unsafe { simd::x86::screlu_dot(a, w) },
                ));
            }
            if level() == Level::Avx512 {
                k.push((
                    "avx512",
                    |d, s, r, a, b| unsafe { simd::x86::avx512::update(d, s, r, a, b) },
                    |a, w| unsafe { simd::x86::avx512::crelu_dot(a, w) },
                    |a, w| unsafe { simd::x86::avx512::screlu_dot(a, w) },
                ));
            }
        }
        eprintln!("vector kernels tested: {:?}", k.iter().map(|k| k.0).collect::<Vec<_>>());
        k
    }

    #[test]
    fn vector_kernels_match_the_portable_loops() {
        for kernels in vector_kernels() {
            kernels_match_the_portable_loops(kernels);
        }
    }

    fn kernels_match_the_portable_loops((name, update, crelu_dot, screlu_dot): Kernels) {
        let mut rng = SplitMix(11);
        for round in 0..200 {
            // Every width a net may have, 16 lanes at a time.
            let h = 16 * (1 + round % (MAX_HIDDEN / 16));
            let mut a = [0i16; MAX_HIDDEN];
            let mut w = [0i16; MAX_HIDDEN];
            for i in 0..MAX_HIDDEN {
                a[i] = rng.next() as i16;
                w[i] = (rng.next() % 255) as i16 - 127;
            }
            // Up to a batch of rows added and removed, in place or from
            // another accumulator.
            let rows: Vec<[i16; MAX_HIDDEN]> =
                (0..2 * BATCH).map(|_| std::array::from_fn(|_| rng.next() as i16)).collect();
            let adds: Vec<u16> = (0..(round % (BATCH + 1)) as u16).collect();
            let subs: Vec<u16> = (BATCH as u16..(BATCH + (round * 7) % (BATCH + 1)) as u16).collect();
            let (mut p, mut s) = (a, a);
            simd::portable::update(&mut p[..h], None, &rows, &adds, &subs);
            update(&mut s[..h], None, &rows, &adds, &subs);
            assert_eq!(p, s, "{name}, width {h}");
            assert_eq!(p[h..], a[h..], "lanes past the width are left alone");
            for i in 0..h {
                let sum = adds.iter().fold(a[i], |v, &r| v.wrapping_add(rows[r as usize][i]));
                assert_eq!(p[i], subs.iter().fold(sum, |v, &r| v.wrapping_sub(rows[r as usize][i])), "lane {i}");
            }
            let (mut p2, mut s2) = (w, w);
            simd::portable::update(&mut p2[..h], Some(&a[..h]), &rows, &adds, &subs);
            update(&mut s2[..h], Some(&a[..h]), &rows, &adds, &subs);
            assert_eq!(
                (p2[..h].to_vec(), s2[..h].to_vec()),
                (p[..h].to_vec(), p[..h].to_vec()),
                "{name}: from another"
            );
            assert_eq!(s2[h..], w[h..]);
            update(&mut s[..h], None, &rows, &subs, &adds);
            assert_eq!(s, a, "{name}: undone");
            assert_eq!(simd::portable::crelu_dot(&a[..h], &w[..h]), crelu_dot(&a[..h], &w[..h]), "{name}");
            assert_eq!(simd::portable::screlu_dot(&a[..h], &w[..h]), screlu_dot(&a[..h], &w[..h]), "{name}");
            // Any weights at all (a hostile file): both wrap alike.
            let wild: [i16; MAX_HIDDEN] = std::array::from_fn(|_| rng.next() as i16);
            assert_eq!(simd::portable::screlu_dot(&a[..h], &wild[..h]), screlu_dot(&a[..h], &wild[..h]), "{name}");
            assert_eq!(simd::portable::crelu_dot(&a[..h], &wild[..h]), crelu_dot(&a[..h], &wild[..h]), "{name}");
        }
    }

    /// The SCReLU kernel against its definition in 64-bit arithmetic, for
    /// weights the trainer can produce (|w| ≤ 127).
    #[test]
    fn screlu_dot_is_the_sum_of_squared_activations() {
        let mut rng = SplitMix(12);
        for _ in 0..200 {
            let a: [i16; MAX_HIDDEN] = std::array::from_fn(|_| (rng.next() % 700) as i16 - 200);
            let w: [i16; MAX_HIDDEN] = std::array::from_fn(|_| (rng.next() % 255) as i16 - 127);
            let exact: i64 = a.iter().zip(&w).map(|(&a, &w)| (a as i64).clamp(0, QA as i64).pow(2) * w as i64).sum();
            assert_eq!(simd::screlu_dot(&a, &w) as i64, exact);
        }
    }

    /// A reserve of `n` pieces of a role sets the lowest `min(n, 8)` bits
    /// of its byte, and nothing else.
    #[test]
    fn reserve_flags_count_each_role_in_its_byte() {
        assert_eq!(reserve_flags(std::iter::empty()), 0);
        let f = reserve_flags([(Role::Pawn, 8), (Role::Knight, 2), (Role::Queen, 0), (Role::King, 1)].into_iter());
        assert_eq!(f, 0xFF | 0b11 << 8 | 1 << 40);
        assert_eq!(reserve_flags([(Role::Bishop, 12)].into_iter()), 0xFF << 16, "at most 8 a role");
        assert_eq!(reserve_flags([(Role::Genie, 3)].into_iter()), 0, "no byte past the King's");
        for n in 0..=8u8 {
            assert_eq!(reserve_flags([(Role::Rook, n)].into_iter()).count_ones(), n as u32);
        }
    }

    #[test]
    fn buckets_follow_the_material_on_the_board_and_in_reserve() {
        let opts = RuleOptions::default();
        for &v in Variant::ALL.iter() {
            let start = AnyPosition::new(v, &opts);
            let s = with_position!(&start, p => Snapshot::of(p));
            assert_eq!(material(&s), 32, "{}", v.id());
            assert_eq!(bucket(material(&s), 8), 7);
            for pos in crate::random_walk(v, 9, 150) {
                let s = with_position!(&pos, p => Snapshot::of(p));
                let codes: Vec<u16> = s.codes().collect();
                assert_eq!(material_of_codes(&codes), material(&s), "{}", pos.fen());
                assert!(material(&s) <= 32);
            }
        }
        let kk = AnyPosition::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", &opts).unwrap();
        let s = with_position!(&kk, p => Snapshot::of(p));
        assert_eq!((material(&s), bucket(material(&s), 8)), (2, 0));
        // Every bucket is used and they rise with the material.
        let ks: Vec<usize> = (2..=32).map(|m| bucket(m, 8)).collect();
        assert!(ks.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!((ks[0], ks[30]), (0, 7));
        assert!((0..8).all(|k| ks.contains(&k)));
        assert!((0..=40).all(|m| bucket(m, 1) == 0));
    }

    /// A refresh (several batches of rows: 32 pieces and more) against the
    /// definition `b + Σ W1[index(p, f)]`, summed lane by lane.
    #[test]
    fn a_refresh_is_the_sum_of_the_rows_of_the_features() {
        for &v in Variant::ALL.iter() {
            for net in [random_net_of(v, 7, SCRELU8), random_net_of(v, 8, KINGS4), random_net_of(v, 9, KINGS8)] {
                for pos in crate::random_walk(v, 3, 40) {
                    let snap = with_position!(&pos, p => Snapshot::of(p));
                    let acc = net.refresh(&snap);
                    for (p, index) in INDEX.iter().enumerate() {
                        let base = (king_bucket(net.kings, p, snap.king(p)) * INPUTS) as u16;
                        let mut want = net.b;
                        for code in snap.codes() {
                            for (x, w) in want.iter_mut().zip(&net.w[(base + index[code as usize]) as usize]) {
                                *x = x.wrapping_add(*w);
                            }
                        }
                        assert_eq!(acc.v[p][..net.width], want[..net.width], "{} {}", v.id(), pos.fen());
                    }
                }
            }
        }
    }

    #[test]
    fn incremental_updates_equal_a_refresh_in_every_variant() {
        for &v in Variant::ALL.iter() {
            let net = if v == Variant::Chess { random_net(v, 5) } else { random_net_of(v, 5, SCRELU8) };
            // With king buckets, the Kings' walks between buckets too.
            let mut crossings = 0;
            for net in [net, random_net_of(v, 6, KINGS4), random_net_of(v, 7, KINGS8)] {
                for seed in 0..4 {
                    let walk = crate::random_walk(v, seed, 120);
                    let mut stack = Stack::new(8);
                    let mut last = None;
                    // `Network::update` along the walk, without a king cache.
                    let mut walked: Option<(Snapshot, Accumulator)> = None;
                    for (i, pos) in walk.iter().enumerate() {
                        // Plies wander up and down as in a search.
                        let ply = (i * 7 + seed as usize) % 5;
                        // The refresh is the reference for both paths
                        // (`Network::evaluate` is its output).
                        let (snap, turn) = with_position!(pos, p => (Snapshot::of(p), p.turn()));
                        let want = net.refresh(&snap);
                        let inc = with_position!(pos, p => stack.evaluate(&net, p, ply));
                        assert_eq!(inc, net.output(&want, turn, &snap), "{} ply {i}", v.id());
                        let acc = match walked {
                            Some((from, mut acc)) => {
                                net.update(&from, &snap, &mut acc);
                                acc
                            }
                            None => want,
                        };
                        for p in 0..2 {
                            assert_eq!(acc.v[p][..net.width], want.v[p][..net.width], "{} ply {i} update", v.id());
                        }
                        walked = Some((snap, acc));
                        let rows = snap.king_rows(net.kings);
                        crossings += usize::from(last.is_some_and(|l| l != rows));
                        last = Some(rows);
                    }
                }
            }
            assert!(crossings > 0, "{}: no King changed bucket", v.id());
        }
    }

    #[test]
    fn searches_with_a_net_play_legal_moves_in_every_variant() {
        let dir = std::env::temp_dir().join(format!("chimera-nnue-search-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (i, &v) in Variant::ALL.iter().enumerate() {
            let path = dir.join(format!("{}.nnue", v.id()));
            let net = match i % 4 {
                0 => random_net(v, 7),
                1 => random_net_of(v, 7, SCRELU8),
                2 => random_net_of(v, 7, KINGS4),
                _ => random_net_of(v, 7, KINGS8),
            };
            std::fs::write(&path, net.to_bytes()).unwrap();
            let mut e = crate::Engine::new(crate::EngineOptions { hash_mb: 1, use_nnue: true, ..Default::default() });
            e.set_eval_file(Some(&path)).unwrap();
            assert_eq!(e.network(v).map(|n| n.variant), Some(v));
            let walk = crate::random_walk(v, 2, 12);
            let pos = walk.last().unwrap();
            let limits = crate::Limits { depth: Some(5), ..Default::default() };
            let stop = std::sync::atomic::AtomicBool::new(false);
            let r = e.search(pos, &[], &limits, &crate::Strength::default(), &stop, &mut |_| {});
            let best = r.best.expect("a move");
            assert!(pos.legal_move_list().contains(&best), "{}: {best:?}", v.id());
            // The hand-made evaluation is one option away.
            e.options.use_nnue = false;
            assert!(e.network(v).is_none());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn embedded_nets_load_for_their_variants() {
        for v in Variant::ALL {
            assert!(embedded(v).is_some_and(|n| serves(n.variant, v)), "{v:?}");
        }
        for (name, bytes) in EMBEDDED {
            let net = Network::from_bytes(bytes, name).unwrap();
            assert_eq!(net.variant.id(), *name);
            // A sane net: the start position is about level, a queen up is
            // winning for the side that has it (on the board of the
            // orthodox array, or in Genesis's reserve before a piece is placed).
            let start = AnyPosition::new(net.variant, &RuleOptions::default());
            let e = with_position!(&start, p => net.evaluate(p));
            assert!(e.abs() < 150, "{name}: start {e}");
            let fen = match net.variant {
                Variant::Genesis => "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkrrbbnnpppppppp] w - - 0 1",
                _ => "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            };
            let up = AnyPosition::from_fen(net.variant, fen, &RuleOptions::default()).unwrap();
            let e = with_position!(&up, p => net.evaluate(p));
            assert!(e > 400, "{name}: a queen up: {e}");
        }
    }

    #[test]
    fn variant_state_reaches_the_inputs() {
        // Genesis: reserves; Genie: flip right; Clown: unmoved knights;
        // Magic Ring: the rings.
        for v in [Variant::Genesis, Variant::Genie, Variant::Clown, Variant::MagicRing] {
            let pos = AnyPosition::new(v, &RuleOptions::default());
            let s = with_position!(&pos, p => Snapshot::of(p));
            assert_ne!(s, Snapshot::of_board(pos.board()), "{}", v.id());
        }
        let pos = AnyPosition::new(Variant::Chess, &RuleOptions::default());
        let s = with_position!(&pos, p => Snapshot::of(p));
        assert_eq!(s, Snapshot::of_board(pos.board()));
    }

    /// A position and its colour flip (board turned over, colours, hands,
    /// rights and rings swapped, the other side to move) give the same
    /// score for the side to move in every variant, with a random net and
    /// with each built-in one: the variant inputs are seen from the right
    /// side.
    #[test]
    fn colour_flipped_positions_evaluate_the_same_in_every_variant() {
        let opts = RuleOptions::default();
        for &v in Variant::ALL.iter() {
            let mut nets = vec![
                random_net(v, 17),
                random_net_of(v, 18, SCRELU8),
                random_net_of(v, 19, KINGS4),
                random_net_of(v, 20, KINGS8),
            ];
            nets.extend(embedded(v).cloned());
            for seed in 0..6 {
                for pos in crate::random_walk(v, 100 + seed, 90) {
                    let fen = pos.fen();
                    let flipped = AnyPosition::from_fen(v, &crate::flip_fen(&fen), &opts).unwrap();
                    for net in &nets {
                        let a = with_position!(&pos, p => net.evaluate(p));
                        let b = with_position!(&flipped, p => net.evaluate(p));
                        assert_eq!(a, b, "{}: {fen} vs {}", v.id(), flipped.fen());
                    }
                }
            }
        }
    }

    /// `chimera train --mirror` learns a position without castling rights
    /// a second time as its mirror (files a ↔ h) where
    /// [`Variant::mirror_symmetric`] says the rules allow it. Along random
    /// games of every variant, a mirrored position (made from its FEN) has
    /// the mirrored snapshot and, in those variants, the mirrored legal
    /// moves; in Clown some position has not (its Knights move by their
    /// file), which is why Clown is left out.
    #[test]
    fn mirrored_positions_keep_the_rules_except_in_clown() {
        let opts = RuleOptions::default();
        let mirror_move = |m: &str| {
            let b = m.as_bytes();
            let mut out = String::new();
            for (i, &c) in b.iter().enumerate() {
                let square_file = (b'a'..=b'h').contains(&c) && b.get(i + 1).is_some_and(|d| (b'1'..=b'8').contains(d));
                out.push(if square_file { crate::mirror_file(c) as char } else { c as char });
            }
            out
        };
        let sorted_moves = |p: &AnyPosition, mirror: bool| {
            let mut v: Vec<String> =
                p.legal_move_list().iter().map(|m| if mirror { mirror_move(&m.uci()) } else { m.uci() }).collect();
            v.sort();
            v
        };
        for &v in Variant::ALL.iter() {
            let (mut checked, mut differ) = (0, 0);
            for seed in 0..8 {
                for pos in crate::random_walk(v, 300 + seed, 120) {
                    if pos.castling().0 != 0 {
                        continue;
                    }
                    let fen = pos.fen();
                    let mirrored = AnyPosition::from_fen(v, &crate::mirror_fen(&fen), &opts)
                        .unwrap_or_else(|e| panic!("{}: {fen} -> {}: {e}", v.id(), crate::mirror_fen(&fen)));
                    let snap = with_position!(&pos, p => Snapshot::of(p));
                    assert_eq!(with_position!(&mirrored, p => Snapshot::of(p)), snap.mirrored(), "{}: {fen}", v.id());
                    checked += 1;
                    if sorted_moves(&pos, true) != sorted_moves(&mirrored, false) {
                        assert!(!v.mirror_symmetric(), "{}: {fen} and {} differ", v.id(), mirrored.fen());
                        differ += 1;
                    }
                }
            }
            assert!(checked > 200, "{}: {checked}", v.id());
            if !v.mirror_symmetric() {
                assert!(differ > 0, "{}: no position tells the mirror apart", v.id());
            }
        }
    }

    /// Magic Ring under another ring-power list plays with the hand-made
    /// evaluation (the built-in net learnt QNRB): with `Use NNUE` on or off
    /// the same search, node for node; under QNRB the net changes it.
    #[test]
    fn magic_ring_with_other_powers_searches_by_hand() {
        let search = |powers: &str, use_nnue: bool| {
            let opts = RuleOptions { ring_powers: powers.parse().unwrap() };
            let pos = AnyPosition::new(Variant::MagicRing, &opts);
            let mut e = crate::Engine::new(crate::EngineOptions { use_nnue, ..Default::default() });
            let limits = crate::Limits { depth: Some(6), ..Default::default() };
            let stop = std::sync::atomic::AtomicBool::new(false);
            let r = e.search(&pos, &[], &limits, &crate::Strength::default(), &stop, &mut |_| {});
            (r.nodes, format!("{:?}", r.score))
        };
        assert_eq!(search("NKQ", true), search("NKQ", false));
        assert_ne!(search("QNRB", true), search("QNRB", false));
    }
}
