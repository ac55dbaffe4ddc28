//! Helpers of the process-level server tests: `chimera serve` instances
//! spawned from the real binary, a tiny HTTP client and a WebSocket client
//! (as `crates/server/tests/common` has them), and a PostgreSQL cluster
//! (`pg`).
#![allow(dead_code)]

/// The HTTP and WebSocket basics, shared with the server crate's tests.
#[path = "../../../server/tests/common/http.rs"]
mod http;
pub mod pg;
pub use http::*;

use futures_util::StreamExt;
use serde_json::Value;
use std::io::BufRead;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

pub fn fresh_dir(tag: &str) -> PathBuf {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().subsec_nanos();
    let d = std::env::temp_dir().join(format!("chimera-{tag}-{}-{n}-{nanos:x}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Where an instance keeps its games.
#[derive(Clone, Debug)]
pub enum Store {
    /// `--data DIR`: the SQLite file (one instance per directory).
    Sqlite(PathBuf),
    /// `--database URL`.
    Url(String),
}

/// One `chimera serve` process on a loopback port the kernel picks.
pub struct Instance {
    pub addr: SocketAddr,
    child: Option<Child>,
    pub log: PathBuf,
    dir: PathBuf,
}

/// Limits for tests and the measurement: every client is 127.0.0.1.
pub const GENEROUS: &[&str] = &[
    "--max-connections",
    "5000",
    "--max-connections-per-client",
    "5000",
    "--seat-sockets-per-client",
    "10000",
    "--create-burst",
    "2000",
    "--create-every-secs",
    "1",
];

impl Instance {
    /// Starts `chimera serve --addr 127.0.0.1:0` on `store` with `extra`
    /// flags, and waits (60 s at most) for its "Chimera is serving at
    /// http://ADDR/" line.
    pub fn start(name: &str, store: &Store, extra: &[&str]) -> Instance {
        Instance::start_env(name, store, extra, &[])
    }

    /// [`Instance::start`] with environment variables set for the process
    /// (`CHIMERA_TEST_CLOCK`, say).
    pub fn start_env(name: &str, store: &Store, extra: &[&str], env: &[(&str, &str)]) -> Instance {
        Instance::start_full(name, store, "127.0.0.1:0", extra, env)
    }

    /// [`Instance::start`] on a given address (a restarted instance on the
    /// port of the one before).
    pub fn start_at(name: &str, store: &Store, addr: SocketAddr, extra: &[&str]) -> Instance {
        Instance::start_full(name, store, &addr.to_string(), extra, &[])
    }

    fn start_full(name: &str, store: &Store, addr: &str, extra: &[&str], env: &[(&str, &str)]) -> Instance {
        let dir = fresh_dir(&format!("inst-{name}"));
        let log = dir.join("stderr.log");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_chimera"));
        cmd.arg("serve").args(["--addr", addr]).args(GENEROUS).args(extra);
        cmd.env_remove("CHIMERA_DATABASE_URL");
        for (k, v) in env {
            cmd.env(k, v);
        }
        match store {
            Store::Sqlite(d) => {
                cmd.arg("--data").arg(d);
            }
            Store::Url(u) => {
                cmd.arg("--database").arg(u).arg("--data").arg(dir.join("data"));
            }
        }
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(std::fs::File::create(&log).expect("log file")));
        let mut child = cmd.spawn().expect("spawn chimera serve");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        // Reads stdout to its end, so the pipe never fills.
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("Chimera is serving at http://") {
                    let _ = tx.send(rest.trim_end_matches('/').to_string());
                }
            }
        });
        let addr = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(a) => a.parse().unwrap_or_else(|e| panic!("instance {name}: bad address {a:?}: {e}")),
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                let err = std::fs::read_to_string(&log).unwrap_or_default();
                let _ = std::fs::remove_dir_all(&dir);
                panic!("instance {name} exited or did not print its address within 60 s; stderr:\n{err}");
            }
        };
        Instance { addr, child: Some(child), log, dir }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().map(|c| c.id()).unwrap_or(0)
    }

    /// Stops the process as a service manager does: SIGTERM, then SIGKILL
    /// if it has not exited within 20 s; reaps it.
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = Command::new("kill").args(["-TERM", &c.id().to_string()]).status();
            let deadline = std::time::Instant::now() + Duration::from_secs(20);
            while std::time::Instant::now() < deadline {
                if let Ok(Some(_)) = c.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// SIGKILL (std's `Child::kill` on Unix), and reaps the process.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A friend game made on `addr` with White's seat, joined there as Black:
/// (id, white token, black token).
pub async fn friend_game(addr: SocketAddr, clock: Option<(f64, u32)>) -> (String, String, String) {
    let mut body = serde_json::json!({"variant": "chess", "mode": "friend", "color": "white"});
    if let Some((m, i)) = clock {
        body["clock"] = serde_json::json!({"minutes": m, "increment": i});
    }
    let (st, g) = post_json(addr, "/api/games", &body).await;
    assert_eq!(st, 200, "create a friend game: {g}");
    let id = g["id"].as_str().expect("id").to_string();
    let white = g["token"].as_str().expect("token").to_string();
    let invite = g["invite"].as_str().expect("invite").to_string();
    let (st, j) = post_json(addr, &format!("/api/games/{id}/join"), &serde_json::json!({"invite": invite})).await;
    assert_eq!(st, 200, "join: {j}");
    (id, white, j["token"].as_str().expect("token").to_string())
}

pub async fn try_ws(addr: SocketAddr, id: &str, token: &str) -> Result<Ws, String> {
    let url = format!("ws://{addr}/ws/{id}?token={token}");
    match tokio::time::timeout(Duration::from_secs(10), tokio_tungstenite::connect_async(url)).await {
        Ok(Ok((s, _))) => Ok(s),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("ws connect timed out".into()),
    }
}

pub async fn ws(addr: SocketAddr, id: &str, token: &str) -> Ws {
    try_ws(addr, id, token).await.unwrap_or_else(|e| panic!("ws connect to {addr}: {e}"))
}

/// The next JSON message, `None` when the socket closed or failed; panics
/// after `limit` without one.
pub async fn recv_within(ws: &mut Ws, limit: Duration) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Err(_) => panic!("no message within {limit:?}"),
            Ok(None) | Ok(Some(Err(_))) => return None,
            Ok(Some(Ok(Message::Text(t)))) => return Some(serde_json::from_str(&t).expect("json")),
            Ok(Some(Ok(Message::Close(_)))) => return None,
            Ok(Some(Ok(_))) => {}
        }
    }
}

/// A client's view of one game, kept from the `state` messages (whole or
/// delta: `history_from` + `history`).
#[derive(Default, Clone, Debug)]
pub struct View {
    pub moves: Vec<String>,
    pub turn: String,
    pub status: String,
    pub reason: String,
    pub result: String,
    pub legal: Vec<String>,
    pub thinking: bool,
}

impl View {
    /// Applies a `state` message; other messages are ignored.
    pub fn apply(&mut self, v: &Value) {
        if v["t"] != "state" {
            return;
        }
        let from = v["history_from"].as_u64().unwrap_or(0) as usize;
        self.moves.truncate(from);
        for h in v["history"].as_array().into_iter().flatten() {
            self.moves.push(h["uci"].as_str().unwrap_or("").to_string());
        }
        self.turn = v["turn"].as_str().unwrap_or("").to_string();
        self.status = v["status"].as_str().unwrap_or("").to_string();
        self.reason = v["reason"].as_str().unwrap_or("").to_string();
        self.result = v["result"].as_str().unwrap_or("").to_string();
        self.thinking = v["thinking"].as_bool().unwrap_or(false);
        self.legal = v["legal"]
            .as_object()
            .into_iter()
            .flat_map(|o| o.values())
            .flat_map(|a| a.as_array().into_iter().flatten())
            .filter_map(|m| m[0].as_str().map(str::to_string))
            .collect();
        self.legal.sort();
    }

    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    pub fn active(&self) -> bool {
        self.status == "active"
    }
}

/// A socket with its view of the game.
pub struct Client {
    pub ws: Ws,
    pub view: View,
    /// `{"t":"error"}` messages received, in order.
    pub errors: Vec<String>,
}

impl Client {
    /// Connects and reads the greeting's whole state.
    pub async fn connect(addr: SocketAddr, id: &str, token: &str) -> Client {
        let mut c = Client { ws: ws(addr, id, token).await, view: View::default(), errors: vec![] };
        c.wait(Duration::from_secs(20), |_| true).await;
        c
    }

    /// Reads until the view satisfies `pred` (at once if it already does,
    /// after the first state); panics after `limit` or when the socket closes.
    pub async fn wait(&mut self, limit: Duration, pred: impl Fn(&View) -> bool) -> &View {
        if !self.view.status.is_empty() && pred(&self.view) {
            return &self.view;
        }
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let v = recv_within(&mut self.ws, left).await.expect("socket open");
            self.note(&v);
            if v["t"] == "state" && pred(&self.view) {
                return &self.view;
            }
        }
    }

    pub fn note(&mut self, v: &Value) {
        if v["t"] == "error" {
            self.errors.push(v["message"].as_str().unwrap_or("").to_string());
        }
        self.view.apply(v);
    }

    pub async fn send_move(&mut self, uci: &str, ply: usize) {
        send(&mut self.ws, &serde_json::json!({"t": "move", "uci": uci, "ply": ply})).await;
    }

    /// Sends a ping and reads until its pong (20 s at most): every message
    /// the server queued for this socket before it is read.
    pub async fn sync(&mut self) {
        send(&mut self.ws, &serde_json::json!({"t": "ping"})).await;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let v = recv_within(&mut self.ws, left).await.expect("socket open");
            if v["t"] == "pong" {
                return;
            }
            self.note(&v);
        }
    }
}

/// The stored game's moves (UCI) through `GET /api/games/{id}`.
pub async fn stored_moves(addr: SocketAddr, id: &str) -> Vec<String> {
    let (st, mut g) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(st, 200, "GET /api/games/{id}: {g}");
    g["t"] = Value::from("state");
    let mut v = View::default();
    v.apply(&g);
    assert!(g["history"].is_array(), "a state with its history: {g}");
    v.moves
}

/// CPU time (user + system) of a process so far, from /proc/PID/stat.
pub fn cpu_secs(pid: u32) -> Option<f64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) in parentheses.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}
