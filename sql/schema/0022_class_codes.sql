-- 0022_class_codes.sql -- MSC and ACM class codes in their own field
-- (issue 16): arXiv listings carry them among the categories ("I.2.7",
-- "68T50, 68T07", "I.2.7; I.2.6"), where they became researchers'
-- fields and search facets.  Categories are arXiv's taxonomy only
-- (archive[.subject]: "math.CO", "cond-mat.stat-mech", "hep-ex"); the
-- rest moves here, split at ',' and ';'.  The harvester
-- (records.c harvest_class_codes) applies the same rule to new data.
-- Forward-only: never edit once landed.
ALTER TABLE papers
	ADD COLUMN class_codes text[] NOT NULL DEFAULT '{}';

WITH c AS (
	SELECT p.id,
	       ARRAY(SELECT x FROM unnest(p.categories) WITH ORDINALITY AS u(x, i)
	              WHERE x ~ '^[a-z][a-z-]*(\.[A-Za-z-]+)?$'
	              ORDER BY i) AS cats,
	       ARRAY(SELECT z
	               FROM (SELECT btrim(y, E' \t\r\n') AS z,
	                            min(i * 10000 + j) AS o
	                       FROM unnest(p.categories)
	                            WITH ORDINALITY AS u(x, i),
	                            regexp_split_to_table(x, '[,;]')
	                            WITH ORDINALITY AS w(y, j)
	                      WHERE x !~ '^[a-z][a-z-]*(\.[A-Za-z-]+)?$'
	                      GROUP BY 1) q
	              WHERE z <> ''
	              ORDER BY o) AS codes
	  FROM papers p
	 WHERE EXISTS (SELECT 1 FROM unnest(p.categories) AS x
	                WHERE x !~ '^[a-z][a-z-]*(\.[A-Za-z-]+)?$')
)
UPDATE papers p
   SET categories = c.cats,
       class_codes = c.codes,
       primary_category = CASE WHEN p.primary_category = ANY (c.cats)
                               THEN p.primary_category
                               ELSE coalesce(c.cats[1], p.primary_category)
                          END,
       modified_at = now()
  FROM c
 WHERE p.id = c.id AND cardinality(c.cats) > 0;
