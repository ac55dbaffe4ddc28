//! Challenges and notifications over HTTP and WebSocket: a challenge made,
//! listed, accepted (once, whatever races), declined and cancelled, each
//! side told on its notification socket; the notification list read; a
//! seek taken and a correspondence move told; the requests refused. On
//! SQLite, and on PostgreSQL with the challenger and the challenged player
//! on two instances (the notification crosses by `NOTIFY`).

use crate::common;

use chimera_server::store::Location;
use chimera_server::{Config, Server};
use common::pg::PgCluster;
use common::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

fn config() -> Config {
    Config { signup_burst: 100, create_burst: 1000, heartbeat_every: Duration::from_millis(200), ..Config::default() }
}

/// The account's notification socket.
async fn notes(a: SocketAddr, cookie: &str) -> Ws {
    let mut req = format!("ws://{a}/ws/notify").into_client_request().unwrap();
    req.headers_mut().insert("Cookie", format!("chimera_session={cookie}").parse().unwrap());
    tokio_tungstenite::connect_async(req).await.expect("notification socket").0
}

/// The next message of a notification socket (10 s at most).
async fn next(w: &mut Ws) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), w.next()).await.expect("a notification in time");
        if let Message::Text(t) = m.unwrap().unwrap() {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// Waits for a notification of `kind`; returns its item.
async fn told(w: &mut Ws, kind: &str) -> Value {
    loop {
        let v = next(w).await;
        if v["t"] == "notification" && v["item"]["kind"] == kind {
            return v["item"].clone();
        }
    }
}

/// The whole flow, the challenger on `a` and the challenged on `b` (the
/// same server on SQLite).
async fn flow(a: SocketAddr, b: SocketAddr) {
    let ann = account(a, "Ann").await;
    let bob = account(b, "Bob").await;
    let cid = account(a, "Cid").await;
    let mut bob_notes = notes(b, &bob).await;
    let first = next(&mut bob_notes).await;
    assert_eq!((first["t"].as_str(), first["unread"].as_i64()), (Some("notifications"), Some(0)), "{first}");
    let mut ann_notes = notes(a, &ann).await;
    next(&mut ann_notes).await;

    // Refused.
    let ok = json!({"variant": "chess", "clock": {"minutes": 5, "increment": 3}, "rated": true, "color": "white"});
    assert_eq!(call(a, "POST", "/api/challenge/Bob", None, &ok).await.0, 401);
    for (path, body, status, why) in [
        ("/api/challenge/ann", ok.clone(), 400, "yourself"),
        ("/api/challenge/nobody", ok.clone(), 404, "no such player"),
        ("/api/challenge/bob", json!({"variant": "chess", "days": 4}), 400, "days per move"),
        (
            "/api/challenge/bob",
            json!({"variant": "magicring", "rated": true, "options": {"ring_powers": "NKQ"}}),
            400,
            "casual only",
        ),
        ("/api/challenge/bob", json!({"variant": "chess", "color": "purple"}), 400, "unknown colour"),
        ("/api/challenge/bob", json!({"variant": "chess", "mode": "seek"}), 400, "unknown field"),
        ("/api/challenge/bob", json!(["chess"]), 400, "JSON object"),
    ] {
        let (st, v, _) = call(a, "POST", path, Some(&ann), &body).await;
        assert_eq!(st, status, "{path} {body}: {v}");
        assert!(v["error"].as_str().unwrap_or("").contains(why), "{path} {body}: {v}");
    }

    // Made: Bob is told at once, and lists it.
    let (st, c, _) = call(a, "POST", "/api/challenge/BOB", Some(&ann), &ok).await;
    assert_eq!(st, 200, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(
        (c["status"].as_str(), c["destUser"]["name"].as_str(), c["challenger"]["id"].as_str(), c["direction"].as_str()),
        (Some("created"), Some("Bob"), Some("ann"), Some("out"))
    );
    assert_eq!(c["timeControl"], json!({"type": "clock", "limit": 300, "increment": 3, "show": "5+3"}));
    let item = told(&mut bob_notes, "challenge").await;
    assert_eq!(item["data"]["id"], json!(id), "{item}");
    let (_, list, _) = call(b, "GET", "/api/challenge", Some(&bob), &Value::Null).await;
    assert_eq!(
        (list["in"][0]["id"].as_str(), list["in"][0]["direction"].as_str()),
        (Some(id.as_str()), Some("in")),
        "{list}"
    );
    assert_eq!(call(a, "POST", "/api/challenge/bob", Some(&ann), &ok).await.0, 409, "one waiting challenge a pair");
    // Only Bob may answer it.
    for who in [&ann, &cid] {
        assert_eq!(call(a, "POST", &format!("/api/challenge/{id}/accept"), Some(who), &Value::Null).await.0, 404);
    }

    // Accepted by ten of Bob's requests at once: one game.
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (bob, id) = (bob.clone(), id.clone());
        tasks.push(tokio::spawn(async move {
            call(b, "POST", &format!("/api/challenge/{id}/accept"), Some(&bob), &Value::Null).await
        }));
    }
    let mut won = Vec::new();
    for t in tasks {
        let (st, v, _) = t.await.unwrap();
        match st {
            200 => won.push(v),
            409 => {}
            other => panic!("accept: {other} {v}"),
        }
    }
    assert_eq!(won.len(), 1, "exactly one acceptance: {won:?}");
    assert_eq!((won[0]["id"].as_str(), won[0]["colors"].clone()), (Some(id.as_str()), json!(["black"])));
    let item = told(&mut ann_notes, "challenge_accepted").await;
    assert_eq!((item["data"]["url"].clone(), item["data"]["by"].clone()), (json!(format!("/game/{id}")), json!("Bob")));
    let (_, g) = get_json(a, &format!("/api/games/{id}")).await;
    assert_eq!(
        (
            g["mode"].as_str(),
            g["rated"].as_bool(),
            g["players"]["w"]["username"].as_str(),
            g["players"]["b"]["username"].as_str()
        ),
        (Some("friend"), Some(true), Some("Ann"), Some("Bob")),
        "{g}"
    );
    assert_eq!((g["clock"]["initial"].as_i64(), g["clock"]["increment"].as_i64()), (Some(300_000), Some(3000)));
    let (st, seat, _) = call(a, "GET", &format!("/api/games/{id}/seat"), Some(&ann), &Value::Null).await;
    assert_eq!((st, seat["colors"].clone()), (200, json!(["white"])), "Ann's seat follows her account");

    // Declined, with a reason; cancelled.
    let (_, c2, _) = call(a, "POST", "/api/challenge/bob", Some(&ann), &json!({"variant": "genesis"})).await;
    let id2 = c2["id"].as_str().unwrap().to_string();
    told(&mut bob_notes, "challenge").await;
    let (st, v, _) =
        call(b, "POST", &format!("/api/challenge/{id2}/decline"), Some(&bob), &json!({"reason": "nope"})).await;
    assert_eq!(st, 400, "{v}");
    let (st, _, _) =
        call(b, "POST", &format!("/api/challenge/{id2}/decline"), Some(&bob), &json!({"reason": "tooFast"})).await;
    assert_eq!(st, 200);
    let item = told(&mut ann_notes, "challenge_declined").await;
    assert_eq!(item["data"]["reason"], "tooFast", "{item}");
    assert_eq!(call(b, "POST", &format!("/api/challenge/{id2}/accept"), Some(&bob), &Value::Null).await.0, 409);
    let (_, c3, _) = call(a, "POST", "/api/challenge/bob", Some(&ann), &json!({"variant": "clown", "days": 3})).await;
    let id3 = c3["id"].as_str().unwrap().to_string();
    assert_eq!(c3["timeControl"], json!({"type": "correspondence", "daysPerTurn": 3}));
    assert_eq!(call(b, "POST", &format!("/api/challenge/{id3}/cancel"), Some(&bob), &Value::Null).await.0, 404);
    assert_eq!(call(a, "POST", &format!("/api/challenge/{id3}/cancel"), Some(&ann), &Value::Null).await.0, 200);
    told(&mut bob_notes, "challenge_canceled").await;
    let (st, v, _) = call(b, "POST", &format!("/api/challenge/{id3}/accept"), Some(&bob), &Value::Null).await;
    assert_eq!((st, v["error"].as_str()), (409, Some("the challenge was canceled")));

    // A correspondence challenge accepted: White's move is told to Black.
    let (_, c4, _) =
        call(a, "POST", "/api/challenge/bob", Some(&ann), &json!({"variant": "chess", "days": 2, "color": "white"}))
            .await;
    let id4 = c4["id"].as_str().unwrap().to_string();
    let (st, acc, _) = call(b, "POST", &format!("/api/challenge/{id4}/accept"), Some(&bob), &Value::Null).await;
    assert_eq!(st, 200, "{acc}");
    let (_, seat, _) = call(a, "GET", &format!("/api/games/{id4}/seat"), Some(&ann), &Value::Null).await;
    let mut w = ws(a, &id4, seat["token"].as_str()).await;
    send(&mut w, &json!({"t": "move", "uci": "d2d4", "ply": 0})).await;
    let item = told(&mut bob_notes, "move").await;
    assert_eq!((item["data"]["san"].as_str(), item["data"]["opponent"].as_str()), (Some("d4"), Some("Ann")), "{item}");

    // A seek taken is told to its creator.
    let (_, s, _) = call(a, "POST", "/api/games", Some(&ann), &json!({"variant": "genie", "mode": "seek"})).await;
    let sid = s["id"].as_str().unwrap().to_string();
    let _ann_page = ws(a, &sid, s["token"].as_str()).await;
    assert_eq!(call(b, "POST", &format!("/api/games/{sid}/join"), Some(&bob), &json!({})).await.0, 200);
    let item = told(&mut ann_notes, "seek_taken").await;
    assert_eq!(
        (item["data"]["game"].as_str(), item["data"]["by"].as_str()),
        (Some(sid.as_str()), Some("Bob")),
        "{item}"
    );

    // The list, and reading it.
    let (_, l, _) = call(b, "GET", "/api/notifications", Some(&bob), &Value::Null).await;
    let kinds: Vec<&str> = l["items"].as_array().unwrap().iter().map(|i| i["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["move", "challenge", "challenge_canceled", "challenge", "challenge", "challenge"],
        "newest first: {l}"
    );
    assert_eq!(l["unread"], 6);
    let one = l["items"][0]["id"].as_str().unwrap().to_string();
    let (_, r, _) = call(b, "POST", "/api/notifications/read", Some(&bob), &json!({"ids": [one]})).await;
    assert_eq!(r["unread"], 5);
    let (_, r, _) = call(b, "POST", "/api/notifications/read", Some(&bob), &json!({})).await;
    assert_eq!(r["unread"], 0);
    assert_eq!(call(b, "GET", "/api/notifications", None, &Value::Null).await.0, 401);
    // The socket needs a session.
    let req = format!("ws://{b}/ws/notify").into_client_request().unwrap();
    assert!(tokio_tungstenite::connect_async(req).await.is_err(), "no socket without a session");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_and_notifications() {
    let dir = fresh_dir("challenges");
    let s = Server::start_with("127.0.0.1:0", &dir, config()).await.unwrap();
    flow(s.addr, s.addr).await;
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_and_notifications_across_two_instances_on_postgres() {
    let Some(pg) = PgCluster::start_or_skip("challenges on two instances") else { return };
    let at = Location::Url(pg.fresh_database("challenges"));
    let a = Server::start_at("127.0.0.1:0", &at, config()).await.unwrap();
    let b = Server::start_at("127.0.0.1:0", &at, config()).await.unwrap();
    flow(a.addr, b.addr).await;
    a.stop().await;
    b.stop().await;
}

/// The figure and deviation a level's measured rating gives, from the
/// session crate's table (the server's `bots::pinned` must agree).
fn measured(variant: usize, level: u8) -> (i32, chimera_rating::Rating) {
    let r = chimera_session::LEVEL_RATINGS
        .iter()
        .find(|r| r.level == level && r.variant == chimera_rules::Variant::ALL[variant])
        .unwrap();
    let dev = f64::from(r.upper - r.lower) / 3.92;
    (r.rating, chimera_rating::Rating::new(f64::from(r.rating), dev, 0.06))
}

/// The house bots, the person on `a`, the bots' answers on `b` (the same
/// server on SQLite): accounts nobody logs in to, pinned ratings, seeks in
/// every variant with no person's seek, challenges answered at once, and
/// the bound on their games.
async fn bots_flow(a: SocketAddr, b: SocketAddr) {
    let ann = account(a, "Ann").await;
    let (l1, l1_rating) = measured(0, 1);

    // The bots' accounts: profiles with the measured ratings and intervals.
    let (st, p) = get_json(b, "/api/@/chimera-level-1").await;
    assert_eq!((st, p["bot"]["level"].as_i64(), p["username"].as_str()), (200, Some(1), Some("Chimera-Level-1")));
    let chess = &p["ratings"][0];
    assert_eq!((chess["variant"].as_str(), chess["rating"].clone()), (Some("chess"), json!(l1.to_string())), "{p}");
    assert!(chess["lower"].as_i64().unwrap() < i64::from(l1) && chess["upper"].as_i64().unwrap() > i64::from(l1));
    assert_eq!(p["ratings"].as_array().unwrap().len(), 6, "every variant: {p}");
    for lvl in 1..=8 {
        assert_eq!(get_json(a, &format!("/api/@/Chimera-Level-{lvl}")).await.0, 200);
    }
    // Nobody logs in as a bot or signs up with a bot's name.
    let login = json!({"username": "Chimera-Level-1", "password": PW});
    assert_eq!(call(a, "POST", "/api/account/login", None, &login).await.0, 401);
    let (st, v, _) =
        call(a, "POST", "/api/account/signup", None, &json!({"username": "Chimera-Level-9", "password": PW})).await;
    assert_eq!(st, 400, "{v}");

    // A game of days is declined with lichess's reason; nothing starts.
    let (st, c, _) =
        call(a, "POST", "/api/challenge/chimera-level-1", Some(&ann), &json!({"variant": "chess", "days": 3})).await;
    assert_eq!(
        (st, c["status"].as_str(), c["declineReason"].as_str(), c.get("game")),
        (200, Some("declined"), Some("timeControl"), None),
        "{c}"
    );

    // A rated game with a clock is accepted at once; the bot, White, moves first.
    let rated = json!({"variant": "chess", "clock": {"minutes": 5, "increment": 3}, "rated": true, "color": "black"});
    let (st, c, _) = call(a, "POST", "/api/challenge/Chimera-Level-1", Some(&ann), &rated).await;
    assert_eq!(
        (st, c["status"].as_str(), c["game"]["colors"].clone()),
        (200, Some("accepted"), json!(["black"])),
        "{c}"
    );
    let id = c["game"]["id"].as_str().unwrap().to_string();
    let mut w = ws(a, &id, c["game"]["token"].as_str()).await;
    let s = wait_state(&mut w, |s| s["ply"] == 1).await;
    assert_eq!(
        (s["mode"].as_str(), s["engine_level"].as_i64(), s["engine_color"].as_str(), s["rated"].as_bool()),
        (Some("engine"), Some(1), Some("w"), Some(true)),
        "{s}"
    );
    assert_eq!(s["players"]["w"], json!({"username": "Chimera-Level-1", "rating": l1.to_string(), "title": "BOT"}));
    assert_eq!(s["players"]["b"], json!({"username": "Ann", "rating": "1500?"}));
    // No take-backs in a rated game.
    send(&mut w, &json!({"t": "takeback"})).await;
    assert!(wait_error(&mut w).await.contains("rated"));
    // Ann resigns: her rating moves against the bot's measured one; the bot's stays.
    send(&mut w, &json!({"t": "resign"})).await;
    let s = wait_state(&mut w, |s| s["ratings"].is_object()).await;
    let (_, ann_after) = chimera_rating::update_pair(
        &l1_rating,
        &chimera_rating::Settings::LICHESS.new_player,
        chimera_rating::Outcome::WhiteWins,
        &chimera_rating::Settings::LICHESS,
    )
    .unwrap();
    assert_eq!(s["ratings"]["w"]["diff"], 0, "{s}");
    assert_eq!(s["ratings"]["b"]["diff"].as_i64(), Some(ann_after.rating.round() as i64 - 1500), "{s}");
    let (_, p) = get_json(a, "/api/@/ann").await;
    assert_eq!(p["ratings"][0]["rating"], json!(format!("{}?", ann_after.rating.round() as i64)), "{p}");
    let (_, p) = get_json(b, "/api/@/Chimera-Level-1").await;
    assert_eq!(p["ratings"][0]["rating"], json!(l1.to_string()), "the bot's rating is pinned");
    let (_, board) = get_json(a, "/api/players/chess").await;
    let names: Vec<&str> = board["players"].as_array().unwrap().iter().filter_map(|p| p["username"].as_str()).collect();
    assert!(!names.iter().any(|n| n.starts_with("Chimera")), "bots are on no leaderboard: {board}");

    // The bots' seeks: one in each variant with no person's seek.
    let (_, seeks) = get_json(a, "/api/seeks").await;
    let bots: Vec<&Value> = seeks.as_array().unwrap().iter().filter(|k| k["bot"] == 2).collect();
    assert_eq!(bots.len(), 6, "{seeks}");
    assert!(bots.iter().all(|k| k["username"] == "Chimera-Level-2" && k["clock"] == json!([300_000, 3000])));
    let (_, mine, _) = call(a, "POST", "/api/games", Some(&ann), &json!({"variant": "genesis", "mode": "seek"})).await;
    let _page = ws(a, mine["id"].as_str().unwrap(), mine["token"].as_str()).await;
    let (_, seeks) = get_json(b, "/api/seeks").await;
    let variants: Vec<&str> = seeks
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| k["bot"].is_number())
        .map(|k| k["variant"].as_str().unwrap())
        .collect();
    assert_eq!(variants.len(), 5, "{seeks}");
    assert!(!variants.contains(&"genesis"), "a person's seek hides the bot's: {seeks}");

    // The bound (two games at once here): a third is declined `later`, and
    // the bots offer no seeks while they are full.
    let casual = json!({"variant": "clown", "clock": {"minutes": 3, "increment": 2}});
    for bot in ["Chimera-Level-2", "Chimera-Level-3"] {
        let (_, c, _) = call(a, "POST", &format!("/api/challenge/{bot}"), Some(&ann), &casual).await;
        assert_eq!(c["status"], "accepted", "{c}");
    }
    let (_, c, _) = call(a, "POST", "/api/challenge/Chimera-Level-4", Some(&ann), &casual).await;
    assert_eq!((c["status"].as_str(), c["declineReason"].as_str()), (Some("declined"), Some("later")), "{c}");
    let (_, seeks) = get_json(b, "/api/seeks").await;
    assert!(seeks.as_array().unwrap().iter().all(|k| k["bot"].is_null()), "{seeks}");
    // A rematch is a new game for the bots too: refused while they are full.
    send(&mut w, &json!({"t": "rematch"})).await;
    assert!(wait_error(&mut w).await.contains("busy"));
}

fn bots_config() -> Config {
    Config { bot_seeks: Some(2), max_bot_games: 2, ..config() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn house_bots() {
    let dir = fresh_dir("bots");
    let s = Server::start_with("127.0.0.1:0", &dir, bots_config()).await.unwrap();
    bots_flow(s.addr, s.addr).await;
    s.stop().await;
    // Started again: the bots are there once.
    let s = Server::start_with("127.0.0.1:0", &dir, bots_config()).await.unwrap();
    assert_eq!(get_json(s.addr, "/api/@/Chimera-Level-8").await.0, 200);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn house_bots_across_two_instances_on_postgres() {
    let Some(pg) = PgCluster::start_or_skip("house bots on two instances") else { return };
    let at = Location::Url(pg.fresh_database("bots"));
    let a = Server::start_at("127.0.0.1:0", &at, bots_config()).await.unwrap();
    let b = Server::start_at("127.0.0.1:0", &at, bots_config()).await.unwrap();
    bots_flow(a.addr, b.addr).await;
    a.stop().await;
    b.stop().await;
}

// ----- The Bot and Board API (docs/api.md) -----

fn api_config() -> Config {
    Config { event_poll: Duration::from_millis(300), ..config() }
}

/// Tokens, scopes and kinds; a challenge made and answered with lichess's
/// bodies; the event and game streams; a move, a draw; on `a` and `b` (the
/// same server on SQLite, two instances on PostgreSQL).
async fn api_flow(a: SocketAddr, b: SocketAddr) {
    let ann = account(a, "Ann").await;
    let bob = account(b, "Bob").await;
    let cid = account(a, "Cid").await;
    let t_ann = token(a, &ann, &["board:play"]).await;
    let t_bob = token(b, &bob, &["board:play", "challenge:read"]).await;
    let t_cid = token(a, &cid, &["bot:play", "challenge:write"]).await;
    let get =
        |x: SocketAddr, path: &'static str, t: String| async move { with_token(x, "GET", path, &t, "", "").await };

    // Who a token is; refusals.
    let (st, me) = get(a, "/api/account", t_ann.clone()).await;
    assert_eq!((st, me["id"].as_str(), me["title"].is_null()), (200, Some("ann"), true), "{me}");
    for bad in ["chp_nonsense", "", "chp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"] {
        let (st, v) = get(a, "/api/account", bad.to_string()).await;
        assert_eq!((st, v["error"].as_str()), (401, Some("No such token")), "{bad}: {v}");
    }
    let (st, v) = with_token(a, "POST", "/api/account/tokens", &t_ann, "application/json", "{}").await;
    assert_eq!(st, 403, "a token makes no token: {v}");
    let (st, v) =
        with_token(a, "POST", "/api/account/password", &t_ann, "application/json", r#"{"current": "x", "new": "y"}"#)
            .await;
    assert_eq!(st, 403, "a token is not a session: {v}");

    // A BOT account: upgraded with its token, then marked, and refused
    // where people play.
    let (st, v) = with_token(a, "POST", "/api/bot/account/upgrade", &t_ann, "", "").await;
    assert_eq!((st, v["error"].as_str()), (403, Some("Missing scope")), "{v}");
    let (st, v) = with_token(a, "POST", "/api/bot/account/upgrade", &t_cid, "", "").await;
    assert_eq!(st, 200, "{v}");
    let (_, me) = get(a, "/api/account", t_cid.clone()).await;
    assert_eq!(me["title"], "BOT", "{me}");
    let (st, v) = with_token(a, "POST", "/api/bot/account/upgrade", &t_cid, "", "").await;
    assert_eq!(st, 400, "once: {v}");
    let (st, v, _) =
        call(a, "POST", "/api/account/tokens", Some(&cid), &json!({"description": "x", "scopes": ["board:play"]}))
            .await;
    assert_eq!(st, 400, "a BOT has no board:play token: {v}");
    let (st, v, _) = call(a, "POST", "/api/games", Some(&cid), &json!({"variant": "chess", "mode": "seek"})).await;
    assert_eq!(st, 403, "a BOT takes no seat from a page: {v}");
    let (st, v, _) = call(a, "POST", "/api/challenge/ann", Some(&cid), &json!({"variant": "chess"})).await;
    assert_eq!(st, 403, "a BOT challenges with its token only: {v}");
    let (st, p) = get_json(a, "/api/@/cid").await;
    assert_eq!((st, p["title"].as_str()), (200, Some("BOT")), "{p}");
    // A bot token on the Board API, a person's on the Bot API.
    let (st, v) = with_token(a, "POST", "/api/board/game/abcdef/resign", &t_cid, "", "").await;
    assert_eq!((st, v["error"].as_str()), (403, Some("Missing scope")), "{v}");
    let t_ann_bot = token(a, &ann, &["bot:play"]).await;
    let (st, v) = with_token(a, "POST", "/api/bot/game/abcdef/resign", &t_ann_bot, "", "").await;
    assert_eq!((st, v["error"].as_str()), (403, Some("This endpoint can only be used with a Bot account")), "{v}");
    let bots_board = NdStream::open(a, "/api/board/game/stream/abcdef", &t_cid).await.err().unwrap();
    assert_eq!(bots_board.0, 403, "{bots_board:?}");

    // A challenge with lichess's form fields, seen on Bob's event stream
    // (opened on the other instance), accepted with an empty POST.
    let mut bob_events = NdStream::open(b, "/api/stream/event", &t_bob).await.unwrap();
    let mut ann_events = NdStream::open(a, "/api/stream/event", &t_ann).await.unwrap();
    let form = "application/x-www-form-urlencoded";
    let (st, v) = with_token(a, "POST", "/api/challenge/bob", &t_ann, form, "variant=fairy&clock.limit=180").await;
    assert_eq!(st, 400, "{v}");
    let (st, v) =
        with_token(a, "POST", "/api/challenge/bob", &t_ann, form, "clock.limit=180&fen=8/8/8/8/8/8/8/8").await;
    assert_eq!(st, 400, "{v}");
    let (st, c) = with_token(
        a,
        "POST",
        "/api/challenge/bob",
        &t_ann,
        form,
        "variant=standard&clock.limit=180&clock.increment=2&color=white&rated=false",
    )
    .await;
    assert_eq!(
        (st, c["variant"]["key"].as_str(), c["timeControl"]["limit"].as_i64()),
        (200, Some("standard"), Some(180)),
        "{c}"
    );
    let id = c["id"].as_str().unwrap().to_string();
    let seen = bob_events.next_of("challenge").await;
    assert_eq!(
        (seen["challenge"]["id"].as_str(), seen["challenge"]["challenger"]["id"].as_str()),
        (Some(id.as_str()), Some("ann")),
        "{seen}"
    );
    let (st, v) = with_token(b, "POST", &format!("/api/challenge/{id}/accept"), &t_bob, "", "").await;
    assert_eq!(st, 200, "{v}");
    let started = bob_events.next_of("gameStart").await;
    assert_eq!(
        (started["game"]["gameId"].as_str(), started["game"]["color"].as_str()),
        (Some(id.as_str()), Some("black")),
        "{started}"
    );
    assert_eq!(started["game"]["opponent"]["username"], "Ann", "{started}");
    let started = ann_events.next_of("gameStart").await;
    assert_eq!(
        (started["game"]["color"].as_str(), started["game"]["isMyTurn"].as_bool()),
        (Some("white"), Some(true)),
        "{started}"
    );

    // The game streams: the whole game first, then each change.
    let mut ann_game = NdStream::open(a, &format!("/api/board/game/stream/{id}"), &t_ann).await.unwrap();
    let full = ann_game.next().await.unwrap();
    assert_eq!(
        (full["type"].as_str(), full["initialFen"].as_str(), full["white"]["id"].as_str(), full["speed"].as_str()),
        (Some("gameFull"), Some("startpos"), Some("ann"), Some("blitz")),
        "{full}"
    );
    assert_eq!(
        (full["state"]["moves"].as_str(), full["state"]["status"].as_str()),
        (Some(""), Some("started")),
        "{full}"
    );
    let (st, v) = with_token(b, "POST", &format!("/api/board/game/{id}/move/e7e5"), &t_bob, "", "").await;
    assert_eq!(st, 400, "not Bob's turn: {v}");
    let (st, v) = with_token(a, "POST", &format!("/api/board/game/{id}/move/e2e5"), &t_ann, "", "").await;
    assert_eq!(st, 400, "illegal: {v}");
    assert!(v["error"].as_str().unwrap().contains("e2e5"), "the error names the move: {v}");
    let (st, v) = with_token(a, "POST", &format!("/api/board/game/{id}/move/e2e4"), &t_ann, "", "").await;
    assert_eq!(st, 200, "{v}");
    let s = ann_game.next_of("gameState").await;
    assert_eq!(s["moves"], "e2e4", "{s}");
    let (st, v) = with_token(a, "POST", &format!("/api/board/game/{id}/move/e7e5"), &t_cid, "", "").await;
    assert_eq!(st, 403, "{v}");
    let (st, v) = with_token(b, "POST", &format!("/api/board/game/{id}/abort"), &t_bob, "", "").await;
    assert_eq!(st, 200, "Black may abort before its first move: {v}");
    let s = ann_game.next_of("gameState").await;
    assert_eq!(s["status"], "aborted", "{s}");
    assert!(ann_game.next().await.is_none(), "the stream ends with the game");
    let fin = ann_events.next_of("gameFinish").await;
    assert_eq!(fin["game"]["status"]["name"], "aborted", "{fin}");

    // A second game, to a draw by agreement.
    let (st, c) = with_token(a, "POST", "/api/challenge/bob", &t_ann, "application/json",
        &json!({"variant": "genie", "clock.limit": 300, "clock.increment": 3, "color": "black", "days": null, "fen": null, "rated": false}).to_string()).await;
    assert_eq!(st, 200, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    bob_events.next_of("challenge").await;
    let (st, v) = with_token(b, "POST", &format!("/api/challenge/{id}/accept"), &t_bob, "", "").await;
    assert_eq!(st, 200, "{v}");
    let mut bob_game = NdStream::open(b, &format!("/api/board/game/stream/{id}"), &t_bob).await.unwrap();
    let full = bob_game.next().await.unwrap();
    assert_eq!((full["variant"]["key"].as_str(), full["white"]["id"].as_str()), (Some("genie"), Some("bob")), "{full}");
    for (x, t, mv) in [(b, &t_bob, "e2e4"), (a, &t_ann, "d7d7g")] {
        let (st, v) = with_token(x, "POST", &format!("/api/board/game/{id}/move/{mv}"), t, "", "").await;
        assert_eq!(st, 200, "{mv}: {v}");
    }
    let s = bob_game.next_of("gameState").await;
    let s = if s["moves"] == "e2e4" { bob_game.next_of("gameState").await } else { s };
    assert_eq!(s["moves"], "e2e4 d7d7g", "the flip as the rules docs write it: {s}");
    let (st, v) =
        with_token(b, "POST", &format!("/api/board/game/{id}/move/d2d4?offeringDraw=true"), &t_bob, "", "").await;
    assert_eq!(st, 200, "{v}");
    let s = bob_game.next_of("gameState").await;
    let s = if s["wdraw"] != true { bob_game.next_of("gameState").await } else { s };
    assert_eq!((s["moves"].as_str(), s["wdraw"].as_bool()), (Some("e2e4 d7d7g d2d4"), Some(true)), "{s}");
    let (st, v) = with_token(a, "POST", &format!("/api/board/game/{id}/draw/yes"), &t_ann, "", "").await;
    assert_eq!(st, 200, "{v}");
    let s = bob_game.next_of("gameState").await;
    assert_eq!((s["status"].as_str(), s.get("winner")), (Some("draw"), None), "{s}");

    // Revoked: refused at once, on the other instance too.
    let (_, list, _) = call(a, "GET", "/api/account/tokens", Some(&ann), &Value::Null).await;
    let tid =
        list["tokens"].as_array().unwrap().iter().find(|t| t["scopes"] == json!(["board:play"])).unwrap()["id"].clone();
    assert!(list.to_string().find("chp_").is_none(), "the list never shows a token: {list}");
    let (st, v, _) =
        call(a, "POST", &format!("/api/account/tokens/{}/revoke", tid.as_str().unwrap()), Some(&ann), &json!({})).await;
    assert_eq!(st, 200, "{v}");
    for x in [a, b] {
        let (st, v) = get(x, "/api/account", t_ann.clone()).await;
        assert_eq!(st, 401, "revoked: {v}");
    }
    // Log-out everywhere revokes them all.
    let (st, _) = get(a, "/api/account", t_ann_bot.clone()).await;
    assert_eq!(st, 200);
    let (st, v, _) = call(a, "POST", "/api/account/logout-everywhere", Some(&ann), &json!({})).await;
    assert_eq!((st, v["tokens_revoked"].as_i64()), (200, Some(1)), "{v}");
    let (st, _) = get(b, "/api/account", t_ann_bot.clone()).await;
    assert_eq!(st, 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_and_board_api() {
    let dir = fresh_dir("botapi");
    let s = Server::start_with("127.0.0.1:0", &dir, api_config()).await.unwrap();
    api_flow(s.addr, s.addr).await;
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_and_board_api_across_two_instances_on_postgres() {
    let Some(pg) = PgCluster::start_or_skip("the Bot and Board API on two instances") else { return };
    let at = Location::Url(pg.fresh_database("botapi"));
    let a = Server::start_at("127.0.0.1:0", &at, api_config()).await.unwrap();
    let b = Server::start_at("127.0.0.1:0", &at, api_config()).await.unwrap();
    api_flow(a.addr, b.addr).await;
    a.stop().await;
    b.stop().await;
}

/// A game's streams after the server restarts: the client reconnects and
/// gets the game as it stands (its moves, whose turn), and plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_streams_survive_a_restart() {
    let dir = fresh_dir("botapi-restart");
    let s = Server::start_with("127.0.0.1:0", &dir, api_config()).await.unwrap();
    let a = s.addr;
    let ann = account(a, "Ann").await;
    let bob = account(a, "Bob").await;
    let (t_ann, t_bob) = (token(a, &ann, &["board:play"]).await, token(a, &bob, &["board:play"]).await);
    let (st, c) = with_token(
        a,
        "POST",
        "/api/challenge/bob",
        &t_ann,
        "application/x-www-form-urlencoded",
        "clock.limit=600&color=white",
    )
    .await;
    assert_eq!(st, 200, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(with_token(a, "POST", &format!("/api/challenge/{id}/accept"), &t_bob, "", "").await.0, 200);
    let mut events = NdStream::open(a, "/api/stream/event", &t_bob).await.unwrap();
    assert_eq!(events.next_of("gameStart").await["game"]["id"], id.as_str());
    assert_eq!(with_token(a, "POST", &format!("/api/board/game/{id}/move/g1f3"), &t_ann, "", "").await.0, 200);
    let mut game = NdStream::open(a, &format!("/api/board/game/stream/{id}"), &t_bob).await.unwrap();
    assert_eq!(game.next().await.unwrap()["state"]["moves"], "g1f3");

    s.stop().await;
    assert!(events.next().await.is_none() && game.next().await.is_none(), "the streams end with the server");
    let s = Server::start_with(&a.to_string(), &dir, api_config()).await.unwrap();
    let mut events = NdStream::open(a, "/api/stream/event", &t_bob).await.unwrap();
    let again = events.next_of("gameStart").await;
    assert_eq!(
        (again["game"]["id"].as_str(), again["game"]["isMyTurn"].as_bool()),
        (Some(id.as_str()), Some(true)),
        "{again}"
    );
    let mut game = NdStream::open(a, &format!("/api/board/game/stream/{id}"), &t_bob).await.unwrap();
    let full = game.next().await.unwrap();
    assert_eq!((full["type"].as_str(), full["state"]["moves"].as_str()), (Some("gameFull"), Some("g1f3")), "{full}");
    assert_eq!(with_token(a, "POST", &format!("/api/board/game/{id}/move/g8f6"), &t_bob, "", "").await.0, 200);
    assert_eq!(game.next_of("gameState").await["moves"], "g1f3 g8f6");
    assert_eq!(with_token(a, "POST", &format!("/api/board/game/{id}/resign"), &t_ann, "", "").await.0, 200);
    let end = game.next_of("gameState").await;
    assert_eq!((end["status"].as_str(), end["winner"].as_str()), (Some("resign"), Some("black")), "{end}");
    assert_eq!(events.next_of("gameFinish").await["game"]["winner"], "black");
    s.stop().await;
}

/// The limits: failed token checks per address, requests per token,
/// streams per account.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_limits() {
    let dir = fresh_dir("botapi-limits");
    let cfg = Config { token_rate: 5, token_failure_burst: 5, event_streams_per_account: 2, ..api_config() };
    let s = Server::start_with("127.0.0.1:0", &dir, cfg).await.unwrap();
    let a = s.addr;
    let ann = account(a, "Ann").await;
    let t = token(a, &ann, &["board:play"]).await;
    // Streams: two, then 429 until one closes.
    let one = NdStream::open(a, "/api/stream/event", &t).await.unwrap();
    let _two = NdStream::open(a, "/api/stream/event", &t).await.unwrap();
    let (st, body) = NdStream::open(a, "/api/stream/event", &t).await.err().unwrap();
    assert_eq!(st, 429, "{body}");
    drop(one);
    let mut opened = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if NdStream::open(a, "/api/stream/event", &t).await.is_ok() {
            opened = true;
            break;
        }
    }
    assert!(opened, "a closed stream gives its place back");
    // Requests per token: a burst of 10 (two seconds' worth), then 429.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut codes = Vec::new();
    for _ in 0..14 {
        codes.push(with_token(a, "GET", "/api/account", &t, "", "").await.0);
    }
    assert!(codes.contains(&429) && codes[0] == 200, "{codes:?}");
    // Failed checks: 5 from one address, then every token is refused
    // before it is looked up, a good one too.
    tokio::time::sleep(Duration::from_secs(2)).await;
    for _ in 0..5 {
        assert_eq!(with_token(a, "GET", "/api/account", "chp_wrong", "", "").await.0, 401);
    }
    let (st, v) = with_token(a, "GET", "/api/account", &t, "", "").await;
    assert_eq!(st, 429, "{v}");
    s.stop().await;
}

/// berserk plays two whole Board API games between two people's programs:
/// chess (the fool's mate) and Genie Of The Lamp with both sides' flips,
/// each to checkmate, the challenge made and accepted through the API.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn berserk_plays_board_api_games() {
    let dir = fresh_dir("berserk-board");
    let s = Server::start_with("127.0.0.1:0", &dir, api_config()).await.unwrap();
    let a = s.addr;
    let ann = account(a, "Ann").await;
    let bob = account(a, "Bob").await;
    let (t_ann, t_bob) = (token(a, &ann, &["board:play"]).await, token(a, &bob, &["board:play"]).await);
    for (variant, moves) in [("standard", "f2f3 e7e5 g2g4 d8h4"), ("genie", "f2f3 e7e5 g2g4 d7d7g a2a2g d8h4")] {
        let mut args: Vec<String> =
            ["board", &format!("http://{a}"), &t_ann, &t_bob, "Bob", variant].iter().map(|x| x.to_string()).collect();
        args.extend(moves.split(' ').map(str::to_string));
        let r = lichess_client(args).await;
        for side in ["white", "black"] {
            let st = &r[side];
            assert_eq!(
                (st["status"].as_str(), st["winner"].as_str(), st["moves"].as_str()),
                (Some("mate"), Some("black"), Some(moves)),
                "{variant}, {side}: {r}"
            );
        }
        assert_eq!(r["full"]["variant"]["key"], variant, "{r}");
        assert_eq!(
            (r["finish"]["status"]["name"].as_str(), r["finish"]["winner"].as_str()),
            (Some("mate"), Some("black")),
            "{r}"
        );
        let (_, g) = get_json(a, &format!("/api/games/{}", r["id"].as_str().unwrap())).await;
        assert_eq!((g["result"].as_str(), g["reason"].as_str()), (Some("0-1"), Some("checkmate")), "{g}");
    }
    s.stop().await;
}
