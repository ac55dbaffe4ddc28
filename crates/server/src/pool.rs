//! Bounded pools for CPU work: engine searches (analysis and engine moves)
//! and the other heavy jobs (PGN import, replays).
//!
//! A job waits for a permit of a tokio semaphore, then runs on a blocking
//! thread holding that permit until the work itself ends, so a dropped
//! request can never free a slot while its work goes on. Engine searches
//! also carry a stop flag: [`StopOnDrop`] sets it when the request that
//! asked for the search is dropped (the client went away), and a game sets
//! it when a change makes its engine search useless. The queue in front of
//! each pool is bounded: a job that finds it full is refused at once with
//! [`PoolError::Busy`], which the HTTP layer answers with a 503.

use chimera_engine::{Engine, EngineOptions, Limits, Score, Strength};
use chimera_rules::{AnyPosition, Move};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Why a pooled job did not produce a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoolError {
    /// The queue is full: try again later.
    Busy,
    /// The job was stopped before or while it ran.
    Stopped,
    /// The blocking task panicked or was cancelled.
    Failed,
}

/// Counters of a pool, for `/api/health` and the fault suite.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct PoolStats {
    pub size: usize,
    pub queue: usize,
    pub running: usize,
    pub waiting: usize,
    /// The most jobs ever seen running at once.
    pub peak_running: usize,
    pub completed: u64,
    /// Jobs that ended because their stop flag was set.
    pub stopped: u64,
    /// Jobs refused because the queue was full.
    pub refused: u64,
}

/// A bounded pool of blocking workers in front of a bounded queue.
pub struct Pool {
    sem: Arc<Semaphore>,
    size: usize,
    queue: usize,
    waiting: AtomicUsize,
    running: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
    completed: Arc<AtomicU64>,
    stopped: Arc<AtomicU64>,
    refused: AtomicU64,
}

/// Decrements a counter when dropped (a waiting job whose future is dropped
/// leaves the queue).
struct Dec<'a>(&'a AtomicUsize);
impl Drop for Dec<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

struct Running {
    running: Arc<AtomicUsize>,
}
impl Drop for Running {
    fn drop(&mut self) {
        self.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Whether a job may wait when the queue is full.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Refused with `Busy` when `queue` jobs already wait (requests).
    Bounded,
    /// Always queued (an engine move of a game already accepted).
    Always,
}

impl Pool {
    pub fn new(size: usize, queue: usize) -> Pool {
        Pool {
            sem: Arc::new(Semaphore::new(size.max(1))),
            size: size.max(1),
            queue,
            waiting: AtomicUsize::new(0),
            running: Arc::new(AtomicUsize::new(0)),
            peak: Arc::new(AtomicUsize::new(0)),
            completed: Arc::new(AtomicU64::new(0)),
            stopped: Arc::new(AtomicU64::new(0)),
            refused: AtomicU64::new(0),
        }
    }

    pub fn stats(&self) -> PoolStats {
        PoolStats {
            size: self.size,
            queue: self.queue,
            running: self.running.load(Ordering::SeqCst),
            waiting: self.waiting.load(Ordering::SeqCst),
            peak_running: self.peak.load(Ordering::SeqCst),
            completed: self.completed.load(Ordering::SeqCst),
            stopped: self.stopped.load(Ordering::SeqCst),
            refused: self.refused.load(Ordering::SeqCst),
        }
    }

    /// True when a bounded job would be refused now.
    pub fn is_full(&self) -> bool {
        self.waiting.load(Ordering::SeqCst) >= self.queue && self.sem.available_permits() == 0
    }

    /// Runs `job` on a blocking thread once a worker is free. The permit
    /// moves into the blocking closure: it is released when `job` returns,
    /// never earlier. `stop` is checked before the job starts; the job
    /// itself is handed the flag to watch.
    pub async fn run<T, F>(&self, admission: Admission, stop: Arc<AtomicBool>, job: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&AtomicBool) -> T + Send + 'static,
    {
        let permit = match self.sem.clone().try_acquire_owned() {
            Ok(p) => p,
            Err(_) => {
                let before = self.waiting.fetch_add(1, Ordering::SeqCst);
                let _leave = Dec(&self.waiting);
                if admission == Admission::Bounded && before >= self.queue {
                    self.refused.fetch_add(1, Ordering::SeqCst);
                    return Err(PoolError::Busy);
                }
                self.sem.clone().acquire_owned().await.map_err(|_| PoolError::Failed)?
            }
        };
        if stop.load(Ordering::SeqCst) {
            self.stopped.fetch_add(1, Ordering::SeqCst);
            return Err(PoolError::Stopped);
        }
        let (running, peak, completed, stopped) =
            (self.running.clone(), self.peak.clone(), self.completed.clone(), self.stopped.clone());
        let r = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            let _running = Running { running };
            let out = job(&stop);
            if stop.load(Ordering::SeqCst) {
                stopped.fetch_add(1, Ordering::SeqCst);
                Err(PoolError::Stopped)
            } else {
                completed.fetch_add(1, Ordering::SeqCst);
                Ok(out)
            }
        })
        .await;
        r.unwrap_or(Err(PoolError::Failed))
    }
}

/// A stop flag that is set when this guard is dropped: held by the request
/// (or task) that wants the result, so that abandoning it stops the work.
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl StopOnDrop {
    pub fn new() -> StopOnDrop {
        StopOnDrop(Arc::new(AtomicBool::new(false)))
    }
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

impl Default for StopOnDrop {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// The result of an analysis or engine move.
pub struct Analysis {
    pub best: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub pv: Vec<Move>,
}

/// What one engine search is asked to do.
pub struct SearchJob {
    pub pos: AnyPosition,
    pub history: Vec<u64>,
    pub skill: u8,
    pub depth: Option<u32>,
    pub movetime_ms: Option<u64>,
    /// Stop after about this many nodes (the engine checks every 1,024):
    /// with no time limit, a search that gives the same result on every
    /// run (the review's). `None` for games and `/api/analyse`.
    pub nodes: Option<u64>,
}

/// One engine search in `pool`, stoppable through `stop`.
pub async fn search(
    pool: &Pool,
    admission: Admission,
    stop: Arc<AtomicBool>,
    job: SearchJob,
) -> Result<Analysis, PoolError> {
    pool.run(admission, stop, move |stop| {
        let mut engine = Engine::new(EngineOptions::default());
        run_search(&mut engine, &job, stop)
    })
    .await
}

/// One engine search with `engine` (its hash table as it is), on this
/// thread: a single-threaded search at full strength unless `job.skill`
/// says otherwise.
pub fn run_search(engine: &mut Engine, job: &SearchJob, stop: &AtomicBool) -> Analysis {
    let limits = Limits {
        depth: job.depth,
        movetime: job.movetime_ms.map(Duration::from_millis),
        nodes: job.nodes,
        ..Limits::default()
    };
    let r =
        engine.search(&job.pos, &job.history, &limits, &Strength { skill: job.skill, elo: None }, stop, &mut |_| {});
    Analysis { best: r.best, score: r.score, depth: r.depth, pv: r.pv }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dropped_waiter_leaves_the_queue_and_a_full_queue_refuses() {
        let pool = Arc::new(Pool::new(1, 1));
        let gate = Arc::new(AtomicBool::new(false));
        // One job holds the only worker until the gate opens (bounded: 10 s).
        let g = gate.clone();
        let p = pool.clone();
        let holder = tokio::spawn(async move {
            p.run(Admission::Bounded, Arc::new(AtomicBool::new(false)), move |_| {
                for _ in 0..1000 {
                    if g.load(Ordering::SeqCst) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            })
            .await
        });
        for _ in 0..500 {
            if pool.stats().running == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        // One waiter fills the queue; the next is refused at once.
        let p = pool.clone();
        let waiter =
            tokio::spawn(async move { p.run(Admission::Bounded, Arc::new(AtomicBool::new(false)), |_| ()).await });
        for _ in 0..500 {
            if pool.stats().waiting == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        assert_eq!(
            pool.run(Admission::Bounded, Arc::new(AtomicBool::new(false)), |_| ()).await.err(),
            Some(PoolError::Busy)
        );
        // The waiter is dropped: it leaves the queue.
        waiter.abort();
        let _ = waiter.await;
        assert_eq!(pool.stats().waiting, 0);
        gate.store(true, Ordering::SeqCst);
        assert_eq!(holder.await.unwrap(), Ok(()));
        assert_eq!(pool.stats().running, 0);
        assert_eq!(pool.stats().refused, 1);
    }
}
