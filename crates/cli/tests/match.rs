//! `chimera match` end to end: the arbiter against scripted fake engines
//! (tests/fake_engines/scripted.py) that play given moves and misbehave on
//! request, and a short real match stockfish vs stockfish when installed.
//! No assertion depends on how fast anything runs: the time-loss case has
//! the fake sleep 3 s against a 0.3 s clock.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn fake() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/scripted.py").display().to_string()
}

fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "chimera-match-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
    pgn: String,
    /// The PGN without its move comments (`{+0.31/12 0.412s}`, whose times
    /// vary), each game's movetext on one line.
    moves: String,
}

fn without_comments(pgn: &str) -> String {
    let mut bare = String::new();
    let mut depth = 0;
    for ch in pgn.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => bare.push(ch),
            _ => {}
        }
    }
    let mut out = String::new();
    let mut movetext = Vec::new();
    for line in bare.lines().chain(std::iter::once("")) {
        if line.starts_with('[') || line.trim().is_empty() {
            if !movetext.is_empty() {
                out.push_str(&movetext.join(" "));
                out.push('\n');
                movetext.clear();
            }
            out.push_str(line);
            out.push('\n');
        } else {
            movetext.extend(line.split_whitespace().map(str::to_string));
        }
    }
    out
}

fn run_match(args: &[&str]) -> Run {
    let pgn = scratch("games.pgn");
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .arg("match")
        .args(args)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .expect("chimera runs");
    let pgn = std::fs::read_to_string(&pgn).unwrap_or_default();
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        moves: without_comments(&pgn),
        pgn,
    }
}

fn engine(name: &str, script_args: &str) -> String {
    format!("name={name},cmd={},args={script_args}", fake())
}

#[test]
fn a_game_ends_by_the_rules_fools_mate() {
    // White (A) plays f3 g4, Black (B) e5 Qh4#: the rules, not the engines, end it.
    let log = scratch("a.log");
    let a = engine("A", &format!("--moves f2f3/g2g4 --log {}", log.display()));
    let b = engine("B", "--moves e7e5/d8h4");
    let r = run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "1"]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Score of A vs B: 0 - 1 - 0"), "{}", r.stdout);
    assert!(r.stdout.contains("Terminations: checkmate 1"), "{}", r.stdout);
    assert!(r.stdout.contains("Faults: none"), "{}", r.stdout);
    assert!(r.pgn.contains("[Result \"0-1\"]") && r.pgn.contains("[Termination \"checkmate\"]"), "{}", r.pgn);
    assert!(r.moves.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{}", r.pgn);
    // The fake reports no search: each engine move's comment is its time alone.
    assert!(r.pgn.contains("1. f3 {0.0"), "{}", r.pgn);
    // The protocol as A saw it: handshake, new game, positions from the start, fixed nodes.
    let seen = std::fs::read_to_string(&log).unwrap();
    for expected in
        ["uci", "isready", "ucinewgame", "position startpos", "go nodes 10", "position startpos moves f2f3 e7e5"]
    {
        assert!(seen.lines().any(|l| l == expected), "A never got '{expected}':\n{seen}");
    }
}

#[test]
fn search_by_phase_works_out_the_clock_left() {
    // scripts/search-by-phase.py on a hand-made 10+0.1 game: White spends
    // 1 s then 0.5 s (9.1 s then 8.7 s left, 8.90 on average), Black 2 s
    // (8.1 s left). Without a TimeControl tag the column is "-".
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/search-by-phase.py");
    let game = |tc: &str| {
        format!(
            "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n{tc}[Result \"1-0\"]\n\n\
             1. e4 {{+0.20/10 1.000s}} e5 {{-0.10/12 2.000s}} 2. Nf3 {{+0.30/14 0.500s}} 1-0\n"
        )
    };
    let run = |text: String, name: &str| {
        let path = scratch(name);
        std::fs::write(&path, text).unwrap();
        let out = Command::new(&script).arg(&path).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let out = run(game("[TimeControl \"10+0.1\"]\n"), "clock.pgn");
    assert!(out.contains("| 1-10 | 2, 12.0, 0.750 s, 8.90 s | 1, 12.0, 2.000 s, 8.10 s |"), "{out}");
    let out = run(game(""), "noclock.pgn");
    assert!(out.contains("| 1-10 | 2, 12.0, 0.750 s, - | 1, 12.0, 2.000 s, - |"), "{out}");
}

/// A finished game of `white` against `black` from a two-ply opening, as
/// `chimera match` writes it, for the analysis scripts' tests.
fn opening_game(white: &str, black: &str, result: &str, moves: &str) -> String {
    format!(
        "[Event \"t\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
         [OpeningPlies \"2\"]\n\n{moves} {result}\n\n"
    )
}

/// Runs an analysis script: (success, stdout, stderr).
fn run_script(script: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(script).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn score_by_opening_splits_balanced_from_lopsided_pairs() {
    // scripts/score-by-opening.py on hand-made games: the opening 1. e4 e5
    // starts level (first scores +0.20, +0.30), A wins and draws it; 1. f3
    // e5 starts lopsided (-3.50, and a mate for Black), A loses and wins
    // it; a fifth game has no colour-swapped twin.
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/score-by-opening.py");
    let pgn = [
        opening_game("A", "B", "1-0", "1. e4 e5 2. Nf3 {+0.20/10 0.100s} Nc6 {-0.10/10 0.100s}"),
        opening_game("B", "A", "1/2-1/2", "1. e4 e5 2. Nf3 {+0.30/10 0.100s}"),
        opening_game("A", "B", "0-1", "1. f3 e5 2. g4 {-3.50/10 0.100s} Qh4# {+M1/1 0.010s}"),
        opening_game("B", "A", "0-1", "1. f3 e5 2. g4 {-M2/10 0.100s} Qh4# {+M1/1 0.010s}"),
        opening_game("A", "B", "1-0", "1. d4 d5 2. c4 {+0.10/10 0.100s}"),
    ]
    .concat();
    let path = scratch("openings.pgn");
    std::fs::write(&path, pgn).unwrap();
    let path = path.display().to_string();
    let run = |args: &[&str]| run_script(&script, &[&[path.as_str()], args].concat());
    let (ok, out, err) = run(&[]);
    assert!(ok, "{err}");
    for row in [
        "| A | balanced: 1 | 1-1-0 | 75.0% |",
        "| A | lopsided: 1 | 1-0-1 | 50.0% |",
        "| A | all: 2 | 2-1-1 | 62.5% [38.0%, 87.0%] |",
        "| B | balanced: 1 | 0-1-1 | 25.0% |",
        "(1 game without a colour-swapped twin left out)",
    ] {
        assert!(out.contains(row), "missing '{row}':\n{out}");
    }
    // A mate is lopsided however high the threshold; +0.30 is lopsided at 0.25.
    let (_, out, _) = run(&["4"]);
    assert!(out.contains("| A | lopsided: 1 | 1-0-1 | 50.0% |"), "{out}");
    let (_, out, _) = run(&["0.25"]);
    assert!(out.contains("| A | balanced: 0 | - | - |") && out.contains("| A | lopsided: 2 | 2-1-1 |"), "{out}");
    // A threshold that is not a positive number is refused with the reason.
    let (ok, _, err) = run(&["x"]);
    assert!(!ok && err.contains("THRESHOLD must be a number of pawns, not 'x'"), "{err}");
    let (ok, _, err) = run(&["0"]);
    assert!(!ok && err.contains("THRESHOLD must be more than 0 pawns"), "{err}");
}

#[test]
fn pair_diff_compares_two_runs_opening_by_opening() {
    // scripts/pair-diff.py on hand-made runs (docs/strength.md §52). In the
    // first run X wins both games of 1. e4 e5 and draws both of 1. d4 d5;
    // in the second Y scores 1 point in each pair, and it also plays 1. c4
    // e5, which the first run lacks. The pairs gain +50 and 0 points in 100.
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/pair-diff.py");
    let game = |white: &str, black: &str, result: &str, opening: &str| {
        opening_game(white, black, result, &format!("1. {opening} 2. Nf3 {{+0.20/10 0.100s}}"))
    };
    let first = [
        game("X", "S", "1-0", "e4 e5"),
        game("S", "X", "0-1", "e4 e5"),
        game("X", "S", "1/2-1/2", "d4 d5"),
        game("S", "X", "1/2-1/2", "d4 d5"),
    ]
    .concat();
    let second = [
        game("Y", "S", "1-0", "e4 e5"),
        game("S", "Y", "1-0", "e4 e5"),
        game("Y", "S", "1/2-1/2", "d4 d5"),
        game("S", "Y", "1/2-1/2", "d4 d5"),
        game("Y", "S", "1-0", "c4 e5"),
        game("S", "Y", "1-0", "c4 e5"),
    ]
    .concat();
    let (a, b) = (scratch("pair-a.pgn"), scratch("pair-b.pgn"));
    std::fs::write(&a, first).unwrap();
    std::fs::write(&b, second).unwrap();
    let (a, b) = (a.display().to_string(), b.display().to_string());
    let run = |args: &[&str]| run_script(&script, args);
    let (ax, by) = (format!("{a}:X"), format!("{b}:Y"));
    let (ok, out, err) = run(&[&ax, &by]);
    assert!(ok, "{err}");
    // Mean +25 over two pairs; sd 35.36, so 1.96 sd / sqrt(2) = 49.00.
    assert!(
        out.contains(&format!("| {ax} − {by} | 2 | 75.00% | 50.00% | +25.00 [-24.00, +74.00] | +190.8 |")),
        "{out}"
    );
    assert!(out.contains("(1 pair played in only one run of a couple left out)"), "{out}");
    // Two couples are pooled pair by pair: four pairs, sd 28.87.
    let (ok, out, _) = run(&[&ax, &by, &ax, &by]);
    assert!(ok && out.contains("| pooled | 4 | 75.00% | 50.00% | +25.00 [-3.29, +53.29] | +190.8 |"), "{out}");
    // Bad arguments are refused with the reason.
    let (ok, _, err) = run(&[&ax]);
    assert!(!ok && err.contains("pair-diff.py A.pgn:ENGINE B.pgn:ENGINE"), "{err}");
    let (ok, _, err) = run(&[&a, &by]);
    assert!(!ok && err.contains("each run is PGN:ENGINE"), "{err}");
    let (ok, _, err) = run(&[&format!("{a}:Y"), &by]);
    assert!(!ok && err.contains("no opening where 'Y' played both colours"), "{err}");
    let (ok, _, err) = run(&["/nonexistent.pgn:X", &by]);
    assert!(!ok && err.contains("/nonexistent.pgn: No such file"), "{err}");
    let lone = scratch("pair-c.pgn");
    std::fs::write(&lone, [game("X", "S", "1-0", "g3 g6"), game("S", "X", "1-0", "g3 g6")].concat()).unwrap();
    let (ok, _, err) = run(&[&format!("{}:X", lone.display()), &by]);
    assert!(!ok && err.contains("share no opening"), "{err}");
}

/// The repository root and a Python with python-chess (`.venv`, made by
/// scripts/setup-python.sh, or `CHIMERA_PYTHON`), for the script `name`'s test.
fn python_chess(name: &str) -> (PathBuf, PathBuf) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let python = std::env::var("CHIMERA_PYTHON").map(PathBuf::from).unwrap_or_else(|_| root.join(".venv/bin/python"));
    assert!(
        python.exists(),
        "{name}: no Python at {} — run scripts/setup-python.sh (it makes .venv with python-chess) \
         or set CHIMERA_PYTHON to a Python that has python-chess",
        python.display()
    );
    (root, python)
}

/// A finished game with the given tag lines (each ending in a newline).
fn tagged_game(tags: &str, result: &str, moves: &str) -> String {
    format!("[Event \"t\"]\n{tags}[Result \"{result}\"]\n\n{moves} {result}\n\n")
}

#[test]
fn eval_gap_sorts_an_engines_moves_by_the_pawns_it_is_up() {
    // scripts/eval-gap.py on hand-made games (docs/strength.md §51). A
    // (White) wins a Pawn with 2. exd5 (+1.00; B answers +0.20, so -0.20
    // from A's side), B takes it back; 3. Nc3 (+0.10, B -0.30) and 4. Qh5
    // (a mate score: no pair) are level. In the draw A (Black) plays
    // 1... e5 level (-0.50; B +0.80) and 2... Nc6 a Pawn down. A Genie
    // game, a game with an illegal move and a game without A are left out.
    let (root, python) = python_chess("eval-gap");
    let game = tagged_game;
    let pgn = [
        game(
            "[White \"A\"]\n[Black \"B\"]\n",
            "1-0",
            "1. e4 d5 2. exd5 {+1.00/10 0.100s} Qxd5 {+0.20/10 0.100s} 3. Nc3 {+0.10/10 0.100s} \
             Qa5 {-0.30/10 0.100s} 4. Qh5 {+M3/10 0.100s} Nf6 {-1.00/10 0.100s}",
        ),
        game(
            "[White \"B\"]\n[Black \"A\"]\n",
            "1/2-1/2",
            "1. d4 {+0.20/10 0.100s} e5 {-0.50/10 0.100s} 2. dxe5 {+0.80/10 0.100s} Nc6 {-0.90/10 0.100s}",
        ),
        game("[Variant \"genie\"]\n[White \"A\"]\n[Black \"B\"]\n", "0-1", "1. e4 {+0.20/10 0.100s} e5"),
        game("[White \"A\"]\n[Black \"B\"]\n", "1-0", "1. e4 {+0.20/10 0.100s} e4"),
        game("[White \"C\"]\n[Black \"B\"]\n", "0-1", "1. e4 {+0.20/10 0.100s} e5"),
    ]
    .concat();
    let path = scratch("gap.pgn");
    std::fs::write(&path, pgn).unwrap();
    let (script, path) = (root.join("scripts/eval-gap.py").display().to_string(), path.display().to_string());
    let run = |args: &[&str]| run_script(&python, &[&[script.as_str(), path.as_str()], args].concat());
    let (ok, out, err) = run(&["A", "1-5"]);
    assert!(ok && err.is_empty(), "{err}");
    for row in [
        "A: 2 games, moves 1-5",
        "(1 game of other variants left out)",
        "(1 game with an illegal or unreadable move left out)",
        "| -1 | 1 | - | - | 1 | 50.0% |",
        "| 0 | 4 | -0.20 | -0.25 | 2 | 75.0% |",
        "| +1 | 1 | +1.00 | -0.20 | 1 | 100.0% |",
        "| +2 or more | 0 | - | - | 0 | - |",
    ] {
        assert!(out.contains(row), "missing '{row}':\n{out}");
    }
    // From move 3 on, the Pawn won on move 2 is not seen.
    let (_, out, _) = run(&["A", "3-5"]);
    assert!(
        out.contains("| +1 | 0 | - | - | 0 | - |") && out.contains("| 0 | 2 | +0.10 | +0.30 | 1 | 100.0% |"),
        "{out}"
    );
    // Bad windows and an engine with no games are refused with the reason.
    let (ok, _, err) = run(&["A", "x"]);
    assert!(!ok && err.contains("FIRST-LAST must be two move numbers like 10-40, not 'x'"), "{err}");
    let (ok, _, err) = run(&["A", "5-3"]);
    assert!(!ok && err.contains("FIRST-LAST must have 1 <= FIRST <= LAST, not '5-3'"), "{err}");
    let (ok, _, err) = run(&["Z"]);
    assert!(!ok && err.contains("no finished chess game of 'Z'"), "{err}");
}

#[test]
fn loss_probe_finds_where_a_lost_game_turned_and_searches_it_again() {
    // scripts/loss-probe.py on hand-made games (docs/strength.md §55). A
    // (White) starts level (+0.20) and loses: B's 2... d6 says +1.60 for B,
    // the turn; A's next score is -0.50, and its own -1.80 comes on 4. d3,
    // 3 plies after the turn. A's second loss started lopsided (-2.00), a
    // won game and a lost Genie game are left out. The probes are fake
    // engines that score every position -1.20 (A) and -3.00 (the judge).
    let (root, python) = python_chess("loss-probe");
    let game = tagged_game;
    let pgn = [
        game(
            "[White \"A\"]\n[Black \"B\"]\n",
            "0-1",
            "1. e4 {+0.20/10 0.100s} e5 {-0.10/10 0.100s} 2. Nf3 {+0.30/10 0.100s} d6 {+1.60/10 0.100s} \
             3. Bc4 {-0.50/10 0.100s} Nc6 {+2.00/10 0.100s} 4. d3 {-1.80/10 0.100s} Nf6 {+2.50/10 0.100s}",
        ),
        game("[White \"B\"]\n[Black \"A\"]\n", "1-0", "1. e4 {+0.20/10 0.100s} e5 {-2.00/10 0.100s}"),
        game("[White \"A\"]\n[Black \"B\"]\n", "1-0", "1. e4 {+0.20/10 0.100s} e5 {+3.00/10 0.100s}"),
        game("[Variant \"genie\"]\n[White \"A\"]\n[Black \"B\"]\n", "0-1", "1. e4 {+0.20/10 0.100s} e5"),
    ]
    .concat();
    let path = scratch("losses.pgn");
    std::fs::write(&path, pgn).unwrap();
    let (script, path) = (root.join("scripts/loss-probe.py").display().to_string(), path.display().to_string());
    let (probe, judge) = (format!("{} --score -120", fake()), format!("{} --score -300", fake()));
    let run = |args: &[&str]| run_script(&python, &[&[script.as_str(), path.as_str()], args].concat());
    let (ok, out, err) = run(&["A", "100,200", &probe, &judge]);
    assert!(ok && err.is_empty(), "{err}");
    for row in [
        "A: 2 lost games, 1 of them started lopsided; 1 turn",
        "(1 game of other variants left out)",
        "A's own score at -1.50 or worse: 3 (3 to 3) plies after the turn",
        "| game | move | opponent | in the game | A 100 | A 200 | judge 200 | position |",
        "| 1 | 2 | -1.60 | -0.50 | -1.20 | -1.20 | -3.00 | rnbqkbnr/ppp2ppp/3p4/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3 |",
        "| in the game | -0.50 | -0.50 | 0 of 1 |",
        "| A 200 | -1.20 | -1.20 | 1 of 1 |",
        "| judge 200 | -3.00 | -3.00 | 1 of 1 |",
    ] {
        assert!(out.contains(row), "missing '{row}':\n{out}");
    }
    // Bad node counts, an engine with no lost game and an engine that will
    // not start are refused with the reason.
    let (ok, _, err) = run(&["A", "x", &probe]);
    assert!(!ok && err.contains("NODES must be node counts like 200000,2000000, not 'x'"), "{err}");
    let (ok, _, err) = run(&["C", "100", &probe]);
    assert!(!ok && err.contains("no lost chess game of 'C'"), "{err}");
    let (ok, _, err) = run(&["A", "100", "/nonexistent/engine uci"]);
    assert!(!ok && err.contains("cannot start '/nonexistent/engine uci'"), "{err}");
}

#[test]
fn time_odds_proxy_scales_the_clock_an_engine_sees() {
    // scripts/uci-time-odds.py 0.5 in front of A (docs/strength.md §34, §54):
    // A's first `go` of a 10+0.1 game names 5 s and 0.05 s an increment for
    // both sides, while the arbiter's clock (and B's view) stays 10+0.1.
    // A thinks 1 s on its first move, so its own clock is then 5000 − 1000
    // + 50: the real clock B is sent, R, less 5050 (R = 10100 − 1000),
    // where scaling R alone (the proxy before §54) would say R / 2.
    let proxy = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/uci-time-odds.py");
    let (log_a, log_b) = (scratch("a.log"), scratch("b.log"));
    let a = format!(
        "name=A,cmd={},args=0.5 {} --moves f2f3/g2g4 --sleep-at 1 --sleep 1 --log {}",
        proxy.display(),
        fake(),
        log_a.display()
    );
    let b = engine("B", &format!("--moves e7e5/d8h4 --log {}", log_b.display()));
    let r = run_match(&["--engine", &a, "--engine", &b, "--tc", "10+0.1", "--games", "1"]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Terminations: checkmate 1"), "{}", r.stdout);
    let gos = |log: &PathBuf| -> Vec<String> {
        std::fs::read_to_string(log).unwrap().lines().filter(|l| l.starts_with("go ")).map(str::to_owned).collect()
    };
    let (a_gos, b_gos) = (gos(&log_a), gos(&log_b));
    assert_eq!(a_gos[0], "go wtime 5000 btime 5000 winc 50 binc 50", "A's first go");
    assert!(b_gos[0].contains(" btime 10000 winc 100 binc 100"), "B's first go: {}", b_gos[0]);
    let ms = |line: &str, field: &str| -> i64 {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == field).unwrap_or_else(|| panic!("no {field} in {line}"));
        words[at + 1].parse().unwrap()
    };
    let real = ms(&b_gos[0], "wtime");
    assert!((8900..=9150).contains(&real), "A's real clock after a 1 s move: {}", b_gos[0]);
    let own = ms(&a_gos[1], "wtime");
    assert!((own - (real - 5050)).abs() <= 60, "A's second go {} against the real {real}", a_gos[1]);
    // A factor outside (0, 1] is refused with the reason.
    let out = Command::new(&proxy).args(["2", "true"]).output().unwrap();
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("FACTOR must be in (0, 1]"));
}

#[test]
fn an_illegal_move_loses_and_is_explained() {
    // A's e2e5 is well formed but no pawn can go there.
    let a = engine("A", "--moves e2e5");
    let b = engine("B", "--moves e7e5");
    let r = run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "1"]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Faults of A: illegal move 1, crash 0, no bestmove 0, time forfeit 0"), "{}", r.stdout);
    assert!(r.stdout.contains("Faults of B: illegal move 0"), "{}", r.stdout);
    assert!(r.pgn.contains("[Result \"0-1\"]") && r.pgn.contains("[Termination \"illegal move\"]"), "{}", r.pgn);
    assert!(r.pgn.contains("illegal move 'e2e5'"), "{}", r.pgn);
    assert!(r.stderr.contains("Finished game 1 (A vs B): 0-1"), "{}", r.stderr);
}

#[test]
fn running_out_of_moves_is_an_illegal_null_move() {
    // B answers 'bestmove 0000' on its second move: not a legal move.
    let a = engine("A", "--moves e2e4/g1f3");
    let b = engine("B", "--moves e7e5");
    let r = run_match(&["--engine", &a, "--engine", &b, "--depth", "3", "--games", "1"]);
    assert!(r.pgn.contains("[Result \"1-0\"]") && r.pgn.contains("[Termination \"illegal move\"]"), "{}", r.pgn);
    assert!(r.moves.contains("1. e4 e5 2. Nf3 1-0"), "{}", r.pgn);
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted_for_the_next_game() {
    // A exits on its first `go` in every game: at once as White in game 1,
    // after 1. e4 as Black in game 2. The dead process is replaced, so game 2
    // is played (and lost) too.
    let a = engine("A", "--crash-at 1");
    let b = engine("B", "--moves e2e4");
    let r = run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "2"]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Faults of A: illegal move 0, crash 2"), "{}", r.stdout);
    assert!(r.stdout.contains("Score of A vs B: 0 - 2 - 0"), "{}", r.stdout);
    assert_eq!(r.pgn.matches("[Termination \"crash\"]").count(), 2, "{}", r.pgn);
    assert!(r.moves.contains("\n1. e4 1-0\n"), "{}", r.pgn);
    assert!(r.pgn.contains("exited"), "the crash names the exit: {}", r.pgn);
}

#[test]
fn a_crash_at_the_first_move_of_black() {
    let a = engine("A", "--moves e2e4");
    let b = engine("B", "--crash-at 1");
    let r = run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "1"]);
    assert!(r.stdout.contains("Faults of B: illegal move 0, crash 1"), "{}", r.stdout);
    assert!(r.pgn.contains("[Result \"1-0\"]") && r.pgn.contains("[Termination \"crash\"]"), "{}", r.pgn);
}

#[test]
fn a_time_loss_is_caught() {
    // 0.3 s on the clock, 0.1 s margin; the fake sleeps 3 s on its first move.
    let a = engine("A", "--moves e2e4/g1f3");
    let b = engine("B", "--moves e7e5 --sleep-at 1 --sleep 3");
    let r = run_match(&["--engine", &a, "--engine", &b, "--tc", "0.3+0", "--games", "1"]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Faults of B: illegal move 0, crash 0, no bestmove 0, time forfeit 1"), "{}", r.stdout);
    assert!(r.pgn.contains("[Result \"1-0\"]") && r.pgn.contains("[Termination \"time forfeit\"]"), "{}", r.pgn);
    assert!(r.pgn.contains("[TimeControl \"0.3+0\"]"), "{}", r.pgn);
}

#[test]
fn no_bestmove_under_fixed_nodes_is_caught() {
    let a = engine("A", "--hang-at 1");
    let b = engine("B", "--moves e7e5");
    let r = run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "1", "--move-timeout", "0.5"]);
    assert!(r.stdout.contains("Faults of A: illegal move 0, crash 0, no bestmove 1"), "{}", r.stdout);
    assert!(r.pgn.contains("[Termination \"no bestmove\"]"), "{}", r.pgn);
}

#[test]
fn sprt_stops_the_match_early() {
    // Two openings, the start and the position after 1. e4. Both fakes only
    // shuffle a knight out and back (A: g1f3 f3g1 ..., B: g8f6 f6g8 ...), so:
    // start, A White: threefold repetition, draw; start, B White: B's g8f6
    // is illegal for White, A wins; after e4, A White: B starts the shuffle,
    // draw; after e4, B White: A must move for Black and plays g1f3, A loses.
    // Every 4 games: W1 D2 L1, score 0.5. The SPRT counts opening pairs:
    // A scores 1.5 from the start's pair and 0.5 from e4's, a pair's mean
    // score ¾ or ¼. Against elo0=0, elo1=200, over the counts each raised by
    // half a pair (the SPRT's prior), the LLR after an even number 2k of
    // pairs is -1.561 (k = 1), -2.534, -3.545: it crosses -2.944 (H0) at the
    // sixth pair, game 12, long before 40 (the fifth pair, 3 at 1.5 and 2
    // at 0.5, gives -2.287).
    let epd = scratch("o.epd");
    std::fs::write(
        &epd,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let a = engine("A", "--moves g1f3/f3g1/g1f3/f3g1");
    let b = engine("B", "--moves g8f6/f6g8/g8f6/f6g8");
    let r = run_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--nodes",
        "10",
        "--games",
        "40",
        "--sprt",
        "elo0=0,elo1=200",
        "--openings",
        epd.to_str().unwrap(),
    ]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("H0 was accepted"), "{}", r.stdout);
    // The verdict comes with game 12; the single worker may already have
    // started game 13, which is finished and counted, but no game after it.
    assert!(r.stderr.contains("SPRT: H0 was accepted after 12 games"), "{}", r.stderr);
    let played = r.pgn.matches("[Round ").count();
    assert!(played == 12 || played == 13, "{played} games:\n{}", r.stdout);
    assert!(r.stdout.contains(&format!("] {played}\n")), "{}", r.stdout);
    assert!(
        r.stdout.contains("Pairs: 6 (by A's points in the pair, 0 / 0.5 / 1 / 1.5 / 2: 0 / 3 / 0 / 3 / 0"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Elo difference by pairs: 0.0 +/- "), "{}", r.stdout);
    assert!(r.stdout.contains("SPRT (by pairs): elo0 0 elo1 200 alpha 0.05 beta 0.05: LLR -3.545"), "{}", r.stdout);
    if played == 13 {
        assert!(r.stdout.contains("; 1 game(s) outside a complete pair not counted)"), "{}", r.stdout);
    }
}

#[test]
fn sprt_weighs_one_sided_runs() {
    // B crashes at once in every game: A wins them all. Three won pairs are
    // not enough against elo0=0, elo1=10 (LLR 0.177 over the counts each
    // raised by half a pair), but a sweep concludes at last: H1 at the 18th
    // won pair (LLR 3.031; the 17th gives 2.735), game 36. A guard that
    // waited for a lost pair would never stop it.
    let a = engine("A", "--moves e2e4");
    let b = engine("B", "--crash-at 1");
    let r = run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "6", "--sprt", "elo0=0,elo1=10"]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Score of A vs B: 6 - 0 - 0"), "{}", r.stdout);
    assert!(r.stdout.contains("no conclusion yet"), "{}", r.stdout);
    assert!(r.stdout.contains("LLR 0.177 "), "{}", r.stdout);
    let r = run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "60", "--sprt", "elo0=0,elo1=10"]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("SPRT: H1 was accepted after 36 games"), "{}", r.stderr);
    assert!(r.stdout.contains("H1 was accepted"), "{}", r.stdout);
}

#[test]
fn variants_are_set_through_uci_variant() {
    // The fake plays only if it was told `UCI_Variant genie`; the game is fool's mate.
    let a = engine("A", "--moves f2f3/g2g4 --variants chess/genie --require-variant genie");
    let b = engine("B", "--moves e7e5/d8h4 --variants chess/genie --require-variant genie");
    let r = run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "1", "--variant", "genie"]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Terminations: checkmate 1"), "{}", r.stdout);
    assert!(r.pgn.contains("[Variant \"genie\"]"), "{}", r.pgn);
    // An engine without the variant is refused before any game, with the reason.
    let c = engine("C", "--moves e2e4 --variants chess/clown");
    let r = run_match(&["--engine", &a, "--engine", &c, "--nodes", "10", "--variant", "genie"]);
    assert!(!r.ok);
    assert!(r.stderr.contains("does not offer 'genie'"), "{}", r.stderr);
    let d = engine("D", "--moves e2e4");
    let r = run_match(&["--engine", &d, "--engine", &a, "--nodes", "10", "--variant", "genie"]);
    assert!(!r.ok && r.stderr.contains("has no UCI_Variant option"), "{}", r.stderr);
}

#[test]
fn an_engines_own_options_come_first_and_may_add_variants() {
    // Like Fairy-Stockfish: `genie` is known only once `VariantPath` names a
    // file, so that option must be set before `UCI_Variant`, and the
    // variant list read again.
    let a = engine("A", "--moves f2f3/g2g4 --variants chess --path-adds genie --require-variant genie");
    let a = format!("{a},option.VariantPath=/some/variants.ini");
    let b = engine("B", "--moves e7e5/d8h4 --variants chess/genie --require-variant genie");
    let r = run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "1", "--variant", "genie"]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Terminations: checkmate 1"), "{}", r.stdout);
    // Without the option the variant is not offered, and the match says so.
    let c = engine("C", "--moves f2f3/g2g4 --variants chess --path-adds genie --require-variant genie");
    let r = run_match(&["--engine", &c, "--engine", &b, "--nodes", "10", "--variant", "genie"]);
    assert!(!r.ok && r.stderr.contains("does not offer 'genie'"), "{}", r.stderr);
}

/// An option the engine refuses (here Chimera's own `info string error`)
/// stops the match before any game, with the engine's words: a net file it
/// cannot read must not turn into a match of the wrong evaluation.
#[test]
fn an_option_the_engine_refuses_stops_the_match() {
    let me = env!("CARGO_BIN_EXE_chimera");
    let good = format!("name=good,cmd={me},args=uci");
    let missing = scratch("missing.nnue");
    for (opt, says) in [
        (format!("option.EvalFile={}", missing.display()), "cannot read"),
        ("option.No Such Thing=1".to_string(), "unknown option"),
    ] {
        let bad = format!("name=bad,cmd={me},args=uci,{opt}");
        let r = run_match(&["--engine", &bad, "--engine", &good, "--nodes", "10", "--games", "2"]);
        assert!(!r.ok, "{}", r.stdout);
        assert!(r.stderr.contains("bad: refused its set-up") && r.stderr.contains(says), "{}", r.stderr);
        assert!(r.pgn.is_empty(), "no game is played: {}", r.pgn);
    }
}

#[test]
fn adjudication_by_reported_scores() {
    // A reports -2000 cp after each of its moves: with resign=2:1000 it
    // loses once it has said so twice (after its 2nd move, 1. Nf3 Nf6 2. Ng1).
    let a = engine("A", "--moves g1f3/f3g1/g1f3/f3g1 --score -2000");
    let b = engine("B", "--moves g8f6/f6g8/g8f6/f6g8 --score 2000");
    let r =
        run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "1", "--adjudicate", "resign=2:1000"]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.pgn.contains("[Result \"0-1\"]") && r.pgn.contains("[Termination \"adjudication\"]"), "{}", r.pgn);
    assert!(r.moves.contains("1. Nf3 Nf6 2. Ng1 0-1"), "{}", r.pgn);
    assert!(r.stdout.contains("Faults: none"), "{}", r.stdout);
    // Each engine move carries what its search said, from the mover's side
    // (cutechess's comment), and the report sums each engine's searches.
    assert!(r.pgn.contains("Nf3 {-20.00/1 ") && r.pgn.contains("Nf6 {+20.00/1 "), "{}", r.pgn);
    assert!(r.stdout.contains("Search of A: 2 moves: depth 1.0, "), "{}", r.stdout);
    assert!(r.stdout.contains("Search of B: 1 move: depth 1.0, "), "{}", r.stdout);
    assert!(r.stdout.contains(" and 1 nodes a move"), "{}", r.stdout);
    // Both at 0 cp: draw=1:1:10 draws after each side's first move.
    let a = engine("A", "--moves g1f3/f3g1 --score 0");
    let b = engine("B", "--moves g8f6/f6g8 --score 5");
    let r =
        run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "1", "--adjudicate", "draw=1:1:10"]);
    assert!(r.pgn.contains("[Result \"1/2-1/2\"]") && r.moves.contains("1. Nf3 Nf6 1/2-1/2"), "{}", r.pgn);
    // maxmoves=1: a draw after one move each, whatever the scores.
    let a = engine("A", "--moves g1f3/f3g1");
    let b = engine("B", "--moves g8f6/f6g8");
    let r = run_match(&["--engine", &a, "--engine", &b, "--nodes", "10", "--games", "1", "--adjudicate", "maxmoves=1"]);
    assert!(r.pgn.contains("[Termination \"adjudication\"]") && r.moves.contains("1. Nf3 Nf6 1/2-1/2"), "{}", r.pgn);
}

#[test]
fn bad_arguments_are_clear_errors() {
    let a = engine("A", "--moves e2e4");
    let r = run_match(&["--engine", &a, "--engine", "name=X,cmd=/nonexistent/engine", "--nodes", "10"]);
    assert!(!r.ok && r.stderr.contains("cannot start '/nonexistent/engine'"), "{}", r.stderr);
    let r = run_match(&["--engine", &a, "--engine", &a, "--tc", "abc"]);
    assert!(!r.ok && r.stderr.contains("not a number of seconds"), "{}", r.stderr);
    let r = run_match(&["--engine", &a, "--nodes", "10"]);
    assert!(!r.ok && r.stderr.contains("exactly two --engine"), "{}", r.stderr);
    let r = run_match(&["--engine", &a, "--engine", &a, "--nodes", "10", "--sprt", "elo0=5,elo1=1"]);
    assert!(!r.ok && r.stderr.contains("must be greater"), "{}", r.stderr);
    let r = run_match(&["--engine", &a, "--engine", &a, "--nodes", "10", "--openings", "/nonexistent.epd"]);
    assert!(!r.ok && r.stderr.contains("cannot read openings file"), "{}", r.stderr);
}

#[test]
fn openings_from_a_file_are_played_with_both_colours() {
    // One EPD position (after 1. e4 e5); the fakes play Nf3 / Nc6 then run out.
    let epd = scratch("o.epd");
    std::fs::write(&epd, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n").unwrap();
    let a = engine("A", "--moves g1f3/b8c6");
    let b = engine("B", "--moves b8c6/g1f3");
    let r = run_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--nodes",
        "10",
        "--games",
        "2",
        "--openings",
        epd.to_str().unwrap(),
    ]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.pgn.matches("[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"]").count(),
        2,
        "{}",
        r.pgn
    );
    assert!(
        r.pgn.contains("[White \"A\"]\n[Black \"B\"]") && r.pgn.contains("[White \"B\"]\n[Black \"A\"]"),
        "{}",
        r.pgn
    );
}

#[test]
fn stockfish_against_itself_at_1000_nodes() {
    let sf = "/usr/games/stockfish";
    if !std::path::Path::new(sf).exists() {
        eprintln!("SKIPPED: {sf} is not installed (Debian package 'stockfish')");
        return;
    }
    let r = run_match(&[
        "--engine",
        &format!("name=SF1,cmd={sf},option.Hash=16,option.Threads=1"),
        "--engine",
        &format!("name=SF2,cmd={sf},option.Hash=16,option.Threads=1"),
        "--nodes",
        "1000",
        "--games",
        "4",
        "--random-plies",
        "4",
        "--seed",
        "7",
    ]);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Faults: none"), "{}", r.stdout);
    assert_eq!(r.pgn.matches("[Round ").count(), 4, "{}", r.pgn);
    assert!(r.stdout.contains("Pairs: 2 (by SF1's points in the pair"), "{}", r.stdout);
    assert!(r.stdout.contains("Elo difference:"), "{}", r.stdout);
    // Every game replays under the rules and ends with a result.
    for g in chimera_rules::pgn::read_pgn(&r.pgn) {
        let g = g.expect("our own PGN reads back");
        assert!(g.replay().is_ok(), "{:?}", g.tags);
        assert_ne!(g.result, "*");
    }
}

#[test]
fn bench_alternate_gives_each_build_as_a_ratio_to_the_first() {
    // scripts/bench-alternate.sh (docs/strength.md §57) on two fake builds
    // whose bench always reports the same: B searches 10% more nodes in
    // the same CPU time, so every round's ratio is 1.1 and the interval has
    // no width. A fake that is not called `bench --only chess` fails.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let build = |name: &str, nodes: u32| {
        let path = scratch(name);
        let text = format!(
            "#!/bin/sh\n[ \"$*\" = \"bench --only chess\" ] || exit 3\n\
             echo 'Nodes searched  : {nodes}'\necho 'CPU time (ms)   : 100'\n"
        );
        std::fs::write(&path, text).unwrap();
        let mut perm = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
        std::fs::set_permissions(&path, perm).unwrap();
        path.display().to_string()
    };
    let (a, b) = (build("a", 1000), build("b", 1100));
    let script = root.join("scripts/bench-alternate.sh");
    let (ok, out, err) = run_script(&script, &["3", &a, &b, "--", "--only", "chess"]);
    assert!(ok, "{err}");
    let want = format!("{b}: 1.100 [1.100, 1.100] times the nodes a CPU second of {a} (3 rounds)");
    assert!(out.contains(&want), "missing '{want}':\n{out}");
    assert_eq!(err.lines().count(), 6, "one raw line a run:\n{err}");
    // Other bench arguments reach the builds (here: refused, and the
    // script says which run failed), and a build that prints no node count
    // is named; a bad round count or a lone build is refused with the reason.
    let (ok, _, err) = run_script(&script, &["1", &a, &b, "--", "--nnue"]);
    assert!(!ok && err.contains(&format!("round 1: `{a} bench --nnue` failed (exit status 3)")), "{err}");
    let mute = scratch("mute");
    std::fs::copy(&a, &mute).unwrap();
    std::fs::write(&mute, "#!/bin/sh\necho 'no bench here'\n").unwrap();
    let mute = mute.display().to_string();
    let (ok, _, err) = run_script(&script, &["1", &a, &mute, "--", "--only", "chess"]);
    assert!(!ok && err.contains(&format!("`{mute} bench --only chess` printed no \"Nodes searched\"")), "{err}");
    assert!(err.contains("no bench here"), "the build's output is shown:\n{err}");
    for args in [&["0", &a, &b][..], &["x", &a, &b], &["2", &a]] {
        let (ok, _, err) = run_script(&script, args);
        assert!(
            !ok && err.contains("ROUNDS must be a positive number, and two builds or more given"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn spsa_moves_a_number_towards_the_side_that_wins_and_resumes_its_log() {
    // scripts/spsa.py against a fake peer (tests/fake_engines/spsa_peer.py)
    // on whose "matches" the larger x always wins: every iteration must
    // move x up, whichever sign its perturbation drew; y, which decides
    // nothing, only wanders inside its range.
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/spsa.py");
    let peer = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/spsa_peer.py").display().to_string();
    let log = scratch("spsa.csv");
    let log = log.display().to_string();
    let run = |iterations: &str, extra: &[&str]| {
        let mut args = vec!["--engine", &peer, "--iterations", iterations, "--log", &log];
        args.extend_from_slice(extra);
        run_script(&script, &args)
    };
    let (ok, _, err) = run("3", &[]);
    assert!(ok, "{err}");
    let rows = |log: &str| -> Vec<Vec<f64>> {
        std::fs::read_to_string(log)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
            .collect()
    };
    let first = rows(&log);
    assert_eq!(first.len(), 3, "{first:?}");
    let mut x = 10.0;
    for r in &first {
        // iteration, wins, losses, draws, x, y: three wins and no loss for
        // the side with the larger x, which moves x up.
        assert_eq!(r[1] + r[2], 3.0, "{r:?}");
        assert!(r[4] > x, "x did not rise: {first:?}");
        assert!((0.0..=9.0).contains(&r[5]), "{r:?}");
        x = r[4];
    }
    // The same command with a longer schedule goes on from the last row.
    let (ok, _, err) = run("5", &[]);
    assert!(ok, "{err}");
    let all = rows(&log);
    assert_eq!(all.len(), 5);
    assert_eq!(all[..3], first[..]);
    assert!(all[4][4] > all[2][4]);
    // The report gives the values as match options.
    let (ok, out, _) = run("5", &["--report"]);
    assert!(ok && out.contains("5 iterations, 20 games"), "{out}");
    assert!(out.contains(&format!("option.Tune_x={},option.Tune_y=", all[4][4].round())), "{out}");
    // Bad requests are refused with the reason.
    let (ok, _, err) = run("5", &["--params", "x,z"]);
    assert!(!ok && err.contains("unknown numbers: z"), "{err}");
    let (ok, _, err) = run("6", &["--params", "x"]);
    assert!(!ok && err.contains("tunes other numbers than these"), "{err}");
    let (ok, _, err) = run_script(&script, &["--engine", &fake(), "--log", &log]);
    assert!(!ok && err.contains("offers no tunable numbers"), "{err}");
    let faulty = Command::new(&script)
        .args(["--engine", &peer, "--iterations", "1", "--log", &scratch("spsa2.csv").display().to_string()])
        .env("SPSA_PEER_FAULT", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&faulty.stderr);
    assert!(!faulty.status.success() && err.contains("the match had faults"), "{err}");
}
