//! The pages under their Content-Security-Policy, in a real browser
//! (headless Chromium through chromedriver): every page renders its script
//! work with the policy in force, and the browser reports no violation of
//! it. A style attribute added on purpose is reported, so the check can
//! fail.
//!
//! Skipped only with CHIMERA_SKIP_BROWSER=1 (see browser.rs).

use crate::common;
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
        // Puzzles: the sets, and a genie puzzle on its board (its task written).
        ("/puzzles".into(), "#set-genie"),
        ("/puzzles/genie".into(), "#meta:not(:empty)"),
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
    // The other boards and the classic pieces, in both themes: the docs'
    // screenshots of each look (scripts/screenshots.sh).
    for (theme, board, pieces) in
        [("light", "green", "classic"), ("dark", "grey", "classic"), ("dark", "brown", "classic")]
    {
        choose(&c, "theme", theme).await;
        choose(&c, "board", board).await;
        choose(&c, "pieces", pieces).await;
        let now = look(&c).await;
        assert_eq!((&now[0], &now[1], &now[2]), (&json!(theme), &json!(board), &json!(pieces)), "{now}");
        wait_for(&c, "g.piece[data-square='e2']", 10).await;
        shot(&c, &format!("look-{theme}-{board}-{pieces}")).await;
    }
    choose(&c, "theme", "light").await;
    choose(&c, "board", "blue").await;
    choose(&c, "pieces", "disc").await;
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
    assert_eq!(stored, json!({"theme": "light", "board": "green", "pieces": "disc", "lang": "en", "blind": "off"}));
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
    // The game page in screen-reader mode (its move field, reading
    // buttons and live regions; the drawn board hidden from it), a
    // command's answer and an announcement written.
    for theme in ["dark", "light"] {
        c.execute(
            "localStorage.setItem('chimera.prefs', JSON.stringify({theme: arguments[0], blind: 'on'}))",
            vec![json!(theme)],
        )
        .await
        .unwrap();
        c.goto(&format!("http://{a}/game/{id}")).await.unwrap();
        wait_for(&c, "#blind-said p", 10).await;
        let input = wait_for(&c, "#blind-move", 10).await;
        input.send_keys("b\u{E007}").await.unwrap();
        wait_for(&c, "#blind-reply:not(:empty)", 10).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        for v in axe_violations(&c, &axe).await {
            found.push(format!("/game/{id} screen-reader mode ({theme}, {}): {v}", screen.name()));
        }
        // The puzzle page in the same mode (its move field and live regions).
        c.goto(&format!("http://{a}/puzzles/genie")).await.unwrap();
        wait_for(&c, "#meta:not(:empty)", 10).await;
        wait_for(&c, "#blind-move", 10).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        for v in axe_violations(&c, &axe).await {
            found.push(format!("/puzzles/genie screen-reader mode ({theme}, {}): {v}", screen.name()));
        }
    }
    c.execute("localStorage.removeItem('chimera.prefs')", vec![]).await.unwrap();
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

/// The words of the page now: `<html lang>`, the lobby's "New game"
/// heading, its create button and the header's "Look" button.
async fn lobby_words(c: &fantoccini::Client) -> Value {
    c.execute(
        "const q = (s) => { const e = document.querySelector(s); return e ? e.textContent : null; };\
         return [document.documentElement.lang, q('#new-game h2'), q('#create-btn'), q('#prefs-button')];",
        vec![],
    )
    .await
    .unwrap()
}

/// Waits for the page's language to be `lang` (a reload under way).
async fn wait_lang(c: &fantoccini::Client, lang: &str) {
    for _ in 0..100 {
        let l =
            c.execute("return document.readyState === 'complete' ? document.documentElement.lang : ''", vec![]).await;
        if l.ok().as_ref().and_then(|v| v.as_str()) == Some(lang) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the page never came in {lang}");
}

/// Languages (issue 99): a browser that asks for German (Accept-Language)
/// gets the lobby in German from the server, first paint included; axe-core
/// finds no violation on German pages; the header's language list switches
/// to French, which stays across pages (a cookie, over what the browser
/// asks for); and the lobby in each language is photographed
/// (`lobby-<lang>-1366x768.png`, scripts/screenshots.sh copies them).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_speaks_the_readers_language() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let axe = axe_source();
    let dir = fresh_dir("browser-lang");
    let server = start(&dir).await;
    let a = server.addr;
    let driver = start_driver().await;
    let profile = fresh_dir("chrome-profile-lang");
    let mut args = chrome_args(&profile);
    args.push("--hide-scrollbars".into());
    args.push("--window-size=1366,768".into());
    args.push("--lang=de-DE".into());
    args.push("--accept-lang=de-DE,de".into());
    let c = connect(&driver, json!({ "args": args, "prefs": { "intl.accept_languages": "de-DE,de" } })).await;

    c.goto(&format!("http://{a}/")).await.unwrap();
    wait_for(&c, "#variant option[value='magicring']", 10).await;
    let html: String = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; fetch('/', {headers: {'Accept-Language': 'de-CH,de;q=0.9,en;q=0.5'}}).then((r) => r.text()).then(done);",
            vec![],
        )
        .await
        .unwrap()
        .as_str()
        .unwrap()
        .to_string();
    // The server's German: the page's own HTML, before any script ran.
    assert!(html.contains("<html lang=\"de\"") && html.contains("<h2>Neue Partie</h2>"), "{}", &html[..400]);
    // What the browser itself asked for: German.
    assert_eq!(lobby_words(&c).await, json!(["de", "Neue Partie", "Partie erstellen", "Aussehen"]));
    // A German game page and German scripts' words; no CSP violation.
    let id = open_hotseat(&c, a, "chess", None).await;
    let (seen, _) = violations(&c).await;
    assert!(seen.is_empty(), "CSP violations on the German game page: {seen:?}");
    let mut found = Vec::new();
    for (path, ready) in [
        ("/".to_string(), "#variant option[value='magicring']"),
        (format!("/game/{id}"), "rect.sq[data-square='e2']"),
        ("/analysis".to_string(), "rect.sq[data-square='e2']"),
        ("/rules/chess".to_string(), "#text h2, #text p"),
        ("/login".to_string(), "#login-username"),
        ("/players".to_string(), "#players-who"),
        ("/offline".to_string(), "#offline"),
    ] {
        c.goto(&format!("http://{a}{path}")).await.unwrap();
        wait_for(&c, ready, 10).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        for v in axe_violations(&c, &axe).await {
            found.push(format!("{path} (de): {v}"));
        }
    }
    assert!(found.is_empty(), "axe-core's violations in German:\n{}", found.join("\n"));

    // The header's switcher: French, at once and on the next pages.
    c.goto(&format!("http://{a}/")).await.unwrap();
    wait_for(&c, "#variant option[value='magicring']", 10).await;
    choose(&c, "lang", "fr").await;
    wait_lang(&c, "fr").await;
    wait_for(&c, "#variant option[value='magicring']", 10).await;
    assert_eq!(lobby_words(&c).await, json!(["fr", "Nouvelle partie", "Créer la partie", "Apparence"]));
    let names = c
        .execute(
            "return [...document.querySelectorAll('#pref-lang option')].map((o) => o.textContent + ':' + o.lang)",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(names, json!(["English:en", "Deutsch:de", "Français:fr", "Español:es"]));
    c.goto(&format!("http://{a}/analysis")).await.unwrap();
    wait_for(&c, "rect.sq[data-square='e2']", 10).await;
    assert_eq!(c.execute("return document.documentElement.lang", vec![]).await.unwrap(), json!("fr"));

    // The lobby in each language, for the docs.
    for lang in ["en", "de", "fr", "es"] {
        c.execute("document.cookie = 'chimera_lang=' + arguments[0] + '; Path=/; SameSite=Lax'", vec![json!(lang)])
            .await
            .unwrap();
        c.goto(&format!("http://{a}/")).await.unwrap();
        wait_lang(&c, lang).await;
        wait_for(&c, "#variant option[value='magicring']", 10).await;
        wait_for(&c, "#seeks tr", 10).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        shot(&c, &format!("lobby-{lang}-1366x768")).await;
    }
    c.close().await.unwrap();
    drop(driver);
    let _ = std::fs::remove_dir_all(&profile);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
