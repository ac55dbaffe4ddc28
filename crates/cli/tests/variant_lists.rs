//! The variant list lives in one place, `Variant::ALL`. Code takes it from
//! there; the documents that list variants for people are checked against
//! it here, so adding a variant without its docs (or leaving a removed one
//! in them) fails the suite.

use chimera_rules::Variant;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The ids in backticks in the first column of the Markdown table whose
/// header starts with `| variant id`.
fn table_ids(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("| variant id"))
        .take_while(|l| l.starts_with('|'))
        .filter(|l| l.starts_with("| `"))
        .flat_map(|l| {
            let cell = l.split('|').nth(1).unwrap_or("");
            cell.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn readme_tables_list_exactly_the_variants() {
    let ids: Vec<&str> = Variant::ALL.iter().map(|v| v.id()).collect();
    for doc in ["README.md", "crates/rules/README.md"] {
        let listed = table_ids(&read(doc));
        for id in &ids {
            assert!(listed.iter().any(|l| l == id), "{doc}: the variant table has no row for `{id}`");
        }
        for l in &listed {
            assert!(ids.contains(&l.as_str()), "{doc}: the variant table lists `{l}`, which is no variant");
        }
    }
}

#[test]
fn every_variant_has_a_rules_page() {
    for v in Variant::ALL {
        let path = format!("docs/rules/{}.md", v.rules_page());
        let text = read(&path);
        assert!(text.contains(v.id()), "{path} never names the variant id `{}`", v.id());
    }
}

#[test]
fn uci_docs_list_the_combo_values() {
    let line = read("docs/protocol.md").lines().find(|l| l.starts_with("| `UCI_Variant`")).map(str::to_string);
    let line = line.expect("docs/protocol.md has a `UCI_Variant` row");
    for v in Variant::ALL {
        assert!(line.contains(v.id()), "docs/protocol.md's UCI_Variant row lacks {}", v.id());
    }
}

#[test]
fn chimera_variants_prints_variant_all() {
    let out = Command::new(env!("CARGO_BIN_EXE_chimera")).args(["variants", "--ids"]).output().expect("run chimera");
    assert!(out.status.success());
    let ids: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(ids, Variant::ALL.iter().map(|v| v.id().to_string()).collect::<Vec<_>>());
}
