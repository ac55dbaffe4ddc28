//! Integration over HTTP and WebSocket: create, join, move, refusals,
//! resign, game end stored, and a restart on the same data directory with
//! every game and move intact.

use crate::common;
use common::*;
use serde_json::{json, Value};
use std::time::Duration;

fn ucis(state: &Value) -> Vec<String> {
    state["history"].as_array().unwrap().iter().map(|h| h["uci"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_refuse_resign_restart() {
    let dir = fresh_dir("api");
    let server = start(&dir).await;
    let a = server.addr;

    // The lobby page and assets are served.
    let (st, body) = http(a, "GET", "/", None).await;
    assert_eq!(st, 200);
    assert!(body.contains("New game"), "lobby page");
    let (st, _) = http(a, "GET", "/assets/board.js", None).await;
    assert_eq!(st, 200);
    // A page that does not exist is the site's "page not found" page (a
    // 404 with a link home), a rules page of no variant too; the API's
    // missing paths keep their JSON errors.
    for path in ["/nope", "/rules/", "/rules/nope", "/lab/", "/lab/1", "/docs/nope"] {
        let (st, body) = http(a, "GET", path, None).await;
        assert_eq!(st, 404, "{path}: {body}");
        assert!(body.contains("Page not found") && body.contains("href=\"/\""), "{path}: {body}");
    }
    for path in ["/rules", "/rules/chess", "/lab"] {
        assert_eq!(http(a, "GET", path, None).await.0, 200, "{path}");
    }
    let (st, v) = get_json(a, "/api/nope").await;
    assert_eq!((st, v["error"].as_str()), (404, Some("no such page or API path")));

    // Bad creation requests are refused with the problem named.
    let (st, v) = post_json(a, "/api/games", &json!({"variant": "xiangqi", "mode": "hotseat"})).await;
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("unknown variant 'xiangqi'"), "{v}");
    let (st, v) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "engine", "level": 9})).await;
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("level 9"), "{v}");
    let (st, v) = post_json(
        a,
        "/api/games",
        &json!({"variant": "magicring", "mode": "hotseat", "options": {"ring_powers": "QX"}}),
    )
    .await;
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("'X'"), "{v}");
    // An option the variant does not have, or one no variant has.
    for (variant, options, want) in [
        ("chess", json!({"ring_powers": "NQ"}), "chess has no rule option 'ring_powers' (it has none)"),
        ("magicring", json!({"powers": "NQ"}), "magicring has no rule option 'powers' (its options: ring_powers)"),
    ] {
        let (st, v) =
            post_json(a, "/api/games", &json!({"variant": variant, "mode": "hotseat", "options": options})).await;
        assert_eq!(st, 400, "{v}");
        assert_eq!(v["error"].as_str().unwrap(), want);
    }
    let (st, v) = http(a, "POST", "/api/games", Some("{not json")).await;
    assert_eq!(st, 400);
    assert!(v.contains("malformed request"), "{v}");
    let (st, v) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "hotseat", "bogus": 1})).await;
    assert_eq!(st, 400, "unknown fields are refused: {v}");

    // Create a friend game as White; a friend joins as Black.
    let (st, created) =
        post_json(a, "/api/games", &json!({"variant": "chess", "mode": "friend", "color": "white"})).await;
    assert_eq!(st, 200, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let wtok = created["token"].as_str().unwrap().to_string();
    let invite = created["invite"].as_str().unwrap().to_string();
    let (st, v) = post_json(a, &format!("/api/games/{id}/join"), &json!({})).await;
    assert_eq!(st, 400, "the public id alone does not seat anyone: {v}");
    let (st, v) = post_json(a, &format!("/api/games/{id}/join"), &json!({"invite": "0".repeat(32)})).await;
    assert_eq!(st, 403, "a guessed invite is refused: {v}");
    let (st, joined) = post_json(a, &format!("/api/games/{id}/join"), &json!({"invite": invite})).await;
    assert_eq!(st, 200, "{joined}");
    assert_eq!(joined["colors"], json!(["black"]));
    let btok = joined["token"].as_str().unwrap().to_string();
    let (st, v) = post_json(a, &format!("/api/games/{id}/join"), &json!({"invite": invite})).await;
    assert_eq!(st, 409, "third player cannot join: {v}");

    let mut w = ws(a, &id, Some(&wtok)).await;
    let hello = recv(&mut w).await;
    assert_eq!(hello["you"], json!(["w"]));
    let s0 = wait_state(&mut w, |_| true).await;
    assert_eq!(s0["ply"], 0);
    assert_eq!(s0["legal"]["e2"].as_array().unwrap().len(), 2, "e2 has two moves: {}", s0["legal"]["e2"]);
    let mut b = ws(a, &id, Some(&btok)).await;
    assert_eq!(recv(&mut b).await["you"], json!(["b"]));
    wait_state(&mut b, |_| true).await;
    let mut spectator = ws(a, &id, None).await;
    assert_eq!(recv(&mut spectator).await["you"], json!([]));
    wait_state(&mut spectator, |_| true).await;
    let mut thief = ws(a, &id, Some("0123456789abcdef")).await;
    assert_eq!(recv(&mut thief).await["you"], json!([]), "a wrong token holds no seat");
    wait_state(&mut thief, |_| true).await;

    // Wrong seat, spectator, wrong token, malformed and illegal: refused.
    send(&mut b, &json!({"t": "move", "uci": "e7e5"})).await;
    assert!(wait_error(&mut b).await.contains("not your turn"));
    send(&mut spectator, &json!({"t": "move", "uci": "e2e4"})).await;
    assert!(wait_error(&mut spectator).await.contains("spectator"));
    send(&mut thief, &json!({"t": "resign"})).await;
    assert!(wait_error(&mut thief).await.contains("spectator"));
    send_raw(&mut w, "{\"t\": \"move\", ").await;
    assert!(wait_error(&mut w).await.contains("malformed message"));
    send(&mut w, &json!({"t": "teleport"})).await;
    assert!(wait_error(&mut w).await.contains("malformed message"));
    send(&mut w, &json!({"t": "move", "uci": "e2e5"})).await;
    let e = wait_error(&mut w).await;
    assert!(e.contains("illegal move 'e2e5'"), "{e}");
    send(&mut w, &json!({"t": "move", "uci": "zz"})).await;
    assert!(wait_error(&mut w).await.contains("zz"));
    send(&mut w, &json!({"t": "move", "uci": "e2e4", "ply": 3})).await;
    assert!(wait_error(&mut w).await.contains("stale"));
    let (_, g) = get_json(a, &format!("/api/games/{id}")).await;
    assert_eq!(g["ply"], 0, "nothing changed");

    // Moves reach every client.
    send(&mut w, &json!({"t": "move", "uci": "e2e4", "ply": 0})).await;
    for c in [&mut w, &mut b, &mut spectator] {
        let s = wait_state(c, |s| s["ply"] == 1).await;
        assert_eq!(s["history"][0]["san"], "e4");
    }
    send(&mut b, &json!({"t": "move", "uci": "e7e5"})).await;
    wait_state(&mut w, |s| s["ply"] == 2).await;
    send(&mut w, &json!({"t": "move", "uci": "g1f3"})).await;
    wait_state(&mut b, |s| s["ply"] == 3).await;
    // Takeback is not offered between friends.
    send(&mut b, &json!({"t": "takeback"})).await;
    assert!(wait_error(&mut b).await.contains("takebacks"));
    // Draw offer, declined by playing on... then Black resigns.
    send(&mut b, &json!({"t": "draw_offer"})).await;
    let s = wait_state(&mut w, |s| s["draw_offer"] == "b").await;
    assert_eq!(s["status"], "active");
    send(&mut w, &json!({"t": "draw_decline"})).await;
    wait_state(&mut b, |s| s["draw_offer"].is_null()).await;
    send(&mut b, &json!({"t": "resign"})).await;
    let s = wait_state(&mut spectator, |s| s["status"] == "finished").await;
    assert_eq!(s["result"], "1-0");
    assert_eq!(s["reason"], "resignation");
    send(&mut w, &json!({"t": "move", "uci": "f1c4"})).await;
    assert!(wait_error(&mut w).await.contains("game is over"));

    // Hot-seat: fool's mate, one token holds both seats.
    let (_, hs) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "hotseat"})).await;
    let hid = hs["id"].as_str().unwrap().to_string();
    let mut h = ws(a, &hid, hs["token"].as_str()).await;
    assert_eq!(recv(&mut h).await["you"], json!(["w", "b"]));
    for (i, m) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
        send(&mut h, &json!({"t": "move", "uci": m})).await;
        wait_state(&mut h, |s| s["ply"] == i + 1).await;
    }
    let (_, hg) = get_json(a, &format!("/api/games/{hid}")).await;
    assert_eq!(hg["status"], "finished");
    assert_eq!(hg["result"], "0-1");
    assert_eq!(hg["reason"], "checkmate");
    assert_eq!(hg["check"], "e1");
    assert_eq!(hg["history"][3]["san"], "Qh4#");

    // Against the engine: it answers, and a takeback undoes both moves.
    let (_, eg) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "engine", "level": 1, "color": "white", "clock": {"minutes": 5, "increment": 2}})).await;
    let eid = eg["id"].as_str().unwrap().to_string();
    let mut e = ws(a, &eid, eg["token"].as_str()).await;
    recv(&mut e).await;
    send(&mut e, &json!({"t": "move", "uci": "d2d4"})).await;
    let s = wait_state(&mut e, |s| s["ply"] == 2).await;
    assert!(s["clock"]["white"].as_i64().unwrap() > 0);
    send(&mut e, &json!({"t": "move", "uci": "e2e4"})).await;
    wait_state(&mut e, |s| s["ply"] == 4).await;
    send(&mut e, &json!({"t": "takeback"})).await;
    let s = wait_state(&mut e, |s| s["ply"] == 2).await;
    assert_eq!(s["turn"], "w");
    // The engine declines a draw: a notice (the engine's answer), not an error.
    send(&mut e, &json!({"t": "draw_offer"})).await;
    let n = loop {
        let v = recv(&mut e).await;
        if v["t"] == "notice" || v["t"] == "error" {
            break v;
        }
    };
    assert_eq!(n["t"], "notice", "{n}");
    assert!(n["message"].as_str().unwrap().contains("declines"), "{n}");

    // PGN export of the finished friend game.
    let (st, pgn) = http(a, "GET", &format!("/api/games/{id}/pgn"), None).await;
    assert_eq!(st, 200);
    assert!(pgn.contains("[Result \"1-0\"]") && pgn.contains("1. e4 e5 2. Nf3 1-0"), "{pgn}");
    // Its Date is the day the game was created (UTC), not `????.??.??`.
    // (web.rs's unit test checks the calendar arithmetic.)
    let date = pgn.lines().find_map(|l| l.strip_prefix("[Date \"")).and_then(|l| l.strip_suffix("\"]")).unwrap_or("");
    let parts: Vec<&str> = date.split('.').collect();
    assert!(
        parts.len() == 3
            && parts.iter().zip([4, 2, 2]).all(|(p, n)| p.len() == n && p.bytes().all(|b| b.is_ascii_digit()))
            && parts[0] >= "2024",
        "a Date YYYY.MM.DD: {pgn}"
    );

    // Stateless position, analysis and PGN import.
    let (st, v) = post_json(a, "/api/position", &json!({"variant": "chess", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"})).await;
    assert_eq!(st, 400, "no kings: {v}");
    let (st, v) = post_json(a, "/api/position", &json!({"variant": "chess", "moves": ["e2e4", "e7e5", "e1e3"]})).await;
    assert_eq!(st, 400);
    assert!(v["error"].as_str().unwrap().contains("move 3"), "{v}");
    // Variant state comes from the rules: 1. e1~d2 under the list NKQ puts
    // White's ring on the d2 pawn at level 1, the Knight power.
    let (st, v) = post_json(
        a,
        "/api/position",
        &json!({"variant": "magicring", "options": {"ring_powers": "NKQ"}, "moves": ["e1d2"]}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(
        v["state"]["rings"][0],
        json!({"owner": "w", "holder": "w", "square": "d2", "level": 1, "power": "N", "active": true})
    );
    assert_eq!(v["history"][0]["san"], "e1~d2");
    // Genie: after the flip White's right is spent.
    let (st, v) = post_json(a, "/api/position", &json!({"variant": "genie", "moves": ["d2d2g"]})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["state"]["flips"], json!({"w": false, "b": true}));
    let (st, v) = post_json(a, "/api/pgn/import", &json!({"pgn": "[Variant \"chess\"]\n\n1. e4 e5 2. Nf3 *"})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["moves"], json!(["e2e4", "e7e5", "g1f3"]));
    let (st, v) = post_json(a, "/api/pgn/import", &json!({"pgn": "1. e4 e4 *"})).await;
    assert_eq!(st, 400, "{v}");
    let (st, v) = post_json(a, "/api/analyse", &json!({"variant": "chess", "moves": ["e2e4"]})).await;
    assert_eq!(st, 200, "{v}");
    assert!(v["best"].is_string(), "{v}");

    // Remember everything, then restart on the same data directory.
    let mut before = Vec::new();
    for gid in [&id, &hid, &eid] {
        before.push(get_json(a, &format!("/api/games/{gid}")).await.1);
    }
    drop((w, b, spectator, thief, h, e));
    server.stop().await;

    let server = start(&dir).await;
    let a = server.addr;
    let (_, list) = get_json(a, "/api/games").await;
    assert_eq!(list.as_array().unwrap().len(), 3);
    for (gid, old) in [&id, &hid, &eid].iter().zip(&before) {
        let (st, new) = get_json(a, &format!("/api/games/{gid}")).await;
        assert_eq!(st, 200);
        for k in ["ply", "status", "result", "reason", "fen", "variant", "mode"] {
            assert_eq!(new[k], old[k], "{k} of game {gid} after restart");
        }
        assert_eq!(ucis(&new), ucis(old));
        assert_eq!(
            new["history"].as_array().unwrap().iter().map(|h| h["san"].clone()).collect::<Vec<_>>(),
            old["history"].as_array().unwrap().iter().map(|h| h["san"].clone()).collect::<Vec<_>>()
        );
    }
    // Seats survive the restart: the old token still plays the engine game.
    let mut e = ws(a, &eid, eg["token"].as_str()).await;
    assert_eq!(recv(&mut e).await["you"], json!(["w"]));
    send(&mut e, &json!({"t": "move", "uci": "c2c4"})).await;
    wait_state(&mut e, |s| s["ply"] == 4).await;
    drop(e);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The project's rules pages are served from the binary, linked from the
/// rules page and the lobby through `/api/meta`; a missing page is a JSON 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_documents_are_served() {
    let dir = fresh_dir("docs");
    let server = start(&dir).await;
    let a = server.addr;

    let (st, meta) = get_json(a, "/api/meta").await;
    assert_eq!(st, 200);
    let variants = meta["variants"].as_array().unwrap();
    assert_eq!(variants.len(), chimera_rules::Variant::ALL.len());
    for v in variants {
        assert!(!v["summary"].as_str().unwrap().is_empty(), "{v}");
        let link = v["rules"].as_str().unwrap();
        let (st, page) = http(a, "GET", link, None).await;
        assert_eq!(st, 200, "{link}");
        assert!(page.contains("<h1>") && page.contains("/assets/style.css"), "{link} is a page of the site");
        assert!(page.contains(v["id"].as_str().unwrap()), "{link} names its variant id");
        // Everything a front end shows of the variant is in its description:
        // the pocket's name and note, the rule options' schema, its rules
        // at a glance with diagrams.
        let variant: chimera_rules::Variant = v["id"].as_str().unwrap().parse().unwrap();
        let info = variant.info();
        assert_eq!(v["pocket"], json!(info.pocket), "{v}");
        let keys: Vec<&str> = v["options"].as_array().unwrap().iter().map(|o| o["key"].as_str().unwrap()).collect();
        assert_eq!(keys, info.options.iter().map(|o| o.key).collect::<Vec<_>>(), "{v}");
        for o in v["options"].as_array().unwrap() {
            for field in ["label", "help", "default", "pattern"] {
                assert!(!o[field].as_str().unwrap().is_empty(), "{v}: option {field}");
            }
        }
        let (st, glance) = get_json(a, &format!("/api/rules/{}", variant.id())).await;
        assert_eq!(st, 200, "{glance}");
        assert!(glance["html"].as_str().unwrap().contains("<p>"), "{glance}");
        assert!(!glance["diagrams"].as_array().unwrap().is_empty(), "{glance}");
    }
    let (st, v) = get_json(a, "/api/rules/nope").await;
    assert_eq!(st, 404, "{v}");
    assert!(v["error"].as_str().unwrap().contains("unknown variant 'nope'"), "{v}");
    // The index, with its relative links to every page; the notation tables.
    let (st, index) = http(a, "GET", "/docs/rules/", None).await;
    assert_eq!(st, 200);
    assert!(index.contains(r#"href="genesis.md""#) && index.contains("<table"), "rules index");
    // Unknown documents and path tricks are refused: the "Page not found"
    // page (a page a browser went to), with nothing of the file.
    for bad in ["/docs/rules/nope.md", "/docs/../Cargo.toml", "/docs/rules/%2e%2e/%2e%2e/Cargo.toml"] {
        let (st, body) = http(a, "GET", bad, None).await;
        assert_eq!(st, 404, "{bad}");
        assert!(body.contains("Page not found") && !body.contains("[package]"), "{bad}: {body}");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A finished game's computer review (`POST`/`GET /api/games/{id}/review`)
/// on SQLite.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_review() {
    let dir = fresh_dir("review");
    let cfg = chimera_server::Config { review_nodes: 2_000, ..chimera_server::Config::default() };
    let server = chimera_server::Server::start_with("127.0.0.1:0", &dir, cfg).await.expect("server starts");
    review_checks(server.addr).await;
    server.stop().await;
}

/// The same on PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_review_postgres() {
    let Some(pg) = common::pg::PgCluster::start_or_skip("game review on PostgreSQL") else { return };
    let at = chimera_server::store::Location::Url(pg.fresh_database("review"));
    let cfg = chimera_server::Config { review_nodes: 2_000, ..chimera_server::Config::default() };
    let server = chimera_server::Server::start_at("127.0.0.1:0", &at, cfg).await.expect("server starts");
    review_checks(server.addr).await;
    server.stop().await;
}

/// A hot-seat chess game of `moves`, then resigned by the side to move
/// when `resign`; its state.
async fn hotseat_game(a: std::net::SocketAddr, moves: &[&str], resign: bool) -> (String, Value) {
    let (_, g) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "hotseat"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut h = ws(a, &id, g["token"].as_str()).await;
    recv(&mut h).await;
    for (i, m) in moves.iter().enumerate() {
        send(&mut h, &json!({"t": "move", "uci": m})).await;
        wait_state(&mut h, |s| s["ply"] == i + 1).await;
    }
    if resign {
        send(&mut h, &json!({"t": "resign"})).await;
        wait_state(&mut h, |s| s["status"] == "finished").await;
    }
    let (_, state) = get_json(a, &format!("/api/games/{id}")).await;
    (id, state)
}

async fn review_checks(a: std::net::SocketAddr) {
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5", "d7d5", "e4d5", "f6d5", "g5f7", "e8f7"];
    // An unfinished game is refused, and has no review.
    let (open, _) = hotseat_game(a, &moves, false).await;
    let (st, v) = http(a, "POST", &format!("/api/games/{open}/review"), None).await;
    assert_eq!(st, 409, "{v}");
    assert!(v.contains("not finished"), "{v}");
    let (st, _) = http(a, "GET", &format!("/api/games/{open}/review"), None).await;
    assert_eq!(st, 404);
    assert_eq!(http(a, "POST", "/api/games/nosuchgame/review", None).await.0, 404);

    // Two games of the same moves, each reviewed on its own: the same
    // bytes (nothing of a review depends on the game's id or the time).
    let (one, state) = hotseat_game(a, &moves, true).await;
    let (two, _) = hotseat_game(a, &moves, true).await;
    assert_eq!(http(a, "GET", &format!("/api/games/{one}/review"), None).await.0, 404, "none before it is asked for");
    let first = reviewed(a, &one).await;
    let second = reviewed(a, &two).await;
    assert_eq!(first, second, "the same game gives the same review");
    // Stored: GET and a second POST answer the same bytes.
    assert_eq!(http(a, "GET", &format!("/api/games/{one}/review"), None).await, (200, first.clone()));
    assert_eq!(http(a, "POST", &format!("/api/games/{one}/review"), None).await, (200, first.clone()));

    // Its plies are the game's moves.
    let r: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(r["nodes"], 2_000);
    let plies = r["plies"].as_array().unwrap();
    assert_eq!(plies.len(), moves.len());
    for (i, p) in plies.iter().enumerate() {
        assert_eq!(p["ply"], i + 1);
        assert_eq!(p["uci"], state["history"][i]["uci"], "ply {}", i + 1);
        assert_eq!(p["san"], state["history"][i]["san"], "ply {}", i + 1);
        assert!(p["eval"]["cp"].is_i64() || p["eval"]["mate"].is_i64(), "{p}");
        assert!(p["best"].is_string() && p["best_san"].is_string(), "{p}");
        let acc = p["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&acc), "{p}");
    }
    for side in ["white", "black"] {
        let acc = r[side]["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&acc), "{r}");
        let judged = |j: &str| {
            plies
                .iter()
                .filter(|p| (p["ply"].as_u64().unwrap() % 2 == 1) == (side == "white") && p["judgement"] == j)
                .count()
        };
        assert_eq!(r[side]["blunders"], judged("blunder"), "{side}");
        assert_eq!(r[side]["mistakes"], judged("mistake"), "{side}");
        assert_eq!(r[side]["inaccuracies"], judged("inaccuracy"), "{side}");
    }

    // A game ended by checkmate; two requests at once queue one job, and
    // both are answered the one review stored.
    let (mate, _) = hotseat_game(a, &["f2f3", "e7e5", "g2g4", "d8h4"], false).await;
    let path = format!("/api/games/{mate}/review");
    let (x, y) = tokio::join!(http(a, "POST", &path, None), http(a, "POST", &path, None));
    assert!([200, 202].contains(&x.0) && [200, 202].contains(&y.0), "{x:?} {y:?}");
    let r: Value = serde_json::from_str(&reviewed(a, &mate).await).unwrap();
    assert_eq!(r["plies"][3]["san"], "Qh4#");
    assert_eq!(r["plies"][3]["eval"], json!({"won": "black"}));
}

/// Asks for a game's review and waits for it (the server's own engine
/// reviews it when no worker is active): its JSON.
async fn reviewed(a: std::net::SocketAddr, id: &str) -> String {
    let path = format!("/api/games/{id}/review");
    let (st, v) = http(a, "POST", &path, None).await;
    assert!(st == 200 || st == 202, "{st} {v}");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (st, v) = http(a, "GET", &path, None).await;
        match st {
            200 => return v,
            202 => {
                let s: Value = serde_json::from_str(&v).unwrap();
                assert!(s["state"] == "queued" || s["state"] == "running", "{v}");
            }
            _ => panic!("GET {path}: {st} {v}"),
        }
        assert!(std::time::Instant::now() < deadline, "no review of {id} within 60 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The analysis workers' protocol (docs/server.md, "Analysis workers"):
/// keys, one job to one worker, hostile results refused with the job
/// given to the next worker, a job taken back after its deadline and the
/// late result refused, a replayed result refused, a revoked key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_workers() {
    let dir = fresh_dir("workers");
    let server = chimera_server::Server::start_with("127.0.0.1:0", &dir, worker_config()).await.expect("server starts");
    worker_checks(&server).await;
    server.stop().await;
}

/// The same on PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_workers_postgres() {
    let Some(pg) = common::pg::PgCluster::start_or_skip("analysis workers on PostgreSQL") else { return };
    let at = chimera_server::store::Location::Url(pg.fresh_database("workers"));
    let server = chimera_server::Server::start_at("127.0.0.1:0", &at, worker_config()).await.expect("server starts");
    worker_checks(&server).await;
    server.stop().await;
}

/// No reviews by the server's own engine (every job is the workers'), and
/// a job's time short enough to see it taken back.
fn worker_config() -> chimera_server::Config {
    chimera_server::Config {
        review_nodes: 2_000,
        review_local: false,
        review_job_time: Duration::from_secs(2),
        ..chimera_server::Config::default()
    }
}

/// `POST path` with a worker's key and a body: (status, body).
async fn as_worker(a: std::net::SocketAddr, key: &str, path: &str, body: &str) -> (u16, String) {
    let url = format!("http://{a}{path}");
    let r = reqwest::Client::new()
        .post(url)
        .bearer_auth(key)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

/// A worker's honest searches for `job`.
fn honest(job: &chimera_server::workers::Job) -> Vec<chimera_server::review::PositionEval> {
    let game = job.replay().unwrap();
    chimera_server::review::search_positions(&game, job.nodes, &std::sync::atomic::AtomicBool::new(false)).unwrap()
}

fn result_body(positions: &[chimera_server::review::PositionEval]) -> String {
    json!({ "positions": positions }).to_string()
}

async fn worker_checks(server: &chimera_server::Server) {
    use chimera_server::workers::{add_worker, revoke_worker, Job};
    let a = server.addr;
    let db = &server.app.db;
    let (wa, ka) = add_worker(db, "worker A").await.unwrap();
    let (_, kb) = add_worker(db, "worker B").await.unwrap();
    let (ka, kb) = (ka.as_str().to_string(), kb.as_str().to_string());
    let acquire = |k: String| async move { as_worker(a, &k, "/api/worker/acquire", "").await };
    let job_of = |v: &str| -> Job { serde_json::from_str(v).unwrap() };

    // Keys: none, a made-up one, a personal token's shape: 401.
    for k in ["", "chw_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "chp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]
    {
        let (st, v) = acquire(k.to_string()).await;
        assert_eq!(st, 401, "{k}: {v}");
    }
    // No job yet.
    assert_eq!(acquire(ka.clone()).await.0, 204);

    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5", "d7d5", "e4d5", "f6d5", "g5f7", "e8f7"];
    let (id, _) = hotseat_game(a, &moves, true).await;
    let path = format!("/api/games/{id}/review");
    let (st, v) = http(a, "POST", &path, None).await;
    assert_eq!(st, 202, "{v}");
    assert_eq!(serde_json::from_str::<Value>(&v).unwrap(), json!({"state": "queued", "ahead": 0}));

    // One job, to one worker; the other hears there is none.
    let (st, v) = acquire(ka.clone()).await;
    assert_eq!(st, 200, "{v}");
    let job1 = job_of(&v);
    assert_eq!((job1.game.as_str(), job1.moves.len(), job1.nodes), (id.as_str(), 12, 2_000));
    assert_eq!(acquire(kb.clone()).await.0, 204);
    assert_eq!(http(a, "GET", &path, None).await.1, json!({"state": "running"}).to_string());
    let good = honest(&job1);
    assert_eq!(good.len(), 13);

    // Too few plies: refused, and the job goes to the next worker at once.
    let (st, v) = as_worker(a, &ka, &format!("/api/worker/result/{}", job1.id), &result_body(&good[..12])).await;
    assert_eq!(st, 400, "{v}");
    assert!(v.contains("12 evaluations for 13 positions"), "{v}");
    let (st, v) = acquire(kb.clone()).await;
    assert_eq!(st, 200, "{v}");
    let job2 = job_of(&v);
    assert_ne!(job2.id, job1.id);
    // The old lease is no one's now.
    let (st, v) = as_worker(a, &ka, &format!("/api/worker/result/{}", job1.id), &result_body(&good)).await;
    assert_eq!(st, 409, "{v}");
    // Another worker's job: as if there were none.
    let (st, _) = as_worker(a, &ka, &format!("/api/worker/result/{}", job2.id), &result_body(&good)).await;
    assert_eq!(st, 409);
    // An illegal line.
    let mut bad = good.clone();
    bad[4].pv = vec![bad[4].best.clone().unwrap(), "a1a8".into()];
    let (st, v) = as_worker(a, &kb, &format!("/api/worker/result/{}", job2.id), &result_body(&bad)).await;
    assert_eq!(st, 400, "{v}");
    assert!(v.contains("'a1a8' is not legal"), "{v}");
    // Not JSON of a result.
    let (st, v) = acquire(ka.clone()).await;
    let job3 = job_of(&v);
    assert_eq!(st, 200);
    for junk in ["", "{", "[]", r#"{"positions": 3}"#, r#"{"positions": [], "extra": 1}"#] {
        let (st, v) = as_worker(a, &ka, &format!("/api/worker/result/{}", job3.id), junk).await;
        assert_eq!(st, 400, "{junk}: {v}");
    }
    // Still A's: the honest result is stored, and it is the review the
    // server's own search gives.
    let (st, v) = as_worker(a, &ka, &format!("/api/worker/result/{}", job3.id), &result_body(&good)).await;
    assert_eq!((st, v.as_str()), (200, r#"{"stored":true}"#));
    let (st, stored) = http(a, "GET", &path, None).await;
    assert_eq!(st, 200, "{stored}");
    let own = chimera_server::review::review_game(&job3.replay().unwrap(), 2_000, &Default::default()).unwrap();
    assert_eq!(stored, serde_json::to_string(&own).unwrap());
    // Replayed: refused, the review unchanged.
    let (st, _) = as_worker(a, &ka, &format!("/api/worker/result/{}", job3.id), &result_body(&good)).await;
    assert_eq!(st, 409);
    assert_eq!(http(a, "GET", &path, None).await, (200, stored.clone()));
    assert_eq!(acquire(kb.clone()).await.0, 204, "the job is done");

    // A worker that goes silent: after the job's time another takes it,
    // and the late result is refused.
    let (id2, _) = hotseat_game(a, &moves[..10], true).await;
    assert_eq!(http(a, "POST", &format!("/api/games/{id2}/review"), None).await.0, 202);
    let slow = job_of(&acquire(ka.clone()).await.1);
    assert_eq!(acquire(kb.clone()).await.0, 204, "taken, within its time");
    tokio::time::sleep(Duration::from_millis(2_300)).await;
    let (st, v) = acquire(kb.clone()).await;
    assert_eq!(st, 200, "{v}");
    let fast = job_of(&v);
    assert_eq!(fast.game, id2);
    let (st, _) = as_worker(a, &ka, &format!("/api/worker/result/{}", slow.id), &result_body(&honest(&slow))).await;
    assert_eq!(st, 409, "the late result");
    let (st, v) = as_worker(a, &kb, &format!("/api/worker/result/{}", fast.id), &result_body(&honest(&fast))).await;
    assert_eq!(st, 200, "{v}");
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reviews").fetch_one(db).await.unwrap();
    assert_eq!(n, 2, "one review per game");
    let jobs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM review_jobs").fetch_one(db).await.unwrap();
    assert_eq!(jobs, 0);

    // A revoked key is refused at once.
    assert!(revoke_worker(db, &wa).await.unwrap());
    assert_eq!(acquire(ka.clone()).await.0, 401);
    assert_eq!(acquire(kb.clone()).await.0, 204);
}

/// The opening explorer (docs/server.md, "Opening explorer"): games read
/// once into their source, counts by result, moves listed most played
/// first with SAN, each variant on its own, lab games among the engines',
/// bad queries refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_explorer() {
    let dir = fresh_dir("explorer");
    let cfg =
        chimera_server::Config { explorer_every: Duration::from_millis(200), ..chimera_server::Config::default() };
    let server = chimera_server::Server::start_with("127.0.0.1:0", &dir, cfg).await.expect("server starts");
    explorer_checks(&server).await;
    server.stop().await;
}

/// The same on PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_explorer_postgres() {
    let Some(pg) = common::pg::PgCluster::start_or_skip("opening explorer on PostgreSQL") else { return };
    let at = chimera_server::store::Location::Url(pg.fresh_database("explorer"));
    let cfg =
        chimera_server::Config { explorer_every: Duration::from_millis(200), ..chimera_server::Config::default() };
    let server = chimera_server::Server::start_at("127.0.0.1:0", &at, cfg).await.expect("server starts");
    explorer_checks(&server).await;
    server.stop().await;
}

fn to_read(
    id: &str,
    source: &'static str,
    variant: &str,
    moves: &str,
    result: &str,
) -> chimera_server::explorer::ToRead {
    chimera_server::explorer::ToRead {
        id: id.into(),
        source,
        variant: variant.parse().unwrap(),
        opts: Default::default(),
        fen: None,
        moves: moves.split_whitespace().map(String::from).collect(),
        result: result.into(),
    }
}

async fn explorer_checks(server: &chimera_server::Server) {
    use chimera_server::explorer::add;
    let a = server.addr;
    let db = &server.app.db;
    let explore = |q: &'static str| async move {
        let (st, v) = http(a, "GET", &format!("/api/explorer?{q}"), None).await;
        (st, serde_json::from_str::<Value>(&v).unwrap_or(Value::String(v)))
    };
    // A casual hot-seat game: read, counted nowhere. A game against the
    // engine, resigned after its reply: the engines'.
    hotseat_game(a, &["e2e4", "e7e5"], true).await;
    let (_, eg) =
        post_json(a, "/api/games", &json!({"variant": "chess", "mode": "engine", "level": 1, "color": "white"})).await;
    let eid = eg["id"].as_str().unwrap().to_string();
    let mut e = ws(a, &eid, eg["token"].as_str()).await;
    recv(&mut e).await;
    send(&mut e, &json!({"t": "move", "uci": "d2d4"})).await;
    wait_state(&mut e, |s| s["ply"] == 2).await;
    send(&mut e, &json!({"t": "resign"})).await;
    wait_state(&mut e, |s| s["status"] == "finished").await;
    // A lab game (the lab's tables, as the lab writes them).
    sqlx::query("INSERT INTO lab_studies (id, variant, rule_options, spec, games_target, engine, created_at, updated_at) VALUES ('s1', 'chess', '', '{}', 1, 'chimera', 0, 0)")
        .execute(db).await.unwrap();
    sqlx::query("INSERT INTO lab_games (study_id, k, result, termination, opening_plies, plies, moves, scores, pgn, created_at) VALUES ('s1', 0, '1/2-1/2', 'x', 0, 2, 'd2d4 g8f6', '', '', 0)")
        .execute(db).await.unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (_, v) = explore("variant=chess").await;
        if v["engines"]["moves"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["uci"] == "d2d4" && m["black"] == 1 && m["draws"] == 1))
        {
            assert_eq!(v["engines"]["moves"].as_array().unwrap().len(), 1, "{v}");
            assert_eq!(v["people"]["moves"], json!([]), "the hot-seat game is no one's: {v}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the engine and lab games not read: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // People's rated games, one read twice, one whose moves do not replay,
    // one of Genie.
    add(
        db,
        &[
            to_read("p1", "people", "chess", "e2e4 e7e5 g1f3", "1-0"),
            to_read("p2", "people", "chess", "e2e4 c7c5", "0-1"),
            to_read("p3", "people", "chess", "d2d4 d7d5", "1/2-1/2"),
            to_read("p4", "people", "chess", "e2e4 e7e5 e1e8", "1-0"),
            to_read("p5", "people", "chess", "e2e4", "*"),
            to_read("g1", "people", "genie", "e2e4 e7e5", "0-1"),
        ],
    )
    .await
    .unwrap();
    add(db, &[to_read("p1", "people", "chess", "e2e4 e7e5 g1f3", "1-0")]).await.unwrap();
    let (st, v) = explore("variant=chess").await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(
        v["people"]["moves"],
        json!([
            {"uci": "e2e4", "san": "e4", "white": 1, "draws": 0, "black": 1},
            {"uci": "d2d4", "san": "d4", "white": 0, "draws": 1, "black": 0},
        ]),
        "{v}"
    );
    assert_eq!(
        (v["people"]["white"].as_i64(), v["people"]["draws"].as_i64(), v["people"]["black"].as_i64()),
        (Some(1), Some(1), Some(1))
    );
    let (_, v) = explore("variant=chess&play=e2e4").await;
    assert_eq!(
        v["people"]["moves"],
        json!([
            {"uci": "c7c5", "san": "c5", "white": 0, "draws": 0, "black": 1},
            {"uci": "e7e5", "san": "e5", "white": 1, "draws": 0, "black": 0},
        ]),
        "{v}"
    );
    let (_, v) = explore("variant=chess&play=e2e4,e7e5").await;
    assert_eq!(v["people"]["moves"][0]["san"], "Nf3", "{v}");
    // The same position from its FEN.
    let (_, f) =
        explore("variant=chess&fen=rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR%20w%20KQkq%20-%200%202").await;
    assert_eq!(f["people"], v["people"], "{f}");
    let (_, v) = explore("variant=genie").await;
    assert_eq!(v["people"]["moves"], json!([{"uci": "e2e4", "san": "e4", "white": 0, "draws": 0, "black": 1}]), "{v}");
    let read: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM explorer_games").fetch_one(db).await.unwrap();
    assert_eq!(read, 9, "two web games, a lab game, six added once");

    for q in [
        "",
        "variant=nope",
        "variant=chess&play=e2e5",
        "variant=chess&fen=8/8/8",
        "variant=chess&rules=x=1",
        "variant=chess&depth=3",
    ] {
        let (st, v) = http(a, "GET", &format!("/api/explorer?{q}"), None).await;
        assert_eq!(st, 400, "{q}: {v}");
    }
}

/// The explorer's query time on a store of 100,000 games (seeded random
/// walks of 40 plies, read as the engines'): p50, p99 and max of 1,000
/// queries at positions of those games, over HTTP:
/// `cargo test -p chimera-server --test services api::explorer_query_time -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn explorer_query_time() {
    use chimera_rules::{AnyPosition, Position, RuleOptions, Variant};
    use rand::{Rng, SeedableRng};
    let dir = fresh_dir("explorer-time");
    let server =
        chimera_server::Server::start_with("127.0.0.1:0", &dir, chimera_server::Config::default()).await.unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut games = Vec::new();
    let t = std::time::Instant::now();
    for i in 0..100_000 {
        let mut pos = AnyPosition::new(Variant::Chess, &RuleOptions::default());
        let mut moves = Vec::new();
        // Openings share their first moves as people's do: the first four
        // plies from a few choices.
        for ply in 0..40 {
            let legal = pos.legal_move_list();
            if legal.is_empty() {
                break;
            }
            let k = if ply < 4 { rng.gen_range(0..legal.len().min(3)) } else { rng.gen_range(0..legal.len()) };
            let m = legal[k];
            moves.push(m.to_string());
            pos = pos.after(m);
        }
        let result = ["1-0", "0-1", "1/2-1/2"][i % 3];
        games.push(to_read(&format!("bench{i}"), "engines", "chess", &moves.join(" "), result));
        if games.len() == 1000 {
            chimera_server::explorer::add(&server.app.db, &games).await.unwrap();
            games.clear();
        }
    }
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM explorer_moves").fetch_one(&server.app.db).await.unwrap();
    println!("100,000 games read in {:.0} s; {rows} rows", t.elapsed().as_secs_f64());
    let mut times = Vec::new();
    for _ in 0..1000 {
        let g = rng.gen_range(0..100_000u64);
        let mut r2 = rand::rngs::StdRng::seed_from_u64(g);
        let plies = r2.gen_range(0..12);
        // A position of the opening tree: plies from the start along
        // the most played moves.
        let mut play: Vec<String> = Vec::new();
        for _ in 0..plies {
            let (_, v) =
                http(server.addr, "GET", &format!("/api/explorer?variant=chess&play={}", play.join(",")), None).await;
            let v: Value = serde_json::from_str(&v).unwrap();
            let moves = v["engines"]["moves"].as_array().unwrap();
            if moves.is_empty() {
                break;
            }
            play.push(moves[r2.gen_range(0..moves.len())]["uci"].as_str().unwrap().to_string());
        }
        let q = format!("/api/explorer?variant=chess&play={}", play.join(","));
        let t = std::time::Instant::now();
        let (st, _) = http(server.addr, "GET", &q, None).await;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(st, 200);
    }
    times.sort_by(f64::total_cmp);
    println!("1,000 queries: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms", times[499], times[989], times[999]);
    server.stop().await;
}

/// The analysis board's lines (`/api/analyse/stream`): N lines at each
/// depth, best first, legal, deeper and deeper; the search stops as soon
/// as the client goes away; bad requests refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_lines_deepen_and_stop() {
    let dir = fresh_dir("lines");
    let server =
        chimera_server::Server::start_with("127.0.0.1:0", &dir, chimera_server::Config::default()).await.unwrap();
    let a = server.addr;
    let client = reqwest::Client::new();
    let stream = |q: &str, body: Value| {
        client
            .post(format!("http://{a}/api/analyse/stream{q}"))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
    };
    let mut r = stream("?lines=3", json!({"variant": "chess", "moves": ["e2e4"]})).await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/x-ndjson");
    let mut buf = String::new();
    let mut depths = Vec::new();
    while depths.last().is_none_or(|&d| d < 6) {
        let chunk = tokio::time::timeout(Duration::from_secs(30), r.chunk()).await.expect("a line within 30 s");
        buf.push_str(std::str::from_utf8(&chunk.unwrap().expect("the stream goes on")).unwrap());
        while let Some(i) = buf.find('\n') {
            let l: String = buf.drain(..=i).collect();
            let v: Value = serde_json::from_str(l.trim()).unwrap();
            let lines = v["lines"].as_array().unwrap();
            assert_eq!(lines.len(), 3, "{v}");
            let firsts: std::collections::HashSet<&str> = lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
            assert_eq!(firsts.len(), 3, "three different moves: {v}");
            // Black to move: White's scores rise from the best line down.
            let cps: Vec<i64> = lines.iter().filter_map(|l| l["score"]["cp"].as_i64()).collect();
            assert!(cps.windows(2).all(|w| w[0] <= w[1]), "best (for Black) first: {v}");
            for l in lines {
                assert_eq!(l["pv"].as_array().unwrap().len(), l["pv_san"].as_array().unwrap().len(), "{l}");
            }
            depths.push(v["depth"].as_u64().unwrap());
        }
    }
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "deeper each time: {depths:?}");
    // The client leaves: the engine is free at once.
    drop(r);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let (_, h) = get_json(a, "/api/health").await;
        if h["engine"]["running"] == 0 {
            assert!(h["engine"]["stopped"].as_u64().unwrap() >= 1, "{h}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the search still runs: {h}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A finished game: its outcome and no line.
    let r = stream("", json!({"variant": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]})).await.unwrap();
    let v: Value = serde_json::from_str(r.text().await.unwrap().trim()).unwrap();
    assert_eq!(v["lines"], json!([]), "{v}");
    assert!(v["outcome"].is_string(), "{v}");
    for (q, body) in [
        ("?lines=0", json!({"variant": "chess"})),
        ("?lines=6", json!({"variant": "chess"})),
        ("?lines=x", json!({"variant": "chess"})),
        ("?depth=3", json!({"variant": "chess"})),
        ("", json!({"variant": "nope"})),
        ("", json!({"variant": "chess", "moves": ["e2e5"]})),
    ] {
        let r = stream(q, body.clone()).await.unwrap();
        assert_eq!(r.status(), 400, "{q} {body}");
    }
    server.stop().await;
}

/// lichess's PGN comments: a clocked game's export carries `[%clk]` after
/// each move, and once reviewed `[%eval]` too (`{ [%eval 0.35] [%clk
/// 0:04:58] }`); the analysis board's import (`POST /api/pgn/tree`) reads
/// both back onto its moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pgn_eval_and_clock_round_trip() {
    let dir = fresh_dir("pgn-comments");
    let cfg = chimera_server::Config { review_nodes: 2_000, ..chimera_server::Config::default() };
    let server = chimera_server::Server::start_with("127.0.0.1:0", &dir, cfg).await.expect("server starts");
    let a = server.addr;
    let body = json!({"variant": "chess", "mode": "hotseat", "clock": {"minutes": 5, "increment": 3}});
    let (_, g) = post_json(a, "/api/games", &body).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut h = ws(a, &id, g["token"].as_str()).await;
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];
    for (i, m) in moves.iter().enumerate() {
        send(&mut h, &json!({"t": "move", "uci": m, "ply": i})).await;
        wait_state(&mut h, |s| s["ply"] == i + 1).await;
    }
    send(&mut h, &json!({"t": "resign"})).await;
    wait_state(&mut h, |s| s["status"] == "finished").await;
    let (_, state) = get_json(a, &format!("/api/games/{id}")).await;
    let clock = |i: usize| state["history"][i]["clock"].as_i64().unwrap();
    let hms = |ms: i64| format!("{}:{:02}:{:02}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
    // Before a review: clocks only.
    let (st, text) = http(a, "GET", &format!("/api/games/{id}/pgn"), None).await;
    assert_eq!(st, 200);
    assert!(
        text.contains(&format!("1. e4 {{ [%clk {}] }} e5 {{ [%clk {}] }}", hms(clock(0)), hms(clock(1)))),
        "{text}"
    );
    assert!(!text.contains("%eval"), "{text}");
    // Reviewed (a queued review is waited for).
    let path = format!("/api/games/{id}/review");
    let (mut st, mut rv) = http(a, "POST", &path, None).await;
    for _ in 0..300 {
        if st == 200 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        (st, rv) = http(a, "GET", &path, None).await;
    }
    assert_eq!(st, 200, "{rv}");
    let review: Value = serde_json::from_str(&rv).unwrap();
    let (_, text) = http(a, "GET", &format!("/api/games/{id}/pgn"), None).await;
    let first = format!("{:.2}", review["plies"][0]["eval"]["cp"].as_i64().unwrap() as f64 / 100.0);
    assert!(text.contains(&format!("1. e4 {{ [%eval {first}] [%clk {}] }}", hms(clock(0)))), "{text}");
    // Read back by the analysis board's import.
    let (st, tree) = post_json(a, "/api/pgn/tree", &json!({ "pgn": text })).await;
    assert_eq!(st, 200, "{tree}");
    let tree = tree["tree"].as_array().unwrap();
    assert_eq!(tree.len(), moves.len());
    for (i, m) in tree.iter().enumerate() {
        assert_eq!(m["uci"], moves[i]);
        assert_eq!(m["eval"], review["plies"][i]["eval"], "ply {}", i + 1);
        assert_eq!(m["clock"], json!(clock(i) / 1000 * 1000), "ply {}", i + 1);
    }
    server.stop().await;
}

/// Compression (Lighthouse's "enable text compression"): pages and scripts
/// go gzip or Brotli to a client that accepts them, and smaller; the NDJSON
/// streams (a compressor would hold back the lines that must come as they
/// are made) and WebSocket upgrades never.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compressed_where_it_helps() {
    let dir = fresh_dir("compress");
    let server =
        chimera_server::Server::start_with("127.0.0.1:0", &dir, chimera_server::Config::default()).await.unwrap();
    let a = server.addr;
    let client = reqwest::Client::new();
    for (path, enc) in [("/assets/board.js", "gzip"), ("/", "br"), ("/analysis", "gzip")] {
        let r = client.get(format!("http://{a}{path}")).header("accept-encoding", enc).send().await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(r.headers().get("content-encoding").map(|v| v.to_str().unwrap()), Some(enc), "{path}");
        // Every Vary header (a page also varies by language: its own header).
        let vary: Vec<String> =
            r.headers().get_all("vary").iter().map(|v| v.to_str().unwrap().to_ascii_lowercase()).collect();
        let vary = vary.join(", ");
        assert!(vary.contains("accept-encoding"), "{path}: vary {vary}");
        let squeezed = r.bytes().await.unwrap().len();
        let plain = client.get(format!("http://{a}{path}")).send().await.unwrap();
        assert!(plain.headers().get("content-encoding").is_none(), "{path}");
        let whole = plain.bytes().await.unwrap().len();
        assert!(squeezed * 2 < whole, "{path}: {squeezed} bytes compressed, {whole} plain");
    }
    // The analysis stream: plain, its first line readable as it comes.
    let mut r = client
        .post(format!("http://{a}/api/analyse/stream"))
        .header("content-type", "application/json")
        .header("accept-encoding", "gzip, br")
        .body(json!({"variant": "chess", "moves": ["e2e4"]}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers().get("content-encoding").is_none(), "{:?}", r.headers());
    let chunk = tokio::time::timeout(Duration::from_secs(30), r.chunk()).await.expect("a line within 30 s");
    let first = String::from_utf8(chunk.unwrap().unwrap().to_vec()).unwrap();
    let v: Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert!(v["lines"].is_array(), "{v}");
    drop(r);
    // A WebSocket asked for by a client that takes gzip: upgraded as ever.
    let (st, g) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "hotseat"})).await;
    assert_eq!(st, 200, "{g}");
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{a}/ws/{}", g["id"].as_str().unwrap()).into_client_request().unwrap();
    req.headers_mut().insert("accept-encoding", "gzip, deflate, br".parse().unwrap());
    let (mut w, resp) = tokio_tungstenite::connect_async(req).await.expect("upgraded");
    assert!(resp.headers().get("content-encoding").is_none(), "{:?}", resp.headers());
    let hello = recv(&mut w).await;
    assert!(hello["t"].is_string(), "{hello}");
}

/// Lessons (docs/learn.md): the pages, the lessons as JSON, the judge's
/// verdicts (a wrong answer refused with its reason, a right one accepted,
/// a two-move step with its scripted reply), and a logged-in player's
/// progress kept in the store, on SQLite.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lessons_and_progress() {
    let dir = fresh_dir("learn");
    let server = start(&dir).await;
    learn_checks(server.addr).await;
    server.stop().await;
}

/// The same on PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lessons_and_progress_postgres() {
    let Some(pg) = common::pg::PgCluster::start_or_skip("lessons on PostgreSQL") else { return };
    let at = chimera_server::store::Location::Url(pg.fresh_database("learn"));
    let server = chimera_server::Server::start_at("127.0.0.1:0", &at, chimera_server::Config::default())
        .await
        .expect("server starts");
    learn_checks(server.addr).await;
    server.stop().await;
}

async fn learn_checks(a: std::net::SocketAddr) {
    for path in ["/learn", "/learn/genie", "/learn/magic-ring"] {
        let (st, body) = http(a, "GET", path, None).await;
        assert_eq!(st, 200, "{path}");
        assert!(body.contains("og:description"), "{path}");
    }
    assert_eq!(http(a, "GET", "/learn/shogi", None).await.0, 404);
    let (st, idx) = get_json(a, "/api/learn").await;
    assert_eq!(st, 200);
    assert_eq!(idx["variants"].as_array().unwrap().len(), 6, "every variant has lessons");
    let (st, g) = get_json(a, "/api/learn/genie").await;
    assert_eq!(st, 200);
    let step = &g["lessons"][0]["steps"][0];
    assert_eq!(step["key"], "genie/flip/1");
    assert!(step.get("answer").is_none() && step["hint"].as_str().is_some());
    assert_eq!(get_json(a, "/api/learn/nope").await.0, 404);

    let url = "/api/learn/genie/flip/1";
    // The position alone.
    let (st, v) = post_json(a, url, &json!({"moves": []})).await;
    assert_eq!(st, 200, "{v}");
    assert!(v["position"]["legal"]["e6"].is_array());
    // A wrong answer: refused, with the reason; the board unchanged.
    let (st, v) = post_json(a, url, &json!({"moves": [], "answer": "e6e7"})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!((v["ok"].as_bool(), v["done"].as_bool()), (Some(false), Some(false)));
    assert!(v["explanation"].as_str().unwrap().contains("not a flip"), "{v}");
    assert_eq!(v["position"]["fen"], "4k3/8/4P3/8/8/8/8/4K3 w - - 0 1");
    // An illegal one: the rules' own reason.
    let (_, v) = post_json(a, "/api/learn/genie-ownhalf/own-half/1", &json!({"answer": "e5e5g"})).await;
    assert!(v["explanation"].as_str().unwrap().contains("own half"), "{v}");
    // The right one (in SAN).
    let (_, v) = post_json(a, url, &json!({"moves": [], "answer": "Ge6"})).await;
    assert_eq!(
        (v["ok"].as_bool(), v["done"].as_bool(), v["uci"].as_str()),
        (Some(true), Some(true), Some("e6e6g")),
        "{v}"
    );
    assert!(v["position"]["check"].is_string(), "the flip gives check: {v}");
    // A two-move step: the reply comes with the verdict, then the end.
    let url = "/api/learn/genesis/placement/6";
    let (_, v) = post_json(a, url, &json!({"answer": "K@h1"})).await;
    assert_eq!(
        (v["ok"].as_bool(), v["done"].as_bool(), v["reply"].as_str()),
        (Some(true), Some(false), Some("Q@e2")),
        "{v}"
    );
    let (_, v) = post_json(a, url, &json!({"moves": ["K@h1", "Q@e2"], "answer": "h1g1"})).await;
    assert!(!v["ok"].as_bool().unwrap() && v["explanation"].as_str().unwrap().contains("still mates"), "{v}");
    let (_, v) = post_json(a, url, &json!({"moves": ["K@h1", "Q@e2"], "answer": "R@g8"})).await;
    assert_eq!(v["done"].as_bool(), Some(true), "{v}");
    // Moves the step never allowed, an unknown step: refused.
    assert_eq!(post_json(a, url, &json!({"moves": ["K@a1", "Q@e2"], "answer": "R@g8"})).await.0, 400);
    assert_eq!(post_json(a, "/api/learn/genie/flip/99", &json!({})).await.0, 404);
    assert_eq!(post_json(a, "/api/learn/genie/flip/1", &json!({"nope": 1})).await.0, 400);

    // Progress: logged out, 401; logged in, kept in the account.
    let (st, _, _) = call(a, "GET", "/api/account/learn", None, &Value::Null).await;
    assert_eq!(st, 401);
    let c = account(a, "learner").await;
    let (st, v, _) = call(a, "GET", "/api/account/learn", Some(&c), &Value::Null).await;
    assert_eq!((st, v["done"].as_array().map(|d| d.len())), (200, Some(0)), "{v}");
    let (st, v, _) =
        call(a, "POST", "/api/account/learn", Some(&c), &json!({"done": ["genie/flip/1", "chess/castling/2"]})).await;
    assert_eq!(st, 200, "{v}");
    let (st, v, _) = call(a, "POST", "/api/account/learn", Some(&c), &json!({"done": ["genie/flip/1"]})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["done"], json!(["chess/castling/2", "genie/flip/1"]), "kept once each, in order");
    let (st, v, _) = call(a, "POST", "/api/account/learn", Some(&c), &json!({"done": ["genie/flip/99"]})).await;
    assert_eq!(st, 400, "{v}");
    let (_, v, _) = call(a, "GET", "/api/account/learn", Some(&c), &Value::Null).await;
    assert_eq!(v["done"], json!(["chess/castling/2", "genie/flip/1"]));
    // Another account sees none of it.
    let c2 = account(a, "other").await;
    let (_, v, _) = call(a, "GET", "/api/account/learn", Some(&c2), &Value::Null).await;
    assert_eq!(v["done"], json!([]));
    // Deleting the account deletes its progress with it.
    let (st, v, _) = call(a, "POST", "/api/account/delete", Some(&c), &json!({"password": PW})).await;
    assert!((200..300).contains(&st), "{st} {v}");
}
