-- 0076_cards_terms_beside.sql -- the papers' cards and the search
-- terms refreshed beside the derived tables too, with the name words
-- (issue 19, item 3).
--
-- LOCKS: none beyond replacing functions and writing one row.
--
-- After 0075, the refresh's path was weft_derived_refresh (80.1-82.1 s
-- on days 41 and 42 at 1.96-1.98 M papers) and the name words ran
-- beside it on a second connection (16.8-18.1 s).  Two more of its
-- parts write tables nothing else in it reads, from notes of their
-- own: the papers' cards (paper_cards_due, 0072; 4.2-5.4 s) and the
-- search terms (search_term_delta, 0036; 2.0-3.5 s).  They now run in
-- weft_beside_refresh, with the name words, in the second connection's
-- transaction (after.c), one at a time (an advisory lock).
--
-- The cards are rebuilt whole when asked (refresh --full) or when
-- derived_refreshed has no 'paper_cards' row; since 0072 every write
-- that changes a card notes its paper, so the cards and their notes are
-- whole now, and the migration writes that row.  weft_derived_refresh
-- no longer builds cards or moves terms, in either path.
-- Same rows: tests/integration/t_refresh.sh compares the incremental
-- refresh with a full one.
-- Forward-only: never edit once landed; add another.

-- 0072's, without the cards.
CREATE OR REPLACE FUNCTION weft_researcher_derived_fill(all_rows boolean)
	RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM weft_researcher_derived_fill_0009(all_rows);
	PERFORM weft_researcher_evidence_fill();
	PERFORM weft_researcher_reasons_fill();
END;
$$;

-- What runs on the second connection: the name words (0075), the
-- cards, the search terms; every row when everything.  Answers what it
-- did ("N lexemes moved, M cards, K name word rows").
CREATE FUNCTION weft_beside_refresh(everything boolean DEFAULT false)
	RETURNS text
	LANGUAGE plpgsql
	SET work_mem = '64MB' AS $$
DECLARE
	cards_all boolean := everything;
	nlex integer;
	ncards integer;
	nwords integer;
BEGIN
	PERFORM pg_advisory_xact_lock(hashtext('weft_beside_refresh'));
	IF NOT everything THEN
		-- As weft_derived_refresh: too short to repay compilation.
		PERFORM set_config('jit', 'off', true);
	END IF;
	IF NOT EXISTS (SELECT 1 FROM derived_refreshed
	                WHERE name = 'paper_cards') THEN
		cards_all := true;
	END IF;
	ncards := weft_paper_cards_fill(cards_all);
	INSERT INTO derived_refreshed (name, at) VALUES ('paper_cards', now())
	    ON CONFLICT (name) DO UPDATE SET at = excluded.at;
	IF everything THEN
		nlex := weft_search_terms_refresh();
	ELSE
		nlex := weft_search_terms_apply();
	END IF;
	nwords := weft_name_words_refresh(everything);
	RETURN format('%s lexemes %s, %s cards, %s name word rows', nlex,
	    CASE WHEN everything THEN 'counted' ELSE 'moved' END, ncards,
	    nwords);
END;
$$;

-- 0075's refresh without the cards and the search terms.
CREATE OR REPLACE FUNCTION weft_derived_refresh(everything boolean DEFAULT false)
	RETURNS text
	LANGUAGE plpgsql
	SET work_mem = '64MB' AS $$
DECLARE
	n integer;
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
		DROP TABLE weft_side;
	END IF;
	DROP TABLE weft_touched;
	INSERT INTO derived_refreshed (name, at) VALUES ('incremental', now())
	    ON CONFLICT (name) DO UPDATE SET at = excluded.at;
	RETURN format('%s: %s researchers%s',
	    CASE WHEN all_rows THEN 'full' ELSE 'incremental' END, n,
	    CASE WHEN all_rows THEN ''
	         ELSE format(' on %s changed papers', npapers) END);
END;
$$;

-- The cards and their notes are whole (0072): incremental from here.
INSERT INTO derived_refreshed (name, at) VALUES ('paper_cards', now())
    ON CONFLICT (name) DO NOTHING;
