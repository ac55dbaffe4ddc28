//! Helpers shared by the player's tests: build an app, press keys, draw it
//! on ratatui's TestBackend and read the screen back as text.
#![allow(dead_code)]

use chimera_rules::{AnyPosition, Move, MoveKind, Position, RuleOptions, Variant};
use chimera_tui::{ui, App, Config};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

pub fn config(variant: &str) -> Config {
    let v: Variant = variant.parse().expect("variant");
    let mut c = Config::new(v);
    c.hot_seat = true;
    c
}

pub fn app(variant: &str) -> App {
    App::new(config(variant))
}

pub fn app_fen(variant: &str, fen: &str) -> App {
    let mut c = config(variant);
    c.start = Some(AnyPosition::from_fen(c.variant, fen, &RuleOptions::default()).expect("FEN"));
    App::new(c)
}

pub fn key(app: &mut App, code: KeyCode) {
    app.handle_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

pub fn keys(app: &mut App, codes: &[KeyCode]) {
    for &c in codes {
        key(app, c);
    }
}

/// Types text on the command line (opened with ':') and presses Enter.
pub fn type_line(app: &mut App, text: &str) {
    key(app, KeyCode::Char(':'));
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
    key(app, KeyCode::Enter);
}

pub fn click(app: &mut App, x: u16, y: u16) {
    press(app, x, y);
    release(app, x, y);
}

fn mouse(app: &mut App, kind: MouseEventKind, x: u16, y: u16) {
    app.handle_event(Event::Mouse(MouseEvent { kind, column: x, row: y, modifiers: KeyModifiers::NONE }));
}

pub fn press(app: &mut App, x: u16, y: u16) {
    mouse(app, MouseEventKind::Down(MouseButton::Left), x, y);
}

pub fn release(app: &mut App, x: u16, y: u16) {
    mouse(app, MouseEventKind::Up(MouseButton::Left), x, y);
}

/// Plays moves given as UCI or SAN through the command line.
pub fn play(app: &mut App, moves: &[&str]) {
    for m in moves {
        let before = app.session.sans.len();
        type_line(app, m);
        assert_eq!(app.session.sans.len(), before + 1, "move {m} was not played: {}", app.message);
    }
}

/// The first legal move matching `f`.
pub fn find(app: &App, f: impl Fn(&Move) -> bool) -> Move {
    app.position().legal_move_list().iter().copied().find(|m| f(m)).expect("such a move")
}

pub fn is_kind(m: &Move, k: fn(MoveKind) -> bool) -> bool {
    k(m.kind)
}

/// Draws the app on a `w`×`h` TestBackend and returns the screen as text.
pub fn screen(app: &mut App, w: u16, h: u16) -> String {
    app.size = (w, h);
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| ui::render(f, app)).expect("draw");
    buffer_text(t.backend().buffer())
}

pub fn buffer_text(buf: &ratatui::buffer::Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        for x in 0..buf.area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The style of the cell under a square's piece.
pub fn square_style(app: &mut App, w: u16, h: u16, sq: chimera_rules::Square) -> ratatui::style::Style {
    app.size = (w, h);
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| ui::render(f, app)).expect("draw");
    let geo = ui::geometry(ratatui::layout::Rect::new(0, 0, w, h), app);
    let (x, y) = geo.square_cell(sq, app.flipped);
    t.backend().buffer()[(x + geo.sq_w / 2, y + geo.sq_h / 2)].style()
}

/// The screen cell at the middle of a square (for mouse clicks).
pub fn square_center(app: &App, w: u16, h: u16, sq: chimera_rules::Square) -> (u16, u16) {
    let geo = ui::geometry(ratatui::layout::Rect::new(0, 0, w, h), app);
    let (x, y) = geo.square_cell(sq, app.flipped);
    (x + geo.sq_w / 2, y + geo.sq_h / 2)
}

pub fn sq(s: &str) -> chimera_rules::Square {
    chimera_rules::Square::parse(s).expect("square")
}
