-- The balance lab's tables (crates/lab). Versions from 1001 so that they
-- never meet the server's (crates/server/migrations, from 0001); both
-- migrators ignore the other's versions. Portable SQL (TEXT, BIGINT,
-- INTEGER): SQLite today, PostgreSQL later.

-- A study: a variant, its rule options, the engine budget and the openings.
-- `spec` is the canonical JSON of everything that decides a game; a study
-- re-run with other options is refused by comparing it.
CREATE TABLE lab_studies (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    ring_powers TEXT NOT NULL,
    spec TEXT NOT NULL,
    games_target BIGINT NOT NULL,
    engine TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- One row per finished game, game number `k` of its study. The key
-- (study_id, k) makes a game stored at most once, whatever runs or dies.
CREATE TABLE lab_games (
    study_id TEXT NOT NULL REFERENCES lab_studies (id),
    k BIGINT NOT NULL,
    result TEXT NOT NULL,
    termination TEXT NOT NULL,
    opening_plies INTEGER NOT NULL,
    plies INTEGER NOT NULL,
    moves TEXT NOT NULL,
    scores TEXT NOT NULL,
    pgn TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (study_id, k)
);

-- Piece values fitted from a study's games (the tuner's fit is slow, so
-- `chimera lab report` keeps it here for the web page), for `games` games.
CREATE TABLE lab_fits (
    study_id TEXT PRIMARY KEY REFERENCES lab_studies (id),
    games BIGINT NOT NULL,
    fit TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
