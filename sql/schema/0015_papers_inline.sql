-- 0015_papers_inline.sql -- a paper's row holds all of its columns,
-- not pointers to the TOAST table.
--
-- With the search vector kept in the row (0012) a row stays above the
-- TOAST target of 2 KB whatever else leaves it, so PostgreSQL moved out
-- of line not only the abstract but every text column over 24 bytes:
-- title, slug, categories, versions, licence.  Each card of a list
-- (its title, slug and categories) was then three TOAST look-ups: 70
-- TOAST blocks read for the busiest researcher's page of 24 cards, a
-- third of the RSS feed's statement.  A target of 8160 bytes (the most
-- PostgreSQL allows) leaves rows of up to a page as they are; longer
-- ones are still compressed and moved out, the abstract first.  At
-- 110,904 papers the heap grows from 228 to 431 MB and the TOAST table
-- shrinks by as much (498 MB in all, 493 before); the researcher page's
-- cards 0.48 -> 0.34 ms, the home page's 0.25 -> 0.16, the feed 0.84 ->
-- 0.58, a search's statements 16.5 -> 15.2 ms (tests/bench/README.md).
-- CLUSTER rewrites every row under the new target (external values are
-- fetched back into the row); the table is locked while it runs, about
-- 20 s at 110,904 papers.  Forward-only: never edit once landed; add
-- another.

ALTER TABLE papers SET (toast_tuple_target = 8160);
CLUSTER papers USING papers_pkey;
ALTER TABLE papers SET WITHOUT CLUSTER;
