-- Computer reviews of finished games (crates/server/src/review.rs,
-- docs/server.md "Game review"): the review's JSON as the server wrote it,
-- one per game and node count. The primary key makes a second write of the
-- same review (two requests at once, two instances) a no-op, so a game
-- never has two reviews at one node count.
CREATE TABLE reviews (
    game_id TEXT NOT NULL REFERENCES games (id),
    nodes BIGINT NOT NULL,
    review TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, nodes)
);
