//! Two `chimera serve` instances on one throwaway PostgreSQL cluster
//! (`common::pg`), driven through the HTTP and WebSocket API of
//! `docs/server.md` as browsers would: a game played across them, a race of
//! one seat's two sockets for the same move, and an instance killed mid-game
//! (running clock, engine to move) with the games finished on the other.
//!
//! `CHIMERA_SKIP_POSTGRES=1` skips them (each says so on stderr). The
//! measurement of `docs/deploy.md` (200 games over two instances) is
//! `scale_bench` below, run only with `CHIMERA_SCALE_BENCH=1`
//! (`scripts/bench-scale.sh`).

mod common;

use common::pg::PgCluster;
use common::{friend_game, get_json, post_json, stored_moves, Client, Instance, Store};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime")
}

/// Two instances on one fresh database. Fields drop in order: the
/// instances stop before the cluster does.
struct Pair {
    a: Instance,
    b: Instance,
    url: String,
    pg: PgCluster,
}

fn pair(what: &str, tag: &str, extra: &[&str]) -> Option<Pair> {
    let pg = PgCluster::start_or_skip(what)?;
    let url = pg.fresh_database(tag);
    let a = Instance::start("a", &Store::Url(url.clone()), extra);
    let b = Instance::start("b", &Store::Url(url.clone()), extra);
    Some(Pair { a, b, url, pg })
}

impl Pair {
    /// The moves table's rows of a game, straight from PostgreSQL:
    /// (rows, distinct plies, highest ply + 1).
    fn db_rows(&self, id: &str) -> (u64, u64, u64) {
        let out = self
            .pg
            .psql(
                &self.url,
                &format!(
                    "SELECT count(*), count(DISTINCT ply), coalesce(max(ply) + 1, 0) FROM moves WHERE game_id = '{id}'"
                ),
            )
            .expect("psql");
        let f: Vec<u64> = out.split('|').map(|x| x.trim().parse().expect("a count")).collect();
        (f[0], f[1], f[2])
    }

    fn db_moves(&self, id: &str) -> Vec<String> {
        let out = self
            .pg
            .psql(&self.url, &format!("SELECT uci FROM moves WHERE game_id = '{id}' ORDER BY ply"))
            .expect("psql");
        out.lines().map(str::to_string).filter(|l| !l.is_empty()).collect()
    }
}

/// (a) A friend game made on A, White's socket on A and Black's on B: each
/// sees the other's moves, to a checkmate; both instances and the database
/// hold the same moves.
#[test]
fn game_across_two_instances() {
    let Some(p) = pair("game_across_two_instances", "across", &[]) else { return };
    runtime().block_on(async {
        let (id, wt, bt) = friend_game(p.a.addr, Some((5.0, 3))).await;
        let mut w = Client::connect(p.a.addr, &id, &wt).await;
        let mut b = Client::connect(p.b.addr, &id, &bt).await;
        let line = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"];
        for (ply, m) in line.iter().enumerate() {
            let (mover, other) = if ply % 2 == 0 { (&mut w, &mut b) } else { (&mut b, &mut w) };
            mover.send_move(m, ply).await;
            // The mover's own instance, then the other one (fan-out).
            mover.wait(WAIT, |v| v.ply() > ply).await;
            other.wait(WAIT, |v| v.ply() > ply).await;
            assert_eq!(mover.view.moves[ply], *m);
            assert_eq!(other.view.moves[ply], *m, "the other instance shows the move");
        }
        for c in [&mut w, &mut b] {
            c.wait(WAIT, |v| !v.active()).await;
            assert_eq!(c.view.result, "1-0", "White mates: {:?}", c.view);
            assert!(c.errors.is_empty(), "no errors: {:?}", c.errors);
        }
        assert_eq!(stored_moves(p.a.addr, &id).await, line);
        assert_eq!(stored_moves(p.b.addr, &id).await, line);
        assert_eq!(p.db_moves(&id), line);
        let (st, pgn) = common::http(p.b.addr, "GET", &format!("/api/games/{id}/pgn"), None).await;
        assert_eq!(st, 200);
        assert!(pgn.contains("Qxf7#") && pgn.contains("1-0"), "{pgn}");
    });
}

/// (b) White's seat on two sockets, one on A and one on B, sends two
/// different legal moves for the same ply at once, round after round: one
/// is played, the other refused with an error; every ply is stored once.
#[test]
fn race_for_the_same_move() {
    let Some(p) = pair("race_for_the_same_move", "race", &[]) else { return };
    runtime().block_on(async {
        let (id, wt, bt) = friend_game(p.a.addr, None).await;
        let mut wa = Client::connect(p.a.addr, &id, &wt).await;
        let mut wb = Client::connect(p.b.addr, &id, &wt).await;
        let mut black = Client::connect(p.b.addr, &id, &bt).await;
        let mut rng = rand::rngs::StdRng::seed_from_u64(20);
        let (mut rounds, mut won_a, mut won_b) = (0, 0, 0);
        for _ in 0..30 {
            if !wa.view.active() {
                break;
            }
            let ply = wa.view.ply();
            assert_eq!(wa.view.turn, "w");
            let mut legal = wa.view.legal.clone();
            legal.shuffle(&mut rng);
            if legal.len() < 2 {
                break;
            }
            let (ma, mb) = (legal[0].clone(), legal[1].clone());
            let (ea, eb) = (wa.errors.len(), wb.errors.len());
            tokio::join!(wa.send_move(&ma, ply), wb.send_move(&mb, ply));
            wa.wait(WAIT, |v| v.ply() > ply).await;
            wb.wait(WAIT, |v| v.ply() > ply).await;
            // Every message sent before the pong is in: the loser's error too.
            tokio::join!(wa.sync(), wb.sync());
            let played = wa.view.moves[ply].clone();
            assert_eq!(wb.view.moves[ply], played, "both instances show one move");
            let (na, nb) = (wa.errors.len() - ea, wb.errors.len() - eb);
            assert!(played == ma || played == mb, "round {rounds}: {played} is neither {ma} nor {mb}");
            if played == ma {
                assert_eq!(
                    (na, nb),
                    (0, 1),
                    "round {rounds}: A's {ma} played, so B's {mb} is refused once: {:?}",
                    wb.errors
                );
                won_a += 1;
            } else {
                assert_eq!(
                    (na, nb),
                    (1, 0),
                    "round {rounds}: B's {mb} played, so A's {ma} is refused once: {:?}",
                    wa.errors
                );
                won_b += 1;
            }
            rounds += 1;
            black.wait(WAIT, |v| v.ply() > ply).await;
            if !black.view.active() {
                break;
            }
            let mut legal = black.view.legal.clone();
            legal.shuffle(&mut rng);
            black.send_move(&legal[0], ply + 1).await;
            for c in [&mut wa, &mut wb, &mut black] {
                c.wait(WAIT, |v| v.ply() > ply + 1).await;
            }
        }
        eprintln!("race: {rounds} rounds, A's move played {won_a} times, B's {won_b}");
        assert!(rounds >= 10, "only {rounds} rounds before the game ended");
        let seen = wa.view.moves.clone();
        assert_eq!(wb.view.moves, seen);
        assert_eq!(black.view.moves, seen);
        assert_eq!(stored_moves(p.a.addr, &id).await, seen);
        assert_eq!(stored_moves(p.b.addr, &id).await, seen);
        let n = seen.len() as u64;
        assert_eq!(p.db_rows(&id), (n, n, n), "each ply stored exactly once");
        assert_eq!(p.db_moves(&id), seen);
        assert!(black.errors.is_empty(), "{:?}", black.errors);
    });
}

/// (c) A is killed (SIGKILL) with two of its games live: a friend game
/// whose running clock will run out, and an engine game with the engine to
/// move. The clients reconnect to B; B takes both games over: the flag
/// falls, the engine replies, and every acknowledged move is stored once.
#[test]
fn instance_killed_mid_game() {
    let Some(mut p) = pair("instance_killed_mid_game", "kill", &[]) else { return };
    runtime().block_on(async {
        let (a, b) = (p.a.addr, p.b.addr);
        // The engine game, made on A: the human plays White.
        let (st, g) = post_json(
            a,
            "/api/games",
            &serde_json::json!({"variant": "chess", "mode": "engine", "level": 8, "color": "white"}),
        )
        .await;
        assert_eq!(st, 200, "{g}");
        let (eid, etok) = (g["id"].as_str().unwrap().to_string(), g["token"].as_str().unwrap().to_string());
        let mut human = Client::connect(a, &eid, &etok).await;
        human.send_move("e2e4", 0).await;
        human.wait(WAIT, |v| v.ply() >= 2).await;

        // The clock game (30 s, no increment), made on A; White on A, Black on B.
        let (cid, wt, bt) = friend_game(a, Some((0.5, 0))).await;
        let mut white = Client::connect(a, &cid, &wt).await;
        let mut black = Client::connect(b, &cid, &bt).await;
        white.send_move("e2e4", 0).await;
        black.wait(WAIT, |v| v.ply() >= 1).await;
        black.send_move("e7e5", 1).await;
        white.wait(WAIT, |v| v.ply() >= 2).await;
        // Both have moved: White's clock runs from here on.

        // The human's second move, acknowledged; the engine (a 1 s search)
        // is thinking on A when A dies.
        human.send_move("d2d4", 2).await;
        human.wait(WAIT, |v| v.ply() >= 3).await;
        p.a.kill();
        let acked_engine = human.view.moves.clone();
        assert_eq!(acked_engine.len(), 3, "the engine had not replied before the kill: {acked_engine:?}");
        assert!(white.view.active(), "the clock had not run out before the kill");
        let acked_clock = white.view.moves.clone();

        // The clients on A lose their sockets and reconnect to B.
        let mut human = Client::connect(b, &eid, &etok).await;
        let mut white = Client::connect(b, &cid, &wt).await;
        assert_eq!(&human.view.moves[..3], &acked_engine[..], "the acknowledged moves survived the kill");
        assert_eq!(white.view.moves, acked_clock);

        // B takes over the engine game: the engine replies, and again.
        let takeover = Duration::from_secs(120);
        human.wait(takeover, |v| v.ply() >= 4).await;
        let mut legal = human.view.legal.clone();
        legal.sort();
        human.send_move(&legal[0], 4).await;
        human.wait(takeover, |v| v.ply() >= 6).await;

        // ...and the clock game: White never moves again; the flag falls on B.
        for c in [&mut white, &mut black] {
            c.wait(takeover, |v| !v.active()).await;
            assert_eq!(c.view.result, "0-1", "White lost on time: {:?}", c.view);
            assert!(c.view.reason.contains("time"), "the reason is the clock: {:?}", c.view);
            assert_eq!(c.view.moves, acked_clock);
        }
        assert!(white.errors.is_empty() && black.errors.is_empty(), "{:?} {:?}", white.errors, black.errors);

        // 0 moves lost or doubled.
        let engine_moves = human.view.moves.clone();
        assert_eq!(stored_moves(b, &eid).await, engine_moves);
        assert_eq!(p.db_moves(&eid), engine_moves);
        let n = engine_moves.len() as u64;
        assert_eq!(p.db_rows(&eid), (n, n, n));
        assert_eq!(p.db_moves(&cid), acked_clock);
        let (st, g) = get_json(b, &format!("/api/games/{cid}")).await;
        assert_eq!(st, 200);
        assert_eq!(g["status"], "finished");
    });
}

mod bench {
    //! The measurement of `docs/deploy.md`: 200 live friend games with
    //! clocks over two instances on one PostgreSQL (fsync on), half of them
    //! with both players on one instance, half with the players on
    //! different ones; random legal moves after a think time; one instance
    //! SIGKILLed midway, its clients reconnecting to the other; at the end
    //! every move a client saw acknowledged is checked in the database.

    use super::*;
    use common::{cpu_secs, try_ws, View};
    use futures_util::{SinkExt, StreamExt};
    use rand::Rng;
    use std::collections::{BTreeMap, HashMap};
    use std::net::SocketAddr;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use tokio::time::Instant;
    use tokio_tungstenite::tungstenite::Message;

    fn env_num(name: &str, default: u64) -> u64 {
        std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
    }

    struct GameRec {
        id: String,
        cross: bool,
        /// ply -> when its move was last sent
        sends: Mutex<HashMap<usize, Instant>>,
        /// ply -> every move sent for it
        sent: Mutex<HashMap<usize, Vec<String>>>,
        /// ply -> the move a client saw in a state (acknowledged)
        acked: Mutex<BTreeMap<usize, String>>,
        /// an acknowledged ply later shown with another move
        changed: AtomicUsize,
    }

    #[derive(Clone, Copy)]
    enum Phase {
        Before,
        After,
        Straddle,
    }

    struct Sample {
        own: bool,
        cross: bool,
        phase: Phase,
        ms: f64,
    }

    struct Shared {
        kill_at: Instant,
        deadline: Instant,
        think: (u64, u64),
        samples: Mutex<Vec<Sample>>,
        errors: Mutex<Vec<String>>,
        reconnect_ms: Mutex<Vec<f64>>,
        failed: AtomicUsize,
    }

    fn phase(s: &Shared, sent: Instant, got: Instant) -> Phase {
        if got < s.kill_at {
            Phase::Before
        } else if sent >= s.kill_at {
            Phase::After
        } else {
            Phase::Straddle
        }
    }

    #[allow(clippy::too_many_arguments)]
    async fn player(
        s: Arc<Shared>,
        g: Arc<GameRec>,
        white: bool,
        token: String,
        mut addr: SocketAddr,
        mut other: SocketAddr,
        seed: u64,
    ) {
        let me = if white { "w" } else { "b" };
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut view = View::default();
        let mut lost_at: Option<Instant> = None;
        'outer: while Instant::now() < s.deadline {
            // Connect: this instance, else the other (100 tries, 10 s or so).
            let mut ws = None;
            for _ in 0..100 {
                match try_ws(addr, &g.id, &token).await {
                    Ok(w) => {
                        ws = Some(w);
                        break;
                    }
                    Err(_) => {
                        std::mem::swap(&mut addr, &mut other);
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
            }
            let Some(mut ws) = ws else {
                s.failed.fetch_add(1, Ordering::Relaxed);
                return;
            };
            let mut first = true;
            let mut action: Option<(Instant, usize)> = None;
            let mut sent_for: Option<usize> = None;
            loop {
                let wake = action.map(|a| a.0).unwrap_or(s.deadline).min(s.deadline);
                tokio::select! {
                    m = ws.next() => {
                        let text = match m {
                            Some(Ok(Message::Text(t))) => t,
                            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                            Some(Ok(_)) => continue,
                        };
                        let got = Instant::now();
                        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
                        if v["t"] == "error" {
                            s.errors.lock().unwrap().push(format!("{}: {}", g.id, v["message"]));
                            continue;
                        }
                        if v["t"] != "state" {
                            continue;
                        }
                        let before = view.ply();
                        view.apply(&v);
                        if first {
                            first = false;
                            if let Some(t) = lost_at.take() {
                                s.reconnect_ms.lock().unwrap().push((got - t).as_secs_f64() * 1000.0);
                            }
                        } else {
                            let sends = g.sends.lock().unwrap();
                            let sent = g.sent.lock().unwrap();
                            for p in before..view.ply() {
                                // Timed only when the move shown is the one
                                // last sent for that ply (a re-sent move
                                // refused as stale times nothing).
                                let last = sent.get(&p).and_then(|v| v.last());
                                if last != Some(&view.moves[p]) {
                                    continue;
                                }
                                if let Some(&t) = sends.get(&p) {
                                    let own = (p % 2 == 0) == white;
                                    let ms = (got - t).as_secs_f64() * 1000.0;
                                    let ph = phase(&s, t, got);
                                    s.samples.lock().unwrap().push(Sample { own, cross: g.cross, phase: ph, ms });
                                }
                            }
                        }
                        {
                            let mut acked = g.acked.lock().unwrap();
                            for (p, m) in view.moves.iter().enumerate() {
                                match acked.get(&p) {
                                    Some(old) if old != m => {
                                        g.changed.fetch_add(1, Ordering::Relaxed);
                                    }
                                    Some(_) => {}
                                    None => {
                                        acked.insert(p, m.clone());
                                    }
                                }
                            }
                        }
                        let p = view.ply();
                        if view.active() && view.turn == me && sent_for != Some(p) && action.map(|a| a.1) != Some(p) {
                            let think = rng.gen_range(s.think.0..=s.think.1);
                            action = Some((Instant::now() + Duration::from_millis(think), p));
                        }
                    }
                    _ = tokio::time::sleep_until(wake) => {
                        if Instant::now() >= s.deadline {
                            break 'outer;
                        }
                        let Some((_, p)) = action.take() else { continue };
                        if !(view.active() && view.turn == me && view.ply() == p) || view.legal.is_empty() {
                            continue;
                        }
                        let uci = view.legal[rng.gen_range(0..view.legal.len())].clone();
                        g.sent.lock().unwrap().entry(p).or_default().push(uci.clone());
                        g.sends.lock().unwrap().insert(p, Instant::now());
                        sent_for = Some(p);
                        let msg = serde_json::json!({"t": "move", "uci": uci, "ply": p}).to_string();
                        if ws.send(Message::Text(msg.into())).await.is_err() {
                            break;
                        }
                    }
                }
            }
            // The socket is gone (its instance died): go to the other one.
            lost_at = Some(Instant::now());
            std::mem::swap(&mut addr, &mut other);
        }
    }

    fn pct(v: &mut [f64], q: f64) -> f64 {
        if v.is_empty() {
            return f64::NAN;
        }
        v.sort_by(|a, b| a.total_cmp(b));
        let i = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
        v[i]
    }

    fn row(name: &str, mut v: Vec<f64>) -> String {
        let n = v.len();
        let max = v.iter().cloned().fold(f64::NAN, f64::max);
        format!(
            "| {name} | {n} | {:.1} | {:.1} | {:.1} | {:.1} |",
            pct(&mut v, 0.50),
            pct(&mut v, 0.95),
            pct(&mut v, 0.99),
            max
        )
    }

    /// CPU seconds of the postmaster and all its children.
    fn postgres_cpu(pg: &PgCluster) -> f64 {
        let Some(pm) = pg.postmaster_pid() else { return f64::NAN };
        let mut total = cpu_secs(pm).unwrap_or(0.0);
        for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
            let Some(r) = stat.rfind(')') else { continue };
            let ppid = stat[r + 2..].split_whitespace().nth(1).and_then(|x| x.parse::<u32>().ok());
            if ppid == Some(pm) {
                total += cpu_secs(pid).unwrap_or(0.0);
            }
        }
        total
    }

    /// (commits, rows inserted + updated + deleted, WAL records, WAL bytes).
    fn db_counters(pg: &PgCluster, url: &str) -> [f64; 4] {
        let out = pg
            .psql(
                url,
                "SELECT d.xact_commit, d.tup_inserted + d.tup_updated + d.tup_deleted, w.wal_records, w.wal_bytes \
                 FROM pg_stat_database d, pg_stat_wal w WHERE d.datname = current_database()",
            )
            .unwrap_or_default();
        let f: Vec<f64> = out.split('|').map(|x| x.trim().parse().unwrap_or(f64::NAN)).collect();
        [0, 1, 2, 3].map(|i| f.get(i).copied().unwrap_or(f64::NAN))
    }

    fn loadavg() -> String {
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub fn run() {
        let games = env_num("CHIMERA_SCALE_GAMES", 200) as usize;
        let secs = env_num("CHIMERA_SCALE_SECS", 120);
        let think = (env_num("CHIMERA_SCALE_THINK_MIN_MS", 500), env_num("CHIMERA_SCALE_THINK_MAX_MS", 1500));
        let pg = PgCluster::start(true);
        let url = pg.fresh_database("scale");
        let extra = ["--max-live-games", "5000"];
        let a = Instance::start("a", &Store::Url(url.clone()), &extra);
        let mut b = Instance::start("b", &Store::Url(url.clone()), &extra);
        let mut report = vec![];
        let rt = runtime();
        let (lost, unsent, changed) = rt.block_on(async {
            // Game i: even = same instance (A for i % 4 == 0, B for 2),
            // odd = cross (White on A for i % 4 == 1, on B for 3). Each game
            // is made on its White's instance.
            let mut seats = vec![];
            for i in 0..games {
                let cross = i % 2 == 1;
                let (wa, ba) = match i % 4 {
                    0 => (a.addr, a.addr),
                    1 => (a.addr, b.addr),
                    2 => (b.addr, b.addr),
                    _ => (b.addr, a.addr),
                };
                let (id, wt, bt) = friend_game(wa, Some((5.0, 3))).await;
                let rec = Arc::new(GameRec {
                    id,
                    cross,
                    sends: Mutex::default(),
                    sent: Mutex::default(),
                    acked: Mutex::default(),
                    changed: AtomicUsize::new(0),
                });
                seats.push((rec, wt, bt, wa, ba));
            }
            let start = Instant::now();
            let shared = Arc::new(Shared {
                kill_at: start + Duration::from_secs(secs / 2),
                deadline: start + Duration::from_secs(secs),
                think,
                samples: Mutex::default(),
                errors: Mutex::default(),
                reconnect_ms: Mutex::default(),
                failed: AtomicUsize::new(0),
            });
            let mut tasks = vec![];
            for (i, (rec, wt, bt, wa, ba)) in seats.iter().enumerate() {
                let other = |x: SocketAddr| if x == a.addr { b.addr } else { a.addr };
                tasks.push(tokio::spawn(player(shared.clone(), rec.clone(), true, wt.clone(), *wa, other(*wa), 2 * i as u64)));
                tasks.push(tokio::spawn(player(
                    shared.clone(),
                    rec.clone(),
                    false,
                    bt.clone(),
                    *ba,
                    other(*ba),
                    2 * i as u64 + 1,
                )));
            }
            // Counters from 5 s in (every socket connected) to the kill.
            tokio::time::sleep_until(start + Duration::from_secs(5)).await;
            let load0 = loadavg();
            let (t0, c0) = (Instant::now(), [cpu_secs(a.pid()), cpu_secs(b.pid()), cpu_secs(std::process::id())]);
            let (pg0, db0) = (postgres_cpu(&pg), db_counters(&pg, &url));
            let n0 = shared.samples.lock().unwrap().iter().filter(|s| s.own).count();
            tokio::time::sleep_until(shared.kill_at).await;
            let (t1, c1) = (Instant::now(), [cpu_secs(a.pid()), cpu_secs(b.pid()), cpu_secs(std::process::id())]);
            let (pg1, db1) = (postgres_cpu(&pg), db_counters(&pg, &url));
            let n1 = shared.samples.lock().unwrap().iter().filter(|s| s.own).count();
            let load1 = loadavg();
            b.kill();
            for t in tasks {
                let _ = tokio::time::timeout(Duration::from_secs(60), t).await;
            }
            let dt = (t1 - t0).as_secs_f64();
            let db2 = db_counters(&pg, &url);
            let load2 = loadavg();

            // The check: every acknowledged move stored, nothing stored twice
            // or unsent.
            let rows = pg.psql(&url, "SELECT game_id, ply, uci FROM moves ORDER BY game_id, ply").expect("psql");
            let mut stored: HashMap<String, BTreeMap<usize, String>> = HashMap::new();
            let mut nrows = 0;
            for l in rows.lines().filter(|l| !l.is_empty()) {
                let f: Vec<&str> = l.split('|').collect();
                stored.entry(f[0].to_string()).or_default().insert(f[1].parse().unwrap(), f[2].to_string());
                nrows += 1;
            }
            let (mut acked_total, mut lost, mut unsent, mut changed, mut resent) = (0, 0, 0, 0, 0);
            for (rec, ..) in &seats {
                let st = stored.get(&rec.id).cloned().unwrap_or_default();
                let acked = rec.acked.lock().unwrap();
                acked_total += acked.len();
                lost += acked.iter().filter(|(p, m)| st.get(p) != Some(m)).count();
                let sent = rec.sent.lock().unwrap();
                resent += sent.values().map(|v| v.len() - 1).sum::<usize>();
                unsent += st.iter().filter(|(p, m)| !sent.get(p).is_some_and(|v| v.contains(m))).count();
                // A stored game's plies run 0..n without a gap.
                if st.keys().enumerate().any(|(i, p)| i != *p) {
                    unsent += 1;
                }
                changed += rec.changed.load(Ordering::Relaxed);
            }
            let finished = pg
                .psql(&url, "SELECT count(*) FROM games WHERE status <> 'active'")
                .ok()
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0);
            let samples = std::mem::take(&mut *shared.samples.lock().unwrap());
            let pick = |own: bool, cross: Option<bool>, ph: fn(Phase) -> bool| -> Vec<f64> {
                samples
                    .iter()
                    .filter(|s| s.own == own && cross.is_none_or(|c| s.cross == c) && ph(s.phase))
                    .map(|s| s.ms)
                    .collect()
            };
            let before = |p: Phase| matches!(p, Phase::Before);
            let after = |p: Phase| matches!(p, Phase::After);
            let straddle = |p: Phase| matches!(p, Phase::Straddle);
            let moves_total = samples.iter().filter(|s| s.own).count();
            let mut recon = std::mem::take(&mut *shared.reconnect_ms.lock().unwrap());
            let errors = shared.errors.lock().unwrap().clone();
            let cpu = |i: usize| match (c0[i], c1[i]) {
                (Some(x), Some(y)) => format!("{:.0}%", (y - x) / dt * 100.0),
                _ => "?".into(),
            };
            let cpus = std::fs::read_to_string("/proc/cpuinfo")
                .unwrap_or_default()
                .lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
                .unwrap_or_default();
            report.push(format!(
                "{games} friend games (5+3 clocks), {} same-instance and {} cross-instance, think {}-{} ms, {secs} s; instance B SIGKILLed at {} s",
                games.div_ceil(2),
                games / 2,
                think.0,
                think.1,
                secs / 2
            ));
            report.push(format!(
                "machine: {} cores ({cpus}); load average at 5 s: {load0}, at the kill: {load1}, at the end: {load2}",
                std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0)
            ));
            report.push(String::new());
            report.push("| move round trip (ms) | moves | p50 | p95 | p99 | max |".into());
            report.push("| --- | --- | --- | --- | --- | --- |".into());
            report.push(row("same instance, to the mover's socket", pick(true, Some(false), before)));
            report.push(row("same instance, to the opponent's socket", pick(false, Some(false), before)));
            report.push(row("cross instance, to the mover's socket", pick(true, Some(true), before)));
            report.push(row("cross instance, to the opponent's socket", pick(false, Some(true), before)));
            report.push(row("after the kill (all on A), to the mover's socket", pick(true, None, after)));
            report.push(row("after the kill (all on A), to the opponent's socket", pick(false, None, after)));
            report.push(row("sent before the kill, shown after it (opponent's socket)", pick(false, None, straddle)));
            report.push(String::new());
            report.push(format!(
                "moves: {moves_total} timed on their movers' sockets ({:.0}/s from 5 s to the kill); {resent} sent again after a reconnection (the first send went to the dying instance unanswered); {} sockets reconnected to A (from losing the socket to the first state from A: p50 {:.0} ms, max {:.0} ms); {} players could not reconnect",
                (n1 - n0) as f64 / dt,
                recon.len(),
                pct(&mut recon, 0.5),
                recon.iter().cloned().fold(f64::NAN, f64::max),
                shared.failed.load(Ordering::Relaxed)
            ));
            report.push(format!(
                "check: {acked_total} moves acknowledged (seen in a state by a client), {lost} lost, {unsent} stored that no client sent for that ply (doubled), {changed} acknowledged then shown changed; {nrows} rows in moves; {finished} games finished by the end"
            ));
            report.push(format!(
                "errors received: {}{}",
                errors.len(),
                errors.iter().take(5).map(|e| format!("\n  {e}")).collect::<String>()
            ));
            let rate = |i: usize| (db1[i] - db0[i]) / dt;
            let per_move = (n1 - n0) as f64;
            let cpu_ms = |x: Option<f64>, y: Option<f64>| match (x, y) {
                (Some(x), Some(y)) => format!("{:.2}", (y - x) * 1000.0 / per_move),
                _ => "?".into(),
            };
            report.push(format!(
                "per move, 5 s to the kill: {:.2} commits, {:.2} rows written, {:.0} bytes of WAL; CPU ms: instances A+B {} + {}, PostgreSQL {:.2}",
                (db1[0] - db0[0]) / per_move,
                (db1[1] - db0[1]) / per_move,
                (db1[3] - db0[3]) / per_move,
                cpu_ms(c0[0], c1[0]),
                cpu_ms(c0[1], c1[1]),
                (pg1 - pg0) * 1000.0 / per_move
            ));
            report.push(format!(
                "database, 5 s to the kill: {:.0} commits/s, {:.0} rows written/s, {:.0} WAL records/s, {:.2} MB WAL/s; whole run {:.0} commits",
                rate(0),
                rate(1),
                rate(2),
                rate(3) / 1e6,
                db2[0]
            ));
            report.push(format!(
                "CPU, 5 s to the kill (% of one core): instance A {}, instance B {}, PostgreSQL (all its processes) {:.0}%, the client (this test) {}",
                cpu(0),
                cpu(1),
                (pg1 - pg0) / dt * 100.0,
                cpu(2)
            ));
            (lost, unsent, changed)
        });
        for (name, inst) in [("A", &a), ("B", &b)] {
            let log = inst.stderr();
            let lines: Vec<&str> = log.lines().collect();
            report.push(format!(
                "instance {name} stderr: {} lines{}",
                lines.len(),
                lines.iter().take(5).map(|l| format!("\n  {l}")).collect::<String>()
            ));
        }
        let text = report.join("\n");
        eprintln!("{text}");
        if let Ok(path) = std::env::var("CHIMERA_SCALE_REPORT") {
            std::fs::write(&path, format!("{text}\n")).expect("write the report");
        }
        assert_eq!(lost, 0, "moves lost");
        assert_eq!(unsent, 0, "moves doubled");
        assert_eq!(changed, 0, "acknowledged moves changed");
        drop(a);
        drop(b);
    }
    /// Resident set size and its peak (VmRSS, VmHWM) in MB, from /proc.
    fn rss_mb(pid: u32) -> (f64, f64) {
        let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let kb = |key: &str| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<f64>().ok())
                .map_or(f64::NAN, |k| k / 1024.0)
        };
        (kb("VmRSS:"), kb("VmHWM:"))
    }

    /// The one-instance measurement of `docs/server.md` ("Tests", Load): `games`
    /// friend games with 5+3 clocks on one `chimera serve` on SQLite, both
    /// seats driven over their own sockets, each player thinking a uniform
    /// random time (mean 5 s by default: 2,000 games make about 400 moves a
    /// second), random legal moves; every acknowledged move checked through
    /// the API at the end.
    pub fn run_blitz() {
        let games = env_num("CHIMERA_BLITZ_GAMES", 2000) as usize;
        let secs = env_num("CHIMERA_BLITZ_SECS", 120);
        let think = (env_num("CHIMERA_BLITZ_THINK_MIN_MS", 0), env_num("CHIMERA_BLITZ_THINK_MAX_MS", 10_000));
        let warm = Duration::from_secs(secs.min(20) / 2 + secs / 6);
        let data = common::fresh_dir("blitz-data");
        let live = (games + 100).to_string();
        let inst = Instance::start("blitz", &Store::Sqlite(data.clone()), &["--max-live-games", &live]);
        let a = inst.addr;
        let (rss_idle, _) = rss_mb(inst.pid());
        let mut report = vec![];
        let rt = runtime();
        let (lost, unsent, failed) = rt.block_on(async {
            let created = Instant::now();
            let mut seats = vec![];
            for _ in 0..games {
                let (id, wt, bt) = friend_game(a, Some((5.0, 3))).await;
                let rec = Arc::new(GameRec {
                    id,
                    cross: false,
                    sends: Mutex::default(),
                    sent: Mutex::default(),
                    acked: Mutex::default(),
                    changed: AtomicUsize::new(0),
                });
                seats.push((rec, wt, bt));
            }
            let created = created.elapsed();
            let start = Instant::now();
            let deadline = start + Duration::from_secs(secs);
            let shared = Arc::new(Shared {
                // Never: no instance is killed here, every sample is "before".
                kill_at: deadline + Duration::from_secs(3600),
                deadline,
                think,
                samples: Mutex::default(),
                errors: Mutex::default(),
                reconnect_ms: Mutex::default(),
                failed: AtomicUsize::new(0),
            });
            let mut tasks = vec![];
            for (i, (rec, wt, bt)) in seats.iter().enumerate() {
                tasks.push(tokio::spawn(player(shared.clone(), rec.clone(), true, wt.clone(), a, a, 2 * i as u64)));
                tasks.push(tokio::spawn(player(shared.clone(), rec.clone(), false, bt.clone(), a, a, 2 * i as u64 + 1)));
            }
            // Steady state: from `warm` in (every socket connected, the
            // first think times spread) to the deadline.
            tokio::time::sleep_until(start + warm).await;
            let load0 = loadavg();
            let (t0, c0, k0) = (Instant::now(), cpu_secs(inst.pid()), cpu_secs(std::process::id()));
            let n0 = shared.samples.lock().unwrap().len();
            tokio::time::sleep_until(deadline - Duration::from_millis(500)).await;
            let (t1, c1, k1) = (Instant::now(), cpu_secs(inst.pid()), cpu_secs(std::process::id()));
            let (rss, hwm) = rss_mb(inst.pid());
            let load1 = loadavg();
            let (_, health) = get_json(a, "/api/health").await;
            let n1 = shared.samples.lock().unwrap().len();
            for t in tasks {
                let _ = tokio::time::timeout(Duration::from_secs(60), t).await;
            }
            let dt = (t1 - t0).as_secs_f64();
            // Every acknowledged move is stored, and nothing no client sent.
            let (mut acked_total, mut lost, mut unsent, mut plies) = (0, 0, 0, 0);
            for (rec, ..) in &seats {
                let st = stored_moves(a, &rec.id).await;
                plies += st.len();
                let acked = rec.acked.lock().unwrap();
                acked_total += acked.len();
                lost += acked.iter().filter(|(p, m)| st.get(**p) != Some(*m)).count();
                let sent = rec.sent.lock().unwrap();
                unsent += st.iter().enumerate().filter(|(p, m)| !sent.get(p).is_some_and(|v| v.contains(m))).count();
            }
            let samples = std::mem::take(&mut *shared.samples.lock().unwrap());
            let steady = |own: bool| -> Vec<f64> {
                samples.iter().skip(n0).take(n1 - n0).filter(|s| s.own == own).map(|s| s.ms).collect()
            };
            let all = |own: bool| -> Vec<f64> { samples.iter().filter(|s| s.own == own).map(|s| s.ms).collect() };
            let moves = samples.iter().skip(n0).take(n1 - n0).filter(|s| s.own).count();
            let errors = shared.errors.lock().unwrap().clone();
            let pct_of = |x: Option<f64>, y: Option<f64>| match (x, y) {
                (Some(x), Some(y)) => format!("{:.0}%", (y - x) / dt * 100.0),
                _ => "?".into(),
            };
            let cpus = std::fs::read_to_string("/proc/cpuinfo")
                .unwrap_or_default()
                .lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
                .unwrap_or_default();
            report.push(format!(
                "{games} friend games (5+3 clocks) on one instance (SQLite), {} sockets, think {}-{} ms uniform, {secs} s; the steady state from {} s on; {games} games created (and joined) in {:.1} s",
                2 * games,
                think.0,
                think.1,
                warm.as_secs(),
                created.as_secs_f64()
            ));
            report.push(format!(
                "machine: {} cores ({cpus}); load average at the steady state's start: {load0}, at its end: {load1}",
                std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0)
            ));
            report.push(String::new());
            report.push("| move round trip (ms) | moves | p50 | p95 | p99 | max |".into());
            report.push("| --- | --- | --- | --- | --- | --- |".into());
            report.push(row("steady state, to the mover's socket", steady(true)));
            report.push(row("steady state, to the opponent's socket", steady(false)));
            report.push(row("whole run (ramp included), to the mover's socket", all(true)));
            report.push(String::new());
            report.push(format!(
                "moves: {moves} in the steady state ({:.0}/s); CPU (% of one core) in it: the server {}, the client (this test) {}; the server's memory at its end: RSS {rss:.0} MB (peak {hwm:.0} MB; {rss_idle:.0} MB idle at start, so {:.1} KB a socket with its game); live games then: {}",
                moves as f64 / dt,
                pct_of(c0, c1),
                pct_of(k0, k1),
                (rss - rss_idle) * 1024.0 / (2 * games) as f64,
                health["live_games"]
            ));
            report.push(format!(
                "check: {acked_total} moves acknowledged, {lost} lost, {unsent} stored that no client sent for that ply; {plies} plies stored; {} players could not connect",
                shared.failed.load(Ordering::Relaxed)
            ));
            report.push(format!(
                "errors received: {}{}",
                errors.len(),
                errors.iter().take(5).map(|e| format!("\n  {e}")).collect::<String>()
            ));
            (lost, unsent, shared.failed.load(Ordering::Relaxed))
        });
        let log = inst.stderr();
        let lines: Vec<&str> = log.lines().collect();
        report.push(format!(
            "server stderr: {} lines{}",
            lines.len(),
            lines.iter().take(5).map(|l| format!("\n  {l}")).collect::<String>()
        ));
        let text = report.join("\n");
        eprintln!("{text}");
        if let Ok(path) = std::env::var("CHIMERA_BLITZ_REPORT") {
            std::fs::write(&path, format!("{text}\n")).expect("write the report");
        }
        drop(inst);
        let _ = std::fs::remove_dir_all(&data);
        assert_eq!(lost, 0, "moves lost");
        assert_eq!(unsent, 0, "moves doubled");
        assert_eq!(failed, 0, "players who could not connect");
    }
}

/// The measurement (minutes long): `CHIMERA_SCALE_BENCH=1`, or
/// `scripts/bench-scale.sh`. Not a test of speed: it asserts only that no
/// move was lost or doubled; the figures go to `docs/deploy.md`.
#[test]
fn scale_bench() {
    if std::env::var("CHIMERA_SCALE_BENCH").as_deref() != Ok("1") {
        eprintln!(
            "scale_bench: not run (a measurement of a few minutes): CHIMERA_SCALE_BENCH=1 or scripts/bench-scale.sh"
        );
        return;
    }
    bench::run();
}

/// The one-instance measurement (minutes long): `CHIMERA_BLITZ_BENCH=1`,
/// or `scripts/bench-blitz.sh`: 2,000 blitz games on SQLite. It asserts
/// only that no move was lost or doubled; the figures go to
/// `docs/server.md`.
#[test]
fn blitz_bench() {
    if std::env::var("CHIMERA_BLITZ_BENCH").as_deref() != Ok("1") {
        eprintln!(
            "blitz_bench: not run (a measurement of a few minutes): CHIMERA_BLITZ_BENCH=1 or scripts/bench-blitz.sh"
        );
        return;
    }
    bench::run_blitz();
}
