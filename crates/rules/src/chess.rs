//! Orthodox chess (FIDE): the fast legal move generator, make-move, and
//! standard FEN. The variants built on the orthodox game reuse the pieces
//! of this module (the `StdCore` state and the generator's building blocks).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::fen::{self, FenError};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{CastlingRights, Position};
use crate::types::{Color, Piece, Rank, Role, Square};
use crate::variant::Variant;
use crate::zobrist;

/// Orthodox chess as a front end shows it: no pocket, no options.
pub(crate) const INFO: crate::VariantInfo = crate::VariantInfo {
    id: "chess",
    name: "Chess",
    summary: "Orthodox chess under FIDE rules.",
    rules_page: "chess",
    aliases: &["standard", "orthodox"],
    mirror_symmetric: true,
    pocket: None,
    pocket_note: "",
    options: &[],
};

impl crate::Describe for Chess {}

/// Receives generated moves: a list, or a counter for bulk perft.
pub trait MoveSink {
    /// A set of plain moves/captures of one piece.
    fn targets(&mut self, from: Square, to: Bitboard);
    /// One move of any kind.
    fn push(&mut self, m: Move);
    /// Pawn promotions onto `to` from `from` (to each allowed role).
    fn promotions(&mut self, from: Square, to: Square, roles: &[Role]);
}

impl MoveSink for MoveList {
    #[inline]
    fn targets(&mut self, from: Square, to: Bitboard) {
        for t in to {
            self.push(Move::normal(from, t));
        }
    }
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
    #[inline]
    fn promotions(&mut self, from: Square, to: Square, roles: &[Role]) {
        for &r in roles {
            MoveList::push(self, Move::new(from, to, MoveKind::Promotion(r)));
        }
    }
}

/// Counts moves without storing them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn targets(&mut self, _from: Square, to: Bitboard) {
        self.0 += to.count() as u64;
    }
    #[inline]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline]
    fn promotions(&mut self, _from: Square, _to: Square, roles: &[Role]) {
        self.0 += roles.len() as u64;
    }
}

/// Notes whether a generator yields one given move, storing nothing: the
/// legality tests of chess (run on the moves of the piece on the move's
/// square alone) and of Genesis (on its board moves).
pub(crate) struct LegalitySink {
    pub m: Move,
    pub found: bool,
}

impl MoveSink for LegalitySink {
    #[inline]
    fn targets(&mut self, from: Square, to: Bitboard) {
        self.found |= self.m.kind == MoveKind::Normal && self.m.from == from && to.contains(self.m.to);
    }
    #[inline]
    fn push(&mut self, m: Move) {
        self.found |= m == self.m;
    }
    #[inline]
    fn promotions(&mut self, from: Square, to: Square, roles: &[Role]) {
        self.found |= self.m.from == from
            && self.m.to == to
            && matches!(self.m.kind, MoveKind::Promotion(r) if roles.contains(&r));
    }
}

/// Keeps one side of the split of a generator's output into "noisy" moves
/// (captures and promotions: the sink behind `Position::noisy_moves`) and
/// quiet ones (everything else, placements and castling included: the sink
/// behind `Position::quiet_moves`). `theirs` is the enemy occupancy; a
/// move is noisy when it promotes, takes en passant, or is a plain move
/// (or a Clown declaration) onto an enemy piece, exactly when
/// `is_capture(m) || m.promotion().is_some()` holds.
pub(crate) struct SplitSink<'a, const NOISY: bool> {
    pub out: &'a mut MoveList,
    pub theirs: Bitboard,
}

/// The captures and promotions.
pub(crate) type NoisySink<'a> = SplitSink<'a, true>;
/// The moves that neither capture nor promote.
pub(crate) type QuietSink<'a> = SplitSink<'a, false>;

impl<const NOISY: bool> SplitSink<'_, NOISY> {
    /// The squares of `to` whose plain moves this sink keeps.
    #[inline]
    pub fn kept(&self, to: Bitboard) -> Bitboard {
        if NOISY {
            to & self.theirs
        } else {
            to - self.theirs
        }
    }
}

impl<const NOISY: bool> MoveSink for SplitSink<'_, NOISY> {
    #[inline]
    fn targets(&mut self, from: Square, to: Bitboard) {
        for t in self.kept(to) {
            self.out.push(Move::normal(from, t));
        }
    }
    #[inline]
    fn push(&mut self, m: Move) {
        let noisy = match m.kind {
            MoveKind::EnPassant | MoveKind::Promotion(_) => true,
            MoveKind::Normal | MoveKind::Declare => self.theirs.contains(m.to),
            _ => false,
        };
        if noisy == NOISY {
            self.out.push(m);
        }
    }
    #[inline]
    fn promotions(&mut self, from: Square, to: Square, roles: &[Role]) {
        if NOISY {
            for &r in roles {
                self.out.push(Move::new(from, to, MoveKind::Promotion(r)));
            }
        }
    }
}

pub const PROMOTION_ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// The state every orthodox-based variant shares: placement, side to move,
/// castling, en passant, counters, and the cached checkers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StdCore {
    pub board: Board,
    pub turn: Color,
    pub castling: CastlingRights,
    /// Set only when an en-passant capture is legal.
    pub ep: Option<Square>,
    pub halfmoves: u32,
    pub fullmoves: u32,
    pub checkers: Bitboard,
}

impl StdCore {
    pub fn standard() -> StdCore {
        let board = Board::standard();
        StdCore {
            board,
            turn: Color::White,
            castling: CastlingRights::ALL,
            ep: None,
            halfmoves: 0,
            fullmoves: 1,
            checkers: Bitboard::EMPTY,
        }
    }

    /// The core with the side to move passing (see `Position::pass`).
    pub fn passed(&self) -> Option<StdCore> {
        if self.checkers.any() {
            return None;
        }
        let mut c = self.clone();
        c.turn = !c.turn;
        c.ep = None;
        c.halfmoves = 0;
        // The side now to move made the last real move: not in check.
        c.checkers = Bitboard::EMPTY;
        Some(c)
    }

    /// Hash of placement, side, castling and en passant.
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut h = self.board.hash() ^ zobrist::side(self.turn) ^ zobrist::castling(self.castling.0);
        if let Some(ep) = self.ep {
            h ^= zobrist::ep_file(ep.file().index());
        }
        h
    }

    #[inline]
    pub fn our_king(&self) -> Square {
        self.board.king_of(self.turn).expect("side to move has a king")
    }

    /// Reads the six standard FEN fields (board letters limited to `roles`).
    pub fn from_fen_fields(f: &fen::FenFields<'_>, roles: &[Role]) -> Result<StdCore, FenError> {
        let (board, _pocket) = fen::parse_board(f.board, roles)?;
        fen::check_kings(&board)?;
        fen::check_pawn_ranks(&board)?;
        let turn = fen::parse_turn(f.turn)?;
        let castling = fen::parse_castling(f.castling, &board)?;
        let ep_field = fen::parse_ep(f.ep, &board, turn)?;
        let halfmoves = fen::parse_counter(f.halfmoves, "halfmove clock")?;
        let fullmoves = fen::parse_counter(f.fullmoves, "fullmove number")?.max(1);
        Ok(StdCore { board, turn, castling, ep: ep_field, halfmoves, fullmoves, checkers: Bitboard::EMPTY })
    }

    /// The six standard FEN fields.
    pub fn fen_fields(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.board.board_fen(),
            self.turn.char(),
            self.castling.fen(),
            self.ep.map_or("-".to_string(), |s| s.to_string()),
            self.halfmoves,
            self.fullmoves
        )
    }

    /// Plays the board effects of an orthodox move (also castling, en
    /// passant, promotion) and updates counters and rights; the caller
    /// then recomputes checkers and the en-passant square. Returns the
    /// captured piece, if any.
    #[inline]
    pub fn play_board(&mut self, m: Move) -> Option<Piece> {
        let us = self.turn;
        let mut captured = None;
        self.halfmoves += 1;
        self.ep = None;
        match m.kind {
            MoveKind::Normal | MoveKind::Declare => {
                let p = self.board.take(m.from).expect("piece on from-square");
                captured = self.board.take(m.to);
                self.board.put(m.to, p);
                if p.role == Role::Pawn || captured.is_some() {
                    self.halfmoves = 0;
                }
                self.castling.0 &= !(CastlingRights::mask_for(m.from) | CastlingRights::mask_for(m.to));
            }
            MoveKind::DoublePush => {
                self.board.shift(m.from, m.to);
                self.halfmoves = 0;
            }
            MoveKind::Promotion(r) => {
                self.board.take(m.from);
                captured = self.board.take(m.to);
                self.board.put(m.to, Piece::new(us, r));
                self.halfmoves = 0;
                self.castling.0 &= !CastlingRights::mask_for(m.to);
            }
            MoveKind::EnPassant => {
                self.board.shift(m.from, m.to);
                let cap_sq = Square::from_coords(m.to.file(), m.from.rank());
                captured = self.board.take(cap_sq);
                self.halfmoves = 0;
            }
            MoveKind::Castle => {
                let king_side = m.to.file() > m.from.file();
                let rank = m.from.rank();
                let (rook_from, rook_to) = if king_side {
                    (Square::from_coords(crate::File::H, rank), Square::from_coords(crate::File::F, rank))
                } else {
                    (Square::from_coords(crate::File::A, rank), Square::from_coords(crate::File::D, rank))
                };
                self.board.shift(m.from, m.to);
                self.board.shift(rook_from, rook_to);
                self.castling.0 &= !(CastlingRights::bit(us, true) | CastlingRights::bit(us, false));
            }
            MoveKind::Flip | MoveKind::Drop(_) | MoveKind::ReEntry(_) | MoveKind::RingPass(_) => {
                unreachable!("variant move {m} given to the orthodox core")
            }
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !us;
        captured
    }

    /// Sets `ep` after a double push of `us` to `to` if the opponent (now to
    /// move) has a legal en-passant capture. `attackers` tells whether the
    /// king of the side to move is attacked on a board (variant attack rules).
    #[inline]
    pub fn set_ep_if_legal(&mut self, from: Square, to: Square, is_safe: impl Fn(&Board, Square, Bitboard) -> bool) {
        let them = self.turn; // side to move now
        let ep_sq = Square::new(((from.index() + to.index()) / 2) as u32);
        let capturers = attacks::pawn_attacks(!them, ep_sq) & self.board.pawns() & self.board.by_color(them);
        if capturers.is_empty() {
            return;
        }
        let Some(ksq) = self.board.king_of(them) else { return };
        for c in capturers {
            let mut b = self.board.clone();
            b.take(to);
            b.shift(c, ep_sq);
            let occ = b.occupied();
            if is_safe(&b, ksq, occ) {
                self.ep = Some(ep_sq);
                return;
            }
        }
    }
}

/// The `Position` accessors of a struct whose orthodox state is a field
/// `core: StdCore` (Chess, Genie, Clown, Magic Ring): one definition instead
/// of four copies. Used inside `impl Position for X { ... }`.
macro_rules! std_core_accessors {
    () => {
        #[inline]
        fn board(&self) -> &$crate::board::Board {
            &self.core.board
        }
        #[inline]
        fn turn(&self) -> $crate::types::Color {
            self.core.turn
        }
        fn castling(&self) -> $crate::position::CastlingRights {
            self.core.castling
        }
        fn ep_square(&self) -> Option<$crate::types::Square> {
            self.core.ep
        }
        fn halfmoves(&self) -> u32 {
            self.core.halfmoves
        }
        fn fullmoves(&self) -> u32 {
            self.core.fullmoves
        }
    };
}
pub(crate) use std_core_accessors;

/// Orthodox chess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chess {
    pub(crate) core: StdCore,
}

impl Default for Chess {
    fn default() -> Self {
        Chess::new()
    }
}

impl Chess {
    /// The start position.
    pub fn new() -> Chess {
        Chess { core: StdCore::standard() }
    }

    /// The orthodox state this position shares with the variants built on it:
    /// placement, side to move, castling, en passant, counters and checkers. Its
    /// type is internal to the crate; the same facts are public through the
    /// [`Position`] methods ([`Position::board`], [`Position::turn`], ...).
    pub fn core(&self) -> &StdCore {
        &self.core
    }

    /// Reads a standard FEN (`docs/fen.md`): six fields, of which the two
    /// counters may be left out (they then read `0 1`).
    ///
    /// Bad input is a [`FenError`] saying what is wrong: for instance a piece
    /// letter other than `K Q R B N P` in either case, a side without exactly one
    /// king, a pawn on rank 1 or 8, a castling right without its king and rook at
    /// home, an en-passant square no double step can have passed, the side not to
    /// move in check, or a seventh field.
    ///
    /// ```
    /// use chimera_rules::{Chess, FenError, Position};
    ///
    /// let pos = Chess::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?;
    /// assert_eq!(pos.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    /// assert_eq!(Chess::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - -")?, pos);
    /// assert!(matches!(Chess::from_fen("4k3/8/8/8/8/8/4G3/4K3 w - -"), Err(FenError::PieceNotInVariant('G'))));
    /// # Ok::<(), FenError>(())
    /// ```
    pub fn from_fen(s: &str) -> Result<Chess, FenError> {
        let f = fen::FenFields::split(s)?;
        if let Some(extra) = f.extra.first() {
            return Err(FenError::UnexpectedField((*extra).to_string()));
        }
        let mut core = StdCore::from_fen_fields(&f, &fen::ORTHODOX_ROLES)?;
        finish_setup(&mut core, orthodox_king_safe)?;
        Ok(Chess { core })
    }
}

/// King safety on a board with orthodox (and Genie) attacks.
#[inline]
pub fn orthodox_king_safe(b: &Board, ksq: Square, occ: Bitboard) -> bool {
    let them = !b.color_at(ksq).expect("king on square");
    // attackers_to masks with the board's own colour sets; `occ` gives the sliders' view.
    (b.attackers_to(ksq, them, occ) & occ).is_empty()
}

/// Validates a freshly read standard position: the side not to move must
/// not be in check; computes checkers; keeps the en-passant square only if
/// a capture there is legal.
pub fn finish_setup(core: &mut StdCore, is_safe: impl Fn(&Board, Square, Bitboard) -> bool) -> Result<(), FenError> {
    let them = !core.turn;
    if let Some(their_king) = core.board.king_of(them) {
        if !is_safe(&core.board, their_king, core.board.occupied()) {
            return Err(FenError::OppositeCheck);
        }
    }
    if let Some(ep) = core.ep.take() {
        // The pawn that double-stepped stands one rank past the ep square.
        let dir: i32 = if core.turn == Color::White { -8 } else { 8 };
        let to = ep.offset(dir).expect("validated ep square");
        let from = ep.offset(-dir).expect("validated ep square");
        core.set_ep_if_legal(from, to, &is_safe);
    }
    if let Some(k) = core.board.king_of(core.turn) {
        core.checkers = core.board.attackers_to(k, them, core.board.occupied());
    }
    Ok(())
}

impl Position for Chess {
    fn variant(&self) -> Variant {
        Variant::Chess
    }
    crate::chess::std_core_accessors!();
    #[inline]
    fn hash(&self) -> u64 {
        self.core.hash()
    }
    #[inline]
    fn checkers(&self) -> Bitboard {
        self.core.checkers
    }
    fn legal_moves(&self, moves: &mut MoveList) {
        gen_orthodox(&self.core, moves);
    }
    fn noisy_moves(&self, moves: &mut MoveList) {
        let theirs = self.core.board.by_color(!self.core.turn);
        gen_orthodox(&self.core, &mut NoisySink { out: moves, theirs });
    }
    fn quiet_moves(&self, moves: &mut MoveList) {
        let theirs = self.core.board.by_color(!self.core.turn);
        gen_orthodox(&self.core, &mut QuietSink { out: moves, theirs });
    }
    /// Generates the moves of the piece on `m.from` alone, and looks for
    /// `m` among them.
    #[inline]
    fn is_legal(&self, m: Move) -> bool {
        let mut sink = LegalitySink { m, found: false };
        gen_orthodox_from(&self.core, Bitboard::from_square(m.from), &mut sink);
        sink.found
    }
    const CHEAP_IS_LEGAL: bool = true;
    #[inline]
    fn count_legal_moves(&self) -> u64 {
        let mut c = MoveCounter(0);
        gen_orthodox(&self.core, &mut c);
        c.0
    }
    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        play_orthodox(&mut self.core, m);
    }
    fn pass(&self) -> Option<Chess> {
        Some(Chess { core: self.core.passed()? })
    }
    fn is_dead_material(&self) -> bool {
        orthodox_dead_material(&self.core.board)
    }
    fn fen(&self) -> String {
        self.core.fen_fields()
    }
}

/// Plays an orthodox move on the core and updates checkers and en passant.
#[inline]
pub fn play_orthodox(core: &mut StdCore, m: Move) {
    core.play_board(m);
    if m.kind == MoveKind::DoublePush {
        core.set_ep_if_legal(m.from, m.to, orthodox_king_safe);
    }
    let k = core.our_king();
    core.checkers = core.board.attackers_to(k, !core.turn, core.board.occupied());
}

/// K v K, K+B v K, K+N v K, and K+B(s) v K+B(s) with every bishop on one
/// square colour: no sequence of legal moves can end in mate.
pub fn orthodox_dead_material(b: &Board) -> bool {
    if (b.pawns() | b.rooks_queens() | b.by_role(Role::Genie) | b.by_role(Role::Clown)).any() {
        return false;
    }
    let minors = b.knights() | b.bishops();
    if minors.count() <= 1 {
        return true;
    }
    if b.knights().is_empty() {
        let bishops = b.bishops();
        // All bishops on one colour, and both sides have some (or one side only: also dead).
        return (bishops & Bitboard::DARK_SQUARES).is_empty() || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
    }
    false
}

/// Legal moves of an orthodox position (no Genie, no Clown on the board).
#[inline]
pub fn gen_orthodox<S: MoveSink>(core: &StdCore, sink: &mut S) {
    gen_orthodox_from(core, Bitboard::FULL, sink);
}

/// The legal moves of the pieces standing on `from` (of an orthodox
/// position): [`gen_orthodox`] for a subset of the squares, so that a
/// single move's legality costs one piece's generation.
#[inline]
pub fn gen_orthodox_from<S: MoveSink>(core: &StdCore, from: Bitboard, sink: &mut S) {
    let b = &core.board;
    let us = core.turn;
    let them = !us;
    let ksq = core.our_king();
    let ours = b.by_color(us);
    let occ = b.occupied();
    let checkers = core.checkers;

    if from.contains(ksq) {
        gen_king_steps(b, ksq, ours, sink, |to, occ_no_king| b.is_attacked(to, them, occ_no_king));
    }

    if checkers.more_than_one() || (from & ours).without(ksq).is_empty() {
        // Only the king may move; or only the king was asked.
        if checkers.is_empty() && from.contains(ksq) {
            gen_castling(core, ksq, sink, |sq| b.is_attacked(sq, them, occ));
        }
        return;
    }
    let target = match checkers.first() {
        Some(c) => attacks::between(ksq, c).with(c),
        None => Bitboard::FULL,
    };
    let pinned = b.slider_blockers(ksq, them, occ) & ours;

    gen_piece_moves(b, us, ksq, pinned, target & !ours, from, sink);
    gen_pawn_moves(core, ksq, pinned, target, &PROMOTION_ROLES, from, sink);
    if checkers.is_empty() && from.contains(ksq) {
        gen_castling(core, ksq, sink, |sq| b.is_attacked(sq, them, occ));
    }
}

/// The king's one-square steps: a destination must not be attacked once the
/// king has left its square. `attacked(to, occupancy without the king)` is
/// the variant's attack test.
#[inline]
pub fn gen_king_steps<S: MoveSink>(
    b: &Board,
    ksq: Square,
    ours: Bitboard,
    sink: &mut S,
    attacked: impl Fn(Square, Bitboard) -> bool,
) {
    let occ_no_king = b.occupied().without(ksq);
    let mut king_to = attacks::king_attacks(ksq) - ours;
    for to in king_to {
        if attacked(to, occ_no_king) {
            king_to.clear(to);
        }
    }
    sink.targets(ksq, king_to);
}

/// Knight, bishop, rook and queen moves onto `target`, respecting pins, of
/// the pieces standing on `from` (`Bitboard::FULL`: all of them).
#[inline]
pub fn gen_piece_moves<S: MoveSink>(
    b: &Board,
    us: Color,
    ksq: Square,
    pinned: Bitboard,
    target: Bitboard,
    from: Bitboard,
    sink: &mut S,
) {
    let ours = b.by_color(us) & from;
    let occ = b.occupied();
    for from in b.knights() & (ours - pinned) {
        sink.targets(from, attacks::knight_attacks(from) & target);
    }
    for from in b.bishops_queens() & ours {
        let mut t = attacks::bishop_attacks(from, occ) & target;
        if pinned.contains(from) {
            t &= attacks::line(ksq, from);
        }
        sink.targets(from, t);
    }
    for from in b.rooks_queens() & ours {
        let mut t = attacks::rook_attacks(from, occ) & target;
        if pinned.contains(from) {
            t &= attacks::line(ksq, from);
        }
        sink.targets(from, t);
    }
}

/// Pawn pushes, double pushes, captures, promotions (to `promo` roles; an
/// empty slice forbids reaching the last rank) and en passant.
/// `target` is the check-evasion mask (full when not in check). Only the
/// pawns standing on `from` move (`Bitboard::FULL`: all of them).
#[inline]
pub fn gen_pawn_moves<S: MoveSink>(
    core: &StdCore,
    ksq: Square,
    pinned: Bitboard,
    target: Bitboard,
    promo: &[Role],
    from: Bitboard,
    sink: &mut S,
) {
    let b = &core.board;
    let us = core.turn;
    let them = !us;
    let occ = b.occupied();
    let empty = !occ;
    let theirs = b.by_color(them);
    let pawns = b.pawns() & b.by_color(us) & from;
    let last = Bitboard::from_rank(Rank::Eighth.relative(us));
    let third = Bitboard::from_rank(Rank::Third.relative(us));
    let (up, up_left, up_right): (i32, i32, i32) = if us.is_white() { (8, 7, 9) } else { (-8, -9, -7) };
    let shift = |bb: Bitboard, d: i32| -> Bitboard {
        if d > 0 {
            Bitboard(bb.0 << d)
        } else {
            Bitboard(bb.0 >> -d)
        }
    };
    let not_a = !Bitboard::from_file(crate::File::A);
    let not_h = !Bitboard::from_file(crate::File::H);

    // Pawns that may move freely, and pinned ones that may move along their pin.
    let free = pawns - pinned;
    let pinned_pawns = pawns & pinned;

    // Pushes.
    let single = shift(free, up) & empty;
    let double = shift(single & third, up) & empty & target;
    let single = single & target;
    for to in single - last {
        sink.push(Move::normal(Square::new((to.index() as i32 - up) as u32), to));
    }
    if !promo.is_empty() {
        for to in single & last {
            sink.promotions(Square::new((to.index() as i32 - up) as u32), to, promo);
        }
    }
    for to in double {
        sink.push(Move::new(Square::new((to.index() as i32 - 2 * up) as u32), to, MoveKind::DoublePush));
    }
    // Captures.
    let caps_target = theirs & target;
    let left = shift(free & not_a, up_left) & caps_target;
    let right = shift(free & not_h, up_right) & caps_target;
    for (set, d) in [(left, up_left), (right, up_right)] {
        for to in set - last {
            sink.push(Move::normal(Square::new((to.index() as i32 - d) as u32), to));
        }
        if !promo.is_empty() {
            for to in set & last {
                sink.promotions(Square::new((to.index() as i32 - d) as u32), to, promo);
            }
        }
    }
    // Pinned pawns: one at a time, along the pin line.
    for from in pinned_pawns {
        let line = attacks::line(ksq, from);
        let mut tos = Bitboard::EMPTY;
        if let Some(one) = from.offset(up) {
            if empty.contains(one) {
                tos.set(one);
                if third.contains(one) {
                    if let Some(two) = one.offset(up) {
                        if empty.contains(two) && (line & target).contains(two) {
                            sink.push(Move::new(from, two, MoveKind::DoublePush));
                        }
                    }
                }
            }
        }
        tos |= attacks::pawn_attacks(us, from) & theirs;
        tos &= line & target;
        for to in tos {
            if last.contains(to) {
                if !promo.is_empty() {
                    sink.promotions(from, to, promo);
                }
            } else {
                sink.push(Move::normal(from, to));
            }
        }
    }
    // En passant (the square is only set when some capture there is legal,
    // but each capturer must still be checked).
    if let Some(ep) = core.ep {
        let cap_sq = Square::new((ep.index() as i32 - up) as u32);
        for from in attacks::pawn_attacks(them, ep) & pawns {
            let mut nb = b.clone();
            nb.take(cap_sq);
            nb.shift(from, ep);
            let nocc = nb.occupied();
            if nb.attackers_to(ksq, them, nocc).is_empty() {
                sink.push(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
    }
}

/// Castling moves when not in check; `attacked` tells whether the enemy
/// attacks a square.
#[inline]
pub fn gen_castling<S: MoveSink>(core: &StdCore, ksq: Square, sink: &mut S, attacked: impl Fn(Square) -> bool) {
    let us = core.turn;
    if !core.castling.any_for(us) {
        return;
    }
    let b = &core.board;
    let occ = b.occupied();
    let rank = us.back_rank();
    let rook = Piece::new(us, Role::Rook);
    for king_side in [true, false] {
        if !core.castling.has(us, king_side) {
            continue;
        }
        let (rook_sq, king_to, king_path) = if king_side {
            (
                Square::from_coords(crate::File::H, rank),
                Square::from_coords(crate::File::G, rank),
                [crate::File::F, crate::File::G],
            )
        } else {
            (
                Square::from_coords(crate::File::A, rank),
                Square::from_coords(crate::File::C, rank),
                [crate::File::D, crate::File::C],
            )
        };
        if b.piece_at(rook_sq) != Some(rook) {
            continue;
        }
        if (attacks::between(ksq, rook_sq) & occ).any() {
            continue;
        }
        if king_path.iter().any(|&f| attacked(Square::from_coords(f, rank))) {
            continue;
        }
        sink.push(Move::new(ksq, king_to, MoveKind::Castle));
    }
}
