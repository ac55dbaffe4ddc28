//! Web Push in a real browser (headless Chromium, 1366x768): a logged-in
//! player finds "Notify me on this device" in the notifications' list;
//! pressed (notifications allowed through the DevTools protocol), it
//! registers the service worker /sw.js for the whole site under the
//! pages' CSP, and says in words what became of the subscription (the
//! test's browser reaches no push service: it must say so, not hang). A
//! push delivered into that service worker by the DevTools protocol
//! (`ServiceWorker.deliverPushMessage`) is shown as a notification with
//! the words and link it carried.
//!
//! Skipped only with CHIMERA_SKIP_BROWSER=1 (see browser.rs).

mod common;
use common::browser::*;
use common::*;
use serde_json::{json, Value};

/// A DevTools protocol command through chromedriver's `goog/cdp/execute`.
#[derive(Debug)]
struct Cdp(Value);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &reqwest::Url, session: Option<&str>) -> Result<reqwest::Url, url_error::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or("")))
    }

    fn method_and_body(&self, _: &reqwest::Url) -> (axum::http::Method, Option<String>) {
        (axum::http::Method::POST, Some(self.0.to_string()))
    }
}

/// The URL crate's error type, as reqwest's `Url` names it.
mod url_error {
    pub type ParseError = <reqwest::Url as std::str::FromStr>::Err;
}

async fn cdp(c: &fantoccini::Client, cmd: &str, params: Value) -> Result<Value, String> {
    c.issue_cmd(Cdp(json!({"cmd": cmd, "params": params}))).await.map_err(|e| e.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_opt_in_registers_the_service_worker_and_a_push_is_shown() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let dir = fresh_dir("browser-push");
    let server = start(&dir).await;
    let a = server.addr;
    let origin = format!("http://{a}");
    let driver = start_driver().await;
    let (c, profile) = session(&driver, Size::Wide).await;
    sign_up(&c, a, Size::Wide, "Pia", "a long and quiet passphrase").await;

    // The control, in the list under the bell.
    c.goto(&format!("{origin}/")).await.unwrap();
    click_css(&c, "#notes-button").await;
    wait_visible(&c, "#push-toggle").await;
    assert_eq!(text_of(&c, "#push-toggle").await.trim(), "Notify me on this device");
    assert_eq!(text_of(&c, "#push-state").await.trim(), "Off on this device.");

    // Allowed to notify, pressed: the worker is registered for the site.
    cdp(&c, "Browser.grantPermissions", json!({"origin": origin, "permissions": ["notifications"]}))
        .await
        .expect("notifications allowed");
    click_css(&c, "#push-toggle").await;
    let said = wait_js(&c, "return document.getElementById('push-state').textContent", |v| {
        v.as_str().is_some_and(|s| !s.is_empty() && s != "…" && !s.starts_with("Off"))
    })
    .await;
    let said = said.as_str().unwrap().to_string();
    eprintln!("the control says: {said}");
    assert!(
        said.starts_with("On:") || said.contains("push service"),
        "subscribed, or the browser's push service named as the reason: {said}"
    );
    let reg = wait_js(
        &c,
        "return navigator.serviceWorker.getRegistration('/').then((r) => r && r.active ? [r.scope, r.active.scriptURL] : null)",
        |v| v.is_array(),
    )
    .await;
    assert_eq!(reg, json!([format!("{origin}/"), format!("{origin}/sw.js")]));

    // A push into the worker: shown, with its words and its link.
    let payload = json!({"title": "Your move", "body": "Bob moved Nf3 in your Chess game", "url": "/game/abc", "tag": "game-abc"});
    let notes = "return navigator.serviceWorker.getRegistration('/').then((r) => r.getNotifications()) \
                 .then((ns) => ns.map((n) => [n.title, n.body, n.tag, n.data && n.data.url]))";
    // The registration's id, as Chromium's own page of service workers gives it.
    c.goto("chrome://serviceworker-internals/").await.unwrap();
    let text = wait_js(&c, "return document.body.innerText", |v| {
        v.as_str().is_some_and(|t| t.contains(&format!("Scope: {origin}/")) && t.contains("ACTIVATED"))
    })
    .await;
    let id = text
        .as_str()
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Registration ID: "))
        .expect("a registration id")
        .trim()
        .to_string();
    c.goto(&format!("{origin}/")).await.unwrap();
    // Delivered again while none shows (a delivery can be lost while the
    // worker starts): the tag keeps it to one notification.
    let mut shown = Value::Null;
    'tries: for _ in 0..5 {
        cdp(&c, "ServiceWorker.enable", json!({})).await.expect("the ServiceWorker domain");
        cdp(
            &c,
            "ServiceWorker.deliverPushMessage",
            json!({"origin": origin, "registrationId": id, "data": payload.to_string()}),
        )
        .await
        .expect("the push is delivered to the worker");
        for _ in 0..30 {
            shown = c.execute(notes, vec![]).await.unwrap();
            if shown.as_array().is_some_and(|a| !a.is_empty()) {
                break 'tries;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
    assert_eq!(shown, json!([["Your move", "Bob moved Nf3 in your Chess game", "game-abc", "/game/abc"]]));
    end_session(c, profile).await;
    server.stop().await;
}
