-- 0042_refresh_by_difference.sql -- the derived tables moved by the
-- difference a change made, not recomputed for everyone it reached
-- (issue 19, item 3).
--
-- 0036 noted which researchers a write reached and recomputed their
-- pairs and stats from their whole history: a day's batch of 20,000
-- papers reached 99,401 of 1,577,160 researchers at 500,001 papers, most
-- of the busy ones among them, and the refresh took 207.6 s
-- (tests/bench/README.md).  A co-author pair counts the papers both
-- researchers are on, and every stat counts papers, so each is a sum
-- over papers: a changed paper moves them by what it counts now minus
-- what it counted before.  Writers now keep what a paper was before its
-- first change since the last refresh:
--   derived_before_papers   its columns the stats read (present = false:
--                           the paper is new, it counted nothing);
--   derived_before_authors  each position's researcher before its first
--                           change (NULL for a new position: like an
--                           unmatched one, it counted nothing).
-- A position is written by one event of a statement (an upsert inserts
-- it or updates it), so the first note of each position is its state
-- before, whatever order the statement's triggers fire in.
-- weft_derived_refresh(false) then adds, for each changed paper, its
-- pairs and counts now and subtracts those of before (0036's notes of
-- researchers created, deleted or renamed still give them their rows).
-- The evidence co-authors and reasons (0011, 0013) are still recomputed
-- for the researchers on changed papers, the cards filled as before, the
-- lexeme counts moved as in 0036.  weft_derived_refresh(true) is
-- unchanged, and tests/integration/t_refresh.sh compares the two.
-- Forward-only: never edit once landed; add another.

CREATE TABLE derived_before_papers (
	paper_id        bigint PRIMARY KEY,
	present         boolean NOT NULL,
	categories      text[],
	published       date,
	author_count    integer,
	fully_matched   boolean
);
CREATE TABLE derived_before_authors (
	paper_id        bigint NOT NULL,
	position        integer NOT NULL,
	researcher_id   bigint,
	PRIMARY KEY (paper_id, position)
);

-- Authorships: each position's first state since the refresh, except on
-- papers new since then (they counted nothing before).  An update is
-- noted only where it changed what the derived rows read (researcher,
-- match): the matcher's name key rewrites are not changes of
-- authorship.  (A trigger with transition tables cannot name columns;
-- old and new rows are compared with EXCEPT, a hash, as a join of two
-- transition tables without statistics would be a nested loop.)
CREATE OR REPLACE FUNCTION weft_dirty_authorships_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO derived_before_authors (paper_id, position)
		SELECT n.paper_id, n.position
		  FROM dirty_new n
		 WHERE NOT EXISTS (SELECT 1 FROM derived_before_papers b
		                    WHERE b.paper_id = n.paper_id
		                      AND NOT b.present)
		    ON CONFLICT DO NOTHING;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO derived_before_authors (paper_id, position,
		    researcher_id)
		SELECT o.paper_id, o.position, o.researcher_id
		  FROM dirty_old o
		 WHERE NOT EXISTS (SELECT 1 FROM derived_before_papers b
		                    WHERE b.paper_id = o.paper_id
		                      AND NOT b.present)
		    ON CONFLICT DO NOTHING;
	ELSE
		-- Rows that changed, as they were; and a position moved to
		-- another paper or place is new there.
		INSERT INTO derived_before_authors (paper_id, position,
		    researcher_id)
		SELECT o.paper_id, o.position, o.researcher_id
		  FROM (SELECT c.paper_id, c.position, c.researcher_id
		          FROM ((SELECT paper_id, position, researcher_id,
		                        match_reason, match_score FROM dirty_old)
		                EXCEPT ALL
		                (SELECT paper_id, position, researcher_id,
		                        match_reason, match_score FROM dirty_new)) c
		         UNION ALL
		        SELECT m.paper_id, m.position, NULL::bigint
		          FROM ((SELECT paper_id, position FROM dirty_new)
		                EXCEPT
		                (SELECT paper_id, position FROM dirty_old)) m) o
		 WHERE NOT EXISTS (SELECT 1 FROM derived_before_papers b
		                    WHERE b.paper_id = o.paper_id
		                      AND NOT b.present)
		    ON CONFLICT DO NOTHING;
	END IF;
	RETURN NULL;
END;
$$;

-- Papers: new ones counted nothing before; an update or delete keeps the
-- columns as they were.  Search vectors are noted as in 0036.
CREATE OR REPLACE FUNCTION weft_dirty_papers_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO derived_before_papers (paper_id, present)
		SELECT id, false FROM dirty_new
		    ON CONFLICT DO NOTHING;
		INSERT INTO search_term_delta (sign, v)
		SELECT 1, search_vector FROM dirty_new
		 WHERE search_vector IS NOT NULL;
	ELSE
		INSERT INTO derived_before_papers (paper_id, present,
		    categories, published, author_count, fully_matched)
		SELECT id, true, categories, published, author_count,
		       fully_matched
		  FROM dirty_old
		    ON CONFLICT DO NOTHING;
		INSERT INTO search_term_delta (sign, v)
		SELECT -1, search_vector FROM dirty_old
		 WHERE search_vector IS NOT NULL;
	END IF;
	RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION weft_dirty_paper_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF (NEW.categories, NEW.published, NEW.author_count,
	    NEW.fully_matched)
	   IS DISTINCT FROM (OLD.categories, OLD.published,
	    OLD.author_count, OLD.fully_matched) THEN
		INSERT INTO derived_before_papers (paper_id, present,
		    categories, published, author_count, fully_matched)
		VALUES (OLD.id, true, OLD.categories, OLD.published,
		    OLD.author_count, OLD.fully_matched)
		    ON CONFLICT DO NOTHING;
	END IF;
	IF NEW.search_vector IS DISTINCT FROM OLD.search_vector THEN
		INSERT INTO search_term_delta (sign, v)
		SELECT d.sign, d.v
		  FROM (VALUES (-1::smallint, OLD.search_vector),
		               (1::smallint, NEW.search_vector)) AS d(sign, v)
		 WHERE d.v IS NOT NULL;
	END IF;
	RETURN NULL;
END;
$$;

-- The changed papers' authors before (sign -1) and now (+1): one row per
-- paper and researcher, with what the stats count of it, in the
-- temporary table weft_side; the changed papers' researchers in
-- weft_touched.  Returns the number of changed papers.  Consumes the notes (under a lock: a writer's note
-- waits for this transaction, and its "before" is then what this
-- refresh leaves).
CREATE FUNCTION weft_derived_sides() RETURNS integer
	LANGUAGE plpgsql AS $$
DECLARE
	npapers integer;
BEGIN
	LOCK TABLE derived_before_papers, derived_before_authors
	    IN EXCLUSIVE MODE;
	CREATE TEMP TABLE weft_bp ON COMMIT DROP AS
	WITH d AS (DELETE FROM derived_before_papers RETURNING *)
	SELECT * FROM d;
	CREATE TEMP TABLE weft_ba ON COMMIT DROP AS
	WITH d AS (DELETE FROM derived_before_authors RETURNING *)
	SELECT * FROM d;
	CREATE TEMP TABLE weft_cp (paper_id bigint PRIMARY KEY)
	    ON COMMIT DROP;
	INSERT INTO weft_cp
	SELECT paper_id FROM weft_bp UNION SELECT paper_id FROM weft_ba;
	GET DIAGNOSTICS npapers = ROW_COUNT;
	ANALYZE weft_bp, weft_ba, weft_cp;

	CREATE TEMP TABLE weft_side ON COMMIT DROP AS
	WITH was AS (
		-- The paper's columns before: its note (none if it is new),
		-- else as it is.
		SELECT paper_id, categories, published, author_count,
		       fully_matched
		  FROM weft_bp
		 WHERE present
		 UNION ALL
		SELECT p.id, p.categories, p.published, p.author_count,
		       p.fully_matched
		  FROM weft_cp c
		  JOIN papers p ON p.id = c.paper_id
		 WHERE NOT EXISTS (SELECT 1 FROM weft_bp b
		                    WHERE b.paper_id = c.paper_id)
	), was_authors AS (
		SELECT a.paper_id, a.position, a.researcher_id
		  FROM was w
		  JOIN authorships a ON a.paper_id = w.paper_id
		 WHERE NOT EXISTS (SELECT 1 FROM weft_ba s
		                    WHERE s.paper_id = a.paper_id
		                      AND s.position = a.position)
		 UNION ALL
		SELECT s.paper_id, s.position, s.researcher_id
		  FROM weft_ba s
		  JOIN was w ON w.paper_id = s.paper_id
	), rows AS (
		SELECT -1 AS sign, w.paper_id, x.researcher_id, x.position,
		       w.categories, w.published, w.author_count,
		       w.fully_matched
		  FROM was w
		  JOIN was_authors x ON x.paper_id = w.paper_id
		 UNION ALL
		SELECT 1, p.id, a.researcher_id, a.position, p.categories,
		       p.published, p.author_count, p.fully_matched
		  FROM weft_cp c
		  JOIN papers p ON p.id = c.paper_id
		  JOIN authorships a ON a.paper_id = p.id
	)
	SELECT sign, paper_id, researcher_id,
	       fully_matched AND bool_or(position = 1) AS f,
	       fully_matched AND bool_or(position > 1
	           AND position < author_count) AS m,
	       fully_matched AND bool_or(position > 1
	           AND position >= author_count) AS l,
	       fully_matched AS c,
	       author_count > weft_pair_authors_max() AS large,
	       categories, published
	  FROM rows
	 WHERE researcher_id IS NOT NULL
	 GROUP BY sign, paper_id, researcher_id, fully_matched, author_count,
	          categories, published;
	ANALYZE weft_side;

	INSERT INTO weft_touched (id)
	SELECT DISTINCT researcher_id FROM weft_side
	    ON CONFLICT DO NOTHING;
	DROP TABLE weft_bp, weft_ba, weft_cp;
	RETURN npapers;
END;
$$;

-- The pairs and stats moved by weft_side, for the researchers in
-- weft_touched (who all get a stats row; the gone lose theirs).  The
-- json lists are rebuilt with the full fill's order (0009), so that
-- both give the same text.
CREATE FUNCTION weft_derived_apply() RETURNS void
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
	INSERT INTO coauthor_pairs AS c (a, b, papers)
	SELECT a, b, dn FROM weft_pair_delta ORDER BY a, b
	    ON CONFLICT (a, b) DO UPDATE SET papers = c.papers + excluded.papers;
	DELETE FROM coauthor_pairs c
	 USING weft_pair_delta d
	 WHERE c.a = d.a AND c.b = d.b AND c.papers <= 0;
	DROP TABLE weft_pair_delta;

	DELETE FROM researcher_stats s
	 USING weft_touched t
	 WHERE s.researcher_id = t.id
	   AND NOT EXISTS (SELECT 1 FROM researchers r WHERE r.id = t.id);
	INSERT INTO researcher_stats (researcher_id, first_pos, middle_pos,
	    last_pos, counted, total, fields, timeline, large_papers)
	SELECT t.id, 0, 0, 0, 0, 0, '[]', '[]', 0
	  FROM weft_touched t
	  JOIN researchers r ON r.id = t.id
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

-- 0036's refresh, the incremental path by difference.
CREATE OR REPLACE FUNCTION weft_derived_refresh(everything boolean DEFAULT false)
	RETURNS text
	LANGUAGE plpgsql AS $$
DECLARE
	n integer;
	nlex integer;
	npapers integer;
	all_rows boolean := everything;
BEGIN
	IF NOT EXISTS (SELECT 1 FROM derived_refreshed
	                WHERE name = 'incremental') THEN
		all_rows := true;
	END IF;
	DROP TABLE IF EXISTS weft_touched;
	CREATE TEMP TABLE weft_touched (id bigint PRIMARY KEY) ON COMMIT DROP;
	-- Created, deleted and renamed researchers (0036's notes); 0036's
	-- paper notes are no longer written, those left go.
	WITH dr AS (DELETE FROM derived_dirty_researchers
	            RETURNING researcher_id)
	INSERT INTO weft_touched (id) SELECT researcher_id FROM dr;
	DELETE FROM derived_dirty_papers;
	-- Over a share of the papers changed (the setting
	-- weft.refresh_full_share, 0.2 unless set), one full pass is
	-- cheaper than the differences.
	IF NOT all_rows AND
	   (SELECT count(*) FROM (SELECT paper_id FROM derived_before_papers
	                           UNION
	                          SELECT paper_id FROM derived_before_authors)
	                         x) >
	   (SELECT count(*) FROM papers) *
	    coalesce(nullif(current_setting('weft.refresh_full_share', true),
	                    '')::float8, 0.2) THEN
		all_rows := true;
	END IF;
	IF all_rows THEN
		DELETE FROM derived_before_papers;
		DELETE FROM derived_before_authors;
		TRUNCATE weft_touched;
		INSERT INTO weft_touched SELECT id FROM researchers;
		SELECT count(*) INTO n FROM weft_touched;
		ANALYZE weft_touched;
		PERFORM weft_researcher_derived_fill(true);
		npapers := 0;
	ELSE
		npapers := weft_derived_sides();
		SELECT count(*) INTO n FROM weft_touched;
		ANALYZE weft_touched;
		PERFORM weft_derived_apply();
		PERFORM weft_researcher_evidence_fill();
		PERFORM weft_researcher_reasons_fill();
		PERFORM weft_paper_cards_fill();
		DROP TABLE weft_side;
	END IF;
	DROP TABLE weft_touched;
	IF everything THEN
		nlex := weft_search_terms_refresh();
	ELSE
		nlex := weft_search_terms_apply();
	END IF;
	INSERT INTO derived_refreshed (name, at) VALUES ('incremental', now())
	    ON CONFLICT (name) DO UPDATE SET at = excluded.at;
	RETURN format('%s: %s researchers%s, %s lexemes %s',
	    CASE WHEN all_rows THEN 'full' ELSE 'incremental' END, n,
	    CASE WHEN all_rows THEN ''
	         ELSE format(' on %s changed papers', npapers) END,
	    nlex, CASE WHEN everything THEN 'counted' ELSE 'moved' END);
END;
$$;

-- The writes before this migration left no "before" notes: the next
-- refresh is a full one.
DELETE FROM derived_refreshed WHERE name = 'incremental';
