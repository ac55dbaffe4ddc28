//! The shared, lock-free transposition table.
//!
//! Each entry is two `AtomicU64`: `key ^ data` and `data` (the "XOR trick"):
//! a torn write by another thread makes `stored_key ^ data != key`, so the
//! entry reads as a miss instead of as garbage. Buckets hold two entries;
//! replacement prefers the same key, then the shallower / older entry.
//!
//! Moves are stored as a 20-bit code ([`encode_move`]); the search never
//! decodes them, it only compares codes with the legal moves it generated,
//! so a stale or colliding entry can never produce an illegal move.

use chimera_rules::{Color, Move, MoveKind};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    pub mv: u32,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// A move as a non-zero 20-bit code (0 = no move).
pub fn encode_move(m: Move) -> u32 {
    let k: u32 = match m.kind {
        MoveKind::Normal => 0,
        MoveKind::DoublePush => 1,
        MoveKind::EnPassant => 2,
        MoveKind::Castle => 3,
        MoveKind::Promotion(r) => 4 + r.index() as u32,
        MoveKind::Flip => 12,
        MoveKind::Drop(r) => 13 + r.index() as u32,
        MoveKind::ReEntry(r) => 21 + r.index() as u32,
        MoveKind::Declare => 29,
        MoveKind::RingPass(None) => 30,
        MoveKind::RingPass(Some(Color::White)) => 31,
        MoveKind::RingPass(Some(Color::Black)) => 32,
    };
    (m.from.index() as u32 | (m.to.index() as u32) << 6 | (k + 1) << 12) & 0xFFFFF
}

pub struct TranspositionTable {
    slots: Vec<AtomicU64>,
    mask: usize,
    age: AtomicU8,
}

const ENTRY_BYTES: usize = 16;

impl TranspositionTable {
    /// A table of about `mb` megabytes (rounded down to a power of two),
    /// never more than half the memory the system reports available, so a
    /// huge `Hash` value cannot get the process killed.
    pub fn new(mb: usize) -> TranspositionTable {
        let mb = clamp_mb(mb, available_mb());
        let bytes = mb * 1024 * 1024;
        // Number of buckets (two entries each): a power of two.
        let mut buckets = 1usize;
        while buckets * 2 * 2 * ENTRY_BYTES <= bytes {
            buckets *= 2;
        }
        let slots = (0..buckets * 4).map(|_| AtomicU64::new(0)).collect();
        TranspositionTable { slots, mask: buckets - 1, age: AtomicU8::new(0) }
    }

    /// Size in megabytes actually allocated.
    pub fn size_mb(&self) -> usize {
        self.slots.len() * 8 / (1024 * 1024)
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Called once per search: older entries become preferred victims.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 32) as usize & self.mask) * 4
    }

    #[inline]
    fn pack(e: &TtEntry, age: u8) -> u64 {
        (e.mv as u64 & 0xFFFFF)
            | ((e.score as i16 as u16 as u64) << 20)
            | ((e.eval as i16 as u16 as u64) << 36)
            | ((e.depth.clamp(0, 255) as u64) << 52)
            | ((e.bound as u64) << 60)
            | (((age & 3) as u64) << 62)
    }

    #[inline]
    fn unpack(d: u64) -> TtEntry {
        TtEntry {
            mv: (d & 0xFFFFF) as u32,
            score: ((d >> 20) & 0xFFFF) as u16 as i16 as i32,
            eval: ((d >> 36) & 0xFFFF) as u16 as i16 as i32,
            depth: ((d >> 52) & 0xFF) as i32,
            bound: match (d >> 60) & 3 {
                1 => Bound::Upper,
                2 => Bound::Lower,
                3 => Bound::Exact,
                _ => Bound::None,
            },
        }
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for i in 0..2 {
            let k = self.slots[b + 2 * i].load(Ordering::Relaxed);
            let d = self.slots[b + 2 * i + 1].load(Ordering::Relaxed);
            if d != 0 && k ^ d == key {
                return Some(Self::unpack(d));
            }
        }
        None
    }

    pub fn store(&self, key: u64, mut e: TtEntry) {
        let b = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for i in 0..2 {
            let k = self.slots[b + 2 * i].load(Ordering::Relaxed);
            let d = self.slots[b + 2 * i + 1].load(Ordering::Relaxed);
            if d == 0 || k ^ d == key {
                victim = i;
                if d != 0 && k ^ d == key {
                    let old = Self::unpack(d);
                    // Keep a deeper entry of the same position unless the new one is exact.
                    if e.bound != Bound::Exact && old.depth > e.depth + 2 {
                        return;
                    }
                    if e.mv == 0 {
                        e.mv = old.mv;
                    }
                }
                break;
            }
            let old = Self::unpack(d);
            let old_age = ((d >> 62) & 3) as u8;
            let value = old.depth - if old_age == (age & 3) { 0 } else { 16 };
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let d = Self::pack(&e, age);
        self.slots[b + 2 * victim].store(key ^ d, Ordering::Relaxed);
        self.slots[b + 2 * victim + 1].store(d, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used in this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 3;
        let n = (self.slots.len() / 2).min(1000);
        let mut used = 0;
        for i in 0..n {
            let d = self.slots[2 * i + 1].load(Ordering::Relaxed);
            if d != 0 && ((d >> 62) & 3) as u8 == age {
                used += 1;
            }
        }
        (used * 1000 / n.max(1)) as u32
    }
}

/// The size to allocate: 1 MB to 64 GB, at most half the available memory.
fn clamp_mb(request: usize, available: Option<usize>) -> usize {
    request.clamp(1, 1 << 16).min(available.map_or(usize::MAX, |a| (a / 2).max(1)))
}

/// `MemAvailable` of `/proc/meminfo` in MB (Linux); `None` elsewhere.
fn available_mb() -> Option<usize> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip_including_negative_scores() {
        let tt = TranspositionTable::new(1);
        let e = TtEntry { mv: 12345, score: -31000, eval: -77, depth: 9, bound: Bound::Lower };
        tt.store(0xDEAD_BEEF_1234_5678, e);
        let got = tt.probe(0xDEAD_BEEF_1234_5678).expect("stored entry is found");
        assert_eq!((got.mv, got.score, got.eval, got.depth, got.bound), (12345, -31000, -77, 9, Bound::Lower));
        // Another key in the same bucket does not read the entry.
        assert!(tt.probe(0xDEAD_BEEF_1234_5679).is_none());
    }

    /// A request far beyond the machine's memory is clamped, not fatal.
    #[test]
    fn huge_request_is_clamped() {
        assert_eq!(clamp_mb(65_536, Some(8_000)), 4_000);
        assert_eq!(clamp_mb(16, Some(8_000)), 16);
        assert_eq!(clamp_mb(0, None), 1);
        assert_eq!(clamp_mb(1 << 20, None), 1 << 16);
        assert_eq!(clamp_mb(64, Some(1)), 1);
    }
}
