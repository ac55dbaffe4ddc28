//! One session policy for the web and the terminal (`chimera-session`):
//! the web server's live game, driven in-process through its HTTP and
//! WebSocket API, and the terminal's `Session`, driven through its methods,
//! play the same game plan and must give the same levels, think times,
//! draw answers and take-backs. (This test lives in the `chimera` crate,
//! which links both front ends; neither links the other.)

#[path = "../../server/tests/common/http.rs"]
#[allow(dead_code)]
mod http;

use chimera_rules::{AnyPosition, Color, Game, Move, Position, Variant};
use chimera_server::Server;
use chimera_session::{DrawAnswer, Level, LEVELS};
use chimera_tui::{session::DrawOutcome, Config, Session};
use http::{get_json, post_json, send, Ws};
use serde_json::{json, Value};
use std::time::Duration;

/// The engine (Black) has its King alone against a Queen and eight pawns:
/// it judges itself lost, so it takes a draw once the policy lets it.
const LOST_FOR_BLACK: &str = "k7/8/8/8/8/8/PPPPPPPP/4K2Q w - - 0 1";

/// One step of the plan and what a front end answered.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// At this ply (the person to move): the draw offer's answer in words,
    /// and whether the game ended drawn.
    Draw { ply: usize, answer: String, drawn: bool },
    /// At this ply: plies taken back, or the refusal in words.
    Takeback { ply: usize, result: Result<usize, String> },
}

/// The person's move: a pawn move (irreversible: no position repeats),
/// else the first legal move; never one that ends the game.
fn pick(game: &Game<AnyPosition>) -> Move {
    let legal: Vec<Move> = game.position().legal_move_list().to_vec();
    let fine = |m: &Move| {
        let mut g = game.clone();
        g.play(*m).is_ok() && g.outcome().is_none()
    };
    let pawn = |m: &Move| game.position().moving_role(*m) == Some(chimera_rules::Role::Pawn);
    legal
        .iter()
        .copied()
        .find(|m| pawn(m) && fine(m))
        .or_else(|| legal.iter().copied().find(fine))
        .expect("a move that does not end the game")
}

fn tui_config(level: u8, fen: Option<&str>, clock: Option<Duration>) -> Config {
    let mut c = Config::new(Variant::Chess);
    c.hot_seat = false;
    c.human = Color::White;
    c.level = level;
    c.start = fen.map(|f| AnyPosition::from_fen(Variant::Chess, f, &Default::default()).expect("FEN"));
    c.clock = clock.map(|t| (t, Duration::ZERO));
    c
}

/// Waits for the terminal's engine to reply (30 s at most).
fn tui_wait_reply(s: &mut Session, ply: usize) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while s.game.moves().len() < ply && std::time::Instant::now() < deadline {
        s.wait_engine(Duration::from_millis(200));
    }
    assert_eq!(s.game.moves().len(), ply, "the terminal's engine replied");
}

/// The plan on the terminal's session.
fn tui_plan() -> Vec<Step> {
    let mut s = Session::new(&tui_config(1, Some(LOST_FOR_BLACK), None));
    let mut steps = Vec::new();
    let mut took_back = false;
    loop {
        let ply = s.game.moves().len();
        if (ply == 2 && !took_back) || ply == 40 {
            let (answer, drawn) = match s.offer_draw().expect("an offer") {
                DrawOutcome::Agreed => (DrawAnswer::Accept.message().to_string(), true),
                DrawOutcome::Declined(a) => (a.message().to_string(), false),
                DrawOutcome::Pending { .. } | DrawOutcome::Sent { .. } => panic!("the engine answers at once"),
            };
            steps.push(Step::Draw { ply, answer, drawn });
        }
        if ply == 4 && !took_back {
            took_back = true;
            steps.push(Step::Takeback { ply, result: s.take_back().map_err(|e| e.to_string()) });
            continue;
        }
        if ply == 40 {
            steps.push(Step::Takeback { ply, result: s.take_back().map_err(|e| e.to_string()) });
            return steps;
        }
        let m = pick(&s.game);
        s.play_announced(m, None).expect("a legal move");
        tui_wait_reply(&mut s, ply + 2);
    }
}

/// Reads the socket until a message `pred` likes (30 s at most).
async fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    use futures_util::StreamExt;
    loop {
        let m = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("a message in time")
            .expect("open")
            .expect("ok");
        if let tokio_tungstenite::tungstenite::Message::Text(t) = m {
            let v: Value = serde_json::from_str(&t).expect("json");
            if pred(&v) {
                return v;
            }
        }
    }
}

async fn engine_game(server: &Server, body: Value) -> (String, Ws) {
    let (st, g) = post_json(server.addr, "/api/games", &body).await;
    assert_eq!(st, 200, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let token = g["token"].as_str().expect("token");
    let url = format!("ws://{}/ws/{id}?token={token}", server.addr);
    let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("ws");
    (id, ws)
}

async fn server_game(server: &Server, id: &str) -> Game<AnyPosition> {
    let h = server.app.game(id).await.expect("store").expect("the game");
    let live = h.live.lock().await;
    live.game.clone()
}

async fn server_think_time(server: &Server, id: &str) -> chimera_session::ThinkTime {
    let h = server.app.game(id).await.expect("store").expect("the game");
    let live = h.live.lock().await;
    server.app.engine_think_time(&live)
}

fn is_state_at(ply: usize) -> impl Fn(&Value) -> bool {
    move |v: &Value| v["t"] == "state" && v["ply"] == ply && v["thinking"] != true
}

/// The plan on the web server's live game.
async fn server_plan(server: &Server) -> Vec<Step> {
    let (id, mut ws) = engine_game(
        server,
        json!({"variant": "chess", "mode": "engine", "level": 1, "color": "white", "fen": LOST_FOR_BLACK}),
    )
    .await;
    until(&mut ws, is_state_at(0)).await;
    let mut steps = Vec::new();
    let mut took_back = false;
    loop {
        let ply = server_game(server, &id).await.moves().len();
        if (ply == 2 && !took_back) || ply == 40 {
            send(&mut ws, &json!({"t": "draw_offer"})).await;
            let v = until(&mut ws, |v| v["t"] == "notice" || v["t"] == "error" || v["status"] == "finished").await;
            let step = if v["t"] == "state" {
                assert_eq!((v["result"].as_str(), v["reason"].as_str()), (Some("1/2-1/2"), Some("agreement")));
                Step::Draw { ply, answer: DrawAnswer::Accept.message().to_string(), drawn: true }
            } else {
                assert_eq!(v["t"], "notice", "a refusal is the engine's answer, not an error: {v}");
                Step::Draw { ply, answer: v["message"].as_str().unwrap_or("").to_string(), drawn: false }
            };
            steps.push(step);
        }
        if (ply == 4 && !took_back) || ply == 40 {
            took_back |= ply == 4;
            send(&mut ws, &json!({"t": "takeback"})).await;
            let v = until(&mut ws, |v| v["t"] == "error" || (v["t"] == "state" && v["ply"] != ply)).await;
            let result = if v["t"] == "error" {
                Err(v["message"].as_str().unwrap_or("").to_string())
            } else {
                Ok(ply - v["ply"].as_u64().expect("ply") as usize)
            };
            steps.push(Step::Takeback { ply, result });
            if ply == 40 {
                return steps;
            }
            continue;
        }
        let m = pick(&server_game(server, &id).await);
        send(&mut ws, &json!({"t": "move", "uci": m.to_string(), "ply": ply})).await;
        until(&mut ws, is_state_at(ply + 2)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_and_the_terminal_play_by_one_session_policy() {
    let dir = std::env::temp_dir().join(format!("chimera-session-policy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Some twenty games from one address: more than the default burst.
    let config = chimera_server::Config { create_burst: 100, ..Default::default() };
    let server = Server::start_with("127.0.0.1:0", &dir, config).await.expect("server starts");

    // Levels: the same table and the same bounds.
    let (st, meta) = get_json(server.addr, "/api/meta").await;
    assert_eq!(st, 200);
    let web_words: Vec<(u64, String)> = meta["levels"]
        .as_array()
        .expect("levels")
        .iter()
        .map(|l| (l["level"].as_u64().unwrap(), l["words"].as_str().unwrap().to_string()))
        .collect();
    let table: Vec<(u64, String)> = LEVELS.iter().map(|l| (l.level as u64, l.words.to_string())).collect();
    assert_eq!(web_words, table);
    for n in 0..=9u8 {
        let body = json!({"variant": "chess", "mode": "engine", "level": n, "color": "white"});
        let (st, _) = post_json(server.addr, "/api/games", &body).await;
        let terminal_takes_it = n.to_string().parse::<Level>().is_ok();
        assert_eq!(st == 200, terminal_takes_it, "level {n}: web {st}");
    }

    // Think times without a clock, level by level: the same limits.
    for l in Level::all() {
        let (id, _ws) =
            engine_game(&server, json!({"variant": "chess", "mode": "engine", "level": l.number(), "color": "white"}))
                .await;
        let web = server_think_time(&server, &id).await;
        let terminal = Session::new(&tui_config(l.number(), None, None)).think_time();
        assert_eq!(web, terminal, "level {l}");
        assert_eq!(web.movetime, l.spec().movetime);
    }

    // Think times on a 15-second clock at level 8: the level's second
    // while the clock does not run (each side's first move), then a
    // twentieth of the clock on both.
    let (id, mut ws) = engine_game(
        &server,
        json!({"variant": "chess", "mode": "engine", "level": 8, "color": "white", "clock": {"minutes": 0.25, "increment": 0}}),
    )
    .await;
    until(&mut ws, is_state_at(0)).await;
    let mut tui = Session::new(&tui_config(8, None, Some(Duration::from_secs(15))));
    let e4 = chimera_rules::san::parse_san(tui.position(), "e4").unwrap();
    tui.play_announced(e4, None).unwrap();
    send(&mut ws, &json!({"t": "move", "uci": "e2e4", "ply": 0})).await;
    let first_web = server_think_time(&server, &id).await;
    assert_eq!(first_web, tui.think_time());
    assert_eq!(first_web.movetime, Duration::from_secs(1));
    until(&mut ws, is_state_at(2)).await;
    tui_wait_reply(&mut tui, 2);
    // White's clock runs now (the person's side here; the engine's clock
    // runs under the same rule at its next move).
    let web = server_think_time(&server, &id).await;
    let terminal = tui.think_time();
    assert_eq!(terminal.movetime, Duration::from_millis(750), "15 s / 20");
    assert!(
        web.movetime <= Duration::from_millis(750) && web.movetime >= Duration::from_millis(600),
        "the web's clock share: {:?}",
        web.movetime
    );
    assert_eq!((web.depth, web.skill), (terminal.depth, terminal.skill));
    drop(ws);

    // Draw answers and take-backs over one plan: a refusal too early, a
    // take-back to the person's last turn, a draw taken at move 21 by the
    // lost engine, no take-back after the end.
    let terminal = tokio::task::spawn_blocking(tui_plan).await.expect("the terminal's plan");
    let web = server_plan(&server).await;
    assert_eq!(web, terminal);
    let refused = chimera_session::TakebackRefused::GameOver.to_string();
    assert_eq!(
        terminal,
        vec![
            Step::Draw {
                ply: 2,
                answer: DrawAnswer::Decline(chimera_session::DeclineReason::TooEarly).message().into(),
                drawn: false
            },
            Step::Takeback { ply: 4, result: Ok(2) },
            Step::Draw { ply: 40, answer: DrawAnswer::Accept.message().into(), drawn: true },
            Step::Takeback { ply: 40, result: Err(refused) },
        ]
    );
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
