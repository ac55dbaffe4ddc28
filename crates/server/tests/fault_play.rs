//! The fault suite's second pass, game layer: a rematch is admitted as
//! every new game is, a rematch asked at once on two instances makes one
//! game, a long game's state is cheap to poll, a restarted process takes
//! its own games over at once, JSON arrays are not objects, failed joins
//! are limited per client address. Each test failed before its fix.
//!
//! Short version in `cargo test`; `scripts/fault-suite.sh` runs it with
//! `CHIMERA_FAULT_FULL=1` in release and writes the figures to
//! `target/fault-report.txt`. Loopback only (client addresses 127.0.x.y);
//! every loop is bounded in count and in time; timings are reported, never
//! asserted.

mod common;
use chimera_rules::{AnyPosition, Game, MoveList, Position, RuleOptions, Variant};
use chimera_server::pool::Admission;
use chimera_server::store::Location;
use chimera_server::{Config, Server};
use common::fault::*;
use common::pg::PgCluster;
use common::*;
use serde_json::{json, Value};
use sqlx::Row;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn post_from(a: SocketAddr, from: Ipv4Addr, path: &str, body: &str) -> (u16, Value) {
    http_from(a, from, "POST", path, "Content-Type: application/json\r\n", body).await
}

async fn create(a: SocketAddr, from: Ipv4Addr, body: Value) -> (u16, Value) {
    post_from(a, from, "/api/games", &body.to_string()).await
}

/// Reads messages until a state with a rematch link (Ok(id)) or an error
/// (Err(message)); None when neither comes within `limit`.
async fn rematch_or_error(w: &mut Ws, limit: Duration) -> Option<Result<String, String>> {
    let end = Instant::now() + limit;
    loop {
        let left = end.checked_duration_since(Instant::now())?;
        let v = tokio::time::timeout(left, recv(w)).await.ok()?;
        if v["t"] == "error" {
            return Some(Err(v["message"].as_str().unwrap_or("").to_string()));
        }
        if v["t"] == "state" {
            if let Some(id) = v["rematch"].as_str() {
                return Some(Ok(id.to_string()));
            }
        }
    }
}

/// Finding 2: a rematch is a new game and passes the same admission as
/// `POST /api/games`: the creation limit of the client's address, and the
/// engine queue for a game against the engine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play2_rematch_passes_the_creation_limit_and_engine_gate() {
    let cfg = Config {
        create_burst: 3,
        create_period: Duration::from_secs(120),
        engine_workers: 1,
        engine_queue: 0,
        ..Config::default()
    };
    let (server, dir) = start_with("p2", cfg).await;
    let a = server.addr;
    let me = client_ip(1);
    // The burst of three, then refused.
    let (st, g) = create(a, me, json!({"variant": "chess", "mode": "hotseat"})).await;
    assert_eq!(st, 200, "{g}");
    for _ in 0..2 {
        assert_eq!(create(a, me, json!({"variant": "chess", "mode": "hotseat"})).await.0, 200);
    }
    let (st, e) = create(a, me, json!({"variant": "chess", "mode": "hotseat"})).await;
    assert_eq!(st, 429, "{e}");
    // A hot-seat game chained resign -> rematch from that address: refused.
    let id = g["id"].as_str().unwrap();
    let mut w = ws_from(a, me, id, g["token"].as_str()).await.expect("ws");
    wait_state(&mut w, |_| true).await;
    send(&mut w, &json!({"t": "resign"})).await;
    wait_state(&mut w, |s| s["status"] == "finished").await;
    send(&mut w, &json!({"t": "rematch"})).await;
    let r = rematch_or_error(&mut w, Duration::from_secs(5)).await;
    report(&format!("rematch from an address over its creation limit: {r:?}"));
    match r {
        Some(Err(m)) => assert!(m.contains("too many new games"), "{m}"),
        other => panic!("the rematch must be refused by the creation limit, got {other:?}"),
    }
    let (_, s) = get_json(a, &format!("/api/games/{id}")).await;
    assert_eq!(s["rematch"], Value::Null, "no game made: {s}");
    drop(w);

    // An engine game's rematch while the engine pool is full (1 worker
    // held by a job of this test, queue 0): refused, nothing lost.
    let other = client_ip(2);
    let (st, g) = create(a, other, json!({"variant": "chess", "mode": "engine", "level": 1})).await;
    assert_eq!(st, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut w = ws_from(a, other, &id, g["token"].as_str()).await.expect("ws");
    wait_state(&mut w, |_| true).await;
    send(&mut w, &json!({"t": "resign"})).await;
    wait_state(&mut w, |s| s["status"] == "finished").await;
    let release = Arc::new(AtomicBool::new(false));
    let (app, r2) = (server.app.clone(), release.clone());
    let hold = tokio::spawn(async move {
        app.engine
            .run(Admission::Always, Arc::new(AtomicBool::new(false)), move |_| {
                let t = Instant::now();
                while !r2.load(Ordering::SeqCst) && t.elapsed() < Duration::from_secs(20) {
                    std::thread::sleep(Duration::from_millis(5));
                }
            })
            .await
    });
    for _ in 0..200 {
        if server.app.engine.is_full() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(server.app.engine.is_full(), "the engine pool is full");
    send(&mut w, &json!({"t": "rematch"})).await;
    let r = rematch_or_error(&mut w, Duration::from_secs(5)).await;
    report(&format!("engine rematch while the engine queue is full: {r:?}"));
    release.store(true, Ordering::SeqCst);
    let _ = hold.await;
    match r {
        Some(Err(m)) => assert!(m.contains("busy"), "{m}"),
        other => panic!("the engine rematch must wait for room in the engine queue, got {other:?}"),
    }
    // Once there is room it is made.
    send(&mut w, &json!({"t": "rematch"})).await;
    let r = rematch_or_error(&mut w, Duration::from_secs(5)).await;
    assert!(matches!(r, Some(Ok(_))), "made once the engine has room: {r:?}");
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finding 3: both players ask for the rematch at the same moment, each on
/// another instance of one PostgreSQL store: exactly one game, and both
/// players are sent it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play3_simultaneous_rematch_on_two_instances() {
    let Some(pg) = PgCluster::start_or_skip("fault_play: rematch on two instances") else { return };
    let url = pg.fresh_database("rematch");
    let at = Location::Url(url.clone());
    let cfg = Config { create_burst: 1000, heartbeat_every: Duration::from_millis(200), ..Config::default() };
    let a = Server::start_at("127.0.0.1:0", &at, cfg.clone()).await.expect("instance A");
    let b = Server::start_at("127.0.0.1:0", &at, cfg).await.expect("instance B");
    let (st, g) =
        post_json(a.addr, "/api/games", &json!({"variant": "chess", "mode": "friend", "color": "white"})).await;
    assert_eq!(st, 200, "{g}");
    let mut id = g["id"].as_str().unwrap().to_string();
    let (st, j) = post_json(b.addr, &format!("/api/games/{id}/join"), &json!({"invite": g["invite"]})).await;
    assert_eq!(st, 200, "{j}");
    let (ta, tb) = (g["token"].as_str().unwrap().to_string(), j["token"].as_str().unwrap().to_string());
    let rounds = if full() { 20 } else { 5 };
    let mut made = 0;
    let mut failures = Vec::new();
    for round in 0..rounds {
        let mut wa = ws(a.addr, &id, Some(&ta)).await;
        let mut wb = ws(b.addr, &id, Some(&tb)).await;
        wait_state(&mut wa, |_| true).await;
        wait_state(&mut wb, |_| true).await;
        send(&mut wa, &json!({"t": "resign"})).await;
        wait_state(&mut wa, |s| s["status"] == "finished").await;
        wait_state(&mut wb, |s| s["status"] == "finished").await;
        // At once, one on each instance.
        let ask = json!({"t": "rematch"});
        tokio::join!(send(&mut wa, &ask), send(&mut wb, &ask));
        let (ra, rb) = tokio::join!(
            rematch_or_error(&mut wa, Duration::from_secs(8)),
            rematch_or_error(&mut wb, Duration::from_secs(8))
        );
        match (&ra, &rb) {
            (Some(Ok(x)), Some(Ok(y))) if x == y => {
                made += 1;
                id = x.clone();
            }
            _ => {
                failures.push(format!("round {round}: A {ra:?}, B {rb:?}"));
                break;
            }
        }
        // The store holds exactly one rematch of the game.
        let (_, s) = get_json(b.addr, &format!("/api/games/{id}")).await;
        assert_eq!(s["status"], "active", "the rematch is on: {s}");
    }
    report(&format!(
        "simultaneous rematch on two instances: {made} of {rounds} rounds made one game both players got{}",
        if failures.is_empty() { String::new() } else { format!("; {}", failures.join("; ")) }
    ));
    assert_eq!(made, rounds, "{failures:?}");
    a.stop().await;
    b.stop().await;
}

/// A legal chess game of `plies` plies that is not over: moves picked
/// pseudo-randomly, quiet ones first (material stays on the board), a pawn
/// move when the fifty-move count grows, never a move that ends the game.
fn long_game(plies: usize) -> Vec<String> {
    let mut g = Game::new(AnyPosition::new(Variant::Chess, &RuleOptions::default()));
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    while g.moves().len() < plies {
        let pos = g.position().clone();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let all: Vec<_> = list.iter().copied().collect();
        let pawn_due = pos.halfmoves() > 60;
        let mut order: Vec<_> = all
            .iter()
            .copied()
            .filter(|m| !pos.is_capture(*m))
            .filter(|m| !pawn_due || pos.board().role_at(m.from).is_some_and(|r| r == chimera_rules::Role::Pawn))
            .collect();
        if order.is_empty() {
            order = all.iter().copied().filter(|m| !pos.is_capture(*m)).collect();
        }
        if order.is_empty() {
            order = all.clone();
        }
        let start = (next() % order.len() as u64) as usize;
        let mut played = false;
        for k in 0..order.len() {
            let m = order[(start + k) % order.len()];
            g.push_unchecked(m);
            if g.outcome().is_none() {
                played = true;
                break;
            }
            g.undo();
        }
        assert!(played, "a move that does not end the game");
    }
    g.moves().iter().map(|m| m.to_string()).collect()
}

/// A keep-alive GET of `path` on `s`; returns (status, headers, body length).
async fn keep_alive_get(s: &mut tokio::net::TcpStream, addr: SocketAddr, path: &str) -> (u16, String, usize) {
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    s.write_all(req.as_bytes()).await.expect("write");
    let mut buf = Vec::new();
    let mut chunk = [0u8; 65536];
    loop {
        if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..p]).to_string();
            let len: usize = head
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string()))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            while buf.len() < p + 4 + len {
                let n = s.read(&mut chunk).await.expect("read");
                assert!(n > 0, "closed mid-body");
                buf.extend_from_slice(&chunk[..n]);
            }
            let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
            return (status, head, len);
        }
        let n =
            tokio::time::timeout(Duration::from_secs(10), s.read(&mut chunk)).await.expect("in time").expect("read");
        assert!(n > 0, "closed");
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// The round trip (ms) of each of `n` moves from ply `from` on.
async fn measure(w: &mut Ws, moves: &[String], from: usize, n: usize) -> Vec<f64> {
    let mut rtt = Vec::new();
    for (ply, uci) in moves.iter().enumerate().skip(from).take(n) {
        let t = Instant::now();
        send(w, &json!({"t": "move", "uci": uci, "ply": ply})).await;
        wait_state(w, |s| s["ply"] == json!(ply + 1)).await;
        rtt.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    rtt
}

/// CPU time of this process (user + system), from /proc/self/stat.
fn cpu_time() -> Duration {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = s.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 (utime, stime) are the 12th and 13th after the ')'.
    let field = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let ticks = field(11) + field(12);
    Duration::from_millis(ticks * 10)
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    if v.is_empty() {
        return f64::NAN;
    }
    v[((v.len() - 1) as f64 * p).round() as usize]
}

/// Finding 4: the whole state of a 400-ply game is served from a cache of
/// its serialised history, with an `ETag` while no clock runs (`304` to a
/// matching `If-None-Match`). Reported: its size, the CPU per request, and
/// the move round trip of that game with four keep-alive clients polling
/// it as fast as they can.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play4_long_game_state_is_cached_and_tagged() {
    let (server, dir) = start_with("p4", Config { create_burst: 1000, ..Config::default() }).await;
    let a = server.addr;
    let moves = long_game(420);
    let (st, g) = create(a, client_ip(1), json!({"variant": "chess", "mode": "hotseat"})).await;
    assert_eq!(st, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut w = ws(a, &id, g["token"].as_str()).await;
    wait_state(&mut w, |_| true).await;
    for (ply, uci) in moves.iter().take(400).enumerate() {
        send(&mut w, &json!({"t": "move", "uci": uci, "ply": ply})).await;
        wait_state(&mut w, |s| s["ply"] == json!(ply + 1)).await;
    }
    let path = format!("/api/games/{id}");
    let mut s = tokio::net::TcpStream::connect(a).await.unwrap();
    let (st, head, size) = keep_alive_get(&mut s, a, &path).await;
    assert_eq!(st, 200, "{head}");
    let etag = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().starts_with("etag:").then(|| l[5..].trim().to_string()))
        .unwrap_or_else(|| panic!("a state without a running clock has an ETag: {head}"));
    // The state is the view the WebSocket sends, whole.
    let (_, full_state) = get_json(a, &path).await;
    assert_eq!(full_state["ply"], json!(400));
    assert_eq!(full_state["history"].as_array().map(Vec::len), Some(400));
    assert_eq!(full_state["history"][399]["uci"], json!(moves[399]));
    // Revalidation: 304, no body.
    let req = format!("GET {path} HTTP/1.1\r\nHost: {a}\r\nIf-None-Match: {etag}\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf)).await.unwrap().unwrap();
    let head304 = String::from_utf8_lossy(&buf[..n]).to_string();
    assert!(head304.starts_with("HTTP/1.1 304"), "{head304}");
    // Cost per full GET (client and server in this process: an upper bound).
    let n_gets = if full() { 2000 } else { 200 };
    let (c0, t0) = (cpu_time(), Instant::now());
    for _ in 0..n_gets {
        let (st, _, _) = keep_alive_get(&mut s, a, &path).await;
        assert_eq!(st, 200);
    }
    let (cpu, wall) = (cpu_time() - c0, t0.elapsed());
    report(&format!(
        "state of a 400-ply game: {:.1} KB; {n_gets} keep-alive GETs: {:.3} ms CPU and {:.3} ms wall each (client and server together)",
        size as f64 / 1000.0,
        cpu.as_secs_f64() * 1000.0 / n_gets as f64,
        wall.as_secs_f64() * 1000.0 / n_gets as f64
    ));
    // Move round trip of that game, alone and with four pollers.
    let mut quiet = measure(&mut w, &moves, 400, 8).await;
    let stop = Arc::new(AtomicBool::new(false));
    let t = Instant::now();
    let mut pollers = Vec::new();
    for _ in 0..4 {
        let (stop, path) = (stop.clone(), path.clone());
        pollers.push(tokio::spawn(async move {
            let mut s = tokio::net::TcpStream::connect(a).await.unwrap();
            let mut n = 0u64;
            while !stop.load(Ordering::SeqCst) && n < 200_000 {
                keep_alive_get(&mut s, a, &path).await;
                n += 1;
            }
            n
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut busy = measure(&mut w, &moves, 408, 12).await;
    stop.store(true, Ordering::SeqCst);
    let mut polled = 0;
    for p in pollers {
        polled += p.await.unwrap();
    }
    report(&format!(
        "move round trip of the 400-ply game: p50 {:.2} ms alone, p50 {:.2} ms (max {:.2} ms) with 4 keep-alive clients polling its state ({polled} GETs, {:.0} a second)",
        pct(&mut quiet, 0.5),
        pct(&mut busy, 0.5),
        pct(&mut busy, 1.0),
        polled as f64 / t.elapsed().as_secs_f64()
    ));
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "the child server of fault_play; runs only with CHIMERA_FAULT_PLAY_CHILD set"]
fn fault_play_child_server() {
    // Serve until killed (bounded: 10 minutes).
    serve_child("CHIMERA_FAULT_PLAY_CHILD", Config::default(), Duration::from_secs(600));
}

/// Finding 5: a process restarted on its data directory after `kill -9`
/// takes its predecessor's games over at once (it holds the directory's
/// lock, so the previous holder is dead): the engine moves and the clocks
/// run without waiting for the dead heartbeat to go stale. The restarted
/// server waits 60 s for a stale heartbeat here, so only the immediate
/// takeover can pass.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play5_restart_takes_over_its_own_games_at_once() {
    let dir = fresh_dir("p5");
    let child = spawn_child(&dir, "fault_play_child_server", "CHIMERA_FAULT_PLAY_CHILD");
    let a = child.addr;
    // A clock game with its clock running.
    let (st, c) = create(
        a,
        client_ip(1),
        json!({"variant": "chess", "mode": "hotseat", "clock": {"minutes": 5, "increment": 0}}),
    )
    .await;
    assert_eq!(st, 200, "{c}");
    let clock_id = c["id"].as_str().unwrap().to_string();
    let mut w = ws(a, &clock_id, c["token"].as_str()).await;
    wait_state(&mut w, |_| true).await;
    for (ply, uci) in ["e2e4", "e7e5"].iter().enumerate() {
        send(&mut w, &json!({"t": "move", "uci": uci, "ply": ply})).await;
        wait_state(&mut w, |s| s["ply"] == json!(ply + 1)).await;
    }
    drop(w);
    // An engine game with the engine to move (level 8 thinks a second):
    // killed while it thinks.
    let (st, e) =
        create(a, client_ip(1), json!({"variant": "chess", "mode": "engine", "level": 8, "color": "black"})).await;
    assert_eq!(st, 200, "{e}");
    let engine_id = e["id"].as_str().unwrap().to_string();
    let mut proc = child.proc;
    let _ = proc.kill();
    let _ = proc.wait();
    let killed = Instant::now();
    let cfg = Config { takeover_after: Duration::from_secs(60), ..Config::default() };
    let server = Server::start_with("127.0.0.1:0", &dir, cfg).await.expect("restarts");
    let started = killed.elapsed();
    let owner = |id: String| {
        let db = server.app.db.clone();
        async move {
            sqlx::query("SELECT owner FROM games WHERE id = $1")
                .bind(id)
                .fetch_one(&db)
                .await
                .unwrap()
                .get::<Option<String>, _>(0)
        }
    };
    let (o_clock, o_engine) = (owner(clock_id.clone()).await, owner(engine_id.clone()).await);
    report(&format!(
        "restart after kill -9: started in {:.2} s; owners right after the start: clock game {}, engine game {} (this instance: {})",
        started.as_secs_f64(),
        o_clock.as_deref().unwrap_or("none"),
        o_engine.as_deref().unwrap_or("none"),
        server.app.instance
    ));
    assert_eq!(o_clock.as_deref(), Some(server.app.instance.as_str()), "the clock game is this instance's at once");
    assert_eq!(o_engine.as_deref(), Some(server.app.instance.as_str()), "the engine game is this instance's at once");
    // The engine moves (bounded wait; the old rule would wait 60 s here).
    let mut moved = None;
    for _ in 0..200 {
        let (_, s) = get_json(server.addr, &format!("/api/games/{engine_id}")).await;
        if s["ply"] == json!(1) {
            moved = Some(killed.elapsed());
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    report(&format!(
        "restart after kill -9: the engine's move {:.2} s after the kill (level 8 thinks 1 s)",
        moved.map_or(f64::NAN, |d| d.as_secs_f64())
    ));
    assert!(moved.is_some(), "the engine moved after the restart");
    // The clock runs: its state says so.
    let (_, s) = get_json(server.addr, &format!("/api/games/{clock_id}")).await;
    assert_eq!(s["clock"]["running"], json!("w"), "{s}");
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finding 6: a JSON array where an object is expected is refused with a
/// 400 that says so, in every body and every WebSocket message, and
/// nothing changes: the three probes of the finding, a nested clock given
/// as an array, and array messages on a WebSocket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play6_json_arrays_are_not_objects() {
    let (server, dir) = start_with("p6", Config { create_burst: 1000, ..Config::default() }).await;
    let a = server.addr;
    let me = client_ip(1);
    let (st, seek) = create(a, me, json!({"variant": "chess", "mode": "seek"})).await;
    assert_eq!(st, 200, "{seek}");
    let seek_id = seek["id"].as_str().unwrap().to_string();
    let (st, friend) = create(a, me, json!({"variant": "chess", "mode": "friend"})).await;
    assert_eq!(st, 200, "{friend}");
    let friend_id = friend["id"].as_str().unwrap().to_string();
    let invite = friend["invite"].as_str().unwrap();
    let stranger = client_ip(2);
    let probes = [
        (format!("/api/games/{seek_id}/join"), "[]".to_string()),
        (format!("/api/games/{friend_id}/join"), format!(r#"["{invite}", "Eve"]"#)),
        ("/api/games".to_string(), r#"["chess",null,"hotseat"]"#.to_string()),
        ("/api/games".to_string(), r#"{"variant":"chess","mode":"hotseat","clock":[5,2]}"#.to_string()),
        ("/api/games".to_string(), r#""chess""#.to_string()),
        (format!("/api/games/{seek_id}/cancel"), format!(r#"["{}"]"#, seek["token"].as_str().unwrap())),
        ("/api/position".to_string(), r#"["chess"]"#.to_string()),
        ("/api/analyse".to_string(), r#"["chess"]"#.to_string()),
        ("/api/pgn/import".to_string(), r#"["1. e4 e5"]"#.to_string()),
        ("/api/pgn/tree".to_string(), r#"["1. e4 e5"]"#.to_string()),
    ];
    let mut refused = 0;
    for (path, body) in &probes {
        let (st, v) = post_from(a, stranger, path, body).await;
        report(&format!("JSON probe {body} to {path}: {st} {v}"));
        if st == 400 && v["error"].as_str().is_some_and(|e| e.contains("expected a JSON object")) {
            refused += 1;
        }
    }
    // Nothing taken: both seats still free.
    let (_, s) = get_json(a, &format!("/api/games/{seek_id}")).await;
    assert_eq!(s["seats"], json!({"w": true, "b": false}), "the seek's seat is still free: {s}");
    let (_, s) = get_json(a, &format!("/api/games/{friend_id}")).await;
    assert_eq!(s["seats"], json!({"w": true, "b": false}), "the friend game's seat is still free: {s}");
    // WebSocket messages.
    let (_, hs) = create(a, me, json!({"variant": "chess", "mode": "hotseat"})).await;
    let hs_id = hs["id"].as_str().unwrap().to_string();
    let mut w = ws(a, &hs_id, hs["token"].as_str()).await;
    wait_state(&mut w, |_| true).await;
    let mut ws_refused = 0;
    for m in [r#"["resign"]"#, r#"["move","e2e4",0]"#, r#""resign""#] {
        send_raw(&mut w, m).await;
        let e = wait_error(&mut w).await;
        if e.contains("expected a JSON object") {
            ws_refused += 1;
        }
    }
    let (_, s) = get_json(a, &format!("/api/games/{hs_id}")).await;
    report(&format!(
        "JSON arrays as objects: {refused} of {} bodies and {ws_refused} of 3 WebSocket messages refused; game {} at ply {}",
        probes.len(),
        s["status"],
        s["ply"]
    ));
    assert_eq!((s["status"].as_str(), s["ply"].as_u64()), (Some("active"), Some(0)), "{s}");
    assert_eq!(refused, probes.len(), "every non-object body refused with a 400 that says so");
    assert_eq!(ws_refused, 3, "every non-object message refused");
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A raw POST from client address `from`: (status, head, body).
async fn post_raw(a: SocketAddr, from: Ipv4Addr, path: &str, body: &str) -> (u16, String, String) {
    let s = connect_from(a, from).await.expect("connect");
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(s, req.as_bytes()).await
}

/// The limit on failed joins: guessing invites from one address is
/// stopped (429 with `Retry-After` and a JSON error), the right invite
/// included while the address is over the limit, and honest joins (from
/// that address before it failed, and from others) are never slowed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_failed_invite_joins_are_limited() {
    let (server, dir) = start_with("pj", Config { create_burst: 1000, ..Config::default() }).await;
    let a = server.addr;
    let host = client_ip(1);
    let guesser = client_ip(2);
    let friend = client_ip(3);
    // Honest joins: 15 friend games joined from one address, none slowed.
    let mut honest = 0;
    for _ in 0..15 {
        let (_, g) = create(a, host, json!({"variant": "chess", "mode": "friend"})).await;
        let id = g["id"].as_str().unwrap();
        let (st, _) =
            post_from(a, friend, &format!("/api/games/{id}/join"), &json!({"invite": g["invite"]}).to_string()).await;
        if st == 200 {
            honest += 1;
        }
    }
    assert_eq!(honest, 15, "honest joins are never limited");
    // Guesses from one address.
    let (_, target) = create(a, host, json!({"variant": "chess", "mode": "friend"})).await;
    let id = target["id"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/join");
    let tries = if full() { 2000 } else { 200 };
    let (mut forbidden, mut limited, mut retry_after) = (0, 0, None);
    let t0 = Instant::now();
    for n in 0..tries {
        let guess = format!("{n:032x}");
        let (st, head, body) = post_raw(a, guesser, &path, &json!({"invite": guess}).to_string()).await;
        match st {
            403 => forbidden += 1,
            429 => {
                limited += 1;
                let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                assert!(v["error"].as_str().is_some_and(|e| e.contains("failed joins")), "{body}");
                retry_after = retry_after.or_else(|| {
                    head.lines().find_map(|l| {
                        l.to_ascii_lowercase().strip_prefix("retry-after:").and_then(|v| v.trim().parse::<u64>().ok())
                    })
                });
            }
            _ => panic!("unexpected answer to a guess: {st} {body}"),
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    // The right invite from the guessing address is refused too now (the
    // invite is not even compared), and from another address it works.
    let (st_right, _, _) = post_raw(a, guesser, &path, &json!({"invite": target["invite"]}).to_string()).await;
    let (st_other, _) = post_from(a, friend, &path, &json!({"invite": target["invite"]}).to_string()).await;
    report(&format!(
        "{tries} invite guesses from one address in {secs:.2} s: {forbidden} answered 403, {limited} refused 429 (Retry-After {} s); then the right invite from that address {st_right}, from another {st_other}; 15 honest joins from one address: {honest} × 200",
        retry_after.unwrap_or(0)
    ));
    assert_eq!(forbidden, 10, "ten failures, then the limit");
    assert_eq!(limited, tries - 10);
    assert!(retry_after.is_some_and(|s| (1..=60).contains(&s)), "{retry_after:?}");
    assert_eq!(st_right, 429, "over the limit the invite is not compared");
    assert_eq!(st_other, 200, "another address joins");
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
