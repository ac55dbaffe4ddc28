//! The move-ordering statistics a search thread learns (butterfly,
//! continuation and capture histories, killers, counter-moves) and the
//! correction history of the static evaluation, with their updates.

use super::*;

/// Coloured piece index (colour * 8 + role) and square of a move: the keys
/// of the continuation history and the counter-moves.
#[inline]
pub(super) fn piece_square(color: Color, role: Role, to: Square) -> usize {
    (color.index() * Role::COUNT + role.index()) * 64 + to.index()
}

/// Number of piece-square keys (16 coloured pieces × 64 squares).
pub(super) const PS: usize = 2 * Role::COUNT * 64;
/// The continuation-history row of a missing earlier move.
pub(super) static ZERO_ROW: [i16; PS] = [0; PS];
/// History values stay within ±`HIST_MAX` (the gravity formula).
pub(super) const HIST_MAX: i32 = 16_384;

/// The move-ordering statistics one search thread learns, kept from one
/// search to the next within a game (cleared by `ucinewgame`).
pub struct Histories {
    /// Butterfly history of quiet moves: [colour][moving role][to].
    pub(super) main: Box<[[[i16; 64]; Role::COUNT]; 2]>,
    /// Continuation history: [piece-square of an earlier move][piece-square
    /// of this quiet move], read for the moves 1 and 2 plies back.
    pub(super) cont: Vec<i16>,
    /// Capture history: [moving piece-square][captured role].
    pub(super) capture: Vec<i16>,
    /// Counter-moves: [piece-square of the previous move] → move code.
    pub(super) counter: Vec<u32>,
    /// Correction history: [side to move × pawn-structure slot] → how far
    /// the searches found the static evaluation off, in 1/`CORR_GRAIN`
    /// centipawns (a moving average over the nodes with that structure).
    pub(super) corr: Vec<i32>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            main: Box::new([[[0; 64]; Role::COUNT]; 2]),
            cont: vec![0; PS * PS],
            capture: vec![0; PS * Role::COUNT],
            counter: vec![0; PS],
            corr: vec![0; 2 * CORR_SIZE],
        }
    }
}

impl Histories {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Histories::default();
    }
}

/// Bits of a pawn-structure hash that choose its correction slot.
pub(super) const CORR_BITS: u32 = 14;
/// Pawn-structure slots of the correction history, per side to move.
pub(super) const CORR_SIZE: usize = 1 << CORR_BITS;
/// Fixed-point unit of a correction entry (1 cp = `CORR_GRAIN`).
pub(super) const CORR_GRAIN: i32 = 256;
/// A correction stays within ±64 cp.
pub(super) const CORR_MAX: i32 = 64 * CORR_GRAIN;

/// A 64-bit finaliser (every input bit reaches every output bit), so the
/// top bits of a slot depend on pawns on every rank.
#[inline]
pub(super) fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 31)).wrapping_mul(0x7FB5_D329_728E_A185);
    let x = (x ^ (x >> 27)).wrapping_mul(0x81DA_DEF4_BC2D_D44D);
    x ^ (x >> 33)
}

/// `pos`'s correction-history slot: the side to move and a hash of each
/// side's pawns (a collision only blurs two structures' averages).
#[inline]
pub(super) fn corr_slot<P: Evaluate>(pos: &P) -> usize {
    let b = pos.board();
    let pawns = b.by_role(Role::Pawn);
    let w = (pawns & b.by_color(Color::White)).0;
    let k = (pawns & b.by_color(Color::Black)).0;
    let h = mix(w.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(k.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)));
    pos.turn().index() * CORR_SIZE + (h >> (64 - CORR_BITS)) as usize
}

/// The history bonus (or, negated, malus) of a search to `depth`.
#[inline]
pub(super) fn stat_bonus(depth: i32) -> i32 {
    (150 * depth - 100).clamp(0, 1500)
}

#[inline]
pub(super) fn gravity(h: &mut i16, bonus: i32) {
    let v = *h as i32;
    *h = (v + bonus - v * bonus.abs() / HIST_MAX) as i16;
}

impl<'s, 'a, P: Evaluate> Worker<'s, 'a, P> {
    /// `raw` (a static evaluation) with the correction history's average
    /// error at `slot` added, kept off mate scores.
    #[inline]
    pub(super) fn corrected(&self, slot: usize, raw: i32) -> i32 {
        (raw + self.hist.corr[slot] / CORR_GRAIN).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Learns from a search to `depth` that found `best` where the static
    /// evaluation said `raw`: the entry at `slot` moves towards the error
    /// by a weight growing with the depth (at most 16/256 a time).
    #[inline]
    pub(super) fn update_corr(&mut self, slot: usize, raw: i32, best: i32, depth: i32) {
        let w = (depth + 1).min(16);
        let target = (best - raw).clamp(-CORR_MAX / CORR_GRAIN, CORR_MAX / CORR_GRAIN) * CORR_GRAIN;
        let e = &mut self.hist.corr[slot];
        *e = ((*e * (256 - w) + target * w) / 256).clamp(-CORR_MAX, CORR_MAX);
    }

    /// Piece-square keys of the moves 1 and 2 plies before `ply`.
    #[inline]
    pub(super) fn cont_keys(&self, ply: usize) -> [Option<usize>; 2] {
        [self.stack[ply + STACK_OFF - 1].moved, self.stack[ply + STACK_OFF - 2].moved]
    }

    /// A quiet move's history score (main plus both continuation
    /// histories) and its piece-square key, which the continuation
    /// pruning reads again.
    #[inline]
    pub(super) fn quiet_stats(&self, pos: &P, m: Move, cont: [Option<usize>; 2]) -> (i32, usize) {
        Self::quiet_stats_in(&self.hist.main[pos.turn().index()], self.cont_rows(cont), pos, m)
    }

    /// The continuation-history rows of the two earlier moves' keys (a
    /// row of zeros for a missing one, which adds nothing).
    #[inline]
    pub(super) fn cont_rows(&self, cont: [Option<usize>; 2]) -> [&[i16]; 2] {
        cont.map(|k| k.map_or(&ZERO_ROW[..], |k| &self.hist.cont[k * PS..(k + 1) * PS]))
    }

    /// [`Worker::quiet_stats`] with the side to move's butterfly table and
    /// the continuation rows looked up once, for a node's whole list.
    #[inline(always)]
    pub(super) fn quiet_stats_in(main: &[[i16; 64]; Role::COUNT], rows: [&[i16]; 2], pos: &P, m: Move) -> (i32, usize) {
        let role = pos.moving_role(m).unwrap_or(Role::Pawn);
        let ps = piece_square(pos.turn(), role, m.to);
        let s = main[role.index()][m.to.index()] as i32 + rows[0][ps] as i32 + rows[1][ps] as i32;
        (s, ps)
    }

    /// Whether the continuation histories of both earlier moves (1 and 2
    /// plies back) score the move with piece-square key `ps` below zero;
    /// false when either is missing.
    #[inline]
    pub(super) fn cont_both_bad(&self, ps: usize, cont: [Option<usize>; 2]) -> bool {
        // A missing move's row of zeros is never below zero.
        self.cont_rows(cont).iter().all(|row| row[ps] < 0)
    }

    #[inline]
    pub(super) fn capture_key(pos: &P, m: Move) -> usize {
        let role = pos.moving_role(m).unwrap_or(Role::Pawn);
        let victim =
            if m.kind == MoveKind::EnPassant { Role::Pawn } else { pos.board().role_at(m.to).unwrap_or(Role::Pawn) };
        piece_square(pos.turn(), role, m.to) * Role::COUNT + victim.index()
    }

    pub(super) fn update_quiet_stats(&mut self, pos: &P, best: Move, quiets: &[Move], depth: i32, ply: usize) {
        let us = pos.turn();
        let code = encode_move(best);
        if self.killers[ply][0] != code {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = code;
        }
        let cont = self.cont_keys(ply);
        if let Some(k) = cont[0] {
            self.hist.counter[k] = code;
        }
        let bonus = stat_bonus(depth);
        let hist = &mut self.hist;
        let mut upd = |m: Move, b: i32| {
            let role = pos.moving_role(m).unwrap_or(Role::Pawn);
            gravity(&mut hist.main[us.index()][role.index()][m.to.index()], b);
            let ps = piece_square(us, role, m.to);
            for k in cont.into_iter().flatten() {
                gravity(&mut hist.cont[k * PS + ps], b);
            }
        };
        upd(best, bonus);
        for &q in quiets {
            if q != best {
                upd(q, -bonus);
            }
        }
    }

    /// A node where every move failed low: the quiet move that led to it
    /// refuted them all, so its histories (the butterfly one at half the
    /// bonus, the continuation ones of the two moves before it) gain as a
    /// cut-off move's would (Stockfish's prior-countermove bonus).
    pub(super) fn reward_prior_quiet(&mut self, pos: &P, depth: i32, ply: usize) {
        let sp = ply + STACK_OFF;
        if !self.stack[sp - 1].quiet_move {
            return;
        }
        let Some(prev) = self.stack[sp - 1].moved else { return };
        let bonus = stat_bonus(depth);
        // `prev` is `piece_square(them, role, to)`.
        let (role, to) = ((prev / 64) % Role::COUNT, prev % 64);
        gravity(&mut self.hist.main[(!pos.turn()).index()][role][to], bonus / 2);
        // The continuation keys of the move one ply up: the two before it.
        for k in self.cont_keys(ply - 1).into_iter().flatten() {
            gravity(&mut self.hist.cont[k * PS + prev], bonus);
        }
    }

    pub(super) fn update_capture_stats(&mut self, pos: &P, best: Option<Move>, captures: &[Move], depth: i32) {
        let bonus = stat_bonus(depth);
        if let Some(b) = best {
            gravity(&mut self.hist.capture[Self::capture_key(pos, b)], bonus);
        }
        for &c in captures {
            if Some(c) != best {
                gravity(&mut self.hist.capture[Self::capture_key(pos, c)], -bonus);
            }
        }
    }

    #[inline]
    pub(super) fn moved_key(pos: &P, m: Move) -> Option<usize> {
        pos.moving_role(m).map(|r| piece_square(pos.turn(), r, m.to))
    }
}
