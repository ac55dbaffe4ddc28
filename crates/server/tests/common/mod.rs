//! Test helpers: a server on a fresh data directory, a tiny HTTP client and
//! a WebSocket client.
#![allow(dead_code)]

use chimera_server::Server;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

pub fn fresh_dir(tag: &str) -> PathBuf {
    let d =
        std::env::temp_dir().join(format!("chimera-{tag}-{}-{}", std::process::id(), chimera_server::random_hex(4)));
    let _ = std::fs::remove_dir_all(&d);
    d
}

pub async fn start(dir: &std::path::Path) -> Server {
    Server::start("127.0.0.1:0", dir).await.expect("server starts")
}

pub async fn ws(addr: SocketAddr, id: &str, token: Option<&str>) -> Ws {
    let url = match token {
        Some(t) => format!("ws://{addr}/ws/{id}?token={t}"),
        None => format!("ws://{addr}/ws/{id}"),
    };
    let (s, _) = tokio_tungstenite::connect_async(url).await.expect("ws connect");
    s
}

pub async fn send_raw(ws: &mut Ws, s: &str) {
    ws.send(Message::Text(s.to_string().into())).await.expect("ws send");
}

/// The next JSON message (10 s at most).
pub async fn recv(ws: &mut Ws) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message in time")
            .expect("open")
            .expect("ok");
        if let Message::Text(t) = m {
            return serde_json::from_str(&t).expect("json");
        }
    }
}

/// Reads until a state message satisfying `pred`.
pub async fn wait_state(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let v = recv(ws).await;
        if v["t"] == "state" && pred(&v) {
            return v;
        }
    }
}

/// Reads until an error message (states in between are skipped).
pub async fn wait_error(ws: &mut Ws) -> String {
    loop {
        let v = recv(ws).await;
        if v["t"] == "error" {
            return v["message"].as_str().unwrap_or("").to_string();
        }
    }
}

/// A TCP connection to `addr` from the loopback address `from` (any of
/// 127.0.0.0/8 on Linux): one simulated client address per `from`.
pub async fn connect_from(addr: SocketAddr, from: std::net::Ipv4Addr) -> std::io::Result<TcpStream> {
    let s = tokio::net::TcpSocket::new_v4()?;
    s.bind(SocketAddr::from((from, 0)))?;
    tokio::time::timeout(Duration::from_secs(10), s.connect(addr))
        .await
        .map_err(|_| std::io::Error::other("connect timed out"))?
}

/// One raw HTTP exchange: writes `req` as is, reads until the server closes
/// (10 s at most). Returns (status, headers, body); status 0 when the
/// server closed without answering.
pub async fn raw(mut s: TcpStream, req: &[u8]) -> (u16, String, String) {
    let _ = s.write_all(req).await;
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
    let text = String::from_utf8_lossy(&buf).to_string();
    let Some((head, rest)) = text.split_once("\r\n\r\n") else { return (0, String::new(), text) };
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body =
        if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(rest) } else { rest.to_string() };
    (status, head.to_string(), body)
}

/// A request from client address `from` with extra header lines.
pub async fn http_from(
    addr: SocketAddr,
    from: std::net::Ipv4Addr,
    method: &str,
    path: &str,
    headers: &str,
    body: &str,
) -> (u16, Value) {
    let Ok(s) = connect_from(addr, from).await else { return (0, Value::Null) };
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (st, _, b) = raw(s, req.as_bytes()).await;
    (st, serde_json::from_str(&b).unwrap_or(Value::String(b)))
}

/// A WebSocket from client address `from`.
pub async fn ws_from(addr: SocketAddr, from: std::net::Ipv4Addr, id: &str, token: Option<&str>) -> Result<Ws, String> {
    let url = match token {
        Some(t) => format!("ws://{addr}/ws/{id}?token={t}"),
        None => format!("ws://{addr}/ws/{id}"),
    };
    let s = connect_from(addr, from).await.map_err(|e| e.to_string())?;
    let (w, _) = tokio::time::timeout(
        Duration::from_secs(10),
        tokio_tungstenite::client_async(url, tokio_tungstenite::MaybeTlsStream::Plain(s)),
    )
    .await
    .map_err(|_| "ws handshake timed out".to_string())?
    .map_err(|e| e.to_string())?;
    Ok(w)
}

/// The n-th simulated client address: 127.0.(1 + n / 250).(1 + n % 250).
pub fn client_ip(n: usize) -> std::net::Ipv4Addr {
    std::net::Ipv4Addr::new(127, 0, (1 + n / 250) as u8, (1 + n % 250) as u8)
}
pub mod browser;
pub mod fault;
mod http;
pub use http::*;
/// The throwaway PostgreSQL cluster of the process-level tests, shared.
#[path = "../../../cli/tests/common/pg.rs"]
pub mod pg;
