-- 0013_evidence_reasons.sql -- the evidence summary's reasons (papers
-- per match reason, with the average and lowest score) kept in
-- researcher_stats beside evidence_co, by the same refresh after load
-- and match.  EVIDENCE_SUMMARY grouped every authorship of the
-- researcher at each cold researcher page: 0.25 ms for 456 papers at
-- 110,904 papers, 4.4 ms for 4,173 at 1,000,000 (tests/bench/README.md,
-- "Cold pages").  As current as the co-author block; a researcher the
-- refresh has not seen yet (no stats row) gets them computed on the fly.
-- Forward-only: never edit once landed; add another.

ALTER TABLE researcher_stats ADD COLUMN evidence_reasons json;

-- [[reason, papers, average score, lowest score]], most papers first:
-- the very expression EVIDENCE_SUMMARY computes, so the stored text is
-- the text it would answer.  For the researchers in weft_touched.
CREATE FUNCTION weft_researcher_reasons_fill() RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	UPDATE researcher_stats s
	   SET evidence_reasons = coalesce(g.j, '[]')
	  FROM weft_touched t
	  LEFT JOIN (
		SELECT id, json_agg(json_build_array(reason, n, av, mn)
		                    ORDER BY n DESC, reason) AS j
		  FROM (SELECT a.researcher_id AS id,
		               coalesce(a.match_reason, '') AS reason,
		               count(DISTINCT a.paper_id) AS n,
		               round(avg(a.match_score)::numeric, 2) AS av,
		               round(min(a.match_score)::numeric, 2) AS mn
		          FROM weft_touched t2
		          JOIN authorships a ON a.researcher_id = t2.id
		         GROUP BY 1, 2) r
		 GROUP BY id) g ON g.id = t.id
	 WHERE s.researcher_id = t.id;
END;
$$;

CREATE OR REPLACE FUNCTION weft_researcher_derived_fill(all_rows boolean)
	RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM weft_researcher_derived_fill_0009(all_rows);
	PERFORM weft_researcher_evidence_fill();
	PERFORM weft_researcher_reasons_fill();
	PERFORM weft_paper_cards_fill();
END;
$$;

CREATE TEMP TABLE weft_touched (id bigint PRIMARY KEY) ON COMMIT DROP;
INSERT INTO weft_touched SELECT researcher_id FROM researcher_stats;
ANALYZE weft_touched;
SELECT weft_researcher_reasons_fill();
DROP TABLE weft_touched;
ANALYZE researcher_stats;
