//! What the engine reads from outside, fed hostile input: network files
//! (UCI `EvalFile`), `chimera datagen` record files (what `chimera train`
//! reads) and UCI command lines. None may panic, hang or let a bad value
//! through: a file is refused with what is wrong, or read and used within
//! the engine's bounds. The bodies shared with cargo-fuzz are in
//! `fuzz/src/engine.rs` (`scripts/fuzz.sh network records`).

#[path = "../../engine/tests/common/mod.rs"]
mod common;
#[path = "../../../fuzz/src/engine.rs"]
mod fuzz_bodies;

use chimera_engine::nnue::{Activation, Network, INPUTS};
use chimera_engine::search::{MATE_BOUND, NET_LIMIT};
use chimera_engine::{uci, Engine, EngineOptions, Limits, Score, Strength};
use chimera_rules::{AnyPosition, Position, RuleOptions, Variant};
use chimera_train::datagen::{self, GameRecord};
use common::Shared;
use proptest::prelude::*;
use std::io::Cursor;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// A net of `width` units, `kings` input sets and `buckets` outputs, every
/// input weight and bias `w`, every output weight `o`, every output bias `b`.
fn uniform_net(
    variant: Variant,
    act: Activation,
    (width, kings, buckets): (usize, usize, usize),
    (w, o, b): (i16, i16, i32),
) -> Network {
    Network::from_parts(
        variant,
        act,
        &vec![w; kings * INPUTS * width],
        &vec![w; width],
        &vec![o; buckets * 2 * width],
        &vec![b; buckets],
    )
}

/// A net whose values come from a seeded generator, over their whole range.
fn random_net(variant: Variant, act: Activation, width: usize, kings: usize, buckets: usize, seed: u64) -> Network {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let w: Vec<i16> = (0..kings * INPUTS * width).map(|_| next() as i16).collect();
    let b: Vec<i16> = (0..width).map(|_| next() as i16).collect();
    let o: Vec<i16> = (0..buckets * 2 * width).map(|_| next() as i16).collect();
    let ob: Vec<i32> = (0..buckets).map(|_| next() as i32).collect();
    Network::from_parts(variant, act, &w, &b, &o, &ob)
}

/// Searches the start of the net's variant with the net loaded through
/// `EvalFile`, as a GUI would load it.
fn search_with(net: &Network, tag: &str) -> chimera_engine::SearchResult {
    let path = std::env::temp_dir().join(format!("chimera-readers-{}-{tag}.nnue", std::process::id()));
    std::fs::write(&path, net.to_bytes()).expect("temp file");
    let mut engine = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() });
    let loaded = engine.set_eval_file(Some(&path));
    let _ = std::fs::remove_file(&path);
    loaded.expect("a well-formed file loads");
    let pos = AnyPosition::new(net.variant, &RuleOptions::default());
    let limits = Limits { depth: Some(4), nodes: Some(20_000), ..Limits::default() };
    engine.search(&pos, &[], &limits, &Strength::default(), &AtomicBool::new(false), &mut |_| {})
}

/// A net file may hold any weights: extreme ones made the static
/// evaluation overflow (±52 million centipawns times the scale). With
/// every such net, in every variant and shape, the search finishes, plays
/// a legal move and reports a score no further out than the engine's
/// bound on a net's evaluation (or a mate it found).
#[test]
fn hostile_networks_are_searched_within_bounds() {
    let extremes = [
        (i16::MAX, i16::MAX, i32::MAX),
        (i16::MIN, i16::MIN, i32::MIN),
        (i16::MAX, i16::MIN, i32::MAX),
        (127, 127, i32::MAX),
        (-128, 127, i32::MIN),
    ];
    for v in Variant::ALL {
        let start = AnyPosition::new(v, &RuleOptions::default());
        for act in [Activation::CReLU, Activation::SCReLU] {
            for (kings, buckets) in [(1, 1), (4, 8), (8, 1)] {
                let mut nets: Vec<Network> =
                    extremes.iter().map(|&e| uniform_net(v, act, (16, kings, buckets), e)).collect();
                nets.push(random_net(v, act, 32, kings, buckets, 7 + kings as u64));
                for (i, net) in nets.iter().enumerate() {
                    let what = format!("{} {} net {i}", v.id(), net.describe());
                    let r = search_with(net, &format!("{}-{i}", v.id()));
                    let best = r.best.unwrap_or_else(|| panic!("{what}: no move"));
                    assert!(start.legal_move_list().contains(&best), "{what}: illegal move {best:?}");
                    if let Score::Cp(cp) = r.score {
                        assert!(cp.abs() <= NET_LIMIT + 200, "{what}: score {cp} beyond the net's bound");
                        assert!(cp.abs() < MATE_BOUND, "{what}: score {cp} in the mate range");
                    }
                }
            }
        }
    }
}

/// `EvalFile` reads no more than the largest net can be: an endless file
/// is refused with why, not read until the memory runs out.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_eval_file_is_refused_after_the_largest_net() {
    let mut engine = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() });
    let e = engine.set_eval_file(Some(std::path::Path::new("/dev/zero"))).expect_err("/dev/zero is no net");
    assert!(e.contains("larger than any Chimera network file"), "{e}");
    // Version 4 (the longest header) of the widest net with the longest id.
    assert_eq!(chimera_engine::nnue::MAX_FILE_LEN, 5_251_895);
}

/// The seed corpus of the network and records targets: every file read
/// without a panic (each seed is also checked to be accepted, so the
/// corpus keeps reaching past the header).
#[test]
fn fuzz_seeds_are_read() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds");
    for (target, body) in [("network", fuzz_bodies::network as fn(&[u8])), ("records", fuzz_bodies::records)] {
        let mut n = 0;
        for entry in std::fs::read_dir(root.join(target)).expect("seed folder") {
            let bytes = std::fs::read(entry.expect("entry").path()).expect("seed");
            body(&bytes);
            n += 1;
        }
        assert!(n >= 1, "{target}: no seeds");
    }
    let net = std::fs::read(root.join("network/chess-16-screlu-8.nnue")).expect("net seed");
    Network::from_bytes(&net, "seed").expect("the net seed is a net");
    let rec = std::fs::read(root.join("records/every-variant.bin")).expect("records seed");
    assert_eq!(datagen::read_records(&rec).expect("the records seed reads").len(), Variant::ALL.len());
}

/// Two short games of every variant: random legal moves from the start,
/// each with a score, the result drawn.
fn record_file() -> Vec<u8> {
    let mut out = datagen::header();
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let start = AnyPosition::new(v, &RuleOptions::default());
        let (_, moves) = datagen::random_opening_from(&start, 6, 99, i as u64);
        let scores = (0..moves.len()).map(|k| (k as i16 - 3) * 17).collect();
        datagen::write_record(&GameRecord { start, result: 0.5, moves, scores }, &mut out);
    }
    out
}

/// One change to a file: a byte set (most often in the header, where the
/// reader decides), a cut, or bytes added.
#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u8),
    Cut(usize),
    Add(Vec<u8>),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (0usize..48, any::<u8>()).prop_map(|(i, b)| Edit::Set(i, b)),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Set(i, b)),
        2 => any::<usize>().prop_map(Edit::Cut),
        1 => proptest::collection::vec(any::<u8>(), 1..8).prop_map(Edit::Add),
    ]
}

fn apply(bytes: &mut Vec<u8>, edits: &[Edit]) {
    for e in edits {
        match e {
            Edit::Set(i, b) if !bytes.is_empty() => {
                let n = bytes.len();
                bytes[*i % n] = *b;
            }
            Edit::Cut(n) => bytes.truncate(n % (bytes.len() + 1)),
            Edit::Add(more) => bytes.extend_from_slice(more),
            _ => {}
        }
    }
}

/// The files the mutations start from: nets of each file version (1: 128
/// wide CReLU; 2: other widths, SCReLU, output buckets; 3: king buckets).
fn net_files() -> Vec<Vec<u8>> {
    vec![
        random_net(Variant::Chess, Activation::CReLU, 128, 1, 1, 1).to_bytes(),
        random_net(Variant::Genesis, Activation::SCReLU, 16, 1, 8, 2).to_bytes(),
        random_net(Variant::MagicRing, Activation::CReLU, 32, 4, 1, 3).to_bytes(),
        random_net(Variant::Clown, Activation::SCReLU, 16, 8, 2, 4).to_bytes(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Any change to a network file is refused with a message or read as a
    /// net that evaluates and writes back to itself.
    #[test]
    fn network_files_changed_anywhere_are_refused_or_read_whole(which in 0usize..4, edits in proptest::collection::vec(edit(), 1..4)) {
        let mut bytes = net_files().swap_remove(which);
        apply(&mut bytes, &edits);
        match Network::from_bytes(&bytes, "test") {
            Err(e) => prop_assert!(!e.is_empty()),
            Ok(_) => fuzz_bodies::network(&bytes),
        }
    }

    /// Any change to a record file is refused with a message naming the
    /// game, or read as games that replay, train and write back to
    /// themselves.
    #[test]
    fn record_files_changed_anywhere_are_refused_or_read_whole(edits in proptest::collection::vec(edit(), 1..4)) {
        let mut bytes = record_file();
        apply(&mut bytes, &edits);
        match datagen::read_records(&bytes) {
            Err(e) => prop_assert!(e.starts_with("game ") || e.starts_with("not a chimera datagen file") || e.starts_with("move codes of another layout"), "{}", e),
            Ok(_) => fuzz_bodies::records(&bytes),
        }
    }

    /// Any sequence of UCI lines, well-formed or not: the loop answers
    /// every `isready`, gives at most one `bestmove` per `go`, reports no
    /// failed search, and ends at the end of its input.
    #[test]
    fn the_uci_loop_answers_any_lines(lines in proptest::collection::vec(uci_line(), 1..12)) {
        let input = lines.join("\n") + "\n";
        let out = Arc::new(Mutex::new(Vec::new()));
        uci::run(Cursor::new(input.clone().into_bytes()), Shared(out.clone())).expect("the loop ends");
        let text = String::from_utf8_lossy(&out.lock().unwrap()).into_owned();
        let count = |what: &str| text.lines().filter(|l| l.trim() == what || l.starts_with(&format!("{what} "))).count();
        let asked = |what: &str| lines.iter().filter(|l| l.split_whitespace().next() == Some(what)).count();
        let before_quit = |what: &str| lines.iter().take_while(|l| l.split_whitespace().next() != Some("quit")).filter(|l| l.split_whitespace().next() == Some(what)).count();
        prop_assert_eq!(count("readyok"), before_quit("isready"), "input:\n{}\noutput:\n{}", input, text);
        prop_assert!(count("bestmove") <= asked("go"), "input:\n{}\noutput:\n{}", input, text);
        prop_assert!(!text.contains("search thread failed"), "input:\n{}\noutput:\n{}", input, text);
    }
}

/// A UCI line: a command of the protocol with arguments drawn from what
/// it takes and from junk, or junk. Searches are kept short (every `go`
/// ends with `depth 2`, which no earlier keyword can swallow but
/// `searchmoves`, and `perft` goes to depth 3 at most) and the table small.
fn uci_line() -> impl Strategy<Value = String> {
    let junk = "[ -~]{0,24}";
    let token = prop_oneof![
        Just("e2e4".to_string()),
        Just("g1f3".to_string()),
        Just("e7e5".to_string()),
        Just("P@e4".to_string()),
        Just("-1".to_string()),
        Just("99999999999999999999".to_string()),
        "[a-h][1-8][a-h][1-8][qrbnx]?",
        "[ -~]{0,6}",
    ];
    let option = prop_oneof![
        Just("UCI_Variant"),
        Just("Hash"),
        Just("Threads"),
        Just("MultiPV"),
        Just("Skill Level"),
        Just("UCI_LimitStrength"),
        Just("UCI_Elo"),
        Just("Move Overhead"),
        Just("Clear Hash"),
        Just("Use NNUE"),
        Just("EvalFile"),
        Just("NNUE Hybrid"),
        Just("NNUE Scale"),
        Just("RingPowers"),
        Just("Tune_rfp_margin"),
        Just("Nonsense"),
    ];
    let value = prop_oneof![
        Just("chess".to_string()),
        Just("genesis".to_string()),
        Just("clown".to_string()),
        Just("magicring".to_string()),
        Just("genie".to_string()),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("/nonexistent/net.nnue".to_string()),
        Just("<embedded>".to_string()),
        (-5i64..5000).prop_map(|n| n.to_string()),
        "[ -~]{0,12}",
    ];
    let go_word = prop_oneof![
        Just("wtime"),
        Just("btime"),
        Just("winc"),
        Just("binc"),
        Just("movestogo"),
        Just("nodes"),
        Just("mate"),
        Just("movetime"),
        Just("infinite"),
        Just("ponder"),
        Just("searchmoves"),
        Just("depth"),
        Just("bogus"),
    ];
    prop_oneof![
        Just("uci".to_string()),
        Just("isready".to_string()),
        Just("ucinewgame".to_string()),
        Just("stop".to_string()),
        Just("ponderhit".to_string()),
        Just("d".to_string()),
        Just("quit".to_string()),
        proptest::collection::vec(token.clone(), 0..6).prop_map(|m| format!("position startpos moves {}", m.join(" "))),
        (junk, proptest::collection::vec(token.clone(), 0..3))
            .prop_map(|(f, m)| format!("position fen {f} moves {}", m.join(" "))),
        (option.clone(), value.clone()).prop_map(|(o, v)| {
            // The table stays small: a real Hash request may take gigabytes.
            let v = if o == "Hash" || o == "Threads" { "2".to_string() } else { v };
            format!("setoption name {o} value {v}")
        }),
        option.prop_map(|o| format!("setoption name {o}")),
        (proptest::collection::vec((go_word, token), 0..4)).prop_map(|w| format!(
            "go {} depth 2",
            w.into_iter().map(|(k, t)| format!("{k} {t}")).collect::<Vec<_>>().join(" ")
        )),
        (0u32..5).prop_map(|d| format!("go perft {}", d.min(3))),
        junk.prop_map(|s| s.to_string()),
    ]
}

/// The network seed of cargo-fuzz (`fuzz/seeds/network/`) is a net this
/// build writes; regenerate it with `CHIMERA_WRITE_SEEDS=1`.
#[test]
fn write_seeds_when_asked() {
    if std::env::var_os("CHIMERA_WRITE_SEEDS").is_none() {
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds");
    std::fs::create_dir_all(root.join("network")).unwrap();
    std::fs::create_dir_all(root.join("records")).unwrap();
    std::fs::write(
        root.join("network/chess-16-screlu-8.nnue"),
        random_net(Variant::Chess, Activation::SCReLU, 16, 1, 8, 5).to_bytes(),
    )
    .unwrap();
    std::fs::write(root.join("records/every-variant.bin"), record_file()).unwrap();
}
