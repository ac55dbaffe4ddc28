//! Typed building blocks: colours, roles, pieces, squares, files and ranks.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// The side a piece belongs to, or whose turn it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first; its pieces start on ranks 1 and 2. Index 0.
    White = 0,
    /// The side that moves second; its pieces start on ranks 7 and 8. Index 1.
    Black = 1,
}

impl Color {
    /// Both colours, White first (the order of [`Color::index`]).
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: the index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `'w'` or `'b'`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Reads the FEN side-to-move letter, `'w'` or `'b'` (lower case only);
    /// `None` for any other character.
    pub fn from_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// `true` for White.
    #[inline]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// The rank this side's pieces start on (1 for White, 8 for Black).
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }

    /// Picks `w` for White and `b` for Black.
    #[inline]
    pub fn fold<T>(self, w: T, b: T) -> T {
        match self {
            Color::White => w,
            Color::Black => b,
        }
    }

    /// `"white"` or `"black"`, as `Display` writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of a piece. Genie and Clown belong to variants but live here so
/// that every position, move and table has room for them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// The pawn. Genesis Chess gives it moves of its own
    /// (`docs/rules/genesis.md`).
    Pawn = 0,
    /// The knight. In Clown Chess a Knight's first move may declare it a Clown
    /// (`docs/rules/clown.md`).
    Knight = 1,
    /// The bishop.
    Bishop = 2,
    /// The rook.
    Rook = 3,
    /// The queen.
    Queen = 4,
    /// The king: the royal piece whose checkmate ends the game.
    King = 5,
    /// The Genie of Genie Of The Lamp (`docs/rules/genie.md`): a pawn turned into
    /// a Genie by a flip or a promotion.
    Genie = 6,
    /// The Clown of Clown Chess (`docs/rules/clown.md`): a Knight declared a
    /// Clown on its first move; it moves by the file it stands on.
    Clown = 7,
}

// Every role sits at its index in `Role::ALL`.
const _: () = {
    let mut i = 0;
    while i < Role::COUNT {
        assert!(Role::ALL[i] as usize == i, "Role::ALL is not in index order");
        i += 1;
    }
};

impl Role {
    /// Every role, in index order (`Pawn` = 0 to `Clown` = 7).
    pub const ALL: [Role; Role::COUNT] =
        [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King, Role::Genie, Role::Clown];
    /// The number of roles (8): the length of per-role tables such as
    /// [`ByRole`], and what the engine's persisted layouts (network inputs,
    /// move codes) are derived from. `tests/counts.rs` checks it against
    /// the enum.
    pub const COUNT: usize = 8;

    /// The role's index, 0 (`Pawn`) to 7 (`Clown`), its place in [`Role::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role with index `i`, the inverse of [`Role::index`].
    ///
    /// # Panics
    ///
    /// When `i` is 8 or more.
    #[inline]
    pub const fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }

    /// Upper-case letter (`P N B R Q K G C`).
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
            Role::Genie => 'G',
            Role::Clown => 'C',
        }
    }

    /// Lower-case letter (`p n b r q k g c`).
    pub const fn char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    /// Reads a role letter (`P N B R Q K G C`) in either case; `None` for any
    /// other character.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            'g' => Role::Genie,
            'c' => Role::Clown,
            _ => return None,
        })
    }

    /// The role's English name in lower case (`"pawn"` to `"clown"`), as
    /// `Display` writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
            Role::Genie => "genie",
            Role::Clown => "clown",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A coloured piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The piece of `color` and `role`.
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case for White.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Reads a FEN piece letter: upper case is White, lower case Black (`'N'` is
    /// a white knight, `'g'` a black Genie); `None` for a character that names no
    /// role.
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece { color, role })
    }
}

/// A file, `a` to `h`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum File {
    /// The a-file (index 0).
    A = 0,
    /// The b-file (index 1).
    B,
    /// The c-file (index 2).
    C,
    /// The d-file (index 3).
    D,
    /// The e-file (index 4), where the kings start.
    E,
    /// The f-file (index 5).
    F,
    /// The g-file (index 6).
    G,
    /// The h-file (index 7).
    H,
}

impl File {
    /// Every file, `a` to `h`.
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    /// The file with index `i` (0 = `a` to 7 = `h`). Only the low three bits of
    /// `i` count: an index of 8 or more wraps around (8 gives `a`) rather than
    /// panicking.
    #[inline]
    pub const fn new(i: u32) -> File {
        File::ALL[(i & 7) as usize]
    }
    /// 0 for the a-file to 7 for the h-file.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The file's letter, `'a'` to `'h'`.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }
    /// Reads a file letter, `'a'` to `'h'` (lower case only); `None` otherwise.
    pub fn from_char(c: char) -> Option<File> {
        if ('a'..='h').contains(&c) {
            Some(File::new(c as u32 - 'a' as u32))
        } else {
            None
        }
    }
}

/// A rank, `1` to `8`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    /// Rank 1 (index 0): White's back rank.
    First = 0,
    /// Rank 2 (index 1): White's pawns start here.
    Second,
    /// Rank 3 (index 2).
    Third,
    /// Rank 4 (index 3).
    Fourth,
    /// Rank 5 (index 4).
    Fifth,
    /// Rank 6 (index 5).
    Sixth,
    /// Rank 7 (index 6): Black's pawns start here.
    Seventh,
    /// Rank 8 (index 7): Black's back rank.
    Eighth,
}

impl Rank {
    /// Every rank, 1 to 8.
    pub const ALL: [Rank; 8] =
        [Rank::First, Rank::Second, Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth];

    /// The rank with index `i` (0 = rank 1 to 7 = rank 8). Only the low three
    /// bits of `i` count: an index of 8 or more wraps around (8 gives rank 1)
    /// rather than panicking.
    #[inline]
    pub const fn new(i: u32) -> Rank {
        Rank::ALL[(i & 7) as usize]
    }
    /// 0 for rank 1 to 7 for rank 8.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The rank's digit, `'1'` to `'8'`.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }
    /// Reads a rank digit, `'1'` to `'8'`; `None` otherwise.
    pub fn from_char(c: char) -> Option<Rank> {
        if ('1'..='8').contains(&c) {
            Some(Rank::new(c as u32 - '1' as u32))
        } else {
            None
        }
    }
    /// The same rank seen from `color`'s side (rank 1 for White is rank 8 for Black).
    #[inline]
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::new(7 - self as u32),
        }
    }
}

/// A square, `a1` = 0 to `h8` = 63.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

#[allow(missing_docs)]
impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A2: Square = Square(8);
    pub const B2: Square = Square(9);
    pub const C2: Square = Square(10);
    pub const D2: Square = Square(11);
    pub const E2: Square = Square(12);
    pub const F2: Square = Square(13);
    pub const G2: Square = Square(14);
    pub const H2: Square = Square(15);
    pub const A3: Square = Square(16);
    pub const B3: Square = Square(17);
    pub const C3: Square = Square(18);
    pub const D3: Square = Square(19);
    pub const E3: Square = Square(20);
    pub const F3: Square = Square(21);
    pub const G3: Square = Square(22);
    pub const H3: Square = Square(23);
    pub const A4: Square = Square(24);
    pub const B4: Square = Square(25);
    pub const C4: Square = Square(26);
    pub const D4: Square = Square(27);
    pub const E4: Square = Square(28);
    pub const F4: Square = Square(29);
    pub const G4: Square = Square(30);
    pub const H4: Square = Square(31);
    pub const A5: Square = Square(32);
    pub const B5: Square = Square(33);
    pub const C5: Square = Square(34);
    pub const D5: Square = Square(35);
    pub const E5: Square = Square(36);
    pub const F5: Square = Square(37);
    pub const G5: Square = Square(38);
    pub const H5: Square = Square(39);
    pub const A6: Square = Square(40);
    pub const B6: Square = Square(41);
    pub const C6: Square = Square(42);
    pub const D6: Square = Square(43);
    pub const E6: Square = Square(44);
    pub const F6: Square = Square(45);
    pub const G6: Square = Square(46);
    pub const H6: Square = Square(47);
    pub const A7: Square = Square(48);
    pub const B7: Square = Square(49);
    pub const C7: Square = Square(50);
    pub const D7: Square = Square(51);
    pub const E7: Square = Square(52);
    pub const F7: Square = Square(53);
    pub const G7: Square = Square(54);
    pub const H7: Square = Square(55);
    pub const A8: Square = Square(56);
    pub const B8: Square = Square(57);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);
}

impl Square {
    /// Square from an index 0..64. Panics in debug builds when out of range.
    #[inline]
    pub const fn new(i: u32) -> Square {
        debug_assert!(i < 64);
        Square((i & 63) as u8)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square((rank as u8) * 8 + file as u8)
    }

    /// The square's index, 0 (`a1`) to 63 (`h8`): `rank * 8 + file`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        File::new((self.0 & 7) as u32)
    }

    /// The square's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new((self.0 >> 3) as u32)
    }

    /// Moves by `delta` squares (`+8` is one rank up). `None` off the board
    /// (no wrap-around check: use for rank steps or with known-safe deltas).
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Moves by a file and rank delta, `None` off the board.
    #[inline]
    pub const fn offset_xy(self, df: i32, dr: i32) -> Option<Square> {
        let f = (self.0 & 7) as i32 + df;
        let r = (self.0 >> 3) as i32 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square((r * 8 + f) as u8))
        } else {
            None
        }
    }

    /// Mirror vertically (a1 <-> a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Relative to `color` (White: unchanged; Black: mirrored).
    #[inline]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// Chebyshev distance (king steps).
    #[inline]
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.0 & 7) as i32 - (other.0 & 7) as i32;
        let dr = (self.0 >> 3) as i32 - (other.0 >> 3) as i32;
        let df = if df < 0 { -df } else { df };
        let dr = if dr < 0 { -dr } else { dr };
        (if df > dr { df } else { dr }) as u32
    }

    /// `true` for dark squares (a1 is dark).
    #[inline]
    pub const fn is_dark(self) -> bool {
        ((self.0 & 7) + (self.0 >> 3)).is_multiple_of(2)
    }

    /// Every square in index order: `a1`, `b1`, ..., `h1`, `a2`, ..., `h8`.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square::new)
    }

    /// Reads a square name, `a1` to `h8`, lower case only; `None` for
    /// anything else. [`FromStr`](std::str::FromStr) reads the same names and
    /// answers bad input with a [`ParseSquareError`].
    pub fn parse(s: &str) -> Option<Square> {
        let mut it = s.chars();
        let f = File::from_char(it.next()?)?;
        let r = Rank::from_char(it.next()?)?;
        if it.next().is_some() {
            return None;
        }
        Some(Square::from_coords(f, r))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A square name that is not `a1` to `h8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    /// The text as given.
    pub input: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a square (a1 to h8)", self.input)
    }
}

impl std::error::Error for ParseSquareError {}

impl std::str::FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::parse(s).ok_or_else(|| ParseSquareError { input: s.to_string() })
    }
}

/// One value per colour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// The pair of White's and Black's values.
    pub const fn new(white: T, black: T) -> Self {
        ByColor { white, black }
    }
    /// The value of `c` (the same as `self[c]`).
    #[inline]
    pub fn get(&self, c: Color) -> &T {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
    /// The value of `c`, mutable (the same as `&mut self[c]`).
    #[inline]
    pub fn get_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        self.get(c)
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        self.get_mut(c)
    }
}

/// One value per role.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByRole<T>(pub [T; Role::COUNT]);

impl<T> Index<Role> for ByRole<T> {
    type Output = T;
    #[inline]
    fn index(&self, r: Role) -> &T {
        &self.0[r.index()]
    }
}

impl<T> IndexMut<Role> for ByRole<T> {
    #[inline]
    fn index_mut(&mut self, r: Role) -> &mut T {
        &mut self.0[r.index()]
    }
}

/// A table indexed by square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BySquare<T>(pub [T; 64]);

impl<T> Index<Square> for BySquare<T> {
    type Output = T;
    #[inline]
    fn index(&self, s: Square) -> &T {
        &self.0[s.index()]
    }
}

impl<T> IndexMut<Square> for BySquare<T> {
    #[inline]
    fn index_mut(&mut self, s: Square) -> &mut T {
        &mut self.0[s.index()]
    }
}
