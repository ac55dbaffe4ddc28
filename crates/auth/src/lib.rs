//! # chimera-auth
//!
//! The credential rules and primitives of Chimera's accounts, one place for
//! the web server (and any later front end) to ask, with no I/O of its own:
//! no database, no clock, no network. The server keeps the rows and the
//! counters; this crate says what they may hold and what they mean.
//!
//! - [`Username`]: the sign-up rules for names (2-20 characters of
//!   `A-Za-z0-9_-`, lichess's shape, [`RESERVED_USERNAMES`]) and the
//!   case-blind [`Username::key`] that the store's unique index uses.
//! - [`check_new_password`]: the password policy of NIST SP 800-63B
//!   §5.1.1.2: a length of 8 to 128 characters, no composition rules, not on
//!   the shipped list of 10,000 common passwords ([`is_common_password`]), not
//!   the username.
//!
//! `docs/accounts.md` describes the rules for a newcomer, with the numbers
//! and where they come from.

mod password;
mod username;

pub use password::{
    check_new_password, common_password_count, is_common_password, normalize_password, PasswordError,
    MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS, SERVICE_WORDS,
};
pub use username::{Username, UsernameError, RESERVED_PREFIXES, RESERVED_USERNAMES, USERNAME_REGEX};
