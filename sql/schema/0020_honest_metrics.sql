-- 0020_honest_metrics.sql -- a researcher's h-index, citations and works
-- total come from a named source with its date, or are absent (issue 16).
-- Forward-only: never edit once landed; add another.
--
-- Until now a researcher without an OpenAlex or S2 record got metrics
-- "computed" from the papers here, with works total = papers here: a
-- copy presented as a source's figure.  What the archive itself knows is
-- now computed on the page (pages' RESEARCHER_HERE_METRICS) and labelled
-- as such; these columns hold a source's figures only.
UPDATE researchers
   SET h_index = NULL, citations = NULL, works_count = NULL,
       metrics_source = NULL
 WHERE metrics_source = 'computed';

-- When weft took the figures from their source.
ALTER TABLE researchers ADD COLUMN metrics_at timestamptz;
UPDATE researchers SET metrics_at = modified_at
 WHERE metrics_source IS NOT NULL AND metrics_at IS NULL;
ALTER TABLE researchers ADD CONSTRAINT researchers_metrics_source
	CHECK (metrics_source IN ('openalex', 's2'));
ALTER TABLE researchers ADD CONSTRAINT researchers_metrics_at
	CHECK ((metrics_source IS NULL) = (metrics_at IS NULL));
