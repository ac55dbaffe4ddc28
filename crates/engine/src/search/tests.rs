//! Tests of the search, the move picker, the histories and SEE.

use super::*;
use chimera_rules::{AnyPosition, Chess, Genesis, MagicRing, Position, RuleOptions, Variant};

fn with_worker<P: Evaluate>(history: &[u64], f: impl FnOnce(&mut Worker<'_, '_, P>)) {
    with_worker_capped(1, None, history, f);
}

/// [`with_worker`] with a table of `hash_mb` and a node limit.
fn with_worker_capped<P: Evaluate>(
    hash_mb: usize,
    max_nodes: Option<u64>,
    history: &[u64],
    f: impl FnOnce(&mut Worker<'_, '_, P>),
) {
    let tt = TranspositionTable::new(hash_mb);
    let (user_stop, pondering) = (AtomicBool::new(false), AtomicBool::new(false));
    let shared = Shared {
        tt: &tt,
        user_stop: &user_stop,
        stop: AtomicBool::new(false),
        pondering: &pondering,
        nodes: AtomicU64::new(0),
        start: Instant::now(),
        clock_start: std::sync::Mutex::new(None),
        soft: None,
        hard: None,
        max_nodes,
        net: None,
        hybrid: 0,
        scale: 100,
    };
    let mut w = Worker::<P>::new(&shared, 0, history, Histories::default());
    f(&mut w);
}

use crate::SplitMix as Rng;

/// The staged picker yields every legal move exactly once, the TT move
/// first when it is legal, whatever the TT move, killers and counter
/// codes (legal or not, equal to each other or not), in every variant,
/// and the quiets it picks by score in falling order of their history
/// (random here); quiescence (not in check) yields exactly the captures
/// and queen promotions that SEE does not call losing.
fn picker_is_a_permutation<P: Evaluate>(start: P, seed: u64) {
    let mut rng = Rng(seed);
    let mut pos = start;
    with_worker::<P>(&[], |w| {
        for v in w.hist.main.iter_mut().flatten().flatten() {
            *v = (rng.next() % 2001) as i16 - 1000;
        }
        for _ in 0..150 {
            let legal = pos.legal_move_list();
            if legal.is_empty() {
                break;
            }
            let pick = |rng: &mut Rng| encode_move(legal[(rng.next() % legal.len() as u64) as usize]);
            let tt = match rng.next() % 3 {
                0 => 0,
                1 => pick(&mut rng),
                _ => (rng.next() & 0xFFFFF) as u32,
            };
            let k0 = if rng.next().is_multiple_of(4) { tt } else { pick(&mut rng) };
            w.killers[3] = [k0, (rng.next() & 0xFFFFF) as u32];
            let mut pk = w.new_picker(&pos, tt, 3, false);
            pk.refs[2] = match rng.next() % 3 {
                0 => k0,
                1 => pick(&mut rng),
                _ => 0,
            };
            let in_check = pos.is_check();
            let cont = w.cont_keys(3);
            let counter = pk.refs[2];
            let mut got = Vec::new();
            let mut last_quiet = i32::MAX;
            while let Some((m, picked)) = w.next_move(&pos, &mut pk, 3, in_check) {
                if picked == Picked::Quiet {
                    let s = w.quiet_stats(&pos, m, cont).0;
                    assert!(s <= last_quiet, "quiet {m} ({s}) after one scored {last_quiet} at {}", pos.fen());
                    last_quiet = s;
                }
                // A legal quiet killer or counter-move comes as a
                // refutation (unless it is the TT move).
                let code = encode_move(m);
                if code != tt && (code == k0 || code == counter) && !pos.is_capture(m) && m.promotion().is_none() {
                    assert_eq!(picked, Picked::Refutation, "{m} at {}", pos.fen());
                }
                got.push(m);
            }
            w.end_picker(pk, 3);
            if legal.iter().any(|&m| encode_move(m) == tt) {
                assert_eq!(encode_move(got[0]), tt, "TT move first at {}", pos.fen());
            }
            let mut a: Vec<String> = got.iter().map(|m| m.to_string()).collect();
            let mut b: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "picker at {}", pos.fen());
            if !in_check {
                let mut pk = w.new_picker(&pos, tt, 3, true);
                let mut q = Vec::new();
                while let Some((m, _)) = w.next_move(&pos, &mut pk, 3, false) {
                    q.push(m.to_string());
                }
                w.end_picker(pk, 3);
                let mut want: Vec<String> = legal
                    .iter()
                    .filter(|&&m| {
                        (pos.is_capture(m) || m.promotion() == Some(Role::Queen))
                            && (see_ge(&pos, m, 0) || encode_move(m) == tt)
                    })
                    .map(|m| m.to_string())
                    .collect();
                q.sort();
                want.sort();
                assert_eq!(q, want, "quiescence picker at {}", pos.fen());
            }
            pos.play_unchecked(legal[(rng.next() % legal.len() as u64) as usize]);
        }
    });
}

#[test]
fn staged_picker_yields_every_legal_move_once() {
    let opts = RuleOptions::default();
    for (i, v) in Variant::ALL.iter().enumerate() {
        match AnyPosition::new(*v, &opts) {
            AnyPosition::Chess(p) => picker_is_a_permutation(p, 1 + i as u64),
            AnyPosition::Genie(p) => picker_is_a_permutation(p, 1 + i as u64),
            AnyPosition::Genesis(p) => picker_is_a_permutation(p, 1 + i as u64),
            AnyPosition::Clown(p) => picker_is_a_permutation(p, 1 + i as u64),
            AnyPosition::MagicRing(p) => picker_is_a_permutation(p, 1 + i as u64),
        }
    }
}

/// Repetition: a repeat of a position of the search's own path is a
/// draw; one of the root or of a position before it only when it is
/// the third occurrence; never across a null move; and a long game of
/// other positions costs no scan (the count filter is zero).
#[test]
fn repetition_inside_the_search_or_threefold_and_null_floor() {
    let pos = Genesis::new();
    let h = pos.hash();
    let mut history: Vec<u64> = (0..6000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1 << 63).collect();
    with_worker::<Genesis>(&history, |w| {
        assert!(!w.is_repetition(&pos, 10));
        assert_eq!(w.rep.0[RepFilter::slot(h)], history.iter().filter(|&&x| x & 0xFFFF == h & 0xFFFF).count() as u16);
    });
    // `pos` occurred 4 plies back.
    history.extend([h, 1, 2, 3]);
    with_worker::<Genesis>(&history, |w| {
        // At ply 5 or deeper that occurrence is inside the search.
        assert!(w.is_repetition(&pos, 5));
        assert!(w.is_repetition(&pos, 60));
        // At ply 4 it is the root, below that a position of the game:
        // a second occurrence, not a draw.
        for ply in 0..=4 {
            assert!(!w.is_repetition(&pos, ply), "ply {ply}");
        }
        // A null move two plies back: the earlier position is not a repeat.
        w.null_floor = w.hashes.len() - 2;
        assert!(!w.is_repetition(&pos, 5));
        w.null_floor = 0;
        w.pop_hash();
        w.pop_hash();
        w.push_hash(7);
        w.push_hash(8);
        assert!(w.is_repetition(&pos, 5));
        w.pop_hash();
        w.pop_hash();
        w.pop_hash();
        w.pop_hash();
        w.pop_hash();
        // The occurrence left the path: its filter count is back to zero.
        assert!(!w.is_repetition(&pos, 5));
    });
    // Twice before: `pos` is the game's third occurrence, a draw at any
    // ply, unless a null move hides the older one.
    history.extend([h, 4, 5, 6]);
    with_worker::<Genesis>(&history, |w| {
        for ply in 0..=10 {
            assert!(w.is_repetition(&pos, ply), "ply {ply}");
        }
        w.null_floor = w.hashes.len() - 6;
        assert!(!w.is_repetition(&pos, 4));
        assert!(w.is_repetition(&pos, 5));
    });
}

/// Quiescence's first ply tries the quiet checks of a variant that lists
/// them: in this Genesis position the fork Nc7+ wins the Queen, which
/// captures alone do not see (White, a Knight and a Pawn against a
/// Queen, stands below -3 on captures only). A variant without the
/// list (chess) is unchanged.
#[test]
fn quiescence_in_check_leaves_out_quiet_evasions_with_bad_histories_after_the_first() {
    // The rook on a1 checks; the King's three moves off the first rank
    // are the only evasions, all quiet.
    let pos = Chess::from_fen("4k3/8/8/8/8/8/8/r5K1 w - - 0 1").unwrap();
    assert!(pos.is_check());
    let run = |h: i16| {
        let mut out = (0, 0);
        with_worker::<Chess>(&[], |w| {
            for row in w.hist.main[Color::White.index()].iter_mut() {
                row.fill(h);
            }
            out = (w.qsearch(&pos, -INF, INF, 0, true), w.nodes);
        });
        out
    };
    let ((bad, bad_nodes), (good, good_nodes)) = (run(-1000), run(1000));
    // The first evasion is always searched, so no mate is read.
    assert!(bad > -MATE_BOUND && good > -MATE_BOUND, "{bad} {good}");
    // With bad histories the other two are left out; with good ones
    // all three are searched.
    assert_eq!((bad_nodes, good_nodes), (2, 4));
}

#[test]
fn quiescence_tries_quiet_checks_on_its_first_ply() {
    let pos = Genesis::from_fen("q3k3/8/8/1N6/8/8/7P/6K1 w - - 0 1").unwrap();
    let mut checks = MoveList::new();
    assert!(pos.quiet_checks(&mut checks));
    assert!(checks.iter().any(|m| m.to_string() == "b5c7"), "{checks:?}");
    with_worker::<Genesis>(&[], |w| {
        let captures_only = w.qsearch(&pos, -INF, INF, 0, false);
        let with_checks = w.qsearch(&pos, -INF, INF, 0, true);
        assert!(captures_only < -300, "{captures_only}");
        assert!(with_checks > 100, "{with_checks}");
    });
    let chess = Chess::from_fen("q3k3/8/8/1N6/8/8/7P/6K1 w - - 0 1").unwrap();
    assert!(!chess.quiet_checks(&mut MoveList::new()));
    with_worker::<Chess>(&[], |w| {
        assert_eq!(w.qsearch(&chess, -INF, INF, 0, true), w.qsearch(&chess, -INF, INF, 0, false));
    });
}

/// Quiescence starts from the table's score instead of the evaluation
/// where its bound says it is nearer (a lower bound above the
/// evaluation, an upper one below it), and never from a bound on the
/// other side or a mate score.
#[test]
fn quiescence_starts_from_the_tables_score_where_its_bound_allows() {
    // No capture and no check for White: quiescence is the stand-pat.
    let pos = Chess::from_fen("4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1").unwrap();
    with_worker::<Chess>(&[], |w| {
        let eval = w.qsearch(&pos, -INF, INF, 0, false);
        let with = |w: &mut Worker<'_, '_, Chess>, score: i32, bound: Bound| {
            w.shared.tt.clear();
            w.shared.tt.store(pos.hash(), TtEntry { mv: 0, score, eval, depth: 1, bound });
            w.qsearch(&pos, -INF, INF, 0, false)
        };
        assert_eq!(with(w, eval + 80, Bound::Lower), eval + 80);
        assert_eq!(with(w, eval - 80, Bound::Upper), eval - 80);
        // A bound on the wrong side of the evaluation says nothing.
        assert_eq!(with(w, eval - 80, Bound::Lower), eval);
        assert_eq!(with(w, eval + 80, Bound::Upper), eval);
        assert_eq!(with(w, MATE_BOUND + 5, Bound::Lower), eval);
    });
}

/// A capture delta pruning skips still sets the fail-low floor: the
/// node returns at least the stand-pat plus the victim plus the
/// margin, never the bare stand-pat (strength §67).
#[test]
fn quiescence_fails_low_no_lower_than_a_pruned_captures_margin() {
    // White a queen down; e4xd5 wins an undefended pawn, far too
    // little to reach alpha = 0.
    let pos = Chess::from_fen("7q/4k3/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
    with_worker::<Chess>(&[], |w| {
        let raw = w.static_eval(&pos, 0);
        let stand_pat = w.corrected(corr_slot(&pos), raw);
        let victim = pos.piece_value(Role::Pawn, Square::D5);
        assert!(stand_pat + victim + param::qs_delta() < 0, "{stand_pat}");
        assert_eq!(w.qsearch(&pos, 0, 1, 0, false), stand_pat + victim + param::qs_delta());
    });
}

/// The pruning's guess: the table's score where its bound says it is
/// nearer than the evaluation, the evaluation otherwise (a bound on
/// the other side, an exact or empty entry, a mate score, no entry).
#[test]
fn the_nearer_guess_takes_the_tables_bound_only_on_its_side() {
    let entry = |score: i32, bound: Bound| Some(TtEntry { mv: 0, score, eval: 0, depth: 4, bound });
    assert_eq!(nearer_guess(30, entry(90, Bound::Lower), 3), 90);
    assert_eq!(nearer_guess(30, entry(-50, Bound::Upper), 3), -50);
    assert_eq!(nearer_guess(30, entry(-50, Bound::Lower), 3), 30);
    assert_eq!(nearer_guess(30, entry(90, Bound::Upper), 3), 30);
    assert_eq!(nearer_guess(30, entry(90, Bound::Exact), 3), 30);
    assert_eq!(nearer_guess(30, entry(90, Bound::None), 3), 30);
    assert_eq!(nearer_guess(30, entry(MATE_BOUND + 10, Bound::Lower), 3), 30);
    assert_eq!(nearer_guess(30, entry(-MATE_BOUND - 10, Bound::Upper), 3), 30);
    assert_eq!(nearer_guess(30, None, 3), 30);
}

/// Magic Ring's start position, searched to depth 10 with the table's
/// score in the pruning, stays a search of depth 10. Without the
/// limit on re-searches a ply deeper, reduced moves searched again at
/// their parent's depth ply after ply took it a hundred plies down and
/// past 3 million nodes in that iteration (strength §68); with
/// it the whole search takes about 200,000 nodes. (Magic Ring
/// itself keeps the table's score out of its pruning.)
#[test]
fn magic_ring_search_does_not_descend_past_twice_its_depth() {
    let opts = RuleOptions::default();
    let start = Variant::MagicRing.start_fen(&opts);
    let Ok(AnyPosition::MagicRing(pos)) = AnyPosition::from_fen(Variant::MagicRing, &start, &opts) else {
        panic!("Magic Ring's start position");
    };
    with_worker_capped::<MagicRing>(16, Some(2_000_000), &[], |w| {
        w.table_eval = true;
        w.root_moves = pos.legal_move_list().iter().map(|&mv| RootMove::new(mv)).collect();
        let (_, depth) = crate::iterate(w, &pos, 10, 1, &crate::Limits::default(), &mut |_| {}, true);
        assert_eq!(depth, 10, "stopped by the node limit after {} nodes", w.nodes);
    });
}

/// The singular test runs from `SINGULAR_DEPTH` (6) on: with a TT
/// lower bound from depth − 3 whose margin, `ttScore − 2·depth`, is at
/// or above beta, and the other moves' reduced search clearing that
/// margin too (every move of the start position scores about level),
/// the node is cut by the multi-cut and returns the margin itself; a
/// ply shallower there is no singular test, and the search returns
/// the position's own score.
#[test]
fn singular_test_runs_from_depth_6_and_multi_cuts() {
    let pos = Chess::new();
    let tt_score = -300;
    let search = |depth: i32| {
        let mut v = 0;
        with_worker::<Chess>(&[], |w| {
            let mv = encode_move(Move::new(Square::E2, Square::E4, MoveKind::DoublePush));
            let eval = w.static_eval(&pos, 1);
            let entry = TtEntry { mv, score: tt_score, eval, depth: depth - 3, bound: Bound::Lower };
            w.shared.tt.store(pos.hash(), entry);
            // No null move here (it would cut first).
            w.stack[1 + STACK_OFF].excluded_null = true;
            v = w.search(&pos, depth, -351, -350, 1, true);
        });
        v
    };
    assert_eq!(search(SINGULAR_DEPTH), tt_score - 2 * SINGULAR_DEPTH, "multi-cut at depth 6");
    assert_eq!(search(SINGULAR_DEPTH + 2), tt_score - 2 * (SINGULAR_DEPTH + 2), "and deeper");
    let below = search(SINGULAR_DEPTH - 1);
    assert!(below > -300, "no singular test at depth 5: the search's own score, {below}");
}

/// Continuation-history pruning asks both earlier moves: a quiet is
/// called bad only when the entries of the moves 1 and 2 plies back
/// are both below zero, never when either move is missing.
#[test]
fn continuation_pruning_needs_both_histories_below_zero() {
    let pos = Chess::new();
    let m = Move::normal(Square::G1, Square::F3);
    let ps = piece_square(Color::White, Role::Knight, Square::F3);
    let (k1, k2) =
        (piece_square(Color::Black, Role::Pawn, Square::E5), piece_square(Color::White, Role::Pawn, Square::E4));
    with_worker::<Chess>(&[], |w| {
        assert_eq!(w.quiet_stats(&pos, m, [None, None]).1, ps, "the key the pruning reads");
        assert!(!w.cont_both_bad(ps, [Some(k1), Some(k2)]), "nothing learnt yet");
        w.hist.cont[k1 * PS + ps] = -1;
        assert!(!w.cont_both_bad(ps, [Some(k1), Some(k2)]), "one below zero");
        assert!(!w.cont_both_bad(ps, [Some(k1), None]), "the second move is missing");
        w.hist.cont[k2 * PS + ps] = -1;
        assert!(w.cont_both_bad(ps, [Some(k1), Some(k2)]), "both below zero");
        assert!(!w.cont_both_bad(ps, [None, Some(k2)]), "the first move is missing");
        let other = w.quiet_stats(&pos, Move::normal(Square::B1, Square::C3), [None, None]).1;
        assert!(!w.cont_both_bad(other, [Some(k1), Some(k2)]), "another move's entries");
    });
}

/// A node that fails low rewards the quiet move that led to it: its
/// continuation entries under the two moves before it by the bonus,
/// its butterfly entry (the mover's colour) by half; nothing for a
/// capture or a null move.
#[test]
fn a_fail_low_rewards_the_quiet_move_before_it() {
    // After 1. e4 e5 2. Nf3: Black to move, White's Nf3 led here.
    let pos = Chess::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2").unwrap();
    let prev = piece_square(Color::White, Role::Knight, Square::F3);
    let (k1, k2) =
        (piece_square(Color::Black, Role::Pawn, Square::E5), piece_square(Color::White, Role::Pawn, Square::E4));
    with_worker::<Chess>(&[], |w| {
        let (ply, depth) = (3, 5);
        let sp = ply + STACK_OFF;
        w.stack[sp - 1].moved = Some(prev);
        w.stack[sp - 2].moved = Some(k1);
        w.stack[sp - 3].moved = Some(k2);
        w.stack[sp - 1].quiet_move = false;
        w.reward_prior_quiet(&pos, depth, ply);
        assert_eq!(w.hist.cont[k1 * PS + prev], 0, "a capture is not rewarded");
        w.stack[sp - 1].quiet_move = true;
        w.reward_prior_quiet(&pos, depth, ply);
        let bonus = 150 * depth - 100;
        assert_eq!(w.hist.cont[k1 * PS + prev] as i32, bonus);
        assert_eq!(w.hist.cont[k2 * PS + prev] as i32, bonus);
        assert_eq!(w.hist.main[Color::White.index()][Role::Knight.index()][Square::F3.index()] as i32, bonus / 2);
        assert_eq!(w.hist.main[Color::Black.index()][Role::Knight.index()][Square::F3.index()], 0);
        w.stack[sp - 1].moved = None;
        w.reward_prior_quiet(&pos, depth, ply);
        assert_eq!(w.hist.cont[k1 * PS + prev] as i32, bonus, "a null move: nothing");
    });
}

/// Reverse futility: Kiwipete far above beta returns the evaluation
/// at once, unless the table's move for it is quiet (strength §69).
#[test]
fn reverse_futility_waits_for_a_quiet_table_move() {
    let pos = Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let (ply, depth) = (1, 2);
    let mut eval = 0;
    with_worker::<Chess>(&[], |w| eval = w.static_eval(&pos, ply));
    let beta = eval - 800;
    let run = |tt_move: Option<&str>| {
        let mut got = (0, 0);
        with_worker::<Chess>(&[], |w| {
            if let Some(uci) = tt_move {
                let m = pos.parse_uci(uci).unwrap();
                // Too shallow to cut, an exact bound (so the guess
                // stays the evaluation): only its move is read.
                let e = TtEntry { mv: encode_move(m), score: 0, eval, depth: 0, bound: Bound::Exact };
                w.shared.tt.store(pos.hash(), e);
            }
            got = (w.search(&pos, depth, beta - 1, beta, ply, true), w.nodes);
        });
        got
    };
    assert!(
        tt_move_is_capture_or_none(&pos, 0) && !tt_move_is_capture_or_none(&pos, (1 << 20) - 1),
        "no move: pruned; an undecodable code: not"
    );
    assert_eq!(run(None), (eval, 1), "no table move: pruned");
    assert_eq!(run(Some("e2a6")), (eval, 1), "a capture: pruned");
    let (_, nodes) = run(Some("a2a3"));
    assert!(nodes > 1, "a quiet table move: the moves are searched");
}

/// Razoring: at any depth, a node whose static evaluation lies more
/// than `450 + 250·depth²` below alpha returns quiescence's fail-low
/// score, having searched nothing else; just inside the margin it
/// searches its moves (another score or node count).
#[test]
fn razoring_asks_quiescence_beyond_its_margin_at_any_depth() {
    assert_eq!((razor_margin(1), razor_margin(2), razor_margin(3)), (700, 1450, 2700));
    // Kiwipete: many moves, captures on both sides.
    let pos = Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let ply = 1;
    let mut eval = 0;
    with_worker::<Chess>(&[], |w| eval = w.static_eval(&pos, ply));
    for depth in [1, 2, 3, 5] {
        let run = |alpha: i32| {
            let (mut q, mut search) = ((0, 0), (0, 0));
            with_worker::<Chess>(&[], |w| q = (w.qsearch(&pos, alpha, alpha + 1, ply, true), w.nodes));
            with_worker::<Chess>(&[], |w| search = (w.search(&pos, depth, alpha, alpha + 1, ply, true), w.nodes));
            (q, search)
        };
        let ((qv, qn), got) = run(eval + razor_margin(depth) + 1);
        assert_eq!(got, (qv, qn + 1), "depth {depth}: razored, quiescence's score and nodes");
        let ((qv, qn), got) = run(eval + razor_margin(depth) - 1);
        assert_ne!(got, (qv, qn + 1), "depth {depth}: inside the margin the moves are searched");
    }
}

/// Hindsight depth: a ply more after a reduction of 3 where the
/// opponent did not get worse, a ply less after one of 2 where both
/// evaluations stand well; in the search, a node so reduced searches
/// exactly as the node at the adjusted depth with no reduction (same
/// nodes, same score), and the parent's mark is cleared after the
/// reduced search.
#[test]
fn hindsight_adjusts_a_reduced_nodes_depth() {
    assert_eq!(hindsight_depth(6, 3, -50, 40), 7, "opponent not worse: deeper");
    assert_eq!(hindsight_depth(6, 3, -40, 40), 7, "equal counts as not worse");
    assert_eq!(hindsight_depth(6, 3, 0, 40), 6, "opponent worse, sum under 175");
    assert_eq!(hindsight_depth(6, 2, -50, 40), 6, "a reduction of 2 never deepens");
    assert_eq!(hindsight_depth(6, 2, 100, 100), 5, "both stand well: shallower");
    assert_eq!(hindsight_depth(6, 2, 100, 75), 6, "a sum of 175 is not over it");
    assert_eq!(hindsight_depth(1, 2, 100, 100), 1, "never below depth 1");
    assert_eq!(hindsight_depth(6, 1, 100, 100), 6, "a reduction of 1 changes nothing");
    assert_eq!(hindsight_depth(6, 0, -500, 40), 6, "no reduction, no hindsight");

    let pos = Chess::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
    let (ply, sp) = (1, 1 + STACK_OFF);
    let run = |depth: i32, reduction: i32, parent: &dyn Fn(i32) -> i32| {
        let mut out = (0, 0);
        with_worker::<Chess>(&[], |w| {
            let eval = w.static_eval(&pos, ply);
            w.stack[sp - 1].static_eval = parent(eval);
            w.stack[sp - 1].reduction = reduction;
            let v = w.search(&pos, depth, -1, 0, ply, true);
            out = (v, w.nodes);
        });
        out
    };
    let worse_not = |e: i32| -e - 100;
    assert_eq!(run(5, 3, &worse_not), run(6, 0, &worse_not), "reduced by 3: searched at depth 6");
    assert_ne!(run(5, 3, &worse_not), run(5, 0, &worse_not));
    let both_well = |e: i32| 200 - e;
    assert_eq!(run(6, 2, &both_well), run(5, 0, &both_well), "reduced by 2: searched at depth 5");
    assert_ne!(run(6, 2, &both_well), run(6, 0, &both_well));
    with_worker::<Chess>(&[], |w| {
        w.search(&pos, 8, -INF, INF, 0, false);
        assert!(w.stack.iter().all(|e| e.reduction == 0), "every mark cleared");
    });
}

/// Every child (a ProbCut capture and a null move's included) starts
/// from the path's count of double extensions, not a count another
/// node left at its ply.
#[test]
fn entering_a_child_passes_the_double_extensions_on() {
    let pos = Chess::new();
    with_worker::<Chess>(&[], |w| {
        let sp = 4 + STACK_OFF;
        w.stack[sp].double_ext = 3;
        w.stack[sp + 1].double_ext = 7;
        let child = w.enter(&pos, Move::normal(Square::E2, Square::E4), pos.hash(), sp);
        w.pop_hash();
        assert_eq!(w.stack[sp + 1].double_ext, 3, "the child's count is the path's");
        assert_eq!(w.stack[sp].moved, Some(piece_square(Color::White, Role::Pawn, Square::E4)));
        assert_ne!(child.hash(), pos.hash());
    });
}

/// The reduction table keeps growing past the 63rd move (a Genesis
/// placement node holds hundreds) and never shrinks with the count.
#[test]
fn reductions_grow_with_the_move_count_past_63() {
    with_worker::<Chess>(&[], |w| {
        let row = &w.lmr[12];
        assert!(row.windows(2).all(|p| p[0] <= p[1]));
        assert!(row[200] > row[63], "{} {}", row[200], row[63]);
    });
}

/// The correction history: a position's slot follows its pawns (a
/// knight move keeps it, a black pawn's move changes it) and the side
/// to move; learning moves the correction towards the searches' error,
/// deeper searches faster, within ±64 cp, and other structures keep
/// theirs.
#[test]
fn correction_history_learns_the_error_of_its_slot() {
    let fen = |f: &str| Chess::from_fen(f).unwrap();
    let start = corr_slot(&Chess::new());
    let knight = corr_slot(&fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"));
    let black = corr_slot(&fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"));
    let black_pawn = corr_slot(&fen("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"));
    assert_eq!(knight, black, "same pawns, same side to move");
    assert_ne!(start, black, "the side to move differs");
    assert_ne!(black_pawn, black, "a black pawn moved");
    assert!(start < CORR_SIZE && black >= CORR_SIZE);
    with_worker::<Chess>(&[], |w| {
        assert_eq!(w.corrected(start, 37), 37, "nothing learnt yet");
        w.update_corr(start, 0, 100, 3);
        let shallow = w.corrected(start, 0);
        w.hist.clear();
        w.update_corr(start, 0, 100, 20);
        let deep = w.corrected(start, 0);
        assert!(0 < shallow && shallow < deep && deep < 100, "{shallow} {deep}");
        for _ in 0..200 {
            w.update_corr(start, 0, 100, 20);
        }
        assert!((60..=64).contains(&w.corrected(start, 0)), "at most 64 cp");
        for _ in 0..400 {
            w.update_corr(start, 10, -5000, 20);
        }
        assert!((-64..=-60).contains(&(w.corrected(start, 10) - 10)), "at most 64 cp");
        for other in [black, black_pawn] {
            assert_eq!(w.corrected(other, 10), 10, "another slot is untouched");
        }
        assert_eq!(w.corrected(start, MATE_BOUND + 500), MATE_BOUND - 1, "never a mate score");
    });
}

fn see(fen: &str, mv: &str, t: i32) -> bool {
    let p = Chess::from_fen(fen).unwrap();
    let m = p.parse_uci(mv).unwrap();
    see_ge(&p, m, t)
}

/// Hand-worked exchanges.
#[test]
fn static_exchange() {
    // Rook takes an undefended pawn: wins a pawn.
    assert!(see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 1));
    // Knight takes a pawn defended by a pawn: loses (knight for pawn).
    assert!(!see("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", 0));
    // Queen takes a rook defended once: queen for rook, loses material.
    assert!(!see("4k3/2p5/3r4/8/8/8/8/3QK3 w - - 0 1", "d1d6", 0));
    // Pawn takes a knight defended by a pawn: still wins (knight for pawn).
    assert!(see("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100));
    // Rook takes a rook on a file doubled by our second rook (x-ray): wins a rook.
    assert!(see("3rk3/8/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d8", 0));
}
