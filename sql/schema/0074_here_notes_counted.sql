-- 0074_here_notes_counted.sql -- a researcher's figures here are noted
-- for the refresh only when an authorship on a paper with a citation
-- count changes (issue 19, item 3).
--
-- LOCKS: none beyond replacing two functions.
--
-- The figures (0046) are computed from the researcher's papers with a
-- citation count alone.  0046's authorship triggers noted the researcher
-- of every authorship written, moved or deleted, so a day's harvest
-- noted the authors of its 20,000 new papers, which have no count yet
-- (OpenAlex and Semantic Scholar give it later, and papers_here_upd
-- notes their authors then).  At 1.8 M papers 142,259 researchers were
-- computed again, whole, and 127 figures moved: 7.3-10.4 s of each
-- refresh, with a scan of all authorships (tests/bench/README.md).
-- Now an authorship is noted unless its paper is there without a count;
-- a paper already gone (deleted with its authorships) still notes them.
-- Same figures: tests/integration/t_refresh.sh compares with a full
-- refresh, and checks that an authorship on a paper without a count
-- notes no one and one on a paper with a count notes its researcher.
-- Forward-only: never edit once landed; add another.

CREATE OR REPLACE FUNCTION weft_here_authorships_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO here_dirty (researcher_id)
		SELECT DISTINCT n.researcher_id FROM here_new n
		 WHERE n.researcher_id IS NOT NULL
		   AND NOT EXISTS (SELECT 1 FROM papers p
		                    WHERE p.id = n.paper_id
		                      AND p.citation_count IS NULL)
		    ON CONFLICT DO NOTHING;
	ELSE
		INSERT INTO here_dirty (researcher_id)
		SELECT DISTINCT o.researcher_id FROM here_old o
		 WHERE o.researcher_id IS NOT NULL
		   AND NOT EXISTS (SELECT 1 FROM papers p
		                    WHERE p.id = o.paper_id
		                      AND p.citation_count IS NULL)
		    ON CONFLICT DO NOTHING;
	END IF;
	RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION weft_here_authorships_upd_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO here_dirty (researcher_id)
	SELECT DISTINCT x.researcher_id
	  FROM (((SELECT paper_id, position, researcher_id FROM here_old)
	         EXCEPT
	         (SELECT paper_id, position, researcher_id FROM here_new))
	        UNION ALL
	        ((SELECT paper_id, position, researcher_id FROM here_new)
	         EXCEPT
	         (SELECT paper_id, position, researcher_id FROM here_old))) x
	 WHERE x.researcher_id IS NOT NULL
	   AND NOT EXISTS (SELECT 1 FROM papers p
	                    WHERE p.id = x.paper_id
	                      AND p.citation_count IS NULL)
	    ON CONFLICT DO NOTHING;
	RETURN NULL;
END;
$$;
