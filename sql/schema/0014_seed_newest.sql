-- 0014_seed_newest.sql -- the evidence summary's seeds read from an
-- index that holds them in the order they are wanted.
--
-- authorships_seed (0011) held only researcher_id, so PostgreSQL
-- preferred authorships_researcher_newest, which is index-only, and
-- filtered every authorship of the researcher for the few with a seed
-- reason: 456 index entries for the busiest researcher at 110,904
-- papers (0.13 ms of EVIDENCE_SUMMARY's 0.46), once more for each
-- namesake, and the whole list of a researcher with thousands of papers
-- at 1,000,000.  The same partial index with the page order's columns
-- and the reason included is index-only too and holds only the seeds
-- (about 8 % of the authorships).  Forward-only: never edit once
-- landed; add another.

CREATE INDEX authorships_seed_newest ON authorships
	(researcher_id, published DESC NULLS LAST, paper_id DESC)
	INCLUDE (match_reason, match_score)
	WHERE match_reason IN ('new_identity', 'openalex_id', 'openalex',
	                       'orcid', 's2_id', 's2');

DROP INDEX authorships_seed;
