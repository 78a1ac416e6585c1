-- tests/bench/corpus_reads.sql -- the reads that must not grow with the
-- corpus, each as it is now and as it was before the twenty-sixth
-- session bounded it ("before"), timed by psql (not a test: not in
-- `make test`).  Run it twice against a kept cluster and read the
-- second run's times (the first pays for the cache):
--   psql -X -h VAR/pg/run -U weft -d weft -f tests/bench/corpus_reads.sql
-- The "before" statements read whole tables: minutes at 2.5 M papers.
-- tests/bench/README.md, "Reads that grew with the corpus", has the
-- figures.
\timing on
\pset pager off
SET jit = off;
SET max_parallel_workers_per_gather = 0;
\echo == STATE before
SELECT count(*) AS papers, coalesce(max(id), 0) AS max_id, coalesce(max(modified_at)::text, '') AS modified_at FROM papers;
\echo == STATE now
SELECT (SELECT count(*) FROM papers) AS papers, coalesce((SELECT max(id) FROM papers), 0) AS max_id, coalesce((SELECT max(modified_at) FROM papers)::text, '') AS modified_at;
SELECT max(modified_at) - interval '1 day' AS w FROM papers \gset
\echo == IDS before (all pages as one)
SELECT count(*), count(*) FILTER (WHERE c) FROM (SELECT id, modified_at > :'w'::timestamptz AS c, modified_at > :'w'::timestamptz - interval '10 minutes' AS r FROM papers WHERE id > 0 ORDER BY id) x;
\echo == IDS now + CHANGED
SELECT count(*) FROM (SELECT id FROM papers WHERE id > 0 ORDER BY id) x;
SELECT count(*), count(*) FILTER (WHERE changed) FROM (SELECT id, modified_at > :'w'::timestamptz AS changed FROM papers WHERE modified_at > :'w'::timestamptz - interval '10 minutes' ORDER BY id) x;
\echo == CATEGORY_COUNTS before
SELECT count(*) FROM (SELECT c AS category, count(*) AS papers FROM papers p, unnest(p.categories) AS c GROUP BY c ORDER BY c) x;
\echo == CATEGORY_COUNTS now
SELECT count(*) FROM (SELECT category, papers FROM category_counts WHERE papers > 0 ORDER BY category) x;
\echo == FIELDS before
SELECT count(*) FROM (SELECT primary_category, count(*) AS papers FROM papers WHERE primary_category <> '' GROUP BY primary_category ORDER BY count(*) DESC, primary_category LIMIT 40) x;
\echo == FIELDS now
SELECT count(*) FROM (SELECT category AS primary_category, primary_papers AS papers FROM category_counts WHERE primary_papers > 0 ORDER BY primary_papers DESC, category LIMIT 40) x;
SELECT category AS f FROM category_counts ORDER BY primary_papers DESC LIMIT 1 \gset
\echo == TOP_IN_FIELD before :f
SELECT count(*) FROM (SELECT r.id, r.name, r.slug, count(*) AS n, EXISTS (SELECT 1 FROM follows f WHERE f.user_id = 0 AND f.researcher_id = r.id) AS following FROM papers p JOIN authorships a ON a.paper_id = p.id JOIN researchers r ON r.id = a.researcher_id WHERE p.primary_category = :'f' GROUP BY r.id, r.name, r.slug ORDER BY n DESC, r.id LIMIT 24) x;
\echo == TOP_IN_FIELD now :f
SELECT count(*) FROM (SELECT r.id, r.name, r.slug, x.n, EXISTS (SELECT 1 FROM follows f WHERE f.user_id = 0 AND f.researcher_id = r.id) AS following FROM (SELECT a.researcher_id, count(*) AS n FROM (SELECT p.id FROM papers p WHERE p.primary_category = :'f' AND p.published IS NOT NULL ORDER BY p.published DESC LIMIT 10000) p JOIN authorships a ON a.paper_id = p.id WHERE a.researcher_id IS NOT NULL GROUP BY a.researcher_id ORDER BY n DESC, a.researcher_id LIMIT 24) x JOIN researchers r ON r.id = x.researcher_id ORDER BY x.n DESC, r.id) y;
\echo == SEARCH_NAME before, nobody (zzqxv) and common (wang)
SELECT count(*) FROM (SELECT r.id FROM researcher_directory d JOIN researchers r ON r.id = d.researcher_id WHERE r.name ILIKE '%zzqxv%' ESCAPE '!' AND d.paper_count > 0 ORDER BY d.paper_count DESC, d.researcher_id LIMIT 24) x;
SELECT count(*) FROM (SELECT r.id FROM researcher_directory d JOIN researchers r ON r.id = d.researcher_id WHERE r.name ILIKE '%wang%' ESCAPE '!' AND d.paper_count > 0 ORDER BY d.paper_count DESC, d.researcher_id LIMIT 24) x;
\echo == SEARCH_NAME now, nobody and common
SELECT count(*) FROM (SELECT r.id FROM weft_names_close('zzqxv', 24, 2000) WITH ORDINALITY AS c JOIN researchers r ON r.id = c.id ORDER BY c.ordinality) x;
SELECT count(*) FROM (SELECT r.id FROM weft_names_close('wang', 24, 2000) WITH ORDINALITY AS c JOIN researchers r ON r.id = c.id ORDER BY c.ordinality) x;
SET plan_cache_mode = force_custom_plan;
PREPARE b_before(text, date, date, bigint, bigint, integer, text) AS SELECT p.id, 1 AS tier, p.published, p.citation_count, array_to_string(p.categories, ' ') AS categories, 0::real AS rank, count(*) OVER () AS pool_size FROM papers p WHERE ($1::text IS NULL OR p.categories @> ARRAY[$1::text]) AND ($2::date IS NULL OR p.published >= $2::date) AND ($3::date IS NULL OR p.published <= $3::date) AND ($4::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a WHERE a.paper_id = p.id AND a.researcher_id = $4::bigint)) AND ($5::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a JOIN researcher_institutions ri ON ri.researcher_id = a.researcher_id WHERE a.paper_id = p.id AND ri.institution_id = $5::bigint)) ORDER BY CASE WHEN $7::text = 'citations' THEN p.citation_count END DESC NULLS LAST, p.published DESC, p.id DESC LIMIT $6::integer;
PREPARE b_now(text, date, date, bigint, bigint, integer) AS SELECT p.id, 1 AS tier, p.published, p.citation_count, array_to_string(p.categories, ' ') AS categories, 0::real AS rank, 0::bigint AS pool_size FROM papers p WHERE ($1::text IS NULL OR p.categories @> ARRAY[$1::text]) AND ($2::date IS NULL OR p.published >= $2::date) AND ($3::date IS NULL OR p.published <= $3::date) AND ($4::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a WHERE a.paper_id = p.id AND a.researcher_id = $4::bigint)) AND ($5::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a JOIN researcher_institutions ri ON ri.researcher_id = a.researcher_id WHERE a.paper_id = p.id AND ri.institution_id = $5::bigint)) ORDER BY p.published DESC, p.id DESC LIMIT $6::integer;
PREPARE b_now_cited(text, date, date, bigint, bigint, integer) AS SELECT p.id, 1 AS tier, p.published, p.citation_count, array_to_string(p.categories, ' ') AS categories, 0::real AS rank, 0::bigint AS pool_size FROM papers p WHERE ($1::text IS NULL OR p.categories @> ARRAY[$1::text]) AND ($2::date IS NULL OR p.published >= $2::date) AND ($3::date IS NULL OR p.published <= $3::date) AND ($4::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a WHERE a.paper_id = p.id AND a.researcher_id = $4::bigint)) AND ($5::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a JOIN researcher_institutions ri ON ri.researcher_id = a.researcher_id WHERE a.paper_id = p.id AND ri.institution_id = $5::bigint)) ORDER BY p.citation_count DESC NULLS LAST, p.id DESC LIMIT $6::integer;
SELECT category AS rare FROM category_counts WHERE papers BETWEEN 2000 AND 20000 ORDER BY papers LIMIT 1 \gset
\o /dev/null
\echo == BROWSE :f newest: before, now
EXECUTE b_before(:'f', NULL, NULL, NULL, NULL, 1000, 'newest');
EXECUTE b_now(:'f', NULL, NULL, NULL, NULL, 1001);
\echo == BROWSE :f citations: before, now
EXECUTE b_before(:'f', NULL, NULL, NULL, NULL, 1000, 'citations');
EXECUTE b_now_cited(:'f', NULL, NULL, NULL, NULL, 1001);
\echo == BROWSE :rare newest: before, now
EXECUTE b_before(:'rare', NULL, NULL, NULL, NULL, 1000, 'newest');
EXECUTE b_now(:'rare', NULL, NULL, NULL, NULL, 1001);
\echo == BROWSE from 2020-01-01 newest: before, now
EXECUTE b_before(NULL, '2020-01-01', NULL, NULL, NULL, 1000, 'newest');
EXECUTE b_now(NULL, '2020-01-01', NULL, NULL, NULL, 1001);
\echo == BROWSE from 2020-01-01 citations: before, now
EXECUTE b_before(NULL, '2020-01-01', NULL, NULL, NULL, 1000, 'citations');
EXECUTE b_now_cited(NULL, '2020-01-01', NULL, NULL, NULL, 1001);
\o
RESET plan_cache_mode;
PREPARE rss(integer, text) AS SELECT p.id, p.title FROM papers p WHERE p.categories @> ARRAY[$2::text] AND p.published IS NOT NULL ORDER BY p.published DESC, p.id DESC LIMIT $1::integer;
\o /dev/null
\echo == RSS_CATEGORY :f before: prepared, executions 1-7 (a generic plan from the 6th)
EXECUTE rss(50, :'f');
EXECUTE rss(50, :'f');
EXECUTE rss(50, :'f');
EXECUTE rss(50, :'f');
EXECUTE rss(50, :'f');
EXECUTE rss(50, :'f');
EXECUTE rss(50, :'f');
\echo == RSS_CATEGORY :f now: planned with its values (plan: each)
SELECT p.id, p.title FROM papers p WHERE p.categories @> ARRAY[:'f'::text] AND p.published IS NOT NULL ORDER BY p.published DESC, p.id DESC LIMIT 50;
\echo == RSS_CATEGORY :rare now
SELECT p.id, p.title FROM papers p WHERE p.categories @> ARRAY[:'rare'::text] AND p.published IS NOT NULL ORDER BY p.published DESC, p.id DESC LIMIT 50;
\o
