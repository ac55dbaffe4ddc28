//! The board evaluation every variant shares: material, tables, mobility,
//! pawn structure, threats, king safety, the endgame scale.

use super::*;

#[inline]
#[cfg(test)]
pub(super) fn taper(s: S, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (24 - phase)) / 24
}

/// Game phase (0..=24) of the pieces on the board.
#[cfg(test)]
pub(super) fn phase_of(b: &Board) -> i32 {
    Role::ALL.iter().map(|&r| PHASE[r.index()] * b.by_role(r).count() as i32).sum::<i32>().min(24)
}

pub(super) fn attacks_of(role: Role, sq: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, occ),
        Role::Rook => attacks::rook_attacks(sq, occ),
        Role::Queen => attacks::queen_attacks(sq, occ),
        Role::Genie => attacks::genie_attacks(sq),
        Role::Clown => chimera_rules::attacks::clown_attacks(sq, occ),
        Role::King => attacks::king_attacks(sq),
        Role::Pawn => Bitboard::EMPTY,
    }
}

/// King-attack weight of each attacking role.
pub(super) const KING_ATTACK_WEIGHT: [i32; 8] = [0, 2, 2, 3, 5, 0, 2, 2];

/// Squares of the pieces (not pawns, not Kings) of `c`.
pub(super) fn pieces_of(b: &Board, c: Color) -> Bitboard {
    b.by_color(c) & !b.by_role(Role::Pawn) & !b.by_role(Role::King)
}

/// The board evaluation shared by every variant: adds its terms to `acc`
/// (White's minus Black's) and returns the game phase. `genesis` is the
/// position when the board is a Genesis board: its pawns attack their four
/// diagonal neighbours and have no pawn structure, it has its own
/// piece-square tables, and reserves count in material and phase.
pub fn board_eval(b: &Board, genesis: Option<&Genesis>, acc: &mut Acc) -> i32 {
    let occ = b.occupied();
    let mut phase = 0;
    let pawns = [b.by_piece(Piece::new(Color::White, Role::Pawn)), b.by_piece(Piece::new(Color::Black, Role::Pawn))];
    let mut pawn_att = [Bitboard::EMPTY; 2];
    for c in Color::ALL {
        for sq in pawns[c.index()] {
            pawn_att[c.index()] |=
                if genesis.is_some() { attacks::ferz_attacks(sq) } else { attacks::pawn_attacks(c, sq) };
        }
    }
    // Attacks per side: everything, by minor pieces, by Rooks.
    let mut att = pawn_att;
    let mut att_minor = [Bitboard::EMPTY; 2];
    let mut att_rook = [Bitboard::EMPTY; 2];
    // Attacks of everything but the King (Genesis placement danger).
    let mut att_no_king = pawn_att;
    for c in Color::ALL {
        acc.side(c);
        let ci = c.index();
        let them = !c;
        let mob_area = !b.by_color(c) & !pawn_att[them.index()];
        let king_zone = b.king_of(them).map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));
        let (mut attackers, mut weight) = (0, 0);
        for role in Role::ALL {
            for sq in b.by_piece(Piece::new(c, role)) {
                phase += PHASE[role.index()];
                let rel = sq.relative(c).index();
                match (genesis.is_some(), role) {
                    (true, Role::Pawn) => {
                        add!(acc, 1; genesis_pawn);
                        add!(acc, 1; genesis_pst[0][rel]);
                    }
                    (true, r) => {
                        add!(acc, 1; material[r.index()]);
                        add!(acc, 1; genesis_pst[r.index().min(5)][rel]);
                    }
                    (false, Role::Pawn) => {} // in the pawn structure below
                    (false, Role::Clown) => {
                        add!(acc, 1; clown_by_file[clown_file_index(sq.file() as u8)]);
                        add!(acc, 1; pst[7][rel]);
                    }
                    (false, r) => {
                        add!(acc, 1; material[r.index()]);
                        add!(acc, 1; pst[r.index()][rel]);
                    }
                }
                if role == Role::Pawn {
                    continue;
                }
                let a = attacks_of(role, sq, occ);
                att[ci] |= a;
                match role {
                    Role::Knight | Role::Bishop | Role::Genie | Role::Clown => att_minor[ci] |= a,
                    Role::Rook => att_rook[ci] |= a,
                    _ => {}
                }
                if role == Role::King {
                    continue;
                }
                att_no_king[ci] |= a;
                let n = ((a & mob_area).count() as usize).min(MOB_MAX - 1);
                add!(acc, 1; mobility[role.index()][n]);
                if (a & king_zone).any() {
                    attackers += 1;
                    weight += KING_ATTACK_WEIGHT[role.index()].max(1);
                }
                if genesis.is_none() {
                    let rank = sq.relative(c).rank() as usize;
                    if matches!(role, Role::Knight | Role::Bishop)
                        && (3..=5).contains(&rank)
                        && pawn_att[ci].contains(sq)
                        && (pawns[them.index()] & front_span(c, sq) & adjacent_files(sq.file() as usize)).is_empty()
                    {
                        add!(acc, 1; outpost[usize::from(role == Role::Bishop)]);
                    }
                    if role == Role::Rook {
                        let file = Bitboard::from_file(sq.file());
                        if (file & pawns[ci]).is_empty() {
                            if (file & pawns[them.index()]).is_empty() {
                                add!(acc, 1; rook_open);
                            } else {
                                add!(acc, 1; rook_half_open);
                            }
                        }
                    }
                }
            }
        }
        if attackers >= 2 {
            add!(acc, 1; king_danger[(weight as usize).min(DANGER_MAX - 1)]);
        }
        if let Some(pos) = genesis {
            for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                let n = pos.reserve_count(c, role) as i32;
                phase += PHASE[role.index()] * n;
                if n > 0 {
                    add!(acc, n; reserve[role.index()]);
                }
            }
            // Bishop pair: two bishops that are or can be on both colours
            // (a reserve Bishop may be placed on either).
            let bishops = b.by_piece(Piece::new(c, Role::Bishop));
            let light = (bishops & Bitboard::LIGHT_SQUARES).count();
            let dark = (bishops & Bitboard::DARK_SQUARES).count();
            let res = pos.reserve_count(c, Role::Bishop) as u32;
            if light + dark + res >= 2 && (light > 0 || res > 0) && (dark > 0 || res > 0) {
                add!(acc, 1; bishop_pair);
            }
        } else {
            if b.by_piece(Piece::new(c, Role::Bishop)).more_than_one() {
                add!(acc, 1; bishop_pair);
            }
            if let Some(k) = b.king_of(c) {
                let shield = attacks::king_attacks(k) | attacks::king_attacks(k).flip_if(c);
                add!(acc, 1; pawn_shield[(shield & pawns[ci]).count().min(3) as usize]);
            }
        }
    }
    // Threats, now that both sides' attacks are known.
    for c in Color::ALL {
        acc.side(c);
        let (ci, ti) = (c.index(), (!c).index());
        let theirs = pieces_of(b, !c);
        let n = (theirs & pawn_att[ci]).count() as i32;
        if n > 0 {
            add!(acc, n; threat_by_pawn);
        }
        for r in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::Genie, Role::Clown] {
            let their_r = b.by_piece(Piece::new(!c, r));
            let (m, k) = ((their_r & att_minor[ci]).count() as i32, (their_r & att_rook[ci]).count() as i32);
            if m > 0 {
                add!(acc, m; threat_by_minor[r.index()]);
            }
            if k > 0 {
                add!(acc, k; threat_by_rook[r.index()]);
            }
        }
        let n = (theirs & att[ci] & !att[ti]).count() as i32;
        if n > 0 {
            add!(acc, n; hanging);
        }
    }
    if let Some(pos) = genesis {
        for c in Color::ALL {
            let Some(k) = b.king_of(!c) else { continue };
            acc.side(c);
            let open = (attacks::king_attacks(k) & !occ & !att_no_king[(!c).index()]).count() as usize;
            for (i, role) in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen].into_iter().enumerate() {
                let n = pos.reserve_count(c, role) as i32;
                if n > 0 {
                    add!(acc, n; genesis_drop_danger[i][open.min(8)]);
                }
            }
        }
    } else {
        pawn_terms(b, pawns, acc);
    }
    acc.side(Color::White);
    phase.min(24)
}

/// A pawn-structure cache entry: the two pawn sets, their (midgame,
/// endgame) score for White and the passed pawns.
#[derive(Copy, Clone, Default)]
pub(super) struct PawnEntry {
    pawns: [u64; 2],
    score: S,
    passed: u64,
}

pub(super) const PAWN_CACHE: usize = 1 << 13;

thread_local! {
    /// Per-thread pawn hash: the pawn structure depends only on the pawns,
    /// which change in few moves, so most evaluations find it here.
    static PAWN_TABLE: RefCell<Vec<PawnEntry>> = RefCell::new(vec![PawnEntry::default(); PAWN_CACHE]);
}

/// The rank weight of a passed pawn's king-distance terms, by relative rank.
pub(super) const PASSED_KING_WEIGHT: [i32; 8] = [0, 0, 0, 1, 2, 3, 4, 0];

/// Orthodox pawns: material, piece-square values, doubled, isolated and passed pawns
/// (cached by pawn sets when `acc` allows it), then the passed pawns' King
/// distances and free paths (which depend on the other pieces).
pub(super) fn pawn_terms(b: &Board, pawns: [Bitboard; 2], acc: &mut Acc) {
    let key = [pawns[0].0, pawns[1].0];
    let slot = ((key[0] ^ key[1].rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 51) as usize % PAWN_CACHE;
    let cached = if acc.cache {
        PAWN_TABLE.with(|t| t.borrow().get(slot).copied().filter(|e| e.pawns == key && e.pawns != [0, 0]))
    } else {
        None
    };
    let passed = if let Some(e) = cached {
        acc.total += e.score;
        Bitboard(e.passed)
    } else {
        let before = acc.total;
        let mut passed = Bitboard::EMPTY;
        for c in Color::ALL {
            acc.side(c);
            let (ours, theirs) = (pawns[c.index()], pawns[(!c).index()]);
            for sq in ours {
                let file_bb = Bitboard::from_file(sq.file());
                let adj = adjacent_files(sq.file() as usize);
                add!(acc, 1; material[0]);
                add!(acc, 1; pst[0][sq.relative(c).index()]);
                if (ours & file_bb).more_than_one() {
                    add!(acc, -1; doubled_pawn); // counted for each pawn of a doubled file
                }
                if (ours & adj).is_empty() {
                    add!(acc, -1; isolated_pawn);
                }
                let span = front_span(c, sq) & (file_bb | adj);
                if (theirs & span).is_empty() && (ours & span & file_bb).is_empty() {
                    add!(acc, 1; passed[sq.relative(c).rank() as usize]);
                    passed.set(sq);
                }
            }
        }
        acc.side(Color::White);
        if acc.cache {
            let score = S(acc.total.0 - before.0, acc.total.1 - before.1);
            PAWN_TABLE.with(|t| {
                if let Some(e) = t.borrow_mut().get_mut(slot) {
                    *e = PawnEntry { pawns: key, score, passed: passed.0 };
                }
            });
        }
        passed
    };
    for sq in passed {
        let Some(c) = b.color_at(sq) else { continue };
        acc.side(c);
        let rank = sq.relative(c).rank() as usize;
        let w = PASSED_KING_WEIGHT[rank];
        let front = if c == Color::White { sq.offset(8) } else { sq.offset(-8) };
        let Some(front) = front else { continue };
        if w > 0 {
            if let Some(k) = b.king_of(c) {
                add!(acc, w * k.distance(front) as i32; passed_own_king);
            }
            if let Some(k) = b.king_of(!c) {
                add!(acc, w * k.distance(front) as i32; passed_their_king);
            }
        }
        let file_front = front_span(c, sq) & Bitboard::from_file(sq.file());
        if (file_front & b.occupied()).is_empty() {
            add!(acc, 1; passed_free[rank]);
        }
    }
    acc.side(Color::White);
}

/// Endgame scale (out of [`SCALE_NORMAL`]) of a board whose endgame sum for
/// White is `eg`: opposite-coloured Bishops (half with nothing else, three
/// quarters with other pieces); a stronger side without pawns that is at
/// most a minor piece ahead in pieces (a quarter), or has at most one minor
/// piece (nothing: it cannot mate).
pub fn scale_factor(b: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let value = |c: Color| -> i32 {
        pieces_of(b, c).into_iter().map(|sq| b.role_at(sq).map_or(0, |r| simple_value(r, sq))).sum()
    };
    let strong_pawns = b.by_piece(Piece::new(strong, Role::Pawn));
    if strong_pawns.is_empty() {
        let (s, w) = (value(strong), value(weak));
        if s <= MATERIAL[Role::Bishop.index()].0 {
            return 0;
        }
        if s - w <= MATERIAL[Role::Bishop.index()].0 {
            return 16;
        }
    }
    let wb = b.by_piece(Piece::new(Color::White, Role::Bishop));
    let bb = b.by_piece(Piece::new(Color::Black, Role::Bishop));
    if let (Some(w), Some(k)) = (wb.single(), bb.single()) {
        if w.is_dark() != k.is_dark() {
            let others = (pieces_of(b, Color::White) | pieces_of(b, Color::Black)) & !b.by_role(Role::Bishop);
            return if others.is_empty() { 32 } else { 48 };
        }
    }
    SCALE_NORMAL
}

pub(super) trait FlipIf {
    fn flip_if(self, c: Color) -> Bitboard;
}
impl FlipIf for Bitboard {
    /// The set shifted one rank towards the enemy of `c`.
    fn flip_if(self, c: Color) -> Bitboard {
        if c == Color::White {
            self.north()
        } else {
            self.south()
        }
    }
}

pub(super) fn adjacent_files(f: usize) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    if f > 0 {
        b |= Bitboard(0x0101_0101_0101_0101 << (f - 1));
    }
    if f < 7 {
        b |= Bitboard(0x0101_0101_0101_0101 << (f + 1));
    }
    b
}

/// Squares strictly in front of `sq` from `c`'s point of view (all files).
pub(super) fn front_span(c: Color, sq: Square) -> Bitboard {
    let r = sq.rank() as u32;
    match c {
        Color::White => {
            if r == 7 {
                Bitboard::EMPTY
            } else {
                Bitboard(!0u64 << (8 * (r + 1)))
            }
        }
        Color::Black => Bitboard((1u64 << (8 * r)) - 1),
    }
}
