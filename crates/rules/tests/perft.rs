//! One generic driver for every `tests/data/*.perft` file.

use chimera_rules::{AnyPosition, RuleOptions, Variant};
use std::path::Path;

const FAST_LIMIT: u64 = 20_000_000;

struct Case {
    id: String,
    variant: Variant,
    opts: RuleOptions,
    epd: String,
    perfts: Vec<(u32, u64)>,
}

fn read_cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut cases: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let here = || format!("{}:{}", path.display(), n + 1);
        match key {
            "id" => cases.push(Case {
                id: rest.to_string(),
                variant: Variant::Chess,
                opts: RuleOptions::default(),
                epd: String::new(),
                perfts: vec![],
            }),
            "variant" => {
                cases.last_mut().unwrap_or_else(|| panic!("{}", here())).variant =
                    rest.parse().unwrap_or_else(|_| panic!("{}", here()))
            }
            "powers" => {
                cases.last_mut().unwrap_or_else(|| panic!("{}", here())).opts.ring_powers =
                    rest.parse().unwrap_or_else(|_| panic!("{}", here()))
            }
            "epd" => cases.last_mut().unwrap_or_else(|| panic!("{}", here())).epd = rest.to_string(),
            "perft" => {
                let mut it = rest.split_whitespace();
                let d: u32 =
                    it.next().unwrap_or_else(|| panic!("{}", here())).parse().unwrap_or_else(|_| panic!("{}", here()));
                let nodes: u64 =
                    it.next().unwrap_or_else(|| panic!("{}", here())).parse().unwrap_or_else(|_| panic!("{}", here()));
                cases.last_mut().unwrap_or_else(|| panic!("{}", here())).perfts.push((d, nodes));
            }
            _ => panic!("{}: unknown key {key}", here()),
        }
    }
    cases
}

#[test]
fn perft_data_files() {
    let slow = std::env::var("CHIMERA_SLOW_TESTS").is_ok_and(|v| v == "1");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut ran = 0;
    let mut failures = Vec::new();
    for file in files {
        for case in read_cases(&file) {
            let pos = AnyPosition::from_fen(case.variant, &case.epd, &case.opts)
                .unwrap_or_else(|e| panic!("{} {}: bad FEN: {e}", file.display(), case.id));
            for &(d, expected) in &case.perfts {
                if expected > FAST_LIMIT && !slow {
                    continue;
                }
                let got = pos.perft(d);
                ran += 1;
                if got != expected {
                    failures.push(format!("{} {} depth {d}: expected {expected}, got {got}", file.display(), case.id));
                }
            }
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    assert!(ran > 0);
}
