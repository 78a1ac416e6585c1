-- 0080_sitemap_raise_shared.sql -- one rule for what a sitemap value's
-- move notes, shared by the papers' row trigger and the researchers'
-- statement trigger; the row trigger's researchers branch, unused since
-- 0079, goes (mends from reading 0079 again).
--
-- LOCKS: none; replaces two functions.
--
-- 0045's row trigger and 0079's statement trigger each wrote the rule
-- "a value that rose raises its block; one that fell or went has it
-- read again" as its own expression.  weft_sitemap_raise(was, now_)
-- answers the value to raise to, or NULL for a block to read again, and
-- both call it (an SQL function of one expression: inlined, no call).
-- No trigger has passed 'researchers' to weft_sitemap_row_trg since
-- 0079, so it reads papers' modified_at alone.
-- Same notes: tests/integration/t_refresh.sh checks what one update of
-- researchers notes and compares the incremental sitemap with a full
-- one after papers' and researchers' values rose and fell.
-- Forward-only: never edit once landed; add another.

CREATE FUNCTION weft_sitemap_raise(was timestamptz, now_ timestamptz)
	RETURNS timestamptz
	LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN now_ >= was OR (was IS NULL AND now_ IS NOT NULL)
            THEN now_ END;

-- Papers (0045): the block of a paper whose modified_at moved.
CREATE OR REPLACE FUNCTION weft_sitemap_row_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	PERFORM weft_sitemap_note(TG_ARGV[0], weft_sitemap_block(NEW.id),
	    weft_sitemap_raise(OLD.modified_at, NEW.modified_at));
	RETURN NULL;
END;
$$;

-- Researchers (0079): each block one statement moved.
CREATE OR REPLACE FUNCTION weft_sitemap_researchers_upd_trg()
	RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	PERFORM weft_sitemap_note('researchers', m.block, max(m.raise))
	   FROM (SELECT weft_sitemap_block(v.id) AS block,
	                weft_sitemap_raise(v.was, v.now_) AS raise
	           FROM (SELECT u.id,
	                        max(u.v) FILTER (WHERE NOT u.old) AS now_,
	                        max(u.v) FILTER (WHERE u.old) AS was
	                   FROM (SELECT id, false AS old,
	                                weft_sitemap_researcher(paper_count,
	                                    modified_at, latest_paper) AS v
	                           FROM sm_new
	                          UNION ALL
	                         SELECT id, true,
	                                weft_sitemap_researcher(paper_count,
	                                    modified_at, latest_paper)
	                           FROM sm_old) u
	                  GROUP BY u.id) v
	          WHERE v.was IS DISTINCT FROM v.now_) m
	  GROUP BY m.block, m.raise IS NULL;
	RETURN NULL;
END;
$$;
