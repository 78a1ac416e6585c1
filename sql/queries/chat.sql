-- sql/queries/chat.sql -- the chat module's statements (modules/chat).

-- name: SESSION_USER
SELECT user_id
  FROM sessions
 WHERE token_hash = $1
   AND expires_at > now();

-- Retrieval: the question's words, any of them ($1, stemmed, OR-ed), rank
-- the candidates; a scope restricts them.  At most $2 papers.
-- name: RETRIEVE_ALL
SELECT p.arxiv_id, p.slug, p.title, p.abstract, p.published::text,
       ts_rank(p.search_vector, q.q) AS rank
  FROM papers p,
       (SELECT replace(plainto_tsquery('english'::regconfig, $1)::text,
                       '&', '|')::tsquery AS q) q
 WHERE q.q::text <> '' AND p.search_vector @@ q.q
 ORDER BY rank DESC, p.id DESC
 LIMIT $2;

-- $3: the arXiv id.
-- name: RETRIEVE_PAPER
SELECT p.arxiv_id, p.slug, p.title, p.abstract, p.published::text,
       1.0::real AS rank
  FROM papers p
 WHERE p.arxiv_id = $3 AND $1::text IS NOT NULL
 LIMIT $2;

-- $3: the researcher's id.
-- name: RETRIEVE_RESEARCHER
SELECT p.arxiv_id, p.slug, p.title, p.abstract, p.published::text,
       ts_rank(p.search_vector,
               replace(plainto_tsquery('english'::regconfig, $1)::text,
                       '&', '|')::tsquery) AS rank
  FROM papers p
  JOIN authorships a ON a.paper_id = p.id
 WHERE a.researcher_id = $3
 ORDER BY rank DESC, p.published DESC NULLS LAST, p.id DESC
 LIMIT $2;

-- $3: the user, whose followed researchers' papers are the scope.
-- name: RETRIEVE_FOLLOWED
SELECT p.arxiv_id, p.slug, p.title, p.abstract, p.published::text,
       ts_rank(p.search_vector,
               replace(plainto_tsquery('english'::regconfig, $1)::text,
                       '&', '|')::tsquery) AS rank
  FROM papers p
 WHERE p.id IN (SELECT a.paper_id
                  FROM authorships a
                  JOIN follows f ON f.researcher_id = a.researcher_id
                 WHERE f.user_id = $3)
 ORDER BY rank DESC, p.published DESC NULLS LAST, p.id DESC
 LIMIT $2;

-- $3: a search query (websearch syntax, as /search takes it).
-- name: RETRIEVE_SEARCH
SELECT p.arxiv_id, p.slug, p.title, p.abstract, p.published::text,
       ts_rank(p.search_vector,
               replace(plainto_tsquery('english'::regconfig, $1)::text,
                       '&', '|')::tsquery) AS rank
  FROM papers p
 WHERE p.search_vector @@ websearch_to_tsquery('english'::regconfig, $3)
 ORDER BY rank DESC, p.id DESC
 LIMIT $2;

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
