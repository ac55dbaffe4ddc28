-- Correspondence games (crates/server/src/live.rs, docs/server.md): days
-- per move, 1, 2, 3, 5, 7 or 14, or NULL for a game without. Such a game's
-- clock columns hold the time left for the move in ms, reset to the whole
-- allowance after each move, and `due_at` its deadline, kept by the owner
-- and takeover machinery as a clock's flag time is.
ALTER TABLE games ADD COLUMN days_per_move BIGINT;
