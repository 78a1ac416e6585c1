-- 0078_bulk_end_statistics.sql -- the expression indexes a first load
-- builds after its rows get their statistics when they are built
-- (issue 19, item 3).
--
-- LOCKS: none; replaces a function.
--
-- The planner knows how an indexed expression is distributed only from
-- an ANALYZE of the table run while the index exists.  A first load
-- drops the name blocks' indexes (weft_name_block(name_key):
-- authorships_block, authorships_undecided, researchers_block) and
-- builds them again after the match (0051, 0058, 0059).  On 200,000-
-- paper loads, autovacuum analyzed researchers and authorships during
-- the match, before these indexes existed, and the load's own
-- weft_analyze (0050) then found too few rows written since to analyze
-- them again: the load ended with no statistics for the name blocks.
-- Until the next ANALYZE (the refresh's once 5 % of a table is written,
-- 0050, or autovacuum's at 10 %: days, at 2.5 M papers), the planner
-- took every name block for a match of every row.  The next day's
-- match read researchers whole for each batch of 500 blocks (a
-- parallel sequential scan, 0.46-0.62 s, where the index gives the
-- rows in 5-60 ms): its key lookups took 57.5 s instead of 6.4 s, the
-- match without the refresh 110.6 s instead of 44.7 s
-- (tests/bench/README.md).  weft_bulk_end() now analyzes each table
-- whose expression index it built, after building them all.
-- Same rows: tests/integration/t_load_indexes.sh checks that every
-- expression index weft_bulk_end() builds has statistics, also when
-- its table was analyzed before it.
-- Forward-only: never edit once landed; add another.

CREATE OR REPLACE FUNCTION weft_bulk_end() RETURNS integer
	LANGUAGE plpgsql
	SET maintenance_work_mem = '1GB' AS $$
DECLARE
	r       record;
	n       integer := 0;
	built   text[] := '{}';
	t       regclass;
BEGIN
	FOR r IN SELECT name, def FROM bulk_dropped_indexes ORDER BY name LOOP
		IF to_regclass(r.name) IS NULL THEN
			EXECUTE r.def;
			n := n + 1;
			built := built || r.name;
		END IF;
		DELETE FROM bulk_dropped_indexes WHERE name = r.name;
	END LOOP;
	FOR t IN
		SELECT DISTINCT i.indrelid::regclass
		  FROM unnest(built) AS x(name)
		  JOIN pg_index i ON i.indexrelid = to_regclass(x.name)
		 WHERE i.indexprs IS NOT NULL
	LOOP
		EXECUTE format('ANALYZE %s', t);
	END LOOP;
	RETURN n;
END $$;
