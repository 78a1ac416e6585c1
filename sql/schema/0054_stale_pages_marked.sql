-- 0054_stale_pages_marked.sql -- the refresh's prune of stale_pages
-- reads only the blocks that hold old marks (issue 19, item 3).
--
-- The refresh deletes the marks older than a week (STALE_PRUNE,
-- sql/queries/harvest.sql).  Without an index that is a scan of the
-- whole table at every refresh: 8.6 M rows after a 2.5 M-paper load,
-- 5.8 s on a busy machine, for a DELETE that usually finds nothing.
-- Marks are written mostly in time order (a new mark is appended, a
-- mark made again is a new row version, at the end of the table or in
-- its own block), so a BRIN index of marked_at, a few pages whatever
-- the size, gives the few block ranges whose oldest mark is old enough;
-- a range a newer version joined is read too, never missed.  A btree
-- would be one more index entry for each of the millions of marks a
-- load writes.
-- Forward-only: never edit once landed; add another.

CREATE INDEX stale_pages_marked ON stale_pages USING brin (marked_at)
	WITH (autosummarize = on);
