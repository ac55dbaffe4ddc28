//! Quick pairing: 200 entrants of one pool spread over two instances on
//! PostgreSQL (each instance pairs on its own ticks; the store decides),
//! and on SQLite: each paired at most once, never with itself, never
//! outside both ranges, each game between the two accounts of its entries;
//! the pools' counts; the requests refused. `pair` is checked by proptest.
//!
//! With `CHIMERA_POOL_SIM=1`, `time_to_a_game_from_simulated_arrivals`
//! prints the p50 and p90 of the time from entry to a game for simulated
//! arrival rates (the figures in docs/server.md).

use crate::common;

use chimera_server::pairing::{pair, range, Entrant};
use chimera_server::store::Location;
use chimera_server::{Config, Server};
use common::pg::PgCluster;
use common::*;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use sqlx::Row;
use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::time::Duration;

fn config() -> Config {
    Config {
        signup_burst: 1000,
        create_burst: 1000,
        heartbeat_every: Duration::from_millis(300),
        pairing_every: Duration::from_millis(200),
        // The 200 players all come from 127.0.0.1, each polling on
        // connections of its own: under load more of them are open at
        // once than one address is allowed (48), which is not what this
        // test is about.
        max_connections_per_client: 400,
        ..Config::default()
    }
}

/// `n` accounts made straight in the store (the password hash is not
/// needed), each with a session and a chess rating: their cookies.
async fn accounts(db: &chimera_server::store::Db, n: usize, seed: u64) -> Vec<(String, String, i64)> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let now = chimera_server::clock::now_ms();
    for i in 0..n {
        let id = format!("acc{i:03}");
        // Most between 1300 and 1700; a few far away.
        let rating: i64 = if i % 50 == 7 { 2600 } else { rng.gen_range(1300..1700) };
        sqlx::query(
            "INSERT INTO accounts (id, username, username_key, password_hash, created_at) VALUES ($1, $2, $3, 'x', 1)",
        )
        .bind(&id)
        .bind(format!("P{i:03}"))
        .bind(format!("p{i:03}"))
        .execute(db)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO ratings (account_id, variant, rating, deviation, volatility, games, wins, draws, losses, rated_at) \
             VALUES ($1, 'chess', $2, 60, 0.06, 30, 10, 10, 10, $3)",
        )
        .bind(&id)
        .bind(rating as f64)
        .bind(now)
        .execute(db)
        .await
        .unwrap();
        let sid = chimera_auth::SessionId::generate().unwrap();
        sqlx::query(
            "INSERT INTO account_sessions (key, account_id, created_at, seen_at, expires_at) VALUES ($1, $2, $3, $3, $4)",
        )
        .bind(sid.storage_key().to_hex())
        .bind(&id)
        .bind(now)
        .bind(now + 86_400_000)
        .execute(db)
        .await
        .unwrap();
        out.push((id, sid.as_str().to_string(), rating));
    }
    out
}

/// 200 entrants of chess 5+3, alternately on the instances of `addrs`,
/// each polling its entry until paired (or 20 s): the pairs checked.
async fn two_hundred(db: &chimera_server::store::Db, addrs: &[SocketAddr]) {
    let people = accounts(db, 200, 7).await;
    let (st, v, _) = call(addrs[0], "POST", "/api/pool/chess-5+3", None, &Value::Null).await;
    assert_eq!(st, 401, "{v}");
    let (st, v, _) = call(addrs[0], "POST", "/api/pool/chess-5+4", Some(&people[0].1), &Value::Null).await;
    assert_eq!(st, 404, "{v}");
    let mut tasks = Vec::new();
    for (i, (id, cookie, _)) in people.iter().cloned().enumerate() {
        let a = addrs[i % addrs.len()];
        tasks.push(tokio::spawn(async move {
            let (st, v, _) = call(a, "POST", "/api/pool/chess-5+3", Some(&cookie), &Value::Null).await;
            assert_eq!(st, 200, "{id}: {v}");
            for _ in 0..80 {
                tokio::time::sleep(Duration::from_millis(250)).await;
                let (st, v, _) = call(a, "GET", "/api/pool", Some(&cookie), &Value::Null).await;
                assert_eq!(st, 200, "{id}: {v}");
                if let Some(g) = v["game"].as_str() {
                    return (id, Some(g.to_string()));
                }
            }
            (id, None)
        }));
        // Arrivals spread over a second and a half.
        tokio::time::sleep(Duration::from_millis(7)).await;
    }
    let (_, pools) = get_json(addrs[0], "/api/pools").await;
    let chess = pools.as_array().unwrap().iter().find(|p| p["id"] == "chess-5+3").unwrap().clone();
    assert!(chess["waiting"].as_i64().unwrap() >= 0, "{chess}");
    let mut game_of: HashMap<String, String> = HashMap::new();
    let mut unpaired = Vec::new();
    for t in tasks {
        match t.await.unwrap() {
            (id, Some(g)) => {
                game_of.insert(id, g);
            }
            (id, None) => unpaired.push(id),
        }
    }
    // Each game has exactly the two accounts whose entries name it.
    let rating: HashMap<&str, i64> = people.iter().map(|(id, _, r)| (id.as_str(), *r)).collect();
    let mut by_game: HashMap<&str, Vec<&str>> = HashMap::new();
    for (acc, g) in &game_of {
        by_game.entry(g.as_str()).or_default().push(acc.as_str());
    }
    for (g, accs) in &by_game {
        assert_eq!(accs.len(), 2, "game {g}: {accs:?}");
        let r = sqlx::query(
            "SELECT white_account, black_account, rated, clock_initial, clock_increment FROM games WHERE id = $1",
        )
        .bind(g)
        .fetch_one(db)
        .await
        .unwrap();
        let (w, b): (String, String) = (r.get(0), r.get(1));
        assert_ne!(w, b, "{g}: one account in both seats");
        let seated: HashSet<&str> = [w.as_str(), b.as_str()].into();
        assert_eq!(seated, accs.iter().copied().collect(), "{g}");
        assert_eq!((r.get::<i64, _>(2), r.get::<i64, _>(3), r.get::<i64, _>(4)), (1, 300_000, 3000));
        // Within both ranges: the widest either had by the end (20 s).
        let d = (rating[accs[0]] - rating[accs[1]]).abs();
        assert!(d <= range(20_000), "{g}: {d} apart");
    }
    // Everyone of the 1300-1700 crowd is paired; the four at 2600 pair
    // with each other (two games) once their ranges allow, or wait.
    let crowd_unpaired: Vec<&String> = unpaired.iter().filter(|id| rating[id.as_str()] < 2000).collect();
    assert!(crowd_unpaired.len() <= 1, "unpaired: {unpaired:?}");
    let n: i64 = sqlx::query("SELECT COUNT(*) FROM games").fetch_one(db).await.unwrap().get(0);
    assert_eq!(n as usize, by_game.len(), "no game beyond those the entrants were given");
    for far in people.iter().filter(|p| p.2 == 2600) {
        if let Some(g) = game_of.get(&far.0) {
            let other = by_game[g.as_str()].iter().find(|a| **a != far.0).unwrap();
            assert_eq!(rating[other], 2600, "a 2600 was paired 1000 points away: {g}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_entrants_on_sqlite() {
    let dir = fresh_dir("pairing");
    let s = Server::start_with("127.0.0.1:0", &dir, config()).await.unwrap();
    two_hundred(&s.app.db, &[s.addr]).await;
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_entrants_over_two_instances_on_postgres() {
    let Some(pg) = PgCluster::start_or_skip("pairing on two instances") else { return };
    let at = Location::Url(pg.fresh_database("pairing"));
    let a = Server::start_at("127.0.0.1:0", &at, config()).await.unwrap();
    let b = Server::start_at("127.0.0.1:0", &at, config()).await.unwrap();
    two_hundred(&a.app.db, &[a.addr, b.addr]).await;
    a.stop().await;
    b.stop().await;
}

fn entrants() -> impl Strategy<Value = Vec<Entrant>> {
    prop::collection::vec((0u8..12, 800i64..2400, 0i64..60_000), 0..40).prop_map(|v| {
        v.into_iter().map(|(a, rating, entered_at)| Entrant { account: format!("a{a}"), rating, entered_at }).collect()
    })
}

proptest! {
    /// Nobody twice, nobody with itself, nobody outside both ranges; and
    /// no two left unpaired that could have been paired with each other.
    #[test]
    fn pairs_are_sound(w in entrants(), later in 0i64..60_000) {
        let now = 60_000 + later;
        let pairs = pair(&w, now);
        let mut seen = HashSet::new();
        for &(i, j) in &pairs {
            prop_assert!(seen.insert(i) && seen.insert(j));
            prop_assert_ne!(&w[i].account, &w[j].account);
            let d = (w[i].rating - w[j].rating).abs();
            prop_assert!(d <= range(now - w[i].entered_at).min(range(now - w[j].entered_at)));
        }
        let left: Vec<usize> = (0..w.len()).filter(|i| !seen.contains(i)).collect();
        for &i in &left {
            for &j in &left {
                let fits = (w[i].rating - w[j].rating).abs() <= range(now - w[i].entered_at).min(range(now - w[j].entered_at));
                prop_assert!(i == j || w[i].account == w[j].account || !fits, "{i} and {j} could pair");
            }
        }
    }
}

/// p50 and p90 of the time from entry to a game, from Poisson arrivals at
/// several rates into one pool, ratings from a normal(1500, 250), paired by
/// `pair` every second (the default tick), over 6 simulated hours each.
#[test]
fn time_to_a_game_from_simulated_arrivals() {
    if std::env::var("CHIMERA_POOL_SIM").is_err() {
        eprintln!("CHIMERA_POOL_SIM not set: the simulation is skipped");
        return;
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(2026);
    println!("| arrivals a minute | entrants | paired | p50 (s) | p90 (s) |\n| --- | --- | --- | --- | --- |");
    for per_minute in [0.5f64, 1.0, 2.0, 5.0, 20.0] {
        let (mut waiting, mut waits, mut t, mut next_arrival, mut n) =
            (Vec::<Entrant>::new(), Vec::new(), 0i64, 0f64, 0);
        let end = 6 * 3600 * 1000;
        while t < end {
            while next_arrival <= t as f64 {
                let (u1, u2): (f64, f64) = (rng.gen_range(1e-9..1.0), rng.gen());
                let normal = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
                waiting.push(Entrant {
                    account: format!("p{n}"),
                    rating: (1500.0 + 250.0 * normal) as i64,
                    entered_at: t,
                });
                n += 1;
                next_arrival += -(rng.gen_range(1e-9..1.0f64)).ln() * 60_000.0 / per_minute;
            }
            t += 1000;
            let pairs = pair(&waiting, t);
            let mut gone = HashSet::new();
            for (i, j) in pairs {
                waits.push((t - waiting[i].entered_at) as f64 / 1000.0);
                waits.push((t - waiting[j].entered_at) as f64 / 1000.0);
                gone.insert(i);
                gone.insert(j);
            }
            waiting = waiting.into_iter().enumerate().filter(|(i, _)| !gone.contains(i)).map(|(_, e)| e).collect();
        }
        waits.sort_by(f64::total_cmp);
        let q = |p: f64| waits[((waits.len() as f64 - 1.0) * p) as usize];
        println!("| {per_minute} | {n} | {} | {:.0} | {:.0} |", waits.len(), q(0.5), q(0.9));
    }
}
