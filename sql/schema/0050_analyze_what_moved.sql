-- 0050_analyze_what_moved.sql -- the refresh analyzes the tables whose
-- rows moved enough to move their statistics, not every table every
-- time (issue 19, item 3).
--
-- After each load, match or harvest the refresh ran ANALYZE on eight
-- tables (AFTER_BULK, AFTER_DERIVED): the planner needs fresh
-- statistics after a load (without them it picks nested loops over
-- thousands of rows).  ANALYZE samples 30,000 rows of a table whatever
-- changed: 8.5 s at 1,040,001 papers (papers 2.8 s for its search
-- vectors' lexemes, researcher_stats 2.4 s, coauthor_pairs 1.7 s,
-- authorships 1.0 s), spent on a day's 20,000 papers that change none
-- of the distributions by more than 2 %.  weft_analyze(tables, share)
-- analyzes those never analyzed (reltuples -1) or with more than share
-- of their rows written since (pg_stat_user_tables.n_mod_since_analyze
-- against pg_class.reltuples), as autovacuum would later, and answers
-- their names.  (The counters start again from zero when the statistics are
-- reset or after a crash: the writes before are then left to
-- autovacuum.)  Forward-only: never edit once landed; add another.

CREATE FUNCTION weft_analyze(tables text[], share float8)
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
		    OR s.n_mod_since_analyze > share * greatest(c.reltuples, 1)
		 ORDER BY x.o
	LOOP
		EXECUTE format('ANALYZE %I', t);
		done := done || t;
	END LOOP;
	RETURN done;
END $$;
