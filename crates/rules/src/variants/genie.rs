//! Genie Of The Lamp (`genie`, `genie-ownhalf`): `docs/rules/genie.md`.
//!
//! Orthodox chess plus the Genie (`G`/`g`): a WFDA leaper that also has a
//! non-capturing double jump. A pawn enters the game as a Genie by a flip
//! (`d2d2g`, SAN `Gd2`) while its player has never had a Genie; promotion
//! takes pieces from the standard inventory (Q1 R2 B2 N2, G while no own
//! Genie is on the board).
//!
//! The generator is built from the orthodox building blocks of `chess.rs`
//! (pieces, pawns with the inventory's promotion list, castling with attack
//! detection that includes the Genie) plus the Genie's moves and the flips,
//! with the same check-evasion mask and pin logic. Two things differ from
//! orthodox chess and are handled here:
//!
//! - a Genie check cannot be blocked: the evasion mask of a Genie (or
//!   knight, or pawn) checker is the checker's square alone, never the
//!   square between;
//! - a pinned Genie could leap along the pin line past its king or past the
//!   pinner, so each move of a pinned Genie is verified on a copy of the
//!   board (rare; orthodox pinned pieces cannot jump).
//!
//! A Genie never pins (it leaps: nothing stands "between" it and the king),
//! so `Board::slider_blockers` (orthodox sliders only) is the full pin set.
//!
//! State beyond orthodox: the flip right of each colour (spent when that
//! player's first Genie appears, by a flip or a promotion). Zobrist keys
//! `extra(512)` (White may flip) and `extra(513)` (Black may flip).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::chess::{
    finish_setup, gen_castling, gen_king_steps, gen_pawn_moves, gen_piece_moves, orthodox_dead_material,
    orthodox_king_safe, MoveCounter, MoveSink, NoisySink, QuietSink, StdCore,
};
use crate::fen::{self, FenError};
use crate::moves::{Move, MoveKind, MoveList, UciMove};
use crate::position::{CastlingRights, Position};
use crate::types::{Color, Piece, Rank, Role, Square};
use crate::variant::Variant;
use crate::zobrist;

/// Letters a Genie FEN may hold.
const GENIE_ROLES: [Role; 7] =
    [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King, Role::Genie];

/// Zobrist index of "`color` may still flip".
const ZOBRIST_FLIP: usize = 512;

/// The standard inventory of promotable pieces, in the order promotions are
/// generated: how many of each one player owns in the standard set.
const INVENTORY: [(Role, u32); 4] = [(Role::Queen, 1), (Role::Rook, 2), (Role::Bishop, 2), (Role::Knight, 2)];

/// A position of Genie Of The Lamp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genie {
    core: StdCore,
    /// `genie-ownhalf`: flips only on ranks 2-4 (White) / 7-5 (Black).
    own_half: bool,
    /// Whether each colour (White, Black) may still flip a pawn: true until
    /// that player's first Genie appears.
    flips: [bool; 2],
}

impl Genie {
    /// The start position (`own_half` selects `genie-ownhalf`).
    pub fn new(own_half: bool) -> Genie {
        Genie { core: StdCore::standard(), own_half, flips: [true, true] }
    }

    /// Reads a FEN with the `flips:` extension of `docs/fen.md`.
    pub fn from_fen(s: &str, own_half: bool) -> Result<Genie, FenError> {
        let f = fen::FenFields::split(s)?;
        let mut core = StdCore::from_fen_fields(&f, &GENIE_ROLES)?;
        for c in Color::ALL {
            let n = core.board.by_piece(Piece::new(c, Role::Genie)).count();
            if n > 1 {
                return Err(FenError::Variant(format!("{c} has {n} Genies: only one Genie is allowed per player")));
            }
        }
        // Derived default: a side may flip iff it has no Genie on the board.
        let mut flips =
            [Color::White, Color::Black].map(|c| core.board.by_piece(Piece::new(c, Role::Genie)).is_empty());
        let mut seen = false;
        for field in &f.extra {
            let Some(value) = field.strip_prefix("flips:") else {
                return Err(FenError::UnexpectedField((*field).to_string()));
            };
            if seen {
                return Err(FenError::Variant("the flips: field is given twice".into()));
            }
            seen = true;
            flips = parse_flips(value)?;
        }
        for c in Color::ALL {
            if flips[c.index()] && core.board.by_piece(Piece::new(c, Role::Genie)).any() {
                return Err(FenError::Variant(format!(
                    "flips:{} says {c} may still flip, but {c} has a Genie on the board: the flip right is spent as soon as a player's first Genie appears",
                    flips_string(flips)
                )));
            }
        }
        finish_setup(&mut core, orthodox_king_safe)?;
        Ok(Genie { core, own_half, flips })
    }

    /// Whether `color` may still flip a pawn (has never had a Genie).
    pub fn may_flip(&self, color: Color) -> bool {
        self.flips[color.index()]
    }

    /// Whether this is `genie-ownhalf`.
    pub fn own_half(&self) -> bool {
        self.own_half
    }

    /// The squares where `color` may flip a pawn in this variant (by rank).
    fn flip_zone(&self, color: Color) -> Bitboard {
        if !self.own_half {
            return Bitboard::FULL;
        }
        [Rank::Second, Rank::Third, Rank::Fourth]
            .iter()
            .fold(Bitboard::EMPTY, |acc, r| acc | Bitboard::from_rank(r.relative(color)))
    }

    /// The roles a pawn of the side to move may promote to now (standard
    /// inventory), in generation order Q R B N G; `n` of `buf` are valid.
    #[inline]
    fn promotion_roles(&self, buf: &mut [Role; 5]) -> usize {
        let b = &self.core.board;
        let us = self.core.turn;
        let mut n = 0;
        for (role, max) in INVENTORY {
            if b.by_piece(Piece::new(us, role)).count() < max {
                buf[n] = role;
                n += 1;
            }
        }
        if b.by_piece(Piece::new(us, Role::Genie)).is_empty() {
            buf[n] = Role::Genie;
            n += 1;
        }
        n
    }

    /// Every legal move into `sink`.
    #[inline]
    fn generate<S: MoveSink>(&self, sink: &mut S) {
        let core = &self.core;
        let b = &core.board;
        let us = core.turn;
        let them = !us;
        let ksq = core.our_king();
        let ours = b.by_color(us);
        let occ = b.occupied();
        let checkers = core.checkers;

        gen_king_steps(b, ksq, ours, sink, |to, occ_no_king| b.is_attacked(to, them, occ_no_king));

        if checkers.more_than_one() {
            return;
        }
        // Check evasion: capture the checker, or block a slider's line. A
        // Genie's check cannot be blocked (it leaps), nor a knight's or pawn's.
        let target = match checkers.first() {
            Some(c) => {
                if (b.bishops_queens() | b.rooks_queens()).contains(c) {
                    attacks::between(ksq, c).with(c)
                } else {
                    Bitboard::from_square(c)
                }
            }
            None => Bitboard::FULL,
        };
        let pinned = b.slider_blockers(ksq, them, occ) & ours;

        gen_piece_moves(b, us, ksq, pinned, target & !ours, Bitboard::FULL, sink);
        let mut buf = [Role::Queen; 5];
        let n = self.promotion_roles(&mut buf);
        gen_pawn_moves(core, ksq, pinned, target, &buf[..n], Bitboard::FULL, sink);

        // Genie moves (at most one Genie per side, but any count works).
        for from in b.by_piece(Piece::new(us, Role::Genie)) {
            let leap = attacks::genie_attacks(from);
            // Double-jump finals are empty; those the leap reaches are the same move.
            let t = ((leap - ours) | (genie_double_jumps(from, occ) - leap)) & target;
            if pinned.contains(from) {
                for to in t {
                    if self.genie_move_safe(from, to, ksq) {
                        sink.push(Move::normal(from, to));
                    }
                }
            } else {
                sink.targets(from, t);
            }
        }

        if checkers.is_empty() {
            gen_castling(core, ksq, sink, |sq| b.is_attacked(sq, them, occ));
            // Flips: the piece stays on its square, so the occupancy and every
            // line to our king are unchanged, and a piece of ours turning into
            // another piece of ours changes no enemy attack: a flip is legal
            // exactly when we are not in check, pinned pawn or not.
            if self.flips[us.index()] {
                for sq in b.by_piece(Piece::new(us, Role::Pawn)) & self.flip_zone(us) {
                    sink.push(Move::new(sq, sq, MoveKind::Flip));
                }
            }
        }
    }

    /// Whether moving our (pinned) Genie from `from` to `to` leaves our king safe.
    fn genie_move_safe(&self, from: Square, to: Square, ksq: Square) -> bool {
        let mut nb = self.core.board.clone();
        let g = nb.take(from).expect("genie on from-square");
        nb.take(to);
        nb.put(to, g);
        let occ = nb.occupied();
        nb.attackers_to(ksq, !self.core.turn, occ).is_empty()
    }

    /// A reason specific to this variant why a well-formed move string is
    /// not legal, or `None` to use the generic explanation.
    fn explain_variant(&self, parsed: UciMove) -> Option<String> {
        let UciMove::Squares { from, to, suffix } = parsed else { return None };
        let b = &self.core.board;
        let us = self.core.turn;
        let our_pawn = b.piece_at(from) == Some(Piece::new(us, Role::Pawn));
        if from == to && suffix == Some('g') {
            if !our_pawn {
                return Some(format!(
                    "a flip turns one of {us}'s own pawns into a Genie, and there is no {us} pawn on {from}"
                ));
            }
            if !self.flips[us.index()] {
                return Some(format!(
                    "{us} has already had a Genie in this game, so the flip right is spent (a Genie can come back only by promotion)"
                ));
            }
            if !self.flip_zone(us).contains(from) {
                return Some(format!(
                    "in genie-ownhalf a pawn may be flipped only on its own half (ranks {} for {us}); the pawn on {from} has crossed the centre",
                    if us.is_white() { "2-4" } else { "7-5" }
                ));
            }
            if self.is_check() {
                return Some(format!(
                    "{us} is in check, and a flip never answers a check (the flipped piece stays on its square)"
                ));
            }
            return None;
        }
        let last = Rank::Eighth.relative(us);
        if !our_pawn || to.rank() != last {
            return None;
        }
        let legal = self.legal_move_list();
        let promos: Vec<Role> =
            legal.iter().filter(|m| m.from == from && m.to == to).filter_map(|m| m.promotion()).collect();
        let mut buf = [Role::Queen; 5];
        let n = self.promotion_roles(&mut buf);
        let wanted = suffix.and_then(Role::from_char);
        match wanted {
            Some(r) if !promos.is_empty() && !promos.contains(&r) => Some(match r {
                Role::Genie => format!("{us} already has a Genie on the board, so a pawn cannot promote to a Genie"),
                Role::Queen | Role::Rook | Role::Bishop | Role::Knight => {
                    let max = INVENTORY.iter().find(|(x, _)| *x == r).map_or(0, |(_, m)| *m);
                    format!(
                        "promotion to a {} is not available: {us} already has the standard set's {max} on the board (a promoted piece comes from the box); available: {}",
                        r.name(),
                        promos.iter().map(|p| p.upper_char().to_string()).collect::<Vec<_>>().join(" ")
                    )
                }
                _ => format!("a pawn cannot promote to a {}", r.name()),
            }),
            _ if n == 0 && promos.is_empty() => {
                // Only when the step itself would be a pawn move.
                let up: i32 = if us.is_white() { 8 } else { -8 };
                let push = from.offset(up) == Some(to) && b.piece_at(to).is_none();
                let capture = attacks::pawn_attacks(us, from).contains(to) && b.color_at(to) == Some(!us);
                if push || capture {
                    Some(format!(
                        "no promotion piece is available to {us} (the standard set's Q, R, B, N and a Genie are all on the board), so the pawn may not move to the last rank"
                    ))
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

/// Squares a Genie on `from` reaches by a double jump with occupancy `occ`
/// (which includes the Genie itself): two jumps, each over an occupied
/// adjacent square to the empty square directly beyond, any directions.
/// The intermediate and the final square are empty; the start square is
/// never a final (it is still in `occ`, and a jump can never pass over it:
/// that would need a step of two squares).
#[inline]
pub fn genie_double_jumps(from: Square, occ: Bitboard) -> Bitboard {
    let first = genie_jumps(Bitboard::from_square(from), occ);
    if first.is_empty() {
        return Bitboard::EMPTY;
    }
    genie_jumps(first, occ)
}

/// One jump from each square of `set`: over an occupied neighbour to the
/// empty square beyond, in the 8 directions.
#[inline]
fn genie_jumps(set: Bitboard, occ: Bitboard) -> Bitboard {
    let empty = !occ;
    let n = |b: Bitboard| b.north();
    let s = |b: Bitboard| b.south();
    let e = |b: Bitboard| b.east();
    let w = |b: Bitboard| b.west();
    let ne = |b: Bitboard| b.north().east();
    let nw = |b: Bitboard| b.north().west();
    let se = |b: Bitboard| b.south().east();
    let sw = |b: Bitboard| b.south().west();
    let step: [&dyn Fn(Bitboard) -> Bitboard; 8] = [&n, &s, &e, &w, &ne, &nw, &se, &sw];
    let mut out = Bitboard::EMPTY;
    for f in step {
        out |= f(f(set) & occ) & empty;
    }
    out
}

fn parse_flips(value: &str) -> Result<[bool; 2], FenError> {
    let bad = || FenError::Variant(format!("bad flips: field '{value}': expected w, b, wb or -"));
    if value == "-" {
        return Ok([false, false]);
    }
    let mut flips = [false, false];
    if value.is_empty() {
        return Err(bad());
    }
    for c in value.chars() {
        let i = match c {
            'w' => 0,
            'b' => 1,
            _ => return Err(bad()),
        };
        if flips[i] {
            return Err(bad());
        }
        flips[i] = true;
    }
    Ok(flips)
}

fn flips_string(flips: [bool; 2]) -> String {
    match flips {
        [true, true] => "wb".into(),
        [true, false] => "w".into(),
        [false, true] => "b".into(),
        [false, false] => "-".into(),
    }
}

impl Position for Genie {
    fn variant(&self) -> Variant {
        if self.own_half {
            Variant::GenieOwnHalf
        } else {
            Variant::Genie
        }
    }
    crate::chess::std_core_accessors!();
    #[inline]
    fn pass(&self) -> Option<Genie> {
        Some(Genie { core: self.core.passed()?, ..self.clone() })
    }
    fn hash(&self) -> u64 {
        let mut h = self.core.hash();
        if self.flips[0] {
            h ^= zobrist::extra(ZOBRIST_FLIP);
        }
        if self.flips[1] {
            h ^= zobrist::extra(ZOBRIST_FLIP + 1);
        }
        h
    }
    #[inline]
    fn checkers(&self) -> Bitboard {
        self.core.checkers
    }
    fn legal_moves(&self, moves: &mut MoveList) {
        self.generate(moves);
    }
    fn noisy_moves(&self, moves: &mut MoveList) {
        let theirs = self.core.board.by_color(!self.core.turn);
        self.generate(&mut NoisySink { out: moves, theirs });
    }
    fn quiet_moves(&self, moves: &mut MoveList) {
        let theirs = self.core.board.by_color(!self.core.turn);
        self.generate(&mut QuietSink { out: moves, theirs });
    }
    #[inline]
    fn count_legal_moves(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.generate(&mut c);
        c.0
    }
    fn play_unchecked(&mut self, m: Move) {
        let us = self.core.turn;
        match m.kind {
            MoveKind::Flip => {
                let core = &mut self.core;
                core.board.take(m.from);
                core.board.put(m.from, Piece::new(us, Role::Genie));
                // A pawn leaves the game: irreversible, like a pawn move.
                core.halfmoves = 0;
                core.ep = None;
                if us == Color::Black {
                    core.fullmoves += 1;
                }
                core.turn = !us;
                self.flips[us.index()] = false;
            }
            _ => {
                self.core.play_board(m);
                if m.kind == MoveKind::Promotion(Role::Genie) {
                    self.flips[us.index()] = false;
                }
                if m.kind == MoveKind::DoublePush {
                    self.core.set_ep_if_legal(m.from, m.to, orthodox_king_safe);
                }
            }
        }
        let k = self.core.our_king();
        self.core.checkers = self.core.board.attackers_to(k, !self.core.turn, self.core.board.occupied());
    }
    /// Orthodox dead material; a Genie is mating material (and a flip needs
    /// a pawn, which is mating material already).
    fn is_dead_material(&self) -> bool {
        orthodox_dead_material(&self.core.board)
    }
    /// The six fields, plus `flips:` when the rights differ from what the
    /// board implies (a side may flip iff it has no Genie on the board).
    fn fen(&self) -> String {
        let mut s = self.core.fen_fields();
        let implied =
            [Color::White, Color::Black].map(|c| self.core.board.by_piece(Piece::new(c, Role::Genie)).is_empty());
        if implied != self.flips {
            s.push_str(" flips:");
            s.push_str(&flips_string(self.flips));
        }
        s
    }
    fn explain_illegal(&self, parsed: UciMove) -> String {
        match self.explain_variant(parsed) {
            Some(why) => why,
            None => Generic(self.clone()).explain_illegal(parsed),
        }
    }
}

/// The same position seen through the trait's generic `explain_illegal`
/// (an override cannot call the default body directly).
#[derive(Clone, Debug)]
struct Generic(Genie);

impl Position for Generic {
    fn variant(&self) -> Variant {
        self.0.variant()
    }
    fn board(&self) -> &Board {
        self.0.board()
    }
    fn turn(&self) -> Color {
        self.0.turn()
    }
    fn castling(&self) -> CastlingRights {
        self.0.castling()
    }
    fn ep_square(&self) -> Option<Square> {
        self.0.ep_square()
    }
    fn halfmoves(&self) -> u32 {
        self.0.halfmoves()
    }
    fn fullmoves(&self) -> u32 {
        self.0.fullmoves()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn checkers(&self) -> Bitboard {
        self.0.checkers()
    }
    fn legal_moves(&self, moves: &mut MoveList) {
        self.0.legal_moves(moves)
    }
    fn play_unchecked(&mut self, m: Move) {
        self.0.play_unchecked(m)
    }
    fn is_dead_material(&self) -> bool {
        self.0.is_dead_material()
    }
    fn fen(&self) -> String {
        self.0.fen()
    }
}

/// Genie Of The Lamp (2021 rules) as a front end shows it.
pub(crate) const INFO: crate::VariantInfo = crate::VariantInfo {
    id: "genie",
    name: "Genie Of The Lamp",
    summary: "Once a game, turn one of your pawns into a Genie that leaps one or two squares in any direction.",
    rules_page: "genie",
    aliases: &[],
    mirror_symmetric: true,
    pocket: None,
    pocket_note: "",
    options: &[],
};

/// Genie Of The Lamp, the blog rules (flips on the own half only).
pub(crate) const INFO_OWN_HALF: crate::VariantInfo = crate::VariantInfo {
    id: "genie-ownhalf",
    name: "Genie Of The Lamp (own-half flips)",
    summary: "Genie Of The Lamp, but a pawn may be flipped only on your own half of the board.",
    aliases: &["genieownhalf", "genie_ownhalf"],
    ..INFO
};

impl crate::Describe for Genie {
    fn state_lines(&self) -> Vec<String> {
        let may: Vec<&str> = Color::ALL.into_iter().filter(|&c| self.may_flip(c)).map(crate::describe::side).collect();
        vec![format!(
            "May still flip a pawn into a Genie: {}{}",
            if may.is_empty() { "nobody".to_string() } else { may.join(", ") },
            if self.own_half { " (on its own half only)" } else { "" }
        )]
    }

    fn move_note(&self, m: Move) -> Option<String> {
        (m.kind == MoveKind::Flip).then(|| {
            format!("{}'s pawn on {} becomes a Genie (one flip a game).", crate::describe::side(self.turn()), m.to)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqs(b: Bitboard) -> Vec<String> {
        b.into_iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn double_jump_geometry() {
        // Genie a1, pieces on b1 and d1: a1 over b1 to c1, over d1 to e1.
        let mut occ = Bitboard::EMPTY;
        for s in [Square::A1, Square::B1, Square::D1] {
            occ.set(s);
        }
        assert_eq!(sqs(genie_double_jumps(Square::A1, occ)), vec!["e1"]);
        // Nothing adjacent: no jump at all.
        assert!(genie_double_jumps(Square::D4, Bitboard::from_square(Square::D4)).is_empty());
        // Only one occupied neighbour (b1): after c1 the only piece next to the
        // Genie is b1, and jumping it back lands on the start square: refused.
        let occ = Bitboard::from_square(Square::A1).with(Square::B1);
        assert!(genie_double_jumps(Square::A1, occ).is_empty());
    }

    #[test]
    fn jumps_do_not_wrap_around_the_board() {
        // Genie h1 with a piece on a2 (the square "east" of h1 if files wrapped).
        let occ = Bitboard::from_square(Square::H1).with(Square::A2).with(Square::G1).with(Square::E1);
        // h1 over g1 to f1, over e1 to d1.
        assert_eq!(sqs(genie_double_jumps(Square::H1, occ)), vec!["d1"]);
    }
}
