//! The game apart from the screen: the position and its moves, the clocks,
//! the result, draw offers, take-backs and the engine's turns, played by
//! the house rules of `chimera-session` (the web server's live games play
//! by the same). [`App`](crate::App) is the view over it: the board's
//! cursor and selection, choosers, the command line and the message line.

use crate::app::Config;
use crate::engine::{EngineHandle, Job, JobKind, Report};
use crate::remote::{end_of, FromServer, Remote, ServerState, ToServer};
use chimera_engine::{Limits, Score, Strength};
use chimera_rules::{san, AnyPosition, Color, Game, Move, Position, RuleOptions, Variant};
use chimera_session::{
    clock_runs, draw_answer, takeback, think_time, Clock, DrawAnswer, EngineEval, Level, Load, Opponent,
    TakebackRefused, ThinkTime,
};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    /// When the side to move's time began running (`None`: stopped; each
    /// side's clock starts after its first move).
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

/// Something the session did on its own (the engine moved, a flag fell)
/// for the view to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    /// The position changed (a selection on the board is out of date).
    pub moved: bool,
}

/// What became of a draw offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawOutcome {
    /// Drawn by agreement (the offer accepted a standing one, or the
    /// engine accepted).
    Agreed,
    /// Hot-seat: the offer stands; the other side at this board answers.
    Pending { from: Color },
    /// The engine declines, and says why.
    Declined(DrawAnswer),
    /// Online: the offer (or the acceptance of the opponent's) went to the
    /// server, which answers with the game's next state.
    Sent { accepting: bool },
}

struct RunningJob {
    id: u64,
    kind: JobKind,
    /// (epoch, ply) of the position searched.
    key: (u64, usize),
}

/// One game at this terminal: against the engine, hot-seat, or online
/// against someone elsewhere ([`Remote`]).
pub struct Session {
    pub game: Game<AnyPosition>,
    pub sans: Vec<String>,
    /// The side the person plays against the engine (ignored in hot-seat).
    pub human: Color,
    pub hot_seat: bool,
    pub rule_options: RuleOptions,
    /// Initial time and increment for each side.
    pub clock: Option<(Duration, Duration)>,
    pub level: Level,
    pub clocks: Option<Clocks>,
    /// The clocks after each move (a take-back puts them back).
    move_clocks: Vec<[Duration; 2]>,
    pub end: Option<GameEnd>,
    /// The side whose draw offer stands (hot-seat).
    pub draw_offer: Option<Color>,
    /// Analyse the position on the person's turn.
    pub analysis_on: bool,
    pub analysis: Option<Analysis>,
    /// The engine's evaluation from its last move's search, for draw offers.
    pub engine_eval: Option<EngineEval>,
    /// The time the session last looked at (clocks read at this instant).
    pub now: Instant,
    notices: Vec<Notice>,
    engine: Option<EngineHandle>,
    job: Option<RunningJob>,
    next_job_id: u64,
    /// Bumped whenever the game is replaced or a move is taken back.
    epoch: u64,
    fresh_engine_game: bool,
    /// The server's side of an online game.
    remote: Option<Remote>,
    /// The moves the server last confirmed (online).
    server_moves: Vec<Move>,
    /// The server has said the game is over (online).
    server_over: bool,
}

impl Session {
    pub fn new(config: &Config) -> Session {
        let start = config.start.clone().unwrap_or_else(|| AnyPosition::new(config.variant, &config.rule_options));
        let mut s = Session {
            game: Game::new(start),
            sans: Vec::new(),
            human: config.human,
            hot_seat: config.hot_seat,
            rule_options: config.rule_options.clone(),
            clock: config.clock,
            level: Level::clamped(config.level),
            clocks: None,
            move_clocks: Vec::new(),
            end: None,
            draw_offer: None,
            analysis_on: false,
            analysis: None,
            engine_eval: None,
            now: Instant::now(),
            notices: Vec::new(),
            engine: None,
            job: None,
            next_job_id: 1,
            epoch: 0,
            fresh_engine_game: true,
            remote: None,
            server_moves: Vec::new(),
            server_over: false,
        };
        s.reset_clocks();
        s.refresh_end();
        s
    }

    pub fn position(&self) -> &AnyPosition {
        self.game.position()
    }

    pub fn variant(&self) -> Variant {
        self.game.start().variant()
    }

    /// Whether the engine plays `c`.
    pub fn engine_plays(&self, c: Color) -> bool {
        !self.hot_seat && self.remote.is_none() && c != self.human
    }

    /// Whether the person at the keyboard may move now.
    pub fn human_to_move(&self) -> bool {
        let turn = self.position().turn();
        self.end.is_none() && (self.hot_seat || turn == self.human)
    }

    /// Whether the game is played on a server.
    pub fn online(&self) -> bool {
        self.remote.is_some()
    }

    /// Online: whether the server has said that the game is over (the
    /// board may know it a moment before, from the rules).
    pub fn server_over(&self) -> bool {
        self.server_over
    }

    /// Plays the game on a server from now on: `remote` brings the
    /// server's states and takes this side's moves, resignation and draw
    /// offers. The session's game should be the server's (the caller builds
    /// it from the game's first state); the first [`FromServer::State`]
    /// settles it anyway.
    pub fn attach(&mut self, remote: Remote) {
        self.stop_engine();
        self.analysis_on = false;
        self.server_moves = self.game.moves().to_vec();
        self.remote = Some(remote);
    }

    /// Whether the engine is searching for its move.
    pub fn engine_thinking(&self) -> bool {
        self.job.as_ref().is_some_and(|j| j.kind == JobKind::Move)
    }

    /// The player's name for a side.
    pub fn player_name(&self, c: Color) -> String {
        if let Some(r) = &self.remote {
            r.names[c.index()].clone()
        } else if self.engine_plays(c) {
            format!("Chimera, level {}", self.level)
        } else if self.hot_seat {
            c.name().to_string()
        } else {
            "You".to_string()
        }
    }

    /// The side that resigns or offers a draw from this keyboard.
    pub fn keyboard_side(&self) -> Color {
        if self.hot_seat {
            self.position().turn()
        } else {
            self.human
        }
    }

    /// What the session did on its own since the last call: the newest
    /// notice (`moved` if any of them changed the position).
    pub fn take_notice(&mut self) -> Option<Notice> {
        let moved = self.notices.iter().any(|n| n.moved);
        let last = self.notices.pop();
        self.notices.clear();
        last.map(|n| Notice { moved, ..n })
    }

    // ----- clocks -------------------------------------------------------

    fn start_readings(&self) -> Option<[Duration; 2]> {
        self.clock.map(|(base, _)| [base, base])
    }

    fn reset_clocks(&mut self) {
        let plies = self.game.moves().len();
        let now = self.now;
        self.clocks = self.clock.map(|(base, inc)| Clocks {
            remaining: [base, base],
            increment: inc,
            running_since: clock_runs(plies).then_some(now),
        });
        self.move_clocks = self.start_readings().map_or_else(Vec::new, |r| vec![r; plies]);
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

    /// After `mover`'s move: its time used and its increment, when its clock
    /// ran; the next side's clock starts if it runs by now.
    fn press_clock(&mut self, mover: Color) {
        let now = self.now;
        let runs = clock_runs(self.game.moves().len());
        if let Some(cl) = &mut self.clocks {
            if let Some(since) = cl.running_since {
                let used = now.saturating_duration_since(since);
                let left = cl.remaining[mover.index()].saturating_sub(used);
                cl.remaining[mover.index()] = left + cl.increment;
            }
            cl.running_since = runs.then_some(now);
            self.move_clocks.push(cl.remaining);
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

    /// Ends the game (if it is not over yet). True if it did.
    pub fn finish(&mut self, result: &str, text: String) -> bool {
        if self.end.is_some() {
            return false;
        }
        self.end = Some(GameEnd { result: result.to_string(), text });
        self.refresh_end();
        true
    }

    /// Replaces the game with a fresh one from `start` after `moves`.
    pub fn new_game_from(&mut self, start: AnyPosition, moves: &[Move]) {
        self.stop_engine();
        self.replay(start, moves);
        self.draw_offer = None;
        self.engine_eval = None;
        self.fresh_engine_game = true;
        self.reset_clocks();
        self.refresh_end();
        self.sync_engine();
    }

    /// The game from `start` after `moves` (their SAN too), not ended, with
    /// no analysis, in a new epoch.
    fn replay(&mut self, start: AnyPosition, moves: &[Move]) {
        self.game = Game::new(start);
        self.sans.clear();
        for &m in moves {
            self.sans.push(san::to_san(self.game.position(), m));
            self.game.push_unchecked(m);
        }
        self.end = None;
        self.analysis = None;
        self.epoch += 1;
    }

    /// Plays a move for the side to move (the person's or the engine's).
    pub fn play(&mut self, m: Move) -> Result<(), String> {
        if let Some(e) = &self.end {
            return Err(format!("The game is over: {}", e.text));
        }
        let mover = self.position().turn();
        let s = san::to_san(self.position(), m);
        let ply = self.game.moves().len();
        self.game.play(m).map_err(|e| e.to_string())?;
        self.sans.push(s);
        if let Some(r) = &self.remote {
            // Shown at once; the server's next state confirms it (or a
            // refusal takes it back).
            let _ = r.to_server.send(ToServer::Move { uci: m.uci(), ply });
        }
        self.press_clock(mover);
        if self.draw_offer == Some(!mover) {
            self.draw_offer = None; // a move declines the offer
        }
        self.analysis = None;
        self.refresh_end();
        Ok(())
    }

    /// Plays `m` and says so ("Nf3 played.", or with the engine's name
    /// "Chimera plays Nf3.", plus the result if it ends the game), then
    /// hands the engine its next job.
    pub fn play_announced(&mut self, m: Move, player: Option<&str>) -> Result<String, String> {
        let s = san::to_san(self.position(), m);
        self.play(m)?;
        let said = match player {
            Some(name) => format!("{name} plays {s}"),
            None => s,
        };
        let text = match (&self.end, player) {
            (Some(e), _) => format!("{said} — {}", e.text),
            (None, Some(_)) => format!("{said}."),
            (None, None) => format!("{said} played."),
        };
        self.sync_engine();
        Ok(text)
    }

    /// Takes back as the house rules say (`chimera_session::takeback`):
    /// against the engine back to the person's last turn, hot-seat one
    /// move; the clocks read again what they read after the last move kept.
    /// Returns the plies taken back.
    pub fn take_back(&mut self) -> Result<usize, TakebackRefused> {
        let opponent = if self.remote.is_some() {
            Opponent::Remote
        } else if self.hot_seat {
            Opponent::SameBoard
        } else {
            Opponent::Engine { human: self.human }
        };
        let n = takeback(opponent, self.position().turn(), self.game.moves().len(), self.end.is_some())?;
        self.stop_engine();
        for _ in 0..n {
            self.game.undo();
            self.sans.pop();
            self.move_clocks.pop();
        }
        let readings = self.move_clocks.last().copied().or_else(|| self.start_readings());
        let (now, runs) = (self.now, clock_runs(self.game.moves().len()));
        if let (Some(cl), Some(r)) = (&mut self.clocks, readings) {
            cl.remaining = r;
            cl.running_since = runs.then_some(now);
        }
        self.draw_offer = None;
        self.analysis = None;
        self.epoch += 1;
        self.sync_engine();
        Ok(n)
    }

    /// The side at the keyboard resigns. The result's text.
    pub fn resign(&mut self) -> Result<String, String> {
        if self.end.is_some() {
            return Err("The game is already over.".into());
        }
        if let Some(r) = &self.remote {
            // The server ends the game; its next state says so.
            let _ = r.to_server.send(ToServer::Resign);
            return Ok("Resigning…".into());
        }
        let loser = self.keyboard_side();
        let result = if loser == Color::White { "0-1" } else { "1-0" };
        let text = format!("{result} ({} resigns)", loser.name());
        self.finish(result, text.clone());
        Ok(text)
    }

    /// Offers a draw from the keyboard, or accepts the standing offer.
    /// Against the engine, the house rules answer (`draw_answer`).
    pub fn offer_draw(&mut self) -> Result<DrawOutcome, String> {
        if self.end.is_some() {
            return Err("The game is already over.".into());
        }
        let me = self.keyboard_side();
        if let Some(r) = &self.remote {
            let accepting = self.draw_offer == Some(!me);
            let _ = r.to_server.send(ToServer::Draw(true));
            return Ok(DrawOutcome::Sent { accepting });
        }
        if self.draw_offer == Some(!me) || self.hot_seat {
            if self.draw_offer == Some(!me) {
                self.finish("1/2-1/2", "1/2-1/2 (draw agreed)".into());
                return Ok(DrawOutcome::Agreed);
            }
            self.draw_offer = Some(me);
            return Ok(DrawOutcome::Pending { from: me });
        }
        match draw_answer(self.game.moves().len(), self.engine_eval) {
            DrawAnswer::Accept => {
                self.finish("1/2-1/2", "1/2-1/2 (draw agreed)".into());
                Ok(DrawOutcome::Agreed)
            }
            answer => Ok(DrawOutcome::Declined(answer)),
        }
    }

    /// Hot-seat: the side to move accepts the standing offer.
    pub fn accept_draw(&mut self) {
        self.draw_offer = Some(!self.position().turn());
        self.finish("1/2-1/2", "1/2-1/2 (draw agreed)".into());
    }

    /// Hot-seat: the standing offer is declined.
    pub fn decline_draw(&mut self) {
        self.draw_offer = None;
    }

    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    // ----- the engine ---------------------------------------------------

    /// The engine's limits for a move of the side to move now: the house
    /// rules' think time from the level and that side's clock.
    pub fn think_time(&self) -> ThinkTime {
        let turn = self.position().turn();
        let clock = self
            .clocks
            .as_ref()
            .zip(self.time_left(turn))
            .map(|(cl, left)| Clock { remaining: left, increment: cl.increment });
        think_time(self.level, clock, self.game.moves().len(), Load::IDLE)
    }

    pub fn set_analysis(&mut self, on: bool) {
        // No engine help in a game against someone elsewhere.
        self.analysis_on = on && self.remote.is_none();
        if !on {
            if self.job.as_ref().is_some_and(|j| j.kind == JobKind::Analysis) {
                self.stop_engine();
            }
            self.analysis = None;
        }
        self.sync_engine();
    }

    pub fn stop_engine(&mut self) {
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
                let t = self.think_time();
                (t.strength(), t.limits())
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
            self.notices.push(Notice { text: "The engine stopped unexpectedly.".into(), moved: false });
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
        let ply = self.game.moves().len();
        match r {
            Report::Info { depth, score, nodes, pv, .. } => {
                if kind == JobKind::Move {
                    self.engine_eval = Some(EngineEval { ply, score });
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
                self.engine_eval = Some(EngineEval { ply, score: result.score });
                let text = match result.best {
                    Some(m) if self.position().is_legal(m) => {
                        self.play_announced(m, Some("Chimera")).unwrap_or_else(|e| e)
                    }
                    _ => "The engine found no move.".into(),
                };
                self.notices.push(Notice { text, moved: true });
            }
        }
    }

    /// Moves time on: the engine's reports, the server's states, the
    /// clocks' flags (online, the server's flags).
    pub fn tick(&mut self, now: Instant) {
        self.now = now;
        self.poll_engine();
        self.poll_remote();
        if self.end.is_none() && self.remote.is_none() {
            let turn = self.position().turn();
            if self.time_left(turn) == Some(Duration::ZERO) {
                let result = if turn == Color::White { "0-1" } else { "1-0" };
                let text = format!("{result} ({} loses on time)", turn.name());
                self.finish(result, text.clone());
                self.notices.push(Notice { text, moved: false });
            }
        }
        self.sync_engine();
    }
}

impl Session {
    // ----- online -------------------------------------------------------

    /// Reads what the server has sent. True if anything came.
    pub fn poll_remote(&mut self) -> bool {
        let mut got = false;
        while let Some(ev) = self.remote.as_ref().and_then(|r| r.from_server.try_recv().ok()) {
            self.apply_server(ev);
            got = true;
        }
        got
    }

    /// Waits up to `timeout` for one message from the server (the line
    /// mode). True if one came.
    pub fn wait_remote(&mut self, timeout: Duration) -> bool {
        let ev = self.remote.as_ref().and_then(|r| r.from_server.recv_timeout(timeout).ok());
        match ev {
            Some(ev) => {
                self.apply_server(ev);
                self.poll_remote();
                true
            }
            None => false,
        }
    }

    /// Applies one message from the server.
    pub fn apply_server(&mut self, ev: FromServer) {
        match ev {
            FromServer::State(st) => self.apply_server_state(st),
            FromServer::Refused { request, error } => {
                if let ToServer::Move { uci, .. } = &request {
                    // The server kept its position: back to it.
                    let moves = self.server_moves.clone();
                    if self.game.moves() != moves.as_slice() {
                        let start = self.game.start().clone();
                        self.rebuild(start, &moves);
                    }
                    self.notices.push(Notice { text: format!("The server refused {uci}: {error}"), moved: true });
                } else {
                    self.notices.push(Notice { text: format!("The server refused: {error}"), moved: false });
                }
            }
            FromServer::Note(text) => self.notices.push(Notice { text, moved: false }),
        }
    }

    fn apply_server_state(&mut self, st: ServerState) {
        // The server's moves, read in the game from its start.
        let mut pos = self.game.start().clone();
        let mut moves = Vec::with_capacity(st.moves.len());
        for s in &st.moves {
            match pos.parse_uci(s) {
                Ok(m) => {
                    moves.push(m);
                    pos.play_unchecked(m);
                }
                Err(e) => {
                    self.notices.push(Notice {
                        text: format!("The server sent a move this board cannot play: {e}"),
                        moved: false,
                    });
                    return;
                }
            }
        }
        let local = self.game.moves().to_vec();
        let mut announce = None;
        if moves.len() > local.len() && moves.starts_with(&local) {
            // New moves: the opponent's (or this side's from elsewhere).
            for &m in &moves[local.len()..] {
                let mover = self.position().turn();
                let s = san::to_san(self.position(), m);
                self.game.push_unchecked(m);
                self.sans.push(s.clone());
                if mover != self.human {
                    announce = Some(format!("{} plays {s}.", self.player_name(mover)));
                }
            }
            self.analysis = None;
        } else if moves != local {
            // This side's move not confirmed yet keeps the board as it is;
            // anything else: the server's game replaces it.
            let waiting = local.len() == moves.len() + 1 && local.starts_with(&moves) && st.ongoing();
            if !waiting {
                let start = self.game.start().clone();
                self.rebuild(start, &moves);
            }
        }
        self.server_moves = moves;
        let plies = self.game.moves().len();
        let (now, runs) = (self.now, clock_runs(plies) && st.ongoing());
        if let (Some(cl), Some(readings)) = (&mut self.clocks, st.clocks) {
            cl.remaining = readings;
            cl.running_since = runs.then_some(now);
        }
        self.draw_offer = st.draw_offer;
        self.server_over = !st.ongoing();
        if !st.ongoing() {
            // The server's verdict, in its words, over the board's own.
            let (result, text) = end_of(&st);
            self.end = None;
            self.finish(&result, text.clone());
            self.draw_offer = None;
            let said = match announce {
                Some(a) => format!("{a} {text}"),
                None => text,
            };
            self.notices.push(Notice { text: said, moved: true });
        } else if let Some(a) = announce {
            self.notices.push(Notice { text: a, moved: true });
        }
    }

    /// The game from `start` after `moves`, as the server has it.
    fn rebuild(&mut self, start: AnyPosition, moves: &[Move]) {
        self.replay(start, moves);
        self.refresh_end();
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
