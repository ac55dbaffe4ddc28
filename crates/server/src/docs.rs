//! The project's documentation, embedded in the binary at build time and
//! served as pages: `/docs/rules/` is the index of the complete rules,
//! `/docs/rules/<variant>.md` a variant's rules, `/docs/fen.md` the FEN
//! extensions, and so on. Links between the Markdown files are relative, so
//! they work on the site as they do in the repository. The files are the
//! project's own and fixed at build time; nothing a client sends is rendered.

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use pulldown_cmark::{html, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../docs/"]
#[include = "*.md"]
#[include = "*.svg"]
#[include = "*.png"]
#[include = "*.html"]
struct Docs;

/// The content type of a non-Markdown file of `docs/` (plots, screenshots,
/// the lab's self-contained HTML reports), served as it is.
fn file_type(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.').map(|(_, e)| e)?;
    match ext {
        "svg" => Some("image/svg+xml"),
        "png" => Some("image/png"),
        "html" => Some("text/html; charset=utf-8"),
        _ => None,
    }
}

/// `GET /docs/{*path}`: a Markdown file of `docs/` as an HTML page; a folder
/// (`/docs/rules/`) shows its `README.md`.
pub async fn page(Path(path): Path<String>) -> Response {
    render(&path)
}

/// `GET /docs/`: the rules index.
pub async fn index() -> Response {
    render("rules/")
}

fn render(path: &str) -> Response {
    let file = if path.is_empty() || path.ends_with('/') { format!("{path}README.md") } else { path.to_string() };
    let Some(md) = Docs::get(&file) else {
        // A page a browser went to: the site's "page not found" page.
        return crate::web::not_found_page();
    };
    if let Some(mime) = file_type(&file) {
        return ([(header::CONTENT_TYPE, mime)], md.data.into_owned()).into_response();
    }
    let text = String::from_utf8_lossy(&md.data);
    let (title, body) = to_html(&text);
    let page = format!(
        r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chimera — {title}</title>
{meta}</head>
<body>
<div id="hdr"></div>
<main lang="en"><article class="panel doc">
{body}</article></main>
<script type="module" src="/assets/doc.js"></script>
</body></html>
"#,
        meta = crate::web::head_meta(
            &format!("Chimera — {title}"),
            &format!("{title}: Chimera's documentation of its chess variants.")
        ),
        title = escape(&title)
    );
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response()
}

/// The page's first heading (for the title) and the Markdown as HTML.
fn to_html(md: &str) -> (String, String) {
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_FOOTNOTES;
    let events: Vec<Event> = Parser::new_ext(md, opts).collect();
    let mut title = String::new();
    let mut in_h1 = false;
    for e in &events {
        match e {
            Event::Start(Tag::Heading { level: HeadingLevel::H1, .. }) if title.is_empty() => in_h1 = true,
            Event::End(TagEnd::Heading(HeadingLevel::H1)) => in_h1 = false,
            Event::Text(t) | Event::Code(t) if in_h1 => title.push_str(t),
            _ => {}
        }
    }
    let mut out = String::with_capacity(md.len() * 3 / 2);
    html::push_html(&mut out, events.into_iter());
    // Code blocks and tables scroll sideways on a narrow screen: a keyboard
    // reaches them to scroll them (axe-core's scrollable-region-focusable).
    let out = out.replace("<pre>", "<pre tabindex=\"0\">").replace("<table>", "<table tabindex=\"0\">");
    (if title.is_empty() { "documentation".into() } else { title }, out)
}

/// A variant's rules at a glance, for the site's rules page: the section
/// `## At a glance` of its page in `docs/rules/` as HTML, and the diagrams
/// it holds (fenced blocks of kind `diagram`: a FEN line, a caption line,
/// then optionally `moves` and UCI moves, or `gallery`). `None` when the
/// page has no such section.
pub fn glance(page: &str) -> Option<(String, Vec<serde_json::Value>)> {
    let md = Docs::get(&format!("rules/{page}.md"))?;
    let text = String::from_utf8_lossy(&md.data).into_owned();
    let start = text.find("\n## At a glance\n")? + "\n## At a glance\n".len();
    let section = &text[start..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut prose = String::new();
    let mut diagrams = Vec::new();
    let mut lines = section.lines();
    while let Some(l) = lines.next() {
        if l.trim() == "```diagram" {
            let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
            let (fen, caption) = (block.first()?.trim(), block.get(1).map_or("", |c| c.trim()));
            let extra = block.get(2).map_or("", |c| c.trim());
            let moves: Vec<&str> = extra.strip_prefix("moves").map_or(vec![], |m| m.split_whitespace().collect());
            diagrams.push(serde_json::json!({
                "fen": fen, "caption": caption, "moves": moves, "gallery": extra == "gallery",
            }));
        } else {
            prose.push_str(l);
            prose.push('\n');
        }
    }
    Some((to_html(&prose).1, diagrams))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_rules::Variant;

    #[test]
    fn every_variant_rules_page_is_embedded() {
        for v in Variant::ALL {
            let file = format!("rules/{}.md", v.rules_page());
            assert!(Docs::get(&file).is_some(), "{file} is not embedded");
        }
        assert!(Docs::get("rules/README.md").is_some());
    }

    #[test]
    fn plots_screenshots_and_reports_are_served_as_files() {
        for (path, mime) in [
            ("lab/overview.svg", "image/svg+xml"),
            ("lab/chess/report.html", "text/html; charset=utf-8"),
            ("screenshots/game-genesis-1366x768.png", "image/png"),
        ] {
            let r = render(path);
            assert_eq!(r.status(), axum::http::StatusCode::OK, "{path}");
            assert_eq!(r.headers()[header::CONTENT_TYPE], mime, "{path}");
        }
        assert_eq!(render("lab/nope.svg").status(), axum::http::StatusCode::NOT_FOUND);
    }

    #[test]
    fn every_variant_has_its_rules_at_a_glance() {
        for v in Variant::ALL {
            let (html, diagrams) = glance(v.rules_page()).unwrap_or_else(|| panic!("{v}: no '## At a glance'"));
            assert!(html.contains("<p>") && !html.contains("```"), "{v}: {html}");
            assert!(!diagrams.is_empty(), "{v}: no diagram");
            for d in diagrams {
                let fen = d["fen"].as_str().unwrap();
                let pos = chimera_rules::AnyPosition::from_fen(v, fen, &Default::default());
                assert!(pos.is_ok() || d["gallery"] == true, "{v}: {fen}: {pos:?}");
                assert!(!d["caption"].as_str().unwrap().is_empty(), "{v}: {fen} has no caption");
            }
        }
    }

    #[test]
    fn markdown_becomes_html_with_its_title() {
        let (title, html) = to_html("# Genie `x`\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n");
        assert_eq!(title, "Genie x");
        assert!(html.contains("<table") && html.contains("<td>1</td>"), "{html}");
    }
}
