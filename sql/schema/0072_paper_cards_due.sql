-- 0072_paper_cards_due.sql -- the writes that drop a paper's card say
-- which paper, and the refresh builds those cards only (issue 19,
-- item 3).
--
-- LOCKS: creates a table and fills it from papers and paper_cards (a
-- scan of both); adds a statement trigger to papers.
--
-- A write that changes a card deletes it (0011's triggers), and each
-- refresh built the missing ones by looking for them: an anti-join of
-- every paper with every card, 1.8 M of each at 1.84 M papers, to find
-- the 22,332 of a day (a hash of paper_cards read whole, and papers'
-- primary key read with its heap where the day's writes left the
-- visibility map unset: 218,591 of the 409,179 pages the fill read,
-- 7.3 s in all; tests/bench/refresh_daily.sh, day 35).  The triggers
-- now also note the paper in paper_cards_due, as does a paper's insert
-- (a paper without authors gets its empty card), and the fill takes
-- the notes: it rebuilds each noted paper's card, whether or not a
-- card is there (a writer that noted a paper while the last refresh
-- was building its card has its note kept for the next one).  A paper
-- written with triggers off (the replica role of a benchmark's copies)
-- has no note and no card until a full refresh, which builds every
-- card again; the pages compute its authors as before.  Day 37 at
-- 1.88 M papers: 23,912 cards in 3.0 s, 256,398 pages read.
-- Forward-only: never edit once landed; add another.

CREATE TABLE paper_cards_due (
	paper_id        bigint PRIMARY KEY
);

-- The cards missing now.
INSERT INTO paper_cards_due (paper_id)
SELECT p.id
  FROM papers p
 WHERE NOT EXISTS (SELECT 1 FROM paper_cards c WHERE c.paper_id = p.id);

CREATE OR REPLACE FUNCTION weft_paper_cards_new_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO paper_cards_due (paper_id)
	SELECT DISTINCT paper_id FROM card_new
	    ON CONFLICT (paper_id) DO NOTHING;
	DELETE FROM paper_cards
	 WHERE paper_id IN (SELECT paper_id FROM card_new);
	RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION weft_paper_cards_old_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO paper_cards_due (paper_id)
	SELECT DISTINCT paper_id FROM card_old
	    ON CONFLICT (paper_id) DO NOTHING;
	DELETE FROM paper_cards
	 WHERE paper_id IN (SELECT paper_id FROM card_old);
	RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION weft_paper_cards_researcher_trg()
	RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO paper_cards_due (paper_id)
	SELECT DISTINCT paper_id FROM authorships
	 WHERE researcher_id = NEW.id
	    ON CONFLICT (paper_id) DO NOTHING;
	DELETE FROM paper_cards
	 WHERE paper_id IN (SELECT paper_id FROM authorships
	                     WHERE researcher_id = NEW.id);
	RETURN NULL;
END;
$$;

CREATE FUNCTION weft_paper_cards_papers_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO paper_cards_due (paper_id)
	SELECT id FROM cards_papers_new
	    ON CONFLICT (paper_id) DO NOTHING;
	RETURN NULL;
END;
$$;

CREATE TRIGGER papers_cards_ins
	AFTER INSERT ON papers REFERENCING NEW TABLE AS cards_papers_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_paper_cards_papers_trg();

-- The noted papers' cards, as the statements of pages.sql and feeds.sql
-- would compute them, or, for a full refresh, every paper's; the notes
-- taken are the notes dropped (a note written after this statement's
-- start stays for the next refresh).  The old function answered the
-- missing cards only; its callers name no argument and now take the
-- notes.
DROP FUNCTION weft_paper_cards_fill();
CREATE FUNCTION weft_paper_cards_fill(everything boolean DEFAULT false)
	RETURNS integer
	LANGUAGE plpgsql AS $$
DECLARE
	n integer;
BEGIN
	IF everything THEN
		INSERT INTO paper_cards_due (paper_id)
		SELECT id FROM papers
		    ON CONFLICT (paper_id) DO NOTHING;
	END IF;
	CREATE TEMP TABLE weft_cards_due ON COMMIT DROP AS
	WITH d AS (DELETE FROM paper_cards_due RETURNING paper_id)
	SELECT paper_id FROM d;
	ANALYZE weft_cards_due;
	INSERT INTO paper_cards (paper_id, authors, names)
	SELECT p.id,
	       (SELECT coalesce(json_agg(json_build_array(a.raw_name, r.id,
	                                                  r.slug)
	                                 ORDER BY a.position), '[]')
	          FROM authorships a
	          LEFT JOIN researchers r ON r.id = a.researcher_id
	         WHERE a.paper_id = p.id AND a.position <= 12)::text,
	       (SELECT coalesce(json_agg(a.raw_name ORDER BY a.position),
	                        '[]')
	          FROM authorships a WHERE a.paper_id = p.id)::text
	  FROM weft_cards_due d
	  JOIN papers p ON p.id = d.paper_id
	    ON CONFLICT (paper_id) DO UPDATE
	   SET authors = excluded.authors, names = excluded.names;
	GET DIAGNOSTICS n = ROW_COUNT;
	DROP TABLE weft_cards_due;
	RETURN n;
END;
$$;

-- A full refresh (0055: all_rows) builds every card again, so that
-- t_refresh.sh's comparison of the incremental cards with the full
-- ones compares with cards built from nothing.
CREATE OR REPLACE FUNCTION weft_researcher_derived_fill(all_rows boolean)
	RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM weft_researcher_derived_fill_0009(all_rows);
	PERFORM weft_researcher_evidence_fill();
	PERFORM weft_researcher_reasons_fill();
	PERFORM weft_paper_cards_fill(all_rows);
END;
$$;
