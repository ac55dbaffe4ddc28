//! A game being played: the rules' `Game`, seats, clocks, result, draw
//! offers. Every operation works on a copy; the caller stores the copy in
//! one transaction and only then replaces the live game, so a refused or
//! failed change leaves both the live game and the store untouched.

use chimera_rules::san;
use chimera_rules::{
    AnyPosition, Bitboard, Color, Describe, EndReason, Game, Move, MoveKind, Position, Role, RuleOptions, Variant,
};
use serde_json::{json, Map, Value};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Engine,
    Friend,
    Hotseat,
    /// Against a stranger: an open seek in the lobby until someone joins.
    Seek,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::Friend => "friend",
            Mode::Hotseat => "hotseat",
            Mode::Seek => "seek",
        }
    }
    pub fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "engine" => Mode::Engine,
            "friend" => Mode::Friend,
            "hotseat" => Mode::Hotseat,
            "seek" => Mode::Seek,
            _ => return None,
        })
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Active,
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Finished => "finished",
        }
    }
}

/// What never changes after creation.
#[derive(Clone, Debug)]
pub struct Meta {
    pub id: String,
    pub variant: Variant,
    pub opts: RuleOptions,
    pub start_fen: String,
    pub mode: Mode,
    pub engine_level: Option<u8>,
    pub engine_color: Option<Color>,
    /// (initial, increment) in ms. A correspondence game's is (its days
    /// per move in ms, 0).
    pub clock: Option<(i64, i64)>,
    /// A correspondence game: days per move ([`CORRESPONDENCE_DAYS`]); its
    /// clock is set back to the whole allowance after each move.
    pub days: Option<u8>,
    pub created_at: i64,
    /// A rated game: its result changes both players' ratings (`ratings`).
    pub rated: bool,
    /// An open seek's rating range: only an account rated from the first to
    /// the second in the variant may take its seat.
    pub rating_range: Option<(i64, i64)>,
}

/// An account at a seat: its name, and its rating in the variant when it
/// took the seat (kept with the game, so the board and the lists show the
/// rating the game was played at).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub username: String,
    pub rating: i64,
    pub provisional: bool,
    /// A BOT account (a house bot or a program's, `docs/api.md`): shown
    /// with the title `BOT`.
    pub bot: bool,
}

impl Player {
    /// The rating as shown: `1500?` while provisional.
    pub fn shown(&self) -> String {
        format!("{}{}", self.rating, if self.provisional { "?" } else { "" })
    }
}

#[derive(Clone, Debug)]
pub struct Live {
    pub meta: Meta,
    pub game: Game<AnyPosition>,
    pub sans: Vec<String>,
    /// Clock readings after each move.
    pub move_clocks: Vec<(Option<i64>, Option<i64>)>,
    pub white_token: Option<String>,
    pub black_token: Option<String>,
    /// The accounts that hold the seats (`accounts.id`; `None` for an
    /// anonymous seat): a logged-in player's seat follows the account to any
    /// device (`GET /api/games/{id}/seat`).
    pub white_account: Option<String>,
    pub black_account: Option<String>,
    /// A rated game once applied to the ratings: (White's rating before,
    /// Black's, White's change, Black's), as the store holds them.
    pub ratings: Option<(i64, i64, i64, i64)>,
    /// The accounts at the seats (White's, Black's), with the ratings they
    /// took their seats at.
    pub players: [Option<Player>; 2],
    /// The secret of the invite link of a friend game with a free seat:
    /// joining needs it (the public id only lets people watch).
    pub invite: Option<String>,
    pub white_ms: Option<i64>,
    pub black_ms: Option<i64>,
    pub turn_started: Option<i64>,
    pub status: Status,
    pub result: String,
    pub reason: Option<String>,
    pub draw_offer: Option<Color>,
    /// The names the players chose (display only, never an identity).
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    /// Who offers a rematch of this finished game, and the rematch's id
    /// once it is made.
    pub rematch_offer: Option<Color>,
    pub rematch_id: Option<String>,
    pub updated_at: i64,
    /// The stored row's version: a change is stored only over the version
    /// it was made from (see `store::save`).
    pub version: i64,
    /// The instance that runs the game's clock and engine (see `store`).
    pub owner: Option<String>,
    /// Bumped on every change in this process (and on every reload); an
    /// engine reply computed for an older generation is thrown away.
    pub generation: u64,
    pub thinking: bool,
}

pub use crate::clock::now_ms;

/// The days per move a correspondence game may have (lichess's choices).
pub const CORRESPONDENCE_DAYS: [u8; 6] = [1, 2, 3, 5, 7, 14];

/// A day in ms.
pub const DAY_MS: i64 = 24 * 3600 * 1000;

pub fn color_char(c: Color) -> &'static str {
    if c == Color::White {
        "w"
    } else {
        "b"
    }
}

/// Why a join was refused: a wrong invite (403) or no free seat (409).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JoinError {
    Forbidden(String),
    Conflict(String),
}

/// Compares two secrets in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Who is acting on a game: the seats its token holds (none = spectator),
/// or the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    Seats(Vec<Color>),
    Engine,
}

impl Live {
    pub fn new(
        meta: Meta,
        start: AnyPosition,
        white_token: Option<String>,
        black_token: Option<String>,
        invite: Option<String>,
    ) -> Live {
        let ms = meta.clock.map(|c| c.0);
        let now = now_ms();
        Live {
            game: Game::new(start),
            sans: Vec::new(),
            move_clocks: Vec::new(),
            white_token,
            black_token,
            white_account: None,
            black_account: None,
            ratings: None,
            players: [None, None],
            invite,
            white_ms: ms,
            black_ms: ms,
            turn_started: None,
            status: Status::Active,
            result: "*".into(),
            reason: None,
            draw_offer: None,
            white_name: None,
            black_name: None,
            rematch_offer: None,
            rematch_id: None,
            updated_at: now,
            version: 0,
            owner: None,
            generation: 0,
            thinking: false,
            meta,
        }
    }

    pub fn seats_of(&self, token: Option<&str>) -> Vec<Color> {
        let Some(t) = token else { return vec![] };
        let mut v = Vec::new();
        if self.white_token.as_deref() == Some(t) {
            v.push(Color::White);
        }
        if self.black_token.as_deref() == Some(t) {
            v.push(Color::Black);
        }
        v
    }

    pub fn turn(&self) -> Color {
        self.game.position().turn()
    }

    pub fn engine_to_move(&self) -> bool {
        self.status == Status::Active && self.meta.mode == Mode::Engine && self.meta.engine_color == Some(self.turn())
    }

    /// When the game's owner must act next (ms since the epoch): the engine
    /// is to move (now), or the flag of the side to move falls. None: nothing
    /// is due (the game waits for a player).
    pub fn due_at(&self) -> Option<i64> {
        if self.status != Status::Active {
            return None;
        }
        if self.engine_to_move() {
            return Some(self.updated_at);
        }
        let t = self.turn_started?;
        let stored = if self.turn() == Color::White { self.white_ms } else { self.black_ms }?;
        Some(t + stored)
    }

    /// The clock of `c` now, in ms (a running clock counts down).
    pub fn remaining(&self, c: Color, now: i64) -> Option<i64> {
        let stored = if c == Color::White { self.white_ms } else { self.black_ms }?;
        match self.turn_started {
            Some(t) if self.status == Status::Active && self.turn() == c => Some(stored - (now - t)),
            _ => Some(stored),
        }
    }

    fn clock_running(&self) -> bool {
        // The session policy: each side's clock starts after its first move.
        self.meta.clock.is_some()
            && chimera_session::clock_runs(self.game.moves().len())
            && self.status == Status::Active
    }

    fn finish(&mut self, winner: Option<Color>, reason: EndReason) {
        let now = now_ms();
        // Freeze the clock of the side to move.
        if self.clock_running() {
            let rem = self.remaining(self.turn(), now).map(|r| r.max(0));
            if self.turn() == Color::White {
                self.white_ms = rem;
            } else {
                self.black_ms = rem;
            }
        }
        self.turn_started = None;
        self.status = Status::Finished;
        self.result = match winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
        .into();
        self.reason = Some(reason.as_str().to_string());
        self.draw_offer = None;
    }

    fn touch(&mut self) {
        self.updated_at = now_ms();
        self.generation += 1;
    }

    /// Ends the game on time if the side to move has run out. True if it did.
    pub fn check_flag(&mut self) -> bool {
        if self.status != Status::Active || !self.clock_running() {
            return false;
        }
        let turn = self.turn();
        if self.remaining(turn, now_ms()).is_some_and(|r| r <= 0) {
            self.finish(Some(!turn), EndReason::Timeout);
            self.touch();
            return true;
        }
        false
    }

    fn require_active(&self) -> Result<(), String> {
        if self.status != Status::Active {
            return Err(format!("the game is over ({} by {})", self.result, self.reason.as_deref().unwrap_or("?")));
        }
        Ok(())
    }

    /// The colour `actor` acts for in a move, resignation or offer: the side
    /// to move for a token holding both seats.
    fn acting_color(&self, actor: &Actor) -> Result<Color, String> {
        match actor {
            Actor::Engine => self.meta.engine_color.ok_or_else(|| "no engine in this game".to_string()),
            Actor::Seats(s) if s.is_empty() => Err("you are a spectator: no seat in this game belongs to you".into()),
            Actor::Seats(s) if s.len() == 2 => Ok(self.turn()),
            Actor::Seats(s) => Ok(s[0]),
        }
    }

    /// Plays a move given as a UCI string. `expect_ply`, when given, must be
    /// the number of moves played so far (guards against stale clients).
    pub fn play(&mut self, actor: &Actor, uci: &str, expect_ply: Option<usize>) -> Result<(), String> {
        self.require_active()?;
        if let Some(p) = expect_ply {
            if p != self.game.moves().len() {
                return Err(format!(
                    "stale move: the game is at ply {}, the move was made at ply {p}",
                    self.game.moves().len()
                ));
            }
        }
        let turn = self.turn();
        match actor {
            Actor::Engine => {
                if !self.engine_to_move() {
                    return Err("not the engine's turn".into());
                }
            }
            Actor::Seats(s) => {
                if s.is_empty() {
                    return Err("you are a spectator: no seat in this game belongs to you".into());
                }
                if !s.contains(&turn) {
                    return Err(format!(
                        "not your turn: {} is to move",
                        if turn == Color::White { "White" } else { "Black" }
                    ));
                }
                if self.engine_to_move() {
                    return Err("the engine is to move".into());
                }
                // A game against a person starts when both seats are taken:
                // an open seek's creator waits for a stranger, a friend
                // game's for the friend with the invite link.
                if self.white_token.is_none() || self.black_token.is_none() {
                    match self.meta.mode {
                        Mode::Seek => return Err("wait for an opponent to take the free seat".into()),
                        Mode::Friend => return Err("wait for your friend to join: send them the invite link".into()),
                        _ => {}
                    }
                }
            }
        }
        if uci.len() > 16 {
            return Err("move string too long".into());
        }
        let pos = self.game.position();
        let m = pos.parse_uci(uci).map_err(|e| e.to_string())?;
        let san = san::to_san(pos, m);
        let now = now_ms();
        if self.clock_running() {
            let rem = self.remaining(turn, now).unwrap_or(0);
            if rem <= 0 {
                self.finish(Some(!turn), EndReason::Timeout);
                self.touch();
                return Ok(());
            }
            // A correspondence move gets the whole allowance back; a clock
            // its increment.
            let next = match (self.meta.days, self.meta.clock) {
                (Some(_), Some((allowance, _))) => allowance,
                (_, c) => rem + c.map_or(0, |c| c.1),
            };
            if turn == Color::White {
                self.white_ms = Some(next);
            } else {
                self.black_ms = Some(next);
            }
        }
        self.game.push_unchecked(m);
        self.sans.push(san);
        self.move_clocks.push((self.white_ms, self.black_ms));
        self.turn_started = if self.meta.clock.is_some() && chimera_session::clock_runs(self.game.moves().len()) {
            Some(now)
        } else {
            None
        };
        // A move declines a pending offer made by the opponent.
        if self.draw_offer == Some(!turn) {
            self.draw_offer = None;
        }
        if let Some(o) = self.game.outcome() {
            self.finish(o.winner(), o.reason());
        }
        self.touch();
        Ok(())
    }

    pub fn resign(&mut self, actor: &Actor) -> Result<(), String> {
        self.require_active()?;
        let c = self.acting_color(actor)?;
        self.finish(Some(!c), EndReason::Resignation);
        self.touch();
        Ok(())
    }

    /// Ends the game without a result (`*`, reason "aborted"): lichess's
    /// abort, allowed while fewer than two moves are played. A rated game
    /// aborted changes no rating (`ratings::settle` rates only results).
    pub fn abort(&mut self, actor: &Actor) -> Result<(), String> {
        self.require_active()?;
        self.acting_color(actor)?;
        if self.game.moves().len() >= 2 {
            return Err("the game can no longer be aborted: both sides have moved; resign instead".into());
        }
        self.status = Status::Finished;
        self.result = "*".into();
        self.reason = Some("aborted".into());
        self.turn_started = None;
        self.draw_offer = None;
        self.touch();
        Ok(())
    }

    pub fn offer_draw(&mut self, actor: &Actor) -> Result<(), String> {
        self.require_active()?;
        let c = self.acting_color(actor)?;
        match self.draw_offer {
            Some(o) if o != c => {
                self.finish(None, EndReason::Agreement);
            }
            Some(_) => return Err("you have already offered a draw".into()),
            None => {
                if self.meta.mode == Mode::Engine {
                    return Err("the engine declines the draw offer".into());
                }
                if self.meta.mode == Mode::Hotseat {
                    // Both players sit at this device: an offer is an agreement.
                    self.finish(None, EndReason::Agreement);
                } else {
                    self.draw_offer = Some(c);
                }
            }
        }
        self.touch();
        Ok(())
    }

    /// A player's draw offer to the engine, with the engine's answer (the
    /// session policy's `draw_answer`): accepted, the game is drawn by
    /// agreement; declined, an error saying why.
    pub fn offer_draw_to_engine(&mut self, actor: &Actor, answer: chimera_session::DrawAnswer) -> Result<(), String> {
        self.require_active()?;
        if self.meta.mode != Mode::Engine {
            return Err("no engine in this game".into());
        }
        let c = self.acting_color(actor)?;
        if Some(c) == self.meta.engine_color {
            return Err("you are a spectator: no seat in this game belongs to you".into());
        }
        match answer {
            chimera_session::DrawAnswer::Accept => {
                self.finish(None, EndReason::Agreement);
                self.touch();
                Ok(())
            }
            chimera_session::DrawAnswer::Decline(_) => Err(answer.message().into()),
        }
    }

    pub fn accept_draw(&mut self, actor: &Actor) -> Result<(), String> {
        self.require_active()?;
        let c = self.acting_color(actor)?;
        match self.draw_offer {
            Some(o) if o != c => {
                self.finish(None, EndReason::Agreement);
                self.touch();
                Ok(())
            }
            _ => Err("there is no draw offer from your opponent to accept".into()),
        }
    }

    pub fn decline_draw(&mut self, actor: &Actor) -> Result<(), String> {
        self.require_active()?;
        let c = self.acting_color(actor)?;
        match self.draw_offer {
            Some(o) if o != c => {
                self.draw_offer = None;
                self.touch();
                Ok(())
            }
            _ => Err("there is no draw offer from your opponent to decline".into()),
        }
    }

    /// Takes back the player's last move (and the engine's reply). Allowed
    /// against the engine and on one device. Returns the ply from which
    /// stored moves must be deleted.
    pub fn takeback(&mut self, actor: &Actor) -> Result<usize, String> {
        let seats = match actor {
            Actor::Seats(s) if !s.is_empty() => s.clone(),
            _ => return Err("you are a spectator: no seat in this game belongs to you".into()),
        };
        // A rated game (against a house bot, `bots`) takes nothing back.
        if self.meta.rated {
            return Err("no take-backs in a rated game".into());
        }
        // The session policy says how far back (or not at all).
        let opponent = match self.meta.mode {
            Mode::Friend | Mode::Seek => chimera_session::Opponent::Remote,
            Mode::Hotseat => chimera_session::Opponent::SameBoard,
            Mode::Engine => chimera_session::Opponent::Engine { human: seats[0] },
        };
        let over = self.status != Status::Active;
        let n = chimera_session::takeback(opponent, self.turn(), self.game.moves().len(), over)
            .map_err(|e| e.to_string())?;
        for _ in 0..n {
            self.game.undo();
            self.sans.pop();
            self.move_clocks.pop();
        }
        // Clocks go back to what they read after the last remaining move.
        if let Some((init, _)) = self.meta.clock {
            let (w, b) = self.move_clocks.last().copied().unwrap_or((Some(init), Some(init)));
            self.white_ms = w;
            self.black_ms = b;
            self.turn_started =
                if chimera_session::clock_runs(self.game.moves().len()) { Some(now_ms()) } else { None };
        }
        self.draw_offer = None;
        self.touch();
        Ok(self.game.moves().len())
    }

    /// Claims the free seat of a friend game with the invite's secret,
    /// which is spent by it. Returns the colour.
    pub fn join(
        &mut self,
        invite: &str,
        token: String,
        name: Option<String>,
        account: Option<String>,
    ) -> Result<Color, JoinError> {
        if self.meta.mode != Mode::Friend {
            return Err(JoinError::Conflict("only games against a friend can be joined".into()));
        }
        match &self.invite {
            None => return Err(JoinError::Conflict("both seats of this game are taken; you can watch it".into())),
            Some(secret) if !same_secret(secret, invite) => {
                return Err(JoinError::Forbidden(
                    "this is not the game's invite: ask its creator for the invite link".into(),
                ))
            }
            Some(_) => {}
        }
        self.invite = None;
        if self.white_token.is_none() {
            self.white_token = Some(token);
            self.white_name = name;
            self.white_account = account;
            self.touch();
            Ok(Color::White)
        } else if self.black_token.is_none() {
            self.black_token = Some(token);
            self.black_name = name;
            self.black_account = account;
            self.touch();
            Ok(Color::Black)
        } else {
            Err(JoinError::Conflict("both seats of this game are taken; you can watch it".into()))
        }
    }

    /// The free seat of a game with one (friend games, open seeks).
    pub fn free_seat(&self) -> Option<Color> {
        match (&self.white_token, &self.black_token) {
            (None, Some(_)) => Some(Color::White),
            (Some(_), None) => Some(Color::Black),
            _ => None,
        }
    }

    /// An open seek: against a stranger, not over, a seat free.
    pub fn is_open_seek(&self) -> bool {
        self.meta.mode == Mode::Seek && self.status == Status::Active && self.free_seat().is_some()
    }

    /// An open seek that stays while its creator's pages are closed: a
    /// correspondence seek waits for an opponent until it is cancelled.
    pub fn is_lasting_seek(&self) -> bool {
        self.is_open_seek() && self.meta.days.is_some()
    }

    /// A rematch asked by `actor`: `Ok(true)` when it starts now (hot-seat,
    /// engine, or the opponent offered one first), `Ok(false)` when it is
    /// an offer for the opponent to accept.
    pub fn ask_rematch(&mut self, actor: &Actor) -> Result<bool, String> {
        if self.status != Status::Finished {
            return Err("a rematch is for a finished game: this one is still being played".into());
        }
        if let Some(id) = &self.rematch_id {
            return Err(format!("the rematch is already made: game {id}"));
        }
        let c = self.acting_color(actor)?;
        match self.meta.mode {
            Mode::Engine | Mode::Hotseat => return Ok(true),
            Mode::Friend | Mode::Seek => {}
        }
        if self.white_token.is_none() || self.black_token.is_none() {
            return Err("nobody took the other seat: there is no one to play a rematch with".into());
        }
        match self.rematch_offer {
            Some(o) if o != c => Ok(true),
            Some(_) => Err("you have already offered a rematch".into()),
            None => {
                self.rematch_offer = Some(c);
                self.touch();
                Ok(false)
            }
        }
    }

    /// Withdraws or declines the rematch offer.
    pub fn decline_rematch(&mut self, actor: &Actor) -> Result<(), String> {
        self.acting_color(actor)?;
        if self.rematch_offer.is_none() {
            return Err("there is no rematch offer to decline".into());
        }
        self.rematch_offer = None;
        self.touch();
        Ok(())
    }

    /// The rematch of this game: the same variant, rule options, start
    /// position, clock and engine level, colours swapped. The seat tokens
    /// swap with the colours, so each player's browser already holds its
    /// seat in the new game.
    pub fn rematch_game(&self, id: String) -> Result<Live, String> {
        let start = AnyPosition::from_fen(self.meta.variant, &self.meta.start_fen, &self.meta.opts)
            .map_err(|e| format!("the start position cannot be set up again: {e}"))?;
        let meta =
            Meta { id, engine_color: self.meta.engine_color.map(|c| !c), created_at: now_ms(), ..self.meta.clone() };
        let mut l = Live::new(meta, start, self.black_token.clone(), self.white_token.clone(), None);
        l.white_name = self.black_name.clone();
        l.black_name = self.white_name.clone();
        l.white_account = self.black_account.clone();
        l.black_account = self.white_account.clone();
        // The players' ratings are read again when the rematch is made.
        l.meta.rating_range = None;
        Ok(l)
    }

    /// The game as JSON for every client (no tokens), with its whole history.
    pub fn view(&self) -> Value {
        self.view_from(0)
    }

    /// The game as JSON with the history from ply `from` on only (a delta:
    /// `history_from` says where it starts, and a client keeps its first
    /// `history_from` entries and appends these). After a move that is one
    /// entry, whatever the game's length; after a takeback none.
    pub fn view_from(&self, from: usize) -> Value {
        let from = from.min(self.sans.len());
        let mut v = self.view_head(from);
        v.as_object_mut().expect("object").insert("history".into(), Value::Array(self.history(from)));
        v
    }

    /// The history from ply `from` on: one entry per move.
    pub fn history(&self, from: usize) -> Vec<Value> {
        let from = from.min(self.sans.len());
        let mut history = Vec::with_capacity(self.sans.len() - from);
        let positions = self.game.positions();
        for (i, (m, s)) in self.game.moves().iter().zip(&self.sans).enumerate().skip(from) {
            let after = &positions[i + 1];
            history.push(json!({
                "uci": m.to_string(),
                "san": s,
                "kind": kind_name(*m),
                "note": positions[i].move_note(*m),
                "from": if m.is_drop() { Value::Null } else { json!(m.from.to_string()) },
                "to": m.to.to_string(),
                "fen": after.fen(),
                "pockets": pockets_of(after),
                "state": variant_state(after),
                "state_lines": after.state_lines(),
                "check": check_square(after),
            }));
            if let Some((rem, spent)) = self.ply_clock(i) {
                let o = history.last_mut().and_then(Value::as_object_mut).expect("object");
                o.insert("clock".into(), json!(rem));
                o.insert("spent".into(), json!(spent));
            }
        }
        history
    }

    /// The mover's clock at ply `i` (0 for the first move): the ms left
    /// after the move and the ms the move took (its increment taken off),
    /// where the game has a clock and the store kept its readings. None
    /// for a correspondence game (its clock starts again at each move).
    pub fn ply_clock(&self, i: usize) -> Option<(i64, i64)> {
        let (initial, increment) = self.meta.clock?;
        if self.meta.days.is_some() {
            return None;
        }
        let white = i.is_multiple_of(2) == (self.game.start().turn() == Color::White);
        let side = |c: (Option<i64>, Option<i64>)| if white { c.0 } else { c.1 };
        let rem = side(*self.move_clocks.get(i)?)?;
        let before = if i >= 2 { side(*self.move_clocks.get(i - 2)?)? } else { initial };
        // Before the clock runs a move earns no increment (`clock_runs`).
        let earned = if chimera_session::clock_runs(i) { increment } else { 0 };
        Some((rem, (before + earned - rem).max(0)))
    }

    /// True while the state depends on the moment it is read (a clock
    /// runs): it changes otherwise only with `version` and `thinking`.
    pub fn time_dependent(&self) -> bool {
        self.clock_running()
    }

    /// The game as JSON without `history` (`history_from` is `from`).
    pub fn view_head(&self, from: usize) -> Value {
        let now = now_ms();
        let positions = self.game.positions();
        let clock = self.meta.clock.map(|(init, inc)| {
            json!({
                "initial": init, "increment": inc, "days": self.meta.days,
                "white": self.remaining(Color::White, now), "black": self.remaining(Color::Black, now),
                "running": if self.clock_running() { json!(color_char(self.turn())) } else { Value::Null },
            })
        });
        let pos = self.game.position();
        let mut v = position_view(pos, self.status == Status::Active);
        let o = v.as_object_mut().expect("object");
        o.insert("t".into(), json!("state"));
        o.insert("id".into(), json!(self.meta.id));
        o.insert("variant".into(), json!(self.meta.variant.id()));
        o.insert("variant_name".into(), json!(self.meta.variant.name()));
        o.insert("options".into(), options_json(self.meta.variant, &self.meta.opts));
        o.insert("mode".into(), json!(self.meta.mode.as_str()));
        o.insert("rated".into(), json!(self.meta.rated));
        let player = |p: &Option<Player>| match p {
            Some(p) if p.bot => json!({"username": p.username, "rating": p.shown(), "title": "BOT"}),
            Some(p) => json!({"username": p.username, "rating": p.shown()}),
            None => Value::Null,
        };
        o.insert("players".into(), json!({"w": player(&self.players[0]), "b": player(&self.players[1])}));
        o.insert(
            "ratings".into(),
            match self.ratings {
                Some((w, b, dw, db)) => json!({"w": {"rating": w, "diff": dw}, "b": {"rating": b, "diff": db}}),
                None => Value::Null,
            },
        );
        o.insert("engine_level".into(), json!(self.meta.engine_level));
        o.insert("engine_color".into(), json!(self.meta.engine_color.map(color_char)));
        o.insert("start_fen".into(), json!(self.meta.start_fen));
        o.insert("start_pockets".into(), pockets_of(&positions[0]));
        o.insert("start_state".into(), variant_state(&positions[0]));
        o.insert("start_state_lines".into(), json!(positions[0].state_lines()));
        o.insert("ply".into(), json!(self.game.moves().len()));
        o.insert("history_from".into(), json!(from));
        o.insert("status".into(), json!(self.status.as_str()));
        o.insert("result".into(), json!(self.result));
        o.insert("reason".into(), json!(self.reason));
        o.insert("draw_offer".into(), json!(self.draw_offer.map(color_char)));
        o.insert("clock".into(), clock.unwrap_or(Value::Null));
        o.insert("seats".into(), json!({"w": self.white_token.is_some(), "b": self.black_token.is_some()}));
        o.insert("names".into(), json!({"w": self.white_name, "b": self.black_name}));
        o.insert("rematch_offer".into(), json!(self.rematch_offer.map(color_char)));
        o.insert("rematch".into(), json!(self.rematch_id));
        o.insert("thinking".into(), json!(self.thinking));
        v
    }
}

/// The king in check's square, if any.
pub fn check_square(pos: &AnyPosition) -> Value {
    if pos.is_check() {
        pos.board().king_of(pos.turn()).map_or(Value::Null, |k| json!(k.to_string()))
    } else {
        Value::Null
    }
}

/// The placement field of a FEN (without any `[...]` pocket).
fn placement_of(fen: &str) -> &str {
    let p = fen.split_whitespace().next().unwrap_or("");
    p.split('[').next().unwrap_or("")
}

fn color_map<T: Into<Value>>(w: T, b: T) -> Value {
    json!({"w": w.into(), "b": b.into()})
}

fn squares(bb: Bitboard) -> Value {
    json!(bb.into_iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

/// The pieces beside the board (a Genesis reserve, a Clown hand), as the
/// variant's own module lists them: `{w: {N: 1}, b: {}}`.
pub fn pockets_of(pos: &AnyPosition) -> Value {
    let side = |c| {
        let m: Map<String, Value> =
            pos.pocket(c).into_iter().map(|(r, n)| (r.upper_char().to_string(), json!(n))).collect();
        Value::Object(m)
    };
    color_map(side(Color::White), side(Color::Black))
}

/// Why each piece beside the board may not come in now, by side and
/// letter, from the variant's own rules (`{w: {N: "Re-entry used: one a
/// game."}, b: {...}}`); only the pieces that may not are listed.
pub fn pocket_refusals(pos: &AnyPosition) -> Value {
    let side = |c| {
        let m: Map<String, Value> = pos
            .pocket(c)
            .into_iter()
            .filter_map(|(r, _)| pos.pocket_refusal(c, r).map(|why| (r.upper_char().to_string(), json!(why))))
            .collect();
        Value::Object(m)
    };
    color_map(side(Color::White), side(Color::Black))
}

/// A game's rule options as JSON: each option of the variant with its value,
/// defaults included (`{"ring_powers": "QNRB"}`; `{}` for chess).
pub fn options_json(variant: Variant, opts: &RuleOptions) -> Value {
    Value::Object(opts.values(variant).into_iter().map(|(o, v)| (o.key.to_string(), json!(v))).collect())
}

/// The variant's own state as the UI shows it, from the rules crate's
/// accessors (never parsed from FEN text): `null` for chess.
/// - genie: `{flips: {w, b}, own_half}` (who may still flip a pawn)
/// - genesis: `{king_first}` (the side to move must place its King next)
/// - clown: `{hands: {w: {N, B}, b}, reentry_used: {w, b}, had_clown: {w, b},
///   unmoved: [squares], last_by_clown, last_captured}` (`last_captured`: the
///   letter of the piece the last move took, which may not re-enter yet)
/// - magicring: `{rings: [{owner, square, level, power, active}], tainted:
///   [squares], powers}`; `power` is the letter the ring's level grants
///   (`null` at level 0), `active` whether its carrier may use it (not on a King)
pub fn variant_state(pos: &AnyPosition) -> Value {
    match pos {
        AnyPosition::Chess(_) => Value::Null,
        AnyPosition::Genie(p) => json!({
            "flips": color_map(p.may_flip(Color::White), p.may_flip(Color::Black)),
            "own_half": p.own_half(),
        }),
        AnyPosition::Genesis(p) => json!({"king_first": p.must_place_king()}),
        AnyPosition::Clown(p) => {
            let hand = |c| {
                let (n, b) = p.hand(c);
                json!({"N": n, "B": b})
            };
            json!({
                "hands": color_map(hand(Color::White), hand(Color::Black)),
                "reentry_used": color_map(p.reentry_used(Color::White), p.reentry_used(Color::Black)),
                "had_clown": color_map(p.had_clown(Color::White), p.had_clown(Color::Black)),
                "unmoved": squares(p.unmoved_knights()),
                // Why a piece in hand may not re-enter now: straight after
                // a Clown's move, or the piece taken by the last move.
                "last_by_clown": p.last_move_by_clown(),
                "last_captured": p.last_captured().map(|r| r.upper_char().to_string()),
            })
        }
        AnyPosition::MagicRing(p) => {
            let rings: Vec<Value> = Color::ALL
                .iter()
                .map(|&owner| {
                    let (sq, level) = p.ring(owner);
                    let power = p.powers().power(level);
                    let on_king = p.board().role_at(sq) == Some(Role::King);
                    json!({
                        "owner": color_char(owner),
                        // The side whose piece carries it (and who uses
                        // and passes it): the other side once captured.
                        "holder": p.board().color_at(sq).map(color_char),
                        "square": sq.to_string(),
                        "level": level,
                        "power": power.map(|r| r.upper_char().to_string()),
                        "active": power.is_some() && !on_king,
                    })
                })
                .collect();
            json!({"rings": rings, "tainted": squares(p.tainted()), "powers": p.powers().to_string()})
        }
    }
}

/// A position as the UI needs it: board, pockets, variant state, and every
/// legal move as [uci, SAN] grouped by the square it starts from (`@` for
/// placements and re-entries), so the UI needs no rules of its own.
pub fn position_view(pos: &AnyPosition, with_moves: bool) -> Value {
    let fen = pos.fen();
    let mut legal = Map::new();
    if with_moves {
        for (m, s) in san::all_san(pos) {
            let key = if m.is_drop() { "@".to_string() } else { m.from.to_string() };
            let entry = legal.entry(key).or_insert_with(|| Value::Array(vec![]));
            if let Value::Array(a) = entry {
                a.push(json!([m.to_string(), s, kind_name(m)]));
            }
        }
    }
    json!({
        "fen": fen,
        "board": placement_of(&fen),
        "pockets": pockets_of(pos),
        "pocket_name": pos.variant().info().pocket,
        "pocket_note": pos.variant().info().pocket_note,
        "pocket_why": pocket_refusals(pos),
        "state": variant_state(pos),
        "state_lines": pos.state_lines(),
        "turn": color_char(pos.turn()),
        "check": check_square(pos),
        "legal": legal,
    })
}

/// What a name may be: 1 to 20 letters (any script), digits, spaces and
/// `- _ . '`, trimmed; empty means no name. A name is shown, never trusted.
pub fn check_name(raw: Option<&str>) -> Result<Option<String>, String> {
    let Some(t) = raw.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(None) };
    let n = t.chars().count();
    if n > 20 {
        return Err(format!("a name is 20 characters at most, not {n}"));
    }
    if let Some(bad) = t.chars().find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.' | '\''))) {
        return Err(format!(
            "a name may hold letters, digits, spaces and - _ . ' only, not {:?}",
            bad.escape_default().to_string()
        ));
    }
    if t.contains("  ") {
        return Err("a name may not hold two spaces in a row".into());
    }
    Ok(Some(t.to_string()))
}

/// A word for the move's kind, for the UI's hints.
pub fn kind_name(m: Move) -> &'static str {
    match m.kind {
        MoveKind::Normal | MoveKind::DoublePush | MoveKind::EnPassant => "move",
        MoveKind::Castle => "castle",
        MoveKind::Promotion(_) => "promotion",
        MoveKind::Flip => "flip",
        MoveKind::Drop(_) => "drop",
        MoveKind::ReEntry(_) => "reentry",
        MoveKind::Declare => "declare",
        MoveKind::RingPass(_) => "ringpass",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(clock: Option<(i64, i64)>) -> Live {
        let opts = RuleOptions::default();
        let start = AnyPosition::new(Variant::Chess, &opts);
        let meta = Meta {
            id: "t".into(),
            variant: Variant::Chess,
            opts,
            start_fen: start.fen(),
            mode: Mode::Hotseat,
            engine_level: None,
            engine_color: None,
            clock,
            created_at: 0,
            rated: false,
            rating_range: None,
            days: None,
        };
        Live::new(meta, start, Some("t".into()), Some("t".into()), None)
    }

    fn both() -> Actor {
        Actor::Seats(vec![Color::White, Color::Black])
    }

    #[test]
    fn refused_moves_change_nothing() {
        let mut g = game(None);
        let before = g.view();
        assert!(g.play(&both(), "e2e5", None).unwrap_err().contains("e2e5"));
        assert!(g.play(&Actor::Seats(vec![]), "e2e4", None).unwrap_err().contains("spectator"));
        assert!(g.play(&Actor::Seats(vec![Color::Black]), "e2e4", None).unwrap_err().contains("not your turn"));
        assert_eq!(g.view(), before);
    }

    // Clocks are tested by moving the turn's start into the past, never by waiting.
    #[test]
    fn clock_starts_after_each_side_moved_and_flags() {
        let mut g = game(Some((60_000, 2_000)));
        g.play(&both(), "e2e4", None).unwrap();
        assert_eq!(g.turn_started, None, "Black's clock waits for Black's first move");
        g.play(&both(), "e7e5", None).unwrap();
        assert!(g.turn_started.is_some());
        // White thinks 10 s: 60 - 10 + 2 increment = 52 s left.
        g.turn_started = Some(now_ms() - 10_000);
        g.play(&both(), "g1f3", None).unwrap();
        let w = g.white_ms.unwrap();
        assert!((51_900..=52_000).contains(&w), "{w}");
        // Black overstays: flagged, White wins on time.
        g.turn_started = Some(now_ms() - 61_000);
        assert!(g.check_flag());
        assert_eq!(g.result, "1-0");
        assert_eq!(g.reason.as_deref(), Some("time forfeit"));
        assert_eq!(g.black_ms, Some(0));
    }

    /// Each move's clock in the history: the mover's time left and the
    /// time the move took, its increment taken off; nothing before the
    /// clocks run, nothing without a clock or in a correspondence game.
    #[test]
    fn each_move_carries_its_clock_and_time_taken() {
        let mut g = game(Some((60_000, 2_000)));
        g.play(&both(), "e2e4", None).unwrap();
        g.play(&both(), "e7e5", None).unwrap();
        g.turn_started = Some(now_ms() - 10_000);
        g.play(&both(), "g1f3", None).unwrap();
        g.turn_started = Some(now_ms() - 4_000);
        g.play(&both(), "b8c6", None).unwrap();
        assert_eq!(g.ply_clock(0), Some((60_000, 0)));
        assert_eq!(g.ply_clock(1), Some((60_000, 0)));
        let (left, took) = g.ply_clock(2).unwrap();
        assert!((10_000..10_100).contains(&took) && left == 60_000 + 2_000 - took, "{left} {took}");
        let (left, took) = g.ply_clock(3).unwrap();
        assert!((4_000..4_100).contains(&took) && left == 60_000 + 2_000 - took, "{left} {took}");
        assert_eq!(g.ply_clock(4), None, "no such move");
        let h = g.history(0);
        assert_eq!(
            (h[2]["clock"].as_i64(), h[2]["spent"].as_i64()),
            (g.ply_clock(2).map(|c| c.0), g.ply_clock(2).map(|c| c.1))
        );
        let mut plain = game(None);
        plain.play(&both(), "e2e4", None).unwrap();
        assert_eq!(plain.ply_clock(0), None);
        assert!(plain.history(0)[0].get("clock").is_none());
        g.meta.days = Some(3);
        assert_eq!(g.ply_clock(2), None, "a correspondence clock starts again each move");
    }

    #[test]
    fn a_move_after_the_flag_loses_on_time() {
        let mut g = game(Some((60_000, 0)));
        g.play(&both(), "e2e4", None).unwrap();
        g.play(&both(), "e7e5", None).unwrap();
        g.turn_started = Some(now_ms() - 60_001);
        g.play(&both(), "g1f3", None).unwrap();
        assert_eq!(g.game.moves().len(), 2, "the late move is not played");
        assert_eq!(g.result, "0-1");
    }

    #[test]
    fn takeback_in_hotseat_and_engine_games() {
        let mut g = game(None);
        assert!(g.takeback(&both()).is_err(), "nothing to take back");
        g.play(&both(), "e2e4", None).unwrap();
        assert_eq!(g.takeback(&both()), Ok(0));
        assert_eq!(g.game.moves().len(), 0);
        let mut e = game(None);
        e.meta.mode = Mode::Engine;
        e.meta.engine_color = Some(Color::Black);
        let human = Actor::Seats(vec![Color::White]);
        e.play(&human, "e2e4", None).unwrap();
        e.play(&Actor::Engine, "e7e5", None).unwrap();
        assert_eq!(e.takeback(&human), Ok(0), "the engine's reply and the human move");
        e.play(&human, "d2d4", None).unwrap();
        assert_eq!(e.takeback(&human), Ok(0), "engine still thinking: the human move only");
    }

    #[test]
    fn draw_offers_and_resignation() {
        let mut f = game(None);
        f.meta.mode = Mode::Friend;
        let w = Actor::Seats(vec![Color::White]);
        let b = Actor::Seats(vec![Color::Black]);
        assert!(f.accept_draw(&b).is_err(), "nothing to accept");
        f.offer_draw(&w).unwrap();
        assert!(f.accept_draw(&w).is_err(), "not one's own offer");
        f.accept_draw(&b).unwrap();
        assert_eq!((f.result.as_str(), f.reason.as_deref()), ("1/2-1/2", Some("agreement")));
        assert!(f.resign(&w).unwrap_err().contains("over"));
        let mut g = game(None);
        g.play(&both(), "e2e4", None).unwrap();
        g.resign(&both()).unwrap();
        assert_eq!(g.result, "1-0", "hot-seat: the side to move (Black) resigns");
    }

    fn pos(variant: &str, fen: &str) -> AnyPosition {
        AnyPosition::from_fen(variant.parse().unwrap(), fen, &RuleOptions::default()).unwrap()
    }

    // The examples of docs/fen.md, read back through the rules crate's
    // accessors: what the board shows must be what the rules hold.
    #[test]
    fn magic_ring_state_names_carriers_levels_powers_and_tainted_pawns() {
        // Both rings on Black's King on c6: White's at level 2 (list NKQ: the
        // King power, unusable on a King), Black's never moved.
        let p =
            pos("magicring", "rnbq1bnr/ppp1pppp/2k5/3p4/8/8/PPPP1PPP/RNBQKBNR w KQ - 0 4 rings:c6.2,c6.0 powers:NKQ");
        let v = variant_state(&p);
        assert_eq!(v["powers"], "NKQ");
        assert_eq!(
            v["rings"][0],
            json!({"owner": "w", "holder": "b", "square": "c6", "level": 2, "power": "K", "active": false})
        );
        assert_eq!(
            v["rings"][1],
            json!({"owner": "b", "holder": "b", "square": "c6", "level": 0, "power": null, "active": false})
        );
        assert_eq!(v["tainted"], json!([]));
        // White's ring on the f1 Bishop, Black's on the tainted e7 pawn: both
        // level 1 = Queen under the default list QNRB, both usable.
        let p = pos("magicring", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 2 4 rings:f1.1,e7.1 tainted:e7");
        let v = variant_state(&p);
        assert_eq!(
            v["rings"][0],
            json!({"owner": "w", "holder": "w", "square": "f1", "level": 1, "power": "Q", "active": true})
        );
        assert_eq!(
            v["rings"][1],
            json!({"owner": "b", "holder": "b", "square": "e7", "level": 1, "power": "Q", "active": true})
        );
        assert_eq!(v["tainted"], json!(["e7"]));
        // The start: each ring on its own King, level 0, no power.
        let v = variant_state(&AnyPosition::new(Variant::MagicRing, &RuleOptions::default()));
        assert_eq!(v["rings"][0]["square"], "e1");
        assert_eq!(v["rings"][1]["square"], "e8");
        assert_eq!(v["rings"][0]["power"], Value::Null);
    }

    #[test]
    fn genie_state_is_the_flip_rights() {
        // After 1. e4 d5 2. Ge4 dxe4: White has had its Genie, Black may flip.
        let v = variant_state(&pos("genie", "rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 flips:b"));
        assert_eq!(v["flips"], json!({"w": false, "b": true}));
        let v = variant_state(&pos("genie", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
        assert_eq!(v["flips"], json!({"w": true, "b": true}));
    }

    #[test]
    fn clown_state_is_hands_reentry_and_clown_history() {
        // After 1. Nc3(!C) d5 2. Cd4 e5 3. a3 exd4: the Clown went to
        // White's hand as a Knight; b1's Knight has moved.
        let p = pos("clown", "rnbqkbnr/ppp2ppp/8/3p4/3p4/P7/1PPPPPPP/R1BQKBNR[N] w KQkq - 0 4 clown:w lastcap:N");
        let v = variant_state(&p);
        assert_eq!(v["hands"], json!({"w": {"N": 1, "B": 0}, "b": {"N": 0, "B": 0}}));
        assert_eq!(v["had_clown"], json!({"w": true, "b": false}));
        assert_eq!(v["reentry_used"], json!({"w": false, "b": false}));
        assert_eq!(v["unmoved"], json!(["g1", "b8", "g8"]));
        assert_eq!(pockets_of(&p), json!({"w": {"N": 1}, "b": {}}));
    }

    #[test]
    fn genesis_pockets_are_the_reserves() {
        let p = AnyPosition::new(Variant::Genesis, &RuleOptions::default());
        let all = json!({"K": 1, "Q": 1, "R": 2, "B": 2, "N": 2, "P": 8});
        assert_eq!(pockets_of(&p), json!({"w": all.clone(), "b": all}));
        assert_eq!(variant_state(&p), json!({"king_first": true}));
        let v = position_view(&p, true);
        assert_eq!(v["board"], "8/8/8/8/8/8/8/8");
        assert!(
            v["legal"]["@"].as_array().unwrap().iter().all(|m| m[0].as_str().unwrap().starts_with("K@")),
            "King first"
        );
    }

    #[test]
    fn names_are_checked_and_trimmed() {
        assert_eq!(check_name(None), Ok(None));
        assert_eq!(check_name(Some("   ")), Ok(None));
        assert_eq!(check_name(Some(" Ana-María O'Neil ")), Ok(Some("Ana-María O'Neil".into())));
        assert_eq!(check_name(Some("Иван_2.0")), Ok(Some("Иван_2.0".into())));
        for bad in ["<script>", "a\u{0}b", "x\ny", "a  b", "emoji 🎉", "white\u{202e}", &"x".repeat(21)] {
            assert!(check_name(Some(bad)).is_err(), "{bad:?} must be refused");
        }
    }

    #[test]
    fn rematch_offer_accept_and_swapped_seats() {
        let mut f = game(None);
        f.meta.mode = Mode::Friend;
        f.white_token = Some("W".into());
        f.black_token = Some("B".into());
        f.white_name = Some("Ann".into());
        let w = Actor::Seats(vec![Color::White]);
        let b = Actor::Seats(vec![Color::Black]);
        assert!(f.ask_rematch(&w).unwrap_err().contains("still being played"));
        f.resign(&w).unwrap();
        assert!(f.ask_rematch(&Actor::Seats(vec![])).unwrap_err().contains("spectator"));
        assert_eq!(f.ask_rematch(&w), Ok(false), "an offer");
        assert!(f.ask_rematch(&w).unwrap_err().contains("already offered"));
        assert_eq!(f.ask_rematch(&b), Ok(true), "the opponent accepts");
        let r = f.rematch_game("r".into()).unwrap();
        assert_eq!((r.white_token.as_deref(), r.black_token.as_deref()), (Some("B"), Some("W")));
        assert_eq!((r.white_name, r.black_name.as_deref()), (None, Some("Ann")));
        assert_eq!((r.status, r.game.moves().len()), (Status::Active, 0));
        // Hot-seat: at once.
        let mut h = game(None);
        h.resign(&both()).unwrap();
        assert_eq!(h.ask_rematch(&both()), Ok(true));
    }
}
