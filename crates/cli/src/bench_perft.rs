//! `chimera bench perft`: single-threaded perft (bulk counting at the last
//! ply) on fixed positions of every variant; prints nodes, time and nodes
//! per second per case. `scripts/bench-perft.sh` runs Stockfish's
//! `go perft` on the orthodox cases in the same run and prints the ratio.

use anyhow::{anyhow, Result};
use chimera_rules::{AnyPosition, Position, RuleOptions, Variant};
use std::time::Instant;

/// (name, variant, FEN or "startpos", moves, depth)
pub const CASES: &[(&str, &str, &str, &str, u32)] = &[
    ("chess-startpos", "chess", "startpos", "", 6),
    ("chess-kiwipete", "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "", 5),
    ("genie-startpos", "genie", "startpos", "", 5),
    ("genie-ownhalf-startpos", "genie-ownhalf", "startpos", "", 5),
    ("genie-middlegame", "genie", "r1bqkbn1/1p1ppp2/2n4r/6p1/3gP1Pp/3P1PGP/PP4B1/RNBQK1NR w KQq - 3 12", "", 5),
    ("genesis-kings", "genesis", "startpos", "K@e1 K@e8", 4),
    ("clown-startpos", "clown", "startpos", "", 6),
    ("magicring-startpos", "magicring", "startpos", "", 5),
];

pub fn run(filter: Option<&str>) -> Result<()> {
    println!("{:<22} {:>5} {:>14} {:>9} {:>12}", "case", "depth", "nodes", "ms", "nps");
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    for &(name, variant, fen, moves, depth) in CASES {
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let v: Variant = variant.parse().map_err(|e| anyhow!("{e}"))?;
        let opts = RuleOptions::default();
        let mut pos = if fen == "startpos" {
            AnyPosition::new(v, &opts)
        } else {
            match AnyPosition::from_fen(v, fen, &opts) {
                Ok(p) => p,
                Err(e) => {
                    println!("{name:<22} skipped: {e}");
                    continue;
                }
            }
        };
        let mut ok = true;
        for m in moves.split_whitespace() {
            match pos.parse_uci(m) {
                Ok(mv) => pos.play_unchecked(mv),
                Err(e) => {
                    println!("{name:<22} skipped: {e}");
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            continue;
        }
        let t = Instant::now();
        let nodes = pos.perft(depth);
        let secs = t.elapsed().as_secs_f64();
        total_nodes += nodes;
        total_secs += secs;
        println!("{name:<22} {depth:>5} {nodes:>14} {:>9.0} {:>12.0}", secs * 1000.0, nodes as f64 / secs.max(1e-9));
    }
    println!(
        "total nodes {total_nodes} in {:.0} ms: {:.0} nps",
        total_secs * 1000.0,
        total_nodes as f64 / total_secs.max(1e-9)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The bench measures every variant: one added to `Variant::ALL` without
    /// a case here fails.
    #[test]
    fn every_variant_has_a_case() {
        for v in chimera_rules::Variant::ALL {
            assert!(super::CASES.iter().any(|c| c.1 == v.id()), "no perft bench case for {v}");
        }
    }
}
