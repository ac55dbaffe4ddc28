//! Magic Ring: what each ring's power is worth on its carrier, and its
//! network inputs.

use super::*;

/// Magic Ring: the board evaluation plus each ring, valued by the power its
/// level grants on its carrier (`ring_term`). `piece_value` adds the ring
/// of a carrier (capturing it takes the ring), so capture ordering sees it.
/// Null move: by FEN; a side holding a ring next to one of its pieces always
/// has a pass, so zugzwang is no more likely than in chess.
impl Evaluate for MagicRing {
    fn parts(&self, acc: &mut Acc) -> Parts {
        let b = self.board();
        let phase = board_eval(b, None, acc);
        for owner in Color::ALL {
            let (sq, level) = self.ring(owner);
            let Some(holder) = b.color_at(sq) else {
                continue;
            };
            acc.side(holder);
            match ring_term(self, sq, level) {
                RingTerm::None => {}
                RingTerm::Power(r) => add!(acc, 1; ring_power[r]),
                RingTerm::KingPartial => add!(acc, 1; ring_king_partial),
                RingTerm::OnKing(r) => add!(acc, 1; ring_on_king[r]),
            }
        }
        acc.side(Color::White);
        // Rings change what pieces do: no drawish scaling.
        tempo(acc, self.turn());
        Parts { total: acc.total, phase, scale: SCALE_NORMAL, turn: self.turn() }
    }

    fn see_value(&self, role: Role, sq: Square) -> i32 {
        simple_value(role, sq)
    }

    fn piece_value(&self, role: Role, sq: Square) -> i32 {
        let mut v = simple_value(role, sq);
        if role != Role::King {
            for owner in Color::ALL {
                let (rsq, level) = self.ring(owner);
                if rsq == sq {
                    v += ring_value(&PARAMS, self, sq, level).0;
                }
            }
        }
        v
    }
}

impl SearchPolicy for MagicRing {
    const TABLE_EVAL_PRUNING: bool = false;

    fn null_move(&self) -> Option<MagicRing> {
        self.pass()
    }
}

impl TimePolicy for MagicRing {}

impl NetInputs for MagicRing {
    fn nnue_extra(&self, c: Color) -> (u64, u64) {
        let (sq, level) = self.ring(c);
        let mark = if self.board().color_at(sq).is_some() { 1u64 << sq.index() } else { 0 };
        (mark, 1u64 << (crate::nnue::flag::RING_LEVEL + u32::from(level.min(7))))
    }

    fn nnue_default_rules(&self) -> bool {
        self.powers().is_default()
    }
}

/// Which value a ring is worth where it stands.
pub(super) enum RingTerm {
    None,
    /// `ring_power[role]`.
    Power(usize),
    /// `ring_king_partial`.
    KingPartial,
    /// `ring_on_king[role of the next level's power]`.
    OnKing(usize),
}

/// What a ring at `level` on the piece standing on `sq` is worth to its
/// holder: the power it grants there (`Params::ring_power`), nothing when
/// the carrier already moves that way (same role; R, B or K power on a
/// Queen), `ring_king_partial` for a King power on a Rook or Bishop (partly
/// covered); on a King, `ring_on_king` of the power the next level grants.
pub(super) fn ring_term(pos: &MagicRing, sq: Square, level: u8) -> RingTerm {
    let Some(role) = pos.board().role_at(sq) else {
        return RingTerm::None;
    };
    let powers = pos.powers();
    if role == Role::King {
        let next = (level as usize % powers.len()) as u8 + 1;
        return powers.power(next).map_or(RingTerm::None, |power| RingTerm::OnKing(power.index()));
    }
    let Some(power) = powers.power(level) else {
        return RingTerm::None;
    };
    let covered = power == role || (role == Role::Queen && matches!(power, Role::Rook | Role::Bishop | Role::King));
    if covered {
        RingTerm::None
    } else if power == Role::King && matches!(role, Role::Rook | Role::Bishop) {
        RingTerm::KingPartial
    } else {
        RingTerm::Power(power.index())
    }
}

/// The value of a ring at `level` on the piece on `sq` with the values `p`
/// (see [`ring_term`]).
pub fn ring_value(p: &Params, pos: &MagicRing, sq: Square, level: u8) -> S {
    match ring_term(pos, sq, level) {
        RingTerm::None => S(0, 0),
        RingTerm::Power(r) => p.ring_power[r],
        RingTerm::KingPartial => p.ring_king_partial,
        RingTerm::OnKing(r) => p.ring_on_king[r],
    }
}
