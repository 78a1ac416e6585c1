-- 0039_s2_found.sql -- what the Semantic Scholar search, bulk search and
-- recommendation harvesters find (issue 16, item 1), and raw affiliation
-- strings kept on authorships (item 2).
--
-- s2_papers: one row per S2 paper a search, a bulk-search page or a
-- recommendation answer named, with what it said of it.  arxiv_id (the
-- canonical id, no version) marks the ones arXiv has: `weft-harvest arxiv
-- ids` can fetch those not here yet.  A later answer refreshes the row;
-- a field it does not carry keeps its earlier value.
--
-- authorship_affiliations: the affiliation strings a source gave for
-- the author at one position of a paper ("Dept. of Physics, UCL"), as
-- given, with the source ('s2'; 'arxiv' for Atom and arXivRaw when those
-- are stored), so that the ROR affiliation matcher can link them.
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

CREATE TABLE authorship_affiliations (
	paper_id        bigint NOT NULL,
	position        integer NOT NULL,
	affiliation     text NOT NULL CHECK (affiliation <> ''),
	source          text NOT NULL,          -- 's2' | 'arxiv'
	seen_at         timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (paper_id, position, source, affiliation),
	FOREIGN KEY (paper_id, position)
	    REFERENCES authorships (paper_id, position) ON DELETE CASCADE
);
