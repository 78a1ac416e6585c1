-- 0086_directory_counts_by_key.sql -- the directory's counts are written
-- by their key, whatever the statistics (issue 19, item 3).
--
-- LOCKS: none beyond replacing a function.
--
-- 0082's update trigger joined the researchers an update wrote with
-- researcher_directory.  Planned once a session (0082), that join was a
-- nested loop of two scans when the directory's statistics said it was
-- empty (the first load of a new database: 193.7 s); planned at each
-- call (0083), it is a hash of the whole directory as soon as the
-- update is large: a day's count update at 1 M papers (83,011
-- researchers) read all 3.07 M rows of the directory and spilled the
-- hash to disk in 32 batches, and the trigger took 4.3 s of the day
-- where the probe by key had taken 1.6-2.0 s (tests/bench/README.md).
-- That hash grows with the corpus; the probes grow with the day.  The
-- counts are now written as an insert that meets its row by the primary
-- key (ON CONFLICT ... DO UPDATE), which is a probe of the key for each
-- row of the statement by construction, with no join to plan: only the
-- counts that moved are written.  The delete keeps 0083's join, planned
-- at each call: a day deletes few researchers.
-- Same rows: tests/integration/t_match_blocks.sh checks that the
-- directory holds every count, and that a count update of a tenth of
-- the researchers reads the directory by key only.
-- Forward-only: never edit once landed; add another.

CREATE OR REPLACE FUNCTION weft_researcher_directory_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO researcher_directory (researcher_id, paper_count)
		SELECT id, paper_count FROM dir_new;
	ELSIF TG_OP = 'UPDATE' THEN
		INSERT INTO researcher_directory AS d (researcher_id, paper_count)
		SELECT id, paper_count FROM dir_new
		    ON CONFLICT (researcher_id) DO UPDATE
		   SET paper_count = excluded.paper_count
		 WHERE d.paper_count <> excluded.paper_count;
	ELSIF TG_OP = 'DELETE' THEN
		EXECUTE 'DELETE FROM researcher_directory d
		          USING dir_old o
		          WHERE d.researcher_id = o.id';
	ELSE
		TRUNCATE researcher_directory;
	END IF;
	RETURN NULL;
END $$;
