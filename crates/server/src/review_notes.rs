//! Notes in a variant's own terms on the moves a review judges
//! ([`crate::review::assemble`] asks [`note`] for each judged move):
//!
//! - **Genie Of The Lamp**: a Genie flip missed: the engine's move was a
//!   flip (`d2d2g`, `Gd2`) and the move played was not.
//! - **Genesis**: a placement into a mating net: the move played was a
//!   placement (`N@f3`) and the evaluation after it is a forced mate
//!   against its mover.
//! - **Clown Chess**: a Clown declared onto a bad file: the move played
//!   declared a Knight a Clown (`b1c3c`, `Nc3(!C)`).
//! - **Magic Ring**: a ring passed away: the move played was a ring pass
//!   (`e1d2`, `e1~d2`), a move that moves nothing.
//!
//! A move that is none of these has no note; the first that applies is
//! the note.

use crate::review::Eval;
use chimera_rules::{san, AnyPosition, Color, Move, MoveKind, Position};

/// The note on a judged move `played` from `pos`, where the engine
/// preferred `best` and the position after `played` is `after` (White's
/// view).
pub fn note(pos: &AnyPosition, played: Move, best: Option<Move>, after: Eval) -> Option<String> {
    let mover = pos.turn();
    let better = best.map(|b| san::to_san(pos, b));
    let instead = better.as_deref().map(|b| format!(" {b} was better.")).unwrap_or_default();
    if let Some(b) = best.filter(|b| b.kind == MoveKind::Flip && played.kind != MoveKind::Flip) {
        return Some(format!(
            "A Genie flip missed: {} turned the pawn on {} into a Genie.",
            better.unwrap_or_default(),
            b.to
        ));
    }
    match played.kind {
        MoveKind::Drop(role) => mated_in(after, mover).map(|n| {
            let net = match n {
                Some(n) => format!("{} is mated in {n}", mover.fold("White", "Black")),
                None => format!("{} is mated", mover.fold("White", "Black")),
            };
            format!("A placement into a mating net: after the {} on {}, {net}.{instead}", role.name(), played.to)
        }),
        MoveKind::Declare => Some(format!(
            "A Clown declared onto a bad file: the Knight from {} became a Clown on the {}-file.{instead}",
            played.from,
            played.to.file().char()
        )),
        MoveKind::RingPass(_) => Some(format!(
            "A ring passed away: handing the ring from {} to {} moved nothing and cost the move.{instead}",
            played.from, played.to
        )),
        _ => None,
    }
}

/// `Some(Some(n))` where `after` is a mate in `n` against `mover`,
/// `Some(None)` where `mover` has already lost there, else `None`.
fn mated_in(after: Eval, mover: Color) -> Option<Option<i32>> {
    let s = if mover == Color::White { 1 } else { -1 };
    match after {
        Eval::Mate(m) if m * s < 0 => Some(Some(m.abs())),
        Eval::Won(c) if c != mover => Some(None),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::review::{assemble, Eval, Judgement, PositionEval};
    use chimera_rules::{AnyPosition, Game, Position, RuleOptions, Variant};

    /// The review of one move, `played`, from `fen` (the start where
    /// none) where the engine preferred `best` at `before` and the position
    /// after is `after` with the reply `reply`: its judgement and note.
    fn review_of(
        variant: Variant,
        fen: Option<&str>,
        played: &str,
        best: &str,
        before: Eval,
        after: Eval,
        reply: &str,
    ) -> (Option<Judgement>, Option<String>) {
        let opts = RuleOptions::default();
        let start = match fen {
            Some(f) => AnyPosition::from_fen(variant, f, &opts).unwrap(),
            None => AnyPosition::new(variant, &opts),
        };
        let mut g = Game::new(start);
        let m = g.position().parse_uci(played).unwrap();
        g.play(m).unwrap();
        let evals = [
            PositionEval { eval: before, best: Some(best.into()), pv: vec![best.into()] },
            PositionEval { eval: after, best: Some(reply.into()), pv: vec![reply.into()] },
        ];
        let r = assemble(&g, 1_000, &evals).unwrap();
        let p = r.plies.into_iter().next().unwrap();
        (p.judgement, p.note)
    }

    #[test]
    fn a_genie_flip_missed() {
        // After 1. e4 d5: White's 2. Ge4 (the flip) was the engine's move.
        let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let (j, n) = review_of(Variant::Genie, Some(fen), "a2a3", "e4e4g", Eval::Cp(40), Eval::Cp(-300), "d5e4");
        assert_eq!(j, Some(Judgement::Blunder));
        assert_eq!(n.as_deref(), Some("A Genie flip missed: Ge4 turned the pawn on e4 into a Genie."));
    }

    #[test]
    fn a_placement_into_a_mating_net() {
        // Genesis: White's King in the corner, Black's on f2; White places
        // a Knight far away and Black's Queen comes to g2.
        let fen = "8/8/8/8/8/8/5k2/7K[QRRBBNNPPPPPPPPqrrbbnnpppppppp] w - - 0 2";
        let (j, n) = review_of(Variant::Genesis, Some(fen), "N@a8", "R@g8", Eval::Cp(-50), Eval::Mate(-2), "Q@g3");
        assert_eq!(j, Some(Judgement::Blunder));
        assert_eq!(
            n.as_deref(),
            Some("A placement into a mating net: after the knight on a8, White is mated in 2. R@g8 was better.")
        );
        // The same placement, judged but with no mate against it: no note.
        let (j, n) = review_of(Variant::Genesis, Some(fen), "N@a8", "R@g8", Eval::Cp(-50), Eval::Cp(-500), "Q@g3");
        assert_eq!((j, n), (Some(Judgement::Blunder), None));
    }

    #[test]
    fn a_clown_declared_onto_a_bad_file() {
        let (j, n) = review_of(Variant::Clown, None, "b1a3c", "e2e4", Eval::Cp(30), Eval::Cp(-120), "e7e5");
        assert_eq!(j, Some(Judgement::Mistake));
        assert_eq!(
            n.as_deref(),
            Some("A Clown declared onto a bad file: the Knight from b1 became a Clown on the a-file. e4 was better.")
        );
    }

    #[test]
    fn a_ring_passed_away() {
        let (j, n) = review_of(Variant::MagicRing, None, "e1d2", "e2e4", Eval::Cp(30), Eval::Cp(-250), "e7e5");
        assert_eq!(j, Some(Judgement::Blunder));
        assert_eq!(
            n.as_deref(),
            Some("A ring passed away: handing the ring from e1 to d2 moved nothing and cost the move. e4 was better.")
        );
    }

    #[test]
    fn no_note_where_none_applies() {
        // A chess blunder: judged, no note.
        let (j, n) = review_of(Variant::Chess, None, "f2f3", "e2e4", Eval::Cp(30), Eval::Cp(-400), "e7e5");
        assert_eq!((j, n), (Some(Judgement::Blunder), None));
        // Genie: the engine's move was no flip.
        let (j, n) = review_of(Variant::Genie, None, "f2f3", "e2e4", Eval::Cp(30), Eval::Cp(-400), "e7e5");
        assert_eq!((j, n), (Some(Judgement::Blunder), None));
        // Not judged (the engine's own move): no note, even for a pass.
        let (j, n) = review_of(Variant::MagicRing, None, "e1d2", "e1d2", Eval::Cp(30), Eval::Cp(-250), "e7e5");
        assert_eq!((j, n), (None, None));
    }
}
