//! Correspondence games: days per move, a deadline kept by the store and
//! the owner machinery across a restart, under the server's test clock
//! (`chimera_server::clock::advance`: the clock is this process's, so the
//! tests of this file run one at a time); the "your turn" list; the
//! requests refused. The same deadline across a killed instance on
//! PostgreSQL is crates/cli/tests/correspondence.rs (real processes).

mod common;

use chimera_server::{clock, Config, Server};
use common::*;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

const HOUR: Duration = Duration::from_secs(3600);

/// The tests of this file move the one clock of the process: one at a time.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn config() -> Config {
    Config {
        signup_burst: 100,
        create_burst: 1000,
        heartbeat_every: Duration::from_millis(200),
        takeover_after: Duration::from_secs(2),
        seek_grace: Duration::from_millis(300),
        ..Config::default()
    }
}

async fn state(a: SocketAddr, id: &str) -> Value {
    get_json(a, &format!("/api/games/{id}")).await.1
}

/// Waits (10 s at most) for game `id` to satisfy `pred`.
async fn wait_for(a: SocketAddr, id: &str, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..100 {
        let s = state(a, id).await;
        if pred(&s) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("game {id}: {}", state(a, id).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn correspondence_requests_are_checked() {
    let _one = SERIAL.lock().await;
    let dir = fresh_dir("corr-checks");
    let s = Server::start_with("127.0.0.1:0", &dir, config()).await.unwrap();
    let a = s.addr;
    let ann = account(a, "Ann").await;
    let seek = json!({"variant": "chess", "mode": "seek", "days": 3});
    let (st, v, _) = call(a, "POST", "/api/games", None, &seek).await;
    assert_eq!(st, 401, "anonymous: {v}");
    for (bad, why) in [
        (json!({"variant": "chess", "mode": "seek", "days": 4}), "days per move are one of [1, 2, 3, 5, 7, 14], not 4"),
        (json!({"variant": "chess", "mode": "seek", "days": 0}), "not 0"),
        (
            json!({"variant": "chess", "mode": "seek", "days": 1, "clock": {"minutes": 5, "increment": 0}}),
            "a clock or days per move, not both",
        ),
        (json!({"variant": "chess", "mode": "engine", "days": 1}), "between two people"),
        (json!({"variant": "chess", "mode": "hotseat", "days": 1}), "between two people"),
    ] {
        let (st, v, _) = call(a, "POST", "/api/games", Some(&ann), &bad).await;
        assert_eq!(st, 400, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().contains(why), "{bad}: {v}");
    }
    let (st, v, _) =
        call(a, "POST", "/api/games", Some(&ann), &json!({"variant": "chess", "mode": "seek", "days": 300})).await;
    assert_eq!(st, 400, "{v}");
    // Ten open correspondence seeks at most.
    for i in 0..10 {
        let (st, v, _) = call(a, "POST", "/api/games", Some(&ann), &seek).await;
        assert_eq!(st, 200, "seek {i}: {v}");
    }
    let (st, v, _) = call(a, "POST", "/api/games", Some(&ann), &seek).await;
    assert_eq!(st, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("10 open correspondence seeks"), "{v}");
    // A friend game of days: its guest needs an account too.
    let (st, g, _) =
        call(a, "POST", "/api/games", Some(&ann), &json!({"variant": "genie", "mode": "friend", "days": 7})).await;
    assert_eq!(st, 200, "{g}");
    let (st, v) =
        post_json(a, &format!("/api/games/{}/join", g["id"].as_str().unwrap()), &json!({"invite": g["invite"]})).await;
    assert_eq!(st, 401, "{v}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_game_keeps_its_deadline_across_a_restart() {
    let _one = SERIAL.lock().await;
    let dir = fresh_dir("corr-restart");
    let s = Server::start_with("127.0.0.1:0", &dir, config()).await.unwrap();
    let a = s.addr;
    let (ann, bob) = (account(a, "Ann").await, account(a, "Bob").await);
    let (st, g, _) = call(
        a,
        "POST",
        "/api/games",
        Some(&ann),
        &json!({"variant": "clown", "mode": "seek", "color": "white", "days": 1, "rated": true}),
    )
    .await;
    assert_eq!(st, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let ann_token = g["token"].as_str().unwrap().to_string();
    // The seek stays while Ann's page is closed (an open seek of minutes
    // goes after the seek grace, 300 ms here).
    drop(ws(a, &id, Some(&ann_token)).await);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (_, seeks) = get_json(a, "/api/seeks").await;
    let k = seeks.as_array().unwrap().iter().find(|k| k["id"] == json!(id)).expect("the seek stays").clone();
    assert_eq!((k["days"].clone(), k["clock"].clone()), (json!(1), Value::Null), "{k}");
    let (st, _, _) = call(a, "POST", &format!("/api/games/{id}/join"), None, &json!({})).await;
    assert_eq!(st, 401, "an anonymous player cannot take a seat of days");
    let (st, j, _) = call(a, "POST", &format!("/api/games/{id}/join"), Some(&bob), &json!({})).await;
    assert_eq!(st, 200, "{j}");
    let bob_token = j["token"].as_str().unwrap().to_string();

    // Three moves: Black is to move, with a day for it.
    let mut w = ws(a, &id, Some(&ann_token)).await;
    let mut b = ws(a, &id, Some(&bob_token)).await;
    send(&mut w, &json!({"t": "move", "uci": "e2e4", "ply": 0})).await;
    wait_state(&mut b, |s| s["ply"] == 1).await;
    send(&mut b, &json!({"t": "move", "uci": "e7e5", "ply": 1})).await;
    wait_state(&mut w, |s| s["ply"] == 2).await;
    send(&mut w, &json!({"t": "move", "uci": "g1f3", "ply": 2})).await;
    let st = wait_state(&mut b, |s| s["ply"] == 3).await;
    let day = 24 * 3600 * 1000i64;
    assert_eq!(
        (st["clock"]["days"].clone(), st["clock"]["running"].clone()),
        (json!(1), json!("b")),
        "{}",
        st["clock"]
    );
    assert_eq!(st["clock"]["white"], json!(day), "White's move gave White the whole day back");
    assert!((day - 5000..=day).contains(&st["clock"]["black"].as_i64().unwrap()), "{}", st["clock"]);
    drop((w, b));

    // The "your turn" lists.
    let (_, bobs, _) = call(a, "GET", "/api/account/playing", Some(&bob), &Value::Null).await;
    let (_, anns, _) = call(a, "GET", "/api/account/playing", Some(&ann), &Value::Null).await;
    assert_eq!((bobs[0]["id"].as_str(), bobs[0]["is_my_turn"].as_bool()), (Some(id.as_str()), Some(true)), "{bobs}");
    assert_eq!((bobs[0]["opponent"].as_str(), bobs[0]["days"].as_i64()), (Some("Ann"), Some(1)), "{bobs}");
    let due = bobs[0]["due_at"].as_i64().unwrap();
    assert!((due - clock::now_ms() - day).abs() < 10_000, "due in a day: {bobs}");
    assert_eq!((anns[0]["is_my_turn"].as_bool(), anns[0]["color"].as_str()), (Some(false), Some("white")), "{anns}");
    let (st, _, _) = call(a, "GET", "/api/account/playing", None, &Value::Null).await;
    assert_eq!(st, 401);

    // 20 hours later, a restart, 3 more: the game waits.
    clock::advance(20 * HOUR);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(state(a, &id).await["status"], "active");
    s.stop().await;
    clock::advance(3 * HOUR);
    let s = Server::start_with("127.0.0.1:0", &dir, config()).await.unwrap();
    let a = s.addr;
    let st = state(a, &id).await;
    assert_eq!(st["status"], "active", "{st}");
    let left = st["clock"]["black"].as_i64().unwrap();
    assert!((3_590_000..=3_600_000).contains(&left), "about an hour left: {left}");
    // A minute before the deadline: still on. Two minutes after: Black
    // has lost on time, once.
    clock::advance(HOUR - Duration::from_secs(60));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(state(a, &id).await["status"], "active");
    clock::advance(Duration::from_secs(120));
    let end = wait_for(a, &id, |s| s["status"] == "finished").await;
    assert_eq!((end["result"].as_str(), end["reason"].as_str()), (Some("1-0"), Some("time forfeit")), "{end}");
    assert_eq!(end["ply"], 3);
    // A rated game of days is rated as any other.
    let end = wait_for(a, &id, |s| !s["ratings"].is_null()).await;
    assert_eq!(end["ratings"]["w"]["diff"], json!(241), "{end}");
    let (_, bobs, _) = call(a, "GET", "/api/account/playing", Some(&bob), &Value::Null).await;
    assert_eq!(bobs, json!([]), "the finished game left the list");
    s.stop().await;
}
