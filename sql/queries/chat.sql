-- sql/queries/chat.sql -- the chat module's statements (modules/chat).

-- name: SESSION_USER
SELECT user_id
  FROM sessions
 WHERE token_hash = $1
   AND expires_at > now();

-- Retrieval (modules/chat/answer.c) is hybrid, as /search's default:
-- each CAND_* statement gives the candidates of its scope, (id, text
-- rank, published): the best $2 by the question's words ($1, stemmed,
-- any of them) and, whatever their words, the scope's papers among the
-- semantic index's nearest to the question ($3, a bigint[] of ids).  C
-- scores them by text and vector similarity and reads the best
-- CHAT_TOPK with PAPERS_BY_IDS.  All four select CAND_COLUMNS, so C
-- reads the rows of any of them with CHAT_CAND__*.
-- fragment: CAND_COLUMNS
p.id, ts_rank(p.search_vector, q.q) AS rank,
coalesce(p.published::text, '') AS published

-- name: CAND_ALL
WITH q AS (SELECT replace(plainto_tsquery('english'::regconfig, $1)::text,
                          '&', '|')::tsquery AS q)
(SELECT {{CAND_COLUMNS}}
   FROM papers p, q
  WHERE q.q::text <> '' AND p.search_vector @@ q.q
  ORDER BY rank DESC, p.id DESC
  LIMIT $2)
UNION
SELECT {{CAND_COLUMNS}}
  FROM papers p, q
 WHERE p.id = ANY($3::bigint[]);

-- $4: the researcher's id.  Every paper of the scope is a candidate
-- (the newest first when the words match none), up to $2.
-- name: CAND_RESEARCHER
WITH q AS (SELECT replace(plainto_tsquery('english'::regconfig, $1)::text,
                          '&', '|')::tsquery AS q),
     s AS (SELECT DISTINCT a.paper_id AS id
             FROM authorships a
            WHERE a.researcher_id = $4::bigint)
(SELECT {{CAND_COLUMNS}}
   FROM papers p JOIN s ON s.id = p.id, q
  ORDER BY rank DESC, p.published DESC NULLS LAST, p.id DESC
  LIMIT $2)
UNION
SELECT {{CAND_COLUMNS}}
  FROM papers p JOIN s ON s.id = p.id, q
 WHERE p.id = ANY($3::bigint[]);

-- $4: the user, whose followed researchers' papers are the scope.
-- name: CAND_FOLLOWED
WITH q AS (SELECT replace(plainto_tsquery('english'::regconfig, $1)::text,
                          '&', '|')::tsquery AS q),
     s AS (SELECT DISTINCT a.paper_id AS id
             FROM authorships a
             JOIN follows f ON f.researcher_id = a.researcher_id
            WHERE f.user_id = $4::bigint)
(SELECT {{CAND_COLUMNS}}
   FROM papers p JOIN s ON s.id = p.id, q
  ORDER BY rank DESC, p.published DESC NULLS LAST, p.id DESC
  LIMIT $2)
UNION
SELECT {{CAND_COLUMNS}}
  FROM papers p JOIN s ON s.id = p.id, q
 WHERE p.id = ANY($3::bigint[]);

-- $4: a search query (websearch syntax, as /search takes it): its
-- matches are the scope.
-- name: CAND_SEARCH
WITH q AS (SELECT replace(plainto_tsquery('english'::regconfig, $1)::text,
                          '&', '|')::tsquery AS q,
                  websearch_to_tsquery('english'::regconfig, $4) AS s)
(SELECT {{CAND_COLUMNS}}
   FROM papers p, q
  WHERE p.search_vector @@ q.s
  ORDER BY rank DESC, p.id DESC
  LIMIT $2)
UNION
SELECT {{CAND_COLUMNS}}
  FROM papers p, q
 WHERE p.id = ANY($3::bigint[]) AND p.search_vector @@ q.s;

-- A retrieved paper, as PAPERS_BY_IDS and RETRIEVE_PAPER give it: C
-- reads either's rows with the CHAT_PAPER__* columns.
-- fragment: PAPER_COLUMNS
p.arxiv_id, p.slug, p.title, p.abstract, p.published::text

-- The papers $1 (a bigint[]) in that order.
-- name: PAPERS_BY_IDS
SELECT {{PAPER_COLUMNS}}
  FROM unnest($1::bigint[]) WITH ORDINALITY AS u(id, n)
  JOIN papers p ON p.id = u.id
 ORDER BY u.n;

-- $3: the arXiv id.
-- name: RETRIEVE_PAPER
SELECT {{PAPER_COLUMNS}}, 1.0::real AS rank
  FROM papers p
 WHERE p.arxiv_id = $3 AND $1::text IS NOT NULL
 LIMIT $2;

-- The newest semantic index (pages.sql's VECTOR_INDEX_LATEST, which
-- modules/pages/vindex.c reads in the chat worker too).
-- name: VECTOR_INDEX_LATEST
SELECT version, path
  FROM vector_index
 ORDER BY version DESC
 LIMIT 1;

-- name: PAPER_EXISTS
SELECT 1 AS found FROM papers WHERE arxiv_id = $1;

-- name: RESEARCHER_EXISTS
SELECT 1 AS found FROM researchers WHERE id = $1::bigint;

-- name: CONV_NEW
INSERT INTO chat_conversations (user_id, title)
VALUES ($1, $2)
RETURNING id;

-- name: CONV_TOUCH
UPDATE chat_conversations SET updated_at = now()
 WHERE id = $1 AND user_id = $2
RETURNING id;

-- name: TURN_ADD
INSERT INTO chat_turns (conversation_id, question, answer, scope, refs, mode,
                        model, prompt_tokens, completion_tokens, partial, note)
VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8, $9, $10, $11)
RETURNING id;

-- name: CONV_LIST
SELECT id, title, created_at::text, updated_at::text
  FROM chat_conversations
 WHERE user_id = $1
 ORDER BY updated_at DESC, id DESC
 LIMIT 100;

-- name: CONV_ONE
SELECT id, title, created_at::text
  FROM chat_conversations
 WHERE id = $1 AND user_id = $2;

-- name: CONV_TURNS
SELECT question, answer, scope::text, refs::text, mode, model,
       prompt_tokens, completion_tokens, partial, note, created_at::text
  FROM chat_turns
 WHERE conversation_id = $1
 ORDER BY id;

-- name: CONV_DELETE
DELETE FROM chat_conversations
 WHERE id = $1 AND user_id = $2
RETURNING id;
