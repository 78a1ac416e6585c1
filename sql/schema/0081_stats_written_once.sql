-- 0081_stats_written_once.sql -- researcher_stats keeps room on its
-- pages for its rows' new versions, and a refresh writes each row fewer
-- times (issue 19, item 3).
--
-- LOCKS: ALTER TABLE ... SET (fillfactor) takes a SHARE UPDATE
-- EXCLUSIVE lock on researcher_stats for a catalog write, and rewrites
-- nothing; then functions are replaced.
--
-- A day's refresh updates researcher_stats three times a row: the
-- counts and lists (weft_derived_apply), the co-author evidence and the
-- match reasons (0063, 0013), after inserting an empty row for each new
-- researcher.  Only the primary key indexes the table and none of these
-- columns is in it, so every update could be HOT, but the pages had no
-- room (fillfactor 100): 2,380 of 248,266 updates were HOT on a day of
-- 20,000 papers at 200,000 (pg_stat_user_tables), and each of the
-- others wrote a second page and a primary key entry, and left a dead
-- row behind (287 MB for 762,803 rows of about 180 bytes).
--
-- Now the pages are filled to 80 %, so an update finds room beside its
-- row; a table loaded from here on has the room from the start, an
-- existing one gains it as rows move (or at once with VACUUM FULL
-- researcher_stats, which locks the table while it runs).  And a new
-- researcher's row is inserted once with its counts, lists and reasons
-- (weft_stats_new, weft_reasons), not empty and then updated twice; the
-- reasons are written once, with the counts, and weft_researcher_
-- reasons_fill then writes only the rows whose reasons still differ
-- (the touched researchers that did not move, and every row in the
-- full path, which computes them itself).
-- Same rows: tests/integration/t_refresh.sh compares the incremental
-- refresh with a full one, and checks that a refresh's updates of
-- researcher_stats are HOT.
-- Forward-only: never edit once landed; add another.

ALTER TABLE researcher_stats SET (fillfactor = 80);

-- The match reasons of weft_touched's researchers, as weft_reasons
-- (id, j): [[reason, papers, mean score, lowest score]], most first
-- (0013's statement, kept in a temporary table for the transaction).
CREATE FUNCTION weft_reasons_compute() RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	CREATE TEMP TABLE weft_reasons ON COMMIT DROP AS
	SELECT t.id, coalesce(g.j, '[]') AS j
	  FROM weft_touched t
	  LEFT JOIN (
		SELECT id, json_agg(json_build_array(reason, n, av, mn)
		                    ORDER BY n DESC, reason) AS j
		  FROM (SELECT a.researcher_id AS id,
		               coalesce(a.match_reason, '') AS reason,
		               count(DISTINCT a.paper_id) AS n,
		               round(avg(a.match_score)::numeric, 2) AS av,
		               round(min(a.match_score)::numeric, 2) AS mn
		          FROM weft_touched t2
		          JOIN authorships a ON a.researcher_id = t2.id
		         GROUP BY 1, 2) r
		 GROUP BY id) g ON g.id = t.id;
	ANALYZE weft_reasons;
END;
$$;

-- The rows whose reasons differ from weft_reasons, computed here unless
-- weft_derived_apply did (json has no equality: the text is compared,
-- which one expression writes in one form).
CREATE OR REPLACE FUNCTION weft_researcher_reasons_fill() RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	IF to_regclass('pg_temp.weft_reasons') IS NULL THEN
		PERFORM weft_reasons_compute();
	END IF;
	UPDATE researcher_stats s
	   SET evidence_reasons = r.j
	  FROM weft_reasons r
	 WHERE s.researcher_id = r.id
	   AND s.evidence_reasons::text IS DISTINCT FROM r.j::text;
	DROP TABLE weft_reasons;
END;
$$;

-- The pairs' part of 0069's weft_derived_apply, unchanged, as a
-- function of its own: a later change to either part restates only it.
CREATE FUNCTION weft_pairs_apply() RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	-- Pairs: each paper's researchers pairwise, by the paper's sign.
	CREATE TEMP TABLE weft_pair_delta ON COMMIT DROP AS
	SELECT x.researcher_id AS a, y.researcher_id AS b,
	       sum(x.sign)::integer AS dn
	  FROM weft_side x
	  JOIN weft_side y ON y.sign = x.sign AND y.paper_id = x.paper_id
	                  AND y.researcher_id <> x.researcher_id
	 WHERE NOT x.large
	 GROUP BY 1, 2
	HAVING sum(x.sign) <> 0;
	-- In key order: the index pages are then visited once each, not at
	-- random (27.8 s unordered for 20,000 papers at 540,001, 0042's
	-- first version).
	-- The pairs left with no paper come back from the upsert.
	CREATE TEMP TABLE weft_pair_gone (a bigint, b bigint)
		ON COMMIT DROP;
	WITH up AS (
		INSERT INTO coauthor_pairs AS c (a, b, papers)
		SELECT a, b, dn FROM weft_pair_delta ORDER BY a, b
		    ON CONFLICT (a, b) DO UPDATE
		   SET papers = c.papers + excluded.papers
		RETURNING c.a, c.b, c.papers)
	INSERT INTO weft_pair_gone SELECT a, b FROM up WHERE papers <= 0;
	ANALYZE weft_pair_gone;
	DELETE FROM coauthor_pairs c
	 USING weft_pair_gone g
	 WHERE c.a = g.a AND c.b = g.b AND c.papers <= 0;
	DROP TABLE weft_pair_gone;
	DROP TABLE weft_pair_delta;
END;
$$;

-- 0069's, with the stats part writing each row once.
CREATE OR REPLACE FUNCTION weft_derived_apply() RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	PERFORM weft_pairs_apply();

	-- The rows of researchers gone.  Looked up by id (an array): as a
	-- join, the planner read every researcher_stats row (0055).
	DELETE FROM researcher_stats s
	 WHERE s.researcher_id = ANY (ARRAY(
	           SELECT t.id FROM weft_touched t
	            WHERE NOT EXISTS (SELECT 1 FROM researchers r
	                               WHERE r.id = t.id)));
	PERFORM weft_reasons_compute();

	-- Counts move by the sums of the sides; the json lists are rebuilt
	-- from their elements and the moves: [[category, papers]], most
	-- first, then by category; [[year, papers]], oldest first.  A
	-- researcher with no row yet (new) starts from nothing.
	CREATE TEMP TABLE weft_counts ON COMMIT DROP AS
	SELECT researcher_id AS id,
	       sum(sign * f::integer) AS f,
	       sum(sign * m::integer) AS m,
	       sum(sign * l::integer) AS l,
	       sum(sign * c::integer) AS c,
	       sum(sign) AS n,
	       sum(sign * large::integer) AS large
	  FROM weft_side
	 GROUP BY 1;
	CREATE TEMP TABLE weft_fdelta ON COMMIT DROP AS
	SELECT researcher_id AS id, u.cat, sum(sign) AS n
	  FROM weft_side, unnest(categories) AS u(cat)
	 GROUP BY 1, 2
	HAVING sum(sign) <> 0;
	CREATE TEMP TABLE weft_tdelta ON COMMIT DROP AS
	SELECT researcher_id AS id,
	       extract(year FROM published)::integer AS y,
	       sum(sign) AS n
	  FROM weft_side
	 WHERE published IS NOT NULL
	 GROUP BY 1, 2
	HAVING sum(sign) <> 0;
	CREATE TEMP TABLE weft_moved ON COMMIT DROP AS
	SELECT id FROM weft_counts
	 WHERE (f, m, l, c, n, large) <> (0, 0, 0, 0, 0, 0)
	 UNION
	SELECT id FROM weft_fdelta
	 UNION
	SELECT id FROM weft_tdelta;
	ANALYZE weft_counts, weft_fdelta, weft_tdelta, weft_moved;
	CREATE TEMP TABLE weft_stats_new ON COMMIT DROP AS
	WITH cur AS MATERIALIZED (
		SELECT mv.id, s.first_pos, s.middle_pos, s.last_pos, s.counted,
		       s.total, s.large_papers, s.fields, s.timeline
		  FROM weft_moved mv
		  LEFT JOIN researcher_stats s ON s.researcher_id = mv.id
	), fields AS (
		SELECT id, json_agg(json_build_array(cat, n) ORDER BY n DESC, cat)
		           AS j
		  FROM (SELECT id, cat, sum(n)::bigint AS n
		          FROM (SELECT s.id, e->>0 AS cat, (e->>1)::bigint AS n
		                  FROM cur s, json_array_elements(s.fields) AS e
		                 UNION ALL
		                SELECT id, cat, n FROM weft_fdelta) x
		         GROUP BY 1, 2
		        HAVING sum(n) > 0) x
		 GROUP BY id
	), timeline AS (
		SELECT id, json_agg(json_build_array(y, n) ORDER BY y) AS j
		  FROM (SELECT id, y, sum(n)::bigint AS n
		          FROM (SELECT s.id, (e->>0)::integer AS y,
		                       (e->>1)::bigint AS n
		                  FROM cur s, json_array_elements(s.timeline) AS e
		                 UNION ALL
		                SELECT id, y, n FROM weft_tdelta) x
		         GROUP BY 1, 2
		        HAVING sum(n) > 0) x
		 GROUP BY id
	)
	SELECT mv.id,
	       coalesce(mv.first_pos, 0) + d.f AS first_pos,
	       coalesce(mv.middle_pos, 0) + d.m AS middle_pos,
	       coalesce(mv.last_pos, 0) + d.l AS last_pos,
	       coalesce(mv.counted, 0) + d.c AS counted,
	       coalesce(mv.total, 0) + d.n AS total,
	       coalesce(mv.large_papers, 0) + d.large AS large_papers,
	       coalesce(fj.j, '[]') AS fields,
	       coalesce(tj.j, '[]') AS timeline
	  FROM cur mv
	  JOIN weft_counts d ON d.id = mv.id
	  LEFT JOIN fields fj ON fj.id = mv.id
	  LEFT JOIN timeline tj ON tj.id = mv.id;
	ANALYZE weft_stats_new;
	-- One UPDATE: each row is written once, its reasons with it.
	UPDATE researcher_stats s
	   SET first_pos = n.first_pos,
	       middle_pos = n.middle_pos,
	       last_pos = n.last_pos,
	       counted = n.counted,
	       total = n.total,
	       large_papers = n.large_papers,
	       fields = n.fields,
	       timeline = n.timeline,
	       evidence_reasons = coalesce(r.j, s.evidence_reasons)
	  FROM weft_stats_new n
	  LEFT JOIN weft_reasons r ON r.id = n.id
	 WHERE s.researcher_id = n.id;
	-- New researchers' rows, whole (the evidence fill writes the few
	-- with co-author evidence).  Looked up by id, a subquery per row:
	-- as a join, the planner read every researcher_stats row (0055).
	INSERT INTO researcher_stats (researcher_id, first_pos, middle_pos,
	    last_pos, counted, total, fields, timeline, large_papers,
	    evidence_co, evidence_reasons)
	SELECT t.id, coalesce(n.first_pos, 0), coalesce(n.middle_pos, 0),
	       coalesce(n.last_pos, 0), coalesce(n.counted, 0),
	       coalesce(n.total, 0), coalesce(n.fields, '[]'),
	       coalesce(n.timeline, '[]'), coalesce(n.large_papers, 0),
	       '[]', coalesce(r.j, '[]')
	  FROM weft_touched t
	  LEFT JOIN weft_stats_new n ON n.id = t.id
	  LEFT JOIN weft_reasons r ON r.id = t.id
	 WHERE (SELECT true FROM researcher_stats s
	         WHERE s.researcher_id = t.id) IS NULL
	   AND EXISTS (SELECT 1 FROM researchers x WHERE x.id = t.id)
	    ON CONFLICT (researcher_id) DO NOTHING;
	DROP TABLE weft_counts, weft_fdelta, weft_tdelta, weft_moved,
	    weft_stats_new;
END;
$$;
