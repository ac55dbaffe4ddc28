//! Genie Of The Lamp: the flip right, and its network inputs.

use super::*;

/// Genie: the board evaluation already values the Genie (WFDA leaper) and
/// its mobility. Added: the right to flip a pawn into a Genie while the side
/// still has a pawn (a tempo away from turning ~100 cp into ~470 cp).
/// `attackers_to` sees every capturing piece (the Genie included; its double
/// jump never captures, and a leaper has no x-rays), so SEE is exact.
/// Null move: a flip or a Genie move is an ordinary move, nothing in the
/// variant makes passing less safe than in orthodox chess.
impl Evaluate for Genie {
    fn parts(&self, acc: &mut Acc) -> Parts {
        let b = self.board();
        let phase = board_eval(b, None, acc);
        let mut rights = false;
        for c in Color::ALL {
            if self.may_flip(c) && b.by_piece(Piece::new(c, Role::Pawn)).any() {
                acc.side(c);
                add!(acc, 1; flip_right);
                rights = true;
            }
        }
        acc.side(Color::White);
        let scale = if rights { SCALE_NORMAL } else { scale_factor(b, acc.total.1) };
        tempo(acc, self.turn());
        Parts { total: acc.total, phase, scale, turn: self.turn() }
    }
}

impl SearchPolicy for Genie {
    fn null_move(&self) -> Option<Genie> {
        self.pass()
    }
}

impl TimePolicy for Genie {}

impl NetInputs for Genie {
    fn nnue_extra(&self, c: Color) -> (u64, u64) {
        (0, u64::from(self.may_flip(c)) << crate::nnue::flag::GENIE_FLIP)
    }
}
