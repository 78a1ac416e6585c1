-- tests/bench/refresh_batch.sql -- a daily harvest's worth of new papers
-- (:batch, e.g. 20000) written into a THROWAWAY scaled benchmark
-- database the way the writers write them (triggers on: search vectors
-- computed, 0011's, 0036's and 0042's notes taken), for timing
-- "weft-harvest refresh" (incremental) against "refresh --full"
-- (tests/bench/README.md, "Incremental refresh").  Copies of existing
-- papers under new ids "8NNN.NNNNN"; with :fresh = 1 each copied
-- authorship goes to a new researcher (one per original researcher: a
-- batch by people new here), with :fresh = 0 to the original one (the
-- batch touches every researcher of the copied papers, as the copies of
-- search_scale.sql do).  Never run it against data you keep.
\set ON_ERROR_STOP on
BEGIN;
-- The copies earlier runs made.
SELECT count(*) AS copies FROM papers WHERE arxiv_id LIKE '8___.%' \gset
-- The sources: the newest papers no earlier run copied (each run the
-- next older :batch), so that a day's authors are mostly not the last
-- day's.  Copying the same newest papers every run touched the same
-- researchers every time, whose histories and pairs grew with each run:
-- at 1 M the here figures took 10.3 s at the fifth such run and 24.6 s
-- at the eighth (tests/bench/README.md, tenth session).
CREATE TEMP TABLE batch_src ON COMMIT DROP AS
SELECT src, row_number() OVER (ORDER BY src DESC) AS n
  FROM (SELECT id AS src
          FROM papers
         WHERE arxiv_id NOT LIKE '8___.%'
         ORDER BY id DESC
        OFFSET :copies
         LIMIT :batch) s;
-- Numbered after the copies of earlier runs, so that each run adds.
UPDATE batch_src SET n = n + :copies;
CREATE TEMP TABLE batch_map ON COMMIT DROP AS
SELECT src, format('8%s.%s', lpad((n / 100000)::text, 3, '0'),
                   lpad((n % 100000)::text, 5, '0')) AS arxiv_id
  FROM batch_src s
 WHERE NOT EXISTS (SELECT 1 FROM papers p
                    WHERE p.arxiv_id = format('8%s.%s',
                        lpad((s.n / 100000)::text, 3, '0'),
                        lpad((s.n % 100000)::text, 5, '0')));
INSERT INTO papers (arxiv_id, title, abstract, comment, categories,
    primary_category, published, updated, versions, doi, journal_ref,
    license, citation_count, citation_source, slug, author_count,
    fully_matched, source)
SELECT m.arxiv_id, p.title, p.abstract, p.comment, p.categories,
       p.primary_category, p.published + 1, p.updated, p.versions, NULL,
       p.journal_ref, p.license, p.citation_count, p.citation_source,
       p.slug, p.author_count, p.fully_matched, 'bench'
  FROM batch_map m JOIN papers p ON p.id = m.src;
CREATE TEMP TABLE batch_people ON COMMIT DROP AS
SELECT DISTINCT a.researcher_id AS old, NULL::bigint AS new
  FROM batch_map m JOIN authorships a ON a.paper_id = m.src
 WHERE a.researcher_id IS NOT NULL AND :fresh = 1;
UPDATE batch_people
   SET new = nextval(pg_get_serial_sequence('researchers', 'id'));
INSERT INTO researchers (id, name, name_key, slug)
SELECT b.new, r.name, r.name_key, r.slug
  FROM batch_people b JOIN researchers r ON r.id = b.old;
-- As the loader writes them: the researcher its name guessed
-- ('name_key'), no score; the next match decides (0059).  Copied with
-- the originals' decisions, a day's match had nothing to decide.
INSERT INTO authorships (paper_id, position, raw_name, researcher_id,
    match_reason, match_score)
SELECT np.id, a.position, a.raw_name, coalesce(b.new, a.researcher_id),
       'name_key', NULL
  FROM batch_map m
  JOIN papers np ON np.arxiv_id = m.arxiv_id
  JOIN authorships a ON a.paper_id = m.src
  LEFT JOIN batch_people b ON b.old = a.researcher_id;
COMMIT;
SELECT weft_corpus_counts_refresh();
SELECT (SELECT count(*) FROM papers) AS papers,
       (SELECT count(*) FROM derived_before_papers) AS paper_notes,
       (SELECT count(*) FROM derived_before_authors) AS position_notes,
       (SELECT count(*) FROM derived_dirty_researchers) AS dirty_researchers,
       (SELECT count(*) FROM search_term_delta) AS vector_notes;
