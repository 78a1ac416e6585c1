-- 0008_search_names.sql -- cheaper upkeep of papers.search_vector (0005)
-- under the matcher: an UPDATE of authorships now costs nothing unless
-- it writes raw_name.  0005's statement trigger captured every updated
-- row in transition tables (the matcher rewrites researcher_id of tens
-- of thousands of rows at a time) only to find no name had changed.
-- Forward-only: never edit a migration once it has landed; add another.

DROP TRIGGER authorships_search_upd ON authorships;

CREATE FUNCTION weft_authorship_rename_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	UPDATE papers p
	   SET search_vector = weft_paper_vector(p.title,
		   weft_paper_authors(p.id), p.abstract)
	 WHERE p.id = NEW.paper_id;
	RETURN NULL;
END
$$;

-- A rename is rare: once per renamed row is fine.
CREATE TRIGGER authorships_search_rename
	AFTER UPDATE OF raw_name ON authorships
	FOR EACH ROW WHEN (OLD.raw_name IS DISTINCT FROM NEW.raw_name)
	EXECUTE FUNCTION weft_authorship_rename_trg();
