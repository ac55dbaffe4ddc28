//! Clown Chess: Clowns by file, the declaration and re-entry rights, and
//! its network inputs.

use super::*;

/// Clown: the board evaluation values the Clown by its file and (through
/// `attacks_of`) its mobility, threats and king attacks. Added: the unused
/// re-entry while a Knight or Bishop is in hand, and the unused right to
/// declare a Clown while an unmoved Knight exists. Null move: by FEN,
/// dropping `lastcap:` and `clownmoved:` (they describe the last move,
/// which the pass replaces).
impl Evaluate for Clown {
    fn parts(&self, acc: &mut Acc) -> Parts {
        let b = self.board();
        let phase = board_eval(b, None, acc);
        let mut extra = false;
        for c in Color::ALL {
            acc.side(c);
            let (knights, bishops) = self.hand(c);
            extra |= knights > 0 || bishops > 0;
            if !self.reentry_used(c) && (knights > 0 || bishops > 0) {
                add!(acc, 1; reentry[usize::from(bishops > 0)]);
            }
            let home = if c == Color::White { Bitboard(0xFF) } else { Bitboard(0xFF << 56) };
            if !self.had_clown(c) && (self.unmoved_knights() & home).any() {
                add!(acc, 1; declare_right);
            }
        }
        acc.side(Color::White);
        let scale = if extra { SCALE_NORMAL } else { scale_factor(b, acc.total.1) };
        tempo(acc, self.turn());
        Parts { total: acc.total, phase, scale, turn: self.turn() }
    }
}

impl SearchPolicy for Clown {
    fn null_move(&self) -> Option<Clown> {
        self.pass()
    }
}

impl TimePolicy for Clown {}

impl NetInputs for Clown {
    fn nnue_extra(&self, c: Color) -> (u64, u64) {
        use crate::nnue::flag;
        let (knights, bishops) = self.hand(c);
        let flags = u64::from(!self.reentry_used(c)) << flag::CLOWN_REENTRY
            | u64::from(self.had_clown(c)) << flag::CLOWN_HAD
            | u64::from(knights > 0) << flag::CLOWN_HAND_KNIGHT
            | u64::from(bishops > 0) << flag::CLOWN_HAND_BISHOP;
        ((self.unmoved_knights() & self.board().by_color(c)).0, flags)
    }
}
