-- tests/bench/corpus/citations.sql -- citation counts for a synthetic
-- corpus, drawn from real ones (not a test: load.sh runs it).
--
--   psql -f tests/bench/corpus/citations.sql
--
-- gen.py's listing is arXiv's shape, which has no citations; a real
-- corpus gets its counts from OpenAlex and Semantic Scholar, and search
-- by citations (0053's windows) reads them.  Without them every match
-- ties at no count and the citations rows of search_matrix.sh measure a
-- corpus that cannot exist.
--
-- cite_sample holds, for the 1,000 papers of 2022-2024 that cite the
-- paper in Semantic Scholar's recorded response
-- (../shared/data/semanticscholar/responses/Paper.json.gz, recorded in
-- 2024), each one's age in years at the recording (0, 1, 2) and its
-- citation count, with how many of the 1,000 have both: 78 % of the papers of the year cited by none, 40 % a
-- year later, 23 % two years later, the most cited 19, 5,708 and 178.
-- Each paper here draws a count from those of its age (its distance in
-- whole years from the newest paper; older than two years draws from
-- the two-year-olds, so the older papers are under-cited, not over),
-- by a hash of its id: the same corpus gets the same counts.
-- Written as LOAD_OA_CITATIONS writes OpenAlex's, so the writers'
-- triggers note what they note for a harvest.

CREATE TEMP TABLE cite_sample AS
SELECT v.age, v.n
  FROM (VALUES
	(0,0,116), (0,1,16), (0,2,7), (0,3,1), (0,4,2), (0,5,2), (0,6,2),
	(0,8,1), (0,19,1), (1,0,202), (1,1,91), (1,2,39), (1,3,31), (1,4,18),
	(1,5,17), (1,6,12), (1,7,7), (1,8,4), (1,9,8), (1,10,1), (1,11,5),
	(1,12,6), (1,13,4), (1,14,3), (1,15,3), (1,16,4), (1,17,4), (1,18,1),
	(1,19,2), (1,20,2), (1,21,1), (1,22,3), (1,23,5), (1,25,1), (1,27,2),
	(1,28,1), (1,29,1), (1,32,1), (1,35,3), (1,38,2), (1,41,1), (1,55,1),
	(1,57,1), (1,62,1), (1,63,1), (1,86,2), (1,103,1), (1,104,1),
	(1,165,1), (1,359,1), (1,361,1), (1,409,1), (1,1114,1), (1,5708,1),
	(2,0,80), (2,1,42), (2,2,37), (2,3,31), (2,4,15), (2,5,20), (2,6,16),
	(2,7,13), (2,8,10), (2,9,3), (2,10,8), (2,11,3), (2,12,6), (2,13,6),
	(2,14,6), (2,15,2), (2,16,3), (2,17,7), (2,18,4), (2,19,5), (2,20,2),
	(2,21,2), (2,22,1), (2,24,1), (2,25,1), (2,32,1), (2,33,2), (2,34,1),
	(2,38,1), (2,41,1), (2,43,1), (2,44,2), (2,46,1), (2,48,1), (2,50,1),
	(2,52,1), (2,54,1), (2,56,1), (2,57,1), (2,60,2), (2,66,1), (2,69,1),
	(2,74,1), (2,86,1), (2,89,1), (2,91,1), (2,102,1), (2,106,1),
	(2,147,1), (2,148,1), (2,178,1)
       ) AS v(age, n, times),
       generate_series(1, v.times);

WITH s AS (
	SELECT age, array_agg(n ORDER BY n) AS ns
	  FROM cite_sample
	 GROUP BY age
), newest AS (
	SELECT max(published) AS d FROM papers
), drawn AS (
	SELECT p.id,
	       s.ns[1 + (hashint8(p.id) & 2147483647) %
	                array_length(s.ns, 1)] AS n
	  FROM papers p, newest
	  JOIN s ON true
	 WHERE s.age = least(2, (newest.d - p.published) / 365)
)
UPDATE papers p
   SET citation_count = d.n, citation_source = 'openalex',
       citation_at = now(), modified_at = now()
  FROM drawn d
 WHERE p.id = d.id
   AND p.citation_count IS DISTINCT FROM d.n;
