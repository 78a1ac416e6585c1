-- 0029_papers_versioned.sql -- the papers that have more than one
-- version (issue 21: feeds carry an item for each new version).  About
-- one paper in 150 of the bundled data; without this index the version
-- items of the latest feed read every row of papers (66 MB, 1.4-2.9 s
-- on the test machine).  The predicate is the one the RSS_VERSIONS_*
-- statements (sql/queries/feeds.sql) repeat, so that PostgreSQL can use
-- the index; @? in lax mode never fails on a value that is not an array.
-- Forward-only: never edit once landed; add another.
CREATE INDEX papers_versioned ON papers (id) WHERE versions @? '$[1]';
