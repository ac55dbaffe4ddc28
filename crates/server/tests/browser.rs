//! Real-browser tests: headless Chromium driven through chromedriver with
//! fantoccini. Each variant gets a short hot-seat game played by clicking,
//! with its special moves when the server reports them legal, to a result.
//! Screenshots go to `target/screenshots/` for review.
//!
//! Skipped only with CHIMERA_SKIP_BROWSER=1; otherwise a missing chromedriver
//! fails the test (run `scripts/setup-browser.sh`).

mod common;
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
