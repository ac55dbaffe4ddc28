//! Piece placement: bitboards by role and colour, a mailbox, and the
//! incrementally updated Zobrist hash of the placement.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{ByColor, Color, Piece, Role, Square};
use crate::zobrist;
use std::fmt;

/// The placement of the pieces on the 64 squares, and nothing else: the side
/// to move, castling rights and variant state (reserves, hands, rings) live in
/// the [`Position`](crate::Position) that holds the board.
///
/// It keeps one [`Bitboard`] per role and per colour, a square-indexed
/// mailbox, and a Zobrist hash of the placement updated on every change. The
/// editing methods ([`Board::put`], [`Board::take`], [`Board::set`],
/// [`Board::shift`]) change the placement only and check no rule.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    by_role: [Bitboard; Role::COUNT],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
    /// 0 = empty, else 1 + color * 8 + role.
    mailbox: [u8; 64],
    hash: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

#[inline]
const fn code(p: Piece) -> u8 {
    1 + (p.color as u8) * 8 + p.role as u8
}

#[inline]
fn decode(c: u8) -> Option<Piece> {
    if c == 0 {
        None
    } else {
        let c = c - 1;
        Some(Piece::new(if c >= 8 { Color::Black } else { Color::White }, Role::from_index((c & 7) as usize)))
    }
}

impl Board {
    /// A board with no piece on it.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; Role::COUNT],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            mailbox: [0; 64],
            hash: 0,
        }
    }

    /// The orthodox start position.
    pub fn standard() -> Board {
        let mut b = Board::empty();
        let back =
            [Role::Rook, Role::Knight, Role::Bishop, Role::Queen, Role::King, Role::Bishop, Role::Knight, Role::Rook];
        for (f, &role) in back.iter().enumerate() {
            let f = f as u32;
            b.put(Square::new(f), Piece::new(Color::White, role));
            b.put(Square::new(8 + f), Piece::new(Color::White, Role::Pawn));
            b.put(Square::new(48 + f), Piece::new(Color::Black, Role::Pawn));
            b.put(Square::new(56 + f), Piece::new(Color::Black, role));
        }
        b
    }

    /// Every occupied square, both colours.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares holding pieces of colour `c`.
    #[inline]
    pub fn by_color(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// The squares holding pieces of role `r`, both colours.
    #[inline]
    pub fn by_role(&self, r: Role) -> Bitboard {
        self.by_role[r.index()]
    }

    /// The squares holding piece `p` (its role and its colour).
    #[inline]
    pub fn by_piece(&self, p: Piece) -> Bitboard {
        self.by_role[p.role.index()] & self.by_color[p.color.index()]
    }

    /// The pawns of both colours.
    #[inline]
    pub fn pawns(&self) -> Bitboard {
        self.by_role(Role::Pawn)
    }
    /// The knights of both colours.
    #[inline]
    pub fn knights(&self) -> Bitboard {
        self.by_role(Role::Knight)
    }
    /// The bishops of both colours.
    #[inline]
    pub fn bishops(&self) -> Bitboard {
        self.by_role(Role::Bishop)
    }
    /// The rooks of both colours.
    #[inline]
    pub fn rooks(&self) -> Bitboard {
        self.by_role(Role::Rook)
    }
    /// The queens of both colours.
    #[inline]
    pub fn queens(&self) -> Bitboard {
        self.by_role(Role::Queen)
    }
    /// The kings of both colours.
    #[inline]
    pub fn kings(&self) -> Bitboard {
        self.by_role(Role::King)
    }
    /// Bishops and queens.
    #[inline]
    pub fn bishops_queens(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }
    /// Rooks and queens.
    #[inline]
    pub fn rooks_queens(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// The king of `c`, if on the board (Genesis has positions without one).
    #[inline]
    pub fn king_of(&self, c: Color) -> Option<Square> {
        (self.kings() & self.by_color(c)).first()
    }

    /// The piece on `sq`, or `None` if the square is empty.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.mailbox[sq.index()])
    }

    /// The role of the piece on `sq`, or `None` if the square is empty.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.piece_at(sq).map(|p| p.role)
    }

    /// The colour of the piece on `sq`, or `None` if the square is empty.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        self.piece_at(sq).map(|p| p.color)
    }

    /// Zobrist hash of the placement alone.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Puts a piece on an empty square.
    #[inline]
    pub fn put(&mut self, sq: Square, p: Piece) {
        debug_assert!(self.mailbox[sq.index()] == 0, "put on occupied {sq}");
        let b = Bitboard::from_square(sq);
        self.by_role[p.role.index()] |= b;
        self.by_color[p.color.index()] |= b;
        self.occupied |= b;
        self.mailbox[sq.index()] = code(p);
        self.hash ^= zobrist::piece(p, sq);
    }

    /// Removes and returns the piece on `sq`, if any.
    #[inline]
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        let p = self.piece_at(sq)?;
        let b = Bitboard::from_square(sq);
        self.by_role[p.role.index()] ^= b;
        self.by_color[p.color.index()] ^= b;
        self.occupied ^= b;
        self.mailbox[sq.index()] = 0;
        self.hash ^= zobrist::piece(p, sq);
        Some(p)
    }

    /// Puts `p` on `sq`, replacing whatever stood there; returns the old piece.
    #[inline]
    pub fn set(&mut self, sq: Square, p: Piece) -> Option<Piece> {
        let old = self.take(sq);
        self.put(sq, p);
        old
    }

    /// Moves the piece on `from` to the empty square `to`.
    #[inline]
    pub fn shift(&mut self, from: Square, to: Square) {
        let p = self.take(from).expect("shift from empty square");
        self.put(to, p);
    }

    /// Counts of each piece kind per colour.
    pub fn material(&self) -> ByColor<[u8; Role::COUNT]> {
        let mut m = ByColor::<[u8; Role::COUNT]>::default();
        for c in Color::ALL {
            for r in Role::ALL {
                m[c][r.index()] = (self.by_piece(Piece::new(c, r))).count() as u8;
            }
        }
        m
    }

    /// Every orthodox piece (and Genie) of `by` attacking `sq` with the given occupancy.
    /// Clowns and ring powers are added by their variants.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let them = self.by_color(by);
        let mut a = (attacks::knight_attacks(sq) & self.knights())
            | (attacks::king_attacks(sq) & self.kings())
            | (attacks::pawn_attacks(!by, sq) & self.pawns())
            | (attacks::rook_attacks(sq, occ) & self.rooks_queens())
            | (attacks::bishop_attacks(sq, occ) & self.bishops_queens());
        let genies = self.by_role(Role::Genie);
        if genies.any() {
            a |= attacks::genie_attacks(sq) & genies;
        }
        a & them
    }

    /// Whether `by` attacks `sq` (orthodox pieces and Genie).
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        self.attackers_to(sq, by, occ).any()
    }

    /// Pieces of either colour standing between `king` and an enemy slider
    /// of `by` that would attack it were they gone: the pin candidates.
    /// Orthodox sliders only.
    #[inline]
    pub fn slider_blockers(&self, king: Square, by: Color, occ: Bitboard) -> Bitboard {
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & self.rooks_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & self.bishops_queens()))
            & self.by_color(by);
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(king, s) & occ;
            if b.any() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// Board part of a FEN (piece letters, digits, slashes).
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(72);
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match self.piece_at(Square::new(r * 8 + f)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if r > 0 {
                s.push('/');
            }
        }
        s
    }

    /// A text diagram, rank 8 at the top, as Stockfish's `d` prints it.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        s.push_str(" +---+---+---+---+---+---+---+---+\n");
        for r in (0..8).rev() {
            for f in 0..8 {
                let c = self.piece_at(Square::new(r * 8 + f)).map_or(' ', |p| p.char());
                s.push_str(" | ");
                s.push(c);
            }
            s.push_str(&format!(" | {}\n", r + 1));
            s.push_str(" +---+---+---+---+---+---+---+---+\n");
        }
        s.push_str("   a   b   c   d   e   f   g   h\n");
        s
    }

    /// Recomputes the placement hash from scratch (for tests).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in self.occupied {
            h ^= zobrist::piece(self.piece_at(sq).unwrap(), sq);
        }
        h
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.board_fen())
    }
}
