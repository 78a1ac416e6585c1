-- 0059_match_day.sql -- the day's match decides the day's authorships,
-- not the blocks they fall in (issue 19, item 3).
--
-- LOCKS: builds two btree indexes (authorships not yet decided, a
-- small partial one; researchers by block); writes to those tables wait
-- while they build (reads do not).
--
-- 0058 made "weft-harvest match" read only the name blocks a day
-- changed, but it still decided those blocks whole: a day's 106,000
-- authorships reached blocks holding 74 % of all authorships at 1 M
-- papers ("s wang" alone holds 16,383), so the match took 1,166 s and
-- moved decisions far from the day's papers.  The day's pass now reads,
-- per changed block, the authorships still to decide (the loader's
-- researcher of their name: match_reason 'name_key', or none) and the
-- decided authorships of the researchers whose name can be theirs, and
-- decides the new ones against those researchers (match_db.c,
-- harvest_match_place()).  An authorship a source placed by an
-- external id since the last match (HV_LINK_AUTHOR now leaves its
-- match_score NULL) is decided again too, with its researcher.  "match --full" and a first load decide
-- blocks whole, as before.
-- Forward-only: never edit once landed; add another.

-- The authorships the day's pass decides: a handful after each match.
-- A source's link (HV_LINK_AUTHOR) leaves the score to the matcher.
CREATE INDEX authorships_undecided ON authorships (weft_name_block(name_key))
	WHERE (match_reason IS NULL OR match_reason = 'name_key'
	       OR match_score IS NULL)
	  AND name_key <> '';

-- A block's researchers, the day's pass's candidates.
CREATE INDEX researchers_block ON researchers (weft_name_block(name_key));

-- When blocks were last decided whole everywhere ("match --full", or
-- before this migration: 0058's matches decided their blocks whole).
-- A day's pass older than match_full_days after it runs --full instead
-- (match_db.c).
ALTER TABLE match_state ADD COLUMN full_at timestamptz NOT NULL
	DEFAULT now();

-- Statistics of the indexed expressions: without them the planner
-- guesses a million researchers for 500 blocks and scans them all
-- (1.5 s a read at 1 M papers).
ANALYZE researchers;
ANALYZE authorships;

-- A first load builds both after its rows (0051; its match decides
-- blocks whole and reads neither).
ALTER FUNCTION weft_bulk_indexes() RENAME TO weft_bulk_indexes_0058;
CREATE FUNCTION weft_bulk_indexes() RETURNS text[]
	LANGUAGE sql IMMUTABLE AS $$
	SELECT weft_bulk_indexes_0058()
	    || ARRAY['authorships_undecided', 'researchers_block']
$$;
