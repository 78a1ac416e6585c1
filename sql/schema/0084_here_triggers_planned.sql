-- 0084_here_triggers_planned.sql -- the figures-here note triggers plan
-- their statement at each call (issue 19, item 3).
--
-- LOCKS: recreating the update trigger on authorships (SHARE ROW
-- EXCLUSIVE, brief; no table is read or written).
--
-- An authorship written, moved or deleted notes its researcher's
-- figures here (0046, 0074, 0077) unless its paper is there without a
-- citation count: a probe of papers for each row of the statement's
-- transition table.  PL/pgSQL keeps a statement's plan for the session,
-- and a statement without parameters is planned once, for the row count
-- its first call had.  Where the match's first authorships update of a
-- day was large, the probe was planned as a hash of every paper without
-- a count, and each of the day's later batches, a thousand rows or two,
-- built that hash again.  At 1 M papers (100,000 of them without a count) the
-- update trigger took 30.1 s and 36.6 s of a day's match (day 5, two
-- copies of the bench cluster), against 0.7-5.6 s on days whose first
-- update was small; on a corpus without counts the hash holds every
-- paper.  Planned at each call, the probe sees the statement's rows as
-- they are: by key for a batch, by hash for a load (tests/bench/README.md).
-- The insert, delete and update triggers now share one function: an
-- update's rows are those that moved, old and new (0074), the others'
-- the statement's rows (0077).
-- Same rows noted: tests/integration/t_refresh.sh; it also checks that
-- a small update after a large one in one session reads papers by key.
-- Forward-only: never edit once landed; add another.

CREATE OR REPLACE FUNCTION weft_here_authorships_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format(
	    'INSERT INTO here_dirty (researcher_id)
	     SELECT DISTINCT x.researcher_id FROM %s x
	      WHERE x.researcher_id IS NOT NULL
	        AND NOT EXISTS (SELECT 1 FROM papers p
	                         WHERE p.id = x.paper_id
	                           AND p.citation_count IS NULL)
	         ON CONFLICT DO NOTHING',
	    CASE WHEN TG_OP = 'UPDATE' THEN
	        '(((SELECT paper_id, position, researcher_id FROM here_old)
	           EXCEPT
	           (SELECT paper_id, position, researcher_id FROM here_new))
	          UNION ALL
	          ((SELECT paper_id, position, researcher_id FROM here_new)
	           EXCEPT
	           (SELECT paper_id, position, researcher_id FROM here_old)))'
	    ELSE 'here_rows' END);
	RETURN NULL;
END;
$$;
DROP TRIGGER authorships_here_upd ON authorships;
CREATE TRIGGER authorships_here_upd
	AFTER UPDATE ON authorships
	REFERENCING OLD TABLE AS here_old NEW TABLE AS here_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_here_authorships_trg();
DROP FUNCTION weft_here_authorships_upd_trg();
