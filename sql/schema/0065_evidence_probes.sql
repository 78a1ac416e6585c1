-- 0065_evidence_probes.sql -- the evidence co-authors' pair counts
-- read by probes, whatever the planner estimates (issue 19, item 3).
--
-- A day's refresh at 1.46-1.48 M papers (fourteenth session) spent
-- 29.9-49.5 s in weft_researcher_evidence_fill, 20.2 s at 1.28 M.  Its
-- candidates, 786,605 pairs for 26,688 researchers on one day's sample,
-- were joined with coauthor_pairs by a hash join over a sequential scan
-- of all of it (52 M rows, 3.2 GB), hashed in 512 batches through 2.3 GB
-- of temporary files: 32.5 s (EXPLAIN ANALYZE, rolled back).  0063
-- made the candidates in key order for probes, and the planner chose
-- the probes then; as the pairs grew, its estimate flipped.  The same
-- statement probing the pairs' primary key in the candidates' order:
-- 8.5 s on another day's sample of 25,415 researchers (749,184 pairs).
-- Here each candidate's count is a subquery, run as one probe per row,
-- whatever the estimate; the count's subquery is fenced (OFFSET 0) so
-- that the filter on it does not probe a second time.
--
-- The rows are the same: tests/integration/t_refresh.sh compares the
-- incremental refresh with a full rebuild.
-- Forward-only: never edit once landed; add another.

-- 0063's, with the pair count of each candidate probed.
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
		                       coalesce((SELECT cp.papers
		                                   FROM coauthor_pairs cp
		                                  WHERE cp.a = c.id
		                                    AND cp.b = c.b), 0)
		                       + coalesce(lg.n, 0) AS n
		                  FROM weft_evidence_cand c
		                  LEFT JOIN (
		                       SELECT c2.id, c2.b,
		                              count(DISTINCT x.paper_id) AS n
		                         FROM weft_evidence_cand c2
		                         JOIN weft_evidence_large x ON x.id = c2.id
		                         JOIN weft_evidence_large y
		                           ON y.id = c2.b
		                          AND y.paper_id = x.paper_id
		                        GROUP BY 1, 2) lg
		                    ON lg.id = c.id AND lg.b = c.b
		                OFFSET 0) x
		         WHERE n > 1) y
		 WHERE k <= 12
		 GROUP BY id) e ON e.id = t.id
	 WHERE s.researcher_id = t.id;
	DROP TABLE weft_evidence_cand, weft_evidence_large;
	DROP TABLE weft_evidence_ids;
END;
$$;
