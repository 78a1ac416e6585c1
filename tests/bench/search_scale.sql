-- tests/bench/search_scale.sql -- scales the bundled papers of a
-- THROWAWAY benchmark database to at least :target papers: synthetic
-- copies of the real rows (new arXiv-style ids "9NNN.NNNNN", published
-- dates shifted back by whole weeks, the same authorships).  For
-- tests/bench/search.sh and the scaled page benchmark (README.md); never
-- run it against data you keep.
\set ON_ERROR_STOP on
BEGIN;
-- The copies carry the search vector of their original (same text, same
-- vector): no trigger needs to recompute it.
SET LOCAL session_replication_role = replica;
CREATE TEMP TABLE scale_src ON COMMIT DROP AS
SELECT id, row_number() OVER (ORDER BY id) AS n
  FROM papers WHERE arxiv_id NOT LIKE '9___.%';
CREATE TEMP TABLE scale_map ON COMMIT DROP AS
SELECT s.id AS src, k,
       format('%s.%s', 9000 + k, lpad(s.n::text, 5, '0')) AS arxiv_id
  FROM scale_src s,
       generate_series(1, greatest(0, ceil(:target::numeric /
           (SELECT count(*) FROM scale_src))::int - 1)) AS k
 WHERE NOT EXISTS (SELECT 1 FROM papers p
                    WHERE p.arxiv_id = format('%s.%s', 9000 + k,
                        lpad(s.n::text, 5, '0')));
INSERT INTO papers (arxiv_id, title, abstract, comment, categories,
    primary_category, published, updated, versions, doi, journal_ref,
    license, citation_count, citation_source, slug, author_count,
    fully_matched, source, search_vector)
SELECT m.arxiv_id, p.title, p.abstract, p.comment, p.categories,
       p.primary_category, p.published - 7 * (m.k * 13 + (p.id % 11))::int,
       p.updated, p.versions, NULL, p.journal_ref, p.license,
       p.citation_count, p.citation_source, p.slug, p.author_count,
       p.fully_matched, 'bench', p.search_vector
  FROM scale_map m JOIN papers p ON p.id = m.src;
INSERT INTO authorships (paper_id, position, raw_name, researcher_id,
    match_reason, match_score)
SELECT np.id, a.position, a.raw_name, a.researcher_id, a.match_reason,
       a.match_score
  FROM scale_map m
  JOIN papers np ON np.arxiv_id = m.arxiv_id
  JOIN authorships a ON a.paper_id = m.src;
COMMIT;
-- What weft-harvest does after a load (modules/harvest/after.c), and the
-- counts the replica role kept the triggers from updating.
SELECT weft_corpus_counts_refresh();
SELECT weft_category_counts_refresh();
SELECT weft_search_terms_refresh();
VACUUM ANALYZE papers;
VACUUM ANALYZE authorships;
SELECT weft_researcher_derived_refresh(true);
ANALYZE coauthor_pairs;
ANALYZE researcher_stats;
SELECT count(*) AS papers FROM papers;
