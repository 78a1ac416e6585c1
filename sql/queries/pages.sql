-- sql/queries/pages.sql -- the statements of the pages module.
-- One statement per query shape; values only as $n parameters.
-- Paper cards share one column list (store.c reads it by position):
--   id, arxiv_id, title, slug, published, primary_category,
--   categories (json text), citation_count, author_count, fully_matched

-- name: PAPER_BY_ARXIV_ID
SELECT id, arxiv_id, title, slug, published, primary_category,
       to_json(categories)::text, citation_count, author_count,
       fully_matched, abstract, comment, updated, versions::text, doi,
       journal_ref, license, citation_source
  FROM papers
 WHERE arxiv_id = $1;

-- name: PAPER_AUTHORS
SELECT a.position, a.raw_name, r.id, r.name, r.slug
  FROM authorships a
  LEFT JOIN researchers r ON r.id = a.researcher_id
 WHERE a.paper_id = $1
 ORDER BY a.position;

-- Authors of several papers (a '{1,2,3}' array), the first $2 of each.
-- name: CARD_AUTHORS
SELECT a.paper_id, a.raw_name, r.id, r.slug
  FROM authorships a
  LEFT JOIN researchers r ON r.id = a.researcher_id
 WHERE a.paper_id = ANY ($1::bigint[])
   AND a.position <= $2::integer
 ORDER BY a.paper_id, a.position;

-- name: LATEST_PAPERS
SELECT id, arxiv_id, title, slug, published, primary_category,
       to_json(categories)::text, citation_count, author_count,
       fully_matched
  FROM papers
 ORDER BY published DESC NULLS LAST, id DESC
 LIMIT $1::integer;

-- name: CORPUS_COUNTS
SELECT (SELECT count(*) FROM papers),
       (SELECT count(*) FROM researchers WHERE paper_count > 0),
       (SELECT count(*) FROM institutions);

-- name: RESEARCHER_BY_ID
SELECT id, name, name_key, slug, openalex_id, s2_id, orcid, h_index,
       citations, works_count, metrics_source, paper_count, latest_paper
  FROM researchers
 WHERE id = $1::bigint;

-- name: RESEARCHER_PAPER_COUNT
SELECT count(*)
  FROM papers p
 WHERE EXISTS (SELECT 1 FROM authorships a
                WHERE a.paper_id = p.id AND a.researcher_id = $1::bigint);

-- name: RESEARCHER_PAPER_COUNT_CAT
SELECT count(*)
  FROM papers p
 WHERE EXISTS (SELECT 1 FROM authorships a
                WHERE a.paper_id = p.id AND a.researcher_id = $1::bigint)
   AND p.categories @> ARRAY[$2::text];

-- name: RESEARCHER_PAPERS_NEWEST
SELECT id, arxiv_id, title, slug, published, primary_category,
       to_json(categories)::text, citation_count, author_count,
       fully_matched
  FROM papers p
 WHERE EXISTS (SELECT 1 FROM authorships a
                WHERE a.paper_id = p.id AND a.researcher_id = $1::bigint)
 ORDER BY published DESC NULLS LAST, id DESC
 LIMIT $2::integer OFFSET $3::bigint;

-- name: RESEARCHER_PAPERS_CITATIONS
SELECT id, arxiv_id, title, slug, published, primary_category,
       to_json(categories)::text, citation_count, author_count,
       fully_matched
  FROM papers p
 WHERE EXISTS (SELECT 1 FROM authorships a
                WHERE a.paper_id = p.id AND a.researcher_id = $1::bigint)
 ORDER BY citation_count DESC NULLS LAST, published DESC NULLS LAST, id DESC
 LIMIT $2::integer OFFSET $3::bigint;

-- name: RESEARCHER_PAPERS_CAT_NEWEST
SELECT id, arxiv_id, title, slug, published, primary_category,
       to_json(categories)::text, citation_count, author_count,
       fully_matched
  FROM papers p
 WHERE EXISTS (SELECT 1 FROM authorships a
                WHERE a.paper_id = p.id AND a.researcher_id = $1::bigint)
   AND p.categories @> ARRAY[$4::text]
 ORDER BY published DESC NULLS LAST, id DESC
 LIMIT $2::integer OFFSET $3::bigint;

-- name: RESEARCHER_PAPERS_CAT_CITATIONS
SELECT id, arxiv_id, title, slug, published, primary_category,
       to_json(categories)::text, citation_count, author_count,
       fully_matched
  FROM papers p
 WHERE EXISTS (SELECT 1 FROM authorships a
                WHERE a.paper_id = p.id AND a.researcher_id = $1::bigint)
   AND p.categories @> ARRAY[$4::text]
 ORDER BY citation_count DESC NULLS LAST, published DESC NULLS LAST, id DESC
 LIMIT $2::integer OFFSET $3::bigint;

-- Author position over the researcher's papers where every author was
-- matched (a single author counts as first): first, middle, last, the
-- number of such papers and the number of all the researcher's papers.
-- name: RESEARCHER_POSITIONS
SELECT count(DISTINCT p.id) FILTER (WHERE p.fully_matched AND a.position = 1),
       count(DISTINCT p.id) FILTER (WHERE p.fully_matched AND a.position > 1
                                      AND a.position < p.author_count),
       count(DISTINCT p.id) FILTER (WHERE p.fully_matched AND a.position > 1
                                      AND a.position >= p.author_count),
       count(DISTINCT p.id) FILTER (WHERE p.fully_matched),
       count(DISTINCT p.id)
  FROM authorships a
  JOIN papers p ON p.id = a.paper_id
 WHERE a.researcher_id = $1::bigint;

-- name: RESEARCHER_FIELDS
SELECT c, count(*) AS n
  FROM papers p, unnest(p.categories) AS c
 WHERE EXISTS (SELECT 1 FROM authorships a
                WHERE a.paper_id = p.id AND a.researcher_id = $1::bigint)
 GROUP BY c
 ORDER BY n DESC, c
 LIMIT $2::integer;

-- name: RESEARCHER_SAME_NAME
SELECT id, name, slug, paper_count, h_index, count(*) OVER ()
  FROM researchers
 WHERE name_key = $1 AND id <> $2::bigint
 ORDER BY paper_count DESC, h_index DESC NULLS LAST, id
 LIMIT $3::integer;

-- name: RESEARCHER_INSTITUTIONS
SELECT i.id, i.name, i.slug, i.ror_id, i.country_name, ri.last_known,
       ri.first_year, ri.last_year
  FROM researcher_institutions ri
  JOIN institutions i ON i.id = ri.institution_id
 WHERE ri.researcher_id = $1::bigint
 ORDER BY ri.last_known DESC, ri.last_year DESC NULLS LAST, i.name, i.id
 LIMIT $2::integer;

-- The top co-authors by joint papers.
-- name: RESEARCHER_COAUTHORS
SELECT r.id, r.name, r.slug, count(DISTINCT a2.paper_id) AS n
  FROM authorships a1
  JOIN authorships a2 ON a2.paper_id = a1.paper_id
                     AND a2.researcher_id <> a1.researcher_id
  JOIN researchers r ON r.id = a2.researcher_id
 WHERE a1.researcher_id = $1::bigint
 GROUP BY r.id, r.name, r.slug
 ORDER BY n DESC, r.id
 LIMIT $2::integer;

-- Joint papers between each pair of researchers in a set ('{1,2,3}').
-- name: COAUTHOR_EDGES
SELECT a1.researcher_id, a2.researcher_id, count(DISTINCT a1.paper_id)
  FROM authorships a1
  JOIN authorships a2 ON a2.paper_id = a1.paper_id
                     AND a1.researcher_id < a2.researcher_id
 WHERE a1.researcher_id = ANY ($1::bigint[])
   AND a2.researcher_id = ANY ($1::bigint[])
 GROUP BY 1, 2
 ORDER BY 1, 2;

-- name: RESEARCHER_TIMELINE
SELECT extract(year FROM p.published)::integer AS y, count(*)
  FROM papers p
 WHERE EXISTS (SELECT 1 FROM authorships a
                WHERE a.paper_id = p.id AND a.researcher_id = $1::bigint)
   AND p.published IS NOT NULL
 GROUP BY y
 ORDER BY y;

-- name: INSTITUTION_BY_ID
SELECT id, ror_id, name, slug, to_json(aliases)::text, country_code,
       country_name, type, status, website, established, researcher_count,
       openalex_id
  FROM institutions
 WHERE id = $1::bigint;

-- name: INSTITUTION_BY_ROR
SELECT id, name, slug
  FROM institutions
 WHERE ror_id = $1;

-- Case-insensitive exact match on the name, an alias or the slug.
-- name: INSTITUTIONS_BY_NAME
SELECT id, name, slug, country_name, researcher_count
  FROM institutions
 WHERE lower(name) = lower($1)
    OR slug = $2
    OR EXISTS (SELECT 1 FROM unnest(aliases) AS al
                WHERE lower(al) = lower($1))
 ORDER BY researcher_count DESC, name, id
 LIMIT 50;

-- name: INSTITUTION_RESEARCHERS
SELECT r.id, r.name, r.slug, r.paper_count, r.h_index, count(*) OVER ()
  FROM researcher_institutions ri
  JOIN researchers r ON r.id = ri.researcher_id
 WHERE ri.institution_id = $1::bigint
 ORDER BY r.paper_count DESC, r.id
 LIMIT $2::integer;

-- name: INSTITUTION_PAPERS
SELECT id, arxiv_id, title, slug, published, primary_category,
       to_json(categories)::text, citation_count, author_count,
       fully_matched
  FROM papers p
 WHERE p.id IN (SELECT a.paper_id
                  FROM authorships a
                  JOIN researcher_institutions ri
                    ON ri.researcher_id = a.researcher_id
                 WHERE ri.institution_id = $1::bigint)
 ORDER BY published DESC NULLS LAST, id DESC
 LIMIT $2::integer;

-- name: RESEARCHERS_COUNT
SELECT count(*) FROM researchers WHERE paper_count > 0;

-- name: RESEARCHERS_PAGE
SELECT id, name, slug, paper_count, h_index, citations
  FROM researchers
 WHERE paper_count > 0
 ORDER BY paper_count DESC, id
 LIMIT $1::integer OFFSET $2::bigint;

-- name: INSTITUTIONS_COUNT
SELECT count(*) FROM institutions;

-- name: INSTITUTIONS_PAGE
SELECT id, name, slug, country_name, type, researcher_count
  FROM institutions
 ORDER BY researcher_count DESC, name, id
 LIMIT $1::integer OFFSET $2::bigint;
