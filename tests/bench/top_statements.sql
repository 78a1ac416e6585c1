-- tests/bench/top_statements.sql -- where a bench step's time went: the
-- costliest statements since pg_stat_statements_reset(), nested ones
-- (inside functions) included when pg_stat_statements.track = all
-- (load.sh's clusters).  psql -f, on a database with the extension.
SELECT round((total_exec_time / 1000)::numeric, 1) AS s, calls, rows,
       round(mean_exec_time::numeric, 2) AS mean_ms,
       left(regexp_replace(query, '\s+', ' ', 'g'), 110) AS query
  FROM pg_stat_statements
 ORDER BY total_exec_time DESC
 LIMIT 12;
