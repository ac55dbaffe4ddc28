-- The secret of a friend game's invite link: joining needs it, the public
-- game id is only for watching. NULL once the seat is taken (or for games
-- that have no free seat).
ALTER TABLE games ADD COLUMN invite TEXT;
