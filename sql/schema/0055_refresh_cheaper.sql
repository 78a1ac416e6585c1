-- 0055_refresh_cheaper.sql -- what a day's incremental refresh spent
-- on the whole corpus, spent on the day's rows instead (issue 19,
-- item 3).
--
-- A daily batch of 20,000 papers at 1,020,001 papers (tests/bench/
-- refresh_daily.sh, with citation counts) took 81.3 s of refresh, and
-- 2.5 M took 110-130 s; of it, whatever the batch:
--
-- * count(*) of papers, twice: for the share of changed papers above
--   which one full pass is cheaper (weft_derived_refresh), and for the
--   windows' shares (weft_search_windows_due): 4.5 s each, a scan of
--   the papers just written.  corpus_counts (0007) holds the number,
--   kept by the writers' triggers.
-- * JIT compilation of the refresh's statements, 3.0 s over 16 of
--   them (pg_stat_statements' jit_* columns): the planner's costs over
--   jit_above_cost, the rows few.  Off for the incremental refresh's
--   transaction; the full refresh, over every row, keeps it.
-- * the stats rows of researchers new and gone (weft_derived_apply,
--   0047): a join that read every researcher_stats row to insert none
--   (2.9 s in the refresh, 1.5 s alone), now a lookup by id per
--   touched researcher (1.3 s alone, growing with the batch only).
--
-- Not changed: the evidence co-authors (0043) looked up by id instead
-- of a pass over every stats row took the same 3.7-3.8 s a batch at
-- 1 M (the pairs' lookups are most of it) and 13.6 s instead of
-- 10.0 s in a full refresh.
--
-- The results are the same rows: tests/integration/t_refresh.sh
-- compares the incremental refresh with a full rebuild.
-- Forward-only: never edit once landed; add another.

-- 0052's refresh, with the count kept and JIT off for a batch.
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
	   (SELECT papers FROM corpus_counts) *
	    coalesce(nullif(current_setting('weft.refresh_full_share', true),
	                    '')::float8, 0.2) THEN
		all_rows := true;
	END IF;
	IF NOT all_rows THEN
		-- Until the transaction ends: the statements of a day's
		-- batch are each too short to repay their compilation.
		PERFORM set_config('jit', 'off', true);
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
	PERFORM weft_name_words_fill(all_rows);
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

-- 0053's, with the count kept.
CREATE OR REPLACE FUNCTION weft_search_windows_due()
	RETURNS TABLE (name text, bound text, what text, index_name text,
	               pre text, ddl text)
	LANGUAGE plpgsql AS $$
DECLARE
	w       search_windows;
	cited   boolean;
	n       bigint;
	target  bigint;
	b       text;
	cur     text;
	idx     text;
BEGIN
	SELECT cc.papers INTO n FROM corpus_counts cc;
	IF n = 0 THEN
		RETURN;
	END IF;
	FOR w IN SELECT * FROM search_windows ORDER BY search_windows.name
	LOOP
		cited := weft_search_window_cited(w.name);
		target := greatest(ceil(w.share * n)::bigint, 1);
		cur := CASE WHEN cited THEN w.min_citations::text
		            ELSE w.since::text END;
		IF cur IS NOT NULL AND weft_index_ok(w.index_name) THEN
			CONTINUE WHEN weft_search_window_papers(w.name, cur)
			    BETWEEN (target + 1) / 2 AND 2 * target;
		END IF;
		IF cited THEN
			SELECT p.citation_count::text INTO b
			  FROM papers p
			 WHERE p.citation_count IS NOT NULL
			 ORDER BY p.citation_count DESC NULLS LAST, p.id DESC
			OFFSET target - 1 LIMIT 1;
			CONTINUE WHEN b IS NULL;
			IF weft_search_window_papers(w.name, b) > 2 * target THEN
				b := (b::integer + 1)::text;
			END IF;
		ELSE
			SELECT p.published::text INTO b
			  FROM papers p
			 ORDER BY p.published DESC, p.id DESC
			OFFSET target - 1 LIMIT 1;
		END IF;
		idx := format('papers_search_%s_%s', w.name,
		    CASE WHEN cited THEN b ELSE replace(b, '-', '') END);
		CONTINUE WHEN cur = b AND idx = w.index_name
		    AND weft_index_ok(idx);
		name := w.name;
		bound := b;
		what := CASE WHEN cited
		             THEN format('the papers cited %s times or more', b)
		             ELSE format('the papers since %s', b) END;
		index_name := idx;
		pre := NULL;
		ddl := NULL;
		IF NOT weft_index_ok(idx) THEN
			pre := CASE WHEN to_regclass(idx) IS NOT NULL
			    THEN format('DROP INDEX CONCURRENTLY %I', idx) END;
			ddl := format('CREATE INDEX CONCURRENTLY %I ON papers '
			    'USING gin (search_vector) WHERE %s',
			    idx, CASE WHEN cited
			              THEN format('citation_count >= %s',
			                          b::integer)
			              ELSE format('published >= %L::date', b)
			         END);
		END IF;
		RETURN NEXT;
	END LOOP;
END $$;

-- 0047's, the stats rows of the new and the gone looked up by id.
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
	INSERT INTO coauthor_pairs AS c (a, b, papers)
	SELECT a, b, dn FROM weft_pair_delta ORDER BY a, b
	    ON CONFLICT (a, b) DO UPDATE SET papers = c.papers + excluded.papers;
	-- Only a pair that lost papers can reach none.
	DELETE FROM coauthor_pairs c
	 USING weft_pair_delta d
	 WHERE d.dn < 0 AND c.a = d.a AND c.b = d.b AND c.papers <= 0;
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
