-- 0049_researchers_search_key.sql -- the researchers named exactly as a
-- search's query, from a btree index (issue 19, item 2).
--
-- Every first page of a search lists the researchers whose name key is
-- the query's (RESEARCHERS_EXACT).  The only index on search_key was
-- its trigram GIN index (0010), which answers an equality by reading the
-- posting lists of every trigram of the query: 2.7 ms for "user
-- perception" over 2,840,698 researchers, on each search.  The btree:
-- 0.06 ms; 72 MB, built in 3.2 s at that size.
-- Forward-only: never edit once landed; add another.

CREATE INDEX researchers_search_key ON researchers (search_key);
