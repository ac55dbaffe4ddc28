//! The player's state and everything a key, a click or the engine does to
//! it. Drawing is in `ui`; nothing here touches the terminal, so tests drive
//! an [`App`] with plain events.

use crate::engine::{level_limits, EngineHandle, Job, JobKind, Report};
use crate::ui;
use chimera_engine::{Limits, Score, Strength};
use chimera_rules::{pgn, san, AnyPosition, Color, Game, Move, MoveKind, Position, Role, RuleOptions, Square, Variant};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
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

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    pub text: String,
}

/// The clocks: time left for each side when its turn began.
#[derive(Clone, Debug)]
pub struct Clocks {
    pub remaining: [Duration; 2],
    pub increment: Duration,
    /// When the side to move's time began running (`None`: stopped).
    pub running_since: Option<Instant>,
}

/// The engine's latest line, from White's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub depth: u32,
    /// Score for White: centipawns or mate in N (negative: Black mates).
    pub score: Score,
    pub nodes: u64,
    pub pv_san: Vec<String>,
}

struct RunningJob {
    id: u64,
    kind: JobKind,
    /// (epoch, ply) of the position searched.
    key: (u64, usize),
}

/// The whole state of the player.
pub struct App {
    pub config: Config,
    pub game: Game<AnyPosition>,
    pub sans: Vec<String>,
    pub cursor: Square,
    pub selected: Option<Selection>,
    /// Black at the bottom.
    pub flipped: bool,
    pub chooser: Option<Chooser>,
    pub help: bool,
    /// The command line while it is open.
    pub input: Option<String>,
    pub message: String,
    pub level: u8,
    pub clocks: Option<Clocks>,
    pub end: Option<GameEnd>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// Show the engine's evaluation and line.
    pub analysis_on: bool,
    pub analysis: Option<Analysis>,
    /// The engine's last own evaluation (its point of view), for draw offers.
    pub engine_eval: Option<Score>,
    pub quit: bool,
    /// The time the UI last looked at (clocks are drawn for this instant).
    pub now: Instant,
    /// The terminal's size at the last draw (mouse clicks are mapped with it).
    pub size: (u16, u16),
    engine: Option<EngineHandle>,
    job: Option<RunningJob>,
    next_job_id: u64,
    /// Bumped whenever the game is replaced or a move is taken back.
    epoch: u64,
    fresh_engine_game: bool,
}

const COMMANDS: [&str; 12] =
    ["new", "flip", "undo", "resign", "draw", "save", "load", "fen", "level", "analysis", "help", "quit"];

impl App {
    pub fn new(config: Config) -> App {
        let start = config.start.clone().unwrap_or_else(|| AnyPosition::new(config.variant, &config.rule_options));
        let now = Instant::now();
        let flipped = !config.hot_seat && config.human == Color::Black;
        let level = config.level.clamp(1, 8);
        let mut app = App {
            game: Game::new(start),
            sans: Vec::new(),
            cursor: Square::E2,
            selected: None,
            flipped,
            chooser: None,
            help: false,
            input: None,
            message: String::new(),
            level,
            clocks: None,
            end: None,
            draw_offer: None,
            analysis_on: false,
            analysis: None,
            engine_eval: None,
            quit: false,
            now,
            size: (80, 24),
            engine: None,
            job: None,
            next_job_id: 1,
            epoch: 0,
            fresh_engine_game: true,
            config,
        };
        app.reset_clocks();
        app.cursor = app.home_square();
        app.refresh_end();
        app.message = app.greeting();
        app
    }

    fn greeting(&self) -> String {
        let who = if self.config.hot_seat {
            "hot-seat".to_string()
        } else {
            format!("you play {}", self.config.human.name())
        };
        format!("{} — {who}. '?' shows the keys.", self.game.start().variant().name())
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
        self.game.position()
    }

    pub fn variant(&self) -> Variant {
        self.game.start().variant()
    }

    /// Whether the engine plays `c`.
    pub fn engine_plays(&self, c: Color) -> bool {
        !self.config.hot_seat && c != self.config.human
    }

    /// Whether the person at the keyboard may move now.
    pub fn human_to_move(&self) -> bool {
        self.end.is_none() && !self.engine_plays(self.position().turn())
    }

    /// Whether the engine is searching for its move.
    pub fn engine_thinking(&self) -> bool {
        self.job.as_ref().is_some_and(|j| j.kind == JobKind::Move)
    }

    /// The player's name for a side.
    pub fn player_name(&self, c: Color) -> String {
        if self.engine_plays(c) {
            format!("Chimera, level {}", self.level)
        } else if self.config.hot_seat {
            c.name().to_string()
        } else {
            "You".to_string()
        }
    }

    // ----- clocks -------------------------------------------------------

    fn reset_clocks(&mut self) {
        self.clocks = self.config.clock.map(|(base, inc)| Clocks {
            remaining: [base, base],
            increment: inc,
            running_since: Some(self.now),
        });
    }

    /// Time left for `c` at `self.now`.
    pub fn time_left(&self, c: Color) -> Option<Duration> {
        let cl = self.clocks.as_ref()?;
        let mut t = cl.remaining[c.index()];
        if c == self.position().turn() {
            if let Some(since) = cl.running_since {
                t = t.saturating_sub(self.now.saturating_duration_since(since));
            }
        }
        Some(t)
    }

    fn press_clock(&mut self, mover: Color) {
        let now = self.now;
        if let Some(cl) = &mut self.clocks {
            if let Some(since) = cl.running_since {
                let used = now.saturating_duration_since(since);
                let left = cl.remaining[mover.index()].saturating_sub(used);
                cl.remaining[mover.index()] = left + cl.increment;
                cl.running_since = Some(now);
            }
        }
    }

    fn stop_clocks(&mut self) {
        let now = self.now;
        let turn = self.position().turn();
        if let Some(cl) = &mut self.clocks {
            if let Some(since) = cl.running_since.take() {
                let used = now.saturating_duration_since(since);
                cl.remaining[turn.index()] = cl.remaining[turn.index()].saturating_sub(used);
            }
        }
    }

    // ----- the game -----------------------------------------------------

    fn refresh_end(&mut self) {
        if self.end.is_none() {
            if let Some(o) = self.game.outcome() {
                self.end = Some(GameEnd { result: o.result().to_string(), text: o.to_string() });
            }
        }
        if self.end.is_some() {
            self.stop_clocks();
            self.draw_offer = None;
            self.stop_engine();
        }
    }

    fn finish(&mut self, result: &str, text: String) {
        if self.end.is_none() {
            self.end = Some(GameEnd { result: result.to_string(), text: text.clone() });
            self.message = text;
            self.refresh_end();
        }
    }

    /// Replaces the game with a fresh one from `start`.
    pub fn new_game_from(&mut self, start: AnyPosition, moves: &[Move]) {
        self.stop_engine();
        self.game = Game::new(start);
        self.sans.clear();
        for &m in moves {
            self.sans.push(san::to_san(self.game.position(), m));
            self.game.push_unchecked(m);
        }
        self.end = None;
        self.draw_offer = None;
        self.selected = None;
        self.chooser = None;
        self.analysis = None;
        self.engine_eval = None;
        self.epoch += 1;
        self.fresh_engine_game = true;
        self.reset_clocks();
        self.refresh_end();
        self.sync_engine();
    }

    /// A new game of the same variant from its usual start.
    pub fn new_game(&mut self) {
        let start = AnyPosition::new(self.variant(), &self.config.rule_options);
        self.new_game_from(start, &[]);
        self.cursor = self.home_square();
        self.message = format!("New game: {}.", self.variant().name());
    }

    /// Plays a move for the side to move (the person's or the engine's).
    fn play_move(&mut self, m: Move) -> Result<(), String> {
        if let Some(e) = &self.end {
            return Err(format!("The game is over: {}", e.text));
        }
        let mover = self.position().turn();
        let s = san::to_san(self.position(), m);
        self.game.play(m).map_err(|e| e.to_string())?;
        self.sans.push(s);
        self.press_clock(mover);
        self.selected = None;
        self.chooser = None;
        if self.draw_offer == Some(!mover) {
            self.draw_offer = None; // a move declines the offer
        }
        self.analysis = None;
        self.refresh_end();
        Ok(())
    }

    /// The person plays `m`.
    pub fn play_human(&mut self, m: Move) {
        if !self.human_to_move() {
            self.message = match &self.end {
                Some(e) => format!("The game is over: {}", e.text),
                None => "Wait: the engine is thinking.".into(),
            };
            return;
        }
        self.play_and_announce(m, None);
    }

    /// Plays `m`, says so on the message line ("Nf3 played.", or with the
    /// engine's name "Chimera plays Nf3.", plus the result if it ends the
    /// game) and hands the engine its next job; an illegal move leaves its
    /// reason there instead.
    fn play_and_announce(&mut self, m: Move, player: Option<&str>) {
        let s = san::to_san(self.position(), m);
        match self.play_move(m) {
            Ok(()) => {
                let said = match player {
                    Some(name) => format!("{name} plays {s}"),
                    None => s,
                };
                self.message = match (&self.end, player) {
                    (Some(e), _) => format!("{said} — {}", e.text),
                    (None, Some(_)) => format!("{said}."),
                    (None, None) => format!("{said} played."),
                };
                self.sync_engine();
            }
            Err(e) => self.message = e,
        }
    }

    /// Takes back the last move (and the engine's reply, against the engine).
    pub fn take_back(&mut self) {
        if self.game.moves().is_empty() {
            self.message = "Nothing to take back.".into();
            return;
        }
        self.stop_engine();
        self.game.undo();
        self.sans.pop();
        if !self.config.hot_seat && self.engine_plays(self.position().turn()) && !self.game.moves().is_empty() {
            self.game.undo();
            self.sans.pop();
        }
        self.end = None;
        self.draw_offer = None;
        self.selected = None;
        self.chooser = None;
        self.analysis = None;
        self.epoch += 1;
        if let Some(cl) = &mut self.clocks {
            cl.running_since = Some(self.now);
        }
        self.refresh_end();
        self.message = "Move taken back.".into();
        self.sync_engine();
    }

    /// The side that resigns or offers a draw from this keyboard.
    fn keyboard_side(&self) -> Color {
        if self.config.hot_seat {
            self.position().turn()
        } else {
            self.config.human
        }
    }

    pub fn resign(&mut self) {
        if self.end.is_some() {
            self.message = "The game is already over.".into();
            return;
        }
        let loser = self.keyboard_side();
        let result = if loser == Color::White { "0-1" } else { "1-0" };
        self.finish(result, format!("{result} ({} resigns)", loser.name()));
    }

    /// Offers a draw, or accepts the opponent's standing offer.
    pub fn offer_draw(&mut self) {
        if self.end.is_some() {
            self.message = "The game is already over.".into();
            return;
        }
        let me = self.keyboard_side();
        if self.draw_offer == Some(!me) {
            self.finish("1/2-1/2", "1/2-1/2 (draw agreed)".into());
            return;
        }
        if self.config.hot_seat {
            self.draw_offer = Some(me);
            let other = !me;
            self.chooser = Some(Chooser {
                title: format!("{} offers a draw. {}?", cap(me.name()), cap(other.name())),
                options: vec![("Accept the draw".into(), Action::AcceptDraw), ("Decline".into(), Action::DeclineDraw)],
                index: 0,
            });
            return;
        }
        // The engine accepts when it does not think itself better.
        match self.engine_eval {
            Some(Score::Cp(cp)) if cp <= 0 => self.finish("1/2-1/2", "1/2-1/2 (draw agreed)".into()),
            Some(Score::Mate(n)) if n < 0 => self.finish("1/2-1/2", "1/2-1/2 (draw agreed)".into()),
            _ => self.message = "Chimera declines the draw.".into(),
        }
    }

    pub fn set_level(&mut self, level: u8) {
        self.level = level.clamp(1, 8);
        self.message = format!("Engine level {}.", self.level);
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
        let result = self.end.as_ref().map_or("*", |e| e.result.as_str());
        let tags: Vec<(String, String)> = vec![
            ("Event".into(), "chimera play".into()),
            ("Site".into(), "terminal".into()),
            ("White".into(), self.player_name(Color::White)),
            ("Black".into(), self.player_name(Color::Black)),
        ];
        pgn::write_pgn(&tags, self.game.start(), self.game.moves(), result)
    }

    /// Loads a PGN file (its first game) or a FEN (a file holding one, or
    /// the text itself) of the current variant.
    pub fn load(&mut self, arg: &str) {
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
        match AnyPosition::from_fen(self.variant(), fen, &self.config.rule_options) {
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
        if self.end.is_some() {
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
            self.message = match &self.end {
                Some(e) => format!("The game is over: {} ('n' for a new game).", e.text),
                None => "The engine is thinking…".into(),
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
                self.draw_offer = Some(!self.position().turn());
                self.finish("1/2-1/2", "1/2-1/2 (draw agreed)".into());
            }
            Action::DeclineDraw => {
                self.draw_offer = None;
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
                if self.end.is_none() && !self.game.moves().is_empty() {
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
                if self.end.is_none() {
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
            KeyCode::Char('+') | KeyCode::Char('=') => self.set_level(self.level.saturating_add(1)),
            KeyCode::Char('-') => self.set_level(self.level.saturating_sub(1)),
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
            if self.end.is_some() {
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
                        Ok(v) => {
                            let start = AnyPosition::new(v, &self.config.rule_options);
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
            "level" => match rest.parse::<u8>() {
                Ok(l) if (1..=8).contains(&l) => self.set_level(l),
                _ => self.message = "Usage: level <1-8>".into(),
            },
            "analysis" => self.toggle_analysis(),
            "help" => self.help = true,
            "quit" | "exit" => self.quit = true,
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
        self.analysis_on = !self.analysis_on;
        self.message = if self.analysis_on { "Analysis on." } else { "Analysis off." }.into();
        if !self.analysis_on {
            if self.job.as_ref().is_some_and(|j| j.kind == JobKind::Analysis) {
                self.stop_engine();
            }
            self.analysis = None;
        }
        self.sync_engine();
    }

    fn stop_engine(&mut self) {
        if let Some(e) = &mut self.engine {
            e.stop();
        }
        self.job = None;
    }

    fn key(&self) -> (u64, usize) {
        (self.epoch, self.game.moves().len())
    }

    /// Starts, keeps or stops the engine's search so that it matches the
    /// game: the engine's move on its turn, analysis when asked for.
    pub fn sync_engine(&mut self) {
        let want = if self.end.is_some() {
            None
        } else if self.engine_plays(self.position().turn()) {
            Some(JobKind::Move)
        } else if self.analysis_on {
            Some(JobKind::Analysis)
        } else {
            None
        };
        let key = self.key();
        if let Some(j) = &self.job {
            if Some(j.kind) == want && j.key == key {
                return;
            }
        }
        self.stop_engine();
        let Some(kind) = want else { return };
        let (strength, limits) = match kind {
            JobKind::Move => {
                let (s, mut l) = level_limits(self.level);
                if let (Some(left), Some(cl)) = (self.time_left(self.position().turn()), &self.clocks) {
                    // Never more than a twentieth of the time left plus the increment.
                    let budget = left / 20 + cl.increment / 2;
                    l.movetime = Some(l.movetime.unwrap_or(budget).min(budget).max(Duration::from_millis(10)));
                }
                (s, l)
            }
            JobKind::Analysis => (Strength::default(), Limits { infinite: true, ..Limits::default() }),
        };
        let positions = self.game.positions();
        let history: Vec<u64> = positions[..positions.len() - 1].iter().map(|p| p.hash()).collect();
        let id = self.next_job_id;
        self.next_job_id += 1;
        let job = Job {
            id,
            kind,
            root: self.position().clone(),
            history,
            limits,
            strength,
            stop: Arc::new(AtomicBool::new(false)),
            new_game: std::mem::take(&mut self.fresh_engine_game),
        };
        self.engine.get_or_insert_with(EngineHandle::spawn).start(job);
        self.job = Some(RunningJob { id, kind, key });
    }

    /// Reads what the engine has reported; plays its move when it is done.
    pub fn poll_engine(&mut self) {
        while let Some(r) = self.engine.as_ref().and_then(|e| e.try_recv()) {
            self.apply_report(r);
        }
        if self.job.is_some() && self.engine.as_ref().is_some_and(|e| !e.is_alive()) {
            self.job = None;
            self.message = "The engine stopped unexpectedly.".into();
        }
    }

    /// Waits up to `timeout` for one engine report (tests and the line mode).
    pub fn wait_engine(&mut self, timeout: Duration) -> bool {
        let r = self.engine.as_ref().and_then(|e| e.recv_timeout(timeout));
        match r {
            Some(r) => {
                self.apply_report(r);
                true
            }
            None => false,
        }
    }

    fn apply_report(&mut self, r: Report) {
        let Some(job) = &self.job else { return };
        if r.id() != job.id {
            return; // a stale job
        }
        let kind = job.kind;
        match r {
            Report::Info { depth, score, nodes, pv, .. } => {
                if kind == JobKind::Move {
                    self.engine_eval = Some(score);
                }
                let root = self.position();
                let white_score = if root.turn() == Color::White { score } else { negate(score) };
                self.analysis = Some(Analysis { depth, score: white_score, nodes, pv_san: pv_to_san(root, &pv) });
            }
            Report::Done { result, .. } => {
                self.job = None;
                if kind != JobKind::Move {
                    return;
                }
                self.engine_eval = Some(result.score);
                match result.best {
                    Some(m) if self.position().is_legal(m) => self.play_and_announce(m, Some("Chimera")),
                    _ => self.message = "The engine found no move.".into(),
                }
            }
        }
    }

    /// Moves time on: the engine's reports, the clocks' flags.
    pub fn tick(&mut self, now: Instant) {
        self.now = now;
        self.poll_engine();
        if self.end.is_none() {
            let turn = self.position().turn();
            if self.time_left(turn) == Some(Duration::ZERO) {
                let result = if turn == Color::White { "0-1" } else { "1-0" };
                self.finish(result, format!("{result} ({} loses on time)", turn.name()));
            }
        }
        self.sync_engine();
    }
}

fn negate(s: Score) -> Score {
    match s {
        Score::Cp(c) => Score::Cp(-c),
        Score::Mate(n) => Score::Mate(-n),
    }
}

/// A principal variation in SAN (up to the first move that is not legal).
pub fn pv_to_san(root: &AnyPosition, pv: &[Move]) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::new();
    for &m in pv.iter().take(12) {
        if !pos.is_legal(m) {
            break;
        }
        out.push(san::to_san(&pos, m));
        pos.play_unchecked(m);
    }
    out
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
