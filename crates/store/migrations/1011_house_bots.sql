-- House bots (crates/server/src/bots.rs, docs/bots.md): an account whose
-- `kind` is 'bot' is one of the engine's levels, `bot_level` 1-8; it has no
-- password and cannot log in. People's accounts have NULL.
ALTER TABLE accounts ADD COLUMN bot_level BIGINT;
