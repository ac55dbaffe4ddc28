//! Helpers of the crate's unit tests.

use chimera_engine::SplitMix;
use chimera_rules::{AnyPosition, Position, RuleOptions, Variant};

/// The positions of a seeded random game of `variant` from its start (the
/// start included), at most `plies` moves.
pub(crate) fn random_walk(variant: Variant, seed: u64, plies: usize) -> Vec<AnyPosition> {
    let mut rng = SplitMix(seed);
    let mut pos = AnyPosition::new(variant, &RuleOptions::default());
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let legal = pos.legal_move_list();
        if legal.is_empty() {
            break;
        }
        pos.play_unchecked(legal[(rng.next() % legal.len() as u64) as usize]);
        out.push(pos.clone());
    }
    out
}
