//! The shared, lock-free transposition table.
//!
//! Buckets of 32 bytes hold three entries: three packed 64-bit data words
//! and one word of three 16-bit checks (the key's low 16 bits XOR a fold of
//! the entry's data; the bucket is chosen by the key's high bits). A torn
//! write by another thread (a data word without its check, or the reverse)
//! then reads as a miss, not as another position's entry. Replacement
//! prefers the same position, then an empty entry, then the shallowest /
//! oldest.
//!
//! The buckets live in one allocation aligned to 2 MB that Linux is asked
//! to back with huge pages (`madvise(MADV_HUGEPAGE)`, as Stockfish does):
//! a probe lands on a random bucket, and with 4 KB pages nearly every
//! probe of a table of tens of megabytes would also miss the TLB and walk
//! the page tables. Where the kernel declines, the table works the same on
//! small pages.
//!
//! Moves are stored as a 20-bit code ([`encode_move`]). The search
//! compares codes with the legal moves it generated, or, in a variant
//! whose legality test is cheap (chess and Genesis: `Position::CHEAP_IS_LEGAL`),
//! decodes one ([`decode_move`]) and plays it only if the rules'
//! `is_legal` accepts it; either way a stale or colliding entry can never
//! produce an illegal move.

use chimera_rules::{Color, Move, MoveKind, Role, Square};
use std::alloc::{self, Layout};
use std::ptr::NonNull;
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

/// The kinds of a move code (`code >> SQUARE_BITS`, less one), laid out
/// from [`Role::COUNT`]: the four plain kinds, a promotion per role, the
/// flip, a drop and a re-entry per role, the declaration and the three ring
/// passes. Every persisted code (the table's, `chimera datagen`'s records)
/// follows this layout; [`MOVE_CODE_LAYOUT`] names it.
pub mod kind {
    use chimera_rules::Role;

    pub const NORMAL: u32 = 0;
    pub const DOUBLE_PUSH: u32 = 1;
    pub const EN_PASSANT: u32 = 2;
    pub const CASTLE: u32 = 3;
    /// `PROMOTION + role`.
    pub const PROMOTION: u32 = 4;
    pub const FLIP: u32 = PROMOTION + Role::COUNT as u32;
    /// `DROP + role`.
    pub const DROP: u32 = FLIP + 1;
    /// `RE_ENTRY + role`.
    pub const RE_ENTRY: u32 = DROP + Role::COUNT as u32;
    pub const DECLARE: u32 = RE_ENTRY + Role::COUNT as u32;
    /// `RING_PASS` + 0 (one ring), 1 (White's of two), 2 (Black's).
    pub const RING_PASS: u32 = DECLARE + 1;
    /// The number of kinds of code.
    pub const COUNT: u32 = RING_PASS + 3;
}

/// Bits of a move code above its squares.
pub const KIND_BITS: u32 = 8;

// Every kind, plus one (0 is no move), fits above the squares in 20 bits;
// the layout has one kind per `MoveKind` variant, a role-carrying one once
// per role.
const _: () = assert!(kind::COUNT < 1 << KIND_BITS && SQUARE_BITS + KIND_BITS == 20);
const _: () = assert!(kind::COUNT as usize == MoveKind::COUNT + 3 * (Role::COUNT - 1) + 2);

/// A fingerprint of the move-code layout: the counts it is derived from
/// (`Role::COUNT`, `MoveKind::COUNT`) and the number of kinds. A file of
/// move codes (`chimera datagen`'s records) carries it, and a reader
/// refuses codes of another layout.
pub const MOVE_CODE_LAYOUT: u32 = Role::COUNT as u32 | (MoveKind::COUNT as u32) << 8 | kind::COUNT << 16;

/// A move as a non-zero 20-bit code (0 = no move).
pub fn encode_move(m: Move) -> u32 {
    let k: u32 = match m.kind {
        MoveKind::Normal => kind::NORMAL,
        MoveKind::DoublePush => kind::DOUBLE_PUSH,
        MoveKind::EnPassant => kind::EN_PASSANT,
        MoveKind::Castle => kind::CASTLE,
        MoveKind::Promotion(r) => kind::PROMOTION + r.index() as u32,
        MoveKind::Flip => kind::FLIP,
        MoveKind::Drop(r) => kind::DROP + r.index() as u32,
        MoveKind::ReEntry(r) => kind::RE_ENTRY + r.index() as u32,
        MoveKind::Declare => kind::DECLARE,
        MoveKind::RingPass(None) => kind::RING_PASS,
        MoveKind::RingPass(Some(Color::White)) => kind::RING_PASS + 1,
        MoveKind::RingPass(Some(Color::Black)) => kind::RING_PASS + 2,
    };
    (encode_squares(m) | (k + 1) << SQUARE_BITS) & 0xFFFFF
}

/// The move of a code of [`encode_move`] (`None` for 0 or a code no move
/// has). Whether it is legal anywhere is the caller's question.
pub fn decode_move(code: u32) -> Option<Move> {
    let (from, to) = (Square::new(code & 63), Square::new((code >> 6) & 63));
    let role = |i: u32| Role::ALL.get(i as usize).copied();
    let roles = Role::COUNT as u32;
    let k = (code >> SQUARE_BITS).checked_sub(1)?;
    let kind = match k {
        kind::NORMAL => MoveKind::Normal,
        kind::DOUBLE_PUSH => MoveKind::DoublePush,
        kind::EN_PASSANT => MoveKind::EnPassant,
        kind::CASTLE => MoveKind::Castle,
        _ if (kind::PROMOTION..kind::PROMOTION + roles).contains(&k) => MoveKind::Promotion(role(k - kind::PROMOTION)?),
        kind::FLIP => MoveKind::Flip,
        _ if (kind::DROP..kind::DROP + roles).contains(&k) => MoveKind::Drop(role(k - kind::DROP)?),
        _ if (kind::RE_ENTRY..kind::RE_ENTRY + roles).contains(&k) => MoveKind::ReEntry(role(k - kind::RE_ENTRY)?),
        kind::DECLARE => MoveKind::Declare,
        k if k == kind::RING_PASS => MoveKind::RingPass(None),
        k if k == kind::RING_PASS + 1 => MoveKind::RingPass(Some(Color::White)),
        k if k == kind::RING_PASS + 2 => MoveKind::RingPass(Some(Color::Black)),
        _ => return None,
    };
    Some(Move::new(from, to, kind))
}

/// The low [`SQUARE_BITS`] bits of [`encode_move`]: the move's two squares
/// alone, without the branch on its kind. Moves whose squares differ from
/// a code's (`code & SQUARE_MASK`) are not that move.
#[inline]
pub fn encode_squares(m: Move) -> u32 {
    m.from.index() as u32 | (m.to.index() as u32) << 6
}

/// How many low bits of a move code hold its squares.
pub const SQUARE_BITS: u32 = 12;
/// The mask of those bits.
pub const SQUARE_MASK: u32 = (1 << SQUARE_BITS) - 1;

/// Three entries and their key checks: 32 bytes, aligned so that a bucket
/// never straddles a cache line.
#[repr(align(32))]
struct Bucket {
    /// Packed entries (`TranspositionTable::pack`); 0 = empty.
    data: [AtomicU64; 3],
    /// Entry `i`'s check in bits `16 i .. 16 i + 16`: the key's low 16 bits
    /// XOR a 16-bit fold of the entry's data.
    checks: AtomicU64,
}

/// The size and alignment of a huge page (x86-64 and most 64-bit Linux).
const HUGE_PAGE: usize = 2 << 20;

/// Zeroed buckets in one allocation aligned to [`HUGE_PAGE`], advised as
/// huge pages on Linux (module documentation).
struct Buckets {
    ptr: NonNull<Bucket>,
    layout: Layout,
    len: usize,
}

// SAFETY: `Buckets` owns its allocation, and a `Bucket` holds only atomics.
unsafe impl Send for Buckets {}
// SAFETY: as above; shared access goes through atomics only.
unsafe impl Sync for Buckets {}

impl Buckets {
    fn new(len: usize) -> Buckets {
        let bytes = len.max(1) * BUCKET_BYTES;
        let layout = Layout::from_size_align(bytes, HUGE_PAGE).expect("a table size is a power of two");
        // SAFETY: `layout` has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) };
        let Some(ptr) = NonNull::new(raw as *mut Bucket) else { alloc::handle_alloc_error(layout) };
        // The advice comes before the first write, so that the pages are
        // made huge when first touched (an aligned `alloc_zeroed` would
        // write its zeros first).
        #[cfg(target_os = "linux")]
        // SAFETY: the range is exactly our live allocation; the advice
        // changes how the kernel backs it, never its contents. Its result
        // is ignored on purpose: small pages work the same, only slower.
        unsafe {
            libc::madvise(raw as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
        }
        // SAFETY: `raw` is valid for `bytes` writes; all-zero bytes are a
        // valid `Bucket` (four `AtomicU64`s of 0: empty entries).
        unsafe { std::ptr::write_bytes(raw, 0, bytes) };
        Buckets { ptr, layout, len }
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` points to `len` initialised (zeroed) buckets that
        // live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `Buckets::new` with this very layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

pub struct TranspositionTable {
    buckets: Buckets,
    mask: usize,
    age: AtomicU8,
}

const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();
const WAYS: usize = 3;

/// The check of an entry: ties its data word to its key, so that a torn
/// write (another thread's data under this key's check, or the reverse)
/// reads as a miss, not as another position's entry.
#[inline]
fn check(key: u64, d: u64) -> u64 {
    (key ^ d ^ (d >> 16) ^ (d >> 32) ^ (d >> 48)) & 0xFFFF
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (rounded down to a power of two),
    /// never more than half the memory the system reports available, so a
    /// huge `Hash` value cannot get the process killed.
    pub fn new(mb: usize) -> TranspositionTable {
        let mb = clamp_mb(mb, available_mb());
        let bytes = mb * 1024 * 1024;
        // Number of buckets (three entries each): a power of two.
        let mut n = 1usize;
        while n * 2 * BUCKET_BYTES <= bytes {
            n *= 2;
        }
        TranspositionTable { buckets: Buckets::new(n), mask: n - 1, age: AtomicU8::new(0) }
    }

    /// Size in megabytes actually allocated.
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES / (1024 * 1024)
    }

    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for d in &b.data {
                d.store(0, Ordering::Relaxed);
            }
            b.checks.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Called once per search: older entries become preferred victims.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 63, Ordering::Relaxed);
    }

    /// Asks the CPU to bring the bucket of `key` into its cache, so that
    /// the probe a little later (the child's, after a move) does not wait
    /// for memory. A hint only: it changes no result.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: SSE is part of x86_64; a prefetch reads nothing and
            // cannot fault, and the address is that of a live bucket.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key >> 32) as usize & self.mask]
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

    /// The entries of `key`'s bucket: (data, whether it is `key`'s).
    #[inline]
    fn read(b: &Bucket, key: u64) -> [(u64, bool); WAYS] {
        let d = [0, 1, 2].map(|i| b.data[i].load(Ordering::Relaxed));
        let checks = b.checks.load(Ordering::Relaxed);
        [0, 1, 2].map(|i| (d[i], d[i] != 0 && (checks >> (16 * i)) & 0xFFFF == check(key, d[i])))
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        Self::read(self.bucket(key), key).iter().find(|(_, mine)| *mine).map(|&(d, _)| Self::unpack(d))
    }

    pub fn store(&self, key: u64, mut e: TtEntry) {
        let b = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed);
        let entries = Self::read(b, key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, &(d, mine)) in entries.iter().enumerate() {
            if mine {
                let old = Self::unpack(d);
                // Keep a deeper entry of the same position unless the new one is exact.
                if e.bound != Bound::Exact && old.depth > e.depth + 2 {
                    return;
                }
                if e.mv == 0 {
                    e.mv = old.mv;
                }
                victim = i;
                break;
            }
            if d == 0 {
                victim = i;
                worst = i32::MIN;
                continue;
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
        b.data[victim].store(d, Ordering::Relaxed);
        let shift = 16 * victim;
        let checks = b.checks.load(Ordering::Relaxed);
        b.checks.store((checks & !(0xFFFF << shift)) | (check(key, d) << shift), Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used in this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 3;
        let buckets = self.buckets.len().min(1000 / WAYS);
        let mut used = 0;
        for b in &self.buckets[..buckets] {
            for d in &b.data {
                let d = d.load(Ordering::Relaxed);
                if d != 0 && ((d >> 62) & 3) as u8 == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (buckets * WAYS).max(1)) as u32
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

    /// `decode_move` inverts `encode_move`: every code it decodes encodes
    /// back to itself, and each move kind of every role is reached.
    #[test]
    fn decode_inverts_encode() {
        let mut kinds = std::collections::HashSet::new();
        for code in 0..1u32 << 20 {
            if let Some(m) = decode_move(code) {
                assert_eq!(encode_move(m), code, "{m:?}");
                kinds.insert(m.kind);
            }
        }
        assert_eq!(kinds.len(), 4 + 8 + 1 + 8 + 8 + 1 + 3, "{kinds:?}");
        assert_eq!(decode_move(0), None);
        assert_eq!(decode_move((kind::COUNT + 1) << SQUARE_BITS), None, "past the last kind");
        assert_eq!(kind::COUNT, 33, "the layout of today's files: 8 roles");
        let m = Move::new(Square::E4, Square::E4, MoveKind::Drop(Role::Knight));
        assert_eq!(decode_move(encode_move(m)), Some(m));
    }

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

    /// Three positions of one bucket all stay; a fourth replaces the
    /// shallowest; a data word without its check is a miss.
    #[test]
    fn three_entries_a_bucket_and_torn_writes_miss() {
        let tt = TranspositionTable::new(1);
        let key = |i: u64| 0x1234_0000_0000_0000 | (i * 0x9E37);
        let e = |d: i32| TtEntry { mv: 7, score: d * 10, eval: 0, depth: d, bound: Bound::Exact };
        for i in 0..3 {
            tt.store(key(i), e(5 + i as i32));
        }
        for i in 0..3 {
            assert_eq!(tt.probe(key(i)).map(|x| x.depth), Some(5 + i as i32), "entry {i}");
        }
        tt.store(key(3), e(9));
        assert!(tt.probe(key(0)).is_none(), "the shallowest entry was replaced");
        assert_eq!(tt.probe(key(3)).map(|x| x.depth), Some(9));
        assert!(tt.probe(key(1)).is_some() && tt.probe(key(2)).is_some());
        // Another thread's data under this key's check: a miss.
        let b = tt.bucket(key(3));
        let i = (0..3).find(|&i| TranspositionTable::unpack(b.data[i].load(Ordering::Relaxed)).depth == 9).unwrap();
        b.data[i].store(TranspositionTable::pack(&e(4), 0), Ordering::Relaxed);
        assert!(tt.probe(key(3)).is_none());
        assert_eq!(std::mem::size_of::<Bucket>(), 32);
        assert_eq!(std::mem::align_of::<Bucket>(), 32);
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
