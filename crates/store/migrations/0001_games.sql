-- Chimera web store. Plain SQL only (TEXT, BIGINT, INTEGER; no SQLite-only
-- syntax), so the same schema runs on Postgres when the store scales out.

CREATE TABLE games (
    id              TEXT PRIMARY KEY,
    variant         TEXT NOT NULL,
    ring_powers     TEXT NOT NULL,
    start_fen       TEXT NOT NULL,
    -- 'engine', 'friend' or 'hotseat'
    mode            TEXT NOT NULL,
    engine_level    INTEGER,
    -- 'w' or 'b' when the engine plays that side
    engine_color    TEXT,
    -- secret seat tokens; NULL while the seat is free (friend games)
    white_token     TEXT,
    black_token     TEXT,
    -- clock in milliseconds; NULL = no clock
    clock_initial   BIGINT,
    clock_increment BIGINT,
    white_ms        BIGINT,
    black_ms        BIGINT,
    -- when the side to move's clock started (ms since the epoch)
    turn_started    BIGINT,
    -- 'active' or 'finished'
    status          TEXT NOT NULL,
    result          TEXT NOT NULL,
    reason          TEXT,
    -- 'w' or 'b': who offers a draw
    draw_offer      TEXT,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);

CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL,
    uci       TEXT NOT NULL,
    san       TEXT NOT NULL,
    white_ms  BIGINT,
    black_ms  BIGINT,
    PRIMARY KEY (game_id, ply)
);

CREATE INDEX games_updated ON games (updated_at);
