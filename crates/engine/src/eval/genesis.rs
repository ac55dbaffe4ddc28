//! Genesis: reserves, placement danger, its own tables, and its network
//! inputs.

use super::*;

/// Genesis: material on the board and in reserve (see `board_eval`).
/// Null move: off while either King is still in reserve (the first moves are
/// forced King placements; "passing" there is meaningless) and in check;
/// otherwise a pass is as safe as in chess, safer while reserves last (a
/// placement is almost always available, so zugzwang is rare).
impl Evaluate for Genesis {
    fn parts(&self, acc: &mut Acc) -> Parts {
        let phase = board_eval(self.board(), Some(self), acc);
        let reserves = Color::ALL.iter().any(|&c| {
            [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
                .iter()
                .any(|&r| self.reserve_count(c, r) > 0)
        });
        let scale = if reserves { SCALE_NORMAL } else { scale_factor(self.board(), acc.total.1) };
        tempo(acc, self.turn());
        Parts { total: acc.total, phase, scale, turn: self.turn() }
    }

    fn material(&self) -> i32 {
        let mut v = board_material(self.board(), self.turn());
        for c in Color::ALL {
            let sign = if c == self.turn() { 1 } else { -1 };
            for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                v += sign * self.reserve_count(c, role) as i32 * PARAMS.material[role.index()].0;
            }
        }
        v
    }
}

impl SearchPolicy for Genesis {
    const FEWER_LATE_MOVES: bool = false;

    const TABLE_EVAL_PRUNING: bool = false;

    fn null_move(&self) -> Option<Genesis> {
        let b = self.board();
        if b.king_of(Color::White).is_none() || b.king_of(Color::Black).is_none() {
            return None;
        }
        self.pass()
    }
}

impl TimePolicy for Genesis {
    fn reserve_to_place(&self) -> u32 {
        self.reserves()[self.turn()].iter().map(|&n| n as u32).sum()
    }
}

impl NetInputs for Genesis {
    fn nnue_extra(&self, c: Color) -> (u64, u64) {
        (
            0,
            crate::nnue::reserve_flags(
                Role::ALL[..crate::nnue::flag::RESERVE_ROLES].iter().map(|&r| (r, self.reserve_count(c, r))),
            ),
        )
    }
}
