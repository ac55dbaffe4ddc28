//! The engine on its own thread: the UI sends it jobs and reads its reports
//! from a channel, so drawing and keys never wait for a search.

use chimera_engine::{Engine, EngineOptions, Limits, Score, SearchResult, Strength};
use chimera_rules::{AnyPosition, Move};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// What a job is for: a move to play, or analysis shown beside the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum JobKind {
    Move,
    Analysis,
}

/// One search request.
pub struct Job {
    pub id: u64,
    pub kind: JobKind,
    pub root: AnyPosition,
    /// Hashes of the positions before `root`, oldest first.
    pub history: Vec<u64>,
    pub limits: Limits,
    pub strength: Strength,
    /// Set by the UI to end this job early.
    pub stop: Arc<AtomicBool>,
    /// Forget the transposition table first (a new game).
    pub new_game: bool,
}

/// A report from the engine thread.
#[derive(Clone, Debug)]
pub enum Report {
    /// An iteration finished (only the first line of a multi-line search).
    Info { id: u64, depth: u32, score: Score, nodes: u64, pv: Vec<Move> },
    /// The search ended.
    Done { id: u64, result: SearchResult },
}

impl Report {
    pub fn id(&self) -> u64 {
        match self {
            Report::Info { id, .. } | Report::Done { id, .. } => *id,
        }
    }
}

/// The UI's side of the engine thread.
pub struct EngineHandle {
    jobs: Option<Sender<Job>>,
    reports: Receiver<Report>,
    thread: Option<JoinHandle<()>>,
    current_stop: Option<Arc<AtomicBool>>,
}

impl EngineHandle {
    /// Starts the engine thread.
    pub fn spawn() -> EngineHandle {
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let (rep_tx, rep_rx) = mpsc::channel::<Report>();
        let thread = std::thread::Builder::new()
            .name("chimera-engine".into())
            .spawn(move || worker(job_rx, rep_tx))
            .expect("spawn the engine thread");
        EngineHandle { jobs: Some(job_tx), reports: rep_rx, thread: Some(thread), current_stop: None }
    }

    /// Queues a job; the one running before it is asked to stop first.
    pub fn start(&mut self, job: Job) {
        self.stop();
        self.current_stop = Some(job.stop.clone());
        if let Some(tx) = &self.jobs {
            // A closed channel means the thread died; the UI then just
            // never hears back, and says so through `is_alive`.
            let _ = tx.send(job);
        }
    }

    /// Asks the running job (if any) to stop; its `Done` report still comes.
    pub fn stop(&mut self) {
        if let Some(s) = self.current_stop.take() {
            s.store(true, Ordering::Relaxed);
        }
    }

    /// The next report, if one is waiting.
    pub fn try_recv(&self) -> Option<Report> {
        self.reports.try_recv().ok()
    }

    /// The next report, waiting at most `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Report> {
        match self.reports.recv_timeout(timeout) {
            Ok(r) => Some(r),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Whether the engine thread still runs.
    pub fn is_alive(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }
}

impl Drop for EngineHandle {
    fn drop(&mut self) {
        self.stop();
        self.jobs = None; // closes the channel: the worker's loop ends
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn worker(jobs: Receiver<Job>, reports: Sender<Report>) {
    let mut engine = Engine::new(EngineOptions::default());
    while let Ok(mut job) = jobs.recv() {
        // Only the newest of several queued jobs matters; the older ones
        // were already told to stop.
        while let Ok(next) = jobs.try_recv() {
            let _ = reports.send(Report::Done { id: job.id, result: empty_result() });
            job = next;
        }
        if job.new_game {
            engine.new_game();
        }
        let id = job.id;
        let tx = reports.clone();
        let result = engine.search(&job.root, &job.history, &job.limits, &job.strength, &job.stop, &mut |info| {
            if info.multipv <= 1 {
                let _ = tx.send(Report::Info {
                    id,
                    depth: info.depth,
                    score: info.score,
                    nodes: info.nodes,
                    pv: info.pv.clone(),
                });
            }
        });
        if reports.send(Report::Done { id, result }).is_err() {
            return;
        }
    }
}

fn empty_result() -> SearchResult {
    SearchResult { best: None, ponder: None, score: Score::Cp(0), depth: 0, nodes: 0, pv: Vec::new() }
}
