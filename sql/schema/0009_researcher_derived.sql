-- 0009_researcher_derived.sql -- what the researcher page shows that
-- depends on every paper of a researcher, precomputed: co-author pairs
-- with their joint paper counts (the co-author list and the network's
-- edges are index range scans), and per researcher the author positions,
-- fields and timeline.  Rendering a busy researcher's page from
-- authorships alone read every paper of the researcher and of each
-- co-author, which grows with the corpus (tests/bench/README.md).
-- Writers keep these tables current with weft_researcher_derived_refresh()
-- (weft-harvest runs it after load, match and each harvest batch).
-- Forward-only: never edit a migration once it has landed; add another.

-- Both directions of each pair: "the co-authors of a" is one range.
CREATE TABLE coauthor_pairs (
	a               bigint NOT NULL,
	b               bigint NOT NULL,
	papers          integer NOT NULL,       -- joint papers
	PRIMARY KEY (a, b)
);
CREATE INDEX coauthor_pairs_top ON coauthor_pairs (a, papers DESC, b);

-- Counts over the researcher's papers (distinct papers; positions only
-- over fully matched papers, as on the page).
CREATE TABLE researcher_stats (
	researcher_id   bigint PRIMARY KEY,
	first_pos       integer NOT NULL,
	middle_pos      integer NOT NULL,
	last_pos        integer NOT NULL,
	counted         integer NOT NULL,       -- fully matched papers
	total           integer NOT NULL,
	fields          json NOT NULL,          -- [[category, papers]], most first
	timeline        json NOT NULL           -- [[year, papers]], oldest first
);

-- When each derived set was last refreshed (the next refresh starts
-- from there).
CREATE TABLE derived_refreshed (
	name            text PRIMARY KEY,
	at              timestamptz NOT NULL
);

-- Recomputes the rows of the researchers in weft_touched (a temporary
-- table of ids; ids of researchers that are gone lose their rows);
-- "everything" when all_rows (then the tables are emptied first, and
-- pairs are computed in one pass).
CREATE FUNCTION weft_researcher_derived_fill(all_rows boolean) RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	IF all_rows THEN
		TRUNCATE coauthor_pairs, researcher_stats;
		INSERT INTO coauthor_pairs (a, b, papers)
		SELECT a1.researcher_id, a2.researcher_id,
		       count(DISTINCT a1.paper_id)
		  FROM authorships a1
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
		          JOIN authorships a2 ON a2.paper_id = a1.paper_id
		                 AND a2.researcher_id <> a1.researcher_id
		          LEFT JOIN weft_touched t2 ON t2.id = a2.researcher_id)
		       e, LATERAL (VALUES (e.x, e.y), (e.y, e.x)) AS d(x2, y2)
		 WHERE (d.x2 = e.x OR e.y_touched IS NULL)
		 GROUP BY 1, 2
		    ON CONFLICT (a, b) DO UPDATE SET papers = excluded.papers;
	END IF;
	INSERT INTO researcher_stats (researcher_id, first_pos, middle_pos,
	    last_pos, counted, total, fields, timeline)
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
		       count(DISTINCT paper_id) AS n
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
	       coalesce(fields.j, '[]'), coalesce(timeline.j, '[]')
	  FROM weft_touched t
	  JOIN researchers r ON r.id = t.id
	  LEFT JOIN pos ON pos.id = t.id
	  LEFT JOIN fields ON fields.id = t.id
	  LEFT JOIN timeline ON timeline.id = t.id;
END;
$$;

-- Brings coauthor_pairs and researcher_stats up to date: everything
-- when all_rows (or on the first run), otherwise the researchers whose
-- papers, authorships or rows changed since the last refresh (with ten
-- minutes of overlap for writers that committed late), and their
-- co-authors' pairs with them.  Returns the number of researchers
-- recomputed.
CREATE FUNCTION weft_researcher_derived_refresh(all_rows boolean DEFAULT false)
	RETURNS integer
	LANGUAGE plpgsql AS $$
DECLARE
	since timestamptz;
	started timestamptz := now();
	n integer;
BEGIN
	SELECT at INTO since FROM derived_refreshed WHERE name = 'researcher';
	DROP TABLE IF EXISTS weft_touched;
	CREATE TEMP TABLE weft_touched (id bigint PRIMARY KEY) ON COMMIT DROP;
	IF all_rows OR since IS NULL THEN
		INSERT INTO weft_touched SELECT id FROM researchers;
		all_rows := true;
	ELSE
		INSERT INTO weft_touched
		SELECT a.researcher_id
		  FROM papers p
		  JOIN authorships a ON a.paper_id = p.id
		 WHERE p.modified_at >= since - interval '10 minutes'
		   AND a.researcher_id IS NOT NULL
		 UNION
		SELECT id FROM researchers
		 WHERE modified_at >= since - interval '10 minutes'
		 UNION
		SELECT entity_id FROM stale_pages
		 WHERE kind = 'researcher'
		   AND marked_at >= since - interval '10 minutes';
	END IF;
	ANALYZE weft_touched;
	SELECT count(*) INTO n FROM weft_touched;
	-- Past a fifth of everyone, one pass over everything is cheaper.
	IF NOT all_rows AND n * 5 > (SELECT count(*) FROM researchers) THEN
		all_rows := true;
		TRUNCATE weft_touched;
		INSERT INTO weft_touched SELECT id FROM researchers;
		SELECT count(*) INTO n FROM weft_touched;
	END IF;
	PERFORM weft_researcher_derived_fill(all_rows);
	INSERT INTO derived_refreshed (name, at) VALUES ('researcher', started)
	    ON CONFLICT (name) DO UPDATE SET at = excluded.at;
	DROP TABLE weft_touched;
	RETURN n;
END;
$$;

SELECT weft_researcher_derived_refresh(true);
