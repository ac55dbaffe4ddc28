//! Rated games and ratings over HTTP and in the store: who may play a rated
//! game, a rated seek played to the end changes both players' ratings as
//! Glicko-2 says (lichess's constants), shown on the game, the profile and
//! the leaderboard; and a finished game's ratings are applied exactly once
//! under a 20-way race, in one process on SQLite and across two
//! "instances" (two connection pools) on PostgreSQL.

use crate::common;

use chimera_server::store::{Db, Location};
use chimera_server::{Config, Server};
use common::pg::PgCluster;
use common::*;
use serde_json::{json, Value};
use sqlx::Row;
use std::net::SocketAddr;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_seek_played_to_the_end_changes_both_ratings() {
    let dir = fresh_dir("ratings");
    let s = Server::start_with("127.0.0.1:0", &dir, Config { signup_burst: 100, ..Config::default() }).await.unwrap();
    let a = s.addr;
    let (ann, bob) = (account(a, "Ann").await, account(a, "Bob").await);

    // Who may play a rated game.
    let seek = json!({"variant": "genesis", "mode": "seek", "color": "white", "rated": true});
    let (st, v, _) = call(a, "POST", "/api/games", None, &seek).await;
    assert_eq!(st, 401, "not logged in: {v}");
    for (bad, why) in [
        (json!({"variant": "chess", "mode": "engine", "rated": true}), "between two people"),
        (json!({"variant": "chess", "mode": "hotseat", "rated": true}), "between two people"),
        (
            json!({"variant": "magicring", "mode": "seek", "rated": true, "options": {"ring_powers": "NKQ"}}),
            "casual only",
        ),
        (
            json!({"variant": "chess", "mode": "seek", "rated": true, "fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"}),
            "casual only",
        ),
    ] {
        let (st, v, _) = call(a, "POST", "/api/games", Some(&ann), &bad).await;
        assert_eq!(st, 400, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().contains(why), "{bad}: {v}");
    }
    let (st, g, _) = call(a, "POST", "/api/games", Some(&ann), &seek).await;
    assert_eq!(st, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let ann_token = g["token"].as_str().unwrap().to_string();
    let (_, seeks) = get_json(a, "/api/seeks").await;
    assert_eq!((seeks[0]["rated"].clone(), seeks[0]["username"].clone()), (json!(true), json!("Ann")), "{seeks}");
    assert_eq!(seeks[0]["rating"], "1500?", "a new player's rating is provisional");
    // Not anonymously, not against oneself.
    let (st, _, _) = call(a, "POST", &format!("/api/games/{id}/join"), None, &json!({})).await;
    assert_eq!(st, 401);
    let (_, _, ann2) = call(a, "POST", "/api/account/login", None, &json!({"username": "ann", "password": PW})).await;
    let (st, _, _) = call(a, "POST", &format!("/api/games/{id}/join"), Some(&ann2), &json!({})).await;
    assert_eq!(st, 409, "one account in both seats");
    let (st, j, _) = call(a, "POST", &format!("/api/games/{id}/join"), Some(&bob), &json!({})).await;
    assert_eq!(st, 200, "{j}");
    let (_, state) = get_json(a, &format!("/api/games/{id}")).await;
    assert_eq!(state["rated"], true);
    assert_eq!(state["players"]["w"], json!({"username": "Ann", "rating": "1500?"}), "{}", state["players"]);
    assert_eq!(state["players"]["b"]["username"], "Bob");

    // Ann places her King, then resigns: Black wins.
    let mut w = ws(a, &id, Some(&ann_token)).await;
    send(&mut w, &json!({"t": "move", "uci": "K@e1", "ply": 0})).await;
    send(&mut w, &json!({"t": "resign"})).await;
    let mut done = Value::Null;
    for _ in 0..100 {
        let (_, st) = get_json(a, &format!("/api/games/{id}")).await;
        if !st["ratings"].is_null() {
            done = st;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(done["result"], "0-1", "{done}");
    // Two new players (1500, RD 500, volatility 0.09), one game: 1259 and
    // 1741, as crates/rating's test of lila's one-game case pins them.
    assert_eq!(done["ratings"], json!({"w": {"rating": 1500, "diff": -241}, "b": {"rating": 1500, "diff": 241}}));
    let (st, p) = get_json(a, "/api/@/bob").await;
    assert_eq!(st, 200, "{p}");
    let r = &p["ratings"][0];
    assert_eq!(
        (r["variant"].as_str(), r["rating"].as_str(), r["wins"].as_i64()),
        (Some("genesis"), Some("1741?"), Some(1))
    );
    assert_eq!(r["history"].as_array().unwrap().len(), 1);
    assert_eq!(p["games"][0]["id"], json!(id));
    // Provisional players are not on the leaderboard.
    let (st, b) = get_json(a, "/api/players/genesis").await;
    assert_eq!((st, b["players"].as_array().unwrap().len()), (200, 0), "{b}");
    assert_eq!(get_json(a, "/api/players/nope").await.0, 404);
    assert_eq!(get_json(a, "/api/@/nobody").await.0, 404);
    // The rematch is rated too, with the accounts swapped.
    s.stop().await;
}

/// Waits until game `id` shows its rating changes, and returns its state.
async fn rated_end(a: SocketAddr, id: &str) -> Value {
    for _ in 0..100 {
        let (_, st) = get_json(a, &format!("/api/games/{id}")).await;
        if !st["ratings"].is_null() {
            return st;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("game {id} was not applied to the ratings");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_keep_the_ratings_they_were_taken_at_and_seeks_take_a_rating_range() {
    let dir = fresh_dir("ratings-seats");
    let cfg = Config { signup_burst: 100, create_burst: 1000, ..Config::default() };
    let s = Server::start_with("127.0.0.1:0", &dir, cfg.clone()).await.unwrap();
    let a = s.addr;
    let (ann, bob) = (account(a, "Ann").await, account(a, "Bob").await);

    // A rated game: Ann resigns, so Ann is 1259? and Bob 1741? after it.
    let (_, g, _) =
        call(a, "POST", "/api/games", Some(&ann), &json!({"variant": "genesis", "mode": "seek", "rated": true})).await;
    let first = g["id"].as_str().unwrap().to_string();
    let (st, j, _) = call(a, "POST", &format!("/api/games/{first}/join"), Some(&bob), &json!({})).await;
    assert_eq!(st, 200, "{j}");
    let mut w = ws(a, &first, Some(g["token"].as_str().unwrap())).await;
    send(&mut w, &json!({"t": "resign"})).await;
    rated_end(a, &first).await;
    let (_, me, _) = call(a, "GET", "/api/account", Some(&ann), &Value::Null).await;
    assert_eq!(me["ratings"]["genesis"], json!({"rating": 1259, "provisional": true}), "{me}");

    // A new game shows the ratings its players have now...
    let (_, g2, _) = call(a, "POST", "/api/games", Some(&ann), &json!({"variant": "genesis", "mode": "seek"})).await;
    let second = g2["id"].as_str().unwrap().to_string();
    let (_, seeks) = get_json(a, "/api/seeks").await;
    assert_eq!((seeks[0]["username"].as_str(), seeks[0]["rating"].as_str()), (Some("Ann"), Some("1259?")), "{seeks}");
    call(a, "POST", &format!("/api/games/{second}/join"), Some(&bob), &json!({})).await;
    // ...and the first keeps those it was played at, in the game list too,
    // also when read again from the store after a restart.
    s.stop().await;
    let s = Server::start_with("127.0.0.1:0", &dir, cfg).await.unwrap();
    let a = s.addr;
    let (_, one) = get_json(a, &format!("/api/games/{first}")).await;
    assert_eq!(
        one["players"],
        json!({"w": {"username": "Ann", "rating": "1500?"}, "b": {"username": "Bob", "rating": "1500?"}})
    );
    let (_, two) = get_json(a, &format!("/api/games/{second}")).await;
    assert_eq!(
        two["players"],
        json!({"w": {"username": "Ann", "rating": "1259?"}, "b": {"username": "Bob", "rating": "1741?"}})
    );
    let (_, list) = get_json(a, "/api/games").await;
    let row = list.as_array().unwrap().iter().find(|g| g["id"] == json!(first)).unwrap().clone();
    assert_eq!(
        (row["white"].clone(), row["black"]["rating"].clone(), row["rated"].clone(), row["rating_diffs"].clone()),
        (json!({"username": "Ann", "rating": "1500?"}), json!("1500?"), json!(true), json!([-241, 241])),
        "{row}"
    );

    // A rating range: only an account rated within it may join.
    let (cid, dan) = (account(a, "Cid").await, account(a, "Dan").await);
    let ranged = json!({"variant": "genesis", "mode": "seek", "rating_range": [1400, 1600]});
    let (st, v, _) = call(a, "POST", "/api/games", None, &ranged).await;
    assert_eq!(st, 401, "an anonymous seek has no range: {v}");
    for (bad, why) in [
        (json!({"variant": "genesis", "mode": "friend", "rating_range": [1400, 1600]}), "only for an open seek"),
        (json!({"variant": "genesis", "mode": "seek", "rating_range": [1600, 1400]}), "the lower first"),
        (json!({"variant": "genesis", "mode": "seek", "rating_range": [100, 5000]}), "from 400 to 4000"),
    ] {
        let (st, v, _) = call(a, "POST", "/api/games", Some(&cid), &bad).await;
        assert_eq!(st, 400, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().contains(why), "{bad}: {v}");
    }
    let (st, v, _) = call(
        a,
        "POST",
        "/api/games",
        Some(&cid),
        &json!({"variant": "genesis", "mode": "seek", "rating_range": "1400-1600"}),
    )
    .await;
    assert_eq!(st, 400, "{v}");
    let (st, g3, _) = call(a, "POST", "/api/games", Some(&cid), &ranged).await;
    assert_eq!(st, 200, "{g3}");
    let third = g3["id"].as_str().unwrap().to_string();
    let (_, seeks) = get_json(a, "/api/seeks").await;
    let k = seeks.as_array().unwrap().iter().find(|k| k["id"] == json!(third)).unwrap().clone();
    assert_eq!(k["rating_range"], json!([1400, 1600]), "{k}");
    let join = format!("/api/games/{third}/join");
    let (st, v, _) = call(a, "POST", &join, None, &json!({})).await;
    assert_eq!(st, 401, "{v}");
    for (who, rating) in [(&ann, "1259?"), (&bob, "1741?")] {
        let (st, v, _) = call(a, "POST", &join, Some(who), &json!({})).await;
        assert_eq!(st, 403, "{v}");
        assert_eq!(
            v["error"].as_str().unwrap(),
            format!("this seek is for players rated 1400 to 1600 in Genesis Chess: yours is {rating}")
        );
    }
    let (st, v, _) = call(a, "POST", &join, Some(&dan), &json!({})).await;
    assert_eq!(st, 200, "Dan's 1500? is within the range: {v}");
    let (_, three) = get_json(a, &format!("/api/games/{third}")).await;
    assert_eq!(three["players"]["b"], json!({"username": "Dan", "rating": "1500?"}));
    s.stop().await;
}

/// A finished rated game between two accounts, stored directly.
async fn finished_rated_game(db: &Db, id: &str) {
    for (acc, name) in [("wacc", "White"), ("bacc", "Black")] {
        sqlx::query(
            "INSERT INTO accounts (id, username, username_key, password_hash, created_at) VALUES ($1, $2, $3, 'x', 1) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(acc)
        .bind(name)
        .bind(name.to_lowercase())
        .execute(db)
        .await
        .unwrap();
    }
    sqlx::query(
        "INSERT INTO games (id, variant, rule_options, start_fen, mode, white_token, black_token, status, result, \
         created_at, updated_at, rated, white_account, black_account) VALUES ($1, 'chess', '', \
         'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'seek', 'w', 'b', 'finished', '1-0', 1, 2, 1, \
         'wacc', 'bacc')",
    )
    .bind(id)
    .execute(db)
    .await
    .unwrap();
}

/// 20 settlements of one game at once, spread over the given pools: one
/// applies it, and the store shows one game in each rating.
async fn race(pools: &[Db]) {
    finished_rated_game(&pools[0], "race1").await;
    let mut tasks = Vec::new();
    for i in 0..20 {
        let db = pools[i % pools.len()].clone();
        tasks.push(tokio::spawn(async move { chimera_server::ratings::settle(&db, "race1").await }));
    }
    let mut applied = 0;
    for t in tasks {
        if t.await.unwrap().unwrap() {
            applied += 1;
        }
    }
    assert_eq!(applied, 1, "exactly one of 20 settlements applies the game");
    let db = &pools[0];
    for acc in ["wacc", "bacc"] {
        let r = sqlx::query("SELECT games FROM ratings WHERE account_id = $1").bind(acc).fetch_one(db).await.unwrap();
        assert_eq!(r.get::<i64, _>(0), 1, "{acc}: one game counted");
        let h = sqlx::query("SELECT COUNT(*) FROM rating_history WHERE account_id = $1")
            .bind(acc)
            .fetch_one(db)
            .await
            .unwrap();
        assert_eq!(h.get::<i64, _>(0), 1, "{acc}: one point of history");
    }
    let g = sqlx::query("SELECT white_rating_diff, black_rating_diff FROM games WHERE id = 'race1'")
        .fetch_one(db)
        .await
        .unwrap();
    assert_eq!((g.get::<i64, _>(0), g.get::<i64, _>(1)), (241, -241));
    // Once more, later: nothing.
    assert!(!chimera_server::ratings::settle(db, "race1").await.unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ratings_change_once_under_a_20_way_race() {
    let db = chimera_store::open_at(&Location::Dir(fresh_dir("ratings-race")), 4).await.unwrap();
    race(&[db]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ratings_change_once_across_two_instances_on_postgres() {
    let Some(pg) = PgCluster::start_or_skip("ratings: race on two instances") else { return };
    let at = Location::Url(pg.fresh_database("ratings"));
    let a = chimera_store::open_at(&at, 4).await.unwrap();
    let b = chimera_store::open_at(&at, 4).await.unwrap();
    race(&[a, b]).await;
}

/// Migration 1006 on a store of 1005 with accounts and rated games: every
/// seat an account holds gets the rating it has (1500? without one), and an
/// applied game's pre-game ratings are provisional when the deviation after
/// it was above 110.
async fn seat_ratings_migrate(at: &Location) {
    let db = chimera_store::connect_at(at, 1).await.unwrap();
    let upto = chimera_store::MIGRATIONS.iter().position(|m| m.0 == 1006).unwrap();
    chimera_store::apply(&chimera_store::MIGRATIONS[..upto], &db).await.unwrap();
    for acc in ["a1", "a2", "a3"] {
        sqlx::query(
            "INSERT INTO accounts (id, username, username_key, password_hash, created_at) VALUES ($1, $1, $1, 'x', 1)",
        )
        .bind(acc)
        .execute(&db)
        .await
        .unwrap();
    }
    for (acc, rating, rd) in [("a1", 1712.6, 80.0), ("a3", 1388.2, 150.0)] {
        sqlx::query(
            "INSERT INTO ratings (account_id, variant, rating, deviation, volatility, games, wins, draws, losses, rated_at) \
             VALUES ($1, 'chess', $2, $3, 0.06, 9, 3, 3, 3, 1)",
        )
        .bind(acc)
        .bind(rating)
        .bind(rd)
        .execute(&db)
        .await
        .unwrap();
    }
    let game = |id: &str, status: &str, w: &str, b: &str| {
        format!(
            "INSERT INTO games (id, variant, rule_options, start_fen, mode, white_token, black_token, status, result, \
             created_at, updated_at, rated, white_account, black_account) VALUES ('{id}', 'chess', '', \
             'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'seek', 'w', 'b', '{status}', '*', 1, 2, 1, \
             {w}, {b})"
        )
    };
    for q in [
        game("live", "active", "'a1'", "'a2'"),
        game("anon", "active", "NULL", "'a3'"),
        game("done", "finished", "'a3'", "'a1'"),
        "UPDATE games SET white_rating = 1400, black_rating = 1700, white_rating_diff = 5, black_rating_diff = -5, \
         rating_done = 1 WHERE id = 'done'"
            .into(),
        "INSERT INTO rating_history (account_id, variant, game_id, rating, deviation, at) VALUES \
         ('a3', 'chess', 'done', 1405, 130, 2), ('a1', 'chess', 'done', 1695, 70, 2)"
            .into(),
    ] {
        sqlx::query(&q).execute(&db).await.unwrap();
    }
    chimera_store::apply(chimera_store::MIGRATIONS, &db).await.unwrap();
    type Seats = (String, Option<i64>, Option<i64>, Option<i64>, Option<i64>);
    let seats: Vec<Seats> = sqlx::query_as(
        "SELECT id, white_rating, white_provisional, black_rating, black_provisional FROM games ORDER BY id",
    )
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(
        seats,
        vec![
            ("anon".into(), None, None, Some(1388), Some(1)),
            ("done".into(), Some(1400), Some(1), Some(1700), Some(0)),
            ("live".into(), Some(1713), Some(0), Some(1500), Some(1)),
        ]
    );
    db.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_ratings_migrate_on_sqlite() {
    let dir = fresh_dir("ratings-migrate");
    std::fs::create_dir_all(&dir).unwrap();
    seat_ratings_migrate(&Location::Dir(dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_ratings_migrate_on_postgres() {
    let Some(pg) = PgCluster::start_or_skip("ratings: migration 1006") else { return };
    seat_ratings_migrate(&Location::Url(pg.fresh_database("ratings_migrate"))).await;
}

/// The profile's archive: each search field, paging, the PGN download of
/// what it finds, and the fault suite's hostile values (SQL
/// metacharacters are data; a bad field is a 400 that names it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_archive_searches_pages_and_downloads() {
    let dir = fresh_dir("ratings-archive");
    let cfg = Config { signup_burst: 100, create_burst: 1000, ..Config::default() };
    let s = Server::start_with("127.0.0.1:0", &dir, cfg).await.unwrap();
    let a = s.addr;
    let (ann, bob) = (account(a, "Ann").await, account(a, "Bob").await);
    // Three casual seeks of Ann joined by Bob, one rated that Ann resigns,
    // and a hot-seat game of Ann's alone.
    let mut ids = Vec::new();
    for (variant, rated) in [("chess", false), ("genie", false), ("clown", false), ("genesis", true)] {
        let (st, g, _) =
            call(a, "POST", "/api/games", Some(&ann), &json!({"variant": variant, "mode": "seek", "rated": rated}))
                .await;
        assert_eq!(st, 200, "{g}");
        let id = g["id"].as_str().unwrap().to_string();
        let (st, j, _) = call(a, "POST", &format!("/api/games/{id}/join"), Some(&bob), &json!({})).await;
        assert_eq!(st, 200, "{j}");
        ids.push((id, g["token"].as_str().unwrap().to_string()));
    }
    let (rated_id, ann_token) = ids[3].clone();
    let mut w = ws(a, &rated_id, Some(&ann_token)).await;
    send(&mut w, &json!({"t": "resign"})).await;
    for _ in 0..50 {
        if get_json(a, &format!("/api/games/{rated_id}")).await.1["result"] == "0-1" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    call(a, "POST", "/api/games", Some(&ann), &json!({"variant": "chess", "mode": "hotseat"})).await;
    let count = |q: &str| {
        let q = q.to_string();
        async move {
            let (st, v) = get_json(a, &format!("/api/@/ann?{q}")).await;
            assert_eq!(st, 200, "{q}: {v}");
            v["games"].as_array().unwrap().len()
        }
    };
    assert_eq!(count("").await, 5);
    assert_eq!(count("variant=genie").await, 1);
    assert_eq!(count("variant=chess").await, 2);
    assert_eq!(count("opponent=BOB").await, 4, "any case");
    assert_eq!(count("rated=true").await, 1);
    assert_eq!(count("rated=false").await, 4);
    assert_eq!(count("result=loss").await, 1);
    assert_eq!(count("result=win").await, 0);
    assert_eq!(count("opponent=bob&rated=true&result=loss&variant=genesis").await, 1);
    assert_eq!(count("since=0&until=1").await, 0);
    assert_eq!(count("page=1").await, 0);
    let (_, v) = get_json(a, "/api/@/bob?result=win").await;
    assert_eq!(v["games"][0]["id"], json!(rated_id), "{v}");
    // Hostile values: data, or a 400 that names the field.
    for q in ["opponent=%27%20OR%20%271%27%3D%271", "opponent=bob%27--", "opponent=%25", "opponent=_ob"] {
        assert_eq!(count(q).await, 0, "{q}");
    }
    for (q, want) in [
        ("variant=x%27%20OR%201%3D1--", "unknown variant"),
        ("rated=1", "rated must be true or false"),
        ("result=draw%27", "result must be"),
        ("page=-1", "page must be"),
        ("since=now", "since must be a whole number"),
        ("sort=id", "unknown search field 'sort'"),
    ] {
        let (st, v) = get_json(a, &format!("/api/@/ann?{q}")).await;
        assert_eq!(st, 400, "{q}: {v}");
        assert!(v["error"].as_str().unwrap().contains(want), "{q}: {v}");
    }
    assert_eq!(count("").await, 5, "the tables are whole");
    // The PGN of what the search finds.
    let (st, pgn) = http(a, "GET", "/api/@/ann/games.pgn?opponent=bob", None).await;
    assert_eq!(st, 200);
    assert_eq!(pgn.matches("[Event ").count(), 4, "{pgn}");
    assert_eq!(http(a, "GET", "/api/@/nobody/games.pgn", None).await.0, 404);
    s.stop().await;
}
