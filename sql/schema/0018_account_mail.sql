-- 0018_account_mail.sql -- email verification, password reset by email,
-- and what the list of active sessions shows (issue 18).
-- Forward-only: never edit once landed; add another.
--
-- users.email_verified_at: NULL until the owner of the address followed
-- a verification link (and typed the account's password).  Until then
-- nothing but the verification mail is ever sent to the address.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;

-- Sessions get a public id (the "sign out this one" buttons name it; the
-- token hash never leaves the database) and what the list shows: when
-- it started, when it was last used (refreshed at most every 5 minutes),
-- and a summary of the browser and the network -- never a secret, never
-- the full user agent or address.
ALTER TABLE sessions
	ADD COLUMN id           bigserial,
	ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now(),
	ADD COLUMN agent        text NOT NULL DEFAULT ''
	                        CHECK (length(agent) <= 80),
	ADD COLUMN network      text NOT NULL DEFAULT ''
	                        CHECK (length(network) <= 64);
CREATE UNIQUE INDEX sessions_id ON sessions (id);

-- Single-use tokens sent by email, stored hashed exactly like session
-- tokens (see 0002_accounts.sql: hex of crypto_generichash of the token
-- string).  purpose 'verify' proves the address (24 h), 'reset' sets a
-- new password (1 h).  Using one deletes it (DELETE ... RETURNING), so
-- it works once; a new one of the same purpose replaces the old ones.
--
-- password_hash: a sign-up's password waiting for the address to be
-- proven.  A sign-up for an address whose account is not verified yet
-- does not touch that account; its password takes effect (and every
-- other session of the account ends) only when the mailbox's owner
-- follows this token's link and types that password.  So whoever
-- registered an address first cannot keep it from its owner, and a
-- stranger's sign-up cannot take over an unverified account.
CREATE TABLE mail_tokens (
	token_hash      text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
	user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	purpose         text NOT NULL CHECK (purpose IN ('verify', 'reset')),
	password_hash   text,                   -- crypto_pwhash_str, or NULL
	created_at      timestamptz NOT NULL DEFAULT now(),
	expires_at      timestamptz NOT NULL
);
CREATE INDEX mail_tokens_user ON mail_tokens (user_id, purpose);
CREATE INDEX mail_tokens_expires ON mail_tokens (expires_at);

-- Personal data: only the accounts pool reads and writes it (0017).
SELECT weft_private('mail_tokens');
-- sessions.id above drew a new sequence: the accounts pool needs it too
-- (on a fresh database 0017 ran before it existed).
SELECT weft_private('sessions');
