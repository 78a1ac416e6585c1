-- 0075_name_words_beside.sql -- the name words kept from their own
-- notes, in their own transaction, so that after.c refreshes them on a
-- second connection beside the derived tables (issue 19, item 3).
--
-- LOCKS: creating a table and three triggers on researchers (a SHARE
-- ROW EXCLUSIVE lock, brief), replacing three functions; then one full
-- build of the name words (as 0052 did), which writers do not wait for.
--
-- The name words (0052) are a function of each researcher's paper count
-- and name alone, but weft_derived_refresh rewrote them for every
-- researcher the refresh touched, after its other work, in the same
-- transaction: 16.2-21.4 s of a day's 88.5-120.8 s refresh at 1.8-1.9 M
-- papers (tests/bench/refresh_daily.sh, days 33-39), 5.1-9.3 s of it to
-- find, among the 112,000-140,000 touched, the 98,000-100,000 whose
-- rows had changed.  The day's work is mostly one process at a time on
-- two cores.
--
-- Now the researchers' triggers note the ones whose count or name key
-- changed (name_words_due); weft_name_words_refresh takes the notes
-- (DELETE ... RETURNING: a note written meanwhile stays for the next
-- one) and rewrites their rows, one refresh at a time (an advisory
-- lock), or every row when asked or when it never ran
-- (derived_refreshed 'name_words').  after.c runs it on its own
-- connection while weft_derived_refresh, which no longer writes the
-- name words, runs on the first.
-- Same rows: tests/integration/t_refresh.sh compares the incremental
-- refresh with a full one, and renames a researcher between them.
-- Writers with the triggers off (session_replication_role = replica)
-- write no notes: their rows come with the next full refresh.
-- Forward-only: never edit once landed; add another.

CREATE TABLE name_words_due (
	researcher_id   bigint PRIMARY KEY
);

-- Researchers with papers made, gone, or whose count or name key moved
-- (a researcher without papers has no name words, before or after).
CREATE FUNCTION weft_name_words_note_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO name_words_due (researcher_id)
		SELECT id FROM words_new WHERE paper_count > 0
		    ON CONFLICT DO NOTHING;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO name_words_due (researcher_id)
		SELECT id FROM words_old WHERE paper_count > 0
		    ON CONFLICT DO NOTHING;
	ELSE
		-- The rows whose count or key moved, before or after, by set
		-- differences (hashed or sorted): transition tables have no
		-- statistics, and joined by id the planner looped over both,
		-- 90,000 rows each, for minutes.
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
	END IF;
	RETURN NULL;
END;
$$;
CREATE TRIGGER researchers_words_ins
	AFTER INSERT ON researchers REFERENCING NEW TABLE AS words_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_name_words_note_trg();
CREATE TRIGGER researchers_words_upd
	AFTER UPDATE ON researchers
	REFERENCING OLD TABLE AS words_old NEW TABLE AS words_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_name_words_note_trg();
CREATE TRIGGER researchers_words_del
	AFTER DELETE ON researchers REFERENCING OLD TABLE AS words_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_name_words_note_trg();

-- Rewrites the rows of the noted researchers (taking the notes), or
-- every row (and every note).  Answers the rows written.
CREATE OR REPLACE FUNCTION weft_name_words_fill(all_rows boolean)
	RETURNS integer
	LANGUAGE plpgsql
	SET maintenance_work_mem = '1GB' AS $$
DECLARE
	n integer;
BEGIN
	IF all_rows THEN
		-- The notes go first: one written after this statement's
		-- snapshot stays, for a change the build may not see.
		DELETE FROM name_words_due;
		-- One sort per index after the rows, in the index's order.
		TRUNCATE researcher_name_words, name_words;
		DROP INDEX researcher_name_words_ranked;
		DROP INDEX researcher_name_words_researcher;
		INSERT INTO researcher_name_words
		    (word, paper_count, researcher_id, words)
		SELECT w, r.paper_count, r.id, weft_name_words(r.search_key)
		  FROM researchers r,
		       unnest(weft_name_words(r.search_key)) AS w
		 WHERE r.paper_count > 0
		 ORDER BY 1, 2 DESC, 3;
		GET DIAGNOSTICS n = ROW_COUNT;
		CREATE UNIQUE INDEX researcher_name_words_ranked
			ON researcher_name_words
			(word, paper_count DESC, researcher_id);
		CREATE INDEX researcher_name_words_researcher
			ON researcher_name_words (researcher_id);
		INSERT INTO name_words (word, researchers)
		SELECT word, count(*) FROM researcher_name_words GROUP BY word;
		ANALYZE researcher_name_words;
		ANALYZE name_words;
		RETURN n;
	END IF;
	CREATE TEMP TABLE weft_name_redo ON COMMIT DROP AS
	WITH d AS (DELETE FROM name_words_due RETURNING researcher_id)
	SELECT DISTINCT researcher_id AS id FROM d;
	ANALYZE weft_name_redo;
	-- What their rows become: the words computed once a researcher.
	CREATE TEMP TABLE weft_name_want ON COMMIT DROP AS
	SELECT t.id, r.paper_count, weft_name_words(r.search_key) AS words
	  FROM weft_name_redo t
	  JOIN researchers r ON r.id = t.id
	 WHERE r.paper_count > 0;
	CREATE TEMP TABLE weft_name_moves (word text, d integer)
		ON COMMIT DROP;
	WITH gone AS (DELETE FROM researcher_name_words p
	               USING weft_name_redo t
	              WHERE p.researcher_id = t.id
	          RETURNING p.word)
	INSERT INTO weft_name_moves SELECT word, -1 FROM gone;
	WITH came AS (INSERT INTO researcher_name_words
	                  (word, paper_count, researcher_id, words)
	              SELECT u.w, w.paper_count, w.id, w.words
	                FROM weft_name_want w,
	                     unnest(w.words) AS u(w)
	           RETURNING word)
	INSERT INTO weft_name_moves SELECT word, 1 FROM came;
	GET DIAGNOSTICS n = ROW_COUNT;
	CREATE TEMP TABLE weft_name_sums ON COMMIT DROP AS
	SELECT word, sum(d)::integer AS d
	  FROM weft_name_moves
	 GROUP BY word
	HAVING sum(d) <> 0;
	UPDATE name_words v
	   SET researchers = v.researchers + s.d
	  FROM weft_name_sums s
	 WHERE v.word = s.word;
	INSERT INTO name_words (word, researchers)
	SELECT s.word, s.d
	  FROM weft_name_sums s
	 WHERE NOT EXISTS (SELECT 1 FROM name_words v WHERE v.word = s.word);
	DELETE FROM name_words v
	 USING weft_name_sums s
	 WHERE v.word = s.word AND v.researchers = 0;
	DROP TABLE weft_name_sums;
	DROP TABLE weft_name_moves;
	DROP TABLE weft_name_want;
	DROP TABLE weft_name_redo;
	RETURN n;
END;
$$;

-- The name words brought up to date from their notes, or every row
-- when everything (or when they were never refreshed here).  One at a
-- time: two would move the same words' counts.  Answers the rows
-- written.
CREATE FUNCTION weft_name_words_refresh(everything boolean DEFAULT false)
	RETURNS integer
	LANGUAGE plpgsql
	SET work_mem = '64MB' AS $$
DECLARE
	all_rows boolean := everything;
	n integer;
BEGIN
	PERFORM pg_advisory_xact_lock(hashtext('weft_name_words_refresh'));
	IF NOT EXISTS (SELECT 1 FROM derived_refreshed
	                WHERE name = 'name_words') THEN
		all_rows := true;
	END IF;
	IF NOT all_rows THEN
		-- As weft_derived_refresh: too short to repay compilation.
		PERFORM set_config('jit', 'off', true);
	END IF;
	n := weft_name_words_fill(all_rows);
	INSERT INTO derived_refreshed (name, at) VALUES ('name_words', now())
	    ON CONFLICT (name) DO UPDATE SET at = excluded.at;
	RETURN n;
END;
$$;

-- 0055's refresh without the name words, and 0071's work_mem with it
-- (CREATE OR REPLACE sets the function's settings anew).
CREATE OR REPLACE FUNCTION weft_derived_refresh(everything boolean DEFAULT false)
	RETURNS text
	LANGUAGE plpgsql
	SET work_mem = '64MB' AS $$
DECLARE
	n integer;
	nlex integer;
	npapers integer;
	all_rows boolean := everything;
BEGIN
	IF NOT EXISTS (SELECT 1 FROM derived_refreshed
	                WHERE name = 'incremental') THEN
		all_rows := true;
	END IF;
	DROP TABLE IF EXISTS weft_touched;
	CREATE TEMP TABLE weft_touched (id bigint PRIMARY KEY) ON COMMIT DROP;
	-- Created, deleted and renamed researchers (0036's notes); 0036's
	-- paper notes are no longer written, those left go.
	WITH dr AS (DELETE FROM derived_dirty_researchers
	            RETURNING researcher_id)
	INSERT INTO weft_touched (id) SELECT researcher_id FROM dr;
	DELETE FROM derived_dirty_papers;
	-- Over a share of the papers changed (the setting
	-- weft.refresh_full_share, 0.2 unless set), one full pass is
	-- cheaper than the differences.
	IF NOT all_rows AND
	   (SELECT count(*) FROM (SELECT paper_id FROM derived_before_papers
	                           UNION
	                          SELECT paper_id FROM derived_before_authors)
	                         x) >
	   (SELECT papers FROM corpus_counts) *
	    coalesce(nullif(current_setting('weft.refresh_full_share', true),
	                    '')::float8, 0.2) THEN
		all_rows := true;
	END IF;
	IF NOT all_rows THEN
		-- Until the transaction ends: the statements of a day's
		-- batch are each too short to repay their compilation.
		PERFORM set_config('jit', 'off', true);
	END IF;
	IF all_rows THEN
		DELETE FROM derived_before_papers;
		DELETE FROM derived_before_authors;
		TRUNCATE weft_touched;
		INSERT INTO weft_touched SELECT id FROM researchers;
		SELECT count(*) INTO n FROM weft_touched;
		ANALYZE weft_touched;
		PERFORM weft_researcher_derived_fill(true);
		npapers := 0;
	ELSE
		npapers := weft_derived_sides();
		SELECT count(*) INTO n FROM weft_touched;
		ANALYZE weft_touched;
		PERFORM weft_derived_apply();
		PERFORM weft_researcher_evidence_fill();
		PERFORM weft_researcher_reasons_fill();
		PERFORM weft_paper_cards_fill();
		DROP TABLE weft_side;
	END IF;
	DROP TABLE weft_touched;
	IF everything THEN
		nlex := weft_search_terms_refresh();
	ELSE
		nlex := weft_search_terms_apply();
	END IF;
	INSERT INTO derived_refreshed (name, at) VALUES ('incremental', now())
	    ON CONFLICT (name) DO UPDATE SET at = excluded.at;
	RETURN format('%s: %s researchers%s, %s lexemes %s',
	    CASE WHEN all_rows THEN 'full' ELSE 'incremental' END, n,
	    CASE WHEN all_rows THEN ''
	         ELSE format(' on %s changed papers', npapers) END,
	    nlex, CASE WHEN everything THEN 'counted' ELSE 'moved' END);
END;
$$;

-- The rows as of now, and the notes from here on.
SELECT weft_name_words_refresh(true);
