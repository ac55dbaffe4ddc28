//! The view: the board's cursor and selection, choosers, the command line,
//! the message line, and everything a key or a click does. The game itself
//! (moves, clocks, draws, take-backs, the engine's turns) is the
//! [`Session`]'s. Drawing is in `ui`; nothing here touches the terminal, so
//! tests drive an [`App`] with plain events.

use crate::remote::Remote;
pub use crate::session::{pv_to_san, Analysis, Clocks, DrawOutcome, GameEnd, Session};
use crate::ui;
use chimera_rules::{pgn, san, AnyPosition, Color, Move, MoveKind, Position, Role, RuleOptions, Square, Variant};
use chimera_session::Level;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use std::time::{Duration, Instant};

/// How `chimera play` was asked to start.
#[derive(Clone, Debug)]
pub struct Config {
    pub variant: Variant,
    pub rule_options: RuleOptions,
    /// Start from this position instead of the variant's start.
    pub start: Option<AnyPosition>,
    /// The side the person at the keyboard plays (ignored in hot-seat).
    pub human: Color,
    /// Both sides are played from this terminal.
    pub hot_seat: bool,
    /// Engine level 1-8.
    pub level: u8,
    /// Initial time and increment for each side.
    pub clock: Option<(Duration, Duration)>,
    /// Letters and ASCII marks only (no chess glyphs, no box drawing).
    pub ascii: bool,
    /// No colours (marks only): `--no-color` or `NO_COLOR`.
    pub monochrome: bool,
    /// Where `save` writes when given no file name.
    pub pgn_path: String,
}

impl Config {
    pub fn new(variant: Variant) -> Config {
        Config {
            variant,
            rule_options: RuleOptions::default(),
            start: None,
            human: Color::White,
            hot_seat: false,
            level: 4,
            clock: None,
            ascii: false,
            monochrome: false,
            pgn_path: "chimera.pgn".into(),
        }
    }
}

/// Reads a clock like `5+3` (minutes + seconds of increment), `90s+0`,
/// `1.5+2` or `10` (no increment).
pub fn parse_clock(s: &str) -> Result<(Duration, Duration), String> {
    let bad = || format!("bad clock '{s}': expected MINUTES+INCREMENT_SECONDS, like 5+3");
    let (base, inc) = match s.split_once('+') {
        Some((b, i)) => (b.trim(), i.trim()),
        None => (s.trim(), "0"),
    };
    let base = match base.strip_suffix('s') {
        Some(secs) => secs.parse::<f64>().map_err(|_| bad())?,
        None => base.parse::<f64>().map_err(|_| bad())? * 60.0,
    };
    let inc = inc.parse::<f64>().map_err(|_| bad())?;
    if !(base.is_finite() && inc.is_finite()) || base <= 0.0 || inc < 0.0 || base > 86_400.0 || inc > 3_600.0 {
        return Err(bad());
    }
    Ok((Duration::from_secs_f64(base), Duration::from_secs_f64(inc)))
}

/// What is selected on the board: a piece, or a piece from the reserve/hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    Square(Square),
    Drop(Role),
}

/// What a chooser's line does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Play(Move),
    NewGame,
    Resign,
    AcceptDraw,
    DeclineDraw,
    Quit,
    Cancel,
}

/// A small menu over the board: promotion piece, flip, declaration, which
/// ring, which piece to place, or a yes/no question.
#[derive(Clone, Debug)]
pub struct Chooser {
    pub title: String,
    pub options: Vec<(String, Action)>,
    pub index: usize,
}

/// The player: the session and its view.
pub struct App {
    pub config: Config,
    /// The game, its clocks and the engine.
    pub session: Session,
    pub cursor: Square,
    pub selected: Option<Selection>,
    /// Black at the bottom.
    pub flipped: bool,
    pub chooser: Option<Chooser>,
    pub help: bool,
    /// The command line while it is open.
    pub input: Option<String>,
    pub message: String,
    pub quit: bool,
    /// The terminal's size at the last draw (mouse clicks are mapped with it).
    pub size: (u16, u16),
    /// Lesson mode (`chimera learn`): moves go to the lesson's judge.
    pub lesson: Option<crate::lesson::LessonRun>,
}

const COMMANDS: [&str; 12] =
    ["new", "flip", "undo", "resign", "draw", "save", "load", "fen", "level", "analysis", "help", "quit"];

impl App {
    pub fn new(config: Config) -> App {
        let flipped = !config.hot_seat && config.human == Color::Black;
        let mut app = App {
            session: Session::new(&config),
            cursor: Square::E2,
            selected: None,
            flipped,
            chooser: None,
            help: false,
            input: None,
            message: String::new(),
            quit: false,
            size: (80, 24),
            lesson: None,
            config,
        };
        app.cursor = app.home_square();
        app.message = app.greeting();
        app
    }

    /// A game on a server: `config` holds the game as the server started
    /// it (variant, start, the side played here, the clock); `remote`
    /// links it to the server.
    pub fn online(config: Config, remote: Remote) -> App {
        let config = Config { hot_seat: false, ..config };
        let mut app = App::new(config);
        app.session.attach(remote);
        app.message = app.greeting();
        app
    }

    fn greeting(&self) -> String {
        let who = if self.session.online() {
            format!("online: you play {} against {}", self.config.human.name(), self.player_name(!self.config.human))
        } else if self.config.hot_seat {
            "hot-seat".to_string()
        } else {
            format!("you play {}", self.config.human.name())
        };
        format!("{} — {who}. '?' shows the keys.", self.variant().name())
    }

    fn home_square(&self) -> Square {
        let c = self.bottom_color();
        Square::from_coords(
            chimera_rules::File::E,
            if c == Color::White { chimera_rules::Rank::new(1) } else { chimera_rules::Rank::new(6) },
        )
    }

    /// The colour drawn at the bottom of the board.
    pub fn bottom_color(&self) -> Color {
        if self.flipped {
            Color::Black
        } else {
            Color::White
        }
    }

    pub fn position(&self) -> &AnyPosition {
        self.session.position()
    }

    pub fn variant(&self) -> Variant {
        self.session.variant()
    }

    /// Whether the engine plays `c`.
    pub fn engine_plays(&self, c: Color) -> bool {
        self.session.engine_plays(c)
    }

    /// Whether the person at the keyboard may move now.
    pub fn human_to_move(&self) -> bool {
        self.session.human_to_move()
    }

    /// Whether the engine is searching for its move.
    pub fn engine_thinking(&self) -> bool {
        self.session.engine_thinking()
    }

    /// The player's name for a side.
    pub fn player_name(&self, c: Color) -> String {
        self.session.player_name(c)
    }

    /// Time left for `c` now.
    pub fn time_left(&self, c: Color) -> Option<Duration> {
        self.session.time_left(c)
    }

    /// The time the view last looked at (clocks are drawn for this instant).
    pub fn now(&self) -> Instant {
        self.session.now
    }

    /// Sets the time (an event came in).
    pub fn set_now(&mut self, now: Instant) {
        self.session.now = now;
    }

    /// Replaces the game with a fresh one from `start` after `moves`.
    pub fn new_game_from(&mut self, start: AnyPosition, moves: &[Move]) {
        self.selected = None;
        self.chooser = None;
        self.session.new_game_from(start, moves);
    }

    /// A new game of the same variant from its usual start.
    pub fn new_game(&mut self) {
        if self.refuse_online() {
            return;
        }
        let start = AnyPosition::new(self.variant(), &self.config.rule_options);
        self.new_game_from(start, &[]);
        self.cursor = self.home_square();
        self.message = format!("New game: {}.", self.variant().name());
    }

    /// Online, the board is the server's game: no new game, no loading.
    /// True (with the message said) if that is so.
    fn refuse_online(&mut self) -> bool {
        if self.session.online() {
            self.message = "An online game: no new game or position here ('q' quits; the game goes on).".into();
        }
        self.session.online()
    }

    /// Why the person may not move now (the game is over, or it is the
    /// other side's turn).
    fn not_your_turn(&self) -> String {
        match &self.session.end {
            Some(e) if self.session.online() => format!("The game is over: {}", e.text),
            Some(e) => format!("The game is over: {} ('n' for a new game).", e.text),
            None if self.session.online() => {
                format!("Not your turn: {} is to move.", self.player_name(self.position().turn()))
            }
            None => "Wait: the engine is thinking.".into(),
        }
    }

    /// The person plays `m`: the message line says so (or why not).
    pub fn play_human(&mut self, m: Move) {
        if self.lesson.is_some() {
            self.lesson_move(m);
            return;
        }
        if !self.human_to_move() {
            self.message = self.not_your_turn();
            return;
        }
        match self.session.play_announced(m, None) {
            Ok(text) => {
                self.selected = None;
                self.chooser = None;
                self.message = text;
            }
            Err(e) => self.message = e,
        }
    }

    /// Takes back as the house rules say (against the engine: your move
    /// and its reply).
    pub fn take_back(&mut self) {
        match self.session.take_back() {
            Ok(n) => {
                self.selected = None;
                self.chooser = None;
                self.message = format!("Took back {n} move{}.", if n == 1 { "" } else { "s" });
            }
            Err(e) => self.message = format!("No take-back: {e}."),
        }
    }

    pub fn resign(&mut self) {
        self.message = self.session.resign().unwrap_or_else(|e| e);
    }

    /// Offers a draw, or accepts the opponent's standing offer; the engine
    /// answers by the house rules, the other side in hot-seat is asked.
    pub fn offer_draw(&mut self) {
        match self.session.offer_draw() {
            Err(e) => self.message = e,
            Ok(DrawOutcome::Agreed) => self.message = "1/2-1/2 (draw agreed)".into(),
            Ok(DrawOutcome::Pending { from }) => {
                let other = !from;
                self.chooser = Some(Chooser {
                    title: format!("{} offers a draw. {}?", cap(from.name()), cap(other.name())),
                    options: vec![
                        ("Accept the draw".into(), Action::AcceptDraw),
                        ("Decline".into(), Action::DeclineDraw),
                    ],
                    index: 0,
                });
            }
            Ok(DrawOutcome::Declined(answer)) => self.message = answer.message().into(),
            Ok(DrawOutcome::Sent { accepting: true }) => self.message = "Accepting the draw…".into(),
            Ok(DrawOutcome::Sent { accepting: false }) => {
                self.message = format!("Draw offered to {}.", self.player_name(!self.config.human))
            }
        }
    }

    /// Sets the engine's level (the house rules' table).
    pub fn set_level(&mut self, level: Level) {
        self.session.set_level(level);
        self.message = format!("Engine level {level}: {}.", level.spec().words);
    }

    pub fn save_pgn(&mut self, path: &str) {
        let text = self.pgn();
        self.message = match std::fs::write(path, text) {
            Ok(()) => format!("Saved the game to {path}."),
            Err(e) => format!("Could not write {path}: {e}"),
        };
    }

    /// The game as PGN.
    pub fn pgn(&self) -> String {
        let result = self.session.end.as_ref().map_or("*", |e| e.result.as_str());
        let tags: Vec<(String, String)> = vec![
            ("Event".into(), "chimera play".into()),
            ("Site".into(), "terminal".into()),
            ("White".into(), self.player_name(Color::White)),
            ("Black".into(), self.player_name(Color::Black)),
        ];
        pgn::write_pgn(&tags, self.session.game.start(), self.session.game.moves(), result)
    }

    /// Loads a PGN file (its first game) or a FEN (a file holding one, or
    /// the text itself) of the current variant.
    pub fn load(&mut self, arg: &str) {
        if self.refuse_online() {
            return;
        }
        let text = match std::fs::read_to_string(arg) {
            Ok(t) => t,
            Err(e) => {
                if arg.contains('/') && arg.split_whitespace().count() >= 2 {
                    arg.to_string() // a FEN typed in
                } else {
                    self.message = format!("Could not read {arg}: {e}");
                    return;
                }
            }
        };
        if text.trim_start().starts_with('[') || text.contains("1.") {
            match pgn::read_pgn(&text).into_iter().next() {
                Some(Ok(g)) => match g.replay() {
                    Ok((start, moves)) => {
                        let n = moves.len();
                        self.new_game_from(start, &moves);
                        self.message = format!("Loaded a {} game of {n} plies.", self.variant().name());
                    }
                    Err(e) => self.message = format!("Could not load: {e}"),
                },
                Some(Err(e)) => self.message = format!("Could not load: {e}"),
                None => self.message = "Could not load: no game in that PGN.".into(),
            }
            return;
        }
        self.load_fen(text.trim());
    }

    pub fn load_fen(&mut self, fen: &str) {
        if self.refuse_online() {
            return;
        }
        match AnyPosition::from_fen(self.variant(), fen, &self.session.rule_options) {
            Ok(p) => {
                self.new_game_from(p, &[]);
                self.message = "Position set.".into();
            }
            Err(e) => self.message = format!("Bad FEN for {}: {e}", self.variant().name()),
        }
    }

    // ----- moves and the board ------------------------------------------

    /// Legal moves of the side to move.
    pub fn legal(&self) -> Vec<Move> {
        if self.session.end.is_some() {
            return Vec::new();
        }
        self.position().legal_move_list().to_vec()
    }

    /// The moves a selection may make, and where each lands.
    pub fn moves_of(&self, sel: Selection) -> Vec<Move> {
        self.legal()
            .into_iter()
            .filter(|m| match sel {
                Selection::Square(sq) => !m.is_drop() && m.from == sq,
                Selection::Drop(r) => matches!(m.kind, MoveKind::Drop(x) | MoveKind::ReEntry(x) if x == r),
            })
            .collect()
    }

    /// Target squares of the current selection.
    pub fn targets(&self) -> Vec<Square> {
        match self.selected {
            Some(sel) => self.moves_of(sel).iter().map(|m| m.to).collect(),
            None => Vec::new(),
        }
    }

    /// The roles the side to move may place (reserve or re-entry), in order.
    pub fn drop_roles(&self) -> Vec<Role> {
        let mut roles: Vec<Role> = Vec::new();
        for m in self.legal() {
            if let MoveKind::Drop(r) | MoveKind::ReEntry(r) = m.kind {
                if !roles.contains(&r) {
                    roles.push(r);
                }
            }
        }
        roles.sort_by_key(|r| std::cmp::Reverse(role_order(*r)));
        roles
    }

    /// Enter (or a click) on a square.
    pub fn activate(&mut self, sq: Square) {
        self.cursor = sq;
        if !self.human_to_move() {
            self.message = match &self.session.end {
                None if !self.session.online() => "The engine is thinking…".into(),
                _ => self.not_your_turn(),
            };
            return;
        }
        if let Some(sel) = self.selected {
            let ms: Vec<Move> = self.moves_of(sel).into_iter().filter(|m| m.to == sq).collect();
            if !ms.is_empty() {
                self.choose(ms);
                return;
            }
            if sel == Selection::Square(sq) {
                self.selected = None;
                self.message.clear();
                return;
            }
        }
        let own = self.position().board().color_at(sq) == Some(self.position().turn());
        if own && !self.moves_of(Selection::Square(sq)).is_empty() {
            self.selected = Some(Selection::Square(sq));
            self.message = self.selection_hint(Selection::Square(sq));
            return;
        }
        let drops: Vec<Move> = self.legal().into_iter().filter(|m| m.is_drop() && m.to == sq).collect();
        if !drops.is_empty() {
            self.selected = None;
            self.choose(drops);
            return;
        }
        self.selected = None;
        self.message = if own {
            "That piece has no legal move.".into()
        } else {
            format!("Select one of your pieces ({} to move).", self.position().turn().name())
        };
    }

    fn selection_hint(&self, sel: Selection) -> String {
        let ms = self.moves_of(sel);
        let mut notes = Vec::new();
        let name = match sel {
            Selection::Square(sq) => {
                let role = self.position().board().role_at(sq).map_or("piece", |r| r.name());
                format!("{} on {sq}", cap(role))
            }
            Selection::Drop(r) => format!("{} to place", cap(r.name())),
        };
        notes.push(format!("{name}: {} move{}", ms.len(), if ms.len() == 1 { "" } else { "s" }));
        if ms.iter().any(|m| m.kind == MoveKind::Flip) {
            notes.push("Enter on the pawn itself flips it into a Genie".into());
        }
        if ms.iter().any(|m| m.kind == MoveKind::Declare) {
            notes.push("this Knight may be declared a Clown".into());
        }
        if ms.iter().any(|m| matches!(m.kind, MoveKind::RingPass(_))) {
            notes.push("a neighbour of yours takes the ring".into());
        }
        if ms.iter().any(|m| m.promotion().is_some()) {
            notes.push("promotion: you choose the piece".into());
        }
        notes.join("; ") + "."
    }

    /// One move plays at once; several to one square (or a flip) ask first.
    pub fn choose(&mut self, ms: Vec<Move>) {
        if ms.len() == 1 && ms[0].kind != MoveKind::Flip {
            self.play_human(ms[0]);
            return;
        }
        let pos = self.position();
        let turn = pos.turn();
        let title = match ms[0].kind {
            MoveKind::Promotion(_) => "Promote to".to_string(),
            MoveKind::Flip => "Flip this pawn?".to_string(),
            MoveKind::Declare | MoveKind::Normal if ms.iter().any(|m| m.kind == MoveKind::Declare) => {
                "Declare a Clown?".to_string()
            }
            MoveKind::RingPass(_) => "Pass which ring?".to_string(),
            MoveKind::ReEntry(_) => format!("Bring back on {}", ms[0].to),
            MoveKind::Drop(_) => format!("Place on {}", ms[0].to),
            _ => "Choose".to_string(),
        };
        let mut options: Vec<(String, Action)> = ms
            .iter()
            .map(|&m| {
                let s = san::to_san(pos, m);
                let label = match m.kind {
                    MoveKind::Promotion(r) => format!("{} ({s})", cap(r.name())),
                    MoveKind::Flip => format!("Flip into a Genie ({s})"),
                    MoveKind::Declare => format!("Declare a Clown ({s})"),
                    MoveKind::RingPass(Some(c)) => format!("{}'s ring ({s})", cap(c.name())),
                    MoveKind::RingPass(None) => format!("Pass the ring ({s})"),
                    MoveKind::Drop(r) => format!("{} ({s})", cap(r.name())),
                    MoveKind::ReEntry(r) => format!("{} ({s})", cap(r.name())),
                    _ if pos.moving_role(m) == Some(Role::Knight) => format!("Stay a Knight ({s})"),
                    _ => s,
                };
                (label, Action::Play(m))
            })
            .collect();
        if matches!(ms[0].kind, MoveKind::Promotion(_) | MoveKind::Drop(_) | MoveKind::ReEntry(_)) {
            options.sort_by_key(|(_, a)| match a {
                Action::Play(m) => std::cmp::Reverse(match m.kind {
                    MoveKind::Promotion(r) | MoveKind::Drop(r) | MoveKind::ReEntry(r) => role_order(r),
                    _ => 0,
                }),
                _ => std::cmp::Reverse(0),
            });
        }
        options.push(("Cancel".into(), Action::Cancel));
        let _ = turn;
        self.chooser = Some(Chooser { title, options, index: 0 });
    }

    fn run_action(&mut self, a: Action) {
        self.chooser = None;
        match a {
            Action::Play(m) => self.play_human(m),
            Action::NewGame => self.new_game(),
            Action::Resign => self.resign(),
            Action::AcceptDraw => {
                self.session.accept_draw();
                self.message = "1/2-1/2 (draw agreed)".into();
            }
            Action::DeclineDraw => {
                self.session.decline_draw();
                self.message = "Draw declined.".into();
            }
            Action::Quit => self.quit = true,
            Action::Cancel => {
                self.selected = None;
                self.message = "Cancelled.".into();
            }
        }
    }

    fn confirm(&mut self, title: &str, yes: &str, action: Action) {
        self.chooser = Some(Chooser {
            title: title.into(),
            options: vec![(yes.into(), action), ("Cancel".into(), Action::Cancel)],
            index: 0,
        });
    }

    /// Moves the cursor by screen direction.
    fn move_cursor(&mut self, dx: i32, dy: i32) {
        let (dx, dy) = if self.flipped { (-dx, dy) } else { (dx, -dy) };
        if let Some(s) = self.cursor.offset_xy(dx, dy) {
            self.cursor = s;
        }
    }

    /// Selects the next role the side to move may place (`p`).
    fn cycle_drop(&mut self) {
        let roles = self.drop_roles();
        if roles.is_empty() {
            self.message = "Nothing to place in this position.".into();
            return;
        }
        let next = match self.selected {
            Some(Selection::Drop(r)) => roles.iter().position(|&x| x == r).map_or(0, |i| (i + 1) % roles.len()),
            _ => 0,
        };
        let sel = Selection::Drop(roles[next]);
        self.selected = Some(sel);
        self.message = self.selection_hint(sel) + " 'p' for the next piece.";
    }

    // ----- events -------------------------------------------------------

    /// Handles one terminal event.
    pub fn handle_event(&mut self, ev: Event) {
        match ev {
            Event::Key(k) if k.kind != KeyEventKind::Release => self.handle_key(k),
            Event::Mouse(m) => self.handle_mouse(m),
            Event::Resize(w, h) => self.size = (w, h),
            _ => {}
        }
    }

    pub fn handle_key(&mut self, k: KeyEvent) {
        if k.modifiers.contains(KeyModifiers::CONTROL) && matches!(k.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            self.quit = true;
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        if self.chooser.is_some() {
            self.chooser_key(k);
            return;
        }
        if self.input.is_some() {
            self.input_key(k);
            return;
        }
        if self.lesson.is_some() {
            match k.code {
                KeyCode::Char('n') => {
                    self.next_step();
                    return;
                }
                KeyCode::Char('r') | KeyCode::Char('u') | KeyCode::Backspace => {
                    if let Some(run) = &self.lesson {
                        let (l, s) = (run.lesson, run.step);
                        self.open_step(l, s);
                    }
                    return;
                }
                KeyCode::Char('i') => {
                    self.lesson_hint();
                    return;
                }
                KeyCode::Char('d') | KeyCode::Char('a') | KeyCode::Char('s') | KeyCode::Char('o') => return,
                _ => {}
            }
        }
        match k.code {
            KeyCode::Left | KeyCode::Char('h') => self.move_cursor(-1, 0),
            KeyCode::Right | KeyCode::Char('l') => self.move_cursor(1, 0),
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(0, -1),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => self.activate(self.cursor),
            KeyCode::Esc => {
                self.selected = None;
                self.message.clear();
            }
            KeyCode::Char(':') | KeyCode::Char('/') | KeyCode::Tab => {
                self.input = Some(String::new());
                self.message = "Type a move (SAN or UCI) or a command; Tab completes, Enter plays, Esc closes.".into();
            }
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('n') => {
                if self.refuse_online() {
                } else if self.session.end.is_none() && !self.session.game.moves().is_empty() {
                    self.confirm("Start a new game?", "New game", Action::NewGame);
                } else {
                    self.new_game();
                }
            }
            KeyCode::Char('f') => {
                self.flipped = !self.flipped;
                self.message = "Board flipped.".into();
            }
            KeyCode::Char('u') | KeyCode::Backspace => self.take_back(),
            KeyCode::Char('r') => {
                if self.session.end.is_none() {
                    self.confirm("Resign this game?", "Resign", Action::Resign);
                } else {
                    self.message = "The game is already over.".into();
                }
            }
            KeyCode::Char('d') => self.offer_draw(),
            KeyCode::Char('s') => self.input = Some(format!("save {}", self.config.pgn_path)),
            KeyCode::Char('o') => self.input = Some("load ".into()),
            KeyCode::Char('p') => self.cycle_drop(),
            KeyCode::Char('a') => self.toggle_analysis(),
            KeyCode::Char('+') | KeyCode::Char('=') => self.set_level(self.session.level.stronger()),
            KeyCode::Char('-') => self.set_level(self.session.level.weaker()),
            _ => {}
        }
    }

    fn chooser_key(&mut self, k: KeyEvent) {
        let Some(ch) = &mut self.chooser else { return };
        let n = ch.options.len();
        match k.code {
            KeyCode::Up | KeyCode::Char('k') => ch.index = (ch.index + n - 1) % n,
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => ch.index = (ch.index + 1) % n,
            KeyCode::Enter | KeyCode::Char(' ') => {
                let a = ch.options[ch.index].1.clone();
                self.run_action(a);
            }
            KeyCode::Esc | KeyCode::Char('q') => self.run_action(Action::Cancel),
            KeyCode::Char(c) if c.is_ascii_digit() => {
                let i = c.to_digit(10).unwrap_or(0) as usize;
                if (1..=n).contains(&i) {
                    let a = ch.options[i - 1].1.clone();
                    self.run_action(a);
                }
            }
            _ => {}
        }
    }

    fn input_key(&mut self, k: KeyEvent) {
        let Some(text) = &mut self.input else { return };
        match k.code {
            KeyCode::Esc => {
                self.input = None;
                self.message.clear();
            }
            KeyCode::Enter => {
                let line = text.trim().to_string();
                self.input = None;
                self.command(&line);
            }
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Tab => {
                let t = text.clone();
                let cands = self.completions(&t);
                if let Some(prefix) = common_prefix(&cands) {
                    if prefix.len() > t.len() {
                        self.input = Some(prefix);
                    }
                }
                if cands.is_empty() {
                    self.message = format!("No legal move or command starts with '{t}'.");
                }
            }
            KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) && text.len() < 200 => text.push(c),
            _ => {}
        }
    }

    /// Legal moves (SAN and UCI) and commands that start with `prefix`.
    pub fn completions(&self, prefix: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if prefix.contains(' ') {
            return out;
        }
        for (m, s) in san::all_san(self.position()) {
            if self.session.end.is_some() {
                break;
            }
            if s.starts_with(prefix) {
                out.push(s);
            } else if m.to_string().starts_with(prefix) && !prefix.is_empty() {
                out.push(m.to_string());
            }
        }
        if !prefix.is_empty() {
            for c in COMMANDS {
                if c.starts_with(prefix) {
                    out.push(c.to_string());
                }
            }
        }
        out.dedup();
        out
    }

    /// Runs a line typed on the command line: a command or a move.
    pub fn command(&mut self, line: &str) {
        if line.is_empty() {
            self.message.clear();
            return;
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "new" => {
                if rest.is_empty() {
                    self.new_game();
                } else {
                    match rest.parse::<Variant>() {
                        Ok(_) if self.refuse_online() => {}
                        Ok(v) => {
                            let start = AnyPosition::new(v, &self.session.rule_options);
                            self.new_game_from(start, &[]);
                            self.cursor = self.home_square();
                            self.message = format!("New game: {}.", v.name());
                        }
                        Err(e) => self.message = e.to_string(),
                    }
                }
            }
            "flip" => self.flipped = !self.flipped,
            "undo" | "takeback" => self.take_back(),
            "resign" => self.resign(),
            "draw" => self.offer_draw(),
            "save" => {
                let path = if rest.is_empty() { self.config.pgn_path.clone() } else { rest.to_string() };
                self.save_pgn(&path);
            }
            "load" if !rest.is_empty() => self.load(rest),
            "fen" if !rest.is_empty() => self.load_fen(rest),
            "load" | "fen" => {
                self.message =
                    format!("Usage: {word} {}", if word == "fen" { "<FEN>" } else { "<file.pgn | file.fen | FEN>" })
            }
            "level" => match rest.parse::<Level>() {
                Ok(l) => self.set_level(l),
                Err(_) => self.message = "Usage: level <1-8>".into(),
            },
            "analysis" => self.toggle_analysis(),
            "help" => self.help = true,
            "quit" | "exit" => self.quit = true,
            // Online, the other side's turn: say so rather than why the
            // text is no move of the side to move.
            _ if self.session.online() && !self.human_to_move() => self.message = self.not_your_turn(),
            _ => match san::parse_san(self.position(), line) {
                Ok(m) => self.play_human(m),
                Err(e) => {
                    let cands = self.completions(line);
                    self.message = if cands.is_empty() {
                        e.to_string()
                    } else {
                        format!("{e} (did you mean {}?)", cands.join(", "))
                    };
                }
            },
        }
    }

    fn handle_mouse(&mut self, m: MouseEvent) {
        let geo = ui::geometry(ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1), self);
        // Drag and drop: a button released over a target of the piece
        // selected by the press plays the move.
        if m.kind == MouseEventKind::Up(MouseButton::Left) {
            if let (Some(Selection::Square(from)), None, false) = (self.selected, &self.chooser, self.help) {
                if let Some(sq) = geo.square_at(m.column, m.row, self.flipped) {
                    if sq != from && self.targets().contains(&sq) {
                        self.activate(sq);
                    }
                }
            }
            return;
        }
        if m.kind != MouseEventKind::Down(MouseButton::Left) {
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        if let Some(ch) = &self.chooser {
            if let Some(i) = geo.chooser_option_at(m.column, m.row) {
                if i < ch.options.len() {
                    let a = ch.options[i].1.clone();
                    self.run_action(a);
                }
            }
            return;
        }
        if let Some(sq) = geo.square_at(m.column, m.row, self.flipped) {
            self.input = None;
            self.activate(sq);
            return;
        }
        if let Some(role) = geo.reserve_at(m.column, m.row) {
            if self.drop_roles().contains(&role) && self.human_to_move() {
                let sel = Selection::Drop(role);
                self.selected = Some(sel);
                self.message = self.selection_hint(sel);
            }
        }
    }

    // ----- the engine ---------------------------------------------------

    fn toggle_analysis(&mut self) {
        if self.session.online() {
            self.message = "No engine analysis during an online game.".into();
            return;
        }
        let on = !self.session.analysis_on;
        self.session.set_analysis(on);
        self.message = if on { "Analysis on." } else { "Analysis off." }.into();
    }

    /// Starts, keeps or stops the engine's search so that it matches the game.
    pub fn sync_engine(&mut self) {
        self.session.sync_engine();
    }

    /// Shows what the session did on its own (the engine's move, a flag).
    fn show_notices(&mut self) {
        if let Some(n) = self.session.take_notice() {
            if n.moved {
                self.selected = None;
                self.chooser = None;
            }
            self.message = n.text;
        }
    }

    /// Reads what the engine has reported; plays its move when it is done.
    pub fn poll_engine(&mut self) {
        self.session.poll_engine();
        self.show_notices();
    }

    /// Waits up to `timeout` for one engine report (tests and the line mode).
    pub fn wait_engine(&mut self, timeout: Duration) -> bool {
        let got = self.session.wait_engine(timeout);
        self.show_notices();
        got
    }

    /// Waits up to `timeout` for one message from the server (online).
    pub fn wait_remote(&mut self, timeout: Duration) -> bool {
        let got = self.session.wait_remote(timeout);
        self.show_notices();
        got
    }

    /// Moves time on: the engine's reports, the server's states, the clocks' flags.
    pub fn tick(&mut self, now: Instant) {
        self.session.tick(now);
        self.show_notices();
    }
}

/// Placement order: King first, then Queen, Rook, Bishop, Knight, Pawn.
pub fn role_order(r: Role) -> u8 {
    match r {
        Role::King => 8,
        Role::Queen => 7,
        Role::Genie => 6,
        Role::Rook => 5,
        Role::Bishop => 4,
        Role::Clown => 3,
        Role::Knight => 2,
        Role::Pawn => 1,
    }
}

fn common_prefix(v: &[String]) -> Option<String> {
    let first = v.first()?;
    let mut len = first.len();
    for s in &v[1..] {
        len = len.min(first.bytes().zip(s.bytes()).take_while(|(a, b)| a == b).count());
    }
    Some(first[..len].to_string())
}

/// "white" → "White".
pub fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_parse() {
        assert_eq!(parse_clock("5+3"), Ok((Duration::from_secs(300), Duration::from_secs(3))));
        assert_eq!(parse_clock("10"), Ok((Duration::from_secs(600), Duration::ZERO)));
        assert_eq!(parse_clock("90s+1"), Ok((Duration::from_secs(90), Duration::from_secs(1))));
        assert!(parse_clock("five").is_err());
        assert!(parse_clock("0+1").is_err());
        assert!(parse_clock("-3+1").is_err());
        assert!(parse_clock("5+x").is_err());
    }

    #[test]
    fn common_prefixes() {
        assert_eq!(common_prefix(&["Nf3".into(), "Nh3".into()]), Some("N".into()));
        assert_eq!(common_prefix(&["e4".into()]), Some("e4".into()));
        assert_eq!(common_prefix(&[]), None);
    }
}
