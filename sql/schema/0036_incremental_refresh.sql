-- 0036_incremental_refresh.sql -- the derived tables refreshed from what
-- changed instead of whole (issue 19, item 3).  After load and match,
-- weft-harvest recomputed every researcher's co-author pairs, stats,
-- evidence and reasons and counted every lexeme of every paper: 539 s at
-- 500,001 papers, whatever the batch (tests/bench/README.md).
--
-- Writers now leave a note of what they changed, in their own
-- transaction (statement triggers, one INSERT per statement):
--   derived_dirty_papers       papers whose authorships, or whose
--                              categories, date, author count or
--                              fully_matched changed (their researchers'
--                              rows depend on them);
--   derived_dirty_researchers  researchers who gained or lost an
--                              authorship, were created or deleted, or
--                              changed their slug (their papers' cards);
--   search_term_delta          each search vector that appeared (+1) or
--                              went away (-1).
-- weft_derived_refresh(false) consumes the notes (DELETE ... RETURNING:
-- a note committed after its snapshot stays for the next one) and
-- recomputes the researchers they name, or a paper of theirs names, with
-- the fill of 0009/0011/0013; lexeme document counts move by the deltas.
-- weft_derived_refresh(true) recomputes everything, as before; both give
-- the same rows (tests/integration/t_refresh.sh compares them).
-- Forward-only: never edit once landed; add another.

CREATE TABLE derived_dirty_papers (
	paper_id        bigint PRIMARY KEY
);
CREATE TABLE derived_dirty_researchers (
	researcher_id   bigint PRIMARY KEY
);
CREATE TABLE search_term_delta (
	sign            smallint NOT NULL,      -- +1 appeared, -1 went away
	v               tsvector NOT NULL
);
-- The document count of every lexeme (search_terms keeps those in 20
-- papers or more): a lexeme crossing 20 needs its count from before.
CREATE TABLE search_lexemes (
	lexeme          text PRIMARY KEY,
	ndoc            integer NOT NULL
);

CREATE FUNCTION weft_dirty_authorships_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'DELETE' THEN
		INSERT INTO derived_dirty_papers (paper_id)
		SELECT DISTINCT paper_id FROM dirty_new
		    ON CONFLICT DO NOTHING;
		INSERT INTO derived_dirty_researchers (researcher_id)
		SELECT DISTINCT researcher_id FROM dirty_new
		 WHERE researcher_id IS NOT NULL
		    ON CONFLICT DO NOTHING;
	END IF;
	IF TG_OP <> 'INSERT' THEN
		INSERT INTO derived_dirty_papers (paper_id)
		SELECT DISTINCT paper_id FROM dirty_old
		    ON CONFLICT DO NOTHING;
		INSERT INTO derived_dirty_researchers (researcher_id)
		SELECT DISTINCT researcher_id FROM dirty_old
		 WHERE researcher_id IS NOT NULL
		    ON CONFLICT DO NOTHING;
	END IF;
	RETURN NULL;
END;
$$;

CREATE TRIGGER authorships_dirty_ins
	AFTER INSERT ON authorships REFERENCING NEW TABLE AS dirty_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_dirty_authorships_trg();
CREATE TRIGGER authorships_dirty_upd
	AFTER UPDATE ON authorships
	REFERENCING OLD TABLE AS dirty_old NEW TABLE AS dirty_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_dirty_authorships_trg();
CREATE TRIGGER authorships_dirty_del
	AFTER DELETE ON authorships REFERENCING OLD TABLE AS dirty_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_dirty_authorships_trg();

-- Papers: the columns researcher_stats reads, and the search vector.  A
-- deleted paper's authorships go with it (ON DELETE CASCADE), and their
-- delete trigger names its researchers.  Updates are noted row by row,
-- only for the rows whose columns changed (the WHEN clause): joining a
-- statement's old and new transition tables is a nested loop over
-- thousands of rows (no statistics), which made the loader 5 times
-- slower.
CREATE FUNCTION weft_dirty_papers_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO derived_dirty_papers (paper_id)
		SELECT id FROM dirty_new
		    ON CONFLICT DO NOTHING;
		INSERT INTO search_term_delta (sign, v)
		SELECT 1, search_vector FROM dirty_new
		 WHERE search_vector IS NOT NULL;
	ELSE
		INSERT INTO derived_dirty_papers (paper_id)
		SELECT id FROM dirty_old
		    ON CONFLICT DO NOTHING;
		INSERT INTO search_term_delta (sign, v)
		SELECT -1, search_vector FROM dirty_old
		 WHERE search_vector IS NOT NULL;
	END IF;
	RETURN NULL;
END;
$$;

CREATE FUNCTION weft_dirty_paper_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF (NEW.categories, NEW.published, NEW.author_count,
	    NEW.fully_matched)
	   IS DISTINCT FROM (OLD.categories, OLD.published,
	    OLD.author_count, OLD.fully_matched) THEN
		INSERT INTO derived_dirty_papers (paper_id) VALUES (NEW.id)
		    ON CONFLICT DO NOTHING;
	END IF;
	IF NEW.search_vector IS DISTINCT FROM OLD.search_vector THEN
		INSERT INTO search_term_delta (sign, v)
		SELECT d.sign, d.v
		  FROM (VALUES (-1::smallint, OLD.search_vector),
		               (1::smallint, NEW.search_vector)) AS d(sign, v)
		 WHERE d.v IS NOT NULL;
	END IF;
	RETURN NULL;
END;
$$;

CREATE TRIGGER papers_dirty_ins
	AFTER INSERT ON papers REFERENCING NEW TABLE AS dirty_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_dirty_papers_trg();
CREATE TRIGGER papers_dirty_upd
	AFTER UPDATE ON papers FOR EACH ROW
	WHEN ((NEW.categories, NEW.published, NEW.author_count,
	       NEW.fully_matched, NEW.search_vector)
	      IS DISTINCT FROM (OLD.categories, OLD.published,
	       OLD.author_count, OLD.fully_matched, OLD.search_vector))
	EXECUTE FUNCTION weft_dirty_paper_trg();
CREATE TRIGGER papers_dirty_del
	AFTER DELETE ON papers REFERENCING OLD TABLE AS dirty_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_dirty_papers_trg();

-- Researchers: a new one gets a stats row, a deleted one loses its rows,
-- a new slug empties its papers' cards (0011), which the refresh fills.
CREATE FUNCTION weft_dirty_researchers_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO derived_dirty_researchers (researcher_id)
		SELECT id FROM dirty_new
		    ON CONFLICT DO NOTHING;
	ELSE
		INSERT INTO derived_dirty_researchers (researcher_id)
		SELECT id FROM dirty_old
		    ON CONFLICT DO NOTHING;
	END IF;
	RETURN NULL;
END;
$$;

CREATE FUNCTION weft_dirty_researcher_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO derived_dirty_researchers (researcher_id) VALUES (NEW.id)
	    ON CONFLICT DO NOTHING;
	RETURN NULL;
END;
$$;

CREATE TRIGGER researchers_dirty_ins
	AFTER INSERT ON researchers REFERENCING NEW TABLE AS dirty_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_dirty_researchers_trg();
CREATE TRIGGER researchers_dirty_slug
	AFTER UPDATE OF slug ON researchers FOR EACH ROW
	WHEN (OLD.slug IS DISTINCT FROM NEW.slug)
	EXECUTE FUNCTION weft_dirty_researcher_trg();
CREATE TRIGGER researchers_dirty_del
	AFTER DELETE ON researchers REFERENCING OLD TABLE AS dirty_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_dirty_researchers_trg();

-- Every lexeme counted again; the notes taken before are part of the
-- count, so they go.  Writers wait for the lock until this commits: a
-- vector committed between the DELETE and the count would be counted
-- twice.  (Replaces 0005's, which search_scale.sql also calls.)
CREATE OR REPLACE FUNCTION weft_search_terms_refresh() RETURNS integer
	LANGUAGE plpgsql AS $$
DECLARE
	n integer;
BEGIN
	LOCK TABLE search_term_delta IN EXCLUSIVE MODE;
	DELETE FROM search_term_delta;
	DELETE FROM search_lexemes;
	INSERT INTO search_lexemes (lexeme, ndoc)
	SELECT word, ndoc
	  FROM ts_stat('SELECT search_vector FROM papers');
	DELETE FROM search_terms;
	INSERT INTO search_terms (lexeme, ndoc)
	SELECT lexeme, ndoc FROM search_lexemes WHERE ndoc >= 20;
	GET DIAGNOSTICS n = ROW_COUNT;
	ANALYZE search_terms;
	RETURN n;
END
$$;

-- The notes of search vectors applied to the counts: each vector holds
-- each of its lexemes once, so a lexeme's document count moves by the
-- sum of the signs of the vectors holding it.  Returns the number of
-- lexemes whose count moved.
CREATE FUNCTION weft_search_terms_apply() RETURNS integer
	LANGUAGE plpgsql AS $$
DECLARE
	n integer;
BEGIN
	DROP TABLE IF EXISTS weft_lexeme_moved;
	CREATE TEMP TABLE weft_lexeme_moved ON COMMIT DROP AS
	WITH d AS (DELETE FROM search_term_delta RETURNING sign, v)
	SELECT u.lexeme, sum(d.sign)::integer AS dn
	  FROM d, unnest(d.v) AS u
	 GROUP BY u.lexeme
	HAVING sum(d.sign) <> 0;
	GET DIAGNOSTICS n = ROW_COUNT;
	INSERT INTO search_lexemes (lexeme, ndoc)
	SELECT lexeme, dn FROM weft_lexeme_moved
	    ON CONFLICT (lexeme)
	    DO UPDATE SET ndoc = search_lexemes.ndoc + excluded.ndoc;
	DELETE FROM search_lexemes l
	 USING weft_lexeme_moved m
	 WHERE l.lexeme = m.lexeme AND l.ndoc <= 0;
	DELETE FROM search_terms t
	 USING weft_lexeme_moved m
	 WHERE t.lexeme = m.lexeme;
	INSERT INTO search_terms (lexeme, ndoc)
	SELECT l.lexeme, l.ndoc
	  FROM weft_lexeme_moved m
	  JOIN search_lexemes l ON l.lexeme = m.lexeme
	 WHERE l.ndoc >= 20;
	DROP TABLE weft_lexeme_moved;
	RETURN n;
END
$$;

-- Brings coauthor_pairs, researcher_stats (with evidence_co and
-- evidence_reasons), paper_cards and the search terms up to date: from
-- the notes, or everything when everything is true (or on the first
-- run after this migration, or when the notes name over a fifth of the
-- researchers -- the setting weft.refresh_full_share, 0.2 unless set:
-- one pass is then cheaper).  Returns what it did, for the log.
CREATE FUNCTION weft_derived_refresh(everything boolean DEFAULT false)
	RETURNS text
	LANGUAGE plpgsql AS $$
DECLARE
	n integer;
	nlex integer;
	all_rows boolean := everything;
BEGIN
	IF NOT EXISTS (SELECT 1 FROM derived_refreshed
	                WHERE name = 'incremental') THEN
		all_rows := true;
	END IF;
	DROP TABLE IF EXISTS weft_touched;
	CREATE TEMP TABLE weft_touched (id bigint PRIMARY KEY) ON COMMIT DROP;
	-- The notes go in both cases: a full pass covers them.
	WITH dp AS (DELETE FROM derived_dirty_papers RETURNING paper_id),
	     dr AS (DELETE FROM derived_dirty_researchers
	            RETURNING researcher_id)
	INSERT INTO weft_touched (id)
	SELECT researcher_id FROM dr
	 UNION
	SELECT a.researcher_id
	  FROM dp JOIN authorships a ON a.paper_id = dp.paper_id
	 WHERE a.researcher_id IS NOT NULL;
	SELECT count(*) INTO n FROM weft_touched;
	IF NOT all_rows AND n > (SELECT count(*) FROM researchers) *
	    coalesce(nullif(current_setting('weft.refresh_full_share', true),
	                    '')::float8, 0.2) THEN
		all_rows := true;
	END IF;
	IF all_rows THEN
		TRUNCATE weft_touched;
		INSERT INTO weft_touched SELECT id FROM researchers;
		SELECT count(*) INTO n FROM weft_touched;
	END IF;
	ANALYZE weft_touched;
	PERFORM weft_researcher_derived_fill(all_rows);
	DROP TABLE weft_touched;
	IF everything THEN
		nlex := weft_search_terms_refresh();
	ELSE
		nlex := weft_search_terms_apply();
	END IF;
	INSERT INTO derived_refreshed (name, at) VALUES ('incremental', now())
	    ON CONFLICT (name) DO UPDATE SET at = excluded.at;
	RETURN format('%s: %s researchers, %s lexemes %s',
	    CASE WHEN all_rows THEN 'full' ELSE 'incremental' END, n, nlex,
	    CASE WHEN everything THEN 'counted' ELSE 'moved' END);
END;
$$;

-- The lexeme counts from here on; the derived tables get one full pass
-- at the first refresh (no 'incremental' row yet: the writes before this
-- migration left no notes).
SELECT weft_search_terms_refresh();
