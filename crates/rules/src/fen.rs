//! FEN reading helpers shared by every variant, and the typed errors that say
//! what was wrong. The extensions each variant adds are documented in
//! `docs/fen.md`.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::position::CastlingRights;
use crate::types::{ByColor, Color, File, Piece, Rank, Role, Square};
use std::fmt;

pub const ORTHODOX_ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

/// What is wrong with a FEN: every FEN reader of this crate answers bad
/// input with one of these. `Display` gives a one-line message for people.
/// The FEN of each variant is described in `docs/fen.md`.
///
/// Non-exhaustive: new checks may add variants.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenError {
    /// The text is empty or only white space.
    Empty,
    /// The FEN stops before a required field; the payload names it
    /// (`"side to move"`, `"castling"` or `"en passant"`).
    MissingField(&'static str),
    /// A field after the six standard ones that the variant does not accept
    /// (orthodox chess accepts none; the variants' `name:value` fields are
    /// in `docs/fen.md`), or a variant field that is not its own: the field
    /// as given.
    UnexpectedField(String),
    /// The board field has this many `/`-separated ranks instead of 8.
    BadRankCount(usize),
    /// A rank of the board field does not describe exactly 8 squares.
    BadRankLength {
        /// The rank, 1 to 8 (the board field lists rank 8 first).
        rank: u8,
        /// How many squares it describes, counted up to where the error
        /// was found.
        squares: u32,
    },
    /// A character in the board field that is no digit, `/`, `~` or piece
    /// letter.
    UnknownPiece(char),
    /// A piece letter whose role the variant does not have (a Genie `G` in
    /// orthodox chess, say).
    PieceNotInVariant(char),
    /// The `[...]` reserve or hand after the board cannot be read: the text
    /// after `[` as given.
    BadPocket(String),
    /// This side has no king, in a variant and position that need one.
    MissingKing(Color),
    /// This side has more than one king.
    TooManyKings(Color),
    /// A pawn stands on rank 1 or 8, where the variant allows none.
    PawnOnBackRank(Square),
    /// The side-to-move field is not `w` or `b`: the field as given.
    BadSideToMove(String),
    /// The castling field is neither `-` nor letters of `KQkq` without a
    /// repeat: the field as given.
    BadCastling(String),
    /// A castling right (its letter) whose king is not on its start square,
    /// e1 or e8.
    CastlingWithoutKing(char),
    /// A castling right (its letter) without a rook of its side on the
    /// corner it names (h1, a1, h8 or a8).
    CastlingWithoutRook(char),
    /// The en-passant field is neither `-` nor a square name: the field as
    /// given.
    BadEpSquare(String),
    /// The en-passant square cannot follow a double step in this position.
    ImpossibleEpSquare {
        /// The square given.
        square: Square,
        /// Why no double step can have passed it, in words.
        why: &'static str,
    },
    /// The halfmove clock or the fullmove number is not a whole number
    /// below 100 000.
    BadCounter {
        /// `"halfmove clock"` or `"fullmove number"`.
        field: &'static str,
        /// The field as given.
        value: String,
    },
    /// The side not to move is in check (it could be captured).
    OppositeCheck,
    /// The Magic Ring `powers:` field cannot be read.
    RingPowers(crate::variant::ParseRingPowersError),
    /// A variant-specific problem, described.
    Variant(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        match self {
            Empty => write!(f, "empty FEN"),
            MissingField(name) => write!(f, "FEN is missing the {name} field"),
            UnexpectedField(s) => write!(f, "unexpected extra FEN field '{s}'"),
            BadRankCount(n) => write!(f, "board has {n} ranks, expected 8"),
            BadRankLength { rank, squares } => write!(f, "rank {rank} describes {squares} squares, expected 8"),
            UnknownPiece(c) => write!(f, "unknown piece letter '{c}'"),
            PieceNotInVariant(c) => write!(f, "piece letter '{c}' does not exist in this variant"),
            BadPocket(s) => write!(f, "bad reserve/hand '[{s}]'"),
            MissingKing(c) => write!(f, "{c} has no king"),
            TooManyKings(c) => write!(f, "{c} has more than one king"),
            PawnOnBackRank(sq) => write!(f, "pawn on {sq}: pawns cannot stand on the first or last rank"),
            BadSideToMove(s) => write!(f, "side to move must be 'w' or 'b', got '{s}'"),
            BadCastling(s) => write!(f, "bad castling field '{s}'"),
            CastlingWithoutKing(c) => write!(f, "castling right '{c}' but the king is not on its start square"),
            CastlingWithoutRook(c) => write!(f, "castling right '{c}' but no rook on its corner"),
            BadEpSquare(s) => write!(f, "bad en-passant field '{s}'"),
            ImpossibleEpSquare { square, why } => write!(f, "impossible en-passant square {square}: {why}"),
            BadCounter { field, value } => write!(f, "bad {field} '{value}'"),
            OppositeCheck => write!(f, "the side not to move is in check"),
            RingPowers(e) => write!(f, "bad powers: field: {e}"),
            Variant(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::RingPowers(e) => Some(e),
            _ => None,
        }
    }
}

/// The fields of a FEN, split on white space. Missing counters default to
/// `0 1`, as most tools accept; everything after the sixth field is `extra`.
#[derive(Debug, Clone)]
pub struct FenFields<'a> {
    pub board: &'a str,
    pub turn: &'a str,
    pub castling: &'a str,
    pub ep: &'a str,
    pub halfmoves: &'a str,
    pub fullmoves: &'a str,
    pub extra: Vec<&'a str>,
}

impl<'a> FenFields<'a> {
    pub fn split(s: &'a str) -> Result<FenFields<'a>, FenError> {
        let mut it = s.split_whitespace();
        let board = it.next().ok_or(FenError::Empty)?;
        let turn = it.next().ok_or(FenError::MissingField("side to move"))?;
        let castling = it.next().ok_or(FenError::MissingField("castling"))?;
        let ep = it.next().ok_or(FenError::MissingField("en passant"))?;
        let halfmoves = it.next().unwrap_or("0");
        let fullmoves = it.next().unwrap_or("1");
        Ok(FenFields { board, turn, castling, ep, halfmoves, fullmoves, extra: it.collect() })
    }
}

/// Counts per colour and role in a `[...]` pocket.
pub type Pocket = ByColor<[u8; Role::COUNT]>;

/// Reads the board field, with an optional `[...]` pocket after it (also
/// accepted as a ninth rank `/...`-less suffix). Only letters of `roles`
/// are allowed on the board. Returns the board and the pocket if present.
pub fn parse_board(s: &str, roles: &[Role]) -> Result<(Board, Option<Pocket>), FenError> {
    let (placement, pocket) = match s.find('[') {
        Some(i) => {
            if !s.ends_with(']') {
                return Err(FenError::BadPocket(s[i + 1..].to_string()));
            }
            (&s[..i], Some(parse_pocket(&s[i + 1..s.len() - 1])?))
        }
        None => (s, None),
    };
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::BadRankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (i, rank_str) in ranks.iter().enumerate() {
        let rank = 7 - i as u32;
        let mut file = 0u32;
        for c in rank_str.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(FenError::BadRankLength { rank: rank as u8 + 1, squares: file + 9 });
                }
                file += d;
            } else if c == '~' {
                // Fairy-Stockfish marks promoted pieces with '~'; no meaning here.
                continue;
            } else {
                let p = Piece::from_char(c).ok_or(FenError::UnknownPiece(c))?;
                if !roles.contains(&p.role) {
                    return Err(FenError::PieceNotInVariant(c));
                }
                if file >= 8 {
                    return Err(FenError::BadRankLength { rank: rank as u8 + 1, squares: file + 1 });
                }
                board.put(Square::from_coords(File::new(file), Rank::new(rank)), p);
                file += 1;
            }
            if file > 8 {
                return Err(FenError::BadRankLength { rank: rank as u8 + 1, squares: file });
            }
        }
        if file != 8 {
            return Err(FenError::BadRankLength { rank: rank as u8 + 1, squares: file });
        }
    }
    Ok((board, pocket))
}

/// Reads pocket letters (`KQRRbbn...`, or `-` for none).
pub fn parse_pocket(s: &str) -> Result<Pocket, FenError> {
    let mut p = Pocket::default();
    if s == "-" {
        return Ok(p);
    }
    for c in s.chars() {
        let piece = Piece::from_char(c).ok_or_else(|| FenError::BadPocket(s.to_string()))?;
        let n = &mut p[piece.color][piece.role.index()];
        if *n >= 16 {
            return Err(FenError::BadPocket(s.to_string()));
        }
        *n += 1;
    }
    Ok(p)
}

/// Writes pocket letters in the order K Q R B N P G C, White first.
pub fn pocket_string(p: &Pocket) -> String {
    const ORDER: [Role; 8] =
        [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn, Role::Genie, Role::Clown];
    let mut s = String::new();
    for c in Color::ALL {
        for r in ORDER {
            for _ in 0..p[c][r.index()] {
                s.push(Piece::new(c, r).char());
            }
        }
    }
    s
}

/// Exactly one king per side.
pub fn check_kings(b: &Board) -> Result<(), FenError> {
    for c in Color::ALL {
        match (b.kings() & b.by_color(c)).count() {
            0 => return Err(FenError::MissingKing(c)),
            1 => {}
            _ => return Err(FenError::TooManyKings(c)),
        }
    }
    Ok(())
}

/// No pawn on rank 1 or 8.
pub fn check_pawn_ranks(b: &Board) -> Result<(), FenError> {
    let back = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
    match (b.pawns() & back).first() {
        Some(sq) => Err(FenError::PawnOnBackRank(sq)),
        None => Ok(()),
    }
}

pub fn parse_turn(s: &str) -> Result<Color, FenError> {
    match s {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        _ => Err(FenError::BadSideToMove(s.to_string())),
    }
}

/// `KQkq`, any subset, or `-`. Each right needs its king and rook at home.
pub fn parse_castling(s: &str, b: &Board) -> Result<CastlingRights, FenError> {
    let mut rights = CastlingRights::NONE;
    if s == "-" {
        return Ok(rights);
    }
    for c in s.chars() {
        let (color, king_side) = match c {
            'K' => (Color::White, true),
            'Q' => (Color::White, false),
            'k' => (Color::Black, true),
            'q' => (Color::Black, false),
            _ => return Err(FenError::BadCastling(s.to_string())),
        };
        let bit = CastlingRights::bit(color, king_side);
        if rights.0 & bit != 0 {
            return Err(FenError::BadCastling(s.to_string()));
        }
        let rank = color.back_rank();
        if b.piece_at(Square::from_coords(File::E, rank)) != Some(Piece::new(color, Role::King)) {
            return Err(FenError::CastlingWithoutKing(c));
        }
        let corner = Square::from_coords(if king_side { File::H } else { File::A }, rank);
        if b.piece_at(corner) != Some(Piece::new(color, Role::Rook)) {
            return Err(FenError::CastlingWithoutRook(c));
        }
        rights.0 |= bit;
    }
    Ok(rights)
}

/// The en-passant field: `-` or a square on the sixth rank (from the side
/// to move's view) behind an enemy pawn that could just have double-stepped.
pub fn parse_ep(s: &str, b: &Board, turn: Color) -> Result<Option<Square>, FenError> {
    if s == "-" {
        return Ok(None);
    }
    let sq = Square::parse(s).ok_or_else(|| FenError::BadEpSquare(s.to_string()))?;
    if sq.rank() != Rank::Sixth.relative(turn) {
        return Err(FenError::ImpossibleEpSquare { square: sq, why: "not on the rank a double step passes" });
    }
    let dir: i32 = if turn == Color::White { -8 } else { 8 };
    let pawn_sq = sq.offset(dir).expect("rank checked");
    let origin = sq.offset(-dir).expect("rank checked");
    if b.piece_at(pawn_sq) != Some(Piece::new(!turn, Role::Pawn)) {
        return Err(FenError::ImpossibleEpSquare { square: sq, why: "no enemy pawn in front of it" });
    }
    if b.piece_at(sq).is_some() || b.piece_at(origin).is_some() {
        return Err(FenError::ImpossibleEpSquare { square: sq, why: "the squares the pawn passed are not empty" });
    }
    Ok(Some(sq))
}

pub fn parse_counter(s: &str, field: &'static str) -> Result<u32, FenError> {
    s.parse::<u32>().ok().filter(|&n| n < 100_000).ok_or_else(|| FenError::BadCounter { field, value: s.to_string() })
}
