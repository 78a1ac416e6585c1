-- 0006_match.sql -- researcher matching (weft-harvest match): each
-- authorship keeps the normalised key of its name (harvest_name_key() in
-- modules/harvest/name.c, written by the loader; rows from before this
-- migration are filled by the first "match"), so that the matcher reads
-- the same-name blocks in order without a pass over every name.
-- match_reason now says: 'openalex_id' | 'orcid' | 's2_id' (an external
-- id decided), 'coauthors' | 'fields' (joined on that evidence,
-- match_score = its share), 'new_identity' (a same-name group split;
-- match_score = the best evidence that fell short), 'single'.
-- metrics_source may now be 'computed' (from papers.citation_count here).

ALTER TABLE authorships ADD COLUMN name_key text;
