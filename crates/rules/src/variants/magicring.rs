//! Magic Ring Chess (`docs/rules/magicring.md`): orthodox chess plus two
//! rings that lend their carrier a power from an agreed list.
//!
//! Correctness first: moves are generated pseudo-legally (own moves, ring
//! powers, pawn moves, castling, passes) and each is kept only if the
//! mover's King is not attacked afterwards, with an attack test that knows
//! the ring powers (`Board::attackers_to` does not).
//!
//! State beyond the orthodox core: each ring's carrier square and level
//! (index 0 = White's ring, 1 = Black's ring), the tainted pawns, and the
//! en-passant square when it matters (see `ep_rel`).
//!
//! Zobrist layout (keys `zobrist::extra(900..2000)`):
//! - 900 + ring * 64 + square: ring carrier;
//! - 1028 + ring * 9 + level: ring level;
//! - 1046 + square: tainted pawn;
//! - 1110 + index * 8 + role: the power list.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::chess::{StdCore, PROMOTION_ROLES};
use crate::fen::{self, FenError};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Color, File, Rank, Role, Square};
use crate::variant::{RingPowers, Variant};
use crate::zobrist;
use std::str::FromStr;

/// A Magic Ring Chess position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MagicRing {
    core: StdCore,
    powers: RingPowers,
    /// Carrier square of White's ring (0) and Black's ring (1).
    carrier: [Square; 2],
    /// Level of each ring: 0 = never moved, else 1..=len(list).
    level: [u8; 2],
    /// Pawns that have made a power move (they never promote or double-step).
    tainted: Bitboard,
    /// The square a ring-less pawn just passed with a double step, kept when
    /// it changes the legal moves: some en-passant capture onto it is legal,
    /// or a pawn beside it has a diagonal power whose quiet move onto it is
    /// replaced by the (illegal) en-passant capture. `core.ep` holds it only
    /// when a capture is legal (what `ep_square()` reports).
    ep_rel: Option<Square>,
}

/// The squares a piece moving as `role` attacks from `sq`.
#[inline]
fn role_attacks(role: Role, sq: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Queen => attacks::queen_attacks(sq, occ),
        Role::Rook => attacks::rook_attacks(sq, occ),
        Role::Bishop => attacks::bishop_attacks(sq, occ),
        Role::Knight => attacks::knight_attacks(sq),
        Role::King => attacks::king_attacks(sq),
        _ => Bitboard::EMPTY,
    }
}

impl MagicRing {
    /// The start position with the given power list.
    pub fn new(powers: RingPowers) -> MagicRing {
        let mut p = MagicRing {
            core: StdCore::standard(),
            powers,
            carrier: [Square::E1, Square::E8],
            level: [0, 0],
            tainted: Bitboard::EMPTY,
            ep_rel: None,
        };
        p.update_checkers();
        p
    }

    /// The power list this game is played with.
    pub fn powers(&self) -> &RingPowers {
        &self.powers
    }

    /// Carrier square and level of the ring originally owned by `owner`.
    pub fn ring(&self, owner: Color) -> (Square, u8) {
        (self.carrier[owner.index()], self.level[owner.index()])
    }

    /// The tainted pawns (they may not promote nor double-step).
    pub fn tainted(&self) -> Bitboard {
        self.tainted
    }

    /// The powers the piece on `sq` holds from its rings (none on a King).
    pub fn powers_at(&self, sq: Square) -> Vec<Role> {
        let mut v = Vec::new();
        if self.core.board.role_at(sq).is_none_or(|r| r == Role::King) {
            return v;
        }
        for i in 0..2 {
            if self.carrier[i] == sq {
                if let Some(p) = self.powers.power(self.level[i]) {
                    v.push(p);
                }
            }
        }
        v
    }

    /// The level a ring at `level` reaches when it changes carrier.
    #[inline]
    fn next_level(&self, level: u8) -> u8 {
        (level % self.powers.len() as u8) + 1
    }

    /// Squares the ring powers of the piece on `sq` reach (none on a King).
    #[inline]
    fn power_targets(&self, b: &Board, sq: Square, occ: Bitboard) -> Bitboard {
        let mut t = Bitboard::EMPTY;
        if b.role_at(sq) == Some(Role::King) {
            return t;
        }
        for i in 0..2 {
            if self.carrier[i] == sq {
                if let Some(p) = self.powers.power(self.level[i]) {
                    t |= role_attacks(p, sq, occ);
                }
            }
        }
        t
    }

    /// Every piece of `by` attacking `sq`: own moves plus ring powers.
    #[inline]
    fn attackers(&self, b: &Board, sq: Square, by: Color) -> Bitboard {
        let occ = b.occupied();
        let mut a = b.attackers_to(sq, by, occ);
        for i in 0..2 {
            let c = self.carrier[i];
            if b.color_at(c) == Some(by) && b.role_at(c) != Some(Role::King) {
                if let Some(p) = self.powers.power(self.level[i]) {
                    if role_attacks(p, c, occ).contains(sq) {
                        a.set(c);
                    }
                }
            }
        }
        a
    }

    #[inline]
    fn king_attacked(&self, c: Color) -> bool {
        match self.core.board.king_of(c) {
            Some(k) => self.attackers(&self.core.board, k, !c).any(),
            None => false,
        }
    }

    fn update_checkers(&mut self) {
        let us = self.core.turn;
        self.core.checkers = match self.core.board.king_of(us) {
            Some(k) => self.attackers(&self.core.board, k, !us),
            None => Bitboard::EMPTY,
        };
    }

    /// Whether any ring on the piece on `sq` gives a power that moves
    /// diagonally one square (Queen, Bishop, King).
    fn has_diagonal_power(&self, sq: Square) -> bool {
        (0..2).any(|i| {
            self.carrier[i] == sq
                && matches!(self.powers.power(self.level[i]), Some(Role::Queen | Role::Bishop | Role::King))
        })
    }

    /// Whether the move a pawn of `us` makes from `from` to `to` (kind
    /// `Normal`) has a pawn's geometry: a push onto an empty square or a
    /// diagonal capture. Anything else is a power move.
    #[inline]
    fn is_pawn_geometry(b: &Board, us: Color, from: Square, to: Square) -> bool {
        let up = if us.is_white() { 8 } else { -8 };
        (from.offset(up) == Some(to) && b.piece_at(to).is_none())
            || (attacks::pawn_attacks(us, from).contains(to) && b.color_at(to) == Some(!us))
    }

    /// Pseudo-legal moves: everything but the own-King-safety test.
    fn gen_pseudo(&self, out: &mut MoveList) {
        let b = &self.core.board;
        let us = self.core.turn;
        let them = !us;
        let ours = b.by_color(us);
        let theirs = b.by_color(them);
        let occ = b.occupied();
        let last = Rank::Eighth.relative(us);
        let second = Rank::Second.relative(us);
        let up = if us.is_white() { 8 } else { -8 };

        for from in ours {
            let role = b.role_at(from).expect("own piece");
            if role == Role::Pawn {
                let tainted = self.tainted.contains(from);
                // Squares a pawn move reaches: the power may not use them.
                let mut pawn_sqs = Bitboard::EMPTY;
                let pawn_to = |to: Square, out: &mut MoveList| {
                    if to.rank() == last && !tainted {
                        for &r in &PROMOTION_ROLES {
                            out.push(Move::new(from, to, MoveKind::Promotion(r)));
                        }
                    } else {
                        out.push(Move::normal(from, to));
                    }
                };
                if from.rank() != last {
                    let one = from.offset(up).expect("not on the last rank");
                    if !occ.contains(one) {
                        pawn_sqs.set(one);
                        pawn_to(one, out);
                        if !tainted && from.rank() == second {
                            let two = one.offset(up).expect("from the second rank");
                            if !occ.contains(two) {
                                pawn_sqs.set(two);
                                out.push(Move::new(from, two, MoveKind::DoublePush));
                            }
                        }
                    }
                    for to in attacks::pawn_attacks(us, from) & theirs {
                        pawn_sqs.set(to);
                        pawn_to(to, out);
                    }
                    if let Some(ep) = self.ep_rel {
                        if attacks::pawn_attacks(us, from).contains(ep) {
                            pawn_sqs.set(ep);
                            out.push(Move::new(from, ep, MoveKind::EnPassant));
                        }
                    }
                }
                for to in self.power_targets(b, from, occ) & !ours & !pawn_sqs {
                    out.push(Move::normal(from, to));
                }
            } else {
                let own = match role {
                    Role::King => attacks::king_attacks(from),
                    r => role_attacks(r, from, occ),
                };
                for to in (own | self.power_targets(b, from, occ)) & !ours {
                    out.push(Move::normal(from, to));
                }
            }
        }

        let in_check = self.core.checkers.any();
        // Castling: not in check, path empty and not attacked (ring powers count).
        if !in_check && self.core.castling.any_for(us) {
            let ksq = self.core.our_king();
            let rank = us.back_rank();
            for king_side in [true, false] {
                if !self.core.castling.has(us, king_side) {
                    continue;
                }
                let (rook_sq, king_to, path) = if king_side {
                    (Square::from_coords(File::H, rank), Square::from_coords(File::G, rank), [File::F, File::G])
                } else {
                    (Square::from_coords(File::A, rank), Square::from_coords(File::C, rank), [File::D, File::C])
                };
                if b.piece_at(rook_sq) != Some(crate::Piece::new(us, Role::Rook)) {
                    continue;
                }
                if (attacks::between(ksq, rook_sq) & occ).any() {
                    continue;
                }
                if path.iter().any(|&f| self.attackers(b, Square::from_coords(f, rank), them).any()) {
                    continue;
                }
                out.push(Move::new(ksq, king_to, MoveKind::Castle));
            }
        }

        // Ring passes: legal exactly when not in check.
        if !in_check {
            let both = self.carrier[0] == self.carrier[1];
            for i in 0..2 {
                let c = self.carrier[i];
                if b.color_at(c) != Some(us) {
                    continue;
                }
                let tag = if both { Some(if i == 0 { Color::White } else { Color::Black }) } else { None };
                for to in attacks::king_attacks(c) & ours {
                    out.push(Move::new(c, to, MoveKind::RingPass(tag)));
                }
            }
        }
    }

    /// Plays the move's effects on placement, rings, taint, rights and
    /// counters; the caller then sets the en-passant square and checkers.
    fn apply(&mut self, m: Move) {
        let us = self.core.turn;
        if let MoveKind::RingPass(which) = m.kind {
            let i = match which {
                Some(c) => c.index(),
                None => {
                    if self.carrier[0] == m.from {
                        0
                    } else {
                        1
                    }
                }
            };
            self.carrier[i] = m.to;
            self.level[i] = self.next_level(self.level[i]);
            self.core.halfmoves += 1;
            self.core.ep = None;
            if us == Color::Black {
                self.core.fullmoves += 1;
            }
            self.core.turn = !us;
            self.ep_rel = None;
            return;
        }
        let b = &self.core.board;
        let mover = b.role_at(m.from).expect("piece on from-square");
        let power_move =
            mover == Role::Pawn && m.kind == MoveKind::Normal && !Self::is_pawn_geometry(b, us, m.from, m.to);
        let cap_sq = if m.kind == MoveKind::EnPassant { Square::from_coords(m.to.file(), m.from.rank()) } else { m.to };
        let rook_move = if m.kind == MoveKind::Castle {
            let rank = m.from.rank();
            Some(if m.to.file() > m.from.file() {
                (Square::from_coords(File::H, rank), Square::from_coords(File::F, rank))
            } else {
                (Square::from_coords(File::A, rank), Square::from_coords(File::D, rank))
            })
        } else {
            None
        };
        let halfmoves = self.core.halfmoves;
        let captured = self.core.play_board(m).is_some();
        for i in 0..2 {
            if captured && self.carrier[i] == cap_sq {
                self.carrier[i] = m.to;
                self.level[i] = self.next_level(self.level[i]);
            } else if self.carrier[i] == m.from {
                self.carrier[i] = m.to;
            } else if let Some((rf, rt)) = rook_move {
                if self.carrier[i] == rf {
                    self.carrier[i] = rt;
                }
            }
        }
        if captured {
            self.tainted.clear(cap_sq);
        }
        if mover == Role::Pawn {
            if self.tainted.contains(m.from) {
                self.tainted.clear(m.from);
                self.tainted.set(m.to);
            }
            if power_move {
                self.tainted.set(m.to);
            }
        }
        let zeroing = captured || (mover == Role::Pawn && !power_move);
        self.core.halfmoves = if zeroing { 0 } else { halfmoves + 1 };
        self.ep_rel = None;
    }

    /// Appends the moves of `pseudo` that leave the mover's King safe.
    fn keep_legal(&self, pseudo: &MoveList, moves: &mut MoveList) {
        // Shortcut, sound because no move of ours adds power to an enemy
        // piece (rings only come to us by captures and passes stay on our
        // side): when not in check, a move of a piece other than the King
        // (not en passant, not castling) can only expose the King along a
        // line through its from-square; off those lines it is legal.
        let ksq = self.core.our_king();
        let lines = attacks::queen_attacks(ksq, Bitboard::EMPTY);
        let quiet = self.core.checkers.is_empty();
        for &m in pseudo.iter() {
            let simple = quiet
                && matches!(m.kind, MoveKind::Normal | MoveKind::DoublePush | MoveKind::Promotion(_))
                && m.from != ksq
                && !lines.contains(m.from);
            if simple || self.is_safe_move(m) {
                moves.push(m);
            }
        }
    }

    /// Whether a pseudo-legal move leaves the mover's King safe.
    fn is_safe_move(&self, m: Move) -> bool {
        let us = self.core.turn;
        if let MoveKind::RingPass(_) = m.kind {
            return self.core.checkers.is_empty();
        }
        let mut p = self.clone();
        p.apply(m);
        !p.king_attacked(us)
    }

    /// After a double step from `from` to `to` by a pawn without a ring:
    /// sets the en-passant square when it matters (see `ep_rel`).
    fn set_ep(&mut self, from: Square, to: Square) {
        let stm = self.core.turn;
        let ep = Square::new(((from.index() + to.index()) / 2) as u32);
        let capturers = attacks::pawn_attacks(!stm, ep) & self.core.board.pawns() & self.core.board.by_color(stm);
        if capturers.is_empty() {
            return;
        }
        self.ep_rel = Some(ep);
        let mut legal = false;
        let mut blocks = false;
        for c in capturers {
            if self.is_safe_move(Move::new(c, ep, MoveKind::EnPassant)) {
                legal = true;
            }
            if self.has_diagonal_power(c) {
                blocks = true;
            }
        }
        self.core.ep = if legal { Some(ep) } else { None };
        if !legal && !blocks {
            self.ep_rel = None;
        }
    }

    /// Reads a FEN (extensions in `docs/fen.md`); `powers` is the game's
    /// list unless the FEN has a `powers:` field.
    pub fn from_fen(s: &str, powers: &RingPowers) -> Result<MagicRing, FenError> {
        // The `name:value` fields may follow the en-passant field directly
        // when the counters are left out.
        let tokens: Vec<&str> = s.split_whitespace().collect();
        let mut named: Vec<&str> = Vec::new();
        let mut plain: Vec<&str> = Vec::new();
        for (i, &t) in tokens.iter().enumerate() {
            if i >= 4 && t.contains(':') {
                named.push(t);
            } else {
                plain.push(t);
            }
        }
        let plain = plain.join(" ");
        let f = fen::FenFields::split(&plain)?;
        if let Some(extra) = f.extra.first() {
            return Err(FenError::UnexpectedField((*extra).to_string()));
        }
        let (board, pocket) = fen::parse_board(f.board, &fen::ORTHODOX_ROLES)?;
        if pocket.is_some() {
            return Err(FenError::Variant("Magic Ring Chess has no reserve: remove the [...] part".into()));
        }
        fen::check_kings(&board)?;
        let turn = fen::parse_turn(f.turn)?;
        let castling = fen::parse_castling(f.castling, &board)?;
        let ep_field = fen::parse_ep(f.ep, &board, turn)?;
        let halfmoves = fen::parse_counter(f.halfmoves, "halfmove clock")?;
        let fullmoves = fen::parse_counter(f.fullmoves, "fullmove number")?.max(1);

        let mut rings: Option<[(Square, u8); 2]> = None;
        let mut tainted: Option<Bitboard> = None;
        let mut list: Option<RingPowers> = None;
        for field in &named {
            let (name, value) = field
                .split_once(':')
                .ok_or_else(|| FenError::Variant(format!("extra FEN field '{field}' is not name:value")))?;
            let dup = || FenError::Variant(format!("FEN field '{name}:' given twice"));
            match name {
                "rings" => {
                    if rings.is_some() {
                        return Err(dup());
                    }
                    rings = Some(parse_rings(value)?);
                }
                "tainted" => {
                    if tainted.is_some() {
                        return Err(dup());
                    }
                    tainted = Some(parse_tainted(value)?);
                }
                "powers" => {
                    if list.is_some() {
                        return Err(dup());
                    }
                    list = Some(RingPowers::from_str(value).map_err(FenError::RingPowers)?);
                }
                _ => return Err(FenError::UnexpectedField((*field).to_string())),
            }
        }
        let powers = list.unwrap_or_else(|| powers.clone());
        let kings = [board.king_of(Color::White).expect("checked"), board.king_of(Color::Black).expect("checked")];
        let rings = rings.unwrap_or([(kings[0], 0), (kings[1], 0)]);
        for (i, &(sq, level)) in rings.iter().enumerate() {
            let owner = if i == 0 { Color::White } else { Color::Black };
            if board.piece_at(sq).is_none() {
                return Err(FenError::Variant(format!("{owner}'s ring is on {sq}, an empty square")));
            }
            if level as usize > powers.len() {
                return Err(FenError::Variant(format!(
                    "{owner}'s ring has level {level} but the power list {powers} has {} levels",
                    powers.len()
                )));
            }
            if level == 0 && sq != kings[i] {
                return Err(FenError::Variant(format!(
                    "{owner}'s ring has level 0 (never moved) so it must be on {owner}'s King, not on {sq}"
                )));
            }
        }
        let tainted = tainted.unwrap_or(Bitboard::EMPTY);
        for sq in tainted {
            if board.role_at(sq) != Some(Role::Pawn) {
                return Err(FenError::Variant(format!("tainted square {sq} holds no pawn")));
            }
        }
        let back = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
        if let Some(sq) = (board.pawns() & back & !tainted).first() {
            return Err(FenError::Variant(format!(
                "pawn on {sq}: only a tainted pawn (moved there by a ring power) can stand on the first or last rank"
            )));
        }
        let mut pos = MagicRing {
            core: StdCore { board, turn, castling, ep: None, halfmoves, fullmoves, checkers: Bitboard::EMPTY },
            powers,
            carrier: [rings[0].0, rings[1].0],
            level: [rings[0].1, rings[1].1],
            tainted,
            ep_rel: None,
        };
        if pos.king_attacked(!turn) {
            return Err(FenError::OppositeCheck);
        }
        pos.update_checkers();
        if let Some(ep) = ep_field {
            let dir: i32 = if turn == Color::White { -8 } else { 8 };
            let to = ep.offset(dir).expect("validated ep square");
            let from = ep.offset(-dir).expect("validated ep square");
            if pos.tainted.contains(to) {
                return Err(FenError::ImpossibleEpSquare {
                    square: ep,
                    why: "the pawn in front of it is tainted and cannot double-step",
                });
            }
            // A pawn with a ring cannot be taken en passant: the square is dropped.
            if pos.carrier[0] != to && pos.carrier[1] != to {
                pos.set_ep(from, to);
            }
        }
        Ok(pos)
    }

    /// Whether the rings stand where the start position has them.
    fn rings_default(&self) -> bool {
        let b = &self.core.board;
        self.level == [0, 0]
            && Some(self.carrier[0]) == b.king_of(Color::White)
            && Some(self.carrier[1]) == b.king_of(Color::Black)
    }
}

fn parse_rings(v: &str) -> Result<[(Square, u8); 2], FenError> {
    let bad = || {
        FenError::Variant(format!(
            "bad rings field '{v}': expected White's ring then Black's as square.level, like rings:e1.0,d7.2"
        ))
    };
    let parts: Vec<&str> = v.split(',').collect();
    if parts.len() != 2 {
        return Err(bad());
    }
    let mut out = [(Square::A1, 0u8); 2];
    for (i, p) in parts.iter().enumerate() {
        let (sq, lv) = p.split_once('.').ok_or_else(bad)?;
        let sq = Square::parse(sq).ok_or_else(bad)?;
        let lv: u8 = lv.parse().map_err(|_| bad())?;
        if lv > 8 {
            return Err(bad());
        }
        out[i] = (sq, lv);
    }
    Ok(out)
}

fn parse_tainted(v: &str) -> Result<Bitboard, FenError> {
    let mut bb = Bitboard::EMPTY;
    if v == "-" || v.is_empty() {
        return Ok(bb);
    }
    for p in v.split(',') {
        let sq = Square::parse(p).ok_or_else(|| {
            FenError::Variant(format!("bad tainted field '{v}': expected squares like tainted:e4,c6"))
        })?;
        bb.set(sq);
    }
    Ok(bb)
}

impl Position for MagicRing {
    fn variant(&self) -> Variant {
        Variant::MagicRing
    }
    crate::chess::std_core_accessors!();
    /// A pawn with a ring power may move back and forth, and every pawn
    /// move resets the halfmove clock (the fifty-move rule counts it), so a
    /// repeat can lie before the last clock reset: look back over the whole
    /// game. (Forward pawn steps, captures and the tainting of a pawn are
    /// in the placement or the hash, so older positions never match by
    /// accident.)
    fn repetition_horizon(&self) -> u32 {
        u32::MAX
    }
    fn pass(&self) -> Option<MagicRing> {
        Some(MagicRing { core: self.core.passed()?, ep_rel: None, ..self.clone() })
    }
    fn hash(&self) -> u64 {
        let mut h = self.core.board.hash() ^ zobrist::side(self.core.turn) ^ zobrist::castling(self.core.castling.0);
        if let Some(ep) = self.ep_rel {
            h ^= zobrist::ep_file(ep.file().index());
        }
        for i in 0..2 {
            h ^= zobrist::extra(900 + i * 64 + self.carrier[i].index());
            h ^= zobrist::extra(1028 + i * 9 + self.level[i] as usize);
        }
        for sq in self.tainted {
            h ^= zobrist::extra(1046 + sq.index());
        }
        for (i, r) in self.powers.roles().iter().enumerate() {
            h ^= zobrist::extra(1110 + i * 8 + r.index());
        }
        h
    }
    #[inline]
    fn checkers(&self) -> Bitboard {
        self.core.checkers
    }
    fn legal_moves(&self, moves: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.gen_pseudo(&mut pseudo);
        self.keep_legal(&pseudo, moves);
    }
    fn noisy_moves(&self, moves: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.gen_pseudo(&mut pseudo);
        let theirs = self.core.board.by_color(!self.core.turn);
        pseudo.retain(|m| match m.kind {
            MoveKind::EnPassant | MoveKind::Promotion(_) => true,
            MoveKind::Normal => theirs.contains(m.to),
            _ => false,
        });
        self.keep_legal(&pseudo, moves);
    }
    /// Own moves and ring powers of both colours onto `sq`, with the
    /// occupancy `occ` (pieces outside it count as gone; their rings too).
    fn attackers_with(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let b = &self.core.board;
        let mut a = (b.attackers_to(sq, Color::White, occ) | b.attackers_to(sq, Color::Black, occ)) & occ;
        for i in 0..2 {
            let c = self.carrier[i];
            if occ.contains(c) && b.role_at(c).is_some_and(|r| r != Role::King) {
                if let Some(p) = self.powers.power(self.level[i]) {
                    if role_attacks(p, c, occ).contains(sq) {
                        a.set(c);
                    }
                }
            }
        }
        a
    }
    fn play_unchecked(&mut self, m: Move) {
        let ring_on_mover = self.carrier.contains(&m.from);
        self.apply(m);
        if m.kind == MoveKind::DoublePush && !ring_on_mover {
            self.set_ep(m.from, m.to);
        }
        self.update_checkers();
    }
    /// Only K v K: any other piece may still gain a ring's power.
    fn is_dead_material(&self) -> bool {
        self.core.board.occupied().count() == 2
    }
    fn fen(&self) -> String {
        let c = &self.core;
        let mut s = format!(
            "{} {} {} {} {} {}",
            c.board.board_fen(),
            c.turn.char(),
            c.castling.fen(),
            self.ep_rel.map_or("-".to_string(), |s| s.to_string()),
            c.halfmoves,
            c.fullmoves
        );
        if !self.rings_default() {
            s.push_str(&format!(" rings:{}.{},{}.{}", self.carrier[0], self.level[0], self.carrier[1], self.level[1]));
        }
        if self.tainted.any() {
            s.push_str(" tainted:");
            s.push_str(&self.tainted.into_iter().map(|q| q.to_string()).collect::<Vec<_>>().join(","));
        }
        if !self.powers.is_default() {
            s.push_str(&format!(" powers:{}", self.powers));
        }
        s
    }
    /// Captures, and pawn moves in the rules' sense (push, double step,
    /// diagonal capture, en passant, promotion); a pawn's power move is not
    /// a pawn move (see `docs/rules/magicring.md`).
    fn is_zeroing(&self, m: Move) -> bool {
        if self.is_capture(m) {
            return true;
        }
        match m.kind {
            MoveKind::DoublePush | MoveKind::EnPassant | MoveKind::Promotion(_) => true,
            MoveKind::Normal => {
                self.core.board.role_at(m.from) == Some(Role::Pawn)
                    && Self::is_pawn_geometry(&self.core.board, self.core.turn, m.from, m.to)
            }
            _ => false,
        }
    }
}

/// The power list: the one rule option of Magic Ring.
const RING_POWERS: crate::OptionSpec = crate::OptionSpec {
    key: "ring_powers",
    uci: "RingPowers",
    pgn_tag: "RingPowers",
    label: "Ring powers",
    help: "The power of each ring level, in order: 1 to 8 letters of Q R B N K (default QNRB).",
    default: RingPowers::DEFAULT,
    pattern: "[QRBNKqrbnk]{1,8}",
    get: |o| o.ring_powers.to_string(),
    set: |o, v| {
        o.ring_powers = v.parse().map_err(|e: crate::ParseRingPowersError| e.to_string())?;
        Ok(())
    },
};

/// Magic Ring Chess as a front end shows it: the power list as its option.
pub(crate) const INFO: crate::VariantInfo = crate::VariantInfo {
    id: "magicring",
    name: "Magic Ring Chess",
    summary: "Rings on the Kings gain power each time they change hands. Pass them, capture them.",
    rules_page: "magicring",
    aliases: &["magic-ring", "magic_ring"],
    mirror_symmetric: true,
    pocket: None,
    pocket_note: "",
    options: &[RING_POWERS],
};

impl crate::Describe for MagicRing {
    fn rule_options(&self) -> crate::RuleOptions {
        crate::RuleOptions { ring_powers: self.powers.clone() }
    }

    fn state_lines(&self) -> Vec<String> {
        use crate::describe::{role_word, side};
        let mut out: Vec<String> = Color::ALL
            .into_iter()
            .map(|owner| {
                // A ring is named by its first owner; after a capture the
                // other side's piece carries it, and that side uses it.
                let (sq, level) = self.ring(owner);
                let on = self.board().piece_at(sq);
                let holder = on.map_or(owner, |p| p.color);
                let power = match self.powers.power(level) {
                    Some(r) if on.is_some_and(|p| p.role == Role::King) => {
                        format!("{} power (unused on a King)", role_word(r))
                    }
                    Some(r) => format!("{} power", role_word(r)),
                    None => "no power yet".into(),
                };
                let carrier =
                    on.map_or(sq.to_string(), |p| format!("{}'s {} on {sq}", side(holder), role_word(p.role)));
                let taken =
                    if holder != owner { format!(" (captured: {} holds it now)", side(holder)) } else { String::new() };
                format!("{}'s ring{taken}: {carrier}, level {level}, {power}", side(owner))
            })
            .collect();
        let tainted: Vec<String> = self.tainted.into_iter().map(|s| s.to_string()).collect();
        if !tainted.is_empty() {
            out.push(format!("Tainted pawns (no promotion, no double step): {}", tainted.join(", ")));
        }
        out.push(format!("Powers by level: {}", self.powers));
        out
    }

    fn move_note(&self, m: Move) -> Option<String> {
        use crate::describe::{role_word, side};
        let me = self.turn();
        let who = side(me);
        let mut notes: Vec<String> = Vec::new();
        let captured = self.board().color_at(m.to).is_some_and(|c| c != me);
        if let MoveKind::RingPass(_) = m.kind {
            notes.push(format!("{who} passes a ring from {} to {}; the ring goes up one level.", m.from, m.to));
        }
        if self.board().role_at(m.from) == Some(Role::Pawn) && matches!(m.kind, MoveKind::Normal | MoveKind::DoublePush)
        {
            let (ff, fr) = (m.from.index() % 8, m.from.index() / 8);
            let (tf, tr) = (m.to.index() % 8, m.to.index() / 8);
            let forward = if me == Color::White { tr as i32 - fr as i32 } else { fr as i32 - tr as i32 };
            let pawn_move =
                (ff == tf && (forward == 1 || forward == 2)) || (ff.abs_diff(tf) == 1 && forward == 1 && captured);
            if !pawn_move {
                let powers: Vec<String> = self.powers_at(m.from).into_iter().map(role_word).collect();
                notes.push(format!(
                    "The pawn on {} {} {} with its ring's power ({}): a power move, so the pawn is tainted and may never promote.",
                    m.from,
                    if captured { "captures on" } else { "moves to" },
                    m.to,
                    powers.join(" or ")
                ));
            }
        }
        if captured && !matches!(m.kind, MoveKind::RingPass(_)) {
            for owner in Color::ALL {
                if self.ring(owner).0 == m.to {
                    notes.push(format!(
                        "{who} captures the carrier of {}'s ring on {}: the ring passes to the capturing piece, one level up, and {who} controls it now.",
                        side(owner),
                        m.to
                    ));
                }
            }
        }
        (!notes.is_empty()).then(|| notes.join(" "))
    }
}
