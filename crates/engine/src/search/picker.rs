//! The staged move picker: the TT move, the noisy moves by SEE and
//! capture history, killers and counter-move, quiets by history, losing
//! captures last.

use super::*;

/// Score offset of the losing captures (kept apart from the winning ones).
pub(super) const BAD_NOISY: i32 = -(1 << 28);
/// Quiet moves a node picks one at a time before it sorts the rest
/// ([`Worker::pick_quiet`]).
pub(super) const SELECT_QUIETS: usize = 8;

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) enum Stage {
    Tt,
    GoodNoisy,
    GenQuiets,
    Killer1,
    Killer2,
    Counter,
    Quiets,
    BadNoisy,
    Done,
}

/// What the picker says about the move it returned.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Picked {
    Tt,
    GoodNoisy,
    /// Killer or counter-move.
    Refutation,
    Quiet,
    BadNoisy,
}

#[derive(Default)]
pub(super) struct PickBufs {
    pub(super) noisy: Vec<(i32, Move)>,
    pub(super) quiets: Vec<(i32, Move)>,
}

/// A staged move picker: the TT move (tested by the rules before anything
/// is generated where that is cheap, else found by the generators), the
/// noisy generator (captures by victim and capture history, each tested
/// by SEE when it comes up), the quiet generator only when the noisy
/// moves did not cut (killers, counter-move, then by history), losing
/// captures last. Quiescence stops after the winning captures.
pub(super) struct Picker {
    pub(super) stage: Stage,
    pub(super) bufs: PickBufs,
    pub(super) tt: u32,
    pub(super) tt_move: Option<Move>,
    /// The codes of the two killers and of the counter-move (0: none).
    pub(super) refs: [u32; 3],
    /// Those moves, once found among the quiet moves (so legal here),
    /// kept out of the scored list.
    pub(super) refutations: [Option<Move>; 3],
    /// The noisy moves are in `bufs.noisy`, scored.
    pub(super) noisy_done: bool,
    pub(super) noisy_cur: usize,
    pub(super) quiet_cur: usize,
    /// The quiet moves before this index are in their final order.
    pub(super) quiet_sorted: usize,
    /// The quiet moves are in `bufs.quiets` (perhaps not scored yet).
    pub(super) quiets_done: bool,
    /// They are scored (by history).
    pub(super) quiets_scored: bool,
    /// Quiescence: no quiet stages, no losing captures (when not in check).
    pub(super) qsearch: bool,
    /// Set by the search (late-move pruning): no more quiet moves.
    pub skip_quiets: bool,
}

impl<'s, 'a, P: Evaluate> Worker<'s, 'a, P> {
    pub(super) fn new_picker(&mut self, pos: &P, tt: u32, ply: usize, qsearch: bool) -> Picker {
        let mut bufs = std::mem::take(&mut self.bufs[ply]);
        bufs.noisy.clear();
        bufs.quiets.clear();
        let refs = if qsearch {
            [0; 3]
        } else {
            let c = self.stack[ply + STACK_OFF - 1].moved.map_or(0, |k| self.hist.counter[k]);
            [self.killers[ply][0], self.killers[ply][1], c]
        };
        let mut pk = Picker {
            stage: Stage::Tt,
            bufs,
            tt,
            tt_move: None,
            refs,
            refutations: [None; 3],
            noisy_done: false,
            noisy_cur: 0,
            quiet_cur: 0,
            quiet_sorted: 0,
            quiets_done: false,
            quiets_scored: false,
            qsearch,
            skip_quiets: false,
        };
        if !P::CHEAP_IS_LEGAL {
            // The TT move is legal here if the generators yield it: the
            // noisy moves are generated now, the quiet ones if need be.
            self.gen_noisy(pos, &mut pk);
        }
        pk
    }

    /// Whether quiescence leaves `m` out: a promotion to less than a
    /// Queen that takes nothing.
    #[inline]
    pub(super) fn minor_push_promotion(pos: &P, m: Move) -> bool {
        matches!(m.kind, MoveKind::Promotion(r) if r != Role::Queen) && !pos.is_capture(m)
    }

    /// Generates and scores the noisy moves (`Position::noisy_moves`): by
    /// the victim, the promotion and the capture history, the captures
    /// that lose material (by SEE) put last. A move with the TT move's
    /// code is set aside as the TT move (so found legal here).
    pub(super) fn gen_noisy(&self, pos: &P, pk: &mut Picker) {
        let mut list = MoveList::new();
        pos.noisy_moves(&mut list);
        for &m in list.iter() {
            if pk.qsearch && Self::minor_push_promotion(pos, m) {
                continue;
            }
            if encode_move(m) == pk.tt {
                pk.tt_move = Some(m);
                continue;
            }
            let victim = match m.kind {
                MoveKind::EnPassant => see_value(pos, Role::Pawn, m.to),
                _ => pos.board().role_at(m.to).map_or(0, |r| see_value(pos, r, m.to)),
            };
            let promo = match m.kind {
                MoveKind::Promotion(r) => see_value(pos, r, m.to),
                _ => 0,
            };
            // Whether it loses material is asked when it comes up
            // ([`Worker::pick_good_noisy`]): a cut often comes first.
            let score = 8 * (victim + promo) + self.hist.capture[Self::capture_key(pos, m)] as i32;
            pk.bufs.noisy.push((score, m));
        }
        pk.noisy_done = true;
    }

    /// The TT move, if it is legal here by the rules' own test (for
    /// positions whose test is cheap) and a move this picker plays:
    /// quiescence takes a quiet one only in check, and never a minor
    /// promotion that takes nothing (as [`Worker::gen_noisy`] and the
    /// quiet generator would find it).
    pub(super) fn legal_tt(pos: &P, pk: &Picker, in_check: bool) -> Option<Move> {
        decode_move(pk.tt).filter(|&m| {
            let noisy = pos.is_capture(m) || m.promotion().is_some();
            (noisy || !pk.qsearch || in_check) && !(pk.qsearch && Self::minor_push_promotion(pos, m)) && pos.is_legal(m)
        })
    }

    /// Generates the quiet moves (`Position::quiet_moves`), unscored. The
    /// TT move, the killers and the counter-move are set aside as they are
    /// met: a quiet TT move is legal here only if it is in the list (where
    /// the rules' own test is not cheap, this is how a node learns it, and
    /// the TT move often cuts before any other quiet is wanted), and so is
    /// a killer, so their stages need not search the list, which holds
    /// hundreds of placements in Genesis.
    pub(super) fn gen_quiets(&self, pos: &P, pk: &mut Picker) {
        let mut all = MoveList::new();
        pos.quiet_moves(&mut all);
        let refs = pk.refs;
        // The squares of the four codes: a move whose squares match none
        // of them is none of the four, and is pushed without being encoded.
        let squares = [pk.tt & SQUARE_MASK, refs[0] & SQUARE_MASK, refs[1] & SQUARE_MASK, refs[2] & SQUARE_MASK];
        for &m in all.iter() {
            if !squares.contains(&encode_squares(m)) {
                pk.bufs.quiets.push((0, m));
                continue;
            }
            let code = encode_move(m);
            if code == pk.tt {
                // Found here, or already by the rules' own test.
                pk.tt_move = Some(m);
                continue;
            }
            // The first of the three with this code (the counter-move may
            // be a killer too).
            if let Some(i) = refs.iter().position(|&r| r == code) {
                pk.refutations[i] = Some(m);
                continue;
            }
            pk.bufs.quiets.push((0, m));
        }
        pk.quiets_done = true;
    }

    /// Scores the quiet moves by history (once, when the first of them is
    /// wanted after the refutations), and brings the best to the front on
    /// the way, so the first pick needs no pass of its own.
    pub(super) fn score_quiets(&self, pos: &P, pk: &mut Picker, ply: usize) {
        let rows = self.cont_rows(self.cont_keys(ply));
        let main = &self.hist.main[pos.turn().index()];
        let list = &mut pk.bufs.quiets[pk.quiet_cur..];
        let (mut best, mut best_score) = (0, i32::MIN);
        for (i, e) in list.iter_mut().enumerate() {
            e.0 = Self::quiet_stats_in(main, rows, pos, e.1).0;
            if e.0 > best_score {
                (best, best_score) = (i, e.0);
            }
        }
        if !list.is_empty() {
            list[..=best].rotate_right(1);
            pk.quiet_sorted = pk.quiet_cur + 1;
        }
        pk.quiets_scored = true;
    }

    /// The quiet move of code `code` if it is legal here, by the rules'
    /// own test (for positions whose test is cheap).
    pub(super) fn legal_quiet(pos: &P, code: u32) -> Option<Move> {
        decode_move(code).filter(|&m| !pos.is_capture(m) && m.promotion().is_none() && pos.is_legal(m))
    }

    /// Killer `i` (0 or 1) or the counter-move (2), if it is a legal quiet
    /// move here, not the TT move and not one of the earlier two: tested
    /// by the rules where that is cheap, else looked up in the quiet list.
    pub(super) fn refutation(pos: &P, pk: &Picker, i: usize) -> Option<Move> {
        if !P::CHEAP_IS_LEGAL {
            return pk.refutations[i];
        }
        let code = pk.refs[i];
        if code == 0 || code == pk.tt || pk.refs[..i].contains(&code) {
            return None;
        }
        Self::legal_quiet(pos, code)
    }

    /// The next quiet move by score. The first [`SELECT_QUIETS`] are
    /// picked one by one (a cut usually comes among them; the first was
    /// found by [`Worker::score_quiets`]); after them the
    /// moves are ordered a block at a time: the best of the rest are
    /// selected and sorted, a block as long as the moves already taken, so
    /// a Genesis node's hundreds of placements are not all sorted when
    /// late-move pruning will take only the first few dozen.
    pub(super) fn pick_quiet(pk: &mut Picker) -> Option<Move> {
        let (cur, list) = (pk.quiet_cur, &mut pk.bufs.quiets);
        if cur >= list.len() {
            return None;
        }
        if cur < pk.quiet_sorted {
            // In place already.
        } else if cur < SELECT_QUIETS {
            let (mut best, mut best_score) = (cur, list[cur].0);
            for (j, &(s, _)) in list.iter().enumerate().skip(cur + 1) {
                if s > best_score {
                    (best, best_score) = (j, s);
                }
            }
            list[cur..=best].rotate_right(1);
        } else {
            let rest = &mut list[cur..];
            let block = cur.min(rest.len());
            if block < rest.len() {
                rest.select_nth_unstable_by_key(block - 1, |&(s, _)| std::cmp::Reverse(s));
            }
            rest[..block].sort_unstable_by_key(|&(s, _)| std::cmp::Reverse(s));
            pk.quiet_sorted = cur + block;
        }
        pk.quiet_cur += 1;
        Some(list[cur].1)
    }

    /// The index of the best remaining noisy move (the first of equals).
    #[inline]
    pub(super) fn best_noisy(pk: &Picker) -> Option<usize> {
        let list = &pk.bufs.noisy;
        if pk.noisy_cur >= list.len() {
            return None;
        }
        let mut best = pk.noisy_cur;
        for j in pk.noisy_cur + 1..list.len() {
            if list[j].0 > list[best].0 {
                best = j;
            }
        }
        Some(best)
    }

    /// Takes the noisy move at `best` out of the remaining ones.
    #[inline]
    pub(super) fn take_noisy(pk: &mut Picker, best: usize) -> Move {
        pk.bufs.noisy.swap(pk.noisy_cur, best);
        let m = pk.bufs.noisy[pk.noisy_cur].1;
        pk.noisy_cur += 1;
        m
    }

    /// The best remaining noisy move that does not lose material (SEE ≥ 0).
    /// A move is tested when it comes up: one that loses is marked with
    /// [`BAD_NOISY`] and left for [`Worker::pick_bad_noisy`], so the moves
    /// come in the order that testing them all first would give.
    pub(super) fn pick_good_noisy(pos: &P, pk: &mut Picker) -> Option<Move> {
        loop {
            let best = Self::best_noisy(pk)?;
            let (score, m) = pk.bufs.noisy[best];
            if score < BAD_NOISY / 2 {
                return None;
            }
            if see_ge(pos, m, 0) {
                return Some(Self::take_noisy(pk, best));
            }
            pk.bufs.noisy[best].0 = score + BAD_NOISY;
        }
    }

    /// The best remaining noisy move: after [`Worker::pick_good_noisy`],
    /// the ones that lose material.
    pub(super) fn pick_bad_noisy(pk: &mut Picker) -> Option<Move> {
        let best = Self::best_noisy(pk)?;
        Some(Self::take_noisy(pk, best))
    }

    pub(super) fn next_move(&mut self, pos: &P, pk: &mut Picker, ply: usize, in_check: bool) -> Option<(Move, Picked)> {
        loop {
            match pk.stage {
                Stage::Tt => {
                    pk.stage = Stage::GoodNoisy;
                    if P::CHEAP_IS_LEGAL {
                        // Tested by the rules before anything is generated:
                        // when it cuts, nothing is.
                        if pk.tt != 0 {
                            pk.tt_move = Self::legal_tt(pos, pk, in_check);
                        }
                    } else if pk.tt_move.is_none() && pk.tt != 0 && (!pk.qsearch || in_check) {
                        // Not a noisy move: the quiet list tells whether
                        // the TT move is legal here.
                        self.gen_quiets(pos, pk);
                    }
                    if let Some(m) = pk.tt_move {
                        return Some((m, Picked::Tt));
                    }
                }
                Stage::GoodNoisy => {
                    if !pk.noisy_done {
                        self.gen_noisy(pos, pk);
                    }
                    if let Some(m) = Self::pick_good_noisy(pos, pk) {
                        return Some((m, Picked::GoodNoisy));
                    }
                    pk.stage = if pk.qsearch && !in_check {
                        Stage::Done
                    } else if P::CHEAP_IS_LEGAL && !pk.qsearch {
                        // The refutations are tested one by one; the quiets
                        // are generated only if none of them cuts.
                        Stage::Killer1
                    } else {
                        Stage::GenQuiets
                    };
                }
                Stage::GenQuiets => {
                    if !pk.quiets_done {
                        self.gen_quiets(pos, pk);
                    }
                    pk.stage = if pk.qsearch || P::CHEAP_IS_LEGAL { Stage::Quiets } else { Stage::Killer1 };
                }
                Stage::Killer1 => {
                    pk.stage = Stage::Killer2;
                    if !pk.skip_quiets {
                        if let Some(m) = Self::refutation(pos, pk, 0) {
                            return Some((m, Picked::Refutation));
                        }
                    }
                }
                Stage::Killer2 => {
                    pk.stage = Stage::Counter;
                    if !pk.skip_quiets {
                        if let Some(m) = Self::refutation(pos, pk, 1) {
                            return Some((m, Picked::Refutation));
                        }
                    }
                }
                Stage::Counter => {
                    pk.stage = if P::CHEAP_IS_LEGAL { Stage::GenQuiets } else { Stage::Quiets };
                    if !pk.skip_quiets {
                        if let Some(m) = Self::refutation(pos, pk, 2) {
                            return Some((m, Picked::Refutation));
                        }
                    }
                }
                Stage::Quiets => {
                    if !pk.skip_quiets {
                        if !pk.quiets_scored {
                            self.score_quiets(pos, pk, ply);
                        }
                        if let Some(m) = Self::pick_quiet(pk) {
                            return Some((m, Picked::Quiet));
                        }
                    }
                    pk.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if let Some(m) = Self::pick_bad_noisy(pk) {
                        return Some((m, Picked::BadNoisy));
                    }
                    pk.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    pub(super) fn end_picker(&mut self, pk: Picker, ply: usize) {
        self.bufs[ply] = pk.bufs;
    }
}
