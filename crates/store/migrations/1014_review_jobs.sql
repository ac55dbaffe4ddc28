-- Analysis workers and the review job queue (crates/server/src/workers.rs,
-- docs/server.md "Analysis workers").
--
-- A worker (`chimera worker`, on any machine) holds a key its operator made
-- with `chimera worker-key add`; the store keeps the SHA-256 (hex) of it.
-- `seen_at` is the last time it asked for a job: while some worker has
-- asked lately, the instances' own engines leave the queue to the workers.
CREATE TABLE review_workers (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    key TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    seen_at BIGINT,
    jobs_done BIGINT NOT NULL DEFAULT 0,
    revoked_at BIGINT
);

-- One job per review asked for and not yet stored (`reviews`, 1013). A
-- waiting job has no `lease`; a taken one has the lease its worker was
-- given (the job's id for that worker), the worker (a `review_workers` id,
-- or `local:` and an instance name for a server's own engine) and a
-- deadline, after which another worker may take it with a new lease. A
-- result is stored only with the current lease, in the transaction that
-- deletes the job, so a job is done into the store once.
CREATE TABLE review_jobs (
    game_id TEXT NOT NULL REFERENCES games (id),
    nodes BIGINT NOT NULL,
    queued_at BIGINT NOT NULL,
    lease TEXT UNIQUE,
    worker TEXT,
    taken_at BIGINT,
    deadline BIGINT,
    tries INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, nodes)
);
CREATE INDEX review_jobs_queue ON review_jobs (nodes, queued_at);
