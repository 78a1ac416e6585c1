-- 0058_match_by_block.sql -- a day's match reads the name blocks the
-- day changed, not every authorship (issue 19, item 3).
--
-- LOCKS: builds a btree index of every authorship; writes to
-- authorships wait while it runs (reads do not).
--
-- "weft-harvest match" read every authorship at every run, through one
-- cursor sorted by block, and recomputed every paper's and every
-- researcher's counts after it: the daily timer's match cost the time of
-- a first load's (2,300 s at 1 M papers), whatever the day brought.  A
-- block (first letter and family name, "j smith") is decided from its
-- own rows only: their names, co-authors' names, categories and the
-- external ids of their researchers.  So a block whose rows did not
-- change since the last match decides the same again, and need not be
-- read.
--
-- Writers now note the blocks they change in match_dirty (statement
-- triggers, in their own transaction): an authorship inserted, deleted,
-- its name key changed (both blocks), or its researcher or reason set
-- by someone other than the matcher (enrichment placing it by an
-- external id); a researcher whose external ids changed notes the blocks
-- of its authorships.  The matcher's own writes (its connection sets
-- weft.matcher) note nothing, but a name key it turns does.  At its
-- start the matcher marks the notes taken (a note committed later stays
-- untaken, and a note written again while the match runs is untaken
-- again); its reader reads the taken blocks only, through
-- authorships_block; at its end it deletes the taken notes.  "match
-- --full" takes every block first.
-- Forward-only: never edit once landed; add another.

-- The block of a name key, as harvest_match_block() makes it.
CREATE FUNCTION weft_name_block(name_key text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
	SELECT left(name_key, 1) || ' ' || substring(name_key FROM '[^ ]*$')
$$;

CREATE TABLE match_dirty (
	block   text PRIMARY KEY,
	taken   boolean NOT NULL DEFAULT false
);

-- The researchers that existed at the last match's end: one created
-- since (the loader's name-only researcher of each new name) is counted
-- at the next, even when no authorship points at it any more.
CREATE TABLE match_state (
	one                 boolean PRIMARY KEY DEFAULT true CHECK (one),
	researchers_upto    bigint NOT NULL
);
INSERT INTO match_state (researchers_upto)
SELECT coalesce(max(id), 0) FROM researchers;

-- Whether the writing connection is the matcher applying its decisions.
CREATE FUNCTION weft_matcher_writes() RETURNS boolean
	LANGUAGE sql STABLE AS $$
	SELECT coalesce(current_setting('weft.matcher', true), '') = 'on'
$$;

-- The blocks given noted (a block taken by a match in progress is
-- noted again: it is read again by the next).
CREATE FUNCTION weft_match_note(blocks text[]) RETURNS void
	LANGUAGE sql AS $$
	INSERT INTO match_dirty (block)
	SELECT DISTINCT b FROM unnest(blocks) AS u(b)
	 WHERE b IS NOT NULL AND b <> ' '
	    ON CONFLICT (block) DO UPDATE SET taken = false
	 WHERE match_dirty.taken
$$;

CREATE FUNCTION weft_match_dirty_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
DECLARE
	others  boolean := NOT weft_matcher_writes();
BEGIN
	IF TG_OP = 'INSERT' THEN
		PERFORM weft_match_note(ARRAY(
		    SELECT weft_name_block(name_key) FROM match_new));
	ELSIF TG_OP = 'DELETE' THEN
		PERFORM weft_match_note(ARRAY(
		    SELECT weft_name_block(name_key) FROM match_old));
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
	END IF;
	RETURN NULL;
END;
$$;

CREATE TRIGGER authorships_match_ins
	AFTER INSERT ON authorships REFERENCING NEW TABLE AS match_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_match_dirty_trg();
CREATE TRIGGER authorships_match_upd
	AFTER UPDATE ON authorships
	REFERENCING OLD TABLE AS match_old NEW TABLE AS match_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_match_dirty_trg();
CREATE TRIGGER authorships_match_del
	AFTER DELETE ON authorships REFERENCING OLD TABLE AS match_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_match_dirty_trg();

-- A researcher's external ids decide its authorships' blocks (the
-- reader gives them as evidence): a change by another writer notes them.
CREATE FUNCTION weft_match_dirty_researcher_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF NOT weft_matcher_writes() THEN
		PERFORM weft_match_note(ARRAY(
		    SELECT weft_name_block(name_key) FROM authorships
		     WHERE researcher_id = NEW.id));
	END IF;
	RETURN NULL;
END;
$$;

CREATE TRIGGER researchers_match_ids
	AFTER UPDATE OF openalex_id, orcid, s2_id ON researchers
	FOR EACH ROW
	WHEN (OLD.openalex_id IS DISTINCT FROM NEW.openalex_id
	      OR OLD.orcid IS DISTINCT FROM NEW.orcid
	      OR OLD.s2_id IS DISTINCT FROM NEW.s2_id)
	EXECUTE FUNCTION weft_match_dirty_researcher_trg();

-- Authorships not yet matched (a load stopped before its match) are
-- noted; everything else was matched by the last full pass.
INSERT INTO match_dirty (block)
SELECT DISTINCT weft_name_block(name_key)
  FROM authorships
 WHERE name_key <> '' AND researcher_id IS NULL
    ON CONFLICT DO NOTHING;

-- The reader's lookup of a block's rows.  A first load builds it after
-- its rows, with the other read-side indexes (0051); one in progress
-- keeps its definition to build instead.
ALTER FUNCTION weft_bulk_indexes() RENAME TO weft_bulk_indexes_0051;
CREATE FUNCTION weft_bulk_indexes() RETURNS text[]
	LANGUAGE sql IMMUTABLE AS $$
	SELECT weft_bulk_indexes_0051() || 'authorships_block'::text
$$;

DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM bulk_dropped_indexes) THEN
		INSERT INTO bulk_dropped_indexes (name, def)
		VALUES ('authorships_block',
		        'CREATE INDEX authorships_block ON public.authorships '
		        'USING btree (weft_name_block(name_key))');
	ELSE
		CREATE INDEX authorships_block ON authorships
			(weft_name_block(name_key));
	END IF;
END $$;
