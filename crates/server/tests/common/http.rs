//! The HTTP and WebSocket basics of the server tests (this crate's and the
//! process-level ones of crates/cli): one HTTP/1.1 request on its own
//! connection, JSON in and out, a WebSocket's type and send.

use futures_util::SinkExt;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// One HTTP/1.1 request; returns (status, body). 20 s at most.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut s = tokio::time::timeout(Duration::from_secs(10), TcpStream::connect(addr))
        .await
        .expect("connect in time")
        .expect("connect");
    let b = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{b}",
        b.len()
    );
    s.write_all(req.as_bytes()).await.expect("write");
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut buf))
        .await
        .expect("response in time")
        .expect("read");
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").expect("http head");
    let status: u16 = head.split_whitespace().nth(1).expect("status").parse().expect("status code");
    let body =
        if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(rest) } else { rest.to_string() };
    (status, body)
}

pub fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n + 2 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

pub async fn get_json(addr: SocketAddr, path: &str) -> (u16, Value) {
    let (st, b) = http(addr, "GET", path, None).await;
    (st, serde_json::from_str(&b).unwrap_or(Value::String(b)))
}

pub async fn post_json(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let (st, b) = http(addr, "POST", path, Some(&body.to_string())).await;
    (st, serde_json::from_str(&b).unwrap_or(Value::String(b)))
}

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

pub async fn send(ws: &mut Ws, v: &Value) {
    ws.send(Message::Text(v.to_string().into())).await.expect("ws send");
}

/// The password of the tests' accounts.
pub const PW: &str = "a fine long passphrase";

/// A JSON request with the session cookie `c` (`chimera_session`):
/// (status, body, the session cookie the answer sets, or "").
pub async fn call(a: SocketAddr, method: &str, path: &str, c: Option<&str>, body: &Value) -> (u16, Value, String) {
    let mut s = TcpStream::connect(a).await.unwrap();
    let body = if body.is_null() { String::new() } else { body.to_string() };
    let cookie = c.map(|c| format!("Cookie: chimera_session={c}\r\n")).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\nContent-Type: application/json\r\n{cookie}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (st, head, rest) = exchange(&mut s, &req).await;
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: ").or_else(|| l.strip_prefix("Set-Cookie: ")))
        .and_then(|v| v.split(';').next())
        .and_then(|v| v.strip_prefix("chimera_session="))
        .unwrap_or("")
        .to_string();
    (st, serde_json::from_str(&rest).unwrap_or(Value::String(rest)), cookie)
}

/// Signs up `name` with [`PW`]: its session cookie.
pub async fn account(a: SocketAddr, name: &str) -> String {
    let (st, v, c) = call(a, "POST", "/api/account/signup", None, &json!({"username": name, "password": PW})).await;
    assert_eq!(st, 201, "{v}");
    c
}

/// A request with an API token (`Authorization: Bearer`), a body of
/// `ctype` (none when empty): (status, JSON body).
pub async fn with_token(a: SocketAddr, method: &str, path: &str, token: &str, ctype: &str, body: &str) -> (u16, Value) {
    let mut s = TcpStream::connect(a).await.unwrap();
    let ct = if ctype.is_empty() { String::new() } else { format!("Content-Type: {ctype}\r\n") };
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\nAuthorization: Bearer {token}\r\n{ct}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (st, _, rest) = exchange(&mut s, &req).await;
    (st, serde_json::from_str(&rest).unwrap_or(Value::String(rest)))
}

/// Sends `req` on `s` and reads the answer to the end (10 s at most):
/// (status, head, body with any chunking undone).
async fn exchange(s: &mut TcpStream, req: &str) -> (u16, String, String) {
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let st = head.split_whitespace().nth(1).and_then(|x| x.parse().ok()).unwrap_or(0);
    let rest =
        if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(rest) } else { rest.to_string() };
    (st, head.to_string(), rest)
}

/// An NDJSON stream of the Bot and Board API, read line by line (asked as
/// HTTP/1.0, so the body is the bytes until the server closes).
pub struct NdStream {
    lines: tokio::io::Lines<tokio::io::BufReader<TcpStream>>,
}

impl NdStream {
    /// Opens `path` with `token`: the stream, or the refusal's status and
    /// body.
    pub async fn open(a: SocketAddr, path: &str, token: &str) -> Result<NdStream, (u16, String)> {
        use tokio::io::AsyncBufReadExt;
        let mut s = TcpStream::connect(a).await.map_err(|e| (0, e.to_string()))?;
        let req = format!("GET {path} HTTP/1.0\r\nHost: {a}\r\nAuthorization: Bearer {token}\r\n\r\n");
        s.write_all(req.as_bytes()).await.map_err(|e| (0, e.to_string()))?;
        let mut lines = tokio::io::BufReader::new(s).lines();
        let status_line = lines.next_line().await.map_err(|e| (0, e.to_string()))?.unwrap_or_default();
        let st: u16 = status_line.split_whitespace().nth(1).and_then(|x| x.parse().ok()).unwrap_or(0);
        while let Ok(Some(l)) = lines.next_line().await {
            if l.is_empty() {
                break;
            }
        }
        if st != 200 {
            let mut body = String::new();
            while let Ok(Some(l)) = lines.next_line().await {
                body.push_str(&l);
            }
            return Err((st, body));
        }
        Ok(NdStream { lines })
    }

    /// The next object (keep-alive lines skipped), or `None` when the
    /// stream ends. 20 s at most.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let l = tokio::time::timeout(Duration::from_secs(20), self.lines.next_line())
                .await
                .expect("a stream line in time")
                .ok()??;
            if !l.trim().is_empty() {
                return Some(serde_json::from_str(&l).expect("one JSON object per line"));
            }
        }
    }

    /// The next object whose `type` is `kind` (others skipped).
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let v = self.next().await.unwrap_or_else(|| panic!("the stream ended before a {kind}"));
            if v["type"] == kind {
                return v;
            }
        }
    }
}

/// A token of the account of session `cookie` with `scopes`.
pub async fn token(a: SocketAddr, cookie: &str, scopes: &[&str]) -> String {
    let (st, v, _) =
        call(a, "POST", "/api/account/tokens", Some(cookie), &json!({"description": "a test", "scopes": scopes})).await;
    assert_eq!(st, 200, "{v}");
    assert!(v["token"].as_str().unwrap().starts_with("chp_"), "{v}");
    v["token"].as_str().unwrap().to_string()
}

/// The test venv's Python (scripts/setup-python.sh), or `CHIMERA_PYTHON`.
pub fn python() -> std::path::PathBuf {
    std::env::var_os("CHIMERA_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python"))
}

/// Runs tests/fixtures/lichess_client.py with `args` (berserk, unmodified);
/// its JSON line. Two minutes at most.
pub async fn lichess_client(args: Vec<String>) -> Value {
    // (This file is also a module of crates/cli's tests: the path holds from both.)
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/tests/fixtures/lichess_client.py");
    let py = python();
    assert!(py.exists(), "no Python at {} (run scripts/setup-python.sh, or set CHIMERA_PYTHON)", py.display());
    let out = tokio::task::spawn_blocking(move || {
        let mut child = std::process::Command::new(py)
            .arg(script)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("python runs");
        let t0 = std::time::Instant::now();
        while child.try_wait().expect("wait").is_none() {
            if t0.elapsed() > Duration::from_secs(120) {
                let _ = child.kill();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        child.wait_with_output().expect("output")
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "lichess_client.py failed: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(stdout.lines().last().unwrap_or("")).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}
