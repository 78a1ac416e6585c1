-- 0095_evidence_written_if_moved.sql -- the co-author evidence is
-- written only where it moved, and a day empties only the lists of the
-- researchers who may have lost their evidence (issue 19, item 3).
--
-- LOCKS: none beyond replacing a function.
--
-- A researcher's evidence list (researcher_stats.evidence_co, 0063 and
-- 0065) names the co-authors of their papers matched by co-authors
-- with more than one joint paper, the twelve with the most.  A day's
-- refresh rebuilds it for every touched researcher with such a paper,
-- and wrote every one: at 2.58 M papers (thirty-second session, day
-- 62) 18,770 of its 23,505 writes (80 %) wrote the value already there,
-- each a new row version and its WAL.  Now the list is written only
-- where its text differs (json has no equality), in either path.
--
-- Before that, the fill set the list of every touched researcher
-- without such a paper to '[]' where it was not: a probe of
-- researcher_stats for each (113,210 researchers at 500,001 papers,
-- 0.95 s, no row written).  On a day (weft_side, the changed papers'
-- authors before and now, is there), a list to empty is that of a
-- researcher who lost their last paper matched by co-authors: they were
-- on a changed paper before (sign -1), as new researchers' rows start
-- with '[]' (0081).  The full path empties as before.
-- Same rows: tests/integration/t_refresh.sh compares the incremental
-- refresh with a full one (with a researcher losing their last paper
-- matched by co-authors, and one gaining a name), and checks that a
-- fill of current lists writes none.
-- Forward-only: never edit once landed; add another.

-- 0065's, with the two changes above.
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
	IF to_regclass('pg_temp.weft_side') IS NULL THEN
		UPDATE researcher_stats s
		   SET evidence_co = '[]'
		  FROM weft_touched t
		 WHERE s.researcher_id = t.id
		   AND (s.evidence_co IS NULL OR s.evidence_co::text <> '[]')
		   AND NOT EXISTS (SELECT 1 FROM weft_evidence_ids e
		                    WHERE e.id = t.id);
	ELSE
		UPDATE researcher_stats s
		   SET evidence_co = '[]'
		 WHERE s.researcher_id IN (SELECT w.researcher_id
		                             FROM weft_side w
		                            WHERE w.sign < 0
		                           EXCEPT
		                           SELECT e.id FROM weft_evidence_ids e)
		   AND (s.evidence_co IS NULL OR s.evidence_co::text <> '[]');
	END IF;
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
	-- pairs leave out (the authors of the large papers, joined with
	-- themselves for the candidates only); the two make every joint
	-- paper once.  Each candidate's count is a probe (0065).
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
	 WHERE s.researcher_id = t.id
	   AND s.evidence_co::text IS DISTINCT FROM coalesce(e.j, '[]')::text;
	DROP TABLE weft_evidence_cand, weft_evidence_large;
	DROP TABLE weft_evidence_ids;
END;
$$;
