//! The puzzle crate: the file format, the themes, the miner's judgement on
//! positions whose answer is known, its reproducibility, and the shipped
//! sets (sound, big enough, and a sample re-verified at ten times the
//! mining budget; `chimera puzzles verify --set NAME` checks every puzzle,
//! docs/puzzles.md).

use chimera_engine::{Engine, EngineOptions};
use chimera_puzzles::mine::{self, candidate, refutation, verify, MineConfig};
use chimera_puzzles::{parse_set, puzzle_id, set_spec, shipped, themes, write_set, Eval, Puzzle, SETS, THEMES};
use chimera_rules::{AnyPosition, MoveKind, Position};
use proptest::prelude::*;

fn analyst() -> Engine {
    Engine::new(EngineOptions { hash_mb: 16, threads: 1, ..EngineOptions::default() })
}

fn chess(fen: &str) -> AnyPosition {
    set_spec("chess").unwrap().position(fen).unwrap()
}

/// The mining budget of the shipped sets (their files' first comment).
const MINING_NODES: u64 = 6000;

#[test]
fn a_lone_winning_capture_is_a_puzzle() {
    // White's rook takes the undefended queen; every other move loses the rook or the game.
    let pos = chess("7k/8/8/8/8/8/6PP/q3R2K w - - 0 1");
    let p = candidate(&mut analyst(), set_spec("chess").unwrap(), &pos, MINING_NODES, false, "test".into())
        .expect("a puzzle");
    assert_eq!(p.solution(), "e1a1");
    assert!(p.themes.iter().any(|t| t == "capture"), "{:?}", p.themes);
    assert!(p.themes.iter().any(|t| t == "material"), "{:?}", p.themes);
    assert_eq!(p.id, puzzle_id("chess", &p.fen, "e1a1"));
    // The independent check agrees, and the wrong move's refutation is the queen taking the rook.
    assert!(verify(&p, 10 * MINING_NODES).holds());
    let wrong = pos.parse_uci("h2h3").unwrap();
    let (line, eval) = refutation(&pos, wrong, MINING_NODES);
    assert_eq!(line[0].to_string(), "a1e1");
    assert!(eval.wins(), "{eval}");
}

#[test]
fn two_winning_moves_make_no_puzzle() {
    // Either rook takes the undefended queen.
    let pos = chess("7k/8/8/8/8/8/6PP/q2RR2K w - - 0 1");
    assert!(candidate(&mut analyst(), set_spec("chess").unwrap(), &pos, MINING_NODES, false, "test".into()).is_none());
    // A quiet, level position neither.
    let start = set_spec("chess").unwrap().start();
    assert!(candidate(&mut analyst(), set_spec("chess").unwrap(), &start, MINING_NODES, false, "test".into()).is_none());
}

#[test]
fn mate_in_one_is_tagged() {
    // Back-rank mate: Re8#, and nothing else wins (Black threatens nothing, but no other move mates or wins material).
    let pos = chess("6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1");
    let m = pos.parse_uci("e1e8").unwrap();
    let t = themes(&pos, &[m], Eval::Mate(1));
    assert_eq!(t, ["mate", "mateIn1", "check"]);
}

#[test]
fn special_moves_are_tagged() {
    for (set, kind_of, theme) in [
        ("genie", (|k| matches!(k, MoveKind::Flip)) as fn(MoveKind) -> bool, "flip"),
        ("genesis", |k| matches!(k, MoveKind::Drop(_)), "placement"),
        ("clown", |k| matches!(k, MoveKind::Declare), "declaration"),
        ("magicring", |k| matches!(k, MoveKind::RingPass(_)), "ringPass"),
    ] {
        let pos = set_spec(set).unwrap().start();
        let m =
            *pos.legal_move_list().iter().find(|m| kind_of(m.kind)).unwrap_or_else(|| panic!("{set}: no such move"));
        let t = themes(&pos, &[m], Eval::Cp(350));
        assert!(t.iter().any(|x| x == theme), "{set}: {t:?}");
        assert!(t.iter().any(|x| x == "advantage"), "{set}: {t:?}");
    }
}

#[test]
fn bad_lines_are_refused_with_a_reason() {
    let set = set_spec("chess").unwrap();
    let fen = "7k/8/8/8/8/8/6PP/q3R2K w - - 0 1";
    let good =
        format!("{}\t{fen}\te1a1 h8g8\t+900\tcrushing material capture\t1000\ttest", puzzle_id("chess", fen, "e1a1"));
    let p = Puzzle::from_line(set, &good).unwrap();
    assert_eq!(p.to_line(), good);
    for (line, why) in [
        (good.replace("\ttest", ""), "fields"),
        (good.replace("e1a1 h8g8", "e1a2"), "move e1a2"),
        (good.replace("e1a1 h8g8", "e1a1 a1a2"), "move a1a2"),
        (good.replace("+900", "900"), "bad evaluation"),
        (good.replace("crushing", "crushed"), "unknown theme"),
        (good.replace("\t1000\t", "\tlots\t"), "bad rating"),
        (good.replacen(&puzzle_id("chess", fen, "e1a1"), "zzzzzz", 1), "id zzzzzz"),
        (good.replace("7k/", "7k7/"), "rank 8 describes 15 squares"),
    ] {
        let e = Puzzle::from_line(set, &line).expect_err(why);
        assert!(e.to_lowercase().contains(&why.to_lowercase()), "{why}: {e}");
    }
    let (read, comments) = parse_set(set, &write_set(std::slice::from_ref(&p), &["made by hand".into()])).unwrap();
    assert_eq!((read, comments), (vec![p], vec!["made by hand".to_string()]));
}

proptest! {
    #[test]
    fn evaluations_read_back(cp in -100_000i32..100_000, mate in -200i32..200) {
        for e in [Eval::Cp(cp), Eval::Mate(mate)] {
            prop_assert_eq!(e.to_string().parse::<Eval>().unwrap(), e);
        }
    }

    #[test]
    fn wins_and_margin_never_overlap(cp in -100_000i32..100_000) {
        let e = Eval::Cp(cp);
        prop_assert!(!(e.wins() && e.within_margin()));
    }
}

#[test]
fn mining_is_reproducible_whatever_the_threads() {
    let cfg = |threads| MineConfig {
        set: set_spec("clown").unwrap(),
        seed: 7,
        games: 4,
        nodes: 1500,
        player_nodes: 500,
        random_plies: 6,
        special: false,
        max_plies: 80,
        threads,
        until: None,
        decided_cp: 700,
        decided_plies: 6,
    };
    let (one, games) = mine::mine(&cfg(1), &|_, _| {});
    let (two, _) = mine::mine(&cfg(2), &|_, _| {});
    assert_eq!(games, 4);
    assert_eq!(one, two);
    for p in &one {
        assert!(p.source.starts_with("seed 7 game "), "{}", p.source);
    }
}

#[test]
fn shipped_sets_are_sound_and_big_enough() {
    let mut ids = std::collections::HashSet::new();
    for set in shipped() {
        let name = set.spec.name;
        assert!(set.puzzles.len() >= 300, "{name}: {} puzzles", set.puzzles.len());
        assert!(
            set.comments[0].starts_with(&format!("chimera puzzles mine --set {name} ")),
            "{name}: {:?}",
            set.comments
        );
        assert!(set
            .comments
            .iter()
            .any(|c| c.starts_with(&format!("chimera puzzles verify --set {name} --nodes 60000"))));
        for p in &set.puzzles {
            assert!(ids.insert(p.id.clone()), "{name}: id {} twice", p.id);
            assert!(p.eval.wins(), "{}", p.id);
            // The themes are what the code says of the position and line.
            let pos = p.position();
            let mut q = pos.clone();
            let line: Vec<_> = p
                .moves
                .iter()
                .map(|m| {
                    let mv = q.parse_uci(m).unwrap();
                    q.play_unchecked(mv);
                    mv
                })
                .collect();
            assert_eq!(themes(&pos, &line, p.eval), p.themes, "{}", p.id);
            assert!(p.themes.iter().all(|t| THEMES.iter().any(|(id, _)| id == t)));
        }
        // Each day has a puzzle, and not always the same.
        let days: std::collections::HashSet<_> = (0..30).map(|d| set.daily(20_000 + d).unwrap().id.clone()).collect();
        assert!(days.len() > 20, "{name}: {} daily puzzles in 30 days", days.len());
    }
    assert_eq!(shipped().len(), SETS.len());
    // Both Genie rule sets and two Magic Ring power lists.
    assert!(set_spec("genie-ownhalf").is_some() && set_spec("magicring-rnbq").unwrap().options == "ring_powers=RNBQ");
}

#[test]
fn a_sample_of_each_set_holds_at_ten_times_the_mining_budget() {
    for set in shipped() {
        for p in [&set.puzzles[0], set.daily(0).unwrap()] {
            let v = verify(p, 10 * MINING_NODES);
            assert!(v.holds(), "{} {}: {v:?}", set.spec.name, p.id);
        }
    }
}
