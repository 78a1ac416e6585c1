-- 0016_email_fold.sql -- one key per email address, whatever its Unicode
-- spelling (issue 18).  Forward-only: never edit once landed.
--
-- users.email stays what the person typed (trimmed, NFKC since this
-- change, the domain's ASCII lower-cased): the address shown and mailed.
-- users.email_key is the account's identity: the NFKC_Casefold of the
-- address as utf8proc computes it (accounts/validate.c acc_email_key:
-- NFKC, full case folding, default-ignorables dropped), so that K (KELVIN
-- SIGN), fullwidth letters, a zero-width space or 'SS' for 'ss' all name
-- one account.  Sign-in looks accounts up by it, and every rate limit
-- that counts by account counts by it; before, the limits lower-cased
-- ASCII only while lower(email) in PostgreSQL folded more, so a variant
-- reached the account without touching its counter.
--
-- Existing rows: for an all-ASCII address the key is exactly
-- lower(email), set here; lower(email) was already unique (users_email),
-- so these cannot collide.  For the others SQL cannot compute the same
-- fold (PostgreSQL 15 has no casefold(), and lower() follows the C
-- library), so they stay NULL and the accounts workers fill them in when
-- they start (store.c acc_store_email_keys_fill), oldest account first.
-- Two accounts whose addresses fold to one key (say "kim@example.org" and
-- a later "ｋim@example.org"): the older keeps the key; the later keeps
-- its row, follows, feed token and live sessions, nothing is deleted, but
-- it can no longer be signed in to by email.  Each such account is
-- logged (warn, "email_key") at every worker start until an operator
-- resolves it; README "Email addresses" shows how to list them.

ALTER TABLE users ADD COLUMN email_key text;

UPDATE users SET email_key = lower(email)
 WHERE octet_length(email) = length(email);

CREATE UNIQUE INDEX users_email_key ON users (email_key);
-- The workers' start-up check reads only this (usually empty) index.
CREATE INDEX users_email_key_pending ON users (id) WHERE email_key IS NULL;
