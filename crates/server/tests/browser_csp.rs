//! The pages under their Content-Security-Policy, in a real browser
//! (headless Chromium through chromedriver): every page renders its script
//! work with the policy in force, and the browser reports no violation of
//! it. A style attribute added on purpose is reported, so the check can
//! fail.
//!
//! Skipped only with CHIMERA_SKIP_BROWSER=1 (see browser.rs).

mod common;
use common::browser::*;
use common::*;
use serde_json::{json, Value};

/// The CSP violations the page has seen so far (a buffered
/// ReportingObserver sees those from before it was made), and the policy
/// the page's own response carried.
async fn violations(c: &fantoccini::Client) -> (Vec<String>, String) {
    let v = c
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            const seen = [];
            const fmt = (r) => `${r.body.effectiveDirective} ${r.body.blockedURL || ''} ${r.body.sourceFile || ''}:${r.body.lineNumber || 0}`;
            const obs = new ReportingObserver((rs) => { for (const r of rs) seen.push(fmt(r)); }, { types: ['csp-violation'], buffered: true });
            obs.observe();
            fetch(location.href).then((r) => r.headers.get('content-security-policy')).catch(() => '').then((csp) => {
              setTimeout(() => { for (const r of obs.takeRecords()) seen.push(fmt(r)); obs.disconnect(); done([seen, csp || '']); }, 500);
            });"#,
            vec![],
        )
        .await
        .expect("the page runs the probe");
    let list =
        v[0].as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default();
    (list, v[1].as_str().unwrap_or("").to_string())
}

/// The site's pages, each with an element that is there once its script
/// has drawn it; `id` is a game's.
fn pages(id: &str) -> Vec<(String, &'static str)> {
    vec![
        ("/".into(), "#variant option[value='magicring']"),
        (format!("/game/{id}"), "rect.sq[data-square='e2']"),
        ("/game/nosuchgame".into(), "#hdr a"),
        ("/no/such/page".into(), "#hdr a"),
        ("/analysis".into(), "rect.sq[data-square='e2']"),
        ("/rules/chess".into(), "#text h2, #text p"),
        ("/docs/".into(), "#hdr a"),
        // The lab in the site's dress: its header, with a link to the lab.
        ("/lab".into(), "#hdr nav a[href='/lab']"),
        ("/login".into(), "#login-username"),
        // Not logged in: the account page sends the browser to log in.
        ("/account".into(), "#signup-username"),
        ("/players".into(), "#players-who"),
        ("/@/nobody".into(), "#noplayer"),
        ("/offline".into(), "#offline"),
        ("/learn".into(), "#v-genie a"),
        ("/learn/genie".into(), "rect.sq[data-square='e2']"),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_pages_work_under_the_csp() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let dir = fresh_dir("browser-csp");
    let server = start(&dir).await;
    let a = server.addr;
    let driver = start_driver().await;
    let c = browser(&driver).await;

    // A hot-seat game with a move played: the board, the clocks, the moves.
    let id = open_hotseat(&c, a, "chess", None).await;
    click_move(&c, a, &id, "e2e4").await;
    let pages = pages(&id);
    for (path, ready) in &pages {
        c.goto(&format!("http://{a}{path}")).await.unwrap();
        wait_for(&c, ready, 10).await;
        let (seen, csp) = violations(&c).await;
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), "{path}: policy {csp:?}");
        assert!(seen.is_empty(), "{path}: CSP violations: {seen:?}");
        // Described for search engines and link previews (issue 99).
        let meta = c
            .execute(
                "return ['meta[name=\"description\"]', 'meta[property=\"og:title\"]', 'meta[property=\"og:description\"]'].map((s) => (document.querySelector(s) || {}).content || '')",
                vec![],
            )
            .await
            .unwrap();
        let texts: Vec<&str> = meta.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        assert!(
            texts[0].len() >= 50 && texts[0].len() <= 200,
            "{path}: a description of 50 to 200 characters: {texts:?}"
        );
        assert!(!texts[1].is_empty() && !texts[2].is_empty(), "{path}: Open Graph title and description: {texts:?}");
    }
    // The check can fail: an inline style attribute is blocked and reported.
    c.goto(&format!("http://{a}/game/{id}")).await.unwrap();
    wait_for(&c, "rect.sq[data-square='e2']", 10).await;
    c.execute(
        "const d = document.createElement('div'); d.innerHTML = '<p style=\"color:red\">x</p>'; document.body.appendChild(d);",
        vec![],
    )
    .await
    .unwrap();
    let (seen, _) = violations(&c).await;
    assert!(seen.iter().any(|s| s.starts_with("style-src")), "an inline style is reported: {seen:?}");
    // Framing is refused: the page in an iframe of another page stays empty.
    let framed: Value = c
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            const f = document.createElement('iframe'); f.src = arguments[0];
            f.onload = () => { let ok = false; try { ok = !!f.contentDocument && !!f.contentDocument.querySelector('#board'); } catch (_) {} done(ok); };
            setTimeout(() => done(false), 5000);
            document.body.appendChild(f);"#,
            vec![json!(format!("/game/{id}"))],
        )
        .await
        .unwrap();
    assert_eq!(framed, json!(false), "the game page does not render in a frame");
    c.close().await.unwrap();
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sets the header's look choice `key` (theme, board, pieces) to `value`
/// as a person does: opens the "Look" panel and picks from its list.
async fn choose(c: &fantoccini::Client, key: &str, value: &str) {
    if c.find(fantoccini::Locator::Css("#prefs-panel.hidden")).await.is_ok() {
        click_css(c, "#prefs-button").await;
    }
    let select = wait_for(c, &format!("#pref-{key}"), 10).await;
    select.select_by_value(value).await.unwrap();
}

async fn look(c: &fantoccini::Client) -> Value {
    c.execute(
        "const d = document.documentElement.dataset; return [d.theme, d.board, d.pieces, getComputedStyle(document.body).backgroundColor];",
        vec![],
    )
    .await
    .unwrap()
}

/// Themes (issue 99): light or dark, the board's colours and the piece set
/// are chosen in the header, drawn at once, kept by the browser across
/// pages, and by the account of a logged-in player (another browser of
/// that player takes them).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_look_is_chosen_and_remembered() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let dir = fresh_dir("browser-look");
    let server = start(&dir).await;
    let a = server.addr;
    let driver = start_driver().await;
    let c = browser(&driver).await;

    let id = open_hotseat(&c, a, "chess", None).await;
    let first = look(&c).await;
    assert_eq!((&first[1], &first[2]), (&json!("brown"), &json!("classic")), "{first}");
    choose(&c, "theme", "dark").await;
    choose(&c, "board", "blue").await;
    choose(&c, "pieces", "disc").await;
    assert_eq!(look(&c).await, json!(["dark", "blue", "disc", "rgb(22, 21, 18)"]));
    // The board redraws at once: blue squares, disc pieces.
    wait_for(&c, "g.piece[data-square='e2'] text", 10).await;
    let fill =
        c.execute("return getComputedStyle(document.querySelector('rect.sq.light')).fill", vec![]).await.unwrap();
    assert_eq!(fill, json!("rgb(222, 227, 230)"));
    shot(&c, "look-dark-blue-disc").await;
    choose(&c, "theme", "light").await;
    assert_eq!(look(&c).await, json!(["light", "blue", "disc", "rgb(244, 243, 241)"]));
    shot(&c, "look-light-blue-disc").await;
    // Another page of this browser: the same look from its first paint.
    c.goto(&format!("http://{a}/analysis")).await.unwrap();
    wait_for(&c, "g.piece[data-square='e2'] text", 10).await;
    assert_eq!(look(&c).await, json!(["light", "blue", "disc", "rgb(244, 243, 241)"]));

    // A player who signs up here keeps the look in the account...
    let made = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; fetch('/api/account/signup', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({username: 'Looker', password: 'correct horse battery staple'})}).then((r) => done(r.status));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(made, json!(201));
    c.goto(&format!("http://{a}/game/{id}")).await.unwrap();
    wait_for(&c, "#account-link[data-state='in']", 10).await;
    choose(&c, "board", "green").await;
    const STORED: &str = "const done = arguments[arguments.length - 1]; fetch('/api/account/prefs').then((r) => r.json()).then((v) => done(v.prefs));";
    let mut stored = Value::Null;
    for _ in 0..50 {
        stored = c.execute_async(STORED, vec![]).await.unwrap();
        if stored["board"] == "green" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(stored, json!({"theme": "light", "board": "green", "pieces": "disc"}));
    // ...and a browser that forgot it (another device) takes the account's.
    c.execute("localStorage.removeItem('chimera.prefs')", vec![]).await.unwrap();
    c.goto(&format!("http://{a}/")).await.unwrap();
    wait_for(&c, "#account-link[data-state='in']", 10).await;
    let mut now = Value::Null;
    for _ in 0..50 {
        now = look(&c).await;
        if now[1] == "green" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(now, json!(["light", "green", "disc", "rgb(244, 243, 241)"]));
    c.close().await.unwrap();
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Installable (issue 99): the pages name a web app manifest with PNG
/// icons of 192 and 512 px (and maskable ones), the service worker takes
/// the site, and with the server gone a page asked for is the offline page,
/// not the browser's error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_installs_and_says_when_offline() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let dir = fresh_dir("browser-install");
    let server = start(&dir).await;
    let a = server.addr;
    let driver = start_driver().await;
    let c = browser(&driver).await;

    c.goto(&format!("http://{a}/")).await.unwrap();
    wait_for(&c, "#hdr header.top", 10).await;
    let v = c
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            (async () => {
              const link = document.querySelector('link[rel="manifest"]');
              const m = await (await fetch(link.href)).json();
              const icons = [];
              for (const i of m.icons) {
                const r = await fetch(i.src);
                icons.push([i.sizes, i.purpose, r.status, r.headers.get('content-type')]);
              }
              await navigator.serviceWorker.ready;
              return [m.name, m.start_url, m.display, icons];
            })().then(done, (e) => done(String(e)));"#,
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(v[1], json!("/"), "{v}");
    assert_eq!(v[2], json!("standalone"), "{v}");
    let icons = v[3].as_array().unwrap();
    for (size, purpose) in [("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")] {
        assert!(
            icons.iter().any(|i| i[0] == size && i[1] == purpose && i[2] == 200 && i[3] == "image/png"),
            "a {purpose} PNG icon of {size}: {v}"
        );
    }
    // The worker controls the next page; then the server goes away.
    c.goto(&format!("http://{a}/players")).await.unwrap();
    wait_for(&c, "#players-who", 10).await;
    let controlled = c.execute("return !!navigator.serviceWorker.controller", vec![]).await.unwrap();
    assert_eq!(controlled, json!(true));
    server.stop().await;
    c.goto(&format!("http://{a}/rules/chess")).await.unwrap();
    let words = wait_for(&c, "#offline h1", 10).await.text().await.unwrap();
    assert_eq!(words, "You are offline");
    shot(&c, "offline").await;
    c.close().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// axe-core (npm, pinned; scripts/setup-node.sh puts it in .node/), or
/// the file AXE_CORE names.
fn axe_source() -> String {
    let path = std::env::var("AXE_CORE")
        .unwrap_or_else(|_| format!("{}/../../.node/node_modules/axe-core/axe.min.js", env!("CARGO_MANIFEST_DIR")));
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("axe-core not found at {path} ({e}): run scripts/setup-node.sh, or set CHIMERA_SKIP_BROWSER=1 to skip browser tests")
    })
}

/// axe-core's violations on the page shown: `rule: targets` lines.
async fn axe_violations(c: &fantoccini::Client, axe: &str) -> Vec<String> {
    c.execute(axe, vec![]).await.expect("axe-core loads");
    let v = c
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
            axe.run(document, { resultTypes: ['violations'] }).then(
              (r) => done(r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(' ') + (n.failureSummary ? ' [' + n.failureSummary.split('\n').slice(1, 2).join('').trim() + ']' : '')).join(' | ')}`)),
              (e) => done(['axe failed: ' + e]));"#,
            vec![],
        )
        .await
        .expect("axe-core runs");
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap_or("").to_string()).collect()
}

/// Accessibility (issue 99): axe-core finds no violation on any page, on a
/// 1366x768 laptop and on a 390x844 phone, in the dark and the light
/// theme. A page made wrong on purpose (an image without a name) is
/// reported, so the check can fail.
async fn pages_pass_axe(screen: Screen) {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let axe = axe_source();
    let dir = fresh_dir("browser-axe");
    let server = start(&dir).await;
    let a = server.addr;
    let driver = start_driver().await;
    let profile = fresh_dir("chrome-profile-axe");
    let c = browser_screen(&driver, &profile, screen).await;
    let id = open_hotseat(&c, a, "chess", None).await;
    click_move(&c, a, &id, "e2e4").await;
    let mut found = Vec::new();
    for theme in ["dark", "light"] {
        c.execute("localStorage.setItem('chimera.prefs', JSON.stringify({theme: arguments[0]}))", vec![json!(theme)])
            .await
            .unwrap();
        for (path, ready) in pages(&id) {
            c.goto(&format!("http://{a}{path}")).await.unwrap();
            wait_for(&c, ready, 10).await;
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            for v in axe_violations(&c, &axe).await {
                found.push(format!("{path} ({theme}, {}): {v}", screen.name()));
            }
        }
    }
    assert!(found.is_empty(), "axe-core's violations:\n{}", found.join("\n"));
    // The check can fail.
    c.execute("const i = document.createElement('img'); i.src = '/favicon.svg'; document.querySelector('main').appendChild(i);", vec![])
        .await
        .unwrap();
    let v = axe_violations(&c, &axe).await;
    assert!(v.iter().any(|s| s.starts_with("image-alt")), "an image without a name is reported: {v:?}");
    c.close().await.unwrap();
    drop(driver);
    let _ = std::fs::remove_dir_all(&profile);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_pages_pass_axe_on_a_laptop() {
    pages_pass_axe(Screen::LAPTOP).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_pages_pass_axe_on_a_phone() {
    pages_pass_axe(Screen::PHONE).await;
}
