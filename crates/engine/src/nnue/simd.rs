//! The vector kernels: AVX-512 (F and BW) where the CPU has it, else AVX2,
//! else a portable loop, chosen at run time. Integer sums (wrapping `i16`
//! adds, exact `i32` dots), so all three give the same bits (tested).
//!
//! Every kernel takes two slices of the same length, a multiple of 16 (a
//! net's hidden width; the AVX2 loops work 16 lanes at a time, the AVX-512
//! ones 32 and end an odd multiple of 16 with AVX2's). A longer slice's
//! extra lanes are left out.

use super::{MAX_HIDDEN, QA};

/// The lanes both slices have, rounded down to a multiple of 16.
#[inline]
fn lanes(a: usize, b: usize) -> usize {
    a.min(b) & !15
}

/// The widest kernels the CPU can run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// The plain loops (every CPU).
    Portable,
    /// AVX2: 16 lanes a register.
    Avx2,
    /// AVX-512F and BW, with AVX2 for a width that is an odd multiple
    /// of 16: 32 lanes a register.
    Avx512,
}

/// The kernels' level on this CPU, asked of it once and kept: a kernel
/// call then costs one load and one branch to dispatch. AVX-512 is
/// taken only with AVX2 as well (every such CPU has it; a virtual
/// machine that hid it gets the plain loops).
#[inline]
pub fn level() -> Level {
    static LEVEL: std::sync::OnceLock<Level> = std::sync::OnceLock::new();
    *LEVEL.get_or_init(detect)
}

fn detect() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx2") {
            return if has!("avx512f") && has!("avx512bw") { Level::Avx512 } else { Level::Avx2 };
        }
    }
    Level::Portable
}

/// `dst = src + Σ rows[adds] − Σ rows[subs]` (`src` absent: `dst`
/// itself), lane by lane with wrapping `i16` arithmetic, in one pass:
/// each lane of the source is read once and each lane of `dst` written
/// once. `adds` and `subs` are indices into `rows`.
#[inline]
pub fn update(dst: &mut [i16], src: Option<&[i16]>, rows: &[[i16; MAX_HIDDEN]], adds: &[u16], subs: &[u16]) {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: the CPU has AVX-512F, AVX-512BW and AVX2 (`level`).
        Level::Avx512 => return unsafe { x86::avx512::update(dst, src, rows, adds, subs) },
        // SAFETY: the CPU has AVX2 (`level`).
        Level::Avx2 => return unsafe { x86::update(dst, src, rows, adds, subs) },
        Level::Portable => {}
    }
    portable::update(dst, src, rows, adds, subs);
}

/// The lanes of an update: those `dst` and `src` both have, at most a
/// row's, rounded down to a multiple of 16.
#[inline]
fn update_lanes(dst: &[i16], src: Option<&[i16]>) -> usize {
    lanes(dst.len().min(MAX_HIDDEN), src.map_or(dst.len(), |s| s.len()))
}

/// `Σ clamp(acc[i], 0, QA) · w[i]`.
#[inline]
pub fn crelu_dot(acc: &[i16], w: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: the CPU has AVX-512F, AVX-512BW and AVX2 (`level`).
        Level::Avx512 => return unsafe { x86::avx512::crelu_dot(acc, w) },
        // SAFETY: the CPU has AVX2 (`level`).
        Level::Avx2 => return unsafe { x86::crelu_dot(acc, w) },
        Level::Portable => {}
    }
    portable::crelu_dot(acc, w)
}

/// `Σ v · (v · w)` with `v = clamp(acc[i], 0, QA)` and `v · w` taken as
/// a wrapping `i16` (exact while `|w| ≤ 128`, which the trainer's
/// clipping keeps: the product then fits `i16`, and `madd` can sum
/// pairs of `v · (v · w)` in `i32`).
#[inline]
pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    match level() {
        // SAFETY: the CPU has AVX-512F, AVX-512BW and AVX2 (`level`).
        Level::Avx512 => return unsafe { x86::avx512::screlu_dot(acc, w) },
        // SAFETY: the CPU has AVX2 (`level`).
        Level::Avx2 => return unsafe { x86::screlu_dot(acc, w) },
        Level::Portable => {}
    }
    portable::screlu_dot(acc, w)
}

/// The plain loops (the reference the AVX2 kernels must match).
pub mod portable {
    use super::{lanes, update_lanes, MAX_HIDDEN, QA};

    pub fn update(dst: &mut [i16], src: Option<&[i16]>, rows: &[[i16; MAX_HIDDEN]], adds: &[u16], subs: &[u16]) {
        let n = update_lanes(dst, src);
        for i in 0..n {
            let mut v = src.map_or(dst[i], |s| s[i]);
            for &a in adds {
                v = v.wrapping_add(rows[a as usize][i]);
            }
            for &s in subs {
                v = v.wrapping_sub(rows[s as usize][i]);
            }
            dst[i] = v;
        }
    }

    pub fn crelu_dot(acc: &[i16], w: &[i16]) -> i32 {
        let mut s = 0i32;
        let n = lanes(acc.len(), w.len());
        for (a, x) in acc[..n].iter().zip(&w[..n]) {
            s = s.wrapping_add((*a as i32).clamp(0, QA) * *x as i32);
        }
        s
    }

    pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        let mut s = 0i32;
        let n = lanes(acc.len(), w.len());
        for (a, x) in acc[..n].iter().zip(&w[..n]) {
            let v = (*a).clamp(0, QA as i16);
            s = s.wrapping_add(v.wrapping_mul(*x) as i32 * v as i32);
        }
        s
    }
}

#[cfg(target_arch = "x86_64")]
pub mod x86 {
    use super::{lanes, update_lanes, MAX_HIDDEN, QA};
    use std::arch::x86_64::*;

    /// The accumulator update for one register width (AVX2's and
    /// AVX-512's), given its features, lanes, register type and
    /// intrinsics: `update` works `$regs` registers (128 lanes) at a
    /// time, held in registers while every row is added or removed, then
    /// one register at a time; 16 lanes left over (AVX-512 on a width
    /// that is an odd multiple of 16) go to `$tail`.
    macro_rules! update_kernel {
        (
            $update_features:literal, $tile_features:literal, $lanes:literal, $regs:literal, $tail:path,
            $reg:ty, $zero:ident, $load:ident, $store:ident, $add:ident, $sub:ident
        ) => {
            /// # Safety
            /// The CPU must have the features this kernel is built for.
            #[target_feature(enable = $update_features)]
            pub unsafe fn update(
                dst: &mut [i16],
                src: Option<&[i16]>,
                rows: &[[i16; MAX_HIDDEN]],
                adds: &[u16],
                subs: &[u16],
            ) {
                let n = update_lanes(dst, src);
                let mut t = 0;
                while t + $lanes * $regs <= n {
                    tile::<$regs>(dst, src, rows, adds, subs, t);
                    t += $lanes * $regs;
                }
                while t + $lanes <= n {
                    tile::<1>(dst, src, rows, adds, subs, t);
                    t += $lanes;
                }
                if t < n {
                    $tail(dst, src, rows, adds, subs, t);
                }
            }

            /// `tile::<M>`: lanes `t .. t + L M` of `update`, `M`
            /// registers of `L` lanes.
            ///
            /// # Safety
            /// The CPU must have the features named, and `t + L M` must
            /// be at most `update_lanes(dst, src)` (so at most a row's
            /// length).
            #[target_feature(enable = $tile_features)]
            #[inline]
            unsafe fn tile<const M: usize>(
                dst: &mut [i16],
                src: Option<&[i16]>,
                rows: &[[i16; MAX_HIDDEN]],
                adds: &[u16],
                subs: &[u16],
                t: usize,
            ) {
                // `src` may be `dst` itself: the tile is read before it is written.
                let from = src.map_or(dst.as_ptr(), |s| s.as_ptr()).add(t);
                let mut r = [$zero(); M];
                for (c, v) in r.iter_mut().enumerate() {
                    *v = $load(from.add($lanes * c) as *const $reg);
                }
                for &a in adds {
                    let w = rows[a as usize].as_ptr().add(t);
                    for (c, v) in r.iter_mut().enumerate() {
                        *v = $add(*v, $load(w.add($lanes * c) as *const $reg));
                    }
                }
                for &s in subs {
                    let w = rows[s as usize].as_ptr().add(t);
                    for (c, v) in r.iter_mut().enumerate() {
                        *v = $sub(*v, $load(w.add($lanes * c) as *const $reg));
                    }
                }
                let to = dst.as_mut_ptr().add(t);
                for (c, v) in r.iter().enumerate() {
                    $store(to.add($lanes * c) as *mut $reg, *v);
                }
            }
        };
    }

    update_kernel!(
        "avx2",
        "avx2",
        16,
        8,
        tile::<1>,
        __m256i,
        _mm256_setzero_si256,
        _mm256_loadu_si256,
        _mm256_storeu_si256,
        _mm256_add_epi16,
        _mm256_sub_epi16
    );

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn crelu_dot(acc: &[i16], w: &[i16]) -> i32 {
        dot::<false>(acc, w)
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        dot::<true>(acc, w)
    }

    /// `Σ v · w` (`SQUARE` false) or `Σ v · (v · w)` (true), with
    /// `v = clamp(acc, 0, QA)`.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn dot<const SQUARE: bool>(acc: &[i16], w: &[i16]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..lanes(acc.len(), w.len())).step_by(16) {
            let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
            let b = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            let term = if SQUARE { _mm256_madd_epi16(_mm256_mullo_epi16(v, b), v) } else { _mm256_madd_epi16(v, b) };
            sum = _mm256_add_epi32(sum, term);
        }
        let hi = _mm256_extracti128_si256(sum, 1);
        let s = _mm_add_epi32(_mm256_castsi256_si128(sum), hi);
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    }

    /// The same kernels 32 lanes a register (AVX-512F and BW). A width
    /// that is not a multiple of 32 ends with the AVX2 kernels' 16.
    pub mod avx512 {
        use super::super::{lanes, update_lanes, MAX_HIDDEN, QA};
        use std::arch::x86_64::*;

        update_kernel!(
            "avx512f,avx512bw,avx2",
            "avx512f,avx512bw",
            32,
            4,
            super::tile::<1>,
            __m512i,
            _mm512_setzero_si512,
            _mm512_loadu_si512,
            _mm512_storeu_si512,
            _mm512_add_epi16,
            _mm512_sub_epi16
        );

        /// # Safety
        /// The CPU must have AVX-512F, AVX-512BW and AVX2.
        #[target_feature(enable = "avx512f,avx512bw,avx2")]
        pub unsafe fn crelu_dot(acc: &[i16], w: &[i16]) -> i32 {
            let n = lanes(acc.len(), w.len());
            let m = n & !31;
            dot::<false>(&acc[..m], &w[..m]).wrapping_add(super::crelu_dot(&acc[m..n], &w[m..n]))
        }

        /// # Safety
        /// The CPU must have AVX-512F, AVX-512BW and AVX2.
        #[target_feature(enable = "avx512f,avx512bw,avx2")]
        pub unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
            let n = lanes(acc.len(), w.len());
            let m = n & !31;
            dot::<true>(&acc[..m], &w[..m]).wrapping_add(super::screlu_dot(&acc[m..n], &w[m..n]))
        }

        /// [`super::dot`] over slices whose length is a multiple of 32
        /// (integer sums wrap, so the order of the additions does not
        /// change the result).
        ///
        /// # Safety
        /// The CPU must have AVX-512F and BW.
        #[target_feature(enable = "avx512f,avx512bw")]
        unsafe fn dot<const SQUARE: bool>(acc: &[i16], w: &[i16]) -> i32 {
            let zero = _mm512_setzero_si512();
            let qa = _mm512_set1_epi16(QA as i16);
            let mut sum = _mm512_setzero_si512();
            for i in (0..acc.len().min(w.len())).step_by(32) {
                let a = _mm512_loadu_si512(acc.as_ptr().add(i) as *const __m512i);
                let b = _mm512_loadu_si512(w.as_ptr().add(i) as *const __m512i);
                let v = _mm512_min_epi16(_mm512_max_epi16(a, zero), qa);
                let term =
                    if SQUARE { _mm512_madd_epi16(_mm512_mullo_epi16(v, b), v) } else { _mm512_madd_epi16(v, b) };
                sum = _mm512_add_epi32(sum, term);
            }
            _mm512_reduce_add_epi32(sum)
        }
    }
}
