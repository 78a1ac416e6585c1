-- 0051_bulk_load_indexes.sql -- a first load builds the read-side
-- indexes once, after its rows, instead of keeping them up to date row
-- by row (issue 19, item 1).
--
-- A load into an empty database (make run's first, a new deployment, a
-- benchmark corpus) wrote every paper into the search vector's GIN index,
-- every authorship into four researcher indexes as the matcher moved it,
-- and every researcher into a trigram index: at 2,500,001 synthetic
-- papers the records took about an hour and the matcher as long
-- (tests/bench/README.md, "2,500,001 synthetic papers").  None of these
-- indexes serves the load's own statements (they look up by primary
-- key, arXiv id, name key and researcher_id, which stay): they serve
-- the pages and search.  PostgreSQL's own advice for a bulk load is to
-- drop such indexes and build them afterwards, one sort each.
--
-- weft_bulk_begin() drops them when papers is empty, keeping each one's
-- definition in bulk_dropped_indexes; weft_bulk_end() builds again every
-- index kept there (with 1 GB of maintenance_work_mem: one pass of the
-- sort in memory) and empties it.  The loader calls weft_bulk_end()
-- before it starts too, so that a load that failed half way leaves no
-- index missing after the next one.  A database that is not empty is
-- never touched: a day's harvest keeps its indexes up to date.
-- Forward-only: never edit once landed; add another.

CREATE TABLE bulk_dropped_indexes (
	name    text PRIMARY KEY,
	def     text NOT NULL
);

-- The indexes a first load builds afterwards: read-side only (pages,
-- search, the directory, evidence), none used by the load's statements.
CREATE FUNCTION weft_bulk_indexes() RETURNS text[]
	LANGUAGE sql IMMUTABLE AS $$
	SELECT ARRAY['papers_search', 'papers_categories', 'papers_citations',
	             'papers_primary', 'papers_published', 'papers_unanalysed',
	             'papers_paper_type', 'authorships_researcher_newest',
	             'authorships_seed_newest', 'authorships_coauthors',
	             'researchers_name_trgm', 'researchers_directory',
	             'researchers_search_key']
$$;

-- Answers how many indexes it dropped (0 when papers has a row).
CREATE FUNCTION weft_bulk_begin() RETURNS integer
	LANGUAGE plpgsql AS $$
DECLARE
	r       record;
	n       integer := 0;
BEGIN
	IF EXISTS (SELECT 1 FROM papers) THEN
		RETURN 0;
	END IF;
	FOR r IN
		SELECT c.relname AS name, pg_get_indexdef(c.oid) AS def
		  FROM unnest(weft_bulk_indexes()) AS x(name)
		  JOIN pg_class c ON c.oid = to_regclass(x.name)
		 WHERE c.relkind = 'i'
	LOOP
		INSERT INTO bulk_dropped_indexes (name, def)
		VALUES (r.name, r.def)
		ON CONFLICT (name) DO NOTHING;
		EXECUTE format('DROP INDEX %I', r.name);
		n := n + 1;
	END LOOP;
	RETURN n;
END $$;

-- Answers how many indexes it built.
CREATE FUNCTION weft_bulk_end() RETURNS integer
	LANGUAGE plpgsql
	SET maintenance_work_mem = '1GB' AS $$
DECLARE
	r       record;
	n       integer := 0;
BEGIN
	FOR r IN SELECT name, def FROM bulk_dropped_indexes ORDER BY name LOOP
		IF to_regclass(r.name) IS NULL THEN
			EXECUTE r.def;
			n := n + 1;
		END IF;
		DELETE FROM bulk_dropped_indexes WHERE name = r.name;
	END LOOP;
	RETURN n;
END $$;
