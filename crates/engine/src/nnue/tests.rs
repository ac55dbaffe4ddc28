//! Tests of the network evaluation: features, file format, accumulators,
//! SIMD kernels and the built-in nets.

use super::*;
use crate::SplitMix;
use chimera_rules::with_position;
use chimera_rules::{AnyPosition, Position, RuleOptions};

/// A network of random small weights.
pub fn random_net(variant: Variant, seed: u64) -> Network {
    random_net_of(variant, seed, Shape::default())
}

/// A network of random small weights and the given shape.
pub fn random_net_of(variant: Variant, seed: u64, shape: Shape) -> Network {
    let mut rng = SplitMix(seed);
    let mut r = |m: u64| (rng.next() % (2 * m + 1)) as i32 - m as i32;
    let h = shape.width;
    let w: Vec<i16> = (0..shape.rows() * h).map(|_| r(40) as i16).collect();
    let b: Vec<i16> = (0..h).map(|_| r(60) as i16).collect();
    let o: Vec<i16> = (0..shape.buckets * 2 * h).map(|_| r(127) as i16).collect();
    let ob: Vec<i32> = (0..shape.buckets).map(|_| r(5000)).collect();
    Network::from_parts(variant, shape.activation, &w, &b, &o, &ob)
}

/// The non-default shape the tests try beside version 1.
const SCRELU8: Shape = Shape { activation: Activation::SCReLU, buckets: 8, width: MAX_HIDDEN, kings: 1 };
/// A net with four king buckets (version 3).
const KINGS4: Shape = Shape { activation: Activation::SCReLU, buckets: 4, width: 64, kings: 4 };
/// A net with eight king buckets (version 3).
const KINGS8: Shape = Shape { activation: Activation::SCReLU, buckets: 1, width: 32, kings: 8 };

/// The king buckets by hand: each side's own King, seen from its side
/// of the board; a King that crosses between the d- and e-files or
/// leaves its home rank changes bucket, and no King is bucket 0.
#[test]
fn king_buckets_by_hand() {
    let buckets = |fen: &str, n: usize| {
        let pos = AnyPosition::from_fen(Variant::Chess, fen, &RuleOptions::default()).unwrap();
        let snap = with_position!(&pos, p => Snapshot::of(p));
        let rows = snap.king_rows(n);
        assert_eq!(snap.king_rows(1), [0, 0]);
        [rows[0] as usize / INPUTS, rows[1] as usize / INPUTS]
    };
    let kings = |fen: &str| buckets(fen, 4);
    // White castled short (g1): 1; Black's King on b8, its home rank: 0.
    assert_eq!(kings("1k6/8/8/8/8/8/8/6K1 w - - 0 1"), [1, 0]);
    // White on c1: 0; Black on g8: 1.
    assert_eq!(kings("6k1/8/8/8/8/8/8/2K5 w - - 0 1"), [0, 1]);
    // Off the home rank: White e4 3, Black d6 (its third rank) 2.
    assert_eq!(kings("8/8/3k4/8/4K3/8/8/8 w - - 0 1"), [3, 2]);
    // Each side's home rank only: White on h8 is 3, Black on a1 is 2.
    assert_eq!(kings("7K/8/8/8/8/8/8/k7 w - - 0 1"), [3, 2]);
    assert_eq!(king_bucket(4, 0, None), 0);
    assert_eq!(king_bucket(1, 1, Some(60)), 0);
    // Eight: the home rank by pairs of files, then the second rank's
    // halves and the halves of the ranks beyond. White g1 3, Black b8 0;
    // White c1 1, Black g8 3; White e4 7, Black d6 6; White f2 5, Black
    // e7 (its second rank) 5; White h8 7, Black a1 6; White e1 2, Black
    // d8 1.
    assert_eq!(buckets("1k6/8/8/8/8/8/8/6K1 w - - 0 1", 8), [3, 0]);
    assert_eq!(buckets("6k1/8/8/8/8/8/8/2K5 w - - 0 1", 8), [1, 3]);
    assert_eq!(buckets("8/8/3k4/8/4K3/8/8/8 w - - 0 1", 8), [7, 6]);
    assert_eq!(buckets("8/4k3/8/8/8/8/5K2/8 w - - 0 1", 8), [5, 5]);
    assert_eq!(buckets("7K/8/8/8/8/8/8/k7 w - - 0 1", 8), [7, 6]);
    assert_eq!(buckets("3k4/8/8/8/8/8/8/4K3 w - - 0 1", 8), [2, 1]);
    assert_eq!(king_bucket(8, 1, None), 0);
    // Each of the 8 lies inside one of the 4, and every bucket inside
    // the one of 1; the 4 straddle the 8's edges, so not the other way.
    let parents: Vec<_> = (0..8).map(|b| king_bucket_parent(4, 8, b)).collect();
    assert_eq!(parents, [0, 0, 1, 1, 2, 3, 2, 3].map(Some));
    assert!((0..4).all(|b| king_bucket_parent(1, 4, b) == Some(0)));
    assert!((0..4).all(|b| king_bucket_parent(8, 4, b).is_none()));
    for sq in 0..64 {
        for p in 0..2 {
            let b8 = king_bucket(8, p, Some(sq));
            assert_eq!(king_bucket_parent(4, 8, b8), Some(king_bucket(4, p, Some(sq))), "square {sq}");
        }
    }
    // The same from the feature codes (the trainer's way).
    let pos = AnyPosition::from_fen(Variant::Chess, "8/8/3k4/8/4K3/8/8/8 w - - 0 1", &RuleOptions::default()).unwrap();
    let snap = with_position!(&pos, p => Snapshot::of(p));
    let codes: Vec<u16> = snap.codes().collect();
    assert_eq!(king_rows_of_codes(&codes, 4), snap.king_rows(4));
    assert_eq!(king_rows_of_codes(&codes, 4), [3 * INPUTS as u16, 2 * INPUTS as u16]);
    assert_eq!(king_rows_of_codes(&codes, 8), snap.king_rows(8));
    assert_eq!(king_rows_of_codes(&codes, 8), [7 * INPUTS as u16, 6 * INPUTS as u16]);
}

#[test]
fn index_is_a_bijection_per_perspective_and_mirrors_colours() {
    for table in &INDEX {
        let mut seen = vec![false; INPUTS];
        for &i in table.iter() {
            let i = i as usize;
            assert!(i < INPUTS);
            assert!(!seen[i], "two codes share input {i}");
            seen[i] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
    // White's pawn on e2 seen by White = Black's pawn on e7 seen by Black.
    let e2 = code(0, 0, 12);
    let e7 = code(1, 0, 52);
    assert_eq!(INDEX[0][e2 as usize], INDEX[1][e7 as usize]);
    // A flag is not turned over.
    assert_eq!(INDEX[0][code(0, WORDS - 1, 48) as usize], INDEX[1][code(1, WORDS - 1, 48) as usize]);
}

#[test]
fn mirrored_snapshots_are_the_mirrored_positions() {
    let a =
        AnyPosition::from_fen(Variant::Chess, "4k3/1p6/8/8/8/5N2/6PP/4K2R w - - 0 1", &RuleOptions::default()).unwrap();
    let b =
        AnyPosition::from_fen(Variant::Chess, "3k4/6p1/8/8/8/2N5/PP6/R2K4 w - - 0 1", &RuleOptions::default()).unwrap();
    let sa = with_position!(&a, p => Snapshot::of(p));
    let sb = with_position!(&b, p => Snapshot::of(p));
    assert_eq!(sa.mirrored(), sb);
    assert_eq!(sb.mirrored(), sa);
    assert_eq!(mirror_files(1), 0x80);
}

#[test]
fn file_round_trip_and_clear_errors() {
    let net = random_net(Variant::Chess, 3);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), file_len(5, Shape::default()));
    assert_eq!(&bytes[..8], MAGIC, "a CReLU net with one bucket is written as version 1");
    let back = Network::from_bytes(&bytes, "x").unwrap();
    assert_eq!(back.to_bytes(), bytes);
    assert!(Network::from_bytes(b"hello", "x").unwrap_err().contains("not a Chimera network"));
    // A net of `shape` is written with `magic`, its length as said, and
    // read back to the same shape and bytes.
    let written = |variant: Variant, shape: Shape, magic: &[u8; 8]| {
        let bytes = random_net_of(variant, 4, shape).to_bytes();
        assert_eq!(&bytes[..8], magic);
        assert_eq!(bytes.len(), file_len(variant.id().len(), shape));
        let back = Network::from_bytes(&bytes, "x").unwrap();
        assert_eq!(back.shape(), shape);
        assert_eq!(back.to_bytes(), bytes);
        (bytes, back)
    };
    // Version 2: activation and buckets in the header.
    for shape in [SCRELU8, Shape { activation: Activation::CReLU, buckets: 4, width: 64, kings: 1 }] {
        let (v2, _) = written(Variant::Genesis, shape, MAGIC2);
        let at = 8 + 1 + 7 + 8;
        let mut bad = v2.clone();
        bad[at] = 2;
        assert!(Network::from_bytes(&bad, "x").unwrap_err().contains("unknown activation 2"));
        for n in [0, MAX_BUCKETS as u8 + 1] {
            let mut bad = v2.clone();
            bad[at + 1] = n;
            let e = Network::from_bytes(&bad, "x").unwrap_err();
            assert!(e.contains(&format!("{n} output buckets")), "{e}");
        }
        let e = Network::from_bytes(&v2[..v2.len() - 4], "x").unwrap_err();
        assert!(e.contains("bytes") && e.contains(&shape.describe()), "{e}");
        assert!(Network::from_bytes(&v2[..at + 1], "x").unwrap_err().contains("ends inside the header"));
    }
    let e = Network::from_bytes(&bytes[..bytes.len() - 1], "x").unwrap_err();
    assert!(e.contains("bytes"), "{e}");
    let mut bad = bytes.clone();
    bad[9] = b'X';
    assert!(Network::from_bytes(&bad, "x").unwrap_err().contains("unknown variant"));
    // Version 3: the number of king buckets after version 2's header.
    let (_, back8) = written(Variant::Chess, KINGS8, MAGIC3);
    assert!(back8.describe().starts_with("8×1280→32×2→1"), "{}", back8.describe());
    let (v3, back) = written(Variant::Chess, KINGS4, MAGIC3);
    assert!(back.describe().starts_with("4×1280→64×2→1"), "{}", back.describe());
    let at = 8 + 1 + 5 + 8 + 2;
    for k in [0u8, 1, 2, 5, 16, 255] {
        let mut bad = v3.clone();
        bad[at] = k;
        let e = Network::from_bytes(&bad, "x").unwrap_err();
        assert!(e.contains(&format!("{k} king buckets")), "{e}");
    }
    assert!(Network::from_bytes(&v3[..at], "x").unwrap_err().contains("ends inside the header"));
    let mut big = bytes.clone();
    big[9 + 5 + 4] = 1; // hidden size 129 (and a version 1 net is 128 wide)
    assert!(Network::from_bytes(&big, "x").unwrap_err().contains("this build reads"));
}

/// Version 4 names its inputs' layout: a file of this build's layout
/// reads back to the same net (any shape), one of another layout is
/// refused with both layouts named; versions 1-3 are of today's layout.
#[test]
fn nets_of_another_input_layout_are_refused() {
    assert_eq!(LAYOUT, LAYOUT_V1_3, "the built-in nets (versions 1-3) are of this build's layout");
    assert!(describe_layout(LAYOUT).contains("8 roles, 9 planes, 6 reserve roles, 61 flag bits"));
    for shape in [Shape::default(), SCRELU8, KINGS4] {
        let net = random_net_of(Variant::Chess, 7, shape);
        let v4 = net.encode(4, LAYOUT);
        assert_eq!(&v4[..8], MAGIC4);
        assert_eq!(v4.len(), file_len_of(5, shape, 4));
        let back = Network::from_bytes(&v4, "x").expect("version 4 of this layout");
        assert_eq!(back.shape(), shape);
        assert_eq!(back.to_bytes(), net.to_bytes());
        assert_eq!(back.encode(4, LAYOUT), v4);
        let nine_roles = 9 | 10 << 8 | 6 << 16 | 61 << 24;
        let e = Network::from_bytes(&net.encode(4, nine_roles), "x").unwrap_err();
        assert!(
            e.contains("another layout") && e.contains("9 roles, 10 planes") && e.contains("8 roles, 9 planes"),
            "{e}"
        );
        assert!(Network::from_bytes(&v4[..10], "x").unwrap_err().contains("ends inside the header"));
    }
    // A version 4 file may have one king bucket; never 2.
    let mut v4 = random_net_of(Variant::Chess, 8, SCRELU8).encode(4, LAYOUT);
    v4[8 + 4 + 1 + 5 + 8 + 2] = 2;
    assert!(Network::from_bytes(&v4, "x").unwrap_err().contains("2 king buckets; a version 4 net has 1, 4 or 8"));
}

/// Damaged files (truncated anywhere in the header, bytes changed,
/// bytes added or cut at the end): a net file is either refused with a
/// reason or read to a net that writes back the same bytes (its variant
/// id in lower case); never a panic.
#[test]
fn damaged_net_files_are_refused_or_read_exactly() {
    let check = |b: &[u8]| match Network::from_bytes(b, "x") {
        Ok(n) => {
            // Variant ids are read in any case and written in lower case.
            let mut want = b.to_vec();
            want[9..9 + b[8] as usize].make_ascii_lowercase();
            assert!(
                n.to_bytes() == want || (&b[..8] == MAGIC2 && n.shape() == Shape::default()),
                "read a net that does not write back the same bytes"
            )
        }
        Err(e) => assert!(!e.is_empty()),
    };
    let mut rng = SplitMix(99);
    for f in [
        random_net(Variant::Chess, 1).to_bytes(),
        random_net_of(Variant::Genesis, 2, SCRELU8).to_bytes(),
        random_net_of(Variant::Chess, 3, KINGS4).to_bytes(),
        random_net_of(Variant::Chess, 4, KINGS8).to_bytes(),
    ] {
        for len in 0..64 {
            check(&f[..len]);
        }
        for _ in 0..400 {
            let mut b = f.clone();
            match rng.next() % 3 {
                0 => {
                    for _ in 0..1 + rng.next() % 3 {
                        let i = (rng.next() % 40) as usize;
                        b[i] = rng.next() as u8;
                    }
                }
                1 => b.truncate((rng.next() as usize) % f.len()),
                _ => b.extend((0..1 + rng.next() % 9).map(|_| rng.next() as u8)),
            }
            check(&b);
        }
    }
}

/// The vector kernels this CPU can run, by name, beside the dispatch.
type Kernels = (
    &'static str,
    fn(&mut [i16], Option<&[i16]>, &[[i16; MAX_HIDDEN]], &[u16], &[u16]),
    fn(&[i16], &[i16]) -> i32,
    fn(&[i16], &[i16]) -> i32,
);

fn vector_kernels() -> Vec<Kernels> {
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut k: Vec<Kernels> = vec![("dispatch", simd::update, simd::crelu_dot, simd::screlu_dot)];
    #[cfg(target_arch = "x86_64")]
    {
        use simd::{level, Level};
        // SAFETY (each closure): called only when the CPU has the features.
        if level() >= Level::Avx2 {
            k.push((
                "avx2",
                |d, s, r, a, b| unsafe { simd::x86::update(d, s, r, a, b) },
                |a, w| unsafe { simd::x86::crelu_dot(a, w) },
                |a, w| unsafe { simd::x86::screlu_dot(a, w) },
            ));
        }
        if level() == Level::Avx512 {
            k.push((
                "avx512",
                |d, s, r, a, b| unsafe { simd::x86::avx512::update(d, s, r, a, b) },
                |a, w| unsafe { simd::x86::avx512::crelu_dot(a, w) },
                |a, w| unsafe { simd::x86::avx512::screlu_dot(a, w) },
            ));
        }
    }
    eprintln!("vector kernels tested: {:?}", k.iter().map(|k| k.0).collect::<Vec<_>>());
    k
}

#[test]
fn vector_kernels_match_the_portable_loops() {
    for kernels in vector_kernels() {
        kernels_match_the_portable_loops(kernels);
    }
}

fn kernels_match_the_portable_loops((name, update, crelu_dot, screlu_dot): Kernels) {
    let mut rng = SplitMix(11);
    for round in 0..200 {
        // Every width a net may have, 16 lanes at a time.
        let h = 16 * (1 + round % (MAX_HIDDEN / 16));
        let mut a = [0i16; MAX_HIDDEN];
        let mut w = [0i16; MAX_HIDDEN];
        for i in 0..MAX_HIDDEN {
            a[i] = rng.next() as i16;
            w[i] = (rng.next() % 255) as i16 - 127;
        }
        // Up to a batch of rows added and removed, in place or from
        // another accumulator.
        let rows: Vec<[i16; MAX_HIDDEN]> = (0..2 * BATCH).map(|_| std::array::from_fn(|_| rng.next() as i16)).collect();
        let adds: Vec<u16> = (0..(round % (BATCH + 1)) as u16).collect();
        let subs: Vec<u16> = (BATCH as u16..(BATCH + (round * 7) % (BATCH + 1)) as u16).collect();
        let (mut p, mut s) = (a, a);
        simd::portable::update(&mut p[..h], None, &rows, &adds, &subs);
        update(&mut s[..h], None, &rows, &adds, &subs);
        assert_eq!(p, s, "{name}, width {h}");
        assert_eq!(p[h..], a[h..], "lanes past the width are left alone");
        for i in 0..h {
            let sum = adds.iter().fold(a[i], |v, &r| v.wrapping_add(rows[r as usize][i]));
            assert_eq!(p[i], subs.iter().fold(sum, |v, &r| v.wrapping_sub(rows[r as usize][i])), "lane {i}");
        }
        let (mut p2, mut s2) = (w, w);
        simd::portable::update(&mut p2[..h], Some(&a[..h]), &rows, &adds, &subs);
        update(&mut s2[..h], Some(&a[..h]), &rows, &adds, &subs);
        assert_eq!((p2[..h].to_vec(), s2[..h].to_vec()), (p[..h].to_vec(), p[..h].to_vec()), "{name}: from another");
        assert_eq!(s2[h..], w[h..]);
        update(&mut s[..h], None, &rows, &subs, &adds);
        assert_eq!(s, a, "{name}: undone");
        assert_eq!(simd::portable::crelu_dot(&a[..h], &w[..h]), crelu_dot(&a[..h], &w[..h]), "{name}");
        assert_eq!(simd::portable::screlu_dot(&a[..h], &w[..h]), screlu_dot(&a[..h], &w[..h]), "{name}");
        // Any weights at all (a hostile file): both wrap alike.
        let wild: [i16; MAX_HIDDEN] = std::array::from_fn(|_| rng.next() as i16);
        assert_eq!(simd::portable::screlu_dot(&a[..h], &wild[..h]), screlu_dot(&a[..h], &wild[..h]), "{name}");
        assert_eq!(simd::portable::crelu_dot(&a[..h], &wild[..h]), crelu_dot(&a[..h], &wild[..h]), "{name}");
    }
}

/// The SCReLU kernel against its definition in 64-bit arithmetic, for
/// weights the trainer can produce (|w| ≤ 127).
#[test]
fn screlu_dot_is_the_sum_of_squared_activations() {
    let mut rng = SplitMix(12);
    for _ in 0..200 {
        let a: [i16; MAX_HIDDEN] = std::array::from_fn(|_| (rng.next() % 700) as i16 - 200);
        let w: [i16; MAX_HIDDEN] = std::array::from_fn(|_| (rng.next() % 255) as i16 - 127);
        let exact: i64 = a.iter().zip(&w).map(|(&a, &w)| (a as i64).clamp(0, QA as i64).pow(2) * w as i64).sum();
        assert_eq!(simd::screlu_dot(&a, &w) as i64, exact);
    }
}

/// A reserve of `n` pieces of a role sets the lowest `min(n, 8)` bits
/// of its byte, and nothing else.
#[test]
fn reserve_flags_count_each_role_in_its_byte() {
    assert_eq!(reserve_flags(std::iter::empty()), 0);
    let f = reserve_flags([(Role::Pawn, 8), (Role::Knight, 2), (Role::Queen, 0), (Role::King, 1)].into_iter());
    assert_eq!(f, 0xFF | 0b11 << 8 | 1 << 40);
    assert_eq!(reserve_flags([(Role::Bishop, 12)].into_iter()), 0xFF << 16, "at most 8 a role");
    assert_eq!(reserve_flags([(Role::Genie, 3)].into_iter()), 0, "no byte past the King's");
    for n in 0..=8u8 {
        assert_eq!(reserve_flags([(Role::Rook, n)].into_iter()).count_ones(), n as u32);
    }
}

#[test]
fn buckets_follow_the_material_on_the_board_and_in_reserve() {
    let opts = RuleOptions::default();
    for &v in Variant::ALL.iter() {
        let start = AnyPosition::new(v, &opts);
        let s = with_position!(&start, p => Snapshot::of(p));
        assert_eq!(material(&s), 32, "{}", v.id());
        assert_eq!(bucket(material(&s), 8), 7);
        for pos in crate::random_walk(v, 9, 150) {
            let s = with_position!(&pos, p => Snapshot::of(p));
            let codes: Vec<u16> = s.codes().collect();
            assert_eq!(material_of_codes(&codes), material(&s), "{}", pos.fen());
            assert!(material(&s) <= 32);
        }
    }
    let kk = AnyPosition::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", &opts).unwrap();
    let s = with_position!(&kk, p => Snapshot::of(p));
    assert_eq!((material(&s), bucket(material(&s), 8)), (2, 0));
    // Every bucket is used and they rise with the material.
    let ks: Vec<usize> = (2..=32).map(|m| bucket(m, 8)).collect();
    assert!(ks.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!((ks[0], ks[30]), (0, 7));
    assert!((0..8).all(|k| ks.contains(&k)));
    assert!((0..=40).all(|m| bucket(m, 1) == 0));
}

/// A refresh (several batches of rows: 32 pieces and more) against the
/// definition `b + Σ W1[index(p, f)]`, summed lane by lane.
#[test]
fn a_refresh_is_the_sum_of_the_rows_of_the_features() {
    for &v in Variant::ALL.iter() {
        for net in [random_net_of(v, 7, SCRELU8), random_net_of(v, 8, KINGS4), random_net_of(v, 9, KINGS8)] {
            for pos in crate::random_walk(v, 3, 40) {
                let snap = with_position!(&pos, p => Snapshot::of(p));
                let acc = net.refresh(&snap);
                for (p, index) in INDEX.iter().enumerate() {
                    let base = (king_bucket(net.kings, p, snap.king(p)) * INPUTS) as u16;
                    let mut want = net.b;
                    for code in snap.codes() {
                        for (x, w) in want.iter_mut().zip(&net.w[(base + index[code as usize]) as usize]) {
                            *x = x.wrapping_add(*w);
                        }
                    }
                    assert_eq!(acc.v[p][..net.width], want[..net.width], "{} {}", v.id(), pos.fen());
                }
            }
        }
    }
}

#[test]
fn incremental_updates_equal_a_refresh_in_every_variant() {
    for &v in Variant::ALL.iter() {
        let net = if v == Variant::Chess { random_net(v, 5) } else { random_net_of(v, 5, SCRELU8) };
        // With king buckets, the Kings' walks between buckets too.
        let mut crossings = 0;
        for net in [net, random_net_of(v, 6, KINGS4), random_net_of(v, 7, KINGS8)] {
            for seed in 0..4 {
                let walk = crate::random_walk(v, seed, 120);
                let mut stack = Stack::new(8);
                let mut last = None;
                // `Network::update` along the walk, without a king cache.
                let mut walked: Option<(Snapshot, Accumulator)> = None;
                for (i, pos) in walk.iter().enumerate() {
                    // Plies wander up and down as in a search.
                    let ply = (i * 7 + seed as usize) % 5;
                    // The refresh is the reference for both paths
                    // (`Network::evaluate` is its output).
                    let (snap, turn) = with_position!(pos, p => (Snapshot::of(p), p.turn()));
                    let want = net.refresh(&snap);
                    let inc = with_position!(pos, p => stack.evaluate(&net, p, ply));
                    assert_eq!(inc, net.output(&want, turn, &snap), "{} ply {i}", v.id());
                    let acc = match walked {
                        Some((from, mut acc)) => {
                            net.update(&from, &snap, &mut acc);
                            acc
                        }
                        None => want,
                    };
                    for p in 0..2 {
                        assert_eq!(acc.v[p][..net.width], want.v[p][..net.width], "{} ply {i} update", v.id());
                    }
                    walked = Some((snap, acc));
                    let rows = snap.king_rows(net.kings);
                    crossings += usize::from(last.is_some_and(|l| l != rows));
                    last = Some(rows);
                }
            }
        }
        assert!(crossings > 0, "{}: no King changed bucket", v.id());
    }
}

#[test]
fn searches_with_a_net_play_legal_moves_in_every_variant() {
    let dir = std::env::temp_dir().join(format!("chimera-nnue-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, &v) in Variant::ALL.iter().enumerate() {
        let path = dir.join(format!("{}.nnue", v.id()));
        let net = match i % 4 {
            0 => random_net(v, 7),
            1 => random_net_of(v, 7, SCRELU8),
            2 => random_net_of(v, 7, KINGS4),
            _ => random_net_of(v, 7, KINGS8),
        };
        std::fs::write(&path, net.to_bytes()).unwrap();
        let mut e = crate::Engine::new(crate::EngineOptions { hash_mb: 1, use_nnue: true, ..Default::default() });
        e.set_eval_file(Some(&path)).unwrap();
        assert_eq!(e.network(v).map(|n| n.variant), Some(v));
        let walk = crate::random_walk(v, 2, 12);
        let pos = walk.last().unwrap();
        let limits = crate::Limits { depth: Some(5), ..Default::default() };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let r = e.search(pos, &[], &limits, &crate::Strength::default(), &stop, &mut |_| {});
        let best = r.best.expect("a move");
        assert!(pos.legal_move_list().contains(&best), "{}: {best:?}", v.id());
        // The hand-made evaluation is one option away.
        e.options.use_nnue = false;
        assert!(e.network(v).is_none());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn embedded_nets_load_for_their_variants() {
    for v in Variant::ALL {
        assert!(embedded(v).is_some_and(|n| serves(n.variant, v)), "{v:?}");
    }
    for (name, bytes) in EMBEDDED {
        let net = Network::from_bytes(bytes, name).unwrap();
        assert_eq!(net.variant.id(), *name);
        // A sane net: the start position is about level, a queen up is
        // winning for the side that has it (on the board of the
        // orthodox array, or in Genesis's reserve before a piece is placed).
        let start = AnyPosition::new(net.variant, &RuleOptions::default());
        let e = with_position!(&start, p => net.evaluate(p));
        assert!(e.abs() < 150, "{name}: start {e}");
        let fen = match net.variant {
            Variant::Genesis => "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkrrbbnnpppppppp] w - - 0 1",
            _ => "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        };
        let up = AnyPosition::from_fen(net.variant, fen, &RuleOptions::default()).unwrap();
        let e = with_position!(&up, p => net.evaluate(p));
        assert!(e > 400, "{name}: a queen up: {e}");
    }
}

#[test]
fn variant_state_reaches_the_inputs() {
    // Genesis: reserves; Genie: flip right; Clown: unmoved knights;
    // Magic Ring: the rings.
    for v in [Variant::Genesis, Variant::Genie, Variant::Clown, Variant::MagicRing] {
        let pos = AnyPosition::new(v, &RuleOptions::default());
        let s = with_position!(&pos, p => Snapshot::of(p));
        assert_ne!(s, Snapshot::of_board(pos.board()), "{}", v.id());
    }
    let pos = AnyPosition::new(Variant::Chess, &RuleOptions::default());
    let s = with_position!(&pos, p => Snapshot::of(p));
    assert_eq!(s, Snapshot::of_board(pos.board()));
}

/// A position and its colour flip (board turned over, colours, hands,
/// rights and rings swapped, the other side to move) give the same
/// score for the side to move in every variant, with a random net and
/// with each built-in one: the variant inputs are seen from the right
/// side.
#[test]
fn colour_flipped_positions_evaluate_the_same_in_every_variant() {
    let opts = RuleOptions::default();
    for &v in Variant::ALL.iter() {
        let mut nets = vec![
            random_net(v, 17),
            random_net_of(v, 18, SCRELU8),
            random_net_of(v, 19, KINGS4),
            random_net_of(v, 20, KINGS8),
        ];
        nets.extend(embedded(v).cloned());
        for seed in 0..6 {
            for pos in crate::random_walk(v, 100 + seed, 90) {
                let fen = pos.fen();
                let flipped = AnyPosition::from_fen(v, &crate::flip_fen(&fen), &opts).unwrap();
                for net in &nets {
                    let a = with_position!(&pos, p => net.evaluate(p));
                    let b = with_position!(&flipped, p => net.evaluate(p));
                    assert_eq!(a, b, "{}: {fen} vs {}", v.id(), flipped.fen());
                }
            }
        }
    }
}

/// `chimera train --mirror` learns a position without castling rights
/// a second time as its mirror (files a ↔ h) where
/// [`Variant::mirror_symmetric`] says the rules allow it. Along random
/// games of every variant, a mirrored position (made from its FEN) has
/// the mirrored snapshot and, in those variants, the mirrored legal
/// moves; in Clown some position has not (its Knights move by their
/// file), which is why Clown is left out.
#[test]
fn mirrored_positions_keep_the_rules_except_in_clown() {
    let opts = RuleOptions::default();
    let mirror_move = |m: &str| {
        let b = m.as_bytes();
        let mut out = String::new();
        for (i, &c) in b.iter().enumerate() {
            let square_file = (b'a'..=b'h').contains(&c) && b.get(i + 1).is_some_and(|d| (b'1'..=b'8').contains(d));
            out.push(if square_file { crate::mirror_file(c) as char } else { c as char });
        }
        out
    };
    let sorted_moves = |p: &AnyPosition, mirror: bool| {
        let mut v: Vec<String> =
            p.legal_move_list().iter().map(|m| if mirror { mirror_move(&m.uci()) } else { m.uci() }).collect();
        v.sort();
        v
    };
    for &v in Variant::ALL.iter() {
        let (mut checked, mut differ) = (0, 0);
        for seed in 0..8 {
            for pos in crate::random_walk(v, 300 + seed, 120) {
                if pos.castling().0 != 0 {
                    continue;
                }
                let fen = pos.fen();
                let mirrored = AnyPosition::from_fen(v, &crate::mirror_fen(&fen), &opts)
                    .unwrap_or_else(|e| panic!("{}: {fen} -> {}: {e}", v.id(), crate::mirror_fen(&fen)));
                let snap = with_position!(&pos, p => Snapshot::of(p));
                assert_eq!(with_position!(&mirrored, p => Snapshot::of(p)), snap.mirrored(), "{}: {fen}", v.id());
                checked += 1;
                if sorted_moves(&pos, true) != sorted_moves(&mirrored, false) {
                    assert!(!v.mirror_symmetric(), "{}: {fen} and {} differ", v.id(), mirrored.fen());
                    differ += 1;
                }
            }
        }
        assert!(checked > 200, "{}: {checked}", v.id());
        if !v.mirror_symmetric() {
            assert!(differ > 0, "{}: no position tells the mirror apart", v.id());
        }
    }
}

/// Magic Ring under another ring-power list plays with the hand-made
/// evaluation (the built-in net learnt QNRB): with `Use NNUE` on or off
/// the same search, node for node; under QNRB the net changes it.
#[test]
fn magic_ring_with_other_powers_searches_by_hand() {
    let search = |powers: &str, use_nnue: bool| {
        let opts = RuleOptions { ring_powers: powers.parse().unwrap() };
        let pos = AnyPosition::new(Variant::MagicRing, &opts);
        let mut e = crate::Engine::new(crate::EngineOptions { use_nnue, ..Default::default() });
        let limits = crate::Limits { depth: Some(6), ..Default::default() };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let r = e.search(&pos, &[], &limits, &crate::Strength::default(), &stop, &mut |_| {});
        (r.nodes, format!("{:?}", r.score))
    };
    assert_eq!(search("NKQ", true), search("NKQ", false));
    assert_ne!(search("QNRB", true), search("QNRB", false));
}
