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
//! - [`ThrottlePolicy`]: when the next log-in attempt is allowed, per account
//!   ([`ThrottlePolicy::ACCOUNT`]: 5 failures, then 15 minutes) and per client
//!   address ([`ThrottlePolicy::ADDRESS`]), from two integers of state.
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
//!
//! ## A log-in, end to end
//!
//! ```
//! use chimera_auth::{
//!     hash_password, verify_dummy, verify_password, SessionId, ThrottlePolicy, ThrottleState, Username, Verdict,
//! };
//!
//! // Sign-up stored this hash in the account's row.
//! let stored = hash_password("correct horse battery staple").unwrap();
//!
//! // Log-in: the account's counter (two integers from its row) comes first.
//! let now = 1_700_000_000; // Unix seconds, from the server's clock
//! let mut counter = ThrottleState::default();
//! assert_eq!(ThrottlePolicy::ACCOUNT.check(counter, now), Verdict::Allow);
//!
//! let name: Username = "Alice".parse().unwrap();
//! let row = Some(&stored); // the store's lookup by `name.key()`
//! let ok = match row {
//!     Some(hash) => verify_password(hash, "correct horse battery staple"),
//!     None => verify_dummy("correct horse battery staple"), // same cost: no timing hint
//! };
//! assert!(ok);
//! counter = ThrottleState::default(); // a success clears the account's count
//!
//! // The session: the cookie gets the id, the store only its SHA-256.
//! let session = SessionId::generate().unwrap();
//! let key_in_store = session.storage_key().to_hex();
//! assert_ne!(key_in_store, session.as_str());
//! # let _ = (name.key(), counter);
//! ```

mod hash;
mod password;
mod secret;
mod throttle;
mod username;

pub use hash::{
    hash_password, needs_rehash, verify_dummy, verify_password, HashError, ARGON2_ITERATIONS, ARGON2_MEMORY_KIB,
    ARGON2_OUTPUT_LEN, ARGON2_PARALLELISM, SALT_LEN,
};
pub use password::{
    check_new_password, common_password_count, is_common_password, normalize_password, PasswordError,
    MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS, SERVICE_WORDS,
};
pub use secret::{
    ApiToken, RandomnessError, SessionId, StorageKey, WorkerKey, API_TOKEN_PREFIX, SECRET_BYTES, WORKER_KEY_PREFIX,
};
pub use throttle::{address_key, ThrottlePolicy, ThrottleState, Verdict};
pub use username::{Username, UsernameError, RESERVED_PREFIXES, RESERVED_USERNAMES, USERNAME_REGEX};
