//! Attack tables. Leaper tables are built by `const fn` at compile time;
//! slider tables use magic bitboards whose numbers are searched once at
//! start-up with a fixed seed (a few milliseconds; nothing binary is committed).

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};
use std::sync::LazyLock;

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

static KNIGHT: [u64; 64] =
    leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static KING: [u64; 64] =
    leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
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

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

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

#[inline]
pub fn ferz_attacks(sq: Square) -> Bitboard {
    Bitboard(FERZ[sq.index()])
}

#[inline]
pub fn wazir_attacks(sq: Square) -> Bitboard {
    Bitboard(WAZIR[sq.index()])
}

/// The Genie's ordinary leap: every square one or two steps away along a line.
#[inline]
pub fn genie_attacks(sq: Square) -> Bitboard {
    Bitboard(GENIE[sq.index()])
}

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

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

fn relevant_mask(sq: Square, dirs: &[(i32, i32)]) -> u64 {
    let mut bb = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(n) = cur.offset_xy(df, dr) {
            // The last square of a ray never blocks anything beyond it.
            if n.offset_xy(df, dr).is_none() {
                break;
            }
            bb |= 1u64 << n.index();
            cur = n;
        }
    }
    bb
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

pub(crate) struct Tables {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<u64>,
    between: Vec<u64>,
    line: Vec<u64>,
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find_magics(dirs: &[(i32, i32)], table: &mut Vec<u64>, rng: &mut Rng) -> [Magic; 64] {
    let mut out = [Magic::default(); 64];
    let mut occs = Vec::with_capacity(4096);
    let mut refs = Vec::with_capacity(4096);
    let mut used = vec![0u32; 4096];
    let mut epoch = 0u32;
    for sq in Square::all() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        occs.clear();
        refs.clear();
        // Carry-Rippler enumeration of every subset of the mask.
        let mut sub = 0u64;
        loop {
            occs.push(sub);
            refs.push(slide(sq, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        let offset = table.len();
        table.resize(offset + size, 0);
        let shift = 64 - bits;
        'search: loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            epoch += 1;
            for (i, &occ) in occs.iter().enumerate() {
                let idx = (occ.wrapping_mul(magic) >> shift) as usize;
                if used[idx] == epoch {
                    if table[offset + idx] != refs[i] {
                        continue 'search;
                    }
                } else {
                    used[idx] = epoch;
                    table[offset + idx] = refs[i];
                }
            }
            out[sq.index()] = Magic { mask, magic, shift, offset };
            break;
        }
    }
    out
}

fn build() -> Tables {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::with_capacity(110_000);
    let rook = find_magics(&ROOK_DIRS, &mut table, &mut rng);
    let bishop = find_magics(&BISHOP_DIRS, &mut table, &mut rng);
    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in Square::all() {
        for &(df, dr) in ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()) {
            // The full line through a in this direction (both ways).
            let mut full = 1u64 << a.index();
            for sign in [1, -1] {
                let mut cur = a;
                while let Some(n) = cur.offset_xy(df * sign, dr * sign) {
                    full |= 1u64 << n.index();
                    cur = n;
                }
            }
            let mut btw = 0u64;
            let mut cur = a;
            while let Some(n) = cur.offset_xy(df, dr) {
                between[a.index() * 64 + n.index()] = btw;
                line[a.index() * 64 + n.index()] = full;
                btw |= 1u64 << n.index();
                cur = n;
            }
        }
    }
    Tables { rook, bishop, table, between, line }
}

pub(crate) static TABLES: LazyLock<Tables> = LazyLock::new(build);

/// Forces the tables to be built now (else on first use).
pub fn init() {
    LazyLock::force(&TABLES);
}

#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let t = &*TABLES;
    let m = &t.rook[sq.index()];
    let idx = ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // SAFETY: idx < 1 << bits by construction of the shift.
    Bitboard(unsafe { *t.table.get_unchecked(m.offset + idx) })
}

#[inline]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let t = &*TABLES;
    let m = &t.bishop[sq.index()];
    let idx = ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // SAFETY: idx < 1 << bits by construction of the shift.
    Bitboard(unsafe { *t.table.get_unchecked(m.offset + idx) })
}

#[inline]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(TABLES.between[a.index() * 64 + b.index()])
}

/// The whole line (edge to edge) through `a` and `b`, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(TABLES.line[a.index() * 64 + b.index()])
}

/// `true` when `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Squares within `n` king steps of `sq` (a square ring mask).
pub fn within_distance(sq: Square, n: u32) -> Bitboard {
    Square::all().filter(|&s| s.distance(sq) <= n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_match_reference() {
        let mut rng = Rng(42);
        for _ in 0..2000 {
            let occ = rng.next() & rng.next();
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
