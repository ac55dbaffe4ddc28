//! Accumulators: a net's hidden layer made from scratch or updated from a
//! nearby one by the difference of two snapshots, the search's stack of
//! them and the cache of each king bucket's last accumulator.

use super::*;

/// The hidden layer of both perspectives (by absolute colour: White's
/// view, Black's view).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub v: [[i16; MAX_HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { v: [[0; MAX_HIDDEN]; 2] }
    }
}

/// Where a batch of [`Changes`] starts from.
#[derive(Clone, Copy)]
pub(super) enum Source<'a> {
    /// The accumulator being updated.
    Itself,
    /// Another accumulator (copied and updated in one pass).
    Other(&'a Accumulator),
    /// The net's biases (a refresh).
    Bias,
}

/// Additions (and removals) a fused pass takes at most.
pub(super) const BATCH: usize = 16;

/// Feature changes gathered for one fused pass over an accumulator: up to
/// [`BATCH`] additions and as many removals at a time (a larger
/// change, such as a refresh, takes several passes).
pub(super) struct Changes<'a> {
    pub(super) net: &'a Network,
    pub(super) acc: &'a mut Accumulator,
    pub(super) source: Source<'a>,
    /// The row of input 0 in each perspective (its king bucket's first).
    pub(super) base: [u16; 2],
    /// Rows of the first layer to add and to remove, per perspective.
    pub(super) adds: [[u16; BATCH]; 2],
    pub(super) subs: [[u16; BATCH]; 2],
    pub(super) n_adds: usize,
    pub(super) n_subs: usize,
    /// The perspectives the changes are applied to (both unless told).
    pub(super) mask: [bool; 2],
}

impl<'a> Changes<'a> {
    fn new(net: &'a Network, acc: &'a mut Accumulator, base: [u16; 2]) -> Self {
        Changes {
            net,
            acc,
            source: Source::Itself,
            base,
            adds: [[0; BATCH]; 2],
            subs: [[0; BATCH]; 2],
            n_adds: 0,
            n_subs: 0,
            mask: [true; 2],
        }
    }

    /// Gathers every feature that differs between `from` and `to`: those
    /// of `to` alone are added, those of `from` alone removed.
    #[inline(always)]
    fn diff(&mut self, from: &Snapshot, to: &Snapshot) {
        // The words that differ, found in one branch-free pass (a move
        // changes two to four of the twenty), then only those are read.
        let (f, t) = (from.words.as_flattened(), to.words.as_flattened());
        let mut changed = 0u32;
        for i in 0..2 * WORDS {
            changed |= u32::from(f[i] != t[i]) << i;
        }
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            // Word i is colour i / WORDS's word i % WORDS: its codes start
            // at 64 i ([`code`]).
            let (old, new, first) = (f[i], t[i], (i * 64) as u16);
            for b in bits(new & !old) {
                self.add(first + b as u16);
            }
            for b in bits(old & !new) {
                self.sub(first + b as u16);
            }
        }
    }

    #[inline]
    fn add(&mut self, code: u16) {
        self.push(code, false);
    }

    #[inline]
    fn sub(&mut self, code: u16) {
        self.push(code, true);
    }

    /// Gathers the rows of feature `code` for both perspectives, to be
    /// added or (`remove`) subtracted; a full batch is applied first.
    #[inline]
    fn push(&mut self, code: u16, remove: bool) {
        if (if remove { self.n_subs } else { self.n_adds }) == BATCH {
            self.apply();
        }
        let (rows, n) = if remove { (&mut self.subs, &mut self.n_subs) } else { (&mut self.adds, &mut self.n_adds) };
        for ((rows, index), base) in rows.iter_mut().zip(&INDEX).zip(self.base) {
            rows[*n] = base + index[code as usize];
        }
        *n += 1;
    }

    /// Applies the gathered changes (and the copy from the source) to both
    /// perspectives; later batches start from the accumulator itself.
    fn apply(&mut self) {
        let net = self.net;
        let h = net.width;
        for p in 0..2 {
            if !self.mask[p] {
                continue;
            }
            let (adds, subs) = (&self.adds[p][..self.n_adds], &self.subs[p][..self.n_subs]);
            let dst = &mut self.acc.v[p][..h];
            let src = match self.source {
                Source::Itself => None,
                Source::Other(src) => Some(&src.v[p][..h]),
                Source::Bias => Some(&net.b[..h]),
            };
            simd::update(dst, src, &net.w, adds, subs);
        }
        self.source = Source::Itself;
        self.n_adds = 0;
        self.n_subs = 0;
    }
}

impl Network {
    /// The accumulator of a snapshot, from scratch.
    pub fn refresh(&self, s: &Snapshot) -> Accumulator {
        let mut acc = Accumulator::default();
        self.refresh_into(s, &mut acc);
        acc
    }

    /// [`Network::refresh`] into `acc`, whose lanes past the net's width
    /// are left as they are.
    pub fn refresh_into(&self, s: &Snapshot, acc: &mut Accumulator) {
        self.refresh_masked(s, s.king_rows(self.kings), acc, [true; 2]);
    }

    /// The perspectives of `mask` in `acc` made from scratch (the biases
    /// and every feature) for `s`, whose king rows are `rows`.
    pub(super) fn refresh_masked(&self, s: &Snapshot, rows: [u16; 2], acc: &mut Accumulator, mask: [bool; 2]) {
        let mut changes = Changes::new(self, acc, rows);
        changes.mask = mask;
        changes.source = Source::Bias;
        changes.diff(&Snapshot::default(), s);
        changes.apply();
    }

    /// Moves `acc` from the snapshot `from` to the snapshot `to`.
    pub fn update(&self, from: &Snapshot, to: &Snapshot, acc: &mut Accumulator) {
        self.update_from(None, from, to, acc);
    }

    /// [`Network::update`], reading the accumulator of `from` from `src`
    /// when given (`acc` is then overwritten in the net's lanes): one pass
    /// over the lanes of each perspective for all the changes together,
    /// the copy included. Should a King have changed bucket between the
    /// two, every input of its perspective changes: that perspective is
    /// made from scratch (the other is still updated).
    pub fn update_from(&self, src: Option<&Accumulator>, from: &Snapshot, to: &Snapshot, acc: &mut Accumulator) {
        let rows = [from.king_rows(self.kings), to.king_rows(self.kings)];
        self.update_with(src, from, to, rows, acc, None);
    }

    /// [`Network::update_from`]; with a [`KingCache`], a perspective whose
    /// King changed bucket starts from the accumulator it last had in the
    /// new bucket rather than from scratch. `rows`: the king rows
    /// ([`Snapshot::king_rows`]) of `from` and of `to`.
    #[inline]
    pub(super) fn update_with(
        &self,
        src: Option<&Accumulator>,
        from: &Snapshot,
        to: &Snapshot,
        [old, rows]: [[u16; 2]; 2],
        acc: &mut Accumulator,
        cache: Option<&mut KingCache>,
    ) {
        if rows != old {
            self.update_across_buckets(src, from, to, [old, rows], acc, cache);
            return;
        }
        self.apply_diff(src, from, to, rows, acc, [true; 2]);
    }

    /// Moves the perspectives of `mask` in `acc` (from `src`'s when given)
    /// from `from` to `to`, whose king rows are `rows`, in one pass.
    #[inline(always)]
    pub(super) fn apply_diff(
        &self,
        src: Option<&Accumulator>,
        from: &Snapshot,
        to: &Snapshot,
        rows: [u16; 2],
        acc: &mut Accumulator,
        mask: [bool; 2],
    ) {
        let mut changes = Changes::new(self, acc, rows);
        changes.mask = mask;
        if let Some(src) = src {
            changes.source = Source::Other(src);
        }
        changes.diff(from, to);
        changes.apply();
    }

    /// [`Network::update_with`] when a King has changed bucket: the
    /// perspective whose King kept its bucket is updated, the other made
    /// again (by way of the cache when there is one). Kept out of line, as
    /// it is the rare case.
    #[cold]
    #[inline(never)]
    pub(super) fn update_across_buckets(
        &self,
        src: Option<&Accumulator>,
        from: &Snapshot,
        to: &Snapshot,
        [old, rows]: [[u16; 2]; 2],
        acc: &mut Accumulator,
        mut cache: Option<&mut KingCache>,
    ) {
        let same = [rows[0] == old[0], rows[1] == old[1]];
        if same[0] || same[1] {
            self.apply_diff(src, from, to, rows, acc, same);
        }
        for (p, _) in same.iter().enumerate().filter(|(_, same)| !**same) {
            match cache.as_deref_mut() {
                Some(cache) => cache.refresh(self, p, rows, to, acc),
                None => self.refresh_masked(to, rows, acc, [p == 0, p == 1]),
            }
        }
    }
}

/// A distance between snapshots ([`Snapshot::distance`]) that a single
/// move rarely beats: [`Stack::evaluate`] looks no further once an
/// accumulator that near is found.
pub(super) const NEAR: u32 = 3;

/// Accumulators along the search path, one per ply.
pub struct Stack {
    pub(super) slots: Vec<Slot>,
    pub(super) cache: KingCache,
}

/// For each perspective and king bucket, the accumulator that perspective
/// last had in that bucket and the snapshot it was made for (Stockfish's
/// "Finny tables"). When a King changes bucket, its perspective is made
/// from this entry by the changes since (a King stepping back to the
/// bucket it left a few moves ago: a handful), not from scratch (every
/// piece on the board).
///
/// The entries are allocated at the first change of bucket, so a search
/// without a net, or one whose Kings never change bucket, spends nothing
/// on them.
pub struct KingCache {
    pub(super) entries: Option<Box<[[CacheEntry; MAX_KINGS]; 2]>>,
}

#[derive(Clone, Copy, Default)]
pub(super) struct CacheEntry {
    pub(super) valid: bool,
    pub(super) snap: Snapshot,
    pub(super) acc: Accumulator,
}

/// The most king buckets a net may have ([`KING_BUCKETS`]).
pub(super) const MAX_KINGS: usize = 8;

impl KingCache {
    fn new() -> KingCache {
        KingCache { entries: None }
    }

    /// Sets perspective `p` of `acc` to the accumulator of `to`, whose
    /// king-bucket rows are `rows`, by way of the entry of its bucket
    /// (made from scratch when the entry is empty, or further from `to`
    /// than `to` has features).
    fn refresh(&mut self, net: &Network, p: usize, rows: [u16; 2], to: &Snapshot, acc: &mut Accumulator) {
        let entries = self.entries.get_or_insert_with(|| Box::new([[CacheEntry::default(); MAX_KINGS]; 2]));
        let e = &mut entries[p][rows[p] as usize / INPUTS];
        let mask = [p == 0, p == 1];
        if !e.valid || e.snap.distance(to) >= to.count() {
            net.refresh_masked(to, rows, &mut e.acc, mask);
        } else {
            net.apply_diff(None, &e.snap, to, rows, &mut e.acc, mask);
        }
        e.valid = true;
        e.snap = *to;
        let h = net.width;
        acc.v[p][..h].copy_from_slice(&e.acc.v[p][..h]);
    }
}

#[derive(Clone, Copy, Default)]
pub(super) struct Slot {
    pub(super) valid: bool,
    pub(super) snap: Snapshot,
    /// The king rows of `snap` ([`Snapshot::king_rows`]) in the net's buckets.
    pub(super) rows: [u16; 2],
    pub(super) acc: Accumulator,
}

impl Stack {
    pub fn new(plies: usize) -> Stack {
        Stack { slots: vec![Slot::default(); plies], cache: KingCache::new() }
    }

    /// The network's evaluation of `pos` (at `ply` of the search) for the
    /// side to move, from the cheapest nearby accumulator (module
    /// documentation).
    pub fn evaluate<P: Evaluate>(&mut self, net: &Network, pos: &P, ply: usize) -> i32 {
        let ply = ply.min(self.slots.len() - 1);
        let snap = Snapshot::of(pos);
        let rows = snap.king_rows(net.kings);
        // The parent first: one move away, it usually differs by two to
        // four features (a capture three, a castling four), and then the
        // others are not looked at.
        let mut best: Option<(usize, u32)> = None;
        for q in [ply.wrapping_sub(1), ply, ply.wrapping_sub(2)] {
            if let Some(s) = self.slots.get(q).filter(|s| s.valid) {
                let d = s.snap.distance(&snap);
                if best.is_none_or(|(_, bd)| d < bd) {
                    best = Some((q, d));
                }
                if d <= NEAR {
                    break;
                }
            }
        }
        // The accumulator is built in its slot, copied from a parent's and
        // updated in one pass over the net's lanes (a 128-wide net touches
        // half of them).
        match best {
            Some((q, d)) if d <= NEAR || d < snap.count() => {
                let cache = Some(&mut self.cache);
                if q == ply {
                    let slot = &mut self.slots[ply];
                    net.update_with(None, &slot.snap, &snap, [slot.rows, rows], &mut slot.acc, cache);
                } else {
                    let (lo, hi) = self.slots.split_at_mut(ply);
                    net.update_with(Some(&lo[q].acc), &lo[q].snap, &snap, [lo[q].rows, rows], &mut hi[0].acc, cache);
                }
            }
            _ => net.refresh_into(&snap, &mut self.slots[ply].acc),
        }
        let slot = &mut self.slots[ply];
        slot.valid = true;
        slot.snap = snap;
        slot.rows = rows;
        net.output(&slot.acc, pos.turn(), &slot.snap)
    }
}
