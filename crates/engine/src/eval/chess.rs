//! Orthodox chess: the shared board evaluation, and the null move.

use super::*;

impl Evaluate for Chess {}

impl SearchPolicy for Chess {
    fn null_move(&self) -> Option<Chess> {
        self.pass()
    }
}

impl TimePolicy for Chess {}

impl NetInputs for Chess {}

/// The FEN of `fen` with the other side to move: en passant cleared, the
/// halfmove clock reset (repetition must not look across the pass), and the
/// extra fields whose name starts with one of `drop` removed (state that
/// describes "the last move", which a pass replaces). The tests check the
/// rules crate's `Position::pass` against this FEN round trip (the FEN
/// readers check everything, e.g. that the side not to move is not in check).
#[cfg(test)]
pub(super) fn pass_fen(fen: &str, drop: &[&str]) -> Option<String> {
    let mut f: Vec<&str> = fen.split(' ').collect();
    if f.len() < 6 {
        return None;
    }
    f[1] = if f[1] == "w" { "b" } else { "w" };
    f[3] = "-";
    f[4] = "0";
    let mut out: Vec<&str> = f[..6].to_vec();
    out.extend(f[6..].iter().filter(|x| !drop.iter().any(|d| x.starts_with(d))));
    Some(out.join(" "))
}
