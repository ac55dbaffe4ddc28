//! The connection side: the accept loop (hyper with a header-read timeout),
//! per-client and total connection limits, the Host and Origin checks, and
//! the one JSON error shape for every failure.

use crate::App;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::json;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

/// The one error body: `{"error": "..."}` with the HTTP status.
pub fn error(code: StatusCode, message: impl Into<String>) -> Response {
    (code, axum::Json(json!({ "error": message.into() }))).into_response()
}

/// Open connections (HTTP and WebSocket), counted in total and per client
/// address. A [`Slot`] is one connection; dropping it frees the count.
pub struct Conns {
    max_total: usize,
    max_per_ip: usize,
    map: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

pub struct Slot {
    conns: Arc<Conns>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut m = self.conns.map.lock().unwrap_or_else(|e| e.into_inner());
        m.0 = m.0.saturating_sub(1);
        if let Some(n) = m.1.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                m.1.remove(&self.ip);
            }
        }
    }
}

/// Why a connection was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    PerClient,
    Total,
}

impl Conns {
    pub fn new(max_total: usize, max_per_ip: usize) -> Arc<Conns> {
        Arc::new(Conns { max_total, max_per_ip, map: Mutex::new((0, HashMap::new())) })
    }

    pub fn take(self: &Arc<Self>, ip: IpAddr) -> Result<Slot, Refusal> {
        let mut m = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if m.0 >= self.max_total {
            return Err(Refusal::Total);
        }
        let n = m.1.entry(ip).or_insert(0);
        if *n >= self.max_per_ip {
            return Err(Refusal::PerClient);
        }
        *n += 1;
        m.0 += 1;
        Ok(Slot { conns: self.clone(), ip })
    }

    pub fn open(&self) -> usize {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).0
    }
}

/// The connection's slot, handed to the request so that a WebSocket upgrade
/// can take it over (the HTTP connection ends at the upgrade; the socket
/// keeps counting as one connection).
#[derive(Clone)]
pub struct SlotCell(pub Arc<Mutex<Option<Slot>>>);

impl SlotCell {
    pub fn take(&self) -> Option<Slot> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// Writes a complete JSON error response on a raw connection we refuse to
/// serve, then closes it (one second at most).
async fn refuse(mut s: TcpStream, code: StatusCode, message: &str) {
    let body = json!({ "error": message }).to_string();
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n",
        code.as_u16(),
        code.canonical_reason().unwrap_or(""),
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        s.write_all(head.as_bytes()).await?;
        s.write_all(body.as_bytes()).await?;
        s.shutdown().await
    })
    .await;
}

/// Accepts connections until `shutdown` fires, each served by hyper's
/// HTTP/1.1 connection (with upgrades) with a header-read timeout that
/// runs from the connection's first moment (a silent connection is closed
/// too); then asks open connections to finish (two seconds at most).
pub async fn serve(listener: TcpListener, router: Router, app: App, mut shutdown: tokio::sync::watch::Receiver<bool>) {
    let cfg = app.config.clone();
    let mut tasks = tokio::task::JoinSet::new();
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    // Out of file descriptors and the like: back off a little.
                    eprintln!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = shutdown.changed() => break,
        };
        // Reap finished connection tasks so the set does not grow.
        while tasks.try_join_next().is_some() {}
        let slot = match app.conns.take(peer.ip()) {
            Ok(s) => s,
            Err(r) => {
                let (code, msg) = match r {
                    Refusal::PerClient => {
                        (StatusCode::TOO_MANY_REQUESTS, "too many open connections from your address")
                    }
                    Refusal::Total => {
                        (StatusCode::SERVICE_UNAVAILABLE, "the server has too many open connections; try again soon")
                    }
                };
                tokio::spawn(refuse(stream, code, msg));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let cell = SlotCell(Arc::new(Mutex::new(Some(slot))));
        let cell2 = cell.clone();
        let svc = router.clone().map_request(move |req: Request<hyper::body::Incoming>| {
            let mut req = req.map(Body::new);
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(cell2.clone());
            req
        });
        let mut stop = shutdown.clone();
        let (header_timeout, buf) = (cfg.header_timeout, (cfg.max_header_bytes * 4).max(8192));
        tasks.spawn(async move {
            let mut builder = http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(header_timeout).max_buf_size(buf);
            let conn = builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(svc)).with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_secs(2), conn.as_mut()).await;
                }
            }
            drop(cell);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(Duration::from_secs(2), async { while tasks.join_next().await.is_some() {} }).await;
}

/// True if `host` (a Host header value, or the authority of an Origin) is a
/// name this server answers to: an IP literal, `localhost`, or a name given
/// with `--allow-host`. A DNS-rebinding page reaches us under its own domain
/// name, which is none of these.
fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        // [v6]:port
        return rest.split(']').next().is_some_and(|ip| ip.parse::<std::net::Ipv6Addr>().is_ok());
    } else {
        host.rsplit_once(':').filter(|(_, p)| p.chars().all(|c| c.is_ascii_digit())).map_or(host, |(h, _)| h)
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name.parse::<IpAddr>().is_ok() || name == "localhost" || allowed.iter().any(|a| a.eq_ignore_ascii_case(&name))
}

/// Refuses foreign Host headers (DNS rebinding), cross-site state changes
/// and WebSocket upgrades (a foreign Origin), and POST bodies that are not
/// JSON (which a cross-site form or `text/plain` fetch could send without
/// a preflight).
pub async fn guard(State(app): State<App>, req: Request, next: Next) -> Response {
    let h = req.headers();
    // hyper's buffer is four times this: between the two, a JSON 431.
    let header_bytes: usize = h.iter().map(|(k, v)| k.as_str().len() + v.len() + 4).sum();
    if header_bytes > app.config.max_header_bytes {
        return error(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("request headers of {header_bytes} bytes: {} at most", app.config.max_header_bytes),
        );
    }
    let Some(host) = h.get(header::HOST).and_then(|v| v.to_str().ok()).map(str::to_string) else {
        return error(StatusCode::BAD_REQUEST, "the request has no Host header");
    };
    if !host_allowed(&host, &app.config.allowed_hosts) {
        return error(
            StatusCode::MISDIRECTED_REQUEST,
            format!("this server does not answer to the host name '{host}' (start it with --allow-host NAME to serve a name)"),
        );
    }
    let upgrade = h.get(header::UPGRADE).is_some();
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if changes || upgrade {
        if let Some(origin) = h.get(header::ORIGIN) {
            if !origin_allowed(origin, &host, &app.config.allowed_hosts) {
                return error(
                    StatusCode::FORBIDDEN,
                    format!(
                        "cross-site request refused: Origin {} is not this site",
                        String::from_utf8_lossy(origin.as_bytes())
                    ),
                );
            }
        }
    }
    if *req.method() == Method::POST && !is_json(h) {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "POST bodies must be JSON: send Content-Type: application/json",
        );
    }
    next.run(req).await
}

fn origin_allowed(origin: &HeaderValue, host: &str, allowed: &[String]) -> bool {
    let Ok(o) = origin.to_str() else { return false };
    let Some((_, authority)) = o.split_once("://") else { return false };
    let authority = authority.trim_end_matches('/');
    authority.eq_ignore_ascii_case(host) || (allowed.iter().any(|a| authority_name(authority).eq_ignore_ascii_case(a)))
}

fn authority_name(a: &str) -> &str {
    a.rsplit_once(':').filter(|(_, p)| p.chars().all(|c| c.is_ascii_digit())).map_or(a, |(h, _)| h)
}

fn is_json(h: &HeaderMap) -> bool {
    h.get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json")))
}

/// Turns every error response that is not already JSON (axum's and
/// tower-http's own 405, 408, 413, 415, 429 and body errors) into
/// `{"error": "..."}`, keeping its status and headers (Retry-After...).
pub async fn json_errors(req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    let st = res.status();
    if !(st.is_client_error() || st.is_server_error()) {
        return res;
    }
    let json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        // A page made for people (the missing game's) stays a page.
        .is_some_and(|v| v.starts_with("application/json") || v.starts_with("text/html"));
    if json {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let text = match axum::body::to_bytes(body, 4096).await {
        Ok(b) => String::from_utf8_lossy(&b).trim().to_string(),
        Err(_) => String::new(),
    };
    let reason = st.canonical_reason().unwrap_or("error").to_string();
    let message = match st {
        StatusCode::METHOD_NOT_ALLOWED => format!("{reason}: this path does not take that method"),
        StatusCode::PAYLOAD_TOO_LARGE => format!("{reason}: the request body is over the limit"),
        StatusCode::REQUEST_TIMEOUT => format!("{reason}: the request was not sent in time"),
        StatusCode::TOO_MANY_REQUESTS => {
            let wait = parts
                .headers
                .get("x-ratelimit-after")
                .or(parts.headers.get(header::RETRY_AFTER))
                .and_then(|v| v.to_str().ok())
                .unwrap_or("a few");
            format!("too many new games from your address: wait {wait} s")
        }
        _ if text.is_empty() => reason,
        _ => text,
    };
    let body = json!({ "error": message }).to_string();
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_origins() {
        let none: Vec<String> = vec![];
        for ok in ["127.0.0.1:8080", "localhost:80", "[::1]:8080", "10.0.0.7", "LOCALHOST"] {
            assert!(host_allowed(ok, &none), "{ok}");
        }
        for bad in ["evil.example:8080", "evil.example", "127.0.0.1.evil.example", "[zz]:1"] {
            assert!(!host_allowed(bad, &none), "{bad}");
        }
        assert!(host_allowed("chess.example.org:443", &["chess.example.org".into()]));
        let o = |s: &'static str| HeaderValue::from_static(s);
        assert!(origin_allowed(&o("http://127.0.0.1:8080"), "127.0.0.1:8080", &none));
        assert!(!origin_allowed(&o("http://evil.example"), "127.0.0.1:8080", &none));
        assert!(!origin_allowed(&o("null"), "127.0.0.1:8080", &none));
        assert!(!origin_allowed(&o("http://127.0.0.1:9999"), "127.0.0.1:8080", &none));
        assert!(origin_allowed(&o("https://chess.example.org"), "127.0.0.1:8080", &["chess.example.org".into()]));
    }

    #[test]
    fn connection_limits() {
        let c = Conns::new(3, 2);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let s1 = c.take(a).unwrap();
        let _s2 = c.take(a).unwrap();
        assert_eq!(c.take(a).err(), Some(Refusal::PerClient));
        let _s3 = c.take(b).unwrap();
        assert_eq!(c.take(b).err(), Some(Refusal::Total));
        drop(s1);
        assert!(c.take(a).is_ok());
    }
}
