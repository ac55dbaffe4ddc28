-- The look a player chose for the web pages (crates/server/assets/theme.js,
-- docs/server.md "Themes"): light or dark, the board's colours, the piece
-- set, as the JSON object the page sent (the server checks its keys and
-- values). One row per account, replaced at each change; a browser of a
-- logged-in player takes the account's look.
CREATE TABLE account_prefs (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id),
    prefs TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
