-- 0040_large_collaborations.sql -- papers with more than 100 authors
-- (large collaborations) make no co-author pairs (issue 19, item 1).
-- Pairs are quadratic in a paper's authors: at 110,000 synthetic papers
-- coauthor_pairs held 20.1 M rows, 2.4 GB of the 4.7 GB database, and
-- the 92 papers with more than 100 authors (0.08 %) made 81 % of them;
-- 7 papers with 1,323 authors made 12.2 M (tests/bench/README.md, "A
-- synthetic corpus at any size").  Bibliometric services treat such
-- collaborations apart: being one of a thousand names on a paper says
-- little about working with each of the others.
--
-- weft_pair_authors_max() is the one place saying the limit.  The fill
-- of 0009 is replaced by the same fill except that papers above the
-- limit give no pairs, in the full and the incremental path alike; the
-- researcher keeps them everywhere else (paper count, positions, fields,
-- timeline, evidence), and researcher_stats.large_papers counts them so
-- that the page can say what its co-author network leaves out.  A paper
-- crossing the limit changes its author_count, which 0036's trigger
-- notes, so the next incremental refresh recomputes its authors' pairs.
--
-- The pairs in place are stale after this migration, but they are not
-- recomputed here (at 2.5 M papers that would hold the migration for
-- many minutes): the 'incremental' row of derived_refreshed goes, so the
-- next weft_derived_refresh (0036: after load, match or each harvest
-- batch) is a full one.  Until then pages show the old pairs and no
-- large_papers (0), as before this migration.
-- Forward-only: never edit once landed; add another.

-- The most authors a paper may have and still make co-author pairs.
CREATE FUNCTION weft_pair_authors_max() RETURNS integer
	LANGUAGE sql IMMUTABLE PARALLEL SAFE
	RETURN 100;

-- Distinct papers of the researcher above weft_pair_authors_max().
ALTER TABLE researcher_stats
	ADD COLUMN large_papers integer NOT NULL DEFAULT 0;

-- 0009's fill, papers above the limit left out of the pairs (both
-- paths join papers for author_count: a hash join in the full path,
-- primary key lookups in the incremental one), and large_papers in the
-- stats.
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
	    last_pos, counted, total, fields, timeline, large_papers)
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
	       coalesce(pos.large, 0)
	  FROM weft_touched t
	  JOIN researchers r ON r.id = t.id
	  LEFT JOIN pos ON pos.id = t.id
	  LEFT JOIN fields ON fields.id = t.id
	  LEFT JOIN timeline ON timeline.id = t.id;
END;
$$;

-- The pairs in place still hold the large papers: the next refresh is a
-- full one (weft_derived_refresh, 0036, goes full without this row).
DELETE FROM derived_refreshed WHERE name = 'incremental';
