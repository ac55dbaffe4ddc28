//! The server's HTTP and WebSocket services on SQLite and PostgreSQL, one
//! test binary for the files below (each a module of it): each integration
//! test binary links the whole server (tokio, axum, sqlx) again, so the
//! tests that need no process of their own share one (docs/testing.md).
//! Run one file's tests with its module's name as the filter, e.g.
//! `cargo test -p chimera-server --test services puzzles::`.

mod common;

#[path = "accounts.rs"]
mod accounts;
#[path = "api.rs"]
mod api;
#[path = "challenges.rs"]
mod challenges;
#[path = "instances.rs"]
mod instances;
#[path = "load.rs"]
mod load;
#[path = "lobby.rs"]
mod lobby;
#[path = "pairing.rs"]
mod pairing;
#[path = "puzzles.rs"]
mod puzzles;
#[path = "ratings.rs"]
mod ratings;
#[path = "upgrade.rs"]
mod upgrade;
#[path = "webpush.rs"]
mod webpush;
