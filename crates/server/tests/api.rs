//! Integration over HTTP and WebSocket: create, join, move, refusals,
//! resign, game end stored, and a restart on the same data directory with
//! every game and move intact.

mod common;
use common::*;
use serde_json::{json, Value};

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
    let (st, first) = http(a, "POST", &format!("/api/games/{one}/review"), None).await;
    assert_eq!(st, 200, "{first}");
    let (st, second) = http(a, "POST", &format!("/api/games/{two}/review"), None).await;
    assert_eq!(st, 200, "{second}");
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

    // A game ended by checkmate; two requests at once both answer the one
    // review stored.
    let (mate, _) = hotseat_game(a, &["f2f3", "e7e5", "g2g4", "d8h4"], false).await;
    let path = format!("/api/games/{mate}/review");
    let (x, y) = tokio::join!(http(a, "POST", &path, None), http(a, "POST", &path, None));
    assert_eq!((x.0, y.0), (200, 200), "{x:?} {y:?}");
    assert_eq!(x.1, y.1);
    let r: Value = serde_json::from_str(&x.1).unwrap();
    assert_eq!(r["plies"][3]["san"], "Qh4#");
    assert_eq!(r["plies"][3]["eval"], json!({"won": "black"}));
    assert_eq!(http(a, "GET", &path, None).await, (200, x.1));
}
