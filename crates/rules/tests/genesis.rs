//! Genesis Chess (`docs/rules/genesis.md`): hand-worked positions, each
//! with the reason for its expected answer, and the Fairy-Stockfish oracle
//! (configured by the project's `scripts/oracle/genesis.ini`).

use chimera_rules::{Color, EndReason, Genesis, Outcome, Position, Role};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn pos(fen: &str) -> Genesis {
    Genesis::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(p: &mut Genesis, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = p.parse_uci(m).unwrap_or_else(|e| panic!("{e}"));
        p.play_unchecked(mv);
    }
}

fn legal(p: &Genesis) -> BTreeSet<String> {
    p.legal_move_list().iter().map(|m| m.to_string()).collect()
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------- start

#[test]
fn start_position_and_fen() {
    let p = Genesis::new();
    // Fairy-Stockfish writes the reserve K, then its custom pawn, then Q R B N.
    assert_eq!(p.fen(), "8/8/8/8/8/8/8/8[KPPPPPPPPQRRBBNNkppppppppqrrbbnn] w - - 0 1");
    // The FEN of the rules file (another order) reads as the same position.
    let q = pos("8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1");
    assert_eq!(q.fen(), p.fen());
    assert_eq!(q.hash(), p.hash());
    // No King on the board: no check, no outcome, only King placements.
    assert!(!p.is_check());
    assert_eq!(p.outcome(), None);
    assert!(!p.is_dead_material());
    let l = legal(&p);
    assert_eq!(l.len(), 64);
    assert!(l.iter().all(|m| m.starts_with("K@")));
    assert_eq!(chimera_rules::perft::perft(&p, 1), 64);
    assert_eq!(chimera_rules::perft::perft(&p, 2), 3612);
}

#[test]
fn king_placement_refused_next_to_the_other_king() {
    let mut p = Genesis::new();
    play(&mut p, "K@e1");
    // Black may place its King on any empty square except the five next to
    // e1 (d1 f1 d2 e2 f2: it would give check) and e1 itself: 64 - 6 = 58.
    assert_eq!(p.count_legal_moves(), 58);
    for sq in ["d1", "f1", "d2", "e2", "f2"] {
        let err = p.parse_uci(&format!("K@{sq}")).unwrap_err();
        assert!(err.reason.contains("next to the other King"), "{err}");
    }
    let err = p.parse_uci("K@e1").unwrap_err();
    assert!(err.reason.contains("occupied"), "{err}");
    // Nothing but the King may be placed first.
    let err = p.parse_uci("Q@a8").unwrap_err();
    assert!(err.reason.contains("must place the King first"), "{err}");
    assert!(p.parse_uci("K@e3").is_ok());
}

#[test]
fn placement_refused_because_it_would_give_check() {
    let mut p = Genesis::new();
    play(&mut p, "K@e1 K@e8");
    // A Queen on e4 would attack e8 along the empty e-file.
    let err = p.parse_uci("Q@e4").unwrap_err();
    assert!(err.reason.contains("would give check"), "{err}");
    // Knight on d6 or f6 and pawn on d7 or f7 attack e8 too.
    for m in ["N@d6", "N@f6", "P@d7", "P@f7", "B@a4", "R@a8"] {
        let err = p.parse_uci(m).unwrap_err();
        assert!(err.reason.contains("would give check"), "{m}: {err}");
    }
    // A pawn in front of the King (e7) does not attack it: pawns capture diagonally.
    assert!(p.parse_uci("P@e7").is_ok());
    // A Queen on e4 becomes possible once the file is blocked.
    play(&mut p, "P@e5 P@a7");
    assert!(p.parse_uci("Q@e4").is_ok());
}

#[test]
fn mate_that_a_placement_could_block_is_not_mate() {
    // Black Ka8 in check from Rh8; a7 b7 covered by Kb6, b8 by the Rook.
    // With an empty reserve this is checkmate.
    let mate = pos("k6R/8/1K6/8/8/8/8/8[] b - - 0 1");
    assert!(mate.is_check());
    assert_eq!(mate.count_legal_moves(), 0);
    assert_eq!(mate.outcome(), Some(Outcome::Decisive { winner: Color::White, reason: EndReason::Checkmate }));
    // With a Knight in reserve Black blocks on b8 d8 e8 f8 g8; not on c8,
    // where the Knight would attack b6 and so give check.
    let saved = pos("k6R/8/1K6/8/8/8/8/8[n] b - - 0 1");
    assert_eq!(saved.outcome(), None);
    assert_eq!(legal(&saved), set(&["N@b8", "N@d8", "N@e8", "N@f8", "N@g8"]));
    let err = saved.parse_uci("N@c8").unwrap_err();
    assert!(err.reason.contains("would give check"), "{err}");
    // A placement that does not stand between King and checker is refused.
    let err = saved.parse_uci("N@a1").unwrap_err();
    assert!(err.reason.contains("does not block"), "{err}");
}

#[test]
fn knight_check_cannot_be_blocked_and_double_check_allows_no_placement() {
    // White Ke1 checked by the Knight on d3: nothing stands between, so no
    // placement answers it; the King goes to d1 d2 e2 f1 (f2 is attacked by
    // the Knight too: it attacks b2 b4 c1 c5 e1 e5 f2 f4).
    let p = pos("4k3/8/8/8/8/3n4/8/4K3[Q] w - - 0 1");
    assert!(p.is_check());
    assert_eq!(legal(&p), set(&["e1d1", "e1d2", "e1e2", "e1f1"]));
    // Double check: Knight d3 and Rook e8 (e-file open). Only King moves.
    let p = pos("4r2k/8/8/8/8/3n4/8/4K3[Q] w - - 0 1");
    assert_eq!(p.checkers().count(), 2);
    assert_eq!(legal(&p), set(&["e1d1", "e1d2", "e1f1"]));
    let err = p.parse_uci("Q@e4").unwrap_err();
    assert!(err.reason.contains("double check"), "{err}");
}

#[test]
fn blocking_squares_exclude_placements_that_give_check() {
    // White Ke1 in check from the Rook on e8; Black King a8. A Queen may
    // block on e2 e3 e5 e6 e7 but not on e4, from where it would attack a8
    // along the diagonal e4-d5-c6-b7-a8.
    let p = pos("k3r3/8/8/8/8/8/8/4K3[Q] w - - 0 1");
    let drops: BTreeSet<String> = legal(&p).into_iter().filter(|m| m.contains('@')).collect();
    assert_eq!(drops, set(&["Q@e2", "Q@e3", "Q@e5", "Q@e6", "Q@e7"]));
}

#[test]
fn pawn_moves_backwards_and_sideways_and_captures_backwards() {
    // White pawn d4: one square up, down, left or right to an empty square
    // (d5 d3 c4 e4), and a capture of the Black pawn diagonally behind it on
    // c3. Nothing on the other diagonals (c5 e5 e3 empty: no capture there).
    let p = pos("4k3/8/8/8/3P4/2p5/8/4K3[Rr] w - - 0 1");
    let pawn: BTreeSet<String> = legal(&p).into_iter().filter(|m| m.starts_with("d4")).collect();
    assert_eq!(pawn, set(&["d4c3", "d4c4", "d4d3", "d4d5", "d4e4"]));
    // The captured pawn leaves the game (no reserve gains it); the clock resets.
    let after = p.after(p.parse_uci("d4c3").unwrap());
    assert_eq!(after.fen(), "4k3/8/8/8/8/2P5/8/4K3[Rr] b - - 0 1");
    // A Black pawn moves the same way: c3 to c2 ("forward" for Black), c4,
    // b3, d3, and captures d4 diagonally ahead (for Black: backwards).
    let p = pos("4k3/8/8/8/3P4/2p5/8/4K3[Rr] b - - 0 1");
    let pawn: BTreeSet<String> = legal(&p).into_iter().filter(|m| m.starts_with("c3")).collect();
    assert_eq!(pawn, set(&["c3b3", "c3c2", "c3c4", "c3d3", "c3d4"]));
    // Pawns stand and are placed on the first and last ranks, and never promote.
    let p = pos("4k3/8/8/8/8/8/P7/4K3[P] w - - 7 1");
    assert!(p.parse_uci("P@h8").is_ok());
    assert!(p.parse_uci("P@a1").is_ok());
    let after = p.after(p.parse_uci("a2a1").unwrap());
    assert_eq!(after.fen(), "4k3/8/8/8/8/8/8/P3K3[P] b - - 0 1", "a pawn move resets the clock");
    assert!(p.parse_uci("a2a1q").is_err());
}

#[test]
fn a_pawn_is_pinned_like_any_piece() {
    // Pawn e2 pinned by the Rook on e8 against Ke1: it may step along the
    // file (e3) but not sideways (d2 f2), nor capture the pawn on d3 off the line.
    let p = pos("k3r3/8/8/8/8/3p4/4P3/4K3[] w - - 0 1");
    assert!(!p.is_check());
    let pawn: BTreeSet<String> = legal(&p).into_iter().filter(|m| m.starts_with("e2")).collect();
    assert_eq!(pawn, set(&["e2e3"]));
}

#[test]
fn fifty_move_counter_and_placements() {
    let mut p = pos("k7/8/8/8/8/8/8/1R2K3[Pp] w - - 10 30");
    play(&mut p, "b1b2");
    assert_eq!(p.halfmoves(), 11);
    play(&mut p, "P@h1");
    assert_eq!(p.halfmoves(), 0, "a placement resets the counter");
    let p = pos("k7/8/8/8/8/8/8/1R2K3[Pp] w - - 100 80");
    assert_eq!(p.outcome(), Some(Outcome::Draw { reason: EndReason::FiftyMoves }));
}

#[test]
fn dead_material_needs_both_reserves_empty() {
    let dead = |f: &str| pos(f).is_dead_material();
    assert!(dead("4k3/8/8/8/8/8/8/4K3[] w - - 0 1"), "K v K");
    assert!(dead("4k3/8/8/8/8/8/8/2B1K3[] w - - 0 1"), "K+B v K");
    assert!(dead("4k3/8/8/8/8/8/8/1N2K3[] w - - 0 1"), "K+N v K");
    assert!(dead("4k3/8/8/8/8/3p4/8/4K3[] w - - 0 1"), "K+P v K: a pawn never promotes and cannot mate alone");
    assert!(dead("4k3/8/8/8/3b4/8/3B4/4K3[] w - - 0 1"), "bishops all on dark squares");
    assert!(!dead("4k3/8/8/8/3b4/8/2B5/4K3[] w - - 0 1"), "bishops on both colours can mate with help");
    assert!(!dead("4k3/8/8/8/8/8/3pP3/4K3[] w - - 0 1"), "K+P v K+P: a helpmate exists");
    assert!(!dead("4k3/8/8/8/8/8/3PP3/4K3[] w - - 0 1"), "K+2P v K can mate");
    assert!(!dead("4k3/8/8/8/8/8/8/R3K3[] w - - 0 1"), "K+R v K mates");
    assert!(!dead("4k3/8/8/8/8/8/8/3QK3[] w - - 0 1"), "K+Q v K mates");
    assert!(!dead("4k3/8/8/8/8/8/8/4K3[p] w - - 0 1"), "a reserve piece can still enter");
    assert!(!dead("8/8/8/8/8/8/8/4K3[k] b - - 0 1"), "Black's King still in reserve");
    let p = pos("4k3/8/8/8/8/3p4/8/4K3[] w - - 0 1");
    assert_eq!(p.outcome(), Some(Outcome::Draw { reason: EndReason::DeadMaterial }));
}

#[test]
fn king_in_reserve_positions() {
    // Black's King still in reserve while White has pieces: Black may only
    // place it, on a square not attacked (nor next to White's King).
    let p = pos("8/8/8/8/8/8/8/R3K3[qk] b - - 0 1");
    assert!(!p.is_check());
    assert!(p.must_place_king());
    let l = legal(&p);
    assert!(l.iter().all(|m| m.starts_with("K@")));
    // a-file and rank 1 are attacked by the Rook, d2 e2 f2 (and d1 f1) by the King.
    // 16 squares are out: a1 e1 (occupied), a2-a8 b1 c1 d1 (Rook), f1 d2 e2 f2 (King).
    assert!(!l.contains("K@a5") && !l.contains("K@d1") && !l.contains("K@e2"));
    assert!(l.contains("K@b2") && l.contains("K@h1"));
    assert_eq!(l.len(), 64 - 16);
    let err = p.parse_uci("K@a5").unwrap_err();
    assert!(err.reason.contains("in check"), "{err}");
    // White, to move with Black's King off the board, places freely (no check possible).
    let p = pos("8/8/8/8/8/8/8/4K3[Qk] w - - 0 1");
    assert_eq!(p.placement_squares(Role::Queen).count(), 63);
}

#[test]
fn fen_errors_are_typed() {
    for bad in [
        "8/8/8/8/8/8/8/8[QRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1", // no White King anywhere
        "4K3/8/8/8/8/8/8/8[KQkq] w - - 0 1",                          // two White Kings
        "4k3/8/8/8/8/8/8/4K3[] w KQ - 0 1",                           // castling
        "4k3/8/8/8/8/8/8/4K3[] w - e3 0 1",                           // en passant
        "4k3/8/8/8/8/8/8/4K3[G] w - - 0 1",                           // a Genie
        "4k3/8/8/8/8/8/8/4KG2[] w - - 0 1",                           // a Genie
        "4k3/4R3/8/8/8/8/8/4K3[] w - - 0 1",                          // side not to move in check
        "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 extra",
        "4k3/8/8/8/8/8/8/4K3[Q w - - 0 1",
    ] {
        assert!(Genesis::from_fen(bad).is_err(), "{bad}");
    }
}

#[test]
fn repetition_counts_reserves() {
    // Same board, side to move, different reserves: different positions.
    let a = pos("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1");
    let b = pos("4k3/8/8/8/8/8/8/4K3[q] w - - 0 1");
    let c = pos("4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    assert_ne!(a.hash(), b.hash());
    assert_ne!(a.hash(), c.hash());
    // Knight shuffles come back to the same hash, pawn steps too.
    let mut p = pos("4k3/8/8/8/8/8/4P3/N3K3[Qq] w - - 0 1");
    let h0 = p.hash();
    play(&mut p, "a1b3 e8d8 b3a1 d8e8 e2e3 e8d8 e3e2 d8e8");
    assert_eq!(p.hash(), h0);
}

// ---------------------------------------------------------------- oracle

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

#[derive(Debug, PartialEq)]
enum End {
    Checkmate,
    Stalemate,
    Dead,
    Fifty,
    Repetition,
}

/// The game-end reason of our rules, with repetition counted over the
/// whole game (equal hashes: board, side to move, reserves).
fn our_end(p: &Genesis, history: &[u64]) -> Option<End> {
    if let Some(o) = p.outcome() {
        return Some(match o.reason() {
            EndReason::Checkmate => End::Checkmate,
            EndReason::Stalemate => End::Stalemate,
            EndReason::DeadMaterial => End::Dead,
            EndReason::FiftyMoves => End::Fifty,
            r => panic!("unexpected {r:?}"),
        });
    }
    let h = p.hash();
    if history.iter().filter(|&&x| x == h).count() >= 3 {
        return Some(End::Repetition);
    }
    None
}

/// Exactly K+P v K with both reserves empty: dead for us (`genesis.md`),
/// not for Fairy-Stockfish (its pawn counts as mating material).
fn is_k_p_v_k(p: &Genesis) -> bool {
    let b = p.board();
    [Color::White, Color::Black].iter().all(|&c| p.reserves()[c].iter().all(|&n| n == 0))
        && b.occupied().count() == 3
        && b.by_role(Role::Pawn).count() == 1
}

/// Replays `text` (output of `scripts/oracle/genesis_playouts.py`); returns
/// (games, plies checked) or the list of disagreements.
fn check_oracle_output(text: &str) -> Result<(usize, usize), Vec<String>> {
    let mut failures = Vec::new();
    let mut games = 0;
    let mut plies = 0;
    let mut p = Genesis::new();
    let mut history: Vec<u64> = Vec::new();
    let mut game = String::new();
    let mut skip = false;
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[0] {
            "game" => {
                games += 1;
                game = fields[1].to_string();
                p = Genesis::new();
                history = vec![p.hash()];
                skip = false;
            }
            "end" => {}
            "ply" if skip => {}
            "ply" => {
                plies += 1;
                let [_, fsf_fen, fsf_moves, nomoves, insuf, optional, mv] = fields[..] else {
                    panic!("bad line: {line}");
                };
                let at = format!("game {game} ply {} ({fsf_fen})", history.len() - 1);
                // FEN: equal except the halfmove clock (FSF does not reset it
                // on pawn moves: its pawn here is a custom piece, `pawnTypes = -`).
                let ours = p.fen();
                let strip = |f: &str| {
                    let mut v: Vec<String> = f.split_whitespace().map(String::from).collect();
                    v.remove(4);
                    v.join(" ")
                };
                let fsf_clock: u32 = fsf_fen.split_whitespace().nth(4).unwrap().parse().unwrap();
                if strip(&ours) != strip(fsf_fen) || p.halfmoves() > fsf_clock {
                    failures.push(format!("{at}: our FEN {ours}"));
                    skip = true;
                    continue;
                }
                // Legal moves, both sorted as strings; bulk count agrees.
                let mut ours: Vec<String> = p.legal_move_list().iter().map(|m| m.to_string()).collect();
                ours.sort();
                let theirs: Vec<&str> = if fsf_moves.is_empty() { vec![] } else { fsf_moves.split(' ').collect() };
                if ours != theirs {
                    let o: BTreeSet<&str> = ours.iter().map(|s| s.as_str()).collect();
                    let t: BTreeSet<&str> = theirs.iter().copied().collect();
                    failures.push(format!(
                        "{at}: only ours {:?}, only FSF {:?}",
                        o.difference(&t).collect::<Vec<_>>(),
                        t.difference(&o).collect::<Vec<_>>()
                    ));
                    skip = true;
                    continue;
                }
                if p.count_legal_moves() != ours.len() as u64 {
                    failures.push(format!("{at}: bulk count {} != {}", p.count_legal_moves(), ours.len()));
                }
                // Outcomes.
                let fsf_end = if nomoves != "-" {
                    let v: i32 = nomoves.parse().unwrap();
                    Some(if v < 0 { End::Checkmate } else { End::Stalemate })
                } else if insuf == "TT" {
                    Some(End::Dead)
                } else if optional != "-" {
                    Some(if fsf_clock >= 100 { End::Fifty } else { End::Repetition })
                } else {
                    None
                };
                let our = our_end(&p, &history);
                let agree = match (&our, &fsf_end) {
                    (a, b) if a == b => true,
                    // Documented differences (docs/rules/genesis.md):
                    // K+P v K is dead for us, not for FSF.
                    (Some(End::Dead), None) => is_k_p_v_k(&p),
                    // FSF's clock ignores pawn moves, so it may reach 100 first.
                    (None, Some(End::Fifty)) => p.halfmoves() < 100,
                    // Both at once: FSF reports the optional end as one value.
                    (Some(End::Repetition), Some(End::Fifty)) => true,
                    _ => false,
                };
                if !agree {
                    failures.push(format!("{at}: our end {our:?}, FSF {fsf_end:?}"));
                }
                if our.is_some() || fsf_end.is_some() {
                    skip = true;
                    continue;
                }
                if mv == "-" {
                    continue;
                }
                match p.parse_uci(mv) {
                    Ok(m) => {
                        p.play_unchecked(m);
                        history.push(p.hash());
                    }
                    Err(e) => {
                        failures.push(format!("{at}: {e}"));
                        skip = true;
                    }
                }
            }
            other => panic!("unknown line kind {other}"),
        }
        if failures.len() >= 20 {
            break;
        }
    }
    if failures.is_empty() {
        Ok((games, plies))
    } else {
        Err(failures)
    }
}

/// Random playouts judged by Fairy-Stockfish (pyffish) with the project's
/// `scripts/oracle/genesis.ini`: legal move sets, FENs and outcomes must
/// agree at every ply. Python: `CHIMERA_PYTHON`, else `<root>/.venv/bin/python`
/// (made by `scripts/setup-python.sh`). `CHIMERA_GENESIS_GAMES` and
/// `CHIMERA_GENESIS_PLIES` change the run; `CHIMERA_SLOW_TESTS=1` plays the
/// long games (150 plies); `CHIMERA_GENESIS_ORACLE_FILE` replays a saved output.
#[test]
fn pyffish_oracle_playouts() {
    let root = workspace_root();
    let text = if let Ok(file) = std::env::var("CHIMERA_GENESIS_ORACLE_FILE") {
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"))
    } else {
        let python =
            std::env::var("CHIMERA_PYTHON").map(PathBuf::from).unwrap_or_else(|_| root.join(".venv/bin/python"));
        assert!(
            python.exists(),
            "pyffish oracle: no Python at {} — run scripts/setup-python.sh (it makes .venv with pyffish) \
             or set CHIMERA_PYTHON to a Python that has pyffish",
            python.display()
        );
        // The project's own Fairy-Stockfish configuration of the variant.
        let ini = root.join("scripts/oracle/genesis.ini");
        assert!(ini.exists(), "pyffish oracle: {} is missing from the repository", ini.display());
        let slow = std::env::var("CHIMERA_SLOW_TESTS").is_ok_and(|v| v == "1");
        // Default: 1,000 playouts: 950 short ones (openings, where placements
        // dominate) and 50 long ones to 150 plies (middlegames and endgames
        // with captures, checks, mates, dead material). pyffish costs ~2 ms a
        // call, so the long set is what CHIMERA_SLOW_TESTS=1 widens.
        let runs: Vec<(String, String, &str)> =
            match (std::env::var("CHIMERA_GENESIS_GAMES"), std::env::var("CHIMERA_GENESIS_PLIES")) {
                (Ok(g), Ok(p)) => vec![(g, p, "20261122")],
                (Ok(g), Err(_)) => vec![(g, "24".into(), "20261122")],
                _ if slow => vec![("1000".into(), "150".into(), "20261122")],
                _ => vec![("950".into(), "24".into(), "20261122"), ("50".into(), "150".into(), "7")],
            };
        let mut text = String::new();
        for (games, plies, seed) in runs {
            let out = Command::new(&python)
                .arg(root.join("scripts/oracle/genesis_playouts.py"))
                .arg(&ini)
                .args(["--games", &games, "--max-plies", &plies, "--seed", seed])
                .output()
                .unwrap_or_else(|e| panic!("pyffish oracle: cannot run {}: {e}", python.display()));
            assert!(
                out.status.success(),
                "pyffish oracle script failed ({}):\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            text.push_str(&String::from_utf8(out.stdout).expect("UTF-8 output"));
        }
        text
    };
    match check_oracle_output(&text) {
        Ok((games, plies)) => {
            assert!(games >= 1, "no games in the oracle output");
            eprintln!("pyffish oracle: {games} games, {plies} plies agree");
        }
        Err(f) => panic!("disagreements with Fairy-Stockfish:\n{}", f.join("\n")),
    }
}

// ---------------------------------------------------------------- invariants

/// Seeded random games through our own rules: at every ply the bulk count
/// equals the listed moves, the FEN reads back to the same position and
/// hash, no placement gives check, no move leaves the mover's King attacked,
/// and the reserves plus the board always hold at most the standard set.
#[test]
fn random_games_keep_the_invariants() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..200 {
        let mut p = Genesis::new();
        for _ in 0..120 {
            let list = p.legal_move_list();
            assert_eq!(p.count_legal_moves(), list.len() as u64, "{}", p.fen());
            let q = Genesis::from_fen(&p.fen()).unwrap();
            assert_eq!(q.hash(), p.hash(), "{}", p.fen());
            assert_eq!(q.fen(), p.fen());
            if list.is_empty() {
                break;
            }
            // Prefer captures and board moves half the time, to reach endgames.
            let caps: Vec<_> = list.iter().copied().filter(|&m| p.is_capture(m)).collect();
            let m = if !caps.is_empty() && next() % 2 == 0 {
                caps[(next() % caps.len() as u64) as usize]
            } else {
                list[(next() % list.len() as u64) as usize]
            };
            let placed = m.is_drop();
            p.play_unchecked(m);
            if placed && m.kind != chimera_rules::MoveKind::Drop(Role::King) {
                assert!(!p.is_check(), "placement {m} gave check: {}", p.fen());
            }
            // The mover's King is not attacked: reading the FEN checks that
            // the side not to move is not in check.
            assert!(Genesis::from_fen(&p.fen()).is_ok(), "{m} left the King attacked: {}", p.fen());
            for c in [Color::White, Color::Black] {
                for r in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                    let on_board = (p.board().by_role(r) & p.board().by_color(c)).count() as u8;
                    let max = match r {
                        Role::Pawn => 8,
                        Role::Queen | Role::King => 1,
                        _ => 2,
                    };
                    assert!(on_board + p.reserve_count(c, r) <= max, "{}", p.fen());
                }
            }
            if p.outcome().is_some() {
                break;
            }
        }
    }
}

/// Threefold repetition across pawn moves. A Genesis pawn move resets the
/// fifty-move counter, yet pawns move back and forth, so the same position
/// can recur across it: d3-d4 / e6-f6 / d4-d3 / f6-e6 twice brings the
/// position after `P@e6` back a second and a third time. (Looking back only
/// as far as the halfmove clock would miss this.)
#[test]
fn threefold_repetition_across_pawn_moves() {
    use chimera_rules::Game;
    let mut g = Game::new(Genesis::new());
    for m in ["K@a1", "K@h8", "P@d3", "P@e6"] {
        g.play_str(m).unwrap();
    }
    for round in 0..2 {
        for m in ["d3d4", "e6f6", "d4d3", "f6e6"] {
            assert!(g.outcome().is_none(), "round {round}: game ended early before {m}");
            g.play_str(m).unwrap();
        }
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), Some(Outcome::Draw { reason: EndReason::ThreefoldRepetition }));
}
