//! Whole games driven through key and mouse events, and the engine on its
//! own thread (bounded waits; no timing is asserted).

mod common;
use chimera_rules::{MoveKind, Position, Role};
use common::*;
use crossterm::event::KeyCode;
use std::time::{Duration, Instant};

#[test]
fn a_hot_seat_game_by_cursor_keys_and_typed_moves() {
    let mut a = app("chess");
    assert_eq!(a.cursor, sq("e2"));
    // 1. f3 by the cursor: right to f2, select, up to f3, play.
    keys(&mut a, &[KeyCode::Right, KeyCode::Enter, KeyCode::Up, KeyCode::Enter]);
    assert_eq!(a.session.sans, vec!["f3"]);
    // 1... e5 by the cursor (hjkl): from f3 to e7, then down to e5.
    keys(&mut a, &[KeyCode::Char('h'), KeyCode::Char('k'), KeyCode::Char('k'), KeyCode::Char('k'), KeyCode::Char('k')]);
    assert_eq!(a.cursor, sq("e7"));
    keys(&mut a, &[KeyCode::Enter, KeyCode::Char('j'), KeyCode::Char('j'), KeyCode::Enter]);
    assert_eq!(a.session.sans, vec!["f3", "e5"]);
    // 2. g4 typed in UCI.
    type_line(&mut a, "g2g4");
    // 2... Qh4# typed with completion: "Qh" + Tab completes the only match.
    key(&mut a, KeyCode::Char(':'));
    keys(&mut a, &[KeyCode::Char('Q'), KeyCode::Char('h'), KeyCode::Tab]);
    assert_eq!(a.input.as_deref(), Some("Qh4#"));
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.session.sans, vec!["f3", "e5", "g4", "Qh4#"]);
    let end = a.session.end.clone().expect("the game is over");
    assert_eq!(end.result, "0-1");
    assert!(end.text.contains("checkmate"), "{}", end.text);
    assert!(screen(&mut a, 80, 24).contains("Game over: 0-1"));
    // Moves are refused now, and so is a take-back: the result stands.
    type_line(&mut a, "a3");
    assert_eq!(a.session.sans.len(), 4);
    key(&mut a, KeyCode::Char('u'));
    assert_eq!(a.session.sans.len(), 4);
    assert_eq!(a.message, "No take-back: the game is over: its result stands.");
    assert!(a.session.end.is_some());
    // Save, start again, load it back.
    let dir = std::env::temp_dir().join(format!("chimera-tui-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.pgn");
    type_line(&mut a, &format!("save {}", path.display()));
    assert!(a.message.starts_with("Saved"), "{}", a.message);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{text}");
    // The game is over: a new one at once.
    key(&mut a, KeyCode::Char('n'));
    assert!(a.chooser.is_none());
    assert!(a.session.sans.is_empty());
    // A game in progress asks first.
    play(&mut a, &["e4"]);
    key(&mut a, KeyCode::Char('n'));
    assert!(a.chooser.is_some());
    key(&mut a, KeyCode::Enter);
    assert!(a.session.sans.is_empty());
    type_line(&mut a, &format!("load {}", path.display()));
    assert_eq!(a.session.sans, vec!["f3", "e5", "g4", "Qh4#"], "{}", a.message);
    // Hot-seat: a take-back is one move.
    type_line(&mut a, "new");
    play(&mut a, &["f3", "e5", "g4"]);
    key(&mut a, KeyCode::Char('u'));
    assert_eq!(a.session.sans, vec!["f3", "e5"]);
    assert_eq!(a.message, "Took back 1 move.");
    // A FEN of the variant.
    type_line(&mut a, "fen 8/8/8/8/8/5k2/8/5K1R w - - 0 1");
    assert!(a.session.sans.is_empty());
    assert_eq!(a.position().fen(), "8/8/8/8/8/5k2/8/5K1R w - - 0 1");
    // Bad input is an error message, never a panic.
    type_line(&mut a, "fen not a fen");
    assert!(a.message.starts_with("Bad FEN"), "{}", a.message);
    type_line(&mut a, "load /nonexistent/file.pgn");
    assert!(a.message.starts_with("Could not read"), "{}", a.message);
    type_line(&mut a, "Zz9");
    assert!(!a.message.is_empty());
    type_line(&mut a, "level 9");
    assert_eq!(a.message, "Usage: level <1-8>");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn resign_draw_and_flip() {
    let mut a = app("chess");
    play(&mut a, &["e4"]);
    key(&mut a, KeyCode::Char('f'));
    assert!(a.flipped);
    key(&mut a, KeyCode::Char('d')); // Black offers, White is asked
    assert!(a.chooser.is_some());
    key(&mut a, KeyCode::Char('2')); // decline
    assert!(a.session.end.is_none());
    key(&mut a, KeyCode::Char('r'));
    key(&mut a, KeyCode::Enter); // confirm
    assert_eq!(a.session.end.as_ref().map(|e| e.result.as_str()), Some("1-0"), "Black resigned");
    let mut b = app("chess");
    key(&mut b, KeyCode::Char('d'));
    key(&mut b, KeyCode::Char('1'));
    assert_eq!(b.session.end.as_ref().map(|e| e.text.as_str()), Some("1/2-1/2 (draw agreed)"));
}

#[test]
fn the_mouse_selects_and_moves() {
    let mut a = app("chess");
    let (x, y) = square_center(&a, 100, 30, sq("g1"));
    a.size = (100, 30);
    click(&mut a, x, y);
    let (x, y) = square_center(&a, 100, 30, sq("f3"));
    click(&mut a, x, y);
    assert_eq!(a.session.sans, vec!["Nf3"]);
    // Flipped, the same screen cell is another square.
    a.flipped = true;
    let (x, y) = square_center(&a, 100, 30, sq("d7"));
    click(&mut a, x, y);
    let (x, y) = square_center(&a, 100, 30, sq("d5"));
    click(&mut a, x, y);
    assert_eq!(a.session.sans, vec!["Nf3", "d5"]);
    // Drag and drop: press on b1, release on c3.
    a.flipped = false;
    let (x, y) = square_center(&a, 100, 30, sq("b1"));
    press(&mut a, x, y);
    let (x, y) = square_center(&a, 100, 30, sq("c3"));
    release(&mut a, x, y);
    assert_eq!(a.session.sans, vec!["Nf3", "d5", "Nc3"]);
}

#[test]
fn genesis_placement_by_mouse_from_the_reserve_row() {
    let mut a = app("genesis");
    a.size = (100, 30);
    let geo = chimera_tui::ui::geometry(ratatui::layout::Rect::new(0, 0, 100, 30), &a);
    let &(x, y, role) = geo.reserves.first().expect("clickable reserve");
    assert_eq!(role, Role::King);
    click(&mut a, x, y);
    assert_eq!(a.selected, Some(chimera_tui::app::Selection::Drop(Role::King)));
    let (x, y) = square_center(&a, 100, 30, sq("e1"));
    click(&mut a, x, y);
    assert_eq!(a.session.sans, vec!["K@e1"]);
}

#[test]
fn variant_moves_through_choosers() {
    // Genie: flip, then the Genie leaps.
    let mut g = app("genie");
    let flip = find(&g, |m| m.kind == MoveKind::Flip);
    g.cursor = flip.from;
    keys(&mut g, &[KeyCode::Enter, KeyCode::Enter, KeyCode::Enter]);
    assert_eq!(g.position().board().role_at(flip.from), Some(Role::Genie));
    // Clown: declare.
    let mut c = app("clown");
    c.cursor = sq("g1");
    key(&mut c, KeyCode::Enter);
    c.cursor = sq("f3");
    key(&mut c, KeyCode::Enter);
    let ch = c.chooser.clone().expect("declaration chooser");
    let i = ch.options.iter().position(|(l, _)| l.starts_with("Declare")).unwrap();
    key(&mut c, KeyCode::Char(char::from_digit(i as u32 + 1, 10).unwrap()));
    assert_eq!(c.position().board().role_at(sq("f3")), Some(Role::Clown));
    // Esc in a chooser cancels and keeps the position.
    c.cursor = sq("b8");
    key(&mut c, KeyCode::Enter);
    c.cursor = sq("c6");
    key(&mut c, KeyCode::Enter);
    assert!(c.chooser.is_some());
    key(&mut c, KeyCode::Esc);
    assert!(c.chooser.is_none());
    assert_eq!(c.session.sans.len(), 1);
    // Magic Ring: a ring pass from the King to a neighbour.
    let mut r = app("magicring");
    play(&mut r, &["e4", "e5"]);
    let pass = find(&r, |m| matches!(m.kind, MoveKind::RingPass(_)));
    r.cursor = pass.from;
    key(&mut r, KeyCode::Enter);
    r.cursor = pass.to;
    key(&mut r, KeyCode::Enter);
    if r.chooser.is_some() {
        key(&mut r, KeyCode::Enter);
    }
    assert_eq!(r.session.game.moves().last().map(|m| m.kind), Some(pass.kind));
    // Genesis: 'p' cycles the pieces to place, Enter places.
    let mut s = app("genesis");
    key(&mut s, KeyCode::Char('p'));
    assert_eq!(s.selected, Some(chimera_tui::app::Selection::Drop(Role::King)));
    s.cursor = sq("e1");
    key(&mut s, KeyCode::Enter);
    assert_eq!(s.session.sans, vec!["K@e1"]);
}

/// Feeds the engine's reports to the app until `done` holds (at most 60 s).
fn wait_for(a: &mut chimera_tui::App, done: impl Fn(&chimera_tui::App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    for _ in 0..10_000 {
        if done(a) || Instant::now() > deadline {
            break;
        }
        a.wait_engine(Duration::from_millis(200));
        a.tick(Instant::now());
    }
}

#[test]
fn against_the_engine_the_ui_keeps_working_while_it_thinks() {
    let mut c = config("chess");
    c.hot_seat = false;
    c.level = 1;
    let mut a = chimera_tui::App::new(c);
    play(&mut a, &["e4"]);
    assert!(a.engine_thinking(), "the engine searches after the human's move");
    // Keys are handled at once while it thinks; moves are refused politely.
    key(&mut a, KeyCode::Left);
    assert_eq!(a.cursor, sq("d2"));
    type_line(&mut a, "d4");
    assert_eq!(a.session.sans, vec!["e4"]);
    wait_for(&mut a, |a| a.session.sans.len() == 2);
    assert_eq!(a.session.sans.len(), 2, "the engine replied: {}", a.message);
    assert!(a.message.starts_with("Chimera plays"), "{}", a.message);
    // Take back removes the engine's reply and the human's move.
    key(&mut a, KeyCode::Char('u'));
    assert!(a.session.sans.is_empty());
    assert!(!a.engine_thinking());
    // Analysis on the human's turn: the eval and line arrive.
    key(&mut a, KeyCode::Char('a'));
    wait_for(&mut a, |a| a.session.analysis.as_ref().is_some_and(|x| x.depth >= 3));
    let an = a.session.analysis.clone().expect("an analysis line");
    assert!(!an.pv_san.is_empty());
    key(&mut a, KeyCode::Char('a'));
    assert!(a.session.analysis.is_none());
    // Playing Black: the engine opens.
    let mut c = config("genie");
    c.hot_seat = false;
    c.level = 1;
    c.human = chimera_rules::Color::Black;
    let mut b = chimera_tui::App::new(c);
    b.sync_engine();
    wait_for(&mut b, |b| b.session.sans.len() == 1);
    assert_eq!(b.session.sans.len(), 1);
    assert!(b.flipped, "Black plays from the bottom");
}

#[test]
fn the_clocks_start_after_each_sides_first_move_and_flag() {
    use chimera_rules::Color::{Black, White};
    let mut c = config("chess");
    c.clock = Some((Duration::from_secs(60), Duration::from_secs(2)));
    let mut a = chimera_tui::App::new(c);
    let t0 = a.now();
    // Each side's first move is untimed and earns no increment.
    a.tick(t0 + Duration::from_secs(10));
    play(&mut a, &["e4"]);
    assert_eq!(a.time_left(White), Some(Duration::from_secs(60)));
    a.tick(t0 + Duration::from_secs(12));
    play(&mut a, &["e5"]);
    assert_eq!(a.time_left(Black), Some(Duration::from_secs(60)));
    // From then on: 10 s used, 2 s added.
    a.tick(t0 + Duration::from_secs(22));
    play(&mut a, &["Nf3"]);
    assert_eq!(a.time_left(White), Some(Duration::from_secs(52)));
    // A take-back puts the clocks back to their readings after e5.
    a.tick(t0 + Duration::from_secs(30));
    key(&mut a, KeyCode::Char('u'));
    assert_eq!(a.session.sans, vec!["e4", "e5"]);
    assert_eq!(a.time_left(White), Some(Duration::from_secs(60)));
    assert_eq!(a.time_left(Black), Some(Duration::from_secs(60)));
    play(&mut a, &["Nf3"]);
    a.tick(t0 + Duration::from_secs(30 + 61));
    assert_eq!(a.session.end.as_ref().map(|e| e.text.as_str()), Some("1-0 (black loses on time)"));
    assert!(screen(&mut a, 80, 24).contains("0:00.0"));
}

#[test]
fn any_terminal_size_draws_without_panicking() {
    let mut a = app("clown");
    play(&mut a, &["e4", "e5"]);
    key(&mut a, KeyCode::Char('?'));
    for w in (1..=130).step_by(7) {
        for h in 1..=40 {
            let s = screen(&mut a, w, h);
            assert_eq!(s.lines().count(), h as usize);
        }
    }
    // The board and the command line survive at 80×24 and even 40×12.
    key(&mut a, KeyCode::Esc);
    let s = screen(&mut a, 40, 12);
    assert!(s.contains('♙') && s.lines().last().is_some_and(|l| l.contains("Enter")), "{s}");
}

#[test]
fn random_keys_never_break_the_game() {
    // A fixed pseudo-random stream of keys (no engine: hot-seat), for every
    // variant: no panic, the move list and the game stay in step, and
    // every move played was legal where it was played.
    let pool = [
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Enter,
        KeyCode::Enter,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Char('p'),
        KeyCode::Char('1'),
        KeyCode::Char('2'),
        KeyCode::Char('u'),
        KeyCode::Char('f'),
        KeyCode::Char('?'),
        KeyCode::Tab,
        KeyCode::Char('N'),
        KeyCode::Char('e'),
        KeyCode::Char('4'),
        KeyCode::Backspace,
    ];
    let mut played = 0;
    for variant in ["chess", "genie", "genie-ownhalf", "genesis", "clown", "magicring"] {
        let mut a = app(variant);
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..3000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let before = a.session.sans.len();
            key(&mut a, pool[(seed % pool.len() as u64) as usize]);
            assert!(!a.quit);
            played += (a.session.sans.len() > before) as usize;
        }
        assert_eq!(a.session.sans.len(), a.session.game.moves().len(), "{variant}");
        let mut pos = a.session.game.start().clone();
        for &m in a.session.game.moves() {
            assert!(pos.is_legal(m), "{variant}: {m} illegal");
            pos.play_unchecked(m);
        }
        let _ = screen(&mut a, 80, 24);
    }
    eprintln!("{played} moves played by random keys");
    assert!(played >= 50, "the keys hardly reached the game: {played} moves");
}

#[test]
fn a_click_on_a_chooser_line_chooses_it() {
    let mut a = app_fen("chess", "8/4P1k1/8/8/8/8/6K1/8 w - - 0 1");
    a.cursor = sq("e7");
    key(&mut a, KeyCode::Enter);
    a.cursor = sq("e8");
    key(&mut a, KeyCode::Enter);
    a.size = (100, 30);
    let geo = chimera_tui::ui::geometry(ratatui::layout::Rect::new(0, 0, 100, 30), &a);
    let r = geo.chooser.expect("a chooser on screen");
    // The third line: a Bishop.
    click(&mut a, r.x + 3, r.y + 3);
    assert_eq!(a.session.sans, vec!["e8=B"]);
}

/// Forty plies of chess that neither end the game nor repeat a position.
const FORTY_PLIES: &str = "a3 a6 b3 b6 c3 c6 d3 d6 e3 e6 f3 f6 g3 g6 h3 h6 a4 a5 h4 h5 \
    Nd2 Nd7 Ne2 Ne7 Bb2 Bb7 Bg2 Bg7 Ra2 Ra7 Rh2 Rh7 Qc2 Qc7 Kf1 Kf8 Nf4 Nf5 Kg1 Kg8";

#[test]
fn the_engine_answers_a_draw_offer_by_the_house_rules_and_levels_change() {
    use chimera_engine::Score;
    use chimera_session::EngineEval;
    let mut c = config("chess");
    c.hot_seat = false;
    let mut a = chimera_tui::App::new(c);
    key(&mut a, KeyCode::Char('d'));
    assert!(a.session.end.is_none(), "too early: declined");
    assert!(a.message.contains("declines the draw: too early"), "{}", a.message);
    // 40 plies on the board.
    let mut g = chimera_rules::Game::new(a.position().clone());
    let mut moves = Vec::new();
    for m in FORTY_PLIES.split_whitespace() {
        let mv = chimera_rules::san::parse_san(g.position(), m).expect(m);
        g.play(mv).unwrap();
        moves.push(mv);
    }
    assert_eq!(moves.len(), 40);
    assert!(g.outcome().is_none());
    let start = g.start().clone();
    // White to move: the person's turn, the engine waits.
    a.new_game_from(start, &moves);
    assert_eq!(a.session.sans.len(), 40);
    key(&mut a, KeyCode::Char('d'));
    assert!(a.message.contains("has not judged"), "{}", a.message);
    a.session.engine_eval = Some(EngineEval { ply: 39, score: Score::Cp(45) });
    key(&mut a, KeyCode::Char('d'));
    assert!(a.session.end.is_none(), "the engine thinks itself better: declined");
    assert!(a.message.contains("stands better"), "{}", a.message);
    a.session.engine_eval = Some(EngineEval { ply: 39, score: Score::Cp(-10) });
    key(&mut a, KeyCode::Char('d'));
    assert_eq!(a.session.end.as_ref().map(|e| e.result.as_str()), Some("1/2-1/2"));
    // Levels: + and - within 1..=8.
    let mut b = app("chess");
    for _ in 0..12 {
        key(&mut b, KeyCode::Char('+'));
    }
    assert_eq!(b.session.level, chimera_session::Level::MAX);
    for _ in 0..12 {
        key(&mut b, KeyCode::Char('-'));
    }
    assert_eq!(b.session.level, chimera_session::Level::MIN);
    type_line(&mut b, "level 5");
    assert_eq!(b.session.level.number(), 5);
    assert_eq!(b.message, "Engine level 5: Strong club player: calculates a few moves deep.");
    type_line(&mut b, "level 9");
    assert_eq!(b.session.level.number(), 5);
    assert!(b.message.starts_with("Usage: level <1-8>"), "{}", b.message);
}

// ----- online (the Remote link of `chimera play --online`) -----------------

mod online {
    use super::common::*;
    use chimera_rules::{Color, Position, Variant};
    use chimera_tui::remote::{FromServer, Remote, ServerEnd, ServerState, ToServer};
    use chimera_tui::{App, Config};
    use crossterm::event::KeyCode;
    use std::time::{Duration, Instant};

    fn state(moves: &[&str], clocks: Option<(u64, u64)>) -> ServerState {
        ServerState {
            moves: moves.iter().map(|s| s.to_string()).collect(),
            clocks: clocks.map(|(w, b)| [Duration::from_secs(w), Duration::from_secs(b)]),
            status: "started".into(),
            ..ServerState::default()
        }
    }

    fn send(end: &ServerEnd, a: &mut App, st: ServerState) {
        end.to_session.send(FromServer::State(st)).unwrap();
        a.tick(Instant::now());
    }

    fn asked(end: &ServerEnd) -> Option<ToServer> {
        end.from_session.try_recv().ok()
    }

    #[test]
    fn an_online_game_follows_the_server() {
        let mut c = Config::new(Variant::Chess);
        c.human = Color::Black;
        c.clock = Some((Duration::from_secs(300), Duration::from_secs(3)));
        let (remote, end) = Remote::pair(["Ann (1500)".into(), "Bob (1500)".into()]);
        let mut a = App::online(c, remote);
        assert!(a.flipped, "Black plays from the bottom");
        assert!(a.message.contains("online: you play black against Ann (1500)"), "{}", a.message);
        send(&end, &mut a, state(&[], Some((300, 300))));
        let s = screen(&mut a, 80, 24);
        assert!(s.contains("White: Ann (1500)") && s.contains("Black: Bob (1500)"), "{s}");
        assert!(s.contains("r resign · d draw"), "the online keys:\n{s}");
        // Not Black's turn: nothing is played, nothing is sent.
        type_line(&mut a, "e5");
        assert_eq!(a.message, "Not your turn: Ann (1500) is to move.");
        assert!(a.session.sans.is_empty() && asked(&end).is_none());
        // Ann's move comes from the server.
        send(&end, &mut a, state(&["e2e4"], Some((300, 300))));
        assert_eq!(a.session.sans, ["e4"]);
        assert_eq!(a.message, "Ann (1500) plays e4.");
        // Bob's move shows at once and goes to the server as ply 1.
        type_line(&mut a, "e5");
        assert_eq!(a.session.sans, ["e4", "e5"]);
        assert_eq!(asked(&end), Some(ToServer::Move { uci: "e7e5".into(), ply: 1 }));
        // The server's echo does not play it twice; a state still without
        // it (sent before it landed) does not take it back.
        send(&end, &mut a, state(&["e2e4"], Some((300, 300))));
        assert_eq!(a.session.sans, ["e4", "e5"]);
        send(&end, &mut a, state(&["e2e4", "e7e5"], Some((300, 300))));
        assert_eq!(a.session.sans, ["e4", "e5"]);
        // The clocks are the server's, running for the side to move.
        send(&end, &mut a, state(&["e2e4", "e7e5", "g1f3"], Some((250, 280))));
        let black = a.session.time_left(Color::Black).unwrap();
        assert!(black <= Duration::from_secs(280) && black > Duration::from_secs(270), "{black:?}");
        assert_eq!(a.session.time_left(Color::White), Some(Duration::from_secs(250)));
        // A move the server refuses is taken back.
        type_line(&mut a, "Nc6");
        let req = asked(&end).expect("the move was sent");
        assert_eq!(req, ToServer::Move { uci: "b8c6".into(), ply: 3 });
        end.to_session.send(FromServer::Refused { request: req, error: "400: Not your turn".into() }).unwrap();
        a.tick(Instant::now());
        assert_eq!(a.session.sans, ["e4", "e5", "Nf3"]);
        assert!(a.message.contains("refused b8c6: 400: Not your turn"), "{}", a.message);
        // No take-back, no new game, no engine help between people.
        key(&mut a, KeyCode::Char('u'));
        assert!(a.message.starts_with("No take-back: takebacks are offered only"), "{}", a.message);
        key(&mut a, KeyCode::Char('n'));
        assert!(a.message.starts_with("An online game"), "{}", a.message);
        type_line(&mut a, "fen 8/8/8/8/8/5k2/8/5K1R w - - 0 1");
        assert_eq!(a.session.sans.len(), 3);
        key(&mut a, KeyCode::Char('a'));
        assert!(!a.session.analysis_on && a.message.starts_with("No engine analysis"));
        // Ann offers a draw; 'd' accepts it through the server.
        let mut st = state(&["e2e4", "e7e5", "g1f3"], Some((250, 280)));
        st.draw_offer = Some(Color::White);
        send(&end, &mut a, st);
        assert!(screen(&mut a, 80, 24).contains("White offers a draw ('d' accepts)"));
        key(&mut a, KeyCode::Char('d'));
        assert_eq!(asked(&end), Some(ToServer::Draw(true)));
        assert_eq!(a.message, "Accepting the draw…");
        // Ann's draw is withdrawn by her move; Bob's own offer shows as his.
        let mut st = state(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"], Some((250, 280)));
        st.draw_offer = Some(Color::Black);
        send(&end, &mut a, st);
        assert!(screen(&mut a, 80, 24).contains("Your draw offer stands"));
        // Resign (asks first), and the server ends the game.
        key(&mut a, KeyCode::Char('r'));
        key(&mut a, KeyCode::Enter);
        assert_eq!(asked(&end), Some(ToServer::Resign));
        assert!(a.session.end.is_none(), "the server ends the game, not the board");
        let mut st = state(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"], Some((250, 280)));
        st.status = "resign".into();
        st.winner = Some(Color::White);
        send(&end, &mut a, st);
        let e = a.session.end.clone().expect("over");
        assert_eq!((e.result.as_str(), e.text.as_str()), ("1-0", "1-0 (Black resigns)"));
        assert!(screen(&mut a, 80, 24).contains("Game over: 1-0 (Black resigns)"));
        type_line(&mut a, "a6");
        assert_eq!(a.session.sans.len(), 5);
        assert!(asked(&end).is_none());
    }

    #[test]
    fn a_state_that_differs_replaces_the_board_and_flags_are_the_servers() {
        let mut c = Config::new(Variant::Genesis);
        c.clock = Some((Duration::from_secs(60), Duration::ZERO));
        let (remote, end) = Remote::pair(["Ann".into(), "Bob".into()]);
        let mut a = App::online(c, remote);
        send(&end, &mut a, state(&["K@e1", "K@e8"], Some((60, 60))));
        assert_eq!(a.session.sans, ["K@e1", "K@e8"]);
        // Another history (a state of another game would be a server's
        // fault, but the board follows the server).
        send(&end, &mut a, state(&["K@d1", "K@d8", "Q@a1"], Some((0, 60))));
        assert_eq!(a.session.sans, ["K@d1", "K@d8", "Q@a1"]);
        // White's move in Genesis: every placement one ply, White to move again
        // after an even number.
        assert_eq!(a.position().turn(), Color::Black);
        // Black's clock at zero does not end the game here: the server says.
        send(&end, &mut a, state(&["K@d1", "K@d8", "Q@a1"], Some((60, 0))));
        a.tick(Instant::now() + Duration::from_secs(1));
        assert!(a.session.end.is_none());
        let mut st = state(&["K@d1", "K@d8", "Q@a1"], Some((60, 0)));
        st.status = "outoftime".into();
        st.winner = Some(Color::White);
        send(&end, &mut a, st);
        assert_eq!(a.session.end.clone().unwrap().text, "1-0 (Black loses on time)");
        // A move string the board cannot play changes nothing.
        let (remote, end) = Remote::pair(["Ann".into(), "Bob".into()]);
        let mut a = App::online(Config::new(Variant::Chess), remote);
        send(&end, &mut a, state(&["e2e5"], None));
        assert!(a.session.sans.is_empty());
        assert!(a.message.contains("cannot play"), "{}", a.message);
    }

    /// The line mode against a scripted server on a thread: it answers each
    /// of White's moves with Black's next one, as the Board API would.
    #[test]
    fn the_line_mode_plays_an_online_game_to_its_end() {
        let (remote, end) = Remote::pair(["You".into(), "Bot".into()]);
        let server = std::thread::spawn(move || {
            let ServerEnd { to_session, from_session } = end;
            let replies = ["e7e5", "b8c6", "g8f6"];
            let mut moves: Vec<String> = Vec::new();
            let st = |moves: &[String], status: &str| ServerState {
                moves: moves.to_vec(),
                clocks: Some([Duration::from_secs(300); 2]),
                status: status.into(),
                winner: (status == "mate").then_some(Color::White),
                draw_offer: None,
            };
            let _ = to_session.send(FromServer::State(st(&moves, "started")));
            let mut asked = Vec::new();
            for r in from_session.iter() {
                asked.push(r.clone());
                let ToServer::Move { uci, ply } = r else { continue };
                assert_eq!(ply, moves.len(), "ply of {uci}");
                moves.push(uci);
                if moves.len() == 7 {
                    // A moment later than the board knows it.
                    std::thread::sleep(Duration::from_millis(200));
                    let _ = to_session.send(FromServer::State(st(&moves, "mate")));
                    break;
                }
                let _ = to_session.send(FromServer::State(st(&moves, "started")));
                std::thread::sleep(Duration::from_millis(30));
                moves.push(replies[moves.len() / 2].to_string());
                let _ = to_session.send(FromServer::State(st(&moves, "started")));
            }
            asked
        });
        // Typed ahead: each line waits for White's turn. `Zz9` is refused.
        let input = std::io::Cursor::new(b"e4\nBc4\nZz9\nQh5\nQxf7#\n".to_vec());
        let mut out = Vec::new();
        let mut c = Config::new(Variant::Chess);
        c.clock = Some((Duration::from_secs(300), Duration::ZERO));
        chimera_tui::line::run_online(&c, remote, input, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let asked = server.join().unwrap();
        assert_eq!(asked.len(), 4, "{asked:?}");
        assert!(text.contains("online: you play white against Bot"), "{text}");
        assert!(text.contains("Bot plays Nc6."), "{text}");
        assert!(text.contains("Clocks: White 5:00 · Black 5:00"), "{text}");
        assert!(text.contains("Zz9"), "the refusal names the bad move: {text}");
        assert!(text.trim_end().ends_with("Game over: 1-0 (checkmate)"), "{text}");
    }
}

/// `chimera learn`: a lesson step played on the board. A wrong answer is
/// refused with the rules' reason and nothing moves; the right one is
/// played and explained; a multi-move step plays its scripted reply; the
/// board's clicks work as in `chimera play`.
#[test]
fn a_lesson_step_is_judged_and_played_on_the_terminal_board() {
    use chimera_rules::Variant;
    use chimera_tui::App;
    let mut a = App::learn(Variant::Genie, Some("flip"), false, false).expect("the flip lesson");
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("Flip this pawn and give check."), "{s}");
    assert!(s.contains("Step 1 of 5"), "{s}");
    // A pawn step is legal but not the task: refused, nothing played.
    type_line(&mut a, "e6e7");
    assert!(a.session.sans.is_empty());
    assert!(a.message.starts_with("Not quite."), "{}", a.message);
    assert!(a.message.contains("not a flip"), "{}", a.message);
    // The hint, then the flip typed in SAN.
    key(&mut a, KeyCode::Char('i'));
    assert!(a.message.starts_with("Hint:"), "{}", a.message);
    type_line(&mut a, "Ge6");
    assert_eq!(a.session.sans, vec!["Ge6+"]);
    assert!(a.message.starts_with("Correct!"), "{}", a.message);
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("Step 1 of 5 - done"), "{s}");
    // The next step.
    key(&mut a, KeyCode::Char('n'));
    assert!(a.session.sans.is_empty());
    assert!(screen(&mut a, 100, 30).contains("Step 2 of 5"));

    // Castling by two clicks on the board.
    let mut a = App::learn(Variant::Chess, Some("castling"), false, false).expect("castling");
    screen(&mut a, 100, 30);
    let geo = chimera_tui::ui::geometry(ratatui::layout::Rect::new(0, 0, 100, 30), &a);
    for s in ["e1", "g1"] {
        let (x, y) = geo.square_cell(sq(s), a.flipped);
        click(&mut a, x + 1, y);
    }
    assert_eq!(a.session.sans, vec!["O-O"], "{}", a.message);
    assert!(a.lesson.as_ref().unwrap().done);
    assert_eq!(a.lesson.as_ref().unwrap().finished, vec!["chess/castling/1"]);

    // A two-move step: the ring pass, Black's scripted reply, then the jump.
    let mut a = App::learn(Variant::MagicRing, Some("passing"), false, false).expect("passing");
    key(&mut a, KeyCode::Char('n'));
    type_line(&mut a, "b1a1");
    assert_eq!(a.session.sans, vec!["b1~a1", "Kd8"], "{}", a.message);
    assert!(!a.lesson.as_ref().unwrap().done);
    type_line(&mut a, "a1a3");
    assert!(a.message.starts_with("Not quite."), "{}", a.message);
    type_line(&mut a, "a1c2");
    assert!(a.lesson.as_ref().unwrap().done, "{}", a.message);
}
