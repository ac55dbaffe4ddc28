//! A correspondence game's deadline across a killed instance: two `chimera
//! serve` processes on one throwaway PostgreSQL cluster, both on a test
//! clock (`CHIMERA_TEST_CLOCK`: a file whose milliseconds are added to the
//! system clock). The instance that owns the game is killed (SIGKILL) with
//! a day running for Black; the clock is moved on; the other instance takes
//! the game over and ends it on time once, not before the deadline.
//! `CHIMERA_SKIP_POSTGRES=1` skips it.

mod common;

use common::pg::PgCluster;
use common::{call, get_json, Instance, Store, Ws};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

const DAY_MS: i64 = 24 * 3600 * 1000;

async fn seat(addr: SocketAddr, id: &str, token: &str) -> Ws {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}?token={token}")).await.expect("ws").0
}

/// Waits until the socket's game is at ply `ply`.
async fn at_ply(w: &mut Ws, ply: usize) {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(20), w.next()).await.expect("in time").unwrap().unwrap();
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(&t).unwrap();
            assert_ne!(v["t"], "error", "{v}");
            if v["t"] == "state" && v["ply"].as_u64() == Some(ply as u64) {
                return;
            }
        }
    }
}

/// Plays a move once the socket shows the game at `ply`, and waits until
/// it shows the move.
async fn play(w: &mut Ws, uci: &str, ply: usize) {
    at_ply(w, ply).await;
    w.send(Message::Text(json!({"t": "move", "uci": uci, "ply": ply}).to_string().into())).await.unwrap();
    at_ply(w, ply + 1).await;
}

fn set_clock(file: &Path, ms: i64) {
    std::fs::write(file, ms.to_string()).unwrap();
}

async fn state(addr: SocketAddr, id: &str) -> Value {
    get_json(addr, &format!("/api/games/{id}")).await.1
}

#[test]
fn a_correspondence_deadline_survives_a_killed_instance() {
    let Some(pg) = PgCluster::start_or_skip("correspondence across a killed instance") else { return };
    let url = pg.fresh_database("corr");
    let dir = common::fresh_dir("corr-clock");
    let clock = dir.join("clock");
    set_clock(&clock, 0);
    let env = [("CHIMERA_TEST_CLOCK", clock.to_str().unwrap())];
    let mut a = Instance::start_env("a", &Store::Url(url.clone()), &[], &env);
    let b = Instance::start_env("b", &Store::Url(url.clone()), &[], &env);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let (aa, ba) = (a.addr, b.addr);
        let ann = common::account(aa, "Ann").await;
        let bob = common::account(ba, "Bob").await;
        let (st, g, _) = call(
            aa,
            "POST",
            "/api/games",
            Some(&ann),
            &json!({"variant": "genie", "mode": "seek", "color": "white", "days": 1}),
        )
        .await;
        assert_eq!(st, 200, "{g}");
        let id = g["id"].as_str().unwrap().to_string();
        let (st, j, _) = call(ba, "POST", &format!("/api/games/{id}/join"), Some(&bob), &json!({})).await;
        assert_eq!(st, 200, "{j}");
        // White on A, Black on B; White's third move, made on A, leaves
        // Black a day and A the game's owner.
        let mut w = seat(aa, &id, g["token"].as_str().unwrap()).await;
        let mut bl = seat(ba, &id, j["token"].as_str().unwrap()).await;
        play(&mut w, "e2e4", 0).await;
        play(&mut bl, "e7e5", 1).await;
        play(&mut w, "g1f3", 2).await;
        let owner = pg.psql(&url, &format!("SELECT owner FROM games WHERE id = '{id}'")).unwrap();
        a.kill();
        drop((w, bl));

        // 23 hours on: B has taken the game over (A's heartbeat is a day
        // old), and it waits.
        set_clock(&clock, 23 * 3600 * 1000);
        let mut taken = false;
        for _ in 0..150 {
            let now = pg.psql(&url, &format!("SELECT owner FROM games WHERE id = '{id}'")).unwrap();
            if now.trim() != owner.trim() {
                taken = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(taken, "B took the game over from the killed A");
        let st = state(ba, &id).await;
        assert_eq!(st["status"], "active", "{st}");
        let left = st["clock"]["black"].as_i64().unwrap();
        assert!((DAY_MS / 24 - 60_000..=DAY_MS / 24).contains(&left), "about an hour left: {left}");
        // A minute before the deadline: on. Two minutes after: over, once.
        set_clock(&clock, DAY_MS - 60_000);
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert_eq!(state(ba, &id).await["status"], "active");
        set_clock(&clock, DAY_MS + 60_000);
        let mut end = Value::Null;
        for _ in 0..100 {
            end = state(ba, &id).await;
            if end["status"] == "finished" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!((end["result"].as_str(), end["reason"].as_str()), (Some("1-0"), Some("time forfeit")), "{end}");
        let row = |pg: &PgCluster| {
            pg.psql(&url, &format!("SELECT status, result, reason, version FROM games WHERE id = '{id}'")).unwrap()
        };
        let first = row(&pg);
        tokio::time::sleep(Duration::from_secs(3)).await;
        assert_eq!(row(&pg), first, "the game ended once: nothing changed it after");
        assert!(first.contains("finished|1-0|time forfeit"), "{first}");
    });
    drop(b);
    let _ = std::fs::remove_dir_all(&dir);
}
