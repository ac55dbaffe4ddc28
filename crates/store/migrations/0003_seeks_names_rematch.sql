-- Names players choose (shown at the board and in the game list; never an
-- identity: seats stay secret tokens), open seeks (mode 'seek': listed in
-- the lobby while a seat is free) and rematches. Plain SQL for SQLite and
-- PostgreSQL alike.
ALTER TABLE games ADD COLUMN white_name TEXT;
ALTER TABLE games ADD COLUMN black_name TEXT;
-- 'w' or 'b': who offers a rematch of this finished game
ALTER TABLE games ADD COLUMN rematch_offer TEXT;
-- the id of the rematch, once it is made
ALTER TABLE games ADD COLUMN rematch_id TEXT;
-- the lobby's open seeks: mode 'seek', status 'active', a seat free
CREATE INDEX games_mode_status ON games (mode, status);
