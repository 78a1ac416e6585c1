-- 0060_pairs_gone_by_key.sql -- the pairs a refresh empties are
-- deleted through their key, whatever the planner thinks of them
-- (issue 19, item 3).
--
-- weft_derived_apply (0055) deleted the co-author pairs left with no
-- paper with a join of coauthor_pairs and the day's pair deltas:
--   DELETE FROM coauthor_pairs c USING weft_pair_delta d
--    WHERE d.dn < 0 AND c.a = d.a AND c.b = d.b AND c.papers <= 0;
-- The delta is a temp table without statistics and coauthor_pairs'
-- statistics say no pair has papers <= 0, so the planner read the
-- pairs once and the delta once per pair found: after the first day's
-- pass at 1 M papers (tests/bench/refresh_daily.sh), whose merges
-- emptied many pairs, with 901,440 deltas, that statement ran 16
-- minutes and was cancelled.  The upsert now returns the pairs it
-- leaves at zero or below into a temp table of their own, analyzed,
-- and the DELETE looks each one up by its key.  Same rows:
-- tests/integration/t_refresh.sh compares with a full rebuild.
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
	WITH counts AS (
		SELECT researcher_id AS id,
		       sum(sign * f::integer) AS f,
		       sum(sign * m::integer) AS m,
		       sum(sign * l::integer) AS l,
		       sum(sign * c::integer) AS c,
		       sum(sign) AS n,
		       sum(sign * large::integer) AS large
		  FROM weft_side
		 GROUP BY 1
	), fdelta AS (
		SELECT researcher_id AS id, u.cat, sum(sign) AS n
		  FROM weft_side, unnest(categories) AS u(cat)
		 GROUP BY 1, 2
		HAVING sum(sign) <> 0
	), tdelta AS (
		SELECT researcher_id AS id,
		       extract(year FROM published)::integer AS y,
		       sum(sign) AS n
		  FROM weft_side
		 WHERE published IS NOT NULL
		 GROUP BY 1, 2
		HAVING sum(sign) <> 0
	), moved AS (
		SELECT id FROM counts
		 WHERE (f, m, l, c, n, large) <> (0, 0, 0, 0, 0, 0)
		 UNION
		SELECT id FROM fdelta
		 UNION
		SELECT id FROM tdelta
	), fields AS (
		SELECT id, json_agg(json_build_array(cat, n) ORDER BY n DESC, cat)
		           AS j
		  FROM (SELECT id, cat, sum(n)::bigint AS n
		          FROM (SELECT m.id, e->>0 AS cat, (e->>1)::bigint AS n
		                  FROM moved m
		                  JOIN researcher_stats s
		                    ON s.researcher_id = m.id,
		                       json_array_elements(s.fields) AS e
		                 UNION ALL
		                SELECT id, cat, n FROM fdelta) x
		         GROUP BY 1, 2
		        HAVING sum(n) > 0) x
		 GROUP BY id
	), timeline AS (
		SELECT id, json_agg(json_build_array(y, n) ORDER BY y) AS j
		  FROM (SELECT id, y, sum(n)::bigint AS n
		          FROM (SELECT m.id, (e->>0)::integer AS y,
		                       (e->>1)::bigint AS n
		                  FROM moved m
		                  JOIN researcher_stats s
		                    ON s.researcher_id = m.id,
		                       json_array_elements(s.timeline) AS e
		                 UNION ALL
		                SELECT id, y, n FROM tdelta) x
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
	  FROM moved mv
	  JOIN counts d ON d.id = mv.id
	  LEFT JOIN fields fj ON fj.id = mv.id
	  LEFT JOIN timeline tj ON tj.id = mv.id
	 WHERE s.researcher_id = mv.id;
END;
$$;
