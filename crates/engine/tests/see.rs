//! Static exchange evaluation (`search::see_ge`) against a brute-force
//! exchange search in every variant: at random positions of random games,
//! for every capture, the brute force plays out all sequences of legal
//! recaptures on the square (any capturer, in any order, each side free to
//! stop) and the best result must equal what SEE says (`see_ge(v)` true,
//! `see_ge(v + 1)` false). Every legal capture onto the square must come
//! from a piece `Position::attackers_with` names (no attacker missing).
//!
//! SEE ignores pins and checks, as usual; the brute force plays legal moves,
//! so exchanges where they matter (a named attacker with no legal capture,
//! a side in check) are left out and counted; so are captures onto a
//! promotion rank. Values: `Evaluate::see_value`.

use chimera_engine::search::see_ge;
use chimera_engine::{Evaluate, SplitMix};
use chimera_rules::{
    Chess, Clown, Genesis, Genie, MagicRing, Move, MoveKind, MoveList, Position, Rank, RingPowers, Role, Square,
    Variant,
};

/// Legal plain captures onto `to`.
fn captures_on<P: Position>(pos: &P, to: Square) -> Vec<Move> {
    let mut l = MoveList::new();
    pos.noisy_moves(&mut l);
    l.iter().copied().filter(|m| m.to == to && m.kind == MoveKind::Normal).collect()
}

/// Pins or checks decide the exchange (or it is too large): not
/// comparable with SEE.
struct Skip;

/// The best the side to move gets from recapturing on `to` (0: stop).
fn brute<P: Evaluate>(pos: &P, to: Square, budget: &mut u32) -> Result<i32, Skip> {
    if *budget == 0 {
        return Err(Skip);
    }
    *budget -= 1;
    let caps = captures_on(pos, to);
    let occ = pos.board().occupied();
    let named = pos.attackers_with(to, occ) & pos.board().by_color(pos.turn());
    for m in &caps {
        assert!(named.contains(m.from), "attackers_with misses {} in {}", m, pos.fen());
    }
    if pos.is_check() {
        return Err(Skip);
    }
    // A named non-King attacker without a legal capture: a pin.
    for sq in named {
        if pos.board().role_at(sq) != Some(Role::King) && !caps.iter().any(|m| m.from == sq) {
            return Err(Skip);
        }
    }
    let victim = pos.board().role_at(to).map_or(0, |r| pos.see_value(r, to));
    let mut best = 0;
    for m in caps {
        let v = victim - brute(&pos.after(m), to, budget)?;
        best = best.max(v);
    }
    Ok(best)
}

/// Compares SEE with the brute force on every plain capture along random
/// games; returns (compared, skipped).
fn check<P: Evaluate>(start: P, seed: u64, games: usize, plies: usize) -> (usize, usize) {
    let mut rng = SplitMix(seed);
    let (mut compared, mut skipped) = (0, 0);
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..plies {
            let legal = pos.legal_move_list();
            if legal.is_empty() {
                break;
            }
            let mut noisy = MoveList::new();
            pos.noisy_moves(&mut noisy);
            for &m in noisy.iter() {
                let last_rank = matches!(m.to.rank(), Rank::First | Rank::Eighth);
                if m.kind != MoveKind::Normal || (last_rank && pos.variant() != Variant::Genesis) {
                    continue;
                }
                let victim = pos.board().role_at(m.to).map_or(0, |r| pos.see_value(r, m.to));
                let mut budget = 20_000;
                match brute(&pos.after(m), m.to, &mut budget) {
                    Ok(reply) => {
                        let v = victim - reply;
                        assert!(
                            see_ge(&pos, m, v) && !see_ge(&pos, m, v + 1),
                            "{}: SEE of {m} is not {v} in {}",
                            pos.variant(),
                            pos.fen()
                        );
                        compared += 1;
                    }
                    Err(Skip) => skipped += 1,
                }
            }
            let m = if !noisy.is_empty() && rng.next().is_multiple_of(3) {
                noisy[(rng.next() % noisy.len() as u64) as usize]
            } else {
                legal[(rng.next() % legal.len() as u64) as usize]
            };
            pos.play_unchecked(m);
        }
    }
    eprintln!("{}: {compared} exchanges compared, {skipped} skipped", start.variant());
    (compared, skipped)
}

fn assert_enough(name: &str, (compared, skipped): (usize, usize)) {
    assert!(compared >= 500, "{name}: only {compared} exchanges compared ({skipped} skipped)");
    assert!(skipped * 2 < compared, "{name}: {skipped} skipped for {compared} compared");
}

#[test]
fn see_is_exact_in_chess() {
    assert_enough("chess", check(Chess::new(), 1, 30, 120));
}

#[test]
fn see_is_exact_in_genie() {
    assert_enough("genie", check(Genie::new(false), 2, 30, 120));
}

#[test]
fn see_is_exact_in_clown() {
    assert_enough("clown", check(Clown::new(), 3, 30, 120));
}

#[test]
fn see_is_exact_in_genesis() {
    assert_enough("genesis", check(Genesis::new(), 4, 30, 160));
}

#[test]
fn see_is_exact_in_magic_ring() {
    for (seed, list) in [(5, "QRBNK"), (6, "N"), (7, "KB")] {
        let powers: RingPowers = list.parse().expect("valid power list");
        assert_enough(list, check(MagicRing::new(powers), seed, 20, 160));
    }
}
