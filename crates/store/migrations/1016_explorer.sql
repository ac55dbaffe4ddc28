-- The opening explorer (crates/server/src/explorer.rs, docs/server.md
-- "Opening explorer"): for each variant (with its rule options), source and
-- position, the moves played from it and how their games ended.
--
-- `variant` is the variant id and its rule options (`magicring
-- ring_powers=NKQ`); `source` is 'people' (rated games between two people)
-- or 'engines' (games against the engine or a BOT, and the lab's games);
-- `position` the position's Zobrist key as a signed 64-bit number. The
-- counts are of games, by their result. The key leads with the variant and
-- the position: a lookup is one range of the index, both sources at once.
CREATE TABLE explorer_moves (
    variant TEXT NOT NULL,
    source TEXT NOT NULL,
    position BIGINT NOT NULL,
    uci TEXT NOT NULL,
    white BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    black BIGINT NOT NULL,
    PRIMARY KEY (variant, position, source, uci)
);

-- The games the explorer has read, each once (a web game by its id, a lab
-- game as `lab:STUDY:K`), with the source it went to ('none': a game the
-- explorer leaves out, such as a casual game). Its counts are added in the
-- transaction that writes this row, so no game counts twice, whichever
-- instance reads it.
CREATE TABLE explorer_games (
    game_id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    added_at BIGINT NOT NULL
);
