//! Real-browser tests: headless Chromium driven through chromedriver with
//! fantoccini. Each variant gets a short hot-seat game played by clicking,
//! with its special moves when the server reports them legal, to a result.
//! Screenshots go to `target/screenshots/` for review.
//!
//! Skipped only with CHIMERA_SKIP_BROWSER=1; otherwise a missing chromedriver
//! fails the test (run `scripts/setup-browser.sh`).

use crate::common;
use common::browser::*;
use common::*;
use fantoccini::Locator;
use serde_json::json;
use std::time::Duration;

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
    wait_for(&c, "#variant option[value='magicring']", 10).await;
    shot(&c, "lobby").await;
    click_css(&c, "input[name=mode][value=hotseat] + *, label:has(input[name=mode][value=hotseat])").await;
    click_css(&c, "#create-btn").await;
    wait_for(&c, "rect.sq[data-square='f2']", 10).await;
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
    let n =
        wait_for(&c, ".chooser:not(.hidden)", 5).await.find_all(Locator::Css("button[data-uci]")).await.unwrap().len();
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
        wait_for(&c, ".chooser:not(.hidden) button[data-uci='g1f3c']", 5).await;
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
            json!({"owner": "w", "holder": "w", "square": "e1", "level": 0, "power": null, "active": false})
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
            json!({"owner": "w", "holder": "w", "square": "e2", "level": 1, "power": "Q", "active": true})
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
        wait_for(&c, "g.ring[data-ring='w'][data-square='e1']", 5).await;
        for _ in 0..3 {
            click_css(&c, "#next").await;
        }
        wait_for(&c, "g.ring[data-ring='w'][data-square='e2']", 5).await;
        assert!(c.find_all(Locator::Css("g.tainted")).await.unwrap().is_empty(), "nothing tainted yet");
        shot(&c, "magicring-review").await;
        id
    };

    // Analysis board and rules pages render.
    c.goto(&format!("http://{a}/analysis?game={id}")).await.unwrap();
    wait_for(&c, "#moves .m", 10).await;
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
    wait_for(&c1, "#variant option[value='chess']", 10).await;
    click_css(&c1, "label:has(input[name=mode][value=friend])").await;
    click_css(&c1, "#create-btn").await;
    wait_for(&c1, "#invite-box:not(.hidden)", 10).await;
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
    wait_for(&c1, "#variant option[value='chess']", 10).await;
    click_css(&c1, "label:has(input[name=mode][value=engine])").await;
    c1.find(Locator::Css("#level")).await.unwrap().select_by_value("1").await.unwrap();
    click_css(&c1, "#create-btn").await;
    wait_for(&c1, "rect.sq[data-square='e2']", 10).await;
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

// ---- The lobby, seeks, names, rematch, sounds, game messages.
// Each at 1366×768, 1200×900 and a 390×844 touch phone (taps there).

/// The lobby fits the screen (problem 5b: 489 px wide on a 390 px phone).
/// On the phone the width is the device's 390 px: a mobile browser widens
/// its layout viewport (`innerWidth`) to a page that is too wide.
async fn assert_no_sideways_scroll(c: &fantoccini::Client, size: Size, what: &str) {
    let v = c.execute("return [document.documentElement.scrollWidth, window.innerWidth];", vec![]).await.unwrap();
    let w = v[0].as_i64().unwrap();
    let screen = if size == Size::Phone { 390 } else { v[1].as_i64().unwrap() };
    assert!(w <= screen, "{what}: the page is {w} px wide on a {screen} px screen");
}

async fn set_name(c: &fantoccini::Client, name: &str) {
    let e = wait_for(c, "#name", 10).await;
    e.clear().await.unwrap();
    e.send_keys(name).await.unwrap();
    c.execute("document.getElementById('name').dispatchEvent(new Event('change'))", vec![]).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_open_seeks_and_names() {
    if skip() {
        return;
    }
    let dir = fresh_dir("browser-seeks");
    // Seeks made through the API below have no creator connected: a long
    // grace keeps them listed however slow a loaded machine makes the pages
    // (the grace itself is tested in tests/lobby.rs).
    let config = chimera_server::Config { seek_grace: Duration::from_secs(300), ..Default::default() };
    let server = chimera_server::Server::start_with("127.0.0.1:0", &dir, config).await.expect("server starts");
    let a = server.addr;
    let driver = start_driver().await;
    for size in SIZES {
        let tag = size.name();
        let (ann, pa) = session(&driver, size).await;
        let (bob, pb) = session(&driver, size).await;
        // Ann: a name, "A stranger", "Play a stranger".
        ann.goto(&format!("http://{a}/")).await.unwrap();
        wait_for(&ann, "#variant option[value='genie']", 10).await;
        // Problem 5b first: the lobby (with the games of the sizes before)
        // is no wider than the window.
        wait_js(&ann, "return [document.querySelectorAll('#games tr').length, document.getElementById('seeks').dataset.loads || '0']", |v| {
            v[0].as_i64().unwrap_or(0) > 0 && v[1] != "0"
        })
        .await;
        assert_no_sideways_scroll(&ann, size, &format!("lobby {tag}")).await;
        set_name(&ann, "Ann").await;
        press(&ann, size, "label:has(input[name=mode][value=seek])").await;
        let label = text_of(&ann, "#create-btn").await;
        assert_eq!(label, "Play a stranger", "{tag}");
        press(&ann, size, "#create-btn").await;
        wait_visible(&ann, "#seek-box").await;
        let id = ann.current_url().await.unwrap().path().rsplit('/').next().unwrap().to_string();
        assert!(text_of(&ann, "#status").await.contains("Waiting for an opponent"), "{tag}");
        assert!(!is_visible(&ann, "#actions").await, "{tag}: no resign/draw before an opponent sits down");
        shot(&ann, &format!("seek-waiting-{tag}")).await;

        // Bob's lobby lists it, with Ann's name; the page fits the screen,
        // and on a phone too every seek's Join button and every cell of the
        // games list is whole inside its panel (walk-through fault 1: the
        // seeks table was 589 px wide in a 318 px panel with a long name,
        // "Join" cut or gone, "Last move" hidden, "resignation" cut).
        let (_, long) =
            post_json(a, "/api/games", &json!({"variant": "genie", "mode": "seek", "name": "Bartholomew-Fitzger"}))
                .await;
        bob.goto(&format!("http://{a}/")).await.unwrap();
        set_name(&bob, "Bob").await;
        wait_visible(&bob, &format!("tr[data-seek='{id}'] .seek-join")).await;
        wait_visible(&bob, &format!("tr[data-seek='{}'] .seek-join", long["id"].as_str().expect("a seek"))).await;
        let row = text_of(&bob, &format!("tr[data-seek='{id}']")).await;
        assert!(row.contains("Ann") && row.contains("Black"), "{tag}: {row}");
        assert_no_sideways_scroll(&bob, size, &format!("lobby {tag}")).await;
        let cut = bob
            .execute(
                "const out = [];
                 for (const e of document.querySelectorAll('#seeks .seek-join, #games td, #seeks td')) {
                   const w = e.closest('.table-wrap').getBoundingClientRect(), r = e.getBoundingClientRect();
                   if (r.width === 0) { out.push('hidden: ' + e.textContent.slice(0, 30)); continue; }
                   if (r.left < w.left - 0.5 || r.right > w.right + 0.5) out.push(e.textContent.slice(0, 30) + ` ${r.left}-${r.right} in ${w.left}-${w.right}`);
                 }
                 return out;",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(cut, json!([]), "{tag}: cells cut by their panel");
        bob.execute("document.getElementById('seeks-panel').scrollIntoView()", vec![]).await.unwrap();
        shot(&bob, &format!("lobby-seeks-{tag}")).await;

        // A second joiner is refused clearly: Zed takes another seek first
        // (just after a redraw of Bob's list, so its row is still shown).
        let (_, other) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "seek"})).await;
        let oid = other["id"].as_str().unwrap().to_string();
        wait_visible(&bob, &format!("tr[data-seek='{oid}'] .seek-join")).await;
        let loads = c_loads(&bob).await;
        wait_js(&bob, "return document.getElementById('seeks').dataset.loads", |v| {
            v.as_str().and_then(|s| s.parse::<i64>().ok()).unwrap_or(0) > loads
        })
        .await;
        let (st, _) = post_json(a, &format!("/api/games/{oid}/join"), &json!({"name": "Zed"})).await;
        assert_eq!(st, 200);
        press(&bob, size, &format!("tr[data-seek='{oid}'] .seek-join")).await;
        let t = wait_for(&bob, ".toast", 5).await;
        let msg = t.text().await.unwrap();
        assert!(msg.contains("took this seat first"), "{tag}: {msg}");

        // Bob joins Ann's seek: both pages show both names.
        press(&bob, size, &format!("tr[data-seek='{id}'] .seek-join")).await;
        wait_js(&bob, "return location.pathname", |v| v == &json!(format!("/game/{id}"))).await;
        wait_js(&bob, "return document.getElementById('bottom-name').textContent", |v| {
            v.as_str().unwrap_or("").contains("Bob (Black) (you)")
        })
        .await;
        assert!(text_of(&bob, "#top-name").await.contains("Ann (White)"), "{tag}");
        wait_js(&ann, "return document.getElementById('top-name').textContent", |v| {
            v.as_str().unwrap_or("").contains("Bob (Black)")
        })
        .await;
        assert!(!is_visible(&ann, "#seek-box").await, "{tag}");
        press_move(&ann, size, a, &id, "e2e4").await;
        shot(&bob, &format!("seek-game-{tag}")).await;
        // Remembered names, and the game list shows them.
        bob.goto(&format!("http://{a}/")).await.unwrap();
        wait_js(&bob, "return document.getElementById('name').value", |v| v == &json!("Bob")).await;
        wait_js(&bob, "return document.getElementById('games').textContent", |v| {
            v.as_str().unwrap_or("").contains("Ann v Bob")
        })
        .await;
        assert!(bob.find(Locator::Css(&format!("tr[data-seek='{id}']"))).await.is_err(), "{tag}: a taken seek leaves");
        assert_no_sideways_scroll(&bob, size, &format!("lobby with games {tag}")).await;

        // Ann cancels a seek of hers from its page.
        ann.goto(&format!("http://{a}/")).await.unwrap();
        press(&ann, size, "label:has(input[name=mode][value=seek])").await;
        press(&ann, size, "#create-btn").await;
        wait_visible(&ann, "#seek-box").await;
        let cid = ann.current_url().await.unwrap().path().rsplit('/').next().unwrap().to_string();
        press(&ann, size, "#seek-cancel").await;
        wait_js(&ann, "return location.pathname", |v| v == &json!("/")).await;
        let (st, _) = get_json(a, &format!("/api/games/{cid}")).await;
        assert_eq!(st, 404, "{tag}: cancelled");
        end_session(ann, pa).await;
        end_session(bob, pb).await;
    }
    drop(driver);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

async fn c_loads(c: &fantoccini::Client) -> i64 {
    let v = c.execute("return document.getElementById('seeks').dataset.loads || '0'", vec![]).await.unwrap();
    v.as_str().and_then(|s| s.parse().ok()).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_rematch_and_new_game() {
    if skip() {
        return;
    }
    let dir = fresh_dir("browser-rematch");
    let server = start(&dir).await;
    let a = server.addr;
    let driver = start_driver().await;
    for size in SIZES {
        let tag = size.name();
        // Two people in a friend game (Ann White, Bob Black).
        let (_, g) = post_json(a, "/api/games", &json!({"variant": "clown", "mode": "friend", "name": "Ann"})).await;
        let id = g["id"].as_str().unwrap().to_string();
        let (_, j) =
            post_json(a, &format!("/api/games/{id}/join"), &json!({"invite": g["invite"], "name": "Bob"})).await;
        let (ann, pa) = session(&driver, size).await;
        let (bob, pb) = session(&driver, size).await;
        give_token(&ann, a, &id, &g["token"], json!(["white"])).await;
        give_token(&bob, a, &id, &j["token"], json!(["black"])).await;
        for c in [&ann, &bob] {
            c.goto(&format!("http://{a}/game/{id}")).await.unwrap();
            wait_visible(c, "#resign").await;
        }
        assert!(!is_visible(&ann, "#rematch").await, "{tag}: no rematch while playing");
        press(&ann, size, "#resign").await;
        press(&ann, size, "#resign").await;
        for c in [&ann, &bob] {
            wait_visible(c, "#end-box").await;
        }
        let new_game = ann.find(Locator::Css("#new-game")).await.unwrap().attr("href").await.unwrap().unwrap();
        assert!(new_game.contains("variant=clown") && new_game.contains("mode=friend"), "{tag}: {new_game}");
        // Ann offers; Bob sees it and accepts; both land in the new game.
        press(&ann, size, "#rematch").await;
        wait_visible(&ann, "#rematch-wait").await;
        wait_visible(&bob, "#rematch-offer").await;
        assert!(text_of(&bob, "#rematch-text").await.contains("Ann (White) offers a rematch"), "{tag}");
        shot(&bob, &format!("rematch-offer-{tag}")).await;
        press(&bob, size, "#rematch-accept").await;
        let rid =
            wait_js(&ann, "return location.pathname", |v| v.as_str().is_some_and(|p| p != format!("/game/{id}"))).await;
        let rid = rid.as_str().unwrap().rsplit('/').next().unwrap().to_string();
        wait_js(&bob, "return location.pathname", |v| v == &json!(format!("/game/{rid}"))).await;
        wait_js(&bob, "return document.getElementById('bottom-name').textContent", |v| {
            v.as_str().unwrap_or("").contains("Bob (White) (you)")
        })
        .await;
        wait_js(&ann, "return document.getElementById('bottom-name').textContent", |v| {
            v.as_str().unwrap_or("").contains("Ann (Black) (you)")
        })
        .await;
        // Bob (White now) moves in the rematch.
        press_move(&bob, size, a, &rid, "e2e4").await;
        shot(&ann, &format!("rematch-game-{tag}")).await;

        // Hot-seat: the rematch just starts.
        let hid = open_hotseat(&ann, a, "genie", None).await;
        press(&ann, size, "#resign").await;
        press(&ann, size, "#resign").await;
        wait_visible(&ann, "#rematch").await;
        press(&ann, size, "#rematch").await;
        wait_js(&ann, "return location.pathname", |v| {
            v.as_str().is_some_and(|p| p.starts_with("/game/") && p != format!("/game/{hid}"))
        })
        .await;
        wait_visible(&ann, "#resign").await;
        // "New game" goes to the lobby with the variant and opponent set.
        press(&ann, size, "#resign").await;
        press(&ann, size, "#resign").await;
        wait_visible(&ann, "#new-game").await;
        press(&ann, size, "#new-game").await;
        wait_js(&ann, "return [document.getElementById('variant').value, (document.querySelector('input[name=mode]:checked') || {}).value]", |v| {
            v == &json!(["genie", "hotseat"])
        })
        .await;
        end_session(ann, pa).await;
        end_session(bob, pb).await;
    }
    drop(driver);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_game_messages_sounds_and_missing_games() {
    if skip() {
        return;
    }
    let dir = fresh_dir("browser-messages");
    let server = start(&dir).await;
    let a = server.addr;
    let driver = start_driver().await;
    for size in SIZES {
        let tag = size.name();
        let (c, p) = session(&driver, size).await;

        // Problem 3: a hot-seat draw offer asks first.
        let id = open_hotseat(&c, a, "chess", None).await;
        press(&c, size, "#draw").await;
        wait_visible(&c, "#draw-confirm").await;
        assert!(text_of(&c, "#draw-confirm-text").await.contains("Both players are at this device"), "{tag}");
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(state(a, &id).await["status"], "active", "{tag}: one press does not end the game");
        shot(&c, &format!("draw-confirm-{tag}")).await;
        press(&c, size, "#draw-no").await;
        assert!(!is_visible(&c, "#draw-confirm").await);
        assert_eq!(state(a, &id).await["status"], "active");

        // Sounds: move, capture, check, end; muted, nothing.
        let sounds =
            "return [document.documentElement.dataset.sounds || '0', document.documentElement.dataset.lastSound || '']";
        press_move(&c, size, a, &id, "e2e4").await;
        wait_js(&c, sounds, |v| v[1] == "move").await;
        press_move(&c, size, a, &id, "d7d5").await;
        press_move(&c, size, a, &id, "e4d5").await;
        wait_js(&c, sounds, |v| v[1] == "capture").await;
        press_move(&c, size, a, &id, "e7e6").await;
        press_move(&c, size, a, &id, "f1b5").await;
        wait_js(&c, sounds, |v| v[1] == "check").await;
        press(&c, size, "#draw").await;
        press(&c, size, "#draw-yes").await;
        let b = banner(&c).await;
        assert!(b.contains("1/2-1/2") && b.contains("agreement"), "{tag}: {b}");
        wait_js(&c, sounds, |v| v[1] == "end").await;
        let id = open_hotseat(&c, a, "chess", None).await;
        press(&c, size, "#mute").await;
        assert!(text_of(&c, "#mute").await.contains("off"), "{tag}");
        let before = c.execute(sounds, vec![]).await.unwrap();
        press_move(&c, size, a, &id, "e2e4").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(c.execute(sounds, vec![]).await.unwrap()[0], before[0], "{tag}: muted");
        c.refresh().await.unwrap();
        wait_visible(&c, "#mute").await;
        assert!(text_of(&c, "#mute").await.contains("off"), "{tag}: the mute switch is remembered");
        press(&c, size, "#mute").await;

        // Problem 9: the engine declining a draw is an answer, not an error.
        let (_, e) = post_json(a, "/api/games", &json!({"variant": "chess", "mode": "engine", "level": 1})).await;
        let eid = e["id"].as_str().unwrap().to_string();
        give_token(&c, a, &eid, &e["token"], json!(["white"])).await;
        c.goto(&format!("http://{a}/game/{eid}")).await.unwrap();
        wait_visible(&c, "#draw").await;
        press(&c, size, "#draw").await;
        press(&c, size, "#draw-yes").await;
        let t = wait_for(&c, ".toast", 5).await;
        assert!(t.text().await.unwrap().contains("declines the draw"), "{tag}");
        assert_eq!(t.attr("class").await.unwrap().unwrap(), "toast notice", "{tag}: not the red error");

        // Problem 9: notes for a ring pawn's power move and a Genesis
        // pawn's sideways step; a captured ring said plainly.
        let id = open_hotseat(&c, a, "magicring", Some("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 rings:d2.1,e8.0")).await;
        press_move(&c, size, a, &id, "d2h6").await;
        let note = text_of(&c, "#move-note").await;
        assert!(note.contains("dh6") || note.contains("h6"), "{tag}: {note}");
        assert!(note.contains("ring's power (Queen)") && note.contains("tainted"), "{tag}: {note}");
        let id = open_hotseat(&c, a, "magicring", Some("4k3/6p1/7P/8/8/8/8/4K3 b - - 0 1 rings:h6.1,e8.0")).await;
        let s = press_move(&c, size, a, &id, "g7h6").await;
        assert_eq!(s["state"]["rings"][0]["holder"], "b");
        let info = text_of(&c, ".vstate").await;
        assert!(info.contains("White's ring (captured: Black holds it now): Black's Pawn on h6"), "{tag}: {info}");
        assert!(c.find(Locator::Css("g.ring.captured[data-ring='w']")).await.is_ok(), "{tag}: the badge says captured");
        assert!(text_of(&c, "#move-note").await.contains("carrier of White's ring"), "{tag}");
        shot(&c, &format!("ring-captured-{tag}")).await;
        let id = open_hotseat(&c, a, "genesis", Some("4k3/8/8/8/8/2P5/8/R3K3[] w - - 0 1")).await;
        press_move(&c, size, a, &id, "c3b3").await;
        let note = text_of(&c, "#move-note").await;
        assert!(note.contains("steps sideways") && note.contains("Genesis pawns"), "{tag}: {note}");

        // Problem 9: a greyed Clown hand piece says why.
        open_hotseat_at(
            &c,
            a,
            "clown",
            "rnbqkbnr/ppp2ppp/8/3p4/3p4/P7/1PPPPPPP/R1BQKBNR[N] w KQkq - 0 4 clown:w lastcap:N",
        )
        .await;
        let why = text_of(&c, "#pocket-bottom .pocket-why").await;
        assert!(why.contains("just captured may re-enter from your next turn"), "{tag}: {why}");
        shot(&c, &format!("clown-hand-why-{tag}")).await;

        // Problems 7 and 10: a wrong game address; the favicon.
        c.goto(&format!("http://{a}/game/nosuchgame")).await.unwrap();
        wait_visible(&c, "#nogame").await;
        assert!(c.find(Locator::Css("rect.sq")).await.is_err(), "{tag}: no empty board");
        assert!(c.find(Locator::Css("#resign")).await.is_err(), "{tag}: no action buttons");
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let sockets = c
            .execute(
                "return performance.getEntriesByType('resource').filter((e) => e.name.includes('/ws/')).length",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(sockets, json!(0), "{tag}: no WebSocket tries");
        shot(&c, &format!("no-such-game-{tag}")).await;
        let icon = c
            .execute(
                "const l = document.querySelector('link[rel=icon]'); const r = await fetch(l.href); \
                 const r2 = await fetch('/favicon.ico'); return [r.status, r.headers.get('content-type'), r2.status];",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(icon, json!([200, "image/svg+xml", 200]), "{tag}");
        end_session(c, p).await;
    }
    drop(driver);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hot-seat game from `fen` whose board has no e2 piece: waits for the
/// board itself rather than for e2.
async fn open_hotseat_at(c: &fantoccini::Client, a: std::net::SocketAddr, variant: &str, fen: &str) -> String {
    let (st, g) = post_json(a, "/api/games", &json!({"variant": variant, "mode": "hotseat", "fen": fen})).await;
    assert_eq!(st, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    give_token(c, a, &id, &g["token"], json!(["white", "black"])).await;
    c.goto(&format!("http://{a}/game/{id}")).await.unwrap();
    wait_ply(c, a, &id, 0).await;
    id
}
