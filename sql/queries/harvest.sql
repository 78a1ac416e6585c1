-- harvest.sql -- the statements of weft-harvest.
--
-- Two kinds live here, in this order:
--
--  1. Prepared statements (core_db_open() prepares them, core_db_exec()
--     runs them with $n parameters).  They may only name tables that exist
--     before the first migration ran: schema_migrations, created by
--     MIGRATIONS_ENSURE on a connection of its own.  From LOAD_COUNTS on
--     they name the schema's tables, so only the loader, on a migrated
--     database, prepares them (HARVEST_NMIGRATE in harvest.h).
--  2. Scripts, from MIGRATIONS_ENSURE on (HARVEST_NPREPARED in harvest.h).
--     They are DDL or name the loader's TEMP staging tables, which exist
--     only once the session has created them, so PostgreSQL cannot
--     prepare them at connect time.  They take no parameters: the loader's
--     values arrive by COPY into the staging tables, never in SQL text.
--     main.c runs them with core_db_cmd() (COPY with PQputCopyData).
--
-- Every merge is "INSERT ... ON CONFLICT DO UPDATE ... WHERE (cols) IS
-- DISTINCT FROM (new cols)" so that loading the same data twice writes
-- nothing the second time.

-- name: MIGRATIONS_LOCK
-- One migrator at a time (the key is arbitrary, "weft" in ASCII).
SELECT pg_advisory_lock(2003133300);

-- name: MIGRATIONS_CURRENT
SELECT coalesce(max(version), 0) AS version
  FROM schema_migrations;

-- name: MIGRATIONS_APPLIED
SELECT version
  FROM schema_migrations
 ORDER BY version;

-- name: MIGRATIONS_RECORD
INSERT INTO schema_migrations (version, name)
VALUES ($1::integer, $2);

-- name: LOAD_COUNTS
-- Prepared by the loader only, once migrations have created the tables.
SELECT (SELECT count(*) FROM papers) AS papers,
       (SELECT count(*) FROM authorships) AS authorships,
       (SELECT count(*) FROM researchers) AS researchers,
       (SELECT count(*) FROM institutions) AS institutions,
       (SELECT count(*) FROM researcher_institutions)
           AS researcher_institutions;

-- name: LOAD_BULK_BEGIN
-- A first load (papers empty) drops the read-side indexes, built again
-- by LOAD_BULK_END after the match (0051); otherwise does nothing.
SELECT weft_bulk_begin() AS dropped;

-- name: LOAD_BULK_END
-- Builds every index LOAD_BULK_BEGIN dropped, a failed load's included.
SELECT weft_bulk_end() AS built;

-- ------------------------------------------------- remote sources
-- The harvester's own statements (fetch.c, enrich.c): prepared, on a
-- migrated database (0003_harvest.sql creates harvest_cursors).

-- name: LOAD_OA_CITATIONS
-- The loader's OpenAlex works (sql/data/openalex_works.jsonl.gz): paper
-- $1's citation count $2, as OpenAlex gave it on $3 (the work's
-- updated_date), owned as HV_PAPER_CITATIONS owns it.
UPDATE papers
   SET citation_count = $2::integer, citation_source = 'openalex',
       citation_at = $3::timestamp AT TIME ZONE 'UTC', modified_at = now()
 WHERE arxiv_id = $1
   AND (citation_source IS NULL OR citation_source = 'openalex')
   AND (citation_count, citation_at) IS DISTINCT FROM
       ($2::integer, $3::timestamp AT TIME ZONE 'UTC');

-- name: HV_CURSOR_GET
SELECT coalesce(cursor, '') AS cursor, params::text, done, run_records
  FROM harvest_cursors
 WHERE source = $1;

-- name: HV_CURSOR_START
-- A new run: forget the old position.
INSERT INTO harvest_cursors AS c (source, params, done, last_run,
    run_records, last_error)
VALUES ($1, $2::jsonb, false, now(), 0, NULL)
    ON CONFLICT (source) DO UPDATE
   SET params = excluded.params, cursor = NULL, done = false,
       last_run = now(), run_records = 0, last_error = NULL,
       complete = NULL;

-- name: HV_CURSOR_RESUME
UPDATE harvest_cursors
   SET last_run = now(), last_error = NULL
 WHERE source = $1;

-- name: HV_CURSOR_STEP
-- Inside a batch's transaction: the position after it and its counts.
UPDATE harvest_cursors
   SET cursor = nullif($2, ''),
       run_records = run_records + $3::bigint,
       records = records + $3::bigint,
       deleted = deleted + $4::bigint,
       requests = requests + $5::bigint,
       complete = coalesce(nullif($6::bigint, -1), complete)
 WHERE source = $1;

-- name: HV_CURSOR_DONE
UPDATE harvest_cursors
   SET cursor = NULL, done = true, last_ok = now(), last_error = NULL,
       requests = requests + $2::bigint
 WHERE source = $1;

-- name: HV_CURSOR_FAIL
INSERT INTO harvest_cursors AS c (source, last_run, last_error)
VALUES ($1, now(), $2)
    ON CONFLICT (source) DO UPDATE
   SET last_error = excluded.last_error,
       requests = c.requests + $3::bigint;

-- name: HV_STATUS
SELECT source, coalesce(cursor, '') AS cursor, params::text, done,
       coalesce(to_char(last_run, 'YYYY-MM-DD HH24:MI:SS'), '-') AS last_run,
       coalesce(to_char(last_ok, 'YYYY-MM-DD HH24:MI:SS'), '-') AS last_ok,
       coalesce(last_error, '') AS last_error, run_records, records,
       deleted, requests, coalesce(complete, -1) AS complete
  FROM harvest_cursors
 ORDER BY source;

-- name: HV_LAST_OK_DATE
-- Where an incremental OAI run starts when --from is not given.
SELECT coalesce(params->>'until', to_char(last_ok, 'YYYY-MM-DD')) AS since
  FROM harvest_cursors
 WHERE source = $1 AND last_ok IS NOT NULL;

-- name: HV_DELETE_PAPERS
-- OAI deleted records: the rows go (authorships cascade), their pages
-- are stale.
WITH d AS (
	DELETE FROM papers
	 WHERE arxiv_id = ANY ($1::text[])
	RETURNING id
)
INSERT INTO stale_pages (kind, entity_id)
SELECT 'paper', id FROM d
    ON CONFLICT (kind, entity_id) DO UPDATE SET marked_at = now();

-- name: HV_RECOMPUTE_BATCH
-- Derived columns of what this transaction touched (now() is the
-- transaction's start, so "modified_at = now()" is "written by this
-- batch").  Counts of a researcher who lost an authorship here are left
-- to the next full RECOMPUTE.
WITH ch AS (SELECT id FROM papers WHERE modified_at = now()),
     s AS (SELECT q.id, count(a.position) AS n,
                  count(a.position) > 0
                  AND count(a.researcher_id) = count(a.position) AS fm
             FROM ch q
             LEFT JOIN authorships a ON a.paper_id = q.id
            GROUP BY q.id)
UPDATE papers p
   SET author_count = s.n, fully_matched = s.fm
  FROM s
 WHERE p.id = s.id
   AND (p.author_count, p.fully_matched) IS DISTINCT FROM (s.n, s.fm);

-- name: HV_RECOMPUTE_RESEARCHERS
-- The latest paper from the authorships' copy of its date (0011), as
-- COUNTS_OF_TOUCHED: joined with papers, the planner read all of
-- papers_published (1.1 s at 1.52 M papers, for 1,000 written).
-- An authorship placed by its name only (MERGE_AUTHORSHIPS' 'name_key')
-- is the match's to decide: the match writes each of them (its reasons
-- are others, with a score) and counts the researcher it lands on
-- (MATCH_RECOMPUTE_DAY), so its researcher is not counted here, where
-- the count was written twice a day: 93,502 rows here, then 85,512 by
-- the match, for the day's 20,000 papers at 1.6 M
-- (tests/bench/README.md).  A source's placement (an external id) is
-- counted at once.
-- It marks the pages of what it writes itself
-- (STALE_RESEARCHERS_WRITTEN; HV_MARK_STALE does not find them).
WITH r0 AS (SELECT DISTINCT a.researcher_id AS id
              FROM authorships a
              JOIN papers p ON p.id = a.paper_id
             WHERE p.modified_at = now() AND a.researcher_id IS NOT NULL
               AND a.match_reason IS DISTINCT FROM 'name_key'),
     s AS (SELECT r0.id, count(DISTINCT a.paper_id) AS n,
                  max(a.published) AS latest
             FROM r0
             LEFT JOIN authorships a ON a.researcher_id = r0.id
            GROUP BY r0.id),
     w AS (UPDATE researchers r
              SET paper_count = s.n, latest_paper = s.latest,
                  modified_at = now()
             FROM s
            WHERE r.id = s.id
              AND (r.paper_count, r.latest_paper)
                  IS DISTINCT FROM (s.n, s.latest)
           RETURNING r.id)
{{STALE_RESEARCHERS_WRITTEN}};

-- fragment: STALE_RESEARCHERS_WRITTEN
-- The pages of the researchers a statement's CTE w wrote (RETURNING
-- id), marked stale: each writer of researchers in a harvester's batch
-- marks its own (0082; HV_MARK_STALE marks papers and institutions).
INSERT INTO stale_pages (kind, entity_id)
SELECT 'researcher', id FROM w
    ON CONFLICT (kind, entity_id) DO UPDATE SET marked_at = now()

-- name: HV_MARK_STALE
-- Everything this transaction wrote: its pages must be rebuilt.  The
-- writers of researchers mark theirs as they write them
-- (HV_RECOMPUTE_RESEARCHERS, HV_MARK_MADE, MERGE_OA_AUTHORS,
-- HV_S2_RESEARCHER): researchers has no index of modified_at, so that
-- the match's count update stays on its rows' pages (0082).  Found
-- here through the batch's papers instead, they cost a probe of
-- researchers per author: 2.4 s a day of 20,000 papers at 1 M, against
-- 0.3 s by the index (tests/bench/README.md).
INSERT INTO stale_pages (kind, entity_id)
SELECT 'paper', id FROM papers WHERE modified_at = now()
 UNION ALL
SELECT 'institution', id FROM institutions WHERE modified_at = now()
    ON CONFLICT (kind, entity_id) DO UPDATE SET marked_at = now();

-- name: AFFIL_INSTITUTIONS
-- What the affiliation matcher knows (affil_ror.c): the ROR institutions.
SELECT id, name, to_json(aliases)::text AS aliases, country_code,
       country_name, coalesce(status, 'active') = 'active' AS active
  FROM institutions
 WHERE ror_id IS NOT NULL;

-- name: AFFIL_TODO
-- The raw strings not matched yet.
SELECT DISTINCT raw
  FROM authorship_affiliations
 WHERE institution_ids IS NULL;

-- name: AFFIL_SET
UPDATE authorship_affiliations
   SET institution_ids = $2::bigint[]
 WHERE raw = $1 AND institution_ids IS NULL;

-- name: AFFIL_RESET
-- "affil link --again": every string is matched afresh.
UPDATE authorship_affiliations
   SET institution_ids = NULL
 WHERE institution_ids IS NOT NULL;

-- name: AFFIL_LINKS
-- The links of sources 'arxiv' and 's2' (the raw strings they gave),
-- rebuilt from the matched strings: a researcher is linked to each
-- institution one of their authorships names, per source, from the year of the first such paper to the year of the last.
-- Links no string supports any more go; only changed rows are written,
-- and the institutions whose links changed are marked modified.
WITH l AS (
  SELECT a.researcher_id, u.iid AS institution_id, f.source,
         min(extract(year FROM p.published))::integer AS first_year,
         max(extract(year FROM p.published))::integer AS last_year
    FROM authorship_affiliations f
    JOIN authorships a ON a.paper_id = f.paper_id AND a.position = f.position
    JOIN papers p ON p.id = f.paper_id
   CROSS JOIN LATERAL unnest(f.institution_ids) AS u(iid)
    JOIN institutions i ON i.id = u.iid
   WHERE a.researcher_id IS NOT NULL
   GROUP BY a.researcher_id, u.iid, f.source
), gone AS (
  DELETE FROM researcher_institutions ri
   WHERE ri.source IN ('arxiv', 's2')
     AND NOT EXISTS (SELECT 1 FROM l
                      WHERE l.researcher_id = ri.researcher_id
                        AND l.institution_id = ri.institution_id
                        AND l.source = ri.source)
  RETURNING ri.institution_id
), put AS (
  INSERT INTO researcher_institutions AS ri (researcher_id, institution_id,
      source, last_known, first_year, last_year)
  SELECT researcher_id, institution_id, source, false, first_year,
         last_year
    FROM l
      ON CONFLICT (researcher_id, institution_id, source) DO UPDATE
     SET first_year = excluded.first_year,
         last_year = excluded.last_year
   WHERE (ri.first_year, ri.last_year) IS DISTINCT FROM
         (excluded.first_year, excluded.last_year)
  RETURNING ri.institution_id
)
UPDATE institutions i
   SET modified_at = now()
 WHERE i.id IN (SELECT institution_id FROM gone
                UNION SELECT institution_id FROM put);

-- name: AFFIL_COUNTS
-- After AFFIL_LINKS (which sees the links as they were): the researcher
-- counts of the institutions it marked.
UPDATE institutions i
   SET researcher_count = (SELECT count(DISTINCT ri.researcher_id)
                             FROM researcher_institutions ri
                            WHERE ri.institution_id = i.id)
 WHERE i.modified_at = now();

-- name: HV_PAPER_CITATIONS
-- The first source to give a paper's citation count owns it; the same
-- source updates it, another one does not overwrite it.  citation_at
-- says when it was taken.
UPDATE papers
   SET citation_count = $2::integer, citation_source = $3,
       citation_at = now(), modified_at = now()
 WHERE arxiv_id = $1
   AND (citation_source IS NULL OR citation_source = $3)
   AND citation_count IS DISTINCT FROM $2::integer;

-- name: HV_PAPER_AUTHORS
SELECT a.position, a.raw_name
  FROM authorships a
  JOIN papers p ON p.id = a.paper_id
 WHERE p.arxiv_id = $1
 ORDER BY a.position;

-- name: HV_LINK_AUTHOR
-- An OpenAlex authorship at the same position, with a compatible name,
-- decides who wrote it.  No score yet: the next match weighs it (the
-- day's pass decides the authorships without one, 0059) and writes 1.
UPDATE authorships a
   SET researcher_id = r.id,
       match_reason = CASE $4::text WHEN 'openalex' THEN 'openalex_id'
                      ELSE $4::text END,
       match_score = NULL
  FROM papers p, researchers r
 WHERE p.arxiv_id = $1 AND a.paper_id = p.id AND a.position = $2::integer
   AND r.openalex_id = $3
   AND (a.researcher_id IS DISTINCT FROM r.id
        OR a.match_reason IS DISTINCT FROM
           CASE $4::text WHEN 'openalex' THEN 'openalex_id'
           ELSE $4::text END);

-- name: HV_LINK_INSTITUTION
-- An OpenAlex work's authorship (paper $1, author $2) names institution
-- $3 (ROR id) or $4 (OpenAlex id): the author's researcher is linked to
-- it, source 'openalex-work', for the paper's year; a link with years
-- widens to take it in (one without years, "any year", stays so).  Its
-- own source: MERGE_OA_AFFILS replaces an author's 'openalex' links
-- (the author record's) on every page that names the author.  The
-- institution is marked modified when its links changed (AFFIL_COUNTS).
WITH put AS (
  INSERT INTO researcher_institutions AS ri (researcher_id, institution_id,
      source, last_known, first_year, last_year)
  SELECT r.id, i.id, 'openalex-work', false, y.y, y.y
    FROM researchers r
    JOIN institutions i
      ON i.id = coalesce((SELECT id FROM institutions WHERE ror_id = $3),
                         (SELECT id FROM institutions
                           WHERE openalex_id = $4))
   CROSS JOIN (SELECT extract(year FROM published)::integer AS y
                 FROM papers WHERE arxiv_id = $1) y
   WHERE r.openalex_id = $2
      ON CONFLICT (researcher_id, institution_id, source) DO UPDATE
     SET first_year = least(ri.first_year, excluded.first_year),
         last_year = greatest(ri.last_year, excluded.last_year)
   WHERE ri.first_year IS NOT NULL AND excluded.first_year IS NOT NULL
     AND (excluded.first_year < ri.first_year
          OR excluded.last_year > ri.last_year)
  RETURNING ri.institution_id
)
UPDATE institutions
   SET modified_at = now()
 WHERE id IN (SELECT institution_id FROM put);

-- name: HV_PAPERS_TO_ENRICH
-- Papers without a citation count from source $1, newest first.
SELECT arxiv_id
  FROM papers
 WHERE citation_count IS NULL OR citation_source = $1
 ORDER BY published DESC NULLS LAST, id DESC
 LIMIT $2::integer;

-- name: HV_S2_RESEARCHER
-- S2 metrics for a researcher we know by S2 id; OpenAlex metrics win.
-- It marks the page of what it writes itself
-- (STALE_RESEARCHERS_WRITTEN; HV_MARK_STALE does not find it).
WITH w AS (
	UPDATE researchers
	   SET h_index = $2::integer, citations = $3::bigint,
	       works_count = $4::integer, metrics_source = 's2',
	       metrics_at = now(), modified_at = now()
	 WHERE s2_id = $1
	   AND (metrics_source IS NULL OR metrics_source = 's2')
	   AND (h_index, citations, works_count, metrics_source)
	       IS DISTINCT FROM ($2::integer, $3::bigint, $4::integer, 's2')
	RETURNING id)
{{STALE_RESEARCHERS_WRITTEN}};

-- name: HV_S2_AUTHOR_IDS
SELECT s2_id
  FROM researchers
 WHERE s2_id IS NOT NULL
 ORDER BY id
 LIMIT $1::integer;

-- name: HV_S2_FOUND
-- A paper an S2 search, bulk search or recommendation named (0039); a
-- field the answer lacks keeps its earlier value.  here: the arXiv
-- paper it is ($3) is one of ours.
INSERT INTO s2_papers AS s (s2_id, title, arxiv_id, year, citation_count,
    found_by, query)
VALUES ($1, $2, $3, $4::integer, $5::integer, $6, $7)
    ON CONFLICT (s2_id) DO UPDATE
   SET title = coalesce(excluded.title, s.title),
       arxiv_id = coalesce(excluded.arxiv_id, s.arxiv_id),
       year = coalesce(excluded.year, s.year),
       citation_count = coalesce(excluded.citation_count, s.citation_count),
       found_by = excluded.found_by, query = excluded.query,
       seen_at = now()
RETURNING EXISTS (SELECT 1 FROM papers WHERE arxiv_id = $3) AS here;

-- name: HV_S2_AFFIL
-- An S2 author's affiliation string ($3) on the authorship at the same
-- position ($2) of arXiv paper $1, when the family names agree ($4: the
-- S2 name's key), with source 's2' (issue 16, item 2).
INSERT INTO authorship_affiliations (paper_id, position, raw, source)
SELECT a.paper_id, a.position, $3, 's2'
  FROM authorships a
  JOIN papers p ON p.id = a.paper_id
 WHERE p.arxiv_id = $1 AND a.position = $2::integer
   AND $4 <> '' AND $3 <> ''
   AND split_part(a.name_key, ' ', -1) = split_part($4, ' ', -1)
    ON CONFLICT DO NOTHING;

-- name: HV_COUNTS
SELECT (SELECT count(*) FROM papers) AS papers,
       (SELECT count(*) FROM authorships) AS authorships,
       (SELECT count(*) FROM researchers) AS researchers,
       (SELECT count(*) FROM institutions) AS institutions,
       (SELECT count(*) FROM stale_pages) AS stale_pages;

-- ------------------------------------------------------- matching
-- match_db.c: researcher matching and its evaluation.

-- name: MATCH_RESEARCHER_IDS
-- Ids for $1 people the matcher will find who have no researcher yet
-- (match_db.c copies their rows with MATCH_COPY_NEW).
SELECT nextval(pg_get_serial_sequence('researchers', 'id')) AS id
  FROM generate_series(1, $1::int);

-- name: MATCH_KEY_COUNTS
-- Every raw name and its authorships: name.c keys them afresh for
-- harvest_name_orient(), so that keys it turned on an earlier run do
-- not sway it.
SELECT raw_name AS raw_name, count(*) AS n
  FROM authorships
 WHERE name_key <> ''
 GROUP BY raw_name;

-- name: MATCH_KEYS_TURN
-- Family-name-first keys written given names first: $1 the old keys,
-- $2 the new ones, in the same order.  Each old key's rows are found
-- through its block (authorships_block, 0058).
UPDATE authorships a
   SET name_key = t.new
  FROM unnest($1::text[], $2::text[]) AS t(old, new)
 WHERE weft_name_block(a.name_key) = weft_name_block(t.old)
   AND a.name_key = t.old;

-- name: MATCH_KEY_COUNTS_DAY
-- The day's pass: the raw names of the authorships it decides
-- (authorships_undecided, 0059).
SELECT raw_name AS raw_name, count(*) AS n
  FROM authorships
 WHERE (match_reason IS NULL OR match_reason = 'name_key'
        OR match_score IS NULL)
   AND name_key <> ''
 GROUP BY raw_name;

-- name: MATCH_KEYS_TURN_DAY
-- The day's pass: those authorships' keys only, each old key's found in
-- its block of authorships_undecided (0059), one probe a key (LATERAL,
-- OFFSET 0).  As a join the planner read every authorship of the key's
-- block through authorships_block and filtered them (the predicate
-- lacked the index's name_key <> ''): 5.1 s for 246 rows on a 1.2 M
-- bench day; warm, for 246 keys, 210 ms against 2 ms for this form.
UPDATE authorships a
   SET name_key = u.new
  FROM (SELECT x.paper_id, x.position, t.new
          FROM unnest($1::text[], $2::text[]) AS t(old, new),
               LATERAL (SELECT b.paper_id, b.position
                          FROM authorships b
                         WHERE weft_name_block(b.name_key)
                               = weft_name_block(t.old)
                           AND b.name_key = t.old AND b.name_key <> ''
                           AND (b.match_reason IS NULL
                                OR b.match_reason = 'name_key'
                                OR b.match_score IS NULL)
                        OFFSET 0) x) u
 WHERE a.paper_id = u.paper_id AND a.position = u.position;

-- name: MATCH_TAKEN
-- How many blocks the match reads (after MATCH_TAKE or MATCH_TAKE_ALL).
SELECT count(*) AS blocks FROM match_dirty WHERE taken;

-- name: MATCH_FULL_DUE
-- Whether more than $1 days passed since the last "match --full"
-- (0059): then the day's pass runs as --full.
SELECT now() - full_at > make_interval(days => $1::integer) AS due,
       to_char(full_at, 'YYYY-MM-DD') AS full_at
  FROM match_state;

-- name: MATCH_EVAL_GROUPS
-- Same-name groups (one name key) and how many researchers each became;
-- researchers whose papers carry more than one name form.
WITH g AS (SELECT name_key, count(DISTINCT researcher_id) AS n
             FROM authorships
            WHERE name_key <> '' AND researcher_id IS NOT NULL
            GROUP BY name_key)
SELECT (SELECT count(*) FROM g) AS groups,
       (SELECT count(*) FROM g WHERE n > 1) AS groups_split,
       (SELECT coalesce(sum(n), 0) FROM g WHERE n > 1) AS split_into,
       (SELECT count(*)
          FROM (SELECT researcher_id
                  FROM authorships
                 WHERE researcher_id IS NOT NULL
                 GROUP BY researcher_id
                HAVING count(DISTINCT name_key) > 1) v) AS name_forms,
       (SELECT count(*) FROM researchers) AS researchers,
       (SELECT count(*) FROM authorships WHERE researcher_id IS NULL)
           AS unmatched;

-- name: MATCH_EVAL_REASONS
SELECT coalesce(match_reason, '(none)') AS reason, count(*) AS n,
       round(avg(match_score)::numeric, 3) AS mean_score
  FROM authorships
 GROUP BY 1
 ORDER BY 2 DESC;

-- ------------------------------------------------------------ analyse
-- weft-harvest analyse (analyse.c, 0025): what is left, in id order
-- from $1, $2 at a time.  $3: also the papers that failed before;
-- $4: also those analysed extractively (a language model redoes them);
-- $5: only these arXiv ids (NULL: all).
-- name: ANALYSE_TODO
SELECT id, arxiv_id, title, abstract, primary_category
  FROM papers
 WHERE id > $1::bigint
   AND ($5::text[] IS NULL OR arxiv_id = ANY ($5::text[]))
   AND (analysed_at IS NULL
        OR ($4::boolean AND analysis_model = 'extractive-1'))
   AND ($3::boolean OR analysis_error IS NULL)
 ORDER BY id
 LIMIT $2::integer;

-- The same papers counted (the progress line's total).
-- name: ANALYSE_LEFT
SELECT count(*) AS n
  FROM papers
 WHERE ($3::text[] IS NULL OR arxiv_id = ANY ($3::text[]))
   AND (analysed_at IS NULL
        OR ($2::boolean AND analysis_model = 'extractive-1'))
   AND ($1::boolean OR analysis_error IS NULL);

-- A batch's analyses in one statement: $1 is a json array of {id,
-- model, summary, topics (array), paper_type, research_field, novelty,
-- significance_score, significance_rationale} (one round trip a batch:
-- one per paper made the bundled run four times slower on a busy
-- machine).  modified_at stays: the analysis is derived, not a change of
-- the paper (the semantic index's fingerprint reads modified_at).
-- name: ANALYSE_SAVE
UPDATE papers p
   SET analysed_at = now(), analysis_model = r.model, summary = r.summary,
       topics = ARRAY(SELECT json_array_elements_text(r.topics)),
       paper_type = r.paper_type, research_field = r.research_field,
       novelty = r.novelty, significance_score = r.significance_score,
       significance_rationale = r.significance_rationale,
       analysis_error = NULL, analysis_tries = p.analysis_tries + 1
  FROM json_to_recordset($1::json) AS r(id bigint, model text,
           summary text, topics json, paper_type text, research_field text,
           novelty text, significance_score smallint,
           significance_rationale text)
 WHERE p.id = r.id;

-- A paper the model could not analyse: kept NULL, the reason and the
-- requests made ($3) recorded.
-- name: ANALYSE_FAIL
UPDATE papers
   SET analysis_error = $2, analysis_tries = analysis_tries + $3::smallint
 WHERE id = $1::bigint;

-- --redo: every analysis (of the arXiv ids $2, NULL: all; of model $1,
-- NULL: any) is done again.
-- name: ANALYSE_RESET
UPDATE papers
   SET analysed_at = NULL, analysis_error = NULL, analysis_tries = 0
 WHERE ($1::text IS NULL OR analysis_model = $1::text)
   AND ($2::text[] IS NULL OR arxiv_id = ANY ($2::text[]))
   AND (analysed_at IS NOT NULL OR analysis_error IS NOT NULL);

-- --eval: the labelled papers.
-- name: ANALYSE_EVAL
SELECT arxiv_id, title, abstract, primary_category
  FROM papers
 WHERE arxiv_id = ANY ($1::text[]);

-- The semantic index whose vocabulary weighs key phrases.
-- name: ANALYSE_INDEX
SELECT path
  FROM vector_index
 ORDER BY version DESC
 LIMIT 1;

-- Before an incremental refresh, a day's match or an arXiv harvest's
-- first papers (after.c, match_db.c, fetch.c; $1 'refresh', 'match' or
-- 'harvest'): the relations it reads at random read in order into the
-- kernel's cache first, within a share of effective_cache_size (0096:
-- 10.3-12.7 s, then the refresh 52.0-57.6 s instead of 102.2-109.9 s,
-- cold at 1.2 M papers; 0097, 0098).  Answers what it read.
-- name: PREWARM
SELECT weft_prewarm($1) AS what;

-- The derived tables brought up to date (after.c, 0036), the sitemap's
-- blocks (0045) and the researchers' figures here (0046) after them:
-- from what the writers noted since the last refresh, or everything
-- when $1.  Answers what it did ("incremental: N researchers on M
-- changed papers, K sitemap blocks, L figures"); BESIDE_REFRESH runs
-- meanwhile on a second connection (after.c).  weft_derived_refresh
-- runs first (the subquery's row comes before the outer list is
-- computed): it gives new researchers the stats row weft_here_refresh
-- fills.
-- name: DERIVED_REFRESH
SELECT d.what
       || format(', %s sitemap blocks', weft_sitemap_refresh($1::boolean))
       || format(', %s figures', weft_here_refresh($1::boolean))
       AS what
  FROM (SELECT weft_derived_refresh($1::boolean) AS what OFFSET 0) d;

-- The papers' cards, the search terms (0076) and the name words (0075)
-- from their notes, or every row when $1: sent on a connection of its
-- own, beside DERIVED_REFRESH (after.c), which writes other tables.
-- Answers what it did ("N lexemes moved, M cards, K name word rows").
-- name: BESIDE_REFRESH
SELECT weft_beside_refresh($1::boolean) AS what;

-- The search windows to build again (0048, 0053): name, bound (the
-- first date, or the fewest citations), what (that in words),
-- index_name, pre (drops an invalid leftover, or NULL) and ddl, run by
-- after.c outside a transaction (CONCURRENTLY), then SEARCH_WINDOW_SET.
-- name: SEARCH_WINDOWS_DUE
SELECT name, bound, what, index_name, pre, ddl
  FROM weft_search_windows_due();

-- Window $1 reads index $3 of the papers from bound $2 from now on;
-- drop is the statement that drops the index it replaced (NULL: none).
-- name: SEARCH_WINDOW_SET
SELECT weft_search_window_set($1, $2::text, $3) AS drop;

-- ------------------------------------------------------------ scripts

-- name: MIGRATIONS_ENSURE
CREATE TABLE IF NOT EXISTS schema_migrations (
	version         integer PRIMARY KEY,
	name            text NOT NULL,
	applied_at      timestamptz NOT NULL DEFAULT now()
);

-- name: STAGE_CREATE
-- Staging tables live for the session and empty themselves at each
-- commit, so every batch starts from nothing.  "line" is the input line,
-- so that the last of two lines with the same key wins.
CREATE TEMP TABLE stage_papers (
	line            bigint NOT NULL,
	arxiv_id        text NOT NULL,
	title           text NOT NULL,
	abstract        text NOT NULL,
	comment         text,
	categories      jsonb NOT NULL,
	primary_category text NOT NULL,
	published       date,
	updated         date,
	versions        jsonb NOT NULL,
	doi             text,
	journal_ref     text,
	license         text,
	slug            text NOT NULL,
	source          text NOT NULL,
	author_count    integer NOT NULL,
	fully_matched   boolean NOT NULL,
	class_codes     jsonb
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE stage_authors (
	line            bigint NOT NULL,
	arxiv_id        text NOT NULL,
	position        integer NOT NULL,
	raw_name        text NOT NULL,
	name_key        text NOT NULL,
	slug            text NOT NULL
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE stage_affils (
	line            bigint NOT NULL,
	position        integer NOT NULL,
	raw             text NOT NULL
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE stage_winners (
	line            bigint PRIMARY KEY,
	arxiv_id        text NOT NULL UNIQUE,
	paper_id        bigint
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE stage_keys (
	name_key        text PRIMARY KEY,
	researcher_id   bigint,
	made            boolean NOT NULL DEFAULT false
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE stage_institutions (
	line            bigint NOT NULL,
	ror_id          text,
	openalex_id     text,
	name            text NOT NULL,
	slug            text NOT NULL,
	aliases         jsonb NOT NULL,
	country_code    text,
	country_name    text,
	type            text,
	status          text,
	website         text,
	established     integer,
	relationships   jsonb
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE stage_oa_authors (
	line            bigint NOT NULL,
	openalex_id     text NOT NULL,
	name            text NOT NULL,
	name_key        text NOT NULL,
	slug            text NOT NULL,
	orcid           text,
	h_index         integer,
	citations       bigint,
	works_count     integer
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE stage_oa_affils (
	author_id       text NOT NULL,          -- OpenAlex "A..."
	ror_id          text,
	openalex_id     text,
	name            text NOT NULL,
	slug            text NOT NULL,
	country_code    text,
	type            text,
	last_known      boolean NOT NULL,
	first_year      integer,
	last_year       integer
) ON COMMIT DELETE ROWS;

-- name: COPY_PAPERS
COPY stage_papers (line, arxiv_id, title, abstract, comment, categories,
    primary_category, published, updated, versions, doi, journal_ref,
    license, slug, source, author_count, fully_matched, class_codes)
FROM STDIN;

-- name: COPY_AUTHORS
COPY stage_authors (line, arxiv_id, position, raw_name, name_key, slug)
FROM STDIN;

-- name: COPY_AFFILS
COPY stage_affils (line, position, raw) FROM STDIN;

-- name: MERGE_AFFILS
-- After MERGE_AUTHORSHIPS: the raw affiliation strings of the batch's
-- authorships.  A paper whose new record names affiliations gets exactly
-- those; one whose record names none (a listing, oai_dc) keeps what a
-- richer source gave it.
DELETE FROM authorship_affiliations f
 USING stage_winners w
 WHERE f.paper_id = w.paper_id
   AND f.source = 'arxiv'
   AND EXISTS (SELECT 1 FROM stage_affils s WHERE s.line = w.line)
   AND NOT EXISTS (SELECT 1 FROM stage_affils s
                    WHERE s.line = w.line AND s.position = f.position
                      AND s.raw = f.raw);
INSERT INTO authorship_affiliations (paper_id, position, raw, source)
SELECT DISTINCT w.paper_id, s.position, s.raw, 'arxiv'
  FROM stage_affils s
  JOIN stage_winners w ON w.line = s.line
  JOIN authorships a ON a.paper_id = w.paper_id AND a.position = s.position
    ON CONFLICT DO NOTHING;

-- name: COPY_INSTITUTIONS
COPY stage_institutions (line, ror_id, openalex_id, name, slug, aliases,
    country_code, country_name, type, status, website, established,
    relationships)
FROM STDIN;

-- name: COPY_OA_AUTHORS
COPY stage_oa_authors (line, openalex_id, name, name_key, slug, orcid,
    h_index, citations, works_count) FROM STDIN;

-- name: COPY_OA_AFFILS
COPY stage_oa_affils (author_id, ror_id, openalex_id, name, slug,
    country_code, type, last_known, first_year, last_year) FROM STDIN;

-- name: MERGE_PAPERS
-- The batch's search words gather in the GIN indexes' pending lists up
-- to 64 MB (4 MB by default: a merge into the indexes every few hundred
-- papers, inside the inserts; the words of 5,000 papers take about
-- 20 MB), and MERGE_SEARCH_WORDS merges them every harvest_merge_every
-- papers and at the end of a run (merge.c).
SET LOCAL gin_pending_list_limit = '64MB';
-- Temporary tables are never auto-analysed: without statistics the
-- planner takes thousands of staged rows for a handful and loops over
-- them.  Only the join columns, so that abstracts are not sampled.
ANALYZE stage_papers (line, arxiv_id), stage_authors;
-- The last line of an id wins within a batch (ON CONFLICT may not touch
-- a row twice in one statement).
INSERT INTO stage_winners (line, arxiv_id)
SELECT DISTINCT ON (arxiv_id) line, arxiv_id
  FROM stage_papers
 ORDER BY arxiv_id, line DESC;
-- A snapshot never erases what a richer source (the API, OAI-PMH) wrote:
-- DOI, journal ref, licence and version history are only overwritten by
-- values, never by NULL, and a version list only grows (a shorter one,
-- such as the OAI arXiv format's [v1], never replaces a longer one;
-- one as long without arXivRaw's sizes never replaces one with them).
-- oai_dc has no category codes, only the record's sets ("cs", or
-- "unknown" without one): it never replaces an existing paper's
-- categories (issue 16: math.CO must not become math).
-- A new paper gets its counts now (as RECOMPUTE would give them) so
-- that the first load writes each row once; an existing one keeps them
-- for RECOMPUTE.  Likewise its search vector, with the authors
-- MERGE_AUTHORSHIPS is about to write (0044: their trigger then leaves
-- it); an existing paper's is rebuilt by the triggers.
INSERT INTO papers AS p (arxiv_id, title, abstract, comment, categories,
    primary_category, published, updated, versions, doi, journal_ref,
    license, slug, source, author_count, fully_matched, class_codes,
    search_vector, search_authors)
SELECT s.arxiv_id, s.title, s.abstract, s.comment,
       ARRAY(SELECT jsonb_array_elements_text(s.categories)),
       s.primary_category, s.published, s.updated, s.versions, s.doi,
       s.journal_ref, s.license, s.slug, s.source, s.author_count,
       s.fully_matched,
       ARRAY(SELECT jsonb_array_elements_text(
                        coalesce(s.class_codes, '[]'))),
       CASE WHEN n.new THEN weft_paper_vector(s.title, au.names,
                                              s.abstract) END,
       CASE WHEN n.new THEN weft_authors_key(au.names) END
  FROM stage_papers s
  JOIN stage_winners w ON w.line = s.line
  LEFT JOIN (SELECT line, string_agg(raw_name, ' ' ORDER BY position)
                 AS names
               FROM stage_authors
              GROUP BY line) au ON au.line = s.line
 CROSS JOIN LATERAL (SELECT NOT EXISTS (SELECT 1 FROM papers o
                                         WHERE o.arxiv_id = s.arxiv_id)
                         AS new) n
    ON CONFLICT (arxiv_id) DO UPDATE
   SET title = excluded.title,
       abstract = excluded.abstract,
       comment = excluded.comment,
       categories = CASE WHEN excluded.source IN ('arxiv-oai-dc',
                                                  'openalex')
                         THEN p.categories ELSE excluded.categories END,
       primary_category = CASE WHEN excluded.source IN ('arxiv-oai-dc',
                                                        'openalex')
                               THEN p.primary_category
                               ELSE excluded.primary_category END,
       published = coalesce(excluded.published, p.published),
       updated = coalesce(excluded.updated, p.updated),
       versions = CASE WHEN jsonb_array_length(excluded.versions) <
                            jsonb_array_length(p.versions)
                         OR (jsonb_array_length(excluded.versions) =
                             jsonb_array_length(p.versions)
                             AND ((excluded.versions -> -1 ->> 'version')::int
                               < (p.versions -> -1 ->> 'version')::int
                               OR (p.versions -> -1 ? 'size'
                                   AND NOT excluded.versions -> -1 ? 'size')))
                       THEN p.versions ELSE excluded.versions END,
       doi = coalesce(excluded.doi, p.doi),
       journal_ref = coalesce(excluded.journal_ref, p.journal_ref),
       license = coalesce(excluded.license, p.license),
       slug = excluded.slug,
       class_codes = CASE WHEN excluded.class_codes = '{}'
                          THEN p.class_codes ELSE excluded.class_codes END,
       modified_at = now()
 WHERE (p.title, p.abstract, p.comment, p.categories, p.primary_category,
        p.published, p.updated, p.versions, p.doi, p.journal_ref,
        p.license, p.slug, p.class_codes)
       IS DISTINCT FROM
       (excluded.title, excluded.abstract, excluded.comment,
        CASE WHEN excluded.source IN ('arxiv-oai-dc', 'openalex')
             THEN p.categories ELSE excluded.categories END,
        CASE WHEN excluded.source IN ('arxiv-oai-dc', 'openalex')
             THEN p.primary_category ELSE excluded.primary_category END,
        coalesce(excluded.published, p.published),
        coalesce(excluded.updated, p.updated),
        CASE WHEN jsonb_array_length(excluded.versions) <
                  jsonb_array_length(p.versions)
               OR (jsonb_array_length(excluded.versions) =
                   jsonb_array_length(p.versions)
                   AND ((excluded.versions -> -1 ->> 'version')::int
                     < (p.versions -> -1 ->> 'version')::int
                     OR (p.versions -> -1 ? 'size'
                         AND NOT excluded.versions -> -1 ? 'size')))
             THEN p.versions ELSE excluded.versions END,
        coalesce(excluded.doi, p.doi),
        coalesce(excluded.journal_ref, p.journal_ref),
        coalesce(excluded.license, p.license), excluded.slug,
        CASE WHEN excluded.class_codes = '{}'
             THEN p.class_codes ELSE excluded.class_codes END);
UPDATE stage_winners w
   SET paper_id = p.id
  FROM papers p
 WHERE p.arxiv_id = w.arxiv_id;
ANALYZE stage_winners;

-- name: MERGE_AUTHORSHIPS
-- After MERGE_PAPERS, in the same transaction (one script would pass the
-- 4095 bytes a C string literal may portably have).
--
-- One researcher per normalised name, for authorships nobody matched
-- yet: first the keys this batch needs (a position that is new, renamed
-- or unmatched), then the name-only researcher of each key (no external
-- id: the harvester's real matching decides about the others), created
-- when missing, so that each authorship is written once, with its match.
INSERT INTO stage_keys (name_key)
SELECT DISTINCT s.name_key
  FROM stage_authors s
  JOIN stage_winners w ON w.line = s.line
 WHERE s.name_key <> ''
   AND NOT EXISTS (SELECT 1 FROM authorships a
                    WHERE a.paper_id = w.paper_id
                      AND a.position = s.position
                      AND a.raw_name = s.raw_name
                      AND a.researcher_id IS NOT NULL);
ANALYZE stage_keys;
UPDATE stage_keys k
   SET researcher_id = r.id
  FROM (SELECT name_key, min(id) AS id
          FROM researchers
         WHERE name_key IN (SELECT name_key FROM stage_keys)
           AND openalex_id IS NULL AND s2_id IS NULL AND orcid IS NULL
         GROUP BY name_key) r
 WHERE k.name_key = r.name_key;
-- The name is the first spelling met; the counts are this batch's, so
-- that RECOMPUTE only rewrites researchers whose papers span batches.
WITH made AS (
	INSERT INTO researchers (name, name_key, slug, paper_count,
	    latest_paper)
	SELECT (array_agg(s.raw_name ORDER BY s.line, s.position))[1],
	       s.name_key, (array_agg(s.slug ORDER BY s.line, s.position))[1],
	       count(DISTINCT p.id), max(p.published)
	  FROM stage_keys k
	  JOIN stage_authors s ON s.name_key = k.name_key
	  JOIN stage_winners w ON w.line = s.line
	  JOIN papers p ON p.id = w.paper_id
	 WHERE k.researcher_id IS NULL
	 GROUP BY s.name_key
	RETURNING id, name_key)
UPDATE stage_keys k
   SET researcher_id = made.id, made = true
  FROM made
 WHERE k.name_key = made.name_key;
-- A changed name at a position drops that position's old match: it may
-- be another person now.  A match made elsewhere is kept.
INSERT INTO authorships AS a (paper_id, position, raw_name, researcher_id,
    match_reason, name_key)
SELECT w.paper_id, s.position, s.raw_name, k.researcher_id,
       CASE WHEN k.researcher_id IS NOT NULL THEN 'name_key' END,
       s.name_key
  FROM stage_authors s
  JOIN stage_winners w ON w.line = s.line
  LEFT JOIN stage_keys k ON k.name_key = s.name_key
    ON CONFLICT (paper_id, position) DO UPDATE
   SET raw_name = excluded.raw_name,
       researcher_id = excluded.researcher_id,
       match_reason = excluded.match_reason,
       match_score = NULL,
       name_key = excluded.name_key
 WHERE a.raw_name IS DISTINCT FROM excluded.raw_name
    OR (a.researcher_id IS NULL AND excluded.researcher_id IS NOT NULL);
-- Positions beyond the new author list are gone.
DELETE FROM authorships a
 USING (SELECT w.paper_id, count(*) AS n
          FROM stage_winners w
          JOIN stage_authors s ON s.line = w.line
         GROUP BY w.paper_id) c
 WHERE a.paper_id = c.paper_id
   AND a.position > c.n;

-- name: MERGE_SEARCH_WORDS
-- The search words that wait in the pending lists of every GIN index of
-- papers, merged into the indexes (merge.c: every harvest_merge_every
-- papers a harvest or a load commits, on a connection of its own while
-- the run writes on, and at its end).  A merge's cost is mostly per
-- word, not per paper: on the 1.18 M bench cluster papers_search took
-- 0.85-1.5 s to merge the words of 1,000 papers, 2.0 s for 5,000 and
-- 2.5 s for 20,000; a search for two common words read a pending list
-- of 5,000 papers in 11 ms, of 20,000 in 95 ms (tests/bench/README.md).
-- The windows' indexes change names (0048), so they are found in the
-- catalogue, with the date windows' of their own tables (0087, 0088).
SELECT sum(gin_clean_pending_list(i.indexrelid))
  FROM pg_index i
  JOIN pg_class c ON c.oid = i.indexrelid
  JOIN pg_am a ON a.oid = c.relam
 WHERE i.indrelid IN ('papers'::regclass, 'search_near'::regclass,
                      'search_far'::regclass)
   AND a.amname = 'gin';

-- name: HV_MARK_MADE
-- After MERGE_AUTHORSHIPS in a harvester's batch (fetch.c; a first load
-- does not mark its rows): the researchers it made, marked stale
-- (STALE_RESEARCHERS_WRITTEN; HV_MARK_STALE does not find them).
WITH w AS (SELECT researcher_id AS id FROM stage_keys WHERE made)
{{STALE_RESEARCHERS_WRITTEN}};

-- name: MERGE_ROR
-- ROR is the authority for what it describes; openalex_id is not its
-- business and stays as the OpenAlex load left it.
ANALYZE stage_institutions (line, ror_id, openalex_id);
INSERT INTO institutions AS i (ror_id, name, slug, aliases, country_code,
    country_name, type, status, website, established, relationships)
SELECT DISTINCT ON (s.ror_id) s.ror_id, s.name, s.slug,
       ARRAY(SELECT jsonb_array_elements_text(s.aliases)),
       s.country_code, s.country_name, s.type, s.status, s.website,
       s.established, coalesce(s.relationships, '[]')
  FROM stage_institutions s
 ORDER BY s.ror_id, s.line DESC
    ON CONFLICT (ror_id) DO UPDATE
   SET name = excluded.name,
       slug = excluded.slug,
       aliases = excluded.aliases,
       country_code = excluded.country_code,
       country_name = excluded.country_name,
       type = excluded.type,
       status = excluded.status,
       website = excluded.website,
       established = excluded.established,
       relationships = excluded.relationships,
       modified_at = now()
 WHERE (i.name, i.slug, i.aliases, i.country_code, i.country_name, i.type,
        i.status, i.website, i.established, i.relationships)
       IS DISTINCT FROM
       (excluded.name, excluded.slug, excluded.aliases,
        excluded.country_code, excluded.country_name, excluded.type,
        excluded.status, excluded.website, excluded.established,
        excluded.relationships);

-- name: MERGE_OA_INSTITUTIONS
-- An OpenAlex institution names its ROR id: fill openalex_id there.
-- One that ROR's dump lacks becomes an institution of its own.
UPDATE institutions i
   SET openalex_id = s.openalex_id,
       modified_at = now()
  FROM (SELECT DISTINCT ON (ror_id) ror_id, openalex_id
          FROM stage_institutions
         WHERE ror_id IS NOT NULL
         ORDER BY ror_id, line DESC) s
 WHERE i.ror_id = s.ror_id
   AND i.openalex_id IS DISTINCT FROM s.openalex_id
   AND NOT EXISTS (SELECT 1 FROM institutions j
                    WHERE j.openalex_id = s.openalex_id);
INSERT INTO institutions (ror_id, openalex_id, name, slug, aliases,
    country_code, country_name, type, status, website, established)
SELECT DISTINCT ON (s.openalex_id) s.ror_id, s.openalex_id, s.name, s.slug,
       ARRAY(SELECT jsonb_array_elements_text(s.aliases)),
       s.country_code, s.country_name, s.type, s.status, s.website,
       s.established
  FROM stage_institutions s
 WHERE NOT EXISTS (SELECT 1 FROM institutions i
                    WHERE i.ror_id = s.ror_id
                       OR i.openalex_id = s.openalex_id)
 ORDER BY s.openalex_id, s.line DESC
    ON CONFLICT DO NOTHING;

-- name: MERGE_OA_AUTHORS
-- An ORCID already held by another researcher is left off rather than
-- failing the batch on the unique constraint.  It marks the pages of
-- what it writes itself (STALE_RESEARCHERS_WRITTEN; HV_MARK_STALE does
-- not find them).
WITH w AS (
	INSERT INTO researchers AS r (name, name_key, slug, openalex_id, orcid,
	    h_index, citations, works_count, metrics_source, metrics_at)
	SELECT DISTINCT ON (s.openalex_id) s.name, s.name_key, s.slug,
	       s.openalex_id,
	       CASE WHEN EXISTS (SELECT 1 FROM researchers o
	                          WHERE o.orcid = s.orcid
	                            AND o.openalex_id
	                                IS DISTINCT FROM s.openalex_id)
	            THEN NULL ELSE s.orcid END,
	       s.h_index, s.citations, s.works_count, 'openalex', now()
	  FROM stage_oa_authors s
	 ORDER BY s.openalex_id, s.line DESC
	    ON CONFLICT (openalex_id) DO UPDATE
	   SET name = excluded.name,
	       name_key = excluded.name_key,
	       slug = excluded.slug,
	       orcid = coalesce(excluded.orcid, r.orcid),
	       h_index = excluded.h_index,
	       citations = excluded.citations,
	       works_count = excluded.works_count,
	       metrics_source = excluded.metrics_source,
	       metrics_at = excluded.metrics_at,
	       modified_at = now()
	 WHERE (r.name, r.name_key, r.slug, r.orcid, r.h_index, r.citations,
	        r.works_count, r.metrics_source)
	       IS DISTINCT FROM
	       (excluded.name, excluded.name_key, excluded.slug,
	        coalesce(excluded.orcid, r.orcid), excluded.h_index,
	        excluded.citations, excluded.works_count, excluded.metrics_source)
	RETURNING r.id)
{{STALE_RESEARCHERS_WRITTEN}};

-- name: MERGE_OA_AFFILS
-- After MERGE_OA_AUTHORS, in the same transaction.
-- Institutions the ROR dump lacks, from what the author record says.
INSERT INTO institutions (ror_id, openalex_id, name, slug, country_code,
    type)
SELECT DISTINCT ON (coalesce(s.ror_id, s.openalex_id))
       s.ror_id, s.openalex_id, s.name, s.slug, s.country_code, s.type
  FROM stage_oa_affils s
 WHERE NOT EXISTS (SELECT 1 FROM institutions i
                    WHERE i.ror_id = s.ror_id
                       OR (s.ror_id IS NULL
                           AND i.openalex_id = s.openalex_id))
 ORDER BY coalesce(s.ror_id, s.openalex_id)
    ON CONFLICT DO NOTHING;
UPDATE institutions i
   SET openalex_id = s.openalex_id,
       modified_at = now()
  FROM (SELECT DISTINCT ON (ror_id) ror_id, openalex_id
          FROM stage_oa_affils
         WHERE ror_id IS NOT NULL AND openalex_id IS NOT NULL
         ORDER BY ror_id) s
 WHERE i.ror_id = s.ror_id
   AND i.openalex_id IS NULL
   AND NOT EXISTS (SELECT 1 FROM institutions j
                    WHERE j.openalex_id = s.openalex_id);
-- The author's OpenAlex links are replaced by what the record says now.
DELETE FROM researcher_institutions ri
 USING researchers r
 WHERE ri.researcher_id = r.id
   AND ri.source = 'openalex'
   AND r.openalex_id IN (SELECT openalex_id FROM stage_oa_authors)
   AND NOT EXISTS (SELECT 1 FROM stage_oa_affils s
                     JOIN institutions i
                       ON i.id = coalesce(
                              (SELECT id FROM institutions
                                WHERE ror_id = s.ror_id),
                              (SELECT id FROM institutions
                                WHERE openalex_id = s.openalex_id))
                    WHERE s.author_id = r.openalex_id
                      AND i.id = ri.institution_id);
INSERT INTO researcher_institutions AS ri (researcher_id, institution_id,
    source, last_known, first_year, last_year)
SELECT DISTINCT ON (r.id, i.id) r.id, i.id, 'openalex', s.last_known,
       s.first_year, s.last_year
  FROM stage_oa_affils s
  JOIN researchers r ON r.openalex_id = s.author_id
  JOIN institutions i
    ON i.id = coalesce((SELECT id FROM institutions WHERE ror_id = s.ror_id),
                       (SELECT id FROM institutions
                         WHERE openalex_id = s.openalex_id))
 ORDER BY r.id, i.id, s.last_known DESC
    ON CONFLICT (researcher_id, institution_id, source) DO UPDATE
   SET last_known = excluded.last_known,
       first_year = excluded.first_year,
       last_year = excluded.last_year
 WHERE (ri.source, ri.last_known, ri.first_year, ri.last_year)
       IS DISTINCT FROM
       (excluded.source, excluded.last_known, excluded.first_year,
        excluded.last_year);

-- fragment: COUNTS_OF_TOUCHED
-- The derived counts of the papers and researchers in match_touched,
-- written only where they change (RECOMPUTE, MATCH_RECOMPUTE_TAKEN,
-- MATCH_RECOMPUTE_DAY).
-- fully_matched means every author position has a researcher (and there
-- is at least one).  Each institution's researchers are counted whole:
-- links move with affiliations, not with name blocks.  A researcher's
-- latest paper is read from the authorships' copy of the paper's date
-- (0011 keeps it), not from papers, the widest table: 4.0-4.9 s ->
-- 2.4-3.7 s for the 96,079 researchers of a day at 1.3 M papers.  The
-- touched ids are counted from the authorships alone, in id order, and
-- joined with researchers once, for the update: filtered from
-- researchers first, the planner read all of it, and sorted the
-- 1.3 M authorships of a day's 95,000 researchers on disk to group them
-- (6.9-9.5 s to read at 1.68 M papers; 1.8 s as it is now, the
-- authorships read from authorships_researcher_newest alone).  The
-- papers are counted one by one (LATERAL: an aggregate per paper, by
-- the authorships' key) and looked up by id: grouped from a join of
-- papers, the planner put the day's 20,000 papers at 82,000 and read
-- every page of papers to update none (3.0 s at 200,000 papers,
-- 203,172 pages; 0.8 s as it is now).  Then the notes of the blocks
-- this match read (0058) go, in the same transaction.
UPDATE papers p
   SET author_count = s.n,
       fully_matched = s.fm,
       modified_at = now()
  FROM (SELECT t.id, c.n, c.fm
          FROM (SELECT DISTINCT paper_id AS id FROM match_touched
                 WHERE paper_id IS NOT NULL) t,
               LATERAL (SELECT count(a.position) AS n,
                               count(a.position) > 0
                               AND count(a.researcher_id) = count(a.position)
                               AS fm
                          FROM authorships a
                         WHERE a.paper_id = t.id) c) s
 WHERE p.id = s.id
   AND (p.author_count, p.fully_matched) IS DISTINCT FROM (s.n, s.fm);
UPDATE researchers r
   SET paper_count = s.n,
       latest_paper = s.latest,
       modified_at = now()
  FROM (SELECT t.id, count(DISTINCT a.paper_id) AS n,
               max(a.published) AS latest
          FROM (SELECT DISTINCT researcher_id AS id FROM match_touched
                 WHERE researcher_id IS NOT NULL) t
          LEFT JOIN authorships a ON a.researcher_id = t.id
         GROUP BY t.id) s
 WHERE r.id = s.id
   AND (r.paper_count, r.latest_paper) IS DISTINCT FROM (s.n, s.latest);
UPDATE institutions i
   SET researcher_count = s.n,
       modified_at = now()
  FROM (SELECT q.id, count(DISTINCT ri.researcher_id) AS n
          FROM institutions q
          LEFT JOIN researcher_institutions ri ON ri.institution_id = q.id
         GROUP BY q.id) s
 WHERE i.id = s.id
   AND i.researcher_count IS DISTINCT FROM s.n;
DELETE FROM match_dirty WHERE taken;
UPDATE match_state
   SET researchers_upto = (SELECT coalesce(max(id), 0) FROM researchers);

-- name: RECOMPUTE
-- After "match --full": the counts of every paper and researcher, and
-- when it ran.
CREATE TEMP TABLE match_touched ON COMMIT DROP AS
SELECT id AS paper_id, NULL::bigint AS researcher_id FROM papers
 UNION ALL
SELECT NULL, id FROM researchers;
ANALYZE match_touched;
{{COUNTS_OF_TOUCHED}}
UPDATE match_state SET full_at = now();

-- name: MATCH_KEYS_TODO
-- Authorships from before 0006_match.sql: their name keys are computed
-- by name.c (read on the writer, before the matcher's snapshot).
SELECT paper_id, position, raw_name
  FROM authorships
 WHERE name_key IS NULL;

-- name: MATCH_STAGE_CREATE
CREATE TEMP TABLE IF NOT EXISTS stage_match_keys (
	paper_id        bigint NOT NULL,
	position        integer NOT NULL,
	name_key        text NOT NULL
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS stage_match (
	paper_id        bigint NOT NULL,
	position        integer NOT NULL,
	researcher_id   bigint,
	old_researcher_id bigint,
	reason          text,
	score           real
) ON COMMIT DELETE ROWS;
-- Researchers kept and named by the most complete form their papers now
-- give (MATCH_APPLY); n numbers them in the order copied, which is the
-- order the matcher decided them.
CREATE TEMP TABLE IF NOT EXISTS stage_match_renames (
	n               bigserial,
	id              bigint NOT NULL,
	name            text NOT NULL,
	name_key        text NOT NULL,
	slug            text NOT NULL
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS stage_match_gone (
	old_id          bigint NOT NULL,
	successor       bigint NOT NULL
) ON COMMIT DELETE ROWS;
-- Researchers kept as evidence whose authorships of a block go to
-- another (MATCH_APPLY moves them), and the evidence of the researchers
-- whose block changed (0064).
CREATE TEMP TABLE IF NOT EXISTS stage_match_moves (
	old_id          bigint NOT NULL,
	block           text NOT NULL,
	researcher_id   bigint NOT NULL
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS stage_match_evidence (LIKE match_evidence)
	ON COMMIT DELETE ROWS;
-- What this match's batches wrote (MATCH_APPLY), for the day's counts.
CREATE TEMP TABLE IF NOT EXISTS match_moved (
	paper_id        bigint NOT NULL,
	researcher_id   bigint,
	old_researcher_id bigint
);
TRUNCATE match_moved;

-- name: MATCH_COPY_KEYS
COPY stage_match_keys (paper_id, position, name_key) FROM STDIN;

-- name: MATCH_COPY
COPY stage_match (paper_id, position, researcher_id, old_researcher_id,
    reason, score) FROM STDIN;

-- name: MATCH_COPY_NEW
COPY researchers (id, name, name_key, slug) FROM STDIN;

-- name: MATCH_COPY_RENAMES
COPY stage_match_renames (id, name, name_key, slug) FROM STDIN;

-- name: MATCH_COPY_GONE
COPY stage_match_gone (old_id, successor) FROM STDIN;

-- name: MATCH_COPY_MOVES
COPY stage_match_moves (old_id, block, researcher_id) FROM STDIN;

-- name: MATCH_COPY_EVIDENCE
COPY stage_match_evidence (researcher_id, block, form_keys, form_raws,
    form_counts, form_dates, coauthors, fields, ext_reason) FROM STDIN;

-- name: MATCH_EVIDENCE_DROP_TAKEN
-- "match --blocks": the taken blocks are decided whole, their evidence
-- (0064) goes first; the match writes it again, block by block.
DELETE FROM match_evidence e
 USING match_dirty d
 WHERE d.taken AND e.block = d.block;

-- name: MATCH_EVIDENCE_DROP_ALL
-- "match --full": every block is decided whole.
TRUNCATE match_evidence;

-- name: MATCH_KEYS_APPLY
UPDATE authorships a
   SET name_key = k.name_key
  FROM stage_match_keys k
 WHERE a.paper_id = k.paper_id AND a.position = k.position
   AND a.name_key IS DISTINCT FROM k.name_key;

-- name: MATCH_TAKE
-- Before the reader's snapshot: the blocks noted since the last match
-- (0058) are taken; a note written from now on is not, and stays for
-- the next match.  Statistics, so that the reader's plan knows how many.
UPDATE match_dirty SET taken = true WHERE NOT taken;
ANALYZE match_dirty;

-- name: MATCH_TAKE_ALL
-- "match --full": every block taken.
INSERT INTO match_dirty (block, taken)
SELECT DISTINCT weft_name_block(name_key), true
  FROM authorships
 WHERE name_key <> ''
    ON CONFLICT (block) DO UPDATE SET taken = true;
ANALYZE match_dirty;

-- One authorship for the matcher (MATCH_DECLARE, MATCH_DAY_ROWS), from
-- todo a (its block, the authorship's columns and settled: the day's
-- pass keeps its researcher), its paper p, pk (the paper's authors) and
-- its researcher r.  An authorship that an external id placed
-- (match_reason says which) brings that id.
-- fragment: MATCH_ROW_COLUMNS
a.block,
       a.paper_id, a.position, a.raw_name, a.name_key,
       coalesce(a.researcher_id, 0) AS researcher_id,
       CASE WHEN a.match_reason IN ('openalex', 'openalex_id')
                 AND r.openalex_id IS NOT NULL
            THEN 'openalex:' || r.openalex_id
            WHEN a.match_reason = 'orcid' AND r.orcid IS NOT NULL
            THEN 'orcid:' || r.orcid
            WHEN a.match_reason IN ('s2', 's2_id') AND r.s2_id IS NOT NULL
            THEN 's2:' || r.s2_id END AS ext_id,
       (r.openalex_id IS NOT NULL OR r.orcid IS NOT NULL
        OR r.s2_id IS NOT NULL) AS has_ext_id,
       EXISTS (SELECT 1 FROM follows f WHERE f.researcher_id = r.id)
           AS followed,
       coalesce(length(r.name_key), 0) AS researcher_key_length,
       coalesce(pk.keys, '') AS coauthors,
       array_to_string(coalesce(pk.categories, p.categories), '|')
           AS categories,
       a.settled, a.match_reason, a.match_score,
       coalesce(pk.published, p.published) AS published,
       1 AS weight, false AS evidence

-- Co-authors and categories are '|'-joined: name keys hold letters,
-- digits and spaces only, categories no '|'.  The authors of a paper
-- come once per paper (the reader drops the authorship's own name),
-- kept with the paper (0061; '' beyond 100 authors: in a collaboration
-- everybody shares everybody, and its lists would grow with the square
-- of its size).  The paper's date and categories come with them
-- (0062), so that the widest table is not read for each authorship.  A
-- paper written without the triggers (a benchmark's copies) gives no
-- co-author evidence; its date and categories are read from papers.
-- OFFSET 0 keeps that read a subquery behind a filter on pk, skipped
-- where pk has the row: pulled up into a join, papers was probed for
-- every row all the same (EXPLAIN ANALYZE: 10,504 probes, "never
-- executed" with it).  pk is joined directly, not filtered first by the
-- papers of todo: with todo estimated at 2 rows (the day's pairs of
-- researchers and blocks), that filter became a semi join rescanning
-- todo for each row (EXPLAIN ANALYZE: 10.7 s for one read of 14,510
-- rows, 7,127 rows removed by the join filter each).
-- fragment: MATCH_ROWS_OF_TODO
  FROM todo a
  LEFT JOIN paper_author_keys pk ON pk.paper_id = a.paper_id
  LEFT JOIN LATERAL (
	SELECT p.published, p.categories
	  FROM papers p
	 WHERE pk.paper_id IS NULL AND p.id = a.paper_id
	OFFSET 0) p ON true
  LEFT JOIN researchers r ON r.id = a.researcher_id

-- By block, newest first (MATCH_ROW_COLUMNS' names).
-- fragment: MATCH_ROWS_ORDER
ORDER BY 1, published DESC NULLS LAST, paper_id DESC, position

-- name: MATCH_DECLARE
-- The matcher's reader by blocks ("match --blocks", "--full", a first
-- load), on its own connection in one REPEATABLE READ transaction: every
-- authorship of a taken block (MATCH_TAKE), by block (first letter and
-- family name, weft_name_block() as harvest_match_block() makes it),
-- newest first.
DECLARE match_cur NO SCROLL CURSOR FOR
WITH todo AS (
	SELECT d.block, a.paper_id, a.position, a.raw_name, a.name_key,
	       a.researcher_id, a.match_reason, a.match_score,
	       false AS settled
	  FROM match_dirty d
	  JOIN authorships a ON weft_name_block(a.name_key) = d.block
	 WHERE d.taken AND a.name_key <> ''
)
SELECT {{MATCH_ROW_COLUMNS}}
{{MATCH_ROWS_OF_TODO}}
{{MATCH_ROWS_ORDER}};

-- name: MATCH_DAY_BLOCKS
-- The day's pass ("match"), in the reader's snapshot: the taken blocks.
SELECT block FROM match_dirty WHERE taken ORDER BY block;

-- name: MATCH_DAY_KEYS
-- The day's pass, blocks $1: the name keys of the authorships still to
-- decide (the loader's researcher of their name, or none: match_reason
-- 'name_key' or NULL; or placed by a source since the last match:
-- match_score NULL; 0059's authorships_undecided finds them) with
-- researcher_id 0; the researchers of each block with their keys; and,
-- sure, the researchers a source placed those authorships with, whatever
-- their names.
SELECT weft_name_block(a.name_key) AS block, a.name_key,
       0::bigint AS researcher_id, false AS sure
  FROM authorships a
 WHERE weft_name_block(a.name_key) = ANY ($1::text[])
   AND (a.match_reason IS NULL OR a.match_reason = 'name_key'
        OR a.match_score IS NULL)
   AND a.name_key <> ''
 GROUP BY 1, 2
 UNION ALL
SELECT weft_name_block(r.name_key), r.name_key, r.id, false
  FROM researchers r
 WHERE weft_name_block(r.name_key) = ANY ($1::text[])
 UNION ALL
SELECT DISTINCT weft_name_block(a.name_key), '', a.researcher_id, true
  FROM authorships a
 WHERE weft_name_block(a.name_key) = ANY ($1::text[])
   AND (a.match_reason IS NULL OR a.match_reason = 'name_key'
        OR a.match_score IS NULL)
   AND a.name_key <> ''
   AND a.match_reason <> 'name_key' AND a.researcher_id IS NOT NULL
 ORDER BY 1, 3;

-- name: MATCH_DAY_ROWS
-- The day's pass, blocks $1: the authorships to decide, and the
-- candidates (those whose name can be one of theirs), settled: the
-- (researcher, block) pairs $2, $3, each as its evidence kept in the
-- block (0064), one row a name form (the first with the co-authors and
-- fields, the external id's reason in match_reason), or, where none is
-- kept, as its decided authorships in the block; by block, newest
-- first.  The evidence is looked up for the candidates only, once
-- (asked of every researcher of the blocks, 1.75 M a day at 1.3 M
-- papers, the lookups cost more than they saved).
WITH cand AS MATERIALIZED (
	SELECT c.researcher_id, c.block, e.researcher_id AS kept,
	       e.form_keys, e.form_raws, e.form_counts, e.form_dates,
	       e.coauthors, e.fields, e.ext_reason
	  FROM (SELECT DISTINCT * FROM unnest($2::bigint[], $3::text[])
	        AS u(researcher_id, block)) c
	  LEFT JOIN match_evidence e ON e.researcher_id = c.researcher_id
	                            AND e.block = c.block
), todo AS (
	SELECT weft_name_block(a.name_key) AS block, a.paper_id, a.position,
	       a.raw_name, a.name_key, a.researcher_id, a.match_reason,
	       a.match_score, false AS settled
	  FROM authorships a
	 WHERE weft_name_block(a.name_key) = ANY ($1::text[])
	   AND (a.match_reason IS NULL OR a.match_reason = 'name_key'
	        OR a.match_score IS NULL)
	   AND a.name_key <> ''
	 UNION ALL
	SELECT c.block, a.paper_id, a.position,
	       a.raw_name, a.name_key, a.researcher_id, a.match_reason,
	       a.match_score, true
	  FROM cand c
	  JOIN authorships a ON a.researcher_id = c.researcher_id
	 WHERE c.kept IS NULL
	   AND a.match_reason IS NOT NULL AND a.match_reason <> 'name_key'
	   AND a.match_score IS NOT NULL AND a.name_key <> ''
	   AND weft_name_block(a.name_key) = c.block
)
SELECT {{MATCH_ROW_COLUMNS}}
{{MATCH_ROWS_OF_TODO}}
 UNION ALL
SELECT e.block, 0::bigint, 0, f.raw_name, f.name_key, e.researcher_id,
       CASE WHEN e.ext_reason IN ('openalex', 'openalex_id')
                 AND r.openalex_id IS NOT NULL
            THEN 'openalex:' || r.openalex_id
            WHEN e.ext_reason = 'orcid' AND r.orcid IS NOT NULL
            THEN 'orcid:' || r.orcid
            WHEN e.ext_reason IN ('s2', 's2_id') AND r.s2_id IS NOT NULL
            THEN 's2:' || r.s2_id END,
       (r.openalex_id IS NOT NULL OR r.orcid IS NOT NULL
        OR r.s2_id IS NOT NULL),
       EXISTS (SELECT 1 FROM follows fo WHERE fo.researcher_id = r.id),
       length(r.name_key),
       CASE WHEN f.i = 1 THEN e.coauthors ELSE '' END,
       CASE WHEN f.i = 1 THEN e.fields ELSE '' END,
       true, e.ext_reason, NULL::real, f.published, f.n, true
  FROM cand e
  JOIN researchers r ON r.id = e.researcher_id
 CROSS JOIN LATERAL unnest(e.form_keys, e.form_raws, e.form_counts,
       e.form_dates) WITH ORDINALITY AS f(name_key, raw_name, n,
       published, i)
 WHERE e.kept IS NOT NULL
{{MATCH_ROWS_ORDER}};

-- name: MATCH_APPLY
-- One batch of decisions: each authorship written only when its
-- researcher, reason or score differs; the pages of what changed marked
-- stale; a researcher left without authorships hands its followers to
-- the one that took most of its papers and goes, unless an external id
-- makes it somebody of its own.  A researcher kept as evidence (0064)
-- moves with all its decided authorships of the block; the evidence the
-- batch holds replaces what was kept, unless another writer noted its
-- block since the match took it (the note's writes may be newer than
-- what the matcher read).
-- First the batch's renames: a researcher kept takes the most complete
-- form its papers now give when that is longer than the one it has.
-- Names only grow, so two blocks holding one researcher cannot rename it
-- back and forth; of a batch's forms for one researcher, renaming one at
-- a time would have left the first of the longest.  Researchers with an
-- external id keep the name their source gives.
UPDATE researchers r
   SET name = s.name, name_key = s.name_key, slug = s.slug,
       modified_at = now()
  FROM (SELECT DISTINCT ON (id) id, name, name_key, slug
          FROM stage_match_renames
         ORDER BY id, length(name_key) DESC, n) s
 WHERE r.id = s.id
   AND r.openalex_id IS NULL AND r.orcid IS NULL AND r.s2_id IS NULL
   AND length(s.name_key) > length(r.name_key);
INSERT INTO stage_match (paper_id, position, researcher_id,
    old_researcher_id, reason, score)
SELECT a.paper_id, a.position, m.researcher_id, m.old_id, a.match_reason,
       a.match_score
  FROM stage_match_moves m
  JOIN authorships a ON a.researcher_id = m.old_id
 WHERE weft_name_block(a.name_key) = m.block
   AND weft_match_decided(a.match_reason, a.match_score);
ANALYZE stage_match;
WITH ch AS (
	UPDATE authorships a
	   SET researcher_id = s.researcher_id,
	       match_reason = s.reason,
	       match_score = s.score
	  FROM stage_match s
	 WHERE a.paper_id = s.paper_id AND a.position = s.position
	   AND (a.researcher_id, a.match_reason, a.match_score)
	       IS DISTINCT FROM (s.researcher_id, s.reason, s.score)
	RETURNING a.paper_id, a.researcher_id, s.old_researcher_id),
mv AS (
	INSERT INTO match_moved (paper_id, researcher_id, old_researcher_id)
	SELECT paper_id, researcher_id, old_researcher_id FROM ch)
INSERT INTO stale_pages (kind, entity_id)
SELECT DISTINCT x.kind, x.id
  FROM (SELECT 'paper' AS kind, paper_id AS id FROM ch
        UNION ALL SELECT 'researcher', researcher_id FROM ch
        UNION ALL SELECT 'researcher', old_researcher_id FROM ch) x
 WHERE x.id IS NOT NULL AND x.id <> 0
    ON CONFLICT (kind, entity_id) DO UPDATE SET marked_at = now();
DELETE FROM match_evidence e
 USING stage_match_moves m
 WHERE e.researcher_id = m.old_id AND e.block = m.block;
INSERT INTO match_evidence AS e (researcher_id, block, form_keys,
    form_raws, form_counts, form_dates, coauthors, fields, ext_reason)
SELECT s.researcher_id, s.block, s.form_keys, s.form_raws, s.form_counts,
       s.form_dates, s.coauthors, s.fields, s.ext_reason
  FROM stage_match_evidence s
 WHERE NOT EXISTS (SELECT 1 FROM match_dirty d
                    WHERE d.block = s.block AND NOT d.taken)
    ON CONFLICT (researcher_id, block) DO UPDATE
   SET form_keys = excluded.form_keys, form_raws = excluded.form_raws,
       form_counts = excluded.form_counts,
       form_dates = excluded.form_dates, coauthors = excluded.coauthors,
       fields = excluded.fields, ext_reason = excluded.ext_reason;
INSERT INTO follows (user_id, researcher_id, created_at)
SELECT f.user_id, g.successor, f.created_at
  FROM follows f
  JOIN stage_match_gone g ON g.old_id = f.researcher_id
 WHERE NOT EXISTS (SELECT 1 FROM authorships a
                    WHERE a.researcher_id = g.old_id)
    ON CONFLICT (user_id, researcher_id) DO NOTHING;
DELETE FROM researchers r
 USING stage_match_gone g
 WHERE r.id = g.old_id
   AND r.openalex_id IS NULL AND r.orcid IS NULL AND r.s2_id IS NULL
   AND NOT EXISTS (SELECT 1 FROM authorships a
                    WHERE a.researcher_id = r.id);

-- What the writers noted for the refresh that follows (0036, 0042: a
-- paper changed or deleted, the researcher a position had before
-- another writer moved or deleted it), and the researchers created
-- since the last match (match_state: the loader's name-only researcher
-- of a name whose authorship kept its match elsewhere); and the
-- researchers of a paper whose date moved (their latest paper).
-- fragment: TOUCHED_BY_WRITERS
SELECT paper_id, researcher_id FROM derived_before_authors
 UNION
SELECT paper_id, NULL FROM derived_before_papers
 UNION
SELECT a.paper_id, a.researcher_id
  FROM derived_before_papers b
  JOIN papers p ON p.id = b.paper_id
  JOIN authorships a ON a.paper_id = b.paper_id
 WHERE b.present AND b.published IS DISTINCT FROM p.published
 UNION
SELECT paper_id, NULL FROM derived_dirty_papers
 UNION
SELECT NULL, researcher_id FROM derived_dirty_researchers
 UNION
SELECT NULL, id FROM researchers
 WHERE id > (SELECT researchers_upto FROM match_state)

-- name: MATCH_RECOMPUTE_TAKEN
-- After a match by blocks: the counts of what it can have moved, the
-- papers and researchers of the taken blocks' authorships, and what the
-- writers touched.
CREATE TEMP TABLE match_touched ON COMMIT DROP AS
SELECT a.paper_id, a.researcher_id
  FROM match_dirty d
  JOIN authorships a ON weft_name_block(a.name_key) = d.block
 WHERE d.taken AND a.name_key <> ''
 UNION
{{TOUCHED_BY_WRITERS}};
ANALYZE match_touched;
{{COUNTS_OF_TOUCHED}}

-- name: MATCH_RECOMPUTE_DAY
-- After the day's pass: the counts of what it wrote (match_moved: the
-- paper, the researcher before and after), and what the writers
-- touched.  The authorships it left alone kept their researcher.
CREATE TEMP TABLE match_touched ON COMMIT DROP AS
SELECT paper_id, researcher_id FROM match_moved
 UNION
SELECT NULL, old_researcher_id FROM match_moved
 UNION
{{TOUCHED_BY_WRITERS}};
ANALYZE match_touched;
{{COUNTS_OF_TOUCHED}}

-- name: STATS_FLUSH
-- Before AFTER_BULK and AFTER_DERIVED, alone (after.c): this session's
-- pending table statistics are written out when it next waits for a
-- statement (PostgreSQL flushes them at most once a second otherwise),
-- so that weft_analyze (0050) sees every write of the load, the match
-- or the refresh, and none of them lands after the ANALYZE it decides:
-- t_refresh.sh saw a load's last batch counted after its ANALYZE, and
-- the next refresh analyzed again for it.
SELECT pg_stat_force_next_flush();

-- name: AFTER_BULK
-- After a load or a match (after.c), before DERIVED_REFRESH: fresh
-- statistics for the planner (without them it picks nested loops over
-- thousands of rows), for the tables whose live rows moved by more than
-- 5 % from those their statistics counted, or with more than 20 % of
-- their rows written since their last ANALYZE (0050, 0092: a day's
-- batch grows none by 5 %; autovacuum analyzes the rows it rewrites).
SELECT weft_analyze(ARRAY['papers', 'authorships', 'researchers',
    'researcher_directory', 'institutions', 'researcher_institutions',
    'search_near', 'search_far'], 0.05);

-- name: AFTER_DERIVED
-- After DERIVED_REFRESH: statistics of what was derived, where it moved
-- (as AFTER_BULK).
SELECT weft_analyze(ARRAY['coauthor_pairs', 'researcher_stats',
    'search_terms'], 0.05);

-- name: STALE_PRUNE
-- After DERIVED_REFRESH: stale_pages (0001) says which pages each writer
-- changed, for an operator and the tests to read; the cache itself goes
-- stale by generation (after.c).  A week of it is kept; 0054's BRIN
-- index of marked_at finds the old blocks.  Before, it only grew, by
-- every page a writer touched: 1.6 GB after a 2.5 M-paper load
-- (tests/bench/README.md), about 120,000 rows a day after that.
DELETE FROM stale_pages WHERE marked_at < now() - interval '7 days';

-- name: AFTER_VACUUM
-- After DERIVED_REFRESH, alone (VACUUM runs in no transaction and no
-- multi-statement string): the refresh consumed the search vector notes
-- (DELETE ... RETURNING, 0036), whose dead tuples otherwise stay until
-- autovacuum comes: 710 MB at 110,000 papers after a load.
VACUUM search_term_delta;

-- name: AFTER_FULL_VACUUM
-- After a full refresh (refresh --full, a first load), alone, as
-- AFTER_VACUUM: it wrote every row of the derived tables
-- (coauthor_pairs and researcher_stats emptied and filled again, the
-- others rewritten), so none of their pages is marked all-visible and
-- the rewritten ones hold a dead version of each row.  Until a vacuum,
-- index-only scans read the heap and the first reader of each row
-- writes its hint bits; autovacuum comes, slowed by its cost delay,
-- and a day's harvest stopped it half way in the bench.  At 1.96-2.0 M
-- papers a cold day read coauthor_pairs' heap 282,238-378,277 pages
-- before it was vacuumed, 99,955 after, 85,706 before the full
-- refreshes (tests/bench/README.md, thirty-first session).  The tables
-- t_refresh.sh compares.
VACUUM coauthor_pairs, researcher_stats, paper_cards, search_terms,
    search_lexemes, sitemap_blocks, researcher_name_words, name_words;
