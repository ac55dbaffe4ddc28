//! The lobby and the end of a game over HTTP and WebSocket: open seeks
//! (listed, joined first come first served as the database decides,
//! cancelled, gone when the creator leaves), player names (checked, shown),
//! rematches, the engine's answer to a draw offer, the favicon and the page
//! of a game that does not exist. Hostile input gets a clear refusal.

use crate::common;
use chimera_server::{Config, Server};
use common::*;
use serde_json::{json, Value};
use std::time::Duration;

async fn seeks(a: std::net::SocketAddr) -> Vec<Value> {
    let (st, v) = get_json(a, "/api/seeks").await;
    assert_eq!(st, 200, "{v}");
    v.as_array().unwrap().clone()
}

async fn create(a: std::net::SocketAddr, body: Value) -> Value {
    let (st, v) = post_json(a, "/api/games", &body).await;
    assert_eq!(st, 200, "{body} -> {v}");
    v
}

fn s(v: &Value, k: &str) -> String {
    v[k].as_str().unwrap_or_else(|| panic!("{k} in {v}")).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_names_and_first_come_joining() {
    let dir = fresh_dir("seeks");
    let server = start(&dir).await;
    let a = server.addr;

    // Names are checked on creation.
    for (name, why) in [
        (json!("x".repeat(21)), "20 characters"),
        (json!("<script>"), "letters, digits"),
        (json!("a\u{202e}b"), "letters, digits"),
        (json!("two  spaces"), "two spaces"),
        (json!(12), "malformed"),
    ] {
        let (st, v) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "seek", "name": name})).await;
        assert_eq!(st, 400, "{name}: {v}");
        assert!(v["error"].as_str().unwrap().contains(why), "{name}: {v}");
    }
    let (st, v) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "hotseat", "name": "Ann"})).await;
    assert_eq!(st, 400, "no name for hot-seat: {v}");

    // A seek as White with a clock: listed with what the joiner gets.
    let seek = create(
        a,
        json!({"variant": "magicring", "options": {"ring_powers": "NQ"}, "mode": "seek", "color": "white",
               "clock": {"minutes": 3, "increment": 2}, "name": "  Ann  "}),
    )
    .await;
    let (id, ann) = (s(&seek, "id"), s(&seek, "token"));
    assert!(seek.get("invite").is_none(), "a seek has no invite: {seek}");
    let friend = create(a, json!({"variant": "chess", "mode": "friend"})).await;
    let list = seeks(a).await;
    assert_eq!(list.len(), 1, "only the seek, never a friend game: {list:?}");
    let l = &list[0];
    assert_eq!((s(l, "id"), s(l, "variant")), (id.clone(), "magicring".into()));
    assert_eq!(l["options"], json!({"ring_powers": "NQ"}));
    assert_eq!((s(l, "color"), s(l, "name")), ("black".into(), "Ann".into()));
    assert_eq!(l["clock"], json!([180_000, 2_000]));
    assert_eq!(l["custom_start"], false);
    let (_, games) = get_json(a, "/api/games").await;
    assert!(games.as_array().unwrap().iter().all(|g| g["id"] != id.as_str()), "an open seek is not in the game list");
    assert!(games.as_array().unwrap().iter().any(|g| g["id"] == friend["id"]));

    // The creator's page; no move before an opponent sits down.
    let mut w = ws(a, &id, Some(&ann)).await;
    let hello = recv(&mut w).await;
    assert_eq!(hello["you"], json!(["w"]));
    let st0 = recv(&mut w).await;
    assert_eq!(st0["names"], json!({"w": "Ann", "b": null}));
    send(&mut w, &json!({"t": "move", "uci": "e2e4"})).await;
    assert!(wait_error(&mut w).await.contains("wait for an opponent"));
    // Nor in a friend game before the friend has joined (the creator is White).
    let fg = create(a, json!({"variant": "chess", "mode": "friend", "color": "white"})).await;
    let mut fw = ws(a, &s(&fg, "id"), Some(&s(&fg, "token"))).await;
    assert_eq!(recv(&mut fw).await["you"], json!(["w"]));
    send(&mut fw, &json!({"t": "move", "uci": "e2e4"})).await;
    let e = wait_error(&mut fw).await;
    assert!(e.contains("wait for your friend to join"), "{e}");
    assert_eq!(get_json(a, &format!("/api/games/{}", s(&fg, "id"))).await.1["ply"], 0);

    // Hostile joins.
    let join = |body: Value| {
        let id = id.clone();
        async move { post_json(a, &format!("/api/games/{id}/join"), &body).await }
    };
    let (st, v) = join(json!({"invite": "00"})).await;
    assert_eq!(st, 400, "a seek takes no invite: {v}");
    let (st, v) = join(json!({"name": "B".repeat(30)})).await;
    assert_eq!(st, 400, "{v}");
    let (st, v) = join(json!({"name": "Bob", "seat": "white"})).await;
    assert_eq!(st, 400, "unknown field: {v}");
    let (st, v) = post_json(a, "/api/games/nosuchgame/join", &json!({})).await;
    assert_eq!(st, 404, "{v}");
    let (st, v) = post_json(a, &format!("/api/games/{}/join", s(&friend, "id")), &json!({"name": "Bob"})).await;
    assert_eq!(st, 400, "a friend game still needs its invite: {v}");
    assert!(v["error"].as_str().unwrap().contains("invite"), "{v}");

    // Bob takes the seat; Carl comes second.
    let (st, bob) = join(json!({"name": "Bob"})).await;
    assert_eq!(st, 200, "{bob}");
    assert_eq!(bob["colors"], json!(["black"]));
    let (st, v) = join(json!({"name": "Carl"})).await;
    assert_eq!(st, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("took this seat first"), "{v}");
    let joined = wait_state(&mut w, |v| v["seats"]["b"] == true).await;
    assert_eq!(joined["names"], json!({"w": "Ann", "b": "Bob"}));
    assert!(seeks(a).await.is_empty(), "a taken seek leaves the lobby");
    let (_, games) = get_json(a, "/api/games").await;
    let g = games.as_array().unwrap().iter().find(|g| g["id"] == id.as_str()).expect("now in the game list").clone();
    assert_eq!(
        (g["white_name"].clone(), g["black_name"].clone(), g["mode"].clone()),
        (json!("Ann"), json!("Bob"), json!("seek"))
    );
    send(&mut w, &json!({"t": "move", "uci": "e2e4", "ply": 0})).await;
    wait_state(&mut w, |v| v["ply"] == 1).await;
    let (_, pgn) = http(a, "GET", &format!("/api/games/{id}/pgn"), None).await;
    assert!(pgn.contains("[White \"Ann\"]") && pgn.contains("[Black \"Bob\"]"), "{pgn}");
    // Takebacks are for engine and hot-seat games only.
    send(&mut w, &json!({"t": "takeback"})).await;
    assert!(wait_error(&mut w).await.contains("takebacks"));

    // Ten joiners at once on a fresh seek: exactly one seat.
    let race = create(a, json!({"variant": "chess", "mode": "seek", "color": "black"})).await;
    let rid = s(&race, "id");
    let mut tasks = Vec::new();
    for i in 0..10 {
        let rid = rid.clone();
        tasks.push(tokio::spawn(async move {
            post_json(a, &format!("/api/games/{rid}/join"), &json!({"name": format!("P{i}")})).await.0
        }));
    }
    let mut codes = Vec::new();
    for t in tasks {
        codes.push(t.await.unwrap());
    }
    codes.sort();
    assert_eq!(codes, [200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);

    // Cancelling: only the creator, only while open.
    let c = create(a, json!({"variant": "genie", "mode": "seek"})).await;
    let (cid, ctok) = (s(&c, "id"), s(&c, "token"));
    let mut cw = ws(a, &cid, Some(&ctok)).await;
    recv(&mut cw).await;
    recv(&mut cw).await;
    let cancel = |id: String, body: Value| async move { post_json(a, &format!("/api/games/{id}/cancel"), &body).await };
    let (st, v) = cancel(cid.clone(), json!({})).await;
    assert_eq!(st, 400, "{v}");
    let (st, v) = cancel(cid.clone(), json!({"token": "f".repeat(32)})).await;
    assert_eq!(st, 403, "{v}");
    let (st, v) = cancel("nosuchgame".into(), json!({"token": ctok})).await;
    assert_eq!(st, 404, "{v}");
    let (st, v) = cancel(s(&friend, "id"), json!({"token": s(&friend, "token")})).await;
    assert_eq!(st, 409, "a friend game is not a seek: {v}");
    let (st, v) = cancel(id.clone(), json!({"token": ann})).await;
    assert_eq!(st, 409, "a joined seek is a game: {v}");
    assert!(seeks(a).await.iter().any(|x| x["id"] == cid.as_str()));
    let (st, v) = cancel(cid.clone(), json!({"token": ctok})).await;
    assert_eq!(st, 200, "{v}");
    let gone = loop {
        let v = recv(&mut cw).await;
        if v["t"] == "gone" {
            break v;
        }
    };
    assert!(gone["message"].as_str().unwrap().contains("cancelled"), "{gone}");
    assert!(seeks(a).await.iter().all(|x| x["id"] != cid.as_str()));
    let (st, _) = get_json(a, &format!("/api/games/{cid}")).await;
    assert_eq!(st, 404, "a cancelled seek is gone from the store");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_leaves_with_its_creator() {
    let dir = fresh_dir("seek-leave");
    let cfg = Config { seek_grace: Duration::from_millis(700), ..Config::default() };
    let server = Server::start_with("127.0.0.1:0", &dir, cfg).await.unwrap();
    let a = server.addr;
    let stay = create(a, json!({"variant": "chess", "mode": "seek"})).await;
    let leave = create(a, json!({"variant": "chess", "mode": "seek"})).await;
    let never = create(a, json!({"variant": "chess", "mode": "seek"})).await;
    let mut ws_stay = ws(a, &s(&stay, "id"), Some(&s(&stay, "token"))).await;
    let mut ws_leave = ws(a, &s(&leave, "id"), Some(&s(&leave, "token"))).await;
    recv(&mut ws_stay).await;
    recv(&mut ws_leave).await;
    // A spectator's page does not keep a seek.
    let mut watcher = ws(a, &s(&never, "id"), None).await;
    recv(&mut watcher).await;
    ws_leave.close(None).await.unwrap();
    drop(ws_leave);
    let mut left = Vec::new();
    for _ in 0..60 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        left = seeks(a).await.iter().map(|x| s(x, "id")).collect();
        if left.len() == 1 {
            break;
        }
    }
    assert_eq!(left, [s(&stay, "id")], "the seek whose creator's page stays open stays");
    // A page of the creator that reconnects in time keeps it too.
    drop(ws_stay);
    let mut again = ws(a, &s(&stay, "id"), Some(&s(&stay, "token"))).await;
    recv(&mut again).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(seeks(a).await.len(), 1);
    server.stop().await;
}

/// Two server processes on one store (as behind a load balancer): each
/// has the seek in memory with the seat free; the database gives it once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_decides_who_takes_the_seat() {
    let dir = fresh_dir("seek-db");
    let one = start(&dir).await;
    let two = start(&dir).await;
    let seek = create(one.addr, json!({"variant": "clown", "mode": "seek", "color": "white"})).await;
    let id = s(&seek, "id");
    let mut creator = ws(one.addr, &id, Some(&s(&seek, "token"))).await;
    recv(&mut creator).await;
    // Server two loads it (seat free) before anyone joins.
    let (st, v) = get_json(two.addr, &format!("/api/games/{id}")).await;
    assert_eq!((st, v["seats"]["b"].clone()), (200, json!(false)));
    let (st, v) = post_json(one.addr, &format!("/api/games/{id}/join"), &json!({"name": "First"})).await;
    assert_eq!(st, 200, "{v}");
    let (st, v) = post_json(two.addr, &format!("/api/games/{id}/join"), &json!({"name": "Second"})).await;
    assert_eq!(st, 409, "server two's memory says free, the store says taken: {v}");
    two.stop().await;
    one.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematch_offers_and_new_games() {
    let dir = fresh_dir("rematch");
    let server = start(&dir).await;
    let a = server.addr;
    let g = create(
        a,
        json!({"variant": "genesis", "mode": "seek", "color": "white", "name": "Ann",
                              "clock": {"minutes": 5, "increment": 0}}),
    )
    .await;
    let (id, wt) = (s(&g, "id"), s(&g, "token"));
    let mut w = ws(a, &id, Some(&wt)).await;
    recv(&mut w).await;
    let (_, j) = post_json(a, &format!("/api/games/{id}/join"), &json!({"name": "Bob"})).await;
    let bt = s(&j, "token");
    let mut b = ws(a, &id, Some(&bt)).await;
    recv(&mut b).await;
    send(&mut w, &json!({"t": "rematch"})).await;
    assert!(wait_error(&mut w).await.contains("still being played"));
    send(&mut w, &json!({"t": "resign"})).await;
    wait_state(&mut b, |v| v["status"] == "finished").await;
    let mut spectator = ws(a, &id, None).await;
    recv(&mut spectator).await;
    send(&mut spectator, &json!({"t": "rematch"})).await;
    assert!(wait_error(&mut spectator).await.contains("spectator"));
    send(&mut spectator, &json!({"t": "rematch", "color": "w"})).await;
    assert!(wait_error(&mut spectator).await.contains("unknown field"));
    // Offer, decline, offer again, accept.
    send(&mut w, &json!({"t": "rematch"})).await;
    wait_state(&mut b, |v| v["rematch_offer"] == "w").await;
    send(&mut b, &json!({"t": "rematch_decline"})).await;
    wait_state(&mut w, |v| v["rematch_offer"].is_null()).await;
    send(&mut b, &json!({"t": "rematch_decline"})).await;
    assert!(wait_error(&mut b).await.contains("no rematch offer"));
    send(&mut w, &json!({"t": "rematch"})).await;
    wait_state(&mut b, |v| v["rematch_offer"] == "w").await;
    send(&mut b, &json!({"t": "rematch"})).await;
    let done = wait_state(&mut w, |v| v["rematch"].is_string()).await;
    let rid = s(&done, "rematch");
    send(&mut b, &json!({"t": "rematch"})).await;
    assert!(wait_error(&mut b).await.contains("already made"));
    // Same options, colours and names swapped, each token on its new seat.
    let (_, r) = get_json(a, &format!("/api/games/{rid}")).await;
    assert_eq!((s(&r, "variant"), s(&r, "mode"), r["ply"].clone()), ("genesis".into(), "seek".into(), json!(0)));
    assert_eq!(r["clock"]["initial"], 300_000);
    assert_eq!(r["names"], json!({"w": "Bob", "b": "Ann"}));
    let mut nb = ws(a, &rid, Some(&bt)).await;
    assert_eq!(recv(&mut nb).await["you"], json!(["w"]), "Bob is White now");
    let mut nw = ws(a, &rid, Some(&wt)).await;
    assert_eq!(recv(&mut nw).await["you"], json!(["b"]), "Ann is Black now");
    assert!(seeks(a).await.is_empty(), "a rematch is no open seek");

    // Engine game: the rematch starts at once with the engine on the other side.
    let e = create(a, json!({"variant": "chess", "mode": "engine", "level": 1, "color": "white", "name": "Ann"})).await;
    let mut ew = ws(a, &s(&e, "id"), Some(&s(&e, "token"))).await;
    recv(&mut ew).await;
    // The engine declines a draw: a notice, not an error.
    send(&mut ew, &json!({"t": "draw_offer"})).await;
    let n = loop {
        let v = recv(&mut ew).await;
        if v["t"] == "notice" || v["t"] == "error" {
            break v;
        }
    };
    assert_eq!(n["t"], "notice", "{n}");
    assert!(n["message"].as_str().unwrap().contains("declines the draw"), "{n}");
    send(&mut ew, &json!({"t": "resign"})).await;
    wait_state(&mut ew, |v| v["status"] == "finished").await;
    send(&mut ew, &json!({"t": "rematch"})).await;
    let done = wait_state(&mut ew, |v| v["rematch"].is_string()).await;
    let (_, r) = get_json(a, &format!("/api/games/{}", s(&done, "rematch"))).await;
    assert_eq!((r["engine_color"].clone(), r["engine_level"].clone()), (json!("w"), json!(1)));
    assert_eq!(r["names"], json!({"w": null, "b": "Ann"}));

    // Hot-seat: at once too.
    let h = create(a, json!({"variant": "genie", "mode": "hotseat"})).await;
    let mut hw = ws(a, &s(&h, "id"), Some(&s(&h, "token"))).await;
    recv(&mut hw).await;
    send(&mut hw, &json!({"t": "resign"})).await;
    send(&mut hw, &json!({"t": "rematch"})).await;
    let done = wait_state(&mut hw, |v| v["rematch"].is_string()).await;
    let mut nh = ws(a, &s(&done, "rematch"), Some(&s(&h, "token"))).await;
    assert_eq!(recv(&mut nh).await["you"], json!(["w", "b"]));

    // After a restart the link to the rematch and the names are still there.
    server.stop().await;
    let server = start(&dir).await;
    let (_, old) = get_json(server.addr, &format!("/api/games/{id}")).await;
    assert_eq!((s(&old, "rematch"), old["names"].clone()), (rid, json!({"w": "Ann", "b": "Bob"})));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn favicon_and_the_page_of_a_missing_game() {
    let dir = fresh_dir("favicon");
    let server = start(&dir).await;
    let a = server.addr;
    for path in ["/favicon.svg", "/favicon.ico"] {
        let (st, body) = http(a, "GET", path, None).await;
        assert_eq!(st, 200, "{path}");
        assert!(body.starts_with("<svg"), "{path}: {body}");
    }
    for page in ["/", "/analysis", "/rules/chess", "/docs/"] {
        let (st, body) = http(a, "GET", page, None).await;
        assert_eq!(st, 200, "{page}");
        assert!(body.contains("rel=\"icon\" href=\"/favicon.svg\""), "{page} names its icon");
    }
    for bad in ["/game/nosuchgame", "/game/0123456789ab", "/game/%3Cscript%3E", &format!("/game/{}", "a".repeat(200))] {
        let (st, body) = http(a, "GET", bad, None).await;
        assert_eq!(st, 404, "{bad}");
        assert!(body.starts_with("<!doctype html>") && body.contains("No such game"), "{bad}: {body}");
    }
    let g = create(a, json!({"variant": "chess", "mode": "hotseat"})).await;
    let (st, body) = http(a, "GET", &format!("/game/{}", s(&g, "id")), None).await;
    assert_eq!(st, 200);
    assert!(body.contains("game.js"));
    server.stop().await;
}
