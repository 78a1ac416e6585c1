-- 0011_page_read_model.sql -- what the cold pages read, kept with the
-- data so that each list is an index range scan of its page, not a walk
-- over everything it could show (tests/bench/README.md, "Cold pages").
--
-- 1. authorships.published: the paper's first-version date copied into
--    each of its authorships (kept by triggers in the writer's own
--    transaction), so that a researcher's papers, newest first, are a
--    range of authorships_researcher_newest read up to the page's end.
--    The index also carries match_reason and match_score: the evidence
--    summary's reasons are an index-only scan.
-- 2. paper_cards: the author list of each paper card (the first 12
--    authors as [[raw_name, researcher id, slug]], and every author's
--    raw name for the feeds), as json text.  A row is deleted by the
--    writes that would change it (authorships inserted, updated or
--    deleted; a researcher's slug changed), in the same transaction; the
--    statements fall back to computing a missing row, and
--    weft_researcher_derived_refresh() (after load and match) fills the
--    missing rows again.  So a card is never stale, only sometimes
--    computed on the fly.
-- 3. authorships_seed: the few authorships an external id or a new
--    identity placed (the evidence summary's "seed"), without reading
--    every authorship of the researcher.
-- 4. researcher_stats.evidence_co: the evidence summary's co-authors,
--    refreshed with the co-author pairs (below).
-- Forward-only: never edit a migration once it has landed; add another.

ALTER TABLE authorships ADD COLUMN published date;

UPDATE authorships a
   SET published = p.published
  FROM papers p
 WHERE p.id = a.paper_id
   AND p.published IS NOT NULL;

CREATE FUNCTION weft_authorships_published_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	NEW.published := (SELECT published FROM papers WHERE id = NEW.paper_id);
	RETURN NEW;
END;
$$;

CREATE TRIGGER authorships_published
	BEFORE INSERT OR UPDATE OF paper_id ON authorships
	FOR EACH ROW EXECUTE FUNCTION weft_authorships_published_trg();

CREATE FUNCTION weft_papers_published_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	UPDATE authorships SET published = NEW.published
	 WHERE paper_id = NEW.id;
	RETURN NULL;
END;
$$;

CREATE TRIGGER papers_published
	AFTER UPDATE OF published ON papers
	FOR EACH ROW WHEN (OLD.published IS DISTINCT FROM NEW.published)
	EXECUTE FUNCTION weft_papers_published_trg();

CREATE INDEX authorships_researcher_newest ON authorships
	(researcher_id, published DESC NULLS LAST, paper_id DESC)
	INCLUDE (match_reason, match_score);

CREATE INDEX authorships_seed ON authorships (researcher_id)
	WHERE match_reason IN ('new_identity', 'openalex_id', 'openalex',
	                       'orcid', 's2_id', 's2');

CREATE TABLE paper_cards (
	paper_id        bigint PRIMARY KEY
	                REFERENCES papers (id) ON DELETE CASCADE,
	authors         text NOT NULL,  -- [[raw_name, id, slug]], first 12
	names           text NOT NULL   -- [raw_name, ...], every author
);

-- The card of each paper, as the statements of pages.sql and feeds.sql
-- would compute it.
CREATE FUNCTION weft_paper_cards_fill() RETURNS integer
	LANGUAGE plpgsql AS $$
DECLARE
	n integer;
BEGIN
	INSERT INTO paper_cards (paper_id, authors, names)
	SELECT p.id,
	       (SELECT coalesce(json_agg(json_build_array(a.raw_name, r.id,
	                                                  r.slug)
	                                 ORDER BY a.position), '[]')
	          FROM authorships a
	          LEFT JOIN researchers r ON r.id = a.researcher_id
	         WHERE a.paper_id = p.id AND a.position <= 12)::text,
	       (SELECT coalesce(json_agg(a.raw_name ORDER BY a.position),
	                        '[]')
	          FROM authorships a WHERE a.paper_id = p.id)::text
	  FROM papers p
	 WHERE NOT EXISTS (SELECT 1 FROM paper_cards c WHERE c.paper_id = p.id)
	    ON CONFLICT (paper_id) DO NOTHING;
	GET DIAGNOSTICS n = ROW_COUNT;
	RETURN n;
END;
$$;

-- Writes that change a card delete it (statement triggers: one DELETE
-- per statement, however many rows it wrote).
CREATE FUNCTION weft_paper_cards_new_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM paper_cards
	 WHERE paper_id IN (SELECT paper_id FROM card_new);
	RETURN NULL;
END;
$$;

CREATE FUNCTION weft_paper_cards_old_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM paper_cards
	 WHERE paper_id IN (SELECT paper_id FROM card_old);
	RETURN NULL;
END;
$$;

CREATE TRIGGER authorships_cards_ins
	AFTER INSERT ON authorships REFERENCING NEW TABLE AS card_new
	FOR EACH STATEMENT EXECUTE FUNCTION weft_paper_cards_new_trg();
CREATE TRIGGER authorships_cards_upd
	AFTER UPDATE ON authorships REFERENCING OLD TABLE AS card_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_paper_cards_old_trg();
CREATE TRIGGER authorships_cards_del
	AFTER DELETE ON authorships REFERENCING OLD TABLE AS card_old
	FOR EACH STATEMENT EXECUTE FUNCTION weft_paper_cards_old_trg();

CREATE FUNCTION weft_paper_cards_researcher_trg() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM paper_cards
	 WHERE paper_id IN (SELECT paper_id FROM authorships
	                     WHERE researcher_id = NEW.id);
	RETURN NULL;
END;
$$;

CREATE TRIGGER researchers_cards_slug
	AFTER UPDATE OF slug ON researchers
	FOR EACH ROW WHEN (OLD.slug IS DISTINCT FROM NEW.slug)
	EXECUTE FUNCTION weft_paper_cards_researcher_trg();

-- 4. researcher_stats.evidence_co: the evidence summary's co-authors
--    (those on at least two of the researcher's papers, one of them
--    joined by shared co-authors: EVIDENCE_SUMMARY), the first 12 as
--    [[id, joint papers]], most first.  Computed with the co-author
--    pairs, by the same refresh, so as current as the page's co-author
--    block; a researcher the refresh has not seen yet (no stats row)
--    gets them computed on the fly.
ALTER TABLE researcher_stats ADD COLUMN evidence_co json;

-- The fill of 0009, then the evidence co-authors of the same
-- researchers (weft_touched) and the missing cards.
ALTER FUNCTION weft_researcher_derived_fill(boolean)
	RENAME TO weft_researcher_derived_fill_0009;

-- The evidence co-authors of the researchers in weft_touched (a temporary
-- table of ids, as for weft_researcher_derived_fill).
CREATE FUNCTION weft_researcher_evidence_fill() RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	UPDATE researcher_stats s
	   SET evidence_co = coalesce(e.j, '[]')
	  FROM weft_touched t
	  LEFT JOIN (
		SELECT id, json_agg(json_build_array(b, n) ORDER BY n DESC, b)
		           AS j
		  FROM (SELECT id, b, n,
		               row_number() OVER (PARTITION BY id
		                                  ORDER BY n DESC, b) AS k
		          FROM (SELECT m.researcher_id AS id,
		                       a2.researcher_id AS b,
		                       count(DISTINCT a2.paper_id) AS n
		                  FROM weft_touched t2
		                  JOIN authorships m ON m.researcher_id = t2.id
		                  JOIN authorships a2
		                    ON a2.paper_id = m.paper_id
		                   AND a2.researcher_id <> m.researcher_id
		                 GROUP BY 1, 2
		                HAVING count(DISTINCT a2.paper_id) > 1
		                   AND bool_or(m.match_reason = 'coauthors')) c
		       ) x
		 WHERE k <= 12
		 GROUP BY id) e ON e.id = t.id
	 WHERE s.researcher_id = t.id;
END;
$$;

CREATE FUNCTION weft_researcher_derived_fill(all_rows boolean) RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	PERFORM weft_researcher_derived_fill_0009(all_rows);
	PERFORM weft_researcher_evidence_fill();
	PERFORM weft_paper_cards_fill();
END;
$$;

-- Now: the new column and table for everyone (the pairs and stats of
-- 0009 are current).
CREATE TEMP TABLE weft_touched (id bigint PRIMARY KEY) ON COMMIT DROP;
INSERT INTO weft_touched SELECT id FROM researchers;
ANALYZE weft_touched;
SELECT weft_researcher_evidence_fill();
SELECT weft_paper_cards_fill();
DROP TABLE weft_touched;
ANALYZE authorships, paper_cards, researcher_stats;
