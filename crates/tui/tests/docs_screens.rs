//! The text captures in docs/play.md are drawn by this test from the real
//! renderer (TestBackend, 80×24), so the page cannot drift from the code:
//! it fails when a capture differs. After a deliberate change of the
//! screen, `CHIMERA_UPDATE_DOCS=1 cargo test -p chimera-tui --test
//! docs_screens` rewrites them.

mod common;
use chimera_tui::App;
use common::*;
use crossterm::event::KeyCode;

fn captures() -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut shot = |id: &'static str, a: &mut App| out.push((id, screen(a, 80, 24)));

    let mut a = app("chess");
    play(&mut a, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    a.cursor = sq("b5");
    key(&mut a, KeyCode::Enter);
    shot("chess", &mut a);

    let mut a = app("genie");
    play(&mut a, &["e4", "e5", "d2d2g", "Nc6"]);
    shot("genie", &mut a);

    let mut a = app("genesis");
    play(&mut a, &["K@e1", "K@e8", "Q@d1", "Q@d8", "R@a1"]);
    key(&mut a, KeyCode::Char('p'));
    shot("genesis", &mut a);

    let mut a = app("clown");
    play(&mut a, &["b1c3c", "d5", "c3d4", "e5", "a3", "exd4", "h3", "h6"]);
    shot("clown", &mut a);

    let mut a = app("magicring");
    play(&mut a, &["e4", "e5", "e1e2", "e8e7", "e2f1"]);
    shot("magicring", &mut a);

    let mut a = app("chess");
    play(&mut a, &["e4", "d5", "exd5"]);
    key(&mut a, KeyCode::Char(':'));
    key(&mut a, KeyCode::Char('Q'));
    shot("command-line", &mut a);

    let mut c = config("chess");
    c.ascii = true;
    c.monochrome = true;
    let mut a = App::new(c);
    play(&mut a, &["d4", "Nf6", "c4"]);
    shot("ascii", &mut a);
    out
}

#[test]
fn docs_play_md_shows_the_current_screens() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/play.md");
    let mut doc = std::fs::read_to_string(path).expect("docs/play.md");
    let update = std::env::var_os("CHIMERA_UPDATE_DOCS").is_some();
    let mut stale = Vec::new();
    for (id, text) in captures() {
        let open = format!("<!-- screen:{id} -->\n```text\n");
        let close = "```\n<!-- /screen -->";
        let start = doc.find(&open).unwrap_or_else(|| panic!("docs/play.md has no '<!-- screen:{id} -->' block"));
        let body = start + open.len();
        let end = body + doc[body..].find(close).expect("closing marker");
        if doc[body..end] != text {
            stale.push(id);
            doc.replace_range(body..end, &text);
        }
    }
    if update {
        std::fs::write(path, doc).expect("write docs/play.md");
    } else {
        assert!(stale.is_empty(), "docs/play.md is out of date for {stale:?}: run CHIMERA_UPDATE_DOCS=1 cargo test -p chimera-tui --test docs_screens");
    }
}
