-- Ratings kept with each game from the moment a seat is taken
-- (crates/server/src/ratings.rs, docs/ratings.md), and a seek's rating
-- range. Plain SQL for both back ends.

-- `white_rating` / `black_rating` (from 1005) now hold the rating each
-- account had when it took its seat, in every game with an account, rated
-- or casual; applying a rated game rewrites them with the ratings it
-- started from. `*_provisional`: 1 when that rating was provisional (`?`).
ALTER TABLE games ADD COLUMN white_provisional BIGINT;
ALTER TABLE games ADD COLUMN black_provisional BIGINT;

-- An open seek's rating range: only an account rated from `rating_min` to
-- `rating_max` in the variant may take its seat; NULL for any player.
ALTER TABLE games ADD COLUMN rating_min BIGINT;
ALTER TABLE games ADD COLUMN rating_max BIGINT;

-- Games applied to the ratings before this migration: provisional when the
-- deviation after the game was above 110 (a game only lowers it, so the
-- one before was above 110 too).
UPDATE games SET white_provisional = CASE WHEN (SELECT h.deviation FROM rating_history h
    WHERE h.account_id = games.white_account AND h.game_id = games.id) > 110 THEN 1 ELSE 0 END
WHERE white_rating IS NOT NULL;
UPDATE games SET black_provisional = CASE WHEN (SELECT h.deviation FROM rating_history h
    WHERE h.account_id = games.black_account AND h.game_id = games.id) > 110 THEN 1 ELSE 0 END
WHERE black_rating IS NOT NULL;

-- Every other seat an account holds: the account's rating in the variant
-- as it stands (1500, provisional, for one who never played it).
UPDATE games SET
    white_rating = COALESCE((SELECT CAST(ROUND(r.rating) AS BIGINT) FROM ratings r
        WHERE r.account_id = games.white_account AND r.variant = games.variant), 1500),
    white_provisional = COALESCE((SELECT CASE WHEN r.deviation > 110 THEN 1 ELSE 0 END FROM ratings r
        WHERE r.account_id = games.white_account AND r.variant = games.variant), 1)
WHERE white_account IS NOT NULL AND white_rating IS NULL;
UPDATE games SET
    black_rating = COALESCE((SELECT CAST(ROUND(r.rating) AS BIGINT) FROM ratings r
        WHERE r.account_id = games.black_account AND r.variant = games.variant), 1500),
    black_provisional = COALESCE((SELECT CASE WHEN r.deviation > 110 THEN 1 ELSE 0 END FROM ratings r
        WHERE r.account_id = games.black_account AND r.variant = games.variant), 1)
WHERE black_account IS NOT NULL AND black_rating IS NULL;
