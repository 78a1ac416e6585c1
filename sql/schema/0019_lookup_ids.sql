-- 0019_lookup_ids.sql -- a DOI typed into search finds its paper by an
-- index, in any case (pages' RESOLVE_PAPER, modules/pages/resolve.c;
-- issue 16: every identifier resolves).
-- Forward-only: never edit once landed; add another.
CREATE INDEX IF NOT EXISTS papers_doi_lower ON papers (lower(doi))
	WHERE doi IS NOT NULL;
