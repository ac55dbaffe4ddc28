-- Puzzles (crates/server/src/puzzles.rs, docs/puzzles-web.md): each round
-- is a game between a player and a puzzle, both rated by Glicko-2. A
-- puzzle's set is part of every key (`puzzle_set`: a set name of
-- crates/puzzles, `genie`, `magicring-rnbq`...), so that two sets can never
-- share a row even if their six-letter ids met.

-- A puzzle's rating, made on its first rated round from the puzzle's
-- starting rating (the shipped file's) with deviation 500 and volatility
-- 0.09; its rated rounds and the rounds its solvers won.
CREATE TABLE puzzle_ratings (
    puzzle_set TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    PRIMARY KEY (puzzle_set, puzzle_id)
);

-- An account's puzzle rating in a set, its rated rounds, the rounds it
-- won, and the time of its last rated round (ms), from which the
-- deviation grows while the player does not solve.
CREATE TABLE puzzle_players (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    puzzle_set TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    rated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, puzzle_set)
);

-- An account's rounds: one row per account and puzzle, the first round,
-- the only one rated (the conditional insert of this row is what applies a
-- round once, whatever races; a replay finds it and changes nothing).
-- `win`: 1 or 0; `rating_diff`: the change of the player's shown rating.
CREATE TABLE puzzle_rounds (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    puzzle_set TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    win BIGINT NOT NULL,
    played_at BIGINT NOT NULL,
    rating_diff BIGINT NOT NULL,
    PRIMARY KEY (account_id, puzzle_set, puzzle_id)
);
