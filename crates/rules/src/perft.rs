//! Perft: counting leaf nodes of the legal move tree, the standard test of a
//! move generator. Bulk counting at the last ply.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Leaf nodes at `depth`.
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
