//! Every link between the repository's Markdown documents leads somewhere:
//! the file it names exists and, where it names a heading (`page.md#anchor`),
//! that page has the heading, its anchor made as GitHub makes it. A path in
//! code (`docs/strength.md`) that names a Markdown document must name one
//! that exists too. So a page that moves, or a heading that is renamed,
//! fails the suite until every reference follows it (the strength notebook's
//! section numbers are linked this way from `docs/strength.md`).

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Markdown documents checked: the top-level ones, `docs/` and every
/// crate's README.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut out: Vec<PathBuf> = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "ARCHITECTURE.md"]
        .iter()
        .map(|f| root.join(f))
        .filter(|p| p.exists())
        .collect();
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let readme = entry.unwrap().path().join("README.md");
        if readme.exists() {
            out.push(readme);
        }
    }
    out.sort();
    out
}

/// GitHub's anchor for a heading's text: lower case, every character that is
/// not a letter, a digit, `-`, `_` or a space dropped, spaces made `-`.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a document's headings, a repeated one numbered as GitHub
/// numbers it (`name`, `name-1`, ...).
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = HashSet::new();
    let mut heading: Option<String> = None;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let s = slug(heading.take().unwrap_or_default().trim());
                let n = seen.entry(s.clone()).or_insert(0);
                out.insert(if *n == 0 { s.clone() } else { format!("{s}-{n}") });
                *n += 1;
            }
            _ => {}
        }
    }
    out
}

/// `base` joined with the relative `rel`, with `..` and `.` resolved.
fn resolve(base: &Path, rel: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for c in base.join(rel).components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// What each document links to and the Markdown paths its code names.
struct Refs {
    links: Vec<String>,
    code_paths: Vec<String>,
}

fn refs(text: &str) -> Refs {
    let mut links = Vec::new();
    let mut code_paths = Vec::new();
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. }) => {
                links.push(dest_url.to_string())
            }
            Event::Code(code) => {
                for word in code.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')') {
                    let top_level = matches!(word, "CONTRIBUTING.md" | "CHANGELOG.md" | "ARCHITECTURE.md");
                    let is_doc_path = top_level || word.starts_with("docs/") && word.ends_with(".md");
                    if is_doc_path && !word.contains('<') && !word.contains('*') {
                        code_paths.push(word.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    Refs { links, code_paths }
}

fn relative(p: &Path) -> String {
    p.strip_prefix(resolve(&root(), "")).unwrap_or(p).display().to_string()
}

#[test]
fn every_link_between_documents_leads_somewhere() {
    let root = resolve(&root(), "");
    let mut anchor_cache: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let doc = resolve(&doc, "");
        let text = std::fs::read_to_string(&doc).unwrap();
        let refs = refs(&text);
        for link in refs.links {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = link.split_once('#').map_or((link.as_str(), None), |(f, a)| (f, Some(a)));
            let target = if file.is_empty() { doc.clone() } else { resolve(doc.parent().unwrap(), file) };
            if !target.exists() {
                broken.push(format!("{}: {link} (no such file)", relative(&doc)));
                continue;
            }
            if let Some(anchor) = anchor.filter(|_| target.extension().is_some_and(|e| e == "md")) {
                let anchors = anchor_cache
                    .entry(target.clone())
                    .or_insert_with(|| anchors(&std::fs::read_to_string(&target).unwrap()));
                if !anchors.contains(anchor) {
                    broken.push(format!("{}: {link} (no such heading)", relative(&doc)));
                }
            }
        }
        for path in refs.code_paths {
            checked += 1;
            if !root.join(&path).exists() {
                broken.push(format!("{}: `{path}` (no such document)", relative(&doc)));
            }
        }
    }
    assert!(checked > 100, "only {checked} references found: is the walk broken?");
    assert!(broken.is_empty(), "{} broken references:\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let text = "# The Chimera engine (`crates/engine`)\n\n## 69. Issue 22: +11.7 [+2.1, +21.3], kept (6 Dec 2026)\n\n## Tuning\n\n## Tuning\n";
    let a = anchors(text);
    assert!(a.contains("the-chimera-engine-cratesengine"), "{a:?}");
    assert!(a.contains("69-issue-22-117-21-213-kept-6-dec-2026"), "{a:?}");
    assert!(a.contains("tuning") && a.contains("tuning-1"), "{a:?}");
}
