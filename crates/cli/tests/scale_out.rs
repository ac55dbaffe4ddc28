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
