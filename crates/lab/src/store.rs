//! The lab's tables in the server's SQLite file (`DIR/chimera.sqlite3`).
//! Its migrations are `crates/lab/migrations/`, numbered from 1001, compiled
//! in; the lab's migrator and the server's share sqlx's migration table and
//! each ignores the other's versions. Queries are plain SQL with `$n`
//! placeholders, which SQLite and PostgreSQL both read.

use crate::spec::StudySpec;
use crate::LabError;
use serde::Serialize;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};
use std::path::Path;

/// The database the lab uses: the server's pool type.
pub type Db = SqlitePool;

const MIGRATIONS: &[(i64, &str, &str)] = &[(1001, "lab", include_str!("../migrations/1001_lab.sql"))];

/// A list of migrations compiled in (`(version, description, SQL)`), as
/// sqlx's `MigrationSource`: the server's list and the lab's both go
/// through it. (The `sqlx::migrate!` macro does the same but needs sqlx's
/// `macros` feature, a second build of sqlx for the host.)
#[derive(Debug)]
pub struct Embedded(pub &'static [(i64, &'static str, &'static str)]);

impl sqlx::migrate::MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<Vec<sqlx::migrate::Migration>, sqlx::error::BoxDynError>> + Send>,
    > {
        Box::pin(async move {
            Ok(self
                .0
                .iter()
                .map(|&(v, d, sql)| {
                    sqlx::migrate::Migration::new(v, d.into(), sqlx::migrate::MigrationType::Simple, sql.into(), false)
                })
                .collect())
        })
    }
}

/// Applies `list` to `db`, leaving versions it does not know alone (the
/// server's and the lab's migrations share sqlx's table), and surviving a
/// second process migrating the same new file at once ([`run_migrator`]).
pub async fn apply(list: &'static [(i64, &'static str, &'static str)], db: &Db) -> Result<(), String> {
    let mut m = sqlx::migrate::Migrator::new(Embedded(list)).await.map_err(|e| format!("bad migration: {e}"))?;
    m.set_ignore_missing(true);
    run_migrator(&m, db).await.map_err(|e| format!("database migration failed: {e}"))
}

/// Applies the lab's migrations to `db` (the server's, already applied or
/// not, are left alone).
pub async fn migrate(db: &Db) -> Result<(), LabError> {
    apply(MIGRATIONS, db).await.map_err(|e| LabError::Store(format!("lab {e}")))
}

/// Runs `m` on `db`, tolerating another process migrating the same new
/// file at the same moment (`chimera serve`, `lab run` and `lab list` may
/// all open a store that does not exist yet). SQLite's migrator checks
/// what is applied before it takes the write lock, so the process that
/// loses the race fails on its `CREATE TABLE` (its transaction rolls back,
/// nothing half-done); running it again then finds the migration applied.
pub async fn run_migrator(m: &sqlx::migrate::Migrator, db: &Db) -> Result<(), sqlx::migrate::MigrateError> {
    let mut tries = 0u64;
    loop {
        match m.run(db).await {
            Ok(()) => return Ok(()),
            Err(_) if tries < 5 => {
                tries += 1;
                tokio::time::sleep(std::time::Duration::from_millis(50 * tries)).await;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Opens (or creates) `data_dir/chimera.sqlite3`, as `chimera serve --data
/// data_dir` does, and applies the lab's migrations. A file that is not a
/// SQLite database is an error that names it.
pub async fn open(data_dir: &Path) -> Result<Db, LabError> {
    std::fs::create_dir_all(data_dir)
        .map_err(|e| LabError::Store(format!("cannot create data directory {}: {e}", data_dir.display())))?;
    let file = data_dir.join("chimera.sqlite3");
    let pool = connect(&file, 2).await.map_err(|e| {
        LabError::Store(format!("cannot open the store {} (is it a chimera database?): {e}", file.display()))
    })?;
    migrate(&pool).await.map_err(|e| LabError::Store(format!("{}: {e}", file.display())))?;
    Ok(pool)
}

/// A pool on the SQLite file `file` (created if missing) as the server and
/// the lab both use it: WAL with `synchronous = NORMAL` (a crash of the
/// process never loses or corrupts a committed change; only a power cut may
/// lose the last ones), a 10 s busy timeout, foreign keys on. Switching a
/// brand-new file to WAL needs a moment of exclusive access that the busy
/// timeout does not cover, so a "database is locked" while another process
/// opens the same new file at once is retried (a few times, with backoff).
pub async fn connect(file: &Path, max_connections: u32) -> Result<SqlitePool, sqlx::Error> {
    let opts = SqliteConnectOptions::new()
        .filename(file)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(std::time::Duration::from_secs(10))
        .foreign_keys(true);
    let mut tries = 0u64;
    loop {
        match SqlitePoolOptions::new().max_connections(max_connections).connect_with(opts.clone()).await {
            Err(e) if tries < 8 && e.to_string().contains("locked") => {
                tries += 1;
                tokio::time::sleep(std::time::Duration::from_millis(25 * tries)).await;
            }
            other => return other,
        }
    }
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
    pub ring_powers: String,
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

fn study_from_row(r: &sqlx::sqlite::SqliteRow) -> Result<StoredStudy, LabError> {
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
            sqlx::query(
                "INSERT INTO lab_studies (id, variant, ring_powers, spec, games_target, engine, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(id)
            .bind(&spec.variant)
            .bind(&spec.ring_powers)
            .bind(spec.to_json())
            .bind(games_target as i64)
            .bind(engine)
            .bind(t)
            .bind(t)
            .execute(db)
            .await
            .map_err(db_err)?;
            get_study(db, id).await
        }
        Err(e) => Err(e),
    }
}

/// Every study with its progress, by id.
pub async fn list_studies(db: &Db) -> Result<Vec<StudySummary>, LabError> {
    let rows = sqlx::query(
        "SELECT s.id, s.spec, s.variant, s.ring_powers, s.games_target, \
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
            ring_powers: r.try_get("ring_powers").map_err(db_err)?,
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

/// Stores one finished game in its own transaction (one statement). A game
/// number already stored (another run of the same study got there first)
/// is left as it is: returns `false`.
pub async fn insert_game(db: &Db, study: &str, g: &GameRow) -> Result<bool, LabError> {
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
    .execute(db)
    .await
    .map_err(db_err)?;
    Ok(done.rows_affected() == 1)
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
