-- 0062_paper_keys_fields.sql -- what the matcher reads of a paper, in
-- one narrow row (issue 19, item 3).
--
-- LOCKS: fills paper_author_keys again from authorships and papers
-- (about a minute at 1 M papers); writes to authorships and papers wait
-- while it runs.
--
-- The day's pass (0059) reads, for each of the 1.3 M decided
-- authorships it weighs a day at 1.2 M papers, the paper's author keys
-- (paper_author_keys, 0061) and then the paper itself for its date and
-- categories: a second probe, into the widest table (8 GB, about one
-- paper a page), a quarter of a read's time (EXPLAIN ANALYZE of one
-- read of 500 blocks, 10,037 decided authorships: 23-40 us a probe).
-- The categories and date are now kept beside the keys, and the reads
-- take the paper from papers only where no such row is (a paper written
-- with the triggers off, as tests/bench/search_scale.sql does).
-- paper_author_keys is written where it was (0061: an authorship
-- inserted, deleted or renamed) and, new, when a paper's date or
-- categories change.
-- Forward-only: never edit once landed; add another.

ALTER TABLE paper_author_keys
	ADD COLUMN published date,
	ADD COLUMN categories text[] NOT NULL DEFAULT '{}';

-- What a paper's row holds: the keys in author order ('' beyond 100
-- authors), the date, the categories.  The writers' function and the
-- fill below read it; a condition on paper_id reaches the scans.
CREATE VIEW weft_paper_keys_rows AS
SELECT p.id AS paper_id,
       CASE WHEN count(*) <= 100
            THEN string_agg(a.name_key, '|' ORDER BY a.position)
            ELSE '' END AS keys,
       p.published, p.categories
  FROM authorships a
  JOIN papers p ON p.id = a.paper_id
 WHERE a.name_key <> ''
 GROUP BY p.id;

-- 0061's, from the view.
CREATE OR REPLACE FUNCTION weft_paper_keys_refresh(ids bigint[]) RETURNS void
	LANGUAGE sql AS $$
	DELETE FROM paper_author_keys k
	 WHERE k.paper_id = ANY (ids)
	   AND NOT EXISTS (SELECT 1 FROM authorships a
	                    WHERE a.paper_id = k.paper_id
	                      AND a.name_key <> '');
	INSERT INTO paper_author_keys AS k (paper_id, keys, published,
	    categories)
	SELECT paper_id, keys, published, categories
	  FROM weft_paper_keys_rows
	 WHERE paper_id = ANY (ids)
	    ON CONFLICT (paper_id) DO UPDATE
	   SET keys = excluded.keys, published = excluded.published,
	       categories = excluded.categories
	 WHERE (k.keys, k.published, k.categories) IS DISTINCT FROM
	       (excluded.keys, excluded.published, excluded.categories);
$$;

-- A paper's date or categories changed (a new version's listing): its
-- row follows.  Row by row, and only then: the loader's merges write a
-- paper only where a value differs.
CREATE FUNCTION weft_paper_keys_paper_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	UPDATE paper_author_keys
	   SET published = NEW.published, categories = NEW.categories
	 WHERE paper_id = NEW.id;
	RETURN NULL;
END;
$$;

CREATE TRIGGER papers_match_fields
	AFTER UPDATE OF published, categories ON papers FOR EACH ROW
	WHEN ((NEW.published, NEW.categories)
	      IS DISTINCT FROM (OLD.published, OLD.categories))
	EXECUTE FUNCTION weft_paper_keys_paper_trg();

-- Written again whole rather than updated in place: no dead copy of
-- every row left behind.
TRUNCATE paper_author_keys;
INSERT INTO paper_author_keys (paper_id, keys, published, categories)
SELECT paper_id, keys, published, categories FROM weft_paper_keys_rows;
ANALYZE paper_author_keys;
