-- 0088_search_far_rows.sql -- the far search window kept as rows too
-- (issue 19, item 3).
--
-- LOCKS: creating search_far, and replacing 0087's triggers on papers
-- (SHARE ROW EXCLUSIVE on papers, brief; no row of papers is read
-- here).  The far window's rows are copied, and its partial index
-- dropped CONCURRENTLY, by "weft-harvest migrate" right after this file
-- (the window is due: weft_search_window_set below).
--
-- 0087 made the near window (2 %) a table.  The far one (15 %) was
-- still a partial index of papers, built again when it held twice its
-- share: every 7.5 days at 1 M papers and 20,000 a day, every 19 days
-- at 2.5 M, each time two scans of the whole heap and a GIN build of
-- 150,000-375,000 papers (at 2.5 M about as long as the day's harvest
-- may take in all).  Its rows are now search_far, kept by the same
-- triggers and moved by the same function as the near window's: a
-- day's move deletes the papers of the days it leaves.  Both windows
-- now hold their share at every refresh.
-- The triggers read both windows' rows of search_windows FOR SHARE
-- whatever their kind: a window turned into rows (migrate, after this
-- file) waits for the writers before it, and the writers after it copy
-- its papers (0087 read only the windows already of rows, so a paper
-- written while the near window was first filled could be missed).
-- Same rows: tests/integration/t_search_windows.sh compares each table
-- with the papers since its date.
-- Forward-only: never edit once landed; add another.

CREATE TABLE search_far (
	paper_id        bigint PRIMARY KEY REFERENCES papers (id)
	                    ON DELETE CASCADE,
	published       date NOT NULL,
	paper_type      text,
	categories      text[] NOT NULL,
	search_vector   tsvector
) WITH (toast_tuple_target = 8160);
CREATE INDEX search_far_words ON search_far
	USING gin (search_vector, categories);
CREATE INDEX search_far_published ON search_far (published);

-- The papers a statement wrote, copied into each window of rows where
-- their date is in it and their search columns are new; an update's
-- papers moved out of it deleted.  Each statement is planned at its
-- call (EXECUTE, a table a window): never planned for one statement's
-- rows and run for another's (0084).  The papers moved out are the
-- update's old rows in the window less its new rows there, a set
-- difference: 0087 asked EXISTS of a join of the two, which the
-- planner ran as a nested loop for a first match that was not there
-- (an update of every bundled paper's citation count: 24.6 M pairs
-- compared, 61 s for the far window, 9.9 s for the near one).
CREATE FUNCTION weft_search_rows_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
DECLARE
	t       text;
	b       date;
	idx     text;
	gone    bigint[];
	cols    constant text :=
	    '(paper_id, published, paper_type, categories, search_vector)';
	upsert  constant text :=
	    ' ON CONFLICT (paper_id) DO UPDATE
	      SET published = excluded.published,
	          paper_type = excluded.paper_type,
	          categories = excluded.categories,
	          search_vector = excluded.search_vector';
BEGIN
	FOR t, b, idx IN
		SELECT format('search_%s', s.name), s.since, s.index_name
		  FROM search_windows s
		 WHERE s.name IN ('near', 'far')
		 ORDER BY s.name
		   FOR SHARE
	LOOP
		CONTINUE WHEN b IS NULL OR idx IS DISTINCT FROM t || '_words';
		IF TG_OP = 'INSERT' THEN
			EXECUTE format('INSERT INTO %I %s
			    SELECT r.id, r.published, r.paper_type, r.categories,
			           r.search_vector
			      FROM win_new r
			     WHERE r.published >= $1', t, cols) || upsert
			  USING b;
			CONTINUE;
		END IF;
		gone := ARRAY(SELECT o.id FROM win_old o WHERE o.published >= b
		              EXCEPT
		              SELECT r.id FROM win_new r WHERE r.published >= b);
		IF cardinality(gone) > 0 THEN
			EXECUTE format('DELETE FROM %I WHERE paper_id = ANY ($1)', t)
			  USING gone;
		END IF;
		EXECUTE format('INSERT INTO %I %s
		    SELECT r.id, r.published, r.paper_type, r.categories,
		           r.search_vector
		      FROM win_new r
		      LEFT JOIN win_old o ON o.id = r.id
		     WHERE r.published >= $1
		       AND (o.id IS NULL OR o.published < $1
		            OR (o.published, o.paper_type, o.categories,
		                o.search_vector)
		               IS DISTINCT FROM
		               (r.published, r.paper_type, r.categories,
		                r.search_vector))', t, cols) || upsert
		  USING b;
	END LOOP;
	RETURN NULL;
END $$;

DROP TRIGGER papers_near_ins ON papers;
DROP TRIGGER papers_near_upd ON papers;
DROP FUNCTION weft_search_near_trg();
DROP FUNCTION weft_search_near_since();
CREATE TRIGGER papers_windows_ins AFTER INSERT ON papers
	REFERENCING NEW TABLE AS win_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_search_rows_trg();
CREATE TRIGGER papers_windows_upd AFTER UPDATE ON papers
	REFERENCING OLD TABLE AS win_old NEW TABLE AS win_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_search_rows_trg();

-- 0087's, the far window of rows as the near one.
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
		by_rows := w.name IN ('near', 'far');
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
		idx := CASE WHEN by_rows THEN format('search_%s_words', w.name)
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

-- 0087's, for either window of rows: its table is search_<name>, its
-- index search_<name>_words.
CREATE OR REPLACE FUNCTION weft_search_window_set(w text, b text, idx text)
	RETURNS text
	LANGUAGE plpgsql AS $$
DECLARE
	old     text;
	was     date;
	t       text := format('search_%s', w);
	n       bigint;
BEGIN
	SELECT s.index_name, s.since INTO old, was
	  FROM search_windows s WHERE s.name = w
	   FOR UPDATE;
	IF idx = t || '_words' THEN
		IF old IS DISTINCT FROM idx OR was IS NULL THEN
			EXECUTE format('DELETE FROM %I', t);
			was := NULL;
		ELSE
			EXECUTE format('DELETE FROM %I n WHERE n.published < $1', t)
			  USING b::date;
		END IF;
		EXECUTE format('INSERT INTO %I
		    (paper_id, published, paper_type, categories, search_vector)
		    SELECT p.id, p.published, p.paper_type, p.categories,
		           p.search_vector
		      FROM papers p
		     WHERE p.published >= $1
		       AND ($2::date IS NULL OR p.published < $2)
		        ON CONFLICT (paper_id) DO NOTHING', t)
		  USING b::date, was;
		EXECUTE format('SELECT count(*) FROM %I', t) INTO n;
	ELSE
		n := weft_search_window_papers(w, b);
	END IF;
	UPDATE search_windows s
	   SET since = CASE WHEN weft_search_window_cited(w) THEN NULL
	                    ELSE b::date END,
	       min_citations = CASE WHEN weft_search_window_cited(w)
	                            THEN b::integer END,
	       index_name = idx, built_at = now(), papers = n
	 WHERE s.name = w;
	RETURN CASE WHEN old IS DISTINCT FROM idx AND old IS NOT NULL
	                 AND old NOT LIKE 'search\_%\_words'
	            THEN format('DROP INDEX CONCURRENTLY IF EXISTS %I', old) END;
END $$;
