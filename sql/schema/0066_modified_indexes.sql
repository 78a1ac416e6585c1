-- 0066_modified_indexes.sql -- what a harvester's batch wrote, found by
-- index (issue 19, item 3).
--
-- LOCKS: builds two indexes (a scan of papers and of researchers);
-- writes to them wait while it runs.
--
-- Each batch a harvester commits (run.c: the arXiv OAI and API pages,
-- OpenAlex and Semantic Scholar enrichment) finds what it wrote by
-- "modified_at = now()": HV_RECOMPUTE_BATCH and HV_RECOMPUTE_RESEARCHERS
-- (papers), HV_MARK_STALE (papers, researchers, institutions).  Without
-- an index each is a sequential scan of papers, the widest table: at
-- 1.52 M papers, a batch of 1,000 papers spent 4.9 s, 7.8 s and 4.9 s in
-- the three (EXPLAIN ANALYZE, rolled back, on the kept bench cluster),
-- 17.7 s a batch, about 350 s for a day of 20,000 papers in pages of
-- 1,000.  (`weft-harvest load`, which the daily bench runs, does not
-- take that way.)  institutions has had its index since 0045.
--
-- Updates of papers and researchers were not HOT before (1 in 900 and
-- 1 in 43 on the bench cluster: other indexed columns change with
-- them), so each keeps the cost of one more b-tree entry, at the
-- index's right edge.
-- Forward-only: never edit once landed; add another.

CREATE INDEX papers_modified ON papers (modified_at);
CREATE INDEX researchers_modified ON researchers (modified_at);
