-- 0087_search_near_rows.sql -- the near search window kept as rows of
-- its own, moved by its rows instead of built again (issue 19, item 3).
--
-- LOCKS: creating search_near and its triggers on papers (SHARE ROW
-- EXCLUSIVE on papers, brief; no row of papers is read here).  The
-- rows are copied, and the partial index they replace dropped
-- CONCURRENTLY, by "weft-harvest migrate" right after this file (the
-- near window is due: weft_search_window_set below).
--
-- The near window (0048) was a partial GIN index of papers, the papers
-- since a date, built again by the refresh when it held more than twice
-- its share (2 %).  CREATE INDEX reads the whole heap, CONCURRENTLY
-- twice: at 1,140,001 papers (8.3 GB of heap) the near window took
-- 32.8-37 s, on every day of the bench's 20,000 papers, which is its
-- share; at any size about 27 s a day amortized, growing with the heap
-- while its window does not (tests/bench/README.md).
--
-- The window's rows are now a table, search_near: the search columns
-- of every paper published since the window's date, with a GIN index of
-- words and categories as the partial one had.  Triggers on papers keep
-- it: a paper written with a date in the window is copied (or its copy
-- rewritten where its search columns moved), one moved out of it is
-- deleted, one deleted goes with it (the foreign key).  Moving the
-- window is then a delete of the days it leaves (or a copy of those it
-- takes) in one transaction with its row in search_windows, so it
-- moves at every refresh where its date does, and holds its share, not
-- one to two times it.  Exact as before: every paper since the date is
-- in it, whatever a search reads of search_windows first (a window
-- moved later in between holds fewer rows since the old date, and a
-- pool it does not fill goes the way after it, 0048).  The far and
-- citation windows stay partial indexes: rebuilt every 7-19 days at
-- 1-2.5 M papers, not daily.
-- Same rows: tests/integration/t_search_windows.sh compares the table
-- with the papers since the date after writes, a move and a move back.
-- Its rows hold their vectors uncompressed, as papers' do (0015): at the
-- default TOAST target a search for "rather" near 1 M papers took
-- 113 ms through the window's index, 2,921 vectors decompressed twice
-- (the index's recheck, then ts_match_vq), against 9.5 ms before.
-- Forward-only: never edit once landed; add another.

CREATE TABLE search_near (
	paper_id        bigint PRIMARY KEY REFERENCES papers (id)
	                    ON DELETE CASCADE,
	published       date NOT NULL,
	paper_type      text,
	categories      text[] NOT NULL,
	search_vector   tsvector
) WITH (toast_tuple_target = 8160);
CREATE INDEX search_near_words ON search_near
	USING gin (search_vector, categories);
CREATE INDEX search_near_published ON search_near (published);

-- The near window's first date when its rows are this table's (its
-- index is search_near_words), else NULL: the triggers then leave it to
-- weft_search_window_set, which fills it whole.
CREATE FUNCTION weft_search_near_since() RETURNS date
	LANGUAGE sql STABLE
	RETURN (SELECT s.since FROM search_windows s
	         WHERE s.name = 'near' AND s.index_name = 'search_near_words');

-- The papers a statement wrote, copied where their date is in the
-- window and their search columns are new; an update's papers moved
-- out of it deleted.  The window's row is read FOR SHARE: a move
-- (weft_search_window_set, FOR UPDATE) waits for the writers before it,
-- and the writers after it read its date.  The delete runs only when a
-- paper moved out, planned then (EXECUTE): its join is never planned
-- for one statement's rows and run for another's (0084).
CREATE FUNCTION weft_search_near_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
DECLARE
	b date;
BEGIN
	PERFORM 1 FROM search_windows s
	  WHERE s.name = 'near' AND s.index_name = 'search_near_words'
	    FOR SHARE;
	b := weft_search_near_since();
	IF b IS NULL THEN
		RETURN NULL;
	END IF;
	IF TG_OP = 'INSERT' THEN
		INSERT INTO search_near AS n
		    (paper_id, published, paper_type, categories, search_vector)
		SELECT r.id, r.published, r.paper_type, r.categories,
		       r.search_vector
		  FROM near_new r
		 WHERE r.published >= b
		    ON CONFLICT (paper_id) DO UPDATE
		   SET published = excluded.published,
		       paper_type = excluded.paper_type,
		       categories = excluded.categories,
		       search_vector = excluded.search_vector;
		RETURN NULL;
	END IF;
	IF EXISTS (SELECT 1 FROM near_old o JOIN near_new r ON r.id = o.id
	            WHERE o.published >= b
	              AND (r.published < b OR r.published IS NULL)) THEN
		EXECUTE 'DELETE FROM search_near n
		          USING near_old o JOIN near_new r ON r.id = o.id
		          WHERE n.paper_id = r.id AND o.published >= $1
		            AND (r.published < $1 OR r.published IS NULL)'
		  USING b;
	END IF;
	INSERT INTO search_near AS n
	    (paper_id, published, paper_type, categories, search_vector)
	SELECT r.id, r.published, r.paper_type, r.categories, r.search_vector
	  FROM near_new r
	  LEFT JOIN near_old o ON o.id = r.id
	 WHERE r.published >= b
	   AND (o.id IS NULL OR o.published < b
	        OR (o.published, o.paper_type, o.categories, o.search_vector)
	           IS DISTINCT FROM
	           (r.published, r.paper_type, r.categories, r.search_vector))
	    ON CONFLICT (paper_id) DO UPDATE
	   SET published = excluded.published,
	       paper_type = excluded.paper_type,
	       categories = excluded.categories,
	       search_vector = excluded.search_vector;
	RETURN NULL;
END $$;

CREATE TRIGGER papers_near_ins AFTER INSERT ON papers
	REFERENCING NEW TABLE AS near_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_search_near_trg();
CREATE TRIGGER papers_near_upd AFTER UPDATE ON papers
	REFERENCING OLD TABLE AS near_old NEW TABLE AS near_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_search_near_trg();

-- 0056's, the near window over search_near: due whenever its date
-- moves (a move costs the days it leaves or takes, not a build), or
-- while its rows are not the table's yet.
CREATE OR REPLACE FUNCTION weft_search_windows_due()
	RETURNS TABLE (name text, bound text, what text, index_name text,
	               pre text, ddl text)
	LANGUAGE plpgsql AS $$
DECLARE
	w       search_windows;
	cited   boolean;
	by_rows boolean;
	n       bigint;
	target  bigint;
	b       text;
	cur     text;
	idx     text;
BEGIN
	SELECT cc.papers INTO n FROM corpus_counts cc;
	IF n = 0 THEN
		RETURN;
	END IF;
	FOR w IN SELECT * FROM search_windows ORDER BY search_windows.name
	LOOP
		cited := weft_search_window_cited(w.name);
		by_rows := w.name = 'near';
		target := greatest(ceil(w.share * n)::bigint, 1);
		cur := CASE WHEN cited THEN w.min_citations::text
		            ELSE w.since::text END;
		IF cur IS NOT NULL AND NOT by_rows
		   AND weft_search_window_index_ok(w.index_name) THEN
			CONTINUE WHEN weft_search_window_papers(w.name, cur)
			    BETWEEN (target + 1) / 2 AND 2 * target;
		END IF;
		IF cited THEN
			SELECT p.citation_count::text INTO b
			  FROM papers p
			 WHERE p.citation_count IS NOT NULL
			 ORDER BY p.citation_count DESC NULLS LAST, p.id DESC
			OFFSET target - 1 LIMIT 1;
			CONTINUE WHEN b IS NULL;
			IF weft_search_window_papers(w.name, b) > 2 * target THEN
				b := (b::integer + 1)::text;
			END IF;
		ELSE
			SELECT p.published::text INTO b
			  FROM papers p
			 ORDER BY p.published DESC, p.id DESC
			OFFSET target - 1 LIMIT 1;
			CONTINUE WHEN b IS NULL;
		END IF;
		idx := CASE WHEN by_rows THEN 'search_near_words'
		            ELSE format('papers_words_%s_%s', w.name,
		                CASE WHEN cited THEN b
		                     ELSE replace(b, '-', '') END) END;
		CONTINUE WHEN cur = b AND idx = w.index_name
		    AND weft_index_ok(idx);
		name := w.name;
		bound := b;
		what := CASE WHEN cited
		             THEN format('the papers cited %s times or more', b)
		             ELSE format('the papers since %s', b) END;
		index_name := idx;
		pre := NULL;
		ddl := NULL;
		IF NOT by_rows AND NOT weft_index_ok(idx) THEN
			pre := CASE WHEN to_regclass(idx) IS NOT NULL
			    THEN format('DROP INDEX CONCURRENTLY %I', idx) END;
			ddl := format('CREATE INDEX CONCURRENTLY %I ON papers '
			    'USING gin (search_vector, categories) WHERE %s',
			    idx, CASE WHEN cited
			              THEN format('citation_count + 0 >= %s',
			                          b::integer)
			              ELSE format('published + 0 >= %L::date', b)
			         END);
		END IF;
		RETURN NEXT;
	END LOOP;
END $$;

-- 0053's; the near window's rows moved to bound b in the transaction
-- that sets its date: the days it leaves deleted, those it takes copied
-- from papers (every paper since b, the first time).
CREATE OR REPLACE FUNCTION weft_search_window_set(w text, b text, idx text)
	RETURNS text
	LANGUAGE plpgsql AS $$
DECLARE
	old     text;
	was     date;
BEGIN
	SELECT s.index_name, s.since INTO old, was
	  FROM search_windows s WHERE s.name = w
	   FOR UPDATE;
	IF idx = 'search_near_words' THEN
		IF old IS DISTINCT FROM idx OR was IS NULL THEN
			DELETE FROM search_near;
			was := NULL;
		ELSE
			DELETE FROM search_near n WHERE n.published < b::date;
		END IF;
		INSERT INTO search_near
		    (paper_id, published, paper_type, categories, search_vector)
		SELECT p.id, p.published, p.paper_type, p.categories,
		       p.search_vector
		  FROM papers p
		 WHERE p.published >= b::date
		   AND (was IS NULL OR p.published < was)
		    ON CONFLICT (paper_id) DO NOTHING;
	END IF;
	UPDATE search_windows s
	   SET since = CASE WHEN weft_search_window_cited(w) THEN NULL
	                    ELSE b::date END,
	       min_citations = CASE WHEN weft_search_window_cited(w)
	                            THEN b::integer END,
	       index_name = idx, built_at = now(),
	       papers = CASE WHEN idx = 'search_near_words'
	                     THEN (SELECT count(*) FROM search_near)
	                     ELSE weft_search_window_papers(w, b) END
	 WHERE s.name = w;
	RETURN CASE WHEN old IS DISTINCT FROM idx AND old IS NOT NULL
	                 AND old <> 'search_near_words'
	            THEN format('DROP INDEX CONCURRENTLY IF EXISTS %I', old) END;
END $$;
