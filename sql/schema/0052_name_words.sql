-- 0052_name_words.sql -- the researchers a search with no type shows
-- beside its papers, found by the words of their names (issue 19,
-- item 2).
--
-- SEARCH_NAMES_FEW asked the trigram index of every researcher's name
-- for the names the query is nearly a word of (%>).  Its cost grows with
-- the names that share a trigram with the query: at 3.54 million
-- researchers (2.5 M papers) "case" took 153 ms, "yang liu" 134 ms and
-- "distributed systems", which names no one, 63 ms.
--
-- Names are few words, and the words are few: each word of a named
-- researcher is a row of researcher_name_words, ordered in its index by
-- the researcher's papers; name_words holds each word once, with how
-- many researchers carry it.  A query's word finds the name words that
-- start with it in name_words (itself, then the shortest: an initial
-- finds the full names, "li" finds "liu"; at most 32), the query word
-- whose words are carried by the fewest researchers leads, and only its
-- lists are read, busiest researchers first: its own word's up to 2,000
-- rows, the longer words' 2,000 between them; the other query words
-- filter those rows by the words stored with them.  A word that starts no name word ends the search at once.
-- (The trigram index of a vocabulary of 37,566 words took 9-18 ms a
-- word at 3.5 M researchers, mostly rechecking candidates; the prefix
-- range of a btree in "C" order takes well under a millisecond.)
--
-- Both tables are derived: weft_derived_refresh (0042, replaced below)
-- rewrites the rows of the researchers it touched, or all of them, and
-- a full refresh equals the incremental one (t_refresh.sh compares).
-- Forward-only: never edit once landed; add another.

-- The distinct words of a name key, split as pg_trgm splits words.
CREATE FUNCTION weft_name_words(key text) RETURNS text[]
	LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
	RETURN (SELECT coalesce(array_agg(DISTINCT w ORDER BY w), '{}')
	          FROM regexp_split_to_table(key, '[^[:alnum:]]+') AS w
	         WHERE w <> '');

-- One row per word of every researcher with papers; words are all the
-- words of the name (weft_name_words of search_key).
CREATE TABLE researcher_name_words (
	word            text COLLATE "C" NOT NULL,
	paper_count     integer NOT NULL,
	researcher_id   bigint NOT NULL,
	words           text[] NOT NULL
);
CREATE UNIQUE INDEX researcher_name_words_ranked
	ON researcher_name_words (word, paper_count DESC, researcher_id);
CREATE INDEX researcher_name_words_researcher
	ON researcher_name_words (researcher_id);

CREATE TABLE name_words (
	word            text COLLATE "C" PRIMARY KEY,
	researchers     integer NOT NULL CHECK (researchers >= 0)
);

-- Rewrites the rows of the researchers in weft_touched, or every row.
-- Answers the rows written.
CREATE FUNCTION weft_name_words_fill(all_rows boolean) RETURNS integer
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
	WITH gone AS (DELETE FROM researcher_name_words p
	               USING weft_touched t
	              WHERE p.researcher_id = t.id
	          RETURNING p.word)
	INSERT INTO weft_name_moves SELECT word, -1 FROM gone;
	WITH came AS (INSERT INTO researcher_name_words
	                  (word, paper_count, researcher_id, words)
	              SELECT w, r.paper_count, r.id,
	                     weft_name_words(r.search_key)
	                FROM weft_touched t
	                JOIN researchers r ON r.id = t.id,
	                     unnest(weft_name_words(r.search_key)) AS w
	               WHERE r.paper_count > 0
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
	RETURN n;
END;
$$;

-- The researchers close to query q, busiest first: rank 2 for a name
-- of the query's words (in any order), 1 for a name with every word of
-- the query, 0 for one with a word starting with each.  At most 4 query
-- words (a longer query names no one here).  The leading word's own
-- list is read up to sample rows, the lists of the words it starts up
-- to sample rows between them (at least n each), busiest first: when
-- one holds more, the total is estimated from the rows read
-- (estimated).  Those named exactly as the query are always among the
-- candidates (researchers_search_key).
-- Rows: id, rank, paper_count, total, estimated, in their order.
CREATE FUNCTION weft_names_close(q text, n integer, sample integer)
	RETURNS TABLE (id bigint, rank integer, paper_count integer,
	               total bigint, estimated boolean)
	LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
	ws      text[] := weft_name_words(weft_name_key(q));
	k       integer := coalesce(array_length(weft_name_words(
	                       weft_name_key(q)), 1), 0);
	e       text[];
	e1      text[];
	e2      text[];
	e3      text[];
	e4      text[];
	lead    text[];
	per     integer;
	carried bigint;
	fewest  bigint;
BEGIN
	IF k = 0 OR k > 4 THEN
		RETURN;
	END IF;
	FOR i IN 1 .. k LOOP
		SELECT array_agg(x.word ORDER BY length(x.word), x.word),
		       sum(x.researchers)
		  INTO e, carried
		  FROM (SELECT v.word, v.researchers
		          FROM name_words v
		         WHERE v.word >= ws[i] AND v.word < ws[i] || chr(1114111)
		         ORDER BY length(v.word), v.word
		         LIMIT 32) x;
		IF e IS NULL THEN
			RETURN;         -- a word that starts no name word
		END IF;
		CASE i
		WHEN 1 THEN e1 := e;
		WHEN 2 THEN e2 := e;
		WHEN 3 THEN e3 := e;
		ELSE e4 := e;
		END CASE;
		IF fewest IS NULL OR carried < fewest THEN
			fewest := carried;
			lead := e;
		END IF;
	END LOOP;
	-- The sample: the query word's own list reads all of it, the other
	-- lists of the leading word share it (a short word starts many
	-- words), never fewer rows each than the top needs.
	per := greatest(sample / array_length(lead, 1), n);
	RETURN QUERY
	WITH lists AS MATERIALIZED (
		SELECT v.word, v.researchers, l.researcher_id, l.paper_count,
		       l.words,
		       (e2 IS NULL OR l.words && e2) AND
		       (e3 IS NULL OR l.words && e3) AND
		       (e4 IS NULL OR l.words && e4) AND
		       l.words && e1 AS close,
		       v.researchers <= v.lim AS whole
		  FROM (SELECT w.word, w.researchers,
		               CASE WHEN w.word = ANY (ws) THEN sample
		                    ELSE per END AS lim
		          FROM name_words w
		         WHERE w.word = ANY (lead)) v
		  CROSS JOIN LATERAL (
			SELECT p.researcher_id, p.paper_count, p.words
			  FROM researcher_name_words p
			 WHERE p.word = v.word
			 ORDER BY p.paper_count DESC, p.researcher_id
			 LIMIT v.lim) l
	), counted AS (
		SELECT CASE WHEN bool_and(s.whole)
		            THEN (SELECT count(DISTINCT c.researcher_id)
		                    FROM lists c WHERE c.close)
		            ELSE round(sum(s.researchers::numeric * s.close /
		                           s.read))::bigint END AS total,
		       NOT bool_and(s.whole) AS estimated
		  FROM (SELECT l.word, bool_and(l.whole) AS whole,
		               max(l.researchers) AS researchers,
		               count(*) FILTER (WHERE l.close) AS close,
		               count(*) AS read
		          FROM lists l GROUP BY l.word) s
	), top AS (
		SELECT DISTINCT ON (c.researcher_id) c.researcher_id,
		       CASE WHEN c.words = ws THEN 2
		            WHEN c.words @> ws THEN 1 ELSE 0 END AS rank,
		       c.paper_count
		  FROM (SELECT l.researcher_id, l.words, l.paper_count
		          FROM lists l
		         WHERE l.close
		        UNION ALL
		        -- those named exactly as the query, wherever their
		        -- lists would have reached them
		        SELECT r.id, weft_name_words(r.search_key), r.paper_count
		          FROM researchers r
		         WHERE r.search_key = weft_name_key(q)
		           AND r.paper_count > 0) c
		 ORDER BY c.researcher_id
	)
	SELECT t.researcher_id, t.rank, t.paper_count, m.total, m.estimated
	  FROM top t, counted m
	 ORDER BY t.rank DESC, t.paper_count DESC, t.researcher_id
	 LIMIT n;
END;
$$;

-- 0042's refresh, and the name words of the researchers it touched.
CREATE OR REPLACE FUNCTION weft_derived_refresh(everything boolean DEFAULT false)
	RETURNS text
	LANGUAGE plpgsql AS $$
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
	   (SELECT count(*) FROM papers) *
	    coalesce(nullif(current_setting('weft.refresh_full_share', true),
	                    '')::float8, 0.2) THEN
		all_rows := true;
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
	PERFORM weft_name_words_fill(all_rows);
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

SELECT weft_name_words_fill(true);
