//! A throwaway PostgreSQL cluster for tests: `initdb` in a temporary
//! directory, `pg_ctl start` on a free loopback port (trust auth, unix
//! socket in the same directory), stopped and removed on drop. As root
//! (initdb refuses root) the cluster runs as the `postgres` user of
//! Debian's package, or `nobody`. `scripts/setup-postgres.sh` installs the
//! package when it is missing; `CHIMERA_SKIP_POSTGRES=1` skips these tests,
//! loudly.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

pub struct PgCluster {
    dir: PathBuf,
    bin: PathBuf,
    user: Option<&'static str>,
    pub port: u16,
    databases: AtomicU32,
}

/// The directory holding `initdb` and `pg_ctl`: PATH first, then Debian's
/// `/usr/lib/postgresql/N/bin` (newest first).
fn bin_dir() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("PATH") {
        for d in std::env::split_paths(&path) {
            if d.join("initdb").is_file() && d.join("pg_ctl").is_file() {
                return Some(d);
            }
        }
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let v = e.file_name().to_string_lossy().parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            (bin.join("initdb").is_file() && bin.join("pg_ctl").is_file()).then_some((v, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, b)| b)
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false)
}

fn user_exists(name: &str) -> bool {
    Command::new("id").arg(name).output().map(|o| o.status.success()).unwrap_or(false)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

impl PgCluster {
    /// Starts a cluster, or returns None after saying so on stderr when
    /// `CHIMERA_SKIP_POSTGRES=1`. Panics with what to do when PostgreSQL
    /// is not installed.
    pub fn start(test: &str) -> Option<PgCluster> {
        if std::env::var("CHIMERA_SKIP_POSTGRES").is_ok_and(|v| v == "1") {
            eprintln!("SKIPPED (CHIMERA_SKIP_POSTGRES=1): {test} needs PostgreSQL and was not run");
            return None;
        }
        let Some(bin) = bin_dir() else {
            panic!(
                "{test} needs PostgreSQL's initdb and pg_ctl (Debian: apt-get install postgresql; \
                 scripts/setup-postgres.sh does it), or CHIMERA_SKIP_POSTGRES=1 to skip it"
            );
        };
        let user = if is_root() { Some(if user_exists("postgres") { "postgres" } else { "nobody" }) } else { None };
        let dir = std::env::temp_dir().join(format!("chimera-pg-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        if let Some(u) = user {
            let ok = Command::new("chown").arg(u).arg(&dir).status().map(|s| s.success()).unwrap_or(false);
            assert!(ok, "cannot give {} to the user {u}", dir.display());
            // The user must reach the directory through its parents.
            let _ = Command::new("chmod").arg("o+x").arg(std::env::temp_dir()).status();
        }
        let mut c = PgCluster { dir, bin, user, port: 0, databases: AtomicU32::new(0) };
        let data = c.dir.join("data");
        let out = c
            .cmd("initdb")
            .arg("-D")
            .arg(&data)
            .args(["-A", "trust", "-U", "chimera", "-E", "UTF8", "--no-sync"])
            .output()
            .expect("initdb runs");
        assert!(out.status.success(), "initdb failed: {}", String::from_utf8_lossy(&out.stderr));
        // A port taken between the probe and the start is retried.
        for _ in 0..5 {
            c.port = free_port();
            let opts = format!(
                "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
                c.port,
                c.dir.display()
            );
            let st = c
                .cmd("pg_ctl")
                .arg("-D")
                .arg(&data)
                .args(["-o", &opts, "-l"])
                .arg(c.dir.join("log"))
                .args(["-w", "-t", "60", "start"])
                .output()
                .expect("pg_ctl runs");
            if st.status.success() {
                return Some(c);
            }
        }
        panic!("PostgreSQL did not start: {}", std::fs::read_to_string(c.dir.join("log")).unwrap_or_default());
    }

    fn cmd(&self, tool: &str) -> Command {
        match self.user {
            Some(u) => {
                let mut c = Command::new("runuser");
                c.args(["-u", u, "--"]).arg(self.bin.join(tool));
                c
            }
            None => Command::new(self.bin.join(tool)),
        }
    }

    /// A new empty database; its URL.
    pub async fn database(&self) -> String {
        let n = self.databases.fetch_add(1, Ordering::SeqCst);
        let name = format!("t{n}");
        let admin = format!("postgres://chimera@127.0.0.1:{}/postgres", self.port);
        let t0 = Instant::now();
        loop {
            sqlx::any::install_default_drivers();
            match sqlx::AnyPool::connect(&admin).await {
                Ok(p) => {
                    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&p).await.expect("CREATE DATABASE");
                    p.close().await;
                    break;
                }
                Err(e) if t0.elapsed() > Duration::from_secs(30) => panic!("cannot reach PostgreSQL: {e}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
        format!("postgres://chimera@127.0.0.1:{}/{name}", self.port)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let _ = self.cmd("pg_ctl").arg("-D").arg(self.dir.join("data")).args(["-m", "immediate", "stop"]).output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
