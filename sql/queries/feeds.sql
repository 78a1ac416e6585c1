-- sql/queries/feeds.sql -- the statements of the feeds module (RSS and
-- sitemaps).  One statement per query shape; values only as $n
-- parameters.  Times leave the database as whole seconds since the
-- epoch (UTC) and are formatted in C (modules/feeds/date.c).
--
-- Feed items share one column list, {{FEED_ITEM_COLUMNS}} (store.c reads
-- it as FEEDS_FEED_ITEM__*): arxiv_id, title, slug, abstract, categories
-- (json text), authors (json text, in order), published (epoch or NULL),
-- modified_at (epoch)
-- and one order: newest first by first-version date, as the site lists.
-- The latest and category feeds leave out papers without a date (they
-- cannot be "latest"), which lets them walk papers_published (published
-- DESC, id DESC) and stop after $1 rows instead of sorting the corpus.

-- The item columns of paper p; its authors are the row paper_cards keeps
-- (0011), or the live list while a write has left it stale.
-- fragment: FEED_ITEM_COLUMNS
p.arxiv_id, p.title, p.slug, p.abstract,
to_json(p.categories)::text AS categories,
coalesce((SELECT c.names FROM paper_cards c WHERE c.paper_id = p.id),
         (SELECT coalesce(json_agg(a.raw_name ORDER BY a.position), '[]')
            FROM authorships a WHERE a.paper_id = p.id)::text) AS authors,
floor(extract(epoch FROM p.published))::bigint AS published,
floor(extract(epoch FROM p.modified_at))::bigint AS modified_at

-- No parameter: one plan, kept (a LIMIT given as $1 made PostgreSQL plan
-- the statement at every execution, 0.14-1.3 ms).
-- name: RSS_LATEST
SELECT {{FEED_ITEM_COLUMNS}}
  FROM papers p
 WHERE p.published IS NOT NULL
 ORDER BY p.published DESC, p.id DESC
 LIMIT {{FEEDS_RSS_ITEMS}};

-- A category's newest: for a large one the walk of papers_published
-- down to the first $1 of it, for a rare one its GIN list sorted; the
-- planner picks by the category's share, which a generic plan does not
-- know.  From the sixth execution PostgreSQL took the generic one, the
-- sorted list, for every category: 10.7 ms against 0.2 ms for the
-- bundled cs.SE, seconds for a category of 800,000 papers at 2.5 M.
-- name: RSS_CATEGORY
-- plan: each
SELECT {{FEED_ITEM_COLUMNS}}
  FROM papers p
 WHERE p.categories @> ARRAY[$2::text] AND p.published IS NOT NULL
 ORDER BY p.published DESC, p.id DESC
 LIMIT $1::integer;

-- name: RSS_RESEARCHER
SELECT {{FEED_ITEM_COLUMNS}}
  FROM papers p
 WHERE EXISTS (SELECT 1 FROM authorships a
                WHERE a.paper_id = p.id AND a.researcher_id = $2::bigint)
 ORDER BY p.published DESC NULLS LAST, p.id DESC
 LIMIT $1::integer;

-- The papers the institution's researchers wrote while there, as its
-- page lists them (pages.sql INSTITUTION_PAPERS): within the years of a
-- link, any year for a link without years.
-- name: RSS_INSTITUTION
SELECT {{FEED_ITEM_COLUMNS}}
  FROM papers p
 WHERE p.id IN (SELECT a.paper_id
                  FROM authorships a
                  JOIN researcher_institutions ri
                    ON ri.researcher_id = a.researcher_id
                  JOIN papers q ON q.id = a.paper_id
                 WHERE ri.institution_id = $2::bigint
                   AND {{WHILE_THERE}})
 ORDER BY p.published DESC NULLS LAST, p.id DESC
 LIMIT $1::integer;

-- ---------------------------------------------------------------- versions
-- A paper's versions 2 and later (papers.versions, [{"version":n,
-- "date":"YYYY-MM-DD"}], as harvest writes it), one row each: the item
-- columns, the version and its date.  jsonb_path_query in lax mode skips
-- what is not an array of objects with a numeric version, and a date
-- that is not YYYY-MM-DD is left out rather than failing the feed.
-- The statements list the newest versions first; feeds_add_versions()
-- merges them with the papers.  "versions @? '$[1]'" (a second entry)
-- is the predicate of the partial index papers_versioned (0029): the few
-- papers with versions are read through it, never the whole table.
-- fragment: VERSION_ROWS
CROSS JOIN LATERAL (
  SELECT e.version, e.version_date
    FROM (SELECT floor((x->>'version')::numeric)::integer AS version,
                 CASE WHEN x->>'date' ~ '^\d{4}-\d{2}-\d{2}'
                      THEN floor(extract(epoch FROM
                               left(x->>'date', 10)::date))::bigint
                 END AS version_date
            FROM jsonb_path_query(p.versions,
                     '$[*] ? (@.version.type() == "number" && @.version >= 2)')
                 AS x) e
   WHERE e.version_date IS NOT NULL) v

-- name: RSS_VERSIONS_LATEST
SELECT {{FEED_ITEM_COLUMNS}}, v.version, v.version_date
  FROM papers p
{{VERSION_ROWS}}
 WHERE p.versions @? '$[1]'
 ORDER BY v.version_date DESC, p.id DESC, v.version DESC
 LIMIT {{FEEDS_RSS_ITEMS}};

-- name: RSS_VERSIONS_CATEGORY
SELECT {{FEED_ITEM_COLUMNS}}, v.version, v.version_date
  FROM papers p
{{VERSION_ROWS}}
 WHERE p.versions @? '$[1]' AND p.categories @> ARRAY[$2::text]
 ORDER BY v.version_date DESC, p.id DESC, v.version DESC
 LIMIT $1::integer;

-- name: RSS_VERSIONS_RESEARCHER
SELECT {{FEED_ITEM_COLUMNS}}, v.version, v.version_date
  FROM papers p
{{VERSION_ROWS}}
 WHERE p.versions @? '$[1]'
   AND EXISTS (SELECT 1 FROM authorships a
                WHERE a.paper_id = p.id AND a.researcher_id = $2::bigint)
 ORDER BY v.version_date DESC, p.id DESC, v.version DESC
 LIMIT $1::integer;

-- name: RESEARCHER_SUBJECT
SELECT name, slug,
       floor(extract(epoch FROM modified_at))::bigint AS modified_at
  FROM researchers
 WHERE id = $1::bigint;

-- name: INSTITUTION_SUBJECT
SELECT name, slug,
       floor(extract(epoch FROM modified_at))::bigint AS modified_at
  FROM institutions
 WHERE id = $1::bigint;

-- ---------------------------------------------------------------- sitemaps
-- A chunk n of a kind holds the rows with id in ((n-1)*size, n*size]:
-- URLs keep their chunk as the corpus grows, a chunk never holds more
-- than size URLs, and each is read by keyset pagination on the primary
-- key (id > $1 AND id <= $2 ORDER BY id LIMIT $3), constant memory.
-- Researchers without papers here have no page worth indexing.
-- Columns: id, arxiv_id or id, slug, lastmod (epoch).

-- name: SITEMAP_PAPERS
SELECT id, arxiv_id, slug,
       floor(extract(epoch FROM modified_at))::bigint AS lastmod
  FROM papers
 WHERE id > $1::bigint AND id <= $2::bigint
 ORDER BY id
 LIMIT $3::integer;

-- name: SITEMAP_RESEARCHERS
SELECT id, id::text AS id_text, slug,
       floor(extract(epoch FROM greatest(modified_at,
                                         latest_paper::timestamptz)))::bigint
           AS lastmod
  FROM researchers
 WHERE id > $1::bigint AND id <= $2::bigint AND paper_count > 0
 ORDER BY id
 LIMIT $3::integer;

-- Institutions without papers here are noindex (pages' institution.c):
-- only those with a linked researcher who has papers are listed.
-- name: SITEMAP_INSTITUTIONS
SELECT i.id, i.id::text AS id_text, i.slug,
       floor(extract(epoch FROM i.modified_at))::bigint AS lastmod
  FROM institutions i
 WHERE i.id > $1::bigint AND i.id <= $2::bigint
   AND {{INSTITUTION_HAS_PAPERS}}
 ORDER BY i.id
 LIMIT $3::integer;

-- The non-empty chunks of a kind and the newest change in each, from
-- the blocks of 1,000 ids the refresh keeps (0045); $1, the chunk size,
-- is a multiple of 1,000.
-- name: SITEMAP_PAPERS_CHUNKS
SELECT block / ($1::bigint / 1000) + 1 AS n,
       floor(extract(epoch FROM max(lastmod)))::bigint AS lastmod
  FROM sitemap_blocks
 WHERE kind = 'papers'
 GROUP BY n
 ORDER BY n;

-- name: SITEMAP_RESEARCHERS_CHUNKS
SELECT block / ($1::bigint / 1000) + 1 AS n,
       floor(extract(epoch FROM max(lastmod)))::bigint AS lastmod
  FROM sitemap_blocks
 WHERE kind = 'researchers'
 GROUP BY n
 ORDER BY n;

-- name: SITEMAP_INSTITUTIONS_CHUNKS
SELECT (i.id - 1) / $1::bigint + 1 AS n,
       floor(extract(epoch FROM max(i.modified_at)))::bigint AS lastmod
  FROM institutions i
 WHERE {{INSTITUTION_HAS_PAPERS}}
 GROUP BY n
 ORDER BY n;

-- An institution whose page lists papers (RSS_INSTITUTION's): one with
-- nobody and nothing is noindex and out of the sitemap.
-- fragment: INSTITUTION_HAS_PAPERS
EXISTS (SELECT 1
          FROM researcher_institutions ri
          JOIN researchers r ON r.id = ri.researcher_id
          JOIN authorships a ON a.researcher_id = ri.researcher_id
          JOIN papers q ON q.id = a.paper_id
         WHERE ri.institution_id = i.id AND r.paper_count > 0
           AND (ri.first_year IS NULL
                OR extract(year FROM q.published) >= ri.first_year)
           AND (ri.last_year IS NULL
                OR extract(year FROM q.published) <= ri.last_year))

-- Paper q written during link ri (pages.sql has the same fragment).
-- fragment: WHILE_THERE
(ri.first_year IS NULL
 OR extract(year FROM q.published) >= ri.first_year)
AND (ri.last_year IS NULL
     OR extract(year FROM q.published) <= ri.last_year)

-- The newest change of each table, for the static pages' lastmod
-- (papers and researchers from 0045's blocks).
-- name: SITEMAP_NEWEST
SELECT floor(extract(epoch FROM (SELECT max(lastmod) FROM sitemap_blocks
                                  WHERE kind = 'papers')))::bigint
           AS papers,
       floor(extract(epoch FROM (SELECT max(lastmod) FROM sitemap_blocks
                                  WHERE kind = 'researchers')))::bigint
           AS researchers,
       floor(extract(epoch FROM (SELECT max(modified_at)
                                   FROM institutions)))::bigint
           AS institutions;

-- ---------------------------------------------------------------- private
-- A private feed token's owner (sql/schema/0002_accounts.sql: token_hash
-- is the lower-case hex BLAKE2b-256 of the token string).
-- name: TOKEN_USER
SELECT user_id::text
  FROM feed_tokens
 WHERE token_hash = $1;

-- What a user follows (0026 weft_follow_items: new papers and new
-- versions by followed researchers and institutions, in followed
-- categories, matching followed searches), the same items as /feed:
-- version (1: a new paper), at (the item's date: the version's for a
-- later one) and why (the line saying why it is there).
-- name: RSS_USER
SELECT {{FEED_ITEM_COLUMNS}}, i.version,
       floor(extract(epoch FROM i.at))::bigint AS at, i.why
  FROM weft_follow_items($2::bigint) i
  JOIN papers p ON p.id = i.paper_id
 ORDER BY i.at DESC NULLS LAST, i.paper_id DESC, i.version DESC
 LIMIT $1::integer;

