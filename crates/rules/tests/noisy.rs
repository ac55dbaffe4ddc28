//! `Position::noisy_moves` (the captures-and-promotions generator of
//! quiescence search) against the full legal list filtered by
//! `is_capture || promotion`, and `Position::quiet_moves` (the move
//! picker's quiet stages) against the rest of that list, over random
//! playouts of every variant, `Position::quiet_checks` (quiescence's
//! checks, where a variant lists them) against the quiet moves that give
//! check, and `Position::is_legal` against that list (with made-up
//! moves of every orthodox kind)
//! (Magic Ring with several power lists). Perft is untouched: it counts
//! `legal_moves`, which this test also exercises as the reference.

use chimera_rules::{AnyPosition, Move, MoveKind, MoveList, Position, RingPowers, Role, RuleOptions, Square, Variant};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn sorted(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    let mut v: Vec<String> = moves.into_iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Plays `games` random games of up to `plies` plies and checks every
/// position; returns (positions checked, noisy moves seen, quiet checks
/// seen).
fn check_variant(variant: Variant, opts: &RuleOptions, seed: u64, games: usize, plies: usize) -> (usize, usize, usize) {
    let mut rng = Rng(seed);
    let (mut positions, mut noisy_seen, mut checks_seen) = (0, 0, 0);
    for _ in 0..games {
        let mut pos = AnyPosition::new(variant, opts);
        let mut earlier: Vec<Move> = Vec::new();
        for _ in 0..plies {
            let legal = pos.legal_move_list();
            if legal.is_empty() {
                break;
            }
            let expected = sorted(legal.iter().copied().filter(|&m| pos.is_capture(m) || m.promotion().is_some()));
            let mut noisy = MoveList::new();
            pos.noisy_moves(&mut noisy);
            let got = sorted(noisy.iter().copied());
            assert_eq!(got, expected, "{variant}: noisy moves differ at {}", pos.fen());
            let expected_quiet =
                sorted(legal.iter().copied().filter(|&m| !pos.is_capture(m) && m.promotion().is_none()));
            let mut quiet = MoveList::new();
            pos.quiet_moves(&mut quiet);
            assert_eq!(sorted(quiet.iter().copied()), expected_quiet, "{variant}: quiet moves differ at {}", pos.fen());
            // `quiet_checks`, where the variant lists them, are exactly the
            // quiet moves after which the other side is in check.
            let mut checks = MoveList::new();
            if pos.quiet_checks(&mut checks) {
                let expected_checks = sorted(quiet.iter().copied().filter(|&m| {
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    after.is_check()
                }));
                assert_eq!(
                    sorted(checks.iter().copied()),
                    expected_checks,
                    "{variant}: quiet checks differ at {}",
                    pos.fen()
                );
                checks_seen += checks.len();
            }
            // `is_legal` (Genesis has its own, without listing its
            // placements) agrees with the list on every legal move, on the
            // moves of earlier positions, and on made-up placements and
            // steps of every role.
            for &m in legal.iter() {
                assert!(pos.is_legal(m), "{variant}: {m} is legal at {}", pos.fen());
            }
            let sq = |r: &mut Rng| Square::new((r.next() % 64) as u32);
            let role = |r: &mut Rng| Role::ALL[(r.next() % 8) as usize];
            let made_up = [
                Move::normal(sq(&mut rng), sq(&mut rng)),
                Move::new(Square::E4, Square::E4, MoveKind::Drop(role(&mut rng))),
                {
                    let s = sq(&mut rng);
                    Move::new(s, s, MoveKind::Drop(role(&mut rng)))
                },
                Move::new(sq(&mut rng), sq(&mut rng), MoveKind::Drop(role(&mut rng))),
                Move::new(sq(&mut rng), sq(&mut rng), MoveKind::Promotion(role(&mut rng))),
                Move::new(sq(&mut rng), sq(&mut rng), MoveKind::Castle),
                Move::new(sq(&mut rng), sq(&mut rng), MoveKind::EnPassant),
                Move::new(sq(&mut rng), sq(&mut rng), MoveKind::DoublePush),
                // Every kind from the squares of a legal move.
                {
                    let m = legal[(rng.next() % legal.len() as u64) as usize];
                    let kinds = [
                        MoveKind::Normal,
                        MoveKind::DoublePush,
                        MoveKind::EnPassant,
                        MoveKind::Castle,
                        MoveKind::Promotion(role(&mut rng)),
                    ];
                    Move::new(m.from, m.to, kinds[(rng.next() % kinds.len() as u64) as usize])
                },
            ];
            for m in made_up.into_iter().chain(earlier.iter().copied()) {
                assert_eq!(pos.is_legal(m), legal.contains(&m), "{variant}: is_legal({m}) at {}", pos.fen());
            }
            earlier.clear();
            earlier.extend(legal.iter().copied().step_by(5));
            positions += 1;
            noisy_seen += got.len();
            // Prefer captures half of the time, so games reach promotions
            // and the sparse, tactical endings.
            let caps: Vec<Move> = noisy.iter().copied().collect();
            let m = if !caps.is_empty() && rng.next().is_multiple_of(2) {
                caps[(rng.next() % caps.len() as u64) as usize]
            } else {
                legal[(rng.next() % legal.len() as u64) as usize]
            };
            pos.play_unchecked(m);
        }
    }
    (positions, noisy_seen, checks_seen)
}

#[test]
fn noisy_and_quiet_moves_split_the_legal_list_in_every_variant() {
    for (i, &variant) in Variant::ALL.iter().enumerate() {
        let (positions, noisy, checks) = check_variant(variant, &RuleOptions::default(), 1 + i as u64, 40, 200);
        assert!(positions > 2_000, "{variant}: only {positions} positions");
        assert!(noisy > positions / 4, "{variant}: only {noisy} noisy moves in {positions} positions");
        if variant == Variant::Genesis {
            assert!(checks > positions / 20, "{variant}: only {checks} quiet checks in {positions} positions");
        }
    }
}

#[test]
fn noisy_moves_with_other_ring_powers() {
    for (seed, list) in [(11, "QRBNK"), (12, "N"), (13, "KB"), (14, "RQ")] {
        let powers: RingPowers = list.parse().expect("valid power list");
        let opts = RuleOptions { ring_powers: powers };
        let (positions, _, _) = check_variant(Variant::MagicRing, &opts, seed, 25, 200);
        assert!(positions > 1_000);
    }
}
