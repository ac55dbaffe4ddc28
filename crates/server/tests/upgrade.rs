//! Stores written by an earlier release, opened by this one and upgraded in
//! place. The fixtures (`tests/fixtures/store-ef93987/`) were written by the
//! `chimera` binary of commit ef93987, whose server and lab kept two
//! migration sequences in one sqlx table; `scripts/make-store-fixtures.sh`
//! makes them again. Each holds web games of several modes and variants, an
//! open seek, an invite nobody has taken, a finished game, and two lab
//! studies, one of them killed part-way with its claims left behind.
//!
//! On both back ends (SQLite: the data directory's file, copied; PostgreSQL:
//! the `pg_dump` restored into a throwaway cluster, skipped with
//! `CHIMERA_SKIP_POSTGRES=1`): the server starts on the store, the games
//! are there and play on (a move accepted and stored), the seek is listed,
//! the invite still seats a friend, the finished game stays finished, and
//! the killed study resumes and completes.
#![cfg(feature = "lab")]

use crate::common;
use chimera_server::store::Location;
use chimera_server::{Config, Server};
use common::pg::PgCluster;
use common::*;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store-ef93987")
}

/// One web game of the fixture: `id token other # what`, where `other` is
/// the second player's token or the open invite (`-` when none).
struct WebGame {
    id: String,
    token: String,
    other: String,
}

fn web_games(file: &str) -> Vec<WebGame> {
    let text = std::fs::read_to_string(fixtures().join(file)).expect("the fixture's games");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut w = l.split_whitespace();
            let mut next = || w.next().expect("id token other").to_string();
            WebGame { id: next(), token: next(), other: next() }
        })
        .collect()
}

fn config() -> Config {
    Config { create_burst: 1000, ..Config::default() }
}

/// The sequence applied, one row per version, each with the checksum of
/// this build's file: the old rows were kept as they were, the sequence is
/// complete, nothing failed half-way.
async fn check_migrations(at: &Location) {
    let db = chimera_store::connect_at(at, 1).await.unwrap();
    let rows: Vec<(i64, Vec<u8>, i64)> =
        sqlx::query_as("SELECT version, checksum, CAST(success AS INTEGER) FROM _sqlx_migrations ORDER BY version")
            .fetch_all(&db)
            .await
            .unwrap();
    let want: Vec<(i64, Vec<u8>, i64)> = chimera_store::Embedded(chimera_store::MIGRATIONS)
        .migrations()
        .into_iter()
        .map(|m| (m.version, m.checksum.to_vec(), 1))
        .collect();
    assert_eq!(rows, want, "sqlx's table after the upgrade");
    db.close().await;
}

/// The web games: there, and playing on.
async fn play_on(at: &Location, games: &[WebGame]) {
    let server = Server::start_at("127.0.0.1:0", at, config()).await.expect("the new server opens the old store");
    let addr = server.addr;
    let [hotseat, friend, invited, seek, finished, engine] = games else {
        panic!("six games in the fixture, not {}", games.len())
    };

    // The open seek is in the lobby (checked first: the lobby cancels a
    // seek whose creator has been away for its grace period).
    let (st, seeks) = get_json(addr, "/api/seeks").await;
    assert_eq!(st, 200, "{seeks}");
    let listed = seeks.as_array().map(|a| a.iter().any(|s| s["id"] == json!(seek.id))).unwrap_or(false);
    assert!(listed, "the old seek {} is listed: {seeks}", seek.id);

    // The hotseat game, Black to move at ply 3: a move accepted.
    let (st, s) = get_json(addr, &format!("/api/games/{}", hotseat.id)).await;
    assert_eq!((st, s["ply"].clone(), s["status"].clone()), (200, json!(3), json!("active")), "{s}");
    let mut w = ws(addr, &hotseat.id, Some(&hotseat.token)).await;
    wait_state(&mut w, |s| s["ply"] == json!(3)).await;
    send(&mut w, &json!({"t": "move", "uci": "b8c6", "ply": 3})).await;
    wait_state(&mut w, |s| s["ply"] == json!(4)).await;

    // The friend game (Genie, with a clock), White to move at ply 4.
    // Its 60+5 clock has run for White since the fixture was written, as
    // a clock does while no one moves: within the hour the move is
    // accepted, after it the flag has fallen (White loses on time).
    let (_, s) = get_json(addr, &format!("/api/games/{}", friend.id)).await;
    assert_eq!((s["ply"].clone(), s["variant"].clone()), (json!(4), json!("genie")), "{s}");
    let mut w = ws(addr, &friend.id, Some(&friend.token)).await;
    let s = wait_state(&mut w, |s| s["ply"] == json!(4)).await;
    let clock_ran_out = s["status"] != json!("active") || s["clock"]["white"].as_i64().is_some_and(|ms| ms <= 0);
    if clock_ran_out {
        let s = if s["status"] == json!("active") {
            send(&mut w, &json!({"t": "flag"})).await;
            wait_state(&mut w, |s| s["status"] != json!("active")).await
        } else {
            s
        };
        assert_eq!((s["result"].clone(), s["reason"].clone()), (json!("0-1"), json!("time forfeit")), "{s}");
    } else {
        send(&mut w, &json!({"t": "move", "uci": "g1f3", "ply": 4})).await;
        wait_state(&mut w, |s| s["ply"] == json!(5)).await;
    }

    // The invite made by the old release still seats a friend.
    let (st, j) = post_json(addr, &format!("/api/games/{}/join", invited.id), &json!({"invite": invited.other})).await;
    assert_eq!(st, 200, "{j}");
    assert!(j["token"].as_str().is_some_and(|t| !t.is_empty()), "{j}");

    // The finished game stays finished (White resigned).
    let (_, s) = get_json(addr, &format!("/api/games/{}", finished.id)).await;
    assert_eq!((s["status"].clone(), s["result"].clone()), (json!("finished"), json!("0-1")), "{s}");

    // The engine game kept its moves.
    let (_, s) = get_json(addr, &format!("/api/games/{}", engine.id)).await;
    assert_eq!(s["ply"], json!(2), "{s}");
    server.stop().await;

    // The moves are in the store.
    let db = chimera_store::open_at(at, 1).await.unwrap();
    let played: &[(&String, usize, &str)] =
        if clock_ran_out { &[(&hotseat.id, 3, "b8c6")] } else { &[(&hotseat.id, 3, "b8c6"), (&friend.id, 4, "g1f3")] };
    for &(game, ply, uci) in played {
        let got: Option<(String,)> = sqlx::query_as("SELECT uci FROM moves WHERE game_id = $1 AND ply = $2")
            .bind(game)
            .bind(ply as i64)
            .fetch_optional(&db)
            .await
            .unwrap();
        assert_eq!(got, Some((uci.to_string(),)), "game {game} ply {ply}");
    }
    db.close().await;
}

/// The lab: both studies listed, the killed one resumed to completion by
/// this build (the same checks `chimera lab run ID` makes first).
async fn resume_study(at: &Location) {
    use chimera_lab::{run, store};
    let db = store::open_at(at).await.expect("the lab opens the old store");
    let studies = store::list_studies(&db).await.unwrap();
    let ids: Vec<(&str, u64, u64)> = studies.iter().map(|s| (s.id.as_str(), s.games, s.games_target)).collect();
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert_eq!(ids[0], ("fixture-done", 4, 4), "{ids:?}");
    let (id, before, target) = ids[1];
    assert_eq!(id, "fixture-part");
    assert!(before >= 3 && before < target, "stopped part-way: {ids:?}");
    let study = store::get_study(&db, id).await.unwrap();
    store::create_or_check(&db, id, &study.spec, study.games_target, &run::engine_id())
        .await
        .expect("the same engine resumes the study");
    let stop = Arc::new(AtomicBool::new(false));
    let summary = run::run_study(&db, id, 2, stop, &mut |_| {}).await.expect("the study resumes");
    assert_eq!((summary.before, summary.missing), (before, 0), "{summary:?}");
    let numbers = store::stored_numbers(&db, id).await.unwrap();
    assert_eq!(numbers, (0..target).collect::<Vec<_>>(), "every game once");
    let open: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM lab_claims WHERE study_id = $1 AND done = 0")
        .bind(id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(open.0, 0, "the dead runner's claims were taken over and done");
    db.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_store_of_ef93987_opens_plays_on_and_resumes_its_study() {
    let dir = fresh_dir("upgrade-sqlite");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixtures().join("chimera.sqlite3"), dir.join("chimera.sqlite3")).unwrap();
    let at = Location::Dir(dir.clone());
    play_on(&at, &web_games("games.txt")).await;
    check_migrations(&at).await;
    resume_study(&at).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_store_of_ef93987_opens_plays_on_and_resumes_its_study() {
    let Some(pg) = PgCluster::start_or_skip("upgrade: a PostgreSQL store of ef93987") else { return };
    let url = pg.fresh_database("upgrade");
    pg.psql_file(&url, &fixtures().join("postgres.sql")).expect("the fixture's dump restores");
    let at = Location::Url(url);
    play_on(&at, &web_games("postgres-games.txt")).await;
    check_migrations(&at).await;
    resume_study(&at).await;
}

/// What a store says when this build cannot open it: one that a newer
/// release upgraded (a version this build does not know) is refused, not
/// written with an older schema, and left as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_of_a_newer_release_is_refused_and_left_alone() {
    let dir = fresh_dir("upgrade-newer");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixtures().join("chimera.sqlite3"), dir.join("chimera.sqlite3")).unwrap();
    let at = Location::Dir(dir.clone());
    let db = chimera_store::connect_at(&at, 1).await.unwrap();
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (9999, 'from the future', TRUE, x'00', 0)",
    )
    .execute(&db)
    .await
    .unwrap();
    db.close().await;
    let e = Server::start_at("127.0.0.1:0", &at, config()).await.err().expect("refused");
    assert!(e.contains("9999") && e.contains("newer release"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
