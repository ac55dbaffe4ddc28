//! The `Position` trait every variant implements, and what goes with it:
//! castling rights, outcomes, errors for illegal moves.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, MoveKind, MoveList, UciMove};
use crate::types::{Color, Role, Square};
use crate::variant::Variant;
use std::fmt;

/// Castling rights as four bits: White king side, White queen side, Black
/// king side, Black queen side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    /// White's king-side right (`K` in FEN): castling towards h1.
    pub const WHITE_KING: u8 = 1;
    /// White's queen-side right (`Q` in FEN): castling towards a1.
    pub const WHITE_QUEEN: u8 = 2;
    /// Black's king-side right (`k` in FEN): castling towards h8.
    pub const BLACK_KING: u8 = 4;
    /// Black's queen-side right (`q` in FEN): castling towards a8.
    pub const BLACK_QUEEN: u8 = 8;
    /// All four rights (`KQkq`), as at the start.
    pub const ALL: CastlingRights = CastlingRights(15);
    /// No right left (`-`).
    pub const NONE: CastlingRights = CastlingRights(0);

    /// Whether `color` still has the right to castle on the king side
    /// (`king_side`) or the queen side. The right alone does not make castling
    /// legal now (the squares between must be empty and not attacked).
    #[inline]
    pub fn has(self, color: Color, king_side: bool) -> bool {
        self.0 & Self::bit(color, king_side) != 0
    }

    /// The bit of `color`'s right on the king side (`king_side`) or the queen
    /// side: one of the four constants above.
    #[inline]
    pub const fn bit(color: Color, king_side: bool) -> u8 {
        match (color, king_side) {
            (Color::White, true) => Self::WHITE_KING,
            (Color::White, false) => Self::WHITE_QUEEN,
            (Color::Black, true) => Self::BLACK_KING,
            (Color::Black, false) => Self::BLACK_QUEEN,
        }
    }

    /// Whether `color` has either right left.
    #[inline]
    pub fn any_for(self, color: Color) -> bool {
        self.0 & color.fold(3, 12) != 0
    }

    /// Whether no right is left to either side.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights lost when a piece moves from or to `sq`.
    #[inline]
    pub fn mask_for(sq: Square) -> u8 {
        match sq.index() {
            0 => Self::WHITE_QUEEN,
            4 => Self::WHITE_KING | Self::WHITE_QUEEN,
            7 => Self::WHITE_KING,
            56 => Self::BLACK_QUEEN,
            60 => Self::BLACK_KING | Self::BLACK_QUEEN,
            63 => Self::BLACK_KING,
            _ => 0,
        }
    }

    /// FEN field (`KQkq` or `-`).
    pub fn fen(self) -> String {
        let mut s = String::new();
        for (bit, c) in
            [(Self::WHITE_KING, 'K'), (Self::WHITE_QUEEN, 'Q'), (Self::BLACK_KING, 'k'), (Self::BLACK_QUEEN, 'q')]
        {
            if self.0 & bit != 0 {
                s.push(c);
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

/// How a finished game ended: who won, or a draw, and why. `Display` writes
/// the PGN result and the reason, as `0-1 (black wins by checkmate)` or
/// `1/2-1/2 (draw by stalemate)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Decisive {
        /// The side that won.
        winner: Color,
        /// How: checkmate by the rules, or what a game record says.
        reason: EndReason,
    },
    /// Neither side won.
    Draw {
        /// Why the game is drawn.
        reason: EndReason,
    },
}

/// Why a game ended. The rules find the first five
/// ([`Position::outcome`], and [`Game::outcome`](crate::Game::outcome) for
/// repetition); the last three come only from a game record or a server.
///
/// Non-exhaustive: new ways for a game to end may be added, so a `match`
/// outside this crate needs a wildcard arm.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// The side to move is in check and has no legal move: it loses.
    Checkmate,
    /// The side to move is not in check and has no legal move: a draw.
    Stalemate,
    /// The same position (same [`Position::hash`]) stood on the board for the
    /// third time: a draw, applied at once by
    /// [`Game::outcome`](crate::Game::outcome).
    ThreefoldRepetition,
    /// 100 plies in a row without a move that resets the halfmove clock
    /// ([`Position::is_zeroing`]): a draw, applied at once.
    FiftyMoves,
    /// Neither side can ever checkmate, whatever is played
    /// ([`Position::is_dead_material`]): a draw.
    DeadMaterial,
    /// A player resigned. Set by a game record, never by the rules.
    Resignation,
    /// A player ran out of time. Set by a game record, never by the rules.
    Timeout,
    /// The players agreed a draw. Set by a game record, never by the rules.
    Agreement,
}

impl EndReason {
    /// The reason in lower-case words (`"checkmate"`, `"fifty-move rule"`,
    /// `"time forfeit"`, ...), as `Display` of [`Outcome`] writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::ThreefoldRepetition => "threefold repetition",
            EndReason::FiftyMoves => "fifty-move rule",
            EndReason::DeadMaterial => "dead material",
            EndReason::Resignation => "resignation",
            EndReason::Timeout => "time forfeit",
            EndReason::Agreement => "agreement",
        }
    }
}

impl Outcome {
    /// PGN result string.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Decisive { winner: Color::White, .. } => "1-0",
            Outcome::Decisive { winner: Color::Black, .. } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }

    /// Why the game ended.
    pub fn reason(self) -> EndReason {
        match self {
            Outcome::Decisive { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }

    /// The side that won; `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Decisive { winner, reason } => {
                write!(f, "{} ({} wins by {})", self.result(), winner, reason.as_str())
            }
            Outcome::Draw { reason } => write!(f, "1/2-1/2 (draw by {})", reason.as_str()),
        }
    }
}

/// A move string or SAN that does not name a legal move, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move text as given.
    pub input: String,
    /// Why it names no legal move, in words.
    pub reason: String,
}

impl IllegalMove {
    /// An error for `input` with `reason`.
    pub fn new(input: impl Into<String>, reason: impl Into<String>) -> Self {
        IllegalMove { input: input.into(), reason: reason.into() }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move '{}': {}", self.input, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// A position of one variant: everything that decides the legal moves and
/// the game's end. Implemented by one struct per variant ([`Chess`](crate::Chess),
/// [`Genie`](crate::Genie), [`Genesis`](crate::Genesis), [`Clown`](crate::Clown),
/// [`MagicRing`](crate::MagicRing)) and by [`AnyPosition`](crate::AnyPosition),
/// which dispatches over them; search and perft are generic over it, so each
/// variant is compiled on its own. The rules of each variant are in
/// `docs/rules/<variant>.md`.
///
/// An implementor must keep these promises, which the rest of the crate (and
/// an engine) relies on:
///
/// - [`Position::legal_moves`] appends every legal move exactly once (two
///   ways of making the same change to the position are one move), and no
///   other move; [`Position::count_legal_moves`] returns the same number.
/// - [`Position::play_unchecked`] with a legal move gives the position the
///   rules give after it, counters and variant state included.
/// - [`Position::hash`] is equal for two positions that are the same for
///   repetition, and differs otherwise except by the rare hash collision.
/// - [`Position::fen`] writes a FEN that the variant's own reader reads back
///   to an equal position.
///
/// ```
/// use chimera_rules::{Chess, Color, EndReason, Outcome, Position};
///
/// let mut pos = Chess::new();
/// assert_eq!(pos.legal_move_list().len(), 20);
/// assert_eq!(pos.outcome(), None);
///
/// // Fool's mate. `parse_uci` returns only legal moves, so playing them
/// // unchecked is sound.
/// for s in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     let m = pos.parse_uci(s)?;
///     pos.play_unchecked(m);
/// }
/// assert!(pos.is_check() && pos.is_checkmate());
/// assert_eq!(pos.outcome(), Some(Outcome::Decisive { winner: Color::Black, reason: EndReason::Checkmate }));
/// assert_eq!(pos.fen(), "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
///
/// // A move that is not legal is refused with the reason.
/// let err = Chess::new().parse_uci("e2e5").unwrap_err();
/// assert_eq!(err.to_string(), "illegal move 'e2e5': the pawn on e2 cannot go to e5");
/// # Ok::<(), chimera_rules::IllegalMove>(())
/// ```
pub trait Position: Clone + fmt::Debug + Send + Sync + 'static {
    /// The variant this position belongs to.
    fn variant(&self) -> Variant;
    /// The piece placement. A variant's pieces off the board (a Genesis reserve,
    /// a Clown Chess hand) and its rings are not on it: the variant's own type
    /// has accessors for them.
    fn board(&self) -> &Board;
    /// The side to move.
    fn turn(&self) -> Color;
    /// The castling rights left; a right lost by a king or rook move never comes
    /// back. A right does not mean castling is legal now.
    fn castling(&self) -> CastlingRights;
    /// The en-passant square, only when an en-passant capture is legal.
    fn ep_square(&self) -> Option<Square>;
    /// The halfmove clock: plies since the last move that resets it
    /// ([`Position::is_zeroing`]). At 100 the game is drawn by the fifty-move
    /// rule ([`Position::outcome`]).
    fn halfmoves(&self) -> u32;
    /// The move number of the FEN: 1 at the start, one more after each move of
    /// Black.
    fn fullmoves(&self) -> u32;
    /// Zobrist hash of everything that decides the legal moves (board, side,
    /// castling, en passant, variant state): equal hashes = same position for
    /// repetition.
    fn hash(&self) -> u64;
    /// The enemy pieces giving check to the side to move.
    fn checkers(&self) -> Bitboard;
    /// Whether the side to move is in check (some [`Position::checkers`]).
    #[inline]
    fn is_check(&self) -> bool {
        self.checkers().any()
    }
    /// Appends every legal move of the side to move to `moves` (after what
    /// it already holds), each exactly once. None when the game is over by
    /// checkmate or stalemate; the other endings ([`Position::outcome`]) do
    /// not empty the list.
    fn legal_moves(&self, moves: &mut MoveList);
    /// Appends the legal captures and promotions (the "noisy" moves that
    /// quiescence search plays): exactly the moves of `legal_moves` for
    /// which `is_capture(m) || m.promotion().is_some()` holds, in no
    /// particular order. Variants generate them without the quiet moves and
    /// placements; this default filters the full list.
    fn noisy_moves(&self, moves: &mut MoveList) {
        let mut all = MoveList::new();
        self.legal_moves(&mut all);
        for &m in all.iter() {
            if self.is_capture(m) || m.promotion().is_some() {
                moves.push(m);
            }
        }
    }
    /// Appends the legal moves that are neither captures nor promotions:
    /// exactly the moves of `legal_moves` that `noisy_moves` leaves out,
    /// in no particular order (the quiet stages of the engine's move
    /// picker). Variants with many placements generate them directly; this
    /// default filters the full list.
    fn quiet_moves(&self, moves: &mut MoveList) {
        let mut all = MoveList::new();
        self.legal_moves(&mut all);
        for &m in all.iter() {
            if !self.is_capture(m) && m.promotion().is_none() {
                moves.push(m);
            }
        }
    }
    /// Appends the legal quiet moves (of `quiet_moves`) that give check,
    /// for the first ply of the engine's quiescence search, and says
    /// whether the variant lists them: the default lists none and answers
    /// `false`, and quiescence then plays captures only.
    fn quiet_checks(&self, _moves: &mut MoveList) -> bool {
        false
    }
    /// The pieces of either colour standing in `occ` that attack `sq` when
    /// the occupancy is `occ` (a piece outside `occ` counts as gone, so a
    /// slider behind it sees through): the attack sets of static exchange
    /// evaluation, with each variant's own pieces and powers (Genie leaps,
    /// Clowns by their file, Genesis pawns, ring powers). Pins and checks
    /// are ignored.
    fn attackers_with(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let b = self.board();
        (b.attackers_to(sq, Color::White, occ) | b.attackers_to(sq, Color::Black, occ)) & occ
    }
    /// Number of legal moves; variants may count without generating.
    fn count_legal_moves(&self) -> u64 {
        let mut l = MoveList::new();
        self.legal_moves(&mut l);
        l.len() as u64
    }
    /// Plays `m`, which must be legal here (one of
    /// [`Position::legal_moves`]). Nothing is checked: a move that is not
    /// legal leaves a position the rules cannot reach, or panics. For a move
    /// from outside, use [`Position::parse_uci`] or [`Position::is_legal`]
    /// first, or [`Game::play`](crate::Game::play).
    fn play_unchecked(&mut self, m: Move);
    /// `true` when neither side can ever checkmate, whatever is played.
    fn is_dead_material(&self) -> bool;
    /// The FEN, with the variant's extensions (see `docs/fen.md`).
    fn fen(&self) -> String;

    /// The role that makes the move (the piece dropped for a placement).
    fn moving_role(&self, m: Move) -> Option<Role> {
        match m.kind {
            MoveKind::Drop(r) | MoveKind::ReEntry(r) => Some(if r == Role::Clown { Role::Knight } else { r }),
            _ => self.board().role_at(m.from),
        }
    }

    /// Whether the move captures something.
    fn is_capture(&self, m: Move) -> bool {
        match m.kind {
            MoveKind::EnPassant => true,
            MoveKind::Normal | MoveKind::Promotion(_) | MoveKind::Declare => {
                self.board().color_at(m.to) == Some(!self.turn())
            }
            _ => false,
        }
    }

    /// Whether the move resets the fifty-move counter (and so cuts
    /// repetition history): captures, pawn moves, placements, flips.
    fn is_zeroing(&self, m: Move) -> bool {
        self.is_capture(m)
            || matches!(
                m.kind,
                MoveKind::Drop(_)
                    | MoveKind::ReEntry(_)
                    | MoveKind::Flip
                    | MoveKind::DoublePush
                    | MoveKind::Promotion(_)
            )
            || self.board().role_at(m.from) == Some(Role::Pawn)
    }

    /// How many plies back a repeat of this position can lie: moves before
    /// an irreversible one cannot recur. Orthodox: the halfmove clock. A
    /// variant whose clock is reset by reversible moves (Genesis pawns move
    /// back and forth) looks further.
    fn repetition_horizon(&self) -> u32 {
        self.halfmoves()
    }

    /// A null move for search pruning (not a move of any variant): the
    /// same position with the other side to move, en passant and every
    /// record of "the last move" cleared, the halfmove clock reset (so no
    /// repetition is seen across it), the move number unchanged. `None`
    /// when the side to move is in check (passing would leave the King
    /// attacked) or the variant has no meaningful pass.
    fn pass(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    // ----- provided -----

    /// Every legal move, in a new list (see [`Position::legal_moves`]).
    fn legal_move_list(&self) -> MoveList {
        let mut l = MoveList::new();
        self.legal_moves(&mut l);
        l
    }

    /// Whether `m` is one of the legal moves here. Any `Move` value may be
    /// asked, also one made up or of another variant: the answer is then `false`.
    fn is_legal(&self, m: Move) -> bool {
        self.legal_move_list().contains(&m)
    }

    /// Whether [`Position::is_legal`] costs much less than generating the
    /// legal moves, so that a search may test a remembered move (a killer)
    /// before it generates. True for chess, whose test generates the moves
    /// of the one piece on the move's square, and for Genesis, whose test
    /// generates the board moves alone and looks a placement up in one
    /// bitboard.
    const CHEAP_IS_LEGAL: bool = false;

    /// Plays `m` on a copy.
    fn after(&self, m: Move) -> Self {
        let mut p = self.clone();
        p.play_unchecked(m);
        p
    }

    /// Checkmate, stalemate, dead material or fifty moves, in that order (repetition needs
    /// the game's history: see [`crate::game::Game`]).
    fn outcome(&self) -> Option<Outcome> {
        if self.count_legal_moves() == 0 {
            return Some(if self.is_check() {
                Outcome::Decisive { winner: !self.turn(), reason: EndReason::Checkmate }
            } else {
                Outcome::Draw { reason: EndReason::Stalemate }
            });
        }
        if self.is_dead_material() {
            return Some(Outcome::Draw { reason: EndReason::DeadMaterial });
        }
        if self.halfmoves() >= 100 {
            return Some(Outcome::Draw { reason: EndReason::FiftyMoves });
        }
        None
    }

    /// Whether the side to move is checkmated: in check, with no legal move.
    fn is_checkmate(&self) -> bool {
        self.is_check() && self.count_legal_moves() == 0
    }

    /// Finds the legal move a UCI move string names (see [`Move`] for the
    /// notation; surrounding white space is ignored, and castling written as
    /// the king taking its own rook, `e1h1`, is accepted too). A malformed
    /// string or one that names no legal move is an [`IllegalMove`] whose
    /// reason says what is wrong.
    fn parse_uci(&self, s: &str) -> Result<Move, IllegalMove> {
        let parsed = UciMove::parse(s.trim()).map_err(|e| IllegalMove::new(s, e.to_string()))?;
        let legal = self.legal_move_list();
        if let Some(&m) = legal.iter().find(|m| m.to_string() == s.trim()) {
            return Ok(m);
        }
        // Tolerate the castling-as-king-takes-rook spelling (e1h1) some GUIs send.
        if let UciMove::Squares { from, to, suffix: None } = parsed {
            if let Some(&m) = legal.iter().find(|m| {
                m.kind == MoveKind::Castle
                    && m.from == from
                    && self.board().piece_at(to) == Some(crate::Piece::new(self.turn(), Role::Rook))
                    && (to.file() > from.file()) == (m.to.file() > m.from.file())
            }) {
                return Ok(m);
            }
        }
        Err(IllegalMove::new(s, self.explain_illegal(parsed)))
    }

    /// A human reason why a well-formed move string is not legal here.
    fn explain_illegal(&self, parsed: UciMove) -> String {
        let legal = self.legal_move_list();
        match parsed {
            UciMove::Put { role, to } => {
                if legal.iter().any(|m| m.is_drop()) {
                    if self.board().piece_at(to).is_some() {
                        format!("{to} is occupied")
                    } else {
                        format!("placing a {} on {to} is not allowed here", role.name())
                    }
                } else {
                    "no placement or re-entry is possible in this position".into()
                }
            }
            UciMove::Squares { from, to, .. } => match self.board().piece_at(from) {
                None => format!("there is no piece on {from}"),
                Some(p) if p.color != self.turn() => format!("the piece on {from} is not {}'s", self.turn()),
                Some(p) => {
                    let from_here: Vec<&Move> = legal.iter().filter(|m| m.from == from && m.to == to).collect();
                    if !from_here.is_empty() {
                        format!(
                            "this move needs another suffix: {}",
                            from_here.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", ")
                        )
                    } else if self.is_check() {
                        format!("{} is in check and this {} move does not answer it", self.turn(), p.role.name())
                    } else {
                        format!("the {} on {from} cannot go to {to}", p.role.name())
                    }
                }
            },
        }
    }
}
