//! Clown Chess (`clown`), as `docs/rules/clown.md` states it.
//!
//! Orthodox chess plus:
//! - the Clown (`C`), which moves and captures like the piece of the file it
//!   stands on (a/h Rook, b/g Knight, c/f Bishop, d Queen limited to four
//!   squares, e one King step; not royal, never castles);
//! - the declaration of a Knight as a Clown on that Knight's first move
//!   (`b1c3c`), once per player per game;
//! - one re-entry per player per game of a captured own Knight (a captured
//!   Clown is a Knight in hand) or Bishop onto an empty square of the entry
//!   zone (`N@b4`, `B@d2`, `C@g5`), never straight after that piece was
//!   captured and never straight after an enemy Clown moved.
//!
//! The variant state (unmoved Knights, who has had a Clown, who has used the
//! re-entry, the hands, what the last move captured, whether the last move
//! was a Clown's) lives in the position, the hash and the FEN (`docs/fen.md`).
//! Choices where the rules text was silent: `docs/rules/clown.md`.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::chess::{
    finish_setup, gen_castling, gen_king_steps, gen_pawn_moves, gen_piece_moves, MoveCounter, MoveSink, NoisySink,
    QuietSink, StdCore, PROMOTION_ROLES,
};
use crate::fen::{self, FenError, Pocket};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{ByColor, Color, File, Piece, Role, Square};
use crate::variant::Variant;
use crate::zobrist;

/// Board letters of the variant.
const ROLES: [Role; 7] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King, Role::Clown];

/// The Knights' start squares.
const KNIGHT_HOMES: Bitboard = Bitboard((1 << 1) | (1 << 6) | (1 << 57) | (1 << 62));

/// Index of a role in a hand: 0 Knight (a captured Clown is a Knight), 1 Bishop.
const HAND_KNIGHT: usize = 0;
const HAND_BISHOP: usize = 1;

/// Zobrist layout inside the Clown range 600..900.
const Z_UNMOVED: usize = 600; // + 0..4 (b1 g1 b8 g8)
const Z_HAD_CLOWN: usize = 610; // + colour
const Z_REENTRY_USED: usize = 612; // + colour
const Z_HAND: usize = 620; // + (colour * 2 + hand index) * 17 + count (count <= 16)
const Z_PERMIT: usize = 700; // + 0 N, 1 B, 2 C: re-entry roles open to the side to move

/// The entry zone of White: ranks 1-2, plus a3 b3 g3 h3 a4 b4 g4 h4.
pub const WHITE_ENTRY_ZONE: Bitboard = Bitboard(0xFFFF | 0xC3_u64 << 16 | 0xC3_u64 << 24);
/// The entry zone of Black: the mirror (ranks 7-8, a6 b6 g6 h6 a5 b5 g5 h5).
pub const BLACK_ENTRY_ZONE: Bitboard = Bitboard(0xFFFF_u64 << 48 | 0xC3_u64 << 40 | 0xC3_u64 << 32);

/// The entry zone of `color`.
#[inline]
pub fn entry_zone(color: Color) -> Bitboard {
    color.fold(WHITE_ENTRY_ZONE, BLACK_ENTRY_ZONE)
}

const fn within4_table() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s: i32 = 0;
    while s < 64 {
        let (sf, sr) = (s % 8, s / 8);
        let mut o: i32 = 0;
        while o < 64 {
            let (of, or) = (o % 8, o / 8);
            let df = if sf > of { sf - of } else { of - sf };
            let dr = if sr > or { sr - or } else { or - sr };
            if df <= 4 && dr <= 4 {
                t[s as usize] |= 1 << o;
            }
            o += 1;
        }
        s += 1;
    }
    t
}

/// Squares within four king steps: along a line this is "at most four squares".
static WITHIN4: [u64; 64] = within4_table();

/// The squares a Clown on `sq` attacks (moves to or captures on), by its file.
#[inline]
pub fn clown_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    match sq.file() {
        File::A | File::H => attacks::rook_attacks(sq, occ),
        File::B | File::G => attacks::knight_attacks(sq),
        File::C | File::F => attacks::bishop_attacks(sq, occ),
        File::D => attacks::queen_attacks(sq, occ) & Bitboard(WITHIN4[sq.index()]),
        File::E => attacks::king_attacks(sq),
    }
}

/// Clowns of `by` (standing in `occ`) attacking `sq`.
#[inline]
pub fn clown_attackers_to(b: &Board, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
    let mut a = Bitboard::EMPTY;
    for c in b.by_role(Role::Clown) & b.by_color(by) & occ {
        if clown_attacks(c, occ).contains(sq) {
            a.set(c);
        }
    }
    a
}

/// Every piece of `by` (orthodox and Clown) standing in `occ` and attacking `sq`.
#[inline]
pub fn attackers_to(b: &Board, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
    (b.attackers_to(sq, by, occ) & occ) | clown_attackers_to(b, sq, by, occ)
}

/// Whether the king on `ksq` is safe on board `b` with occupancy `occ`.
#[inline]
pub fn king_safe(b: &Board, ksq: Square, occ: Bitboard) -> bool {
    let them = !b.color_at(ksq).expect("king on square");
    attackers_to(b, ksq, them, occ).is_empty()
}

/// Pieces standing alone between `king` and an enemy slider (orthodox or a
/// Clown on a sliding file, the d-file one only within four squares).
#[inline]
fn blockers(b: &Board, king: Square, by: Color, occ: Bitboard) -> Bitboard {
    let mut bl = b.slider_blockers(king, by, occ);
    for c in b.by_role(Role::Clown) & b.by_color(by) {
        let reaches = match c.file() {
            File::A | File::H => attacks::rook_attacks(c, Bitboard::EMPTY).contains(king),
            File::C | File::F => attacks::bishop_attacks(c, Bitboard::EMPTY).contains(king),
            File::D => attacks::queen_attacks(c, Bitboard::EMPTY).contains(king) && c.distance(king) <= 4,
            _ => false,
        };
        if reaches {
            let btw = attacks::between(king, c) & occ;
            if btw.any() && !btw.more_than_one() {
                bl |= btw;
            }
        }
    }
    bl
}

/// A Clown Chess position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clown {
    core: StdCore,
    /// Knights that stand on their start square and have never moved.
    unmoved: Bitboard,
    /// Who has had a Clown (declared or re-entered), ever.
    had_clown: ByColor<bool>,
    /// Who has used the re-entry.
    reentry_used: ByColor<bool>,
    /// Captured pieces per owner: `[Knights (Clowns included), Bishops]`.
    hand: ByColor<[u8; 2]>,
    /// What the last move captured, if a Knight/Clown or Bishop (a piece of
    /// the side to move): the hand index.
    last_captured: Option<usize>,
    /// The last move was made by a piece that already was a Clown.
    last_clown_move: bool,
}

impl Default for Clown {
    fn default() -> Self {
        Clown::new()
    }
}

fn hand_index(role: Role) -> Option<usize> {
    match role {
        Role::Knight | Role::Clown => Some(HAND_KNIGHT),
        Role::Bishop => Some(HAND_BISHOP),
        _ => None,
    }
}

fn home_knights(b: &Board) -> Bitboard {
    (b.by_piece(Piece::new(Color::White, Role::Knight)) & KNIGHT_HOMES & Bitboard(0xFF))
        | (b.by_piece(Piece::new(Color::Black, Role::Knight)) & KNIGHT_HOMES & Bitboard(0xFF << 56))
}

fn colors_field(v: ByColor<bool>) -> String {
    let mut s = String::new();
    if v.white {
        s.push('w');
    }
    if v.black {
        s.push('b');
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

fn parse_colors(name: &str, v: &str) -> Result<ByColor<bool>, FenError> {
    let bad = || FenError::Variant(format!("bad clown FEN field '{name}:{v}': expected w, b, wb or -"));
    match v {
        "-" => Ok(ByColor::new(false, false)),
        "w" => Ok(ByColor::new(true, false)),
        "b" => Ok(ByColor::new(false, true)),
        "wb" => Ok(ByColor::new(true, true)),
        _ => Err(bad()),
    }
}

impl Clown {
    /// The start position.
    pub fn new() -> Clown {
        let core = StdCore::standard();
        let unmoved = home_knights(&core.board);
        Clown {
            core,
            unmoved,
            had_clown: ByColor::new(false, false),
            reentry_used: ByColor::new(false, false),
            hand: ByColor::new([0, 0], [0, 0]),
            last_captured: None,
            last_clown_move: false,
        }
    }

    /// Reads a FEN with the extensions of `docs/fen.md` (`## clown`).
    pub fn from_fen(s: &str) -> Result<Clown, FenError> {
        let f = fen::FenFields::split(s)?;
        let mut core = StdCore::from_fen_fields(&f, &ROLES)?;
        let (_, pocket) = fen::parse_board(f.board, &ROLES)?;
        let hand = hand_from_pocket(pocket.unwrap_or_default())?;
        let b = &core.board;

        let clowns_on_board = ByColor::new(
            (b.by_role(Role::Clown) & b.by_color(Color::White)).count(),
            (b.by_role(Role::Clown) & b.by_color(Color::Black)).count(),
        );
        for c in Color::ALL {
            if clowns_on_board[c] > 1 {
                return Err(FenError::Variant(format!("{c} has more than one Clown (one per player per game)")));
            }
        }
        // Defaults: what the board implies.
        let mut unmoved = home_knights(b);
        let mut had_clown = ByColor::new(clowns_on_board.white > 0, clowns_on_board.black > 0);
        let mut reentry_used = ByColor::new(false, false);
        let mut last_captured = None;
        let mut last_clown_move = false;

        let mut seen: Vec<&str> = Vec::new();
        for field in &f.extra {
            let (name, value) = field
                .split_once(':')
                .ok_or_else(|| FenError::Variant(format!("bad clown FEN field '{field}': expected name:value")))?;
            if seen.contains(&name) {
                return Err(FenError::Variant(format!("clown FEN field '{name}' given twice")));
            }
            seen.push(name);
            match name {
                "unmoved" => {
                    unmoved = Bitboard::EMPTY;
                    if value != "-" {
                        if value.len() % 2 != 0 || !value.is_ascii() {
                            return Err(FenError::Variant(format!(
                                "bad clown FEN field '{field}': expected squares like b1g8, or -"
                            )));
                        }
                        for i in (0..value.len()).step_by(2) {
                            let sq = Square::parse(&value[i..i + 2]).ok_or_else(|| {
                                FenError::Variant(format!(
                                    "bad clown FEN field '{field}': '{}' is not a square",
                                    &value[i..i + 2]
                                ))
                            })?;
                            if !home_knights(b).contains(sq) {
                                return Err(FenError::Variant(format!(
                                    "clown FEN field '{field}': {sq} does not hold a Knight on its start square"
                                )));
                            }
                            unmoved.set(sq);
                        }
                    }
                }
                "clown" => had_clown = parse_colors(name, value)?,
                "reentry" => reentry_used = parse_colors(name, value)?,
                "lastcap" => {
                    last_captured = match value {
                        "-" => None,
                        "N" | "n" => Some(HAND_KNIGHT),
                        "B" | "b" => Some(HAND_BISHOP),
                        _ => {
                            return Err(FenError::Variant(format!(
                                "bad clown FEN field '{field}': expected N, B or -"
                            )));
                        }
                    }
                }
                "clownmoved" => {
                    last_clown_move = match value {
                        "0" => false,
                        "1" => true,
                        _ => return Err(FenError::Variant(format!("bad clown FEN field '{field}': expected 0 or 1"))),
                    }
                }
                _ => return Err(FenError::UnexpectedField((*field).to_string())),
            }
        }
        let us = core.turn;
        for c in Color::ALL {
            if clowns_on_board[c] > 0 && !had_clown[c] {
                return Err(FenError::Variant(format!(
                    "{c} has a Clown on the board, so the clown field must include {}",
                    c.char()
                )));
            }
        }
        if let Some(i) = last_captured {
            if hand[us][i] == 0 {
                return Err(FenError::Variant(format!(
                    "lastcap says the last move captured a {} of {us}, but {us}'s hand holds none",
                    if i == HAND_KNIGHT { "Knight" } else { "Bishop" }
                )));
            }
        }
        if last_clown_move && clowns_on_board[!us] == 0 {
            return Err(FenError::Variant(format!("clownmoved:1 but {} has no Clown on the board", !us)));
        }
        finish_setup(&mut core, king_safe)?;
        let mut pos = Clown { core, unmoved, had_clown, reentry_used, hand, last_captured, last_clown_move };
        pos.update_checkers();
        Ok(pos)
    }

    /// Knights that have never moved from their start squares.
    pub fn unmoved_knights(&self) -> Bitboard {
        self.unmoved
    }

    /// Whether `color` has ever had a Clown.
    pub fn had_clown(&self, color: Color) -> bool {
        self.had_clown[color]
    }

    /// Whether `color` has used its re-entry.
    pub fn reentry_used(&self, color: Color) -> bool {
        self.reentry_used[color]
    }

    /// Captured pieces of `color`: (Knights, Clowns counted as Knights; Bishops).
    pub fn hand(&self, color: Color) -> (u8, u8) {
        (self.hand[color][HAND_KNIGHT], self.hand[color][HAND_BISHOP])
    }

    /// Whether the last move was made by a piece that already was a Clown.
    pub fn last_move_by_clown(&self) -> bool {
        self.last_clown_move
    }

    /// The role (Knight or Bishop) the last move captured from the side to
    /// move, if it went to the hand.
    pub fn last_captured(&self) -> Option<Role> {
        self.last_captured.map(|i| if i == HAND_KNIGHT { Role::Knight } else { Role::Bishop })
    }

    /// The re-entry roles open to the side to move, board squares aside:
    /// `[Knight, Bishop, Clown]`.
    fn reentry_permits(&self) -> [bool; 3] {
        let us = self.core.turn;
        if self.reentry_used[us] || self.last_clown_move {
            return [false; 3];
        }
        let avail = |i: usize| self.hand[us][i] > u8::from(self.last_captured == Some(i));
        let n = avail(HAND_KNIGHT);
        [n, avail(HAND_BISHOP), n && !self.had_clown[us]]
    }

    fn update_checkers(&mut self) {
        let b = &self.core.board;
        let k = b.king_of(self.core.turn).expect("side to move has a king");
        self.core.checkers = attackers_to(b, k, !self.core.turn, b.occupied());
    }

    fn gen<S: MoveSink>(&self, sink: &mut S) {
        let core = &self.core;
        let b = &core.board;
        let us = core.turn;
        let them = !us;
        let ksq = core.our_king();
        let ours = b.by_color(us);
        let occ = b.occupied();
        let checkers = core.checkers;

        gen_king_steps(b, ksq, ours, sink, |to, occ_no_king| attackers_to(b, to, them, occ_no_king).any());

        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(c) => attacks::between(ksq, c).with(c),
            None => Bitboard::FULL,
        };
        let pinned = blockers(b, ksq, them, occ) & ours;

        gen_piece_moves(b, us, ksq, pinned, target & !ours, Bitboard::FULL, sink);
        // Declarations: a never-moved Knight's move, once per game.
        if !self.had_clown[us] {
            for from in self.unmoved & b.knights() & (ours - pinned) {
                for to in attacks::knight_attacks(from) & target & !ours {
                    sink.push(Move::new(from, to, MoveKind::Declare));
                }
            }
        }
        // Clowns, by their file.
        for from in b.by_role(Role::Clown) & ours {
            let mut t = clown_attacks(from, occ) & target & !ours;
            if pinned.contains(from) {
                t &= attacks::line(ksq, from);
            }
            sink.targets(from, t);
        }
        // Pawns; en passant here, since Clowns may attack the king after it.
        if let Some(ep) = core.ep {
            let mut no_ep = core.clone();
            no_ep.ep = None;
            gen_pawn_moves(&no_ep, ksq, pinned, target, &PROMOTION_ROLES, Bitboard::FULL, sink);
            let up: i32 = if us.is_white() { 8 } else { -8 };
            let cap_sq = Square::new((ep.index() as i32 - up) as u32);
            for from in attacks::pawn_attacks(them, ep) & b.pawns() & ours {
                let mut nb = b.clone();
                nb.take(cap_sq);
                nb.shift(from, ep);
                if king_safe(&nb, ksq, nb.occupied()) {
                    sink.push(Move::new(from, ep, MoveKind::EnPassant));
                }
            }
        } else {
            gen_pawn_moves(core, ksq, pinned, target, &PROMOTION_ROLES, Bitboard::FULL, sink);
        }
        if checkers.is_empty() {
            gen_castling(core, ksq, sink, |sq| attackers_to(b, sq, them, occ).any());
        }
        // Re-entry: never a capture; it only has to block a single check.
        let permits = self.reentry_permits();
        if permits.iter().any(|&p| p) {
            let squares = entry_zone(us) & !occ & target;
            for (role, ok) in [(Role::Knight, permits[0]), (Role::Bishop, permits[1]), (Role::Clown, permits[2])] {
                if ok {
                    for to in squares {
                        sink.push(Move::new(to, to, MoveKind::ReEntry(role)));
                    }
                }
            }
        }
    }

    /// Extra FEN fields that differ from what the board implies.
    fn extra_fields(&self) -> String {
        let b = &self.core.board;
        let mut out = String::new();
        if self.unmoved != home_knights(b) {
            out.push_str(" unmoved:");
            if self.unmoved.is_empty() {
                out.push('-');
            }
            for sq in [Square::B1, Square::G1, Square::B8, Square::G8] {
                if self.unmoved.contains(sq) {
                    out.push_str(&sq.to_string());
                }
            }
        }
        let implied = ByColor::new(
            (b.by_role(Role::Clown) & b.by_color(Color::White)).any(),
            (b.by_role(Role::Clown) & b.by_color(Color::Black)).any(),
        );
        if self.had_clown != implied {
            out.push_str(" clown:");
            out.push_str(&colors_field(self.had_clown));
        }
        if self.reentry_used.white || self.reentry_used.black {
            out.push_str(" reentry:");
            out.push_str(&colors_field(self.reentry_used));
        }
        if let Some(i) = self.last_captured {
            out.push_str(if i == HAND_KNIGHT { " lastcap:N" } else { " lastcap:B" });
        }
        if self.last_clown_move {
            out.push_str(" clownmoved:1");
        }
        out
    }
}

fn hand_from_pocket(p: Pocket) -> Result<ByColor<[u8; 2]>, FenError> {
    let mut hand = ByColor::new([0u8, 0u8], [0u8, 0u8]);
    for c in Color::ALL {
        for r in Role::ALL {
            let n = p[c][r.index()];
            if n == 0 {
                continue;
            }
            match r {
                Role::Knight => hand[c][HAND_KNIGHT] = n,
                Role::Bishop => hand[c][HAND_BISHOP] = n,
                _ => {
                    return Err(FenError::Variant(format!(
                        "a Clown Chess hand holds only captured Knights and Bishops (a captured Clown is written N), not '{}'",
                        Piece::new(c, r).char()
                    )))
                }
            }
        }
    }
    Ok(hand)
}

impl Position for Clown {
    fn variant(&self) -> Variant {
        Variant::Clown
    }
    crate::chess::std_core_accessors!();

    /// Board, side, castling, en passant, and the variant state that can
    /// still change the legal moves: unmoved Knights of a player who may
    /// still declare, whether each player has had a Clown and used the
    /// re-entry, the hands of players who may still re-enter, and which
    /// re-entries the last move leaves open to the side to move.
    fn pass(&self) -> Option<Clown> {
        // The last-move records describe the move the pass replaces.
        Some(Clown { core: self.core.passed()?, last_captured: None, last_clown_move: false, ..self.clone() })
    }
    fn hash(&self) -> u64 {
        let mut h = self.core.hash();
        for (i, sq) in [Square::B1, Square::G1, Square::B8, Square::G8].into_iter().enumerate() {
            let owner = if i < 2 { Color::White } else { Color::Black };
            if self.unmoved.contains(sq) && !self.had_clown[owner] {
                h ^= zobrist::extra(Z_UNMOVED + i);
            }
        }
        for c in Color::ALL {
            if self.had_clown[c] {
                h ^= zobrist::extra(Z_HAD_CLOWN + c.index());
            }
            if self.reentry_used[c] {
                h ^= zobrist::extra(Z_REENTRY_USED + c.index());
            } else {
                for i in 0..2 {
                    let n = self.hand[c][i].min(16) as usize;
                    if n > 0 {
                        h ^= zobrist::extra(Z_HAND + (c.index() * 2 + i) * 17 + n);
                    }
                }
            }
        }
        for (i, p) in self.reentry_permits().into_iter().enumerate() {
            if p {
                h ^= zobrist::extra(Z_PERMIT + i);
            }
        }
        h
    }
    #[inline]
    fn checkers(&self) -> Bitboard {
        self.core.checkers
    }
    fn legal_moves(&self, moves: &mut MoveList) {
        self.gen(moves);
    }
    fn noisy_moves(&self, moves: &mut MoveList) {
        let theirs = self.core.board.by_color(!self.core.turn);
        self.gen(&mut NoisySink { out: moves, theirs });
    }
    fn quiet_moves(&self, moves: &mut MoveList) {
        let theirs = self.core.board.by_color(!self.core.turn);
        self.gen(&mut QuietSink { out: moves, theirs });
    }
    fn attackers_with(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let b = &self.core.board;
        attackers_to(b, sq, Color::White, occ) | attackers_to(b, sq, Color::Black, occ)
    }
    fn count_legal_moves(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.gen(&mut c);
        c.0
    }

    fn play_unchecked(&mut self, m: Move) {
        let us = self.core.turn;
        let captured;
        let mut clown_move = false;
        match m.kind {
            MoveKind::ReEntry(role) => {
                let piece_role = if role == Role::Clown { Role::Clown } else { role };
                self.core.board.put(m.to, Piece::new(us, piece_role));
                let i = hand_index(role).expect("re-entry of a Knight, Bishop or Clown");
                self.hand[us][i] = self.hand[us][i].saturating_sub(1);
                self.reentry_used[us] = true;
                if role == Role::Clown {
                    self.had_clown[us] = true;
                }
                let core = &mut self.core;
                core.halfmoves = 0;
                core.ep = None;
                if us == Color::Black {
                    core.fullmoves += 1;
                }
                core.turn = !us;
                captured = None;
            }
            MoveKind::Declare => {
                captured = self.core.play_board(m);
                self.core.board.set(m.to, Piece::new(us, Role::Clown));
                self.had_clown[us] = true;
            }
            _ => {
                clown_move = self.core.board.role_at(m.from) == Some(Role::Clown);
                captured = self.core.play_board(m);
            }
        }
        self.unmoved &= !(Bitboard::from_square(m.from) | Bitboard::from_square(m.to));
        self.last_captured = None;
        if let Some(p) = captured {
            if let Some(i) = hand_index(p.role) {
                self.hand[p.color][i] = self.hand[p.color][i].saturating_add(1).min(16);
                self.last_captured = Some(i);
            }
        }
        self.last_clown_move = clown_move;
        if m.kind == MoveKind::DoublePush {
            self.core.set_ep_if_legal(m.from, m.to, king_safe);
        }
        self.update_checkers();
    }

    /// Dead only when no Clown is on the board, no captured piece may still
    /// re-enter, no Knight may still be declared, and the orthodox material
    /// cannot mate.
    fn is_dead_material(&self) -> bool {
        let b = &self.core.board;
        if b.by_role(Role::Clown).any() {
            return false;
        }
        for c in Color::ALL {
            if !self.reentry_used[c] && (self.hand[c][0] > 0 || self.hand[c][1] > 0) {
                return false;
            }
            if !self.had_clown[c] && (self.unmoved & b.knights() & b.by_color(c)).any() {
                return false;
            }
        }
        crate::chess::orthodox_dead_material(b)
    }

    fn fen(&self) -> String {
        let mut p = Pocket::default();
        for c in Color::ALL {
            p[c][Role::Knight.index()] = self.hand[c][HAND_KNIGHT];
            p[c][Role::Bishop.index()] = self.hand[c][HAND_BISHOP];
        }
        let pocket = fen::pocket_string(&p);
        let std = self.core.fen_fields();
        let (board, rest) = std.split_once(' ').expect("fen has fields");
        let mut s = String::from(board);
        if !pocket.is_empty() {
            s.push('[');
            s.push_str(&pocket);
            s.push(']');
        }
        s.push(' ');
        s.push_str(rest);
        s.push_str(&self.extra_fields());
        s
    }

    fn is_capture(&self, m: Move) -> bool {
        match m.kind {
            MoveKind::EnPassant => true,
            MoveKind::Normal | MoveKind::Promotion(_) | MoveKind::Declare => {
                self.core.board.color_at(m.to) == Some(!self.core.turn)
            }
            _ => false,
        }
    }
}

/// Clown Chess as a front end shows it: a hand of captured pieces beside the
/// board, for the one re-entry.
pub(crate) const INFO: crate::VariantInfo = crate::VariantInfo {
    id: "clown",
    name: "Clown Chess",
    summary: "Declare a Knight a Clown that moves like the piece of its file, and bring one lost piece back.",
    rules_page: "clown",
    aliases: &[],
    mirror_symmetric: false,
    pocket: Some("Hand (re-entry)"),
    pocket_note: "Re-entry: place the piece on a highlighted square of your entry zone.",
    options: &[],
};

impl crate::Describe for Clown {
    fn pocket(&self, color: Color) -> Vec<(Role, u8)> {
        let (n, b) = self.hand(color);
        [(Role::Knight, n), (Role::Bishop, b)].into_iter().filter(|&(_, k)| k > 0).collect()
    }

    fn state_lines(&self) -> Vec<String> {
        use crate::describe::{count_words, side};
        let mut out: Vec<String> = Color::ALL
            .into_iter()
            .map(|c| {
                let hand: Vec<String> = self.pocket(c).into_iter().map(|(r, n)| count_words(n, r)).collect();
                format!(
                    "{}: {}; re-entry {}; {}",
                    side(c),
                    if hand.is_empty() { "empty hand".to_string() } else { hand.join(", ") },
                    if self.reentry_used(c) { "used" } else { "unused" },
                    if self.had_clown(c) { "has had a Clown" } else { "no Clown yet" }
                )
            })
            .collect();
        let unmoved: Vec<String> = self.unmoved_knights().into_iter().map(|s| s.to_string()).collect();
        if !unmoved.is_empty() {
            out.push(format!("Knights that may still be declared a Clown: {}", unmoved.join(" ")));
        }
        out
    }

    fn pocket_refusal(&self, color: Color, role: Role) -> Option<String> {
        if let Some(why) = crate::describe::not_your_turn(self, color) {
            return Some(why);
        }
        if self.legal_move_list().iter().any(|m| m.is_drop() && m.kind == MoveKind::ReEntry(role)) {
            return None;
        }
        Some(if self.reentry_used(color) {
            "Re-entry used: one a game.".into()
        } else if self.last_move_by_clown() {
            "No re-entry straight after a Clown's move.".into()
        } else if self.last_captured() == Some(role) {
            format!("The {} just captured may re-enter from your next turn on.", crate::describe::role_word(role))
        } else {
            "No empty square of your entry zone keeps your King safe now.".into()
        })
    }

    fn move_note(&self, m: Move) -> Option<String> {
        let who = crate::describe::side(self.turn());
        match m.kind {
            MoveKind::ReEntry(r) | MoveKind::Drop(r) => {
                Some(format!("{who}'s {} re-enters from the hand on {}.", crate::describe::role_word(r), m.to))
            }
            MoveKind::Declare => Some(format!(
                "{who}'s Knight moves from {} to {} and is declared a Clown (one Clown a game).",
                m.from, m.to
            )),
            _ => None,
        }
    }
}
