-- 0017_roles.sql -- one PostgreSQL role per worker pool, each with only
-- what its pool needs (issue 20, item 9).
--
--   weft            the owner of every table: migrations, the loader, the
--                   harvesters, weft-vectors (the writer).  The role that
--                   runs this file.
--   "weft-pages"    reads the public data (papers, researchers, ...).
--   "weft-feeds"    the same, and of the private feed /rss/feed/{token}
--                   only what resolving a token needs: feed_tokens
--                   (user_id, token_hash) and follows (user_id,
--                   researcher_id).  Nothing of users or sessions.
--   "weft-accounts" reads the public data and alone reads and writes
--                   the personal data: users, sessions, follows,
--                   feed_tokens.
--
-- The role names are the system users' names (make install creates
-- them; weftd switches to them), so PostgreSQL's default "peer"
-- authentication on the local socket needs no map.  The pages worker
-- parses every anonymous request: if it is ever subverted, it can
-- still read nothing but what the site shows anyway.
--
-- Personal data is a rule, not a list: "users" and every table that
-- references it (directly or through another such table) by a foreign
-- key.  weft_private() below applies the rule to one table; a later
-- migration that adds a table of personal data ends with
--
--   SELECT weft_private('the_new_table');
--
-- because the default privileges give every pool SELECT on a new table
-- (tests/integration/t_privsep.sh fails when a personal table is
-- readable by pages or feeds).
--
-- CREATE ROLE needs CREATEROLE: conf/local.sh's cluster makes weft a
-- superuser; a server where it is not has the roles created first by
-- postgres (README, "Deploying"), and this file then only grants.
-- Idempotent: GRANT and REVOKE may be repeated.  Forward-only: never
-- edit once landed; add another.

DO $$
DECLARE
	pool text;
BEGIN
	FOREACH pool IN ARRAY ARRAY['weft-pages', 'weft-accounts', 'weft-feeds']
	LOOP
		IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = pool) THEN
			BEGIN
				EXECUTE format('CREATE ROLE %I LOGIN', pool);
			EXCEPTION WHEN insufficient_privilege THEN
				RAISE EXCEPTION 'role "%" is missing and % may not create it', pool, current_user
				    USING HINT = format('as postgres: createuser %s', pool);
			END;
		END IF;
		EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', pool);
	END LOOP;
END
$$;

-- Every table as it stands: the pools read it (their statements are
-- prepared at start-up, so a missing grant stops a worker at once).
GRANT SELECT ON ALL TABLES IN SCHEMA public
	TO "weft-pages", "weft-accounts", "weft-feeds";
-- And every table the owner creates from now on.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES
	TO "weft-pages", "weft-accounts", "weft-feeds";

-- Makes table tbl personal: pages and feeds lose every privilege on it,
-- accounts reads and writes it (and draws its ids).  Run by migrations
-- as the owner; nobody else may call it.
CREATE OR REPLACE FUNCTION weft_private(tbl regclass) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
	seq regclass;
BEGIN
	EXECUTE format('REVOKE ALL ON %s FROM "weft-pages", "weft-feeds"', tbl);
	EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s '
	    'TO "weft-accounts"', tbl);
	FOR seq IN SELECT d.objid::regclass
	             FROM pg_depend d
	             JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
	            WHERE d.refobjid = tbl AND d.deptype IN ('a', 'i')
	LOOP
		EXECUTE format('REVOKE ALL ON SEQUENCE %s FROM "weft-pages", '
		    '"weft-feeds"', seq);
		EXECUTE format('GRANT USAGE, SELECT ON SEQUENCE %s '
		    'TO "weft-accounts"', seq);
	END LOOP;
END
$fn$;
REVOKE ALL ON FUNCTION weft_private(regclass) FROM PUBLIC;

-- The personal tables today, by the rule: users and what references it.
DO $$
DECLARE
	t regclass;
BEGIN
	FOR t IN
		WITH RECURSIVE personal(rel) AS (
			SELECT 'users'::regclass
			UNION
			SELECT c.conrelid::regclass
			  FROM pg_constraint c
			  JOIN personal p ON c.confrelid = p.rel
			 WHERE c.contype = 'f')
		SELECT rel FROM personal
	LOOP
		PERFORM weft_private(t);
	END LOOP;
END
$$;

-- What the private feed needs (sql/queries/feeds.sql, TOKEN_USER and
-- RSS_USER): a token's owner and whom they follow, by number.  Column
-- grants, so that a new column of these tables stays accounts' alone.
GRANT SELECT (user_id, token_hash) ON feed_tokens TO "weft-feeds";
GRANT SELECT (user_id, researcher_id) ON follows TO "weft-feeds";
