-- 0007_pages_speed.sql -- what the pages module needs to render cold
-- pages without scanning: corpus counts kept by triggers, and indexes for
-- the institution lookups by alias and by slug.
-- Forward-only: never edit a migration once it has landed; add another.

-- The home page and the directories show these three counts.  count(*)
-- over papers, researchers and institutions is a scan of each table on
-- every request; here one row holds them, kept exact by statement-level
-- triggers with transition tables (one UPDATE per statement, so a COPY
-- of a loader batch costs one row write).  Writers of one table
-- serialise on this row until they commit: fine for the loader and the
-- harvester, which write in batches.  A statement that changes nothing
-- counted (most UPDATEs of researchers) does not touch the row.
CREATE TABLE corpus_counts (
	one             boolean PRIMARY KEY DEFAULT true CHECK (one),
	papers          bigint NOT NULL,
	researchers     bigint NOT NULL,  -- with paper_count > 0
	institutions    bigint NOT NULL
);
INSERT INTO corpus_counts
SELECT true, (SELECT count(*) FROM papers),
       (SELECT count(*) FROM researchers WHERE paper_count > 0),
       (SELECT count(*) FROM institutions);

-- Recounts everything (after a TRUNCATE, or by hand:
-- SELECT weft_corpus_counts_refresh()).
CREATE FUNCTION weft_corpus_counts_refresh() RETURNS void
	LANGUAGE sql AS $$
	UPDATE corpus_counts
	   SET papers = (SELECT count(*) FROM papers),
	       researchers = (SELECT count(*) FROM researchers
	                       WHERE paper_count > 0),
	       institutions = (SELECT count(*) FROM institutions);
$$;

CREATE FUNCTION weft_corpus_counts_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
DECLARE
	d bigint := 0;
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM weft_corpus_counts_refresh();
		RETURN NULL;
	END IF;
	IF TG_TABLE_NAME = 'researchers' THEN
		IF TG_OP IN ('INSERT', 'UPDATE') THEN
			SELECT d + count(*) INTO d FROM new_rows
			 WHERE paper_count > 0;
		END IF;
		IF TG_OP IN ('UPDATE', 'DELETE') THEN
			SELECT d - count(*) INTO d FROM old_rows
			 WHERE paper_count > 0;
		END IF;
	ELSIF TG_OP = 'INSERT' THEN
		SELECT count(*) INTO d FROM new_rows;
	ELSE
		SELECT -count(*) INTO d FROM old_rows;
	END IF;
	IF d = 0 THEN
		RETURN NULL;
	END IF;
	IF TG_TABLE_NAME = 'papers' THEN
		UPDATE corpus_counts SET papers = papers + d;
	ELSIF TG_TABLE_NAME = 'researchers' THEN
		UPDATE corpus_counts SET researchers = researchers + d;
	ELSE
		UPDATE corpus_counts SET institutions = institutions + d;
	END IF;
	RETURN NULL;
END
$$;

-- A trigger with transition tables has one event each.
CREATE TRIGGER papers_counts_ins AFTER INSERT ON papers
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_corpus_counts_trg();
CREATE TRIGGER papers_counts_del AFTER DELETE ON papers
	REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_corpus_counts_trg();
CREATE TRIGGER papers_counts_trunc AFTER TRUNCATE ON papers
	FOR EACH STATEMENT EXECUTE FUNCTION weft_corpus_counts_trg();
CREATE TRIGGER researchers_counts_ins AFTER INSERT ON researchers
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_corpus_counts_trg();
CREATE TRIGGER researchers_counts_upd AFTER UPDATE ON researchers
	REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_corpus_counts_trg();
CREATE TRIGGER researchers_counts_del AFTER DELETE ON researchers
	REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_corpus_counts_trg();
CREATE TRIGGER researchers_counts_trunc AFTER TRUNCATE ON researchers
	FOR EACH STATEMENT EXECUTE FUNCTION weft_corpus_counts_trg();
CREATE TRIGGER institutions_counts_ins AFTER INSERT ON institutions
	REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_corpus_counts_trg();
CREATE TRIGGER institutions_counts_del AFTER DELETE ON institutions
	REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION weft_corpus_counts_trg();
CREATE TRIGGER institutions_counts_trunc AFTER TRUNCATE ON institutions
	FOR EACH STATEMENT EXECUTE FUNCTION weft_corpus_counts_trg();

-- The lower-cased aliases of an institution, for a GIN index: the name
-- lookup (INSTITUTIONS_BY_NAME) used to unnest every row's aliases.
CREATE FUNCTION weft_lower_all(text[]) RETURNS text[]
	LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
	RETURN (SELECT coalesce(array_agg(lower(x)), '{}') FROM unnest($1) AS x);
CREATE INDEX institutions_lower_aliases ON institutions
	USING gin (weft_lower_all(aliases));
CREATE INDEX institutions_slug ON institutions (slug);
