-- 0026_follow_kinds.sql -- following institutions, categories and saved
-- searches besides researchers, the merged personal feed, and email
-- digests (issue 21).  Forward-only: never edit once landed; add another.
--
-- Researcher follows stay in "follows" (0002).  The other kinds live in
-- follow_targets, one row per (user, kind, target):
--   institution  institution_id
--   category     category (an arXiv code, "cs.DB")
--   search       query (normalised by accounts: terms separated by one
--                space, lower-cased, at most 32 terms and 200 bytes) and
--                category, the search's filter ('' for none)
-- accounts caps a user at ACC_FOLLOW_MAX follows of all kinds together.
CREATE TABLE follow_targets (
	id              bigserial PRIMARY KEY,
	user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	kind            text NOT NULL
	                CHECK (kind IN ('institution', 'category', 'search')),
	institution_id  bigint REFERENCES institutions (id) ON DELETE CASCADE,
	category        text NOT NULL DEFAULT ''
	                CHECK (length(category) <= 40),
	query           text NOT NULL DEFAULT ''
	                CHECK (length(query) <= 200),
	created_at      timestamptz NOT NULL DEFAULT now(),
	CHECK ((kind = 'institution') = (institution_id IS NOT NULL)),
	CHECK (kind <> 'category' OR (category <> '' AND query = '')),
	CHECK (kind <> 'search' OR query <> '')
);
CREATE UNIQUE INDEX follow_targets_one ON follow_targets
	(user_id, kind, coalesce(institution_id, 0), category, query);
CREATE INDEX follow_targets_institution ON follow_targets (institution_id)
	WHERE institution_id IS NOT NULL;

-- Digests: users.digest is 'off', 'daily' or 'weekly'; digest_since is
-- where the next digest starts (set when digests are turned on, moved
-- to the sending time by each digest sent); digest_token_hash is the
-- hash (as 0002's tokens) of the one-click unsubscribe token of the
-- mails, which works without signing in.
ALTER TABLE users
	ADD COLUMN digest text NOT NULL DEFAULT 'off'
	           CHECK (digest IN ('off', 'daily', 'weekly')),
	ADD COLUMN digest_since timestamptz,
	ADD COLUMN digest_token_hash text UNIQUE
	           CHECK (digest_token_hash ~ '^[0-9a-f]{64}$');

-- The merged feed of user uid: one row per item.  An item is a paper
-- (version 1, dated by its first version) or a later version of it
-- (dated by that version) when the paper is by a followed researcher,
-- by someone of a followed institution, in a followed category or
-- matches a followed search.  Each paper appears once per version
-- whatever the number of reasons.  reasons: why, one object per
-- (kind, target), in a fixed order: {"kind", "label", "text", and "id"
-- and "slug" (researcher, institution) or "category" and "query"
-- (search)}; text is the sentence shown ("new paper by X", "new in
-- cs.DB", "matches your search 'graph databases'"; for a later version
-- "paper by X", "in cs.DB", ...).  why: the whole line, for a later
-- version led by "v2 replaced v1".  seen: when weft learned of the item
-- (papers.created_at for a new paper, papers.modified_at for a
-- version), where digests start from.  The caller orders and pages.
-- One definition for the accounts pool (/feed, digests) and the feeds
-- pool (the private RSS), which reads follows and follow_targets
-- through the column grants below.
CREATE FUNCTION weft_follow_items(uid bigint)
RETURNS TABLE (paper_id bigint, version integer, at date, seen timestamptz,
               reasons jsonb, why text)
LANGUAGE sql STABLE AS $fn$
WITH why AS (
	SELECT a.paper_id, 1 AS o, r.name AS label,
	       jsonb_build_object('kind', 'researcher', 'label', r.name,
	           'id', r.id, 'slug', r.slug) AS reason,
	       'new paper by ' || r.name AS t1, 'paper by ' || r.name AS tn
	  FROM follows f
	  JOIN authorships a ON a.researcher_id = f.researcher_id
	  JOIN researchers r ON r.id = f.researcher_id
	 WHERE f.user_id = uid
	UNION
	SELECT a.paper_id, 2, i.name,
	       jsonb_build_object('kind', 'institution', 'label', i.name,
	           'id', i.id, 'slug', i.slug),
	       'new paper from ' || i.name, 'paper from ' || i.name
	  FROM follow_targets t
	  JOIN institutions i ON i.id = t.institution_id
	  JOIN researcher_institutions ri
	    ON ri.institution_id = t.institution_id
	  JOIN authorships a ON a.researcher_id = ri.researcher_id
	 WHERE t.user_id = uid AND t.kind = 'institution'
	UNION
	SELECT p.id, 3, t.category,
	       jsonb_build_object('kind', 'category', 'label', t.category),
	       'new in ' || t.category, 'in ' || t.category
	  FROM follow_targets t
	  JOIN papers p ON p.categories @> ARRAY[t.category]
	 WHERE t.user_id = uid AND t.kind = 'category'
	UNION
	SELECT p.id, 4, t.query,
	       jsonb_build_object('kind', 'search', 'label', t.query,
	           'query', t.query, 'category', t.category),
	       format('matches your search ''%s''', t.query)
	           || CASE WHEN t.category = '' THEN ''
	                   ELSE ' in ' || t.category END,
	       format('matches your search ''%s''', t.query)
	           || CASE WHEN t.category = '' THEN ''
	                   ELSE ' in ' || t.category END
	  FROM follow_targets t
	  JOIN papers p
	    ON p.search_vector @@ websearch_to_tsquery('english'::regconfig,
	           weft_unaccent(t.query))
	   AND (t.category = '' OR p.categories @> ARRAY[t.category])
	 WHERE t.user_id = uid AND t.kind = 'search'
), per_paper AS (
	SELECT paper_id,
	       jsonb_agg(reason || jsonb_build_object('text', t1)
	                 ORDER BY o, label) AS r1,
	       jsonb_agg(reason || jsonb_build_object('text', tn)
	                 ORDER BY o, label) AS rn,
	       string_agg(t1, '; ' ORDER BY o, label) AS w1,
	       string_agg(tn, '; ' ORDER BY o, label) AS wn
	  FROM why
	 GROUP BY paper_id
)
SELECT p.id, 1, p.published, p.created_at, w.r1, w.w1
  FROM per_paper w
  JOIN papers p ON p.id = w.paper_id
UNION ALL
SELECT p.id, (v->>'version')::integer, (v->>'date')::date, p.modified_at,
       w.rn,
       format('v%s replaced v%s: ', (v->>'version')::integer,
           (v->>'version')::integer - 1) || w.wn
  FROM per_paper w
  JOIN papers p ON p.id = w.paper_id
 CROSS JOIN LATERAL jsonb_array_elements(
           CASE jsonb_typeof(p.versions) WHEN 'array' THEN p.versions
                ELSE '[]'::jsonb END) AS v
 WHERE (v->>'version') ~ '^[0-9]{1,4}$' AND (v->>'version')::integer > 1
   AND (v->>'date') ~ '^\d{4}-\d{2}-\d{2}$'
$fn$;

-- Personal data: accounts alone reads and writes it (0017) ...
SELECT weft_private('follow_targets');
-- ... but the private feed (feeds pool) resolves what a user follows.
GRANT SELECT (user_id, kind, institution_id, category, query)
	ON follow_targets TO "weft-feeds";
