-- 0045_sitemap_blocks.sql -- the sitemap index read from a table of
-- blocks instead of two scans of papers and researchers (issue 19,
-- item 4).
--
-- /sitemap.xml gives each chunk of 50,000 ids the newest change among its
-- rows, and the static pages the newest of each table: two GROUP BY over
-- papers and researchers and two max() over them, 19.3 s a request at
-- 1,020,001 papers (2,877,600 researchers), growing with the corpus.
--
-- sitemap_blocks keeps that newest change per block of 1,000 ids (a
-- chunk is a whole number of blocks: sitemap.c allows only multiples of
-- 1,000 for sitemap_urls), for the rows the sitemap lists: every paper,
-- and the researchers with papers (greatest of modified_at and their
-- latest paper, as the chunks say).  Writers note the blocks they touch
-- (sitemap_dirty, in their own transaction, as 0036's notes): a row
-- inserted, or whose value rose, raises its block to that value; a row
-- deleted, or whose value fell or went, has its block read again.
-- weft_sitemap_refresh(false), run with weft_derived_refresh after each
-- load, match or harvest, applies the notes (a block read again is an
-- id range: at most 1,000 rows); weft_sitemap_refresh(true) reads every
-- block.  Both give the same rows (tests/integration/t_refresh.sh).
-- Reading every touched block again instead took 5.2 s for the 2,884
-- blocks of the 80,349 researchers a day's batch touches at 1,053,806
-- papers; raising them takes milliseconds.
-- Forward-only: never edit once landed; add another.

CREATE TABLE sitemap_blocks (
	kind            text NOT NULL,          -- 'papers' or 'researchers'
	block           bigint NOT NULL,        -- ids block*1000+1 .. +1000
	lastmod         timestamptz NOT NULL,
	PRIMARY KEY (kind, block)
);
CREATE TABLE sitemap_dirty (
	kind            text NOT NULL,
	block           bigint NOT NULL,
	raise           timestamptz,            -- the block is at least this
	redo            boolean NOT NULL,       -- read the block again
	PRIMARY KEY (kind, block)
);

-- The block of an id.
CREATE FUNCTION weft_sitemap_block(id bigint) RETURNS bigint
	LANGUAGE sql IMMUTABLE PARALLEL SAFE
	RETURN (id - 1) / 1000;

-- What a researcher row gives its block: nothing without papers (it is
-- not in the sitemap).
CREATE FUNCTION weft_sitemap_researcher(paper_count integer,
    modified_at timestamptz, latest_paper date) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE PARALLEL SAFE
	RETURN CASE WHEN paper_count > 0
	            THEN greatest(modified_at, latest_paper::timestamptz) END;

-- ---------------------------------------------------------------- notes

-- Notes block b of kind k: raised to raise, or read again when raise
-- is NULL.  A note is rewritten only when it says more.  (PL/pgSQL: its
-- INSERT is planned once a session; as a SQL function called row by
-- row it was planned at every call.  An UPDATE of the 80,349 researchers
-- a day's batch touches at 1,053,806 papers: 3.9-4.3 s without the
-- notes, 6.3-6.6 s with these, 14.4 s with the SQL function.)
CREATE FUNCTION weft_sitemap_note(k text, b bigint, raise timestamptz)
	RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO sitemap_dirty AS d (kind, block, raise, redo)
	VALUES (k, b, raise, raise IS NULL)
	    ON CONFLICT (kind, block) DO UPDATE
	   SET raise = greatest(d.raise, excluded.raise),
	       redo = d.redo OR excluded.redo
	 WHERE excluded.raise > d.raise
	    OR (d.raise IS NULL AND excluded.raise IS NOT NULL)
	    OR (excluded.redo AND NOT d.redo);
END;
$$;

-- Inserted rows raise their blocks, deleted ones have them read again,
-- a statement at a time, one note a block (the transition tables are
-- the ones 0036's triggers already capture).
CREATE FUNCTION weft_sitemap_papers_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		PERFORM weft_sitemap_note('papers', weft_sitemap_block(id),
		    max(modified_at))
		   FROM sm_new GROUP BY weft_sitemap_block(id);
	ELSE
		PERFORM weft_sitemap_note('papers', weft_sitemap_block(id), NULL)
		   FROM sm_old GROUP BY weft_sitemap_block(id);
	END IF;
	RETURN NULL;
END;
$$;

CREATE FUNCTION weft_sitemap_researchers_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		PERFORM weft_sitemap_note('researchers', weft_sitemap_block(id),
		    max(weft_sitemap_researcher(paper_count, modified_at,
		                                latest_paper)))
		   FROM sm_new WHERE paper_count > 0
		  GROUP BY weft_sitemap_block(id);
	ELSE
		PERFORM weft_sitemap_note('researchers', weft_sitemap_block(id),
		    NULL)
		   FROM sm_old WHERE paper_count > 0
		  GROUP BY weft_sitemap_block(id);
	END IF;
	RETURN NULL;
END;
$$;

-- Updates row by row, only where the sitemap's value changed (the WHEN
-- clauses): capturing the old and new rows of every UPDATE of papers
-- would copy the abstracts of each batch (0036 says why not).  A value
-- that rose raises its block; one that fell or went (a researcher
-- without papers now) has it read again.
CREATE FUNCTION weft_sitemap_row_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
DECLARE
	was timestamptz;
	now_ timestamptz;
BEGIN
	IF TG_ARGV[0] = 'papers' THEN
		was := OLD.modified_at;
		now_ := NEW.modified_at;
	ELSE
		was := weft_sitemap_researcher(OLD.paper_count, OLD.modified_at,
		    OLD.latest_paper);
		now_ := weft_sitemap_researcher(NEW.paper_count,
		    NEW.modified_at, NEW.latest_paper);
	END IF;
	IF NOT (now_ >= was OR (was IS NULL AND now_ IS NOT NULL)) THEN
		now_ := NULL;
	END IF;
	PERFORM weft_sitemap_note(TG_ARGV[0], weft_sitemap_block(NEW.id),
	    now_);
	RETURN NULL;
END;
$$;

CREATE TRIGGER papers_sitemap_ins
	AFTER INSERT ON papers REFERENCING NEW TABLE AS sm_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_sitemap_papers_trg();
CREATE TRIGGER papers_sitemap_upd
	AFTER UPDATE ON papers FOR EACH ROW
	WHEN (OLD.modified_at IS DISTINCT FROM NEW.modified_at)
	EXECUTE FUNCTION weft_sitemap_row_trg('papers');
CREATE TRIGGER papers_sitemap_del
	AFTER DELETE ON papers REFERENCING OLD TABLE AS sm_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_sitemap_papers_trg();

CREATE TRIGGER researchers_sitemap_ins
	AFTER INSERT ON researchers REFERENCING NEW TABLE AS sm_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_sitemap_researchers_trg();
CREATE TRIGGER researchers_sitemap_upd
	AFTER UPDATE ON researchers FOR EACH ROW
	WHEN (weft_sitemap_researcher(OLD.paper_count, OLD.modified_at,
	                              OLD.latest_paper)
	      IS DISTINCT FROM
	      weft_sitemap_researcher(NEW.paper_count, NEW.modified_at,
	                              NEW.latest_paper))
	EXECUTE FUNCTION weft_sitemap_row_trg('researchers');
CREATE TRIGGER researchers_sitemap_del
	AFTER DELETE ON researchers REFERENCING OLD TABLE AS sm_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_sitemap_researchers_trg();

-- ---------------------------------------------------------------- refresh

-- The blocks noted since the last refresh read again from their rows, or
-- every block when everything.  A note committed after this snapshot is
-- not deleted and waits for the next refresh.  Answers the blocks
-- written.
CREATE FUNCTION weft_sitemap_refresh(everything boolean DEFAULT false)
	RETURNS integer
	LANGUAGE plpgsql AS $$
DECLARE
	n integer;
BEGIN
	IF everything THEN
		DELETE FROM sitemap_dirty;
		DELETE FROM sitemap_blocks;
		INSERT INTO sitemap_blocks (kind, block, lastmod)
		SELECT 'papers', weft_sitemap_block(id), max(modified_at)
		  FROM papers
		 GROUP BY 2;
		INSERT INTO sitemap_blocks (kind, block, lastmod)
		SELECT 'researchers', weft_sitemap_block(id),
		       max(weft_sitemap_researcher(paper_count, modified_at,
		                                   latest_paper))
		  FROM researchers
		 WHERE paper_count > 0
		 GROUP BY 2;
		SELECT count(*) INTO n FROM sitemap_blocks;
		RETURN n;
	END IF;
	CREATE TEMP TABLE weft_sitemap_redo ON COMMIT DROP AS
	WITH d AS (DELETE FROM sitemap_dirty RETURNING kind, block, raise,
	                                               redo)
	SELECT d.kind, d.block, d.redo,
	       CASE WHEN NOT d.redo THEN d.raise
	            WHEN d.kind = 'papers' THEN
	           (SELECT max(p.modified_at) FROM papers p
	             WHERE p.id > d.block * 1000
	               AND p.id <= d.block * 1000 + 1000)
	       ELSE
	           (SELECT max(weft_sitemap_researcher(r.paper_count,
	                       r.modified_at, r.latest_paper))
	              FROM researchers r
	             WHERE r.id > d.block * 1000
	               AND r.id <= d.block * 1000 + 1000
	               AND r.paper_count > 0)
	       END AS lastmod
	  FROM d;
	DELETE FROM sitemap_blocks s
	 USING weft_sitemap_redo r
	 WHERE s.kind = r.kind AND s.block = r.block AND r.redo
	   AND r.lastmod IS NULL;
	-- A block read again is what it read; a raised one at least that.
	INSERT INTO sitemap_blocks (kind, block, lastmod)
	SELECT kind, block, lastmod FROM weft_sitemap_redo
	 WHERE redo AND lastmod IS NOT NULL
	    ON CONFLICT (kind, block) DO UPDATE SET lastmod = excluded.lastmod;
	INSERT INTO sitemap_blocks AS s (kind, block, lastmod)
	SELECT kind, block, lastmod FROM weft_sitemap_redo
	 WHERE NOT redo AND lastmod IS NOT NULL
	    ON CONFLICT (kind, block) DO UPDATE
	   SET lastmod = greatest(s.lastmod, excluded.lastmod);
	SELECT count(*) INTO n FROM weft_sitemap_redo;
	DROP TABLE weft_sitemap_redo;
	RETURN n;
END;
$$;

-- Institutions keep their scan (36,007 rows at 1 M papers): the chunks
-- list those with papers written there, which no block can say.  Their
-- newest change, for the static chunk, from an index (26 ms -> 0.1 ms).
CREATE INDEX institutions_modified ON institutions (modified_at);

SELECT weft_sitemap_refresh(true);
