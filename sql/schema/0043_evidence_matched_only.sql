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
-- reading their papers.  And for those, the candidates are the
-- co-authors of the papers they were matched on by co-authors, and the
-- count of joint papers comes from coauthor_pairs (plus the large
-- collaborations, which it leaves out), instead of every co-author of
-- every paper of theirs counted again: 6.6 M rows sorted on disk for the
-- 4,759 such researchers a day's batch reached at 540,001 papers.
-- Forward-only: never edit once landed; add another.

CREATE INDEX authorships_coauthors ON authorships (researcher_id)
	WHERE match_reason = 'coauthors';
-- The large collaborations (0040), a few hundred papers in millions.
CREATE INDEX papers_large ON papers (id)
	WHERE author_count > weft_pair_authors_max();

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
	-- Candidates: the co-authors of their papers matched by co-authors.
	CREATE TEMP TABLE weft_evidence_cand ON COMMIT DROP AS
	SELECT DISTINCT m.researcher_id AS id, a2.researcher_id AS b
	  FROM weft_evidence_ids t
	  JOIN authorships m ON m.researcher_id = t.id
	                    AND m.match_reason = 'coauthors'
	  JOIN authorships a2 ON a2.paper_id = m.paper_id
	                     AND a2.researcher_id <> m.researcher_id;
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
