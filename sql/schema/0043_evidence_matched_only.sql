-- 0043_evidence_matched_only.sql -- the evidence co-authors (0011) of
-- only the researchers who have them.
--
-- A researcher's evidence co-authors are those sharing two papers or
-- more with them where one of their authorships was matched by its
-- co-authors (match_reason 'coauthors').  0011's fill joined every
-- paper of every researcher in weft_touched with every co-author of it,
-- and answered '[]' for those never matched by co-authors: most of
-- them, and after 0042 the largest remaining cost of the refresh after
-- a day's batch (tests/bench/README.md, "A daily batch").  A partial
-- index finds those matched by co-authors; the others get '[]' without
-- reading their papers.
-- Forward-only: never edit once landed; add another.

CREATE INDEX authorships_coauthors ON authorships (researcher_id)
	WHERE match_reason = 'coauthors';

CREATE OR REPLACE FUNCTION weft_researcher_evidence_fill() RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	CREATE TEMP TABLE weft_evidence_ids ON COMMIT DROP AS
	SELECT t.id
	  FROM weft_touched t
	 WHERE EXISTS (SELECT 1 FROM authorships a
	                WHERE a.researcher_id = t.id
	                  AND a.match_reason = 'coauthors');
	ANALYZE weft_evidence_ids;
	UPDATE researcher_stats s
	   SET evidence_co = '[]'
	  FROM weft_touched t
	 WHERE s.researcher_id = t.id
	   AND (s.evidence_co IS NULL OR s.evidence_co::text <> '[]')
	   AND NOT EXISTS (SELECT 1 FROM weft_evidence_ids e
	                    WHERE e.id = t.id);
	UPDATE researcher_stats s
	   SET evidence_co = coalesce(e.j, '[]')
	  FROM weft_evidence_ids t
	  LEFT JOIN (
		SELECT id, json_agg(json_build_array(b, n) ORDER BY n DESC, b)
		           AS j
		  FROM (SELECT id, b, n,
		               row_number() OVER (PARTITION BY id
		                                  ORDER BY n DESC, b) AS k
		          FROM (SELECT m.researcher_id AS id,
		                       a2.researcher_id AS b,
		                       count(DISTINCT a2.paper_id) AS n
		                  FROM weft_evidence_ids t2
		                  JOIN authorships m ON m.researcher_id = t2.id
		                  JOIN authorships a2
		                    ON a2.paper_id = m.paper_id
		                   AND a2.researcher_id <> m.researcher_id
		                 GROUP BY 1, 2
		                HAVING count(DISTINCT a2.paper_id) > 1
		                   AND bool_or(m.match_reason = 'coauthors')) c
		       ) x
		 WHERE k <= 12
		 GROUP BY id) e ON e.id = t.id
	 WHERE s.researcher_id = t.id;
	DROP TABLE weft_evidence_ids;
END;
$$;
