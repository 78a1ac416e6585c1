-- sql/queries/accounts.sql -- the statements of the accounts module.
-- One statement per query shape; values only as $n parameters.
-- Paper cards use the column list of pages.sql, {{CARD_COLUMNS}} here
-- too (store.c reads it as ACCOUNTS_CARD__*).

-- The paper card columns of paper p.
-- fragment: CARD_COLUMNS
p.id, p.arxiv_id, p.title, p.slug, p.published, p.primary_category,
to_json(p.categories)::text AS categories, p.citation_count,
p.author_count, p.fully_matched

-- name: USER_CREATE
-- $3 is the account key (acc_email_key: NFKC_Casefold).  Zero rows when
-- the address is taken: the same key, or (the older, stricter index of
-- 0002) the same lower(email).
INSERT INTO users (email, password_hash, email_key)
VALUES ($1, $2, $3)
ON CONFLICT DO NOTHING
RETURNING id;

-- name: USER_BY_EMAIL
-- By the account key only, the one every rate limit counts by.
SELECT id, password_hash, email
  FROM users
 WHERE email_key = $1;

-- name: EMAIL_KEY_PENDING
-- Accounts whose key 0016 could not compute in SQL (non-ASCII
-- addresses), oldest first; the workers fill them in at start.
SELECT id, email
  FROM users
 WHERE email_key IS NULL
 ORDER BY id;

-- name: EMAIL_KEY_SET
-- Gives user $1 the key $2 unless another account holds it: updated is
-- $1 when set, holder the other account's id when not (both NULL when
-- another worker keyed $1 first).
WITH holder AS (SELECT id FROM users
                 WHERE email_key = $2 AND id <> $1::bigint),
     upd AS (UPDATE users SET email_key = $2
              WHERE id = $1::bigint AND email_key IS NULL
                AND NOT EXISTS (SELECT 1 FROM holder)
             RETURNING id)
SELECT (SELECT id FROM upd) AS updated,
       (SELECT min(id) FROM holder) AS holder;

-- name: SESSION_CREATE
INSERT INTO sessions (token_hash, user_id, expires_at)
VALUES ($1, $2::bigint, now() + make_interval(secs => $3::integer));

-- name: SESSION_PURGE
-- Each sign-in removes up to 100 expired sessions (anyone's, oldest
-- first, by the expires_at index), so they cannot pile up.
DELETE FROM sessions
 WHERE token_hash IN (SELECT token_hash FROM sessions
                       WHERE expires_at < now()
                       ORDER BY expires_at
                       LIMIT 100);

-- name: SESSION_USER
SELECT u.id, u.email
  FROM sessions s
  JOIN users u ON u.id = s.user_id
 WHERE s.token_hash = $1
   AND s.expires_at > now();

-- name: SESSION_DELETE
DELETE FROM sessions WHERE token_hash = $1;

-- name: FOLLOW_STATE
SELECT r.slug,
       EXISTS (SELECT 1 FROM follows f
                WHERE f.user_id = $1::bigint AND f.researcher_id = r.id)
           AS following
  FROM researchers r
 WHERE r.id = $2::bigint;

-- name: FOLLOW
-- Nothing written once the user follows {{ACC_FOLLOW_MAX}} things of all
-- kinds (follow.c checks FOLLOW_TOTAL first and says so).
INSERT INTO follows (user_id, researcher_id)
SELECT $1::bigint, $2::bigint
 WHERE (SELECT count(*) FROM follows WHERE user_id = $1::bigint)
     + (SELECT count(*) FROM follow_targets WHERE user_id = $1::bigint)
       < {{ACC_FOLLOW_MAX}}
ON CONFLICT DO NOTHING;

-- name: UNFOLLOW
DELETE FROM follows
 WHERE user_id = $1::bigint AND researcher_id = $2::bigint;

-- name: FOLLOWING
SELECT r.id, r.name, r.slug, r.paper_count, r.latest_paper, f.created_at
  FROM follows f
  JOIN researchers r ON r.id = f.researcher_id
 WHERE f.user_id = $1::bigint
 ORDER BY r.name, r.id;

-- name: FEED_TOKEN_CREATED
SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
           AS created
  FROM feed_tokens
 WHERE user_id = $1::bigint;

-- name: FEED_TOKEN_SET
INSERT INTO feed_tokens (user_id, token_hash)
VALUES ($1::bigint, $2)
ON CONFLICT (user_id)
DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now();

-- name: FEED_PAGE
-- A page of the merged feed (0026 weft_follow_items: new papers and new
-- versions of what $1 follows, with the reasons), and the total.
SELECT {{CARD_COLUMNS}}, i.version, to_char(i.at, 'YYYY-MM-DD') AS at,
       i.reasons::text AS reasons, i.why, count(*) OVER () AS total
  FROM weft_follow_items($1::bigint) i
  JOIN papers p ON p.id = i.paper_id
 ORDER BY i.at DESC NULLS LAST, i.paper_id DESC, i.version DESC
 LIMIT $2::integer OFFSET $3::bigint;

-- name: FEED_EXPORT
-- The papers of the newest $2 items of $1's merged feed (0026), each
-- once, in the feed's order, as one json text for the citation writers
-- (core/cite.c), and how many items the feed has: one query for an
-- export (feed.c), not a page at a time.
SELECT json_build_object('arxiv_id', p.arxiv_id, 'title', p.title,
                         'published', p.published::text,
                         'primary_category', p.primary_category,
                         'doi', p.doi, 'journal_ref', p.journal_ref,
                         'links', json_build_object(
                             'abs', 'https://arxiv.org/abs/' || p.arxiv_id,
                             'pdf', 'https://arxiv.org/pdf/' || p.arxiv_id),
                         'authors', coalesce(
                             (SELECT json_agg(a.raw_name ORDER BY a.position)
                                FROM authorships a
                               WHERE a.paper_id = p.id), '[]'::json))::text
           AS paper,
       l.total
  FROM (SELECT n.paper_id, max(n.at) AS at, max(n.total) AS total
          FROM (SELECT i.paper_id, i.at, count(*) OVER () AS total
                  FROM weft_follow_items($1::bigint) i
                 ORDER BY i.at DESC NULLS LAST, i.paper_id DESC,
                          i.version DESC
                 LIMIT $2::bigint) n
         GROUP BY n.paper_id) l
  JOIN papers p ON p.id = l.paper_id
 ORDER BY l.at DESC NULLS LAST, l.paper_id DESC;

-- name: FEED_AUTHORS
-- The first $2 authors of each paper in $1 ('{1,2,3}'), and every
-- author $3 follows wherever they stand.
SELECT a.paper_id, a.raw_name, r.id, r.slug,
       f.user_id IS NOT NULL AS followed
  FROM authorships a
  LEFT JOIN researchers r ON r.id = a.researcher_id
  LEFT JOIN follows f ON f.researcher_id = a.researcher_id
                     AND f.user_id = $3::bigint
 WHERE a.paper_id = ANY ($1::bigint[])
   AND (a.position <= $2::integer OR f.user_id IS NOT NULL)
 ORDER BY a.paper_id, a.position;

-- name: FIELDS
-- Onboarding: the fields with the most papers, from the counts the
-- writers keep (category_counts, 0091): counting the papers' primary
-- categories here read the whole table (10 GB at 2.5 M papers) at every
-- view of the page.
SELECT category AS primary_category, primary_papers AS papers
  FROM category_counts
 WHERE primary_papers > 0
 ORDER BY primary_papers DESC, category
 LIMIT 40;

-- name: TOP_IN_FIELD
-- Onboarding: researchers with the most papers among the newest
-- {{ACC_FIELD_NEWEST}} of field $1 (by papers_primary), the page says
-- so: who publishes most in it now.  Counted over every paper of the
-- field, one view of a field of 800,000 papers joined 4 M authorships.
SELECT r.id, r.name, r.slug, x.n,
       EXISTS (SELECT 1 FROM follows f
                WHERE f.user_id = $2::bigint AND f.researcher_id = r.id)
           AS following
  FROM (SELECT a.researcher_id, count(*) AS n
          FROM (SELECT p.id
                  FROM papers p
                 WHERE p.primary_category = $1 AND p.published IS NOT NULL
                 ORDER BY p.published DESC
                 LIMIT {{ACC_FIELD_NEWEST}}) p
          JOIN authorships a ON a.paper_id = p.id
         WHERE a.researcher_id IS NOT NULL
         GROUP BY a.researcher_id
         ORDER BY n DESC, a.researcher_id
         LIMIT {{ACC_PER_PAGE}}) x
  JOIN researchers r ON r.id = x.researcher_id
 ORDER BY x.n DESC, r.id;

-- name: SEARCH_NAME
-- Onboarding: researchers a word of whose name starts with each word of
-- $1, most papers first: the site's name search (weft_names_close, 0052,
-- as SEARCH_NAMES_FEW in pages.sql), whose ranked lists of name words
-- read the same few rows at any size.  A substring match walked the
-- whole directory for a name nobody has (6 M researchers at 2.5 M
-- papers).
SELECT r.id, r.name, r.slug, r.paper_count,
       EXISTS (SELECT 1 FROM follows f
                WHERE f.user_id = $2::bigint AND f.researcher_id = r.id)
           AS following
  FROM weft_names_close($1, {{ACC_PER_PAGE}}, 2000) WITH ORDINALITY AS c
  JOIN researchers r ON r.id = c.id
 ORDER BY c.ordinality;

-- ------------------------------------------------------------------
-- Issue 18: email verification, password reset, sessions, deletion.
-- (0018_account_mail.sql; statements read by position in store.c.)

-- name: USER_MAIL_STATE
-- Sign-up and reset: the account of an address key ($1, acc_email_key),
-- if any, and whether the address is verified.
SELECT id, email, email_verified_at IS NOT NULL AS verified
  FROM users
 WHERE email_key = $1;

-- name: USER_BY_ID
-- The account page and the password checks: email, password hash,
-- verified.
SELECT email, password_hash, email_verified_at IS NOT NULL AS verified,
       to_char(email_verified_at AT TIME ZONE 'UTC',
               'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS verified_at
  FROM users
 WHERE id = $1::bigint;

-- name: USER_SET_PASSWORD
UPDATE users SET password_hash = $2 WHERE id = $1::bigint;

-- name: USER_SET_VERIFIED
UPDATE users SET email_verified_at = now()
 WHERE id = $1::bigint AND email_verified_at IS NULL;

-- name: USER_DELETE
-- Sessions, follows, the feed token and mail tokens go with it (ON
-- DELETE CASCADE).
DELETE FROM users WHERE id = $1::bigint;

-- name: MAIL_TOKEN_CLEAR
-- Before a new token of a purpose the older ones stop working, and a new
-- password voids the reset links (purpose 'reset').  Also
-- purges expired tokens of anyone (up to 100).
WITH old AS (DELETE FROM mail_tokens
              WHERE token_hash IN (SELECT token_hash FROM mail_tokens
                                    WHERE expires_at < now()
                                    ORDER BY expires_at LIMIT 100))
DELETE FROM mail_tokens
 WHERE user_id = $1::bigint AND purpose = $2 AND expires_at >= now();

-- name: MAIL_TOKEN_CREATE
INSERT INTO mail_tokens (token_hash, user_id, purpose, expires_at,
                         password_hash)
VALUES ($1, $2::bigint, $3, now() + make_interval(secs => $4::integer), $5);

-- name: MAIL_TOKEN_PEEK
-- The GET of a link: is the token live (without using it)?
SELECT user_id, password_hash
  FROM mail_tokens
 WHERE token_hash = $1 AND purpose = $2 AND expires_at > now();

-- name: MAIL_TOKEN_TAKE
-- Uses a token: deleted whether live or expired, the user returned only
-- when it was live.  Single use by construction.
WITH t AS (DELETE FROM mail_tokens
            WHERE token_hash = $1 AND purpose = $2
        RETURNING user_id, expires_at, password_hash)
SELECT user_id, password_hash FROM t WHERE expires_at > now();

-- name: SESSION_DESCRIBE
-- What the sessions list shows, set once when the session starts.
UPDATE sessions SET agent = $2, network = $3 WHERE token_hash = $1;

-- name: SESSION_TOUCH
-- last_seen_at, written at most every 5 minutes per session.
UPDATE sessions SET last_seen_at = now()
 WHERE token_hash = $1
   AND last_seen_at < now() - interval '5 minutes';

-- name: SESSION_LIST
-- The live sessions of $1, newest use first; current is $2's.
SELECT id,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
         AS created,
       to_char(last_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
         AS last_seen,
       agent, network, token_hash = $2 AS current
  FROM sessions
 WHERE user_id = $1::bigint AND expires_at > now()
 ORDER BY last_seen_at DESC, id DESC
 LIMIT 100;

-- name: SESSION_DELETE_ID
-- "Sign out this one": only a session of the same user.
DELETE FROM sessions WHERE id = $2::bigint AND user_id = $1::bigint;

-- name: SESSION_DELETE_OTHERS
-- Every session of $1 except $2's ('' ends them all).
DELETE FROM sessions WHERE user_id = $1::bigint AND token_hash <> $2;

-- name: API_KEYS
SELECT id,
       name,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
           AS created
  FROM api_keys
 WHERE user_id = $1::bigint AND revoked_at IS NULL
 ORDER BY created_at, id;

-- name: API_KEY_ADD
INSERT INTO api_keys (user_id, name, key_hash)
SELECT $1::bigint, $2, $3
 WHERE (SELECT count(*) FROM api_keys
         WHERE user_id = $1::bigint AND revoked_at IS NULL) < 20
RETURNING id;

-- name: API_KEY_REVOKE
UPDATE api_keys
   SET revoked_at = now()
 WHERE id = $2::bigint AND user_id = $1::bigint AND revoked_at IS NULL
RETURNING key_hash;
-- ------------------------------------------------------------------
-- Issue 21: follows of institutions, categories and saved searches
-- (0026_follow_kinds.sql), and email digests.

-- name: FOLLOW_TOTAL
-- How many things of every kind $1 follows (at most ACC_FOLLOW_MAX).
SELECT (SELECT count(*) FROM follows WHERE user_id = $1::bigint)
     + (SELECT count(*) FROM follow_targets WHERE user_id = $1::bigint)
       AS total;

-- name: TARGET_ADD
-- $2 kind, $3 institution id (NULL unless institution), $4 category
-- ('' for none), $5 query ('' unless search).  No row when already
-- followed or at the cap.
INSERT INTO follow_targets (user_id, kind, institution_id, category, query)
SELECT $1::bigint, $2, $3::bigint, $4, $5
 WHERE (SELECT count(*) FROM follows WHERE user_id = $1::bigint)
     + (SELECT count(*) FROM follow_targets WHERE user_id = $1::bigint)
       < {{ACC_FOLLOW_MAX}}
ON CONFLICT DO NOTHING
RETURNING id;

-- name: TARGET_FIND
-- The follow of $1 with these kind and target, if any.
SELECT id
  FROM follow_targets
 WHERE user_id = $1::bigint AND kind = $2
   AND coalesce(institution_id, 0) = coalesce($3::bigint, 0)
   AND category = $4 AND query = $5;

-- name: TARGET_REMOVE
DELETE FROM follow_targets WHERE user_id = $1::bigint AND id = $2::bigint;

-- name: TARGETS
-- Everything but researchers that $1 follows, for /account and /feed.
SELECT t.id, t.kind, t.institution_id, coalesce(i.name, '') AS name,
       coalesce(i.slug, '') AS slug, t.category, t.query
  FROM follow_targets t
  LEFT JOIN institutions i ON i.id = t.institution_id
 WHERE t.user_id = $1::bigint
 ORDER BY t.kind, coalesce(i.name, ''), t.category, t.query, t.id;

-- name: INSTITUTION_STATE
-- An institution's name and slug, and $1's follow of it (NULL: none).
SELECT i.name, i.slug,
       (SELECT t.id FROM follow_targets t
         WHERE t.user_id = $1::bigint AND t.kind = 'institution'
           AND t.institution_id = i.id) AS target
  FROM institutions i
 WHERE i.id = $2::bigint;

-- name: CATEGORY_KNOWN
-- Whether any paper is in category $1 (unknown ones cannot be followed).
SELECT EXISTS (SELECT 1 FROM papers WHERE categories @> ARRAY[$1::text])
           AS known;

-- name: DIGEST_STATE
SELECT digest FROM users WHERE id = $1::bigint;

-- name: DIGEST_SET
-- $2 'off', 'daily' or 'weekly'.  Turning digests on starts them now.
UPDATE users
   SET digest = $2,
       digest_since = CASE WHEN $2 = 'off' THEN NULL
                           ELSE coalesce(digest_since, now()) END,
       digest_token_hash = CASE WHEN $2 = 'off' THEN NULL
                                ELSE digest_token_hash END
 WHERE id = $1::bigint;

-- name: DIGEST_UNSUBSCRIBE
-- The one-click link of a digest: its token's hash turns digests off.
UPDATE users
   SET digest = 'off', digest_since = NULL, digest_token_hash = NULL
 WHERE digest_token_hash = $1
RETURNING id;

-- name: DIGEST_DUE
-- Verified users whose digest is due at $1 (a daily one after 23 hours,
-- a weekly one after 6 days and 23 hours: the timer runs hourly).
SELECT id, email, digest,
       floor(extract(epoch FROM digest_since))::bigint AS since
  FROM users
 WHERE digest <> 'off' AND email_verified_at IS NOT NULL
   AND digest_since IS NOT NULL
   AND digest_since <= to_timestamp($1::bigint)
         - CASE digest WHEN 'daily' THEN interval '23 hours'
                       ELSE interval '6 days 23 hours' END
 ORDER BY id
 LIMIT 1000;

-- name: DIGEST_ITEMS
-- What $1 followed that weft learned of after $2 and up to $3 (epoch
-- seconds), newest first, at most {{ACC_DIGEST_MAX}}.
SELECT p.arxiv_id, p.title, p.slug, i.version,
       to_char(i.at, 'YYYY-MM-DD') AS at, i.why
  FROM weft_follow_items($1::bigint) i
  JOIN papers p ON p.id = i.paper_id
 WHERE i.seen > to_timestamp($2::bigint)
   AND i.seen <= to_timestamp($3::bigint)
 ORDER BY i.at DESC NULLS LAST, i.paper_id DESC, i.version DESC
 LIMIT {{ACC_DIGEST_MAX}};

-- name: DIGEST_SENT
-- The next digest of $1 starts at $2 (the end of the one just sent, or
-- checked and empty), unless digests were turned off meanwhile.
UPDATE users SET digest_since = to_timestamp($2::bigint)
 WHERE id = $1::bigint AND digest <> 'off';

-- name: DIGEST_TOKEN_SET
-- A digest mail carries a fresh unsubscribe token: its hash replaces
-- the old one (the older mails' links stop working).
UPDATE users SET digest_token_hash = $2
 WHERE id = $1::bigint AND digest <> 'off';
