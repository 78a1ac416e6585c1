-- 0046_here_metrics.sql -- what the papers here say of a researcher's
-- citations (papers with a count, citations summed, h-index, h-index as
-- first or last author, whose counts), kept in researcher_stats with the
-- derived tables instead of computed for every page (issue 19, item 4).
--
-- RESEARCHER_HERE_METRICS read every paper of the researcher at every
-- page: one probe into papers per authorship, 5.5 ms for the busiest
-- researcher of 1,053,806 synthetic papers (1,100 authorships), the
-- larger half of that page's PostgreSQL time.  Now the page reads one
-- row.  The figures follow the data at each refresh, as the rest of
-- researcher_stats does: writers note the researchers whose figures may
-- have moved (here_dirty: an authorship written, moved or deleted; a
-- paper's citation count, its source or its author count changed);
-- weft_here_refresh(false), run with weft_derived_refresh after each
-- load, match or harvest, computes theirs again, whole (an h-index does
-- not move by differences); weft_here_refresh(true) computes everyone's.
-- Both give the same rows (tests/integration/t_refresh.sh).  The page:
-- 206-242 -> 688-696 pages/s for that researcher, cold, 32 connections
-- (tests/bench/README.md, "The figures here kept with the derived
-- tables").
-- Forward-only: never edit once landed; add another.

ALTER TABLE researcher_stats
	ADD COLUMN here_papers integer NOT NULL DEFAULT 0,  -- with a count
	ADD COLUMN here_citations bigint,       -- NULL when here_papers = 0
	ADD COLUMN here_h integer,
	ADD COLUMN here_h_lead integer,
	ADD COLUMN here_sources text;           -- 'openalex,s2', sorted

CREATE TABLE here_dirty (
	researcher_id   bigint PRIMARY KEY
);

-- ---------------------------------------------------------------- notes

-- Authorships: the researchers of the rows inserted or deleted, and of
-- those an update gave to or took from someone, a statement at a time
-- (the transition tables 0036's triggers capture).  The matcher's
-- rewrites of name keys and scores move no figure: compared with EXCEPT,
-- a hash, as 0042 does.
CREATE FUNCTION weft_here_authorships_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO here_dirty (researcher_id)
		SELECT DISTINCT researcher_id FROM here_new
		 WHERE researcher_id IS NOT NULL
		    ON CONFLICT DO NOTHING;
	ELSE
		INSERT INTO here_dirty (researcher_id)
		SELECT DISTINCT researcher_id FROM here_old
		 WHERE researcher_id IS NOT NULL
		    ON CONFLICT DO NOTHING;
	END IF;
	RETURN NULL;
END;
$$;

CREATE FUNCTION weft_here_authorships_upd_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO here_dirty (researcher_id)
	SELECT DISTINCT researcher_id
	  FROM (((SELECT paper_id, position, researcher_id FROM here_old)
	         EXCEPT
	         (SELECT paper_id, position, researcher_id FROM here_new))
	        UNION ALL
	        ((SELECT paper_id, position, researcher_id FROM here_new)
	         EXCEPT
	         (SELECT paper_id, position, researcher_id FROM here_old))) x
	 WHERE researcher_id IS NOT NULL
	    ON CONFLICT DO NOTHING;
	RETURN NULL;
END;
$$;

CREATE TRIGGER authorships_here_ins
	AFTER INSERT ON authorships REFERENCING NEW TABLE AS here_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_here_authorships_trg();
CREATE TRIGGER authorships_here_upd
	AFTER UPDATE ON authorships
	REFERENCING OLD TABLE AS here_old NEW TABLE AS here_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_here_authorships_upd_trg();
CREATE TRIGGER authorships_here_del
	AFTER DELETE ON authorships REFERENCING OLD TABLE AS here_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_here_authorships_trg();

-- Papers: row by row, only where a figure's input changed (0036 says
-- why not a statement's transition tables of papers).
CREATE FUNCTION weft_here_paper_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO here_dirty (researcher_id)
	SELECT DISTINCT researcher_id FROM authorships
	 WHERE paper_id = NEW.id AND researcher_id IS NOT NULL
	    ON CONFLICT DO NOTHING;
	RETURN NULL;
END;
$$;

CREATE TRIGGER papers_here_upd
	AFTER UPDATE ON papers FOR EACH ROW
	WHEN ((NEW.citation_count, NEW.citation_source, NEW.author_count)
	      IS DISTINCT FROM
	      (OLD.citation_count, OLD.citation_source, OLD.author_count))
	EXECUTE FUNCTION weft_here_paper_trg();

-- ---------------------------------------------------------------- refresh

-- The figures of the researchers in weft_here_ids (id), from their
-- papers with a count: each paper once, as lead when the researcher is
-- first or last author at any of its positions there; h the largest k
-- with k papers cited k times or more (the page's former statement).
-- A researcher without such papers gets 0 and NULLs.
CREATE FUNCTION weft_here_fill() RETURNS integer
	LANGUAGE plpgsql AS $$
DECLARE
	changed integer;
BEGIN
	WITH d AS (
		SELECT DISTINCT ON (a.researcher_id, p.id)
		       a.researcher_id AS id, p.citation_count AS n,
		       p.citation_source AS src,
		       (a.position = 1 OR a.position = p.author_count) AS lead
		  FROM weft_here_ids t
		  JOIN authorships a ON a.researcher_id = t.id
		  JOIN papers p ON p.id = a.paper_id
		 WHERE p.citation_count IS NOT NULL
		 ORDER BY a.researcher_id, p.id, lead DESC
	), r AS (
		SELECT id, n, lead, src,
		       row_number() OVER (PARTITION BY id ORDER BY n DESC) AS rk,
		       row_number() OVER (PARTITION BY id, lead ORDER BY n DESC)
		           AS lrk
		  FROM d
	), m AS (
		SELECT id, count(*)::integer AS papers, sum(n) AS citations,
		       count(*) FILTER (WHERE n >= rk)::integer AS h,
		       count(*) FILTER (WHERE lead AND n >= lrk)::integer AS h_lead,
		       string_agg(DISTINCT src, ',' ORDER BY src) AS sources
		  FROM r
		 GROUP BY id
	)
	UPDATE researcher_stats s
	   SET here_papers = coalesce(m.papers, 0),
	       here_citations = m.citations,
	       here_h = m.h,
	       here_h_lead = m.h_lead,
	       here_sources = m.sources
	  FROM weft_here_ids t
	  LEFT JOIN m ON m.id = t.id
	 WHERE s.researcher_id = t.id
	   AND (s.here_papers, s.here_citations, s.here_h, s.here_h_lead,
	        s.here_sources)
	       IS DISTINCT FROM (coalesce(m.papers, 0), m.citations, m.h,
	                         m.h_lead, m.sources);
	GET DIAGNOSTICS changed = ROW_COUNT;
	RETURN changed;
END;
$$;

-- The noted researchers' figures again, or everyone's when everything.
-- A note committed after this snapshot waits for the next refresh.
-- Runs after weft_derived_refresh, which gives new researchers their
-- stats row.  Answers the rows that changed.
CREATE FUNCTION weft_here_refresh(everything boolean DEFAULT false)
	RETURNS integer
	LANGUAGE plpgsql AS $$
DECLARE
	changed integer;
BEGIN
	DROP TABLE IF EXISTS weft_here_ids;
	IF everything THEN
		DELETE FROM here_dirty;
		CREATE TEMP TABLE weft_here_ids ON COMMIT DROP AS
		SELECT researcher_id AS id FROM researcher_stats;
	ELSE
		CREATE TEMP TABLE weft_here_ids ON COMMIT DROP AS
		WITH d AS (DELETE FROM here_dirty RETURNING researcher_id)
		SELECT researcher_id AS id FROM d;
	END IF;
	ANALYZE weft_here_ids;
	changed := weft_here_fill();
	DROP TABLE weft_here_ids;
	RETURN changed;
END;
$$;

SELECT weft_here_refresh(true);
