//! Several `chimera serve` instances on one store. On a throwaway
//! PostgreSQL cluster (crates/cli/tests/common/pg.rs), two in-process instances: a
//! game whose players sit on different instances, and two moves for one
//! ply sent to both instances at once (the database lets one through).
//! On SQLite: a store of the previous schema upgraded with its games kept.
//! (The instance killed mid-game is crates/cli/tests/scale_out.rs: it needs
//! real processes.)

use crate::common;
use chimera_server::store::{self, Location};
use chimera_server::{Config, Server};
use common::pg::PgCluster;
use common::*;
use serde_json::{json, Value};
use std::time::Duration;

fn config() -> Config {
    Config { create_burst: 1000, heartbeat_every: Duration::from_millis(200), ..Config::default() }
}

async fn two_instances(url: &str) -> (Server, Server) {
    let at = Location::Url(url.to_string());
    let a = Server::start_at("127.0.0.1:0", &at, config()).await.expect("instance A starts");
    let b = Server::start_at("127.0.0.1:0", &at, config()).await.expect("instance B starts");
    (a, b)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_instances_see_each_others_moves() {
    let Some(pg) = PgCluster::start_or_skip("instances: players on two instances") else { return };
    let url = pg.fresh_database("cross");
    let (a, b) = two_instances(&url).await;
    let (st, g) =
        post_json(a.addr, "/api/games", &json!({"variant": "chess", "mode": "friend", "color": "white"})).await;
    assert_eq!(st, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let (st, j) = post_json(b.addr, &format!("/api/games/{id}/join"), &json!({"invite": g["invite"]})).await;
    assert_eq!(st, 200, "joined on the other instance: {j}");
    let mut white = ws(a.addr, &id, g["token"].as_str()).await;
    let mut black = ws(b.addr, &id, j["token"].as_str()).await;
    assert_eq!(recv(&mut white).await["you"], json!(["w"]));
    assert_eq!(recv(&mut black).await["you"], json!(["b"]), "B knows the seat taken on B");
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5"];
    for (ply, uci) in moves.iter().enumerate() {
        let (mover, other) = if ply % 2 == 0 { (&mut white, &mut black) } else { (&mut black, &mut white) };
        send(mover, &json!({"t": "move", "uci": uci, "ply": ply})).await;
        // The opponent, on the other instance, gets the move.
        let s = wait_state(other, |s| s["ply"] == json!(ply + 1)).await;
        assert_eq!(s["history"].as_array().unwrap().last().unwrap()["uci"], json!(uci));
        wait_state(mover, |s| s["ply"] == json!(ply + 1)).await;
    }
    // Both instances and the store agree.
    for addr in [a.addr, b.addr] {
        let (_, s) = get_json(addr, &format!("/api/games/{id}")).await;
        assert_eq!(s["ply"], json!(moves.len()), "{s}");
    }
    // Two instances, each healthy on PostgreSQL.
    let (sa, ha) = get_json(a.addr, "/api/health").await;
    let (sb, hb) = get_json(b.addr, "/api/health").await;
    assert_eq!((sa, sb), (200, 200));
    assert_eq!((ha["store"].as_str(), ha["store_ok"].as_bool()), (Some("postgres"), Some(true)), "{ha}");
    assert_ne!(ha["instance"], hb["instance"]);
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_race_for_one_ply_lets_exactly_one_move_through() {
    let Some(pg) = PgCluster::start_or_skip("instances: a race for one ply") else { return };
    let url = pg.fresh_database("race");
    let (a, b) = two_instances(&url).await;
    // Hot-seat: one token holds both seats, so both sockets may move.
    let (st, g) = post_json(a.addr, "/api/games", &json!({"variant": "chess", "mode": "hotseat"})).await;
    assert_eq!(st, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut on_a = ws(a.addr, &id, g["token"].as_str()).await;
    let mut on_b = ws(b.addr, &id, g["token"].as_str()).await;
    recv(&mut on_a).await;
    let mut state = recv(&mut on_a).await;
    recv(&mut on_b).await;
    recv(&mut on_b).await;
    let rounds = 12;
    for ply in 0..rounds {
        // Two different legal moves for this ply, one to each instance.
        let legal: Vec<String> = state["legal"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|v| v.as_array().unwrap().iter().map(|m| m[0].as_str().unwrap().to_string()))
            .collect();
        assert!(legal.len() >= 2, "{state}");
        let (m1, m2) = (&legal[0], &legal[legal.len() - 1]);
        let (j1, j2) = (json!({"t": "move", "uci": m1, "ply": ply}), json!({"t": "move", "uci": m2, "ply": ply}));
        tokio::join!(send(&mut on_a, &j1), send(&mut on_b, &j2));
        // Each socket ends up at ply + 1; exactly one of the two moves is it.
        let sa = wait_state(&mut on_a, |s| s["ply"] == json!(ply + 1)).await;
        let sb = wait_state(&mut on_b, |s| s["ply"] == json!(ply + 1)).await;
        let played = |s: &Value| s["history"].as_array().unwrap().last().unwrap()["uci"].as_str().unwrap().to_string();
        assert_eq!(played(&sa), played(&sb), "both instances show the same move at ply {ply}");
        assert!(played(&sa) == *m1 || played(&sa) == *m2);
        state = sa;
        if state["status"] != json!("active") {
            break;
        }
    }
    // The store holds each ply once, and the loser of each race was told.
    let (_, s) = get_json(b.addr, &format!("/api/games/{id}")).await;
    let n = s["ply"].as_u64().unwrap();
    assert!(n >= 1 && n <= rounds as u64, "{s}");
    let (_, pgn) = http(a.addr, "GET", &format!("/api/games/{id}/pgn"), None).await;
    let db = store::open_at(&Location::Url(url.clone()), 1).await.unwrap();
    let rows: Vec<(i64,)> =
        sqlx::query_as("SELECT ply FROM moves WHERE game_id = $1 ORDER BY ply").bind(&id).fetch_all(&db).await.unwrap();
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), (0..n as i64).collect::<Vec<_>>(), "{pgn}");
    db.close().await;
    a.stop().await;
    b.stop().await;
}

/// The schema of the release before instances (migrations 1 to 3 and the
/// lab's first), as a store of that release holds it.
const OLD: &[(i64, &str, &str)] = &[
    (1, "games", include_str!("../../store/migrations/0001_games.sql")),
    (2, "invites", include_str!("../../store/migrations/0002_invites.sql")),
    (3, "seeks names rematch", include_str!("../../store/migrations/0003_seeks_names_rematch.sql")),
    (1001, "lab", include_str!("../../store/migrations/1001_lab.sql")),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_sqlite_store_is_upgraded_with_its_games() {
    let dir = fresh_dir("upgrade");
    std::fs::create_dir_all(&dir).unwrap();
    {
        let old = chimera_store::connect(&dir.join("chimera.sqlite3"), 1).await.unwrap();
        chimera_store::apply(OLD, &old).await.unwrap();
        sqlx::query(
            "INSERT INTO games (id, variant, ring_powers, start_fen, mode, white_token, black_token, white_ms, \
             black_ms, turn_started, status, result, created_at, updated_at) VALUES ('old1', 'chess', 'QNRB', \
             'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'hotseat', 'tok', 'tok', NULL, NULL, NULL, \
             'active', '*', 1, 2)",
        )
        .execute(&old)
        .await
        .unwrap();
        // A game with a clock running out while no server ran: White (to
        // move) had 1 s left an hour ago.
        sqlx::query(
            "INSERT INTO games (id, variant, ring_powers, start_fen, mode, white_token, black_token, clock_initial, \
             clock_increment, white_ms, black_ms, turn_started, status, result, created_at, updated_at) VALUES \
             ('old2', 'chess', 'QNRB', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'friend', 'w', 'b', \
             60000, 0, 1000, 60000, $1, 'active', '*', 1, 2)",
        )
        .bind(chimera_server::live::now_ms() - 3_600_000)
        .execute(&old)
        .await
        .unwrap();
        // Both games: 1. e4 e5.
        for (game, ply, uci, san) in
            [("old1", 0, "e2e4", "e4"), ("old1", 1, "e7e5", "e5"), ("old2", 0, "e2e4", "e4"), ("old2", 1, "e7e5", "e5")]
        {
            sqlx::query("INSERT INTO moves (game_id, ply, uci, san) VALUES ($1, $2, $3, $4)")
                .bind(game)
                .bind(ply as i64)
                .bind(uci)
                .bind(san)
                .execute(&old)
                .await
                .unwrap();
        }
        old.close().await;
    }
    let server = Server::start_with("127.0.0.1:0", &dir, config()).await.expect("server starts");
    // Nobody opens old2: the new instance takes it over and its flag falls.
    let t0 = std::time::Instant::now();
    loop {
        let (_, s) = get_json(server.addr, "/api/games/old2").await;
        if s["status"] == json!("finished") {
            assert_eq!((s["result"].as_str(), s["reason"].as_str()), (Some("0-1"), Some("time forfeit")), "{s}");
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(30), "the old clock game never flagged: {s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (st, s) = get_json(server.addr, "/api/games/old1").await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["ply"], json!(2), "the old game's moves are kept: {s}");
    // And it plays on.
    let mut w = ws(server.addr, "old1", Some("tok")).await;
    recv(&mut w).await;
    recv(&mut w).await;
    send(&mut w, &json!({"t": "move", "uci": "g1f3", "ply": 2})).await;
    wait_state(&mut w, |s| s["ply"] == json!(3)).await;
    server.stop().await;
    let db = store::open(&dir).await.unwrap();
    let v: Vec<(i64, String)> =
        sqlx::query_as("SELECT version, status FROM games WHERE id = 'old1'").fetch_all(&db).await.unwrap();
    assert_eq!(v, vec![(1, "active".to_string())], "one change stored over version 0");
    db.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
