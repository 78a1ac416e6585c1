-- 0041_vector_incremental.sql -- what an incremental weft-vectors build
-- (modules/vectors/update.c) needs to know about the index it extends
-- (issue 19, item 3).  A daily harvest adds new papers to the current
-- file with its model instead of refitting on the whole corpus; these
-- columns say since when and how far that model has been stretched.
-- NULL in rows written before: the next build is then a full fit.

ALTER TABLE vector_index
	-- the build whose model (vocabulary, projection, lists) the file
	-- carries: its own version after a full fit
	ADD COLUMN fit_version bigint,
	-- papers projected or removed by incremental builds since that fit
	ADD COLUMN since_fit integer,
	-- share of the papers' tokens the model did not know at that fit
	ADD COLUMN fit_unknown real,
	-- max(papers.modified_at) the build saw: papers modified later are
	-- re-projected by the next incremental build
	ADD COLUMN modified_to timestamptz;
