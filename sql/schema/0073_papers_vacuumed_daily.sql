-- 0073_papers_vacuumed_daily.sql -- autovacuum visits papers after each
-- day's harvest, so that reads of recent papers stay index-only (issue
-- 19, item 3).
--
-- LOCKS: none (a storage parameter).
--
-- Index-only scans skip the heap only on pages the visibility map says
-- are all-visible, and only a vacuum sets it.  papers grows by 20,000
-- rows a day and about 40,000 of its rows are rewritten (counts,
-- matched flags), but autovacuum's defaults wait for 20 % of the rows:
-- inserted (350,000 at 1.8 M papers) or dead.  On the kept bench
-- cluster at 1.88 M papers, 284,639 of papers' 1,059,989 pages (27 %)
-- were not all-visible, and every read of recent papers fetched them:
-- the search windows' check (weft_search_windows_due, which counts the
-- papers of each window) read 521,016 pages, 3.4 s, every refresh.
-- After a VACUUM (12.2 s for that backlog), 27,000 pages, 0.24 s
-- (EXPLAIN ANALYZE).  At 1 % of the rows inserted, autovacuum comes
-- once a day, after the harvest; its cost is the day's new and
-- rewritten pages, and its index pass when enough rows are dead.  Day
-- 38 (tests/bench/refresh_daily.sh): papers vacuumed during the match,
-- the check 0.5 s and 3,827 pages.
-- Forward-only: never edit once landed; add another.

ALTER TABLE papers SET (autovacuum_vacuum_insert_scale_factor = 0.01,
                        autovacuum_vacuum_scale_factor = 0.02);
