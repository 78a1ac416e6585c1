-- 0089_authorships_block_researcher.sql -- a block's authorships found
-- by researcher too (issue 19, item 3).
--
-- LOCKS: CREATE INDEX on authorships (SHARE: reads go on, writes wait
-- while it builds: 9.2 s at 1.18 M papers, 6.9 M authorships), then
-- ACCESS EXCLUSIVE for the drop and the rename, brief.
--
-- The day's match (MATCH_DAY_ROWS) reads, for every candidate whose
-- evidence is not kept (0064), that researcher's decided authorships in
-- the block.  With authorships_block keyed by the block alone, each
-- lookup ANDed the bitmap of the researcher's authorships with the
-- bitmap of the whole block (132 rows on average at 1.18 M): 26 us a
-- candidate, 247 of the statement's 490 ms for 500 blocks (warm,
-- tests/bench/match_read.sh).  Keyed by block and researcher, it is one
-- probe: the statement took 257 ms.  A day later, where the planner
-- read the researcher's authorships by authorships_researcher_newest
-- instead, the two indexes taken in turn (three runs each, 13,937
-- candidates): 1,582 ms against 1,187 ms.  Every reader of a whole block
-- (MATCH_DECLARE, MATCH_DAY_KEYS' undecided rows go by
-- authorships_undecided) reads the same index by its first column.
-- The index is larger (89 MB to 141 MB at 1.18 M: fewer duplicates
-- for deduplication to fold) and has the same name, so a first load's
-- list of indexes built after its rows (0051, 0058) is unchanged.

-- A first load in progress dropped the old one and keeps its definition
-- to build: it builds the new one instead.
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM bulk_dropped_indexes
	            WHERE name = 'authorships_block') THEN
		UPDATE bulk_dropped_indexes
		   SET def = 'CREATE INDEX authorships_block ON '
		             'public.authorships USING btree '
		             '(weft_name_block(name_key), researcher_id)'
		 WHERE name = 'authorships_block';
	ELSE
		CREATE INDEX authorships_block_0089 ON authorships
			(weft_name_block(name_key), researcher_id);
		DROP INDEX authorships_block;
		ALTER INDEX authorships_block_0089 RENAME TO authorships_block;
	END IF;
END $$;
