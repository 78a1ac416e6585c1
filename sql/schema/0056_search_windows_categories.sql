-- 0056_search_windows_categories.sql -- a common word in a category
-- read from the window's index, words and categories both (issue 19,
-- item 2).
--
-- The windows (0048, 0053) are partial GIN indexes of search_vector
-- only: a search in a category that takes one visits every match the
-- window holds and keeps those of the category.  At 1,100,001 papers
-- "open source" in cs.DB visited the 28,807 matches of the far window
-- for its 1,853 in cs.DB (294 ms for the page), and "short, lexical,
-- a category" was 178.7 ms at p95 (tests/bench/README.md, "A day's
-- batch at 1 M with citation counts").
--
-- Each window's index now holds the categories beside the words, so
-- that SEARCH_CANDIDATES' window branch (categories @> ARRAY[...]) reads
-- both in one GIN scan, which skips through the longer posting list by
-- the shorter.  Tried by hand on that cluster: 800-993 ms → 71-74 ms
-- for that pool, and a rare word in cs.LG (the largest category) 3-5 ms
-- either way.  Indexes of the old shape are built again, under a name
-- of their own (papers_words_*), by "weft-harvest migrate" right after
-- this file (or the next refresh): the window is due when its index
-- lacks the categories.  Until then it is no window (its predicate
-- cannot serve the bound below), and searches take the other ways.
--
-- A window's bound is now on "published + 0" (and "citation_count +
-- 0"), in the index predicate and in SEARCH_CANDIDATES: with the
-- categories in the near window's index and in the far one's, the
-- planner read the far one for a near window's search, AND-ed with
-- the papers_published btree for the date (its estimate of that AND
-- a seventh of the rows it gave): "learning" in cs.CV visited 3,157
-- heap rows from 18,793 index entries, 283 ms, against 2,043 entries
-- from the near window's own index.  No plain index serves "+ 0", and
-- statistics over the two expressions give the planner each window's
-- size, so it reads the smallest window that holds the search.
--
-- weft_search_way prices a window in a category as its matches there,
-- plus a twelfth of the shorter of the word's and the category's
-- entries in it (the GIN scan skips through the longer by the
-- shorter), and so the GIN way in a category, whose index holds the
-- categories too from 0057.  And it tries a window whose matches its estimate says
-- will not fill the pool, when the estimate is uncertain: several
-- words (their document counts taken as independent) or a category
-- (its share of the corpus from the planner's statistics, not of the
-- word's papers).  "unlocking" in cs.DC: an estimate of 201 matches in
-- the far window for a pool of 300, 422 there; "concept analysis llms"
-- in cs.CL: 10,512 matches in the corpus against an estimate of 7,984,
-- and its GIN way visited 4,322 heap rows (273 ms) where the far
-- window fills the pool (30 ms).  A try that does not fill costs the
-- window's share of the matches (15 % at most), then the way after
-- it.  The chance it fills: from one at twice the pool to none at the
-- pool divided by the estimate's uncertainty (20; 1 for one word and
-- no category, whose count is exact), by the logarithm.
-- Forward-only: never edit once landed; add another.

-- The planner's figures for the windows' bounds: how many papers are
-- published since a date, cited some times or more, when the bound is
-- on "+ 0" (no plain index serves it; see above).
CREATE STATISTICS papers_published_0 ON (published + 0) FROM papers;
CREATE STATISTICS papers_citations_0 ON (citation_count + 0) FROM papers;
ANALYZE papers;

-- Whether idx is a valid window index of words and categories: one of
-- the old shape (the words only) cannot serve SEARCH_CANDIDATES' bound
-- on "+ 0", so it is no window until the refresh builds it again.
CREATE FUNCTION weft_search_window_index_ok(idx text) RETURNS boolean
	LANGUAGE sql STABLE
	RETURN weft_index_ok(idx)
	       AND (SELECT i.indnatts = 2 FROM pg_index i
	             WHERE i.indexrelid = to_regclass(idx));

-- What visiting a way's matches costs, in heap rows: matches of the
-- papers in a category of share f when in_cat, plus a twelfth of the
-- shorter of the word's and the category's index entries (one GIN scan
-- skips through the longer by the shorter); without a category, the
-- matches.  The GIN way and a window are priced alike.
CREATE FUNCTION weft_search_visits(matches float8, papers float8,
    f float8, in_cat boolean) RETURNS float8
	LANGUAGE sql IMMUTABLE
	RETURN CASE WHEN in_cat
	            THEN matches * f + least(matches, papers * f) / 12
	            ELSE matches END;

-- 0055's, with indexes of words and categories (papers_words_*), and a
-- window on an index of the old shape due.
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
		IF cur IS NOT NULL
		   AND weft_search_window_index_ok(w.index_name) THEN
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
		idx := format('papers_words_%s_%s', w.name,
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
			    'USING gin (search_vector, categories) WHERE %s',
			    idx, CASE WHEN cited
			              THEN format('citation_count + 0 >= %s',
			                          b::integer)
			              ELSE format('published + 0 >= %L::date', b)
			         END);
		END IF;
		RETURN NEXT;
	END LOOP;
END $$;

-- 0053's, a window in a category priced by what its index reads, and
-- a citation window only on an index of the new shape.
CREATE OR REPLACE FUNCTION weft_search_way(q text, pool integer, sort text,
    cat text, upto date, near date, far date)
	RETURNS TABLE (way text, after text)
	LANGUAGE sql STABLE AS $$
WITH m AS (
	SELECT cc.papers::float8 AS n,
	       coalesce(cc.papers * exp(sum(ln(least(1.0,
	           coalesce(st.ndoc, 20)::float8 / greatest(cc.papers, 1))))),
	           0) AS m,
	       count(l) AS words
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
), u AS (
	SELECT CASE WHEN cat IS NOT NULL OR m.words > 1 THEN 20.0 ELSE 1.0 END
	           AS u
	  FROM m
), c AS (
	SELECT w.name, m.m * w.papers / greatest(m.n, 1) AS inside,
	       w.papers::float8 AS papers
	  FROM m, search_windows w
	 WHERE sort IS DISTINCT FROM 'citations'
	   AND w.since = CASE w.name WHEN 'near' THEN near ELSE far END
	   AND (upto IS NULL OR upto >= w.since)
	   AND w.papers > 0
	UNION ALL
	SELECT w.name, m.m * w.papers / greatest(m.n, 1), w.papers
	  FROM m, search_windows w
	 WHERE sort = 'citations'
	   AND weft_search_window_cited(w.name)
	   AND w.min_citations IS NOT NULL
	   AND w.papers > 0
	   AND weft_search_window_index_ok(w.index_name)
), whole AS (
	SELECT 'walk' AS way,
	       least(2.0 * pool * m.n / greatest(m.m * f.f, 1),
	             CASE WHEN cat IS NOT NULL
	                  THEN (m.m + m.n * f.f) / 12 + m.m * f.f END) AS cost
	  FROM m, f
	UNION ALL
	SELECT 'gin', weft_search_visits(m.m, m.n, f.f, cat IS NOT NULL)
	  FROM m, f
), after AS (
	SELECT way, cost FROM whole ORDER BY cost, way LIMIT 1
), ways AS (
	SELECT way, cost FROM whole
	UNION ALL
	SELECT c.name,
	       weft_search_visits(c.inside, c.papers, f.f, cat IS NOT NULL)
	       + a.cost * least(1, greatest(0,
	             ln(2.0 * pool / greatest(c.inside * f.f, 1)) / ln(2.0 * u.u)))
	  FROM c, f, after a, u
	 WHERE c.inside * f.f * u.u >= pool
)
SELECT (SELECT way FROM ways ORDER BY cost, way LIMIT 1),
       (SELECT way FROM after)
$$;
