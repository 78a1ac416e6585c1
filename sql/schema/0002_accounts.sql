-- 0002_accounts.sql -- users, sessions, follows and private feed tokens
-- (the accounts module writes them; the feeds module reads follows and
-- feed_tokens).  Forward-only: never edit once landed; add another.
--
-- Tokens (session cookies and private feed URLs) are 32 random bytes
-- from libsodium's randombytes_buf(), written as base64url without
-- padding: 43 characters of [A-Za-z0-9_-].  Only their hash is stored:
--
--   token_hash = lower-case hex of crypto_generichash() with a 32-byte
--                output and no key, over the bytes of the token STRING as
--                it appears in the cookie or URL (the 43 ASCII characters,
--                not the decoded bytes).
--
-- So a database leak gives no usable session or feed URL.  For the
-- private feed /rss/feed/{token}.xml the feeds module computes the same
-- hash of {token} and looks it up:
--
--   SELECT p.* FROM feed_tokens t
--     JOIN follows f ON f.user_id = t.user_id
--     JOIN authorships a ON a.researcher_id = f.researcher_id
--     JOIN papers p ON p.id = a.paper_id
--    WHERE t.token_hash = $1 ...
--
-- No row for the hash means 404 (rotating a token replaces the row, so
-- the old URL stops working at once).

CREATE TABLE users (
	id              bigserial PRIMARY KEY,
	email           text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
	                                        -- trimmed, domain lower-cased
	password_hash   text NOT NULL,          -- crypto_pwhash_str (argon2id)
	created_at      timestamptz NOT NULL DEFAULT now()
);
-- One account per address, whatever the case of the local part.
CREATE UNIQUE INDEX users_email ON users (lower(email));

-- Sessions live here, not in Redis, so that losing Redis signs nobody
-- out.  The cookie holds the token; the row holds its hash.
CREATE TABLE sessions (
	token_hash      text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
	user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	created_at      timestamptz NOT NULL DEFAULT now(),
	expires_at      timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

-- Who follows whom.  PostgreSQL only: never cached in Redis.
CREATE TABLE follows (
	user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	researcher_id   bigint NOT NULL REFERENCES researchers (id) ON DELETE CASCADE,
	created_at      timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (user_id, researcher_id)
);
CREATE INDEX follows_researcher ON follows (researcher_id);

-- One private feed token per user (see the hash definition above).
CREATE TABLE feed_tokens (
	user_id         bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	token_hash      text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
	created_at      timestamptz NOT NULL DEFAULT now()
);
