-- 0004_vectors.sql -- the semantic index files that weft-vectors build
-- writes (modules/vectors).  Forward-only: never edit once landed; add
-- another.
--
-- The newest row names the current file; workers compare its version
-- with the one they have mapped and reopen when it moved.  Rows stay as
-- the history of builds; the files of all but the two newest are
-- deleted by the next build.

CREATE TABLE vector_index (
	version         bigint PRIMARY KEY,     -- also in the file's header
	path            text NOT NULL,          -- absolute
	papers          integer NOT NULL,       -- vectors in the file
	terms           integer NOT NULL,       -- vocabulary size
	dims            integer NOT NULL,
	fingerprint     text NOT NULL,          -- state of papers it was built from
	seconds         real,                   -- how long the build took
	built_at        timestamptz NOT NULL DEFAULT now()
);
