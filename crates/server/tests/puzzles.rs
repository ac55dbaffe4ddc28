//! Puzzles in the web platform (`crates/server/src/puzzles.rs`,
//! `docs/puzzles-web.md`): the sets and puzzles as JSON, rounds judged by
//! the rules, the refutation of a wrong move, and the ratings of players
//! and puzzles, on SQLite and, where a PostgreSQL is at hand, on it too.
//! The puzzles are the shipped `genie` set's.

use crate::common;

use chimera_puzzles::{shipped_set, Puzzle, Set};
use chimera_rules::{san, Position};
use common::*;
use serde_json::{json, Value};
use std::net::SocketAddr;

fn genie() -> &'static Set {
    let s = shipped_set("genie").expect("the genie set");
    assert!(s.puzzles.len() >= 8, "the genie set has {} puzzles: these tests need 8", s.puzzles.len());
    s
}

/// A legal move of `p` that is not its solution (UCI).
fn wrong_move(p: &Puzzle) -> String {
    let pos = p.position();
    san::all_san(&pos)
        .into_iter()
        .map(|(m, _)| m.to_string())
        .find(|m| m != p.solution())
        .expect("a puzzle with a second legal move")
}

fn round_url(p: &Puzzle) -> String {
    format!("/api/puzzles/{}/{}/round", p.set, p.id)
}

async fn count(db: &sqlx::AnyPool, table: &str) -> i64 {
    sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(db).await.unwrap()
}

/// Rows of the three tables.
async fn rows(db: &sqlx::AnyPool) -> (i64, i64, i64) {
    (count(db, "puzzle_rounds").await, count(db, "puzzle_players").await, count(db, "puzzle_ratings").await)
}

async fn account_id(db: &sqlx::AnyPool, name: &str) -> String {
    sqlx::query_scalar("SELECT id FROM accounts WHERE username = $1").bind(name).fetch_one(db).await.unwrap()
}

fn today() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() / 86_400
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_and_rounds() {
    let dir = fresh_dir("puzzles");
    let server = start(&dir).await;
    puzzle_checks(&server).await;
    server.stop().await;
}

/// The same on PostgreSQL (skipped where none can be started).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_and_rounds_postgres() {
    let Some(pg) = common::pg::PgCluster::start_or_skip("puzzles on PostgreSQL") else { return };
    let at = chimera_server::store::Location::Url(pg.fresh_database("puzzles"));
    let server = chimera_server::Server::start_at("127.0.0.1:0", &at, chimera_server::Config::default())
        .await
        .expect("server starts");
    puzzle_checks(&server).await;
    server.stop().await;
}

async fn puzzle_checks(server: &chimera_server::Server) {
    let a = server.addr;
    let db = &server.app.db;
    let set = genie();
    pages_and_reads(a, set).await;
    visitors_store_nothing(a, db, set).await;
    rated_rounds(a, db, set).await;
    bad_requests(a, db, set).await;
}

async fn pages_and_reads(a: SocketAddr, set: &Set) {
    for path in ["/puzzles", "/puzzles/genie", "/puzzles/genie/daily", "/puzzles/magicring-rnbq"] {
        let (st, body) = http(a, "GET", path, None).await;
        assert_eq!(st, 200, "{path}");
        assert!(body.contains("og:description"), "{path}");
    }
    assert_eq!(http(a, "GET", "/puzzles/shogi", None).await.0, 404);

    let (st, idx) = get_json(a, "/api/puzzles").await;
    assert_eq!(st, 200, "{idx}");
    let sets = idx["sets"].as_array().unwrap();
    assert_eq!(sets.len(), chimera_puzzles::SETS.len());
    let g = sets.iter().find(|s| s["name"] == "genie").unwrap();
    assert_eq!(g["count"], set.puzzles.len());
    assert_eq!(g["variant"], "genie");
    assert_eq!(g["daily"], set.daily(today()).unwrap().id.as_str());
    let themed: u64 = g["themes"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(themed as usize, set.puzzles.iter().map(|p| p.themes.len()).sum::<usize>());
    assert!(g.get("you").is_none(), "a visitor has no rating: {g}");
    let rnbq = sets.iter().find(|s| s["name"] == "magicring-rnbq").unwrap();
    assert_eq!(rnbq["options"], "ring_powers=RNBQ");

    // One puzzle: its position, not its solution.
    let p = &set.puzzles[0];
    let (st, v) = get_json(a, &format!("/api/puzzles/genie/{}", p.id)).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!((v["id"].as_str(), v["fen"].as_str()), (Some(p.id.as_str()), Some(p.fen.as_str())));
    assert_eq!(v["rating"], p.rating, "the starting rating until a rated round");
    assert_eq!(v["plays"], 0);
    assert_eq!(v["side"], if p.fen.split(' ').nth(1) == Some("w") { "w" } else { "b" });
    assert_eq!(v["themes"], json!(p.themes));
    assert!(v["position"]["legal"].as_object().is_some_and(|l| !l.is_empty()));
    for k in ["moves", "solution", "eval", "source"] {
        assert!(v.get(k).is_none(), "{k} is not given away: {v}");
    }
    // next and daily.
    let (st, v) = get_json(a, "/api/puzzles/genie/next").await;
    assert_eq!(st, 200, "{v}");
    assert!(set.get(v["id"].as_str().unwrap()).is_some());
    let (st, v) = get_json(a, "/api/puzzles/genie/daily").await;
    assert_eq!((st, v["id"].as_str()), (200, Some(set.daily(today()).unwrap().id.as_str())));
    // Unknown sets and ids.
    for path in [
        "/api/puzzles/shogi/next",
        "/api/puzzles/shogi/daily",
        "/api/puzzles/genie/zzzzzz",
        "/api/puzzles/chess/zzzzzz",
        "/api/puzzles/genie/..%2F..%2Fetc",
        "/api/puzzles/genie/%00",
    ] {
        let (st, v) = get_json(a, path).await;
        assert_eq!(st, 404, "{path}: {v}");
        assert!(v["error"].is_string(), "{path}: a JSON error: {v}");
    }
}

async fn visitors_store_nothing(a: SocketAddr, db: &sqlx::AnyPool, set: &Set) {
    let p = &set.puzzles[0];
    let (st, v) = post_json(a, &round_url(p), &json!({"move": p.solution()})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!((v["win"].as_bool(), v["rated"].as_bool()), (Some(true), Some(false)), "{v}");
    assert_eq!(v["solution"], json!(p.moves), "the whole line after the round");
    assert_eq!(v["solution_san"].as_array().unwrap().len(), p.moves.len());
    assert!(v.get("you").is_none());
    let (st, v) = post_json(a, &round_url(p), &json!({"move": wrong_move(p)})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["win"], false);
    let (st, v) = post_json(a, &round_url(p), &json!({"give_up": true})).await;
    assert_eq!((st, v["win"].as_bool()), (200, Some(false)), "{v}");
    assert_eq!(rows(db).await, (0, 0, 0), "a visitor's rounds store nothing");
}

async fn rated_rounds(a: SocketAddr, db: &sqlx::AnyPool, set: &Set) {
    use chimera_rating::{update_pair, Outcome, Rating, Settings};
    let s = Settings::LICHESS;
    let c = account(a, "solver").await;
    let me = account_id(db, "solver").await;

    // A win: the player's rating rises, the puzzle's falls, each against
    // the other's rating before the round (the crate's update_pair).
    let p = &set.puzzles[1];
    let (st, v, _) = call(a, "POST", &round_url(p), Some(&c), &json!({"move": p.solution()})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!((v["win"].as_bool(), v["rated"].as_bool()), (Some(true), Some(true)), "{v}");
    let puzzle_before = Rating::new(p.rating as f64, 500.0, 0.09);
    let (me_after, p_after) = update_pair(&s.new_player, &puzzle_before, Outcome::WhiteWins, &s).unwrap();
    assert!(me_after.rating > 1500.0 && p_after.rating < p.rating as f64);
    assert_eq!(v["you"]["before"]["rating"], 1500);
    assert_eq!(v["you"]["after"]["rating"], me_after.rounded(), "{v}");
    assert_eq!(v["you"]["diff"], me_after.rounded() - 1500);
    assert_eq!(v["puzzle"]["rating"], p_after.rounded(), "{v}");
    assert_eq!(v["puzzle"]["plays"], 1);
    let (r, d, w, plays): (f64, f64, i64, i64) = sqlx::query_as(
        "SELECT rating, deviation, wins, plays FROM puzzle_players WHERE account_id = $1 AND puzzle_set = 'genie'",
    )
    .bind(&me)
    .fetch_one(db)
    .await
    .unwrap();
    assert_eq!((r, d, w, plays), (me_after.rating, me_after.deviation, 1, 1));
    let (pr, pd, pp, pw): (f64, f64, i64, i64) = sqlx::query_as(
        "SELECT rating, deviation, plays, wins FROM puzzle_ratings WHERE puzzle_set = 'genie' AND puzzle_id = $1",
    )
    .bind(&p.id)
    .fetch_one(db)
    .await
    .unwrap();
    assert_eq!((pr, pd, pp, pw), (p_after.rating, p_after.deviation, 1, 1));
    // The puzzle's page now shows its new rating; the index the player's.
    let (_, v, _) = call(a, "GET", &format!("/api/puzzles/genie/{}", p.id), Some(&c), &Value::Null).await;
    assert_eq!(
        (v["rating"].clone(), v["plays"].clone(), v["played"].clone()),
        (json!(p_after.rounded()), json!(1), json!(true))
    );
    let (_, idx, _) = call(a, "GET", "/api/puzzles", Some(&c), &Value::Null).await;
    let g = idx["sets"].as_array().unwrap().iter().find(|s| s["name"] == "genie").unwrap().clone();
    assert_eq!(g["you"]["rating"], me_after.rounded(), "{g}");

    // A replay is not rated: nothing changes.
    let before = rows(db).await;
    let (st, v, _) = call(a, "POST", &round_url(p), Some(&c), &json!({"move": wrong_move(p)})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!((v["win"].as_bool(), v["rated"].as_bool()), (Some(false), Some(false)), "{v}");
    assert_eq!(v["you"]["diff"], 0);
    assert_eq!(rows(db).await, before);
    let r2: f64 = sqlx::query_scalar("SELECT rating FROM puzzle_players WHERE account_id = $1")
        .bind(&me)
        .fetch_one(db)
        .await
        .unwrap();
    assert_eq!(r2, me_after.rating);

    // A loss: the refutation is the engine's legal answer line; the
    // player's rating falls and the puzzle's rises.
    let q = &set.puzzles[2];
    let wrong = wrong_move(q);
    let (st, v, _) = call(a, "POST", &round_url(q), Some(&c), &json!({"move": wrong})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(
        (v["win"].as_bool(), v["rated"].as_bool(), v["move"].as_str()),
        (Some(false), Some(true), Some(wrong.as_str()))
    );
    let mut pos = q.position();
    pos.play_unchecked(pos.parse_uci(&wrong).unwrap());
    let refutation = v["refutation"].as_array().unwrap();
    let sans = v["refutation_san"].as_array().unwrap();
    assert_eq!(refutation.len(), sans.len());
    assert_eq!(
        v["refutation_boards"].as_array().unwrap().len(),
        refutation.len() + 1,
        "the board after the wrong move first"
    );
    if pos.outcome().is_none() {
        assert!(!refutation.is_empty(), "the engine answers: {v}");
    }
    for (u, s) in refutation.iter().zip(sans) {
        let m = pos.parse_uci(u.as_str().unwrap()).expect("the refutation is legal");
        assert_eq!(san::to_san(&pos, m), s.as_str().unwrap());
        pos.play_unchecked(m);
    }
    assert_eq!(v["solution"][0], q.solution(), "the winning move shown");
    let before_loss = me_after;
    let q_before = Rating::new(q.rating as f64, 500.0, 0.09);
    assert!(v["you"]["after"]["rating"].as_i64().unwrap() < before_loss.rounded(), "{v}");
    assert!(v["you"]["diff"].as_i64().unwrap() < 0, "{v}");
    assert!(v["puzzle"]["rating"].as_i64().unwrap() > q_before.rounded(), "{v}");

    // Two rounds of one puzzle at once (two tabs): applied once.
    let r = &set.puzzles[3];
    let plays_before: i64 = sqlx::query_scalar("SELECT plays FROM puzzle_players WHERE account_id = $1")
        .bind(&me)
        .fetch_one(db)
        .await
        .unwrap();
    let body = json!({"move": r.solution()});
    let ru = round_url(r);
    let (x, y) = tokio::join!(call(a, "POST", &ru, Some(&c), &body), call(a, "POST", &ru, Some(&c), &body));
    assert_eq!((x.0, y.0), (200, 200), "{} {}", x.1, y.1);
    let rated = [&x.1, &y.1].iter().filter(|v| v["rated"] == true).count();
    assert_eq!(rated, 1, "one of two concurrent rounds is rated: {} {}", x.1, y.1);
    let plays_after: i64 = sqlx::query_scalar("SELECT plays FROM puzzle_players WHERE account_id = $1")
        .bind(&me)
        .fetch_one(db)
        .await
        .unwrap();
    assert_eq!(plays_after, plays_before + 1);
    let rp: i64 = sqlx::query_scalar("SELECT plays FROM puzzle_ratings WHERE puzzle_id = $1")
        .bind(&r.id)
        .fetch_one(db)
        .await
        .unwrap();
    assert_eq!(rp, 1);

    // Next never gives a puzzle the player has played while others remain.
    let played = [&set.puzzles[1].id, &set.puzzles[2].id, &set.puzzles[3].id];
    for _ in 0..10 {
        let (_, v, _) = call(a, "GET", "/api/puzzles/genie/next", Some(&c), &Value::Null).await;
        assert!(!played.iter().any(|id| v["id"] == id.as_str()), "{}", v["id"]);
    }

    // The crate's worked example (crates/rating, lib.rs): a player at
    // 1623.4 / 60 / 0.06 idle for 30 days beats a 1500 / 500 / 0.09
    // opponent: 1629 (+6), and the opponent falls to 1330.
    let c2 = account(a, "example").await;
    let me2 = account_id(db, "example").await;
    let e = &set.puzzles[4];
    let day = 86_400_000i64;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    sqlx::query(
        "INSERT INTO puzzle_players (account_id, puzzle_set, rating, deviation, volatility, plays, wins, rated_at) \
         VALUES ($1, 'genie', 1623.4, 60.0, 0.06, 10, 5, $2)",
    )
    .bind(&me2)
    .bind(now - 30 * day)
    .execute(db)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO puzzle_ratings (puzzle_set, puzzle_id, rating, deviation, volatility, plays, wins) \
         VALUES ('genie', $1, 1500.0, 500.0, 0.09, 0, 0)",
    )
    .bind(&e.id)
    .execute(db)
    .await
    .unwrap();
    let (st, v, _) = call(a, "POST", &round_url(e), Some(&c2), &json!({"move": e.solution()})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["you"]["before"]["rating"], 1623, "{v}");
    assert_eq!(v["you"]["after"]["rating"], 1629, "{v}");
    assert_eq!(v["you"]["diff"], 6, "{v}");
    assert_eq!(v["puzzle"]["rating"], 1330, "{v}");
    // The session is the account: the first player's rating is as it was.
    let r3: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzle_rounds WHERE account_id = $1")
        .bind(&me)
        .fetch_one(db)
        .await
        .unwrap();
    assert_eq!(r3, 3);

    // Deleting an account deletes its rounds and ratings; the puzzles keep theirs.
    let (st, v, _) = call(a, "POST", "/api/account/delete", Some(&c2), &json!({"password": PW})).await;
    assert!((200..300).contains(&st), "{st} {v}");
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzle_rounds WHERE account_id = $1")
        .bind(&me2)
        .fetch_one(db)
        .await
        .unwrap();
    let left_p: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzle_players WHERE account_id = $1")
        .bind(&me2)
        .fetch_one(db)
        .await
        .unwrap();
    assert_eq!((left, left_p), (0, 0));
}

async fn bad_requests(a: SocketAddr, db: &sqlx::AnyPool, set: &Set) {
    let c = account(a, "prankster").await;
    let me = account_id(db, "prankster").await;
    let p = &set.puzzles[5];
    let url = round_url(p);
    let before = rows(db).await;
    for body in [
        json!({"move": "a1a1"}),
        json!({"move": "e9e4"}),
        json!({"move": ""}),
        json!({"move": "x".repeat(17)}),
        json!({"move": 42}),
        json!({"move": p.solution(), "give_up": true}),
        json!({}),
        json!({"give_up": false}),
        json!({"move": p.solution(), "account": "someone-else"}),
        json!([p.solution()]),
        json!("e2e4"),
        Value::Null,
    ] {
        let (st, v, _) = call(a, "POST", &url, Some(&c), &body).await;
        assert_eq!(st, 400, "{body}: {v}");
        assert!(v["error"].is_string(), "{body}: {v}");
    }
    // The rules' reason for an illegal move.
    let (_, v, _) = call(a, "POST", &url, Some(&c), &json!({"move": "a1a1"})).await;
    assert!(v["error"].as_str().unwrap().len() > 5, "{v}");
    // Malformed JSON, a huge body, unknown set and id.
    let (st, _) = http_from(a, client_ip(1), "POST", &url, "Content-Type: application/json\r\n", "{\"move\": ").await;
    assert_eq!(st, 400);
    let huge = format!("{{\"move\": \"{}\"}}", "e".repeat(200_000));
    let (st, _) = http_from(a, client_ip(2), "POST", &url, "Content-Type: application/json\r\n", &huge).await;
    assert_eq!(st, 413);
    for path in ["/api/puzzles/shogi/abcdef/round", "/api/puzzles/genie/zzzzzz/round"] {
        let (st, v, _) = call(a, "POST", path, Some(&c), &json!({"move": p.solution()})).await;
        assert_eq!(st, 404, "{path}: {v}");
    }
    // GET of the round, POST of a read: the method is refused.
    assert_eq!(call(a, "GET", &url, Some(&c), &Value::Null).await.0, 405);
    // A foreign page's POST (no CSRF token here: the Host/Origin guard).
    let (st, _) = http_from(
        a,
        client_ip(3),
        "POST",
        &url,
        &format!("Content-Type: application/json\r\nOrigin: https://evil.example\r\nCookie: chimera_session={c}\r\n"),
        &json!({"move": p.solution()}).to_string(),
    )
    .await;
    assert_eq!(st, 403);
    // An API token is not a page's session.
    let tok = token(a, &c, &["board:play"]).await;
    let (st, _) =
        with_token(a, "POST", &url, &tok, "application/json", &json!({"move": p.solution()}).to_string()).await;
    assert_eq!(st, 403);
    assert_eq!(rows(db).await, before, "nothing stored by a refused round");
    let mine: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzle_rounds WHERE account_id = $1")
        .bind(&me)
        .fetch_one(db)
        .await
        .unwrap();
    assert_eq!(mine, 0);
}
