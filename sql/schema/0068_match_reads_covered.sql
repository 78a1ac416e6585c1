-- 0068_match_reads_covered.sql -- the day's match reads a block's
-- researchers from the index alone, and no longer scans the authorships
-- for keys none lacks (issue 19, item 3).
--
-- LOCKS: builds researchers_block again (a scan of researchers) and a
-- partial index on authorships (a scan of authorships); writes to those
-- tables wait while they build.
--
-- The day's pass reads, for each read of 500 blocks, the name keys and
-- ids of every researcher of those blocks (MATCH_DAY_KEYS): 2.07 M rows
-- a day at 1.74 M papers, 18.8 s in 98 reads.  researchers_block gave
-- the rows' places and each was fetched from the heap: a read of 500
-- blocks (25,524 researchers) read 6,574 heap pages in 1,122 ms.  With
-- the key and the id in the index, the same kind of read (43,517
-- researchers) is an index-only scan: 379 pages read, 148 ms, no heap
-- fetch (EXPLAIN ANALYZE, rolled back, on the kept bench cluster).
--
-- An index-only scan skips the heap only on pages the visibility map
-- says are all-visible.  The match counts about 85,000 researchers a
-- day, and every count update is a new row version (researchers_
-- directory holds the count), so after a day most pages of researchers
-- are not all-visible until a vacuum.  Autovacuum's default waits for
-- 20 % of the rows to be dead, 840,000 at 4.2 M researchers, about ten
-- days; at 1 % it comes after each day's match.
--
-- MATCH_KEYS_TODO finds the authorships written before 0006 without a
-- name key; every writer since sets one, so it finds none, but it read
-- all of authorships to say so (1 GB, 2.1 s a day).  A partial index of
-- those rows stays empty.
-- Forward-only: never edit once landed; add another.

DROP INDEX researchers_block;
CREATE INDEX researchers_block ON researchers (weft_name_block(name_key))
	INCLUDE (name_key, id);
ALTER TABLE researchers SET (autovacuum_vacuum_scale_factor = 0.01);
-- The indexed expression's statistics went with the index dropped; the
-- planner without them guesses a million researchers for 500 blocks
-- and scans them all (as 0059 found).
ANALYZE researchers;

CREATE INDEX authorships_keyless ON authorships (paper_id)
	WHERE name_key IS NULL;
