-- 0092_analyze_what_grew.sql -- a day's refresh leaves the statistics of
-- rows rewritten in place to autovacuum (issue 19, item 3).
--
-- LOCKS: none (replaces a function).
--
-- 0050 analyzed a table after a load, match or harvest when more than
-- share (5 %) of its rows had been written since its last ANALYZE, on
-- the premise that "a day's 20,000 papers change none of the
-- distributions by more than 2 %".  Rows added, yes; but the day's
-- pass rewrites the authorships of the blocks it decides (about
-- 240,000 a day at 1.2 M papers: 4 % of them, plus 1.6 % new), the
-- refresh rewrites the researchers it counts, and the harvest the
-- papers it counts: every day or two those crossed 5 %, and the day
-- waited for ANALYZE on the way to its refresh.  At 1.2 M papers, cold
-- (tests/bench/README.md, twenty-eighth session): 0.1-15.2 s a day,
-- ANALYZE papers alone 9.9 s (30,135 pages read at random for its
-- sample; 6-10 s warm, whatever columns are asked).
--
-- What makes the planner pick a bad plan before the refresh is a table
-- grown or shrunk by a share (a load into an empty or a small
-- database: nested loops over thousands of rows); rows rewritten in
-- place move a distribution slowly, and autovacuum analyzes them in the
-- background once 10 % were written (autovacuum_analyze_scale_factor),
-- off the day's path.  So a table is analyzed here when it never was
-- (reltuples -1), when its live rows moved from those its statistics
-- counted by more than share, or when more than four times share of
-- its rows were written since (a `match --full` that moves most
-- authorships; a table whose autovacuum is off).  After the statistics
-- counters are reset (a crash, pg_stat_reset()), n_live_tup counts from
-- zero: the next refresh analyzes each table once, which sets it again.
-- Tested: tests/integration/t_refresh.sh (a load of 15 % more analyzes;
-- 10 % rewritten in place does not, 25 % does).
-- Forward-only: never edit once landed; add another.

CREATE OR REPLACE FUNCTION weft_analyze(tables text[], share float8)
	RETURNS text[]
	LANGUAGE plpgsql AS $$
DECLARE
	t       text;
	done    text[] := '{}';
BEGIN
	FOR t IN
		SELECT x.t
		  FROM unnest(tables) WITH ORDINALITY AS x(t, o)
		  JOIN pg_class c ON c.oid = to_regclass(x.t)
		  LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
		 WHERE c.reltuples < 0
		    OR abs(s.n_live_tup - c.reltuples) >
		       share * greatest(c.reltuples, 1)
		    OR s.n_mod_since_analyze > 4 * share * greatest(c.reltuples, 1)
		 ORDER BY x.o
	LOOP
		EXECUTE format('ANALYZE %I', t);
		done := done || t;
	END LOOP;
	RETURN done;
END $$;
