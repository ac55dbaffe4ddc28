//! The network evaluation (NNUE): a perspective network
//! `INPUTS → HIDDEN ×2 → 1`, evaluated with integer arithmetic and
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
//! # Evaluation
//!
//! `acc[p] = b1 + Σ W1[index(p, f)]` over the active features `f` (`i16`,
//! scaled by [`QA`]); the output is
//! `(Σ crelu(acc[us]) · W2[..H] + Σ crelu(acc[them]) · W2[H..] + b2)
//! · SCALE / (QA · QB)` centipawns for the side to move, with
//! `crelu(x) = clamp(x, 0, QA)` and `W2` scaled by [`QB`].
//!
//! # Updates
//!
//! The search keeps one accumulator per ply ([`Stack`]). A node's
//! accumulator is made from the nearest accumulator of the plies around it
//! (its parent, its previous sibling, its grandparent) by adding the
//! features that appear and subtracting those that vanish between the two
//! snapshots, or from scratch when that is cheaper. The difference of two
//! snapshots is exact for any two positions, so the update needs no
//! knowledge of the move (drops, flips, declarations, re-entries and ring
//! transfers included), and integer sums make it bit-exact with a full
//! refresh (tested).
//!
//! # File format
//!
//! Little-endian: the 8 bytes `CHIMNN1\n`; a `u8` length and the variant id
//! (UTF-8) the net was trained for; `u32` inputs and `u32` hidden size
//! (must be [`INPUTS`] and [`HIDDEN`]); `i16` × inputs × hidden input
//! weights (input-major); `i16` × hidden biases; `i16` × 2·hidden output
//! weights (ours, then theirs); `i32` output bias. Nothing after.

use crate::Evaluate;
use chimera_rules::{Board, Color, Piece, Role, Variant};

/// Hidden units per perspective.
pub const HIDDEN: usize = 128;
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

/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"CHIMNN1\n";

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

    /// Number of active features.
    pub fn count(&self) -> u32 {
        self.words.iter().flatten().map(|w| w.count_ones()).sum()
    }

    /// Number of features active in one snapshot and not the other.
    pub fn distance(&self, other: &Snapshot) -> u32 {
        self.words.iter().flatten().zip(other.words.iter().flatten()).map(|(a, b)| (a ^ b).count_ones()).sum()
    }

    /// The active feature codes ([`code`]), in increasing order.
    pub fn codes(&self) -> impl Iterator<Item = u16> + '_ {
        (0..2).flat_map(move |c| (0..WORDS).flat_map(move |k| bits(self.words[c][k]).map(move |b| code(c, k, b))))
    }
}

/// The flag word of a Genesis colour: its reserve counts.
pub fn reserve_flags(counts: impl Iterator<Item = (Role, u8)>) -> u64 {
    let mut f = 0u64;
    for (r, n) in counts {
        if r.index() < 6 {
            for k in 0..n.min(8) as u32 {
                f |= 1 << (flag::RESERVE + r.index() as u32 * 8 + k);
            }
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
    pub v: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { v: [[0; HIDDEN]; 2] }
    }
}

/// A network, quantised.
#[derive(Clone)]
pub struct Network {
    /// The variant it was trained for.
    pub variant: Variant,
    /// Where it came from (`<embedded>` or a path), for the UCI report.
    pub source: String,
    w: Box<[[i16; HIDDEN]]>,
    b: [i16; HIDDEN],
    out_w: [i16; 2 * HIDDEN],
    out_b: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}, {})", self.variant.id(), self.source)
    }
}

/// Bytes of a network file with a variant id of `id_len` bytes.
pub const fn file_len(id_len: usize) -> usize {
    8 + 1 + id_len + 8 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4
}

impl Network {
    /// Reads a network file (format in the module documentation). The
    /// error says what is wrong with the bytes.
    pub fn from_bytes(bytes: &[u8], source: &str) -> Result<Network, String> {
        if bytes.len() < 9 || &bytes[..8] != MAGIC {
            return Err("not a Chimera network file (it must start with CHIMNN1)".into());
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
        if inputs != INPUTS || hidden != HIDDEN {
            return Err(format!(
                "the net is {inputs}→{hidden}×2→1; this build reads {INPUTS}→{HIDDEN}×2→1 (made for another version)"
            ));
        }
        if bytes.len() != file_len(id_len) {
            return Err(format!(
                "the file has {} bytes; a {INPUTS}→{HIDDEN}×2→1 net has {}",
                bytes.len(),
                file_len(id_len)
            ));
        }
        let mut i16s = bytes[at..bytes.len() - 4].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut w = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
        for row in w.iter_mut() {
            for x in row.iter_mut() {
                *x = i16s.next().unwrap_or(0);
            }
        }
        let mut b = [0i16; HIDDEN];
        for x in b.iter_mut() {
            *x = i16s.next().unwrap_or(0);
        }
        let mut out_w = [0i16; 2 * HIDDEN];
        for x in out_w.iter_mut() {
            *x = i16s.next().unwrap_or(0);
        }
        let t = &bytes[bytes.len() - 4..];
        let out_b = i32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        Ok(Network { variant, source: source.to_string(), w, b, out_w, out_b })
    }

    /// The file bytes of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let id = self.variant.id().as_bytes();
        let mut out = Vec::with_capacity(file_len(id.len()));
        out.extend_from_slice(MAGIC);
        out.push(id.len() as u8);
        out.extend_from_slice(id);
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for x in self.w.iter().flatten().chain(&self.b).chain(&self.out_w) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&self.out_b.to_le_bytes());
        out
    }

    /// A network from quantised values: `w` input-major (`INPUTS` rows of
    /// `HIDDEN`), `b`, `out_w` (ours then theirs), `out_b`.
    pub fn from_parts(variant: Variant, w: &[i16], b: &[i16], out_w: &[i16], out_b: i32) -> Network {
        assert_eq!(w.len(), INPUTS * HIDDEN);
        let mut rows = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
        for (row, src) in rows.iter_mut().zip(w.chunks_exact(HIDDEN)) {
            row.copy_from_slice(src);
        }
        Network {
            variant,
            source: "<trained>".into(),
            w: rows,
            b: b.try_into().expect("HIDDEN biases"),
            out_w: out_w.try_into().expect("2·HIDDEN output weights"),
            out_b,
        }
    }

    /// The quantised values: input weights (input-major), biases, output
    /// weights, output bias.
    pub fn parts(&self) -> (Vec<i16>, &[i16], &[i16], i32) {
        (self.w.iter().flatten().copied().collect(), &self.b, &self.out_w, self.out_b)
    }

    /// The accumulator of a snapshot, from scratch.
    pub fn refresh(&self, s: &Snapshot) -> Accumulator {
        let mut acc = Accumulator { v: [self.b; 2] };
        for code in s.codes() {
            self.add_feature(&mut acc, code as usize);
        }
        acc
    }

    #[inline]
    fn add_feature(&self, acc: &mut Accumulator, code: usize) {
        for (a, index) in acc.v.iter_mut().zip(&INDEX) {
            simd::add(a, &self.w[index[code] as usize]);
        }
    }

    #[inline]
    fn sub_feature(&self, acc: &mut Accumulator, code: usize) {
        for (a, index) in acc.v.iter_mut().zip(&INDEX) {
            simd::sub(a, &self.w[index[code] as usize]);
        }
    }

    /// Moves `acc` from the snapshot `from` to the snapshot `to`.
    pub fn update(&self, from: &Snapshot, to: &Snapshot, acc: &mut Accumulator) {
        for c in 0..2 {
            for k in 0..WORDS {
                let (old, new) = (from.words[c][k], to.words[c][k]);
                if old == new {
                    continue;
                }
                for b in bits(new & !old) {
                    self.add_feature(acc, code(c, k, b) as usize);
                }
                for b in bits(old & !new) {
                    self.sub_feature(acc, code(c, k, b) as usize);
                }
            }
        }
    }

    /// The output in centipawns for `turn`.
    pub fn output(&self, acc: &Accumulator, turn: Color) -> i32 {
        let (us, them) = (&acc.v[turn.index()], &acc.v[(!turn).index()]);
        let (w_us, w_them) = self.out_w.split_at(HIDDEN);
        let sum = simd::crelu_dot(us, w_us.try_into().expect("HIDDEN"))
            + simd::crelu_dot(them, w_them.try_into().expect("HIDDEN"))
            + self.out_b;
        (sum as i64 * SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The evaluation of a position from scratch (no stack).
    pub fn evaluate<P: Evaluate>(&self, pos: &P) -> i32 {
        self.output(&self.refresh(&Snapshot::of(pos)), pos.turn())
    }
}

/// The vector kernels: AVX2 where the CPU has it, a portable loop
/// otherwise. Integer sums (wrapping `i16` adds, exact `i32` dots), so both
/// give the same bits (tested).
pub mod simd {
    use super::{HIDDEN, QA};

    #[inline]
    fn avx2() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// `acc += w`.
    #[inline]
    pub fn add(acc: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: the CPU has AVX2 (checked above).
            unsafe { x86::add(acc, w) };
            return;
        }
        portable::add(acc, w);
    }

    /// `acc -= w`.
    #[inline]
    pub fn sub(acc: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: the CPU has AVX2 (checked above).
            unsafe { x86::sub(acc, w) };
            return;
        }
        portable::sub(acc, w);
    }

    /// `Σ clamp(acc[i], 0, QA) · w[i]`.
    #[inline]
    pub fn crelu_dot(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: the CPU has AVX2 (checked above).
            return unsafe { x86::crelu_dot(acc, w) };
        }
        portable::crelu_dot(acc, w)
    }

    /// The plain loops (the reference the AVX2 kernels must match).
    pub mod portable {
        use super::{HIDDEN, QA};

        pub fn add(acc: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
            for (a, x) in acc.iter_mut().zip(w) {
                *a = a.wrapping_add(*x);
            }
        }

        pub fn sub(acc: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
            for (a, x) in acc.iter_mut().zip(w) {
                *a = a.wrapping_sub(*x);
            }
        }

        pub fn crelu_dot(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
            let mut s = 0i32;
            for (a, x) in acc.iter().zip(w) {
                s = s.wrapping_add((*a as i32).clamp(0, QA) * *x as i32);
            }
            s
        }
    }

    #[cfg(target_arch = "x86_64")]
    pub mod x86 {
        use super::{HIDDEN, QA};
        use std::arch::x86_64::*;

        /// # Safety
        /// The CPU must have AVX2.
        #[target_feature(enable = "avx2")]
        pub unsafe fn add(acc: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
            for i in (0..HIDDEN).step_by(16) {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
                let b = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
                _mm256_storeu_si256(acc.as_mut_ptr().add(i) as *mut __m256i, _mm256_add_epi16(a, b));
            }
        }

        /// # Safety
        /// The CPU must have AVX2.
        #[target_feature(enable = "avx2")]
        pub unsafe fn sub(acc: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
            for i in (0..HIDDEN).step_by(16) {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
                let b = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
                _mm256_storeu_si256(acc.as_mut_ptr().add(i) as *mut __m256i, _mm256_sub_epi16(a, b));
            }
        }

        /// # Safety
        /// The CPU must have AVX2.
        #[target_feature(enable = "avx2")]
        pub unsafe fn crelu_dot(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
            let zero = _mm256_setzero_si256();
            let qa = _mm256_set1_epi16(QA as i16);
            let mut sum = _mm256_setzero_si256();
            for i in (0..HIDDEN).step_by(16) {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
                let b = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
                let a = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(a, b));
            }
            let hi = _mm256_extracti128_si256(sum, 1);
            let s = _mm_add_epi32(_mm256_castsi256_si128(sum), hi);
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
            _mm_cvtsi128_si32(s)
        }
    }
}

/// Accumulators along the search path, one per ply.
pub struct Stack {
    slots: Vec<Slot>,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    valid: bool,
    snap: Snapshot,
    acc: Accumulator,
}

impl Stack {
    pub fn new(plies: usize) -> Stack {
        Stack { slots: vec![Slot::default(); plies] }
    }

    /// The network's evaluation of `pos` (at `ply` of the search) for the
    /// side to move, from the cheapest nearby accumulator (module
    /// documentation).
    pub fn evaluate<P: Evaluate>(&mut self, net: &Network, pos: &P, ply: usize) -> i32 {
        let ply = ply.min(self.slots.len() - 1);
        let snap = Snapshot::of(pos);
        let mut best: Option<(usize, u32)> = None;
        for q in [ply, ply.wrapping_sub(1), ply.wrapping_sub(2)] {
            if let Some(s) = self.slots.get(q).filter(|s| s.valid) {
                let d = s.snap.distance(&snap);
                if best.is_none_or(|(_, bd)| d < bd) {
                    best = Some((q, d));
                }
            }
        }
        let acc = match best {
            Some((q, d)) if d < snap.count() => {
                let mut acc = self.slots[q].acc;
                net.update(&self.slots[q].snap, &snap, &mut acc);
                acc
            }
            _ => net.refresh(&snap),
        };
        let slot = &mut self.slots[ply];
        *slot = Slot { valid: true, snap, acc };
        net.output(&slot.acc, pos.turn())
    }
}

/// The shape of this build's nets, for reports: `1280→128×2→1`.
pub fn describe() -> String {
    format!("{INPUTS}→{HIDDEN}×2→1")
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
/// was made and measured in `docs/strength.md` §9-§12). Only nets that beat the
/// hand-made evaluation are listed: `Use NNUE` switches every variant
/// with a net here at once.
const EMBEDDED: &[(&str, &[u8])] = &[
    ("chess", include_bytes!("../nets/chess.nnue")),
    ("genie", include_bytes!("../nets/genie.nnue")),
    ("clown", include_bytes!("../nets/clown.nnue")),
    ("magicring", include_bytes!("../nets/magicring.nnue")),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix;
    use chimera_rules::with_position;
    use chimera_rules::{AnyPosition, Position, RuleOptions};

    /// A network of random small weights.
    pub fn random_net(variant: Variant, seed: u64) -> Network {
        let mut rng = SplitMix(seed);
        let mut r = |m: u64| (rng.next() % (2 * m + 1)) as i32 - m as i32;
        let w: Vec<i16> = (0..INPUTS * HIDDEN).map(|_| r(40) as i16).collect();
        let b: Vec<i16> = (0..HIDDEN).map(|_| r(60) as i16).collect();
        let o: Vec<i16> = (0..2 * HIDDEN).map(|_| r(127) as i16).collect();
        Network::from_parts(variant, &w, &b, &o, r(5000))
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
        assert_eq!(bytes.len(), file_len(5));
        let back = Network::from_bytes(&bytes, "x").unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert!(Network::from_bytes(b"hello", "x").unwrap_err().contains("not a Chimera network"));
        let e = Network::from_bytes(&bytes[..bytes.len() - 1], "x").unwrap_err();
        assert!(e.contains("bytes"), "{e}");
        let mut bad = bytes.clone();
        bad[9] = b'X';
        assert!(Network::from_bytes(&bad, "x").unwrap_err().contains("unknown variant"));
        let mut big = bytes.clone();
        big[9 + 5 + 4] = 1; // hidden size 129
        assert!(Network::from_bytes(&big, "x").unwrap_err().contains("this build reads"));
    }

    #[test]
    fn avx2_kernels_match_the_portable_loops() {
        let mut rng = SplitMix(11);
        for _ in 0..200 {
            let mut a = [0i16; HIDDEN];
            let mut w = [0i16; HIDDEN];
            for i in 0..HIDDEN {
                a[i] = rng.next() as i16;
                w[i] = (rng.next() % 255) as i16 - 127;
            }
            let mut p = a;
            simd::portable::add(&mut p, &w);
            let mut s = a;
            simd::add(&mut s, &w);
            assert_eq!(p, s);
            simd::portable::sub(&mut p, &w);
            simd::sub(&mut s, &w);
            assert_eq!(p, s);
            assert_eq!(p, a);
            assert_eq!(simd::portable::crelu_dot(&a, &w), simd::crelu_dot(&a, &w));
        }
    }

    #[test]
    fn incremental_updates_equal_a_refresh_in_every_variant() {
        for &v in Variant::ALL.iter() {
            let net = random_net(v, 5);
            for seed in 0..4 {
                let walk = crate::random_walk(v, seed, 120);
                let mut stack = Stack::new(8);
                for (i, pos) in walk.iter().enumerate() {
                    // Plies wander up and down as in a search.
                    let ply = (i * 7 + seed as usize) % 5;
                    let (inc, full) = with_position!(pos, p => (stack.evaluate(&net, p, ply), net.evaluate(p)));
                    assert_eq!(inc, full, "{} ply {i}", v.id());
                }
            }
        }
    }

    #[test]
    fn searches_with_a_net_play_legal_moves_in_every_variant() {
        let dir = std::env::temp_dir().join(format!("chimera-nnue-search-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for &v in Variant::ALL.iter() {
            let path = dir.join(format!("{}.nnue", v.id()));
            std::fs::write(&path, random_net(v, 7).to_bytes()).unwrap();
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
        for v in [Variant::Chess, Variant::Genie, Variant::GenieOwnHalf, Variant::Clown, Variant::MagicRing] {
            assert!(embedded(v).is_some_and(|n| serves(n.variant, v)), "{v:?}");
        }
        assert!(embedded(Variant::Genesis).is_none(), "Genesis has no net that beats the hand-made evaluation");
        for (name, bytes) in EMBEDDED {
            let net = Network::from_bytes(bytes, name).unwrap();
            assert_eq!(net.variant.id(), *name);
            // A sane net: the start position is about level, a queen up is
            // winning for the side that has it (every built-in variant
            // starts from the orthodox array).
            let start = AnyPosition::new(net.variant, &RuleOptions::default());
            let e = with_position!(&start, p => net.evaluate(p));
            assert!(e.abs() < 150, "{name}: start {e}");
            let fen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
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
            let mut nets = vec![random_net(v, 17)];
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
