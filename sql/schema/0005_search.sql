-- 0005_search.sql -- full-text search of papers, name search of
-- researchers and institutions (the pages module's /search).
-- Forward-only: never edit a migration once it has landed; add another.
--
-- Papers: a weighted tsvector (title A, authors B, abstract C) kept in
-- papers.search_vector by triggers: the authors live in authorships, so a
-- generated column cannot see them.  A paper row computes its vector when
-- its title or abstract is written; authorship statements (one per loader
-- batch) recompute the vectors of the papers whose names they changed,
-- once per paper and statement, through transition tables.
--
-- search_terms holds the document frequency of the frequent lexemes
-- (ts_stat is far too slow at query time); the search uses it to build
-- its any-word pass from the query's rarer terms only, which bounds that
-- pass as the corpus grows.  A lexeme that is absent is rare.  Refresh it
-- with SELECT weft_search_terms_refresh() after a large load.
--
-- Names: trigram indexes on the unaccented, lower-cased names.

CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- unaccent() is STABLE (it reads its dictionary by name); with the
-- dictionary given as a regdictionary constant the result only depends
-- on the argument, which lets indexes use it.
CREATE FUNCTION weft_unaccent(text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
	RETURN public.unaccent('public.unaccent'::regdictionary, $1);

-- The lower-cased, unaccented form names are compared in.
CREATE FUNCTION weft_name_key(text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
	RETURN lower(weft_unaccent($1));

CREATE FUNCTION weft_paper_vector(title text, authors text, abstract text)
	RETURNS tsvector
	LANGUAGE sql IMMUTABLE PARALLEL SAFE
	RETURN setweight(to_tsvector('english'::regconfig,
			weft_unaccent(coalesce(title, ''))), 'A') ||
	       setweight(to_tsvector('english'::regconfig,
			weft_unaccent(coalesce(authors, ''))), 'B') ||
	       setweight(to_tsvector('english'::regconfig,
			weft_unaccent(coalesce(abstract, ''))), 'C');

-- The author names of a paper in order, as one text.
CREATE FUNCTION weft_paper_authors(pid bigint) RETURNS text
	LANGUAGE sql STABLE PARALLEL SAFE
	RETURN (SELECT string_agg(raw_name, ' ' ORDER BY position)
		  FROM authorships WHERE paper_id = pid);

ALTER TABLE papers ADD COLUMN search_vector tsvector;

CREATE FUNCTION weft_papers_search_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	-- A new row has no authorships yet: they follow it.
	NEW.search_vector := weft_paper_vector(NEW.title,
	    CASE WHEN TG_OP = 'UPDATE' THEN weft_paper_authors(NEW.id) END,
	    NEW.abstract);
	RETURN NEW;
END
$$;

CREATE TRIGGER papers_search
	BEFORE INSERT OR UPDATE OF title, abstract ON papers
	FOR EACH ROW EXECUTE FUNCTION weft_papers_search_trg();

CREATE FUNCTION weft_authorships_search_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE papers p
		   SET search_vector = weft_paper_vector(p.title,
			   weft_paper_authors(p.id), p.abstract)
		 WHERE p.id IN (SELECT paper_id FROM search_new);
	ELSIF TG_OP = 'DELETE' THEN
		UPDATE papers p
		   SET search_vector = weft_paper_vector(p.title,
			   weft_paper_authors(p.id), p.abstract)
		 WHERE p.id IN (SELECT paper_id FROM search_old);
	ELSE
		-- Matching researchers changes researcher_id only: no work.
		UPDATE papers p
		   SET search_vector = weft_paper_vector(p.title,
			   weft_paper_authors(p.id), p.abstract)
		 WHERE p.id IN (SELECT n.paper_id
				  FROM search_new n
				  JOIN search_old o
				    ON o.paper_id = n.paper_id
				   AND o.position = n.position
				 WHERE o.raw_name IS DISTINCT FROM n.raw_name);
	END IF;
	RETURN NULL;
END
$$;

CREATE TRIGGER authorships_search_ins
	AFTER INSERT ON authorships REFERENCING NEW TABLE AS search_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_authorships_search_trg();
CREATE TRIGGER authorships_search_upd
	AFTER UPDATE ON authorships
	REFERENCING OLD TABLE AS search_old NEW TABLE AS search_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_authorships_search_trg();
CREATE TRIGGER authorships_search_del
	AFTER DELETE ON authorships REFERENCING OLD TABLE AS search_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_authorships_search_trg();

-- The papers already here.
UPDATE papers p
   SET search_vector = weft_paper_vector(p.title, weft_paper_authors(p.id),
	   p.abstract);

CREATE INDEX papers_search ON papers USING gin (search_vector);

-- Lexemes in at least 20 papers, with their document counts.
CREATE TABLE search_terms (
	lexeme          text PRIMARY KEY,
	ndoc            integer NOT NULL
);

CREATE FUNCTION weft_search_terms_refresh() RETURNS integer
	LANGUAGE plpgsql AS $$
DECLARE
	n integer;
BEGIN
	DELETE FROM search_terms;
	INSERT INTO search_terms (lexeme, ndoc)
	SELECT word, ndoc
	  FROM ts_stat('SELECT search_vector FROM papers')
	 WHERE ndoc >= 20;
	GET DIAGNOSTICS n = ROW_COUNT;
	ANALYZE search_terms;
	RETURN n;
END
$$;

SELECT weft_search_terms_refresh();

CREATE INDEX researchers_name_trgm ON researchers
	USING gin (weft_name_key(name) gin_trgm_ops);
CREATE INDEX institutions_name_trgm ON institutions
	USING gin (weft_name_key(name) gin_trgm_ops);
