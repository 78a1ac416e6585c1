-- 0097_match_prewarm.sql -- the day's match first reads the relations
-- it will read at random, in order, as the refresh does since 0096
-- (issue 19, item 3).
--
-- LOCKS: none beyond replacing a function (and, while weft_prewarm()
-- runs, a reader's lock on one relation at a time).
--
-- A day's match (0059), cold at 540,001 papers with a harvested day of
-- 20,000 (tests/bench/README.md, thirty-seventh session), read from
-- the disk all of researchers, paper_author_keys, match_evidence and
-- the authorships' researcher and block indexes, nearly all of the
-- stale marks and the researchers' name indexes, three quarters of the
-- directory and two thirds of the authorships: about 318,000 pages,
-- most one at a time.  Of papers it read 2.5 % of the pages, of the
-- authorships' key 7 %: those stay out.
--
-- weft_prewarm(step) takes the step it reads ahead for, 'match' or
-- 'refresh' (0096's list, unchanged), each list in order of need: the
-- relations the step read whole first.  The budget and what it answers
-- are 0096's; weft_prewarm() stays, as weft_prewarm('refresh'), for a
-- weft-harvest from before 0097 while a deployment rolls.  Forward-only:
-- never edit once landed; add another.

CREATE FUNCTION weft_prewarm(step text) RETURNS text
	LANGUAGE plpgsql AS $$
DECLARE
	share double precision :=
	    coalesce(nullif(current_setting('weft.prewarm_share', true), ''),
	             '0.75')::double precision;
	names text[];
	budget bigint;
	size bigint;
	used bigint := 0;
	n int := 0;
	rel regclass;
BEGIN
	names := CASE step
	WHEN 'match' THEN ARRAY[
	    -- read whole or more by a cold day's match at 540 k
	    'researchers', 'researchers_pkey',
	    'authorships_researcher_newest', 'authorships_block',
	    'paper_author_keys', 'paper_author_keys_pkey',
	    'match_evidence', 'match_evidence_pkey',
	    'match_dirty', 'match_dirty_pkey',
	    'researchers_block', 'researchers_search_key',
	    'researcher_directory_pkey', 'stale_pages',
	    -- 70-85 %
	    'researchers_name_trgm', 'researcher_directory',
	    'researchers_name_key', 'stale_pages_pkey',
	    -- about two thirds, and the largest
	    'authorships', 'researcher_directory_order']
	WHEN 'refresh' THEN ARRAY[
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
	    'coauthor_pairs_pkey', 'coauthor_pairs']
	END;
	IF names IS NULL THEN
		RAISE EXCEPTION 'weft_prewarm: no step "%" (match or refresh)',
		    step USING ERRCODE = 'invalid_parameter_value';
	END IF;
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
		SELECT r
		  FROM unnest(names) WITH ORDINALITY AS x(name, o),
		       LATERAL to_regclass(x.name) AS r
		 WHERE r IS NOT NULL
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

CREATE OR REPLACE FUNCTION weft_prewarm() RETURNS text
	LANGUAGE sql AS $$ SELECT weft_prewarm('refresh') $$;
