//! Static exchange evaluation and the capture ordering key.

use super::*;

/// Most valuable victim, then least valuable attacker: the capture
/// ordering key (higher first) of the search and the baseline.
pub fn mvv_lva<P: Evaluate>(pos: &P, m: Move) -> i32 {
    let victim = if m.kind == MoveKind::EnPassant {
        pos.piece_value(Role::Pawn, m.to)
    } else {
        pos.board().role_at(m.to).map_or(0, |r| pos.piece_value(r, m.to))
    };
    let attacker = pos.moving_role(m).map_or(0, |r| pos.piece_value(r, m.from));
    victim * 16 - attacker / 16
}

/// Value of the role `role` once it stands on `sq`, for SEE (a King is
/// worth more than everything else together).
#[inline]
pub(super) fn see_value<P: Evaluate>(pos: &P, role: Role, sq: Square) -> i32 {
    if role == Role::King {
        20_000
    } else {
        pos.see_value(role, sq)
    }
}

/// Static exchange evaluation: whether the capture `m` wins at least
/// `threshold` centipawns when both sides keep recapturing on its square
/// with their least valuable attacker, each free to stop, x-rays included,
/// and a King capturing only onto an undefended square. The attackers come
/// from `Position::attackers_with`, so every variant's pieces and powers
/// take part (Genie leaps, Clowns by file, Genesis pawns, ring powers);
/// pins are ignored, as usual. A quiet move (or placement) asks whether
/// the piece can stand on its square; promotions and en passant count
/// their material gain without the exchange.
pub fn see_ge<P: Evaluate>(pos: &P, m: Move, threshold: i32) -> bool {
    let b = pos.board();
    let to = m.to;
    let (mover, captured, mut occ) = match m.kind {
        MoveKind::Normal | MoveKind::Declare => {
            let Some(r) = b.role_at(m.from) else {
                return 0 >= threshold;
            };
            let r = if m.kind == MoveKind::Declare { Role::Clown } else { r };
            let cap = b.role_at(to).map_or(0, |v| see_value(pos, v, to));
            (r, cap, b.occupied().without(m.from))
        }
        MoveKind::Drop(r) | MoveKind::ReEntry(r) => (r, 0, b.occupied()),
        MoveKind::EnPassant => {
            return see_value(pos, Role::Pawn, to) >= threshold;
        }
        MoveKind::Promotion(r) => {
            let cap = b.role_at(to).map_or(0, |v| see_value(pos, v, to));
            return cap + see_value(pos, r, to) - see_value(pos, Role::Pawn, m.from) >= threshold;
        }
        _ => return 0 >= threshold,
    };
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    swap = see_value(pos, mover, to) - swap;
    if swap <= 0 {
        return true;
    }
    occ = occ.with(to);
    let mut stm = pos.turn();
    let mut attackers = pos.attackers_with(to, occ) & occ;
    let mut res = true;
    loop {
        stm = !stm;
        attackers &= occ;
        let mine = attackers & b.by_color(stm);
        if mine.is_empty() {
            break;
        }
        res = !res;
        // Least valuable attacker (by its value once on the square).
        let mut best: Option<(i32, Role, Square)> = None;
        for sq in mine {
            let Some(r) = b.role_at(sq) else { continue };
            let v = see_value(pos, r, to);
            if best.is_none_or(|(bv, _, _)| v < bv) {
                best = Some((v, r, sq));
            }
        }
        let Some((value, role, sq)) = best else { break };
        if role == Role::King {
            // The King may only take last.
            return if (attackers & b.by_color(!stm)).any() { !res } else { res };
        }
        swap = value - swap;
        if swap < res as i32 {
            break;
        }
        occ.clear(sq);
        // X-rays revealed by removing the attacker.
        attackers = pos.attackers_with(to, occ) & occ;
    }
    res
}
