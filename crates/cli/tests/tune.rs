//! `chimera datagen` then `chimera tune` end to end on a few short games:
//! the tuner reads the records, fits, prints its epochs and a `PARAMS`
//! source that names every field; bad options and bad files are clear
//! errors, not panics.

use std::process::Command;

fn chimera(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chimera")).args(args).output().expect("chimera runs")
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
    assert!(src.starts_with("pub const PARAMS: Params = Params {"));
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
