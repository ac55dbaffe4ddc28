//! Drawing: the board, the panels, the choosers. [`geometry`] places
//! everything for a terminal size; [`render`] draws it and the mouse handler
//! maps clicks back with the same geometry.

use crate::app::{cap, App, Selection};
use chimera_engine::Score;
use chimera_rules::{Color, File, Piece, Position, Rank, Role, Square};
use ratatui::layout::{Constraint, Layout, Position as Pos, Rect};
use ratatui::style::{Color as C, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

const LIGHT: C = C::Rgb(190, 160, 120);
const DARK: C = C::Rgb(140, 105, 75);
const LIGHT_LAST: C = C::Rgb(205, 195, 105);
const DARK_LAST: C = C::Rgb(165, 150, 60);
const SELECTED: C = C::Rgb(100, 145, 190);
const TARGET: C = C::Rgb(120, 170, 110);
const CHECK: C = C::Rgb(215, 70, 60);
const WHITE_PIECE: C = C::Rgb(255, 255, 255);
const BLACK_PIECE: C = C::Rgb(0, 0, 0);
const RING: C = C::Rgb(255, 215, 0);

/// Where everything goes on a screen of a given size.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Top-left corner of the top-left square.
    pub origin: (u16, u16),
    pub sq_w: u16,
    pub sq_h: u16,
    pub board: Rect,
    pub game: Option<Rect>,
    pub variant: Option<Rect>,
    pub engine: Option<Rect>,
    pub moves: Option<Rect>,
    pub status: Rect,
    pub input: Rect,
    pub chooser: Option<Rect>,
    /// Clickable reserve pieces: (x, y, role).
    pub reserves: Vec<(u16, u16, Role)>,
}

impl Geometry {
    /// The square under a screen cell.
    pub fn square_at(&self, x: u16, y: u16, flipped: bool) -> Option<Square> {
        let (ox, oy) = self.origin;
        if x < ox || y < oy {
            return None;
        }
        let col = (x - ox) / self.sq_w;
        let row = (y - oy) / self.sq_h;
        if col >= 8 || row >= 8 {
            return None;
        }
        Some(square_of(col, row, flipped))
    }

    /// The screen cell (top-left) of a square.
    pub fn square_cell(&self, sq: Square, flipped: bool) -> (u16, u16) {
        let (col, row) = col_row(sq, flipped);
        (self.origin.0 + col * self.sq_w, self.origin.1 + row * self.sq_h)
    }

    /// The chooser option under a screen cell.
    pub fn chooser_option_at(&self, x: u16, y: u16) -> Option<usize> {
        let r = self.chooser?;
        if x > r.x && x + 1 < r.x + r.width && y > r.y && y + 1 < r.y + r.height {
            Some((y - r.y - 1) as usize)
        } else {
            None
        }
    }

    /// The reserve piece under a screen cell.
    pub fn reserve_at(&self, x: u16, y: u16) -> Option<Role> {
        self.reserves.iter().find(|(rx, ry, _)| *rx == x && *ry == y).map(|r| r.2)
    }
}

fn square_of(col: u16, row: u16, flipped: bool) -> Square {
    let (f, r) = if flipped { (7 - col, row) } else { (col, 7 - row) };
    Square::from_coords(File::new(f as u32), Rank::new(r as u32))
}

fn col_row(sq: Square, flipped: bool) -> (u16, u16) {
    let f = sq.file().index() as u16;
    let r = sq.rank().index() as u16;
    if flipped {
        (7 - f, r)
    } else {
        (f, 7 - r)
    }
}

/// Lays out a screen of `area`.
pub fn geometry(area: Rect, app: &App) -> Geometry {
    let main_h = area.height.saturating_sub(2);
    let status = Rect::new(area.x, area.y + main_h, area.width, 1.min(area.height));
    let input = Rect::new(area.x, area.y + main_h + 1, area.width, if area.height >= 2 { 1 } else { 0 });
    const SIDE_MIN: u16 = 30;
    let mut size = (3u16, 1u16);
    // Bigger squares only while the panels keep room for their text.
    for (w, h, side_min) in [(7u16, 3u16, 44u16), (5, 2, 36), (3, 1, SIDE_MIN)] {
        let bw = 2 + 8 * w + 1;
        let bh = 8 * h + 1;
        if bw + side_min <= area.width && bh <= main_h {
            size = (w, h);
            break;
        }
    }
    let (sq_w, sq_h) = size;
    let board_w = (2 + 8 * sq_w + 1).min(area.width);
    let board_h = (8 * sq_h + 1).min(main_h);
    let board = Rect::new(area.x, area.y, board_w, board_h);
    let origin = (area.x + 2, area.y);
    let side_w = area.width.saturating_sub(board_w);
    let side = if side_w >= SIDE_MIN { Some(Rect::new(area.x + board_w, area.y, side_w, main_h)) } else { None };
    // The move list goes under the board when there is room there.
    let below = Rect::new(area.x, area.y + board_h, board_w, main_h.saturating_sub(board_h));
    let moves_below = below.height >= 4;
    let mut game = None;
    let mut variant = None;
    let mut engine = None;
    let mut moves = if moves_below { Some(below) } else { None };
    let var_lines = variant_lines(app);
    if let Some(side) = side {
        let mut cons = vec![Constraint::Length(5)];
        let inner_w = side.width.saturating_sub(2).max(1) as usize;
        let wrapped: usize = var_lines
            .iter()
            .map(|l| l.iter().map(|s| s.text.chars().count()).sum::<usize>().max(1).div_ceil(inner_w))
            .sum();
        let var_h = if var_lines.is_empty() { 0 } else { wrapped as u16 + 2 };
        cons.push(Constraint::Length(var_h));
        let eng_h = if app.session.analysis_on { 5 } else { 0 };
        cons.push(Constraint::Length(eng_h));
        cons.push(Constraint::Min(0));
        let parts = Layout::vertical(cons).split(side);
        game = Some(parts[0]);
        if var_h > 0 {
            variant = Some(parts[1]);
        }
        if eng_h > 0 {
            engine = Some(parts[2]);
        }
        if parts[3].height >= 5 || (!moves_below && parts[3].height >= 3) {
            moves = Some(parts[3]);
        }
    }
    let mut reserves = Vec::new();
    if let Some(vr) = variant {
        for (i, line) in var_lines.iter().enumerate() {
            let y = vr.y + 1 + i as u16;
            let mut x = vr.x + 1;
            for seg in line {
                let w = seg.text.chars().count() as u16;
                if let Some(role) = seg.role {
                    if y + 1 < vr.y + vr.height {
                        for dx in 0..w {
                            reserves.push((x + dx, y, role));
                        }
                    }
                }
                x += w;
            }
        }
    }
    let chooser = app.chooser.as_ref().map(|ch| {
        let w =
            ch.options.iter().map(|(l, _)| l.chars().count() + 4).chain([ch.title.chars().count()]).max().unwrap_or(10)
                as u16
                + 4;
        let h = ch.options.len() as u16 + 2;
        centered(board.union(Rect::new(area.x, area.y, board_w, main_h)), w, h, area)
    });
    Geometry { origin, sq_w, sq_h, board, game, variant, engine, moves, status, input, chooser, reserves }
}

fn centered(over: Rect, w: u16, h: u16, area: Rect) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    let x = (over.x + over.width.saturating_sub(w) / 2).min(area.x + area.width - w);
    let y = (over.y + over.height.saturating_sub(h) / 2).min(area.y + area.height - h);
    Rect::new(x, y, w, h)
}

/// The glyph of a piece: chess figurines (outlined White, solid Black), FEN
/// letters for the Genie and the Clown; FEN letters for all in ASCII mode.
pub fn glyph(p: Piece, ascii: bool) -> char {
    if ascii {
        return p.char();
    }
    let white = p.color == Color::White;
    match p.role {
        Role::King => {
            if white {
                '♔'
            } else {
                '♚'
            }
        }
        Role::Queen => {
            if white {
                '♕'
            } else {
                '♛'
            }
        }
        Role::Rook => {
            if white {
                '♖'
            } else {
                '♜'
            }
        }
        Role::Bishop => {
            if white {
                '♗'
            } else {
                '♝'
            }
        }
        Role::Knight => {
            if white {
                '♘'
            } else {
                '♞'
            }
        }
        Role::Pawn => {
            if white {
                '♙'
            } else {
                '♟'
            }
        }
        Role::Genie | Role::Clown => p.char(),
    }
}

/// A piece of text in a panel line; `role` makes it a clickable reserve piece.
pub struct Seg {
    pub text: String,
    pub style: Style,
    pub role: Option<Role>,
}

fn seg(text: impl Into<String>) -> Seg {
    Seg { text: text.into(), style: Style::default(), role: None }
}

/// The variant's own state, one line each: reserves and hands as rows of
/// pieces, flip rights, rings with level and power.
pub fn variant_lines(app: &App) -> Vec<Vec<Seg>> {
    use chimera_rules::Describe;
    let ascii = app.config.ascii;
    let pos = app.position();
    let mut out: Vec<Vec<Seg>> = Vec::new();
    // The pieces beside the board, as the variant's module names them; the
    // side to move's are picked with a click or 'p'.
    if let Some(name) = pos.variant().info().pocket {
        for color in [Color::White, Color::Black] {
            let mut line = vec![seg(format!("{} · {}: ", name, cap(color.name())))];
            let counts = pos.pocket(color);
            for &(role, n) in &counts {
                let g: String = std::iter::repeat_n(glyph(Piece::new(color, role), ascii), n as usize).collect();
                line.push(Seg {
                    text: g,
                    style: Style::default().add_modifier(Modifier::BOLD),
                    role: (color == pos.turn()).then_some(role),
                });
                line.push(seg(" "));
            }
            if counts.is_empty() {
                line.push(seg("(empty)"));
            }
            out.push(line);
        }
    }
    // The variant's state in its own module's words (the web shows the same).
    out.extend(pos.state_lines().into_iter().map(|l| vec![seg(l)]));
    if pos.variant().info().pocket.is_some() && !pos.legal_move_list().iter().all(|m| !m.is_drop()) {
        out.push(vec![seg("'p' or a click picks a piece; Enter on a square places")]);
    }
    out
}

fn fmt_clock(d: std::time::Duration) -> String {
    let ms = d.as_millis();
    let s = ms / 1000;
    if s < 20 {
        format!("{}:{:02}.{}", s / 60, s % 60, (ms % 1000) / 100)
    } else if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// A score for White as text: `+0.35`, `#3`, `#-2`.
pub fn fmt_score(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
        Score::Mate(n) => format!("#{n}"),
    }
}

/// Draws the whole screen.
pub fn render(f: &mut Frame, app: &App) {
    let area = f.area();
    let geo = geometry(area, app);
    let buf = f.buffer_mut();
    draw_board(buf, &geo, app);
    if let Some(r) = geo.game {
        draw_game(f, r, app);
    }
    if let Some(r) = geo.variant {
        let ascii = app.config.ascii;
        let lines: Vec<Line> = variant_lines(app)
            .into_iter()
            .map(|l| Line::from(l.into_iter().map(|s| Span::styled(s.text, s.style)).collect::<Vec<_>>()))
            .collect();
        let title = app.position().variant().name().to_string();
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block(&title, ascii)), r);
    }
    if let Some(r) = geo.engine {
        draw_engine(f, r, app);
    }
    if let Some(r) = geo.moves {
        match app.lesson_text() {
            Some((title, text)) => {
                let lines: Vec<Line> = text
                    .into_iter()
                    .enumerate()
                    .map(|(i, t)| {
                        if i == 1 {
                            Line::from(Span::styled(t, Style::default().add_modifier(Modifier::BOLD)))
                        } else {
                            Line::from(t)
                        }
                    })
                    .collect();
                f.render_widget(
                    Paragraph::new(lines).wrap(Wrap { trim: false }).block(block(&title, app.config.ascii)),
                    r,
                );
            }
            None => draw_moves(f, r, app),
        }
    }
    draw_bottom(f, &geo, app);
    if let (Some(ch), Some(r)) = (&app.chooser, geo.chooser) {
        f.render_widget(Clear, r);
        let lines: Vec<Line> = ch
            .options
            .iter()
            .enumerate()
            .map(|(i, (label, _))| {
                let text = format!("{} {label}", i + 1);
                if i == ch.index {
                    Line::from(Span::styled(
                        format!("{} {text}", if app.config.ascii { ">" } else { "▶" }),
                        Style::default().add_modifier(Modifier::REVERSED),
                    ))
                } else {
                    Line::from(format!("  {text}"))
                }
            })
            .collect();
        f.render_widget(Paragraph::new(lines).block(block(&ch.title, app.config.ascii)), r);
    }
    if app.help {
        draw_help(f, area, app);
    }
    if app.config.ascii {
        asciify(f.buffer_mut());
    }
}

/// Replaces what is left of non-ASCII text (punctuation in messages and
/// titles) so that an `--ascii` screen is plain ASCII throughout.
fn asciify(buf: &mut ratatui::buffer::Buffer) {
    let area = buf.area;
    for y in area.y..area.y + area.height {
        for x in area.x..area.x + area.width {
            let cell = &mut buf[(x, y)];
            if cell.symbol().is_ascii() {
                continue;
            }
            let rep = match cell.symbol() {
                "·" | "—" | "–" | "─" => "-",
                "…" => ".",
                "▶" => ">",
                "°" => "o",
                "•" => "*",
                "█" => "_",
                "│" => "|",
                "╭" | "╮" | "╰" | "╯" | "┌" | "┐" | "└" | "┘" => "+",
                _ => "?",
            };
            cell.set_symbol(rep);
        }
    }
}

fn block(title: &str, ascii: bool) -> Block<'static> {
    let b = Block::default().borders(Borders::ALL).title(format!(" {title} "));
    if ascii {
        b.border_set(ratatui::symbols::border::Set {
            top_left: "+",
            top_right: "+",
            bottom_left: "+",
            bottom_right: "+",
            vertical_left: "|",
            vertical_right: "|",
            horizontal_top: "-",
            horizontal_bottom: "-",
        })
    } else {
        b.border_type(BorderType::Rounded)
    }
}

fn draw_board(buf: &mut ratatui::buffer::Buffer, geo: &Geometry, app: &App) {
    let area = buf.area;
    let put = |buf: &mut ratatui::buffer::Buffer, x: u16, y: u16, s: &str, st: Style| {
        if x < area.x + area.width && y < area.y + area.height {
            buf.set_string(x, y, s, st);
        }
    };
    let color = !app.config.monochrome;
    let ascii = app.config.ascii;
    let pos = app.position();
    let board = pos.board();
    let last = app.session.game.moves().last().copied();
    let check_sq = if pos.is_check() { board.king_of(pos.turn()) } else { None };
    let targets = app.targets();
    let selected = match app.selected {
        Some(Selection::Square(s)) => Some(s),
        _ => None,
    };
    let rings: Vec<Square> = match pos {
        chimera_rules::AnyPosition::MagicRing(p) => vec![p.ring(Color::White).0, p.ring(Color::Black).0],
        _ => Vec::new(),
    };
    let label = Style::default().fg(C::Gray);
    for row in 0..8u16 {
        for col in 0..8u16 {
            let sq = square_of(col, row, app.flipped);
            let (x, y) = geo.square_cell(sq, app.flipped);
            let light = !sq.is_dark();
            let is_last = last.is_some_and(|m| m.to == sq || (!m.is_drop() && m.from == sq));
            let mut bg = match (light, is_last) {
                (true, false) => LIGHT,
                (false, false) => DARK,
                (true, true) => LIGHT_LAST,
                (false, true) => DARK_LAST,
            };
            if selected == Some(sq) {
                bg = SELECTED;
            }
            if check_sq == Some(sq) {
                bg = CHECK;
            }
            let piece = board.piece_at(sq);
            let is_target = targets.contains(&sq);
            if is_target && piece.is_some() {
                bg = TARGET;
            }
            let base = if color { Style::default().bg(bg) } else { Style::default() };
            for dy in 0..geo.sq_h {
                put(buf, x, y + dy, &" ".repeat(geo.sq_w as usize), base);
            }
            let mid_y = y + geo.sq_h / 2;
            let mid_x = x + geo.sq_w / 2;
            let (mut l, mut r) = (' ', ' ');
            let mut mark_style =
                if color { base.fg(C::Black).add_modifier(Modifier::BOLD) } else { base.add_modifier(Modifier::BOLD) };
            if rings.contains(&sq) {
                r = if ascii { 'o' } else { '°' };
                if color {
                    mark_style = mark_style.fg(RING);
                }
            }
            if check_sq == Some(sq) && !color {
                (l, r) = ('!', '!');
            }
            if is_target && piece.is_some() {
                (l, r) = ('(', ')');
            }
            if selected == Some(sq) {
                (l, r) = ('<', '>');
            }
            if app.cursor == sq {
                (l, r) = ('[', ']');
                if color {
                    mark_style = base.fg(C::Rgb(20, 40, 140)).add_modifier(Modifier::BOLD);
                }
            }
            put(buf, x, mid_y, &l.to_string(), mark_style);
            put(buf, x + geo.sq_w - 1, mid_y, &r.to_string(), mark_style);
            match piece {
                Some(p) => {
                    let mut st = base.add_modifier(Modifier::BOLD);
                    if color {
                        st = st.fg(if p.color == Color::White { WHITE_PIECE } else { BLACK_PIECE });
                    }
                    put(buf, mid_x, mid_y, &glyph(p, ascii).to_string(), st);
                }
                None if is_target => {
                    let st = if color { base.fg(C::Rgb(30, 80, 30)).add_modifier(Modifier::BOLD) } else { base };
                    put(buf, mid_x, mid_y, if ascii { "*" } else { "•" }, st);
                }
                None if !color && !light => put(buf, mid_x, mid_y, if ascii { "." } else { "·" }, base),
                None => {}
            }
        }
        // Rank label.
        let sq = square_of(0, row, app.flipped);
        let y = geo.origin.1 + row * geo.sq_h + geo.sq_h / 2;
        put(buf, geo.origin.0 - 2, y, &sq.rank().char().to_string(), label);
    }
    let y = geo.origin.1 + 8 * geo.sq_h;
    for col in 0..8u16 {
        let sq = square_of(col, 0, app.flipped);
        put(buf, geo.origin.0 + col * geo.sq_w + geo.sq_w / 2, y, &sq.file().char().to_string(), label);
    }
}

fn draw_game(f: &mut Frame, r: Rect, app: &App) {
    let ascii = app.config.ascii;
    let pos = app.position();
    let mut lines = Vec::new();
    for c in [Color::Black, Color::White] {
        let c = if app.flipped { !c } else { c };
        let to_move = app.session.end.is_none() && pos.turn() == c;
        let marker = match (to_move, ascii) {
            (true, false) => "▶ ",
            (true, true) => "> ",
            _ => "  ",
        };
        let clock = app.time_left(c).map(fmt_clock).unwrap_or_default();
        let name = if app.config.hot_seat {
            format!("{marker}{}", cap(c.name()))
        } else {
            format!("{marker}{}: {}", cap(c.name()), app.player_name(c))
        };
        let width = r.width.saturating_sub(2) as usize;
        let pad = width.saturating_sub(name.chars().count() + clock.chars().count());
        let mut st = Style::default();
        if to_move {
            st = st.add_modifier(Modifier::BOLD);
        }
        lines.push(Line::from(vec![Span::styled(name, st), Span::raw(" ".repeat(pad)), Span::styled(clock, st)]));
    }
    let status = if let Some(e) = &app.session.end {
        Span::styled(format!("Game over: {}", e.text), Style::default().add_modifier(Modifier::BOLD))
    } else if app.engine_thinking() {
        Span::raw("Chimera is thinking…")
    } else if let Some(c) = app.session.draw_offer {
        if app.session.online() && c == app.config.human {
            Span::raw("Your draw offer stands")
        } else {
            Span::raw(format!("{} offers a draw ('d' accepts)", cap(c.name())))
        }
    } else {
        let mut s = format!("{} to move", cap(pos.turn().name()));
        if pos.is_check() {
            s.push_str(" — check!");
        }
        Span::raw(s)
    };
    lines.push(Line::from(status));
    let title = format!("Chimera · move {}", pos.fullmoves());
    f.render_widget(Paragraph::new(lines).block(block(&title, ascii)), r);
}

fn numbered_line(app: &App, sans: &[String]) -> String {
    let pos = app.position();
    let mut num = pos.fullmoves();
    let mut white = pos.turn() == Color::White;
    let mut out = Vec::new();
    for (i, s) in sans.iter().enumerate() {
        if white {
            out.push(format!("{num}. {s}"));
        } else if i == 0 {
            out.push(format!("{num}... {s}"));
        } else {
            out.push(s.clone());
        }
        if !white {
            num += 1;
        }
        white = !white;
    }
    out.join(" ")
}

fn draw_engine(f: &mut Frame, r: Rect, app: &App) {
    let mut lines = Vec::new();
    match &app.session.analysis {
        Some(a) => {
            let nodes = if a.nodes >= 1_000_000 {
                format!("{:.1}M", a.nodes as f64 / 1e6)
            } else if a.nodes >= 1000 {
                format!("{}k", a.nodes / 1000)
            } else {
                a.nodes.to_string()
            };
            lines.push(Line::from(vec![
                Span::styled(fmt_score(a.score), Style::default().add_modifier(Modifier::BOLD)),
                Span::raw(format!("  depth {}  {nodes} nodes", a.depth)),
            ]));
            lines.push(Line::from(numbered_line(app, &a.pv_san)));
        }
        None if app.session.end.is_some() => lines.push(Line::from("(the game is over)")),
        None => lines.push(Line::from("thinking…")),
    }
    f.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }).block(block("Engine ('a' hides)", app.config.ascii)),
        r,
    );
}

fn draw_moves(f: &mut Frame, r: Rect, app: &App) {
    let start = app.session.game.start();
    let mut rows: Vec<(u32, String, String)> = Vec::new();
    let mut num = start.fullmoves();
    let mut white = start.turn() == Color::White;
    for s in &app.session.sans {
        if white || rows.is_empty() {
            rows.push((num, String::new(), String::new()));
        }
        let row = rows.last_mut().expect("a row");
        if white {
            row.1 = s.clone();
        } else {
            if row.1.is_empty() {
                row.1 = "…".into();
            }
            row.2 = s.clone();
            num += 1;
        }
        white = !white;
    }
    let inner_h = r.height.saturating_sub(2) as usize;
    let cols = if r.width >= 44 { 2 } else { 1 };
    let per_col = inner_h.max(1);
    let visible = per_col * cols;
    let first = rows.len().saturating_sub(visible);
    let shown = &rows[first.min(rows.len())..];
    let col_w = (r.width.saturating_sub(2) / cols as u16) as usize;
    let mut lines: Vec<Line> = Vec::new();
    let last_idx = app.session.sans.len();
    for i in 0..per_col {
        let mut spans = Vec::new();
        for c in 0..cols {
            let Some((n, w, b)) = shown.get(c * per_col + i) else { continue };
            let ply_w =
                2 * (*n as usize - start.fullmoves() as usize) + if start.turn() == Color::White { 1 } else { 0 };
            let hl = |ply: usize, s: &str| {
                if ply == last_idx {
                    Span::styled(format!("{s:<8}"), Style::default().add_modifier(Modifier::REVERSED))
                } else {
                    Span::raw(format!("{s:<8}"))
                }
            };
            let num = format!("{n:>3}. ");
            let used = num.len() + 16;
            spans.push(Span::raw(num));
            spans.push(hl(ply_w, w));
            spans.push(hl(ply_w + 1, b));
            if c + 1 < cols {
                spans.push(Span::raw(" ".repeat(col_w.saturating_sub(used))));
            }
        }
        if !spans.is_empty() {
            lines.push(Line::from(spans));
        }
    }
    if rows.is_empty() {
        lines.push(Line::from("(no moves yet)"));
    }
    f.render_widget(Paragraph::new(lines).block(block("Moves", app.config.ascii)), r);
}

fn draw_bottom(f: &mut Frame, geo: &Geometry, app: &App) {
    let ascii = app.config.ascii;
    if let Some(text) = &app.input {
        let cands = app.completions(text);
        let shown: Vec<&str> = cands.iter().take(24).map(|s| s.as_str()).collect();
        let more = if cands.len() > shown.len() { format!(" (+{})", cands.len() - shown.len()) } else { String::new() };
        let status = if text.is_empty() {
            format!("{} legal moves; Tab completes", cands.len())
        } else if cands.is_empty() {
            "no match".to_string()
        } else {
            format!("{}{more}", shown.join(" "))
        };
        f.render_widget(Paragraph::new(Line::from(Span::styled(status, Style::default().fg(C::Cyan)))), geo.status);
        let line = format!("move> {text}");
        f.render_widget(
            Paragraph::new(Line::from(vec![
                Span::raw(line.clone()),
                Span::styled(if ascii { "_" } else { "█" }, Style::default()),
            ])),
            geo.input,
        );
        let cx = geo.input.x + line.chars().count() as u16;
        if cx < geo.input.x + geo.input.width {
            f.set_cursor_position(Pos::new(cx, geo.input.y));
        }
    } else {
        f.render_widget(
            Paragraph::new(Line::from(Span::styled(app.message.clone(), Style::default().fg(C::Yellow)))),
            geo.status,
        );
        let hint = if app.session.online() {
            "Enter select · : type a move · r resign · d draw · f flip · ? keys · q quit"
        } else {
            "Enter select · : type a move · u undo · n new · f flip · a eval · ? keys · q quit"
        };
        f.render_widget(Paragraph::new(Line::from(Span::styled(hint, Style::default().fg(C::DarkGray)))), geo.input);
    }
}

/// The keys, shown by `?`.
pub const HELP: &[(&str, &str)] = &[
    ("arrows / hjkl", "move the cursor"),
    ("Enter / Space", "select a piece, then its target"),
    ("mouse", "click or drag a piece; click a reserve piece"),
    ("p", "pick the next piece to place (reserve/hand)"),
    ("Esc", "clear the selection / close"),
    (": or Tab", "type a move (SAN or UCI) or a command"),
    ("u / Backspace", "take back"),
    ("n", "new game (:new VARIANT for another)"),
    ("f", "flip the board"),
    ("r / d", "resign / offer or accept a draw"),
    ("s / o", "save PGN / load a PGN or FEN file"),
    ("+ / -", "engine level up / down (1-8)"),
    ("a", "show or hide the engine's eval and line"),
    ("q / Ctrl-C", "quit"),
];

fn draw_help(f: &mut Frame, area: Rect, app: &App) {
    let mut lines: Vec<Line> = HELP
        .iter()
        .map(|(k, v)| {
            Line::from(vec![
                Span::styled(format!("{k:<15}"), Style::default().add_modifier(Modifier::BOLD)),
                Span::raw(*v),
            ])
        })
        .collect();
    lines.push(Line::from("commands: new flip undo resign draw save load fen level"));
    lines.push(Line::from("any key closes this"));
    let w = 64.min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = centered(area, w, h, area);
    f.render_widget(Clear, r);
    f.render_widget(Paragraph::new(lines).block(block("Keys", app.config.ascii)), r);
}
