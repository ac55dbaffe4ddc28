//! # chimera-store
//!
//! Chimera's store: the database that `chimera serve` keeps its games in
//! and `chimera lab` its studies. Either the SQLite file
//! `DIR/chimera.sqlite3` of a data directory (the default: one binary,
//! nothing to install) or a PostgreSQL database (`--database
//! postgres://...`, when several instances share it), both through sqlx's
//! `Any` driver, so one code path serves both; queries are plain SQL with
//! `$n` placeholders, which SQLite and PostgreSQL both read.
//!
//! This crate owns what the server and the lab share: where the store is
//! ([`Location`]), opening it ([`connect_at`], [`connect`], [`connect_url`],
//! [`open_at`]), which back end it is ([`Backend`], [`backend`]), URLs
//! fit to print ([`redact`]), and the schema: [`MIGRATIONS`], one ordered
//! sequence for every table of the server and of the lab, compiled in
//! ([`Embedded`]) and applied by [`migrate`] (or [`apply`] for a list of
//! one's own, as tests building an older schema do). The queries on the
//! tables stay with their owners: `chimera_server::store` for the games,
//! `chimera_lab::store` for the studies.
//!
//! ## The migration sequence
//!
//! `crates/store/migrations/`, applied in order of version, each recorded
//! in sqlx's table `_sqlx_migrations` with a SHA-384 checksum of its SQL;
//! every start checks the recorded checksums against the compiled files.
//! Stores written before this crate existed recorded two sequences in that
//! one table: the server's (versions 1 to 4) and the lab's (1001 and 1002,
//! applied by a second migrator that ignored the server's versions, and
//! the other way round). The files moved here keep their versions and
//! their exact bytes (`.gitattributes` keeps git from touching them), so
//! such a store's recorded rows are exactly this sequence's: it opens and
//! takes any newer migration in place, with no rewriting of sqlx's table
//! (crates/server/tests/upgrade.rs opens stores written by the release of
//! ef93987, SQLite and PostgreSQL). A store written by `chimera lab` alone
//! has 1001 and 1002 and gets 1 to 4 on its next open (sqlx applies what
//! is missing, whatever its version).
//!
//! Rules: a new migration is a new file with the next version (1014, then
//! up) and a line in [`MIGRATIONS`]; an applied file is never edited, not
//! even a comment (its checksum would no longer match the stores that
//! applied it, which then refuse to open). A store that records a version
//! this binary does not know was upgraded by a newer release: it is
//! refused, with a message that says so, rather than written with an older
//! schema.

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{MigrateError, Migration, MigrationSource, MigrationType, Migrator};
use sqlx::{AnyPool, ConnectOptions, Connection, Executor};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The database: a pool of sqlx's `Any` driver, on SQLite or PostgreSQL.
pub type Db = AnyPool;

/// The one migration sequence, `(version, description, SQL)`, in order:
/// the web games (1 to 4), the lab's studies (1001, 1002), then both
/// (1003: rule options in one column), accounts (1004), ratings (1005),
/// ratings kept with each seat and seeks' rating ranges (1006),
/// correspondence games (1007), challenges and notifications (1008), quick
/// pairing's pools (1009), Web Push subscriptions, the server's keys and
/// the notification sockets' presence (1010), house bots (1011), personal
/// API tokens (1012), game reviews (1013), analysis workers and review jobs
/// (1014), the web pages' look chosen by an account (1015), the opening
/// explorer (1016), the lesson steps an account has finished (1017),
/// puzzle ratings and rounds (1018). The next migration is 1019.
pub const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "games", include_str!("../migrations/0001_games.sql")),
    (2, "invites", include_str!("../migrations/0002_invites.sql")),
    (3, "seeks names rematch", include_str!("../migrations/0003_seeks_names_rematch.sql")),
    (4, "instances", include_str!("../migrations/0004_instances.sql")),
    (1001, "lab", include_str!("../migrations/1001_lab.sql")),
    (1002, "lab claims", include_str!("../migrations/1002_lab_claims.sql")),
    (1003, "rule options", include_str!("../migrations/1003_rule_options.sql")),
    (1004, "accounts", include_str!("../migrations/1004_accounts.sql")),
    (1005, "ratings", include_str!("../migrations/1005_ratings.sql")),
    (1006, "seat ratings", include_str!("../migrations/1006_seat_ratings.sql")),
    (1007, "correspondence", include_str!("../migrations/1007_correspondence.sql")),
    (1008, "challenges notifications", include_str!("../migrations/1008_challenges_notifications.sql")),
    (1009, "pairing pools", include_str!("../migrations/1009_pairing_pools.sql")),
    (1010, "web push", include_str!("../migrations/1010_web_push.sql")),
    (1011, "house bots", include_str!("../migrations/1011_house_bots.sql")),
    (1012, "api tokens", include_str!("../migrations/1012_api_tokens.sql")),
    (1013, "reviews", include_str!("../migrations/1013_reviews.sql")),
    (1014, "review jobs", include_str!("../migrations/1014_review_jobs.sql")),
    (1015, "account prefs", include_str!("../migrations/1015_account_prefs.sql")),
    (1016, "explorer", include_str!("../migrations/1016_explorer.sql")),
    (1017, "learn progress", include_str!("../migrations/1017_learn_progress.sql")),
    (1018, "puzzles", include_str!("../migrations/1018_puzzles.sql")),
];

/// Where the store is: the SQLite file in a data directory, or a database
/// URL (`postgres://...` when several machines share it; `sqlite://...`
/// works too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Dir(PathBuf),
    Url(String),
}

impl Location {
    /// `--database URL` (or `CHIMERA_DATABASE_URL`) when given, else the
    /// SQLite file of `--data DIR`.
    pub fn new(data_dir: &Path, database: Option<&str>) -> Location {
        match database.map(str::trim).filter(|u| !u.is_empty()) {
            Some(u) => Location::Url(u.to_string()),
            None => Location::Dir(data_dir.to_path_buf()),
        }
    }

    /// What to tell a person: the file, or the URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Location::Dir(d) => {
                let shown = std::fs::canonicalize(d).unwrap_or_else(|_| d.clone());
                shown.join("chimera.sqlite3").display().to_string()
            }
            Location::Url(u) => redact(u),
        }
    }
}

/// A database URL with its password replaced by `***` (for messages and
/// logs; the password itself is never printed).
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        Ok(u) => u.to_string(),
        Err(_) => "(an unreadable database URL)".into(),
    }
}

/// Which database a pool talks to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// `sqlite` or `postgres` (as `/api/health` reports it).
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// The back end of `db`, from its URL's scheme.
pub fn backend(db: &Db) -> Backend {
    if db.connect_options().database_url.scheme().starts_with("postgres") {
        Backend::Postgres
    } else {
        Backend::Sqlite
    }
}

/// A list of migrations compiled in (`(version, description, SQL)`), as
/// sqlx's `MigrationSource`. (The `sqlx::migrate!` macro does the same but
/// needs sqlx's `macros` feature, a second build of sqlx for the host.)
#[derive(Debug)]
pub struct Embedded(pub &'static [(i64, &'static str, &'static str)]);

impl Embedded {
    /// The list as sqlx's migrations (each with the checksum that sqlx
    /// records and checks).
    pub fn migrations(&self) -> Vec<Migration> {
        self.0
            .iter()
            .map(|&(v, d, sql)| Migration::new(v, d.into(), MigrationType::Simple, sql.into(), false))
            .collect()
    }
}

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Vec<Migration>, sqlx::error::BoxDynError>> + Send>>
    {
        Box::pin(async move { Ok(self.migrations()) })
    }
}

/// Brings `db` up to [`MIGRATIONS`]: applies what it lacks, in order.
/// Several processes opening one store at once are fine ([`apply`]).
pub async fn migrate(db: &Db) -> Result<(), String> {
    apply(MIGRATIONS, db).await
}

/// Applies `list` to `db`: every version missing from sqlx's table, in
/// order; a version already applied must have the same checksum. A store
/// that records a version missing from `list` (written by a newer release)
/// is refused. Survives a second process migrating the same new store at
/// the same moment ([`run_migrator`]).
pub async fn apply(list: &'static [(i64, &'static str, &'static str)], db: &Db) -> Result<(), String> {
    let m = Migrator::new(Embedded(list)).await.map_err(|e| format!("bad migration: {e}"))?;
    run_migrator(&m, db).await.map_err(|e| match e {
        MigrateError::VersionMissing(v) => format!(
            "the store records schema migration {v}, which this chimera does not have: \
             a newer release upgraded it; run that release (or newer)"
        ),
        MigrateError::VersionMismatch(v) => format!(
            "the store's schema migration {v} differs from this chimera's (checksum): \
             the store was made by a modified build; it is left as it is"
        ),
        e => format!("database migration failed: {e}"),
    })
}

/// Runs `m` on `db`, tolerating another process migrating the same new
/// store at the same moment (`chimera serve`, `lab run` and `lab list` may
/// all open a store that does not exist yet). SQLite's migrator checks
/// what is applied before it takes the write lock, so the process that
/// loses the race fails on its `CREATE TABLE` (its transaction rolls back,
/// nothing half-done); running it again then finds the migration applied.
/// (On PostgreSQL, sqlx's advisory lock serialises the migrators.) A
/// version unknown to `m` or a checksum that differs is not retried.
pub async fn run_migrator(m: &Migrator, db: &Db) -> Result<(), MigrateError> {
    let mut tries = 0u64;
    loop {
        match m.run(db).await {
            Ok(()) => return Ok(()),
            Err(e @ (MigrateError::VersionMissing(_) | MigrateError::VersionMismatch(_))) => return Err(e),
            Err(_) if tries < 5 => {
                tries += 1;
                tokio::time::sleep(std::time::Duration::from_millis(50 * tries)).await;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Opens the store at `at` (created if missing) with up to `connections`
/// connections and brings its schema up to date ([`migrate`]). Errors name
/// the file or the URL (password hidden).
pub async fn open_at(at: &Location, connections: u32) -> Result<Db, String> {
    let pool = connect_at(at, connections).await?;
    if let Err(e) = migrate(&pool).await {
        pool.close().await;
        return Err(format!("{}: {e}", at.describe()));
    }
    Ok(pool)
}

/// A pool on the store at `at` (a data directory is created if missing),
/// no migrations applied. Errors name the file or the URL (password
/// hidden).
pub async fn connect_at(at: &Location, max_connections: u32) -> Result<Db, String> {
    match at {
        Location::Dir(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create data directory {}: {e}", dir.display()))?;
            let file = dir.join("chimera.sqlite3");
            connect(&file, max_connections)
                .await
                .map_err(|e| format!("cannot open the store {} (is it a chimera database?): {e}", file.display()))
        }
        Location::Url(url) => connect_url(url, max_connections)
            .await
            .map_err(|e| format!("cannot open the database {}: {e}", redact(url))),
    }
}

/// A pool on a database URL: `postgres://user:password@host:port/db` or
/// `sqlite://path` (the same settings as [`connect`]).
pub async fn connect_url(url: &str, max_connections: u32) -> Result<Db, sqlx::Error> {
    sqlx::any::install_default_drivers();
    let parsed = url::Url::parse(url).map_err(|e| sqlx::Error::Configuration(e.to_string().into()))?;
    match parsed.scheme() {
        "postgres" | "postgresql" => {
            let opts = AnyConnectOptions::from_str(url)?;
            // One connection first: its error says what is wrong (refused,
            // no such database, bad password) where the pool's would only
            // say that it timed out.
            let mut first = sqlx::AnyConnection::connect_with(&opts).await?;
            let _ = first.ping().await;
            let _ = sqlx::Connection::close(first).await;
            AnyPoolOptions::new()
                .max_connections(max_connections)
                .acquire_timeout(std::time::Duration::from_secs(10))
                .connect_with(opts)
                .await
        }
        "sqlite" => {
            let opts = sqlx::sqlite::SqliteConnectOptions::from_str(url)?;
            connect_sqlite(opts.create_if_missing(true), max_connections).await
        }
        other => Err(sqlx::Error::Configuration(
            format!("unsupported database URL scheme '{other}': use postgres://... or sqlite://...").into(),
        )),
    }
}

/// A pool on the SQLite file `file` (created if missing) as the server and
/// the lab both use it: WAL with `synchronous = NORMAL` (a crash of the
/// process never loses or corrupts a committed change; only a power cut may
/// lose the last ones), a 10 s busy timeout, foreign keys on. Switching a
/// brand-new file to WAL needs a moment of exclusive access that the busy
/// timeout does not cover, so a "database is locked" while another process
/// opens the same new file at once is retried (a few times, with backoff).
pub async fn connect(file: &Path, max_connections: u32) -> Result<Db, sqlx::Error> {
    sqlx::any::install_default_drivers();
    let opts = sqlx::sqlite::SqliteConnectOptions::new().filename(file).create_if_missing(true);
    connect_sqlite(opts, max_connections).await
}

/// The `Any` driver reads SQLite's options from the URL only, so the
/// settings of [`connect`] are set on each new connection instead.
async fn connect_sqlite(opts: sqlx::sqlite::SqliteConnectOptions, max_connections: u32) -> Result<Db, sqlx::Error> {
    let any = AnyConnectOptions::from_url(&opts.to_url_lossy())?;
    let mut tries = 0u64;
    loop {
        let pool = AnyPoolOptions::new().max_connections(max_connections).after_connect(|conn, _| {
            Box::pin(async move {
                conn.execute(
                    "PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                     PRAGMA foreign_keys = ON;",
                )
                .await
                .map(|_| ())
            })
        });
        match pool.connect_with(any.clone()).await {
            Err(e) if tries < 8 && e.to_string().contains("locked") => {
                tries += 1;
                tokio::time::sleep(std::time::Duration::from_millis(25 * tries)).await;
            }
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_strictly_increasing() {
        for w in MIGRATIONS.windows(2) {
            assert!(w[0].0 < w[1].0, "{} then {}", w[0].0, w[1].0);
        }
    }

    /// The checksums that stores written by earlier releases recorded (the
    /// SHA-384 of each file, as sqlx computes it): editing an applied file,
    /// even its comments or line endings, breaks every such store's start.
    #[test]
    fn applied_migrations_keep_their_checksums() {
        let pinned: &[(i64, &str)] = &[
            (1, "3872bcd4aecbf8fd"),
            (2, "dd18129a5aa5026b"),
            (3, "8fefb6ff16f6fe60"),
            (4, "1faec1b63a020aa5"),
            (1001, "901c8949bcbcb471"),
            (1002, "e8b2e52b355e92bf"),
            (1003, "d770399a63131d04"),
            (1004, "fafb38d9557ff172"),
            (1005, "910b252f7be0a2a4"),
            (1006, "0bcd162eff3cc545"),
            (1007, "904d95f75df8cbf8"),
            (1008, "42239d7529cc9491"),
            (1009, "c4901680b8436466"),
            (1010, "27598c54f412c049"),
            (1011, "6d98fa441da62b2c"),
            (1012, "cf81e73c0eed2d26"),
            (1013, "f3db37f955d56808"),
            (1014, "e5ca76b9a5c2e93a"),
            (1015, "b5c7442a91c32e68"),
            (1016, "777aea678528477b"),
            (1017, "5d7390b850afce3f"),
            (1018, "d3003b29ed61019d"),
        ];
        let got: Vec<(i64, String)> = Embedded(MIGRATIONS)
            .migrations()
            .iter()
            .map(|m| (m.version, m.checksum.iter().take(8).map(|b| format!("{b:02x}")).collect()))
            .collect();
        let want: Vec<(i64, String)> = pinned.iter().map(|&(v, h)| (v, h.to_string())).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn redact_hides_the_password_only() {
        assert_eq!(redact("postgres://u:secret@h:5432/db"), "postgres://u:***@h:5432/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("not a url"), "(an unreadable database URL)");
    }

    #[test]
    fn location_prefers_a_database_url() {
        let d = Path::new("/tmp/x");
        assert_eq!(Location::new(d, Some(" postgres://h/db ")), Location::Url("postgres://h/db".into()));
        assert_eq!(Location::new(d, Some("  ")), Location::Dir(d.into()));
        assert_eq!(Location::new(d, None), Location::Dir(d.into()));
    }
}
