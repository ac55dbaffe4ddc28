//! The lab's tables in the store (`chimera_store`): studies, their games,
//! the runners' claims and the kept piece-value fits. Opening the store
//! and its schema (the lab's tables are migrations 1001 and 1002 of the
//! one sequence) are the store crate's; the queries here are plain SQL with
//! `$n` placeholders, which SQLite and PostgreSQL both read.

use crate::spec::StudySpec;
use crate::LabError;
use serde::Serialize;
use sqlx::any::AnyRow;
use sqlx::Row;
use std::path::Path;

pub use chimera_store::{Db, Location};

/// Opens (or creates) `data_dir/chimera.sqlite3`, as `chimera serve --data
/// data_dir` does, with its schema brought up to date. A file that is not
/// a SQLite database is an error that names it.
pub async fn open(data_dir: &Path) -> Result<Db, LabError> {
    open_at(&Location::Dir(data_dir.to_path_buf())).await
}

/// Opens the store at `at` with its schema brought up to date (the whole
/// sequence: the server's tables too, so that `chimera serve` and `chimera
/// lab` can open one store in either order).
pub async fn open_at(at: &Location) -> Result<Db, LabError> {
    chimera_store::open_at(at, 2).await.map_err(LabError::Store)
}

/// A study as stored.
#[derive(Clone, Debug, Serialize)]
pub struct StoredStudy {
    pub id: String,
    pub spec: StudySpec,
    pub games_target: u64,
    /// The engine that played (version and a fingerprint of its evaluation values).
    pub engine: String,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A study in the list, with its progress.
#[derive(Clone, Debug, Serialize)]
pub struct StudySummary {
    pub id: String,
    pub variant: String,
    /// The rule options in their text form (empty: the defaults).
    pub rule_options: String,
    pub description: String,
    pub games_target: u64,
    pub games: u64,
    /// White wins, draws, Black wins.
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
}

/// One stored game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRow {
    pub k: u64,
    /// `1-0`, `1/2-1/2` or `0-1`.
    pub result: String,
    pub termination: String,
    /// Random plies at the start of `moves`, before the engine played.
    pub opening_plies: usize,
    /// Every move from the start position (or the book's), as move strings
    /// separated by spaces, the random opening included.
    pub moves: String,
    /// The engine's score for White after each engine move (centipawns,
    /// mates ±30000), separated by spaces.
    pub scores: String,
    pub pgn: String,
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

fn db_err(e: sqlx::Error) -> LabError {
    LabError::Store(e.to_string())
}

/// A study id: 1 to 64 of `A-Z a-z 0-9 . _ -`.
pub fn check_id(id: &str) -> Result<(), LabError> {
    if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) {
        return Err(LabError::BadInput(format!("bad study id '{id}': use 1 to 64 letters, digits, '.', '_' or '-'")));
    }
    Ok(())
}

fn study_from_row(r: &AnyRow) -> Result<StoredStudy, LabError> {
    let id: String = r.try_get("id").map_err(db_err)?;
    let spec: String = r.try_get("spec").map_err(db_err)?;
    let spec: StudySpec = serde_json::from_str(&spec)
        .map_err(|e| LabError::Store(format!("study {id}: its stored options are unreadable ({e})")))?;
    Ok(StoredStudy {
        id,
        spec,
        games_target: r.try_get::<i64, _>("games_target").map_err(db_err)?.max(0) as u64,
        engine: r.try_get("engine").map_err(db_err)?,
        created_at: r.try_get("created_at").map_err(db_err)?,
        updated_at: r.try_get("updated_at").map_err(db_err)?,
    })
}

/// The study `id`, or [`LabError::NoSuchStudy`].
pub async fn get_study(db: &Db, id: &str) -> Result<StoredStudy, LabError> {
    let row =
        sqlx::query("SELECT * FROM lab_studies WHERE id = $1").bind(id).fetch_optional(db).await.map_err(db_err)?;
    match row {
        Some(r) => study_from_row(&r),
        None => Err(LabError::NoSuchStudy(id.to_string())),
    }
}

/// Creates the study, or checks that the stored one has the same spec and
/// engine; a larger `games_target` extends it (a smaller one is kept).
pub async fn create_or_check(
    db: &Db,
    id: &str,
    spec: &StudySpec,
    games_target: u64,
    engine: &str,
) -> Result<StoredStudy, LabError> {
    check_id(id)?;
    spec.validate()?;
    match get_study(db, id).await {
        Ok(s) => {
            let diff = s.spec.differences(spec);
            if !diff.is_empty() {
                return Err(LabError::Mismatch(format!(
                    "study {id} was started with other options ({}); resume it with its own options (give none) or choose another study id",
                    diff.join("; ")
                )));
            }
            if s.engine != engine {
                return Err(LabError::Mismatch(format!(
                    "study {id} was played by engine {} and this is {engine}: its games would mix two engines; start a new study",
                    s.engine
                )));
            }
            if games_target > s.games_target {
                sqlx::query("UPDATE lab_studies SET games_target = $1, updated_at = $2 WHERE id = $3")
                    .bind(games_target as i64)
                    .bind(now())
                    .bind(id)
                    .execute(db)
                    .await
                    .map_err(db_err)?;
            }
            get_study(db, id).await
        }
        Err(LabError::NoSuchStudy(_)) => {
            let t = now();
            // Another runner may create it at the same moment: its row is
            // kept and checked like any stored study.
            let created = sqlx::query(
                "INSERT INTO lab_studies (id, variant, rule_options, spec, games_target, engine, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING",
            )
            .bind(id)
            .bind(&spec.variant)
            .bind(&spec.rules)
            .bind(spec.to_json())
            .bind(games_target as i64)
            .bind(engine)
            .bind(t)
            .bind(t)
            .execute(db)
            .await
            .map_err(db_err)?;
            if created.rows_affected() == 0 {
                return Box::pin(create_or_check(db, id, spec, games_target, engine)).await;
            }
            get_study(db, id).await
        }
        Err(e) => Err(e),
    }
}

/// Every study with its progress, by id.
pub async fn list_studies(db: &Db) -> Result<Vec<StudySummary>, LabError> {
    let rows = sqlx::query(
        "SELECT s.id, s.spec, s.variant, s.rule_options, s.games_target, \
         (SELECT COUNT(*) FROM lab_games g WHERE g.study_id = s.id) AS n, \
         (SELECT COUNT(*) FROM lab_games g WHERE g.study_id = s.id AND g.result = '1-0') AS w, \
         (SELECT COUNT(*) FROM lab_games g WHERE g.study_id = s.id AND g.result = '1/2-1/2') AS d, \
         (SELECT COUNT(*) FROM lab_games g WHERE g.study_id = s.id AND g.result = '0-1') AS b \
         FROM lab_studies s ORDER BY s.id",
    )
    .fetch_all(db)
    .await
    .map_err(db_err)?;
    let mut out = Vec::new();
    for r in rows {
        let id: String = r.try_get("id").map_err(db_err)?;
        let spec: String = r.try_get("spec").map_err(db_err)?;
        let description = serde_json::from_str::<StudySpec>(&spec)
            .map(|s| s.describe())
            .unwrap_or_else(|_| "unreadable options".into());
        let get = |name: &str| r.try_get::<i64, _>(name).map(|v| v.max(0) as u64).map_err(db_err);
        out.push(StudySummary {
            id,
            variant: r.try_get("variant").map_err(db_err)?,
            rule_options: r.try_get("rule_options").map_err(db_err)?,
            description,
            games_target: get("games_target")?,
            games: get("n")?,
            white_wins: get("w")?,
            draws: get("d")?,
            black_wins: get("b")?,
        });
    }
    Ok(out)
}

/// The game numbers already stored for the study.
pub async fn stored_numbers(db: &Db, id: &str) -> Result<Vec<u64>, LabError> {
    let rows = sqlx::query("SELECT k FROM lab_games WHERE study_id = $1 ORDER BY k")
        .bind(id)
        .fetch_all(db)
        .await
        .map_err(db_err)?;
    rows.iter().map(|r| r.try_get::<i64, _>("k").map(|k| k as u64).map_err(db_err)).collect()
}

/// Stores one finished game in its own transaction, with its claim (if
/// any) marked done. A game number already stored (another run of the same
/// study got there first) is left as it is: returns `false`.
pub async fn insert_game(db: &Db, study: &str, g: &GameRow) -> Result<bool, LabError> {
    let mut tx = db.begin().await.map_err(db_err)?;
    let done = sqlx::query(
        "INSERT INTO lab_games (study_id, k, result, termination, opening_plies, plies, moves, scores, pgn, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (study_id, k) DO NOTHING",
    )
    .bind(study)
    .bind(g.k as i64)
    .bind(&g.result)
    .bind(&g.termination)
    .bind(g.opening_plies as i64)
    .bind(g.moves.split_whitespace().count() as i64)
    .bind(&g.moves)
    .bind(&g.scores)
    .bind(&g.pgn)
    .bind(now())
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    sqlx::query("UPDATE lab_claims SET done = 1 WHERE study_id = $1 AND k = $2")
        .bind(study)
        .bind(g.k as i64)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(done.rows_affected() == 1)
}

/// A claim not renewed for this long is taken to be its runner's, dead.
pub const CLAIM_LEASE_SECS: i64 = 20;

/// A runner's name in `lab_claims.owner`: host, process id, random part.
pub fn runner_id() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty() && !h.contains(':'))
        .unwrap_or_else(|| "host".into());
    let mut r = [0u8; 4];
    let _ = getrandom::getrandom(&mut r);
    format!("{host}:{}:{:08x}", std::process::id(), u32::from_le_bytes(r))
}

/// True when `owner` names a process of this host that is gone (Linux: no
/// `/proc/PID`), so its claims need not wait out the lease (a study
/// resumed after a kill -9 on the same machine goes on at once).
fn dead_here(owner: &str, me: &str) -> bool {
    let (Some((host, rest)), Some((my_host, _))) = (owner.split_once(':'), me.split_once(':')) else {
        return false;
    };
    let Some(pid) = rest.split(':').next().and_then(|p| p.parse::<u32>().ok()) else { return false };
    host == my_host
        && pid != std::process::id()
        && Path::new("/proc/self").exists()
        && !Path::new(&format!("/proc/{pid}")).exists()
}

/// What a claim attempt found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Claimed {
    /// The numbers this runner holds now, to play.
    pub mine: Vec<u64>,
    /// Missing numbers held by live claims of other runners.
    pub held_elsewhere: u64,
    /// Missing numbers in all (stored games excluded).
    pub missing: u64,
}

/// Claims up to `n` more game numbers of the study that are neither stored
/// nor claimed already (by this runner, or by another's live claim), lowest
/// first, in one transaction.
/// Each number is taken by one conditional statement on the claims' key,
/// so of two runners racing for a number exactly one gets it; an expired
/// claim (or one of a dead process on this host) is taken over the same
/// way.
pub async fn claim_batch(db: &Db, study: &str, target: u64, owner: &str, n: usize) -> Result<Claimed, LabError> {
    let t = now();
    let stored: std::collections::HashSet<u64> = stored_numbers(db, study).await?.into_iter().collect();
    let rows = sqlx::query("SELECT k, owner, claimed_at FROM lab_claims WHERE study_id = $1 AND done = 0")
        .bind(study)
        .fetch_all(db)
        .await
        .map_err(db_err)?;
    let mut live = std::collections::HashSet::new();
    let mut in_hand = std::collections::HashSet::new();
    let mut taken_over = std::collections::HashSet::new();
    for r in &rows {
        let k = r.try_get::<i64, _>("k").map_err(db_err)? as u64;
        let o: String = r.try_get("owner").map_err(db_err)?;
        let at: i64 = r.try_get("claimed_at").map_err(db_err)?;
        if o == owner {
            in_hand.insert(k);
        } else if at >= t - CLAIM_LEASE_SECS && !dead_here(&o, owner) {
            live.insert(k);
        } else {
            taken_over.insert((k, o));
        }
    }
    let missing: Vec<u64> = (0..target).filter(|k| !stored.contains(k)).collect();
    let mut out = Claimed { missing: missing.len() as u64, ..Default::default() };
    let mut tx = db.begin().await.map_err(db_err)?;
    for &k in &missing {
        if out.mine.len() >= n {
            break;
        }
        if in_hand.contains(&k) {
            // Claimed by this runner already, in its queue or being played.
            continue;
        }
        if live.contains(&k) {
            out.held_elsewhere += 1;
            continue;
        }
        // A new claim, or the takeover of an expired one (checked again
        // here, in the statement: the row may have been renewed since).
        let dead_owner = taken_over.iter().find(|(kk, _)| *kk == k).map(|(_, o)| o.clone()).unwrap_or_default();
        let r = sqlx::query(
            "INSERT INTO lab_claims (study_id, k, owner, claimed_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (study_id, k) DO UPDATE SET owner = excluded.owner, claimed_at = excluded.claimed_at \
             WHERE lab_claims.done = 0 AND (lab_claims.claimed_at < $5 OR lab_claims.owner = $6)",
        )
        .bind(study)
        .bind(k as i64)
        .bind(owner)
        .bind(t)
        .bind(t - CLAIM_LEASE_SECS)
        .bind(&dead_owner)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
        if r.rows_affected() == 1 {
            out.mine.push(k);
        } else {
            out.held_elsewhere += 1;
        }
    }
    tx.commit().await.map_err(db_err)?;
    Ok(out)
}

/// Renews every claim `owner` holds on the study (its runner is alive).
pub async fn renew_claims(db: &Db, study: &str, owner: &str) -> Result<(), LabError> {
    sqlx::query("UPDATE lab_claims SET claimed_at = $1 WHERE study_id = $2 AND owner = $3")
        .bind(now())
        .bind(study)
        .bind(owner)
        .execute(db)
        .await
        .map_err(db_err)?;
    Ok(())
}

/// Gives back the claims `owner` still holds (a stopped run's unplayed games).
pub async fn release_claims(db: &Db, study: &str, owner: &str) -> Result<(), LabError> {
    sqlx::query("DELETE FROM lab_claims WHERE study_id = $1 AND owner = $2 AND done = 0")
        .bind(study)
        .bind(owner)
        .execute(db)
        .await
        .map_err(db_err)?;
    Ok(())
}

/// Every stored game of the study, by number.
pub async fn load_games(db: &Db, id: &str) -> Result<Vec<GameRow>, LabError> {
    let rows = sqlx::query(
        "SELECT k, result, termination, opening_plies, moves, scores, pgn FROM lab_games WHERE study_id = $1 ORDER BY k",
    )
    .bind(id)
    .fetch_all(db)
    .await
    .map_err(db_err)?;
    rows.iter()
        .map(|r| {
            Ok(GameRow {
                k: r.try_get::<i64, _>("k").map_err(db_err)? as u64,
                result: r.try_get("result").map_err(db_err)?,
                termination: r.try_get("termination").map_err(db_err)?,
                opening_plies: r.try_get::<i64, _>("opening_plies").map_err(db_err)?.max(0) as usize,
                moves: r.try_get("moves").map_err(db_err)?,
                scores: r.try_get("scores").map_err(db_err)?,
                pgn: r.try_get("pgn").map_err(db_err)?,
            })
        })
        .collect()
}

/// Keeps the piece-value fit (JSON) of a study made from `games` games.
pub async fn save_fit(db: &Db, id: &str, games: u64, fit_json: &str) -> Result<(), LabError> {
    sqlx::query(
        "INSERT INTO lab_fits (study_id, games, fit, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (study_id) DO UPDATE SET games = excluded.games, fit = excluded.fit, created_at = excluded.created_at",
    )
    .bind(id)
    .bind(games as i64)
    .bind(fit_json)
    .bind(now())
    .execute(db)
    .await
    .map_err(db_err)?;
    Ok(())
}

/// The kept fit of a study and the number of games it was made from.
pub async fn load_fit(db: &Db, id: &str) -> Result<Option<(u64, String)>, LabError> {
    let row = sqlx::query("SELECT games, fit FROM lab_fits WHERE study_id = $1")
        .bind(id)
        .fetch_optional(db)
        .await
        .map_err(db_err)?;
    match row {
        Some(r) => {
            Ok(Some((r.try_get::<i64, _>("games").map_err(db_err)?.max(0) as u64, r.try_get("fit").map_err(db_err)?)))
        }
        None => Ok(None),
    }
}
