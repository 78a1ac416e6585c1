-- 0093_researchers_name_key_covering.sql -- a harvester's batch finds
-- the researcher of each new author's name from the index alone
-- (issue 19, item 3).
--
-- LOCKS: CREATE INDEX on researchers (SHARE: reads go on, writes wait
-- while it builds), then ACCESS EXCLUSIVE for the drop and the rename,
-- brief.
--
-- Each page of a harvest (MERGE_AUTHORSHIPS) looks up the researcher
-- of each of its authors' name keys: the lowest id among those of that
-- key without an external id.  researchers_name_key (0001) held the key
-- alone, so every researcher of the key was read from the heap to test
-- its external ids and take its id: at 1.22 M papers, cold, 5,041 keys
-- of one page read 11,856 pages of researchers in 574 ms, and the
-- lookups took 6.4-7.9 s of a day of 20,000 papers (auto_explain,
-- pg_stat_statements; tests/bench/README.md, twenty-eighth session).
-- Keyed the same way with the id and the external ids beside the key,
-- the lookup is an index-only scan: the heap is read only for pages
-- written since the last vacuum (autovacuum comes after 1 % of the
-- researchers are written: 0068).  Every reader by name key reads it by
-- its first column as before.  The index is wider (the id, three
-- identifiers NULL for nearly everyone); no other write touches it:
-- the updates of a researcher's counts leave the key and the ids alone
-- and stay HOT.  The name is kept, so nothing that names it changes.

CREATE INDEX researchers_name_key_0093 ON researchers (name_key)
	INCLUDE (id, openalex_id, s2_id, orcid);
DROP INDEX researchers_name_key;
ALTER INDEX researchers_name_key_0093 RENAME TO researchers_name_key;
