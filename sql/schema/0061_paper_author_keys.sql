-- 0061_paper_author_keys.sql -- each paper's author name keys kept with
-- the paper, for the matcher (issue 19, item 3).
--
-- LOCKS: fills paper_author_keys from every authorship (a minute at
-- 1 M papers); writes to authorships wait while it runs.
--
-- The matcher reads, for every authorship it weighs, the name keys of
-- its paper's other authors (its co-authors' evidence).  It aggregated
-- them from authorships at each read: at 1 M papers the day's pass
-- (0059) weighs 1.34 M decided authorships, whose papers have 28
-- authors on average, and 175 s of its 244 s were that aggregation
-- (tests/bench/README.md, "The day's pass").  The keys are now kept
-- per paper, '|'-joined in author order ('' for more than 100 authors:
-- a collaboration gives no co-author evidence), written by the
-- authorships' statement triggers of 0058 (an authorship inserted,
-- deleted or given another name key), so a read is one row per paper.
-- Forward-only: never edit once landed; add another.

CREATE TABLE paper_author_keys (
	paper_id    bigint PRIMARY KEY REFERENCES papers (id) ON DELETE CASCADE,
	keys        text NOT NULL
);

-- The keys of papers ids, as the matcher reads them (MATCH_PAPER_KEYS).
CREATE FUNCTION weft_paper_keys_refresh(ids bigint[]) RETURNS void
	LANGUAGE sql AS $$
	DELETE FROM paper_author_keys k
	 WHERE k.paper_id = ANY (ids)
	   AND NOT EXISTS (SELECT 1 FROM authorships a
	                    WHERE a.paper_id = k.paper_id
	                      AND a.name_key <> '');
	INSERT INTO paper_author_keys AS k (paper_id, keys)
	SELECT paper_id,
	       CASE WHEN count(*) <= 100
	            THEN string_agg(name_key, '|' ORDER BY position)
	            ELSE '' END
	  FROM authorships
	 WHERE paper_id = ANY (ids) AND name_key <> ''
	 GROUP BY paper_id
	    ON CONFLICT (paper_id) DO UPDATE SET keys = excluded.keys
	 WHERE k.keys IS DISTINCT FROM excluded.keys;
$$;

-- 0058's trigger, which already compares the rows' name keys, keeps
-- them too: the papers of rows inserted, deleted, or whose key moved.
CREATE OR REPLACE FUNCTION weft_match_dirty_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
DECLARE
	others  boolean := NOT weft_matcher_writes();
BEGIN
	IF TG_OP = 'INSERT' THEN
		PERFORM weft_match_note(ARRAY(
		    SELECT weft_name_block(name_key) FROM match_new));
		PERFORM weft_paper_keys_refresh(ARRAY(
		    SELECT DISTINCT paper_id FROM match_new));
	ELSIF TG_OP = 'DELETE' THEN
		PERFORM weft_match_note(ARRAY(
		    SELECT weft_name_block(name_key) FROM match_old));
		PERFORM weft_paper_keys_refresh(ARRAY(
		    SELECT DISTINCT paper_id FROM match_old));
	ELSE
		-- A row whose key moved notes both blocks; one whose
		-- researcher or reason another writer set, its block.  Old
		-- and new rows are compared with EXCEPT, a hash (a join of
		-- two transition tables is a nested loop: 0042).
		PERFORM weft_match_note(ARRAY(
		    SELECT weft_name_block(name_key) FROM (
			SELECT paper_id, position, name_key,
			       CASE WHEN others THEN researcher_id END,
			       CASE WHEN others THEN match_reason END
			  FROM match_new
			EXCEPT
			SELECT paper_id, position, name_key,
			       CASE WHEN others THEN researcher_id END,
			       CASE WHEN others THEN match_reason END
			  FROM match_old) n
		     UNION ALL
		    SELECT weft_name_block(name_key) FROM (
			SELECT paper_id, position, name_key FROM match_old
			EXCEPT
			SELECT paper_id, position, name_key
			  FROM match_new) o));
		PERFORM weft_paper_keys_refresh(ARRAY(
		    SELECT DISTINCT paper_id FROM (
			SELECT paper_id, position, name_key FROM match_new
			EXCEPT
			SELECT paper_id, position, name_key
			  FROM match_old) k));
	END IF;
	RETURN NULL;
END;
$$;

INSERT INTO paper_author_keys (paper_id, keys)
SELECT paper_id,
       CASE WHEN count(*) <= 100
            THEN string_agg(name_key, '|' ORDER BY position)
            ELSE '' END
  FROM authorships
 WHERE name_key <> ''
 GROUP BY paper_id;
ANALYZE paper_author_keys;
