-- 0027_api_keys.sql -- API keys (issue 22): a signed-in user creates,
-- names, lists and revokes keys on /account; a request with
-- "Authorization: Bearer KEY" is then counted against the key's own,
-- larger read limit (modules/core/limit.c).  Forward-only: never edit
-- once landed; add another.
--
-- A key is "weft_" and 43 base64url characters (32 random bytes), shown
-- once when made.  Only its hash is stored, as for the feed token:
--
--   key_hash = lower-case hex of crypto_generichash() with a 32-byte
--              output and no key, over the bytes of the whole secret.
--
-- The table is personal data (it references users): accounts alone
-- reads and writes it (weft_private).  The other pools check a key
-- through weft_api_key() below, which answers for one hash and cannot
-- list anything: SECURITY DEFINER, executable by every role (PUBLIC),
-- so that a pool added later (MCP) checks keys with no grant of its own.

CREATE TABLE api_keys (
	id              bigserial PRIMARY KEY,
	user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
	key_hash        text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
	created_at      timestamptz NOT NULL DEFAULT now(),
	revoked_at      timestamptz
);
CREATE INDEX api_keys_user ON api_keys (user_id, created_at);

SELECT weft_private('api_keys');

-- The id of the live key whose hash is h, or NULL (unknown or revoked).
CREATE FUNCTION weft_api_key(h text) RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
	SELECT id FROM api_keys WHERE key_hash = h AND revoked_at IS NULL
$$;
GRANT EXECUTE ON FUNCTION weft_api_key(text) TO PUBLIC;
