-- 0057_search_index_categories.sql -- the papers' search index holds
-- their categories beside their words (issue 19, item 2).
--
-- LOCKS: builds a GIN index of every paper; writes to papers wait
-- while it runs (reads do not): 3 min 22 s at 1,100,001 papers with a
-- load on the other core (built CONCURRENTLY there, for the figure).
--
-- The GIN way of a search (SEARCH_CANDIDATES, 0048) found a word's
-- matches in papers_search and tested the category on each heap row:
-- "expressive power" in cs.SE visited 7,219 rows for its 1,074 in
-- cs.SE, 389 ms (cold) at 1,100,001 papers.  With the categories in
-- the index, one GIN scan reads both: 13 ms, the 1,074 rows only; a
-- rare word ("aacr", 320 papers) in cs.LG, the largest category,
-- 8.8 ms against 11.4 ms.  As 0056 did for the windows.  The index is
-- built new, so it is also half the size of one grown by years of
-- inserts (482 MB against 1,028 MB on that cluster).
--
-- A first load that dropped the read-side indexes (0051) and has not
-- built them again keeps the definition it will build: that one
-- changes instead, and nothing is built here.
-- Forward-only: never edit once landed; add another.

UPDATE bulk_dropped_indexes
   SET def = replace(def, 'gin (search_vector)',
                     'gin (search_vector, categories)')
 WHERE name = 'papers_search';

DO $$
BEGIN
	IF to_regclass('papers_search') IS NOT NULL THEN
		CREATE INDEX papers_search_categories ON papers
			USING gin (search_vector, categories);
		DROP INDEX papers_search;
		ALTER INDEX papers_search_categories RENAME TO papers_search;
	END IF;
END $$;
