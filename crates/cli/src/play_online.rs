//! `chimera play --online URL --token T`: the terminal player on a game of a
//! server, through the Board API (docs/api.md). This side finds the game
//! (the account's game going on, or the one a `--challenge` starts), reads
//! its stream on a thread that reconnects as `chimera bot` does, and makes
//! the requests the player asks for on another; the board is the terminal
//! app's, linked to them by a `chimera_tui::Remote`.

use crate::api_client::{account_of, challenge_of, Api, Backoff, GameFull, GameState, NdjsonStream};
use anyhow::{anyhow, bail, Result};
use chimera_rules::{AnyPosition, Color, RuleOptions, Variant};
use chimera_tui::remote::{FromServer, Remote, ServerEnd, ServerState, ToServer};
use chimera_tui::Config;
use serde_json::json;
use std::time::{Duration, Instant};

/// What `chimera play` was given for an online game.
pub struct Online {
    pub url: String,
    pub token: String,
    /// Challenge this account first.
    pub challenge: Option<String>,
    pub variant: Variant,
    pub rules: RuleOptions,
    /// `white`, `black` or `random`.
    pub color: String,
    pub clock: Option<(Duration, Duration)>,
    pub rated: bool,
}

fn say(msg: impl std::fmt::Display) {
    eprintln!("chimera play: {msg}");
}

/// The threads of a game on a server.
pub struct Link {
    /// Closed when the requests' thread has sent everything asked.
    requests_done: std::sync::mpsc::Receiver<()>,
}

impl Link {
    /// Once the board has closed (its `Remote` dropped): waits, ten
    /// seconds at most, for the requests it made to reach the server (a
    /// last move, a resignation).
    pub fn finish(self) {
        let _ = self.requests_done.recv_timeout(Duration::from_secs(10));
    }
}

/// Finds the game, reads its first state, and hands back the board's
/// configuration and its link to the server (the threads run on).
pub fn connect(o: &Online, base: Config) -> Result<(Config, Remote, Link)> {
    let api = Api::new(&o.url, &o.token).map_err(|e| anyhow!(e))?;
    let account = api.get("/api/account").map_err(|e| anyhow!("GET /api/account on {}: {e}", api.base()))?;
    let (me, name) = account_of(&account).ok_or_else(|| anyhow!("GET /api/account: no account in {account}"))?;
    let id = find_game(&api, o, &me, &name)?;
    let (full, stream) = open_game(&api, &id)?;
    let color = match full.color_of(&me) {
        Some("white") => Color::White,
        Some(_) => Color::Black,
        None => bail!("{name} plays neither side of game {id}"),
    };
    let variant: Variant = full.variant.parse().map_err(|e| anyhow!("game {id}: {e}"))?;
    let mut rules = RuleOptions::default();
    for (k, v) in &full.options {
        if RuleOptions::spec(k).is_some() {
            rules.set(k, v).map_err(|e| anyhow!("game {id}: {e}"))?;
        }
    }
    let start = match full.initial_fen.trim() {
        "" | "startpos" => None,
        fen => Some(AnyPosition::from_fen(variant, fen, &rules).map_err(|e| anyhow!("game {id}: bad FEN: {e}"))?),
    };
    let config = Config {
        variant,
        rule_options: rules,
        start,
        human: color,
        hot_seat: false,
        clock: full.clock.map(|(i, inc)| (Duration::from_millis(i), Duration::from_millis(inc))),
        ..base
    };
    let (remote, end) = Remote::pair([full.white.display(), full.black.display()]);
    let _ = end.to_session.send(FromServer::State(server_state(&full.state, full.clock.is_some())));
    say(format!("game {id}: {} v {}, {}", full.white.display(), full.black.display(), full.variant));
    let link = spawn_link(api, id, full, stream, end);
    Ok((config, remote, link))
}

/// The game to play: the one a challenge starts, else the account's game
/// going on (the event stream names it at once), waiting for one.
fn find_game(api: &Api, o: &Online, me: &str, name: &str) -> Result<String> {
    let mut events = api.stream("/api/stream/event").map_err(|e| anyhow!("GET /api/stream/event: {e}"))?;
    let mut challenge = None;
    if let Some(user) = &o.challenge {
        let mut body = json!({"rated": o.rated, "color": o.color, "variant": crate::cmd_bot::api_key(o.variant)});
        if let Some((limit, inc)) = o.clock {
            body["clock.limit"] = json!(limit.as_secs_f64().round() as u64);
            body["clock.increment"] = json!(inc.as_secs_f64().round() as u64);
        }
        let rules = o.rules.to_string();
        if !rules.is_empty() {
            body["rules"] = json!(rules);
        }
        let answer =
            api.post(&format!("/api/challenge/{user}"), Some(&body)).map_err(|e| anyhow!("challenging {user}: {e}"))?;
        let c = challenge_of(&answer);
        let id = c["id"].as_str().ok_or_else(|| anyhow!("challenging {user}: no id in {answer}"))?.to_string();
        if c["status"] == "declined" {
            bail!("{user} declined: {}", c["declineReason"].as_str().unwrap_or("no reason given"));
        }
        if c["status"] == "accepted" || c["game"].is_object() {
            return Ok(c["game"]["id"].as_str().unwrap_or(&id).to_string());
        }
        say(format!("challenged {user} ({id}); waiting for the answer (Ctrl-C cancels)"));
        challenge = Some((user.clone(), id));
    }
    // Said at the first keep-alive: the games going on come before it.
    let mut waiting_said = challenge.is_some();
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        if Instant::now() > deadline {
            if let Some((_, id)) = &challenge {
                let _ = api.post(&format!("/api/challenge/{id}/cancel"), None);
            }
            bail!("no game within ten minutes");
        }
        let ev = match events.next_line() {
            Ok(Some(line)) if line.trim().is_empty() => {
                if !waiting_said {
                    waiting_said = true;
                    say(format!("{name}: no game going on; waiting for one (a challenge accepted on {})", api.base()));
                }
                continue;
            }
            Ok(Some(line)) => {
                crate::api_client::parse_line(&line).map_err(|e| anyhow!("GET /api/stream/event: {e}"))?
            }
            Ok(None) | Err(_) => {
                // Open it again (it is read from the store afresh).
                std::thread::sleep(Duration::from_millis(500));
                events = api.stream("/api/stream/event").map_err(|e| anyhow!("GET /api/stream/event: {e}"))?;
                continue;
            }
        };
        match ev["type"].as_str().unwrap_or_default() {
            "gameStart" => {
                let g = &ev["game"];
                let Some(id) = g["gameId"].as_str().or(g["id"].as_str()) else { continue };
                match &challenge {
                    None => return Ok(id.to_string()),
                    Some((user, cid)) => {
                        let opponent = g["opponent"]["id"].as_str().unwrap_or_default();
                        if id == cid || opponent.eq_ignore_ascii_case(user) {
                            return Ok(id.to_string());
                        }
                    }
                }
            }
            "challengeDeclined" => {
                let c = &ev["challenge"];
                if challenge.as_ref().is_some_and(|(_, id)| c["id"].as_str() == Some(id)) {
                    bail!("the challenge was declined: {}", c["declineReason"].as_str().unwrap_or("no reason given"));
                }
            }
            "challengeCanceled" => {
                let c = &ev["challenge"];
                if challenge.as_ref().is_some_and(|(_, id)| c["id"].as_str() == Some(id)) {
                    bail!("the challenge was cancelled");
                }
            }
            "challenge" if challenge.is_none() => {
                let c = &ev["challenge"];
                let to_me = c["destUser"]["id"].as_str().is_some_and(|d| d.eq_ignore_ascii_case(me));
                if to_me {
                    say(format!(
                        "{} challenges you ({}): accept it on the site, or with POST /api/challenge/{}/accept",
                        c["challenger"]["name"].as_str().unwrap_or("someone"),
                        c["variant"]["key"].as_str().unwrap_or("standard"),
                        c["id"].as_str().unwrap_or("?")
                    ));
                }
            }
            _ => {}
        }
    }
}

/// Opens the game's stream and reads its `gameFull`.
fn open_game(api: &Api, id: &str) -> Result<(GameFull, NdjsonStream)> {
    let mut stream = api.stream(&format!("/api/board/game/stream/{id}")).map_err(|e| anyhow!("game {id}: {e}"))?;
    loop {
        match stream.next_value().map_err(|e| anyhow!("game {id}: {e}"))? {
            Some(v) if v["type"] == "gameFull" => return Ok((GameFull::from_json(&v), stream)),
            Some(_) => {}
            None => bail!("game {id}: the stream ended before the game's first state"),
        }
    }
}

/// A stream's state in the board's terms.
pub fn server_state(st: &GameState, clocked: bool) -> ServerState {
    let color = |c: &str| match c {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    };
    ServerState {
        moves: st.moves.clone(),
        clocks: clocked.then(|| [Duration::from_millis(st.wtime), Duration::from_millis(st.btime)]),
        status: st.status.clone(),
        winner: st.winner.as_deref().and_then(color),
        draw_offer: if st.wdraw {
            Some(Color::White)
        } else if st.bdraw {
            Some(Color::Black)
        } else {
            None
        },
    }
}

/// The request for one of the board's wishes: (path after the game's, query).
pub fn request_path(id: &str, r: &ToServer) -> String {
    match r {
        ToServer::Move { uci, .. } => format!("/api/board/game/{id}/move/{uci}"),
        ToServer::Resign => format!("/api/board/game/{id}/resign"),
        ToServer::Draw(yes) => format!("/api/board/game/{id}/draw/{}", if *yes { "yes" } else { "no" }),
    }
}

/// The two threads: the game's stream (reconnecting until the game is
/// over) and the requests.
fn spawn_link(api: Api, id: String, full: GameFull, stream: NdjsonStream, end: ServerEnd) -> Link {
    let ServerEnd { to_session, from_session } = end;
    let (api2, id2, tx2) = (api.clone(), id.clone(), to_session.clone());
    let (done_tx, requests_done) = std::sync::mpsc::channel::<()>();
    let _ = std::thread::Builder::new().name("requests".into()).spawn(move || {
        // Dropped when the board's requests end: `Link::finish` returns.
        let _done = done_tx;
        for r in from_session {
            if let Err(e) = api2.post(&request_path(&id2, &r), None) {
                if tx2.send(FromServer::Refused { request: r, error: e.to_string() }).is_err() {
                    return;
                }
            }
        }
    });
    let clocked = full.clock.is_some();
    let _ = std::thread::Builder::new().name("game-stream".into()).spawn(move || {
        let mut stream = Some(stream);
        let mut backoff = Backoff::default();
        loop {
            let mut s = match stream.take() {
                Some(s) => s,
                None => match api.stream(&format!("/api/board/game/stream/{id}")) {
                    Ok(s) => s,
                    Err(e) if matches!(e.status(), Some(401 | 403 | 404)) => {
                        let _ = to_session.send(FromServer::Note(format!("The game's stream: {e}")));
                        return;
                    }
                    Err(_) => {
                        std::thread::sleep(backoff.next_delay());
                        continue;
                    }
                },
            };
            while let Ok(Some(v)) = s.next_value() {
                backoff.reset();
                let st = match v["type"].as_str() {
                    Some("gameFull") => GameFull::from_json(&v).state,
                    Some("gameState") => GameState::from_json(&v),
                    _ => continue,
                };
                let over = !st.ongoing();
                if to_session.send(FromServer::State(server_state(&st, clocked))).is_err() || over {
                    return;
                }
            }
            if to_session.send(FromServer::Note("Connection to the server lost; reconnecting…".into())).is_err() {
                return;
            }
            std::thread::sleep(backoff.next_delay());
        }
    });
    Link { requests_done }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_for_the_board() {
        let st = GameState {
            moves: vec!["e2e4".into()],
            wtime: 60_000,
            btime: 59_500,
            status: "started".into(),
            bdraw: true,
            ..GameState::default()
        };
        let s = server_state(&st, true);
        assert_eq!(s.clocks, Some([Duration::from_millis(60_000), Duration::from_millis(59_500)]));
        assert_eq!(s.draw_offer, Some(Color::Black));
        assert_eq!(server_state(&st, false).clocks, None);
        let over = GameState { status: "resign".into(), winner: Some("black".into()), ..GameState::default() };
        assert_eq!(server_state(&over, true).winner, Some(Color::Black));
        assert!(!server_state(&over, true).ongoing());
    }

    #[test]
    fn requests_for_the_board() {
        assert_eq!(request_path("g1", &ToServer::Move { uci: "K@e4".into(), ply: 0 }), "/api/board/game/g1/move/K@e4");
        assert_eq!(request_path("g1", &ToServer::Resign), "/api/board/game/g1/resign");
        assert_eq!(request_path("g1", &ToServer::Draw(true)), "/api/board/game/g1/draw/yes");
        assert_eq!(request_path("g1", &ToServer::Draw(false)), "/api/board/game/g1/draw/no");
    }
}
