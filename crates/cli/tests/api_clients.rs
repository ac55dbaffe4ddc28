//! The two clients of the Bot and Board API (docs/api.md) against a real
//! `chimera serve`:
//!
//! - `chimera bot` with Stockfish (Debian's `stockfish`, installed by
//!   scripts/setup-engines.sh) challenges the house bot Chimera-Level-1 and
//!   plays the game to its end, while the server is stopped mid-game and
//!   started again on the same store and port: the bot reconnects, reads
//!   the game again, and finishes it. `CHIMERA_SKIP_ENGINES=1` skips it.
//! - `chimera play --online --lines` challenges a player whose side is a
//!   scripted Board API client (this file's), who accepts and answers each
//!   move, to a mate.
//!
//! Every wait is bounded.

mod common;

#[path = "../src/api_client.rs"]
#[allow(dead_code)]
mod api_client;

use api_client::{Api, GameFull, GameState};
use common::{Instance, Store};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const STOCKFISH: &str = "/usr/games/stockfish";

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap()
}

/// Signs `name` up and makes a token with `scopes`: the token.
fn account_with_token(rt: &tokio::runtime::Runtime, addr: SocketAddr, name: &str, scopes: &[&str]) -> String {
    rt.block_on(async {
        let cookie = common::account(addr, name).await;
        let (st, v, _) = common::call(
            addr,
            "POST",
            "/api/account/tokens",
            Some(&cookie),
            &json!({"description": "api_clients test", "scopes": scopes}),
        )
        .await;
        assert_eq!(st, 200, "POST /api/account/tokens: {v}");
        let token = v["token"].as_str().unwrap_or_else(|| panic!("no token in {v}")).to_string();
        assert!(token.starts_with("chp_"), "{token}");
        token
    })
}

/// Waits for a child process (at most `limit`); kills it after that.
fn wait_exit(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        if let Ok(Some(st)) = child.try_wait() {
            return Some(st);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The stored game through the public `GET /api/games/{id}`.
fn stored(rt: &tokio::runtime::Runtime, addr: SocketAddr, id: &str) -> Value {
    rt.block_on(common::get_json(addr, &format!("/api/games/{id}"))).1
}

fn engines_skipped() -> bool {
    if std::env::var("CHIMERA_SKIP_ENGINES").is_ok_and(|v| v == "1") {
        eprintln!("*** CHIMERA_SKIP_ENGINES=1: the chimera bot test with Stockfish is SKIPPED ***");
        return true;
    }
    assert!(
        std::path::Path::new(STOCKFISH).exists(),
        "{STOCKFISH} not found: install it with scripts/setup-engines.sh (Debian: apt-get install stockfish), \
         or skip this test with CHIMERA_SKIP_ENGINES=1"
    );
    false
}

#[test]
fn a_bot_plays_a_house_bot_to_the_end_across_a_server_restart() {
    if engines_skipped() {
        return;
    }
    let data = common::fresh_dir("bot-data");
    let store = Store::Sqlite(data.clone());
    let mut server = Instance::start("bot", &store, &[]);
    let addr = server.addr;
    let rt = rt();
    let token = account_with_token(&rt, addr, "Robo", &["bot:play"]);
    let api = Api::new(&format!("http://{addr}"), &token).unwrap();
    api.post("/api/bot/account/upgrade", None).expect("the upgrade to a BOT account");

    let log_path = data.join("bot.log");
    let mut bot = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["bot", "--server", &format!("http://{addr}"), "--token", &token, "--engine", STOCKFISH])
        .args(["--engine-option", "Threads=1", "--engine-option", "Hash=16"])
        .args(["--challenge", "Chimera-Level-1", "--variant", "standard", "--clock", "1+1", "--games", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(std::fs::File::create(&log_path).unwrap()))
        .spawn()
        .expect("spawn chimera bot");
    let log = || std::fs::read_to_string(&log_path).unwrap_or_default();

    // The game's id, from the bot's "game ID started" line.
    let deadline = Instant::now() + Duration::from_secs(60);
    let id = loop {
        if let Some(id) = log().lines().find_map(|l| {
            l.strip_prefix("chimera bot: game ").and_then(|r| r.split_once(" started").map(|(id, _)| id.to_string()))
        }) {
            break id;
        }
        assert!(Instant::now() < deadline, "no game started within 60 s; the bot's log:\n{}", log());
        assert!(bot.try_wait().unwrap().is_none(), "the bot exited; its log:\n{}", log());
        std::thread::sleep(Duration::from_millis(100));
    };
    // A few moves in, the server stops; it comes back on the same port.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let g = stored(&rt, addr, &id);
        let plies = g["history"].as_array().map_or(0, |h| h.len());
        if plies >= 6 || g["status"] == "finished" {
            assert_eq!(g["status"], "active", "the game ended before the restart: {g}");
            break;
        }
        assert!(Instant::now() < deadline, "the game did not reach 6 plies in 60 s: {g}\n{}", log());
        std::thread::sleep(Duration::from_millis(100));
    }
    server.stop();
    std::thread::sleep(Duration::from_secs(2));
    let server = Instance::start_at("bot-again", &store, addr, &[]);

    let status = wait_exit(&mut bot, Duration::from_secs(300));
    let mut out = String::new();
    bot.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    let log = log();
    assert_eq!(status.map(|s| s.success()), Some(true), "chimera bot: {status:?}\nstdout:\n{out}\nlog:\n{log}");
    // It printed the result, saw the server go and reconnected.
    assert!(out.contains(&format!("game 1 of 1: {id} ")), "{out}");
    assert!(log.contains("reconnecting") || log.contains("trying again"), "no reconnection in the log:\n{log}");
    assert!(log.contains(&format!("game {id} over: ")), "{log}");
    // No move was refused: none posted twice, none out of turn.
    assert!(!log.contains("the server refused move"), "{log}");
    eprintln!("the bot's log:\n{log}");
    let g = stored(&rt, addr, &id);
    assert_eq!(g["status"], "finished", "{g}\n{log}");
    let result = g["result"].as_str().unwrap_or_default();
    assert!(out.contains(&format!("{id} {result} ")), "the printed result is the stored one ({result}): {out}");
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

/// Black's side of a Board API game, scripted: accepts Ann's challenge,
/// then answers White's moves with `replies` until the game ends. Returns
/// the last state and the game's id.
fn scripted_opponent(base: String, token: String, replies: Vec<&'static str>) -> (String, GameState) {
    let api = Api::new(&base, &token).unwrap();
    let mut events = api.stream("/api/stream/event").expect("bob's event stream");
    let deadline = Instant::now() + Duration::from_secs(60);
    let id = loop {
        assert!(Instant::now() < deadline, "no challenge and game for Bob within 60 s");
        let ev = events.next_value().expect("event stream").expect("the event stream ended");
        match ev["type"].as_str() {
            Some("challenge") if ev["challenge"]["destUser"]["id"] == "bob" => {
                let cid = ev["challenge"]["id"].as_str().unwrap();
                assert_eq!(ev["challenge"]["challenger"]["id"], "ann", "{ev}");
                api.post(&format!("/api/challenge/{cid}/accept"), None).expect("accept");
            }
            Some("gameStart") => {
                break ev["game"]["gameId"].as_str().or(ev["game"]["id"].as_str()).unwrap().to_string()
            }
            _ => {}
        }
    };
    let mut stream = api.stream(&format!("/api/board/game/stream/{id}")).expect("bob's game stream");
    let first = stream.next_value().unwrap().unwrap();
    assert_eq!(first["type"], "gameFull", "{first}");
    let full = GameFull::from_json(&first);
    assert_eq!(full.color_of("bob"), Some("black"), "{first}");
    assert_eq!(full.clock, Some((300_000, 3000)), "{first}");
    let mut st = full.state.clone();
    let mut sent = 0;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if !st.ongoing() {
            return (id, st);
        }
        assert!(Instant::now() < deadline, "the game did not end within 120 s: {st:?}");
        if full.turn_after(st.moves.len()) == "black" && st.moves.len() / 2 == sent {
            let mv = replies[sent];
            api.post(&format!("/api/board/game/{id}/move/{mv}"), None).expect("bob's move");
            sent += 1;
        }
        let v = stream.next_value().expect("bob's game stream").expect("the game stream ended before the end");
        if v["type"] == "gameState" {
            st = GameState::from_json(&v);
        }
    }
}

#[test]
fn play_online_plays_a_board_game_to_a_mate() {
    let data = common::fresh_dir("board-data");
    let server = Instance::start("board", &Store::Sqlite(data.clone()), &[]);
    let addr = server.addr;
    let base = format!("http://{addr}");
    let rt = rt();
    let ann = account_with_token(&rt, addr, "Ann", &["board:play"]);
    let bob = account_with_token(&rt, addr, "Bob", &["board:play"]);
    let opponent = {
        let (base, bob) = (base.clone(), bob.clone());
        std::thread::spawn(move || scripted_opponent(base, bob, vec!["e7e5", "b8c6", "g8f6"]))
    };
    let mut play = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["play", "--online", &base, "--token", &ann, "--lines"])
        .args(["--challenge", "Bob", "--variant", "chess", "--clock", "5+3", "--color", "white"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn chimera play --online");
    // Typed ahead: each line waits for White's turn; then the input ends.
    play.stdin.take().unwrap().write_all(b"e4\nBc4\nQh5\nQxf7#\n").unwrap();
    let stdout = play.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    let status = wait_exit(&mut play, Duration::from_secs(120));
    let text = reader.join().unwrap();
    let mut err = String::new();
    play.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(status.map(|s| s.success()), Some(true), "chimera play: {status:?}\n{text}\n{err}");
    assert!(text.contains("online: you play white against Bob"), "{text}");
    assert!(text.contains("plays Nf6."), "Bob's moves show as they come: {text}");
    assert!(text.trim_end().ends_with("Game over: 1-0 (checkmate)"), "{text}");
    let (id, last) = opponent.join().expect("the scripted opponent");
    assert_eq!(last.moves, ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]);
    assert_eq!((last.status.as_str(), last.winner.as_deref()), ("mate", Some("white")));
    let g = stored(&rt, addr, &id);
    assert_eq!((g["status"].as_str(), g["result"].as_str()), (Some("finished"), Some("1-0")), "{g}");
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

/// The chimera binary with `args`, its output read.
fn chimera(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chimera")).args(args).output().expect("run chimera")
}

/// `chimera worker-key add NAME` on the store of `data`: (id, key).
fn worker_key(data: &std::path::Path, name: &str) -> (String, String) {
    let out = chimera(&["worker-key", "--data", data.to_str().unwrap(), "add", name]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "worker-key add: {text} {}", String::from_utf8_lossy(&out.stderr));
    let mut lines = text.lines();
    let id = lines.next().and_then(|l| l.strip_prefix("worker ")).expect("worker ID").to_string();
    let key = lines.next().expect("the key").to_string();
    assert!(key.starts_with("chw_"), "{text}");
    (id, key)
}

/// Starts `chimera worker` with `key`; its stderr lines come through the
/// channel.
fn start_worker(addr: SocketAddr, key: &str, extra: &[&str]) -> (Child, std::sync::mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["worker", "--server", &format!("http://{addr}"), "--key", key, "--idle-secs", "1"])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn chimera worker");
    let (tx, rx) = std::sync::mpsc::channel();
    let err = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            eprintln!("[worker] {line}");
            let _ = tx.send(line);
        }
    });
    (child, rx)
}

/// The first line from a worker that contains `what`, within `limit`.
fn line_with(rx: &std::sync::mpsc::Receiver<String>, what: &str, limit: Duration) -> String {
    let deadline = Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) if l.contains(what) => return l,
            Ok(_) => {}
            Err(e) => panic!("no worker line with '{what}' within {limit:?}: {e}"),
        }
    }
}

/// An analysis worker killed with `kill -9` in the middle of a review job:
/// the job's time runs out, a second worker takes it and stores the
/// review, once; the first worker's key did no job.
#[test]
fn a_review_job_survives_its_worker_killed() {
    let data = common::fresh_dir("worker-data");
    let store = Store::Sqlite(data.clone());
    let (ida, ka) = worker_key(&data, "doomed");
    let (idb, kb) = worker_key(&data, "steady");
    // Every job is the workers' (no review by the server's own engine);
    // a job at 100,000 nodes a position takes a few seconds, and another
    // worker may take it 15 s after it was given out.
    let flags = ["--review-nodes", "100000", "--review-job-secs", "15", "--local-reviews", "off"];
    let server = Instance::start("workers", &store, &flags);
    let addr = server.addr;
    let rt = rt();
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5", "d7d5", "e4d5", "f6d5", "g5f7", "e8f7"];
    let id = rt.block_on(async {
        let (id, white, black) = common::friend_game(addr, None).await;
        let mut w = common::ws(addr, &id, &white).await;
        let mut b = common::ws(addr, &id, &black).await;
        for (i, m) in moves.iter().enumerate() {
            let ws = if i % 2 == 0 { &mut w } else { &mut b };
            common::send(ws, &json!({"t": "move", "uci": m, "ply": i})).await;
            let deadline = Instant::now() + Duration::from_secs(20);
            while common::stored_moves(addr, &id).await.len() < i + 1 {
                assert!(Instant::now() < deadline, "move {m} not stored");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        common::send(&mut w, &json!({"t": "resign"})).await;
        let deadline = Instant::now() + Duration::from_secs(20);
        while common::get_json(addr, &format!("/api/games/{id}")).await.1["status"] != "finished" {
            assert!(Instant::now() < deadline, "the resignation");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let (st, v, _) = common::call(addr, "POST", &format!("/api/games/{id}/review"), None, &Value::Null).await;
        assert_eq!(st, 202, "{v}");
        id
    });

    // The first worker takes the job and is killed in the middle of it.
    let (mut doomed, rx) = start_worker(addr, &ka, &[]);
    let taken = line_with(&rx, &format!("game {id}, 13 positions"), Duration::from_secs(30));
    let t = Instant::now();
    let _ = Command::new("kill").args(["-9", &doomed.id().to_string()]).status();
    let _ = doomed.wait();
    let review_path = format!("/api/games/{id}/review");
    let (st, v) = rt.block_on(common::get_json(addr, &review_path));
    assert_eq!((st, v["state"].as_str()), (202, Some("running")), "{v}");

    // The second finds the job taken until its time is out, then does it.
    let (mut steady, rx) = start_worker(addr, &kb, &["--max-jobs", "1"]);
    let stored = line_with(&rx, "stored", Duration::from_secs(120));
    assert!(t.elapsed() >= Duration::from_secs(10), "taken back only after the job's time ({:?})", t.elapsed());
    let lease_a = taken.split_whitespace().nth(1).unwrap().trim_end_matches(':');
    assert!(!stored.contains(lease_a), "a new lease for the second worker: {taken} / {stored}");
    assert!(wait_exit(&mut steady, Duration::from_secs(30)).is_some_and(|s| s.success()), "--max-jobs 1 ends it");

    let (st, v) = rt.block_on(common::get_json(addr, &review_path));
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["nodes"], 100_000);
    assert_eq!(v["plies"].as_array().unwrap().len(), 12);
    drop(server);
    // Once: the steady worker did one job, the doomed one none.
    let out = chimera(&["worker-key", "--data", data.to_str().unwrap(), "list"]);
    let list = String::from_utf8_lossy(&out.stdout).to_string();
    let done = |id: &str| -> String {
        let line = list.lines().find(|l| l.starts_with(id)).unwrap_or_else(|| panic!("{id} in {list}"));
        line.split_whitespace().nth(1).unwrap().to_string()
    };
    assert_eq!((done(&ida), done(&idb)), ("0".to_string(), "1".to_string()), "{list}");
}

/// `plies` moves of a chess game from a seeded random walk that avoids
/// ending the game (UCI).
fn walk(seed: u64, plies: usize) -> Vec<String> {
    use chimera_rules::{AnyPosition, Game, Position, RuleOptions, Variant};
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    'again: loop {
        let mut g = Game::new(AnyPosition::new(Variant::Chess, &RuleOptions::default()));
        let mut out = Vec::new();
        while out.len() < plies {
            let moves = g.position().legal_move_list();
            let playable: Vec<_> =
                moves.iter().copied().filter(|&m| g.position().after(m).outcome().is_none()).collect();
            if playable.is_empty() {
                continue 'again;
            }
            let m = playable[rng.gen_range(0..playable.len())];
            out.push(m.to_string());
            g.play(m).unwrap();
        }
        return out;
    }
}

/// A finished hot-seat game of `moves` (resigned at the end): its id.
async fn finished_game(addr: SocketAddr, moves: &[String]) -> String {
    let (st, g) = common::post_json(addr, "/api/games", &json!({"variant": "chess", "mode": "hotseat"})).await;
    assert_eq!(st, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut ws = common::ws(addr, &id, g["token"].as_str().unwrap()).await;
    for (i, m) in moves.iter().enumerate() {
        common::send(&mut ws, &json!({"t": "move", "uci": m, "ply": i})).await;
    }
    common::send(&mut ws, &json!({"t": "resign"})).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, v) = common::get_json(addr, &format!("/api/games/{id}")).await;
        if v["status"] == "finished" {
            assert_eq!(v["history"].as_array().map(Vec::len), Some(moves.len()), "{v}");
            return id;
        }
        assert!(Instant::now() < deadline, "game {id} did not end");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until every game of `ids` has its review.
async fn all_reviewed(addr: SocketAddr, ids: &[String]) {
    for id in ids {
        let path = format!("/api/games/{id}/review");
        loop {
            let (st, v) = common::get_json(addr, &path).await;
            if st == 200 {
                break;
            }
            assert_eq!(st, 202, "{v}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The review's measurements (docs/server.md, "Analysis workers"): the time
/// from asking to the stored review of an 80-ply game with the server's own
/// engine as its one worker, at the default node count, over 20 games (p50,
/// p95, max); then 20 queued 80-ply games drained by one `chimera worker`
/// and by two:
/// `cargo test --release -p chimera --test api_clients review_measurements -- --ignored --nocapture`.
#[test]
#[ignore]
fn review_measurements() {
    let rt = rt();
    let games: Vec<Vec<String>> = (0..60).map(|s| walk(s, 80)).collect();
    // One local worker: the server's own engine, one engine thread.
    let data = common::fresh_dir("review-time");
    let server = Instance::start("review-time", &Store::Sqlite(data), &["--engine-workers", "1"]);
    let addr = server.addr;
    let mut times: Vec<f64> = rt.block_on(async {
        let mut times = Vec::new();
        for g in &games[..20] {
            let id = finished_game(addr, g).await;
            let t = Instant::now();
            let (st, v, _) = common::call(addr, "POST", &format!("/api/games/{id}/review"), None, &Value::Null).await;
            assert_eq!(st, 202, "{v}");
            all_reviewed(addr, std::slice::from_ref(&id)).await;
            times.push(t.elapsed().as_secs_f64());
        }
        times
    });
    drop(server);
    times.sort_by(f64::total_cmp);
    println!(
        "80-ply review, local worker, 20,000 nodes: p50 {:.2} s, p95 {:.2} s, max {:.2} s over {} games",
        times[times.len() / 2],
        times[(times.len() * 95).div_ceil(100) - 1],
        times[times.len() - 1],
        times.len()
    );

    // Queued jobs drained by one worker, then by two.
    let data = common::fresh_dir("review-throughput");
    let store = Store::Sqlite(data.clone());
    let keys = [worker_key(&data, "one").1, worker_key(&data, "two").1];
    let server = Instance::start("review-throughput", &store, &["--local-reviews", "off"]);
    let addr = server.addr;
    for (n, batch) in [(1usize, &games[20..40]), (2, &games[40..60])] {
        let ids: Vec<String> = rt.block_on(async {
            let mut ids = Vec::new();
            for g in batch {
                let id = finished_game(addr, g).await;
                let (st, _, _) =
                    common::call(addr, "POST", &format!("/api/games/{id}/review"), None, &Value::Null).await;
                assert_eq!(st, 202);
                ids.push(id);
            }
            ids
        });
        let t = Instant::now();
        let mut workers: Vec<Child> = keys[..n].iter().map(|k| start_worker(addr, k, &[]).0).collect();
        rt.block_on(all_reviewed(addr, &ids));
        let secs = t.elapsed().as_secs_f64();
        for w in &mut workers {
            let _ = w.kill();
            let _ = w.wait();
        }
        println!("{n} worker(s): 20 queued 80-ply reviews in {secs:.1} s, {:.2} reviews a minute", 20.0 * 60.0 / secs);
    }
}
