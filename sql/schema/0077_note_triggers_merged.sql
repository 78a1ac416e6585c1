-- 0077_note_triggers_merged.sql -- one function for each note trigger
-- that inserts and deletes fire, and the rename trigger's authorships
-- read once (mends listed when 0072-0076 were reviewed).
--
-- LOCKS: recreating statement triggers on authorships and researchers
-- (SHARE ROW EXCLUSIVE, brief; no table is read or written).
--
-- 0072's cards, 0074's figures here and 0075's name words each kept
-- two copies of one statement, one reading the inserted rows and one
-- the deleted rows, because each trigger named its transition table
-- after its event (card_new and card_old, here_new and here_old,
-- words_new and words_old).  The insert and delete triggers now name
-- theirs alike (card_rows, here_rows, words_rows), so one function
-- with one statement serves both; the update triggers of the figures
-- and the name words compare old and new rows, and keep their own.
-- The cards' update trigger reads only the old rows, as before.
--
-- The rename trigger (researchers_cards_slug) read the researcher's
-- authorships twice, to note the papers and to drop their cards: one
-- CTE now reads them once.
-- Same rows: tests/integration/t_refresh.sh compares the incremental
-- refresh with a full one, and checks what each event notes.
-- Forward-only: never edit once landed; add another.

-- The cards (0011, 0072): the papers whose authorships were written.
CREATE FUNCTION weft_paper_cards_note_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO paper_cards_due (paper_id)
	SELECT DISTINCT paper_id FROM card_rows
	    ON CONFLICT (paper_id) DO NOTHING;
	DELETE FROM paper_cards
	 WHERE paper_id IN (SELECT paper_id FROM card_rows);
	RETURN NULL;
END;
$$;
DROP TRIGGER authorships_cards_ins ON authorships;
DROP TRIGGER authorships_cards_upd ON authorships;
DROP TRIGGER authorships_cards_del ON authorships;
CREATE TRIGGER authorships_cards_ins
	AFTER INSERT ON authorships REFERENCING NEW TABLE AS card_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_paper_cards_note_trg();
CREATE TRIGGER authorships_cards_upd
	AFTER UPDATE ON authorships REFERENCING OLD TABLE AS card_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_paper_cards_note_trg();
CREATE TRIGGER authorships_cards_del
	AFTER DELETE ON authorships REFERENCING OLD TABLE AS card_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_paper_cards_note_trg();
DROP FUNCTION weft_paper_cards_new_trg();
DROP FUNCTION weft_paper_cards_old_trg();

-- A renamed researcher's papers, read once.
CREATE OR REPLACE FUNCTION weft_paper_cards_researcher_trg()
	RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	WITH p AS MATERIALIZED (
		SELECT DISTINCT paper_id FROM authorships
		 WHERE researcher_id = NEW.id),
	     noted AS (
		INSERT INTO paper_cards_due (paper_id)
		SELECT paper_id FROM p
		    ON CONFLICT (paper_id) DO NOTHING)
	DELETE FROM paper_cards
	 WHERE paper_id IN (SELECT paper_id FROM p);
	RETURN NULL;
END;
$$;

-- The figures here (0046, 0074): an authorship written or deleted
-- notes its researcher unless its paper is there without a count.
CREATE OR REPLACE FUNCTION weft_here_authorships_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO here_dirty (researcher_id)
	SELECT DISTINCT h.researcher_id FROM here_rows h
	 WHERE h.researcher_id IS NOT NULL
	   AND NOT EXISTS (SELECT 1 FROM papers p
	                    WHERE p.id = h.paper_id
	                      AND p.citation_count IS NULL)
	    ON CONFLICT DO NOTHING;
	RETURN NULL;
END;
$$;
DROP TRIGGER authorships_here_ins ON authorships;
DROP TRIGGER authorships_here_del ON authorships;
CREATE TRIGGER authorships_here_ins
	AFTER INSERT ON authorships REFERENCING NEW TABLE AS here_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_here_authorships_trg();
CREATE TRIGGER authorships_here_del
	AFTER DELETE ON authorships REFERENCING OLD TABLE AS here_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_here_authorships_trg();

-- The name words (0075): a researcher with papers made or gone.
CREATE OR REPLACE FUNCTION weft_name_words_note_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO name_words_due (researcher_id)
	SELECT id FROM words_rows WHERE paper_count > 0
	    ON CONFLICT DO NOTHING;
	RETURN NULL;
END;
$$;

-- ... and one whose count or name key moved, before or after, by set
-- differences (0075: transition tables have no statistics, and joined
-- by id the planner looped over both, 90,000 rows each, for minutes).
CREATE FUNCTION weft_name_words_upd_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO name_words_due (researcher_id)
	SELECT DISTINCT x.id
	  FROM (((SELECT id, paper_count, search_key FROM words_new)
	         EXCEPT ALL
	         (SELECT id, paper_count, search_key FROM words_old))
	        UNION ALL
	        ((SELECT id, paper_count, search_key FROM words_old)
	         EXCEPT ALL
	         (SELECT id, paper_count, search_key FROM words_new))) x
	 WHERE x.paper_count > 0
	    ON CONFLICT DO NOTHING;
	RETURN NULL;
END;
$$;
DROP TRIGGER researchers_words_ins ON researchers;
DROP TRIGGER researchers_words_upd ON researchers;
DROP TRIGGER researchers_words_del ON researchers;
CREATE TRIGGER researchers_words_ins
	AFTER INSERT ON researchers REFERENCING NEW TABLE AS words_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_name_words_note_trg();
CREATE TRIGGER researchers_words_upd
	AFTER UPDATE ON researchers
	REFERENCING OLD TABLE AS words_old NEW TABLE AS words_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_name_words_upd_trg();
CREATE TRIGGER researchers_words_del
	AFTER DELETE ON researchers REFERENCING OLD TABLE AS words_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_name_words_note_trg();
