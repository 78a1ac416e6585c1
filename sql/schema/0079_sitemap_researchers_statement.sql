-- 0079_sitemap_researchers_statement.sql -- an update of researchers
-- notes its sitemap blocks once a statement, not once a row (issue 19,
-- item 3).
--
-- LOCKS: recreating one trigger on researchers (SHARE ROW EXCLUSIVE,
-- brief; no table is read or written).
--
-- 0045 noted a researcher's sitemap block from a row trigger, because
-- capturing the old and new rows of an update of papers would copy
-- their abstracts.  Researchers have no such columns, and their updates
-- capture both already (the counts' trigger, 0007, and the name words',
-- 0075).  The match's count update changes the sitemap value of each
-- researcher it counts: 67,486 calls of weft_sitemap_row_trg on a day
-- of 20,000 papers at 200,000, each an upsert of sitemap_dirty for one
-- of 790 blocks.  The same update of 68,000 researchers, rolled back
-- (EXPLAIN ANALYZE, tests/bench/README.md): the row trigger 0.87-1.78 s,
-- this one 0.31-0.49 s.  It pairs old and new rows by id with one
-- aggregate (transition tables have no statistics: 0075 saw the
-- planner loop over both when joined), and notes each block at most
-- twice, with the highest value that rose and once more if a value fell
-- or went; weft_sitemap_note merges the two as the row-by-row notes
-- did.  Papers keep 0045's row trigger.
-- Same notes: tests/integration/t_refresh.sh checks what one update of
-- researchers notes (a block raised and read again, raised, read
-- again, and none), and compares the incremental sitemap with a full
-- one.
-- Forward-only: never edit once landed; add another.

CREATE FUNCTION weft_sitemap_researchers_upd_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	PERFORM weft_sitemap_note('researchers', m.block, max(m.raise))
	   FROM (SELECT weft_sitemap_block(v.id) AS block,
	                CASE WHEN v.now_ >= v.was
	                          OR (v.was IS NULL AND v.now_ IS NOT NULL)
	                     THEN v.now_ END AS raise
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

DROP TRIGGER researchers_sitemap_upd ON researchers;
CREATE TRIGGER researchers_sitemap_upd
	AFTER UPDATE ON researchers
	REFERENCING OLD TABLE AS sm_old NEW TABLE AS sm_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_sitemap_researchers_upd_trg();
