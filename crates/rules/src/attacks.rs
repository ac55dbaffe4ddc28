//! Attack tables of every piece of every variant, all computed before the
//! program runs: leaper tables by `const fn`, slider tables (magic
//! bitboards) and the between/line tables by the crate's build script from
//! known magic numbers. Nothing is searched or built at start-up.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let mut i = 0;
        let mut bb = 0u64;
        while i < deltas.len() {
            let nf = f + deltas[i].0;
            let nr = r + deltas[i].1;
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bb |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        t[sq] = bb;
        sq += 1;
    }
    t
}

static KNIGHT: [u64; 64] = leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static KING: [u64; 64] = leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
static WHITE_PAWN: [u64; 64] = leaper_table(&[(-1, 1), (1, 1)]);
static BLACK_PAWN: [u64; 64] = leaper_table(&[(-1, -1), (1, -1)]);
/// Diagonal neighbours (Genesis pawn captures, `cF`).
static FERZ: [u64; 64] = leaper_table(&[(1, 1), (-1, 1), (1, -1), (-1, -1)]);
/// Orthogonal neighbours (Genesis pawn moves, `mW`).
static WAZIR: [u64; 64] = leaper_table(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);
/// The Genie's leap (WFDA): one or two squares along any line.
static GENIE: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
    (2, 0),
    (2, 2),
    (0, 2),
    (-2, 2),
    (-2, 0),
    (-2, -2),
    (0, -2),
    (2, -2),
]);

/// Squares a knight on `sq` attacks: its two to eight leaps, whatever stands
/// on them.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks: its three to eight neighbours (castling is
/// a move, not an attack, and is not included).
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (captures onto).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::White => Bitboard(WHITE_PAWN[sq.index()]),
        Color::Black => Bitboard(BLACK_PAWN[sq.index()]),
    }
}

/// The diagonal neighbours of `sq` (one to four): where a Genesis Chess pawn
/// captures (`docs/rules/genesis.md`).
#[inline]
pub fn ferz_attacks(sq: Square) -> Bitboard {
    Bitboard(FERZ[sq.index()])
}

/// The orthogonal neighbours of `sq` (two to four): where a Genesis Chess pawn
/// moves without capturing (`docs/rules/genesis.md`).
#[inline]
pub fn wazir_attacks(sq: Square) -> Bitboard {
    Bitboard(WAZIR[sq.index()])
}

/// The Genie's ordinary leap: every square one or two steps away along a line.
#[inline]
pub fn genie_attacks(sq: Square) -> Bitboard {
    Bitboard(GENIE[sq.index()])
}

#[cfg(test)]
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
#[cfg(test)]
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

#[cfg(test)]
fn slide(sq: Square, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut bb = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(n) = cur.offset_xy(df, dr) {
            bb |= 1u64 << n.index();
            if occ & (1u64 << n.index()) != 0 {
                break;
            }
            cur = n;
        }
    }
    bb
}

/// One square's magic: `(occ & mask) * magic >> shift` indexes its slice of
/// [`SLIDER_ATTACKS`] that starts at `offset`.
pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

// ROOK_MAGICS, BISHOP_MAGICS, SLIDER_ATTACKS, BETWEEN and LINE, written by
// build.rs (which also checks every magic number against a plain ray walk).
include!(concat!(env!("OUT_DIR"), "/slider_tables.rs"));

#[inline]
fn magic_lookup(m: &Magic, occ: Bitboard) -> Bitboard {
    let idx = ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // SAFETY: `idx < 1 << (64 - shift)`, and build.rs gives every square a
    // slice of exactly that many entries at `offset` inside SLIDER_ATTACKS.
    Bitboard(unsafe { *SLIDER_ATTACKS.get_unchecked(m.offset + idx) })
}

/// Squares a rook on `sq` attacks, with `occ` the occupied squares. Along
/// each line the first occupied square is included (a capture, or a piece
/// defended), the squares behind it are not; `sq` itself never is. Whether
/// `occ` contains `sq` makes no difference.
///
/// ```
/// use chimera_rules::attacks::rook_attacks;
/// use chimera_rules::{Bitboard, Square};
///
/// let occ = Bitboard::from_square(Square::A4) | Bitboard::from_square(Square::D1);
/// let att = rook_attacks(Square::A1, occ);
/// assert!(att.contains(Square::A4) && !att.contains(Square::A5));
/// assert!(att.contains(Square::D1) && !att.contains(Square::E1));
/// assert_eq!(att.count(), 6); // a2 a3 a4 b1 c1 d1
/// ```
#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq.index()], occ)
}

/// Squares a bishop on `sq` attacks, with `occ` the occupied squares; as
/// [`rook_attacks`], the first occupied square of each diagonal included.
#[inline]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq.index()], occ)
}

/// Squares a queen on `sq` attacks, with `occ` the occupied squares: the
/// union of [`rook_attacks`] and [`bishop_attacks`].
#[inline]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index() * 64 + b.index()])
}

/// The whole line (edge to edge) through `a` and `b`, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index() * 64 + b.index()])
}

/// `true` when `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

pub use crate::variants::clown::clown_attacks;
pub use crate::variants::genie::genie_double_jumps;

/// Squares within `n` king steps of `sq` (a square ring mask).
pub fn within_distance(sq: Square, n: u32) -> Bitboard {
    Square::all().filter(|&s| s.distance(sq) <= n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_match_reference() {
        // xorshift64: random occupancies, sparse and dense.
        let mut x = 42u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for i in 0..3000 {
            let occ = if i % 2 == 0 { next() & next() } else { next() | next() };
            for sq in Square::all() {
                assert_eq!(rook_attacks(sq, Bitboard(occ)).0, slide(sq, occ, &ROOK_DIRS));
                assert_eq!(bishop_attacks(sq, Bitboard(occ)).0, slide(sq, occ, &BISHOP_DIRS));
            }
        }
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(Square::B1).count(), 3);
        assert_eq!(king_attacks(Square::E1).count(), 5);
        assert_eq!(genie_attacks(Square::new(27)).count(), 16); // d4
        assert_eq!(genie_attacks(Square::A1).count(), 6);
        assert_eq!(between(Square::A1, Square::H8).count(), 6);
        assert!(between(Square::A1, Square::B3).is_empty());
    }
}
