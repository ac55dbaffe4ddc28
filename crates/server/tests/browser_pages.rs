//! Real-browser tests of the pages (headless Chromium through
//! chromedriver), one test binary for the files below (each a module of
//! it; docs/testing.md says why). Run one file's tests with its module's
//! name as the filter, e.g. `cargo test -p chimera-server --test
//! browser_pages browser_csp::`. The board's tests (`browser_board.rs`),
//! the lab's and the one that moves the test clock (`browser_opponents.rs`)
//! are binaries of their own.

mod common;

#[path = "browser.rs"]
mod browser;
#[path = "browser_accounts.rs"]
mod browser_accounts;
#[path = "browser_csp.rs"]
mod browser_csp;
