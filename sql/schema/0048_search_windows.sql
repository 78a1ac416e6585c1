-- 0048_search_windows.sql -- the newest matches of a common word read
-- from a small index of the newest papers (issue 19, item 2).
--
-- A search's pool is the newest $pool papers matching all its words.
-- SEARCH_CANDIDATES finds them by walking the date index (common words:
-- about 2 pool N / M rows tested for M matches of N papers) or through
-- the GIN index (rare words: every match visited, then sorted).  Between
-- the two, for words in 1-3 % of the papers, both cost about sqrt(N):
-- "explainability large language" visited 11,590 matches (72 ms) and
-- "counting using" walked 20,346 rows (37 ms) at 1,040,001 papers,
-- growing with the corpus.
--
-- A window is a partial GIN index over the papers published since a
-- date, sized to a share of the corpus: when the matches in the window
-- are enough to fill the pool, the newest pool of the corpus is the
-- newest pool of the window (every paper newer than the pool's last is
-- in the window), found by visiting the window's matches only: 6.8 ms
-- and 5.7 ms for the two queries above.  Two windows, "near" (2 % of the
-- papers) and "far" (15 %), leave no band of words that costs more than
-- a few thousand visits.  weft_search_way picks the cheapest way for a
-- query; a window that does not fill the pool (a word rarer in the
-- newest papers, a filter) is followed by the way it would have taken.
--
-- New papers fall in the windows (their dates are the newest), so a
-- window stays exact as it grows and only gets slower; weft-harvest's
-- refresh builds a window again, at the date that gives its share, when
-- it holds more than twice or less than half of it (after.c:
-- CREATE INDEX CONCURRENTLY, then the row, then the old index dropped
-- CONCURRENTLY: searches never wait and always have a valid window).
-- Forward-only: never edit once landed; add another.

CREATE TABLE search_windows (
	name            text PRIMARY KEY CHECK (name IN ('near', 'far')),
	share           float8 NOT NULL CHECK (share > 0 AND share < 1),
	since           date,                   -- NULL: no window yet
	index_name      text,                   -- its partial GIN index
	papers          integer,                -- papers since, when built
	built_at        timestamptz
);
INSERT INTO search_windows (name, share) VALUES ('near', 0.02), ('far', 0.15);

-- Whether index $1 exists and can be used (a CREATE INDEX CONCURRENTLY
-- that failed leaves an invalid one behind).
CREATE FUNCTION weft_index_ok(idx text) RETURNS boolean
	LANGUAGE sql STABLE
	RETURN coalesce((SELECT i.indisvalid FROM pg_index i
	                  WHERE i.indexrelid = to_regclass(idx)), false);

-- The windows due to be built: none yet, its index gone, or holding
-- more than twice or less than half of its share of the papers.  For
-- each, the date from which the newest share of the papers were
-- published, the name of the index to build for it, the statement that
-- drops an invalid index of that name first (NULL: none) and the one
-- that builds it (NULL: a valid one is there).
CREATE FUNCTION weft_search_windows_due()
	RETURNS TABLE (name text, since date, index_name text, pre text,
	               ddl text)
	LANGUAGE plpgsql AS $$
DECLARE
	w       search_windows;
	n       bigint;
	target  bigint;
	have    bigint;
	d       date;
	idx     text;
BEGIN
	SELECT count(*) INTO n FROM papers;
	IF n = 0 THEN
		RETURN;
	END IF;
	FOR w IN SELECT * FROM search_windows ORDER BY search_windows.name
	LOOP
		target := greatest(ceil(w.share * n)::bigint, 1);
		IF w.since IS NOT NULL AND weft_index_ok(w.index_name) THEN
			SELECT count(*) INTO have
			  FROM papers p WHERE p.published >= w.since;
			CONTINUE WHEN have <= 2 * target AND 2 * have >= target;
		END IF;
		SELECT p.published INTO d
		  FROM papers p
		 ORDER BY p.published DESC, p.id DESC
		OFFSET target - 1 LIMIT 1;
		idx := format('papers_search_%s_%s', w.name,
		    to_char(d, 'YYYYMMDD'));
		CONTINUE WHEN w.since = d AND idx = w.index_name
		    AND weft_index_ok(idx);
		name := w.name;
		since := d;
		index_name := idx;
		pre := NULL;
		ddl := NULL;
		IF NOT weft_index_ok(idx) THEN
			pre := CASE WHEN to_regclass(idx) IS NOT NULL
			    THEN format('DROP INDEX CONCURRENTLY %I', idx) END;
			ddl := format('CREATE INDEX CONCURRENTLY %I ON papers '
			    'USING gin (search_vector) WHERE published >= %L::date',
			    idx, d);
		END IF;
		RETURN NEXT;
	END LOOP;
END $$;

-- Window $1 now reads index $3 of the papers since $2; answers the
-- statement that drops the index it replaces (NULL: none, or the same),
-- for the caller to run outside a transaction.
CREATE FUNCTION weft_search_window_set(w text, d date, idx text)
	RETURNS text
	LANGUAGE plpgsql AS $$
DECLARE
	old text;
BEGIN
	SELECT s.index_name INTO old FROM search_windows s WHERE s.name = w
	   FOR UPDATE;
	UPDATE search_windows s
	   SET since = d, index_name = idx, built_at = now(),
	       papers = (SELECT count(*) FROM papers p WHERE p.published >= d)
	 WHERE s.name = w;
	RETURN CASE WHEN old IS DISTINCT FROM idx AND old IS NOT NULL
	            THEN format('DROP INDEX CONCURRENTLY IF EXISTS %I', old) END;
END $$;

-- The way SEARCH_CANDIDATES finds the pool of query $1 (its positive
-- words, "a or b") of $2 papers, sorted by $3 ('citations' or not), in
-- category $4 (NULL: any), with no match published after $5 (NULL:
-- open), the windows starting at $6 (near) and $7 (far) (NULL: none):
-- 'walk', 'gin', 'near' or 'far', and the way after a window that does
-- not fill the pool ('walk' or 'gin').  Costs in GIN visits (~3 us
-- each): a walk tests 2 pool N / (M F) rows (a detoasted vector each,
-- ~6 us), the GIN path visits the M matches, a window the matches in
-- it, M W / N, plus the way after it in proportion to the risk that it
-- does not fill the pool (none from two pools expected in the window
-- and the category, all at one, and not taken below one).  With a category the walk's branch may instead read
-- the GIN index and papers_categories together (a BitmapAnd, the
-- planner's choice): entries at ~0.25 us, (M + N F) / 12, and M F visits
-- ("open source" in cs.DB, 119,533 and 77,595 papers at 1 M: 100 ms,
-- where the GIN path's visit of every match took 506 ms).  M is estimated from search_terms as independent
-- words (a lexeme not listed is rare), F, the category's share of the
-- papers, from the planner's statistics of papers.categories (a
-- category they do not list: half the rarest they do).  "round" in
-- cs.SE at 1,040,001 papers: a walk of 68,000 rows (154 ms) where the
-- far window visits about 2,000.
CREATE FUNCTION weft_search_way(q text, pool integer, sort text,
    cat text, upto date, near date, far date)
	RETURNS TABLE (way text, after text)
	LANGUAGE sql STABLE AS $$
WITH m AS (
	SELECT cc.papers::float8 AS n,
	       coalesce(cc.papers * exp(sum(ln(least(1.0,
	           coalesce(st.ndoc, 20)::float8 / greatest(cc.papers, 1))))),
	           0) AS m
	  FROM corpus_counts cc
	  LEFT JOIN unnest(tsvector_to_array(to_tsvector('english'::regconfig,
	           weft_unaccent(q)))) AS l ON true
	  LEFT JOIN search_terms st ON st.lexeme = l
	 GROUP BY cc.papers
), f AS (
	SELECT CASE WHEN cat IS NULL THEN 1.0
	            ELSE coalesce((SELECT coalesce(
	                     s.most_common_elem_freqs[array_position(
	                         s.most_common_elems::text::text[], cat)],
	                     s.most_common_elem_freqs[
	                         array_length(s.most_common_elem_freqs, 1) - 2]
	                         / 2)
	                   FROM pg_stats s
	                  WHERE s.schemaname = 'public'
	                    AND s.tablename = 'papers'
	                    AND s.attname = 'categories'), 1.0)
	       END AS f
), c AS (
	SELECT w.name, m.m * w.papers / greatest(m.n, 1) AS inside
	  FROM m, search_windows w
	 WHERE sort IS DISTINCT FROM 'citations'
	   AND w.since = CASE w.name WHEN 'near' THEN near ELSE far END
	   AND (upto IS NULL OR upto >= w.since)
	   AND w.papers > 0
), whole AS (
	SELECT 'walk' AS way,
	       least(2.0 * pool * m.n / greatest(m.m * f.f, 1),
	             CASE WHEN cat IS NOT NULL
	                  THEN (m.m + m.n * f.f) / 12 + m.m * f.f END) AS cost
	  FROM m, f
	UNION ALL
	SELECT 'gin', m.m FROM m
), after AS (
	SELECT way, cost FROM whole ORDER BY cost, way LIMIT 1
), ways AS (
	SELECT way, cost FROM whole
	UNION ALL
	SELECT c.name, c.inside + greatest(0, 2 - c.inside * f.f / pool) * a.cost
	  FROM c, f, after a
	 WHERE c.inside * f.f >= pool
)
SELECT (SELECT way FROM ways ORDER BY cost, way LIMIT 1),
       (SELECT way FROM after)
$$;
