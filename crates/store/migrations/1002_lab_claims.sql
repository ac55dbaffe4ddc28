-- Several machines playing one study against one PostgreSQL (or several
-- runs on one SQLite file): a runner claims a batch of game numbers in one
-- transaction before it plays them. The key (study_id, k) lets one runner
-- hold a number at a time; a claim not renewed for the lease (its runner
-- died) may be taken over. A stored game's claim is marked done with the
-- game's insert, in the same transaction, and stays: a runner that read
-- the stored games a moment before cannot claim that number again.
-- Portable SQL.
CREATE TABLE lab_claims (
    study_id TEXT NOT NULL REFERENCES lab_studies (id),
    k BIGINT NOT NULL,
    -- the runner: host, process id and a random part
    owner TEXT NOT NULL,
    -- seconds since the epoch of the claim or its last renewal
    claimed_at BIGINT NOT NULL,
    -- 1 once the game is stored
    done INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (study_id, k)
);
