-- 0098_harvest_prewarm.sql -- the day's harvest reads its relations in
-- order first, as the match and the refresh do (0096, 0097; issue 19,
-- item 3), and the lists become rows.
--
-- LOCKS: none beyond creating a table and replacing a function (and,
-- while weft_prewarm() runs, a reader's lock on one relation at a
-- time).
--
-- A day's `weft-harvest arxiv oai` (20 pages of 1,000), cold at 580,001
-- papers (tests/bench/README.md, thirty-seventh session), read from the
-- disk nearly all of the researchers' name, block and search keys, the
-- authorships' block index, the near window and its words, the notes'
-- keys, most of the far window's words and of the authorships'
-- researcher index, half of researchers and 40 % of the papers' search
-- index: about 277,000 pages (2.2 GB), most one at a time.  Read in
-- order first (3.0 s), the harvest took 51.1-51.2 s instead of
-- 67.8-76.1 s from the same copy.
--
-- Each step's relations are rows of prewarm_relations, in order of
-- need (read whole first); weft_prewarm(step) reads them as 0096's did,
-- within the same budget.  A later list is a change of rows, not of
-- the function.  Forward-only: never edit once landed; add another.

CREATE TABLE prewarm_relations (
	step     text NOT NULL,
	position int  NOT NULL,
	relation text NOT NULL,
	PRIMARY KEY (step, position)
);

INSERT INTO prewarm_relations (step, position, relation)
SELECT l.step, x.o, x.name
  FROM (VALUES
	-- 0097: read whole or more by a cold day's match at 540 k, then
	-- 70-85 %, then about two thirds and the largest
	('match', ARRAY[
	    'researchers', 'researchers_pkey',
	    'authorships_researcher_newest', 'authorships_block',
	    'paper_author_keys', 'paper_author_keys_pkey',
	    'match_evidence', 'match_evidence_pkey',
	    'match_dirty', 'match_dirty_pkey',
	    'researchers_block', 'researchers_search_key',
	    'researcher_directory_pkey', 'stale_pages',
	    'researchers_name_trgm', 'researcher_directory',
	    'researchers_name_key', 'stale_pages_pkey',
	    'authorships', 'researcher_directory_order']),
	-- 0096: read whole or more by a cold refresh at 1.2 M, then
	-- 60-90 %, then about a third and the largest
	('refresh', ARRAY[
	    'researcher_stats', 'researcher_stats_pkey',
	    'researchers', 'researchers_pkey',
	    'researcher_directory', 'authorships',
	    'search_near', 'search_far',
	    'researchers_name_key', 'researchers_block',
	    'researchers_search_key', 'researchers_name_trgm',
	    'researcher_name_words_researcher',
	    'authorships_researcher_newest',
	    'researcher_name_words_ranked', 'researcher_name_words',
	    'authorships_pkey',
	    'coauthor_pairs_pkey', 'coauthor_pairs']),
	-- read whole by a cold day's harvest at 580 k, then 85-93 %, then
	-- 40-72 % and the largest
	('harvest', ARRAY[
	    'researchers_name_key', 'authorships_block',
	    'name_words_due_pkey', 'match_dirty_pkey',
	    'search_near', 'search_term_delta',
	    'researchers_search_key', 'search_near_words',
	    'search_far_words', 'researchers_pkey',
	    'authorships_researcher_newest', 'researchers_block',
	    'researchers', 'papers_search'])
       ) AS l(step, names),
       unnest(l.names) WITH ORDINALITY AS x(name, o);

CREATE OR REPLACE FUNCTION weft_prewarm(step text) RETURNS text
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
	IF NOT EXISTS (SELECT 1 FROM prewarm_relations p
	                WHERE p.step = weft_prewarm.step) THEN
		RAISE EXCEPTION 'weft_prewarm: no step "%" (%)', step,
		    (SELECT string_agg(DISTINCT p.step, ', ')
		       FROM prewarm_relations p)
		    USING ERRCODE = 'invalid_parameter_value';
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
		  FROM prewarm_relations p, LATERAL to_regclass(p.relation) AS r
		 WHERE p.step = weft_prewarm.step AND r IS NOT NULL
		 ORDER BY p.position
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
