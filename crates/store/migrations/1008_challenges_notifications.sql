-- Challenges and notifications (crates/server/src/challenges.rs,
-- crates/server/src/notify.rs; docs/server.md). Plain SQL for both back
-- ends.

-- A challenge from one account to another. Its id becomes the game's id
-- when it is accepted. `color`: the challenger's, "white", "black" or
-- "random"; `status`: created, accepted, declined or canceled (lichess's
-- words). Clock columns as in `games`; `days_per_move` for correspondence.
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    challenger TEXT NOT NULL REFERENCES accounts (id),
    dest TEXT NOT NULL REFERENCES accounts (id),
    variant TEXT NOT NULL,
    rule_options TEXT NOT NULL DEFAULT '',
    clock_initial BIGINT,
    clock_increment BIGINT,
    days_per_move BIGINT,
    rated BIGINT NOT NULL DEFAULT 0,
    color TEXT NOT NULL,
    status TEXT NOT NULL,
    decline_reason TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX challenges_dest ON challenges (dest, status);
CREATE INDEX challenges_challenger ON challenges (challenger, status);

-- What an account is told: a challenge received, declined or accepted, a
-- seek taken, an opponent's move or the end of a correspondence game.
-- `data` is the JSON the page shows; `read_at` is set when it is read.
CREATE TABLE notifications (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    read_at BIGINT
);
CREATE INDEX notifications_account ON notifications (account_id, created_at);
