//! `chimera datagen` then `chimera tune` end to end on a few short games:
//! the tuner reads the records, fits, prints its epochs and a `PARAMS`
//! source that names every field; bad options and bad files are clear
//! errors, not panics.

use std::process::Command;

fn chimera(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chimera")).args(args).output().expect("chimera runs")
}

/// A fresh scratch folder `name` holding `chess.bin`: `games` short chess
/// games of `chimera datagen` (200 nodes a move, at most 60 plies).
fn short_chess_records(name: &str, games: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("chess.bin");
    let args = ["datagen", "--games", games, "--nodes", "200", "--max-plies", "60", "--threads", "1", "--out"];
    let gen = chimera(&[&args[..], &[data.to_str().unwrap()]].concat());
    assert!(gen.status.success(), "{}", String::from_utf8_lossy(&gen.stderr));
    (dir, data)
}

#[test]
fn datagen_then_tune() {
    let dir = std::env::temp_dir().join(format!("chimera-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("chess.bin");
    let out = chimera(&[
        "datagen",
        "--variant",
        "chess",
        "--games",
        "4",
        "--nodes",
        "300",
        "--max-plies",
        "80",
        "--threads",
        "2",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let params = dir.join("params.rs");
    let out = chimera(&[
        "tune",
        data.to_str().unwrap(),
        "--epochs",
        "2",
        "--batch",
        "64",
        "--validation",
        "0",
        "--threads",
        "2",
        "--out",
        params.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("epoch   2") && text.contains("K = "), "{text}");
    let src = std::fs::read_to_string(&params).unwrap();
    // The values file as it sits in the tree (crates/engine/src/eval/values.rs).
    assert!(src.starts_with("//! The values the engine plays with, generated"), "{src}");
    assert!(src.contains("\npub const PARAMS: Params = Params {"), "{src}");
    for field in ["material:", "pst:", "mobility:", "king_danger:", "threat_by_minor:", "ring_on_king:"] {
        assert!(src.contains(field), "{field} missing");
    }
    let bad = chimera(&["tune", data.to_str().unwrap(), "--lr", "0"]);
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("--lr"));
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"CHIMDG1\n\x00").unwrap();
    let bad = chimera(&["tune", junk.to_str().unwrap()]);
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("truncated"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--seconds` stops starting games once the budget is spent and leaves a
/// file of whole games (the tuner reads it back without a truncation error).
#[test]
fn datagen_time_budget_stops_early_with_whole_games() {
    let dir = std::env::temp_dir().join(format!("chimera-datagen-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("chess.bin");
    let out = chimera(&[
        "datagen",
        "--variant",
        "chess",
        "--games",
        "1000000",
        "--nodes",
        "200",
        "--max-plies",
        "40",
        "--threads",
        "2",
        "--seconds",
        "1",
        "--out",
        data.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let games: u64 = text.split_whitespace().next().unwrap().parse().unwrap();
    assert!(games > 0 && games < 1_000_000, "{text}");
    let bytes = std::fs::read(&data).unwrap();
    let records = chimera_train::datagen::read_records(&bytes).expect("whole games");
    assert_eq!(records.len() as u64, games);
    std::fs::remove_dir_all(&dir).ok();
}

/// `datagen --nnue` plays with the built-in chess net; a net the variant
/// lacks, a file for another variant or `--eval-file` without `--nnue` stop
/// the run with the reason before the output file is made.
#[test]
fn datagen_with_a_net() {
    let dir = std::env::temp_dir().join(format!("chimera-datagen-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("chess.bin");
    let d = data.to_str().unwrap();
    let common = ["--games", "2", "--nodes", "200", "--max-plies", "30", "--threads", "1", "--out", d];
    let run = |extra: &[&str]| {
        let mut args = vec!["datagen"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&common);
        chimera(&args)
    };
    let ok = run(&["--variant", "chess", "--nnue"]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let records = chimera_train::datagen::read_records(&std::fs::read(&data).unwrap()).expect("whole games");
    assert_eq!(records.len(), 2);
    std::fs::remove_file(&data).unwrap();

    // A chess net, written by the library, offered to Genesis.
    let net = dir.join("chess.nnue");
    let chess = chimera_engine::nnue::embedded(chimera_rules::Variant::Chess).expect("a built-in chess net");
    std::fs::write(&net, chess.to_bytes()).unwrap();
    let n = net.to_str().unwrap();
    for (extra, why) in [
        (vec!["--variant", "genesis", "--nnue", "--eval-file", n], "is not a net for genesis"),
        (vec!["--variant", "chess", "--eval-file", n], "--eval-file needs --nnue"),
    ] {
        let out = run(&extra);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(why), "{extra:?}: {err}");
        assert!(!data.exists(), "{extra:?} made the output file");
    }
    let ok = run(&["--variant", "chess", "--nnue", "--eval-file", n]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

/// `bench --records` searches positions sampled from a datagen file, the
/// same ones every run (the node count repeats), from the plies asked for; a
/// file that is not one, `--sample 0` or a bad `--plies` is a clear error.
#[test]
fn bench_on_sampled_records() {
    let dir = std::env::temp_dir().join(format!("chimera-bench-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("clown.bin");
    let d = data.to_str().unwrap();
    let out = chimera(&[
        "datagen",
        "--variant",
        "clown",
        "--games",
        "3",
        "--nodes",
        "200",
        "--max-plies",
        "70",
        "--threads",
        "1",
        "--out",
        d,
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bench = |extra: &[&str]| {
        let mut args = vec!["bench", "--records", d, "--depth", "5"];
        args.extend_from_slice(extra);
        chimera(&args)
    };
    let nodes = |o: &std::process::Output| {
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        assert!(o.status.success(), "{text}{}", String::from_utf8_lossy(&o.stderr));
        text.lines().find(|l| l.starts_with("Nodes searched")).expect("a node count").to_string()
    };
    let a = bench(&["--sample", "3"]);
    let searched = String::from_utf8_lossy(&a.stderr).lines().filter(|l| l.starts_with("clown")).count();
    assert!((1..=3).contains(&searched), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(nodes(&a), nodes(&bench(&["--sample", "3"])));
    assert!(nodes(&bench(&["--sample", "3", "--nnue"])).starts_with("Nodes searched"));

    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"not records").unwrap();
    let bad = chimera(&["bench", "--records", junk.to_str().unwrap()]);
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("not a chimera datagen file"));
    let bad = bench(&["--sample", "0"]);
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("--sample must be at least 1"));
    // Later plies are other positions; plies past every game are a clear
    // error, and so is a range that is not one.
    let late = bench(&["--sample", "3", "--plies", "30-40"]);
    assert_ne!(nodes(&late), nodes(&a));
    let bad = bench(&["--plies", "500-600"]);
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("(500 to 600)"));
    for plies in ["9", "20-10", "a-b", "0-100001"] {
        let bad = bench(&["--plies", plies]);
        assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains(plies), "{plies}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `chimera train` on a small datagen file: a new SCReLU net with 8 output
/// buckets is written in file version 2 and loads with that shape;
/// fine-tuning from it keeps the shape, `--activation crelu --buckets 1`
/// turns it back into a version 1 file; bad shapes are refused with the
/// reason and no output.
#[test]
fn train_writes_the_shape_asked_for() {
    use chimera_engine::nnue::{Activation, Network, Shape, MAGIC, MAGIC2, MAGIC3};
    let (dir, data) = short_chess_records("chimera-train", "6");
    let d = data.to_str().unwrap();
    let train = |out: &std::path::Path, extra: &[&str]| {
        let mut args = vec!["train", d, "--epochs", "1", "--batch", "64", "--threads", "1", "--validation", "0"];
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        args.extend_from_slice(extra);
        chimera(&args)
    };
    let load = |p: &std::path::Path| {
        let bytes = std::fs::read(p).unwrap();
        (Network::from_bytes(&bytes, "t").unwrap().shape(), bytes[..8].to_vec())
    };
    let a = dir.join("a.nnue");
    let out = train(&a, &["--activation", "screlu", "--buckets", "8"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("screlu (8 output buckets)"));
    let screlu8 = Shape { activation: Activation::SCReLU, buckets: 8, width: 128, kings: 1 };
    assert_eq!(load(&a), (screlu8, MAGIC2.to_vec()));
    let b = dir.join("b.nnue");
    let out = train(&b, &["--init", a.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(load(&b).0, screlu8);
    let c = dir.join("c.nnue");
    let out = train(&c, &["--init", a.to_str().unwrap(), "--activation", "crelu", "--buckets", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(load(&c), (Shape::default(), MAGIC.to_vec()));
    // Made wider: 256 units, version 2 (a version 1 file is 128 wide).
    let w = dir.join("w.nnue");
    let out = train(&w, &["--init", c.to_str().unwrap(), "--hidden", "256"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1280→256×2→1"));
    assert_eq!(load(&w), (Shape { width: 256, ..Shape::default() }, MAGIC2.to_vec()));
    let out = train(&dir.join("narrow.nnue"), &["--init", w.to_str().unwrap(), "--hidden", "128"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("not 128 wide"), "{err}");
    // Given four king buckets: version 3; they cannot be taken away again.
    let k = dir.join("k.nnue");
    let out = train(&k, &["--init", a.to_str().unwrap(), "--kings", "4"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("4×1280→128×2→1"));
    assert_eq!(load(&k), (Shape { kings: 4, ..screlu8 }, MAGIC3.to_vec()));
    let out = train(&dir.join("one.nnue"), &["--init", k.to_str().unwrap(), "--kings", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("not 1"), "{err}");
    // Four split into eight; eight cannot go back to four.
    let k8 = dir.join("k8.nnue");
    let out = train(&k8, &["--init", k.to_str().unwrap(), "--kings", "8"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("8×1280→128×2→1"));
    assert_eq!(load(&k8), (Shape { kings: 8, ..screlu8 }, MAGIC3.to_vec()));
    let out = train(&dir.join("four.nnue"), &["--init", k8.to_str().unwrap(), "--kings", "4"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("8 king buckets can be fine-tuned with 8, not 4"), "{err}");
    let bad = dir.join("bad.nnue");
    for (extra, why) in [
        (vec!["--hidden", "100"], "--hidden must be 16 to 256 in steps of 16"),
        (vec!["--hidden", "512"], "--hidden must be 16 to 256 in steps of 16"),
        (vec!["--buckets", "9"], "--buckets must be between 1 and 8"),
        (vec!["--buckets", "0"], "--buckets must be between 1 and 8"),
        (vec!["--activation", "relu"], "unknown activation"),
        (vec!["--kings", "2"], "--kings must be 1, 4 or 8"),
    ] {
        let out = train(&bad, &extra);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(why), "{extra:?}: {err}");
        assert!(!bad.exists(), "{extra:?} wrote a net");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `chimera train --pawn-report`: a table of four rows and nothing trained
/// (no `--out` needed); a bad move window and records of another variant
/// are refused with the reason. (The rows themselves are worked by hand in
/// `datagen::tests::pawn_report_rows_by_hand`.)
#[test]
fn train_pawn_report_prints_the_table() {
    let (dir, data) = short_chess_records("chimera-pawn-report", "4");
    let d = data.to_str().unwrap();
    let out = chimera(&["train", d, "--pawn-report", "1-30"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.starts_with("4 games of chess, moves 1-30"), "{text}");
    for row in ["| 0 | ", "| 1 | ", "| 2 | ", "| 3 or more | "] {
        assert_eq!(text.lines().filter(|l| l.starts_with(row)).count(), 1, "{row}: {text}");
    }
    // The default window is moves 10-40.
    let out = chimera(&["train", d, "--pawn-report"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("moves 10-40"));
    for w in ["10", "40-10", "0-5", "a-b"] {
        let out = chimera(&["train", d, "--pawn-report", w]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(&format!("not '{w}'")), "{w}: {err}");
    }
    let out = chimera(&["train", d, "--variant", "genie", "--pawn-report"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("no genie game"), "{err}");
    let out = chimera(&["train", d]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--out"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
