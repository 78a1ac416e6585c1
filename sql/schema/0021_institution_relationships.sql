-- 0021_institution_relationships.sql -- ROR's relationships of an
-- institution (issue 16): parent, child, related and, for one that was
-- merged, renamed or closed, its predecessor and successor, as
-- [{"type": "successor", "id": "04nbqb988", "label": "..."}] with ROR
-- ids.  Written by `weft-harvest ror` and the bulk loader; '[]' where
-- ROR names none or the institution came from OpenAlex alone.
-- Forward-only: never edit once landed.
ALTER TABLE institutions
	ADD COLUMN relationships jsonb NOT NULL DEFAULT '[]';
