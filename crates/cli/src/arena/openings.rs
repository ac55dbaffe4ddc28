//! Openings: positions from an EPD or PGN file and/or random legal plies
//! from a seeded generator, so that a match is reproducible.

use anyhow::{anyhow, bail, Context, Result};
use chimera_rules::pgn::read_pgn;
use chimera_rules::{AnyPosition, Game, Move, Position, RuleOptions, Variant};

/// A start position and the moves played from it before the engines take over.
#[derive(Clone, Debug)]
pub struct Opening {
    pub start: AnyPosition,
    pub moves: Vec<Move>,
}

/// SplitMix64: a tiny, well-known generator; kept here rather than taken
/// from a crate so that a seed gives the same openings in every version.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by rejection so there is no bias.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// Appends `plies` random legal moves to `base`, drawn from a generator
/// seeded with `seed` and `index` (so opening `index` does not depend on
/// the others or on the order games run in). A line that ends the game
/// (mate, stalemate, repetition...) is drawn again; after 1000 tries the
/// opening is cut to the longest line that kept the game going.
pub fn random_opening(base: &Opening, plies: usize, seed: u64, index: u64) -> Opening {
    let mut rng = SplitMix64::new(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    let mut best = base.clone();
    for _ in 0..1000 {
        let mut game = Game::new(base.start.clone());
        for &m in &base.moves {
            game.push_unchecked(m);
        }
        let mut line = base.moves.clone();
        for _ in 0..plies {
            let legal = game.position().legal_move_list();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            game.push_unchecked(m);
            if game.outcome().is_some() {
                break;
            }
            line.push(m);
        }
        if line.len() == base.moves.len() + plies {
            return Opening { start: base.start.clone(), moves: line };
        }
        if line.len() > best.moves.len() {
            best = Opening { start: base.start.clone(), moves: line };
        }
    }
    best
}

/// Reads openings from `path`: `.pgn` (each game's start and main line) or
/// anything else as EPD/FEN lines (`#` starts a comment line). Positions
/// where the game is already over are refused.
pub fn load_file(path: &str, variant: Variant, opts: &RuleOptions) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read openings file {path}"))?;
    let openings = if path.to_ascii_lowercase().ends_with(".pgn") {
        from_pgn(&text, variant, opts)
    } else {
        from_epd(&text, variant, opts)
    }
    .with_context(|| format!("openings file {path}"))?;
    if openings.is_empty() {
        bail!("openings file {path} holds no position");
    }
    Ok(openings)
}

pub fn from_epd(text: &str, variant: Variant, opts: &RuleOptions) -> Result<Vec<Opening>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let start = epd_position(line, variant, opts).map_err(|e| anyhow!("line {}: {e}", i + 1))?;
        let o = Opening { start, moves: Vec::new() };
        check_not_over(&o).map_err(|e| anyhow!("line {}: {e}", i + 1))?;
        out.push(o);
    }
    Ok(out)
}

/// An EPD line may carry operations after the position (`bm e4; id "x";`):
/// the longest run of leading fields that reads as a FEN wins.
fn epd_position(line: &str, variant: Variant, opts: &RuleOptions) -> Result<AnyPosition> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let mut first_err = None;
    for k in (1..=fields.len()).rev() {
        match AnyPosition::from_fen(variant, &fields[..k].join(" "), opts) {
            Ok(p) => return Ok(p),
            Err(e) => {
                if k == fields.len() {
                    first_err = Some(e);
                }
            }
        }
    }
    Err(anyhow!("not a {variant} position: {}", first_err.map_or_else(String::new, |e| e.to_string())))
}

pub fn from_pgn(text: &str, variant: Variant, opts: &RuleOptions) -> Result<Vec<Opening>> {
    let mut out = Vec::new();
    for (i, g) in read_pgn(text).into_iter().enumerate() {
        let g = g.map_err(|e| anyhow!("game {}: {e}", i + 1))?;
        let mut g = g;
        if g.tag("Variant").is_none() {
            g.set_tag("Variant", variant.id());
        }
        // The match's rule options for a game whose tags do not say them.
        for (spec, value) in opts.values(variant) {
            if g.tag(spec.pgn_tag).is_none() {
                g.set_tag(spec.pgn_tag, value);
            }
        }
        let (start, moves) = g.replay().map_err(|e| anyhow!("game {}: {e}", i + 1))?;
        if start.variant() != variant {
            bail!("game {}: variant {} but the match is {}", i + 1, start.variant(), variant);
        }
        let o = Opening { start, moves };
        check_not_over(&o).map_err(|e| anyhow!("game {}: {e}", i + 1))?;
        out.push(o);
    }
    Ok(out)
}

fn check_not_over(o: &Opening) -> Result<()> {
    let mut g = Game::new(o.start.clone());
    for &m in &o.moves {
        g.push_unchecked(m);
    }
    if let Some(out) = g.outcome() {
        bail!("the game is already over there ({out})");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess_start() -> Opening {
        Opening { start: AnyPosition::new(Variant::Chess, &RuleOptions::default()), moves: Vec::new() }
    }

    #[test]
    fn splitmix_reference_values() {
        // First outputs for seed 0 of the reference SplitMix64 (Vigna's splitmix64.c).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut r = SplitMix64::new(7);
        for _ in 0..1000 {
            assert!(r.below(3) < 3);
        }
    }

    #[test]
    fn random_openings_are_legal_reproducible_and_varied() {
        let base = chess_start();
        let a = random_opening(&base, 8, 42, 0);
        let b = random_opening(&base, 8, 42, 0);
        let c = random_opening(&base, 8, 42, 1);
        assert_eq!(a.moves, b.moves, "same seed and index, same line");
        assert_ne!(a.moves, c.moves, "another index, another line");
        assert_eq!(a.moves.len(), 8);
        // Every move is legal where it is played.
        let mut pos = a.start.clone();
        for &m in &a.moves {
            assert!(pos.is_legal(m), "{m}");
            pos.play_unchecked(m);
        }
    }

    #[test]
    fn epd_lines_with_operations_and_comments() {
        let text = "# a comment\n\
                    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"after e4\";\n\
                    rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n";
        let o = from_epd(text, Variant::Chess, &RuleOptions::default()).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].start.turn(), chimera_rules::Color::Black);
        assert_eq!(o[1].start.fullmoves(), 2);
        let err = from_epd("not a fen at all\n", Variant::Chess, &RuleOptions::default()).unwrap_err();
        assert!(err.to_string().contains("line 1"), "{err}");
        // Fool's mate: the game is over, so it is no opening.
        let err = from_epd(
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n",
            Variant::Chess,
            &RuleOptions::default(),
        )
        .unwrap_err();
        assert!(format!("{err:#}").contains("already over"), "{err:#}");
    }

    #[test]
    fn pgn_openings() {
        let text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"y\"]\n\n1. d4 d5 *\n";
        let o = from_pgn(text, Variant::Chess, &RuleOptions::default()).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["e2e4", "e7e5", "g1f3"]);
        let err = from_pgn("1. e4 e4 *\n", Variant::Chess, &RuleOptions::default()).unwrap_err();
        assert!(err.to_string().contains("game 1"), "{err}");
    }
}
