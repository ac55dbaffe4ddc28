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

/// Every file under `dir` (relative to the root) whose name ends with one of
/// `exts`, as (path, text).
fn files(dir: &str, exts: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root().join(dir)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if exts.iter().any(|x| p.to_string_lossy().ends_with(x)) {
                let rel = p.strip_prefix(root()).unwrap_or(&p).to_string_lossy().into_owned();
                out.push((rel, std::fs::read_to_string(&p).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

/// The front ends (the browser's scripts and pages, the terminal app) take
/// everything they show of a variant from its description
/// (`chimera_rules::describe`, sent by `/api/meta` and with each position):
/// none names a variant id, an alias or a rule option in its code, so none
/// can lack a variant that is added. Scripts take their lists from
/// `chimera variants --ids`: a line that names two variants is a list of
/// its own. The check fails on the tables this replaced (restore
/// `POCKET_NAMES = { genesis: ...` in assets/common.js and it names the
/// file and line).
#[test]
fn front_ends_and_scripts_keep_no_variant_list() {
    let mut names: Vec<String> = Vec::new();
    for v in Variant::ALL {
        names.push(v.id().to_string());
        names.extend(v.aliases().iter().map(|a| a.to_string()));
        for o in v.info().options {
            names.extend([o.key.to_string(), o.uci.to_string()]);
        }
    }
    let named = |line: &str, name: &str| {
        // The name as code writes it: a string, a key, a path segment or a
        // field (`'clown'`, `"clown"`, `clown:`, `/clown`, `.ring_powers`),
        // not the word in a sentence ("play chess").
        line.match_indices(name).any(|(i, _)| {
            let before = line[..i].chars().next_back();
            let after = line[i + name.len()..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            !word(before)
                && !word(after)
                && (matches!(before, Some('\'' | '"' | '`' | '/' | '.' | '='))
                    || matches!(after, Some('\'' | '"' | '`' | ':')))
        })
    };
    let mut found = Vec::new();
    let front: Vec<(String, String)> = [
        files("crates/server/assets", &[".js", ".html", ".css"]),
        files("crates/tui/src", &[".rs"]),
        files("crates/session/src", &[".rs"]),
    ]
    .concat();
    for (path, text) in &front {
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for name in &names {
                if named(code, name) {
                    found.push(format!("{path}:{}: names `{name}`: {}", n + 1, line.trim()));
                }
            }
        }
    }
    // The fixture client speaks the API of the release that wrote the
    // upgrade test's stores (scripts/make-store-fixtures.sh), as it was.
    for (path, text) in files("scripts", &[".sh", ".py"]) {
        if path.ends_with("store_fixture_client.py") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let code = line.split('#').next().unwrap_or("");
            let ids: Vec<&str> =
                Variant::ALL.iter().map(|v| v.id()).filter(|id| code.split_whitespace().any(|w| w == *id)).collect();
            if ids.len() >= 2 {
                found.push(format!("{path}:{}: lists {ids:?}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "variant lists outside the variants' own code:\n{}", found.join("\n"));
}
