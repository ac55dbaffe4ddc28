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
use std::task::{ready, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

/// The one error body: `{"error": "..."}` with the HTTP status.
pub fn error(code: StatusCode, message: impl Into<String>) -> Response {
    (code, axum::Json(json!({ "error": message.into() }))).into_response()
}

/// The address a client is counted under: an IPv4 address as is (an
/// IPv4-mapped IPv6 address too), an IPv6 address by its /64 (one host
/// usually holds a whole /64, so counting single IPv6 addresses would give
/// it 2^64 budgets).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// Open HTTP connections, counted in total and per client address (see
/// [`client_key`]). A [`Slot`] is one connection; dropping it frees the
/// count. A WebSocket upgrade gives its HTTP slot back and takes a
/// [`SocketSlot`] from [`Sockets`] instead, so sockets never starve HTTP.
/// When the total is reached, a new connection is let in by closing the
/// connection idle longest (no request being handled: silent since its
/// accept, or kept alive after its last answer), so idle connections,
/// from however many addresses, cannot hold the pool against new ones.
pub struct Conns {
    max_total: usize,
    max_per_ip: usize,
    state: Mutex<ConnState>,
}

#[derive(Default)]
struct ConnState {
    next: u64,
    per: HashMap<IpAddr, usize>,
    open: HashMap<u64, ConnEntry>,
    evicted: u64,
}

struct ConnEntry {
    key: IpAddr,
    /// None while a request is being handled.
    idle_since: Option<std::time::Instant>,
    kick: Arc<tokio::sync::Notify>,
}

/// One HTTP connection's place; `kick` is notified when it is closed to
/// make room.
pub struct Slot {
    conns: Arc<Conns>,
    id: u64,
    key: IpAddr,
    pub kick: Arc<tokio::sync::Notify>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut m = self.conns.state.lock().unwrap_or_else(|e| e.into_inner());
        // An evicted connection was taken out of the count already.
        if m.open.remove(&self.id).is_some() {
            dec(&mut m.per, &self.key);
        }
    }
}

impl Slot {
    /// A request arrived (busy) or was answered (idle).
    pub fn set_busy(&self, busy: bool) {
        let mut m = self.conns.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = m.open.get_mut(&self.id) {
            e.idle_since = if busy { None } else { Some(std::time::Instant::now()) };
        }
    }
}

/// Why a connection or a socket was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    PerClient,
    Total,
}

impl Conns {
    pub fn new(max_total: usize, max_per_ip: usize) -> Arc<Conns> {
        Arc::new(Conns { max_total, max_per_ip, state: Mutex::new(ConnState::default()) })
    }

    pub fn take(self: &Arc<Self>, ip: IpAddr) -> Result<Slot, Refusal> {
        let key = client_key(ip);
        let mut m = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if m.per.get(&key).copied().unwrap_or(0) >= self.max_per_ip {
            return Err(Refusal::PerClient);
        }
        if m.open.len() >= self.max_total {
            let idlest = m.open.iter().filter_map(|(id, e)| e.idle_since.map(|t| (t, *id))).min().map(|(_, id)| id);
            let Some(e) = idlest.and_then(|id| m.open.remove(&id)) else { return Err(Refusal::Total) };
            dec(&mut m.per, &e.key);
            e.kick.notify_one();
            m.evicted += 1;
        }
        *m.per.entry(key).or_insert(0) += 1;
        m.next += 1;
        let id = m.next;
        let kick = Arc::new(tokio::sync::Notify::new());
        m.open.insert(id, ConnEntry { key, idle_since: Some(std::time::Instant::now()), kick: kick.clone() });
        Ok(Slot { conns: self.clone(), id, key, kick })
    }

    /// Connections open, and idle ones closed to make room so far.
    pub fn counts(&self) -> (usize, u64) {
        let m = self.state.lock().unwrap_or_else(|e| e.into_inner());
        (m.open.len(), m.evicted)
    }
}

/// What a WebSocket is to its game: a seat holder's (a valid player token
/// for the game) or a spectator's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SocketKind {
    Seat,
    Spectator,
}

/// The budgets of open WebSockets, apart from HTTP's: seat holders' sockets
/// and spectators' sockets each have a total and a per-address cap. When
/// the spectators' total is reached, a new spectator is let in by closing
/// the spectator socket that has been idle longest (no message from its
/// client), so spectators can neither lock out players and HTTP (their
/// budgets are apart) nor lock out other spectators for good.
pub struct Sockets {
    limits: SocketLimits,
    state: Mutex<SocketState>,
}

#[derive(Clone, Copy, Debug)]
pub struct SocketLimits {
    pub max_seat: usize,
    pub seat_per_client: usize,
    pub max_spectators: usize,
    pub spectators_per_client: usize,
}

#[derive(Default)]
struct SocketState {
    next: u64,
    seat_total: usize,
    seat_per: HashMap<IpAddr, usize>,
    spec_per: HashMap<IpAddr, usize>,
    spectators: HashMap<u64, Spectator>,
    evicted: u64,
}

struct Spectator {
    key: IpAddr,
    heard: std::time::Instant,
    kick: Arc<tokio::sync::Notify>,
}

/// One open WebSocket's place in its budget; dropping it frees the place.
/// A spectator's `kick` is notified when it is closed to make room.
pub struct SocketSlot {
    sockets: Arc<Sockets>,
    id: u64,
    key: IpAddr,
    pub kind: SocketKind,
    pub kick: Arc<tokio::sync::Notify>,
}

fn dec(map: &mut HashMap<IpAddr, usize>, key: &IpAddr) {
    if let Some(n) = map.get_mut(key) {
        *n -= 1;
        if *n == 0 {
            map.remove(key);
        }
    }
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        let mut s = self.sockets.state.lock().unwrap_or_else(|e| e.into_inner());
        match self.kind {
            SocketKind::Seat => {
                s.seat_total = s.seat_total.saturating_sub(1);
                dec(&mut s.seat_per, &self.key);
            }
            SocketKind::Spectator => {
                // An evicted spectator was taken out of the count already.
                if s.spectators.remove(&self.id).is_some() {
                    dec(&mut s.spec_per, &self.key);
                }
            }
        }
    }
}

impl SocketSlot {
    /// The client sent a message: the socket is not idle.
    pub fn heard(&self) {
        if self.kind == SocketKind::Spectator {
            let mut s = self.sockets.state.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(sp) = s.spectators.get_mut(&self.id) {
                sp.heard = std::time::Instant::now();
            }
        }
    }
}

/// Open sockets by kind, and spectators closed to make room so far.
#[derive(Debug, PartialEq, Eq, serde::Serialize)]
pub struct SocketCounts {
    pub seat: usize,
    pub spectator: usize,
    pub evicted: u64,
}

impl Sockets {
    pub fn new(limits: SocketLimits) -> Arc<Sockets> {
        Arc::new(Sockets { limits, state: Mutex::new(SocketState::default()) })
    }

    pub fn take(self: &Arc<Self>, ip: IpAddr, kind: SocketKind) -> Result<SocketSlot, Refusal> {
        let key = client_key(ip);
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let kick = Arc::new(tokio::sync::Notify::new());
        match kind {
            SocketKind::Seat => {
                if s.seat_total >= self.limits.max_seat {
                    return Err(Refusal::Total);
                }
                let n = s.seat_per.entry(key).or_insert(0);
                if *n >= self.limits.seat_per_client {
                    return Err(Refusal::PerClient);
                }
                *n += 1;
                s.seat_total += 1;
            }
            SocketKind::Spectator => {
                if s.spec_per.get(&key).copied().unwrap_or(0) >= self.limits.spectators_per_client {
                    return Err(Refusal::PerClient);
                }
                if s.spectators.len() >= self.limits.max_spectators {
                    let Some(oldest) = s.spectators.iter().min_by_key(|(_, sp)| sp.heard).map(|(id, _)| *id) else {
                        return Err(Refusal::Total);
                    };
                    if let Some(sp) = s.spectators.remove(&oldest) {
                        dec(&mut s.spec_per, &sp.key);
                        sp.kick.notify_one();
                        s.evicted += 1;
                    }
                }
                *s.spec_per.entry(key).or_insert(0) += 1;
            }
        }
        s.next += 1;
        let id = s.next;
        if kind == SocketKind::Spectator {
            s.spectators.insert(id, Spectator { key, heard: std::time::Instant::now(), kick: kick.clone() });
        }
        Ok(SocketSlot { sockets: self.clone(), id, key, kind, kick })
    }

    pub fn counts(&self) -> SocketCounts {
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        SocketCounts { seat: s.seat_total, spectator: s.spectators.len(), evicted: s.evicted }
    }
}

/// Writes a complete JSON error response on a raw connection we refuse to
/// serve, then closes it (one second at most).
async fn refuse(mut s: TcpStream, code: StatusCode, message: &str) {
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        s.write_all(&raw_json_response(code.as_u16(), message)).await?;
        s.shutdown().await
    })
    .await;
}

/// A whole HTTP/1.1 response with a JSON error body, for the answers made
/// below hyper (refusals, hyper's own parse errors, the HTTP/2 preface).
fn raw_json_response(status: u16, message: &str) -> Vec<u8> {
    let body = json!({ "error": message }).to_string();
    let reason = StatusCode::from_u16(status).ok().and_then(|c| c.canonical_reason()).unwrap_or("Error");
    let retry = if status == 503 || status == 429 { "Retry-After: 5\r\n" } else { "" };
    format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nX-Content-Type-Options: nosniff\r\n{retry}Connection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The status of a response head that hyper wrote itself for a request it
/// could not parse (400, 414, 431): a status of 400 or more and no
/// Content-Type. Every response of the router has a Content-Type (the JSON
/// errors layer sets one on every error), so nothing else matches.
fn bare_error_status(data: &[u8]) -> Option<u16> {
    let rest = data.strip_prefix(b"HTTP/1.1 ")?;
    let status: u16 = std::str::from_utf8(rest.get(..3)?).ok()?.parse().ok()?;
    if status < 400 {
        return None;
    }
    let end = data.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&data[..end]).to_ascii_lowercase();
    (!head.contains("\r\ncontent-type:")).then_some(status)
}

fn parse_error_message(status: u16, max_header_bytes: usize) -> String {
    match status {
        400 => "malformed HTTP/1.1 request: the request line or a header is not valid (RFC 9112: a NUL or control byte, a folded header line, a bad or overflowing Content-Length...)".into(),
        414 => "the request URI is too long".into(),
        431 => format!("request headers too large: {max_header_bytes} bytes and {MAX_HEADERS} header lines at most"),
        505 => "HTTP/2 is not served here: speak HTTP/1.1 (the HTTP/2 preface is refused)".into(),
        _ => "malformed HTTP request".into(),
    }
}

/// Header lines a request may have (hyper answers 431 beyond them).
pub const MAX_HEADERS: usize = 100;

/// The connection's stream as hyper sees it, so that the answers hyper
/// makes without the router are JSON like every other error: the bare
/// response head hyper writes for a request it cannot parse is replaced by
/// a JSON response with the same status, and a connection that opens with
/// the HTTP/2 preface (which hyper would close without a word) gets a JSON
/// 505. Everything else passes through untouched.
pub struct JsonIo {
    inner: TcpStream,
    /// Our own answer, and how much of it is written.
    answer: Vec<u8>,
    sent: usize,
    read_any: bool,
    max_header_bytes: usize,
}

type Cx<'a, 'b> = &'a mut std::task::Context<'b>;
type Pinned<'a> = std::pin::Pin<&'a mut JsonIo>;

impl JsonIo {
    pub fn new(inner: TcpStream, max_header_bytes: usize) -> JsonIo {
        JsonIo { inner, answer: Vec::new(), sent: 0, read_any: false, max_header_bytes }
    }

    fn poll_answer(&mut self, cx: Cx<'_, '_>) -> Poll<std::io::Result<()>> {
        while self.sent < self.answer.len() {
            let n = ready!(std::pin::Pin::new(&mut self.inner).poll_write(cx, &self.answer[self.sent..]))?;
            if n == 0 {
                return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        Poll::Ready(Ok(()))
    }

    fn answer_with(&mut self, status: u16, cx: Cx<'_, '_>) {
        self.answer = raw_json_response(status, &parse_error_message(status, self.max_header_bytes));
        self.sent = 0;
        // Started now; hyper's flush or shutdown (or the drop) finishes it.
        let _ = self.poll_answer(cx);
    }
}

impl Drop for JsonIo {
    fn drop(&mut self) {
        // hyper drops the stream right after an HTTP/2 preface: what is
        // left of the answer goes out without waiting (it is small).
        if self.sent < self.answer.len() {
            let _ = self.inner.try_write(&self.answer[self.sent..]);
        }
    }
}

impl AsyncRead for JsonIo {
    fn poll_read(self: Pinned<'_>, cx: Cx<'_, '_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        if !this.answer.is_empty() {
            // Answered: hyper sees the end of the stream.
            return Poll::Ready(Ok(()));
        }
        let before = buf.filled().len();
        ready!(std::pin::Pin::new(&mut this.inner).poll_read(cx, buf))?;
        if !this.read_any && buf.filled().len() > before {
            this.read_any = true;
            if buf.filled()[before..].starts_with(b"PRI * HTTP/2") {
                buf.set_filled(before);
                this.answer_with(505, cx);
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for JsonIo {
    fn poll_write(self: Pinned<'_>, cx: Cx<'_, '_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_answer(cx))?;
        if let Some(status) = bare_error_status(data) {
            this.answer_with(status, cx);
            return Poll::Ready(Ok(data.len()));
        }
        std::pin::Pin::new(&mut this.inner).poll_write(cx, data)
    }

    fn poll_write_vectored(
        self: Pinned<'_>,
        cx: Cx<'_, '_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_answer(cx))?;
        if let Some(status) = bufs.iter().find(|b| !b.is_empty()).and_then(|b| bare_error_status(b)) {
            this.answer_with(status, cx);
            return Poll::Ready(Ok(bufs.iter().map(|b| b.len()).sum()));
        }
        std::pin::Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pinned<'_>, cx: Cx<'_, '_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_answer(cx))?;
        std::pin::Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pinned<'_>, cx: Cx<'_, '_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_answer(cx))?;
        std::pin::Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

/// Raises the soft limit of open files to the hard limit, where the
/// system allows (every connection and socket is one descriptor). Returns
/// the limit now in force, or None where there is none to read.
pub fn raise_fd_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        match rlimit::increase_nofile_limit(u64::MAX) {
            Ok(n) => Some(n),
            Err(e) => {
                eprintln!("could not raise the limit of open files: {e}");
                rlimit::getrlimit(rlimit::Resource::NOFILE).ok().map(|(soft, _)| soft)
            }
        }
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// True for the accept errors that mean the process or the system is out
/// of something (descriptors, buffers, memory): accepting again at once
/// would fail again.
fn out_of_resources(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM))
    }
    #[cfg(not(unix))]
    {
        e.kind() == std::io::ErrorKind::OutOfMemory
    }
}

/// The accept loop's pause when it is out of descriptors: 10 ms doubling
/// to 1 s between tries, one log line when the pause begins and one when it
/// ends (not one a try). A pause ends once accepting has worked with no
/// failure for a second: a connection accepted now and then in between
/// (descriptors freed by refused connections) does not end it.
#[derive(Default)]
pub struct AcceptPause {
    since: Option<std::time::Instant>,
    last_failure: Option<std::time::Instant>,
    delay: Duration,
    failures: u64,
}

impl AcceptPause {
    pub const FIRST: Duration = Duration::from_millis(10);
    pub const MOST: Duration = Duration::from_secs(1);

    /// An accept failed: how long to wait before the next try, and the line
    /// to log (only at the start of a pause).
    pub fn failed(&mut self, e: &std::io::Error) -> (Duration, Option<String>) {
        if !out_of_resources(e) {
            // One connection's trouble (reset before it was accepted...).
            return (Duration::ZERO, None);
        }
        self.failures += 1;
        self.last_failure = Some(std::time::Instant::now());
        if self.since.is_none() {
            self.since = self.last_failure;
            self.delay = Self::FIRST;
            let line = format!(
                "accept paused: {e}; trying again {} ms to {} s apart",
                Self::FIRST.as_millis(),
                Self::MOST.as_secs()
            );
            return (self.delay, Some(line));
        }
        self.delay = (self.delay * 2).min(Self::MOST);
        (self.delay, None)
    }

    /// An accept worked: the line to log if it ends a pause.
    pub fn accepted(&mut self) -> Option<String> {
        self.accepted_at(std::time::Instant::now())
    }

    fn accepted_at(&mut self, now: std::time::Instant) -> Option<String> {
        let since = self.since?;
        if self.last_failure.is_some_and(|t| now.saturating_duration_since(t) < Self::MOST) {
            return None;
        }
        self.since = None;
        let n = std::mem::take(&mut self.failures);
        Some(format!("accept resumed after {} ms ({n} failed tries)", now.saturating_duration_since(since).as_millis()))
    }
}

/// Accepts connections until `shutdown` fires, each served by hyper's
/// HTTP/1.1 connection (with upgrades) with a header-read timeout that
/// runs from the connection's first moment (a silent connection is closed
/// too); then asks open connections to finish (two seconds at most).
/// Out of descriptors, accepting pauses (see [`AcceptPause`]).
pub async fn serve(listener: TcpListener, router: Router, app: App, mut shutdown: tokio::sync::watch::Receiver<bool>) {
    let cfg = app.config.clone();
    let mut tasks = tokio::task::JoinSet::new();
    let mut pause = AcceptPause::default();
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => {
                    if let Some(line) = pause.accepted() {
                        eprintln!("{line}");
                    }
                    x
                }
                Err(e) => {
                    let (wait, line) = pause.failed(&e);
                    if let Some(line) = line {
                        eprintln!("{line}");
                    }
                    if !wait.is_zero() {
                        tokio::select! {
                            _ = tokio::time::sleep(wait) => {}
                            _ = shutdown.changed() => break,
                        }
                    }
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
        let slot = Arc::new(slot);
        let (busy, idle) = (slot.clone(), slot.clone());
        let svc = router
            .clone()
            .map_request(move |req: Request<hyper::body::Incoming>| {
                busy.set_busy(true);
                let mut req = req.map(Body::new);
                req.extensions_mut().insert(ConnectInfo(peer));
                req
            })
            .map_response(move |res: Response| {
                idle.set_busy(false);
                res
            });
        let mut stop = shutdown.clone();
        let (header_timeout, buf) = (cfg.header_timeout, (cfg.max_header_bytes * 4).max(8192));
        let io = JsonIo::new(stream, cfg.max_header_bytes);
        tasks.spawn(async move {
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .max_buf_size(buf)
                .max_headers(MAX_HEADERS);
            let conn = builder.serve_connection(TokioIo::new(io), TowerToHyperService::new(svc)).with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                // Idle longest when the pool was full: closed to make room.
                _ = slot.kick.notified() => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_secs(2), conn.as_mut()).await;
                }
            }
            // The HTTP slot ends with the connection, at an upgrade too: a
            // WebSocket counts in its own budget.
            drop(slot);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(Duration::from_secs(2), async { while tasks.join_next().await.is_some() {} }).await;
}

/// The name of a Host header value (or of an Origin's authority), read
/// strictly as RFC 3986 and RFC 9112 have it: `[IPv6]`, an IPv4 address or
/// a DNS name (letters, digits and hyphens in dot-separated labels, one
/// trailing dot allowed), then optionally `:` and a port of digits, and
/// nothing else. The name comes back in lower case without its trailing
/// dot; None for anything else (`[::1].evil.example`, `[::1]:80x`, `a b`).
fn host_name(host: &str) -> Option<String> {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let (ip, after) = rest.split_once(']')?;
        ip.parse::<std::net::Ipv6Addr>().ok()?;
        let port = if after.is_empty() { None } else { Some(after.strip_prefix(':')?) };
        (format!("[{}]", ip.to_ascii_lowercase()), port)
    } else {
        let (name, port) = match host.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        };
        let name = name.strip_suffix('.').unwrap_or(name);
        let label_ok = |l: &str| {
            !l.is_empty()
                && l.len() <= 63
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        };
        if name.is_empty() || name.len() > 253 || !name.split('.').all(label_ok) {
            return None;
        }
        (name.to_ascii_lowercase(), port)
    };
    if let Some(p) = port {
        if p.is_empty() || p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()) || p.parse::<u32>().ok()? > 65535 {
            return None;
        }
    }
    Some(name)
}

/// True if `host` (a Host header value, or the authority of an Origin) is a
/// well-formed name this server answers to: an IP literal, `localhost`, or
/// a name given with `--allow-host`. A DNS-rebinding page reaches us under
/// its own domain name, which is none of these.
fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let Some(name) = host_name(host) else { return false };
    name.starts_with('[')
        || name.parse::<std::net::Ipv4Addr>().is_ok()
        || name == "localhost"
        || allowed.iter().any(|a| a.trim_end_matches('.').eq_ignore_ascii_case(&name))
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
    let hosts = h.get_all(header::HOST).iter().count();
    if hosts > 1 {
        return error(
            StatusCode::BAD_REQUEST,
            format!("the request has {hosts} Host headers: exactly one is allowed (RFC 9112, 3.2)"),
        );
    }
    let Some(host) = h.get(header::HOST).and_then(|v| v.to_str().ok()).map(str::to_string) else {
        return error(StatusCode::BAD_REQUEST, "the request has no Host header");
    };
    if host_name(&host).is_none() {
        return error(
            StatusCode::BAD_REQUEST,
            format!("malformed Host header '{host}': a name or an IP address, then optionally ':' and a port"),
        );
    }
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
    // A request with an API token (`tokens`) cannot come from another
    // site's page: it may post a form or nothing, as lichess's clients do.
    if *req.method() == Method::POST && !is_json(h) && crate::tokens::bearer(h).is_none() {
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
    let Some(name) = host_name(authority) else { return false };
    authority.eq_ignore_ascii_case(host) || allowed.iter().any(|a| a.trim_end_matches('.').eq_ignore_ascii_case(&name))
}

fn is_json(h: &HeaderMap) -> bool {
    h.get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json")))
}

/// The Content-Security-Policy of every page: scripts, styles, images,
/// fonts and connections (the game's WebSocket) from this origin only, no
/// inline script or style, no plugins, no `<base>`, forms post here only,
/// and no framing by any site.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Security headers: `X-Content-Type-Options: nosniff` on every response;
/// on pages (HTML) also the [`CSP`], `X-Frame-Options: DENY` (for browsers
/// without `frame-ancestors`), `Referrer-Policy: same-origin` (a game's
/// address never leaks to another site) and
/// `Cross-Origin-Opener-Policy: same-origin`.
pub async fn security_headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    let html = h.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("text/html"));
    if html {
        h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
        h.insert("cross-origin-opener-policy", HeaderValue::from_static("same-origin"));
    }
    res
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
        for bad in [
            "evil.example:8080",
            "evil.example",
            "127.0.0.1.evil.example",
            "[zz]:1",
            "[::1].evil.example",
            "[::1]:80x",
            "[::1]x",
            "127.0.0.1:80x",
            "127.0.0.1:",
            "127.0.0.1:99999",
            "127.0.0.1:8080:1",
            "localhost evil",
            "local_host",
            "-localhost",
            "a..b",
            "",
            "127.0.0.1/x",
            "user@127.0.0.1",
        ] {
            assert!(!host_allowed(bad, &none), "{bad}");
        }
        for ok in ["[::1]", "[::1]:1", "127.0.0.1.", "localhost.:8080"] {
            assert!(host_allowed(ok, &none), "{ok}");
        }
        assert!(!host_allowed("chess.example.org.evil:443", &["chess.example.org".into()]));
        assert!(host_allowed("Chess.Example.org.:443", &["chess.example.org".into()]));
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
        let s2 = c.take(a).unwrap();
        assert_eq!(c.take(a).err(), Some(Refusal::PerClient));
        s2.set_busy(true);
        let s3 = c.take(b).unwrap();
        s3.set_busy(true);
        // Full: the idle connection (s1) is closed to make room.
        let s4 = c.take(b).unwrap();
        assert!(futures_now(s1.kick.notified()));
        assert!(!futures_now(s2.kick.notified()));
        assert_eq!(c.counts(), (3, 1));
        drop(s1);
        assert_eq!(c.counts(), (3, 1));
        // Full of busy connections: refused.
        s4.set_busy(true);
        assert_eq!(c.take("127.0.0.3".parse().unwrap()).err(), Some(Refusal::Total));
        drop(s2);
        assert!(c.take(a).is_ok());
        drop((s3, s4));
        // An IPv6 client counts by its /64; an IPv4-mapped one as IPv4.
        let c = Conns::new(10, 1);
        let _v6 = c.take("2001:db8:1:2::1".parse().unwrap()).unwrap();
        assert_eq!(c.take("2001:db8:1:2:ffff::9".parse().unwrap()).err(), Some(Refusal::PerClient));
        assert!(c.take("2001:db8:1:3::1".parse().unwrap()).is_ok());
        let _v4 = c.take("::ffff:10.0.0.1".parse().unwrap()).unwrap();
        assert_eq!(c.take("10.0.0.1".parse().unwrap()).err(), Some(Refusal::PerClient));
    }

    #[test]
    fn socket_budgets() {
        let s =
            Sockets::new(SocketLimits { max_seat: 3, seat_per_client: 2, max_spectators: 3, spectators_per_client: 2 });
        let ip = |n: u8| IpAddr::from([127, 0, 0, n]);
        // Spectators: two an address; the third address's second spectator
        // closes the one idle longest (the first of address 1, though
        // address 1's second one spoke more recently than address 2's).
        let a1 = s.take(ip(1), SocketKind::Spectator).unwrap();
        let a2 = s.take(ip(1), SocketKind::Spectator).unwrap();
        assert_eq!(s.take(ip(1), SocketKind::Spectator).err(), Some(Refusal::PerClient));
        let b1 = s.take(ip(2), SocketKind::Spectator).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        a2.heard();
        let c1 = s.take(ip(3), SocketKind::Spectator).unwrap();
        assert_eq!(s.counts(), SocketCounts { seat: 0, spectator: 3, evicted: 1 });
        // a1 was told to close (its permit is stored) and counts no more.
        assert!(futures_now(a1.kick.notified()));
        assert!(!futures_now(a2.kick.notified()) && !futures_now(b1.kick.notified()));
        drop(a1);
        assert_eq!(s.counts().spectator, 3);
        // Address 1 has room for one more again.
        let _a3 = s.take(ip(1), SocketKind::Spectator).unwrap();
        assert_eq!(s.counts(), SocketCounts { seat: 0, spectator: 3, evicted: 2 });
        // Seats have their own budget, untouched by spectators.
        let p1 = s.take(ip(1), SocketKind::Seat).unwrap();
        let _p2 = s.take(ip(1), SocketKind::Seat).unwrap();
        assert_eq!(s.take(ip(1), SocketKind::Seat).err(), Some(Refusal::PerClient));
        let _p3 = s.take(ip(2), SocketKind::Seat).unwrap();
        assert_eq!(s.take(ip(3), SocketKind::Seat).err(), Some(Refusal::Total));
        drop(p1);
        assert!(s.take(ip(3), SocketKind::Seat).is_ok());
        drop((a2, b1, c1));
    }

    /// True if the future is ready at its first poll.
    fn futures_now<F: std::future::Future>(f: F) -> bool {
        let mut f = std::pin::pin!(f);
        let waker = std::task::Waker::noop();
        f.as_mut().poll(&mut std::task::Context::from_waker(waker)).is_ready()
    }

    #[cfg(unix)]
    #[test]
    fn accept_pauses_without_a_line_a_try() {
        let mut p = AcceptPause::default();
        let emfile = std::io::Error::from_raw_os_error(libc::EMFILE);
        let (wait, line) = p.failed(&emfile);
        assert_eq!(wait, AcceptPause::FIRST);
        assert!(line.is_some_and(|l| l.starts_with("accept paused")));
        let mut waits = vec![];
        for _ in 0..200 {
            let (w, line) = p.failed(&emfile);
            assert!(line.is_none(), "one line a pause");
            waits.push(w);
        }
        assert!(waits.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(*waits.last().unwrap(), AcceptPause::MOST);
        // An accept between failures does not end the pause...
        assert!(p.accepted().is_none());
        let (w, line) = p.failed(&emfile);
        assert!(line.is_none() && w == AcceptPause::MOST);
        // ...one after a second without failure does, once.
        let later = std::time::Instant::now() + Duration::from_secs(2);
        assert!(p.accepted_at(later).is_some_and(|l| l.contains("202 failed tries")));
        assert!(p.accepted_at(later).is_none());
        // A connection reset before it was accepted is no reason to wait.
        let reset = std::io::Error::from(std::io::ErrorKind::ConnectionAborted);
        assert_eq!(p.failed(&reset), (Duration::ZERO, None));
    }

    #[test]
    fn hypers_own_errors_are_recognised() {
        assert_eq!(bare_error_status(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: x\r\n\r\n"), Some(400));
        assert_eq!(
            bare_error_status(b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n"),
            Some(431)
        );
        assert_eq!(
            bare_error_status(
                b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
            ),
            None
        );
        assert_eq!(bare_error_status(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"), None);
        assert_eq!(bare_error_status(b"HTTP/1.1 101 Switching Protocols\r\n\r\n"), None);
        assert_eq!(bare_error_status(b"\x81\x05hello"), None);
        let r = String::from_utf8(raw_json_response(505, &parse_error_message(505, 1))).unwrap();
        let (head, body) = r.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 505 HTTP Version Not Supported\r\n"));
        assert!(head.contains(&format!("Content-Length: {}", body.len())));
        assert!(serde_json::from_str::<serde_json::Value>(body).unwrap()["error"].as_str().unwrap().contains("HTTP/2"));
    }
}
