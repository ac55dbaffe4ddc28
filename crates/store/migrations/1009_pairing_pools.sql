-- Quick pairing (crates/server/src/pairing.rs, docs/server.md): the
-- accounts waiting in a pool (a variant and a clock), one entry an account
-- at a time. `rating`, `provisional`: the account's rating in the pool's
-- variant when it entered;
-- `game_id`/`paired_at`: set once, by the pairing, in the transaction that
-- inserts the game.
CREATE TABLE pool_entries (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id),
    pool TEXT NOT NULL,
    rating BIGINT NOT NULL,
    provisional BIGINT NOT NULL,
    entered_at BIGINT NOT NULL,
    seen_at BIGINT NOT NULL,
    game_id TEXT,
    paired_at BIGINT
);
CREATE INDEX pool_entries_pool ON pool_entries (pool, game_id);
