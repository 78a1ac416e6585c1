-- 0070_name_words_what_changed.sql -- the refresh rewrites the name
-- words of the researchers whose count or name changed, not of every
-- researcher it touched (issue 19, item 3).
--
-- LOCKS: none beyond replacing a function.
--
-- weft_name_words_fill (0052) deleted and inserted again the rows of
-- every touched researcher: 178,007 rows gone and 242,777 come back for
-- a day of 20,000 papers at 1.74 M papers, 18.0 s of the refresh (day
-- 30, tests/bench/refresh_daily.sh).  A researcher is touched when its
-- authorships move; its rows change only with its paper count or its
-- name.  On day 34, 100,480 of the 120,598 touched researchers had
-- rows to rewrite: 13.3 s in all, of which 5.1 s to find them.
-- Same rows: tests/integration/t_refresh.sh compares with a full
-- rebuild, and renames a researcher between the two refreshes.
-- Forward-only: never edit once landed; add another.

CREATE OR REPLACE FUNCTION weft_name_words_fill(all_rows boolean)
	RETURNS integer
	LANGUAGE plpgsql
	SET maintenance_work_mem = '1GB' AS $$
DECLARE
	n integer;
BEGIN
	IF all_rows THEN
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
	CREATE TEMP TABLE weft_name_moves (word text, d integer)
		ON COMMIT DROP;
	-- What each touched researcher's rows should be; the ones whose rows
	-- are already that (the same count and words: a researcher's rows
	-- are written together, one per word) are left alone.
	CREATE TEMP TABLE weft_name_want ON COMMIT DROP AS
	SELECT t.id, r.paper_count, weft_name_words(r.search_key) AS words
	  FROM weft_touched t
	  JOIN researchers r ON r.id = t.id
	 WHERE r.paper_count > 0;
	CREATE TEMP TABLE weft_name_redo ON COMMIT DROP AS
	SELECT t.id
	  FROM weft_touched t
	  LEFT JOIN weft_name_want w ON w.id = t.id
	 WHERE CASE WHEN w.id IS NULL
	            THEN EXISTS (SELECT 1 FROM researcher_name_words p
	                          WHERE p.researcher_id = t.id)
	            ELSE NOT EXISTS (SELECT 1 FROM researcher_name_words p
	                              WHERE p.researcher_id = t.id
	                                AND p.paper_count = w.paper_count
	                                AND p.words = w.words) END;
	ANALYZE weft_name_redo;
	WITH gone AS (DELETE FROM researcher_name_words p
	               USING weft_name_redo t
	              WHERE p.researcher_id = t.id
	          RETURNING p.word)
	INSERT INTO weft_name_moves SELECT word, -1 FROM gone;
	WITH came AS (INSERT INTO researcher_name_words
	                  (word, paper_count, researcher_id, words)
	              SELECT u.w, w.paper_count, w.id, w.words
	                FROM weft_name_redo t
	                JOIN weft_name_want w ON w.id = t.id,
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
	DROP TABLE weft_name_redo;
	DROP TABLE weft_name_want;
	RETURN n;
END;
$$;
