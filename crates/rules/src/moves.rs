//! Moves of every kind, their UCI strings, and a fixed-capacity move list.

use crate::types::{Color, Role, Square};
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

/// A move. Four bytes; `Copy`.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
}

impl Move {
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move { from, to, kind }
    }

    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move { from, to, kind: MoveKind::Normal }
    }

    /// A placement or re-entry has no origin square on the board.
    #[inline]
    pub const fn is_drop(self) -> bool {
        matches!(self.kind, MoveKind::Drop(_) | MoveKind::ReEntry(_))
    }

    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    /// The move string of `shared/rules/README.md`.
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

/// The parts of a UCI move string, before it is matched against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UciMove {
    /// `e2e4`, with an optional trailing letter (`q r b n g c w b`).
    Squares { from: Square, to: Square, suffix: Option<char> },
    /// `N@f3`.
    Put { role: Role, to: Square },
}

/// A UCI move string that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseUciMoveError(pub String);

impl fmt::Display for ParseUciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseUciMoveError {}

impl UciMove {
    pub fn parse(s: &str) -> Result<UciMove, ParseUciMoveError> {
        let err = |why: &str| ParseUciMoveError(format!("bad move string '{s}': {why}"));
        if !s.is_ascii() {
            return Err(err("not ASCII"));
        }
        if let Some(at) = s.find('@') {
            if at != 1 || s.len() != 4 {
                return Err(err("a placement is a piece letter, '@' and a square, like N@f3"));
            }
            let role = Role::from_char(s.as_bytes()[0] as char)
                .ok_or_else(|| err("unknown piece letter before '@'"))?;
            let to = Square::parse(&s[2..]).ok_or_else(|| err("bad square after '@'"))?;
            return Ok(UciMove::Put { role, to });
        }
        if s.len() != 4 && s.len() != 5 {
            return Err(err("expected 4 or 5 characters, like e2e4 or e7e8q"));
        }
        let from = Square::parse(&s[0..2]).ok_or_else(|| err("bad from-square"))?;
        let to = Square::parse(&s[2..4]).ok_or_else(|| err("bad to-square"))?;
        let suffix = match s.as_bytes().get(4) {
            None => None,
            Some(&c) => {
                let c = c as char;
                if !"qrbngcwk".contains(c) && c != 'b' {
                    return Err(err("unknown suffix letter"));
                }
                Some(c)
            }
        };
        Ok(UciMove::Squares { from, to, suffix })
    }
}

/// Capacity of a [`MoveList`]; Genesis has hundreds of placements per position.
pub const MAX_MOVES: usize = 512;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList { len: 0, moves: [Move::normal(Square::A1, Square::A1); MAX_MOVES] }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        // SAFETY: the capacity bounds every position of every variant
        // (at most 5 reserve roles on 63 squares plus board moves).
        unsafe { *self.moves.get_unchecked_mut(self.len) = m };
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }

    /// Keeps the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if f(&m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }

    pub fn to_vec(&self) -> Vec<Move> {
        self.as_slice().to_vec()
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
