//! chimera-server: `chimera serve`, play every variant in the browser.
//!
//! axum over HTTP and WebSocket, assets embedded with rust-embed, games in a
//! SQLite file (sqlx) in the data directory, or in PostgreSQL shared by
//! several instances (`--database postgres://...`: see `docs/deploy.md`).
//! The rules crate decides every move and result; the engine crate plays
//! and analyses. See `docs/server.md` for the HTTP and WebSocket protocol.

pub mod accounts;
pub mod botapi;
pub mod bots;
pub mod challenges;
pub mod clock;
mod docs;
pub mod explorer;
pub mod i18n;
#[cfg(feature = "lab")]
mod lab;
pub mod learn;
pub mod live;
pub mod net;
pub mod notify;
pub mod pairing;
mod peers;
pub mod pgn_comments;
pub mod playing;
pub mod pool;
pub mod puzzles;
pub mod ratings;
pub mod review;
pub mod review_notes;
pub mod store;
pub mod tokens;
mod tree;
mod web;
pub mod webpush;
pub mod workers;

use chimera_rules::{Color, Position};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use live::{Actor, Live};
use pool::{Admission, Pool, SearchJob};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, Mutex};

/// The engine levels: the shared session policy's table (`chimera-session`).
pub use chimera_session::{Level, LevelSpec, LEVELS};

pub struct GameHandle {
    pub live: Mutex<Live>,
    pub tx: broadcast::Sender<Arc<str>>,
    /// The stop flag of the engine search running for this game, if any:
    /// set when a change makes that search useless (a takeback, the end).
    engine_stop: std::sync::Mutex<Option<Arc<AtomicBool>>>,
    /// The flag timer armed for the clock of the side to move.
    timer: std::sync::Mutex<Option<tokio::task::AbortHandle>>,
    /// Open seeks: the WebSockets open with a seat of this game, and the
    /// timer that cancels the seek when none has been open for
    /// `Config::seek_grace` (its creator left).
    seek_watch: std::sync::Mutex<(usize, Option<tokio::task::AbortHandle>)>,
    /// The history of the game's whole state, serialised, for the
    /// (version, generation) it was made at: see [`GameHandle::state`].
    history_json: std::sync::Mutex<Option<(i64, u64, Arc<str>)>>,
    /// The engine's evaluation from its last move's search (its own side),
    /// for its answer to a draw offer (`chimera_session::draw_answer`).
    pub engine_eval: std::sync::Mutex<Option<chimera_session::EngineEval>>,
}

impl GameHandle {
    fn new(live: Live) -> Arc<GameHandle> {
        Arc::new(GameHandle {
            live: Mutex::new(live),
            tx: broadcast::channel(64).0,
            engine_stop: Default::default(),
            timer: Default::default(),
            seek_watch: Default::default(),
            history_json: Default::default(),
            engine_eval: Default::default(),
        })
    }

    /// The game's whole state as JSON text, and its entity tag while it is
    /// not time dependent (no clock running). The history, nearly all of a
    /// long game's state and the costly part (a FEN and more per ply), is
    /// serialised once per version and then copied: polling a 400-ply game
    /// costs a copy, not 400 positions' worth of work under the game's
    /// lock, which every move of that game waits for.
    pub async fn state(&self) -> (String, Option<String>) {
        let live = self.live.lock().await;
        let key = (live.version, live.generation);
        let history = {
            let mut c = self.history_json.lock().unwrap_or_else(|e| e.into_inner());
            match &*c {
                Some((v, g, h)) if (*v, *g) == key => h.clone(),
                _ => {
                    let h: Arc<str> = Arc::from(serde_json::Value::Array(live.history(0)).to_string());
                    *c = Some((key.0, key.1, h.clone()));
                    h
                }
            }
        };
        let head = live.view_head(0).to_string();
        let etag = (!live.time_dependent())
            .then(|| format!("\"{}-{}-{}\"", live.meta.id, live.version, u8::from(live.thinking)));
        drop(live);
        // `head` is a non-empty object: the history goes in before its `}`.
        let mut body = String::with_capacity(head.len() + history.len() + 12);
        body.push_str(&head[..head.len() - 1]);
        body.push_str(",\"history\":");
        body.push_str(&history);
        body.push('}');
        (body, etag)
    }

    /// Stops the game's engine search, if one runs.
    fn stop_engine(&self) {
        if let Some(f) = self.engine_stop.lock().unwrap_or_else(|e| e.into_inner()).take() {
            f.store(true, Ordering::SeqCst);
        }
    }
}

/// The server's limits and timeouts (`chimera serve --help` sets them).
#[derive(Clone, Debug)]
pub struct Config {
    /// Engine searches running at once (analysis and engine moves).
    pub engine_workers: usize,
    /// Analysis requests that may wait for a worker; more get a 503.
    pub engine_queue: usize,
    /// Other CPU jobs (PGN import, replays) at once, and their queue.
    pub cpu_workers: usize,
    pub cpu_queue: usize,
    /// Open HTTP connections in all and per client address (an IPv6
    /// client by its /64). A WebSocket leaves this budget at its upgrade.
    pub max_connections: usize,
    pub max_connections_per_client: usize,
    /// WebSockets of seat holders (a valid player token for the game), in
    /// all and per client address.
    pub max_seat_sockets: usize,
    pub seat_sockets_per_client: usize,
    /// Spectators' WebSockets in all (when full, the one whose client has
    /// been silent longest is closed to make room) and per client address.
    pub max_spectators: usize,
    pub spectators_per_client: usize,
    /// A spectator's socket whose client has sent nothing for this long
    /// (pongs do not count) is closed; its page offers to watch again.
    pub spectator_idle: Duration,
    /// Game creation per client address (`POST /api/games` and rematches
    /// alike): a burst, then one per period.
    pub create_burst: u32,
    pub create_period: Duration,
    /// Failed joins per client address (a wrong invite, a wrong creator's
    /// token): this many in `failed_join_window`, then every join and
    /// cancel that checks a secret is refused (429) until the window ends.
    pub failed_join_burst: u32,
    pub failed_join_window: Duration,
    /// Games held in memory at most; beyond it idle games are dropped
    /// from memory first, and creation is refused if none can be.
    pub max_live_games: usize,
    /// A game nobody is connected to leaves memory after this long idle
    /// (at once when finished); it stays in the store and comes back on use.
    pub game_idle: Duration,
    /// How often memory is swept.
    pub sweep_every: Duration,
    /// Time for a client to send a request's headers (also the keep-alive
    /// idle limit), and for a whole request.
    pub header_timeout: Duration,
    pub request_timeout: Duration,
    /// Header bytes at most (hyper's read buffer).
    pub max_header_bytes: usize,
    /// Body bytes at most (PGN import: `max_pgn_body`).
    pub max_body: usize,
    pub max_pgn_body: usize,
    /// WebSocket: a ping this often; closed when nothing came back for
    /// `ws_timeout`.
    pub ws_ping: Duration,
    pub ws_timeout: Duration,
    /// Host names served besides IP literals and `localhost`.
    pub allowed_hosts: Vec<String>,
    /// An open seek is cancelled when its creator has had no page open on
    /// it for this long (a reload stays well inside it).
    pub seek_grace: Duration,
    /// Each instance renews its heartbeat in the store this often, and
    /// looks for games to take over.
    pub heartbeat_every: Duration,
    /// How often the quick-pairing pools are paired (`pairing`).
    pub pairing_every: Duration,
    /// An instance whose heartbeat is older than this is taken to be dead:
    /// the others take over its games' clocks and engine.
    pub takeover_after: Duration,
    /// New accounts per client address (an IPv6 client by its /64): a
    /// burst, then one per period.
    pub signup_burst: u32,
    pub signup_period: Duration,
    /// The session cookie is `Secure` (sent over TLS only): on for a server
    /// behind TLS (`--secure-cookies`).
    pub secure_cookies: bool,
    /// The house bots' seeks in the lobby (`bots::seeks`): the level of the
    /// bot that offers them, or `None` for none (`chimera serve` offers
    /// level 4's; `--bot-seeks off`).
    pub bot_seeks: Option<u8>,
    /// The bots' seeks' clock, (initial, increment) in ms, and whether
    /// they are rated.
    pub bot_seek_clock: (i64, i64),
    pub bot_seek_rated: bool,
    /// Games the house bots play at once on the store (0: four per engine
    /// worker); beyond it they decline challenges (`later`) and offer no
    /// seeks.
    pub max_bot_games: usize,
    /// The push services this server sends Web Push to, as origins
    /// (`https://fcm.googleapis.com`; a host may start with `*.`, one
    /// label): a subscription elsewhere is refused, and nothing is ever
    /// posted elsewhere (`chimera serve --push-service`; empty: no Web Push).
    pub push_services: Vec<String>,
    /// The contact the push services are given with each push (VAPID's
    /// `sub`): a `mailto:` or `https:` URL (`--push-contact`).
    pub push_contact: String,
    /// Requests a second per API token (a burst of twice as many), and
    /// failed token checks per client address in a minute before every
    /// token from it is refused (`tokens`).
    pub token_rate: u32,
    pub token_failure_burst: u32,
    /// Streams an account may hold open at once (`botapi`): event streams
    /// and game streams.
    pub event_streams_per_account: usize,
    pub game_streams_per_account: usize,
    /// An event stream reads the account's games and challenges from the
    /// store this often (and at once when this instance changes them).
    pub event_poll: Duration,
    /// The nodes each position of a game review is searched at
    /// (`review`): the same node count gives the same review. 20,000 takes
    /// about 35 ms a position on one core (docs/server.md, "Game review").
    pub review_nodes: u64,
    /// A review job's time: past it, another worker may take the job
    /// (`workers`).
    pub review_job_time: Duration,
    /// While some analysis worker asked for a job within this time, this
    /// instance's own engine leaves the queue to the workers.
    pub review_worker_idle: Duration,
    /// Whether this instance's own engine reviews games when no worker is
    /// active.
    pub review_local: bool,
    /// Whether every rated game is reviewed when it ends.
    pub review_rated: bool,
    /// The opening explorer reads the games finished since it last looked
    /// this often (`explorer`).
    pub explorer_every: Duration,
    /// The longest an analysis board's deepening search runs
    /// (`/api/analyse/stream`).
    pub analysis_time: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            engine_workers: 2,
            engine_queue: 8,
            cpu_workers: 2,
            cpu_queue: 16,
            max_connections: 768,
            max_connections_per_client: 48,
            max_seat_sockets: 8192,
            seat_sockets_per_client: 64,
            max_spectators: 1024,
            spectators_per_client: 8,
            spectator_idle: Duration::from_secs(30 * 60),
            create_burst: 20,
            create_period: Duration::from_secs(3),
            failed_join_burst: 10,
            failed_join_window: Duration::from_secs(60),
            max_live_games: 5000,
            game_idle: Duration::from_secs(600),
            sweep_every: Duration::from_secs(30),
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_header_bytes: 16 * 1024,
            max_body: 64 * 1024,
            max_pgn_body: 2 * 1024 * 1024,
            ws_ping: Duration::from_secs(20),
            ws_timeout: Duration::from_secs(60),
            allowed_hosts: Vec::new(),
            seek_grace: Duration::from_secs(20),
            heartbeat_every: Duration::from_secs(1),
            pairing_every: Duration::from_secs(1),
            takeover_after: Duration::from_secs(5),
            signup_burst: 5,
            signup_period: Duration::from_secs(600),
            secure_cookies: false,
            bot_seeks: None,
            bot_seek_clock: (5 * 60_000, 3_000),
            bot_seek_rated: true,
            max_bot_games: 0,
            push_services: webpush::DEFAULT_SERVICES.iter().map(|s| s.to_string()).collect(),
            push_contact: "mailto:chimera@localhost".into(),
            token_rate: 30,
            token_failure_burst: 10,
            event_streams_per_account: 4,
            game_streams_per_account: 16,
            event_poll: Duration::from_secs(2),
            review_nodes: 20_000,
            review_job_time: Duration::from_secs(300),
            review_worker_idle: Duration::from_secs(30),
            review_local: true,
            review_rated: true,
            explorer_every: Duration::from_secs(10),
            analysis_time: Duration::from_secs(30),
        }
    }
}

pub struct AppState {
    pub db: store::Db,
    /// Where the store is (a data directory, or a database URL).
    pub store_at: store::Location,
    /// This instance's name in the store (`instances`, `games.owner`).
    pub instance: String,
    pub started_at: i64,
    pub config: Config,
    games: Mutex<HashMap<String, Arc<GameHandle>>>,
    /// Engine searches: analysis and engine moves.
    pub engine: Pool,
    /// PGN import and replays.
    pub cpu: Pool,
    pub conns: Arc<net::Conns>,
    /// Game creation per client address (see [`AppState::admit_game`]).
    creations: DefaultKeyedRateLimiter<IpAddr>,
    /// Failed joins per client address (see [`FailedJoins`]).
    pub(crate) failed_joins: FailedJoins,
    /// The data directory's lock (SQLite store), held while this process
    /// runs: see [`dir_lock`].
    dir_lock: std::sync::Mutex<Option<std::fs::File>>,
    pub sockets: Arc<net::Sockets>,
    /// New accounts per client address (see `Config::signup_burst`).
    pub(crate) signups: DefaultKeyedRateLimiter<IpAddr>,
    /// Log-in throttles kept in memory (per address, per unknown name).
    pub(crate) throttles: accounts::Throttles,
    /// Becomes true when the server stops: WebSockets close with a reason.
    pub shutdown: tokio::sync::watch::Receiver<bool>,
    /// The accounts' notification sockets open here.
    pub(crate) notes: notify::Hub,
    /// Web Push: the VAPID key and the HTTP client.
    pub(crate) push: webpush::Sender,
    /// The API tokens' limits kept in memory.
    pub(crate) api: tokens::Limits,
    /// The Bot and Board API's open streams and their wake-ups.
    pub(crate) streams: botapi::Streams,
    /// The review job queue's wake-up (`workers`).
    pub(crate) reviews: workers::Queue,
}

/// Why a new game was refused: the HTTP status, the words, and the seconds
/// to wait before trying again (`Retry-After`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub status: u16,
    pub message: String,
    pub retry_after: Option<u64>,
}

pub type App = Arc<AppState>;

impl AppState {
    /// A game held in memory is read again from the store (after a change
    /// made to its row outside `change`: an account claiming or leaving its
    /// seats); a game not in memory is left alone.
    pub async fn reload_game(self: &Arc<Self>, id: &str) {
        let h = self.games.lock().await.get(id).cloned();
        if let Some(h) = h {
            let mut live = h.live.lock().await;
            let _ = peers::reload_locked(self, &h, &mut live).await;
        }
    }

    /// The live game, loaded from the store on first use. The store is read
    /// and the moves replayed without holding the map: other games are
    /// served meanwhile. (A game out of memory has no handle anywhere, so
    /// nothing can change it while it loads; two loads of one game keep the
    /// first one inserted.)
    pub async fn game(self: &Arc<Self>, id: &str) -> Result<Option<Arc<GameHandle>>, String> {
        if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Ok(None);
        }
        if let Some(h) = self.games.lock().await.get(id) {
            return Ok(Some(h.clone()));
        }
        let Some(live) = store::load_game(&self.db, &self.cpu, id).await? else { return Ok(None) };
        let h = {
            let mut games = self.games.lock().await;
            if let Some(h) = games.get(id) {
                return Ok(Some(h.clone()));
            }
            if games.len() >= self.config.max_live_games {
                evict(&mut games, Duration::ZERO);
            }
            let h = GameHandle::new(live);
            games.insert(id.to_string(), h.clone());
            h
        };
        // After a restart: the engine may be to move, a clock may be running.
        after_change(self, &h).await;
        Ok(Some(h))
    }

    /// Makes a new game live. Refused when memory holds `max_live_games`
    /// games and none of them can leave.
    pub async fn insert(self: &Arc<Self>, live: Live) -> Result<Arc<GameHandle>, String> {
        let id = live.meta.id.clone();
        wake_players(self, &live);
        let h = GameHandle::new(live);
        {
            let mut games = self.games.lock().await;
            if games.len() >= self.config.max_live_games {
                evict(&mut games, Duration::ZERO);
            }
            if games.len() >= self.config.max_live_games {
                return Err("the server holds as many live games as it may; try again later".into());
            }
            games.insert(id, h.clone());
        }
        after_change(self, &h).await;
        Ok(h)
    }

    /// The admission of every new game, `POST /api/games` and rematches
    /// alike (one path: a rematch is a new game): the per-address creation
    /// limit (a burst of `create_burst`, then one per `create_period`), the
    /// engine queue for a game against the engine, room in memory. The
    /// limit is spent last, so a game refused for a busy server costs none.
    pub async fn admit_game(&self, client: IpAddr, engine: bool) -> Result<(), Refused> {
        if engine && self.engine.is_full() {
            return Err(Refused {
                status: 503,
                message: "the server is busy with other work; try again in a few seconds".into(),
                retry_after: Some(5),
            });
        }
        if self.full().await {
            return Err(Refused {
                status: 503,
                message: "the server holds as many live games as it may; try again later".into(),
                retry_after: None,
            });
        }
        if let Err(not_until) = self.creations.check_key(&client) {
            let wait = not_until.wait_time_from(DefaultClock::default().now()).as_secs().max(1);
            return Err(Refused {
                status: 429,
                message: format!("too many new games from your address: wait {wait} s"),
                retry_after: Some(wait),
            });
        }
        Ok(())
    }

    /// Forgets the quiet clients of the per-address limits (the sweeper).
    fn sweep_limits(&self) {
        self.creations.retain_recent();
        self.creations.shrink_to_fit();
        self.failed_joins.sweep();
        self.api.sweep();
    }

    /// The engine's limits for a move in `live` now: the session policy's
    /// think time from the game's level, the engine's clock, and this
    /// server's load (under load the engine thinks less rather than making
    /// every game wait: its time shrinks with the searches queued ahead).
    pub fn engine_think_time(&self, live: &Live) -> chimera_session::ThinkTime {
        let level = live.meta.engine_level.map_or(Level::DEFAULT, Level::clamped);
        let clock = live.meta.clock.zip(live.remaining(live.turn(), live::now_ms())).map(|((_, inc), left)| {
            chimera_session::Clock {
                remaining: Duration::from_millis(left.max(0) as u64),
                increment: Duration::from_millis(inc.max(0) as u64),
            }
        });
        let st = self.engine.stats();
        let load = chimera_session::Load { workers: st.size, waiting: st.waiting };
        chimera_session::think_time(level, clock, live.game.moves().len(), load)
    }

    /// True if memory is full of games that cannot leave it.
    pub async fn full(&self) -> bool {
        let mut games = self.games.lock().await;
        if games.len() >= self.config.max_live_games {
            evict(&mut games, Duration::ZERO);
        }
        games.len() >= self.config.max_live_games
    }

    /// Drops a game from memory (a cancelled seek, deleted from the store).
    async fn forget(&self, id: &str) {
        self.games.lock().await.remove(id);
    }

    /// Games held in memory now.
    pub async fn live_games(&self) -> usize {
        self.games.lock().await.len()
    }

    /// Drops from memory the games nobody uses: see [`evict`].
    pub async fn sweep(&self) -> usize {
        evict(&mut *self.games.lock().await, self.config.game_idle)
    }
}

/// Failed joins per client address: `burst` failures within `window` (from
/// the first of them), then the address is refused every join and cancel
/// that checks a secret until the window ends. Only failures count, so an
/// honest join is never slowed; an address over the limit is refused before
/// its secret is compared, so a guess made then tells nothing. (governor,
/// which limits creation, has no way to test a key without spending from
/// it, and a success must spend nothing.)
pub(crate) struct FailedJoins {
    burst: u32,
    window: Duration,
    map: std::sync::Mutex<HashMap<IpAddr, (u32, Instant)>>,
}

/// Addresses remembered at most; beyond, the expired ones go first, and
/// failures of new addresses are not recorded until there is room.
const FAILED_JOINS_HELD: usize = 100_000;

impl FailedJoins {
    pub(crate) fn new(burst: u32, window: Duration) -> FailedJoins {
        FailedJoins { burst: burst.max(1), window, map: Default::default() }
    }

    /// `Err(seconds to wait)` while `client` is over the limit.
    pub(crate) fn check(&self, client: IpAddr) -> Result<(), u64> {
        let m = self.map.lock().unwrap_or_else(|e| e.into_inner());
        match m.get(&client) {
            Some(&(n, since)) if n >= self.burst && since.elapsed() < self.window => {
                Err((self.window - since.elapsed()).as_secs().max(1))
            }
            _ => Ok(()),
        }
    }

    /// Records a failed join from `client`.
    pub(crate) fn failed(&self, client: IpAddr) {
        let mut m = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if m.len() >= FAILED_JOINS_HELD && !m.contains_key(&client) {
            let window = self.window;
            m.retain(|_, (_, since)| since.elapsed() < window);
            if m.len() >= FAILED_JOINS_HELD {
                return;
            }
        }
        let e = m.entry(client).or_insert((0, Instant::now()));
        if e.1.elapsed() >= self.window {
            *e = (0, Instant::now());
        }
        e.0 = e.0.saturating_add(1);
    }

    pub(crate) fn sweep(&self) {
        let window = self.window;
        self.map.lock().unwrap_or_else(|e| e.into_inner()).retain(|_, (_, since)| since.elapsed() < window);
    }
}

/// The lock of a data directory (`DIR/serve.lock`, an advisory `flock`
/// held as long as the process runs; the kernel drops it when the process
/// dies, `kill -9` included). The holder writes its instance id into the
/// file; the id it finds there is the previous holder's, which is dead
/// (its lock is gone): see [`take_over_predecessor`]. None when another
/// process holds the lock (several processes on one SQLite file: they keep
/// to the heartbeat rule).
fn dir_lock(dir: &Path, me: &str) -> Result<Option<(std::fs::File, Option<String>)>, String> {
    use std::io::{Read, Seek, Write};
    let path = dir.join("serve.lock");
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    match f.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Ok(None),
        Err(std::fs::TryLockError::Error(e)) => return Err(format!("cannot lock {}: {e}", path.display())),
    }
    let mut prev = String::new();
    let _ = f.read_to_string(&mut prev);
    let prev = prev.trim();
    let prev = (!prev.is_empty() && prev.len() <= 64 && prev.chars().all(|c| c.is_ascii_alphanumeric()))
        .then(|| prev.to_string());
    let write = |f: &mut std::fs::File| -> std::io::Result<()> {
        f.set_len(0)?;
        f.rewind()?;
        f.write_all(me.as_bytes())?;
        f.sync_all()
    };
    write(&mut f).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(Some((f, prev)))
}

/// A restart on the same data directory: the games the previous process
/// (`prev`, dead: it no longer holds the directory's lock) owned are taken
/// over at once, not after `takeover_after` of silence, and their clocks
/// armed and engines started. Games of other processes sharing the store
/// keep to the heartbeat rule.
async fn take_over_predecessor(app: &App, prev: &str) {
    match store::take_over_from(&app.db, &app.instance, prev).await {
        Ok(ids) => {
            for id in ids {
                peers::take(app, &id).await;
            }
        }
        Err(e) => eprintln!("taking over the games of the previous process: {e}"),
    }
    if let Err(e) = store::unregister(&app.db, prev).await {
        eprintln!("could not remove the previous process from the instances table: {e}");
    }
}

/// Removes the games that only the map holds (no client, no engine search,
/// no clock timer) and that are finished or idle for `idle`. They are in
/// the store: the next request loads them again. Returns how many left.
fn evict(games: &mut HashMap<String, Arc<GameHandle>>, idle: Duration) -> usize {
    let before = games.len();
    let now = live::now_ms();
    games.retain(|_, h| {
        if Arc::strong_count(h) > 1 {
            return true;
        }
        match h.live.try_lock() {
            Ok(l) => !(l.status == live::Status::Finished || now - l.updated_at >= idle.as_millis() as i64),
            Err(_) => true,
        }
    });
    before - games.len()
}

/// Applies `f` to a copy of the game, stores the copy in one transaction,
/// then makes it live and tells every client. `f` returns the ply from which
/// stored moves are rewritten; the broadcast carries the history from that
/// ply only (a delta). On any error nothing changes. When the store has a
/// newer version of the game (another instance changed it), the game is
/// reloaded, its clients are sent it, and `f` is applied once more to the
/// fresh game: a move made for a ply that was played meanwhile is then
/// refused as stale.
pub async fn change<F>(app: &App, h: &Arc<GameHandle>, mut f: F) -> Result<(), String>
where
    F: FnMut(&mut Live) -> Result<usize, String>,
{
    for attempt in 0..2 {
        let mut live = h.live.lock().await;
        let mut next = live.clone();
        let keep = f(&mut next)?;
        next.version = live.version + 1;
        next.owner = Some(app.instance.clone());
        match store::save(&app.db, &next, keep, &app.instance).await {
            Ok(()) => {}
            Err(store::SaveError::Conflict) if attempt == 0 => {
                peers::reload_locked(app, h, &mut live).await?;
                continue;
            }
            Err(store::SaveError::Conflict) => {
                return Err("the game changed at the same moment on another server; look again and retry".into())
            }
            Err(e) => return Err(format!("could not store the change: {e}")),
        }
        // The accounts a correspondence game's change concerns are told;
        // the players' API event streams hear of the game's end.
        notify::game_changed(app, &live, &next);
        if live.status != next.status {
            wake_players(app, &next);
        }
        *live = next;
        // Whatever the engine was thinking about is out of date now.
        h.stop_engine();
        let _ = h.tx.send(Arc::from(live.view_from(keep).to_string()));
        drop(live);
        after_change(app, h).await;
        return Ok(());
    }
    unreachable!("the loop returns")
}

/// Starts the engine if it is to move, and arms the flag timer. (Boxed:
/// it and `change` call each other through spawned tasks.)
fn after_change(app: &App, h: &Arc<GameHandle>) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
    let (app, h) = (app.clone(), h.clone());
    Box::pin(async move { after_change_inner(&app, &h).await })
}

async fn after_change_inner(app: &App, h: &Arc<GameHandle>) {
    let mut live = h.live.lock().await;
    // A rated game that has just ended: its ratings, once (any instance may
    // try; the store lets one through), then everyone sees the changes.
    if live.meta.rated && live.status == live::Status::Finished && live.ratings.is_none() {
        let (app2, id) = (app.clone(), live.meta.id.clone());
        tokio::spawn(async move {
            match ratings::settle(&app2.db, &id).await {
                Ok(true) => {
                    app2.reload_game(&id).await;
                    if app2.config.review_rated {
                        if let Err(e) = workers::enqueue(&app2, &id, app2.config.review_nodes).await {
                            eprintln!("reviews: game {id}: {e}");
                        }
                    }
                }
                Ok(false) => {}
                Err(e) => eprintln!("ratings: game {id}: {e}"),
            }
        });
    }
    // Clocks and the engine are the owner's (the instance that made the
    // last change, or took the game over): the others only show the game.
    let mine = live.owner.as_deref() == Some(app.instance.as_str());
    if !mine {
        if let Some(t) = h.timer.lock().unwrap_or_else(|e| e.into_inner()).take() {
            t.abort();
        }
        return;
    }
    if live.engine_to_move() && !live.thinking {
        live.thinking = true;
        // Tell the clients the engine is thinking.
        let _ = h.tx.send(Arc::from(live.view_from(live.game.moves().len()).to_string()));
        let gen = live.generation;
        let pos = live.game.position().clone();
        let history: Vec<u64> = live.game.positions().iter().rev().skip(1).rev().map(|p| p.hash()).collect();
        let plies = live.game.moves().len();
        let think = app.engine_think_time(&live);
        let stop = Arc::new(AtomicBool::new(false));
        *h.engine_stop.lock().unwrap_or_else(|e| e.into_inner()) = Some(stop.clone());
        let (app2, h2) = (app.clone(), h.clone());
        tokio::spawn(async move {
            let movetime_ms = Some(think.movetime.as_millis() as u64);
            let job = SearchJob { pos, history, skill: think.skill, depth: think.depth, movetime_ms, nodes: None };
            let found = pool::search(&app2.engine, Admission::Always, stop, job).await.ok();
            let mut live = h2.live.lock().await;
            live.thinking = false;
            let stale = live.generation != gen;
            if let Some(r) = found.as_ref().filter(|_| !stale) {
                *h2.engine_eval.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(chimera_session::EngineEval { ply: plies, score: r.score });
            }
            drop(live);
            let best = found.and_then(|r| r.best);
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
    let armed = live
        .remaining(live.turn(), live::now_ms())
        .filter(|_| live.turn_started.is_some() && live.status == live::Status::Active);
    let mut timer = h.timer.lock().unwrap_or_else(|e| e.into_inner());
    // One timer per game: the previous one is for an older turn.
    if let Some(t) = timer.take() {
        t.abort();
    }
    if let Some(rem) = armed {
        let gen = live.generation;
        let (app2, h2) = (app.clone(), h.clone());
        let task = tokio::spawn(async move {
            crate::clock::sleep_until(live::now_ms() + rem.max(0) + 20).await;
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
        *timer = Some(task.abort_handle());
    }
}

/// Wakes the API event streams of the game's accounts on this instance
/// (`botapi`): the game started or ended.
fn wake_players(app: &App, live: &Live) {
    for a in [&live.white_account, &live.black_account].into_iter().flatten() {
        botapi::wake(app, a);
    }
}

/// Brings the held copy of a game up to the store's version if it is
/// behind (a change made on another instance whose notification has not
/// been handled here yet): one read when it is current.
pub(crate) async fn catch_up(app: &App, h: &Arc<GameHandle>) {
    let mut live = h.live.lock().await;
    let stored = store::version_of(&app.db, &live.meta.id).await.ok().flatten();
    if stored.is_some_and(|v| v != live.version) && peers::reload_locked(app, h, &mut live).await.is_ok() {
        drop(live);
        after_change(app, h).await;
    }
}

/// The seats `token` holds in the game. A token unknown to the held copy
/// may have joined on another instance a moment ago: the copy catches up
/// with the store before the answer.
pub(crate) async fn seats_fresh(app: &App, h: &Arc<GameHandle>, token: Option<&str>) -> Vec<Color> {
    let seats = h.live.lock().await.seats_of(token);
    if !seats.is_empty() || token.is_none() {
        return seats;
    }
    catch_up(app, h).await;
    h.live.lock().await.seats_of(token)
}

/// Takes the free seat of an open seek. The store decides who is first
/// (`store::claim_seat` changes the row only while the seat is empty);
/// memory follows the store. Returns the colour.
pub async fn claim_seek(
    app: &App,
    h: &Arc<GameHandle>,
    token: String,
    name: Option<String>,
    player: Option<(String, live::Player)>,
) -> Result<Color, live::JoinError> {
    use live::JoinError;
    let mut live = h.live.lock().await;
    if live.meta.mode != live::Mode::Seek {
        return Err(JoinError::Conflict("only open seeks can be joined without an invite".into()));
    }
    let Some(color) = live.free_seat().filter(|_| live.status == live::Status::Active) else {
        return Err(JoinError::Conflict("someone took this seat first; you can watch the game".into()));
    };
    let won = store::claim_seat(
        &app.db,
        &live.meta.id,
        color,
        &token,
        name.as_deref(),
        player.as_ref().map(|(a, p)| (a.as_str(), p)),
        &app.instance,
    )
    .await
    .map_err(|e| JoinError::Conflict(format!("could not store the join: {e}")))?;
    if !won {
        // Perhaps taken on another instance: show the store's game.
        let _ = peers::reload_locked(app, h, &mut live).await;
        return Err(JoinError::Conflict("someone took this seat first; you can watch the game".into()));
    }
    // Memory follows the store (its version moved on).
    peers::reload_locked(app, h, &mut live).await.map_err(JoinError::Conflict)?;
    wake_players(app, &live);
    // The seek's creator is told, wherever on the site it is.
    let creator = if color == Color::White { live.black_account.clone() } else { live.white_account.clone() };
    if let Some(acc) = creator {
        let by = live.players[if color == Color::White { 0 } else { 1 }].as_ref().map(|p| p.username.clone());
        let data = serde_json::json!({"game": live.meta.id, "url": format!("/game/{}", live.meta.id), "by": by,
            "name": if color == Color::White { live.white_name.clone() } else { live.black_name.clone() },
            "variant": live.meta.variant.name()});
        let app2 = app.clone();
        tokio::spawn(async move { notify::push(&app2, &acc, "seek_taken", data).await });
    }
    drop(live);
    disarm_seek_timer(h);
    after_change(app, h).await;
    Ok(color)
}

/// Cancels an open seek: deleted from the store (only while its seat is
/// still free: a seek joined meanwhile stays; and only as `cond` allows),
/// dropped from memory, and every page on it told (on every instance).
/// True if it was cancelled.
pub async fn cancel_seek(app: &App, id: &str, cond: store::SeekCancel<'_>, why: &str) -> Result<bool, String> {
    let h = app.games.lock().await.get(id).cloned();
    // Under the game's lock, so no join runs in between in this process.
    let guard = match &h {
        Some(h) => Some(h.live.lock().await),
        None => None,
    };
    let gone = store::delete_open_seek(&app.db, id, cond, &app.instance)
        .await
        .map_err(|e| format!("could not cancel the seek: {e}"))?;
    if gone {
        app.forget(id).await;
        if let Some(h) = &h {
            let _ = h.tx.send(Arc::from(serde_json::json!({"t": "gone", "message": why}).to_string()));
        }
    }
    drop(guard);
    Ok(gone)
}

/// The words every page of a seek gets when it goes because its creator left.
pub(crate) const SEEK_LEFT: &str = "the seek was cancelled: its creator left";

fn disarm_seek_timer(h: &GameHandle) {
    if let Some(t) = h.seek_watch.lock().unwrap_or_else(|e| e.into_inner()).1.take() {
        t.abort();
    }
}

/// Arms the timer that cancels an open seek after `seek_grace` unless a
/// page with a seat opens meanwhile.
pub(crate) fn arm_seek_timer(app: &App, h: &Arc<GameHandle>, id: String) {
    let mut w = h.seek_watch.lock().unwrap_or_else(|e| e.into_inner());
    if w.0 > 0 {
        return;
    }
    if let Some(t) = w.1.take() {
        t.abort();
    }
    let (app2, grace) = (app.clone(), app.config.seek_grace);
    let task = tokio::spawn(async move {
        tokio::time::sleep(grace).await;
        // Only if no page opened on another instance meanwhile (it owns the seek then).
        let _ = cancel_seek(&app2, &id, store::SeekCancel::OwnedBy(&app2.instance), SEEK_LEFT).await;
    });
    w.1 = Some(task.abort_handle());
}

/// A page holding a seat of the game opened (`opened`) or closed: while
/// one is open an open seek stays; when the last closes, the timer runs.
pub(crate) async fn seat_page(app: &App, h: &Arc<GameHandle>, opened: bool) {
    let (open_seek, id) = {
        let l = h.live.lock().await;
        (l.is_open_seek(), l.meta.id.clone())
    };
    let left = {
        let mut w = h.seek_watch.lock().unwrap_or_else(|e| e.into_inner());
        if opened {
            w.0 += 1;
            if let Some(t) = w.1.take() {
                t.abort();
            }
        } else {
            w.0 = w.0.saturating_sub(1);
        }
        w.0
    };
    if opened && open_seek {
        // This instance holds the seek's page now: it is this one's to cancel.
        if let Err(e) = store::own_seek(&app.db, &id, &app.instance).await {
            eprintln!("could not take the seek {id}: {e}");
        }
    }
    if !opened && left == 0 && open_seek && !h.live.lock().await.is_lasting_seek() {
        arm_seek_timer(app, h, id);
    }
}

/// A rematch asked by the holder of `token` (from the client address
/// `client`) on the finished game `h`: either an offer (stored and shown to
/// the opponent) or, when it starts now, a new game: admitted as every new
/// game is ([`AppState::admit_game`]), then written with the old game's link
/// to it in one transaction. Returns the new game's id when one was made.
///
/// The store decides, as for moves: the old game's row is written only over
/// the version it was read at. When both players ask at once on two
/// instances, one offer is stored and the other write finds the game
/// changed: that side reloads the game, finds the opponent's offer and
/// accepts it, so exactly one game is made. The new game's id is derived
/// from the old one ([`rematch_id`]), so two creators could not make two
/// games even past the version check (the second hits the primary key).
pub async fn rematch(
    app: &App,
    h: &Arc<GameHandle>,
    token: Option<&str>,
    client: IpAddr,
) -> Result<Option<String>, String> {
    let mut admitted = false;
    for attempt in 0..2 {
        let mut live = h.live.lock().await;
        if attempt > 0 {
            if let Some(id) = &live.rematch_id {
                // Made meanwhile, from the other side's request.
                return Ok(Some(id.clone()));
            }
        }
        let actor = Actor::Seats(live.seats_of(token));
        let mut next = live.clone();
        let start_now = next.ask_rematch(&actor)?;
        let keep = next.game.moves().len();
        next.version = live.version + 1;
        next.owner = Some(app.instance.clone());
        let (saved, made) = if !start_now {
            (store::save(&app.db, &next, keep, &app.instance).await, None)
        } else {
            if !admitted {
                app.admit_game(client, live.meta.mode == live::Mode::Engine).await.map_err(|r| r.message)?;
                // A house bot's rematch is a new game for the bots: within their bound.
                if let (live::Mode::Engine, Some(w), Some(b)) =
                    (live.meta.mode, live.white_account.as_deref(), live.black_account.as_deref())
                {
                    let bots = bots::levels_of(&app.db, [w, b]).await.map_err(|e| e.to_string())?;
                    if bots.iter().any(Option::is_some) && bots::busy(app).await.map_err(|e| e.to_string())?.is_some() {
                        return Err("the house bots are busy with other games: try again in a minute".into());
                    }
                }
                admitted = true;
            }
            let new_id = rematch_id(&live.meta.id);
            let mut new_game = next.rematch_game(new_id.clone())?;
            ratings::seat_players(&app.db, &mut new_game)
                .await
                .map_err(|e| format!("could not read the ratings: {e}"))?;
            new_game.owner = Some(app.instance.clone());
            next.rematch_id = Some(new_id);
            next.rematch_offer = None;
            next.updated_at = live::now_ms();
            next.generation += 1;
            (store::save_with_new(&app.db, &next, keep, &new_game, &app.instance).await, Some(new_game))
        };
        match saved {
            Ok(()) => {}
            Err(store::SaveError::Conflict) if attempt == 0 => {
                peers::reload_locked(app, h, &mut live).await?;
                continue;
            }
            Err(store::SaveError::Conflict) => {
                return Err("the game changed at the same moment on another server; look again and retry".into())
            }
            Err(e) => return Err(format!("could not store the rematch: {e}")),
        }
        let new_id = made.as_ref().map(|g| g.meta.id.clone());
        if let Some(new_game) = made {
            // In memory before anyone hears of it (a page that loads it
            // first would make a second handle).
            app.insert(new_game).await?;
        }
        *live = next;
        let _ = h.tx.send(Arc::from(live.view_from(keep).to_string()));
        return Ok(new_id);
    }
    unreachable!("the loop returns")
}

/// The id of game `id`'s rematch: the first 6 bytes of SHA-256 of the old
/// id, in hex (as long as a random id). Every instance derives the same.
pub fn rematch_id(id: &str) -> String {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(format!("chimera rematch of {id}").as_bytes());
    d[..6].iter().map(|b| format!("{b:02x}")).collect()
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
    shutdown: Option<tokio::sync::watch::Sender<bool>>,
    join: Option<tokio::task::JoinHandle<()>>,
}

impl Server {
    /// Opens the store in `data_dir` and listens on `addr` (port 0 = any)
    /// with the default limits.
    pub async fn start(addr: &str, data_dir: &Path) -> Result<Server, String> {
        Server::start_with(addr, data_dir, Config::default()).await
    }

    pub async fn start_with(addr: &str, data_dir: &Path, config: Config) -> Result<Server, String> {
        Server::start_at(addr, &store::Location::Dir(data_dir.to_path_buf()), config).await
    }

    /// Opens the store at `at` (a data directory, or a database URL shared
    /// with other instances) and listens on `addr`.
    pub async fn start_at(addr: &str, at: &store::Location, config: Config) -> Result<Server, String> {
        // Room for the requests, the heartbeat and the reloads of other
        // instances' changes (PostgreSQL: the notifications have their own).
        let connections = match at {
            store::Location::Dir(_) => 4,
            store::Location::Url(_) => 16,
        };
        // Every connection and socket is a descriptor: the most the system allows.
        net::raise_fd_limit();
        clock::follow_env();
        let db = store::open_at(at, connections).await?;
        let instance = random_hex(8);
        let (dir_lock, predecessor) = match at {
            store::Location::Dir(d) => match dir_lock(d, &instance)? {
                Some((f, prev)) => (Some(f), prev),
                None => (None, None),
            },
            store::Location::Url(_) => (None, None),
        };
        let (tx, rx) = tokio::sync::watch::channel(false);
        let per = |n: u32| NonZeroU32::new(n.max(1)).expect("at least one");
        let creations = RateLimiter::keyed(
            Quota::with_period(config.create_period.max(Duration::from_millis(1)))
                .expect("a non-zero period")
                .allow_burst(per(config.create_burst)),
        );
        let signups = RateLimiter::keyed(
            Quota::with_period(config.signup_period.max(Duration::from_millis(1)))
                .expect("a non-zero period")
                .allow_burst(per(config.signup_burst)),
        );
        let app = Arc::new(AppState {
            api: tokens::Limits::new(&config),
            streams: botapi::Streams::default(),
            reviews: workers::Queue::default(),
            signups,
            notes: notify::Hub::default(),
            push: webpush::Sender::default(),
            throttles: accounts::Throttles::default(),
            db,
            store_at: at.clone(),
            instance,
            started_at: live::now_ms(),
            engine: Pool::new(config.engine_workers, config.engine_queue),
            cpu: Pool::new(config.cpu_workers, config.cpu_queue),
            conns: net::Conns::new(config.max_connections, config.max_connections_per_client),
            creations,
            failed_joins: FailedJoins::new(config.failed_join_burst, config.failed_join_window),
            dir_lock: std::sync::Mutex::new(dir_lock),
            sockets: net::Sockets::new(net::SocketLimits {
                max_seat: config.max_seat_sockets,
                seat_per_client: config.seat_sockets_per_client,
                max_spectators: config.max_spectators,
                spectators_per_client: config.spectators_per_client,
            }),
            config,
            games: Mutex::new(HashMap::new()),
            shutdown: rx.clone(),
        });
        // In the store before the first game names it as owner.
        store::heartbeat(&app.db, &app.instance, app.started_at)
            .await
            .map_err(|e| format!("cannot register this instance in the store: {e}"))?;
        if let Err(e) = bots::ensure(&app.db).await {
            eprintln!("house bots: cannot make their accounts: {e}");
        }
        if let Some(prev) = predecessor.filter(|p| *p != app.instance) {
            take_over_predecessor(&app, &prev).await;
        }
        let listener =
            tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let router = web::router(app.clone());
        // Games nobody uses leave memory; the rate limiters forget quiet clients.
        let (app2, mut rx2) = (app.clone(), rx.clone());
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(app2.config.sweep_every) => {}
                    _ = rx2.changed() => return,
                }
                app2.sweep().await;
                app2.sweep_limits();
            }
        });
        // The heartbeat, the takeover of dead instances' games and seeks,
        // and (PostgreSQL) the other instances' changes.
        peers::spawn(&app, rx.clone()).await?;
        pairing::spawn(&app);
        workers::spawn(&app, rx.clone());
        explorer::spawn(&app, rx.clone());
        let join = tokio::spawn(net::serve(listener, router, app.clone(), rx));
        Ok(Server { addr, app, shutdown: Some(tx), join: Some(join) })
    }

    /// Stops accepting, closes WebSockets with a reason, leaves the
    /// instances table (the others take over its games at once), closes
    /// the store.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(true);
        }
        if let Some(j) = self.join.take() {
            let _ = tokio::time::timeout(Duration::from_secs(3), j).await;
        }
        if let Err(e) = store::unregister(&self.app.db, &self.app.instance).await {
            eprintln!("could not leave the instances table: {e}");
        }
        self.app.db.close().await;
        // The data directory is free for the next process.
        self.app.dir_lock.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

/// `chimera serve`: builds its own tokio runtime, prints the URL and where
/// the games are stored, serves until killed.
pub fn run(addr: &str, at: &store::Location, config: Config) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let files = net::raise_fd_limit();
    let budgets = config.max_connections + config.max_seat_sockets + config.max_spectators;
    let done = rt.block_on(async {
        let mut server = Server::start_at(addr, at, config).await?;
        println!("Chimera is serving at http://{}/", server.addr);
        println!("Games are stored in {}", at.describe());
        if let Some(n) = files.filter(|&n| n < budgets as u64 + 256) {
            eprintln!(
                "warning: {n} open files at most (ulimit -n), fewer than the connection and socket budgets ({budgets}) need: accepting pauses when they run out"
            );
        }
        // SIGINT (Ctrl-C) or SIGTERM: a clean stop, as `Server::stop`
        // does it (sockets closed with a reason, streams ended, the
        // instances table left so the others take the games over at once).
        let finished = match server.join.as_mut() {
            Some(j) => tokio::select! {
                _ = j => true,
                _ = stop_signal() => false,
            },
            None => true,
        };
        if !finished {
            eprintln!("Stopping: closing sockets and streams, leaving the store");
            server.stop().await;
        }
        Ok(())
    });
    // A search still running (the engine's threads) does not hold the exit.
    rt.shutdown_timeout(Duration::from_secs(2));
    done
}

/// Waits for SIGINT or (Unix) SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate()).ok();
        let term = async {
            match term.as_mut() {
                Some(t) => {
                    t.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

pub(crate) fn color_name(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}
