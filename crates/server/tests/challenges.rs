//! Challenges and notifications over HTTP and WebSocket: a challenge made,
//! listed, accepted (once, whatever races), declined and cancelled, each
//! side told on its notification socket; the notification list read; a
//! seek taken and a correspondence move told; the requests refused. On
//! SQLite, and on PostgreSQL with the challenger and the challenged player
//! on two instances (the notification crosses by `NOTIFY`).

mod common;

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
