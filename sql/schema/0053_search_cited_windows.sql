-- 0053_search_cited_windows.sql -- the most cited matches of a word
-- read from a small index of the most cited papers (issue 19, item 2).
--
-- 0048's windows serve date order only: a search sorted by citations
-- walked the citation index (common words) or visited every match
-- through the GIN index and sorted them (rarer words).  At 1,040,001
-- papers "short, hybrid, by citations" was the one row of the search
-- matrix over p95 100 ms (105.4 ms), growing with the corpus.
--
-- Two more windows, over the papers cited at least some number of
-- times: "top_cited" (2 % of the papers) and "cited" (15 %).  When the
-- matches in such a window fill the pool, the most cited pool of the
-- corpus is the window's (every paper cited more often than the pool's
-- last is in the window; ties are all in it), as for the dates.  A
-- count shared by so many papers that the window would hold more than
-- twice its share starts the window one citation higher.  A paper whose
-- count changes enters or leaves the partial index with its row, so a
-- window stays exact; the refresh builds it again when it holds more
-- than twice or less than half its share, as for the dates.
-- Forward-only: never edit once landed; add another.

ALTER TABLE search_windows DROP CONSTRAINT search_windows_name_check;
ALTER TABLE search_windows ADD CONSTRAINT search_windows_name_check
	CHECK (name IN ('near', 'far', 'top_cited', 'cited'));
ALTER TABLE search_windows ADD COLUMN min_citations integer;
INSERT INTO search_windows (name, share)
VALUES ('top_cited', 0.02), ('cited', 0.15);

-- Whether window w is over citations (else over dates).
CREATE FUNCTION weft_search_window_cited(w text) RETURNS boolean
	LANGUAGE sql IMMUTABLE
	RETURN w IN ('top_cited', 'cited');

-- The papers in window w from bound b (a date, or a number of
-- citations).
CREATE FUNCTION weft_search_window_papers(w text, b text) RETURNS bigint
	LANGUAGE sql STABLE
	RETURN CASE WHEN weft_search_window_cited(w)
	            THEN (SELECT count(*) FROM papers p
	                   WHERE p.citation_count >= b::integer)
	            ELSE (SELECT count(*) FROM papers p
	                   WHERE p.published >= b::date) END;

-- As 0048's, every window: bound is the first date, or the fewest
-- citations, of the window to build (as text); what says it in words.
DROP FUNCTION weft_search_windows_due();
CREATE FUNCTION weft_search_windows_due()
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
	SELECT count(*) INTO n FROM papers;
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

-- As 0048's, from a bound of either kind.
DROP FUNCTION weft_search_window_set(text, date, text);
CREATE FUNCTION weft_search_window_set(w text, b text, idx text)
	RETURNS text
	LANGUAGE plpgsql AS $$
DECLARE
	old text;
BEGIN
	SELECT s.index_name INTO old FROM search_windows s WHERE s.name = w
	   FOR UPDATE;
	UPDATE search_windows s
	   SET since = CASE WHEN weft_search_window_cited(w) THEN NULL
	                    ELSE b::date END,
	       min_citations = CASE WHEN weft_search_window_cited(w)
	                            THEN b::integer END,
	       index_name = idx, built_at = now(),
	       papers = weft_search_window_papers(w, b)
	 WHERE s.name = w;
	RETURN CASE WHEN old IS DISTINCT FROM idx AND old IS NOT NULL
	            THEN format('DROP INDEX CONCURRENTLY IF EXISTS %I', old) END;
END $$;

-- As 0048's, with the citation windows for a search by citations (their
-- index checked here: SEARCH_CUSTOM_PLANS checks the date windows').
CREATE OR REPLACE FUNCTION weft_search_way(q text, pool integer, sort text,
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
	UNION ALL
	SELECT w.name, m.m * w.papers / greatest(m.n, 1)
	  FROM m, search_windows w
	 WHERE sort = 'citations'
	   AND weft_search_window_cited(w.name)
	   AND w.min_citations IS NOT NULL
	   AND w.papers > 0
	   AND weft_index_ok(w.index_name)
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
