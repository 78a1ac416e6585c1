-- 0090_authorships_researcher_dropped.sql -- one index of authorships
-- by researcher, not two (issue 19, item 3).
--
-- LOCKS: DROP INDEX on authorships (ACCESS EXCLUSIVE, brief: no row is
-- read).  Where a first load is in progress, CREATE INDEX of
-- authorships_researcher_newest first (SHARE: writes wait while it
-- builds).
--
-- authorships_researcher (researcher_id, paper_id), of 0001, answers
-- nothing authorships_researcher_newest (researcher_id, published,
-- paper_id, with the match's columns, 0011) does not: every reader of a
-- researcher's paper ids reads either one index-only.  But every
-- authorship written, and every one the match moves to another
-- researcher, wrote an entry in both, at a random place of each: on the
-- 1.2 M bench cluster, inserting the authorships of 1,000 papers (5,000-
-- 5,600 rows, rolled back, the index's writes switched off and on in
-- turn, three runs each) took 2,174 ms with it and 1,637 ms without
-- (tests/bench/README.md); it was 379 MB there, about 1 GB at 2.5 M.
--
-- A first load dropped authorships_researcher_newest and built it after
-- its rows (0051), and relied on authorships_researcher meanwhile (the
-- foreign key's ON DELETE SET NULL, the counts by researcher).  It now
-- keeps authorships_researcher_newest throughout instead.  A load in
-- progress gets it back now, before the other goes.
-- Forward-only: never edit once landed; add another.

ALTER FUNCTION weft_bulk_indexes() RENAME TO weft_bulk_indexes_0082;
CREATE FUNCTION weft_bulk_indexes() RETURNS text[]
	LANGUAGE sql IMMUTABLE AS $$
	SELECT array_remove(weft_bulk_indexes_0082(),
	                    'authorships_researcher_newest')
$$;

DO $$
DECLARE
	d text;
BEGIN
	DELETE FROM bulk_dropped_indexes
	 WHERE name = 'authorships_researcher_newest'
	RETURNING def INTO d;
	IF d IS NOT NULL THEN
		EXECUTE d;
	END IF;
END $$;

DROP INDEX authorships_researcher;
