-- 0063_refresh_reads_narrow.sql -- two reads of a day's refresh made
-- smaller (issue 19, item 3).
--
-- LOCKS: builds papers_counted (a scan of papers: 6.3 s at 1.28 M
-- papers); writes to papers wait while it runs.
--
-- A day of 20,000 new papers at 1.28 M (tests/bench/refresh_daily.sh,
-- thirteenth session) refreshed in 108 s; of it:
--
-- * the figures here (0046) of the day's 97,000-116,000 researchers,
--   16.9 s: their authorships hash-joined with a sequential scan of
--   papers, the widest table (8 GB), for three narrow columns.
--   papers_counted holds those columns of the papers with a count (54
--   MB), read by an index-only scan: 7.5 s -> 3.6-4.0 s for the same
--   97,258 researchers (EXPLAIN ANALYZE, rolled back, two runs each).
-- * the evidence co-authors (0043), 15.8 s for 30,928 researchers: one
--   probe of coauthor_pairs per candidate pair (714,038), in the order
--   the candidates were made, so at random in the index.  Made in key
--   order, the probes walk the index (0042's pair upsert does the same):
--   9.3-11.8 s -> 3.5-5.4 s for that read, three runs.
--
-- The rows are the same: tests/integration/t_refresh.sh compares the
-- incremental refresh with a full rebuild.
-- Forward-only: never edit once landed; add another.

CREATE INDEX papers_counted ON papers (id)
	INCLUDE (citation_count, citation_source, author_count)
	WHERE citation_count IS NOT NULL;

-- A first load builds it after its rows (0051).
ALTER FUNCTION weft_bulk_indexes() RENAME TO weft_bulk_indexes_0059;
CREATE FUNCTION weft_bulk_indexes() RETURNS text[]
	LANGUAGE sql IMMUTABLE AS $$
	SELECT weft_bulk_indexes_0059() || 'papers_counted'::text
$$;

-- 0043's, the touched and the candidates in key order.
CREATE OR REPLACE FUNCTION weft_researcher_evidence_fill() RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	CREATE TEMP TABLE weft_evidence_ids ON COMMIT DROP AS
	SELECT t.id
	  FROM weft_touched t
	 WHERE EXISTS (SELECT 1 FROM authorships a
	                WHERE a.researcher_id = t.id
	                  AND a.match_reason = 'coauthors')
	 ORDER BY 1;
	ANALYZE weft_evidence_ids;
	UPDATE researcher_stats s
	   SET evidence_co = '[]'
	  FROM weft_touched t
	 WHERE s.researcher_id = t.id
	   AND (s.evidence_co IS NULL OR s.evidence_co::text <> '[]')
	   AND NOT EXISTS (SELECT 1 FROM weft_evidence_ids e
	                    WHERE e.id = t.id);
	-- Candidates: the co-authors of their papers matched by co-authors,
	-- in the pairs' key order (below).
	CREATE TEMP TABLE weft_evidence_cand ON COMMIT DROP AS
	SELECT DISTINCT m.researcher_id AS id, a2.researcher_id AS b
	  FROM weft_evidence_ids t
	  JOIN authorships m ON m.researcher_id = t.id
	                    AND m.match_reason = 'coauthors'
	  JOIN authorships a2 ON a2.paper_id = m.paper_id
	                     AND a2.researcher_id <> m.researcher_id
	 ORDER BY 1, 2;
	ANALYZE weft_evidence_cand;
	-- Who is on each large paper.
	CREATE TEMP TABLE weft_evidence_large ON COMMIT DROP AS
	SELECT m.researcher_id AS id, m.paper_id
	  FROM papers p
	  JOIN authorships m ON m.paper_id = p.id
	 WHERE p.author_count > weft_pair_authors_max()
	   AND m.researcher_id IS NOT NULL;
	ANALYZE weft_evidence_large;
	-- Joint papers: the pairs' count (0040: papers up to the large
	-- collaboration limit) and the large papers both are on, which the
	-- pairs leave out (the authors of the large papers, a few hundred
	-- thousand rows, joined with themselves for the candidates only);
	-- the two make every joint paper once.
	UPDATE researcher_stats s
	   SET evidence_co = coalesce(e.j, '[]')
	  FROM weft_evidence_ids t
	  LEFT JOIN (
		SELECT id, json_agg(json_build_array(b, n) ORDER BY n DESC, b)
		           AS j
		  FROM (SELECT id, b, n,
		               row_number() OVER (PARTITION BY id
		                                  ORDER BY n DESC, b) AS k
		          FROM (SELECT c.id, c.b,
		                       coalesce(cp.papers, 0) + coalesce(lg.n, 0)
		                           AS n
		                  FROM weft_evidence_cand c
		                  LEFT JOIN coauthor_pairs cp
		                    ON cp.a = c.id AND cp.b = c.b
		                  LEFT JOIN (
		                       SELECT c2.id, c2.b,
		                              count(DISTINCT x.paper_id) AS n
		                         FROM weft_evidence_cand c2
		                         JOIN weft_evidence_large x ON x.id = c2.id
		                         JOIN weft_evidence_large y
		                           ON y.id = c2.b
		                          AND y.paper_id = x.paper_id
		                        GROUP BY 1, 2) lg
		                    ON lg.id = c.id AND lg.b = c.b) x
		         WHERE n > 1) y
		 WHERE k <= 12
		 GROUP BY id) e ON e.id = t.id
	 WHERE s.researcher_id = t.id;
	DROP TABLE weft_evidence_cand, weft_evidence_large;
	DROP TABLE weft_evidence_ids;
END;
$$;
