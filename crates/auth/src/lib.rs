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
//! - [`hash_password`], [`verify_password`], [`needs_rehash`],
//!   [`verify_dummy`]: Argon2id at the OWASP Password Storage Cheat Sheet's
//!   parameters (19 MiB, 2 passes, 1 lane), stored as PHC strings.
//! - [`SessionId`], [`ApiToken`], [`StorageKey`]: 256-bit secrets from the
//!   operating system's CSPRNG, and the SHA-256 form the store keeps instead.
//!
//! `docs/accounts.md` describes the rules for a newcomer, with the numbers
//! and where they come from.
//!
//! ## Hashing is slow on purpose
//!
//! [`hash_password`], [`verify_password`] and [`verify_dummy`] each cost one
//! Argon2id computation: about 20-50 ms of one core and 19 MiB of memory.
//! The API is synchronous; an async server must run them on a blocking
//! thread (`tokio::task::spawn_blocking`), never on a runtime worker, and
//! bound how many run at once (log-in throttling limits attempts, not
//! concurrency).

mod hash;
mod password;
mod secret;
mod username;

pub use hash::{
    hash_password, needs_rehash, verify_dummy, verify_password, HashError, ARGON2_ITERATIONS, ARGON2_MEMORY_KIB,
    ARGON2_OUTPUT_LEN, ARGON2_PARALLELISM, SALT_LEN,
};
pub use password::{
    check_new_password, common_password_count, is_common_password, normalize_password, PasswordError,
    MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS, SERVICE_WORDS,
};
pub use secret::{ApiToken, RandomnessError, SessionId, StorageKey, API_TOKEN_PREFIX, SECRET_BYTES};
pub use username::{Username, UsernameError, RESERVED_PREFIXES, RESERVED_USERNAMES, USERNAME_REGEX};
