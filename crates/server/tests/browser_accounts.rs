//! Accounts in a real browser (headless Chromium through chromedriver), at
//! the three sizes the UI is tested at (1366x768, 1200x900 and a 390x844
//! touch phone): sign up, the header names the account, log out, a wrong
//! password is refused in words, log in, the account page, a change of
//! password, and deletion; and a game played anonymously in this browser
//! is claimed at sign-up, so the account holds its seat on another device.
//!
//! Skipped only with CHIMERA_SKIP_BROWSER=1 (see browser.rs).

use crate::common;
use common::browser::*;
use common::*;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_log_in_and_manage_the_account_at_every_size() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let dir = fresh_dir("browser-accounts");
    let config = chimera_server::Config { signup_burst: 100, ..chimera_server::Config::default() };
    let server = chimera_server::Server::start_with("127.0.0.1:0", &dir, config).await.unwrap();
    let a = server.addr;
    let driver = start_driver().await;
    for size in SIZES {
        let (c, profile) = session(&driver, size).await;
        let name = format!("Player{}", size.name().replace('x', "_"));
        let pw = "a long and quiet passphrase";
        // A hot-seat game played anonymously first: this browser holds its seat.
        let id = open_hotseat(&c, a, "chess", None).await;
        click_move(&c, a, &id, "e2e4").await;

        c.goto(&format!("http://{a}/login")).await.unwrap();
        assert_eq!(account_link(&c, "out").await.trim(), "Log in");
        type_into(&c, "#signup-username", &name).await;
        type_into(&c, "#signup-password", "short").await;
        type_into(&c, "#signup-password2", "short").await;
        press(&c, size, "#signup-submit").await;
        let e = wait_js(&c, "return document.querySelector('#signup-error').textContent", |v| {
            v.as_str().is_some_and(|s| !s.is_empty())
        })
        .await;
        assert!(e.as_str().unwrap().contains("8"), "{size:?}: {e}");
        type_into(&c, "#signup-password", pw).await;
        type_into(&c, "#signup-password2", pw).await;
        press(&c, size, "#signup-submit").await;
        assert_eq!(account_link(&c, "in").await.trim(), name, "{size:?}");
        shot(&c, &format!("account-signed-up-{}", size.name())).await;

        // The account page; log out; a wrong password; log in.
        c.goto(&format!("http://{a}/account")).await.unwrap();
        let shown = wait_js(&c, "return document.querySelector('#account-name').textContent", |v| {
            v.as_str().is_some_and(|s| !s.is_empty())
        })
        .await;
        assert_eq!(shown, json!(name));
        shot(&c, &format!("account-page-{}", size.name())).await;
        press(&c, size, "#logout").await;
        assert_eq!(account_link(&c, "out").await.trim(), "Log in");
        c.goto(&format!("http://{a}/login")).await.unwrap();
        type_into(&c, "#login-username", &name).await;
        type_into(&c, "#login-password", "not the passphrase").await;
        press(&c, size, "#login-submit").await;
        let e = wait_js(&c, "return document.querySelector('#login-error').textContent", |v| {
            v.as_str().is_some_and(|s| !s.is_empty())
        })
        .await;
        assert!(e.as_str().unwrap().contains("wrong username or password"), "{size:?}: {e}");
        type_into(&c, "#login-password", pw).await;
        press(&c, size, "#login-submit").await;
        assert_eq!(account_link(&c, "in").await.trim(), name);

        // The claimed game: another browser, logged in, holds its seat.
        let (c2, profile2) = session(&driver, Size::Wide).await;
        c2.goto(&format!("http://{a}/login")).await.unwrap();
        type_into(&c2, "#login-username", &name).await;
        type_into(&c2, "#login-password", pw).await;
        click_css(&c2, "#login-submit").await;
        account_link(&c2, "in").await;
        c2.goto(&format!("http://{a}/game/{id}")).await.unwrap();
        // The game page found no token of its own and asked for the
        // account's seat: it holds it now, as the browser that played.
        let js = format!("return localStorage.getItem('chimera.token.{id}')");
        let held = wait_js(&c2, &js, |v| v.is_string()).await;
        let mine = c.execute(&js, vec![]).await.unwrap();
        assert_eq!(held, mine, "{size:?}: the seat followed the account");
        end_session(c2, profile2).await;

        // A change of password, then deletion.
        c.goto(&format!("http://{a}/account")).await.unwrap();
        type_into(&c, "#pw-current", pw).await;
        type_into(&c, "#pw-new", "another quiet passphrase").await;
        type_into(&c, "#pw-new2", "another quiet passphrase").await;
        press(&c, size, "#pw-submit").await;
        wait_js(&c, "return document.querySelector('#pw-done').textContent", |v| {
            v.as_str().is_some_and(|s| !s.is_empty())
        })
        .await;
        type_into(&c, "#delete-password", "another quiet passphrase").await;
        press(&c, size, "#delete-confirm").await;
        press(&c, size, "#delete-submit").await;
        assert_eq!(account_link(&c, "out").await.trim(), "Log in");
        let (st, v): (u16, Value) =
            post_json(a, "/api/account/login", &json!({"username": name, "password": "another quiet passphrase"}))
                .await;
        assert_eq!(st, 401, "{size:?}: the deleted account logs in no more: {v}");
        end_session(c, profile).await;
    }
    server.stop().await;
}

/// Two accounts play a rated seek at each size: the seek list says it is
/// rated with the creator's provisional rating, the board shows both
/// players' names and ratings, and when White resigns both pages show each
/// side's change. Then the winner's profile draws the rating graph, and a
/// leaderboard lists a settled player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_accounts_play_a_rated_seek_at_every_size() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let dir = fresh_dir("browser-rated");
    let config = chimera_server::Config {
        signup_burst: 100,
        seek_grace: std::time::Duration::from_secs(300),
        ..chimera_server::Config::default()
    };
    let server = chimera_server::Server::start_with("127.0.0.1:0", &dir, config).await.unwrap();
    let a = server.addr;
    let driver = start_driver().await;
    let pw = "a long and quiet passphrase";
    for size in SIZES {
        let ((ann, pa), (bob, pb), an, bn) = two_players(&driver, a, size, pw).await;
        // Ann: a rated open seek of Clown Chess.
        ann.goto(&format!("http://{a}/")).await.unwrap();
        wait_for(&ann, "#variant option", 10).await;
        ann.execute("document.getElementById('variant').value = 'clown'; document.getElementById('variant').dispatchEvent(new Event('change'));", vec![]).await.unwrap();
        press(&ann, size, "label:has(input[name=mode][value=seek])").await;
        wait_js(&ann, "return !document.getElementById('rated-box').classList.contains('hidden')", |v| {
            v == &json!(true)
        })
        .await;
        press(&ann, size, "#rated").await;
        press(&ann, size, "#create-btn").await;
        wait_js(&ann, "return location.pathname.startsWith('/game/')", |v| v == &json!(true)).await;
        let id = ann.current_url().await.unwrap().path().rsplit('/').next().unwrap().to_string();
        // Bob's lobby: rated, Ann's name and provisional rating; he joins.
        bob.goto(&format!("http://{a}/")).await.unwrap();
        let row = format!("tr[data-seek='{id}']");
        wait_for(&bob, &format!("{row}[data-rated='true'] .seek-join"), 15).await;
        // Read in one script: the list is redrawn as it polls, and an
        // element found before a redraw is stale after it.
        let text = bob
            .execute(&format!("return document.querySelector(\"{row}\").innerText"), vec![])
            .await
            .unwrap()
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(text.contains(&an) && text.contains("1500?") && text.contains("Rated"), "{size:?}: {text}");
        press(&bob, size, &format!("{row} .seek-join")).await;
        wait_js(&bob, "return location.pathname", |v| v == &json!(format!("/game/{id}"))).await;
        wait_js(&bob, "return document.getElementById('game-kind').textContent", |v| v == &json!("Rated")).await;
        // Ann (White) resigns: both pages show the changes, +241 for Black.
        wait_js(&ann, "return document.querySelectorAll('#actions:not(.hidden) #resign').length", |v| v == &json!(1))
            .await;
        resign(&ann, a, &id).await;
        for c in [&ann, &bob] {
            let w = wait_js(
                c,
                "const e = document.querySelector(\".rating-diff[data-color='w']\"); return e ? e.textContent : ''",
                |v| v.as_str().is_some_and(|s| s.contains('-')),
            )
            .await;
            assert!(w.as_str().unwrap().contains("241"), "{size:?}: {w}");
            let b = c
                .execute("return document.querySelector(\".rating-diff[data-color='b']\").textContent", vec![])
                .await
                .unwrap();
            assert!(b.as_str().unwrap().contains("+241"), "{size:?}: {b}");
        }
        shot(&bob, &format!("rated-over-{}", size.name())).await;
        // Bob's profile: the Clown rating, its graph, the game.
        bob.goto(&format!("http://{a}/@/{bn}")).await.unwrap();
        let v = wait_for(&bob, ".rating-card[data-variant='clown'] .rating-value", 15).await.text().await.unwrap();
        assert_eq!(v.trim(), "1741?", "{size:?}");
        wait_for(&bob, "svg.rating-graph", 5).await;
        let games = text_of(&bob, "#profile-games").await;
        assert!(games.contains(&an), "{size:?}: {games}");
        // The archive search: this opponent, then one who never played.
        type_into(&bob, "#archive-opponent", &an).await;
        press(&bob, size, "#archive-submit").await;
        // The table had one row before the search too: wait for the search's
        // answer (its download link), then count.
        wait_js(
            &bob,
            "return document.getElementById('archive-pgn').getAttribute('href').includes('opponent=')",
            |v| v == &json!(true),
        )
        .await;
        wait_js(&bob, "return document.querySelectorAll('#profile-games tbody tr').length", |v| v == &json!(1)).await;
        let pgn =
            bob.execute("return document.getElementById('archive-pgn').getAttribute('href')", vec![]).await.unwrap();
        assert!(pgn.as_str().unwrap().contains("games.pgn") && pgn.as_str().unwrap().contains("opponent="), "{pgn}");
        type_into(&bob, "#archive-opponent", "nobody").await;
        press(&bob, size, "#archive-submit").await;
        wait_js(&bob, "return document.querySelectorAll('#profile-games tbody tr td[data-id], #profile-games tbody tr').length === 0 || document.getElementById('profile-games').textContent.includes('No game')", |v| v == &json!(true)).await;
        shot(&bob, &format!("profile-{}", size.name())).await;
        // Ann's next seek takes only players near her new rating (1259?):
        // Bob's lobby shows its range and "Out of range" instead of "Join",
        // and the game list shows the rated game at the ratings it was
        // played at, with the changes.
        ann.goto(&format!("http://{a}/")).await.unwrap();
        wait_for(&ann, "#variant option", 10).await;
        ann.execute("document.getElementById('variant').value = 'clown'; document.getElementById('variant').dispatchEvent(new Event('change'));", vec![]).await.unwrap();
        press(&ann, size, "label:has(input[name=mode][value=seek])").await;
        wait_js(&ann, "return !document.getElementById('range-box').classList.contains('hidden')", |v| {
            v == &json!(true)
        })
        .await;
        ann.execute("document.getElementById('range').value = '100'; document.getElementById('range').dispatchEvent(new Event('change'));", vec![]).await.unwrap();
        let hint = text_of(&ann, "#range-hint").await;
        assert!(hint.contains("1159 to 1359"), "{size:?}: {hint}");
        press(&ann, size, "#create-btn").await;
        wait_js(&ann, "return location.pathname.startsWith('/game/')", |v| v == &json!(true)).await;
        let id2 = ann.current_url().await.unwrap().path().rsplit('/').next().unwrap().to_string();
        bob.goto(&format!("http://{a}/")).await.unwrap();
        let row2 = format!("tr[data-seek='{id2}']");
        wait_for(&bob, &format!("{row2} .seek-out"), 15).await;
        let text = text_of(&bob, &row2).await;
        assert!(
            text.contains("1159–1359") && text.contains("Out of range") && !text.contains("Join"),
            "{size:?}: {text}"
        );
        wait_js(&bob, "return document.getElementById('games').textContent.includes('+241')", |v| v == &json!(true))
            .await;
        let games = text_of(&bob, "#games").await;
        assert!(games.contains(&format!("{an} 1500? −241 v {bn} 1500? +241")), "{size:?}: {games}");
        end_session(ann, pa).await;
        end_session(bob, pb).await;
    }
    // A leaderboard lists players with a settled rating: one is made so.
    sqlx::query(
        "UPDATE ratings SET deviation = 60 WHERE account_id = (SELECT id FROM accounts WHERE username = 'Bob1366_768')",
    )
    .execute(&server.app.db)
    .await
    .unwrap();
    let (c, p) = session(&driver, Size::Wide).await;
    c.goto(&format!("http://{a}/players")).await.unwrap();
    let row = wait_for(&c, "section.lb[data-variant='clown'] tr[data-rank='1']", 15).await.text().await.unwrap();
    assert!(row.contains("Bob1366_768") && row.contains("1741"), "{row}");
    end_session(c, p).await;
    server.stop().await;
}

// ----- Web Push in the browser -----
//
// Web Push in a real browser (headless Chromium, 1366x768): a logged-in
// player finds "Notify me on this device" in the notifications' list;
// pressed (notifications allowed through the DevTools protocol), it
// registers the service worker /sw.js for the whole site under the
// pages' CSP, and says in words what became of the subscription (the
// test's browser reaches no push service: it must say so, not hang). A
// push delivered into that service worker by the DevTools protocol
// (`ServiceWorker.deliverPushMessage`) is shown as a notification with
// the words and link it carried.
//
// Skipped only with CHIMERA_SKIP_BROWSER=1 (see browser.rs).

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

/// A BOT account played by berserk (lichess's Python client, unmodified)
/// through the Bot API, against a person in the browser: the person
/// challenges it from its profile (marked BOT there and on the board), the
/// bot accepts from its event stream, and the game is played to checkmate;
/// in chess, then in Genie Of The Lamp with a flip on each side.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_a_person_in_the_browser() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let dir = fresh_dir("browser-bot-api");
    let server = start(&dir).await;
    let a = server.addr;
    let bot_cookie = account(a, "DeepGenie").await;
    let t = token(a, &bot_cookie, &["bot:play"]).await;
    let (st, v) = with_token(a, "POST", "/api/bot/account/upgrade", &t, "", "").await;
    assert_eq!(st, 200, "{v}");
    let driver = start_driver().await;
    let (c, profile) = session(&driver, Size::Wide).await;
    sign_up(&c, a, Size::Wide, "Pia", "a long and quiet passphrase").await;
    // Chess, the fool's mate; then Genie Of The Lamp, where both sides flip
    // a pawn into a Genie (the person with the flip button under the board)
    // before Black mates. The bot plays Black's half of each.
    for (variant, moves) in [("chess", "f2f3 e7e5 g2g4 d8h4"), ("genie", "f2f3 e7e5 g2g4 d7d7g a2a2g d8h4")] {
        let mut args: Vec<String> = ["bot", &format!("http://{a}"), &t].iter().map(|x| x.to_string()).collect();
        args.extend(moves.split(' ').map(str::to_string));
        let bot = tokio::spawn(lichess_client(args));
        c.goto(&format!("http://{a}/@/DeepGenie")).await.unwrap();
        let title = wait_for(&c, "#profile-name .player-title", 15).await.text().await.unwrap();
        assert_eq!(title, "BOT");
        wait_for(&c, "#challenge-section:not(.hidden) #challenge-variant option", 15).await;
        c.execute(
            &format!("document.getElementById('challenge-variant').value = '{variant}'; document.getElementById('challenge-color').value = 'white';"),
            vec![],
        )
        .await
        .unwrap();
        click_css(&c, "#challenge-send").await;
        let path =
            wait_js(&c, "return location.pathname.startsWith('/game/') && location.pathname", |v| v.is_string()).await;
        let id = path.as_str().unwrap().trim_start_matches("/game/").to_string();
        wait_for(&c, "#top-title:not(.hidden)", 15).await;
        assert_eq!(text_of(&c, "#top-user").await, "DeepGenie", "the bot's name on the board, marked BOT");
        // (The bot answers at once: each move is waited for with the answer.)
        wait_for(&c, "#board", 10).await;
        let mine: Vec<&str> = moves.split(' ').step_by(2).collect();
        for (i, mv) in mine.iter().enumerate() {
            click_sq(&c, &mv[0..2]).await;
            if mv.ends_with('g') {
                click_css(&c, &format!("button.action[data-uci='{mv}']")).await;
            } else {
                click_sq(&c, &mv[2..4]).await;
            }
            wait_ply(&c, a, &id, 2 * i + 2).await;
        }
        let end = state(a, &id).await;
        assert_eq!(
            (end["result"].as_str(), end["reason"].as_str()),
            (Some("0-1"), Some("checkmate")),
            "{variant}: {end}"
        );
        let r = bot.await.unwrap();
        assert_eq!(
            (r["state"]["status"].as_str(), r["state"]["winner"].as_str(), r["state"]["moves"].as_str()),
            (Some("mate"), Some("black"), Some(moves)),
            "{variant}: {r}"
        );
        assert_eq!(
            (r["full"]["white"]["name"].as_str(), r["full"]["black"]["title"].as_str()),
            (Some("Pia"), Some("BOT")),
            "{r}"
        );
        assert!(r["events"].as_array().unwrap().iter().any(|e| e == "challenge"), "{r}");
        shot(&c, &format!("bot-api-game-{variant}")).await;
    }
    end_session(c, profile).await;
    server.stop().await;
}
