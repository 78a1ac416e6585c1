-- 0003_harvest.sql -- where each remote source's harvest stands, so that
-- an interrupted run resumes and `weft-harvest status` can say how it
-- went.  One row a source ('arxiv-oai', 'arxiv-api', 'openalex', 's2').
-- The cursor is written in the same transaction as the batch it follows,
-- so after a crash it points just past the last batch committed.

CREATE TABLE harvest_cursors (
	source          text PRIMARY KEY,
	cursor          text,                   -- resumptionToken, next_cursor, start
	params          jsonb NOT NULL DEFAULT '{}',  -- the run: from, until, set, query
	done            boolean NOT NULL DEFAULT true, -- false: a run stopped part-way
	last_run        timestamptz,            -- started
	last_ok         timestamptz,            -- finished without error
	last_error      text,                   -- NULL after a success
	run_records     bigint NOT NULL DEFAULT 0,  -- written by the current/last run
	records         bigint NOT NULL DEFAULT 0,  -- over all runs
	deleted         bigint NOT NULL DEFAULT 0,
	requests        bigint NOT NULL DEFAULT 0,
	complete        bigint                  -- completeListSize/totalResults when known
);
