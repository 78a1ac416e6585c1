-- 0048_search_estimate.sql -- how many papers a search's words are
-- expected to match, for the two statements that decide by it
-- (sql/queries/pages.sql: SEARCH_CANDIDATES chooses between the walk of
-- the date index and the GIN index; SEARCH_POOL_SINCE bounds the GIN
-- path by date).  The words taken as independent, each in its papers'
-- share of the corpus (search_terms; a lexeme it does not list, about
-- 20 papers; a query of no words counts as one such).
-- Forward-only: never edit once landed; add another.

-- A set-returning SQL function of one SELECT, so that the planner
-- inlines it into the statements that call it (one row).
CREATE FUNCTION weft_search_estimate(q text)
	RETURNS TABLE (papers bigint, matches float8)
	LANGUAGE sql STABLE ROWS 1 AS $$
	SELECT cc.papers,
	       coalesce(cc.papers * exp(sum(ln(least(1.0,
	           coalesce(st.ndoc, 20)::float8 / greatest(cc.papers, 1))))),
	           0)
	  FROM corpus_counts cc
	  LEFT JOIN unnest(tsvector_to_array(to_tsvector('english'::regconfig,
	           weft_unaccent(q)))) AS l ON true
	  LEFT JOIN search_terms st ON st.lexeme = l
	 GROUP BY cc.papers
$$;
