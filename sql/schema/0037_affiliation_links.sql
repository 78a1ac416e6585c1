-- 0037_affiliation_links.sql -- institutions woven in (issue 16, item 4).
--
-- One researcher-institution link per source: 'openalex' (the author
-- record's affiliations), 'openalex-work' (each work's authorships),
-- 's2' and 'arxiv' (affiliation strings matched to ROR) may all name the
-- same pair, each with its own years; a source rewrites only its own.
ALTER TABLE researcher_institutions
	DROP CONSTRAINT researcher_institutions_pkey;
ALTER TABLE researcher_institutions
	ADD PRIMARY KEY (researcher_id, institution_id, source);

-- The raw affiliation strings of an authorship as the source wrote them
-- (Atom arxiv:affiliation, arXivRaw's parenthesised groups), and the
-- institutions "weft-harvest affil link" matched them to: NULL not yet
-- looked at, '{}' none (ambiguous or unknown).
CREATE TABLE authorship_affiliations (
	paper_id        bigint NOT NULL,
	position        integer NOT NULL,
	raw             text NOT NULL,
	source          text NOT NULL,          -- 'arxiv' | 's2'
	institution_ids bigint[],
	PRIMARY KEY (paper_id, position, raw),
	FOREIGN KEY (paper_id, position)
		REFERENCES authorships (paper_id, position) ON DELETE CASCADE
);
CREATE INDEX authorship_affiliations_todo ON authorship_affiliations (raw)
	WHERE institution_ids IS NULL;
