//! Opponents at any hour, in a real browser (headless Chromium) at the
//! three sizes (1366x768, 1200x900, a 390x844 touch phone): a
//! correspondence game across a reload and a simulated day (the server's
//! test clock moved 20 hours), with the lobby's "Your games" list; a
//! challenge sent from a profile, shown in the challenged player's header
//! notifications, accepted there, and both players taken to the game; a
//! notification of the opponent's move shown; both players paired by the
//! lobby's quick pairing into one rated game.
//!
//! The test clock is this process's: this file's one test runs alone.
//! Skipped only with CHIMERA_SKIP_BROWSER=1 (see browser.rs).

mod common;
use common::browser::*;
use common::*;
use serde_json::json;
use std::time::Duration;

/// The header's count of unread notifications, once the page has it.
async fn unread(c: &fantoccini::Client) -> u64 {
    wait_for(c, "#notes-button", 15).await;
    let v = c.execute("return document.getElementById('notes-count').textContent", vec![]).await.unwrap();
    v.as_str().unwrap().parse().unwrap()
}

/// The text of the newest notification of `kind` in the open list (read by
/// script: the list is drawn again when it is marked read).
async fn note_text(c: &fantoccini::Client, kind: &str) -> String {
    let js = format!(
        "const e = document.querySelector(\"#notes-list li[data-kind='{kind}']\"); return e ? e.textContent : ''"
    );
    wait_js(c, &js, |v| v.as_str().is_some_and(|s| !s.is_empty())).await.as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn correspondence_and_challenges_at_every_size() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let dir = fresh_dir("browser-opponents");
    let config = chimera_server::Config {
        signup_burst: 100,
        create_burst: 1000,
        seek_grace: Duration::from_secs(300),
        heartbeat_every: Duration::from_millis(300),
        ..chimera_server::Config::default()
    };
    let server = chimera_server::Server::start_with("127.0.0.1:0", &dir, config).await.unwrap();
    let a = server.addr;
    let driver = start_driver().await;
    let pw = "a long and quiet passphrase";
    for size in SIZES {
        let ((ann, pa), (bob, pb), an, bn) = two_players(&driver, a, size, pw).await;

        // Ann: a correspondence seek of a day a move.
        ann.goto(&format!("http://{a}/")).await.unwrap();
        wait_for(&ann, "#variant option", 10).await;
        press(&ann, size, "label:has(input[name=mode][value=seek])").await;
        wait_js(&ann, "return !document.getElementById('days-choice').classList.contains('hidden')", |v| {
            v == &json!(true)
        })
        .await;
        press(&ann, size, "label:has(input[name=clock][value=days])").await;
        ann.execute("document.getElementById('days').value = '1'; document.getElementById('days').dispatchEvent(new Event('change'));", vec![]).await.unwrap();
        press(&ann, size, "#create-btn").await;
        wait_js(&ann, "return location.pathname.startsWith('/game/')", |v| v == &json!(true)).await;
        let id = ann.current_url().await.unwrap().path().rsplit('/').next().unwrap().to_string();
        let days = wait_js(&ann, "return document.getElementById('game-days').textContent", |v| v != &json!("")).await;
        assert_eq!(days, json!("1 day a move"), "{size:?}");

        // Bob joins from the lobby, where the seek says "1 day".
        bob.goto(&format!("http://{a}/")).await.unwrap();
        let row = format!("tr[data-seek='{id}']");
        wait_for(&bob, &format!("{row} .seek-join"), 15).await;
        assert!(text_of(&bob, &row).await.contains("1 day"), "{size:?}");
        press(&bob, size, &format!("{row} .seek-join")).await;
        wait_js(&bob, "return location.pathname", |v| v == &json!(format!("/game/{id}"))).await;

        // Three moves: Black to move, a day on Black's clock.
        press_move(&ann, size, a, &id, "e2e4").await;
        wait_ply(&bob, a, &id, 1).await;
        press_move(&bob, size, a, &id, "e7e5").await;
        wait_ply(&ann, a, &id, 2).await;
        // Bob hears of Ann's move in the header, wherever he is: his lobby.
        bob.goto(&format!("http://{a}/")).await.unwrap();
        wait_for(&bob, "#notes-button", 15).await;
        // (He was told of Ann's first move too: the count goes up by one.)
        let before = unread(&bob).await;
        press_move(&ann, size, a, &id, "g1f3").await;
        wait_js(&bob, "return document.getElementById('notes-count').textContent", |v| {
            v == &json!((before + 1).to_string())
        })
        .await;
        press(&bob, size, "#notes-button").await;
        let note = note_text(&bob, "move").await;
        assert!(note.contains(&an) && note.contains("Nf3") && note.contains("your turn"), "{size:?}: {note}");
        shot(&bob, &format!("notes-{}", size.name())).await;
        // The lobby's list of his games: his turn.
        wait_for(&bob, &format!("#playing tr[data-game='{id}'][data-my-turn='true']"), 15).await;

        // A simulated day: 20 hours pass; Bob reloads the game.
        chimera_server::clock::advance(Duration::from_secs(20 * 3600));
        bob.goto(&format!("http://{a}/game/{id}")).await.unwrap();
        let clock = wait_js(&bob, "return document.getElementById('bottom-clock').textContent", |v| {
            v.as_str().is_some_and(|s| s.contains(" h "))
        })
        .await;
        assert!(clock.as_str().unwrap().starts_with("3 h 5"), "{size:?}: about 4 hours left: {clock}");
        wait_ply(&bob, a, &id, 3).await;
        press_move(&bob, size, a, &id, "b8c6").await;
        wait_ply(&ann, a, &id, 4).await;

        // A challenge: Ann from Bob's profile; Bob accepts it in his header.
        bob.goto(&format!("http://{a}/")).await.unwrap();
        assert_eq!(unread(&bob).await, 0, "{size:?}: the list was read when it was opened");
        ann.goto(&format!("http://{a}/@/{bn}")).await.unwrap();
        wait_for(&ann, "#challenge-section:not(.hidden) #challenge-variant option", 15).await;
        ann.execute("document.getElementById('challenge-variant').value = 'genie'; document.getElementById('challenge-time').value = '10+5';", vec![]).await.unwrap();
        press(&ann, size, "#challenge-send").await;
        wait_js(&ann, "return document.getElementById('challenge-status').textContent", |v| {
            v.as_str().is_some_and(|s| s.contains("waiting for"))
        })
        .await;
        wait_js(&bob, "return document.getElementById('notes-count').textContent", |v| v == &json!("1")).await;
        press(&bob, size, "#notes-button").await;
        let note = note_text(&bob, "challenge").await;
        assert!(note.contains(&an) && note.contains("Genie") && note.contains("10+5"), "{size:?}: {note}");
        press(&bob, size, "#notes-list li[data-kind='challenge'] .note-accept").await;
        wait_js(&bob, "return location.pathname.startsWith('/game/') && location.pathname", |v| v.is_string()).await;
        let game = bob.current_url().await.unwrap().path().to_string();
        // Ann's profile page goes to the game by itself.
        wait_js(&ann, "return location.pathname", |v| v == &json!(game)).await;
        wait_js(&bob, "return document.querySelectorAll('#actions:not(.hidden) #resign').length", |v| v == &json!(1))
            .await;
        shot(&ann, &format!("challenge-game-{}", size.name())).await;
        // Quick pairing: both enter Genesis 3+2 from the lobby and meet.
        for c in [&ann, &bob] {
            c.goto(&format!("http://{a}/")).await.unwrap();
            wait_for(c, "#variant option", 10).await;
            c.execute("document.getElementById('variant').value = 'genesis'; document.getElementById('variant').dispatchEvent(new Event('change'));", vec![]).await.unwrap();
            wait_for(c, ".quick-pool[data-pool='genesis-3+2']:not([disabled])", 15).await;
        }
        press(&ann, size, ".quick-pool[data-pool='genesis-3+2']").await;
        wait_js(&bob, "const b = document.querySelector(\".quick-pool[data-pool='genesis-3+2'] .quick-waiting\"); return b && b.textContent", |v| v == &json!("1 waiting")).await;
        press(&bob, size, ".quick-pool[data-pool='genesis-3+2']").await;
        let paired =
            wait_js(&ann, "return location.pathname.startsWith('/game/') && location.pathname", |v| v.is_string())
                .await;
        wait_js(&bob, "return location.pathname", |v| v == &paired).await;
        wait_js(&ann, "return document.getElementById('game-kind').textContent", |v| v == &json!("Rated")).await;
        end_session(ann, pa).await;
        end_session(bob, pb).await;
    }
    server.stop().await;
}
