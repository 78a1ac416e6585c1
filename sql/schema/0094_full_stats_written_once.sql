-- 0094_full_stats_written_once.sql -- a refresh of every row writes
-- each researcher's stats row once with its reasons and an empty
-- co-author evidence, not empty and then updated twice (issue 19).
--
-- LOCKS: none beyond replacing functions.
--
-- 0081 did this for the day's refresh; the full path (refresh --full,
-- a first load) still emptied researcher_stats, inserted every row
-- without its evidence, then updated all of them twice: the evidence
-- to '[]' for everyone without co-author evidence, and the match
-- reasons.  At 1.92 M papers (4.33 M researchers, warm) those two
-- updates took 13.5-21.8 s and 26.2-29.5 s of a 678-692 s refresh
-- (auto_explain), and each left a dead version of every row.  Now the
-- reasons are computed first (weft_reasons_compute, 0081) and the
-- insert writes them with the evidence '[]'; weft_researcher_evidence_
-- fill then writes only the rows with co-author evidence, and
-- weft_researcher_reasons_fill none (it writes only where the reasons
-- differ).  At 2.02 M papers (4.46 M researchers) the full refresh then
-- updated 2.95 M rows of researcher_stats (the figures here, 2.83 M, and
-- the evidence), where before it also updated every row twice more, and
-- left the table at 1,620 MB against 2,695 MB; its time stayed within
-- its spread between runs (786.6 s; tests/bench/README.md,
-- thirty-first session).
-- The values are the same: tests/integration/t_refresh.sh compares the
-- incremental refresh with a full one, and counts a rolled-back full
-- refresh's writes of researcher_stats.
-- Forward-only: never edit once landed; add another.

-- 0076's, the reasons computed before the stats are inserted.
CREATE OR REPLACE FUNCTION weft_researcher_derived_fill(all_rows boolean)
	RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF to_regclass('pg_temp.weft_reasons') IS NULL THEN
		PERFORM weft_reasons_compute();
	END IF;
	PERFORM weft_researcher_derived_fill_0009(all_rows);
	PERFORM weft_researcher_evidence_fill();
	PERFORM weft_researcher_reasons_fill();
END;
$$;

-- 0040's, the stats inserted with their reasons (weft_reasons, which
-- weft_researcher_derived_fill computes first) and an empty co-author
-- evidence (weft_researcher_evidence_fill writes the rest after).
CREATE OR REPLACE FUNCTION weft_researcher_derived_fill_0009(all_rows boolean)
	RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	IF all_rows THEN
		TRUNCATE coauthor_pairs, researcher_stats;
		INSERT INTO coauthor_pairs (a, b, papers)
		SELECT a1.researcher_id, a2.researcher_id,
		       count(DISTINCT a1.paper_id)
		  FROM authorships a1
		  JOIN papers p ON p.id = a1.paper_id
		               AND p.author_count <= weft_pair_authors_max()
		  JOIN authorships a2 ON a2.paper_id = a1.paper_id
		                     AND a2.researcher_id <> a1.researcher_id
		 GROUP BY 1, 2;
	ELSE
		-- Pairs are symmetric: the mirrors of a touched researcher's
		-- rows, then its own rows, each by the primary key.
		DELETE FROM coauthor_pairs c
		 USING coauthor_pairs m, weft_touched t
		 WHERE m.a = t.id AND c.a = m.b AND c.b = m.a;
		DELETE FROM coauthor_pairs
		 WHERE a IN (SELECT id FROM weft_touched);
		DELETE FROM researcher_stats
		 WHERE researcher_id IN (SELECT id FROM weft_touched);
		-- Each pair with a touched end, in both directions, once.
		INSERT INTO coauthor_pairs (a, b, papers)
		SELECT d.x2, d.y2, count(DISTINCT e.pid)
		  FROM (SELECT a1.researcher_id AS x, a2.researcher_id AS y,
		               a1.paper_id AS pid, t2.id AS y_touched
		          FROM weft_touched t
		          JOIN authorships a1 ON a1.researcher_id = t.id
		          JOIN papers p ON p.id = a1.paper_id
		               AND p.author_count <= weft_pair_authors_max()
		          JOIN authorships a2 ON a2.paper_id = a1.paper_id
		                 AND a2.researcher_id <> a1.researcher_id
		          LEFT JOIN weft_touched t2 ON t2.id = a2.researcher_id)
		       e, LATERAL (VALUES (e.x, e.y), (e.y, e.x)) AS d(x2, y2)
		 WHERE (d.x2 = e.x OR e.y_touched IS NULL)
		 GROUP BY 1, 2
		    ON CONFLICT (a, b) DO UPDATE SET papers = excluded.papers;
	END IF;
	INSERT INTO researcher_stats (researcher_id, first_pos, middle_pos,
	    last_pos, counted, total, fields, timeline, large_papers,
	    evidence_co, evidence_reasons)
	WITH mine AS MATERIALIZED (
		SELECT a.researcher_id AS id, a.paper_id, a.position,
		       p.fully_matched, p.author_count, p.categories,
		       p.published
		  FROM weft_touched t
		  JOIN authorships a ON a.researcher_id = t.id
		  JOIN papers p ON p.id = a.paper_id
	), each_paper AS (
		SELECT DISTINCT ON (id, paper_id) id, paper_id, categories,
		       published
		  FROM mine
	), pos AS (
		SELECT id,
		       count(DISTINCT paper_id) FILTER (WHERE fully_matched
		           AND position = 1) AS f,
		       count(DISTINCT paper_id) FILTER (WHERE fully_matched
		           AND position > 1 AND position < author_count) AS m,
		       count(DISTINCT paper_id) FILTER (WHERE fully_matched
		           AND position > 1 AND position >= author_count) AS l,
		       count(DISTINCT paper_id) FILTER (WHERE fully_matched)
		           AS c,
		       count(DISTINCT paper_id) AS n,
		       count(DISTINCT paper_id) FILTER (WHERE author_count >
		           weft_pair_authors_max()) AS large
		  FROM mine
		 GROUP BY id
	), fields AS (
		SELECT id, json_agg(json_build_array(c, n) ORDER BY n DESC, c)
		           AS j
		  FROM (SELECT id, c, count(*) AS n
		          FROM each_paper, unnest(categories) AS c
		         GROUP BY 1, 2) f
		 GROUP BY id
	), timeline AS (
		SELECT id, json_agg(json_build_array(y, n) ORDER BY y) AS j
		  FROM (SELECT id, extract(year FROM published)::integer AS y,
		               count(*) AS n
		          FROM each_paper
		         WHERE published IS NOT NULL
		         GROUP BY 1, 2) t
		 GROUP BY id
	)
	SELECT t.id, coalesce(pos.f, 0), coalesce(pos.m, 0),
	       coalesce(pos.l, 0), coalesce(pos.c, 0), coalesce(pos.n, 0),
	       coalesce(fields.j, '[]'), coalesce(timeline.j, '[]'),
	       coalesce(pos.large, 0), '[]', coalesce(rs.j, '[]')
	  FROM weft_touched t
	  JOIN researchers r ON r.id = t.id
	  LEFT JOIN pos ON pos.id = t.id
	  LEFT JOIN fields ON fields.id = t.id
	  LEFT JOIN timeline ON timeline.id = t.id
	  LEFT JOIN weft_reasons rs ON rs.id = t.id;
END;
$$;
