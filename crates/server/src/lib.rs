//! chimera-server: `chimera serve`, play every variant in the browser.
//!
//! axum over HTTP and WebSocket, assets embedded with rust-embed, games in a
//! SQLite file (sqlx) in the data directory. The rules crate decides every
//! move and result; the engine crate plays and analyses. See `docs/server.md`
//! for the HTTP and WebSocket protocol.

pub mod live;
pub mod store;
mod web;

use chimera_engine::{Engine, EngineOptions, Limits, Score, Strength};
use chimera_rules::{AnyPosition, Color, Move, Position};
use live::{Actor, Live};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, Mutex, Semaphore};

/// At most this many engine searches run at once (each on a blocking thread).
pub const MAX_SEARCHES: usize = 2;

/// The engine levels 1-8 for people, with the limits behind them.
pub struct Level {
    pub level: u8,
    pub words: &'static str,
    pub skill: u8,
    pub depth: Option<u32>,
    pub movetime_ms: Option<u64>,
}

pub const LEVELS: [Level; 8] = [
    Level {
        level: 1,
        words: "Beginner: sees one move ahead and blunders freely",
        skill: 0,
        depth: Some(1),
        movetime_ms: Some(100),
    },
    Level {
        level: 2,
        words: "Casual: spots simple captures, misses most threats",
        skill: 3,
        depth: Some(2),
        movetime_ms: Some(150),
    },
    Level {
        level: 3,
        words: "Club novice: avoids hanging pieces most of the time",
        skill: 6,
        depth: Some(3),
        movetime_ms: Some(200),
    },
    Level {
        level: 4,
        words: "Club player: short tactics, steady development",
        skill: 9,
        depth: Some(4),
        movetime_ms: Some(300),
    },
    Level {
        level: 5,
        words: "Strong club player: calculates a few moves deep",
        skill: 12,
        depth: Some(6),
        movetime_ms: Some(400),
    },
    Level { level: 6, words: "Expert: punishes most mistakes", skill: 15, depth: None, movetime_ms: Some(500) },
    Level {
        level: 7,
        words: "Master: full strength, half a second a move",
        skill: 18,
        depth: None,
        movetime_ms: Some(700),
    },
    Level {
        level: 8,
        words: "Full strength: the engine's best, one second a move",
        skill: 20,
        depth: None,
        movetime_ms: Some(1000),
    },
];

pub fn level(l: u8) -> &'static Level {
    &LEVELS[(l.clamp(1, 8) - 1) as usize]
}

pub struct GameHandle {
    pub live: Mutex<Live>,
    pub tx: broadcast::Sender<Arc<str>>,
}

pub struct AppState {
    pub db: store::Db,
    pub data_dir: PathBuf,
    games: Mutex<HashMap<String, Arc<GameHandle>>>,
    pub searches: Arc<Semaphore>,
}

pub type App = Arc<AppState>;

impl AppState {
    /// The live game, loaded from the store on first use.
    pub async fn game(self: &Arc<Self>, id: &str) -> Result<Option<Arc<GameHandle>>, String> {
        if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Ok(None);
        }
        let mut games = self.games.lock().await;
        if let Some(h) = games.get(id) {
            return Ok(Some(h.clone()));
        }
        let Some(live) = store::load_game(&self.db, id).await? else { return Ok(None) };
        let h = Arc::new(GameHandle { live: Mutex::new(live), tx: broadcast::channel(64).0 });
        games.insert(id.to_string(), h.clone());
        drop(games);
        // After a restart: the engine may be to move, a clock may be running.
        after_change(self, &h).await;
        Ok(Some(h))
    }

    pub async fn insert(self: &Arc<Self>, live: Live) -> Arc<GameHandle> {
        let id = live.meta.id.clone();
        let h = Arc::new(GameHandle { live: Mutex::new(live), tx: broadcast::channel(64).0 });
        self.games.lock().await.insert(id, h.clone());
        after_change(self, &h).await;
        h
    }
}

/// Applies `f` to a copy of the game, stores the copy in one transaction,
/// then makes it live and tells every client. `f` returns the ply from which
/// stored moves are rewritten. On any error nothing changes.
pub async fn change<F>(app: &App, h: &Arc<GameHandle>, f: F) -> Result<(), String>
where
    F: FnOnce(&mut Live) -> Result<usize, String>,
{
    {
        let mut live = h.live.lock().await;
        let mut next = live.clone();
        let keep = f(&mut next)?;
        store::save(&app.db, &next, keep).await.map_err(|e| format!("could not store the change: {e}"))?;
        *live = next;
        let _ = h.tx.send(Arc::from(live.view().to_string()));
    }
    after_change(app, h).await;
    Ok(())
}

/// Starts the engine if it is to move, and arms the flag timer. (Boxed:
/// it and `change` call each other through spawned tasks.)
fn after_change(app: &App, h: &Arc<GameHandle>) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
    let (app, h) = (app.clone(), h.clone());
    Box::pin(async move { after_change_inner(&app, &h).await })
}

async fn after_change_inner(app: &App, h: &Arc<GameHandle>) {
    let mut live = h.live.lock().await;
    if live.engine_to_move() && !live.thinking {
        live.thinking = true;
        // Tell the clients the engine is thinking.
        let _ = h.tx.send(Arc::from(live.view().to_string()));
        let gen = live.generation;
        let pos = live.game.position().clone();
        let history: Vec<u64> = live.game.positions().iter().rev().skip(1).rev().map(|p| p.hash()).collect();
        let lvl = level(live.meta.engine_level.unwrap_or(4));
        let (app2, h2) = (app.clone(), h.clone());
        tokio::spawn(async move {
            let best = search(&app2, pos, history, lvl.skill, lvl.depth, lvl.movetime_ms).await.and_then(|r| r.best);
            let mut live = h2.live.lock().await;
            live.thinking = false;
            let stale = live.generation != gen;
            drop(live);
            match best {
                Some(m) if !stale => {
                    let uci = m.to_string();
                    if let Err(e) = change(&app2, &h2, |l| {
                        let keep = l.game.moves().len();
                        l.play(&Actor::Engine, &uci, None).map(|_| keep)
                    })
                    .await
                    {
                        eprintln!("engine move {uci} refused: {e}");
                    }
                }
                _ => {
                    // Position changed meanwhile (takeback): think again if needed.
                    after_change(&app2, &h2).await;
                }
            }
        });
    }
    if let Some(rem) = live
        .remaining(live.turn(), live::now_ms())
        .filter(|_| live.turn_started.is_some() && live.status == live::Status::Active)
    {
        let gen = live.generation;
        let (app2, h2) = (app.clone(), h.clone());
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(rem.max(0) as u64 + 20)).await;
            let flagged = {
                let live = h2.live.lock().await;
                live.generation == gen
            };
            if flagged {
                let _ = change(&app2, &h2, |l| {
                    let keep = l.game.moves().len();
                    if l.check_flag() {
                        Ok(keep)
                    } else {
                        Err("no flag".into())
                    }
                })
                .await;
            }
        });
    }
}

/// The result of an analysis or engine move.
pub struct Analysis {
    pub best: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub pv: Vec<Move>,
}

/// Runs one engine search off the async runtime, behind the semaphore.
pub async fn search(
    app: &App,
    pos: AnyPosition,
    history: Vec<u64>,
    skill: u8,
    depth: Option<u32>,
    movetime_ms: Option<u64>,
) -> Option<Analysis> {
    let _permit = app.searches.clone().acquire_owned().await.ok()?;
    tokio::task::spawn_blocking(move || {
        let mut engine = Engine::new(EngineOptions::default());
        let limits = Limits { depth, movetime: movetime_ms.map(Duration::from_millis), ..Limits::default() };
        let stop = AtomicBool::new(false);
        let r = engine.search(&pos, &history, &limits, &Strength { skill, elo: None }, &stop, &mut |_| {});
        Analysis { best: r.best, score: r.score, depth: r.depth, pv: r.pv }
    })
    .await
    .ok()
}

/// Random hex string of `bytes` random bytes.
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::getrandom(&mut buf).expect("the system random source works");
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// A running server (for `run` and for tests).
pub struct Server {
    pub addr: SocketAddr,
    pub app: App,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    join: Option<tokio::task::JoinHandle<()>>,
}

impl Server {
    /// Opens the store in `data_dir` and listens on `addr` (port 0 = any).
    pub async fn start(addr: &str, data_dir: &Path) -> Result<Server, String> {
        let db = store::open(data_dir).await?;
        let app = Arc::new(AppState {
            db,
            data_dir: data_dir.to_path_buf(),
            games: Mutex::new(HashMap::new()),
            searches: Arc::new(Semaphore::new(MAX_SEARCHES)),
        });
        let listener =
            tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let router = web::router(app.clone());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let join = tokio::spawn(async move {
            let _ = axum::serve(listener, router)
                .with_graceful_shutdown(async move {
                    let _ = rx.await;
                })
                .await;
        });
        Ok(Server { addr, app, shutdown: Some(tx), join: Some(join) })
    }

    /// Stops accepting, closes the store.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(j) = self.join.take() {
            // Open WebSockets keep graceful shutdown waiting: give it a moment.
            let _ = tokio::time::timeout(Duration::from_secs(2), j).await;
        }
        self.app.db.close().await;
    }
}

/// `chimera serve`: builds its own tokio runtime, prints the URL and the
/// data path, serves until killed.
pub fn run(addr: &str, data_dir: &Path) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(async {
        let server = Server::start(addr, data_dir).await?;
        let shown = std::fs::canonicalize(data_dir).unwrap_or_else(|_| data_dir.to_path_buf());
        println!("Chimera is serving at http://{}/", server.addr);
        println!("Games are stored in {}", shown.join("chimera.sqlite3").display());
        if let Some(j) = server.join {
            let _ = j.await;
        }
        Ok(())
    })
}

pub(crate) fn color_name(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}
