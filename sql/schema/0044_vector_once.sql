-- 0044_vector_once.sql -- a new paper's search vector written once, with
-- its authors.
--
-- Until now a loader batch wrote every new paper twice: the paper row
-- computed its vector without authors (0005: they follow it), then the
-- authorships statement's trigger computed it again with them and
-- rewrote the row, so each new paper left a dead row, twelve index
-- entries more and three search_term_delta notes instead of one.  That
-- UPDATE was 1.1 s of every 3.3 s batch of 2,000 papers
-- (pg_stat_statements during tests/bench/load.sh 1000000).
--
-- papers.search_authors is the key (md5) of the author text the vector
-- was built with.  A writer that knows a new paper's authors (the
-- loader's MERGE_PAPERS) gives the vector and the key; the authorships
-- triggers then rewrite only the papers whose authors' text differs from
-- the key, which they read from the authorships (7 us a paper, where a
-- vector costs 220 us).  A paper without a key (every paper written
-- before this migration) is rewritten at its next authorship change, as
-- before.
-- Forward-only: never edit once landed; add another.

ALTER TABLE papers ADD COLUMN search_authors uuid;

-- The key of an author text: that of no authors is the empty text's.
CREATE FUNCTION weft_authors_key(authors text) RETURNS uuid
	LANGUAGE sql IMMUTABLE PARALLEL SAFE
	RETURN md5(coalesce(authors, ''))::uuid;

-- On INSERT, a vector given with its key is the writer's (built with the
-- authors it is about to write); anything else is computed here.
CREATE OR REPLACE FUNCTION weft_papers_search_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
DECLARE
	authors text;
BEGIN
	IF TG_OP = 'INSERT' AND NEW.search_vector IS NOT NULL
	   AND NEW.search_authors IS NOT NULL THEN
		RETURN NEW;
	END IF;
	-- A new row without them has no authorships yet: they follow it.
	IF TG_OP = 'UPDATE' THEN
		authors := weft_paper_authors(NEW.id);
	END IF;
	NEW.search_vector := weft_paper_vector(NEW.title, authors,
	    NEW.abstract);
	NEW.search_authors := weft_authors_key(authors);
	RETURN NEW;
END
$$;

-- The vectors of papers $1 whose authors are no longer those of their
-- key, rebuilt.
CREATE FUNCTION weft_paper_vectors_fix(ids bigint[]) RETURNS void
	LANGUAGE sql AS $$
	UPDATE papers p
	   SET search_vector = weft_paper_vector(p.title, x.authors,
	                                         p.abstract),
	       search_authors = weft_authors_key(x.authors)
	  FROM (SELECT id, weft_paper_authors(id) AS authors
	          FROM unnest(ids) AS u(id)) x
	 WHERE p.id = x.id
	   AND p.search_authors IS DISTINCT FROM weft_authors_key(x.authors);
$$;

CREATE OR REPLACE FUNCTION weft_authorships_search_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		PERFORM weft_paper_vectors_fix(
		    ARRAY(SELECT DISTINCT paper_id FROM search_new));
	ELSIF TG_OP = 'DELETE' THEN
		PERFORM weft_paper_vectors_fix(
		    ARRAY(SELECT DISTINCT paper_id FROM search_old));
	END IF;
	RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION weft_authorship_rename_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	PERFORM weft_paper_vectors_fix(ARRAY[NEW.paper_id]);
	RETURN NULL;
END
$$;
