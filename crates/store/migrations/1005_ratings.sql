-- Ratings (crates/server/src/ratings.rs, docs/ratings.md): one Glicko-2
-- rating per account and variant id, a point of history per rated game,
-- and the rated games themselves. Plain SQL for both back ends.

-- `rated`: 1 for a rated game (two accounts, the variant's own start and
-- rule options). `rating_done`: 1 once its result has been applied to both
-- ratings; the conditional update that sets it is what makes the
-- application happen once, whatever races. The ratings shown beside the
-- board before the game, and the changes it made.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rating_done BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_rating BIGINT;
ALTER TABLE games ADD COLUMN black_rating BIGINT;
ALTER TABLE games ADD COLUMN white_rating_diff BIGINT;
ALTER TABLE games ADD COLUMN black_rating_diff BIGINT;
CREATE INDEX games_rating_todo ON games (rated, rating_done, status);

-- An account's rating in a variant (the Glicko scale: 1500 is the start),
-- with its games, results and the time of its last rated game (ms), from
-- which the deviation grows while the player does not play.
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    rated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, variant)
);
CREATE INDEX ratings_board ON ratings (variant, rating);

-- The rating after each rated game, for the profile's graph.
CREATE TABLE rating_history (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    variant TEXT NOT NULL,
    game_id TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
