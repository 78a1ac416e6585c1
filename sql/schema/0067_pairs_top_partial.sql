-- 0067_pairs_top_partial.sql -- the co-author pairs' ranking index keeps
-- the repeated collaborations only (issue 19, item 3).
--
-- LOCKS: drops coauthor_pairs_top and builds it again over the pairs
-- with two or more joint papers (a scan of coauthor_pairs); writes to
-- the pairs wait while it runs.
--
-- coauthor_pairs_top (a, papers DESC, b) is what the researcher page
-- reads its co-authors from, strongest first (RESEARCHER_BLOCKS).  Every
-- pair was in it, and every new pair wrote an entry: a day of 20,000
-- papers at 1.6 M papers upserts about 598,000 pairs, 592,000 of them
-- new (99 %), and the upsert took 16.7 s of the refresh.  Of the
-- 57.0 M pairs, 51.2 M (90 %) have one joint paper.  Those are now out
-- of the index: a pair enters it when its second joint paper comes, and
-- the page reads the ones of one paper from the primary key, in b order,
-- only when the stronger ones do not fill its list.
-- Forward-only: never edit once landed; add another.

DROP INDEX coauthor_pairs_top;
CREATE INDEX coauthor_pairs_top ON coauthor_pairs (a, papers DESC, b)
	WHERE papers >= 2;
