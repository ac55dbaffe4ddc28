-- Several `chimera serve` instances on one store (PostgreSQL; SQLite too,
-- for processes on one machine). Plain SQL for both.

-- Every change of a game bumps its version, and a change is stored only if
-- the version is still the one it was made from: of two instances racing
-- to change one game, the database lets exactly one through (the other
-- reloads the game and tells its player).
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
-- The instance that runs the game's clock and engine (the one that made
-- the last change, or took the game over when that one died).
ALTER TABLE games ADD COLUMN owner TEXT;
-- When the owner must act next (ms since the epoch): a flag falls, or the
-- engine is to move (then the time of the change). NULL: nothing to do.
ALTER TABLE games ADD COLUMN due_at BIGINT;
CREATE INDEX games_due ON games (status, due_at);
-- Games stored before this: those that may have something due are taken
-- over by the first instance to start (which works out the real time).
UPDATE games SET due_at = 0 WHERE status = 'active' AND (turn_started IS NOT NULL OR mode = 'engine');

-- The running instances: each renews its heartbeat every second or so; one
-- silent for longer than the takeover time is taken to be dead, and its
-- games are taken over by the others.
CREATE TABLE instances (
    id           TEXT PRIMARY KEY,
    started_at   BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL
);
