//! Zobrist keys, generated at compile time by a fixed-seed SplitMix64.

use crate::types::{Color, Piece, Role, Square};

const fn splitmix(mut x: u64) -> (u64, u64) {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (x, z ^ (z >> 31))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

static PIECES: [u64; 2 * 8 * 64] = keys(0x1234_5678_9abc_def0);
static CASTLING: [u64; 16] = keys(0x0fed_cba9_8765_4321);
static EP_FILE: [u64; 8] = keys(0x5555_aaaa_3333_cccc);
/// Keys free for variant state (hands, reserves, rights, rings...).
static EXTRA: [u64; 2048] = keys(0x7777_1111_9999_3333);

/// The side-to-move key, mixed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = 0xF1E2_D3C4_B5A6_9788;

#[inline]
pub fn piece(p: Piece, sq: Square) -> u64 {
    PIECES[(p.color as usize * 8 + p.role as usize) * 64 + sq.index()]
}

/// Key of a castling-rights set given as 4 bits (K Q k q).
#[inline]
pub fn castling(bits: u8) -> u64 {
    CASTLING[(bits & 15) as usize]
}

#[inline]
pub fn ep_file(file: usize) -> u64 {
    EP_FILE[file & 7]
}

/// A key for variant state number `i` (0..2048). Variants lay out their own
/// ranges; see each variant module.
#[inline]
pub fn extra(i: usize) -> u64 {
    EXTRA[i % EXTRA.len()]
}

/// Key for "`color` holds `count` of `role`" in a hand or reserve (count < 32).
#[inline]
pub fn pocket(color: Color, role: Role, count: u8) -> u64 {
    if count == 0 {
        0
    } else {
        EXTRA[(color as usize * 8 + role as usize) * 32 + (count as usize & 31)]
    }
}

#[inline]
pub fn side(turn: Color) -> u64 {
    match turn {
        Color::White => 0,
        Color::Black => BLACK_TO_MOVE,
    }
}
