//! A game: a start position and the moves played, with the outcome rules
//! that need history (threefold repetition) and undo.

use crate::moves::Move;
use crate::position::{EndReason, IllegalMove, Outcome, Position};
use crate::san;

#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    start: P,
    /// positions[0] = start; positions[i] = after moves[..i].
    positions: Vec<P>,
    moves: Vec<Move>,
}

impl<P: Position> Game<P> {
    pub fn new(start: P) -> Game<P> {
        Game { positions: vec![start.clone()], start, moves: Vec::new() }
    }

    pub fn start(&self) -> &P {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &P {
        self.positions.last().expect("never empty")
    }

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

    /// Plays a move given as a UCI string or SAN.
    pub fn play_str(&mut self, s: &str) -> Result<Move, IllegalMove> {
        if let Some(o) = self.outcome() {
            return Err(IllegalMove::new(s, format!("the game is over: {o}")));
        }
        let pos = self.position();
        let m = san::parse_san(pos, s)?;
        self.push_unchecked(m);
        Ok(m)
    }

    /// Appends a move known to be legal.
    pub fn push_unchecked(&mut self, m: Move) {
        let next = self.position().after(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Takes back the last move.
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
