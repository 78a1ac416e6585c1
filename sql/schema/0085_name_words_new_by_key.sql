-- 0085_name_words_new_by_key.sql -- the refresh's new name words are
-- written by their key (issue 19, item 3).
--
-- LOCKS: none beyond replacing a function.
--
-- weft_name_words_fill (0075) wrote the words no researcher had before
-- as INSERT INTO name_words ... WHERE NOT EXISTS (a row of name_words
-- with that word).  In a first load name_words is empty when that
-- statement is planned, so the planner took the anti-join for a scan
-- of an empty table per new word; the scan then read the rows the same
-- statement was inserting (invisible to it, but on its pages), once per
-- word: 26,035 words in 5.8 s of the bundled data's first load
-- (auto_explain), a share that grows as the square of the words.  The
-- new words are now inserted with ON CONFLICT (word) DO NOTHING after
-- the update of the existing ones: a probe of the primary key for each,
-- whatever the statistics say.  Same rows: tests/integration/t_refresh.sh
-- compares the incremental refresh with a full one.
-- Forward-only: never edit once landed; add another.

-- As 0075, but for the insert of the new words.
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
	SELECT word, d FROM weft_name_sums WHERE d > 0
	    ON CONFLICT (word) DO NOTHING;
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
