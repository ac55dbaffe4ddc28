//! The self-play runner: plays a study's missing games on `concurrency`
//! threads (one single-threaded engine each, `chimera_train::datagen`'s
//! self-play) and stores each finished game at once, in its own
//! transaction. Game k's opening depends only on the study's seed and k, so
//! a resumed study plays exactly the games it lacks.

use crate::spec::{Budget, StudySpec};
use crate::store::{self, Db, GameRow};
use crate::LabError;
use chimera_engine::{Engine, Limits};
use chimera_rules::pgn::write_pgn;
use chimera_rules::{AnyPosition, Color, EndReason, Game, Position};
use chimera_train::datagen::{self, GenConfig};
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
    let values = chimera_train::tune::params_to_vec(&chimera_engine::eval::PARAMS);
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
/// Games are claimed in batches first (`store::claim_batch`), so several
/// runs of one study (on several machines sharing a PostgreSQL, or on one
/// machine) split the games between them: none is played twice while its
/// runner lives, and the claims of a runner that died are taken over once
/// their lease runs out. The run ends when every game of the study is
/// stored (waiting, if need be, for the other runners' games in flight).
/// When `stop` is set, no new game starts, the games in flight are
/// finished and stored, and the unplayed claims are given back. `on_game`
/// is called after each stored game.
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
    progress.to_play = study.games_target.saturating_sub(stored.len() as u64);
    let mut summary = RunSummary { before: stored.len() as u64, ..Default::default() };
    let owner = store::runner_id();
    let result =
        play_claimed(db, &study, starts, &owner, concurrency, &stop, &mut progress, &mut summary, t0, on_game).await;
    // Unplayed claims go back at once (a stop, an error); a kill leaves them
    // to expire.
    let released = store::release_claims(db, study_id, &owner).await;
    result?;
    released?;
    summary.missing = study.games_target.saturating_sub(store::stored_numbers(db, study_id).await?.len() as u64);
    summary.stopped = summary.missing > 0;
    summary.elapsed = t0.elapsed();
    Ok(summary)
}

/// The claiming loop of [`run_study`]: keeps the threads' queue filled from
/// claimed batches, stores what they play, renews the claims.
#[allow(clippy::too_many_arguments)]
async fn play_claimed(
    db: &Db,
    study: &store::StoredStudy,
    starts: Vec<AnyPosition>,
    owner: &str,
    concurrency: usize,
    stop: &Arc<AtomicBool>,
    progress: &mut Progress,
    summary: &mut RunSummary,
    t0: Instant,
    on_game: &mut (dyn FnMut(&Progress) + Send),
) -> Result<(), LabError> {
    let threads = concurrency.clamp(1, 256).min(progress.to_play.max(1) as usize);
    let queue: Arc<Mutex<VecDeque<u64>>> = Arc::default();
    // Set when no more numbers will come: the threads end when the queue is empty.
    let closed = Arc::new(AtomicBool::new(false));
    let shared = Arc::new((study.spec.clone(), starts, study.id.clone()));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<GameRow>();
    let mut handles = Vec::new();
    for _ in 0..threads {
        let (queue, shared, tx, stop, closed) =
            (queue.clone(), shared.clone(), tx.clone(), stop.clone(), closed.clone());
        handles.push(std::thread::spawn(move || {
            let mut engine = datagen::engine();
            loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let next = queue.lock().ok().and_then(|mut q| q.pop_front());
                let Some(k) = next else {
                    if closed.load(Ordering::SeqCst) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                };
                let g = play_one(&shared.0, &shared.1, &shared.2, k, &mut engine);
                if tx.send(g).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    // Claimed and not yet stored by this run.
    let mut in_hand: usize = 0;
    let mut failure = None;
    let mut renewed = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    loop {
        if failure.is_none() && !stop.load(Ordering::SeqCst) && !closed.load(Ordering::SeqCst) && in_hand < threads {
            // Room for more: a batch of about two games a thread.
            let n = 2 * threads - in_hand;
            match store::claim_batch(db, &study.id, study.games_target, owner, n).await {
                Ok(c) => {
                    in_hand += c.mine.len();
                    if let Ok(mut q) = queue.lock() {
                        q.extend(c.mine.iter().copied());
                    }
                    // Nothing left to claim: every missing game is stored or
                    // in this run's hands. (Games other runners hold are
                    // waited for: their runner may die and leave them.)
                    if c.missing == 0 || (c.mine.len() < n && c.held_elsewhere == 0) {
                        closed.store(true, Ordering::SeqCst);
                    }
                }
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    failure = Some(e);
                }
            }
        }
        if stop.load(Ordering::SeqCst) {
            closed.store(true, Ordering::SeqCst);
            // Claimed games no thread started are not played (given back at the end).
            let dropped = queue.lock().map(|mut q| q.drain(..).count()).unwrap_or(0);
            in_hand = in_hand.saturating_sub(dropped);
        }
        if closed.load(Ordering::SeqCst) && in_hand == 0 {
            break;
        }
        tokio::select! {
            g = rx.recv() => {
                let Some(g) = g else { break };
                in_hand = in_hand.saturating_sub(1);
                if failure.is_some() {
                    continue;
                }
                match store::insert_game(db, &study.id, &g).await {
                    Ok(true) => {
                        summary.played += 1;
                        progress.played += 1;
                        progress.stored += 1;
                        tally(&g.result, progress);
                        progress.elapsed = t0.elapsed();
                        on_game(progress);
                    }
                    Ok(false) => summary.duplicates_skipped += 1,
                    Err(e) => {
                        stop.store(true, Ordering::SeqCst);
                        failure = Some(e);
                    }
                }
            }
            _ = tick.tick() => {}
        }
        if failure.is_none() && renewed.elapsed() >= Duration::from_secs((store::CLAIM_LEASE_SECS / 4) as u64) {
            renewed = Instant::now();
            if let Err(e) = store::renew_claims(db, &study.id, owner).await {
                stop.store(true, Ordering::SeqCst);
                failure = Some(e);
            }
        }
    }
    closed.store(true, Ordering::SeqCst);
    for h in handles {
        let _ = h.join();
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
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
