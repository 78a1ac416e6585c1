-- 0071_refresh_work_mem.sql -- the incremental refresh sorts and hashes
-- a day's rows in memory (issue 19, item 3).
--
-- LOCKS: none beyond altering a function.
--
-- A day's refresh (weft_derived_refresh and the fills it calls, then
-- weft_here_refresh, the figures of the researchers it touched) groups
-- and joins a few hundred thousand rows at a time: the day's pair
-- deltas, the sides of 20,000 papers, the co-author candidates of the
-- researchers matched by co-authors.  With PostgreSQL's default
-- work_mem (4 MB) each of those sorts and hashes spilled to disk: a day
-- at 1.8 M papers wrote 170,641 temp pages (1.3 GB) in 80.1 s of
-- refresh (pg_stat_statements, tests/bench/refresh_daily.sh, day 34),
-- the hash aggregate of the fields alone in 37 batches.  64 MB per sort
-- or hash holds them: 34,989 temp pages on day 35.  The day did not get
-- measurably shorter; what it reads is pages of tables, not temp files.
-- The refresh runs one statement at a time, in one session, once a day,
-- so the most it adds is a few of those at once.  An operator who needs
-- otherwise sets it again with ALTER FUNCTION; a later CREATE OR
-- REPLACE of either function must carry its SET.
-- Forward-only: never edit once landed; add another.

ALTER FUNCTION weft_derived_refresh(boolean) SET work_mem = '64MB';
ALTER FUNCTION weft_here_refresh(boolean) SET work_mem = '64MB';
