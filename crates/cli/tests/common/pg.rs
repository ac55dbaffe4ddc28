//! A throwaway PostgreSQL cluster for tests: `initdb` in a temporary
//! directory, `pg_ctl start` on a free loopback port (127.0.0.1 only, the
//! unix socket in that directory), trust authentication, a fresh database
//! per test; dropped, it is stopped (`pg_ctl stop -m immediate`) and its
//! directory removed.
//!
//! The binaries come from `CHIMERA_PG_BIN` (a directory), else PATH, else
//! Debian's `/usr/lib/postgresql/*/bin` (newest first); `scripts/setup-postgres.sh`
//! installs them. initdb refuses to run as root, so as root the cluster runs
//! as the unprivileged user `postgres` (Debian's package creates it), else
//! `nobody`, through `runuser` (or `setpriv`), in a directory that user owns.
//!
//! `CHIMERA_SKIP_POSTGRES=1` skips the tests that need it, with a line on
//! stderr; without it, missing binaries are a failure that says what to do.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The superuser initdb makes; every URL connects as it.
pub const USER: &str = "chimera";

static SEQ: AtomicUsize = AtomicUsize::new(0);

pub struct PgCluster {
    bin: PathBuf,
    dir: PathBuf,
    data: PathBuf,
    port: u16,
    /// Some(user) when the cluster runs as another (unprivileged) user.
    run_as: Option<String>,
}

/// True (after printing the SKIPPED line) when `CHIMERA_SKIP_POSTGRES=1`.
pub fn skip(what: &str) -> bool {
    if std::env::var("CHIMERA_SKIP_POSTGRES").as_deref() == Ok("1") {
        eprintln!("SKIPPED (CHIMERA_SKIP_POSTGRES=1): {what}: needs a PostgreSQL cluster");
        return true;
    }
    false
}

fn has_bins(d: &Path) -> bool {
    ["initdb", "pg_ctl", "postgres", "createdb", "psql"].iter().all(|b| d.join(b).is_file())
}

/// The directory holding initdb, pg_ctl, postgres, createdb and psql.
pub fn find_bin_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("CHIMERA_PG_BIN") {
        let d = PathBuf::from(d);
        return has_bins(&d).then_some(d);
    }
    if let Some(path) = std::env::var_os("PATH") {
        for p in std::env::split_paths(&path) {
            let pg_ctl = p.join("pg_ctl");
            if pg_ctl.is_file() {
                // Debian links a few of them into PATH: follow the link to the
                // directory that holds them all.
                let real = std::fs::canonicalize(&pg_ctl).unwrap_or(pg_ctl);
                if let Some(d) = real.parent().filter(|d| has_bins(d)) {
                    return Some(d.to_path_buf());
                }
                if has_bins(&p) {
                    return Some(p);
                }
            }
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| {
            let v = e.file_name().to_string_lossy().split('.').next()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            has_bins(&bin).then_some((v, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, d)| d)
}

fn is_root() -> bool {
    // The effective uid, from procfs (no libc call needed).
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(2) == Some("0")))
        .unwrap_or(false)
}

fn id_of(user: &str, flag: &str) -> Option<u32> {
    let out = Command::new("id").arg(flag).arg(user).stderr(Stdio::null()).output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

fn tail(path: &Path) -> String {
    let s = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

fn show(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Runs `cmd`, killing it after `limit` (every wait here is bounded).
fn run_bounded(mut cmd: Command, limit: Duration) -> Result<Output, String> {
    let child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(|e| format!("{cmd:?}: {e}"))?;
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(r) => r.map_err(|e| e.to_string()),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            Err(format!("{cmd:?} did not finish within {limit:?}"))
        }
    }
}

impl PgCluster {
    /// A cluster for tests: `fsync=off` (the tests kill server instances,
    /// never PostgreSQL, so nothing depends on its writes reaching the disk).
    /// `None` (after printing the SKIPPED line) when `CHIMERA_SKIP_POSTGRES=1`.
    pub fn start_or_skip(what: &str) -> Option<PgCluster> {
        if skip(what) {
            return None;
        }
        Some(Self::start(false))
    }

    /// Starts a cluster; `durable` keeps PostgreSQL's default `fsync=on` (for
    /// measurements). Panics with what to do when the binaries are missing.
    pub fn start(durable: bool) -> PgCluster {
        let bin = find_bin_dir().unwrap_or_else(|| {
            panic!(
                "PostgreSQL's server binaries (initdb, pg_ctl, postgres, createdb, psql) were not found in \
                 CHIMERA_PG_BIN, PATH or /usr/lib/postgresql/*/bin: install them with \
                 `scripts/setup-postgres.sh` (Debian: apt-get install postgresql), or skip the PostgreSQL \
                 tests with CHIMERA_SKIP_POSTGRES=1"
            )
        });
        let run_as = if is_root() {
            let user = ["postgres", "nobody"].into_iter().find(|u| id_of(u, "-u").is_some()).unwrap_or_else(|| {
                panic!("running as root, and initdb refuses root: no user 'postgres' or 'nobody' to run the cluster as")
            });
            Some(user.to_string())
        } else {
            None
        };
        let n = SEQ.fetch_add(1, Ordering::Relaxed);
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().subsec_nanos();
        // Short: the unix socket's path (DIR/.s.PGSQL.PORT) must fit in 107 bytes.
        let dir = std::env::temp_dir().join(format!("chimera-pg-{}-{n}-{nanos:x}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the cluster's directory");
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
                .expect("chmod the cluster's directory");
        }
        if let Some(u) = &run_as {
            let (uid, gid) = (id_of(u, "-u"), id_of(u, "-g"));
            std::os::unix::fs::chown(&dir, uid, gid).unwrap_or_else(|e| panic!("chown {} to {u}: {e}", dir.display()));
        }
        let data = dir.join("data");
        let mut c = PgCluster { bin, dir, data, port: 0, run_as };
        let mut init = c.cmd("initdb");
        init.arg("-D").arg(&c.data).args(["-U", USER, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"]);
        let out = run_bounded(init, Duration::from_secs(120)).unwrap_or_else(|e| panic!("initdb: {e}"));
        assert!(out.status.success(), "initdb failed:\n{}", show(&out));
        // A free port: the kernel picks one, we let it go and start on it; if
        // another process took it meanwhile, pick again (5 tries).
        let mut last = String::new();
        for _ in 0..5 {
            let port =
                std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
            let mut opts = format!(
                "-p {port} -k {} -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=64MB",
                c.dir.display()
            );
            if !durable {
                opts.push_str(" -c fsync=off -c full_page_writes=off");
            }
            let log = c.dir.join("postgres.log");
            let mut start = c.cmd("pg_ctl");
            start.arg("start").arg("-D").arg(&c.data).arg("-l").arg(&log).args(["-w", "-t", "60", "-o", &opts]);
            let out = run_bounded(start, Duration::from_secs(90)).unwrap_or_else(|e| panic!("pg_ctl start: {e}"));
            if out.status.success() {
                c.port = port;
                return c;
            }
            last = format!("{}\n--- postgres.log ---\n{}", show(&out), tail(&log));
            if !last.contains("could not bind") && !last.contains("could not create") {
                break;
            }
        }
        panic!("pg_ctl start failed:\n{last}");
    }

    /// A command of the cluster's binaries, run as the cluster's user.
    fn cmd(&self, prog: &str) -> Command {
        let exe = self.bin.join(prog);
        let mut c = match &self.run_as {
            Some(u) if Path::new("/usr/sbin/runuser").exists() || Path::new("/sbin/runuser").exists() => {
                let mut c = Command::new("runuser");
                c.arg("-u").arg(u).arg("--").arg(exe);
                c
            }
            Some(u) => {
                let mut c = Command::new("setpriv");
                c.arg(format!("--reuid={u}")).arg(format!("--regid={u}")).arg("--init-groups").arg(exe);
                c
            }
            None => Command::new(exe),
        };
        // The user may not reach the test's working directory.
        c.current_dir(&self.dir).env_remove("PGDATA").env_remove("PGPORT").env_remove("PGHOST");
        c
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The PID of the postmaster (first line of postmaster.pid).
    pub fn postmaster_pid(&self) -> Option<u32> {
        std::fs::read_to_string(self.data.join("postmaster.pid")).ok()?.lines().next()?.trim().parse().ok()
    }

    /// The URL of database `db` on this cluster.
    pub fn url(&self, db: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{db}", self.port)
    }

    /// Makes a fresh, empty database and returns its URL.
    pub fn fresh_database(&self, tag: &str) -> String {
        let n = SEQ.fetch_add(1, Ordering::Relaxed);
        let name: String = format!("{tag}_{n}")
            .chars()
            .map(|ch| if ch.is_ascii_alphanumeric() { ch.to_ascii_lowercase() } else { '_' })
            .collect();
        let mut c = Command::new(self.bin.join("createdb"));
        c.args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", USER, &name]);
        let out = run_bounded(c, Duration::from_secs(60)).unwrap_or_else(|e| panic!("createdb: {e}"));
        assert!(out.status.success(), "createdb {name} failed:\n{}", show(&out));
        self.url(&name)
    }

    /// Runs one SQL statement on the database of `url` through psql;
    /// returns its rows unaligned, fields separated by `|`.
    pub fn psql(&self, url: &str, sql: &str) -> Result<String, String> {
        let mut c = Command::new(self.bin.join("psql"));
        c.args(["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql]);
        let out = run_bounded(c, Duration::from_secs(60))?;
        if !out.status.success() {
            return Err(show(&out));
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }
}

impl PgCluster {
    /// Runs the SQL file `path` (a plain `pg_dump`, say) on the database of
    /// `url` through psql, stopping at the first error.
    pub fn psql_file(&self, url: &str, path: &Path) -> Result<String, String> {
        let mut c = Command::new(self.bin.join("psql"));
        c.args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f"]).arg(path);
        let out = run_bounded(c, Duration::from_secs(120))?;
        if !out.status.success() {
            return Err(show(&out));
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        if self.port != 0 {
            let mut stop = self.cmd("pg_ctl");
            stop.arg("stop").arg("-D").arg(&self.data).args(["-m", "immediate", "-w", "-t", "30"]);
            let stopped = matches!(run_bounded(stop, Duration::from_secs(40)), Ok(o) if o.status.success());
            if !stopped {
                if let Some(pid) = self.postmaster_pid() {
                    let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
                }
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
