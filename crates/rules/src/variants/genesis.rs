//! Genesis Chess (`docs/rules/genesis.md`).
//!
//! The board starts empty; each side holds K Q 2R 2B 2N 8P in reserve.
//! The first move of each side places its King; after that a move is a
//! placement of a reserve piece on any empty square (never giving check,
//! allowed to block one) or a move of a piece on the board. Pawns are
//! omni-directional (Betza `mWcF`): one square orthogonally to an empty
//! square, captures one square diagonally. No castling, en passant, double
//! step or promotion. Captured pieces leave the game.
//!
//! Placements are most of the moves, so the generator treats them as sets of
//! squares per role; `count_legal_moves` adds their popcounts (bulk count).
//!
//! Positions without a King on the board (before the King placements) are
//! ordinary positions here: their side has no checkers and may only place
//! its King.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::chess::{gen_piece_moves, LegalitySink, MoveCounter, MoveSink, NoisySink, QuietSink, SplitSink};
use crate::fen::{self, FenError, Pocket};
use crate::moves::{Move, MoveKind, MoveList, UciMove};
use crate::position::{CastlingRights, Position};
use crate::types::{Color, Piece, Role, Square};
use crate::variant::Variant;
use crate::zobrist;

/// Roles that exist in Genesis Chess.
const ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
/// Roles that may be placed once the King stands on the board.
const DROP_ROLES: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
/// The order in which Fairy-Stockfish writes a Genesis reserve: piece types
/// from the highest enum value down; the `mWcF` pawn is a custom piece, so it
/// comes right after the King: `[KPPPPPPPPQRRBBNN...]`.
const FEN_ORDER: [Role; 6] = [Role::King, Role::Pawn, Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
/// The standard set each side starts with in reserve.
const START_RESERVE: [u8; Role::COUNT] = {
    let mut r = [0u8; Role::COUNT];
    r[Role::Pawn as usize] = 8;
    r[Role::Knight as usize] = 2;
    r[Role::Bishop as usize] = 2;
    r[Role::Rook as usize] = 2;
    r[Role::Queen as usize] = 1;
    r[Role::King as usize] = 1;
    r
};

/// A Genesis Chess position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genesis {
    board: Board,
    turn: Color,
    /// Pieces not yet placed, per colour and role.
    reserve: Pocket,
    halfmoves: u32,
    fullmoves: u32,
    /// Enemy pieces attacking the side to move's King (empty while that
    /// King is still in reserve).
    checkers: Bitboard,
    /// Zobrist keys of the reserves (`zobrist::pocket`), kept incrementally.
    reserve_hash: u64,
}

impl Default for Genesis {
    fn default() -> Self {
        Genesis::new()
    }
}

/// Every piece of `by` attacking `sq` with occupancy `occ`, Genesis pawns
/// included (a pawn attacks its four diagonal neighbours, whatever its colour).
#[inline]
fn attackers_to(b: &Board, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
    ((attacks::knight_attacks(sq) & b.knights())
        | (attacks::king_attacks(sq) & b.kings())
        | (attacks::ferz_attacks(sq) & b.pawns())
        | (attacks::rook_attacks(sq, occ) & b.rooks_queens())
        | (attacks::bishop_attacks(sq, occ) & b.bishops_queens()))
        & b.by_color(by)
}

/// The squares from which a piece of `role` would attack `king` (every
/// Genesis piece attacks symmetrically, so this is the piece's own attack
/// set from the King's square).
#[inline]
fn checking_squares(role: Role, king: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => attacks::ferz_attacks(king),
        Role::Knight => attacks::knight_attacks(king),
        Role::Bishop => attacks::bishop_attacks(king, occ),
        Role::Rook => attacks::rook_attacks(king, occ),
        Role::Queen => attacks::bishop_attacks(king, occ) | attacks::rook_attacks(king, occ),
        Role::King => attacks::king_attacks(king),
        Role::Genie | Role::Clown => Bitboard::EMPTY,
    }
}

fn pocket_hash(p: &Pocket) -> u64 {
    let mut h = 0;
    for c in Color::ALL {
        for r in ROLES {
            h ^= zobrist::pocket(c, r, p[c][r.index()]);
        }
    }
    h
}

/// A move sink that also takes placements as square sets and pawn steps as
/// shifted sets (so counting costs a popcount).
trait GenesisSink: MoveSink {
    fn drops(&mut self, role: Role, to: Bitboard);
    /// Moves from `to - delta` to each square of `to`.
    fn steps(&mut self, to: Bitboard, delta: i32);
}

impl GenesisSink for MoveList {
    #[inline]
    fn drops(&mut self, role: Role, to: Bitboard) {
        for sq in to {
            MoveList::push(self, Move::new(sq, sq, MoveKind::Drop(role)));
        }
    }
    #[inline]
    fn steps(&mut self, to: Bitboard, delta: i32) {
        for sq in to {
            MoveList::push(self, Move::normal(Square::new((sq.index() as i32 - delta) as u32), sq));
        }
    }
}

/// Captures only (Genesis has no promotion), or everything else:
/// placements and quiet pawn steps.
impl<const NOISY: bool> GenesisSink for SplitSink<'_, NOISY> {
    #[inline]
    fn drops(&mut self, role: Role, to: Bitboard) {
        if !NOISY {
            GenesisSink::drops(&mut *self.out, role, to);
        }
    }
    #[inline]
    fn steps(&mut self, to: Bitboard, delta: i32) {
        let to = self.kept(to);
        GenesisSink::steps(&mut *self.out, to, delta);
    }
}

/// Genesis's legality test ([`Position::is_legal`]) looks a placement up
/// in its bitboard, never listing the placements.
impl GenesisSink for LegalitySink {
    #[inline]
    fn drops(&mut self, role: Role, to: Bitboard) {
        self.found |= self.m.kind == MoveKind::Drop(role) && self.m.from == self.m.to && to.contains(self.m.to);
    }
    #[inline]
    fn steps(&mut self, to: Bitboard, delta: i32) {
        self.found |= self.m.kind == MoveKind::Normal
            && to.contains(self.m.to)
            && self.m.from.index() as i32 == self.m.to.index() as i32 - delta;
    }
}

impl GenesisSink for MoveCounter {
    #[inline]
    fn drops(&mut self, _role: Role, to: Bitboard) {
        self.0 += to.count() as u64;
    }
    #[inline]
    fn steps(&mut self, to: Bitboard, _delta: i32) {
        self.0 += to.count() as u64;
    }
}

/// The quiet board moves that give check ([`Position::quiet_checks`]):
/// those whose piece attacks the enemy King from its new square, or that
/// uncover a slider's line to it. Placements never give check in Genesis.
struct CheckSink<'a> {
    out: &'a mut MoveList,
    board: &'a Board,
    theirs: Bitboard,
    occ: Bitboard,
    king: Square,
    /// Our pieces standing alone between one of our sliders and the King.
    discoverers: Bitboard,
}

impl CheckSink<'_> {
    /// The squares among `to` where the piece on `from` gives check.
    #[inline]
    fn checking(&self, from: Square, to: Bitboard) -> Bitboard {
        let Some(role) = self.board.role_at(from) else { return Bitboard::EMPTY };
        let mut checks = checking_squares(role, self.king, self.occ.without(from));
        if self.discoverers.contains(from) {
            checks |= !attacks::line(self.king, from);
        }
        to & checks
    }
}

impl MoveSink for CheckSink<'_> {
    #[inline]
    fn targets(&mut self, from: Square, to: Bitboard) {
        for t in self.checking(from, to - self.theirs) {
            self.out.push(Move::normal(from, t));
        }
    }
    #[inline]
    fn push(&mut self, m: Move) {
        // Genesis's generator lists its board moves by `targets` and
        // `steps`; a plain move that came this way is filtered the same.
        if m.kind == MoveKind::Normal {
            self.targets(m.from, Bitboard::from_square(m.to));
        }
    }
    #[inline]
    fn promotions(&mut self, _from: Square, _to: Square, _roles: &[Role]) {}
}

impl GenesisSink for CheckSink<'_> {
    #[inline]
    fn drops(&mut self, _role: Role, _to: Bitboard) {}
    #[inline]
    fn steps(&mut self, to: Bitboard, delta: i32) {
        for t in to - self.theirs {
            let from = Square::new((t.index() as i32 - delta) as u32);
            if self.checking(from, Bitboard::from_square(t)).any() {
                self.out.push(Move::normal(from, t));
            }
        }
    }
}

impl Genesis {
    /// The start: empty board, full reserves, White to move.
    pub fn new() -> Genesis {
        let mut reserve = Pocket::default();
        reserve[Color::White] = START_RESERVE;
        reserve[Color::Black] = START_RESERVE;
        let reserve_hash = pocket_hash(&reserve);
        Genesis {
            board: Board::empty(),
            turn: Color::White,
            reserve,
            halfmoves: 0,
            fullmoves: 1,
            checkers: Bitboard::EMPTY,
            reserve_hash,
        }
    }

    /// Reads a FEN in Fairy-Stockfish's pocket syntax
    /// (`8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1`).
    /// A FEN without `[...]` has empty reserves. See `docs/fen.md`.
    pub fn from_fen(s: &str) -> Result<Genesis, FenError> {
        let f = fen::FenFields::split(s)?;
        if let Some(extra) = f.extra.first() {
            return Err(FenError::UnexpectedField((*extra).to_string()));
        }
        let (board, pocket) = fen::parse_board(f.board, &ROLES)?;
        let reserve = pocket.unwrap_or_default();
        for c in Color::ALL {
            for r in [Role::Genie, Role::Clown] {
                if reserve[c][r.index()] > 0 {
                    return Err(FenError::PieceNotInVariant(Piece::new(c, r).char()));
                }
            }
            let kings = (board.kings() & board.by_color(c)).count() + reserve[c][Role::King.index()] as u32;
            match kings {
                0 => return Err(FenError::MissingKing(c)),
                1 => {}
                _ => return Err(FenError::TooManyKings(c)),
            }
        }
        let turn = fen::parse_turn(f.turn)?;
        if f.castling != "-" {
            return Err(FenError::Variant(format!(
                "Genesis Chess has no castling: the castling field must be '-', got '{}'",
                f.castling
            )));
        }
        if f.ep != "-" {
            return Err(FenError::Variant(format!(
                "Genesis Chess has no en passant: the en-passant field must be '-', got '{}'",
                f.ep
            )));
        }
        let halfmoves = fen::parse_counter(f.halfmoves, "halfmove clock")?;
        let fullmoves = fen::parse_counter(f.fullmoves, "fullmove number")?.max(1);
        let occ = board.occupied();
        if let Some(k) = board.king_of(!turn) {
            if attackers_to(&board, k, turn, occ).any() {
                return Err(FenError::OppositeCheck);
            }
        }
        let checkers = match board.king_of(turn) {
            Some(k) => attackers_to(&board, k, !turn, occ),
            None => Bitboard::EMPTY,
        };
        let reserve_hash = pocket_hash(&reserve);
        Ok(Genesis { board, turn, reserve, halfmoves, fullmoves, checkers, reserve_hash })
    }

    /// How many pieces of `role` `color` still holds in reserve.
    pub fn reserve_count(&self, color: Color, role: Role) -> u8 {
        self.reserve[color][role.index()]
    }

    /// The reserves (per colour, counts indexed by `Role::index`).
    pub fn reserves(&self) -> &Pocket {
        &self.reserve
    }

    /// Whether the side to move must still place its King.
    pub fn must_place_king(&self) -> bool {
        self.reserve[self.turn][Role::King.index()] > 0
    }

    fn reserves_empty(&self) -> bool {
        Color::ALL.iter().all(|&c| self.reserve[c].iter().all(|&n| n == 0))
    }

    /// The squares where the side to move may place `role` (empty set if
    /// it has none in reserve or the rules forbid it).
    pub fn placement_squares(&self, role: Role) -> Bitboard {
        let us = self.turn;
        if !ROLES.contains(&role) || self.reserve[us][role.index()] == 0 {
            return Bitboard::EMPTY;
        }
        let must_king = self.must_place_king();
        if must_king != (role == Role::King) {
            return Bitboard::EMPTY;
        }
        let occ = self.board.occupied();
        let mut to = !occ;
        if let Some(eksq) = self.board.king_of(!us) {
            to &= !checking_squares(role, eksq, occ);
        }
        if role == Role::King {
            let them = !us;
            for sq in to {
                if attackers_to(&self.board, sq, them, occ).any() {
                    to.clear(sq);
                }
            }
            return to;
        }
        let Some(ksq) = self.board.king_of(us) else { return to };
        if self.checkers.more_than_one() {
            return Bitboard::EMPTY;
        }
        if let Some(c) = self.checkers.first() {
            to &= attacks::between(ksq, c);
        }
        to
    }

    fn gen<S: GenesisSink>(&self, sink: &mut S) {
        let us = self.turn;
        if self.must_place_king() {
            sink.drops(Role::King, self.placement_squares(Role::King));
            return;
        }
        let b = &self.board;
        let them = !us;
        let Some(ksq) = b.king_of(us) else { return };
        let ours = b.by_color(us);
        let theirs = b.by_color(them);
        let occ = b.occupied();
        let empty = !occ;
        let checkers = self.checkers;

        // King moves: the destination must not be attacked once the King has left.
        let occ_no_king = occ.without(ksq);
        let mut king_to = attacks::king_attacks(ksq) - ours;
        for to in king_to {
            if attackers_to(b, to, them, occ_no_king).any() {
                king_to.clear(to);
            }
        }
        sink.targets(ksq, king_to);
        if checkers.more_than_one() {
            return;
        }
        let (target, drop_target) = match checkers.first() {
            Some(c) => {
                let between = attacks::between(ksq, c);
                (between.with(c), between)
            }
            None => (Bitboard::FULL, empty),
        };
        let pinned = b.slider_blockers(ksq, them, occ) & ours;

        gen_piece_moves(b, us, ksq, pinned, target & !ours, Bitboard::FULL, sink);

        // Pawns: mW to empty squares, cF onto enemy pieces, any direction.
        let pawns = b.pawns() & ours;
        let free = pawns - pinned;
        let quiet = empty & target;
        let caps = theirs & target;
        sink.steps(free.north() & quiet, 8);
        sink.steps(free.south() & quiet, -8);
        sink.steps(free.east() & quiet, 1);
        sink.steps(free.west() & quiet, -1);
        sink.steps(free.north().east() & caps, 9);
        sink.steps(free.north().west() & caps, 7);
        sink.steps(free.south().east() & caps, -7);
        sink.steps(free.south().west() & caps, -9);
        for from in pawns & pinned {
            let tos = ((attacks::wazir_attacks(from) & quiet) | (attacks::ferz_attacks(from) & caps))
                & attacks::line(ksq, from);
            sink.targets(from, tos);
        }

        // Placements: never giving check; when in check, only between King and checker.
        let eksq = b.king_of(them);
        for role in DROP_ROLES {
            if self.reserve[us][role.index()] == 0 {
                continue;
            }
            let mut to = drop_target;
            if let Some(e) = eksq {
                to &= !checking_squares(role, e, occ);
            }
            sink.drops(role, to);
        }
    }

    fn update_checkers(&mut self) {
        self.checkers = match self.board.king_of(self.turn) {
            Some(k) => attackers_to(&self.board, k, !self.turn, self.board.occupied()),
            None => Bitboard::EMPTY,
        };
    }

    /// Why placing `role` on `to` is not legal here (`None` if it is).
    fn placement_refusal(&self, role: Role, to: Square) -> Option<String> {
        let us = self.turn;
        let name = role.name();
        if self.placement_squares(role).contains(to) {
            return None;
        }
        if !ROLES.contains(&role) {
            return Some(format!("there is no {name} in Genesis Chess"));
        }
        if self.reserve[us][role.index()] == 0 {
            return Some(format!("{us} has no {name} left in reserve"));
        }
        if self.must_place_king() && role != Role::King {
            return Some(format!("{us} must place the King first"));
        }
        if let Some(p) = self.board.piece_at(to) {
            return Some(format!("{to} is occupied (by a {})", p.role.name()));
        }
        let occ = self.board.occupied();
        if let Some(e) = self.board.king_of(!us) {
            if checking_squares(role, e, occ).contains(to) {
                return Some(if role == Role::King {
                    format!("placing the King on {to} would put it next to the other King, giving check: a placement may not give check")
                } else {
                    format!(
                        "placing a {name} on {to} would give check to the King on {e}: a placement may not give check"
                    )
                });
            }
        }
        if role == Role::King {
            return Some(format!("the King would stand in check on {to}"));
        }
        if self.checkers.more_than_one() {
            return Some(format!("{us} is in double check: only a King move answers it"));
        }
        if self.checkers.any() {
            return Some(format!("{us} is in check and a {name} on {to} does not block it"));
        }
        None
    }
}

impl Position for Genesis {
    fn variant(&self) -> Variant {
        Variant::Genesis
    }
    #[inline]
    fn board(&self) -> &Board {
        &self.board
    }
    #[inline]
    fn turn(&self) -> Color {
        self.turn
    }
    fn castling(&self) -> CastlingRights {
        CastlingRights::NONE
    }
    fn ep_square(&self) -> Option<Square> {
        None
    }
    /// A pawn move resets the fifty-move counter but can be undone (pawns
    /// move back and forth), so a repeat may lie before it: look back over
    /// the whole game (reserves are in the hash, so positions before a
    /// placement never match anyway).
    fn repetition_horizon(&self) -> u32 {
        u32::MAX
    }
    fn halfmoves(&self) -> u32 {
        self.halfmoves
    }
    fn fullmoves(&self) -> u32 {
        self.fullmoves
    }
    #[inline]
    fn pass(&self) -> Option<Genesis> {
        if self.checkers.any() {
            return None;
        }
        Some(Genesis { turn: !self.turn, halfmoves: 0, checkers: Bitboard::EMPTY, ..self.clone() })
    }
    fn hash(&self) -> u64 {
        self.board.hash() ^ zobrist::side(self.turn) ^ self.reserve_hash
    }
    #[inline]
    fn checkers(&self) -> Bitboard {
        self.checkers
    }
    fn legal_moves(&self, moves: &mut MoveList) {
        self.gen(moves);
    }
    fn noisy_moves(&self, moves: &mut MoveList) {
        let theirs = self.board.by_color(!self.turn);
        self.gen(&mut NoisySink { out: moves, theirs });
    }
    fn quiet_moves(&self, moves: &mut MoveList) {
        let theirs = self.board.by_color(!self.turn);
        self.gen(&mut QuietSink { out: moves, theirs });
    }
    fn quiet_checks(&self, moves: &mut MoveList) -> bool {
        let b = &self.board;
        let us = self.turn;
        if let Some(king) = b.king_of(!us) {
            let occ = b.occupied();
            let discoverers = b.slider_blockers(king, us, occ) & b.by_color(us);
            let theirs = b.by_color(!us);
            self.gen(&mut CheckSink { out: moves, board: b, theirs, occ, king, discoverers });
        }
        true
    }
    /// The generator's board moves, and for a placement one bitboard:
    /// a fraction of listing the hundreds of placements.
    fn is_legal(&self, m: Move) -> bool {
        let mut sink = LegalitySink { m, found: false };
        self.gen(&mut sink);
        sink.found
    }
    const CHEAP_IS_LEGAL: bool = true;
    fn attackers_with(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let b = &self.board;
        (attackers_to(b, sq, Color::White, occ) | attackers_to(b, sq, Color::Black, occ)) & occ
    }
    #[inline]
    fn count_legal_moves(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.gen(&mut c);
        c.0
    }

    fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        match m.kind {
            MoveKind::Drop(role) => {
                let n = &mut self.reserve[us][role.index()];
                debug_assert!(*n > 0, "placing a {role:?} not in reserve");
                self.reserve_hash ^= zobrist::pocket(us, role, *n) ^ zobrist::pocket(us, role, n.saturating_sub(1));
                *n = n.saturating_sub(1);
                self.board.put(m.to, Piece::new(us, role));
                self.halfmoves = 0;
            }
            _ => {
                let p = self.board.take(m.from).expect("piece on the from-square");
                let captured = self.board.take(m.to);
                self.board.put(m.to, p);
                if p.role == Role::Pawn || captured.is_some() {
                    self.halfmoves = 0;
                } else {
                    self.halfmoves += 1;
                }
            }
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !us;
        self.update_checkers();
    }

    /// Both reserves empty and: bare Kings; one Bishop, Knight or Pawn
    /// beside them; or only Bishops, all on one square colour.
    fn is_dead_material(&self) -> bool {
        if !self.reserves_empty() {
            return false;
        }
        let b = &self.board;
        let others = b.occupied() - b.kings();
        if !others.more_than_one() {
            // Nothing, or one Bishop, Knight or Pawn: a Rook or Queen mates.
            return (others & b.rooks_queens()).is_empty();
        }
        let bishops = b.bishops();
        others == bishops
            && ((bishops & Bitboard::DARK_SQUARES).is_empty() || (bishops & Bitboard::LIGHT_SQUARES).is_empty())
    }

    fn fen(&self) -> String {
        let mut pocket = String::new();
        for c in Color::ALL {
            for r in FEN_ORDER {
                for _ in 0..self.reserve[c][r.index()] {
                    pocket.push(Piece::new(c, r).char());
                }
            }
        }
        format!("{}[{}] {} - - {} {}", self.board.board_fen(), pocket, self.turn.char(), self.halfmoves, self.fullmoves)
    }

    fn is_capture(&self, m: Move) -> bool {
        m.kind == MoveKind::Normal && self.board.color_at(m.to) == Some(!self.turn)
    }

    fn explain_illegal(&self, parsed: UciMove) -> String {
        match parsed {
            UciMove::Put { role, to } => self
                .placement_refusal(role, to)
                .unwrap_or_else(|| format!("placing a {} on {to} is not allowed here", role.name())),
            UciMove::Squares { from, .. } if self.must_place_king() && self.board.piece_at(from).is_some() => {
                format!("{} must place the King first", self.turn)
            }
            UciMove::Squares { from, to, suffix: Some(_) } if self.board.color_at(from) == Some(self.turn) => {
                format!("Genesis Chess has no promotion or other suffixed move ({from}{to} takes no letter)")
            }
            other => {
                // The generic explanation, on this position's legal moves.
                let legal = self.legal_move_list();
                match other {
                    UciMove::Squares { from, to, .. } => match self.board.piece_at(from) {
                        None => format!("there is no piece on {from}"),
                        Some(p) if p.color != self.turn => format!("the piece on {from} is not {}'s", self.turn),
                        Some(p) => {
                            if legal.iter().any(|m| m.from == from && m.to == to) {
                                format!("{from}{to} is legal")
                            } else if self.is_check() {
                                format!("{} is in check and this {} move does not answer it", self.turn, p.role.name())
                            } else {
                                format!("the {} on {from} cannot go to {to}", p.role.name())
                            }
                        }
                    },
                    UciMove::Put { .. } => unreachable!(),
                }
            }
        }
    }
}

/// Genesis Chess as a front end shows it: a reserve beside the board.
pub(crate) const INFO: crate::VariantInfo = crate::VariantInfo {
    id: "genesis",
    name: "Genesis Chess",
    summary: "An empty board: place your pieces from the reserve, King first, and fight as you build.",
    rules_page: "genesis",
    aliases: &[],
    mirror_symmetric: true,
    pocket: Some("Reserve"),
    pocket_note: "Place the piece on a highlighted square.",
    options: &[],
};

impl crate::Describe for Genesis {
    fn pocket(&self, color: Color) -> Vec<(Role, u8)> {
        [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn]
            .into_iter()
            .map(|r| (r, self.reserve_count(color, r)))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    fn state_lines(&self) -> Vec<String> {
        if self.must_place_king() {
            vec![format!("{} must place the King first.", crate::describe::side(self.turn()))]
        } else {
            Vec::new()
        }
    }

    fn pocket_refusal(&self, color: Color, role: Role) -> Option<String> {
        if let Some(why) = crate::describe::not_your_turn(self, color) {
            return Some(why);
        }
        if self.must_place_king() && role != Role::King {
            return Some("Place your King first.".into());
        }
        let can = self.legal_move_list().iter().any(|m| m.kind == MoveKind::Drop(role));
        (!can).then(|| "No legal square for it now.".into())
    }

    fn move_note(&self, m: Move) -> Option<String> {
        let who = crate::describe::side(self.turn());
        if let MoveKind::Drop(r) = m.kind {
            return Some(format!("{who}'s {} is placed from the reserve on {}.", crate::describe::role_word(r), m.to));
        }
        if self.board().role_at(m.from) != Some(Role::Pawn) || m.kind != MoveKind::Normal {
            return None;
        }
        let (ff, fr) = (m.from.index() % 8, m.from.index() / 8);
        let (tf, tr) = (m.to.index() % 8, m.to.index() / 8);
        let forward = if self.turn() == Color::White { tr as i32 - fr as i32 } else { fr as i32 - tr as i32 };
        let captures = self.board().color_at(m.to).is_some();
        let orthodox = (ff == tf && forward == 1) || (ff.abs_diff(tf) == 1 && forward == 1 && captures);
        if orthodox {
            return None;
        }
        let dir = if captures {
            "captures diagonally on"
        } else if fr == tr {
            "steps sideways to"
        } else {
            "steps back to"
        };
        Some(format!(
            "The pawn on {} {dir} {}: Genesis pawns step one square up, down, left or right and capture one square diagonally in any direction.",
            m.from, m.to
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_counts() {
        let p = Genesis::new();
        assert_eq!(p.count_legal_moves(), 64);
        assert_eq!(crate::perft::perft(&p, 2), 3612);
    }

    #[test]
    fn hash_matches_fresh_read() {
        let mut p = Genesis::new();
        for m in ["K@e1", "K@e8", "P@d4", "Q@a4", "d4d5"] {
            let mv = p.parse_uci(m).unwrap();
            p.play_unchecked(mv);
            let q = Genesis::from_fen(&p.fen()).unwrap();
            assert_eq!(q.hash(), p.hash(), "after {m}");
            assert_eq!(q, p, "after {m}");
        }
    }
}
