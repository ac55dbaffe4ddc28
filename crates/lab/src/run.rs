//! The self-play runner: plays a study's missing games on `concurrency`
//! threads (one single-threaded engine each, `chimera_engine::datagen`'s
//! self-play) and stores each finished game at once, in its own
//! transaction. Game k's opening depends only on the study's seed and k, so
//! a resumed study plays exactly the games it lacks.

use crate::spec::{Budget, StudySpec};
use crate::store::{self, Db, GameRow};
use crate::LabError;
use chimera_engine::datagen::{self, GenConfig};
use chimera_engine::{Engine, Limits};
use chimera_rules::pgn::write_pgn;
use chimera_rules::{AnyPosition, Color, EndReason, Game, Position};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Termination of a game the engine's scores decided (`--resign-cp`).
pub const ADJUDICATED: &str = "adjudication";
/// Termination of a game that reached the ply limit (a draw).
pub const PLY_LIMIT: &str = "ply limit";

/// Which engine plays: the crate version and a fingerprint of the
/// evaluation's values, so that a study never mixes two evaluations.
pub fn engine_id() -> String {
    let values = chimera_engine::tune::params_to_vec(&chimera_engine::eval::PARAMS);
    // FNV-1a over the values.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in values {
        for b in v.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("chimera {} eval {:08x}", env!("CARGO_PKG_VERSION"), h as u32)
}

/// Plays game `k` of the study with `engine` and returns it as stored.
/// `starts` are [`StudySpec::start_positions`].
pub fn play_one(spec: &StudySpec, starts: &[AnyPosition], study_id: &str, k: u64, engine: &mut Engine) -> GameRow {
    let start = &starts[(k % starts.len().max(1) as u64) as usize];
    let (pos, opening) = datagen::random_opening_from(start, spec.random_plies, spec.seed, k);
    let cfg = GenConfig {
        variant: start.variant(),
        nodes: 0,
        random_plies: 0,
        max_plies: spec.max_plies,
        resign_cp: spec.resign_cp,
        resign_plies: spec.resign_plies,
        seed: spec.seed,
    };
    let limits = match spec.budget {
        Budget::Nodes(n) => Limits { nodes: Some(n.max(1)), ..Default::default() },
        Budget::MovetimeMs(t) => Limits { movetime: Some(Duration::from_millis(t.max(1))), ..Default::default() },
    };
    let rec = datagen::play_from(engine, &cfg, pos, &limits);
    let mut game = Game::new(start.clone());
    for &m in opening.iter().chain(&rec.moves) {
        game.push_unchecked(m);
    }
    let (result, termination) = match game.outcome() {
        Some(o) => (o.result().to_string(), o.reason().as_str().to_string()),
        None => {
            let r = if rec.result > 0.75 {
                "1-0"
            } else if rec.result < 0.25 {
                "0-1"
            } else {
                "1/2-1/2"
            };
            let t = if rec.moves.len() >= spec.max_plies && r == "1/2-1/2" { PLY_LIMIT } else { ADJUDICATED };
            (r.to_string(), t.to_string())
        }
    };
    let tags: Vec<(String, String)> = vec![
        ("Event".into(), format!("chimera lab {study_id}")),
        ("Site".into(), "chimera lab".into()),
        ("Round".into(), (k + 1).to_string()),
        ("White".into(), "chimera".into()),
        ("Black".into(), "chimera".into()),
        ("OpeningPlies".into(), opening.len().to_string()),
        ("Termination".into(), termination.clone()),
    ];
    let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    GameRow {
        k,
        pgn: write_pgn(&tags, start, game.moves(), &result),
        result,
        termination,
        opening_plies: opening.len(),
        moves: moves.join(" "),
        scores: rec.scores.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" "),
    }
}

/// The study's state after each stored game.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Games stored, this run's and earlier runs'.
    pub stored: u64,
    pub target: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// Games played by this run.
    pub played: u64,
    /// Games this run still had to play when it started.
    pub to_play: u64,
    pub elapsed: Duration,
}

/// How a run ended.
#[derive(Clone, Debug, Default)]
pub struct RunSummary {
    /// Games already stored before this run.
    pub before: u64,
    /// Games this run stored.
    pub played: u64,
    /// Games another run of the same study stored first (left as they were).
    pub duplicates_skipped: u64,
    /// The run was stopped (`stop` set) before every game was played.
    pub stopped: bool,
    /// Games still missing at the end.
    pub missing: u64,
    pub elapsed: Duration,
}

fn tally(result: &str, p: &mut Progress) {
    match result {
        "1-0" => p.white_wins += 1,
        "0-1" => p.black_wins += 1,
        _ => p.draws += 1,
    }
}

/// Plays every game of `study_id` that is not stored yet, numbers
/// `0..games_target`, on `concurrency` threads, storing each as it ends.
/// When `stop` is set, no new game starts and the games in flight are
/// finished and stored. `on_game` is called after each stored game.
pub async fn run_study(
    db: &Db,
    study_id: &str,
    concurrency: usize,
    stop: Arc<AtomicBool>,
    on_game: &mut (dyn FnMut(&Progress) + Send),
) -> Result<RunSummary, LabError> {
    let t0 = Instant::now();
    let study = store::get_study(db, study_id).await?;
    let starts = study.spec.start_positions()?;
    let stored = store::stored_numbers(db, study_id).await?;
    let mut progress = Progress { target: study.games_target, ..Default::default() };
    for g in store::load_games(db, study_id).await? {
        tally(&g.result, &mut progress);
    }
    progress.stored = stored.len() as u64;
    let have: std::collections::HashSet<u64> = stored.iter().copied().collect();
    let missing: VecDeque<u64> = (0..study.games_target).filter(|k| !have.contains(k)).collect();
    progress.to_play = missing.len() as u64;
    let mut summary = RunSummary { before: stored.len() as u64, ..Default::default() };
    let queue = Arc::new(Mutex::new(missing));
    let shared = Arc::new((study.spec.clone(), starts, study_id.to_string()));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<GameRow>();
    let threads = concurrency.clamp(1, 256).min(progress.to_play.max(1) as usize);
    let mut handles = Vec::new();
    for _ in 0..threads {
        let (queue, shared, tx, stop) = (queue.clone(), shared.clone(), tx.clone(), stop.clone());
        handles.push(std::thread::spawn(move || {
            let mut engine = datagen::engine();
            loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let Some(k) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
                    break;
                };
                let g = play_one(&shared.0, &shared.1, &shared.2, k, &mut engine);
                if tx.send(g).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let mut failure = None;
    while let Some(g) = rx.recv().await {
        if failure.is_some() {
            continue;
        }
        match store::insert_game(db, study_id, &g).await {
            Ok(true) => {
                summary.played += 1;
                progress.played += 1;
                progress.stored += 1;
                tally(&g.result, &mut progress);
                progress.elapsed = t0.elapsed();
                on_game(&progress);
            }
            Ok(false) => summary.duplicates_skipped += 1,
            Err(e) => {
                stop.store(true, Ordering::SeqCst);
                failure = Some(e);
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    if let Some(e) = failure {
        return Err(e);
    }
    summary.missing = queue.lock().map(|q| q.len() as u64).unwrap_or(0);
    summary.stopped = summary.missing > 0;
    summary.elapsed = t0.elapsed();
    Ok(summary)
}

/// The score of side `c` (1, ½ or 0) in a game with the result `result` (`1-0`, `0-1`, `1/2-1/2`).
pub fn score_for(result: &str, c: Color) -> f64 {
    match (result, c) {
        ("1-0", Color::White) | ("0-1", Color::Black) => 1.0,
        ("1/2-1/2", _) => 0.5,
        _ => 0.0,
    }
}

/// The reasons the rules can end a game, as stored in `termination`.
pub fn rule_terminations() -> [&'static str; 5] {
    [
        EndReason::Checkmate.as_str(),
        EndReason::Stalemate.as_str(),
        EndReason::ThreefoldRepetition.as_str(),
        EndReason::FiftyMoves.as_str(),
        EndReason::DeadMaterial.as_str(),
    ]
}
