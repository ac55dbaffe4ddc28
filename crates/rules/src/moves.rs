//! Moves of every kind, their UCI strings, and a fixed-capacity move list.

use crate::types::{Color, Role, Square};
use arrayvec::ArrayVec;
use std::fmt;

/// What a move does beyond taking a piece from `from` to `to`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move or capture (also a pawn's single push).
    Normal,
    /// A pawn's initial two-square advance.
    DoublePush,
    /// En-passant capture; `to` is the square the pawn lands on.
    EnPassant,
    /// Castling; `from` is the king's square, `to` its destination (two files away).
    Castle,
    /// Pawn promotion to the given role.
    Promotion(Role),
    /// Genie flip: the pawn on `from` (= `to`) becomes a Genie.
    Flip,
    /// Genesis placement of a reserve piece on `to` (`from` = `to`).
    Drop(Role),
    /// Clown Chess re-entry of a captured piece on `to` (`from` = `to`);
    /// the role is `Knight`, `Bishop` or `Clown`.
    ReEntry(Role),
    /// Clown Chess: a Knight's first move that declares it a Clown.
    Declare,
    /// Magic Ring pass from the carrier on `from` to the piece on `to`;
    /// the colour names the ring only when the carrier holds both.
    RingPass(Option<Color>),
}

impl MoveKind {
    /// The number of kinds (variants of the enum, whatever role or colour
    /// they carry): what the engine's move codes are laid out from, with
    /// [`Role::COUNT`]. `tests/counts.rs` checks it against the enum.
    pub const COUNT: usize = 10;

    /// The kind's place in the enum, 0 (`Normal`) to [`MoveKind::COUNT`] − 1
    /// (`RingPass`), whatever role or colour it carries.
    pub const fn tag(self) -> usize {
        match self {
            MoveKind::Normal => 0,
            MoveKind::DoublePush => 1,
            MoveKind::EnPassant => 2,
            MoveKind::Castle => 3,
            MoveKind::Promotion(_) => 4,
            MoveKind::Flip => 5,
            MoveKind::Drop(_) => 6,
            MoveKind::ReEntry(_) => 7,
            MoveKind::Declare => 8,
            MoveKind::RingPass(_) => 9,
        }
    }
}

/// A move of any variant: origin and destination squares and a [`MoveKind`].
/// Four bytes; `Copy`.
///
/// A `Move` is only data: whether it is legal is for a position to say
/// ([`Position::legal_moves`](crate::Position::legal_moves),
/// [`Position::parse_uci`](crate::Position::parse_uci)). `Display` writes its
/// move string; every legal move has exactly one, as `docs/rules/README.md`
/// defines them:
///
/// | move | string |
/// | --- | --- |
/// | move or capture; castling as the king's two squares | `g1f3`, `e1g1` |
/// | promotion | `e7e8q`, to a Genie `e7e8g` |
/// | Genie flip (the pawn's square twice) | `d2d2g` |
/// | Genesis placement, Clown Chess re-entry (upper-case letter) | `K@e4`, `N@b4` |
/// | Clown declaration on a Knight's first move | `b1c3c` |
/// | Magic Ring pass (`w`/`b` only when the carrier holds both rings) | `e1d2`, `e1d2b` |
///
/// ```
/// use chimera_rules::{Chess, Move, MoveKind, Position, Role, Square};
///
/// let pos = Chess::new();
/// let m = pos.parse_uci("g1f3")?;
/// assert_eq!(m, Move::normal(Square::G1, Square::F3));
/// assert_eq!(m.to_string(), "g1f3");
///
/// let promotion = Move::new(Square::E7, Square::E8, MoveKind::Promotion(Role::Queen));
/// assert_eq!(promotion.to_string(), "e7e8q");
/// assert_eq!(promotion.promotion(), Some(Role::Queen));
/// assert!(!pos.is_legal(promotion));
/// # Ok::<(), chimera_rules::IllegalMove>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the piece leaves (the king's for castling, the ring
    /// carrier's for a ring pass); for a placement, re-entry or flip, the
    /// same square as `to`.
    pub from: Square,
    /// The square the piece arrives on (the king's destination for
    /// castling, the receiving piece's square for a ring pass).
    pub to: Square,
    /// What kind of move it is.
    pub kind: MoveKind,
}

impl Move {
    /// A move of any kind. Nothing is checked: a position says whether it is
    /// legal ([`Position::is_legal`](crate::Position::is_legal)).
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move { from, to, kind }
    }

    /// A [`MoveKind::Normal`] move or capture from `from` to `to`.
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move { from, to, kind: MoveKind::Normal }
    }

    /// A placement or re-entry has no origin square on the board.
    #[inline]
    pub const fn is_drop(self) -> bool {
        matches!(self.kind, MoveKind::Drop(_) | MoveKind::ReEntry(_))
    }

    /// The role promoted to, for a promotion; `None` for every other kind.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    /// The move string, the same as `to_string()` (see [`Move`] and
    /// `docs/rules/README.md`).
    pub fn uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            MoveKind::Drop(r) | MoveKind::ReEntry(r) => write!(f, "{}@{}", r.upper_char(), self.to),
            MoveKind::Promotion(r) => write!(f, "{}{}{}", self.from, self.to, r.char()),
            MoveKind::Flip => write!(f, "{}{}g", self.from, self.to),
            MoveKind::Declare => write!(f, "{}{}c", self.from, self.to),
            MoveKind::RingPass(Some(c)) => write!(f, "{}{}{}", self.from, self.to, c.char()),
            _ => write!(f, "{}{}", self.from, self.to),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// The parts of a UCI move string, read without a position: the syntax is
/// checked, legality is not ([`Position::parse_uci`](crate::Position::parse_uci)
/// does both).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UciMove {
    /// Two squares and an optional letter: `e2e4`, `e7e8q`, `d2d2g`.
    Squares {
        /// The first square.
        from: Square,
        /// The second square.
        to: Square,
        /// The fifth character, if any: one of `q r b n k g c w`, a
        /// promotion letter, `g` (Genie flip or promotion), `c` (Clown
        /// declaration) or `w`/`b` (the ring a pass hands on).
        suffix: Option<char>,
    },
    /// A placement or re-entry: `N@f3`.
    Put {
        /// The role of the letter before `@` (read in either case).
        role: Role,
        /// The square after `@`.
        to: Square,
    },
}

/// What is wrong with a UCI move string.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UciMoveErrorKind {
    /// The string has a character outside ASCII.
    NotAscii,
    /// A placement not shaped like `N@f3`.
    BadPlacement,
    /// The letter before `@` is no piece.
    UnknownPieceLetter,
    /// The square after `@` is not `a1`..`h8`.
    BadPlacementSquare,
    /// Neither 4 nor 5 characters.
    BadLength,
    /// The first two characters are no square.
    BadFromSquare,
    /// Characters 3 and 4 are no square.
    BadToSquare,
    /// The fifth character is not a known suffix letter.
    UnknownSuffix,
}

impl UciMoveErrorKind {
    fn describe(self) -> &'static str {
        match self {
            UciMoveErrorKind::NotAscii => "not ASCII",
            UciMoveErrorKind::BadPlacement => "a placement is a piece letter, '@' and a square, like N@f3",
            UciMoveErrorKind::UnknownPieceLetter => "unknown piece letter before '@'",
            UciMoveErrorKind::BadPlacementSquare => "bad square after '@'",
            UciMoveErrorKind::BadLength => "expected 4 or 5 characters, like e2e4 or e7e8q",
            UciMoveErrorKind::BadFromSquare => "bad from-square",
            UciMoveErrorKind::BadToSquare => "bad to-square",
            UciMoveErrorKind::UnknownSuffix => "unknown suffix letter",
        }
    }
}

/// A UCI move string that cannot be read: the input and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseUciMoveError {
    /// The string as given.
    pub input: String,
    /// What is wrong with it.
    pub kind: UciMoveErrorKind,
}

impl fmt::Display for ParseUciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad move string '{}': {}", self.input, self.kind.describe())
    }
}

impl std::error::Error for ParseUciMoveError {}

impl UciMove {
    /// Reads a move string's parts: `e2e4`, `e7e8q`, `N@f3`, `b1b1c`, ...
    /// Whether it is legal is for the position to say
    /// ([`Position::parse_uci`](crate::Position::parse_uci)).
    ///
    /// A string of another shape is a [`ParseUciMoveError`] whose
    /// [`UciMoveErrorKind`] says what is wrong.
    ///
    /// ```
    /// use chimera_rules::{Role, Square, UciMove, UciMoveErrorKind};
    ///
    /// assert_eq!(
    ///     UciMove::parse("e7e8q"),
    ///     Ok(UciMove::Squares { from: Square::E7, to: Square::E8, suffix: Some('q') })
    /// );
    /// assert_eq!(UciMove::parse("N@f3"), Ok(UciMove::Put { role: Role::Knight, to: Square::F3 }));
    /// assert_eq!(UciMove::parse("e2e9").unwrap_err().kind, UciMoveErrorKind::BadToSquare);
    /// assert_eq!(UciMove::parse("e2e4x").unwrap_err().kind, UciMoveErrorKind::UnknownSuffix);
    /// ```
    pub fn parse(s: &str) -> Result<UciMove, ParseUciMoveError> {
        use UciMoveErrorKind::*;
        let err = |kind| ParseUciMoveError { input: s.to_string(), kind };
        if !s.is_ascii() {
            return Err(err(NotAscii));
        }
        if let Some(at) = s.find('@') {
            if at != 1 || s.len() != 4 {
                return Err(err(BadPlacement));
            }
            let role = Role::from_char(s.as_bytes()[0] as char).ok_or_else(|| err(UnknownPieceLetter))?;
            let to = Square::parse(&s[2..]).ok_or_else(|| err(BadPlacementSquare))?;
            return Ok(UciMove::Put { role, to });
        }
        if s.len() != 4 && s.len() != 5 {
            return Err(err(BadLength));
        }
        let from = Square::parse(&s[0..2]).ok_or_else(|| err(BadFromSquare))?;
        let to = Square::parse(&s[2..4]).ok_or_else(|| err(BadToSquare))?;
        let suffix = match s.as_bytes().get(4) {
            None => None,
            Some(&c) => {
                let c = c as char;
                if !"qrbngcwk".contains(c) {
                    return Err(err(UnknownSuffix));
                }
                Some(c)
            }
        };
        Ok(UciMove::Squares { from, to, suffix })
    }
}

/// Capacity of a [`MoveList`]; Genesis has hundreds of placements per position.
pub const MAX_MOVES: usize = 512;

/// A list of moves on the stack, with room for [`MAX_MOVES`].
///
/// Every position of every variant has fewer legal moves than that, so the
/// generators never fill it; a caller that pushes more gets a panic, never
/// memory unsafety.
#[derive(Clone, Default)]
pub struct MoveList(ArrayVec<Move, MAX_MOVES>);

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList(ArrayVec::new())
    }

    /// Appends `m`.
    ///
    /// # Panics
    ///
    /// When the list already holds [`MAX_MOVES`] moves.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.0.push(m);
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// `true` when the list holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.0
    }

    /// The moves as a mutable slice (to sort or score them in place).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.0
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.0.iter()
    }

    /// `true` when `m` is in the list.
    pub fn contains(&self, m: &Move) -> bool {
        self.0.contains(m)
    }

    /// Keeps the moves for which `f` is true, in their order.
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        self.0.retain(|m| f(m));
    }

    /// The moves in a new `Vec`.
    pub fn to_vec(&self) -> Vec<Move> {
        self.0.to_vec()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
