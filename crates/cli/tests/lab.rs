//! `chimera lab` as a user runs it: a study killed with SIGKILL in the
//! middle and resumed has exactly the games of an uninterrupted run (none
//! lost, none twice); Ctrl-C stops cleanly and resumes; bad input is a
//! clear error, never a panic; two runs of one study (on one SQLite file,
//! and on a throwaway PostgreSQL as two machines would) split its games.
//! Small studies (100-150 nodes a move) in temporary directories; every
//! wait is bounded in time.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn chimera() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chimera"))
}

fn fresh(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("chimera-lab-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn lab(data: &Path, args: &[&str]) -> Output {
    chimera().arg("lab").arg("--data").arg(data).args(args).output().expect("chimera runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Games stored so far, from `lab list` (`ID  N/TARGET ...`).
fn stored(data: &Path, id: &str) -> u64 {
    let o = lab(data, &["list"]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    out.lines()
        .find(|l| l.split_whitespace().next() == Some(id))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|g| g.split('/').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

const STUDY: &[&str] = &["--variant", "genie", "--games", "24", "--nodes", "150", "--max-plies", "120"];

fn start_run(data: &Path, id: &str) -> std::process::Child {
    chimera()
        .arg("lab")
        .arg("--data")
        .arg(data)
        .args(["run", id])
        .args(STUDY)
        .args(["--concurrency", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chimera starts")
}

/// Waits (at most 120 s) until at least `n` games are stored.
fn wait_stored(data: &Path, id: &str, n: u64) -> u64 {
    let t0 = Instant::now();
    loop {
        let k = stored(data, id);
        if k >= n || t0.elapsed() > Duration::from_secs(120) {
            return k;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_killed_study_resumes_without_losing_or_duplicating_a_game() {
    // The reference: the same study played in one go.
    let whole = fresh("whole");
    let o = chimera().arg("lab").arg("--data").arg(&whole).args(["run", "s"]).args(STUDY).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let reference = lab(&whole, &["pgn", "s"]);
    assert!(reference.status.success());
    assert_eq!(String::from_utf8_lossy(&reference.stdout).matches("[Event ").count(), 24);

    // Killed with SIGKILL once some games are stored, then resumed.
    let data = fresh("killed");
    let mut child = start_run(&data, "s");
    let before = wait_stored(&data, "s", 3);
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    let at_kill = stored(&data, "s");
    assert!((3..24).contains(&at_kill), "killed in the middle: {before} then {at_kill} stored");
    let o = lab(&data, &["run", "s"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains(&format!("{at_kill} before this run")), "{}", text(&o));
    let resumed = lab(&data, &["pgn", "s"]);
    // Same games, same order, once each: nothing lost, nothing twice.
    assert_eq!(String::from_utf8_lossy(&resumed.stdout), String::from_utf8_lossy(&reference.stdout));
    // A run of a complete study plays nothing.
    let o = lab(&data, &["run", "s"]);
    assert!(text(&o).contains("0 played now"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn ctrl_c_finishes_the_games_in_flight_and_resumes() {
    let data = fresh("sigint");
    let child = start_run(&data, "c");
    wait_stored(&data, "c", 2);
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
    let o = child.wait_with_output().unwrap();
    let out = text(&o);
    if o.status.code() == Some(130) {
        assert!(out.contains("stopped by Ctrl-C") && out.contains("resumes"), "{out}");
        let n = stored(&data, "c");
        assert!(out.contains(&format!("{n} games stored of 24")), "the games in flight were stored: {out}");
    } else {
        // The run finished before the signal arrived.
        assert!(o.status.success(), "{out}");
    }
    let o = lab(&data, &["run", "c"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(stored(&data, "c"), 24);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn bad_input_is_a_clear_error() {
    let data = fresh("bad");
    let err = |args: &[&str], want: &str| {
        let o = lab(&data, args);
        let out = text(&o);
        assert!(!o.status.success(), "{args:?} must fail: {out}");
        assert!(out.contains(want), "{args:?}: expected '{want}' in: {out}");
        assert!(!out.contains("panicked"), "{out}");
    };
    err(&["run", "x", "--variant", "checkers", "--games", "2"], "invalid value 'checkers'");
    err(&["run", "x", "--games", "2"], "give --variant");
    err(&["run", "x", "--variant", "chess"], "give --games");
    err(
        &["run", "x", "--variant", "chess", "--games", "2", "--rules", "ring_powers=NKQ"],
        "no rule option 'ring_powers'",
    );
    err(&["run", "x", "--variant", "magicring", "--games", "2", "--rules", "ring_powers=NXQ"], "'X' is not one of");
    err(
        &["run", "x", "--variant", "magicring", "--games", "2", "--rules", "powers=NKQ"],
        "unknown rule option 'powers'",
    );
    err(&["run", "bad id", "--variant", "chess", "--games", "2"], "bad study id");
    err(&["run", "x", "--variant", "chess", "--games", "2", "--nodes", "0"], "--nodes must be at least 1");
    err(&["report", "nope"], "no study 'nope'");
    err(&["compare", "nope", "nada"], "no study 'nope'");
    err(&["pgn", "nope"], "no study 'nope'");
    err(&["run", "x", "--variant", "chess", "--games", "2", "--book", "/nonexistent/book.fen"], "reading the book");
    let book = data.join("book.fen");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(&book, "# positions\nnot a position\n").unwrap();
    err(&["run", "x", "--variant", "chess", "--games", "2", "--book", book.to_str().unwrap()], "book position 1");
    // A study re-run with other options.
    let o = lab(&data, &["run", "r", "--variant", "chess", "--games", "2", "--nodes", "100", "--max-plies", "20"]);
    assert!(o.status.success(), "{}", text(&o));
    err(&["run", "r", "--nodes", "200"], "was started with other options (budget");
    err(&["run", "r", "--variant", "genie"], "variant: \"chess\" → \"genie\"");
    // A corrupt store: not a SQLite file.
    let bad = fresh("corrupt");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("chimera.sqlite3"), vec![0x42u8; 4096]).unwrap();
    let o = lab(&bad, &["list"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("chimera.sqlite3"), "{}", text(&o));
    assert!(!text(&o).contains("panicked"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&data);
    let _ = std::fs::remove_dir_all(&bad);
}

#[test]
fn report_and_compare_on_small_studies() {
    let data = fresh("report");
    for (id, v) in [("a", "chess"), ("b", "genesis")] {
        let o = lab(&data, &["run", id, "--variant", v, "--games", "6", "--nodes", "100", "--max-plies", "60"]);
        assert!(o.status.success(), "{}", text(&o));
    }
    let html = data.join("out/a.html");
    let dir = data.join("out/b");
    let o = lab(&data, &["report", "a", "--html", html.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<svg") && page.contains("White's score") && page.contains("Piece values fitted"));
    assert!(!page.contains("<script") && !page.contains("src=\"http"), "one self-contained file");
    let o = lab(&data, &["report", "b", "--no-fit", "--dir", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    for f in ["README.md", "results.svg", "terminations.svg", "lengths.svg", "eval-curve.svg"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    let md = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(md.contains("Placement order") && md.contains("![results](results.svg)"), "{md}");
    let o = lab(&data, &["compare", "a", "b"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("White's score") && text(&o).contains("too few games to test"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&data);
}

/// The number before `what` in a run's summary ("12 played now").
fn count_before(out: &str, what: &str) -> Option<u64> {
    let at = out.find(what)?;
    out[..at].split_whitespace().last()?.parse().ok()
}

/// Two runs of the 24-game study, started together, both succeed and play
/// every game once between them: their counts add up to the study, and
/// neither played a game the other had stored.
fn split_between(a: std::process::Child, b: std::process::Child) {
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let (ta, tb) = (text(&a), text(&b));
    assert!(a.status.success() && b.status.success(), "{ta}\n{tb}");
    let (pa, pb) = (count_before(&ta, "played now").unwrap(), count_before(&tb, "played now").unwrap());
    assert_eq!(pa + pb, 24, "{ta}\n{tb}");
    assert!(
        !ta.contains("already stored by another run") && !tb.contains("already stored by another run"),
        "{ta}\n{tb}"
    );
}

#[test]
fn two_runs_of_one_study_share_its_games_by_claiming_them() {
    let data = fresh("shared");
    // Started together: both create the study (one insert wins, the other
    // finds it), then split its games.
    split_between(start_run(&data, "p"), start_run(&data, "p"));
    assert_eq!(stored(&data, "p"), 24);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn two_machines_share_a_study_on_postgresql() {
    let Some(pg) = common::pg::PgCluster::start_or_skip("lab: two runs of one study on PostgreSQL") else { return };
    let url = pg.fresh_database("lab");
    let run = || {
        chimera()
            .arg("lab")
            .env("CHIMERA_DATABASE_URL", &url)
            .args(["run", "q"])
            .args(STUDY)
            .args(["--concurrency", "2"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chimera starts")
    };
    split_between(run(), run());
    // The database holds each game number once, 0 to 23.
    let ks = pg.psql(&url, "SELECT string_agg(k::text, ',' ORDER BY k) FROM lab_games WHERE study_id = 'q'").unwrap();
    assert_eq!(ks.trim(), (0..24).map(|k| k.to_string()).collect::<Vec<_>>().join(","));
}
