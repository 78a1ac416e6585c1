-- 0039_s2_found.sql -- what the Semantic Scholar search, bulk search and
-- recommendation harvesters find (issue 16, item 1).
--
-- s2_papers: one row per S2 paper a search, a bulk-search page or a
-- recommendation answer named, with what it said of it.  arxiv_id (the
-- canonical id, no version) marks the ones arXiv has: `weft-harvest arxiv
-- ids` can fetch those not here yet.  A later answer refreshes the row;
-- a field it does not carry keeps its earlier value.
--
-- S2 authors' affiliation strings go to authorship_affiliations (0037)
-- with source 's2'; `weft-harvest affil link` matches them to ROR.
-- Forward-only: never edit once landed; add another.

CREATE TABLE s2_papers (
	s2_id           text PRIMARY KEY,       -- paperId
	title           text,
	arxiv_id        text,                   -- externalIds.ArXiv, canonical
	year            integer,
	citation_count  integer,                -- NULL: not in the answer
	found_by        text NOT NULL
	    CHECK (found_by IN ('search', 'bulk', 'recommend', 'similar')),
	query           text NOT NULL,          -- the query or the seed ids
	seen_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX s2_papers_arxiv ON s2_papers (arxiv_id)
	WHERE arxiv_id IS NOT NULL;
