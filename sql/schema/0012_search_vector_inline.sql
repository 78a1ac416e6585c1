-- 0012_search_vector_inline.sql -- papers.search_vector kept in the row
-- (compressed with lz4) instead of in the TOAST table.  A vector is
-- 1.7 KB on average, so with the abstract beside it almost every row
-- went over the 2 KB TOAST threshold and the vector, which pglz hardly
-- shrinks, was moved out of line: every use of it (the @@ test of each
-- row a search walks, the ts_rank of each of the ~300 candidates) was a
-- TOAST index look-up and a fetch, ~50 us, the largest cost of a search
-- (15 ms of the candidates statement at 110,904 papers).  STORAGE MAIN
-- moves the abstract out of line first (read for one paper page, or for
-- the 24 snippets of a search page) and keeps the vector in the row
-- unless the row would not fit a page.  The UPDATE re-stores every
-- existing vector that way (a new value each: an unchanged one would keep
-- its TOAST pointer); autovacuum reclaims the old row versions.
-- Forward-only: never edit once landed; add another.

ALTER TABLE papers
	ALTER COLUMN search_vector SET STORAGE MAIN,
	ALTER COLUMN search_vector SET COMPRESSION lz4;
UPDATE papers SET search_vector = search_vector || ''::tsvector
 WHERE search_vector IS NOT NULL;
