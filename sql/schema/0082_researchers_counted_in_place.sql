-- 0082_researchers_counted_in_place.sql -- a researcher's paper count
-- is written beside its row, not into ten indexes (issue 19, item 3).
--
-- LOCKS: builds researcher_directory from a scan of researchers (writes
-- to researchers wait while it runs), drops two indexes, and sets a
-- fillfactor (a catalog write; no rewrite).
--
-- The match's count update (COUNTS_OF_TOUCHED) was the largest
-- statement of a day's match outside the refresh: 9.2 s for 81,409
-- researchers at 1 M papers, about 1.4 s of it reading.  None of its
-- rows was updated in place (HOT), for two reasons:
--   - two indexes hold the columns it writes: researchers_directory
--     (paper_count DESC, id), the directory's order, and
--     researchers_modified (modified_at), by which HV_MARK_STALE found
--     what a harvester's batch wrote;
--   - the pages were filled to 100 %.
-- So each row's new version went to another page, with an entry in
-- each of the table's ten indexes (272,690 pages dirtied).
--
-- Now:
--   - the directory's order is a table of its own, researcher_directory
--     (researcher_id, paper_count), kept by statement triggers on
--     researchers (a row per researcher, written when its count moves);
--     RESEARCHERS_PAGE and the onboarding's SEARCH_NAME read it;
--   - each writer of researchers in a harvester's batch marks the pages
--     of what it wrote as stale as it writes them (the counts, the
--     researchers made by name, the OpenAlex authors, the S2 metrics;
--     sql/queries/harvest.sql), instead of HV_MARK_STALE finding them
--     by modified_at = now();
--   - researchers keeps 15 % of each page free, so the new version of a
--     counted row finds room beside it.  A table loaded from here on has
--     the room from the start; an existing one gains it as rows move, or
--     at once with VACUUM FULL researchers (it locks the table: 33-41 s
--     at 1 M papers).
-- On two copies of a 1 M-paper cluster, the same days: the count update
-- took 7.1-8.5 s against 12.0-12.3 s, and 73-74 % of its updates were
-- HOT, against none (tests/bench/README.md).
-- A first load builds the directory's order afterwards, as it built
-- researchers_directory (0051).
-- tests/integration/t_match_blocks.sh checks that the directory mirrors
-- the counts after a match, and that a count update is HOT.
-- Forward-only: never edit once landed; add another.

CREATE TABLE researcher_directory (
	researcher_id   bigint PRIMARY KEY,
	paper_count     integer NOT NULL
);
INSERT INTO researcher_directory (researcher_id, paper_count)
SELECT id, paper_count FROM researchers;
CREATE INDEX researcher_directory_order
	ON researcher_directory (paper_count DESC, researcher_id);
ANALYZE researcher_directory;

-- One function for the four events; each trigger names its transition
-- tables alike (0077).  An update writes only the rows whose count
-- moved (ids never change), found by probing the directory for each new
-- row: a join of the old and new transition tables, which have no
-- statistics, was planned as a nested loop: over 12 minutes for the
-- about 81,000 rows of a day's count update at 1 M papers (cancelled).
CREATE FUNCTION weft_researcher_directory_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO researcher_directory (researcher_id, paper_count)
		SELECT id, paper_count FROM dir_new;
	ELSIF TG_OP = 'UPDATE' THEN
		UPDATE researcher_directory d
		   SET paper_count = n.paper_count
		  FROM dir_new n
		 WHERE d.researcher_id = n.id
		   AND d.paper_count <> n.paper_count;
	ELSIF TG_OP = 'DELETE' THEN
		DELETE FROM researcher_directory d
		 USING dir_old o
		 WHERE d.researcher_id = o.id;
	ELSE
		TRUNCATE researcher_directory;
	END IF;
	RETURN NULL;
END $$;

CREATE TRIGGER researchers_directory_ins
	AFTER INSERT ON researchers
	REFERENCING NEW TABLE AS dir_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_researcher_directory_trg();
CREATE TRIGGER researchers_directory_upd
	AFTER UPDATE ON researchers
	REFERENCING NEW TABLE AS dir_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_researcher_directory_trg();
CREATE TRIGGER researchers_directory_del
	AFTER DELETE ON researchers
	REFERENCING OLD TABLE AS dir_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_researcher_directory_trg();
CREATE TRIGGER researchers_directory_trunc
	AFTER TRUNCATE ON researchers
	FOR EACH STATEMENT EXECUTE FUNCTION weft_researcher_directory_trg();

DROP INDEX researchers_directory;
DROP INDEX researchers_modified;
ALTER TABLE researchers SET (fillfactor = 85);

-- A first load drops the directory's order and builds it afterwards,
-- in place of researchers_directory; a load that failed half way had
-- kept that one's definition, which must not come back.
ALTER FUNCTION weft_bulk_indexes() RENAME TO weft_bulk_indexes_0063;
CREATE FUNCTION weft_bulk_indexes() RETURNS text[]
	LANGUAGE sql IMMUTABLE AS $$
	SELECT array_replace(weft_bulk_indexes_0063(), 'researchers_directory',
	                     'researcher_directory_order')
$$;
DELETE FROM bulk_dropped_indexes WHERE name = 'researchers_directory';
