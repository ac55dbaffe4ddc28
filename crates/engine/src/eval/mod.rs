//! Evaluation: a trait every variant struct implements ([`Evaluate`]), and
//! the terms they share. Values and method: `docs/engine.md`.
//!
//! The search knows no variant: it calls `P::evaluate`, `P::piece_value`,
//! `P::see_value` and `P::null_move` (the attack sets of SEE come from the
//! rules crate's `Position::attackers_with`). A variant adds its knowledge by
//! overriding [`Evaluate::parts`] in its `impl Evaluate for ...` below.
//!
//! Every term is a count times a (midgame, endgame) pair of [`Params`], so
//! the evaluation is linear in its values apart from the game phase and the
//! endgame scale factor: [`Evaluate::trace`] returns those counts (the
//! tuner's features, `crate::tune`), and a test checks that the counts times
//! the values give back the evaluation.

use chimera_rules::attacks;
use chimera_rules::{Bitboard, Board, Chess, Clown, Color, Genesis, Genie, MagicRing, Piece, Position, Role, Square};
use std::cell::RefCell;

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

/// Mobility buckets: squares reached, 0..=27 (a Queen's most).
pub const MOB_MAX: usize = 28;
/// King-danger buckets: the summed attacker weight, capped.
pub const DANGER_MAX: usize = 32;

/// Every tuned value of the evaluation: the values `chimera tune` fits to
/// self-play games (gradient-based Texel tuning, `crate::tune`,
/// `docs/engine.md`). The engine reads [`PARAMS`]; the tuner evaluates with
/// trial copies, and [`Evaluate::trace`] fills a `Params` with the counts
/// of each term instead of values (both halves of a pair hold the count).
/// Tables indexed by square are from White's side (a Black piece reads the
/// square mirrored by rank).
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
    /// Piece-square tables per role (orthodox board; Genie and Clown use
    /// their own rows). Genesis has its own tables ([`Params::genesis_pst`]).
    pub pst: [[S; 64]; 8],
    /// Mobility per role by the number of squares it reaches that hold no
    /// own piece and no enemy pawn attack (capped at `MOB_MAX - 1`).
    pub mobility: [[S; MOB_MAX]; 8],
    pub bishop_pair: S,
    /// Penalties per pawn (orthodox pawn structure), subtracted.
    pub doubled_pawn: S,
    pub isolated_pawn: S,
    /// Passed pawn by relative rank (index 1-6).
    pub passed: [S; 8],
    /// Passed pawn: per step of distance (Chebyshev) between the own King and
    /// the square in front of the pawn, times the rank weight 0,0,0,1,2,3,4
    /// (ranks 1-7): the own King should escort an advanced passer.
    pub passed_own_king: S,
    /// The same for the enemy King (it should be far).
    pub passed_their_king: S,
    /// Passed pawn whose way to promotion is empty, by relative rank.
    pub passed_free: [S; 8],
    /// Rook on a file with no pawn, and on one with enemy pawns only.
    pub rook_open: S,
    pub rook_half_open: S,
    /// Knight, Bishop on relative ranks 4-6, defended by an own pawn, that no
    /// enemy pawn can ever attack.
    pub outpost: [S; 2],
    /// An enemy piece (not pawn, not King) attacked by one of our pawns.
    pub threat_by_pawn: S,
    /// An enemy piece attacked by our Knight, Bishop, Genie or Clown, per
    /// role of the attacked piece.
    pub threat_by_minor: [S; 8],
    /// An enemy piece attacked by our Rook, per role of the attacked piece.
    pub threat_by_rook: [S; 8],
    /// An enemy piece (not pawn, not King) we attack and they do not defend.
    pub hanging: S,
    /// King danger inflicted on the enemy King, by the summed weight of the
    /// pieces that hit the zone around it (`KING_ATTACK_WEIGHT`), when two or
    /// more do; a table, so the fit shapes the curve.
    pub king_danger: [S; DANGER_MAX],
    /// Own pawns next to and in front of the King, by count (0-3).
    pub pawn_shield: [S; 4],
    /// Bonus for the side to move.
    pub tempo: S,
    /// Genie: the unspent right to flip a pawn into a Genie, while the side has a pawn.
    pub flip_right: S,
    /// Clown: the unused re-entry with a Knight / a Bishop (the best) in hand.
    pub reentry: [S; 2],
    /// Clown: the unspent right to declare a Clown with an unmoved Knight.
    pub declare_right: S,
    /// Genesis: a pawn on the board (no promotion, no rank terms).
    pub genesis_pawn: S,
    /// Genesis: piece-square tables per role (P N B R Q K).
    pub genesis_pst: [[S; 64]; 6],
    /// Genesis: a piece in reserve, per role P N B R Q (the placement phase:
    /// a reserve piece can go on any empty square but costs a move).
    pub reserve: [S; 5],
    /// Genesis: the danger of placements next to the enemy King. Per piece
    /// in our reserve (role P N B R Q) by the number of empty squares next
    /// to the enemy King that no enemy piece but the King guards (0-8): a
    /// reserve piece can be placed on such a square at once, so a King in
    /// the open is in danger while the reserves are full.
    pub genesis_drop_danger: [[S; 9]; 5],
    /// Magic Ring: what the power of a ring is worth on a carrier that lacks
    /// it, per power role (index `Role::index`; Q R B N K used).
    pub ring_power: [S; 8],
    /// Magic Ring: a King power on a Rook or Bishop (partly covered).
    pub ring_king_partial: S,
    /// Magic Ring: a ring on its King (no power now), by the power it
    /// grants once passed (the next level).
    pub ring_on_king: [S; 8],
}

/// Chebyshev distance of `sq` from the four centre squares (0..=3).
const fn center_dist(i: usize) -> i32 {
    let f = (i % 8) as i32;
    let r = (i / 8) as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    if df > dr {
        df
    } else {
        dr
    }
}

/// The hand-set starting point of the fit: the tables the old formulas gave
/// (centralisation slopes, linear mobility around a baseline, attacker
/// weight squared), modest guesses for the new terms.
pub const fn start_params() -> Params {
    const Z: S = S(0, 0);
    let mut pst = [[Z; 64]; 8];
    let mut gpst = [[Z; 64]; 6];
    let mut i = 0;
    while i < 64 {
        let cd = center_dist(i);
        let (file, rank) = ((i % 8) as i32, (i / 8) as i32);
        let pr = [S(0, 0), S(0, 0), S(3, 5), S(8, 12), S(18, 25), S(32, 45), S(55, 75), S(0, 0)][rank as usize];
        let center = if (file == 3 || file == 4) && rank >= 2 && rank <= 4 { 12 } else { 0 };
        pst[0][i] = if rank == 0 || rank == 7 { Z } else { S(pr.0 + center, pr.1) };
        pst[1][i] = S(18 - 12 * cd, 12 - 8 * cd);
        pst[2][i] = S(8 - 5 * cd, 6 - 4 * cd);
        pst[3][i] = S(if rank == 6 { 20 } else { 0 } + if file == 3 || file == 4 { 5 } else { 0 }, 0);
        pst[4][i] = S(4 - 3 * cd, 8 - 6 * cd);
        let wing = if file <= 2 || file >= 6 { 15 } else { -10 };
        pst[5][i] = S(wing - 25 * if rank < 3 { rank } else { 3 }, 20 - 12 * cd);
        pst[6][i] = S(18 - 12 * cd, 12 - 8 * cd);
        pst[7][i] = S(6 - 4 * cd, 6 - 4 * cd);
        gpst[0][i] = S(6 - 3 * cd, 4 - 2 * cd);
        gpst[1][i] = pst[1][i];
        gpst[2][i] = pst[2][i];
        gpst[4][i] = pst[4][i];
        gpst[5][i] = S(0, 20 - 12 * cd);
        i += 1;
    }
    let mut mobility = [[Z; MOB_MAX]; 8];
    let per: [S; 8] = [Z, S(4, 4), S(5, 5), S(2, 4), S(1, 2), Z, S(3, 3), S(2, 2)];
    let base: [i32; 8] = [0, 4, 6, 7, 13, 0, 6, 5];
    let mut r = 1;
    while r < 8 {
        let mut n = 0;
        while n < MOB_MAX {
            if r != 5 {
                let d = n as i32 - base[r];
                mobility[r][n] = S(per[r].0 * d, per[r].1 * d);
            }
            n += 1;
        }
        r += 1;
    }
    let mut king_danger = [Z; DANGER_MAX];
    let mut w = 0;
    while w < DANGER_MAX {
        let v = (w * w * 2) as i32;
        king_danger[w] = S(if v > 400 { 400 } else { v }, 0);
        w += 1;
    }
    let material = [S(90, 110), S(320, 300), S(330, 320), S(480, 540), S(950, 1000), Z, S(573, 553), Z];
    let ring_power = [Z, S(242, 218), S(240, 240), S(366, 414), S(657, 692), S(175, 210), Z, Z];
    let mut ring_on_king = [Z; 8];
    let mut k = 0;
    while k < 8 {
        ring_on_king[k] = S(ring_power[k].0 * 30 / 100, ring_power[k].1 * 30 / 100);
        k += 1;
    }
    Params {
        material,
        clown_by_file: [S(472, 532), S(330, 304), S(352, 324), S(620, 681), S(262, 302)],
        pst,
        mobility,
        bishop_pair: S(25, 45),
        doubled_pawn: S(6, 12),
        isolated_pawn: S(10, 15),
        passed: [Z, S(5, 10), S(8, 18), S(14, 32), S(28, 55), S(48, 90), S(75, 140), Z],
        passed_own_king: S(0, -4),
        passed_their_king: S(0, 6),
        passed_free: [Z, Z, Z, S(2, 5), S(5, 10), S(10, 20), S(15, 35), Z],
        rook_open: S(25, 10),
        rook_half_open: S(10, 5),
        outpost: [S(20, 10), S(10, 5)],
        threat_by_pawn: S(40, 30),
        threat_by_minor: [Z, S(10, 15), S(10, 15), S(30, 30), S(30, 30), Z, S(20, 20), S(20, 20)],
        threat_by_rook: [Z, S(5, 10), S(5, 10), Z, S(30, 30), Z, S(10, 10), S(10, 10)],
        hanging: S(20, 15),
        king_danger,
        pawn_shield: [Z, S(8, 0), S(16, 0), S(24, 0)],
        tempo: S(10, 10),
        flip_right: S(69, 80),
        reentry: [S(224, 210), S(231, 224)],
        declare_right: S(21, 5),
        genesis_pawn: S(140, 14),
        genesis_pst: gpst,
        reserve: [S(94, 36), S(300, 272), S(337, 304), S(488, 530), S(1039, 1004)],
        genesis_drop_danger: [[S(0, 0); 9]; 5],
        ring_power,
        ring_king_partial: S(87, 105),
        ring_on_king,
    }
}

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
/// (The network's search asks at every evaluation, for `NNUE Hybrid`: the
/// roles are counted one by one, unrolled, rather than in a loop over
/// [`Role::ALL`] with a branch for the King and the Clown.)
#[inline]
pub fn board_material(b: &Board, turn: Color) -> i32 {
    let (us, them) = (b.by_color(turn), b.by_color(!turn));
    let worth = |role: Role| {
        let on = b.by_role(role);
        ((on & us).count() as i32 - (on & them).count() as i32) * MATERIAL[role.index()].0
    };
    let mut v = worth(Role::Pawn)
        + worth(Role::Knight)
        + worth(Role::Bishop)
        + worth(Role::Rook)
        + worth(Role::Queen)
        + worth(Role::Genie);
    // A Clown is worth what its file says: square by square.
    for sq in b.by_role(Role::Clown) {
        v += if us.contains(sq) { 1 } else { -1 } * simple_value(Role::Clown, sq);
    }
    v
}

/// An evaluation before the phase is applied: the (midgame, endgame) sum
/// for White, the game phase (0..=24), the endgame scale factor (out of
/// [`SCALE_NORMAL`]) and the side to move.
#[derive(Copy, Clone, Debug)]
pub struct Parts {
    pub total: S,
    pub phase: i32,
    pub scale: i32,
    pub turn: Color,
}

/// The endgame scale of an ordinary position.
pub const SCALE_NORMAL: i32 = 64;

impl Parts {
    /// The evaluation for the side to move.
    pub fn value(&self) -> i32 {
        let eg = self.total.1 * self.scale / SCALE_NORMAL;
        let v = (self.total.0 * self.phase + eg * (24 - self.phase)) / 24;
        if self.turn == Color::White {
            v
        } else {
            -v
        }
    }
}

/// What the tuner needs of one position: the count of every term (a
/// `Params` of counts for White: White's terms count +1, Black's −1), the
/// phase and the scale factor.
#[derive(Clone, Debug)]
pub struct Trace {
    pub counts: Box<Params>,
    pub phase: i32,
    pub scale: i32,
}

/// What the search needs from a variant beyond the rules: its evaluation
/// (here), which of the search's rules it plays by ([`SearchPolicy`]),
/// what time management asks of it ([`TimePolicy`]) and what the network
/// sees of it beyond its pieces ([`NetInputs`]).
pub trait Evaluate: Position + SearchPolicy + TimePolicy + NetInputs {
    /// Score in centipawns from the side to move's point of view (with the
    /// thread's pawn-structure cache).
    #[inline]
    fn evaluate(&self) -> i32 {
        self.parts(&mut Acc::new(&PARAMS, true)).value()
    }

    /// [`Evaluate::evaluate`] with the values `p` (the tuner's trial values).
    fn evaluate_with(&self, p: &Params) -> i32 {
        self.parts(&mut Acc::new(p, false)).value()
    }

    /// The counts of every term ([`Trace`]).
    fn trace(&self) -> Trace {
        let mut acc = Acc::new(&PARAMS, false);
        acc.trace = Some(Box::new(zero_params()));
        let parts = self.parts(&mut acc);
        Trace { counts: acc.trace.unwrap_or_else(|| Box::new(zero_params())), phase: parts.phase, scale: parts.scale }
    }

    /// The variant's evaluation before tapering: its terms added to `acc`
    /// (which holds the values). Default: the orthodox board evaluation.
    fn parts(&self, acc: &mut Acc) -> Parts {
        let phase = board_eval(self.board(), None, acc);
        let scale = scale_factor(self.board(), acc.total.1);
        acc.side(Color::White);
        tempo(acc, self.turn());
        Parts { total: acc.total, phase, scale, turn: self.turn() }
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
}

/// Which of the search's rules a variant plays by: each is on where it won
/// or held, off where it lost.
pub trait SearchPolicy: Sized {
    /// Whether the search reduces late moves from the second move at depth
    /// 2, never at the root (else from the third at depth 3, the root's
    /// too), and quiescence in check leaves out a quiet evasion with a bad
    /// history once one evasion is not mated. On in every variant but
    /// Genesis (+13.2 Elo; −46.1 in Genesis, strength §61).
    const FEWER_LATE_MOVES: bool = true;

    /// Whether reverse futility and the null move measure from the
    /// table's score where its bound says it is nearer than the static
    /// evaluation (as Stockfish's). On where it won or held at 10,000
    /// nodes (+10.7 Elo in chess); off in Magic Ring (−21.6 Elo) and
    /// Genesis (strength §68).
    const TABLE_EVAL_PRUNING: bool = true;

    /// The position with the side to move passing, when passing is safe to
    /// assume for null-move pruning; `None` disables null-move pruning.
    fn null_move(&self) -> Option<Self> {
        None
    }
}

/// What time management asks of a variant.
pub trait TimePolicy {
    /// The pieces the side to move still holds in a Genesis reserve (0 in
    /// every other variant): a side still placing them spends more of its
    /// clock on each move (`Engine::time_budget`), as those moves decide
    /// most Genesis games.
    fn reserve_to_place(&self) -> u32 {
        0
    }
}

/// What the network evaluation sees of a variant beyond its pieces
/// ([`crate::nnue`]).
pub trait NetInputs {
    /// What the network evaluation sees of colour `c` beyond its pieces
    /// (`nnue` module): its mark plane and its flag word. Default: nothing.
    fn nnue_extra(&self, _c: Color) -> (u64, u64) {
        (0, 0)
    }

    /// Whether the position's rule options are those the built-in nets
    /// learnt (the defaults). Magic Ring with another ring-power list is
    /// another game to a net trained on QNRB: it plays with the hand-made
    /// evaluation, which reads the list. Default: yes.
    fn nnue_default_rules(&self) -> bool {
        true
    }
}

/// A `Params` of zeros (a trace's starting point).
pub fn zero_params() -> Params {
    const Z: S = S(0, 0);
    Params {
        material: [Z; 8],
        clown_by_file: [Z; 5],
        pst: [[Z; 64]; 8],
        mobility: [[Z; MOB_MAX]; 8],
        bishop_pair: Z,
        doubled_pawn: Z,
        isolated_pawn: Z,
        passed: [Z; 8],
        passed_own_king: Z,
        passed_their_king: Z,
        passed_free: [Z; 8],
        rook_open: Z,
        rook_half_open: Z,
        outpost: [Z; 2],
        threat_by_pawn: Z,
        threat_by_minor: [Z; 8],
        threat_by_rook: [Z; 8],
        hanging: Z,
        king_danger: [Z; DANGER_MAX],
        pawn_shield: [Z; 4],
        tempo: Z,
        flip_right: Z,
        reentry: [Z; 2],
        declare_right: Z,
        genesis_pawn: Z,
        genesis_pst: [[Z; 64]; 6],
        reserve: [Z; 5],
        genesis_drop_danger: [[Z; 9]; 5],
        ring_power: [Z; 8],
        ring_king_partial: Z,
        ring_on_king: [Z; 8],
    }
}

/// The running sum of an evaluation: values of `p` times counts, for the
/// side set by [`Acc::side`], and (when tracing) the counts themselves.
pub struct Acc<'a> {
    p: &'a Params,
    total: S,
    sign: i32,
    cache: bool,
    trace: Option<Box<Params>>,
}

impl<'a> Acc<'a> {
    fn new(p: &'a Params, cache: bool) -> Acc<'a> {
        Acc { p, total: S(0, 0), sign: 1, cache, trace: None }
    }
    /// Terms added from now on are `c`'s.
    fn side(&mut self, c: Color) {
        self.sign = if c == Color::White { 1 } else { -1 };
    }
}

/// `add!(acc, n; field...)`: `n` times the value `field` of the params, for
/// the current side; the trace counts `n` there.
macro_rules! add {
    ($acc:expr, $n:expr; $($f:tt)+) => {{
        let n: i32 = $n;
        let acc: &mut Acc = $acc;
        let v = acc.p.$($f)+;
        acc.total.0 += acc.sign * n * v.0;
        acc.total.1 += acc.sign * n * v.1;
        if let Some(t) = acc.trace.as_deref_mut() {
            t.$($f)+.0 += acc.sign * n;
            t.$($f)+.1 += acc.sign * n;
        }
    }};
}

fn tempo(acc: &mut Acc, turn: Color) {
    acc.side(turn);
    add!(acc, 1; tempo);
    acc.side(Color::White);
}

mod board;
mod chess;
mod clown;
mod genesis;
mod genie;
mod magic_ring;
#[cfg(test)]
mod tests;
mod values;

pub use board::*;
#[cfg(test)]
use chess::pass_fen;
pub use magic_ring::*;
pub use values::PARAMS;
