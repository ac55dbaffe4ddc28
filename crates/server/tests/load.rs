//! Load test (run on demand): 200 concurrent hot-seat games on loopback,
//! each playing a 20-ply opening over its own WebSocket, measuring the move
//! round trip (send -> the state with the new ply comes back).
//!
//! `cargo test --release -p chimera-server --test services load:: -- --ignored --nocapture`
//! Bounded: 200 games x 20 moves, 180 s at most; loopback only.

use crate::common;
use common::*;
use serde_json::json;
use std::time::{Duration, Instant};

const GAMES: usize = 200;
const LINE: [&str; 20] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5", "a4b3", "d7d6",
    "c2c3", "e8g8", "h2h3", "c6a5", "b3c2", "c7c5",
];

/// Players who think: each game moves once a second (offsets spread over
/// the first second), 200 moves/s offered in all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "load test: run with --ignored --test-threads=1"]
async fn load_200_games_paced() {
    run_load("paced", Some(Duration::from_millis(1000))).await;
}

/// Every game moves as soon as its last move came back: a throughput
/// stress, where the round trip is mostly queueing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "load test: run with --ignored --test-threads=1"]
async fn load_200_games_burst() {
    run_load("burst", None).await;
}

async fn run_load(name: &str, pace: Option<Duration>) {
    let dir = fresh_dir("load");
    let server = start(&dir).await;
    let a = server.addr;
    let mut games = Vec::new();
    for n in 0..GAMES {
        // Ten games per simulated client address: within the creation limit.
        let (st, g) = http_from(
            a,
            client_ip(n / 10),
            "POST",
            "/api/games",
            "Content-Type: application/json\r\n",
            &json!({"variant": "chess", "mode": "hotseat"}).to_string(),
        )
        .await;
        assert_eq!(st, 200);
        games.push((g["id"].as_str().unwrap().to_string(), g["token"].as_str().unwrap().to_string()));
    }
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (n, (id, token)) in games.into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            if let Some(p) = pace {
                tokio::time::sleep(p * n as u32 / GAMES as u32).await;
            }
            let mut times = Vec::new();
            let mut errors = 0usize;
            let mut first_error = None;
            let mut w = ws_from(a, client_ip(n / 10), &id, Some(&token)).await.expect("ws");
            recv(&mut w).await; // hello
            recv(&mut w).await; // state
            for (i, m) in LINE.iter().enumerate() {
                if let (Some(p), true) = (pace, i > 0) {
                    tokio::time::sleep(p).await;
                }
                let t = Instant::now();
                send(&mut w, &json!({"t": "move", "uci": m, "ply": i})).await;
                loop {
                    let v = recv(&mut w).await;
                    if v["t"] == "error" {
                        errors += 1;
                        first_error.get_or_insert(v["message"].to_string());
                        break;
                    }
                    if v["t"] == "state" && v["ply"] == i + 1 {
                        times.push(t.elapsed());
                        break;
                    }
                }
            }
            (times, errors, first_error)
        }));
    }
    let mut all = Vec::new();
    let mut errors = 0;
    let mut first_error = None;
    for t in tasks {
        let (times, e, fe) =
            tokio::time::timeout(Duration::from_secs(180), t).await.expect("bounded in time").expect("task");
        all.extend(times);
        errors += e;
        if first_error.is_none() {
            first_error = fe;
        }
    }
    let wall = started.elapsed();
    all.sort();
    let pct = |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)];
    let report = format!(
        "{name}: games {GAMES}, moves {}, errors {errors}, wall {:.2} s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        all.len(),
        wall.as_secs_f64(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        all.last().unwrap().as_secs_f64() * 1e3
    );
    println!("LOAD: {report}");
    let _ = std::fs::create_dir_all(concat!(env!("CARGO_MANIFEST_DIR"), "/../../target"));
    let _ = std::fs::write(format!("{}/../../target/load-report-{name}.txt", env!("CARGO_MANIFEST_DIR")), &report);
    assert_eq!(errors, 0, "{report}; first error: {first_error:?}");
    assert_eq!(all.len(), GAMES * LINE.len());
    // Every game is stored with all its moves.
    let (_, list) = get_json(a, "/api/games").await;
    assert_eq!(list.as_array().unwrap().len(), GAMES);
    assert!(list.as_array().unwrap().iter().all(|g| g["plies"] == LINE.len()), "all stored");
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
