//! Several instances on one store. Each instance:
//!
//! - renews its row in `instances` every `Config::heartbeat_every`;
//! - takes over the games with something due (a running clock, the engine
//!   to move) whose owner has been silent for `Config::takeover_after`
//!   (`store::take_over`: one conditional UPDATE, so each game gets one new
//!   owner), loads them and arms their clock or starts their engine;
//! - cancels the open seeks whose pages all went with a dead instance;
//! - on PostgreSQL, listens for the other instances' changes (`LISTEN`; the
//!   change's transaction sends the `NOTIFY`, delivered on commit) and
//!   reloads each changed game it holds, sending its clients the new moves.
//!   A notification lost while the listening connection was down is made
//!   good by comparing every held game's version with the store's.
//!
//! Correctness never rests on the notifications: a change is stored only
//! over the version it was made from (`store::save`), so an instance that
//! has not heard of a change yet fails to store its own, reloads, and
//! decides again (`crate::change`).

use crate::live::{now_ms, Live};
use crate::{after_change, store, App, GameHandle};
use std::sync::Arc;
use std::time::Duration;

/// Starts this instance's background work (see the module text). Returns
/// once the listening connection (PostgreSQL) is up, so that no change
/// made after start-up is missed.
pub(crate) async fn spawn(app: &App, shutdown: tokio::sync::watch::Receiver<bool>) -> Result<(), String> {
    let (app2, mut rx) = (app.clone(), shutdown.clone());
    tokio::spawn(async move {
        let mut beats: u64 = 0;
        loop {
            tokio::select! {
                _ = tokio::time::sleep(app2.config.heartbeat_every) => {}
                _ = rx.changed() => return,
            }
            beats += 1;
            beat(&app2, beats).await;
        }
    });
    if let store::Location::Url(url) = &app.store_at {
        if chimera_store::backend(&app.db) == chimera_store::Backend::Postgres {
            let mut listener = sqlx::postgres::PgListener::connect(url)
                .await
                .map_err(|e| format!("cannot listen for the other instances' changes: {e}"))?;
            listener
                .listen(store::CHANNEL)
                .await
                .map_err(|e| format!("cannot listen for the other instances' changes: {e}"))?;
            let (app3, mut rx3) = (app.clone(), shutdown);
            tokio::spawn(async move {
                loop {
                    let n = tokio::select! {
                        n = listener.try_recv() => n,
                        _ = rx3.changed() => return,
                    };
                    match n {
                        // Each in a task of its own: a game's reload never
                        // waits for another game's. (Two of one game are
                        // safe in any order: a reload loads the newest.)
                        Ok(Some(n)) => {
                            let (app4, payload) = (app3.clone(), n.payload().to_string());
                            tokio::spawn(async move { notice(&app4, &payload).await });
                        }
                        // The connection dropped and comes back on the next
                        // call: what was sent meanwhile is lost, so compare.
                        Ok(None) => resync(&app3).await,
                        Err(e) => {
                            eprintln!("listening for other instances' changes: {e}; retrying");
                            tokio::time::sleep(Duration::from_secs(1)).await;
                        }
                    }
                }
            });
        }
    }
    Ok(())
}

/// One heartbeat: the instance's row renewed, dead instances' games taken
/// over, orphaned seeks cancelled (every fifth beat).
async fn beat(app: &App, beats: u64) {
    if let Err(e) = store::heartbeat(&app.db, &app.instance, app.started_at).await {
        eprintln!("heartbeat: {e}");
        return;
    }
    let now = now_ms();
    let alive_since = now - app.config.takeover_after.as_millis() as i64;
    crate::ratings::settle_pending(app).await;
    if beats.is_multiple_of(600) {
        crate::notify::sweep(app).await;
    }
    match store::take_over(&app.db, &app.instance, alive_since).await {
        Ok(ids) => {
            for id in ids {
                take(app, &id).await;
            }
        }
        Err(e) => eprintln!("taking over games: {e}"),
    }
    // Seeks: only once a creator had the grace period to come back to
    // this instance after a restart.
    let grace = app.config.seek_grace.as_millis() as i64;
    if beats.is_multiple_of(5) && now - app.started_at >= grace {
        let alive_since = now - grace;
        if let Ok(ids) = store::orphan_seek_ids(&app.db, alive_since).await {
            for id in ids {
                let watched = match app.games.lock().await.get(&id) {
                    Some(h) => h.seek_watch.lock().unwrap_or_else(|e| e.into_inner()).0 > 0,
                    None => false,
                };
                if !watched {
                    let _ =
                        crate::cancel_seek(app, &id, store::SeekCancel::Orphan { alive_since }, crate::SEEK_LEFT).await;
                }
            }
        }
    }
}

/// A game this instance now owns: loaded (or reloaded), its due time
/// written as worked out here, and its clock or engine started.
pub(crate) async fn take(app: &App, id: &str) {
    let held = app.games.lock().await.get(id).cloned();
    let h = match held {
        Some(h) => {
            {
                let mut live = h.live.lock().await;
                if let Err(e) = reload_locked(app, &h, &mut live).await {
                    eprintln!("taking over game {id}: {e}");
                    return;
                }
            }
            after_change(app, &h).await;
            h
        }
        // Loading runs `after_change`.
        None => match app.game(id).await {
            Ok(Some(h)) => h,
            Ok(None) => return,
            Err(e) => {
                eprintln!("taking over game {id}: {e}");
                return;
            }
        },
    };
    let due = h.live.lock().await.due_at();
    if let Err(e) = store::set_due(&app.db, id, due).await {
        eprintln!("taking over game {id}: {e}");
    }
}

/// A notification `"{id} {version} {instance}"`: another instance changed
/// (version -1: deleted) a game; a copy held here is reloaded.
async fn notice(app: &App, payload: &str) {
    if payload.starts_with('@') {
        crate::notify::heard(app, payload).await;
        return;
    }
    let mut parts = payload.split(' ');
    let (Some(id), Some(version), Some(from)) = (parts.next(), parts.next(), parts.next()) else { return };
    let Ok(version) = version.parse::<i64>() else { return };
    if from == app.instance {
        return;
    }
    let Some(h) = app.games.lock().await.get(id).cloned() else { return };
    if version < 0 {
        gone(app, &h, id).await;
        return;
    }
    {
        let mut live = h.live.lock().await;
        if live.version >= version {
            return;
        }
        if let Err(e) = reload_locked(app, &h, &mut live).await {
            eprintln!("reloading game {id}: {e}");
            return;
        }
    }
    after_change(app, &h).await;
}

/// Every held game whose stored version differs is reloaded (after the
/// listening connection was down).
async fn resync(app: &App) {
    let held: Vec<(String, Arc<GameHandle>)> =
        app.games.lock().await.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    for (id, h) in held {
        match store::version_of(&app.db, &id).await {
            Ok(None) => gone(app, &h, &id).await,
            Ok(Some(v)) => {
                {
                    let mut live = h.live.lock().await;
                    if live.version == v {
                        continue;
                    }
                    if let Err(e) = reload_locked(app, &h, &mut live).await {
                        eprintln!("reloading game {id}: {e}");
                        continue;
                    }
                }
                after_change(app, &h).await;
            }
            Err(e) => eprintln!("comparing game {id} with the store: {e}"),
        }
    }
}

/// A game deleted by another instance (a cancelled seek): its pages here
/// are told, and it leaves memory.
async fn gone(app: &App, h: &Arc<GameHandle>, id: &str) {
    app.forget(id).await;
    let msg = serde_json::json!({"t": "gone", "message": "the seek was cancelled"});
    let _ = h.tx.send(Arc::from(msg.to_string()));
}

/// Replaces the held game (`live`, locked by the caller) with the store's,
/// stops a search made for the old one, and sends the clients what
/// changed: the history from the first ply that differs. The caller runs
/// `after_change` once the lock is dropped.
pub(crate) async fn reload_locked(app: &App, h: &Arc<GameHandle>, live: &mut Live) -> Result<(), String> {
    let id = live.meta.id.clone();
    let Some(mut fresh) = store::load_game(&app.db, &app.cpu, &id).await? else {
        return Err(format!("game {id} is no longer in the store"));
    };
    let same = live.game.moves().iter().zip(fresh.game.moves()).take_while(|(a, b)| a == b).count();
    fresh.generation = live.generation + 1;
    fresh.thinking = false;
    h.stop_engine();
    *live = fresh;
    let _ = h.tx.send(Arc::from(live.view_from(same).to_string()));
    Ok(())
}
