-- vectors.sql -- the statements of weft-vectors (modules/vectors).
-- Prepared at connect time.  The first two name only papers, so that
-- weft-vectors eval can run on a database without vector_index; from
-- LOCK on the database must be migrated (0004_vectors.sql).

-- name: PAPERS
-- Keyset pages in id order: streaming, and the order the file needs.
SELECT id, title, abstract, primary_category
  FROM papers
 WHERE id > $1::bigint
 ORDER BY id
 LIMIT $2::integer;

-- name: STATE
-- What a build depends on: a change here means the index is stale.
-- Three subqueries, so that each is an index-only read (the count of a
-- btree, the last id and the last modified_at, 0066): as one aggregate
-- over papers the three read the whole heap (490,000 buffers at
-- 900,000 papers, against 29,000).
SELECT (SELECT count(*) FROM papers) AS papers,
       coalesce((SELECT max(id) FROM papers), 0) AS max_id,
       coalesce((SELECT max(modified_at) FROM papers)::text, '')
           AS modified_at;

-- name: LOCK
-- One build at a time (the key is arbitrary: "wvec" in ASCII).
SELECT pg_try_advisory_lock(2004248675) AS locked;

-- name: LATEST
SELECT version, path, fingerprint, fit_version, since_fit, fit_unknown,
       modified_to::text AS modified_to
  FROM vector_index
 ORDER BY version DESC
 LIMIT 1;

-- name: RECORD
INSERT INTO vector_index (version, path, papers, terms, dims, fingerprint,
    seconds, fit_version, since_fit, fit_unknown, modified_to)
VALUES ($1::bigint, $2, $3::integer, $4::integer, $5::integer, $6,
    $7::real, $8::bigint, $9::integer, $10::real,
    nullif($11, '')::timestamptz);

-- name: IDS
-- Every paper id for an incremental build, keyset pages in id order:
-- an index-only read of papers_pkey (55 MB at 2.5 M papers), where
-- reading modified_at beside each id read the whole heap (10 GB).
SELECT id
  FROM papers
 WHERE id > $1::bigint
 ORDER BY id
 LIMIT $2::integer;

-- name: CHANGED
-- The papers written since the index's watermark $1 (changed), or
-- within ten minutes before it, by papers_modified (0066): a writer's
-- modified_at is its transaction's start, which can precede a
-- watermark read while it was still open, so those papers are
-- projected again too (an unchanged paper gives the same vector: the
-- margin costs only time).
SELECT id, modified_at > $1::timestamptz AS changed
  FROM papers
 WHERE modified_at > $1::timestamptz - interval '10 minutes'
 ORDER BY id;

-- name: PAPERS_BY_ID
-- The papers an incremental build projects ($1: '{id,...}').
SELECT id, title, abstract, primary_category
  FROM papers
 WHERE id = ANY ($1::bigint[])
 ORDER BY id;
