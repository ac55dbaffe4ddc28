//! A game: a start position and the moves played, with the outcome rules
//! that need history (threefold repetition) and undo.

use crate::moves::Move;
use crate::position::{EndReason, IllegalMove, Outcome, Position};
use crate::san;

/// A game: the start position, the moves played and every position reached,
/// so that the rules that need history apply (threefold repetition) and moves
/// can be taken back.
///
/// [`Game::play`] and [`Game::play_str`] refuse an illegal move, and any move
/// once the game is over, with an [`IllegalMove`] and leave the game as it
/// was. [`Game::outcome`] adds threefold repetition to the position's own
/// verdict ([`Position::outcome`]).
///
/// ```
/// use chimera_rules::{Chess, EndReason, Game, Outcome};
///
/// let mut game = Game::new(Chess::new());
/// for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
///     game.play_str(m)?;
/// }
/// // The start position now stands on the board for the third time.
/// assert_eq!(game.repetitions(), 3);
/// assert_eq!(game.outcome(), Some(Outcome::Draw { reason: EndReason::ThreefoldRepetition }));
/// assert!(game.play_str("e4").is_err()); // the game is over
/// assert_eq!(game.undo().map(|m| m.to_string()), Some("f6g8".to_string()));
/// assert_eq!(game.outcome(), None);
/// assert_eq!(game.san_moves().len(), 7);
/// # Ok::<(), chimera_rules::IllegalMove>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    start: P,
    /// positions[0] = start; positions[i] = after moves[..i].
    positions: Vec<P>,
    moves: Vec<Move>,
}

impl<P: Position> Game<P> {
    /// A game from `start`, with no move played. `start` may be any position,
    /// one read from a FEN too; nothing before it is known, so repetitions are
    /// counted from it on.
    pub fn new(start: P) -> Game<P> {
        Game { positions: vec![start.clone()], start, moves: Vec::new() }
    }

    /// The position the game started from.
    pub fn start(&self) -> &P {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &P {
        self.positions.last().expect("never empty")
    }

    /// The moves played, first move first.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position, start first.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// Plays a legal move; an illegal one is refused and changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::new(m.to_string(), "the game is over"));
        }
        if !self.position().is_legal(m) {
            return Err(IllegalMove::new(m.to_string(), "not a legal move in this position"));
        }
        self.push_unchecked(m);
        Ok(())
    }

    /// Plays a move given as SAN or as a UCI move string (anything
    /// [`san::parse_san`] reads) and returns it. A string that names no legal
    /// move, or any move once the game is over, is refused with the reason
    /// and changes nothing.
    pub fn play_str(&mut self, s: &str) -> Result<Move, IllegalMove> {
        if let Some(o) = self.outcome() {
            return Err(IllegalMove::new(s, format!("the game is over: {o}")));
        }
        let pos = self.position();
        let m = san::parse_san(pos, s)?;
        self.push_unchecked(m);
        Ok(m)
    }

    /// Appends a move known to be legal, without checking it. A move that is
    /// not legal here leaves a game the rules cannot reach, or panics: use
    /// [`Game::play`] for a move from outside.
    pub fn push_unchecked(&mut self, m: Move) {
        let next = self.position().after(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Takes back the last move and returns it; `None`, changing nothing,
    /// when no move has been played.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// How many times the current position has stood on the board.
    pub fn repetitions(&self) -> usize {
        let cur = self.position();
        let h = cur.hash();
        // Only positions since the last irreversible move can repeat.
        let back = (cur.repetition_horizon() as usize).min(self.positions.len() - 1);
        self.positions[self.positions.len() - 1 - back..].iter().filter(|p| p.hash() == h).count()
    }

    /// The rules' verdict: checkmate, stalemate, dead material, fifty moves,
    /// threefold repetition (all automatic).
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if let Some(o) = pos.outcome() {
            return Some(o);
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::Draw { reason: EndReason::ThreefoldRepetition });
        }
        None
    }

    /// SAN of every move played.
    pub fn san_moves(&self) -> Vec<String> {
        self.moves.iter().zip(&self.positions).map(|(&m, p)| san::to_san(p, m)).collect()
    }
}
