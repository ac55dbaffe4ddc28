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
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let st = head.split_whitespace().nth(1).and_then(|x| x.parse().ok()).unwrap_or(0);
    let rest =
        if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(rest) } else { rest.to_string() };
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
