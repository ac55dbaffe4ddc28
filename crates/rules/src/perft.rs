//! Perft: counting leaf nodes of the legal move tree, the standard test of a
//! move generator. Bulk counting at the last ply.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Leaf nodes at `depth`: the number of sequences of exactly `depth` legal
/// plies from `pos` (1 at depth 0; a line that ends in checkmate or
/// stalemate before `depth` counts nothing). The usual check of a move generator against published numbers.
/// The time grows about as the number returned.
///
/// ```
/// use chimera_rules::{perft::perft, AnyPosition, Chess, RuleOptions, Variant};
///
/// let start = Chess::new();
/// assert_eq!(perft(&start, 1), 20);
/// assert_eq!(perft(&start, 3), 8902);
///
/// let genesis = AnyPosition::new(Variant::Genesis, &RuleOptions::default());
/// assert_eq!(perft(&genesis, 1), 64); // the King on any square
/// ```
pub fn perft<P: Position>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal_moves();
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut n = 0;
    for &m in list.iter() {
        let mut p = pos.clone();
        p.play_unchecked(m);
        n += perft(&p, depth - 1);
    }
    n
}

/// Leaf nodes below each legal move, sorted by move string (as Stockfish's
/// `go perft` prints them, one `move: count` line each).
pub fn divide<P: Position>(pos: &P, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut out: Vec<(Move, u64)> = list
        .iter()
        .map(|&m| {
            let n = if depth <= 1 { 1 } else { perft(&pos.after(m), depth - 1) };
            (m, n)
        })
        .collect();
    out.sort_by_key(|(m, _)| m.to_string());
    out
}
