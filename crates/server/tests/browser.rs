//! Real-browser tests: headless Chromium driven through chromedriver with
//! fantoccini. Each variant gets a short hot-seat game played by clicking,
//! with its special moves when the server reports them legal, to a result.
//! Screenshots go to `target/screenshots/` for review.
//!
//! Skipped only with CHIMERA_SKIP_BROWSER=1; otherwise a missing chromedriver
//! fails the test (run `scripts/setup-browser.sh`).

mod common;
use common::*;
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Driver {
    child: Child,
    port: u16,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn chromedriver_path() -> PathBuf {
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

fn chromium_path() -> Option<String> {
    if let Ok(p) = std::env::var("CHROMIUM") {
        return Some(p);
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .find(|p| std::path::Path::new(p).exists())
        .map(|s| s.to_string())
}

async fn start_driver() -> Driver {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(chromedriver_path())
        .arg(format!("--port={port}"))
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
async fn driver_ready(addr: SocketAddr) -> bool {
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

async fn browser(d: &Driver) -> Client {
    browser_with(d, &d.profile).await
}

async fn browser_with(d: &Driver, profile: &std::path::Path) -> Client {
    let mut caps = serde_json::Map::new();
    let mut opts = json!({"args": [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1280,900",
        format!("--user-data-dir={}", profile.display()),
    ]});
    if let Some(bin) = chromium_path() {
        opts["binary"] = json!(bin);
    }
    caps.insert("goog:chromeOptions".into(), opts);
    // Starting Chromium on a loaded 2-core machine can fail transiently (the
    // driver resets the connection); a real failure repeats and is reported.
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

fn shots_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&d).unwrap();
    d
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(shots_dir().join(format!("{name}.png")), png).unwrap();
}

async fn click_css(c: &Client, css: &str) {
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

async fn click_sq(c: &Client, sq: &str) {
    click_css(c, &format!("rect.sq[data-square='{sq}']")).await;
}

async fn state(a: SocketAddr, id: &str) -> Value {
    get_json(a, &format!("/api/games/{id}")).await.1
}

/// Waits until the game has `ply` moves on the server and in the page.
async fn wait_ply(c: &Client, a: SocketAddr, id: &str, ply: usize) -> Value {
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

fn legal<'a>(s: &'a Value, key: &str) -> Vec<&'a Value> {
    s["legal"][key].as_array().map(|a| a.iter().collect()).unwrap_or_default()
}

fn has_move(s: &Value, key: &str, uci: &str) -> bool {
    legal(s, key).iter().any(|m| m[0] == uci)
}

/// Plays `uci` by clicking from-square then to-square (and the chooser if
/// it appears); returns the state after it. The move must be legal.
async fn click_move(c: &Client, a: SocketAddr, id: &str, uci: &str) -> Value {
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
async fn click_drop(c: &Client, a: SocketAddr, id: &str, color: &str, uci: &str) -> Value {
    let s = state(a, id).await;
    assert!(has_move(&s, "@", uci), "{uci} is not legal here: {}", s["legal"]);
    let ply = s["ply"].as_u64().unwrap() as usize;
    click_css(c, &format!(".pocket-piece[data-drop-role='{}'][data-color='{color}']", &uci[0..1])).await;
    click_sq(c, &uci[2..4]).await;
    wait_ply(c, a, id, ply + 1).await
}

/// The side to move resigns by the button; checks the result and banner.
async fn finish_by_resignation(c: &Client, a: SocketAddr, id: &str, variant: &str, result: &str) {
    let s = resign(c, a, id).await;
    assert_eq!(s["result"], result);
    let text = banner(c).await;
    assert!(text.contains("resignation") && text.contains(result), "{text}");
    shot(c, &format!("{variant}-over")).await;
}

async fn resign(c: &Client, a: SocketAddr, id: &str) -> Value {
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

async fn banner(c: &Client) -> String {
    let b = c
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#banner:not(.hidden)"))
        .await
        .expect("game-over banner");
    b.text().await.unwrap()
}

/// A hot-seat game made through the API, opened in the page with its token.
async fn open_hotseat(c: &Client, a: SocketAddr, variant: &str, fen: Option<&str>) -> String {
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
    c.wait().at_most(Duration::from_secs(10)).for_element(Locator::Css("rect.sq[data-square='e2']")).await.unwrap();
    wait_ply(c, a, &id, 0).await;
    id
}

fn skip() -> bool {
    std::env::var("CHIMERA_SKIP_BROWSER").as_deref() == Ok("1")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_games() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let dir = fresh_dir("browser");
    let server = start(&dir).await;
    let a = server.addr;
    let driver = start_driver().await;
    let c = browser(&driver).await;

    // Lobby: create a hot-seat chess game by clicking.
    c.goto(&format!("http://{a}/")).await.unwrap();
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#variant option[value='magicring']"))
        .await
        .unwrap();
    shot(&c, "lobby").await;
    click_css(&c, "input[name=mode][value=hotseat] + *, label:has(input[name=mode][value=hotseat])").await;
    click_css(&c, "#create-btn").await;
    c.wait().at_most(Duration::from_secs(10)).for_element(Locator::Css("rect.sq[data-square='f2']")).await.unwrap();
    let url = c.current_url().await.unwrap();
    let id = url.path().rsplit('/').next().unwrap().to_string();
    wait_ply(&c, a, &id, 0).await;
    // Fool's mate by clicking.
    click_sq(&c, "f2").await;
    shot(&c, "chess-selected-dots").await;
    let dots = c.find_all(Locator::Css("circle.dot")).await.unwrap().len();
    assert_eq!(dots, 2, "f2 has two destinations");
    click_sq(&c, "f3").await;
    wait_ply(&c, a, &id, 1).await;
    click_move(&c, a, &id, "e7e5").await;
    click_move(&c, a, &id, "g2g4").await;
    click_move(&c, a, &id, "d8h4").await;
    let text = banner(&c).await;
    assert!(text.contains("0-1") && text.contains("checkmate"), "{text}");
    let moves = c.find(Locator::Css("#moves")).await.unwrap().text().await.unwrap();
    assert!(moves.contains("Qh4#"), "{moves}");
    shot(&c, "chess-fools-mate").await;
    // Step back through the moves.
    click_css(&c, "#first").await;
    let st = c.find(Locator::Css("#status")).await.unwrap().text().await.unwrap();
    assert!(st.contains("Reviewing move 0"), "{st}");
    click_css(&c, "#flip").await;
    shot(&c, "chess-review-flipped").await;

    // Promotion chooser shows only the legal pieces.
    let id = open_hotseat(&c, a, "chess", Some("7k/P7/8/8/8/8/8/K7 w - - 0 1")).await;
    click_sq(&c, "a7").await;
    click_sq(&c, "a8").await;
    let n = c
        .wait()
        .at_most(Duration::from_secs(5))
        .for_element(Locator::Css(".chooser:not(.hidden)"))
        .await
        .unwrap()
        .find_all(Locator::Css("button[data-uci]"))
        .await
        .unwrap()
        .len();
    let s = state(a, &id).await;
    assert_eq!(n, legal(&s, "a7").len(), "one button per legal promotion");
    shot(&c, "chess-promotion-chooser").await;
    click_css(&c, ".chooser button[data-uci='a7a8q']").await;
    let s = wait_ply(&c, a, &id, 1).await;
    assert_eq!(s["history"][0]["san"], "a8=Q+");
    let s = resign(&c, a, &id).await;
    assert_eq!(s["result"], "1-0", "Black resigned (side to move)");

    // The variants: a short game each by clicking, through its special
    // moves, to a result (resignation of the side to move: hot-seat).
    for variant in ["genie", "genie-ownhalf"] {
        let id = open_hotseat(&c, a, variant, None).await;
        let s = state(a, &id).await;
        assert_eq!(s["state"]["flips"], json!({"w": true, "b": true}));
        // 1. Gd2: select the pawn, press the flip action under the board.
        click_sq(&c, "d2").await;
        shot(&c, &format!("{variant}-flip-hint")).await;
        click_css(&c, "button.action[data-uci='d2d2g']").await;
        let s = wait_ply(&c, a, &id, 1).await;
        assert_eq!(s["history"][0]["san"], "Gd2");
        assert_eq!(s["state"]["flips"], json!({"w": false, "b": true}), "White's flip is spent");
        assert!(
            c.find(Locator::Css("g.piece[data-square='d2'][data-piece='G']")).await.is_ok(),
            "the Genie is drawn on d2"
        );
        click_move(&c, a, &id, "e7e5").await;
        // 2. Ge3: the Genie's ferz step.
        let s = click_move(&c, a, &id, "d2e3").await;
        assert_eq!(s["history"][2]["san"], "Ge3");
        shot(&c, &format!("{variant}-game")).await;
        finish_by_resignation(&c, a, &id, variant, "1-0").await;
    }

    {
        // Genesis: both Kings from the reserves, another placement each, then
        // a board move.
        let variant = "genesis";
        let id = open_hotseat(&c, a, variant, None).await;
        let s = state(a, &id).await;
        assert_eq!(s["pockets"]["w"]["P"], 8);
        assert!(legal(&s, "@").iter().all(|m| m[0].as_str().unwrap().starts_with("K@")), "King first");
        click_css(&c, ".pocket-piece[data-drop-role='K'][data-color='w']").await;
        shot(&c, "genesis-placement-zone").await;
        click_sq(&c, "e1").await;
        wait_ply(&c, a, &id, 1).await;
        click_drop(&c, a, &id, "b", "K@e8").await;
        click_drop(&c, a, &id, "w", "N@c3").await;
        let s = click_drop(&c, a, &id, "b", "N@c6").await;
        assert_eq!(s["pockets"]["w"]["N"], 1, "one White Knight left in reserve");
        let s = click_move(&c, a, &id, "c3d5").await;
        let sans: Vec<&str> = s["history"].as_array().unwrap().iter().map(|h| h["san"].as_str().unwrap()).collect();
        assert_eq!(sans, ["K@e1", "K@e8", "N@c3", "N@c6", "Nd5"]);
        shot(&c, "genesis-game").await;
        finish_by_resignation(&c, a, &id, variant, "1-0").await;
    }

    {
        // Clown: 1. Nf3(!C) by the declaration chooser, a Clown move, the
        // Clown captured, and White's re-entry from the hand.
        let variant = "clown";
        let id = open_hotseat(&c, a, variant, None).await;
        click_sq(&c, "g1").await;
        click_sq(&c, "f3").await;
        c.wait()
            .at_most(Duration::from_secs(5))
            .for_element(Locator::Css(".chooser:not(.hidden) button[data-uci='g1f3c']"))
            .await
            .unwrap();
        shot(&c, "clown-declare-chooser").await;
        click_css(&c, ".chooser button[data-uci='g1f3c']").await;
        let s = wait_ply(&c, a, &id, 1).await;
        assert_eq!(s["history"][0]["san"], "Nf3(!C)");
        assert_eq!(s["state"]["had_clown"], json!({"w": true, "b": false}));
        assert!(
            c.find(Locator::Css("g.piece[data-square='f3'][data-piece='C']")).await.is_ok(),
            "the Clown is drawn on f3"
        );
        shot(&c, "clown-declared").await;
        click_move(&c, a, &id, "d7d5").await;
        // The Clown on the f file moves as a Bishop.
        let s = click_move(&c, a, &id, "f3e4").await;
        assert_eq!(s["history"][2]["san"], "Ce4");
        let s = click_move(&c, a, &id, "d5e4").await;
        assert_eq!(s["pockets"]["w"], json!({"N": 1}), "the captured Clown is a Knight in White's hand");
        // A piece just captured may not re-enter at once ("not immediately").
        assert!(legal(&s, "@").is_empty(), "no re-entry straight after the capture");
        click_move(&c, a, &id, "a2a3").await;
        let s = click_move(&c, a, &id, "e7e5").await;
        let reentry = legal(&s, "@").iter().find(|m| m[2] == "reentry").expect("a re-entry is legal")[0]
            .as_str()
            .unwrap()
            .to_string();
        click_css(&c, &format!(".pocket-piece[data-drop-role='{}'][data-color='w']", &reentry[0..1])).await;
        shot(&c, "clown-hand").await;
        let s = click_drop(&c, a, &id, "w", &reentry).await;
        assert!(s["history"][6]["san"].as_str().unwrap().starts_with('!'), "{}", s["history"][6]);
        assert_eq!(s["state"]["reentry_used"], json!({"w": true, "b": false}));
        shot(&c, "clown-game").await;
        finish_by_resignation(&c, a, &id, variant, "1-0").await;
    }

    let id = {
        // Magic Ring: 1. d4 e5 2. e1~e2 (the King hands its ring to the e2
        // pawn: level 1, Queen) d6 3. a Queen move of that pawn (it is
        // tainted by it).
        let variant = "magicring";
        let id = open_hotseat(&c, a, variant, None).await;
        let s = state(a, &id).await;
        assert_eq!(
            s["state"]["rings"][0],
            json!({"owner": "w", "square": "e1", "level": 0, "power": null, "active": false})
        );
        assert_eq!(c.find_all(Locator::Css("g.ring")).await.unwrap().len(), 2, "both rings drawn");
        click_move(&c, a, &id, "d2d4").await;
        click_move(&c, a, &id, "e7e5").await;
        click_sq(&c, "e1").await;
        assert!(!c.find_all(Locator::Css("circle.dot-pass")).await.unwrap().is_empty(), "ring pass targets shown");
        shot(&c, "magicring-ring-pass").await;
        assert!(has_move(&state(a, &id).await, "e1", "e1e2"));
        click_sq(&c, "e2").await;
        let s = wait_ply(&c, a, &id, 3).await;
        assert_eq!(s["history"][2]["san"], "e1~e2");
        assert_eq!(
            s["state"]["rings"][0],
            json!({"owner": "w", "square": "e2", "level": 1, "power": "Q", "active": true})
        );
        shot(&c, "magicring-ring-passed").await;
        click_move(&c, a, &id, "d7d6").await;
        let s = click_move(&c, a, &id, "e2h5").await;
        assert_eq!(s["state"]["tainted"], json!(["h5"]), "{}", s["history"][4]);
        assert!(
            c.find(Locator::Css("g.ring[data-ring='w'][data-square='h5']")).await.is_ok(),
            "the ring moved with its pawn"
        );
        assert!(c.find(Locator::Css("g.tainted[data-square='h5']")).await.is_ok(), "tainted mark drawn");
        shot(&c, "magicring-game").await;
        finish_by_resignation(&c, a, &id, variant, "1-0").await;
        // Reviewing: each ply shows the rings where they were then.
        click_css(&c, "#first").await;
        c.wait()
            .at_most(Duration::from_secs(5))
            .for_element(Locator::Css("g.ring[data-ring='w'][data-square='e1']"))
            .await
            .expect("start: White's ring on e1");
        for _ in 0..3 {
            click_css(&c, "#next").await;
        }
        c.wait()
            .at_most(Duration::from_secs(5))
            .for_element(Locator::Css("g.ring[data-ring='w'][data-square='e2']"))
            .await
            .expect("after e1~e2: the ring on e2");
        assert!(c.find_all(Locator::Css("g.tainted")).await.unwrap().is_empty(), "nothing tainted yet");
        shot(&c, "magicring-review").await;
        id
    };

    // Analysis board and rules pages render.
    c.goto(&format!("http://{a}/analysis?game={id}")).await.unwrap();
    c.wait().at_most(Duration::from_secs(10)).for_element(Locator::Css("#moves .m")).await.unwrap();
    for _ in 0..50 {
        let pv = c.find(Locator::Css("#pv")).await.unwrap().text().await.unwrap();
        if !pv.is_empty() && pv != "Thinking…" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    shot(&c, "analysis").await;
    for v in ["chess", "genie", "genesis", "clown", "magicring"] {
        c.goto(&format!("http://{a}/rules/{v}")).await.unwrap();
        // Diagrams are drawn once the server has read their FENs.
        for _ in 0..100 {
            let drawn = c.execute("return [...document.querySelectorAll('.diagram')].every((d) => d.querySelector('g.piece, .pocket-piece'))", vec![]).await.unwrap();
            if drawn == json!(true) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let text = c.find(Locator::Css("#diagrams")).await.unwrap().text().await.unwrap();
        assert!(!text.contains("unavailable"), "{v}: {text}");
        shot(&c, &format!("rules-{v}")).await;
        c.execute("document.querySelector('.diagrams').scrollIntoView()", vec![]).await.unwrap();
        shot(&c, &format!("rules-{v}-diagrams")).await;
    }

    c.close().await.unwrap();
    drop(driver);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Drags the piece on `from` to `to` with real pointer events. (By viewport
/// coordinates: the board redraws itself while dragging, so elements found
/// before the drag go stale.)
async fn drag(c: &Client, from: &str, to: &str) {
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
async fn wait_shown(c: &Client, n: usize) {
    for _ in 0..100 {
        let shown = c.execute("return document.querySelectorAll('#moves .m').length", vec![]).await.unwrap();
        if shown == json!(n) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("page did not show {n} moves");
}

async fn text_of(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css)).await.unwrap().text().await.unwrap()
}

/// Two browsers on an invite link; a reload resumes the seat; then a game
/// against the engine with a takeback.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_friend_and_engine() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let dir = fresh_dir("browser-friend");
    let server = start(&dir).await;
    let a = server.addr;
    let driver = start_driver().await;
    let p2 = fresh_dir("chrome-profile-2");
    let c1 = browser(&driver).await;
    let c2 = browser_with(&driver, &p2).await;

    c1.goto(&format!("http://{a}/")).await.unwrap();
    c1.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#variant option[value='chess']"))
        .await
        .unwrap();
    click_css(&c1, "label:has(input[name=mode][value=friend])").await;
    click_css(&c1, "#create-btn").await;
    c1.wait().at_most(Duration::from_secs(10)).for_element(Locator::Css("#invite-box:not(.hidden)")).await.unwrap();
    let link = text_of(&c1, "#invite").await;
    let id = link.rsplit('/').next().unwrap().to_string();
    shot(&c1, "friend-invite").await;

    c2.goto(&link).await.unwrap();
    click_css(&c2, "#join-box:not(.hidden) #join").await;
    for _ in 0..100 {
        if state(a, &id).await["seats"] == json!({"w": true, "b": true}) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // White moves in browser 1; browser 2 sees it live and answers.
    click_move(&c1, a, &id, "e2e4").await;
    wait_shown(&c2, 1).await;
    let st = text_of(&c2, "#status").await;
    assert!(st.contains("Your move (Black)"), "{st}");
    // Black answers by drag-and-drop.
    drag(&c2, "e7", "e5").await;
    wait_shown(&c1, 2).await;
    assert_eq!(state(a, &id).await["history"][1]["uci"], "e7e5");
    // Browser 2 cannot move for White: its board is not interactive.
    click_sq(&c2, "g1").await;
    assert!(c2.find_all(Locator::Css("circle.dot")).await.unwrap().is_empty(), "no moves offered to the wrong seat");
    // A reload resumes White's seat.
    c1.refresh().await.unwrap();
    wait_shown(&c1, 2).await;
    let st = text_of(&c1, "#status").await;
    assert!(st.contains("Your move (White)"), "{st}");
    shot(&c2, "friend-black-view").await;
    click_css(&c2, "#resign").await;
    click_css(&c2, "#resign").await;
    let b1 = banner(&c1).await;
    assert!(b1.contains("1-0") && b1.contains("resignation"), "{b1}");
    shot(&c1, "friend-over").await;

    // Against the computer at level 1: it answers; a takeback undoes both.
    c1.goto(&format!("http://{a}/")).await.unwrap();
    c1.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("#variant option[value='chess']"))
        .await
        .unwrap();
    click_css(&c1, "label:has(input[name=mode][value=engine])").await;
    c1.find(Locator::Css("#level")).await.unwrap().select_by_value("1").await.unwrap();
    click_css(&c1, "#create-btn").await;
    c1.wait().at_most(Duration::from_secs(10)).for_element(Locator::Css("rect.sq[data-square='e2']")).await.unwrap();
    let id = c1.current_url().await.unwrap().path().rsplit('/').next().unwrap().to_string();
    wait_ply(&c1, a, &id, 0).await;
    click_sq(&c1, "d2").await;
    click_sq(&c1, "d4").await;
    wait_ply(&c1, a, &id, 2).await;
    shot(&c1, "engine-reply").await;
    click_css(&c1, "#takeback").await;
    wait_ply(&c1, a, &id, 0).await;

    c1.close().await.unwrap();
    c2.close().await.unwrap();
    drop(driver);
    let _ = std::fs::remove_dir_all(&p2);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
