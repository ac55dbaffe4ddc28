//! What the network sees of a position: snapshots of planes and flags,
//! their feature codes and input indices, the layout of those inputs, king
//! and output buckets.

use super::*;
use chimera_rules::{Board, Color, Piece, Role};

/// The reserve bits of the flag word ([`flag::RESERVE`]: a byte per
/// reserve role).
pub(super) const RESERVE_MASK: u64 = (1 << flag::RESERVE_BITS) - 1;

/// A fingerprint of the layout of the inputs: the counts it is derived
/// from (roles, planes, reserve roles) and the flag bits used. A version 4
/// network file carries it and a reader refuses another; versions 1-3 were
/// all written with [`LAYOUT_V1_3`].
pub const LAYOUT: u32 =
    Role::COUNT as u32 | (PLANES as u32) << 8 | (flag::RESERVE_ROLES as u32) << 16 | flag::BITS << 24;
/// The input layout of every file of versions 1 to 3 (8 roles, 9 planes,
/// 6 reserve roles, 61 flag bits), which carry no fingerprint.
pub const LAYOUT_V1_3: u32 = 8 | 9 << 8 | 6 << 16 | 61 << 24;

/// An input layout in words.
pub fn describe_layout(layout: u32) -> String {
    format!(
        "{:#x} ({} roles, {} planes, {} reserve roles, {} flag bits)",
        layout,
        layout & 0xFF,
        (layout >> 8) & 0xFF,
        (layout >> 16) & 0xFF,
        layout >> 24
    )
}

// The layout fits its words: a plane per role and the mark plane, and the
// flags in one 64-bit word.
const _: () = assert!(PLANES == Role::COUNT + 1 && MARK_PLANE == PLANES - 1 && WORDS == PLANES + 1);
const _: () = assert!(flag::BITS <= 64 && flag::RESERVE_ROLES <= Role::COUNT);
const _: () = assert!(Role::King.index() + 1 == flag::RESERVE_ROLES, "reserve roles are Pawn..King");

/// The material a snapshot counts for the output buckets: the pieces on the
/// board and, in Genesis, those in reserve (at most 32 in every variant).
pub fn material(s: &Snapshot) -> u32 {
    s.words
        .iter()
        .map(|w| {
            w[..Role::COUNT].iter().map(|x| x.count_ones()).sum::<u32>() + (w[WORDS - 1] & RESERVE_MASK).count_ones()
        })
        .sum()
}

/// [`material`] from a position's feature codes ([`Snapshot::codes`]).
pub fn material_of_codes(codes: &[u16]) -> u32 {
    codes
        .iter()
        .filter(|&&c| {
            let (k, b) = ((c as usize / 64) % WORDS, c % 64);
            k < Role::COUNT || (k == WORDS - 1 && (b as u32) < flag::RESERVE_BITS)
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
    /// The roles a reserve holds (Pawn..King).
    pub const RESERVE_ROLES: usize = chimera_rules::Role::King.index() + 1;
    /// The reserve's bits: a byte per role.
    pub const RESERVE_BITS: u32 = RESERVE + 8 * RESERVE_ROLES as u32;
    /// Genie: the colour may still flip a pawn.
    pub const GENIE_FLIP: u32 = RESERVE_BITS;
    /// Clown: the re-entry is still unused.
    pub const CLOWN_REENTRY: u32 = GENIE_FLIP + 1;
    /// Clown: the colour has had a Clown.
    pub const CLOWN_HAD: u32 = CLOWN_REENTRY + 1;
    /// Clown: the colour has a captured Knight (or Clown) in hand.
    pub const CLOWN_HAND_KNIGHT: u32 = CLOWN_HAD + 1;
    /// Clown: the colour has a captured Bishop in hand.
    pub const CLOWN_HAND_BISHOP: u32 = CLOWN_HAND_KNIGHT + 1;
    /// Magic Ring: bit `RING_LEVEL + level` (levels 0..=7) of the ring the
    /// colour owns.
    pub const RING_LEVEL: u32 = CLOWN_HAND_BISHOP + 1;
    /// The flag bits used (the ring's eight levels last).
    pub const BITS: u32 = RING_LEVEL + 8;
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
            s.words[c.index()][MARK_PLANE] = mark;
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
pub(super) static KING_ROWS: [[[u16; 65]; 2]; 3] = king_rows_table();

pub(super) const fn king_rows_table() -> [[[u16; 65]; 2]; 3] {
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
        if r.index() < flag::RESERVE_ROLES {
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
pub(super) fn bits(mut w: u64) -> impl Iterator<Item = u32> {
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

pub(super) const fn index_table() -> [[u16; CODES]; 2] {
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
