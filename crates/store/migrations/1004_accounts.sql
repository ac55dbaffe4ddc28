-- Accounts (crates/server/src/accounts.rs, docs/accounts.md). Plain SQL
-- for both back ends.

-- One row per account. `username` as typed at sign-up; `username_key` its
-- lower case, unique: names are unique without regard to case. A deleted
-- account keeps its row with the name only (`password_hash` emptied,
-- `deleted_at` set), so that nobody can take the name of a player whose
-- games others remember; its games lose the link and the name.
-- `login_failures` and `login_failed_at` are the log-in throttle's state
-- (chimera_auth::ThrottleState: failures in a row, Unix seconds of the last).
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'person',
    created_at BIGINT NOT NULL,
    login_failures BIGINT NOT NULL DEFAULT 0,
    login_failed_at BIGINT NOT NULL DEFAULT 0,
    deleted_at BIGINT
);

-- Log-in sessions: the SHA-256 (hex) of the cookie's secret, never the
-- secret itself, so a copy of the database opens no session.
CREATE TABLE account_sessions (
    key TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    created_at BIGINT NOT NULL,
    seen_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX account_sessions_account ON account_sessions (account_id);

-- The accounts that hold a game's seats (NULL: an anonymous seat, or none).
ALTER TABLE games ADD COLUMN white_account TEXT;
ALTER TABLE games ADD COLUMN black_account TEXT;
CREATE INDEX games_white_account ON games (white_account);
CREATE INDEX games_black_account ON games (black_account);
