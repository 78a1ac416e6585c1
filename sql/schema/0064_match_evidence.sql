-- 0064_match_evidence.sql -- what the day's match knows of a researcher,
-- kept from one match to the next (issue 19, item 3).
--
-- LOCKS: creates an empty table and triggers; nothing is rewritten.
--
-- The day's pass (0059) decides the day's authorships against the
-- researchers whose names fit, and read those researchers as all their
-- decided authorships in the block, each with its paper's author keys:
-- 1.36 M rows for 107,000 authorships to decide at 1.32 M papers, the
-- most of the match's 82 s (tests/bench/README.md), and growing with
-- the corpus.  Yet the matcher keeps of them only sets: the name forms,
-- the co-authors' keys, the categories, the external id
-- (harvest_match_place()).  Those sets are now kept per researcher and
-- block, one row, written by the matcher from what it holds in memory
-- when a day changes them; the day's pass reads that row instead of the
-- researcher's authorships.
--
-- A row is exactly what the researcher's decided authorships of the
-- block give, or it is not there: any other writer that changes such an
-- authorship (inserted or deleted decided, moved, renamed, unmatched),
-- or the author keys, date or categories of its paper, deletes the rows
-- it makes stale (the triggers below), and the day's pass reads the
-- authorships again where no row is (and writes the row then).  "match
-- --blocks" and "--full" decide their blocks whole and delete the rows
-- of those blocks first, and write them again from their decisions.
-- Forward-only: never edit once landed; add another.

-- Whether an authorship is decided: the complement of what 0059's
-- authorships_undecided holds.
CREATE FUNCTION weft_match_decided(reason text, score real) RETURNS boolean
	LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT reason IS NOT NULL AND reason <> 'name_key' AND score IS NOT NULL
$$;

-- One researcher in one block.  form_*: its name keys, newest first,
-- each with the raw name and date of its newest authorship and how many
-- authorships have it; coauthors: the co-authors' keys of those
-- authorships, '|'-joined (each paper's keys without the author's own,
-- once, as the reader gives them); fields: their papers' categories,
-- '|'-joined; ext_reason: the match_reason of the newest authorship
-- placed by an external id (the reader gives the id of the researcher).
CREATE TABLE match_evidence (
	researcher_id   bigint NOT NULL
	                REFERENCES researchers (id) ON DELETE CASCADE,
	block           text NOT NULL,
	form_keys       text[] NOT NULL,
	form_raws       text[] NOT NULL,
	form_counts     integer[] NOT NULL,
	form_dates      date[] NOT NULL,
	coauthors       text NOT NULL,
	fields          text NOT NULL,
	ext_reason      text,
	PRIMARY KEY (researcher_id, block)
);

-- The rows of the (researcher, block) pairs given, by the primary key
-- (an unnest of parameters is estimated small: a nested loop of index
-- probes, never a scan of the table).
CREATE FUNCTION weft_match_evidence_drop(ids bigint[], blocks text[])
	RETURNS void LANGUAGE sql AS $$
	DELETE FROM match_evidence e
	 USING unnest(ids, blocks) AS u(researcher_id, block)
	 WHERE e.researcher_id = u.researcher_id AND e.block = u.block
$$;

-- Another writer's authorships: the rows of the (researcher, block)
-- pairs of decided authorships inserted, deleted, or changed in key,
-- researcher, reason or score, old and new.  The matcher's own writes
-- (weft.matcher) keep the rows it writes.  Old and new rows are
-- compared with EXCEPT, a hash (as 0058).
CREATE FUNCTION weft_match_evidence_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
DECLARE
	ids     bigint[];
	blocks  text[];
BEGIN
	IF weft_matcher_writes() THEN
		RETURN NULL;
	END IF;
	IF TG_OP = 'INSERT' THEN
		SELECT array_agg(researcher_id), array_agg(weft_name_block(name_key))
		  INTO ids, blocks
		  FROM match_new
		 WHERE researcher_id IS NOT NULL
		   AND weft_match_decided(match_reason, match_score);
	ELSIF TG_OP = 'DELETE' THEN
		SELECT array_agg(researcher_id), array_agg(weft_name_block(name_key))
		  INTO ids, blocks
		  FROM match_old
		 WHERE researcher_id IS NOT NULL
		   AND weft_match_decided(match_reason, match_score);
	ELSE
		SELECT array_agg(researcher_id), array_agg(weft_name_block(name_key))
		  INTO ids, blocks
		  FROM (SELECT * FROM (
			SELECT paper_id, position, name_key, researcher_id,
			       match_reason, match_score FROM match_old
			EXCEPT
			SELECT paper_id, position, name_key, researcher_id,
			       match_reason, match_score FROM match_new) o
		 UNION ALL
		SELECT * FROM (
			SELECT paper_id, position, name_key, researcher_id,
			       match_reason, match_score FROM match_new
			EXCEPT
			SELECT paper_id, position, name_key, researcher_id,
			       match_reason, match_score FROM match_old) n) x
		 WHERE researcher_id IS NOT NULL
		   AND weft_match_decided(match_reason, match_score);
	END IF;
	IF ids IS NOT NULL THEN
		PERFORM weft_match_evidence_drop(ids, blocks);
	END IF;
	RETURN NULL;
END;
$$;

CREATE TRIGGER authorships_evidence_ins
	AFTER INSERT ON authorships REFERENCING NEW TABLE AS match_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_match_evidence_trg();
CREATE TRIGGER authorships_evidence_upd
	AFTER UPDATE ON authorships
	REFERENCING OLD TABLE AS match_old NEW TABLE AS match_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_match_evidence_trg();
CREATE TRIGGER authorships_evidence_del
	AFTER DELETE ON authorships REFERENCING OLD TABLE AS match_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_match_evidence_trg();

-- A paper's author keys, date or categories written (0061, 0062): the
-- rows of its decided authorships.  A day's new papers have none yet.
CREATE FUNCTION weft_match_evidence_paper_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
DECLARE
	ids     bigint[];
	blocks  text[];
BEGIN
	SELECT array_agg(a.researcher_id), array_agg(weft_name_block(a.name_key))
	  INTO ids, blocks
	  FROM authorships a
	 WHERE a.paper_id = ANY (ARRAY(SELECT paper_id FROM keys_rows))
	   AND a.researcher_id IS NOT NULL
	   AND weft_match_decided(a.match_reason, a.match_score);
	IF ids IS NOT NULL THEN
		PERFORM weft_match_evidence_drop(ids, blocks);
	END IF;
	RETURN NULL;
END;
$$;

CREATE TRIGGER paper_author_keys_evidence_ins
	AFTER INSERT ON paper_author_keys REFERENCING NEW TABLE AS keys_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_match_evidence_paper_trg();
CREATE TRIGGER paper_author_keys_evidence_upd
	AFTER UPDATE ON paper_author_keys REFERENCING NEW TABLE AS keys_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_match_evidence_paper_trg();
