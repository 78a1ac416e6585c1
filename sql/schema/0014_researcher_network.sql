-- 0014_researcher_network.sql -- the researcher page's co-author block
-- and network kept in researcher_stats.network by the refresh after load
-- and match:
--   {"co":    [[id, joint papers]], the 24 most frequent co-authors,
--    "edges": [[a, b, joint papers]] among the researcher and those 24,
--             a < b}
-- RESEARCHER_BLOCKS ranked the researcher's co-author pairs and then
-- read every pair of each of the 25 (1,804 index entries for the
-- busiest researcher at 110,904 papers, to keep 73 edges) at each cold
-- researcher page.  It now reads this row and 24 names; a researcher the
-- refresh has not seen yet (no stats row) gets both computed on the fly.
-- Names and slugs are not stored: they stay live.
--
-- As current as coauthor_pairs, which the same refresh rewrites: the
-- researchers whose rows it recomputes are those in weft_touched and
-- their co-authors (an edge between two co-authors of R changes when
-- those two, both touched, share a new paper; R itself need not be).
-- 24 is PAGES_COAUTHORS_MAX (modules/pages/pages.h): the statement shows
-- at most that many of the stored ones, so a smaller limit there needs
-- no new migration, a larger one does.
-- Forward-only: never edit once landed; add another.

ALTER TABLE researcher_stats ADD COLUMN network json;

CREATE FUNCTION weft_researcher_network_fill() RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	-- Dropped below: an error before that rolls the transaction back.
	CREATE TEMP TABLE weft_net_touched (id bigint PRIMARY KEY)
		ON COMMIT DROP;
	INSERT INTO weft_net_touched
	SELECT id FROM weft_touched
	UNION
	SELECT c.b FROM weft_touched t JOIN coauthor_pairs c ON c.a = t.id;
	ANALYZE weft_net_touched;
	UPDATE researcher_stats s
	   SET network = json_build_object('co', coalesce(x.co, '[]'),
	                                   'edges', coalesce(x.edges, '[]'))
	  FROM weft_net_touched t,
	       LATERAL (
		WITH co AS MATERIALIZED (
			SELECT c.b AS id, c.papers AS n
			  FROM coauthor_pairs c
			 WHERE c.a = t.id
			 ORDER BY c.papers DESC, c.b
			 LIMIT 24
		), net AS MATERIALIZED (
			SELECT array_append(array_agg(id), t.id) AS ids
			  FROM co
		)
		SELECT (SELECT json_agg(json_build_array(id, n)
		                        ORDER BY n DESC, id)
		          FROM co) AS co,
		       (SELECT json_agg(json_build_array(c.a, c.b, c.papers)
		                        ORDER BY c.a, c.b)
		          FROM net, coauthor_pairs c
		         WHERE c.a = ANY (net.ids) AND c.b = ANY (net.ids)
		           AND c.a < c.b
		           AND EXISTS (SELECT 1 FROM co)) AS edges
	       ) x
	 WHERE s.researcher_id = t.id;
	DROP TABLE weft_net_touched;
END;
$$;

CREATE OR REPLACE FUNCTION weft_researcher_derived_fill(all_rows boolean)
	RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM weft_researcher_derived_fill_0009(all_rows);
	PERFORM weft_researcher_evidence_fill();
	PERFORM weft_researcher_reasons_fill();
	PERFORM weft_researcher_network_fill();
	PERFORM weft_paper_cards_fill();
END;
$$;

CREATE TEMP TABLE weft_touched (id bigint PRIMARY KEY) ON COMMIT DROP;
INSERT INTO weft_touched SELECT researcher_id FROM researcher_stats;
ANALYZE weft_touched;
SELECT weft_researcher_network_fill();
DROP TABLE weft_touched;
ANALYZE researcher_stats;
