-- Personal API tokens (crates/server/src/tokens.rs, docs/api.md): a
-- program acts for an account with one, as `Authorization: Bearer`. The
-- store keeps the SHA-256 (hex) of the token, never the token itself, so a
-- copy of the database plays no move. `scopes` is lichess's scope names
-- joined by spaces; a revoked token keeps its row (`revoked_at` set) until
-- the account is deleted, so the account page can show it.
CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    key TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    used_at BIGINT,
    revoked_at BIGINT
);
CREATE INDEX api_tokens_account ON api_tokens (account_id);

-- A BOT account of a person's program (docs/api.md, "BOT accounts") has
-- `kind` 'bot' and no `bot_level`; the house bots have a level (1011).
