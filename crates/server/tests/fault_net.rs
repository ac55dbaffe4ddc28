//! The fault suite's second pass, connection layer: idle WebSockets from
//! many addresses, the Host header, the WebSocket close handshake, the
//! errors hyper answers itself, the pages' security headers and running
//! out of file descriptors. Each test failed before its fix.
//!
//! Short version in `cargo test`; full version (`CHIMERA_FAULT_FULL=1`, run
//! by `scripts/fault-suite.sh`) with the figures of `docs/server.md`,
//! printed and appended to `target/fault-report.txt`. Loopback only
//! (client addresses 127.0.x.y); every loop is bounded in count and in
//! time. Timings are reported, never asserted.

mod common;
use chimera_server::{Config, Server};
use common::fault::*;
use common::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Limits small enough to reach in a short test.
fn quick() -> Config {
    Config {
        header_timeout: Duration::from_secs(2),
        request_timeout: Duration::from_secs(3),
        ws_ping: Duration::from_millis(300),
        ws_timeout: Duration::from_secs(2),
        max_header_bytes: 4096,
        max_body: 8 * 1024,
        ..Config::default()
    }
}

/// Writes `req` and reads until the server closes (10 s at most); returns
/// the status, the head and the raw bytes after it.
async fn raw_bytes(mut s: tokio::net::TcpStream, req: &[u8]) -> (u16, String, Vec<u8>) {
    let _ = s.write_all(req).await;
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
    let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
        return (0, String::from_utf8_lossy(&buf).to_string(), Vec::new());
    };
    let head = String::from_utf8_lossy(&buf[..end]).to_string();
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head, buf[end + 4..].to_vec())
}

/// The value of a header in a response head (case-insensitive name).
fn header_of<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// A masked client frame (RFC 6455 5.3).
fn client_frame(op: u8, payload: &[u8]) -> Vec<u8> {
    assert!(payload.len() < 126);
    let mask = [0x37u8, 0xfa, 0x21, 0x3d];
    let mut f = vec![0x80 | op, 0x80 | payload.len() as u8];
    f.extend_from_slice(&mask);
    f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    f
}

/// A friend game with both seats taken: (id, white's token, black's token).
async fn friend_game(a: SocketAddr, from: std::net::Ipv4Addr) -> (String, String, String) {
    let (st, g) = create(a, from, json!({"variant": "chess", "mode": "friend", "color": "white"})).await;
    assert_eq!(st, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let (st, j) = http_from(
        a,
        from,
        "POST",
        &format!("/api/games/{id}/join"),
        "Content-Type: application/json\r\n",
        &json!({"invite": g["invite"]}).to_string(),
    )
    .await;
    assert_eq!(st, 200, "{j}");
    (id, g["token"].as_str().unwrap().to_string(), j["token"].as_str().unwrap().to_string())
}

const LINE: [&str; 20] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5", "a4b3", "d7d6",
    "c2c3", "e8g8", "h2h3", "c6a5", "b3c2", "c7c5",
];

fn pct(all: &[Duration], p: f64) -> f64 {
    all[((all.len() as f64 * p) as usize).min(all.len() - 1)].as_secs_f64() * 1e3
}

/// Finding 1: addresses that each hold as many idle spectator sockets as
/// they may (sockets that answer every ping) no longer lock anybody out:
/// `/api/health` answers 200 from any address, flood addresses included,
/// and players in running games keep moving. Before the fix, one pool
/// counted HTTP and sockets together: the flood filled it and every other
/// request got 503.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn net01_idle_spectator_flood_locks_nobody_out() {
    let (addrs, games, plies) = if full() { (50, 20, 20) } else { (4, 2, 8) };
    // The short version's pool is small enough for four addresses to fill
    // (before the fix); the full one has the defaults.
    let cfg = if full() {
        Config { ws_ping: Duration::from_secs(1), ws_timeout: Duration::from_secs(5), ..Config::default() }
    } else {
        Config { max_connections: 96, max_connections_per_client: 48, ..quick() }
    };
    let per_addr = cfg.max_connections_per_client;
    let (server, dir) = start_with("fn01", cfg).await;
    let a = server.addr;
    let mut ids = Vec::new();
    for g in 0..games {
        ids.push(friend_game(a, client_ip(200 + g)).await);
    }
    // The flood: every address opens as many spectator sockets as it is
    // let, each read by a task (so it answers pings) until the end.
    let stop = Arc::new(AtomicBool::new(false));
    let held = Arc::new(AtomicUsize::new(0));
    let mut refused = 0;
    let mut flood = Vec::new();
    for n in 0..addrs {
        for k in 0..per_addr {
            let id = ids[k % ids.len()].0.clone();
            match ws_from(a, client_ip(n), &id, None).await {
                Ok(mut w) => {
                    let (stop, held) = (stop.clone(), held.clone());
                    held.fetch_add(1, Ordering::SeqCst);
                    flood.push(tokio::spawn(async move {
                        while !stop.load(Ordering::SeqCst) {
                            match tokio::time::timeout(Duration::from_millis(200), w.next()).await {
                                Ok(Some(Ok(_))) | Err(_) => {}
                                _ => break,
                            }
                        }
                        held.fetch_sub(1, Ordering::SeqCst);
                    }));
                }
                Err(_) => refused += 1,
            }
        }
    }
    let flood_held = held.load(Ordering::SeqCst);
    // The health check answers, from a fresh address and from a flooding one.
    let (st, v) = http_from(a, client_ip(300), "GET", "/api/health", "", "").await;
    assert_eq!(st, 200, "health during the flood: {v}");
    let (st, v) = http_from(a, client_ip(0), "GET", "/api/health", "", "").await;
    assert_eq!(st, 200, "health from a flooding address: {v}");
    let sockets = v["sockets"].clone();
    // Players keep moving, one of them from a flooding address.
    let mut times = Vec::new();
    let mut health_ok = 0;
    let mut health_tries = 0;
    for (g, (id, wt, bt)) in ids.iter().enumerate() {
        let from_w = if g == 0 { client_ip(0) } else { client_ip(200 + g) };
        let mut w = ws_from(a, from_w, id, Some(wt)).await.expect("white's socket during the flood");
        let mut b = ws_from(a, client_ip(200 + g), id, Some(bt)).await.expect("black's socket during the flood");
        wait_state(&mut w, |_| true).await;
        wait_state(&mut b, |_| true).await;
        for (i, m) in LINE.iter().take(plies).enumerate() {
            let (me, other) = if i % 2 == 0 { (&mut w, &mut b) } else { (&mut b, &mut w) };
            let t = Instant::now();
            send_raw(me, &json!({"t": "move", "uci": m, "ply": i}).to_string()).await;
            wait_state(me, |s| s["ply"] == i + 1).await;
            times.push(t.elapsed());
            wait_state(other, |s| s["ply"] == i + 1).await;
            if i % 4 == 0 {
                health_tries += 1;
                if http_from(a, client_ip(301), "GET", "/api/health", "", "").await.0 == 200 {
                    health_ok += 1;
                }
            }
        }
    }
    stop.store(true, Ordering::SeqCst);
    for t in flood {
        let _ = tokio::time::timeout(Duration::from_secs(10), t).await;
    }
    times.sort();
    report(&format!(
        "idle spectator flood: {addrs} addresses x {per_addr} sockets tried, {flood_held} held answering pings, {refused} refused (sockets {sockets}); health 200 from a fresh and a flooding address, {health_ok}/{health_tries} health checks 200 during play; {} moves in {games} games: round trip p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        pct(&times, 0.5),
        pct(&times, 0.95),
        pct(&times, 0.99),
        pct(&times, 1.0)
    ));
    assert_eq!(health_ok, health_tries, "every health check during play answered 200");
    assert_eq!(times.len(), games * plies);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Idle HTTP connections from many addresses (silent since their accept,
/// with a header timeout long enough to outlast the test) cannot hold the
/// HTTP pool either: a new connection closes the one idle longest, so
/// `/api/health` answers 200. Before the fix the full pool answered 503.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn net01_idle_http_flood_cannot_hold_the_pool() {
    let addrs = if full() { 50 } else { 4 };
    let cfg = Config {
        max_connections: 64,
        max_connections_per_client: 48,
        header_timeout: Duration::from_secs(60),
        ..quick()
    };
    let (server, dir) = start_with("fn01h", cfg).await;
    let a = server.addr;
    let mut flood = Vec::new();
    for n in 0..addrs {
        for _ in 0..48 {
            if let Ok(s) = connect_from(a, client_ip(n)).await {
                flood.push(s);
            }
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut ok = 0;
    for i in 0..10 {
        let (st, v) = http_from(a, client_ip(300 + i), "GET", "/api/health", "", "").await;
        assert_eq!(st, 200, "health during an idle HTTP flood: {v}");
        ok += 1;
    }
    report(&format!(
        "idle HTTP flood: {addrs} addresses x 48 silent connections against a pool of 64: {ok}/10 health checks 200 (the idle longest closed to make room)"
    ));
    drop(flood);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finding 7: exactly one Host header, of strict syntax. Two headers and
/// malformed values are 400 in JSON; a well-formed foreign name is 421.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn net07_host_header_is_strict() {
    let (server, dir) = start_with("fn07", quick()).await;
    let a = server.addr;
    let ask = |host_lines: String| async move {
        let s = connect_from(a, client_ip(7)).await.unwrap();
        let req = format!("GET /api/meta HTTP/1.1\r\n{host_lines}Connection: close\r\n\r\n");
        let (st, _, body) = raw(s, req.as_bytes()).await;
        (st, serde_json::from_str::<Value>(&body).unwrap_or(Value::String(body)))
    };
    let cases = [
        (format!("Host: {a}\r\nHost: evil.example\r\n"), 400),
        ("Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n".to_string(), 400),
        ("Host: [::1].evil.example\r\n".to_string(), 400),
        ("Host: [::1]:80x\r\n".to_string(), 400),
        ("Host: 127.0.0.1:80x\r\n".to_string(), 400),
        ("Host: 127.0.0.1:8080:1\r\n".to_string(), 400),
        ("Host: local_host\r\n".to_string(), 400),
        ("Host: evil.example\r\n".to_string(), 421),
        (format!("Host: {a}\r\n"), 200),
        ("Host: [::1]:8080\r\n".to_string(), 200),
        ("Host: localhost\r\n".to_string(), 200),
    ];
    let mut lines = Vec::new();
    for (host, want) in cases {
        let (st, v) = ask(host.clone()).await;
        lines.push(format!("{} -> {st}", host.trim_end().replace("\r\n", " + ")));
        assert_eq!(st, want, "{host:?}: {v}");
        if want != 200 {
            assert!(is_json_error(&v), "{host:?}: {v}");
        }
    }
    report(&format!("host checking: {}", lines.join("; ")));
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finding 8: a client's close frame is answered with a close frame before
/// the connection closes: 1000 is echoed, a code no endpoint may send (999,
/// 1005) gets 1002 (RFC 6455 7.4). Before the fix the TCP connection was
/// dropped without a frame.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn net08_close_handshake_is_completed() {
    let (server, dir) = start_with("fn08", quick()).await;
    let a = server.addr;
    let (_, g) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "hotseat"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut lines = Vec::new();
    for (sent, want) in [(1000u16, 1000u16), (1001, 1001), (999, 1002), (1005, 1002), (1015, 1002)] {
        let mut s = connect_from(a, client_ip(8)).await.unwrap();
        let upgrade = format!(
            "GET /ws/{id} HTTP/1.1\r\nHost: {a}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        );
        s.write_all(upgrade.as_bytes()).await.unwrap();
        // Let the hello and the state arrive, then close.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let mut payload = sent.to_be_bytes().to_vec();
        payload.extend_from_slice(b"bye");
        s.write_all(&client_frame(8, &payload)).await.unwrap();
        let (st, _, frames) = raw_bytes(s, b"").await;
        assert_eq!(st, 101);
        let close = ws_frames(&frames).into_iter().find(|(op, _)| *op == 8).map(|(_, p)| p);
        let got = close.as_ref().filter(|p| p.len() >= 2).map(|p| u16::from_be_bytes([p[0], p[1]]));
        lines.push(format!("{sent} -> {}", got.map_or("no close frame".to_string(), |c| c.to_string())));
        assert_eq!(got, Some(want), "close {sent}: {close:?}");
    }
    report(&format!("WebSocket close handshake: client code -> server's close frame: {}", lines.join(", ")));
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finding 9: the requests hyper refuses before the router sees them get
/// JSON errors too, and the HTTP/2 preface gets an answer (505 in JSON).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn net09_hypers_own_errors_are_json() {
    let (server, dir) = start_with("fn09", quick()).await;
    let a = server.addr;
    let many: String = (0..1000).map(|i| format!("X-H{i}: 1\r\n")).collect();
    let cases: Vec<(&str, Vec<u8>, u16)> = vec![
        (
            "Content-Length overflow",
            format!("POST /api/position HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json\r\nContent-Length: 99999999999999999999999\r\n\r\n{{}}").into_bytes(),
            400,
        ),
        ("1,000 small headers", format!("GET /api/meta HTTP/1.1\r\nHost: {a}\r\n{many}\r\n").into_bytes(), 431),
        ("a NUL byte in a header", format!("GET /api/meta HTTP/1.1\r\nHost: {a}\r\nX-A: a\0b\r\n\r\n").into_bytes(), 400),
        ("an obs-fold header", format!("GET /api/meta HTTP/1.1\r\nHost: {a}\r\nX-A: a\r\n b\r\n\r\n").into_bytes(), 400),
        ("a bad request line", b"GET /api/meta HTTP/1.1 x\r\n\r\n".to_vec(), 400),
        ("the HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00".to_vec(), 505),
    ];
    let mut lines = Vec::new();
    for (what, req, want) in cases {
        let s = connect_from(a, client_ip(9)).await.unwrap();
        let (st, head, body) = raw_bytes(s, &req).await;
        let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        lines.push(format!("{what} -> {st} {}", if is_json_error(&v) { "JSON" } else { "bare" }));
        assert_eq!(st, want, "{what}: {head}");
        assert!(is_json_error(&v), "{what}: {head} {:?}", String::from_utf8_lossy(&body));
        assert_eq!(header_of(&head, "content-type"), Some("application/json"), "{what}");
    }
    // The connection still serves after all that.
    let (st, _) = http_from(a, client_ip(9), "GET", "/api/meta", "", "").await;
    assert_eq!(st, 200);
    report(&format!("errors below the router: {}", lines.join("; ")));
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Finding 10: every page carries a Content-Security-Policy without
/// 'unsafe-inline', refuses to be framed, and is not sniffed; every
/// response has nosniff. The pages themselves have no inline script or
/// style attribute the policy would block (the browser tests check that
/// the pages work under it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn net10_pages_carry_security_headers() {
    let (server, dir) = start_with("fn10", quick()).await;
    let a = server.addr;
    let (_, g) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "hotseat"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let pages = [
        "/".to_string(),
        format!("/game/{id}"),
        "/game/nosuchgame".to_string(),
        "/no/such/page".to_string(),
        "/analysis".to_string(),
        "/rules/chess".to_string(),
        "/docs/".to_string(),
        "/lab".to_string(),
    ];
    for p in &pages {
        let s = connect_from(a, client_ip(10)).await.unwrap();
        let req = format!("GET {p} HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n");
        let (st, head, body) = raw_bytes(s, req.as_bytes()).await;
        assert!(st == 200 || st == 404, "{p}: {st}");
        let csp = header_of(&head, "content-security-policy").unwrap_or_else(|| panic!("{p}: no CSP in {head}"));
        assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{p}: {csp}");
        for d in [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
        ] {
            assert!(csp.contains(d), "{p}: {d} missing from {csp}");
        }
        assert_eq!(header_of(&head, "x-frame-options"), Some("DENY"), "{p}");
        assert_eq!(header_of(&head, "x-content-type-options"), Some("nosniff"), "{p}");
        assert!(header_of(&head, "referrer-policy").is_some(), "{p}");
        // Nothing on the page that the policy would block.
        let html = String::from_utf8_lossy(&body).to_ascii_lowercase();
        assert!(!html.contains(" style=\"") && !html.contains("<style"), "{p}: inline style");
        for tag in html.split("<script").skip(1) {
            let open = tag.split('>').next().unwrap_or("");
            // A JSON data block (the page's messages, crate::i18n) is never run.
            let data = open.contains("type=\"application/json\"");
            assert!(open.contains("src=") || data, "{p}: inline script <script{open}>");
        }
        assert!(!html.contains(" onclick=") && !html.contains(" onload="), "{p}: inline handler");
    }
    for p in ["/api/meta", "/assets/game.js", "/api/nope"] {
        let s = connect_from(a, client_ip(10)).await.unwrap();
        let req = format!("GET {p} HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n");
        let (_, head, _) = raw_bytes(s, req.as_bytes()).await;
        assert_eq!(header_of(&head, "x-content-type-options"), Some("nosniff"), "{p}");
    }
    report(&format!(
        "security headers: {} pages with CSP (no 'unsafe-inline'), X-Frame-Options DENY, nosniff, Referrer-Policy; nosniff on the API and assets",
        pages.len()
    ));
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A server in a child process (this test binary run again with
/// `CHIMERA_NET_CHILD=DIR`) under a low limit of open files (soft 40, hard
/// 64, set by the shell before it starts); it writes its address to
/// DIR/addr and serves until killed. Its stderr goes to DIR/stderr.
#[test]
#[ignore = "the child server of fault_net; runs only with CHIMERA_NET_CHILD set"]
fn net_child_server() {
    let Ok(dir) = std::env::var("CHIMERA_NET_CHILD") else { return };
    let dir = std::path::PathBuf::from(dir);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let cfg = Config { header_timeout: Duration::from_secs(30), ..Config::default() };
        let server = Server::start_with("127.0.0.1:0", &dir.join("data"), cfg).await.expect("child server");
        std::fs::write(dir.join("addr.tmp"), server.addr.to_string()).unwrap();
        std::fs::rename(dir.join("addr.tmp"), dir.join("addr")).unwrap();
        tokio::time::sleep(Duration::from_secs(300)).await;
    });
}

/// File descriptors: the server raises its soft limit to the hard limit,
/// and when descriptors run out it pauses accepting (one log line a pause)
/// instead of trying every 50 ms with a line each time; when descriptors
/// come back it serves again. Before the fix the soft limit stayed where
/// it was and every failed accept logged a line.
#[test]
fn net_fd_exhaustion_pauses_accepting() {
    if !std::path::Path::new("/proc/self/limits").exists() {
        eprintln!("skipped: needs Linux's /proc");
        return;
    }
    let dir = fresh_dir("fnfd");
    std::fs::create_dir_all(&dir).unwrap();
    let stderr = std::fs::File::create(dir.join("stderr")).unwrap();
    let exe = std::env::current_exe().unwrap();
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -Sn 40 && ulimit -Hn 64 && exec \"$0\" net_child_server --exact --ignored --nocapture --test-threads=1")
        .arg(&exe)
        .env("CHIMERA_NET_CHILD", &dir)
        .stdout(std::process::Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("child starts");
    let mut addr: Option<SocketAddr> = None;
    for _ in 0..600 {
        if let Some(a) = std::fs::read_to_string(dir.join("addr")).ok().and_then(|s| s.trim().parse().ok()) {
            addr = Some(a);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let Some(a) = addr else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("the child server did not start: {}", std::fs::read_to_string(dir.join("stderr")).unwrap_or_default());
    };
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", child.id())).unwrap_or_default();
    let soft: u64 = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    // Idle connections until the child is out of descriptors, held 3 s.
    let mut flood = Vec::new();
    for _ in 0..120 {
        if let Ok(s) = std::net::TcpStream::connect(a) {
            flood.push(s);
        }
    }
    std::thread::sleep(Duration::from_secs(3));
    drop(flood);
    // Served again once descriptors are back (the pause is 1 s at most).
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let started = Instant::now();
    let mut st = 0;
    while st != 200 && started.elapsed() < Duration::from_secs(20) {
        st = rt.block_on(async { http_from(a, client_ip(11), "GET", "/api/health", "", "").await.0 });
        if st != 200 {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let served_after = started.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    let log = std::fs::read_to_string(dir.join("stderr")).unwrap_or_default();
    let fd_lines = log.lines().filter(|l| l.contains("Too many open files")).count();
    report(&format!(
        "fd exhaustion: soft limit 40, hard 64 -> {soft} after start; 120 idle connections held 3 s: {fd_lines} log lines about open files; health {st} {:.0} ms after the flood left",
        served_after.as_secs_f64() * 1e3
    ));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(soft, 64, "the soft limit raised to the hard one: {limits}");
    assert_eq!(st, 200, "served once descriptors are back");
    assert!(fd_lines <= 2, "one line a pause, not one a try: {fd_lines} lines:\n{log}");
}
