-- 0091_category_counts.sql -- the papers of each arXiv category, kept by
-- triggers, for /categories and the onboarding's fields.
-- Forward-only: never edit a migration once it has landed; add another.

-- /categories (CATEGORY_COUNTS) counted every paper's categories, and the
-- onboarding page (FIELDS) every paper's primary category, at each
-- request that nginx had not cached: each a scan of the whole papers heap
-- (10 GB at 2.5 M papers).  Here one row a category holds both counts,
-- kept exact by the writers' triggers as corpus_counts (0007) keeps its
-- three: statement triggers with transition tables for INSERT and
-- DELETE (one upsert of a few rows a statement, a loader's batch
-- included), a row trigger for the rare UPDATE that moves a paper's
-- categories.  A category no paper carries has no row.
CREATE TABLE category_counts (
	category       text PRIMARY KEY,
	papers         bigint NOT NULL,  -- papers carrying it, in any place
	primary_papers bigint NOT NULL   -- papers whose primary category it is
);

-- Moves the counts by the sums of (cats[i], n[i], p[i]), in category
-- order (writers lock the rows in the same order), and drops the rows
-- left with no paper.
CREATE FUNCTION weft_category_counts_move(cats text[], n bigint[],
    p bigint[]) RETURNS void
	LANGUAGE sql AS $$
	INSERT INTO category_counts AS c (category, papers, primary_papers)
	SELECT u.category, sum(u.n), sum(u.p)
	  FROM unnest(cats, n, p) AS u(category, n, p)
	 GROUP BY u.category
	HAVING sum(u.n) <> 0 OR sum(u.p) <> 0
	 ORDER BY u.category
	    ON CONFLICT (category) DO UPDATE
	   SET papers = c.papers + excluded.papers,
	       primary_papers = c.primary_papers + excluded.primary_papers;
	DELETE FROM category_counts
	 WHERE category = ANY (cats) AND papers <= 0 AND primary_papers <= 0;
$$;

-- Counts everything again (after a TRUNCATE, or by hand:
-- SELECT weft_category_counts_refresh()).  Each element of categories
-- counts, as CATEGORY_COUNTS counted them; a primary category of ''
-- (a paper known only from OpenAlex) does not.
CREATE FUNCTION weft_category_counts_refresh() RETURNS void
	LANGUAGE sql AS $$
	DELETE FROM category_counts;
	INSERT INTO category_counts (category, papers, primary_papers)
	SELECT x.category, sum(x.n), sum(x.p)
	  FROM (SELECT c AS category, count(*) AS n, 0 AS p
	          FROM papers, unnest(categories) AS c
	         GROUP BY 1
	         UNION ALL
	        SELECT primary_category, 0, count(*)
	          FROM papers
	         WHERE primary_category <> ''
	         GROUP BY 1) x
	 GROUP BY x.category;
$$;

CREATE FUNCTION weft_category_counts_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
DECLARE
	s bigint := CASE TG_OP WHEN 'DELETE' THEN -1 ELSE 1 END;
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM weft_category_counts_refresh();
	ELSIF TG_LEVEL = 'ROW' THEN
		PERFORM weft_category_counts_move(array_agg(x.c),
		           array_agg(x.n), array_agg(x.p))
		   FROM (SELECT c, -1::bigint AS n, 0::bigint AS p
		           FROM unnest(OLD.categories) AS c
		          UNION ALL
		         SELECT c, 1, 0 FROM unnest(NEW.categories) AS c
		          UNION ALL
		         SELECT OLD.primary_category, 0, -1
		          WHERE OLD.primary_category <> ''
		          UNION ALL
		         SELECT NEW.primary_category, 0, 1
		          WHERE NEW.primary_category <> '') x;
	ELSE
		PERFORM weft_category_counts_move(array_agg(x.c),
		           array_agg(x.n), array_agg(x.p))
		   FROM (SELECT c, sum(n)::bigint AS n, sum(p)::bigint AS p
		           FROM (SELECT c, s AS n, 0::bigint AS p
		                   FROM cat_rows, unnest(categories) AS c
		                  UNION ALL
		                 SELECT primary_category, 0, s
		                   FROM cat_rows
		                  WHERE primary_category <> '') y
		          GROUP BY c) x;
	END IF;
	RETURN NULL;
END
$$;

CREATE TRIGGER papers_categories_ins AFTER INSERT ON papers
	REFERENCING NEW TABLE AS cat_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_category_counts_trg();
CREATE TRIGGER papers_categories_del AFTER DELETE ON papers
	REFERENCING OLD TABLE AS cat_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_category_counts_trg();
CREATE TRIGGER papers_categories_trunc AFTER TRUNCATE ON papers
	FOR EACH STATEMENT EXECUTE FUNCTION weft_category_counts_trg();
CREATE TRIGGER papers_categories_upd
	AFTER UPDATE OF categories, primary_category ON papers
	FOR EACH ROW
	WHEN (OLD.categories IS DISTINCT FROM NEW.categories OR
	      OLD.primary_category IS DISTINCT FROM NEW.primary_category)
	EXECUTE FUNCTION weft_category_counts_trg();

SELECT weft_category_counts_refresh();
