//! The balance lab's page in a real browser: a small study is played into a
//! fresh store with the lab's own runner, then `/lab` lists it, its link
//! opens the report with its plots and intervals, and the page fits a
//! phone's width. Screenshots go to `target/screenshots/`.
//!
//! Skipped only with CHIMERA_SKIP_BROWSER=1 (as the other browser tests).
#![cfg(feature = "lab")]

mod common;
use chimera_lab::spec::{Budget, StudySpec};
use chimera_lab::{run, store};
use chimera_rules::Variant;
use common::browser::*;
use common::*;
use fantoccini::Locator;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lab_page_shows_a_study() {
    if skip() {
        eprintln!("CHIMERA_SKIP_BROWSER=1: browser tests skipped");
        return;
    }
    let dir = fresh_dir("browser-lab");
    {
        let db = store::open(&dir).await.expect("lab store");
        let mut spec = StudySpec::new(Variant::Clown);
        spec.budget = Budget::Nodes(150);
        spec.max_plies = 80;
        store::create_or_check(&db, "clown-small", &spec, 6, &run::engine_id()).await.unwrap();
        let s = run::run_study(&db, "clown-small", 2, Arc::new(AtomicBool::new(false)), &mut |_| {}).await.unwrap();
        assert_eq!(s.played, 6);
        db.close().await;
    }
    let server = start(&dir).await;
    let a = server.addr;
    let driver = start_driver().await;
    let c = browser(&driver).await;

    c.goto(&format!("http://{a}/lab")).await.unwrap();
    let link = wait_for(&c, "a.study", 10).await;
    assert_eq!(link.text().await.unwrap(), "clown-small");
    let row = text_of(&c, "#studies").await;
    assert!(row.contains("6/6") && row.contains("clown"), "{row}");
    shot(&c, "lab-index").await;
    link.click().await.unwrap();
    wait_for(&c, "figure svg", 10).await;
    assert!(c.current_url().await.unwrap().path().ends_with("/lab/clown-small"));
    let body = text_of(&c, "main").await;
    for want in
        ["White's score", "Terminations", "Game length", "Score by first move", "Special moves", "A typical game"]
    {
        assert!(body.contains(want), "the report shows {want}: {body}");
    }
    // Results, terminations, lengths, first moves, special moves (castling
    // at least, or a Clown's declaration), the typical game.
    let plots = c.find_all(Locator::Css("figure svg")).await.unwrap().len();
    assert!(plots >= 5, "{plots} plots");
    // No fit was made for this store: the page says how to make one.
    assert!(body.contains("chimera lab report clown-small"), "{body}");
    shot(&c, "lab-study").await;
    // The site's page (issue 99, fault 8): its header, whose menu leads to
    // the lab, and its theme (not the report file's own white page).
    wait_for(&c, "#hdr header.top nav a[href='/lab']", 10).await;
    const BG: &str = "return getComputedStyle(document.body).backgroundColor";
    let bg = c.execute(BG, vec![]).await.unwrap();
    c.goto(&format!("http://{a}/")).await.unwrap();
    wait_for(&c, "#hdr header.top", 10).await;
    let site = c.execute(BG, vec![]).await.unwrap();
    assert_eq!(bg, site, "the lab's page has the site's background");
    c.back().await.unwrap();
    wait_for(&c, "figure svg", 10).await;
    // A phone's width: the plots scale down, nothing wider than the window.
    c.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let widest = c
        .execute(
            "return Math.max(...[...document.querySelectorAll('figure svg')].map(s => s.getBoundingClientRect().right));",
            vec![],
        )
        .await
        .unwrap();
    let inner = c.execute("return window.innerWidth;", vec![]).await.unwrap();
    assert!(widest.as_f64().unwrap() <= inner.as_f64().unwrap() + 0.5, "plots {widest} wider than the window {inner}");
    shot(&c, "lab-study-phone").await;
    // An unknown study is a clear 404.
    let (code, body) = http(a, "GET", "/api/lab/studies/nope", None).await;
    assert_eq!(code, 404);
    assert!(body.contains("no study 'nope'"), "{body}");
    let (code, body) = http(a, "GET", "/api/lab/studies", None).await;
    assert_eq!(code, 200);
    assert!(body.contains("\"games\":6"), "{body}");
    c.close().await.unwrap();
}
