-- The lesson steps a player has finished (crates/learn, docs/learn.md):
-- one row per account and step, the step named by its key
-- `variant/lesson/n`; a logged-in browser merges these with the steps kept
-- in its own storage.
CREATE TABLE learn_progress (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    step TEXT NOT NULL,
    done_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, step)
);
