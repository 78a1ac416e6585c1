-- 0023_citation_at.sql -- when weft took a paper's citation count from
-- its source (issue 16: a count comes from a named source with its date).
-- Forward-only: never edit once landed; add another.
ALTER TABLE papers ADD COLUMN citation_at timestamptz;
UPDATE papers SET citation_at = modified_at
 WHERE citation_source IS NOT NULL AND citation_at IS NULL;
