//! The server's clock: milliseconds since the Unix epoch, the time every
//! game clock, correspondence deadline, session expiry and heartbeat is
//! reckoned in.
//!
//! Tests move it forward instead of waiting days: [`advance`] within a
//! process, or, for `chimera serve` processes, the file named by the
//! environment variable `CHIMERA_TEST_CLOCK` (its content, a whole number of
//! milliseconds, is added to the system clock; it is read every 100 ms). A
//! timer waiting in [`sleep_until`] wakes when the clock is moved and looks
//! again, so a deadline passed by a jump is acted on at once.

use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;
use tokio::sync::Notify;

/// Milliseconds added to the system clock (0 outside tests).
static OFFSET: AtomicI64 = AtomicI64::new(0);

fn moved() -> &'static Notify {
    static MOVED: OnceLock<Notify> = OnceLock::new();
    MOVED.get_or_init(Notify::new)
}

/// The time now, in ms since the epoch.
pub fn now_ms() -> i64 {
    let system =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0);
    system + OFFSET.load(Ordering::SeqCst)
}

/// Moves this process's clock forward by `by` (for tests); every
/// [`sleep_until`] looks again.
pub fn advance(by: Duration) {
    OFFSET.fetch_add(by.as_millis() as i64, Ordering::SeqCst);
    moved().notify_waiters();
}

/// Sets the clock's offset from the system clock to `ms` if it moves it
/// forward (the clock never goes back).
fn set_offset(ms: i64) {
    if OFFSET.fetch_max(ms, Ordering::SeqCst) < ms {
        moved().notify_waiters();
    }
}

/// Follows `CHIMERA_TEST_CLOCK` when it is set (once per process).
pub(crate) fn follow_env() {
    static FOLLOWING: OnceLock<()> = OnceLock::new();
    let Some(path) = std::env::var_os("CHIMERA_TEST_CLOCK").map(PathBuf::from) else { return };
    FOLLOWING.get_or_init(|| {
        eprintln!("test clock: following {}", path.display());
        tokio::spawn(async move {
            loop {
                if let Some(ms) = std::fs::read_to_string(&path).ok().and_then(|t| t.trim().parse::<i64>().ok()) {
                    set_offset(ms);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
    });
}

/// Waits until the clock reads `at` (ms since the epoch). A deadline days
/// away is slept in hour-long steps; a move of the clock wakes it early.
pub async fn sleep_until(at: i64) {
    loop {
        let notified = moved().notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        let now = now_ms();
        if now >= at {
            return;
        }
        let wait = Duration::from_millis((at - now).min(3_600_000) as u64);
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = notified => {}
        }
    }
}
