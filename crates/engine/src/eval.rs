//! Evaluation: a trait every variant struct implements ([`Evaluate`]), and
//! the orthodox terms they share. Values and method: `docs/engine.md`.
//!
//! The search knows no variant: it calls `P::evaluate`, `P::piece_value`,
//! `P::see_value` and `P::null_move` (the attack sets of SEE come from the
//! rules crate's `Position::attackers_with`). A variant adds its knowledge by
//! overriding these in its `impl Evaluate for ...` below (the hook).

use chimera_rules::attacks;
use chimera_rules::{Bitboard, Board, Chess, Clown, Color, Genesis, Genie, MagicRing, Piece, Position, Role, Square};

/// Midgame / endgame pair.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl std::ops::Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::AddAssign for S {
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::SubAssign for S {
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

/// Every tuned value of the evaluation: the values `chimera tune` measures
/// from self-play games (Texel's method, `crate::tune`, `docs/engine.md`).
/// The engine reads [`PARAMS`]; the tuner evaluates with trial copies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Material per role (index `Role::index`): P N B R Q K(0) Genie, and an
    /// unused Clown slot (Clowns are valued by file below).
    pub material: [S; 8],
    /// A Clown moves as the piece of its file's starting square
    /// (docs/rules/clown.md), so it is valued by file pair: a/h (rook),
    /// b/g (knight), c/f (bishop), d (queen limited to 4 squares), e
    /// (non-royal king). Index: [`clown_file_index`].
    pub clown_by_file: [S; 5],
    /// Mobility per attacked square above the role's baseline (`MOB_BASE`).
    pub mobility: [S; 8],
    pub bishop_pair: S,
    /// Penalties per pawn (orthodox pawn structure).
    pub doubled_pawn: S,
    pub isolated_pawn: S,
    /// Bonus for the side to move (midgame only in effect: tapered like the rest).
    pub tempo: i32,
    /// Genie: the unspent right to flip a pawn into a Genie, while the side has a pawn.
    pub flip_right: S,
    /// Clown: the unused re-entry with a piece in hand, percent of that piece's value.
    pub reentry_pct: i32,
    /// Clown: the unspent right to declare a Clown with an unmoved Knight.
    pub declare_right: S,
    /// Genesis: a pawn on the board (flat: no promotion, no rank terms).
    pub genesis_pawn: S,
    /// Genesis: a piece in reserve, per role P N B R Q (the placement phase:
    /// a reserve piece can go on any empty square but costs a move).
    pub reserve: [S; 5],
    /// Magic Ring: what the power of a ring is worth on a carrier that lacks
    /// it, per power role (index `Role::index`; Q R B N K used). A King
    /// power on a Rook or Bishop (partly covered) counts half.
    pub ring_power: [S; 8],
    /// Magic Ring: a ring on its King (no power now) is worth this percentage
    /// of the power it grants once passed (the next level).
    pub ring_on_king_pct: i32,
    /// Orthodox pawn by relative rank (index 0-7; 0, 1 and 7 unused).
    pub pawn_rank: [S; 8],
    /// Orthodox pawn on d/e, ranks 3-5 (midgame).
    pub pawn_center: i32,
    /// Passed pawn by relative rank (index 1-6).
    pub passed: [S; 8],
    /// Centralisation: per step of Chebyshev distance from the centre
    /// (0-3), subtracted; per role index (N, B, Q, K endgame, Genie = N,
    /// Clown). The constant parts stay fixed (they only shift material).
    pub center_slope: [S; 8],
    /// Rook on the 7th rank, and on the d/e files (midgame).
    pub rook_seventh: i32,
    pub rook_center_file: i32,
    /// King: bonus for a wing (a-c, g-h) file, penalty per rank above the
    /// first (ranks 2-4), midgame.
    pub king_wing: i32,
    pub king_rank: i32,
    /// King attack: (sum of attacker weights)² × this / 8, capped at 400,
    /// midgame, when two or more pieces hit the zone around the enemy King.
    pub king_attack: i32,
    /// Own pawns next to and in front of the King (up to 3), midgame.
    pub pawn_shield: i32,
}

/// The values the engine plays with: the variant values (Genie, Clown by
/// file, flip/re-entry/declare rights, Genesis pawns and reserve, ring
/// powers) as fitted by `chimera tune` on 6,000 self-play games; the
/// orthodox values hand-set (their fit did not improve the held-out games).
/// Method, data and both sets of numbers: `docs/engine.md`, "Tuning".
/// Regenerate with `chimera tune ... --out FILE` and paste here.
pub const PARAMS: Params = Params {
    material: [S(90, 110), S(320, 300), S(330, 320), S(480, 540), S(950, 1000), S(0, 0), S(573, 553), S(0, 0)],
    clown_by_file: [S(472, 532), S(330, 304), S(352, 324), S(620, 681), S(262, 302)],
    mobility: [S(0, 0), S(4, 4), S(5, 5), S(2, 4), S(1, 2), S(0, 0), S(3, 3), S(2, 2)],
    bishop_pair: S(25, 45),
    doubled_pawn: S(6, 12),
    isolated_pawn: S(10, 15),
    tempo: 10,
    flip_right: S(69, 80),
    reentry_pct: 70,
    declare_right: S(21, 5),
    genesis_pawn: S(140, 14),
    reserve: [S(94, 36), S(300, 272), S(337, 304), S(488, 530), S(1039, 1004)],
    ring_power: [S(0, 0), S(242, 218), S(240, 240), S(366, 414), S(657, 692), S(175, 210), S(0, 0), S(0, 0)],
    ring_on_king_pct: 30,
    pawn_rank: [S(0, 0), S(0, 0), S(3, 5), S(8, 12), S(18, 25), S(32, 45), S(55, 75), S(0, 0)],
    pawn_center: 12,
    passed: [S(0, 0), S(5, 10), S(8, 18), S(14, 32), S(28, 55), S(48, 90), S(75, 140), S(0, 0)],
    center_slope: [S(0, 0), S(12, 8), S(5, 4), S(0, 0), S(3, 6), S(0, 12), S(12, 8), S(4, 4)],
    rook_seventh: 20,
    rook_center_file: 5,
    king_wing: 25,
    king_rank: 25,
    king_attack: 16,
    pawn_shield: 8,
};

/// Material per role of [`PARAMS`].
pub const MATERIAL: [S; 8] = PARAMS.material;

/// Index of a file into `Params::clown_by_file` (a/h, b/g, c/f, d, e).
pub const fn clown_file_index(file: u8) -> usize {
    [0, 1, 2, 3, 4, 2, 1, 0][file as usize & 7]
}

/// Game phase weight per role (24 = full middlegame in orthodox chess).
const PHASE: [i32; 8] = [0, 1, 1, 2, 4, 0, 2, 1];

/// A single-number value of a piece on a square, for move ordering and SEE.
pub fn simple_value(role: Role, sq: Square) -> i32 {
    match role {
        Role::King => 20_000,
        Role::Clown => PARAMS.clown_by_file[clown_file_index(sq.file() as u8)].0,
        r => MATERIAL[r.index()].0,
    }
}

/// Midgame material of the pieces on `b` (King excluded), for `turn`.
pub fn board_material(b: &Board, turn: Color) -> i32 {
    let mut v = 0;
    for sq in b.occupied() {
        let (Some(role), Some(c)) = (b.role_at(sq), b.color_at(sq)) else {
            continue;
        };
        if role != Role::King {
            v += if c == turn { 1 } else { -1 } * simple_value(role, sq);
        }
    }
    v
}

/// What the search needs from a variant beyond the rules.
pub trait Evaluate: Position {
    /// Score in centipawns from the side to move's point of view.
    #[inline]
    fn evaluate(&self) -> i32 {
        self.evaluate_with(&PARAMS)
    }

    /// [`Evaluate::evaluate`] with the values `p` (the tuner's trial values).
    fn evaluate_with(&self, p: &Params) -> i32 {
        orthodox_eval(p, self.board(), self.turn())
    }

    /// Value of the piece `role` standing on `sq` (ordering, SEE, delta pruning).
    fn piece_value(&self, role: Role, sq: Square) -> i32 {
        simple_value(role, sq)
    }

    /// Value of the piece `role` standing on `sq` in static exchange
    /// evaluation: `piece_value`, unless a variant's values depend on state
    /// an exchange changes (Magic Ring: a ring changes level when it
    /// changes hands, so SEE counts the pieces alone).
    fn see_value(&self, role: Role, sq: Square) -> i32 {
        self.piece_value(role, sq)
    }

    /// Material only, in centipawns for the side to move: the evaluation of
    /// the `Baseline` yardstick. Midgame values of the pieces on the board
    /// (the Clown by its file); Genesis adds its reserves.
    fn material(&self) -> i32 {
        board_material(self.board(), self.turn())
    }

    /// The position with the side to move passing, when passing is safe to
    /// assume for null-move pruning; `None` disables null-move pruning.
    fn null_move(&self) -> Option<Self> {
        None
    }
}

impl Evaluate for Chess {
    fn null_move(&self) -> Option<Chess> {
        self.pass()
    }
}

/// The FEN of `fen` with the other side to move: en passant cleared, the
/// halfmove clock reset (repetition must not look across the pass), and the
/// extra fields whose name starts with one of `drop` removed (state that
/// describes "the last move", which a pass replaces). The tests check the
/// rules crate's `Position::pass` against this FEN round trip (the FEN
/// readers check everything, e.g. that the side not to move is not in check).
#[cfg(test)]
fn pass_fen(fen: &str, drop: &[&str]) -> Option<String> {
    let mut f: Vec<&str> = fen.split(' ').collect();
    if f.len() < 6 {
        return None;
    }
    f[1] = if f[1] == "w" { "b" } else { "w" };
    f[3] = "-";
    f[4] = "0";
    let mut out: Vec<&str> = f[..6].to_vec();
    out.extend(f[6..].iter().filter(|x| !drop.iter().any(|d| x.starts_with(d))));
    Some(out.join(" "))
}

/// Genie: the board evaluation already values the Genie (WFDA leaper) and
/// its mobility. Added: the right to flip a pawn into a Genie while the side
/// still has a pawn (a tempo away from turning ~100 cp into ~470 cp).
/// `attackers_to` sees every capturing piece (the Genie included; its double
/// jump never captures, and a leaper has no x-rays), so SEE is exact.
/// Null move: a flip or a Genie move is an ordinary move, nothing in the
/// variant makes passing less safe than in orthodox chess.
impl Evaluate for Genie {
    fn evaluate_with(&self, p: &Params) -> i32 {
        let b = self.board();
        let mut v = orthodox_eval(p, b, self.turn());
        for c in Color::ALL {
            let pawns = b.by_piece(Piece::new(c, Role::Pawn));
            if self.may_flip(c) && pawns.any() {
                let t = taper(p.flip_right, phase_of(b));
                v += if c == self.turn() { t } else { -t };
            }
        }
        v
    }

    fn null_move(&self) -> Option<Genie> {
        self.pass()
    }
}

/// Genesis: material on the board and in reserve (see `genesis_eval`).
/// SEE is not exact: Genesis pawns attack their four diagonal neighbours,
/// which `Board::attackers_to` (orthodox pawns) does not know.
/// Null move: off while either King is still in reserve (the first moves are
/// forced King placements; "passing" there is meaningless) and in check;
/// otherwise a pass is as safe as in chess, safer while reserves last (a
/// placement is almost always available, so zugzwang is rare).
impl Evaluate for Genesis {
    fn evaluate_with(&self, p: &Params) -> i32 {
        genesis_eval(p, self)
    }

    fn material(&self) -> i32 {
        let mut v = board_material(self.board(), self.turn());
        for c in Color::ALL {
            let sign = if c == self.turn() { 1 } else { -1 };
            for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                v += sign * self.reserve_count(c, role) as i32 * PARAMS.material[role.index()].0;
            }
        }
        v
    }

    fn null_move(&self) -> Option<Genesis> {
        let b = self.board();
        if b.king_of(Color::White).is_none() || b.king_of(Color::Black).is_none() {
            return None;
        }
        self.pass()
    }
}

/// Clown: the board evaluation values the Clown by its file and (through
/// `attacks_of`) its mobility and king attacks. Added: the unused re-entry
/// while a Knight or Bishop is in hand, and the unused right to declare a
/// Clown while an unmoved Knight exists. SEE is not exact (`attackers_to`
/// does not see Clowns). Null move: by FEN, dropping `lastcap:` and
/// `clownmoved:` (they describe the last move, which the pass replaces).
impl Evaluate for Clown {
    fn evaluate_with(&self, p: &Params) -> i32 {
        let b = self.board();
        let mut v = orthodox_eval(p, b, self.turn());
        let phase = phase_of(b);
        for c in Color::ALL {
            let mut s = S(0, 0);
            let (knights, bishops) = self.hand(c);
            if !self.reentry_used(c) && (knights > 0 || bishops > 0) {
                let best = if bishops > 0 { Role::Bishop } else { Role::Knight };
                let m = p.material[best.index()];
                s += S(m.0 * p.reentry_pct / 100, m.1 * p.reentry_pct / 100);
            }
            let home = if c == Color::White { Bitboard(0xFF) } else { Bitboard(0xFF << 56) };
            if !self.had_clown(c) && (self.unmoved_knights() & home).any() {
                s += p.declare_right;
            }
            let t = taper(s, phase);
            v += if c == self.turn() { t } else { -t };
        }
        v
    }

    fn null_move(&self) -> Option<Clown> {
        self.pass()
    }
}

/// Magic Ring: the board evaluation plus each ring, valued by the power its
/// level grants on its carrier (`ring_value`). `piece_value` adds the ring
/// of a carrier (capturing it takes the ring), so capture ordering sees it.
/// SEE is not exact (`attackers_to` does not see ring powers). Null move: by
/// FEN; a side holding a ring next to one of its pieces always has a pass,
/// so zugzwang is no more likely than in chess.
impl Evaluate for MagicRing {
    fn evaluate_with(&self, p: &Params) -> i32 {
        let b = self.board();
        let mut v = orthodox_eval(p, b, self.turn());
        let phase = phase_of(b);
        for owner in Color::ALL {
            let (sq, level) = self.ring(owner);
            let Some(holder) = b.color_at(sq) else {
                continue;
            };
            let t = taper(ring_value(p, self, sq, level), phase);
            v += if holder == self.turn() { t } else { -t };
        }
        v
    }

    fn see_value(&self, role: Role, sq: Square) -> i32 {
        simple_value(role, sq)
    }

    fn piece_value(&self, role: Role, sq: Square) -> i32 {
        let mut v = simple_value(role, sq);
        if role != Role::King {
            for owner in Color::ALL {
                let (rsq, level) = self.ring(owner);
                if rsq == sq {
                    v += ring_value(&PARAMS, self, sq, level).0;
                }
            }
        }
        v
    }

    fn null_move(&self) -> Option<MagicRing> {
        self.pass()
    }
}

/// What a ring at `level` on the piece standing on `sq` is worth to its
/// holder: the power it grants there (`Params::ring_power`), nothing when
/// the carrier already moves that way (same role; R, B or K power on a
/// Queen), half for a King power on a Rook or Bishop (partly covered); on
/// a King, `ring_on_king_pct` of the power the next level grants.
pub fn ring_value(p: &Params, pos: &MagicRing, sq: Square, level: u8) -> S {
    let b = pos.board();
    let Some(role) = b.role_at(sq) else {
        return S(0, 0);
    };
    let powers = pos.powers();
    let pct = |s: S, pct: i32| S(s.0 * pct / 100, s.1 * pct / 100);
    if role == Role::King {
        let next = (level as usize % powers.len()) as u8 + 1;
        return powers.power(next).map_or(S(0, 0), |power| pct(p.ring_power[power.index()], p.ring_on_king_pct));
    }
    let Some(power) = powers.power(level) else {
        return S(0, 0);
    };
    let covered = power == role || (role == Role::Queen && matches!(power, Role::Rook | Role::Bishop | Role::King));
    if covered {
        S(0, 0)
    } else if power == Role::King && matches!(role, Role::Rook | Role::Bishop) {
        pct(p.ring_power[power.index()], 50)
    } else {
        p.ring_power[power.index()]
    }
}

/// Game phase (0..=24) of the pieces on the board.
fn phase_of(b: &Board) -> i32 {
    Role::ALL.iter().map(|&r| PHASE[r.index()] * b.by_role(r).count() as i32).sum::<i32>().min(24)
}

#[inline]
fn taper(s: S, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (24 - phase)) / 24
}

/// Genesis evaluation, side to move's point of view. Board pieces: material
/// (pawns flat), centralisation, mobility, king attack (Genesis pawns attack
/// their four diagonal neighbours). Reserve pieces: `RESERVE_PCT` of their
/// value; they count in the game phase like pieces on the board.
pub fn genesis_eval(p: &Params, pos: &Genesis) -> i32 {
    let b = pos.board();
    let occ = b.occupied();
    let mut total = S(0, 0);
    let mut phase = 0;
    let mut pawn_att = [Bitboard::EMPTY; 2];
    for c in Color::ALL {
        for sq in b.by_piece(Piece::new(c, Role::Pawn)) {
            pawn_att[c.index()] |= attacks::ferz_attacks(sq);
        }
    }
    for c in Color::ALL {
        let mut s = S(0, 0);
        let them = !c;
        let mob_area = !b.by_color(c) & !pawn_att[them.index()];
        let king_zone = b.king_of(them).map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));
        let (mut attackers, mut weight) = (0, 0);
        for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
            for sq in b.by_piece(Piece::new(c, role)) {
                phase += PHASE[role.index()];
                let cd = CENTER_DIST(sq);
                s += match role {
                    Role::Pawn => p.genesis_pawn + S(6 - 3 * cd, 4 - 2 * cd),
                    // The King's rank means nothing here: only centralisation.
                    Role::King => S(0, 20 - 12 * cd),
                    Role::Rook => p.material[role.index()],
                    r => p.material[r.index()] + pst(p, r, c, sq),
                };
                let a = if role == Role::Pawn { attacks::ferz_attacks(sq) } else { attacks_of(role, sq, occ) };
                if role != Role::Pawn && a.any() {
                    let n = (a & mob_area).count() as i32 - MOB_BASE[role.index()];
                    let m = p.mobility[role.index()];
                    s += S(m.0 * n, m.1 * n);
                }
                if role != Role::King && (a & king_zone).any() {
                    attackers += 1;
                    weight += KING_ATTACK_WEIGHT[role.index()].max(1);
                }
            }
            if role != Role::King {
                let n = pos.reserve_count(c, role) as i32;
                phase += PHASE[role.index()] * n;
                let v = p.reserve[role.index()];
                s += S(n * v.0, n * v.1);
            }
        }
        if attackers >= 2 {
            s += S((weight * weight * p.king_attack / 8).min(400), 0);
        }
        // Bishop pair: two bishops that are or can be on both colours
        // (a reserve Bishop may be placed on either).
        let bishops = b.by_piece(Piece::new(c, Role::Bishop));
        let light = (bishops & Bitboard::LIGHT_SQUARES).count();
        let dark = (bishops & Bitboard::DARK_SQUARES).count();
        let res = pos.reserve_count(c, Role::Bishop) as u32;
        if light + dark + res >= 2 && (light > 0 || res > 0) && (dark > 0 || res > 0) {
            s += p.bishop_pair;
        }
        if c == Color::White {
            total += s;
        } else {
            total -= s;
        }
    }
    let v = taper(total, phase.min(24));
    let v = if pos.turn() == Color::White { v } else { -v };
    v + p.tempo
}

const CENTER_DIST: fn(Square) -> i32 = |sq| {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    // Chebyshev distance to the four centre squares: 0..3.
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df.max(dr)
};

/// Piece-square bonus for `role` of `color` on `sq`.
fn pst(p: &Params, role: Role, color: Color, sq: Square) -> S {
    let rsq = sq.relative(color);
    let rank = rsq.rank() as i32;
    let file = rsq.file() as i32;
    let cd = CENTER_DIST(sq);
    let central = |a: S| {
        let k = p.center_slope[role.index()];
        S(a.0 - k.0 * cd, a.1 - k.1 * cd)
    };
    match role {
        Role::Pawn => {
            let center = if (file == 3 || file == 4) && (2..=4).contains(&rank) { p.pawn_center } else { 0 };
            let r = p.pawn_rank[rank as usize];
            S(r.0 + center, r.1)
        }
        Role::Knight | Role::Genie => central(S(18, 12)),
        Role::Bishop => central(S(8, 6)),
        Role::Rook => S(
            if rank == 6 { p.rook_seventh } else { 0 } + if file == 3 || file == 4 { p.rook_center_file } else { 0 },
            0,
        ),
        Role::Queen => central(S(4, 8)),
        Role::King => {
            let shelter = match file {
                0 | 1 | 2 | 6 | 7 => p.king_wing - 10,
                _ => -10,
            };
            let k = p.center_slope[Role::King.index()];
            S(shelter - p.king_rank * rank.min(3), 20 - k.1 * cd)
        }
        Role::Clown => central(S(6, 6)),
    }
}

fn attacks_of(role: Role, sq: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, occ),
        Role::Rook => attacks::rook_attacks(sq, occ),
        Role::Queen => attacks::queen_attacks(sq, occ),
        Role::Genie => attacks::genie_attacks(sq),
        Role::Clown => chimera_rules::attacks::clown_attacks(sq, occ),
        _ => Bitboard::EMPTY,
    }
}

fn pawn_attacks_all(b: &Board, c: Color) -> Bitboard {
    let p = b.by_piece(chimera_rules::Piece::new(c, Role::Pawn));
    let mut a = Bitboard::EMPTY;
    for sq in p {
        a |= attacks::pawn_attacks(c, sq);
    }
    a
}

/// Mobility baseline per role: squares a piece of that role is expected to
/// reach; `Params::mobility` is paid per square above (or below) it.
/// N 4, B 6, R 7, Q 13, Genie 6, Clown 5 (its file decides how it moves).
const MOB_BASE: [i32; 8] = [0, 4, 6, 7, 13, 0, 6, 5];

/// King-attack weight of each attacking role.
const KING_ATTACK_WEIGHT: [i32; 8] = [0, 2, 2, 3, 5, 0, 2, 2];

/// The orthodox evaluation (also valid for boards with Genies and Clowns),
/// from the side to move's point of view.
pub fn orthodox_eval(p: &Params, b: &Board, turn: Color) -> i32 {
    let occ = b.occupied();
    let mut total = S(0, 0);
    let mut phase = 0;
    let pawn_att = [pawn_attacks_all(b, Color::White), pawn_attacks_all(b, Color::Black)];
    for c in Color::ALL {
        let mut s = S(0, 0);
        let ours = b.by_color(c);
        let them = !c;
        let our_pawns = b.by_piece(chimera_rules::Piece::new(c, Role::Pawn));
        let their_pawns = b.by_piece(chimera_rules::Piece::new(them, Role::Pawn));
        let mob_area = !ours & !pawn_att[them.index()];
        let their_king = b.king_of(them);
        let king_zone = their_king.map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));
        let mut attack_weight = 0;
        let mut attackers = 0;
        let _ = ours;
        for role in Role::ALL {
            for sq in b.by_piece(chimera_rules::Piece::new(c, role)) {
                phase += PHASE[role.index()];
                s += if role == Role::Clown {
                    p.clown_by_file[clown_file_index(sq.file() as u8)]
                } else {
                    p.material[role.index()]
                };
                s += pst(p, role, c, sq);
                let a = attacks_of(role, sq, occ);
                if a.any() {
                    let n = (a & mob_area).count() as i32 - MOB_BASE[role.index()];
                    let m = p.mobility[role.index()];
                    s += S(m.0 * n, m.1 * n);
                    if (a & king_zone).any() {
                        attackers += 1;
                        attack_weight += KING_ATTACK_WEIGHT[role.index()];
                    }
                }
            }
        }
        // King danger inflicted on the opponent (midgame only).
        if attackers >= 2 {
            s += S((attack_weight * attack_weight * p.king_attack / 8).min(400), 0);
        }
        // Pawn shield in front of our king.
        if let Some(k) = b.king_of(c) {
            let shield = attacks::king_attacks(k) | attacks::king_attacks(k).flip_if(c);
            let front: Bitboard = shield & our_pawns;
            s += S(p.pawn_shield * front.count().min(3) as i32, 0);
        }
        // Pawn structure.
        for sq in our_pawns {
            let f = sq.file() as usize;
            let file_bb = Bitboard::from_file(sq.file());
            let adj = adjacent_files(f);
            if (our_pawns & file_bb).more_than_one() {
                s -= p.doubled_pawn; // counted for each pawn of a doubled file
            }
            if (our_pawns & adj).is_empty() {
                s -= p.isolated_pawn;
            }
            let front_span = front_span(c, sq) & (file_bb | adj);
            if (their_pawns & front_span).is_empty() && (our_pawns & front_span & file_bb).is_empty() {
                s += p.passed[sq.relative(c).rank() as usize];
            }
        }
        if b.by_piece(chimera_rules::Piece::new(c, Role::Bishop)).more_than_one() {
            s += p.bishop_pair;
        }
        if c == Color::White {
            total += s;
        } else {
            total -= s;
        }
    }
    let phase = phase.min(24);
    let v = (total.0 * phase + total.1 * (24 - phase)) / 24;
    let v = if turn == Color::White { v } else { -v };
    v + p.tempo
}

trait FlipIf {
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

fn adjacent_files(f: usize) -> Bitboard {
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
fn front_span(c: Color, sq: Square) -> Bitboard {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        Chess::from_fen(fen).unwrap().evaluate()
    }

    /// The evaluation is colour-symmetric: a position and its mirror (colours
    /// swapped, board flipped, other side to move) score the same for the side to move.
    #[test]
    fn mirrored_positions_score_the_same() {
        let pairs = [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
            ),
            ("8/5k2/8/3P4/8/8/2K5/8 w - - 0 1", "8/2k5/8/8/3p4/8/5K2/8 b - - 0 1"),
        ];
        for (a, b) in pairs {
            assert_eq!(eval_fen(a), eval_fen(b), "{a} vs {b}");
        }
    }

    /// An extra queen is worth far more than any positional term.
    #[test]
    fn material_dominates() {
        assert!(eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 700);
        assert!(eval_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -700);
    }

    /// A passed pawn on the 7th is worth more than one on the 3rd (endgame).
    #[test]
    fn advanced_passer_is_better() {
        let far = eval_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        let near = eval_fen("4k3/8/8/8/8/1P6/8/4K3 w - - 0 1");
        assert!(far > near, "{far} <= {near}");
    }

    // ---- variants ----

    use chimera_rules::RingPowers;

    /// Genesis start: both reserves full and equal, so only the tempo is left;
    /// a reserve Queen more is worth about a Queen (board-only evaluation
    /// would see nothing).
    #[test]
    fn genesis_counts_reserves() {
        assert_eq!(Genesis::new().evaluate(), PARAMS.tempo);
        let extra_q = Genesis::from_fen("8/8/8/8/8/8/8/8[KQk] w - - 0 1").unwrap();
        let v = extra_q.evaluate();
        assert!((900..1200).contains(&v), "{v}");
        // The same Queen on the board is worth a little less early on
        // (`Params::reserve`), about the same late.
        let placed = Genesis::from_fen("8/8/8/8/3Q4/8/8/8[Kk] w - - 0 1").unwrap();
        assert!(placed.evaluate() > 700, "{}", placed.evaluate());
    }

    /// Genesis pawns have no rank terms: a pawn on the 7th is worth the same
    /// as one on the 2nd (same file, same centre distance by symmetry).
    #[test]
    fn genesis_pawn_rank_is_irrelevant() {
        let low = Genesis::from_fen("k7/8/8/8/8/8/3P4/7K w - - 0 1").unwrap();
        let high = Genesis::from_fen("k7/3P4/8/8/8/8/8/7K w - - 0 1").unwrap();
        assert_eq!(low.evaluate(), high.evaluate());
    }

    /// Genesis null move: none while a King is in reserve or in check;
    /// otherwise the same position with the other side to move.
    #[test]
    fn genesis_null_move() {
        assert!(Genesis::new().null_move().is_none());
        let half = Genesis::from_fen("8/8/8/8/8/8/8/4K3[QRk] b - - 0 1").unwrap();
        assert!(half.null_move().is_none(), "Black's King is still in reserve");
        let p = Genesis::from_fen("4k3/8/8/8/8/8/8/4K3[Qq] w - - 3 5").unwrap();
        let n = p.null_move().unwrap();
        assert_eq!(n.turn(), Color::Black);
        assert_eq!(n.reserve_count(Color::White, Role::Queen), 1);
        let checked = Genesis::from_fen("4k3/8/8/8/8/8/8/4K2r[Q] w - - 0 1").unwrap();
        assert!(checked.null_move().is_none());
    }

    /// Clown: an unused re-entry with a Knight in hand is worth something; the
    /// same position after the re-entry was used is worth less.
    #[test]
    fn clown_reentry_right_is_valued() {
        let base = "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[N] w KQkq - 0 1";
        let open = Clown::from_fen(base).unwrap();
        let used = Clown::from_fen(&format!("{base} reentry:w")).unwrap();
        let d = open.evaluate() - used.evaluate();
        let want = taper(
            S(MATERIAL[1].0 * PARAMS.reentry_pct / 100, MATERIAL[1].1 * PARAMS.reentry_pct / 100),
            phase_of(open.board()),
        );
        // Tapering rounds the whole evaluation, not the term: ±1.
        assert!((d - want).abs() <= 1, "{d} vs {want}");
    }

    /// Clown null move drops the last-move fields and flips the side.
    #[test]
    fn clown_null_move() {
        let fen = "rnbqkbnr/ppp2ppp/8/3p4/3p4/P7/1PPPPPPP/R1BQKBNR[N] w KQkq - 0 4 clown:w lastcap:N";
        let n = Clown::from_fen(fen).unwrap().null_move().unwrap();
        assert_eq!(n.turn(), Color::Black);
        assert_eq!(n.last_captured(), None);
        assert_eq!(n.hand(Color::White), (1, 0));
    }

    /// Magic Ring: a level-1 ring (Queen power with QNRB) on a Knight is
    /// worth the Queen power; on a Queen it adds nothing; on its King at
    /// level 0 it is worth `ring_on_king_pct` of the Queen power it would give.
    #[test]
    fn magicring_ring_by_level_and_power() {
        let q = RingPowers::default();
        let on_knight = MagicRing::from_fen("4k3/8/8/8/8/8/8/N3K3 w - - 0 1 rings:a1.1,e8.0", &q).unwrap();
        let (sq, level) = on_knight.ring(Color::White);
        let qp = PARAMS.ring_power[Role::Queen.index()];
        assert_eq!(ring_value(&PARAMS, &on_knight, sq, level), qp);
        let plain = MagicRing::from_fen("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", &q).unwrap();
        assert!(on_knight.evaluate() > plain.evaluate() + qp.0.min(qp.1) / 2);
        assert_eq!(on_knight.piece_value(Role::Knight, Square::A1), plain.piece_value(Role::Knight, Square::A1) + qp.0);
        let on_queen = MagicRing::from_fen("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1 rings:a1.1,e8.0", &q).unwrap();
        assert_eq!(ring_value(&PARAMS, &on_queen, Square::A1, 1), S(0, 0));
        let (ksq, klevel) = plain.ring(Color::White);
        let pct = PARAMS.ring_on_king_pct;
        assert_eq!(ring_value(&PARAMS, &plain, ksq, klevel), S(qp.0 * pct / 100, qp.1 * pct / 100));
        // Level 2 is the Knight power: on a Rook it adds the Knight power.
        let rook2 = MagicRing::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 rings:a1.2,e8.0", &q).unwrap();
        assert_eq!(ring_value(&PARAMS, &rook2, Square::A1, 2), PARAMS.ring_power[Role::Knight.index()]);
        let n = on_knight.null_move().unwrap();
        assert_eq!((n.turn(), n.ring(Color::White)), (Color::Black, (Square::A1, 1)));
    }

    /// The rules crate's native pass (`Position::pass`, what null-move
    /// pruning uses) is exactly the FEN round trip with the side flipped,
    /// en passant and the last-move records dropped, the clock reset: same
    /// position, same hash, along seeded random playouts of every variant.
    #[test]
    fn native_pass_matches_the_fen_round_trip() {
        use chimera_rules::{AnyPosition, RuleOptions, Variant};
        let opts = RuleOptions::default();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for v in Variant::ALL {
            for _game in 0..20 {
                let mut pos = AnyPosition::new(v, &opts);
                for _ply in 0..120 {
                    let fen = pos.fen();
                    let flipped = pass_fen(&fen, &["lastcap:", "clownmoved:"]).unwrap();
                    let by_fen = AnyPosition::from_fen(v, &flipped, &opts).ok();
                    let native = chimera_rules::with_position!(&pos, p => p.pass().map(|q| (q.fen(), q.hash())));
                    if pos.is_check() {
                        assert!(native.is_none(), "{v}: pass while in check: {fen}");
                    } else {
                        let want = by_fen.expect("the flipped FEN of a position not in check is legal");
                        assert_eq!(native, Some((want.fen(), want.hash())), "{v}: {fen}");
                        checked += 1;
                    }
                    let moves = pos.legal_move_list();
                    if moves.is_empty() {
                        break;
                    }
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    pos.play_unchecked(moves[(rng % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    /// Genie: the flip right counts while the side has pawns.
    #[test]
    fn genie_flip_right() {
        let both = Genie::from_fen("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1", false).unwrap();
        let white_only = Genie::from_fen("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1 flips:w", false).unwrap();
        assert_eq!(both.evaluate() + taper(PARAMS.flip_right, 0), white_only.evaluate());
        assert_eq!(both.null_move().unwrap().turn(), Color::Black);
    }
}
