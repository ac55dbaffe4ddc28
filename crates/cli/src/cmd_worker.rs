//! `chimera worker`: an analysis worker, as lichess's fishnet is one. It
//! asks a server for review jobs with its key, searches every position of
//! each game with Chimera's engine at the job's node count (one thread a
//! job, a fresh engine each, so the same game gives the same searches on
//! any machine) and posts the searches back; the server checks them and
//! builds the review (docs/server.md, "Analysis workers").
//!
//! `chimera worker-key`: the server operator's side: makes, lists and
//! revokes workers' keys in the server's store.

use crate::api_client::{Api, ApiError, Backoff};
use anyhow::{anyhow, bail, Result};
use chimera_server::review::search_positions;
use chimera_server::workers::Job;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// The server: http://HOST:PORT or https://NAME.
    #[arg(long, env = "CHIMERA_SERVER")]
    server: String,
    /// This worker's key (`chw_...`), made by the server's operator with
    /// `chimera worker-key add`.
    #[arg(long, env = "CHIMERA_WORKER_KEY", hide_env_values = true)]
    key: String,
    /// Jobs searched at once, each on one thread.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    jobs: u32,
    /// Stop after this many jobs done (without it the worker runs until it
    /// is stopped).
    #[arg(long, value_name = "N")]
    max_jobs: Option<u64>,
    /// Seconds to wait before asking again when the queue is empty.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=600))]
    idle_secs: u64,
}

pub fn run(a: Args) -> Result<()> {
    let api = Arc::new(Api::new(&a.server, &a.key).map_err(|e| anyhow!(e))?);
    let done = Arc::new(AtomicU64::new(0));
    let threads: Vec<_> = (0..a.jobs)
        .map(|_| {
            let (api, done) = (api.clone(), done.clone());
            let (max, idle) = (a.max_jobs, Duration::from_secs(a.idle_secs));
            std::thread::spawn(move || work(&api, &done, max, idle))
        })
        .collect();
    for t in threads {
        t.join().map_err(|_| anyhow!("a worker thread panicked"))??;
    }
    Ok(())
}

/// One thread's loop: ask, search, post, until `max` jobs are done (by all
/// threads) or the key is refused.
fn work(api: &Api, done: &AtomicU64, max: Option<u64>, idle: Duration) -> Result<()> {
    let mut backoff = Backoff::default();
    loop {
        if max.is_some_and(|m| done.load(Ordering::SeqCst) >= m) {
            return Ok(());
        }
        let job = match api.post("/api/worker/acquire", None) {
            Ok(Value::Null) => {
                backoff.reset();
                std::thread::sleep(idle);
                continue;
            }
            Ok(v) => match serde_json::from_value::<Job>(v) {
                Ok(j) => j,
                Err(e) => bail!("the server sent a job this worker cannot read: {e}"),
            },
            Err(e) => {
                wait_or_fail(&e, &mut backoff)?;
                continue;
            }
        };
        backoff.reset();
        match do_job(api, &job) {
            Ok(true) => {
                done.fetch_add(1, Ordering::SeqCst);
            }
            Ok(false) => {}
            Err(e) => wait_or_fail(&e, &mut backoff)?,
        }
    }
}

/// A refused key ends the worker; anything else waits and tries again.
fn wait_or_fail(e: &ApiError, backoff: &mut Backoff) -> Result<()> {
    if e.is_auth() {
        bail!("the server refused this worker's key: {e}");
    }
    let d = backoff.next_delay();
    eprintln!("worker: {e}; trying again in {:.1} s", d.as_secs_f64());
    std::thread::sleep(d);
    Ok(())
}

/// Searches one job and posts it: true when the server stored it.
fn do_job(api: &Api, job: &Job) -> Result<bool, ApiError> {
    let t = Instant::now();
    let game = match job.replay() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("job {}: game {}: cannot replay it: {e}", job.id, job.game);
            return Ok(false);
        }
    };
    eprintln!("job {}: game {}, {} positions at {} nodes", job.id, job.game, job.moves.len() + 1, job.nodes);
    // Past the job's time another worker may have it: stop there.
    let stop = Arc::new(AtomicBool::new(false));
    let timer = {
        let (stop, secs) = (stop.clone(), job.seconds);
        std::thread::spawn(move || {
            let end = Instant::now() + Duration::from_secs(secs);
            while Instant::now() < end && !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(100));
            }
            stop.store(true, Ordering::SeqCst);
        })
    };
    let searched = search_positions(&game, job.nodes, &stop);
    let late = stop.swap(true, Ordering::SeqCst);
    let _ = timer.join();
    let Some(positions) = searched.filter(|_| !late) else {
        eprintln!("job {}: out of time after {} s; left to another worker", job.id, job.seconds);
        return Ok(false);
    };
    match api.post(&format!("/api/worker/result/{}", job.id), Some(&json!({ "positions": positions }))) {
        Ok(_) => {
            eprintln!("job {}: stored ({:.2} s)", job.id, t.elapsed().as_secs_f64());
            Ok(true)
        }
        Err(e) if matches!(e.status(), Some(400 | 409)) => {
            eprintln!("job {}: not stored: {e}", job.id);
            Ok(false)
        }
        Err(e) => Err(e),
    }
}

#[derive(clap::Args)]
pub struct KeyArgs {
    #[command(subcommand)]
    action: KeyAction,
    /// The server's data directory (its SQLite store), as `chimera serve
    /// --data` has it.
    #[arg(long, default_value = "data", global = true)]
    data: std::path::PathBuf,
    /// The server's database instead (`postgres://...`, `sqlite://...`), as
    /// `chimera serve --database` has it.
    #[arg(long, env = "CHIMERA_DATABASE_URL", value_name = "URL", hide_env_values = true, global = true)]
    database: Option<String>,
}

#[derive(clap::Subcommand)]
enum KeyAction {
    /// Make a key for a new worker: prints its id, then the key (shown
    /// once; the store keeps its SHA-256).
    Add {
        /// A name to know the worker by (its machine, its owner).
        name: String,
    },
    /// List the workers: id, name, jobs done, last seen, revoked.
    List,
    /// Revoke a worker's key, at once on every instance.
    Revoke {
        /// The worker's id (from `add` or `list`).
        id: String,
    },
}

pub fn run_key(a: KeyArgs) -> Result<()> {
    let at = chimera_server::store::Location::new(&a.data, a.database.as_deref());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    rt.block_on(async move {
        let db = chimera_server::store::open_at(&at, 2).await.map_err(|e| anyhow!("{}: {e}", at.describe()))?;
        let out = match a.action {
            KeyAction::Add { name } => {
                let (id, key) = chimera_server::workers::add_worker(&db, &name).await.map_err(|e| anyhow!(e))?;
                println!("worker {id}\n{}", key.as_str());
                Ok(())
            }
            KeyAction::List => {
                let rows = chimera_server::workers::list_workers(&db).await?;
                println!("{:<16} {:>9} {:<14} {:<8} name", "id", "jobs done", "last seen", "revoked");
                let now = chimera_server::live::now_ms();
                for w in rows {
                    let seen = w.seen_at.map_or("never".to_string(), |s| format!("{} s ago", (now - s) / 1000));
                    let revoked = if w.revoked_at.is_some() { "yes" } else { "no" };
                    println!("{:<16} {:>9} {:<14} {:<8} {}", w.id, w.jobs_done, seen, revoked, w.name);
                }
                Ok(())
            }
            KeyAction::Revoke { id } => {
                if chimera_server::workers::revoke_worker(&db, &id).await? {
                    println!("worker {id} revoked");
                    Ok(())
                } else {
                    Err(anyhow!("no worker '{id}' with a key in force"))
                }
            }
        };
        db.close().await;
        out
    })
}
