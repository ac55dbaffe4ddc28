//! Real-browser helpers shared by the browser test files: a chromedriver
//! process, headless Chromium sessions (window size, touch), clicks, drags,
//! waits and screenshots.

use super::*;
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct Driver {
    child: Child,
    port: u16,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // chromedriver leads its own process group (see `start_driver`), and
        // the browsers it started are in it: kill the whole group, or every
        // Chromium a failed or finished test leaves open lives on as an
        // orphan (hundreds of them after a few runs, each using CPU).
        let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", self.child.id())]).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

pub fn chromedriver_path() -> PathBuf {
    if let Ok(p) = std::env::var("CHROMEDRIVER") {
        assert!(std::path::Path::new(&p).exists(), "CHROMEDRIVER={p} does not exist: run scripts/setup-browser.sh, or set CHIMERA_SKIP_BROWSER=1 to skip browser tests");
        return PathBuf::from(p);
    }
    for p in ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"] {
        if std::path::Path::new(p).exists() {
            return PathBuf::from(p);
        }
    }
    panic!("chromedriver not found: run scripts/setup-browser.sh (apt-get install chromium chromium-driver), or set CHIMERA_SKIP_BROWSER=1 to skip browser tests");
}

pub fn chromium_path() -> Option<String> {
    if let Ok(p) = std::env::var("CHROMIUM") {
        return Some(p);
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .find(|p| std::path::Path::new(p).exists())
        .map(|s| s.to_string())
}

pub async fn start_driver() -> Driver {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(chromedriver_path())
        .arg(format!("--port={port}"))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("chromedriver does not start ({e}): run scripts/setup-browser.sh, or set CHIMERA_SKIP_BROWSER=1 to skip browser tests"));
    // chromedriver accepts connections before it can serve them; wait for
    // its /status to say ready (a session request sent too early is reset).
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    for _ in 0..200 {
        if driver_ready(addr).await {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Driver { child, port, profile: fresh_dir("chrome-profile") }
}

/// GET /status answers `"ready": true`; any error means not yet.
pub async fn driver_ready(addr: SocketAddr) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let probe = async {
        let mut s = tokio::net::TcpStream::connect(addr).await.ok()?;
        s.write_all(format!("GET /status HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes())
            .await
            .ok()?;
        // chromedriver keeps the connection open despite `close`: read until
        // the answer is in, not to the end.
        let mut buf = Vec::new();
        let mut chunk = [0u8; 1024];
        loop {
            let n = s.read(&mut chunk).await.ok()?;
            if n == 0 {
                return Some(false);
            }
            buf.extend_from_slice(&chunk[..n]);
            let text = String::from_utf8_lossy(&buf).replace(' ', "");
            if text.contains("\"ready\":true") {
                return Some(true);
            }
            if text.contains("\"ready\":false") {
                return Some(false);
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(2), probe).await.ok().flatten().unwrap_or(false)
}

pub async fn browser(d: &Driver) -> Client {
    browser_with(d, &d.profile).await
}

pub async fn browser_with(d: &Driver, profile: &std::path::Path) -> Client {
    let mut args = chrome_args(profile);
    args.push("--window-size=1280,900".into());
    connect(d, json!({ "args": args })).await
}

/// The Chromium flags every test session uses, with its own profile.
pub fn chrome_args(profile: &std::path::Path) -> Vec<String> {
    let mut args: Vec<String> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    args
}

/// Phone emulation (a 390×844-style touch screen) for `goog:chromeOptions`.
pub fn mobile_emulation(width: u32, height: u32, pixel_ratio: f64) -> Value {
    json!({
        "deviceMetrics": {"width": width, "height": height, "pixelRatio": pixel_ratio, "touch": true, "mobile": true},
        "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36",
    })
}

/// A WebDriver session with these `goog:chromeOptions`. Starting Chromium
/// on a loaded 2-core machine can fail transiently (the driver resets the
/// connection); a real failure repeats and is reported.
pub async fn connect(d: &Driver, mut opts: Value) -> Client {
    if let Some(bin) = chromium_path() {
        opts["binary"] = json!(bin);
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), opts);
    let mut last = None;
    for attempt in 0..3 {
        if attempt > 0 {
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
        match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{}", d.port))
            .await
        {
            Ok(c) => return c,
            Err(e) => last = Some(e),
        }
    }
    panic!("chromium session (3 attempts): {:?}", last.unwrap())
}

pub fn shots_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(shots_dir().join(format!("{name}.png")), png).unwrap();
}

/// Waits up to `secs` seconds for an element matching `css` and returns it.
/// Every error before the deadline means "try again": fantoccini's own wait
/// retries only a missing element, but a page that is navigating (a click
/// that opens the game page, a reload) answers "aborted by navigation" or
/// loses its execution context for a moment, and that is no failure. The
/// last error is reported at the deadline.
pub async fn wait_for(c: &Client, css: &str, secs: u64) -> fantoccini::elements::Element {
    let t0 = std::time::Instant::now();
    loop {
        match c.find(Locator::Css(css)).await {
            Ok(e) => return e,
            Err(e) if t0.elapsed() >= Duration::from_secs(secs) => panic!("{css}: not found after {secs} s: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Clicks the element `css` finds. A list the page redraws as it polls
/// (the seeks, the notifications) can replace the element between finding
/// and clicking it: WebDriver then refuses the click as stale, having
/// clicked nothing, and the new element is found and clicked instead.
pub async fn click_css(c: &Client, css: &str) {
    for _ in 0..3 {
        match wait_for(c, css, 10).await.click().await {
            Ok(()) => return,
            Err(e) if format!("{e:?}").contains("StaleElementReference") => continue,
            Err(e) => panic!("click {css}: {e}"),
        }
    }
    wait_for(c, css, 10).await.click().await.unwrap_or_else(|e| panic!("click {css}: {e}"));
}

pub async fn click_sq(c: &Client, sq: &str) {
    click_css(c, &format!("rect.sq[data-square='{sq}']")).await;
}

pub async fn state(a: SocketAddr, id: &str) -> Value {
    get_json(a, &format!("/api/games/{id}")).await.1
}

/// Waits until the game has `ply` moves on the server and in the page.
pub async fn wait_ply(c: &Client, a: SocketAddr, id: &str, ply: usize) -> Value {
    for _ in 0..100 {
        let s = state(a, id).await;
        if s["ply"] == ply {
            let shown = c.execute("return document.querySelectorAll('#moves .m').length", vec![]).await.unwrap();
            if shown == json!(ply) {
                return s;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("game {id} did not reach ply {ply}: {}", state(a, id).await);
}

pub fn legal<'a>(s: &'a Value, key: &str) -> Vec<&'a Value> {
    s["legal"][key].as_array().map(|a| a.iter().collect()).unwrap_or_default()
}

pub fn has_move(s: &Value, key: &str, uci: &str) -> bool {
    legal(s, key).iter().any(|m| m[0] == uci)
}

/// Plays `uci` by clicking from-square then to-square (and the chooser if
/// it appears); returns the state after it. The move must be legal.
pub async fn click_move(c: &Client, a: SocketAddr, id: &str, uci: &str) -> Value {
    let s = state(a, id).await;
    assert!(has_move(&s, &uci[0..2], uci), "{uci} is not legal here: {}", s["legal"]);
    let ply = s["ply"].as_u64().unwrap() as usize;
    click_sq(c, &uci[0..2]).await;
    click_sq(c, &uci[2..4]).await;
    if uci.len() > 4 {
        click_css(c, &format!(".chooser button[data-uci='{uci}']")).await;
    }
    wait_ply(c, a, id, ply + 1).await
}

/// Places (or re-enters) `uci` (`N@c3`) from `color`'s pocket by clicking
/// the pocket piece, then the square.
pub async fn click_drop(c: &Client, a: SocketAddr, id: &str, color: &str, uci: &str) -> Value {
    let s = state(a, id).await;
    assert!(has_move(&s, "@", uci), "{uci} is not legal here: {}", s["legal"]);
    let ply = s["ply"].as_u64().unwrap() as usize;
    click_css(c, &format!(".pocket-piece[data-drop-role='{}'][data-color='{color}']", &uci[0..1])).await;
    click_sq(c, &uci[2..4]).await;
    wait_ply(c, a, id, ply + 1).await
}

/// The side to move resigns by the button; checks the result and banner.
pub async fn finish_by_resignation(c: &Client, a: SocketAddr, id: &str, variant: &str, result: &str) {
    let s = resign(c, a, id).await;
    assert_eq!(s["result"], result);
    let text = banner(c).await;
    assert!(text.contains("resignation") && text.contains(result), "{text}");
    shot(c, &format!("{variant}-over")).await;
}

pub async fn resign(c: &Client, a: SocketAddr, id: &str) -> Value {
    click_css(c, "#resign").await;
    click_css(c, "#resign").await;
    for _ in 0..50 {
        let s = state(a, id).await;
        if s["status"] == "finished" {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("resignation not recorded");
}

pub async fn banner(c: &Client) -> String {
    let b = wait_for(c, "#banner:not(.hidden)", 10).await;
    b.text().await.unwrap()
}

/// A hot-seat game made through the API, opened in the page with its token.
pub async fn open_hotseat(c: &Client, a: SocketAddr, variant: &str, fen: Option<&str>) -> String {
    let mut body = json!({"variant": variant, "mode": "hotseat"});
    if let Some(f) = fen {
        body["fen"] = json!(f);
    }
    let (st, g) = post_json(a, "/api/games", &body).await;
    assert_eq!(st, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    c.goto(&format!("http://{a}/")).await.unwrap();
    c.execute(
        "localStorage.setItem('chimera.token.' + arguments[0], arguments[1])",
        vec![json!(id), g["token"].clone()],
    )
    .await
    .unwrap();
    c.goto(&format!("http://{a}/game/{id}")).await.unwrap();
    wait_for(c, "rect.sq[data-square='e2']", 10).await;
    wait_ply(c, a, &id, 0).await;
    id
}

pub fn skip() -> bool {
    std::env::var("CHIMERA_SKIP_BROWSER").as_deref() == Ok("1")
}
/// Drags the piece on `from` to `to` with real pointer events. (By viewport
/// coordinates: the board redraws itself while dragging, so elements found
/// before the drag go stale.)
pub async fn drag(c: &Client, from: &str, to: &str) {
    let centre = |sq: &str| {
        format!("const r = document.querySelector(\"rect.sq[data-square='{sq}']\").getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];")
    };
    let f = c.execute(&centre(from), vec![]).await.unwrap();
    let t = c.execute(&centre(to), vec![]).await.unwrap();
    let (fx, fy, tx, ty) =
        (f[0].as_i64().unwrap(), f[1].as_i64().unwrap(), t[0].as_i64().unwrap(), t[1].as_i64().unwrap());
    let a = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo { duration: None, x: fx, y: fy })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(80)), x: (fx + tx) / 2, y: (fy + ty) / 2 })
        .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(80)), x: tx, y: ty })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    c.perform_actions(a).await.expect("drag");
}

/// Waits until the page shows `n` moves.
pub async fn wait_shown(c: &Client, n: usize) {
    let js = "return document.querySelectorAll('#moves .m').length";
    wait_js(c, js, |shown| shown == &json!(n)).await;
}

pub async fn text_of(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css)).await.unwrap().text().await.unwrap()
}

/// A window size for the layout tests; `phone` is Chromium's mobile
/// emulation (touch events, a mobile viewport).
#[derive(Clone, Copy, Debug)]
pub struct Screen {
    pub width: u32,
    pub height: u32,
    pub phone: bool,
}

impl Screen {
    pub const LAPTOP: Screen = Screen { width: 1366, height: 768, phone: false };
    pub const DESKTOP: Screen = Screen { width: 1200, height: 900, phone: false };
    pub const PHONE: Screen = Screen { width: 390, height: 844, phone: true };

    /// `1366x768`, or `phone` for the phone.
    pub fn name(&self) -> String {
        if self.phone {
            "phone".into()
        } else {
            format!("{}x{}", self.width, self.height)
        }
    }
}

/// A Chromium session with the window (viewport) of `screen`.
pub async fn browser_screen(d: &Driver, profile: &std::path::Path, screen: Screen) -> Client {
    let mut args = chrome_args(profile);
    args.push("--hide-scrollbars".into());
    args.push(format!("--window-size={},{}", screen.width, screen.height));
    let mut opts = json!({ "args": args });
    if screen.phone {
        opts["mobileEmulation"] = mobile_emulation(screen.width, screen.height, 2.0);
    }
    connect(d, opts).await
}

/// The viewport centre of the first element matching `css`, scrolled into
/// view first where it is not (as a person scrolls to what they press).
pub async fn centre_of(c: &Client, css: &str) -> (i64, i64) {
    let v = c
        .execute(
            "const e = document.querySelector(arguments[0]); if (!e) return null; e.scrollIntoView({ block: 'nearest', inline: 'nearest' }); const r = e.getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];",
            vec![json!(css)],
        )
        .await
        .unwrap();
    assert!(!v.is_null(), "no element {css}");
    (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
}

/// A finger's tap (W3C touch pointer actions) at a viewport point.
pub async fn tap_at(c: &Client, x: i64, y: i64) {
    use fantoccini::actions::TouchActions;
    let a = TouchActions::new("finger".into())
        .then(PointerAction::MoveTo { duration: None, x, y })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::Pause { duration: Duration::from_millis(60) })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    c.perform_actions(a).await.expect("tap");
    c.release_actions().await.expect("release");
}

/// A press where a person would press: a tap on the phone, a mouse click elsewhere.
pub async fn press_css(c: &Client, screen: Screen, css: &str) {
    if screen.phone {
        let (x, y) = centre_of(c, css).await;
        tap_at(c, x, y).await;
    } else {
        click_css(c, css).await;
    }
}

pub async fn press_sq(c: &Client, screen: Screen, sq: &str) {
    press_css(c, screen, &format!("rect.sq[data-square='{sq}']")).await;
}

/// A press on an idempotent control (a move in a list, a tab) until `js`
/// returns `want`: pressed again (at most three times) when nothing
/// happened within 5 s, as a person taps again. On a loaded machine a
/// WebDriver tap can arrive as a long press (the browser's timer runs out
/// between finger down and up), which is no click.
pub async fn press_until(c: &Client, screen: Screen, css: &str, js: &str, want: Value) {
    for _ in 0..2 {
        press_css(c, screen, css).await;
        let t0 = std::time::Instant::now();
        while t0.elapsed() < Duration::from_secs(5) {
            if c.execute(js, vec![]).await.unwrap() == want {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    press_css(c, screen, css).await;
    wait_eq(c, js, want).await;
}

/// One key pressed and released (a `fantoccini::key::Key` or a character).
pub async fn key(c: &Client, k: impl Into<char>) {
    use fantoccini::actions::{KeyAction, KeyActions};
    let k = k.into();
    let a = KeyActions::new("keyboard".into()).then(KeyAction::Down { value: k }).then(KeyAction::Up { value: k });
    c.perform_actions(a).await.expect("key");
}

/// Polls `js` (a script returning a value) until it returns `want`; panics with the last value.
pub async fn wait_eq(c: &Client, js: &str, want: Value) -> Value {
    wait_js(c, js, |v| v == &want).await
}

/// Drags from the centre of `from` to the centre of `to` (CSS selectors):
/// a finger on the phone, the mouse elsewhere, moving in steps.
pub async fn drag_css(c: &Client, screen: Screen, from: &str, to: &str) {
    use fantoccini::actions::TouchActions;
    let (fx, fy) = centre_of(c, from).await;
    let (tx, ty) = centre_of(c, to).await;
    let steps = [
        PointerAction::MoveTo { duration: None, x: fx, y: fy },
        PointerAction::Down { button: MOUSE_BUTTON_LEFT },
        PointerAction::MoveTo { duration: Some(Duration::from_millis(80)), x: (fx * 2 + tx) / 3, y: (fy * 2 + ty) / 3 },
        PointerAction::MoveTo { duration: Some(Duration::from_millis(80)), x: (fx + tx * 2) / 3, y: (fy + ty * 2) / 3 },
        PointerAction::MoveTo { duration: Some(Duration::from_millis(80)), x: tx, y: ty },
        PointerAction::Up { button: MOUSE_BUTTON_LEFT },
    ];
    if screen.phone {
        let mut a = TouchActions::new("finger".into());
        for s in steps {
            a = a.then(s);
        }
        c.perform_actions(a).await.expect("touch drag");
    } else {
        let mut a = MouseActions::new("mouse".into());
        for s in steps {
            a = a.then(s);
        }
        c.perform_actions(a).await.expect("mouse drag");
    }
    c.release_actions().await.expect("release");
}

/// The three window sizes the UI is tested at: two desktops and a phone
/// (Chromium's mobile emulation: a 390×844 touch screen).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Size {
    Wide,
    Tall,
    Phone,
}

pub const SIZES: [Size; 3] = [Size::Wide, Size::Tall, Size::Phone];

impl Size {
    pub fn name(self) -> &'static str {
        match self {
            Size::Wide => "1366x768",
            Size::Tall => "1200x900",
            Size::Phone => "phone",
        }
    }
}

/// A session of its own (own profile: own localStorage) at `size`. Drop
/// the returned directory after closing the client.
pub async fn session(d: &Driver, size: Size) -> (Client, PathBuf) {
    let profile = fresh_dir("chrome-session");
    let mut args = chrome_args(&profile);
    args.push("--autoplay-policy=no-user-gesture-required".into());
    let mut opts = json!({});
    match size {
        Size::Wide => args.push("--window-size=1366,768".into()),
        Size::Tall => args.push("--window-size=1200,900".into()),
        Size::Phone => {
            args.push("--window-size=390,844".into());
            opts["mobileEmulation"] = mobile_emulation(390, 844, 3.0);
        }
    }
    opts["args"] = json!(args);
    let c = connect(d, opts).await;
    if size != Size::Phone {
        // Headless Chromium takes --window-size as the viewport only on
        // some versions: set the window as well.
        let (w, h) = if size == Size::Wide { (1366, 768) } else { (1200, 900) };
        let _ = c.set_window_size(w, h).await;
    }
    (c, profile)
}

/// Closes a session and deletes its profile.
pub async fn end_session(c: Client, profile: PathBuf) {
    let _ = c.close().await;
    let _ = std::fs::remove_dir_all(profile);
}

/// Presses the element: a click on a desktop, a tap (W3C touch pointer
/// actions) on the phone.
pub async fn press(c: &Client, size: Size, css: &str) {
    if size != Size::Phone {
        return click_css(c, css).await;
    }
    wait_for(c, css, 10).await; // found: now by coordinates, after scrolling it into view
    let at = c
        .execute(
            "const e = document.querySelector(arguments[0]); e.scrollIntoView({block: 'center'}); \
             const r = e.getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];",
            vec![json!(css)],
        )
        .await
        .unwrap();
    let (x, y) = (at[0].as_i64().unwrap(), at[1].as_i64().unwrap());
    let t = fantoccini::actions::TouchActions::new("finger".into())
        .then(PointerAction::MoveTo { duration: None, x, y })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    c.perform_actions(t).await.unwrap_or_else(|e| panic!("tap {css}: {e}"));
}

/// Runs `js` (which returns a value) until `pred` holds on it, 30 s at most
/// (pages poll every few seconds, and a loaded 2-core machine is slow).
pub async fn wait_js(c: &Client, js: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let mut last = String::from("nothing yet");
    let t0 = std::time::Instant::now();
    while t0.elapsed() < Duration::from_secs(30) {
        // An error (the page navigating) is one more try, as in `wait_for`.
        match c.execute(js, vec![]).await {
            Ok(v) if pred(&v) => return v,
            Ok(v) => last = v.to_string(),
            Err(e) => last = format!("error: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{js}: still {last} after 30 s");
}

/// Waits until the element is shown (present and not `display: none`).
pub async fn wait_visible(c: &Client, css: &str) {
    let js = format!("const e = document.querySelector({}); return !!e && e.offsetParent !== null;", json!(css));
    wait_js(c, &js, |v| v == &json!(true)).await;
}

pub async fn is_visible(c: &Client, css: &str) -> bool {
    let js = format!("const e = document.querySelector({}); return !!e && e.offsetParent !== null;", json!(css));
    c.execute(&js, vec![]).await.unwrap() == json!(true)
}

/// Gives the page a seat token for game `id` (as creating it there would).
pub async fn give_token(c: &Client, a: SocketAddr, id: &str, token: &Value, colors: Value) {
    c.goto(&format!("http://{a}/")).await.unwrap();
    c.execute(
        "localStorage.setItem('chimera.token.' + arguments[0], arguments[1]); \
         localStorage.setItem('chimera.colors.' + arguments[0], JSON.stringify(arguments[2]));",
        vec![json!(id), token.clone(), colors],
    )
    .await
    .unwrap();
}

/// Plays `uci` on the open game page by pressing its two squares.
pub async fn press_move(c: &Client, size: Size, a: SocketAddr, id: &str, uci: &str) -> Value {
    let s = state(a, id).await;
    assert!(has_move(&s, &uci[0..2], uci), "{uci} is not legal here: {}", s["legal"]);
    let ply = s["ply"].as_u64().unwrap() as usize;
    press(c, size, &format!("rect.sq[data-square='{}']", &uci[0..2])).await;
    press(c, size, &format!("rect.sq[data-square='{}']", &uci[2..4])).await;
    wait_ply(c, a, id, ply + 1).await
}

/// Types `text` into the field `css` (cleared first).
pub async fn type_into(c: &Client, css: &str, text: &str) {
    let e = wait_for(c, css, 10).await;
    e.clear().await.unwrap();
    e.send_keys(text).await.unwrap();
}

/// The header's account link once it has heard from the server.
pub async fn account_link(c: &Client, state: &str) -> String {
    wait_for(c, &format!("#account-link[data-state='{state}']"), 15).await.text().await.unwrap()
}

/// Signs up `name` in session `c` through the page.
pub async fn sign_up(c: &Client, a: std::net::SocketAddr, size: Size, name: &str, pw: &str) {
    c.goto(&format!("http://{a}/login")).await.unwrap();
    type_into(c, "#signup-username", name).await;
    type_into(c, "#signup-password", pw).await;
    type_into(c, "#signup-password2", pw).await;
    press(c, size, "#signup-submit").await;
    assert_eq!(account_link(c, "in").await.trim(), name, "{size:?}");
}

/// Two browsers at `size`, each signed up (Ann and Bob, their names ending
/// with the size so that every size has its own accounts), password `pw`:
/// (Ann's browser and profile, Bob's, Ann's name, Bob's).
pub async fn two_players(
    d: &Driver,
    a: std::net::SocketAddr,
    size: Size,
    pw: &str,
) -> ((Client, PathBuf), (Client, PathBuf), String, String) {
    let tag = size.name().replace('x', "_");
    let ann = session(d, size).await;
    let bob = session(d, size).await;
    let (an, bn) = (format!("Ann{tag}"), format!("Bob{tag}"));
    sign_up(&ann.0, a, size, &an, pw).await;
    sign_up(&bob.0, a, size, &bn, pw).await;
    (ann, bob, an, bn)
}

/// A Chrome DevTools Protocol command, through chromedriver's
/// `POST /session/{id}/goog/cdp/execute`.
#[derive(Debug)]
struct Cdp(&'static str, Value);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        (axum::http::Method::POST, Some(serde_json::json!({"cmd": self.0, "params": self.1}).to_string()))
    }
}

/// Pages load as on Lighthouse's phone (`slow`): a CPU six times slower,
/// 150 ms of latency and 1.6 Mbit/s, so the first paint comes before the
/// scripts have drawn, as it does for people; or at full speed again.
pub async fn throttle(c: &Client, slow: bool) {
    let (rate, net) = if slow {
        (
            6,
            serde_json::json!({"offline": false, "latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 80_000}),
        )
    } else {
        (1, serde_json::json!({"offline": false, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}))
    };
    c.issue_cmd(Cdp("Emulation.setCPUThrottlingRate", serde_json::json!({ "rate": rate }))).await.expect("CDP: CPU");
    c.issue_cmd(Cdp("Network.emulateNetworkConditions", net)).await.expect("CDP: network");
}
