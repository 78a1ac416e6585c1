-- sql/queries/pages.sql -- the statements of the pages module.
-- One statement per query shape; values only as $n parameters.
-- Paper cards share one column list, {{CARD_COLUMNS}} (store.c reads it
-- as PAGES_CARD__*), optionally followed by
--   authors: the first 12 authors as json text, [[name, id, slug]],
--            so a list of cards is one round trip (otherwise store.c
--            fetches them with CARD_AUTHORS)
--   total:   count(*) OVER (), the length of the whole list

-- The paper card columns of paper p.
-- fragment: CARD_COLUMNS
p.id, p.arxiv_id, p.title, p.slug, p.published, p.primary_category,
to_json(p.categories)::text AS categories, p.citation_count,
p.author_count, p.fully_matched, p.paper_type

-- The first 12 authors of paper p as json text, [[raw_name, id, slug]]
-- (id and slug null when unmatched): the row paper_cards keeps (0011),
-- or the live list while a write has left it stale.  As stored:
-- pages_card_authors (store.c) names the fields.  Naming them here,
-- json_array_elements and json_build_object for every author, took 0.6
-- of the 1.0 ms PostgreSQL spent on a researcher's 24 cards (pgbench,
-- tests/bench/README.md, "Card authors as stored").
-- fragment: CARD_AUTHOR_LIST
coalesce((SELECT c.authors FROM paper_cards c WHERE c.paper_id = p.id),
         (SELECT json_agg(json_build_array(a.raw_name, r.id, r.slug)
                          ORDER BY a.position)
            FROM authorships a
            LEFT JOIN researchers r ON r.id = a.researcher_id
           WHERE a.paper_id = p.id
             AND a.position <= {{PAGES_CARD_AUTHORS}})::text)

-- name: PAPER_BY_ARXIV_ID
SELECT id, arxiv_id, title, slug, published, primary_category,
       to_json(categories)::text AS categories,
       to_json(class_codes)::text AS class_codes, citation_count, author_count,
       fully_matched, abstract, comment, updated, versions::text, doi,
       journal_ref, license, citation_source,
       (SELECT json_agg(json_build_object('position', a.position,
                                          'raw_name', a.raw_name,
                                          'id', r.id, 'name', r.name,
                                          'slug', r.slug)
                        ORDER BY a.position)
          FROM authorships a
          LEFT JOIN researchers r ON r.id = a.researcher_id
         WHERE a.paper_id = p.id)::text AS authors,
       CASE WHEN analysed_at IS NOT NULL THEN
       json_build_object('summary', summary, 'topics', topics,
           'paper_type', paper_type, 'research_field', research_field,
           'novelty', novelty, 'significance_score', significance_score,
           'significance_rationale', significance_rationale,
           'model', analysis_model,
           'analysed_at', to_char(analysed_at AT TIME ZONE 'UTC',
                                  'YYYY-MM-DD"T"HH24:MI:SS"Z"'))::text
       END AS analysis
  FROM papers p
 WHERE arxiv_id = $1;

-- Authors of several papers (a '{1,2,3}' array), the first $2 of each.
-- name: CARD_AUTHORS
SELECT a.paper_id, a.raw_name, r.id, r.slug
  FROM authorships a
  LEFT JOIN researchers r ON r.id = a.researcher_id
 WHERE a.paper_id = ANY ($1::bigint[])
   AND a.position <= $2::integer
 ORDER BY a.paper_id, a.position;

-- The dated papers by walking papers_published, then the undated ones:
-- the same order as published DESC NULLS LAST, id DESC without sorting
-- the corpus.
-- name: LATEST_PAPERS
SELECT l.id, l.arxiv_id, l.title, l.slug, l.published, l.primary_category,
       l.categories, l.citation_count, l.author_count, l.fully_matched,
       l.paper_type, l.authors
  FROM (
       (SELECT {{CARD_COLUMNS}},
               {{CARD_AUTHOR_LIST}} AS authors
          FROM papers p
         WHERE published IS NOT NULL
         ORDER BY published DESC, id DESC
         LIMIT {{PAGES_PER_PAGE}})
       UNION ALL
       (SELECT {{CARD_COLUMNS}},
               {{CARD_AUTHOR_LIST}}
          FROM papers p
         WHERE published IS NULL
         ORDER BY id DESC
         LIMIT {{PAGES_PER_PAGE}})) AS l
 LIMIT {{PAGES_PER_PAGE}};

-- Kept by triggers (0007): count(*) would scan three tables.
-- name: CORPUS_COUNTS
SELECT papers, researchers, institutions
  FROM corpus_counts;

-- name: RESEARCHER_BY_ID
SELECT id, name, name_key, slug, openalex_id, s2_id, orcid, h_index,
       citations, works_count, metrics_source,
       to_char(metrics_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS metrics_at,
       paper_count, latest_paper
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

-- Newest first: the page's range of authorships_researcher_newest (0011:
-- published is copied into authorships), read up to the page's end and
-- joined to papers, not every paper of the researcher sorted; the total
-- is an index-only count.  DISTINCT: one row for a paper on which the
-- researcher holds two positions.
-- Paper p as one json text for the citation writers (core/cite.c):
-- every author in order, links to arXiv.
-- fragment: CITE_PAPER
json_build_object('arxiv_id', p.arxiv_id, 'title', p.title,
                  'published', p.published::text,
                  'primary_category', p.primary_category, 'doi', p.doi,
                  'journal_ref', p.journal_ref, 'abstract', p.abstract,
                  'links', json_build_object(
                      'abs', 'https://arxiv.org/abs/' || p.arxiv_id,
                      'pdf', 'https://arxiv.org/pdf/' || p.arxiv_id),
                  'authors', coalesce((SELECT json_agg(a.raw_name
                                                       ORDER BY a.position)
                                         FROM authorships a
                                        WHERE a.paper_id = p.id),
                                      '[]'::json))::text AS paper

-- Every paper of researcher $1 for an export, newest first, $2 rows
-- from row $3 (researcher.c reads it in chunks).
-- name: RESEARCHER_EXPORT
SELECT {{CITE_PAPER}}
  FROM papers p
 WHERE p.id IN (SELECT a.paper_id FROM authorships a
                 WHERE a.researcher_id = $1::bigint)
 ORDER BY p.published DESC NULLS LAST, p.id DESC
 LIMIT $2::integer OFFSET $3::bigint;

-- name: RESEARCHER_PAPERS_NEWEST
SELECT {{CARD_COLUMNS}},
       {{CARD_AUTHOR_LIST}} AS authors,
       (SELECT count(DISTINCT a.paper_id)
          FROM authorships a
         WHERE a.researcher_id = $1::bigint) AS total
  FROM (SELECT DISTINCT a.published, a.paper_id
          FROM authorships a
         WHERE a.researcher_id = $1::bigint
         ORDER BY a.published DESC NULLS LAST, a.paper_id DESC
         LIMIT $2::integer OFFSET $3::bigint) l
  JOIN papers p ON p.id = l.paper_id
 ORDER BY l.published DESC NULLS LAST, l.paper_id DESC;
-- name: RESEARCHER_PAPERS_CITATIONS
SELECT {{CARD_COLUMNS}},
       {{CARD_AUTHOR_LIST}} AS authors,
       count(*) OVER () AS total
  FROM papers p
 WHERE p.id IN (SELECT a.paper_id FROM authorships a
                 WHERE a.researcher_id = $1::bigint)
 ORDER BY citation_count DESC NULLS LAST, published DESC NULLS LAST, id DESC
 LIMIT $2::integer OFFSET $3::bigint;

-- name: RESEARCHER_PAPERS_CAT_NEWEST
SELECT {{CARD_COLUMNS}},
       {{CARD_AUTHOR_LIST}} AS authors,
       count(*) OVER () AS total
  FROM papers p
 WHERE p.id IN (SELECT a.paper_id FROM authorships a
                 WHERE a.researcher_id = $1::bigint)
   AND p.categories @> ARRAY[$4::text]
 ORDER BY published DESC NULLS LAST, id DESC
 LIMIT $2::integer OFFSET $3::bigint;

-- name: RESEARCHER_PAPERS_CAT_CITATIONS
SELECT {{CARD_COLUMNS}},
       {{CARD_AUTHOR_LIST}} AS authors,
       count(*) OVER () AS total
  FROM papers p
 WHERE p.id IN (SELECT a.paper_id FROM authorships a
                 WHERE a.researcher_id = $1::bigint)
   AND p.categories @> ARRAY[$4::text]
 ORDER BY citation_count DESC NULLS LAST, published DESC NULLS LAST, id DESC
 LIMIT $2::integer OFFSET $3::bigint;

-- Every side block of the researcher page in one round trip, as one json
-- document of rows with named fields (store.c turns it into the view
-- model):
--   pos:      {first, middle, last, counted, total, large, large_over}
--             (large: papers with more than large_over authors, which
--             make no co-author pairs, 0040)
--   fields:   [{category, papers}]
--   same:     [{id, name, slug, paper_count, h_index, total}]
--   inst:     [{id, name, slug, ror_id, country_name, last_known,
--               first_year, last_year}]
--   co:       [{id, name, slug, papers}]      (top co-authors: joint papers)
--   edges:    [{a, b, papers}] among the researcher and co
--   timeline: [{year, papers}]
-- (researcher_stats keeps fields and timeline as [[category, papers]]
-- and [[year, papers]], 0009: named here.)
-- here: what the papers here say of the researcher's citations (0046:
-- papers with a count, citations summed, h-index, h-index as first or
-- last author, whose counts), as the last refresh computed them; none
-- counted yet: papers_with_citations 0, the rest null (unknown, not 0).
-- pos, fields, timeline and here come from researcher_stats, co and
-- edges from coauthor_pairs (0009, kept by the writers): index lookups whatever the
-- researcher's paper count.  The co-authors, strongest first, are the
-- pairs of two or more joint papers from coauthor_pairs_top, which
-- holds only those (0067), then, when they are fewer than the list
-- holds, pairs of one paper in id order from the primary key (the
-- count is a one-time filter: that scan does not start otherwise).  A
-- researcher not yet counted there has no pos, fields, co-authors or
-- timeline until the writer's refresh.
-- $1 researcher id, $2 its name_key; the lengths of fields, same-name,
-- institutions and co-authors are written in (pages.h): with no LIMIT
-- parameter PostgreSQL keeps one plan for the statement instead of
-- planning it at every execution (0.5 ms, as long as running it).
-- The edges: one primary-key probe for each pair of members (at most
-- 25 * 24 / 2 = 300).  Reading each member's pairs instead and keeping
-- those among the members cost as many rows as the members have
-- co-authors: 37,730 for the busiest of 1,020,001 synthetic papers, whose
-- co-authors are prolific too, 13-15 ms of the page's statement; the
-- probes take it to 3.3 ms (tests/bench/README.md, "1,000,000 synthetic
-- papers, end to end").  The LIMIT keeps the probe a subquery run per
-- pair: as a join, the planner went back to reading every member's pairs
-- once the tables were analysed (a hash join, 8.1 ms).
-- name: RESEARCHER_BLOCKS
WITH s AS MATERIALIZED (
	SELECT first_pos, middle_pos, last_pos, counted, total, fields,
	       timeline, large_papers, here_papers, here_citations, here_h,
	       here_h_lead, here_sources
	  FROM researcher_stats
	 WHERE researcher_id = $1::bigint
), strong AS MATERIALIZED (
	SELECT c.b, c.papers
	  FROM coauthor_pairs c
	 WHERE c.a = $1::bigint AND c.papers >= 2
	 ORDER BY c.papers DESC, c.b
	 LIMIT {{PAGES_COAUTHORS_MAX}}
), co AS MATERIALIZED (
	SELECT x.b AS id, r.name, r.slug, x.papers AS n
	  FROM (SELECT b, papers FROM strong
	        UNION ALL
	        (SELECT c.b, c.papers
	           FROM coauthor_pairs c
	          WHERE c.a = $1::bigint AND c.papers < 2
	            AND (SELECT count(*) FROM strong)
	                < {{PAGES_COAUTHORS_MAX}}
	          ORDER BY c.b
	          LIMIT {{PAGES_COAUTHORS_MAX}})) x
	  JOIN researchers r ON r.id = x.b
	 ORDER BY x.papers DESC, x.b
	 LIMIT {{PAGES_COAUTHORS_MAX}}
), net AS MATERIALIZED (
	SELECT id FROM co
	UNION ALL
	SELECT $1::bigint WHERE EXISTS (SELECT 1 FROM co)
)
SELECT json_build_object(
	'pos', (SELECT json_build_object('first', first_pos,
	                                 'middle', middle_pos,
	                                 'last', last_pos, 'counted', counted,
	                                 'total', total,
	                                 'large', large_papers,
	                                 'large_over', weft_pair_authors_max())
		  FROM s),
	'fields', (SELECT json_agg(json_build_object('category', f.e -> 0,
	                                             'papers', f.e -> 1)
	                           ORDER BY f.o)
		     FROM (SELECT x.e, x.o
		             FROM s, json_array_elements(s.fields)
		                  WITH ORDINALITY AS x(e, o)
		            ORDER BY x.o
		            LIMIT {{PAGES_FIELDS_MAX}}) f),
	'same', (SELECT json_agg(json_build_object('id', id, 'name', name,
	                                           'slug', slug,
	                                           'paper_count', paper_count,
	                                           'h_index', h_index,
	                                           'total', total)
	                         ORDER BY paper_count DESC,
	                                  h_index DESC NULLS LAST, id)
		   FROM (SELECT id, name, slug, paper_count, h_index,
		                count(*) OVER () AS total
		           FROM researchers
		          WHERE name_key = $2 AND id <> $1::bigint
		          ORDER BY paper_count DESC, h_index DESC NULLS LAST, id
		          LIMIT {{PAGES_SAME_NAME_MAX}}) s),
	'inst', (SELECT json_agg(json_build_object('id', id, 'name', name,
	                                           'slug', slug, 'ror_id', ror_id,
	                                           'country_name', country_name,
	                                           'last_known', last_known,
	                                           'first_year', first_year,
	                                           'last_year', last_year)
	                         ORDER BY last_known DESC,
	                                  last_year DESC NULLS LAST, name, id)
		   FROM (SELECT i.id, i.name, i.slug, i.ror_id, i.country_name,
		                ri.last_known, ri.first_year, ri.last_year
		           FROM (SELECT institution_id,
		                        bool_or(last_known) AS last_known,
		                        min(first_year) AS first_year,
		                        max(last_year) AS last_year
		                   FROM researcher_institutions
		                  WHERE researcher_id = $1::bigint
		                  GROUP BY institution_id) ri
		           JOIN institutions i ON i.id = ri.institution_id
		          ORDER BY ri.last_known DESC,
		                   ri.last_year DESC NULLS LAST, i.name, i.id
		          LIMIT {{PAGES_INSTITUTIONS_MAX}}) s),
	'co', (SELECT json_agg(json_build_object('id', id, 'name', name,
	                                         'slug', slug, 'papers', n)
	                       ORDER BY n DESC, id)
		 FROM co),
	'edges', (SELECT json_agg(json_build_object('a', c.a, 'b', c.b,
	                                            'papers', c.papers)
	                          ORDER BY c.a, c.b)
		    FROM net x
		    JOIN net y ON y.id > x.id
		    CROSS JOIN LATERAL (SELECT p.a, p.b, p.papers
		                          FROM coauthor_pairs p
		                         WHERE p.a = x.id AND p.b = y.id
		                         LIMIT 1) c),
	'timeline', (SELECT json_agg(json_build_object('year', t.e -> 0,
	                                               'papers', t.e -> 1)
	                             ORDER BY t.o)
		       FROM s, json_array_elements(s.timeline)
		               WITH ORDINALITY AS t(e, o)),
	'here', (SELECT json_build_object(
	                    'papers_with_citations', coalesce(s.here_papers, 0),
	                    'citations', s.here_citations,
	                    'h_index', s.here_h,
	                    'h_index_lead', s.here_h_lead,
	                    'sources', coalesce(to_json(string_to_array(
	                        nullif(s.here_sources, ''), ',')), '[]'))
		   FROM (SELECT 1) one LEFT JOIN s ON true)
)::text AS blocks;

-- name: INSTITUTION_BY_ID
SELECT id, ror_id, name, slug, to_json(aliases)::text AS aliases,
       country_code, country_name, type, status, website, established,
       researcher_count, openalex_id
  FROM institutions
 WHERE id = $1::bigint;

-- name: INSTITUTION_BY_ROR
SELECT id, name, slug
  FROM institutions
 WHERE ror_id = $1;

-- Case-insensitive exact match on the name, an alias or the slug; each
-- has an index (0001 and 0007), so the lookup is a bitmap OR.
-- name: INSTITUTIONS_BY_NAME
SELECT id, name, slug, country_name, researcher_count
  FROM institutions
 WHERE lower(name) = lower($1)
    OR slug = $2
    OR weft_lower_all(aliases) @> ARRAY[lower($1)]
 ORDER BY researcher_count DESC, name, id
 LIMIT 50;

-- The institution's researchers, one row each whatever the number of
-- sources linking them (0037: one link per source), with the years of
-- their links: first_year and last_year NULL when a link has none (then
-- their papers of every year count as written there).
-- name: INSTITUTION_RESEARCHERS
SELECT r.id, r.name, r.slug, r.paper_count, r.h_index,
       l.first_year, l.last_year, count(*) OVER () AS total
  FROM (SELECT researcher_id,
               CASE WHEN bool_and(first_year IS NOT NULL)
                    THEN min(first_year) END AS first_year,
               CASE WHEN bool_and(last_year IS NOT NULL)
                    THEN max(last_year) END AS last_year
          FROM researcher_institutions
         WHERE institution_id = $1::bigint
         GROUP BY researcher_id) l
  JOIN researchers r ON r.id = l.researcher_id
 ORDER BY r.paper_count DESC, r.id
 LIMIT $2::integer;

-- The papers the institution's researchers wrote while there (issue 16):
-- published within the years of one of their links to it, or in any
-- year when that link has no years; newest first, a page of $2 from
-- offset $3, with their number.
-- name: INSTITUTION_PAPERS
SELECT {{CARD_COLUMNS}},
       {{CARD_AUTHOR_LIST}} AS authors,
       count(*) OVER () AS total
  FROM papers p
 WHERE p.id IN (SELECT a.paper_id
                  FROM authorships a
                  JOIN researcher_institutions ri
                    ON ri.researcher_id = a.researcher_id
                  JOIN papers q ON q.id = a.paper_id
                 WHERE ri.institution_id = $1::bigint
                   AND {{WHILE_THERE}})
 ORDER BY published DESC NULLS LAST, id DESC
 LIMIT $2::integer OFFSET $3::bigint;

-- Paper q written during link ri: its year within the link's years (a
-- bound the link lacks is open).
-- fragment: WHILE_THERE
(ri.first_year IS NULL
 OR extract(year FROM q.published) >= ri.first_year)
AND (ri.last_year IS NULL
     OR extract(year FROM q.published) <= ri.last_year)

-- name: RESEARCHERS_COUNT
SELECT researchers FROM corpus_counts;

-- name: RESEARCHERS_PAGE
-- The directory's order is researcher_directory's index (0082), which
-- its triggers keep with the counts in the same statement.  The page is
-- cut from it alone, and only its rows read from researchers: joined
-- first, the rows an offset skips were each read too (2.2 s for offset
-- 100,000 at 1 M papers, cold).
SELECT r.id, r.name, r.slug, r.paper_count, r.h_index, r.citations
  FROM (SELECT researcher_id, paper_count
          FROM researcher_directory
         WHERE paper_count > 0
         ORDER BY paper_count DESC, researcher_id
         LIMIT $1::integer OFFSET $2::bigint) d
  JOIN researchers r ON r.id = d.researcher_id
 ORDER BY d.paper_count DESC, d.researcher_id;

-- name: INSTITUTIONS_COUNT
SELECT institutions FROM corpus_counts;

-- name: INSTITUTIONS_PAGE
SELECT id, name, slug, country_name, type, researcher_count
  FROM institutions
 ORDER BY researcher_count DESC, name, id
 LIMIT $1::integer OFFSET $2::bigint;

-- search
-- The statements of /search (modules/pages/search/search_store.c and
-- search_rank.c).  A paper search is two statements, whatever the mode
-- and sort: SEARCH_CANDIDATES finds a bounded set of candidates with
-- what ranking needs, the C code ranks them (text, vector similarity or
-- both; newest; most cited), counts the facets and cuts the page, and
-- SEARCH_PAGE fetches the cards of that page.
--
-- Candidates: a pool of at most $10 all-words matches (websearch_to_tsquery
-- of the user's text $1, so quotes, -word and "or" work and nothing
-- raises), a fill of at most $11 any-word matches found through the
-- query's rarer words only ($3, "a or b", chosen with SEARCH_RARE_WORDS),
-- and the papers of $13 (the semantic index's nearest papers, computed by
-- the worker).  All three are bounded however large the corpus grows.
-- The pools take the newest (or, $12 = 'citations', the most cited)
-- matches, found by walking an index in that order (common words) or
-- through the GIN index and a sort (rare ones); the search runs with
-- custom plans (SEARCH_CUSTOM_PLANS) so that the planner sees the words
-- and folds the CASEs of the ORDER BY into one index order.  The
-- planner's row estimates are good but its costs are not: a walk tests
-- every row it passes (a TOASTed search_vector each, ~6 us) and it walks
-- for words in 2 % of the papers, 50-150 ms.  So SEARCH_WAY decides
-- first ($16, weft_search_way of 0048), from the document counts in
-- search_terms (independent words): the walk passes about 2 $10 N / M
-- rows for M matches of N papers, the GIN path visits M (~3 us each);
-- between the two, where both cost about sqrt(N), a window (0048: the
-- newest 2 % or 15 % of the papers, since $15, each in a table of its
-- own, 0087, 0088; by citations, 0053: of the most cited 2 % or 15 %,
-- cited $19 times or more, partial GIN indexes of papers) visits
-- only the matches it holds, and when they do not fill the pool
-- the way it would have taken ($17) follows.  The other branches are
-- left out (one-time filters), and the "+ 0" of the GIN and window
-- branches keeps the planner off the index order.  On those branches
-- the filters are tested on the heap rows, never through an index of
-- their own: the planner priced a BitmapAnd of papers_categories
-- (346,353 entries for cs.SE at 1 M papers, 79 ms to read) with 335
-- matches of a rare word below a visit of those 335 rows (0.1 ms).
-- Hence "|| ''" and "+ 0".  The category is the exception: the search
-- index and the windows' hold the categories beside the words (0056,
-- 0057), read in one GIN scan that skips through the category's
-- entries by the word's ("expressive power" in cs.SE at 1,100,001
-- papers: 1,074 rows visited instead of 7,219, 13 ms instead of 389;
-- "open source" in cs.DB in the far window: 1,853 instead of 28,807).
-- The walk's branch keeps the filters indexable: for a common word and
-- a small category ("open source", cs.DB: 119,533 and 77,595 papers)
-- the BitmapAnd is one of its plans (100 ms against 412 ms for a visit
-- of every match; weft_search_way prices it).  The fill's words are
-- rare by choice, so it always takes the GIN path, and tests "not all
-- words" only on its sorted rows until it has $11 (a lazy per-row
-- subquery, not a filter over every match).  $4 holds the negated words
-- ("a or b"): the fill and the vector candidates must avoid them too;
-- the vector candidates are filtered in the final join, which reads
-- their rows anyway.
-- Filters $5-$9 and $14 (paper_type) are NULL when absent, and so are
-- $15 when the way is not a date window and $19 when it is not a
-- citation window.
-- Columns: id, tier (1 all words, 2 rarer words, 3 vector only),
-- published, citations, categories (space-separated), ts_rank over the
-- OR of every positive word ($2) with normalisation 1, pool size,
-- paper_type (for its facet).

-- No parallel workers (starting one costs more than these bounded
-- statements; two cores serve four requests at a time) and no JIT; and
-- the dates the search windows start (0048), NULL where there is none,
-- for SEARCH_WAY: parameters, so that SEARCH_CANDIDATES' custom plan
-- sees a constant its window's index predicate follows from.
-- name: SEARCH_CUSTOM_PLANS
SELECT set_config('plan_cache_mode', 'force_custom_plan', true)
           AS plan_cache_mode,
       set_config('max_parallel_workers_per_gather', '0', true)
           AS max_parallel_workers_per_gather,
       set_config('jit', 'off', true) AS jit,
       (SELECT since FROM search_windows
         WHERE name = 'near' AND weft_search_window_index_ok(index_name))
           AS near_since,
       (SELECT since FROM search_windows
         WHERE name = 'far' AND weft_search_window_index_ok(index_name))
           AS far_since;

-- The words of $1 (space-separated) rare enough to find any-word
-- matches: rarest first (a word's count is its commonest lexeme's
-- papers; a lexeme search_terms does not list is rare), while their
-- counts add up to less than $2 papers, so that the fill's GIN path
-- visits at most about $2 rows however many words the query has (a
-- question of 30 words had 14 "rare" words, 5,327 matches to visit and
-- sort, 240-1,355 ms at 110,000 papers).  Words that are only stop
-- words are left out.
-- name: SEARCH_RARE_WORDS
SELECT w
  FROM (SELECT t.w, sum(c.n) OVER (ORDER BY c.n, t.o) AS upto
          FROM regexp_split_to_table($1, '\s+') WITH ORDINALITY AS t(w, o),
               LATERAL (SELECT max(coalesce(st.ndoc, 0)) AS n
                          FROM unnest(tsvector_to_array(to_tsvector(
                                   'english'::regconfig,
                                   weft_unaccent(t.w)))) AS l
                          LEFT JOIN search_terms st ON st.lexeme = l) c
         WHERE t.w <> '' AND c.n IS NOT NULL) r
 WHERE upto < $2::integer;

-- How SEARCH_CANDIDATES finds the pool of positive words $1 ("a or b"):
-- way and after (weft_search_way, 0048) for a pool of $2 sorted by $3,
-- in category $4, up to date $5, with the windows since $6 (near) and
-- $7 (far) (SEARCH_CUSTOM_PLANS gives them), the date the chosen window
-- starts (NULL: none), and the key: the query's three rarest lexemes
-- AND-ed, which every match of the user's text $8 has when its tsquery
-- is made of AND and phrases only (no "or", no negation; else NULL), as
-- tsquery text, and the fewest citations of the chosen citation window
-- (0053; NULL: none).  SEARCH_CANDIDATES' $15-$19.  The GIN index reads
-- the key and the heap rows are tested against the whole query: a
-- question's all-words pool took 35.9 ms in the index, for the posting
-- lists of its common words (87 matches at 1,040,001 papers), and
-- 5.5 ms through its key.
-- name: SEARCH_WAY
WITH q AS (
  SELECT websearch_to_tsquery('english'::regconfig, weft_unaccent($8))::text
             AS t
), k AS (
  SELECT m[1] AS tok, coalesce(max(st.ndoc), 0) AS n
    FROM q, regexp_matches(q.t, '''(?:[^'']|'''')*''', 'g') AS m
    LEFT JOIN search_terms st
      ON st.lexeme = replace(replace(substr(m[1], 2, length(m[1]) - 2),
                                     '''''', ''''), '\\', '\')
   WHERE strpos(q.t, '|') = 0 AND strpos(q.t, '!') = 0
   GROUP BY 1
)
SELECT w.way, w.after,
       CASE w.way WHEN 'near' THEN $6::date WHEN 'far' THEN $7::date END
           AS since,
       (SELECT s.min_citations FROM search_windows s
         WHERE s.name = w.way AND weft_search_window_cited(w.way))
           AS min_citations,
       (SELECT string_agg(tok, ' & ' ORDER BY n, tok)
          FROM (SELECT tok, n FROM k ORDER BY n, tok LIMIT 3) x) AS key
  FROM weft_search_way($1, $2::integer, $3::text, $4::text, $5::date,
                       $6::date, $7::date) w;

-- name: SEARCH_CANDIDATES
WITH win AS MATERIALIZED (
  SELECT p.id
    FROM (SELECT n.paper_id AS id, n.published, NULL::integer AS citation_count,
                 n.categories, n.paper_type, n.search_vector
            FROM search_near n
           WHERE $16::text = 'near'
          UNION ALL
          SELECT f.paper_id, f.published, NULL, f.categories, f.paper_type,
                 f.search_vector
            FROM search_far f
           WHERE $16::text = 'far'
          UNION ALL
          SELECT p.id, p.published, p.citation_count, p.categories,
                 p.paper_type, p.search_vector
            FROM papers p
           WHERE $16::text IN ('top_cited', 'cited')) p
   WHERE $10::integer > 0
     AND CASE WHEN $16::text IN ('near', 'far')
              THEN p.published + 0 >= $15::date
              ELSE p.citation_count + 0 >= $19::integer END
     AND p.search_vector @@ coalesce($18::tsquery,
             websearch_to_tsquery('english'::regconfig, weft_unaccent($1)))
     AND ($18::text IS NULL OR ts_match_vq(p.search_vector,
             websearch_to_tsquery('english'::regconfig, weft_unaccent($1))))
     AND ($5::text IS NULL OR p.categories @> ARRAY[$5::text])
     AND ($14::text IS NULL OR p.paper_type || '' = $14::text)
     AND ($6::date IS NULL OR p.published + 0 >= $6::date)
     AND ($7::date IS NULL OR p.published + 0 <= $7::date)
     AND ($8::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
             WHERE a.paper_id = p.id AND a.researcher_id = $8::bigint))
     AND ($9::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
             JOIN researcher_institutions ri
               ON ri.researcher_id = a.researcher_id
             WHERE a.paper_id = p.id AND ri.institution_id = $9::bigint))
   ORDER BY CASE WHEN $19::integer IS NOT NULL
                 THEN p.citation_count + 0 END DESC NULLS LAST,
            CASE WHEN $19::integer IS NOT NULL THEN NULL
                 ELSE p.published + 0 END DESC,
            p.id DESC
   LIMIT $10::integer
), filled AS MATERIALIZED (
  SELECT count(*) >= $10::integer AS filled FROM win
), go AS MATERIALIZED (
  SELECT CASE WHEN $16::text IN ('near', 'far', 'top_cited', 'cited')
                   AND NOT f.filled
              THEN $17::text ELSE $16::text END AS way
    FROM filled f
), pool AS MATERIALIZED (
  (SELECT id FROM win WHERE (SELECT filled FROM filled))
  UNION ALL
  (SELECT p.id
    FROM papers p
   WHERE $10::integer > 0
     AND (SELECT way FROM go) = 'walk'
     AND p.search_vector @@ websearch_to_tsquery('english'::regconfig,
             weft_unaccent($1))
     AND ($5::text IS NULL OR p.categories @> ARRAY[$5::text])
     AND ($14::text IS NULL OR p.paper_type = $14::text)
     AND ($6::date IS NULL OR p.published >= $6::date)
     AND ($7::date IS NULL OR p.published <= $7::date)
     AND ($8::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
             WHERE a.paper_id = p.id AND a.researcher_id = $8::bigint))
     AND ($9::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
             JOIN researcher_institutions ri
               ON ri.researcher_id = a.researcher_id
             WHERE a.paper_id = p.id AND ri.institution_id = $9::bigint))
   ORDER BY CASE WHEN $12::text = 'citations' THEN p.citation_count END
            DESC NULLS LAST,
            CASE WHEN $12::text = 'citations' THEN NULL ELSE p.published END
            DESC,
            p.id DESC
   LIMIT $10::integer)
  UNION ALL
  (SELECT p.id
    FROM papers p
   WHERE $10::integer > 0
     AND (SELECT way FROM go) = 'gin'
     AND p.search_vector @@ coalesce($18::tsquery,
             websearch_to_tsquery('english'::regconfig, weft_unaccent($1)))
     AND ($18::text IS NULL OR ts_match_vq(p.search_vector,
             websearch_to_tsquery('english'::regconfig, weft_unaccent($1))))
     AND ($5::text IS NULL OR p.categories @> ARRAY[$5::text])
     AND ($14::text IS NULL OR p.paper_type || '' = $14::text)
     AND ($6::date IS NULL OR p.published + 0 >= $6::date)
     AND ($7::date IS NULL OR p.published + 0 <= $7::date)
     AND ($8::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
             WHERE a.paper_id = p.id AND a.researcher_id = $8::bigint))
     AND ($9::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
             JOIN researcher_institutions ri
               ON ri.researcher_id = a.researcher_id
             WHERE a.paper_id = p.id AND ri.institution_id = $9::bigint))
   ORDER BY CASE WHEN $12::text = 'citations'
                 THEN p.citation_count + 0 END DESC NULLS LAST,
            CASE WHEN $12::text = 'citations' THEN NULL
                 ELSE p.published + 0 END DESC,
            p.id DESC
   LIMIT $10::integer)
), fill AS MATERIALIZED (
  SELECT f.id
    FROM (SELECT p.id,
                 CASE WHEN $12::text = 'citations'
                      THEN p.citation_count + 0 END AS k1,
                 CASE WHEN $12::text = 'citations' THEN NULL
                      ELSE p.published + 0 END AS k2
            FROM papers p
           WHERE $11::integer > 0
             AND $3::text <> ''
             AND p.search_vector @@ websearch_to_tsquery('english'::regconfig,
                     weft_unaccent($3))
             AND ($5::text IS NULL OR p.categories @> ARRAY[$5::text])
             AND ($14::text IS NULL OR p.paper_type || '' = $14::text)
             AND ($6::date IS NULL OR p.published + 0 >= $6::date)
             AND ($7::date IS NULL OR p.published + 0 <= $7::date)
             AND ($8::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
                     WHERE a.paper_id = p.id AND a.researcher_id = $8::bigint))
             AND ($9::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
                     JOIN researcher_institutions ri
                       ON ri.researcher_id = a.researcher_id
                     WHERE a.paper_id = p.id
                       AND ri.institution_id = $9::bigint))
           ORDER BY k1 DESC NULLS LAST, k2 DESC, p.id DESC
          OFFSET 0) f
   WHERE NOT (SELECT x.search_vector @@ websearch_to_tsquery(
                     'english'::regconfig, weft_unaccent($1))
                  OR ($4::text <> '' AND x.search_vector @@
                     websearch_to_tsquery('english'::regconfig,
                         weft_unaccent($4)))
                FROM papers x WHERE x.id = f.id)
   LIMIT $11::integer
), hits AS (
  SELECT id, min(tier) AS tier
    FROM (SELECT id, 1 AS tier FROM pool
          UNION ALL SELECT id, 2 FROM fill
          UNION ALL SELECT id, 3 FROM unnest($13::bigint[]) AS v(id)) h
   GROUP BY id
)
SELECT h.id, h.tier, p.published, p.citation_count,
       array_to_string(p.categories, ' ') AS categories,
       ts_rank(p.search_vector, websearch_to_tsquery('english'::regconfig,
           weft_unaccent($2)), 1) AS rank,
       (SELECT count(*) FROM pool) AS pool_size, p.paper_type
  FROM hits h JOIN papers p ON p.id = h.id
 WHERE h.tier < 3
    OR (NOT ($4::text <> '' AND p.search_vector @@
             websearch_to_tsquery('english'::regconfig, weft_unaccent($4)))
        AND ($5::text IS NULL OR p.categories @> ARRAY[$5::text])
        AND ($14::text IS NULL OR p.paper_type = $14::text)
        AND ($6::date IS NULL OR p.published >= $6::date)
        AND ($7::date IS NULL OR p.published <= $7::date)
        AND ($8::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
                WHERE a.paper_id = p.id AND a.researcher_id = $8::bigint))
        AND ($9::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
                JOIN researcher_institutions ri
                  ON ri.researcher_id = a.researcher_id
                WHERE a.paper_id = p.id AND ri.institution_id = $9::bigint)));

-- Browse without a query (/search?category=cs.DB&sort=newest): the
-- papers of category $1 (NULL: all) published from $2 to $3 (NULL: open),
-- by researcher $4 / institution $5 (NULL: any), at most $6 (the page's
-- 1,000 and one more: search_store.c says "more" when it comes).  The
-- candidates' columns in their order (search_store.c reads both with
-- PAGES_SEARCH_CANDIDATES__*), pool_size 0: nothing counts the whole.
-- A count(*) OVER () here made every browse read each paper it
-- matched, the whole table for /search?sort=newest.  Each order is a
-- statement of its own, that of an index (papers_published,
-- papers_citations), so that the custom plan can walk it and stop at
-- $6 rows.
-- fragment: BROWSE_ROWS
SELECT p.id, 1 AS tier, p.published, p.citation_count,
       array_to_string(p.categories, ' ') AS categories, 0::real AS rank,
       0::bigint AS pool_size
  FROM papers p
 WHERE ($1::text IS NULL OR p.categories @> ARRAY[$1::text])
   AND ($2::date IS NULL OR p.published >= $2::date)
   AND ($3::date IS NULL OR p.published <= $3::date)
   AND ($4::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
           WHERE a.paper_id = p.id AND a.researcher_id = $4::bigint))
   AND ($5::bigint IS NULL OR EXISTS (SELECT 1 FROM authorships a
           JOIN researcher_institutions ri
             ON ri.researcher_id = a.researcher_id
           WHERE a.paper_id = p.id AND ri.institution_id = $5::bigint))

-- Newest first (and for sort=relevance, which has no query to rank by).
-- name: SEARCH_BROWSE_NEWEST
{{BROWSE_ROWS}}
 ORDER BY p.published DESC, p.id DESC
 LIMIT $6::integer;

-- Most cited first, unknown counts last; ties by id (the index's), the
-- page orders the rows it keeps by date within a count (search_rank.c).
-- name: SEARCH_BROWSE_CITED
{{BROWSE_ROWS}}
 ORDER BY p.citation_count DESC NULLS LAST, p.id DESC
 LIMIT $6::integer;

-- The arXiv categories the papers here carry, with their paper counts
-- (/categories; a category no paper carries is unknown: 404), as the
-- writers keep them (category_counts, 0091): counted here, a cold
-- /categories read the whole papers table (10 GB at 2.5 M papers).
-- name: CATEGORY_COUNTS
SELECT category, papers
  FROM category_counts
 WHERE papers > 0
 ORDER BY category;

-- Whether any paper carries category $1.
-- name: CATEGORY_EXISTS
SELECT EXISTS (SELECT 1 FROM category_counts
                WHERE category = $1 AND papers > 0);

-- The cards of one page: papers $1 in that order, with their tiers $3.
-- Highlights of the positive words ($2, "a or b") are marked with U+E000
-- and U+E001, removed from the text first, and split by the C code:
-- ts_headline's output is never HTML.  The snippet comes from the
-- abstract's first 700 characters: headlines parse and stem the whole
-- text.
-- Columns: the paper card columns, tier, marked title, marked snippet,
-- authors (json).
-- name: SEARCH_PAGE
SELECT {{CARD_COLUMNS}}, g.tier,
       ts_headline('english'::regconfig,
           translate(p.title, chr(57344) || chr(57345), ''),
           websearch_to_tsquery('english'::regconfig, weft_unaccent($2)),
           'HighlightAll=true, StartSel=' || chr(57344) || ', StopSel=' ||
           chr(57345)) AS title_marked,
       ts_headline('english'::regconfig,
           translate(left(p.abstract, 700), chr(57344) || chr(57345), ''),
           websearch_to_tsquery('english'::regconfig, weft_unaccent($2)),
           'MaxFragments=2, MaxWords=28, MinWords=12, ' ||
           'FragmentDelimiter=" … ", StartSel=' || chr(57344) ||
           ', StopSel=' || chr(57345)) AS snippet_marked,
       (SELECT json_agg(json_build_object('name', a.raw_name, 'id', r.id,
                   'slug', r.slug) ORDER BY a.position)::text
          FROM authorships a LEFT JOIN researchers r ON r.id = a.researcher_id
         WHERE a.paper_id = p.id AND a.position <= 12) AS authors
  FROM unnest($1::bigint[], $3::integer[]) WITH ORDINALITY AS g(id, tier, ord)
  JOIN papers p ON p.id = g.id
 ORDER BY g.ord;

-- Names, unaccented and lower-cased (search_key, weft_name_key of the name,
-- stored and indexed by trigrams: 0010): similar as a whole (%) or as a
-- word of the name (%>), ranked by the better of the two similarities in
-- steps of 0.1, then by size.
-- name: SEARCH_RESEARCHERS
SELECT id, name, slug, paper_count, h_index, citations,
       count(*) OVER () AS total
  FROM (SELECT r.id, r.name, r.slug, r.paper_count, r.h_index, r.citations,
               greatest(similarity(r.search_key, k.key),
                        word_similarity(k.key, r.search_key)) AS sim,
               r.search_key = k.key AS exact
          FROM (SELECT weft_name_key($1) AS key) k, researchers r
         WHERE r.paper_count > 0
           AND (r.search_key % k.key OR r.search_key %> k.key)) s
 ORDER BY exact DESC, round(sim::numeric, 1) DESC, paper_count DESC, id
 LIMIT $2::integer OFFSET $3::bigint;

-- name: SEARCH_INSTITUTIONS
SELECT id, name, slug, country_name, type, researcher_count,
       count(*) OVER () AS total
  FROM (SELECT i.id, i.name, i.slug, i.country_name, i.type,
               i.researcher_count,
               greatest(similarity(i.search_key, k.key),
                        word_similarity(k.key, i.search_key)) AS sim
          FROM (SELECT weft_name_key($1) AS key) k, institutions i
         WHERE i.search_key % k.key OR i.search_key %> k.key) s
 ORDER BY round(sim::numeric, 1) DESC, researcher_count DESC, name, id
 LIMIT $2::integer OFFSET $3::bigint;

-- The top few ($2) of each for a search with no type, in one statement:
-- the close matches only.  Researchers: weft_names_close (0052) by the
-- words of their names (a word starting with each word of the query),
-- 2,000 rows of the lists read (beyond, the total is an estimate:
-- approx); institutions: the names of which the
-- query is a word or nearly (%>, word similarity >= 0.6), ranked as
-- SEARCH_INSTITUTIONS ranks them.  The whole-name similarity (%) is the
-- costly half of the trigram search; the type=researchers and
-- type=institutions pages keep it.
-- Columns: kind ('r' or 'i'), id, name, slug, paper_count or
-- researcher_count, h_index, citations, country_name, type, close
-- matches of that kind, whether that number is an estimate.
-- name: SEARCH_NAMES_FEW
WITH k AS (SELECT weft_name_key($1) AS key),
i AS MATERIALIZED (
  SELECT i.id, i.name, i.slug, i.country_name, i.type, i.researcher_count,
         word_similarity(k.key, i.search_key) AS sim
    FROM k, institutions i
   WHERE i.search_key %> k.key
)
(SELECT 'r' AS kind, r.id, r.name, r.slug, r.paper_count AS size,
        r.h_index, r.citations, NULL AS country_name, NULL AS type,
        c.total, c.estimated AS approx
   FROM weft_names_close($1, $2::integer, 2000) WITH ORDINALITY AS c
   JOIN researchers r ON r.id = c.id
  ORDER BY c.ordinality)
UNION ALL
(SELECT 'i', id, name, slug, researcher_count, NULL, NULL, country_name,
        type, (SELECT count(*) FROM i), false
   FROM i
  ORDER BY round(sim::numeric, 1) DESC, researcher_count DESC, name, id
  LIMIT $2::integer);

-- The semantic index file that is current (modules/pages/vindex.c).
-- name: VECTOR_INDEX_LATEST
SELECT version, path
  FROM vector_index
 ORDER BY version DESC
 LIMIT 1;

-- evidence
-- "Why these papers are here" (modules/pages/evidence/evidence_store.c): the
-- matcher's reason and score of each authorship (0006_match.sql).

-- The summary on the researcher page, one json document of named
-- members:
--   reasons: [{reason, papers, score_avg, score_min}]
--   co:      [{id, name, slug, papers}] co-authors on a paper joined by
--            shared co-authors who are also on another of its papers
--   seed:    {reason, score, arxiv_id, title, slug, published, paper_id}
--            the authorship that started this profile apart from its
--            namesakes (or that an external id placed), if any
--   same:    [{id, name, slug, papers, openalex, orcid,
--            semantic_scholar, total, seed}] the other researchers with
--            this name key, seed as above or null
-- researcher_stats keeps reasons and co as arrays (0013, 0011), which
-- this statement names.
-- $1 researcher id, $2 its name_key; the numbers of co-authors and
-- namesakes are written in (pages.h).  reasons and co are
-- researcher_stats.evidence_reasons (0013) and evidence_co (0011),
-- refreshed with the co-author pairs, as current as the co-author block;
-- computed here (reasons: an index-only range of
-- authorships_researcher_newest) only for a researcher the refresh has
-- not seen yet.  seed and the namesakes' seeds walk
-- authorships_seed_newest (0014), index-only.
-- name: EVIDENCE_SUMMARY
WITH mine AS MATERIALIZED (
	SELECT paper_id, match_reason, match_score
	  FROM authorships
	 WHERE researcher_id = $1::bigint
), same AS (
	SELECT id, name, slug, paper_count, openalex_id, orcid, s2_id,
	       count(*) OVER () AS total
	  FROM researchers
	 WHERE name_key = $2 AND id <> $1::bigint
	 ORDER BY paper_count DESC, id
	 LIMIT {{PAGES_EV_NAMESAKES_MAX}}
)
SELECT json_build_object(
	'reasons', CASE WHEN EXISTS (SELECT 1 FROM researcher_stats
	                              WHERE researcher_id = $1::bigint
	                                AND evidence_reasons IS NOT NULL)
	      THEN (SELECT json_agg(json_build_object('reason', e.x -> 0,
	                                              'papers', e.x -> 1,
	                                              'score_avg', e.x -> 2,
	                                              'score_min', e.x -> 3)
	                            ORDER BY e.o)
		      FROM researcher_stats s,
		           json_array_elements(s.evidence_reasons)
		           WITH ORDINALITY AS e(x, o)
		     WHERE s.researcher_id = $1::bigint)
	      ELSE (SELECT json_agg(json_build_object('reason', reason,
	                                              'papers', n,
	                                              'score_avg', av,
	                                              'score_min', mn)
	                            ORDER BY n DESC, reason)
		   FROM (SELECT coalesce(match_reason, '') AS reason,
		                count(DISTINCT paper_id) AS n,
		                round(avg(match_score)::numeric, 2) AS av,
		                round(min(match_score)::numeric, 2) AS mn
		           FROM mine
		          GROUP BY 1) g) END,
	'co', CASE WHEN EXISTS (SELECT 1 FROM researcher_stats
	                         WHERE researcher_id = $1::bigint
	                           AND evidence_co IS NOT NULL)
	      THEN (SELECT json_agg(json_build_object('id', r.id,
	                                              'name', r.name,
	                                              'slug', r.slug,
	                                              'papers',
	                                              (e.x ->> 1)::bigint)
	                            ORDER BY e.o)
		      FROM researcher_stats s,
		           json_array_elements(s.evidence_co)
		           WITH ORDINALITY AS e(x, o)
		      JOIN researchers r ON r.id = (e.x ->> 0)::bigint
		     WHERE s.researcher_id = $1::bigint
		       AND e.o <= {{PAGES_EV_COAUTHORS_MAX}})
	      ELSE (SELECT json_agg(json_build_object('id', r.id,
	                                              'name', r.name,
	                                              'slug', r.slug,
	                                              'papers', c.n)
	                            ORDER BY c.n DESC, r.id)
		      FROM (SELECT a2.researcher_id AS id,
		                   count(DISTINCT a2.paper_id) AS n
		              FROM mine m
		              JOIN authorships a2 ON a2.paper_id = m.paper_id
		                                 AND a2.researcher_id <> $1::bigint
		             GROUP BY 1
		            HAVING count(DISTINCT a2.paper_id) > 1
		               AND bool_or(m.match_reason = 'coauthors')
		             ORDER BY 2 DESC, 1
		             LIMIT {{PAGES_EV_COAUTHORS_MAX}}) c
		      JOIN researchers r ON r.id = c.id) END,
	'seed', (SELECT json_build_object('reason', a.match_reason,
	                                  'score',
	                                  round(a.match_score::numeric, 2),
	                                  'arxiv_id', p.arxiv_id,
	                                  'title', p.title, 'slug', p.slug,
	                                  'published', p.published,
	                                  'paper_id', p.id)
		   FROM authorships a
		   JOIN papers p ON p.id = a.paper_id
		  WHERE a.researcher_id = $1::bigint
		    AND a.match_reason IN ('new_identity', 'openalex_id',
		                           'openalex', 'orcid', 's2_id', 's2')
		  ORDER BY a.match_reason = 'new_identity' DESC,
		           p.published DESC NULLS LAST, p.id DESC
		  LIMIT 1),
	'same', (SELECT json_agg(json_build_object(
	                             'id', s.id, 'name', s.name,
	                             'slug', s.slug, 'papers', s.paper_count,
	                             'openalex', s.openalex_id,
	                             'orcid', s.orcid,
	                             'semantic_scholar', s.s2_id,
	                             'total', s.total,
	                             'seed', CASE WHEN d.match_reason IS NOT NULL
	                                     THEN json_build_object(
	                                          'reason', d.match_reason,
	                                          'score', d.score,
	                                          'arxiv_id', d.arxiv_id,
	                                          'title', d.title,
	                                          'slug', d.slug,
	                                          'published', d.published,
	                                          'paper_id', d.id) END)
	                         ORDER BY s.paper_count DESC, s.id)
		   FROM same s
		   LEFT JOIN LATERAL (
			SELECT a.match_reason,
			       round(a.match_score::numeric, 2) AS score,
			       p.arxiv_id, p.title, p.slug, p.published, p.id
			  FROM authorships a
			  JOIN papers p ON p.id = a.paper_id
			 WHERE a.researcher_id = s.id
			   AND a.match_reason IN ('new_identity', 'openalex_id',
			                          'openalex', 'orcid', 's2_id',
			                          's2')
			 ORDER BY a.match_reason = 'new_identity' DESC,
			          p.published DESC NULLS LAST, p.id DESC
			 LIMIT 1) d ON true)
)::text AS summary;

-- A page of the researcher's authorships, newest first (the matcher's
-- order), each with its reason and score and the evidence behind it as
-- the matcher saw it: the co-authors and categories it shares with the
-- researcher's newer papers.  Each co-author and category is reduced
-- once to the newest paper of the researcher it is on (k: [days since
-- 1900 or -1 when undated, paper id], compared as arrays), so the cost
-- is one pass over the researcher's papers, not one per page row.  As
-- in the matcher, papers of more than 100 authors give no co-author
-- evidence.  Columns: paper id, arxiv_id, title, slug, published,
-- primary_category, categories (json), position, raw_name, reason,
-- score, shared co-authors [{id, name, slug}] (json), shared categories
-- (json), author_count, total.  $1 researcher id, $2 limit, $3 offset.
-- name: EVIDENCE_PAPERS
WITH mine AS MATERIALIZED (
	SELECT a.paper_id, a.position, a.raw_name, a.match_reason,
	       a.match_score, p.categories, p.author_count,
	       ARRAY[coalesce(p.published - DATE '1900-01-01', -1)::bigint,
	             a.paper_id] AS k
	  FROM authorships a
	  JOIN papers p ON p.id = a.paper_id
	 WHERE a.researcher_id = $1::bigint
), co AS MATERIALIZED (
	SELECT a2.researcher_id AS id, max(m.k) AS newest
	  FROM mine m
	  JOIN authorships a2 ON a2.paper_id = m.paper_id
	                     AND a2.researcher_id <> $1::bigint
	 WHERE m.author_count <= 100
	 GROUP BY 1
), cats AS MATERIALIZED (
	SELECT c, max(m.k) AS newest
	  FROM mine m, unnest(m.categories) AS c
	 GROUP BY 1
), page AS (
	SELECT m.*, count(*) OVER () AS total
	  FROM mine m
	 ORDER BY m.k DESC, m.position
	 LIMIT $2::integer OFFSET $3::bigint
)
SELECT p.id, p.arxiv_id, p.title, p.slug, p.published, p.primary_category,
       to_json(p.categories)::text AS categories, g.position, g.raw_name,
       g.match_reason, round(g.match_score::numeric, 2) AS match_score,
       (SELECT json_agg(json_build_object('id', r.id, 'name', r.name,
                                          'slug', r.slug)
                        ORDER BY a2.position)
          FROM authorships a2
          JOIN co ON co.id = a2.researcher_id AND co.newest > g.k
          JOIN researchers r ON r.id = a2.researcher_id
         WHERE a2.paper_id = g.paper_id
           AND g.author_count <= 100)::text AS shared_coauthors,
       (SELECT json_agg(x.c ORDER BY x.c)
          FROM cats x
         WHERE x.c = ANY (g.categories) AND x.newest > g.k)::text
           AS shared_categories,
       p.author_count, g.total
  FROM page g
  JOIN papers p ON p.id = g.paper_id
 ORDER BY g.k DESC, g.position;

-- similar
-- "Similar papers" (modules/pages/evidence/similar_store.c): the semantic index
-- (libvectors) gives the nearest papers' ids, best first; PostgreSQL
-- only turns them into cards.

-- Cards for a '{3,1,2}' array of paper ids, in the array's order (ids no
-- longer in papers drop out).  Columns: the paper card columns, then the
-- first 12 authors as json text [[raw_name, id, slug]].
-- name: SIMILAR_CARDS
SELECT {{CARD_COLUMNS}},
       {{CARD_AUTHOR_LIST}} AS authors
  FROM unnest($1::bigint[]) WITH ORDINALITY AS s(id, n)
  JOIN papers p ON p.id = s.id
 ORDER BY s.n;

-- Identifiers typed where a page is expected (resolve.c): the paper an
-- arXiv id ($1) or a DOI ($2, any case) names.
-- name: RESOLVE_PAPER
(SELECT arxiv_id, slug FROM papers WHERE arxiv_id = $1)
UNION ALL
(SELECT arxiv_id, slug FROM papers
  WHERE lower(doi) = lower($2) AND doi IS NOT NULL
  ORDER BY published DESC NULLS LAST, arxiv_id LIMIT 1)
LIMIT 1;

-- The researcher an ORCID ($1), an OpenAlex id ($2) or an S2 id ($3)
-- names.
-- name: RESOLVE_RESEARCHER
(SELECT id, slug FROM researchers WHERE orcid = $1)
UNION ALL
(SELECT id, slug FROM researchers WHERE openalex_id = $2)
UNION ALL
(SELECT id, slug FROM researchers WHERE s2_id = $3)
LIMIT 1;

-- Researchers whose name is exactly the query (name keys equal: case,
-- accents and spacing aside), most papers first: listed before
-- everything else on the search page (search.c).
-- name: RESEARCHERS_EXACT
SELECT id, name, slug, paper_count, h_index, citations
  FROM researchers
 WHERE search_key = weft_name_key($1) AND paper_count > 0
 ORDER BY paper_count DESC, id
 LIMIT $2::integer OFFSET $3::bigint;
