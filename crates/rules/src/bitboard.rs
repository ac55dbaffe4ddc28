//! A set of squares as a 64-bit word.

use crate::types::{File, Rank, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares, one bit per square: bit `i` stands for the square whose
/// [`Square::index`] is `i` (`a1` is bit 0, `h1` bit 7, `h8` bit 63).
///
/// The operators are set operations: `&` intersection, `|` union, `^`
/// symmetric difference, `-` difference, `!` complement. Iterating yields the
/// squares lowest index first. `Debug` prints the word in hex and a diagram
/// with rank 8 on top.
///
/// ```
/// use chimera_rules::{Bitboard, File, Rank, Square};
///
/// let e_file = Bitboard::from_file(File::E);
/// let fourth = Bitboard::from_rank(Rank::Fourth);
/// assert_eq!(e_file.count(), 8);
/// assert_eq!((e_file & fourth).single(), Some(Square::E4));
/// assert_eq!((e_file | fourth).count(), 15);
///
/// let mut set = Bitboard::EMPTY.with(Square::H8);
/// set.set(Square::A1);
/// assert!(set.contains(Square::A1) && !set.contains(Square::B1));
/// let squares: Vec<Square> = set.iter().collect();
/// assert_eq!(squares, [Square::A1, Square::H8]);
/// assert_eq!(set - Bitboard::from_square(Square::A1), Bitboard::from_square(Square::H8));
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The 32 dark squares (`a1` is dark).
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    /// The 32 light squares (`h1` is light).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(!0xaa55_aa55_aa55_aa55);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// The eight squares of file `f`.
    #[inline]
    pub const fn from_file(f: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << f.index())
    }

    /// The eight squares of rank `r`.
    #[inline]
    pub const fn from_rank(r: Rank) -> Bitboard {
        Bitboard(0xff << (8 * r.index()))
    }

    /// `true` when the set holds no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `true` when the set holds at least one square (the opposite of
    /// [`Bitboard::is_empty`]).
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// `true` when `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// The number of squares in the set, 0 to 64.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros()))
        }
    }

    /// The lowest square; the board must not be empty.
    #[inline]
    pub fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::new(self.0.trailing_zeros())
    }

    /// The only square when exactly one is set.
    #[inline]
    pub fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    /// The set with `sq` added (unchanged if it was there).
    #[inline]
    pub fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed (unchanged if it was not there).
    #[inline]
    pub fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Adds `sq`, in place.
    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    /// Removes `sq`, in place.
    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    /// Adds `sq` if it is absent, removes it if it is present.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq.index();
    }

    /// Shift one rank towards rank 8 (White's forward).
    #[inline]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }
    /// Shift one rank towards rank 1 (Black's forward); squares on rank 1 fall
    /// off the board.
    #[inline]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
    /// Shift one file towards the h-file; squares on the h-file fall off the
    /// board (nothing wraps round to the a-file).
    #[inline]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 << 1) & !0x0101_0101_0101_0101)
    }
    /// Shift one file towards the a-file; squares on the a-file fall off the
    /// board (nothing wraps round to the h-file).
    #[inline]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 >> 1) & !0x8080_8080_8080_8080)
    }

    /// Mirror vertically.
    #[inline]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// Iterates over the squares, lowest first.
    #[inline]
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    #[inline]
    fn into_iter(self) -> BitIter {
        BitIter(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first, made by
/// [`Bitboard::iter`] or `into_iter`; it knows its exact length.
pub struct BitIter(u64);

impl Iterator for BitIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::new(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.set(sq);
        }
        b
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for r in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::new(r * 8 + file);
                f.write_str(if self.contains(sq) { "1 " } else { ". " })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
