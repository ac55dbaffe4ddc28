//! The UCI protocol through `uci::run(reader, writer)`, driven as a GUI
//! would: commands written to a pipe, answers read from a shared buffer.
//! Waits have a generous deadline only to turn a hang into a failure; no
//! assertion depends on speed.

mod common;

use common::Shared;
use std::io::{BufReader, Write};
use std::time::{Duration, Instant};

struct Gui {
    input: std::io::PipeWriter,
    out: Shared,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Gui {
    fn start() -> Gui {
        let (r, w) = std::io::pipe().unwrap();
        let out = Shared::default();
        let o2 = out.clone();
        let handle = std::thread::spawn(move || chimera_engine::uci::run(BufReader::new(r), o2).unwrap());
        Gui { input: w, out, handle: Some(handle) }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    fn text(&self) -> String {
        String::from_utf8(self.out.0.lock().unwrap().clone()).unwrap()
    }

    /// Waits until a line satisfies `pred`; returns the whole output then.
    fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let t = self.text();
            if t.lines().any(&pred) {
                return t;
            }
            assert!(Instant::now() < deadline, "no line '{what}' arrived; output so far:\n{t}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn wait_line(&self, starts: &str) -> String {
        self.wait_for(starts, |l| l.starts_with(starts))
    }

    /// `isready` round trip: everything sent before it has been handled.
    fn sync(&mut self) -> String {
        let n = self.text().matches("readyok").count();
        self.send("isready");
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.text().matches("readyok").count() <= n {
            assert!(Instant::now() < deadline, "no readyok");
            std::thread::sleep(Duration::from_millis(5));
        }
        self.text()
    }

    fn quit(mut self) {
        self.send("quit");
        self.handle.take().unwrap().join().unwrap();
    }
}

fn bestmoves(t: &str) -> Vec<String> {
    t.lines().filter(|l| l.starts_with("bestmove")).map(|l| l.to_string()).collect()
}

#[test]
fn uci_lists_id_and_every_option() {
    let mut g = Gui::start();
    g.send("uci");
    let t = g.wait_line("uciok");
    assert!(t.contains("id name Chimera"));
    assert!(t.contains("id author"));
    assert!(t.contains(
        "option name UCI_Variant type combo default chess var chess var genie var genie-ownhalf var genesis var clown var magicring"
    ));
    for opt in [
        "option name RingPowers type string default QNRB",
        "option name Hash type spin",
        "option name Threads type spin",
        "option name MultiPV type spin",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check",
        "option name UCI_Elo type spin",
        "option name Move Overhead type spin",
        "option name Clear Hash type button",
        "option name Ponder type check",
        "option name Baseline type check default false",
        "option name Use NNUE type check default true",
        "option name EvalFile type string default <embedded>",
        "option name NNUE Hybrid type spin default 800 min 0 max 10000",
        "option name NNUE Scale type spin default 100 min 10 max 400",
    ] {
        assert!(t.contains(opt), "missing '{opt}' in:\n{t}");
    }
    g.quit();
}

/// The search's numbers are UCI options only in a tuning build (`--features
/// spsa`, for scripts/spsa.py); a normal build neither lists them nor lets
/// `setoption` change them, and says why.
#[test]
fn search_numbers_are_options_only_in_a_tuning_build() {
    let mut g = Gui::start();
    g.send("uci");
    let t = g.wait_line("uciok");
    let listed = t.contains("option name Tune_rfp_margin type spin default 75 min 20 max 200");
    assert_eq!(listed, cfg!(feature = "spsa"), "{t}");
    assert_eq!(t.contains("info string spsa rfp_margin,75,20,200,8"), cfg!(feature = "spsa"), "{t}");
    g.send("setoption name Tune_rfp_margin value 80");
    g.send("setoption name Tune_rfp_margin value 1000");
    g.send("setoption name Tune_no_such value 1");
    let t = g.sync();
    assert!(t.contains("search parameter 'rfp_margin' must be between 20 and 200, got 1000"), "{t}");
    assert!(t.contains("unknown search parameter 'no_such'"), "{t}");
    assert_eq!(
        t.contains("search parameter 'rfp_margin' is fixed in this build (build with --features spsa to tune it)"),
        !cfg!(feature = "spsa"),
        "{t}"
    );
    g.quit();
}

/// `isready` is answered while `go infinite` runs; no bestmove comes until
/// `stop`, and then exactly one.
#[test]
fn isready_during_infinite_search_and_stop_gives_bestmove() {
    let mut g = Gui::start();
    g.send("position startpos moves e2e4");
    g.send("go infinite");
    g.wait_line("info depth 2");
    let t = g.sync();
    assert!(bestmoves(&t).is_empty(), "bestmove before stop:\n{t}");
    g.send("stop");
    let t = g.wait_line("bestmove");
    let b = bestmoves(&t);
    assert_eq!(b.len(), 1);
    // The move is one of Black's legal replies to 1.e4.
    let mv = b[0].split_whitespace().nth(1).unwrap();
    assert!(mv.len() == 4 && (mv.ends_with('6') || mv.ends_with('5')), "{mv}");
    g.quit();
}

/// `go ponder` keeps its bestmove until `ponderhit`, even when the
/// depth limit is reached long before.
#[test]
fn ponderhit_releases_the_bestmove() {
    let mut g = Gui::start();
    g.send("setoption name Ponder value true");
    g.send("position startpos");
    g.send("go ponder depth 3");
    g.wait_line("info depth 3");
    let t = g.sync();
    assert!(bestmoves(&t).is_empty(), "bestmove while pondering:\n{t}");
    g.send("ponderhit");
    let t = g.wait_line("bestmove");
    assert_eq!(bestmoves(&t).len(), 1);
    g.quit();
}

/// `searchmoves` restricts the root: an otherwise poor move is played.
#[test]
fn searchmoves_restricts_the_root() {
    let mut g = Gui::start();
    g.send("position startpos");
    g.send("go depth 4 searchmoves a2a3");
    let t = g.wait_line("bestmove");
    assert!(bestmoves(&t)[0].starts_with("bestmove a2a3"), "{t}");
    g.send("go depth 4 searchmoves h2h3 g1h3");
    g.wait_for("second bestmove", |_| bestmoves(&g.text()).len() >= 2);
    let b = bestmoves(&g.text());
    let mv = b[1].split_whitespace().nth(1).unwrap().to_string();
    assert!(mv == "h2h3" || mv == "g1h3", "{mv}");
    g.quit();
}

/// Malformed input gives `info string error: ...` and the loop goes on;
/// an illegal move leaves the position unchanged.
#[test]
fn bad_input_is_reported_and_the_loop_continues() {
    let mut g = Gui::start();
    g.send("position startpos moves e2e4");
    let bad = [
        "frobnicate",
        "position fen not/a/fen w - - 0 1",
        "position",
        "position startpos moves e2e4 e7e6 e1e3",
        "go depth x",
        "go wibble",
        "go perft",
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "setoption name UCI_Variant value shogi",
        "setoption name RingPowers value QXZ",
        "setoption name No Such Option value 1",
        "setoption",
        "go searchmoves e2e5",
    ];
    for b in bad {
        g.send(b);
    }
    let t = g.sync();
    let errors = t.lines().filter(|l| l.starts_with("info string error: ")).count();
    assert_eq!(errors, bad.len(), "one error line per bad command:\n{t}");
    assert!(t.contains("illegal move 'e1e3'"), "{t}");
    g.send("d");
    let t = g.wait_line("Checkers:");
    assert!(t.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "{t}");
    // Still alive and searching.
    g.send("go depth 2");
    g.wait_line("bestmove");
    g.quit();
}

/// `go perft` prints Stockfish's divide format.
#[test]
fn go_perft_output_format() {
    let mut g = Gui::start();
    g.send("position startpos");
    g.send("go perft 3");
    let t = g.wait_line("Nodes searched:");
    let lines: Vec<&str> = t.lines().collect();
    let moves: Vec<&&str> = lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).collect();
    assert_eq!(moves.len(), 20);
    assert!(lines.contains(&"e2e4: 600"), "{t}");
    let i = lines.iter().position(|l| l.starts_with("Nodes searched")).unwrap();
    assert_eq!(lines[i], "Nodes searched: 8902");
    assert_eq!(lines[i - 1], "", "a blank line before the total");
    g.quit();
}

#[test]
fn go_mate_and_no_legal_move() {
    let mut g = Gui::start();
    g.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    g.send("go mate 1");
    let t = g.wait_line("bestmove");
    assert!(t.contains("score mate 1"), "{t}");
    assert!(bestmoves(&t)[0].starts_with("bestmove a1a8"));
    g.send("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    g.send("go depth 3");
    g.wait_for("bestmove (none)", |l| l == "bestmove (none)");
    g.quit();
}

/// Info lines carry every field a GUI reads; MultiPV gives numbered lines.
#[test]
fn info_fields_and_multipv() {
    let mut g = Gui::start();
    g.send("setoption name MultiPV value 3");
    g.send("position startpos");
    g.send("go depth 4");
    let t = g.wait_line("bestmove");
    let line =
        t.lines().find(|l| l.starts_with("info depth 4") && l.contains("multipv 3")).expect("a third line at depth 4");
    for f in [" seldepth ", " score cp ", " nodes ", " nps ", " hashfull ", " time ", " pv "] {
        assert!(line.contains(f), "'{f}' missing in {line}");
    }
    g.quit();
}

/// Every variant id is accepted and searched from its start position;
/// `RingPowers` accepts a valid list; `ucinewgame` keeps the variant.
#[test]
fn every_variant_can_be_selected_and_searched() {
    let mut g = Gui::start();
    g.send("setoption name RingPowers value KQ");
    for (i, v) in ["chess", "genie", "genie-ownhalf", "genesis", "clown", "magicring"].iter().enumerate() {
        g.send(&format!("setoption name UCI_Variant value {v}"));
        g.send("ucinewgame");
        g.send("position startpos");
        g.send("go depth 2");
        g.wait_for("bestmove", |_| bestmoves(&g.text()).len() > i);
    }
    let t = g.sync();
    assert!(!t.contains("info string error"), "{t}");
    g.quit();
}

/// `EvalFile` loads a network and `Use NNUE` switches to it: a net whose
/// every evaluation is +100 cp for the side to move makes the depth-1 score
/// of the start position −100 (whatever White plays, Black stands at
/// +100); bad files are reported and change nothing.
#[test]
fn evalfile_and_use_nnue_switch_the_evaluation() {
    use chimera_engine::nnue::{Activation, Network, DEFAULT_HIDDEN as HIDDEN, INPUTS, QA, QB, SCALE};
    let dir = std::env::temp_dir().join(format!("chimera-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let constant = Network::from_parts(
        chimera_rules::Variant::Chess,
        Activation::CReLU,
        &vec![0; INPUTS * HIDDEN],
        &[0; HIDDEN],
        &[0; 2 * HIDDEN],
        &[100 * QA * QB / SCALE],
    );
    let good = dir.join("constant.nnue");
    std::fs::write(&good, constant.to_bytes()).unwrap();
    let junk = dir.join("junk.nnue");
    std::fs::write(&junk, b"CHIMNN1\n\x05chess and then nothing").unwrap();

    let mut g = Gui::start();
    g.send("uci");
    let t = g.wait_line("uciok");
    assert!(t.contains("option name Use NNUE type check default true"), "{t}");
    assert!(t.contains("option name EvalFile type string default <embedded>"), "{t}");
    let score_at_depth_1_of = |g: &mut Gui, position: &str| {
        let n = bestmoves(&g.text()).len();
        g.send(&format!("position {position}"));
        g.send("go depth 1");
        g.wait_for("bestmove", |_| bestmoves(&g.text()).len() > n);
        let t = g.text();
        let line = t.lines().rev().find(|l| l.starts_with("info depth 1 ")).unwrap().to_string();
        line.split(" score cp ").nth(1).unwrap().split(' ').next().unwrap().parse::<i32>().unwrap()
    };
    let score_at_depth_1 = |g: &mut Gui| score_at_depth_1_of(g, "startpos");
    g.send("setoption name Use NNUE value false");
    g.send(&format!("setoption name EvalFile value {}", good.display()));
    let t = g.sync();
    assert!(t.contains("info string EvalFile: 1280→128×2→1 net"), "{t}");
    // Loaded but not in use while Use NNUE is off.
    let hce = score_at_depth_1(&mut g);
    assert_ne!(hce, -100);
    g.send("setoption name Use NNUE value true");
    // The search takes NNUE Scale percent of the net's output: 100 by
    // default, any of 10-400, and nothing else.
    assert_eq!(score_at_depth_1(&mut g), -100 * chimera_engine::NNUE_SCALE / 100);
    g.send("setoption name NNUE Scale value 200");
    assert_eq!(score_at_depth_1(&mut g), -200);
    for bad in ["5", "401", "x"] {
        let before = g.text().matches("info string error: ").count();
        g.send(&format!("setoption name NNUE Scale value {bad}"));
        let t = g.sync();
        assert_eq!(t.matches("info string error: ").count(), before + 1, "{bad}: {t}");
    }
    assert_eq!(score_at_depth_1(&mut g), -200, "a refused value changes nothing");
    g.send("setoption name NNUE Scale value 100");
    assert_eq!(score_at_depth_1(&mut g), -100);
    // A queen up is beyond the default NNUE Hybrid limit (800 cp of
    // material): evaluated by hand, unless the limit is off (0).
    let queen_up = "fen 4k3/8/8/8/8/8/8/Q3K3 w - - 0 1";
    assert!(score_at_depth_1_of(&mut g, queen_up) > 500);
    g.send("setoption name NNUE Hybrid value 0");
    // ±100: the constant net (a checking move ends in a White stand-pat).
    assert_eq!(score_at_depth_1_of(&mut g, queen_up).abs(), 100);
    let before = g.text().matches("info string error: ").count();
    g.send("setoption name NNUE Hybrid value -5");
    let t = g.sync();
    assert_eq!(t.matches("info string error: ").count(), before + 1, "{t}");
    assert!(t.contains("must be between 0 and 10000"), "{t}");
    g.send("setoption name NNUE Hybrid value 800");
    assert!(score_at_depth_1_of(&mut g, queen_up) > 500);
    // Bad files: an error each, the loaded net stays.
    for bad in [junk.display().to_string(), dir.join("missing.nnue").display().to_string()] {
        let before = g.text().matches("info string error: ").count();
        g.send(&format!("setoption name EvalFile value {bad}"));
        let t = g.sync();
        assert_eq!(t.matches("info string error: ").count(), before + 1, "{t}");
    }
    assert!(g.text().contains("this build reads 1280→H×2→1, H 16 to 256 in steps of 16"), "{}", g.text());
    assert!(g.text().contains("cannot read"), "{}", g.text());
    assert_eq!(score_at_depth_1(&mut g), -100);
    // Back to the hand-made evaluation.
    g.send("setoption name Use NNUE value false");
    assert_eq!(score_at_depth_1(&mut g), hce);
    // NNUE Scale leaves the hand-made evaluation alone.
    g.send("setoption name NNUE Scale value 200");
    assert_eq!(score_at_depth_1(&mut g), hce);
    g.send("setoption name EvalFile value <embedded>");
    g.quit();
    let _ = std::fs::remove_dir_all(&dir);
}
