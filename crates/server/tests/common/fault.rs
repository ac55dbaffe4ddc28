//! What the fault suite's files share (`fault.rs`, `fault_net.rs`,
//! `fault_play.rs`): the short/full switch, the report, a server with given
//! limits, and a server in a child process to `kill -9`.

use super::http_from;
use chimera_server::{Config, Server};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The full version (`CHIMERA_FAULT_FULL=1`, `scripts/fault-suite.sh`).
pub fn full() -> bool {
    std::env::var("CHIMERA_FAULT_FULL").is_ok_and(|v| v == "1")
}

/// One line of the report: printed and appended to target/fault-report.txt.
pub fn report(line: &str) {
    println!("FAULT: {line}");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/fault-report.txt");
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
        use std::io::Write;
        let _ = writeln!(f, "{} {line}", if full() { "full" } else { "short" });
    }
}

/// A server with `cfg` on a fresh data directory.
pub async fn start_with(tag: &str, cfg: Config) -> (Server, PathBuf) {
    let dir = super::fresh_dir(tag);
    (Server::start_with("127.0.0.1:0", &dir, cfg).await.expect("server starts"), dir)
}

/// A server in a child process: this test binary run again with only the
/// ignored test `test` and `env=DIR`, which calls [`serve_child`]; it
/// writes its address to DIR/addr and serves until killed.
pub struct Child {
    pub proc: std::process::Child,
    pub addr: SocketAddr,
}

pub fn spawn_child(dir: &Path, test: &str, env: &str) -> Child {
    let _ = std::fs::remove_file(dir.join("addr"));
    std::fs::create_dir_all(dir).unwrap();
    let mut proc = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env(env, dir)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("child starts");
    for _ in 0..400 {
        if let Ok(s) = std::fs::read_to_string(dir.join("addr")) {
            if let Ok(addr) = s.trim().parse() {
                return Child { proc, addr };
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = proc.kill();
    let _ = proc.wait();
    panic!("the child server did not start in 20 s");
}

impl Child {
    pub fn kill9(mut self) {
        let _ = self.proc.kill(); // SIGKILL on Unix
        let _ = self.proc.wait();
    }

    pub fn rss_kib(&self) -> u64 {
        let s = std::fs::read_to_string(format!("/proc/{}/status", self.proc.id())).unwrap_or_default();
        s.lines()
            .find(|l| l.starts_with("VmRSS:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }
}

/// The child's side of [`spawn_child`]: when `env` names a directory,
/// serves there with `cfg` until killed (bounded by `serve_for`).
pub fn serve_child(env: &str, cfg: Config, serve_for: Duration) {
    let Ok(dir) = std::env::var(env) else { return };
    let dir = PathBuf::from(dir);
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let server = Server::start_with("127.0.0.1:0", &dir, cfg).await.expect("child server");
        std::fs::write(dir.join("addr.tmp"), server.addr.to_string()).unwrap();
        std::fs::rename(dir.join("addr.tmp"), dir.join("addr")).unwrap();
        tokio::time::sleep(serve_for).await;
    });
}

/// `POST /api/games` with `body` from the client address `from`.
pub async fn create(a: SocketAddr, from: std::net::Ipv4Addr, body: Value) -> (u16, Value) {
    http_from(a, from, "POST", "/api/games", "Content-Type: application/json\r\n", &body.to_string()).await
}

/// True for the one error shape, `{"error": "..."}` with a message.
pub fn is_json_error(v: &Value) -> bool {
    v["error"].as_str().is_some_and(|e| !e.is_empty())
}

/// The frames (opcode, payload) of a server's unmasked WebSocket stream.
pub fn ws_frames(mut b: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut out = Vec::new();
    while b.len() >= 2 {
        let op = b[0] & 0x0f;
        let (len, at) = match b[1] & 0x7f {
            126 if b.len() >= 4 => (u16::from_be_bytes([b[2], b[3]]) as usize, 4),
            127 if b.len() >= 10 => (u64::from_be_bytes(b[2..10].try_into().unwrap()) as usize, 10),
            n if n < 126 => (n as usize, 2),
            _ => break,
        };
        if b.len() < at + len {
            break;
        }
        out.push((op, b[at..at + len].to_vec()));
        b = &b[at + len..];
    }
    out
}
