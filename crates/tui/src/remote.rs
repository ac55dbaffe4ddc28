//! A game on a server (`chimera play --online`, the Board API of
//! docs/api.md): the other side is a person or a bot elsewhere. The
//! network is not this crate's business: the caller reads the game's
//! stream and makes the requests, and talks to the [`Session`] through the
//! two channels of a [`Remote`], so tests play a whole game with plain
//! messages.
//!
//! The server is the judge. A move made here shows at once and goes to the
//! server; the server's next state confirms it, and a refusal takes it back.
//! The clocks are the server's readings, run on here between states; a flag
//! falls when the server says so.
//!
//! [`Session`]: crate::Session

use chimera_rules::Color;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

/// The server's state of the game, after any change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerState {
    /// Every move so far, as move strings (UCI).
    pub moves: Vec<String>,
    /// Time left for White and Black when the state was sent.
    pub clocks: Option<[Duration; 2]>,
    /// lichess's status: `started`, `mate`, `resign`, `outoftime`, `draw`...
    pub status: String,
    pub winner: Option<Color>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Color>,
}

impl ServerState {
    /// Whether the game goes on.
    pub fn ongoing(&self) -> bool {
        matches!(self.status.as_str(), "started" | "created" | "")
    }
}

/// What the session hears from the server's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromServer {
    /// The game after a change (the whole of it).
    State(ServerState),
    /// A request was refused or failed: which, and why.
    Refused { request: ToServer, error: String },
    /// A word for the message line ("Connection lost; reconnecting…").
    Note(String),
}

/// What the session asks of the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToServer {
    /// Play this move (UCI) as ply `ply` (0-based).
    Move {
        uci: String,
        ply: usize,
    },
    Resign,
    /// Offer or accept a draw (`true`), decline one (`false`).
    Draw(bool),
}

/// The session's end of the link to a server.
pub struct Remote {
    pub from_server: Receiver<FromServer>,
    pub to_server: Sender<ToServer>,
    /// The players as they are shown: White's, Black's.
    pub names: [String; 2],
}

/// The network's end: where it sends states and reads requests.
pub struct ServerEnd {
    pub to_session: Sender<FromServer>,
    pub from_session: Receiver<ToServer>,
}

impl Remote {
    /// A linked pair: the session's end and the network's.
    pub fn pair(names: [String; 2]) -> (Remote, ServerEnd) {
        let (to_session, from_server) = mpsc::channel();
        let (to_server, from_session) = mpsc::channel();
        (Remote { from_server, to_server, names }, ServerEnd { to_session, from_session })
    }
}

/// The result and the words for an ended game: `("1-0", "1-0 (Black
/// resigns)")`.
pub fn end_of(state: &ServerState) -> (String, String) {
    let result = match (state.winner, state.status.as_str()) {
        (Some(Color::White), _) => "1-0",
        (Some(Color::Black), _) => "0-1",
        (None, "aborted") => "*",
        (None, _) => "1/2-1/2",
    };
    let loser = state.winner.map(|w| (!w).name()).unwrap_or("");
    let why = match state.status.as_str() {
        "mate" => "checkmate".to_string(),
        "resign" => format!("{} resigns", crate::app::cap(loser)),
        "outoftime" | "timeout" => format!("{} loses on time", crate::app::cap(loser)),
        "stalemate" => "stalemate".to_string(),
        "draw" => "draw".to_string(),
        "aborted" => return ("*".into(), "The game was aborted.".into()),
        "variantEnd" => "the variant's end".to_string(),
        other => other.to_string(),
    };
    (result.to_string(), format!("{result} ({why})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_in_words() {
        let st = |status: &str, winner| ServerState { status: status.into(), winner, ..ServerState::default() };
        assert_eq!(end_of(&st("resign", Some(Color::White))), ("1-0".into(), "1-0 (Black resigns)".into()));
        assert_eq!(end_of(&st("outoftime", Some(Color::Black))), ("0-1".into(), "0-1 (White loses on time)".into()));
        assert_eq!(end_of(&st("mate", Some(Color::Black))), ("0-1".into(), "0-1 (checkmate)".into()));
        assert_eq!(end_of(&st("draw", None)), ("1/2-1/2".into(), "1/2-1/2 (draw)".into()));
        assert_eq!(end_of(&st("aborted", None)).0, "*");
        assert!(st("started", None).ongoing() && !st("mate", Some(Color::White)).ongoing());
    }
}
