-- 0096_refresh_prewarm.sql -- a day's refresh first reads the tables it
-- will read at random, in order, into the kernel's cache (issue 19,
-- item 3).
--
-- LOCKS: none beyond creating an extension and a function (and, while
-- weft_prewarm() runs, a reader's lock on one relation at a time).
--
-- A day's refresh reads the researchers' tables by key: at 1.2 M papers,
-- cold, about 1 M pages from the disk (10 GB), most of them one at a
-- time (tests/bench/README.md, thirty-fifth and thirty-sixth sessions).
-- researcher_stats, researchers, authorships and the date windows were
-- each read whole or more than whole (pages read, evicted and read
-- again), the name words and the authorships' indexes 60-90 %, the
-- pairs and their key about a third.  This disk reads 8 KB at random
-- 2,581 times a second one at a time, and in order at 874 MB/s: read in
-- order first, the same relations (10.9 GB) took 10.3-12.7 s, and the
-- refresh after them 52.0-57.6 s instead of 102.2-109.9 s from the same
-- copy of the data directory.
--
-- pg_prewarm (PostgreSQL's contrib, in Debian's postgresql-15) reads a
-- relation's blocks in order; its 'read' mode leaves them in the
-- kernel's cache, not in shared buffers, which it would fill and
-- evict.  Creating it needs a superuser: the local cluster's role is
-- one; in production the README's setup creates it beside pg_trgm.
-- Without it (or with weft.prewarm_share = 0) weft_prewarm() reads
-- nothing and says so, and the refresh runs as before.
--
-- What it reads is bounded by weft.prewarm_share (0.75 unless set) of
-- effective_cache_size, the memory the operator told the planner holds
-- the database (16 GB in conf/postgresql-weft.conf): reading more than
-- the cache holds would evict the first relations before the refresh
-- reads them.  The relations go in the order below, those the refresh
-- reads most of per page first; one that does not fit the budget left
-- is passed over, and a smaller one after it may still be read.
-- Forward-only: never edit once landed; add another.

DO $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_prewarm')
	   AND EXISTS (SELECT 1 FROM pg_available_extensions
	                WHERE name = 'pg_prewarm') THEN
		BEGIN
			CREATE EXTENSION pg_prewarm WITH SCHEMA public;
		EXCEPTION WHEN insufficient_privilege THEN
			RAISE NOTICE 'pg_prewarm not created (needs a superuser): '
			    'the refresh reads its tables at random, as before';
		END;
	END IF;
END;
$$;

-- Answers what it read: "N relations, M MB of a budget of B MB" (or why
-- it read none).
CREATE FUNCTION weft_prewarm() RETURNS text
	LANGUAGE plpgsql AS $$
DECLARE
	share double precision :=
	    coalesce(nullif(current_setting('weft.prewarm_share', true), ''),
	             '0.75')::double precision;
	budget bigint;
	size bigint;
	used bigint := 0;
	n int := 0;
	rel regclass;
BEGIN
	IF share <= 0 THEN
		RETURN 'off (weft.prewarm_share)';
	END IF;
	IF to_regprocedure('pg_prewarm(regclass, text, text, bigint, bigint)')
	   IS NULL THEN
		RETURN 'off (no pg_prewarm extension)';
	END IF;
	budget := (share *
	           pg_size_bytes(current_setting('effective_cache_size')))::bigint;
	FOR rel IN
		SELECT to_regclass(x.name)
		  FROM unnest(ARRAY[
		       -- read whole or more by a cold refresh at 1.2 M
		       'researcher_stats', 'researcher_stats_pkey',
		       'researchers', 'researchers_pkey',
		       'researcher_directory', 'authorships',
		       'search_near', 'search_far',
		       'researchers_name_key', 'researchers_block',
		       'researchers_search_key', 'researchers_name_trgm',
		       -- 60-90 %
		       'researcher_name_words_researcher',
		       'authorships_researcher_newest',
		       'researcher_name_words_ranked', 'researcher_name_words',
		       'authorships_pkey',
		       -- about a third, and the largest
		       'coauthor_pairs_pkey', 'coauthor_pairs'])
		       WITH ORDINALITY AS x(name, o)
		 WHERE to_regclass(x.name) IS NOT NULL
		 ORDER BY x.o
	LOOP
		size := pg_relation_size(rel);
		CONTINUE WHEN size = 0 OR used + size > budget;
		-- Called by name: the function compiles without the extension.
		EXECUTE 'SELECT pg_prewarm($1, ''read'')' USING rel;
		used := used + size;
		n := n + 1;
	END LOOP;
	RETURN format('%s %s, %s MB of a budget of %s MB', n,
	              CASE n WHEN 1 THEN 'relation' ELSE 'relations' END,
	              used / 1048576, budget / 1048576);
END;
$$;
