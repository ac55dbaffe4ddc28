-- Web Push (crates/server/src/webpush.rs, docs/server.md "Web Push"). Plain
-- SQL for both back ends.

-- A browser's push subscription, made by a logged-in account on one of its
-- devices: the push service's `endpoint` (a secret URL: one browser, one
-- row, moved to whichever account subscribes it last), the browser's
-- P-256 public key `p256dh` and its `auth` secret (base64url, RFC 8291).
-- `used_at`: the last push the service accepted.
CREATE TABLE push_subscriptions (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX push_subscriptions_account ON push_subscriptions (account_id, created_at);

-- The server's own keys, by name, shared by every instance of one store:
-- `vapid`, the P-256 key pair that signs every push request (RFC 8292),
-- written once by the first instance that needs it.
CREATE TABLE server_keys (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Which instances have a page of the account open (a /ws/notify socket):
-- refreshed at each of the socket's pings, removed when the instance's
-- last socket of the account closes. A push goes to an account with no
-- fresh row here on any other instance and no socket on the sending one.
CREATE TABLE notify_presence (
    account_id TEXT NOT NULL,
    instance TEXT NOT NULL,
    seen_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, instance)
);
