-- 0069_stats_read_by_id.sql -- the refresh reads the statistics of
-- the researchers it moves once, with their number known (issue 19,
-- item 3).
--
-- LOCKS: none beyond replacing a function.
--
-- weft_derived_apply (0060) updates researcher_stats from the day's
-- sides: the rows it moves, their fields and timeline lists read back
-- to be merged with the moves.  moved was a CTE, a union of aggregates
-- the planner put at 1,027,330 rows for 95,274, so it read
-- researcher_stats (3.97 M rows, 1.2 GB) whole three times, once for
-- each list and once for the update, and hashed all of it twice, on
-- disk: 10.9 s, 462,768 pages read and 115,105 temp pages written for a
-- day of 20,000 papers at 1.78 M papers (auto_explain,
-- tests/bench/refresh_daily.sh, day 33).  The moves are now temp tables,
-- analyzed, and the lists are read once (cur): two scans, the hashes
-- built on the 100,000 moved rows, 9.3 s and 343,577 pages (day 34).
-- (Looking the rows up by id instead, an array as 0055 does, was
-- slower: 4.5 s to fetch 94,244 rows against 2.1 s for the scan, and
-- in the update the planner repeated the array's index scan for every
-- row; the refresh was cancelled after 3 minutes.)
-- Same rows: tests/integration/t_refresh.sh compares with a full
-- rebuild.
-- Forward-only: never edit once landed; add another.

CREATE OR REPLACE FUNCTION weft_derived_apply() RETURNS void
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

	-- Both look the touched researchers up by id (an array, a
	-- subquery per row): as joins, the planner read every
	-- researcher_stats row for them (2.9 s at 2.8 M researchers to
	-- insert none).
	DELETE FROM researcher_stats s
	 WHERE s.researcher_id = ANY (ARRAY(
	           SELECT t.id FROM weft_touched t
	            WHERE NOT EXISTS (SELECT 1 FROM researchers r
	                               WHERE r.id = t.id)));
	INSERT INTO researcher_stats (researcher_id, first_pos, middle_pos,
	    last_pos, counted, total, fields, timeline, large_papers)
	SELECT t.id, 0, 0, 0, 0, 0, '[]', '[]', 0
	  FROM weft_touched t
	 WHERE (SELECT true FROM researcher_stats s
	         WHERE s.researcher_id = t.id) IS NULL
	   AND EXISTS (SELECT 1 FROM researchers r WHERE r.id = t.id)
	    ON CONFLICT (researcher_id) DO NOTHING;

	-- Counts move by the sums of the sides; the json lists are rebuilt
	-- from their elements and the moves: [[category, papers]], most
	-- first, then by category; [[year, papers]], oldest first.  One
	-- UPDATE: each row is written once.
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
	WITH cur AS MATERIALIZED (
		SELECT s.researcher_id AS id, s.fields, s.timeline
		  FROM weft_moved mv
		  JOIN researcher_stats s ON s.researcher_id = mv.id
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
	UPDATE researcher_stats s
	   SET first_pos = s.first_pos + d.f,
	       middle_pos = s.middle_pos + d.m,
	       last_pos = s.last_pos + d.l,
	       counted = s.counted + d.c,
	       total = s.total + d.n,
	       large_papers = s.large_papers + d.large,
	       fields = coalesce(fj.j, '[]'),
	       timeline = coalesce(tj.j, '[]')
	  FROM cur mv
	  JOIN weft_counts d ON d.id = mv.id
	  LEFT JOIN fields fj ON fj.id = mv.id
	  LEFT JOIN timeline tj ON tj.id = mv.id
	 WHERE s.researcher_id = mv.id;
	DROP TABLE weft_counts, weft_fdelta, weft_tdelta, weft_moved;
END;
$$;
