#!/bin/bash
# t_refresh.sh -- the incremental refresh of the derived tables (0036)
# gives the rows of a full one.  In a database of its own in the test
# cluster: part of the bundled papers loaded and refreshed fully, then
# some edits (a title, a deleted paper, a renamed researcher), then the
# rest of the papers loaded, whose match and refresh run incrementally;
# every derived table is copied aside and compared (EXCEPT, both ways)
# with a full refresh of the same data.
. "$(dirname "$0")/lib.sh"
DB=weft_t_refresh
. "$(dirname "$0")/lib_db.sh"

fresh_db
part "$T_TMP/a" 1 2000
part "$T_TMP/b" 2001 2300
hv_ok migrate
rsql "ALTER TABLE authorships SET (autovacuum_enabled = false)"
hv_ok load --data "$T_TMP/a"
# The first load's new name words are written by their key (0085): an
# anti-join planned on the empty table scanned it once for each new
# word, reading the rows the same statement had inserted (n^2/2).
v=$(rsql "SELECT s.seq_scan || '|' || (SELECT count(*) FROM name_words)
            FROM pg_stat_user_tables s WHERE s.relname = 'name_words'")
IFS='|' read -r nw_scans nw_rows <<<"$v"
[ "${nw_rows:-0}" -gt 1000 ] && [ "${nw_scans:-0}" -le 10 ]
ok $? "a first load finds its name words by key" "scans|rows: $v"
# The tables a refresh of every row rewrites, vacuumed after it
# (AFTER_FULL_VACUUM) and after it only: how many of them were vacuumed
# by hand since $1.
DERIVED="'coauthor_pairs', 'researcher_stats', 'paper_cards', 'search_terms',
         'search_lexemes', 'sitemap_blocks', 'researcher_name_words',
         'name_words'"
vacuumed_since() {
	rsql "SELECT count(*) FROM pg_stat_user_tables
	       WHERE relname IN ($DERIVED) AND last_vacuum >= '$1'"
}
T0=$(rsql "SELECT now()")
hv_ok refresh --full
grep -q 'refreshed (full:' "$T_TMP/hv.out"
ok $? "--full recomputes everything" "$(cat "$T_TMP/hv.out")"
v=$(vacuumed_since "$T0")
[ "$v" = 8 ]
ok $? "a full refresh vacuums the tables it rewrote" "$v of 8"

# Edits between two refreshes: a new title (new search vector), a paper
# deleted (its pairs and lexemes go), a researcher renamed (its cards,
# its name words).
rsql "UPDATE papers SET title = 'Zyxwvut refresh probe ' || title
       WHERE id = (SELECT min(id) FROM papers);
      DELETE FROM papers WHERE id = (SELECT min(id) + 7 FROM papers);
      UPDATE researchers SET slug = slug || '-renamed',
             name = name || ' Zorander'
       WHERE id = (SELECT researcher_id FROM authorships
                    WHERE researcher_id IS NOT NULL
                    ORDER BY paper_id DESC LIMIT 1);
      UPDATE authorships SET raw_name = 'Qwertyuiop Vectorprobe'
       WHERE paper_id = (SELECT id FROM papers
                          WHERE source = 'arxiv-listing' AND author_count > 2
                          ORDER BY id DESC OFFSET 5 LIMIT 1)
         AND position = 2;" >/dev/null
v=$(rsql "SELECT count(*) FROM name_words_due d
            JOIN researchers r ON r.id = d.researcher_id
           WHERE r.name LIKE '% Zorander'")
[ "$v" = 1 ]
ok $? "a rename notes the researcher's name words (0075)" "$v notes"
# When the refresh last analyzed authorships (0050); autovacuum, which
# might analyze them first, is off for them in this database.
analyzed() {
	rsql "SELECT last_analyze FROM pg_stat_user_tables
	       WHERE relname = 'authorships'"
}
A0=$(analyzed)
# Marks of changed pages older than a week go at the refresh, newer stay.
rsql "INSERT INTO stale_pages (kind, entity_id, marked_at)
      VALUES ('paper', -1, now() - interval '8 days'),
             ('paper', -2, now() - interval '6 days')"
# The rest: its match moves authorships of the first part too.  The
# share is lifted so that the incremental path runs however many
# papers this small corpus's batch changes.
T1=$(rsql "SELECT now()")
PGOPTIONS="-c weft.refresh_full_share=1" hv_ok load --data "$T_TMP/b"
v=$(vacuumed_since "$T1")
[ "$v" = 0 ]
ok $? "an incremental refresh vacuums none of them" "$v of 8"
v=$(rsql "SELECT string_agg(entity_id::text, ' ' ORDER BY entity_id)
            FROM stale_pages WHERE entity_id < 0")
[ "$v" = -2 ]
ok $? "the refresh keeps a week of stale marks" "left: $v"
A1=$(analyzed)
[ -n "$A0" ] && [ "$A1" != "$A0" ]
ok $? "a load that writes 15 % more authorships analyzes them" "$A0 / $A1"
grep -q 'refreshed (incremental:' "$T_TMP/hv.out"
ok $? "the load after the first refreshes incrementally" \
    "$(cat "$T_TMP/hv.out")"
# Before it, the relations it reads at random were read in order into
# the kernel's cache (0096; the test cluster's role may create
# pg_prewarm), within the budget: a share of effective_cache_size.
grep -Eq '^prewarmed for the refresh: [1-9][0-9]* relations?, [0-9]+ MB of a budget of' \
    "$T_TMP/hv.out"
ok $? "an incremental refresh reads its relations ahead" \
    "$(grep prewarm "$T_TMP/hv.out")"
# A budget of the first relation of a step's list reads that one alone
# (the refresh's: researcher_stats; the match's, 0097: researchers).
for s in refresh:researcher_stats match:researchers; do
	v=$(rsql "SELECT pg_relation_size('${s#*:}') / 8192")
	v=$(rsql "SET effective_cache_size = $v; SET weft.prewarm_share = 1;
	          SELECT weft_prewarm('${s%%:*}')" | tail -1)
	[[ $v == "1 relation, "* ]]
	ok $? "the ${s%%:*}'s prewarm reads no more than its budget" "$v"
done
# weft_prewarm() (0096) stays the refresh's, for an older weft-harvest.
v=$(rsql "SET weft.prewarm_share = 0.0001; SELECT weft_prewarm() =
          weft_prewarm('refresh')" | tail -1)
[ "$v" = t ]
ok $? "weft_prewarm() is the refresh's prewarm" "$v"
v=$(rsql "SELECT weft_prewarm('load')" 2>&1)
[[ $v == *'no step "load"'* ]]
ok $? "a step with no list is an error" "$v"
PGOPTIONS="-c weft.prewarm_share=0" hv_ok refresh
grep -q '^prewarmed for the refresh: off (weft.prewarm_share)' "$T_TMP/hv.out" &&
    grep -q 'refreshed (incremental:' "$T_TMP/hv.out"
ok $? "weft.prewarm_share = 0 turns it off" "$(cat "$T_TMP/hv.out")"
rsql "DROP EXTENSION pg_prewarm" >/dev/null
hv_ok refresh
grep -q '^prewarmed for the refresh: off (no pg_prewarm extension)' "$T_TMP/hv.out" &&
    grep -q 'refreshed (incremental:' "$T_TMP/hv.out"
ok $? "without pg_prewarm the refresh runs as before" \
    "$(cat "$T_TMP/hv.out")"
rsql "CREATE EXTENSION pg_prewarm WITH SCHEMA public" >/dev/null
n=$(rsql "SELECT (SELECT count(*) FROM derived_before_papers) +
                 (SELECT count(*) FROM derived_before_authors)") &&
    m=$(rsql "SELECT count(*) FROM search_term_delta")
[ "$n" = 0 ] && [ "$m" = 0 ]
ok $? "the notes are consumed" "$n paper and position notes, $m vector notes"
# A paper crossing the large-collaboration limit (0040): the small one
# with the most matched authors given one author over it (as weft-harvest
# would after adding authorships; its RECOMPUTE at each load counts them
# again, so this comes after the load).  Its pairs go.
BIG=$(rsql "SELECT a.paper_id FROM authorships a
             JOIN papers p ON p.id = a.paper_id
            WHERE p.author_count <= weft_pair_authors_max()
              AND a.paper_id > (SELECT min(id) + 7 FROM papers)
            GROUP BY a.paper_id
            ORDER BY count(DISTINCT a.researcher_id) DESC, a.paper_id
            LIMIT 1")
# Pairs among its authors with no other small joint paper, its authors
# not counting it as large, its authors.  (Each check can fail: before
# the crossing the first is not 0, the second not 0 either.)
CROSSED="SELECT (SELECT count(*) FROM coauthor_pairs c
         JOIN authorships x ON x.researcher_id = c.a AND x.paper_id = $BIG
         JOIN authorships y ON y.researcher_id = c.b AND y.paper_id = $BIG
        WHERE NOT EXISTS (SELECT 1 FROM authorships s1
                JOIN authorships s2 ON s2.paper_id = s1.paper_id
                JOIN papers p ON p.id = s1.paper_id
               WHERE s1.researcher_id = c.a AND s2.researcher_id = c.b
                 AND s1.paper_id <> $BIG
                 AND p.author_count <= weft_pair_authors_max())),
       (SELECT count(*) FROM authorships a
         JOIN researcher_stats s ON s.researcher_id = a.researcher_id
        WHERE a.paper_id = $BIG AND s.large_papers = 0),
       (SELECT count(DISTINCT researcher_id) FROM authorships
         WHERE paper_id = $BIG)"
v=$(rsql "$CROSSED")
case $v in
0\|*) ok 1 "before, pairs rest on it alone" "pairs|not counted|authors: $v" ;;
*) ok 0 "before, pairs rest on it alone ($v)" ;;
esac
rsql "UPDATE papers SET author_count = weft_pair_authors_max() + 1
       WHERE id = ${BIG:-0}" >/dev/null
# Figures here count only papers with a citation count (0074): an
# authorship on a paper without one notes no one, one on a paper with
# one notes its researcher (each written, then rolled back).
HERE_PROBE="WITH i AS (INSERT INTO authorships (paper_id, position, raw_name,
                       researcher_id)
              SELECT p.id, 900, 'Here Probe', (SELECT min(id) FROM researchers)
                FROM papers p WHERE p.citation_count IS %s NULL
               ORDER BY p.id LIMIT 1 RETURNING 1)
      SELECT count(*) FROM i;
      SELECT count(*) FROM here_dirty;"
# shellcheck disable=SC2059 # the format is HERE_PROBE, ours
v=$(rsql "BEGIN; DELETE FROM here_dirty; $(printf "$HERE_PROBE" '')
          $(printf "$HERE_PROBE" NOT) ROLLBACK" | tr '\n' ' ')
[ "$v" = "1 0 1 1 " ]
ok $? "an authorship notes its researcher's figures only on a counted paper" \
    "written|noted, uncounted then counted: $v"
# A counted paper deleted: its authorships go with it, and their
# researchers are noted although the paper is gone (0080's probe finds
# no row for it).
v=$(rsql "BEGIN; DELETE FROM here_dirty;
      CREATE TEMP TABLE gone ON COMMIT DROP AS
      SELECT a.paper_id, a.researcher_id FROM authorships a
       WHERE a.paper_id = (SELECT min(p.id) FROM papers p
                            JOIN authorships b ON b.paper_id = p.id
                           WHERE p.citation_count IS NOT NULL
                             AND b.researcher_id IS NOT NULL)
         AND a.researcher_id IS NOT NULL;
      DELETE FROM papers WHERE id = (SELECT min(paper_id) FROM gone);
      SELECT (SELECT count(*) FROM gone) > 0,
             NOT EXISTS (SELECT researcher_id FROM gone
                         EXCEPT SELECT researcher_id FROM here_dirty);
      ROLLBACK" | tr '\n' ' ')
[ "$v" = "t|t " ]
ok $? "a counted paper deleted notes its researchers' figures" \
    "had authors|all noted: $v"
# The figures' note triggers plan their probe of papers at each call
# (0084): a small statement after a large one in the same session reads
# papers by key, where a plan kept from the large one hashed every paper
# without a count again (almost no bundled paper has one).  Each pair is
# rolled back; the figure is the papers' rows and index entries the
# small statement read.
papers_read="pg_stat_get_xact_tuples_returned('papers'::regclass)
    + (SELECT sum(pg_stat_get_xact_tuples_returned(indexrelid))
         FROM pg_index WHERE indrelid = 'papers'::regclass)"
LAST_AUTHORSHIP="(paper_id, position) = (SELECT paper_id, position
      FROM authorships WHERE researcher_id IS NOT NULL
     ORDER BY paper_id DESC, position LIMIT 1)"
small_after_large() {
	rsql "BEGIN;
	  CREATE TEMP TABLE papers_read (n numeric) ON COMMIT DROP;
	  $1;
	  INSERT INTO papers_read SELECT $papers_read;
	  $2;
	  SELECT $papers_read - (SELECT n FROM papers_read);
	  ROLLBACK"
}
for event in update delete; do
	case $event in
	update) large="UPDATE authorships SET match_score = match_score
	                WHERE paper_id IN (SELECT id FROM papers
	                                    ORDER BY id LIMIT 1000)"
	        small="UPDATE authorships SET researcher_id = NULL
	                WHERE $LAST_AUTHORSHIP" ;;
	delete) large="DELETE FROM authorships
	                WHERE paper_id IN (SELECT id FROM papers
	                                    ORDER BY id LIMIT 1000)"
	        small="DELETE FROM authorships WHERE $LAST_AUTHORSHIP" ;;
	esac
	v=$(small_after_large "$large" "$small")
	[ -n "$v" ] && [ "$v" -le 20 ]
	ok $? "a small $event after a large one reads papers by key" \
	    "$v rows and index entries of papers read"
done
# Each event's notes (0077: one function serves a table's insert and
# delete triggers), rolled back: an authorship deleted and one moved
# note their papers and drop their cards, a rename notes every paper of
# the researcher and drops their cards, a researcher with papers deleted
# notes its name words, one made with papers too.
v=$(rsql "BEGIN;
      DELETE FROM paper_cards_due; DELETE FROM name_words_due;
      CREATE TEMP TABLE probe ON COMMIT DROP AS
      SELECT (SELECT paper_id FROM authorships WHERE position = 2
               ORDER BY paper_id LIMIT 1) AS d,
             (SELECT paper_id FROM authorships WHERE position = 2
               ORDER BY paper_id DESC LIMIT 1) AS u,
             (SELECT researcher_id FROM authorships
               WHERE researcher_id IS NOT NULL GROUP BY 1
              HAVING count(*) >= 2 ORDER BY 1 LIMIT 1) AS r,
             (SELECT id FROM researchers WHERE paper_count > 0
               ORDER BY id DESC LIMIT 1) AS g;
      DELETE FROM authorships WHERE position = 2
         AND paper_id = (SELECT d FROM probe);
      UPDATE authorships SET raw_name = raw_name || ' Probe'
       WHERE position = 2 AND paper_id = (SELECT u FROM probe);
      UPDATE researchers SET slug = slug || '-probe'
       WHERE id = (SELECT r FROM probe);
      DELETE FROM researchers WHERE id = (SELECT g FROM probe);
      INSERT INTO researchers (name, name_key, slug, paper_count)
      VALUES ('Probe Person', 'probe person', 'probe-person', 1);
      WITH want AS (SELECT d AS paper_id FROM probe
                    UNION SELECT u FROM probe
                    UNION SELECT paper_id FROM authorships
                           WHERE researcher_id = (SELECT r FROM probe))
      SELECT (SELECT count(*) FROM want) > 2,
             NOT EXISTS (SELECT paper_id FROM want
                         EXCEPT SELECT paper_id FROM paper_cards_due),
             NOT EXISTS (SELECT 1 FROM paper_cards c JOIN want USING (paper_id)),
             (SELECT count(*) FROM name_words_due
               WHERE researcher_id = (SELECT g FROM probe)
                  OR researcher_id IN (SELECT id FROM researchers
                                        WHERE slug = 'probe-person'));
      ROLLBACK" | tr '\n' ' ')
[ "$v" = "t|t|t|2 " ]
ok $? "each write notes its papers' cards and its researchers' name words" \
    "several papers|all noted|their cards gone|name word notes: $v"
# One update of researchers notes each sitemap block once (0079),
# rolled back: in the first block one value rises and another goes (no
# papers now), so it is raised and read again; in the second a value
# rises; in the third one goes; in the fourth only a name changes, and
# nothing is noted.
v=$(rsql "BEGIN;
      DELETE FROM sitemap_dirty WHERE kind = 'researchers';
      CREATE TEMP TABLE sp ON COMMIT DROP AS
      SELECT weft_sitemap_block(id) AS b,
             (array_agg(id ORDER BY id))[1:2] AS ids,
             row_number() OVER (ORDER BY weft_sitemap_block(id)) AS k
        FROM researchers WHERE paper_count > 0
       GROUP BY 1 HAVING count(*) >= 2;
      UPDATE researchers r
         SET modified_at = CASE
                 WHEN r.id = (SELECT ids[1] FROM sp WHERE k = 1)
                 THEN timestamptz '2100-01-01 00:00Z'
                 WHEN r.id = (SELECT ids[1] FROM sp WHERE k = 2)
                 THEN timestamptz '2100-01-02 00:00Z'
                 ELSE r.modified_at END,
             paper_count = CASE
                 WHEN r.id IN (SELECT ids[2] FROM sp WHERE k = 1
                               UNION SELECT ids[1] FROM sp WHERE k = 3)
                 THEN 0 ELSE r.paper_count END,
             name = r.name || ' '
       WHERE r.id IN (SELECT ids[1] FROM sp WHERE k <= 4
                      UNION SELECT ids[2] FROM sp WHERE k = 1);
      SELECT string_agg(sp.k || ':' || coalesce(to_char(d.raise
                 AT TIME ZONE 'UTC', 'YYYY-MM-DD'), '-') || ':' || d.redo,
                 ' ' ORDER BY sp.k)
        FROM sitemap_dirty d JOIN sp ON sp.b = d.block
       WHERE d.kind = 'researchers';
      ROLLBACK" | tr '\n' ' ')
[ "$v" = "1:2100-01-01:true 2:2100-01-02:false 3:-:true " ]
ok $? "an update of researchers notes each sitemap block it moved, once" \
    "block:raise:read again: $v"
# Edits the refresh must move by their difference (0042), beside it: a
# merge (every authorship of one researcher to another, now matched by
# co-authors, and the first deleted), an old paper's categories, date
# and full match changed, an old paper's last author dropped, an
# authorship unmatched, and an upsert giving a paper a new position and
# a new researcher at an old one in one statement.
rsql "CREATE TEMP TABLE pick AS
      SELECT (SELECT researcher_id FROM authorships
               WHERE researcher_id IS NOT NULL GROUP BY 1
              HAVING count(*) >= 2 ORDER BY 1 LIMIT 1) AS x,
             (SELECT researcher_id FROM authorships
               WHERE researcher_id IS NOT NULL GROUP BY 1
              HAVING count(*) >= 3 ORDER BY 1 DESC LIMIT 1) AS y,
             (SELECT array_agg(id ORDER BY id) FROM
               (SELECT paper_id AS id FROM authorships
                 WHERE paper_id <> ${BIG:-0}
                 GROUP BY 1 HAVING count(researcher_id) >= 3
                 ORDER BY 1 LIMIT 4) s) AS p;
      UPDATE authorships SET researcher_id = (SELECT y FROM pick),
             match_reason = 'coauthors', match_score = 0.7
       WHERE researcher_id = (SELECT x FROM pick);
      DELETE FROM researchers WHERE id = (SELECT x FROM pick);
      UPDATE papers SET categories = '{math.CO}' || categories,
             published = published - 400, fully_matched = NOT fully_matched
       WHERE id = (SELECT p[1] FROM pick);
      DELETE FROM authorships
       WHERE paper_id = (SELECT p[2] FROM pick)
         AND position = (SELECT max(position) FROM authorships
                          WHERE paper_id = (SELECT p[2] FROM pick));
      UPDATE papers SET author_count = author_count - 1
       WHERE id = (SELECT p[2] FROM pick);
      UPDATE authorships SET researcher_id = NULL
       WHERE paper_id = (SELECT p[3] FROM pick) AND position = 2;
      INSERT INTO authorships AS a (paper_id, position, raw_name,
             researcher_id, match_reason)
      SELECT p[4], q, 'Refresh Probe', y, 'name_key'
        FROM pick, (VALUES (1), (999)) AS v(q)
          ON CONFLICT (paper_id, position) DO UPDATE
         SET researcher_id = excluded.researcher_id,
             raw_name = excluded.raw_name;
      UPDATE papers SET modified_at = modified_at - interval '2 years'
       WHERE weft_sitemap_block(id) = 0;
      UPDATE researchers SET modified_at = modified_at - interval '2 years'
       WHERE weft_sitemap_block(id) = 0;
      UPDATE papers SET modified_at = modified_at + interval '1 day'
       WHERE id = (SELECT p[3] FROM pick);
      UPDATE papers SET citation_count = coalesce(citation_count, 0) + 50,
             citation_source = 'openalex'
       WHERE id IN (SELECT p[3] FROM pick UNION SELECT p[4] FROM pick);
      UPDATE papers SET citation_count = NULL, citation_source = NULL
       WHERE id = (SELECT paper_id FROM authorships
                    WHERE researcher_id IS NOT NULL
                      AND paper_id IN (SELECT id FROM papers
                                        WHERE citation_count IS NOT NULL)
                    ORDER BY paper_id LIMIT 1);
      UPDATE authorships SET researcher_id = NULL
       WHERE (paper_id, position) =
             (SELECT a.paper_id, a.position FROM authorships a
                JOIN papers q ON q.id = a.paper_id
               WHERE q.citation_count > 0 AND a.researcher_id IS NOT NULL
                 AND a.researcher_id NOT IN (SELECT x FROM pick
                                             UNION SELECT y FROM pick)
               ORDER BY a.paper_id DESC, a.position LIMIT 1);" >/dev/null
# A paper without authors (its card is the empty list, noted by its
# insert: 0072), beside a renamed researcher's cards noted above.
rsql "INSERT INTO papers (arxiv_id, title, primary_category, slug, source)
      VALUES ('2601.99991', 'Authorless refresh probe', 'cs.SE',
              'authorless-refresh-probe', 'arxiv-listing')" >/dev/null
# Edits of the co-author evidence lists (0095), each by researchers no
# other edit touches and on no large paper:
# - R1 and B1, co-authors of one paper (R1's matched by co-authors) and
#   no other, get a second joint paper (matched by name): B1 enters
#   R1's list;
# - R3's first paper matched by co-authors with a name of its list on it
#   is matched by name now (its candidates shrink);
# - R5's only paper matched by co-authors is matched by name now: its
#   list empties (a day empties only the lists of researchers who were
#   on a changed paper).
rsql "CREATE TABLE ev_pick AS
      WITH busy AS (
	SELECT a.researcher_id AS id FROM authorships a
	 WHERE a.paper_id IN (SELECT paper_id FROM derived_before_papers
	                      UNION SELECT paper_id FROM derived_before_authors)
	 UNION SELECT researcher_id FROM derived_before_authors
	 UNION SELECT researcher_id FROM derived_dirty_researchers
	 UNION SELECT a.researcher_id FROM authorships a
	         JOIN papers p ON p.id = a.paper_id
	        WHERE p.author_count > weft_pair_authors_max()),
      free AS (SELECT id FROM researchers
                WHERE id NOT IN (SELECT id FROM busy WHERE id IS NOT NULL)),
      r1 AS (SELECT m.researcher_id AS r, a2.researcher_id AS b
               FROM authorships m
               JOIN authorships a2 ON a2.paper_id = m.paper_id
               JOIN coauthor_pairs c ON c.a = m.researcher_id
                                    AND c.b = a2.researcher_id
              JOIN researcher_stats s ON s.researcher_id = m.researcher_id
              WHERE m.match_reason = 'coauthors' AND c.papers = 1
                AND json_array_length(s.evidence_co) < 12
                AND m.researcher_id IN (SELECT id FROM free)
                AND a2.researcher_id IN (SELECT id FROM free)
              ORDER BY 1, 2 LIMIT 1),
      co AS (SELECT m.researcher_id AS r, m.paper_id AS paper,
                    EXISTS (SELECT 1 FROM authorships a2,
                                   json_array_elements(s.evidence_co) l
                             WHERE a2.paper_id = m.paper_id
                               AND (l ->> 0)::bigint = a2.researcher_id)
                        AS listed
               FROM authorships m
               JOIN researcher_stats s ON s.researcher_id = m.researcher_id
              WHERE m.match_reason = 'coauthors'
                AND m.researcher_id IN (SELECT id FROM free)
                AND m.researcher_id NOT IN (SELECT r FROM r1
                                            UNION SELECT b FROM r1)
                AND (SELECT count(*) FROM authorships c
                      WHERE c.researcher_id = m.researcher_id
                        AND c.match_reason = 'coauthors') >= 2),
      r3 AS (SELECT r, min(paper) AS paper FROM co WHERE listed
              GROUP BY 1 ORDER BY 1 LIMIT 1),
      r5 AS (SELECT m.researcher_id AS r,
                    min(m.paper_id) FILTER (WHERE m.match_reason = 'coauthors')
                        AS paper
               FROM authorships m
               JOIN researcher_stats s ON s.researcher_id = m.researcher_id
              WHERE s.evidence_co::text <> '[]'
                AND m.researcher_id IN (SELECT id FROM free)
                AND m.researcher_id NOT IN (SELECT r FROM r1 UNION
                                            SELECT b FROM r1 UNION
                                            SELECT r FROM r3)
              GROUP BY 1
             HAVING count(*) FILTER (WHERE m.match_reason = 'coauthors') = 1
              ORDER BY 1 LIMIT 1)
      SELECT r1.r AS r1, r1.b AS b1, r3.r AS r3, r3.paper AS p3,
             r5.r AS r5, r5.paper AS p5
        FROM r1, r3, r5;
      UPDATE authorships SET match_reason = 'name_key'
       WHERE (researcher_id, paper_id) IN (SELECT r3, p3 FROM ev_pick
                                           UNION ALL
                                           SELECT r5, p5 FROM ev_pick);
      INSERT INTO papers (arxiv_id, title, primary_category, slug, source,
                          author_count)
      VALUES ('2601.99992', 'Evidence refresh probe', 'cs.SE',
              'evidence-refresh-probe', 'arxiv-listing', 2);
      INSERT INTO authorships (paper_id, position, raw_name, researcher_id,
                               match_reason)
      SELECT p.id, v.pos, 'Evidence Probe', v.r, 'name_key'
        FROM ev_pick e,
             LATERAL (VALUES ('2601.99992', 1, e.r1),
                             ('2601.99992', 2, e.b1)) AS v(arxiv, pos, r)
        JOIN papers p ON p.arxiv_id = v.arxiv" >/dev/null
# B1 in R1's list, with its count.
LISTED="SELECT coalesce((SELECT (x ->> 1) FROM ev_pick e
           JOIN researcher_stats s ON s.researcher_id = e.r1,
                json_array_elements(s.evidence_co) x
          WHERE (x ->> 0)::bigint = e.b1), 'none')"
# R5's list.
EMPTIED="SELECT s.evidence_co::text = '[]' FROM ev_pick e
           JOIN researcher_stats s ON s.researcher_id = e.r5"
v=$(rsql "SELECT concat_ws(' ', r1, b1, r3, r5) FROM ev_pick")
l=$(rsql "$LISTED")
e=$(rsql "$EMPTIED")
[ "$(wc -w <<<"$v")" = 4 ] && [ "$l" = none ] && [ "$e" = f ]
ok $? "four researchers for the evidence edits, B1 not in R1's list" \
    "R1 B1 R3 R5: $v; listed: $l; R5's list empty: $e"
v=$(rsql "SELECT count(*) FROM paper_cards_due")
[ "${v:-0}" -ge 5 ]
ok $? "the edits note the papers whose cards they dropped" "$v notes"
v=$(rsql "SELECT count(*) FROM here_dirty")
[ "${v:-0}" -ge 3 ]
ok $? "the edits note the researchers whose figures here may move" \
    "$v notes"
v=$(rsql "SELECT count(*) FROM derived_before_authors")
[ "${v:-0}" -ge 5 ]
ok $? "the edits leave notes of what was before" "$v position notes"
# The refresh those edits call for, rolled back: it writes no more
# researcher_stats rows, evidence included, than it touched researchers
# (0081: new rows whole, reasons with the counts; before, the reasons
# alone rewrote every touched row), and finds room on the row's page
# (fillfactor 80) for nearly all of its updates.
v=$(rsql "BEGIN; SET LOCAL weft.refresh_full_share = 1;
      SELECT substring(weft_derived_refresh() FROM ': ([0-9]+) researchers');
      SELECT n_tup_ins, n_tup_upd, n_tup_hot_upd
        FROM pg_stat_xact_user_tables WHERE relname = 'researcher_stats';
      ROLLBACK" | tr '\n' ' ')
v=${v% }
read -r touched rest <<<"$v"
IFS='|' read -r ins upd hot <<<"$rest"
[ "${touched:-0}" -gt 0 ] && [ $((ins + upd)) -le "$touched" ] &&
    [ $((hot * 10)) -ge $((upd * 9)) ]
ok $? "the refresh writes each touched researcher's stats once, in place ($v)" \
    "touched, inserted|updated|in place: $v"
# The full path, rolled back, likewise (0094): each row inserted with
# its reasons and an empty evidence, then only the rows with co-author
# evidence updated; before, the evidence and the reasons each rewrote
# every row (updates twice the inserts and more).
v=$(rsql "BEGIN;
      SELECT weft_derived_refresh(true) IS NOT NULL;
      SELECT n_tup_ins, n_tup_upd
        FROM pg_stat_xact_user_tables WHERE relname = 'researcher_stats';
      ROLLBACK" | tr '\n' ' ')
read -r _ rest <<<"$v"
IFS='|' read -r ins upd <<<"$rest"
[ "${ins:-0}" -gt 0 ] && [ $((upd * 2)) -lt "$ins" ]
ok $? "a full refresh writes each researcher's stats once, but the evidence" \
    "inserted|updated: $rest"
PGOPTIONS="-c weft.refresh_full_share=1" hv_ok refresh
grep -q 'refreshed (incremental:' "$T_TMP/hv.out"
ok $? "a paper crossing it refreshes incrementally" "$(cat "$T_TMP/hv.out")"
l=$(rsql "$LISTED")
[ "$l" = 2 ]
ok $? "a second joint paper puts B1 in R1's list" "listed: $l"
e=$(rsql "$EMPTIED")
[ "$e" = t ]
ok $? "R5's list empties with its last paper matched by co-authors" \
    "empty: $e"
# The cards, terms and name words ran beside it (0076), from notes.
grep -Eq 'beside: [0-9]+ lexemes moved, [1-9][0-9]* cards, [0-9]+ name word rows\)' \
    "$T_TMP/hv.out"
ok $? "the cards, terms and name words are refreshed beside the rest" \
    "$(cat "$T_TMP/hv.out")"
v=$(rsql "SELECT (SELECT count(*) FROM paper_cards_due) || ' ' ||
                 coalesce((SELECT c.authors || c.names FROM paper_cards c
                             JOIN papers p ON p.id = c.paper_id
                            WHERE p.arxiv_id = '2601.99991'), 'none')")
[ "$v" = "0 [][]" ]
ok $? "the refresh takes the card notes, the authorless paper's too" \
    "notes left, authorless card: $v"
v=$(rsql "SELECT (SELECT count(*) FROM name_words_due) || ' ' ||
                 (SELECT count(*) FROM derived_refreshed
                   WHERE name = 'name_words' AND at > now() - interval '1 hour')")
[ "$v" = "0 1" ]
ok $? "the refresh takes the name words' notes" \
    "notes left, refreshed: $v"
[ "$(analyzed)" = "$A1" ]
ok $? "a refresh after a few authorships leaves their statistics" \
    "$A1 / $(analyzed)"
v=$(rsql "$CROSSED")
case $v in
0\|0\|[2-9]* | 0\|0\|[1-9][0-9]*) ok 0 "a paper crossing the limit: its pairs go ($v)" ;;
*) ok 1 "a paper crossing the limit: its pairs go" "pairs|not counted|authors: $v" ;;
esac

# The derived rows, as refresh_daily.sh compares them at scale.
SETS=$(grep -v '^#' "$(dirname "$0")/derived_sets")
save_sets "$SETS"
hv_ok refresh --full
compare_sets "$SETS" "incremental equals full"
# The evidence co-authors by their definition (0011: co-authors sharing
# two papers or more, one of them matched by co-authors; every joint
# paper counted, large ones too), which 0043 computes from the pairs.
v=$(rsql "WITH e AS (
	SELECT id, json_agg(json_build_array(b, n) ORDER BY n DESC, b) AS j
	  FROM (SELECT id, b, n, row_number() OVER (PARTITION BY id
	                                            ORDER BY n DESC, b) AS k
	          FROM (SELECT m.researcher_id AS id, a2.researcher_id AS b,
	                       count(DISTINCT a2.paper_id) AS n
	                  FROM authorships m
	                  JOIN authorships a2 ON a2.paper_id = m.paper_id
	                   AND a2.researcher_id <> m.researcher_id
	                 GROUP BY 1, 2
	                HAVING count(DISTINCT a2.paper_id) > 1
	                   AND bool_or(m.match_reason = 'coauthors')) c) x
	 WHERE k <= 12
	 GROUP BY id)
    SELECT count(*) FILTER (WHERE s.evidence_co::text <> '[]'),
           count(*) FILTER (WHERE coalesce(e.j::text, '[]')
                                  IS DISTINCT FROM s.evidence_co::text)
      FROM researcher_stats s LEFT JOIN e ON e.id = s.researcher_id")
case $v in
0\|*) ok 1 "evidence co-authors as defined" "none: $v" ;;
*\|0) ok 0 "evidence co-authors as defined ($v with|differ)" ;;
*) ok 1 "evidence co-authors as defined" "with|differ: $v" ;;
esac
# A fill of lists that are current writes none (0095; before, each was
# written again), rolled back.
v=$(rsql "BEGIN;
      CREATE TEMP TABLE weft_touched ON COMMIT DROP AS
      SELECT researcher_id AS id FROM researcher_stats
       WHERE evidence_co::text <> '[]';
      SELECT weft_researcher_evidence_fill() IS NULL;
      SELECT (SELECT count(*) FROM weft_touched) || '|' || n_tup_upd
        FROM pg_stat_xact_user_tables
       WHERE schemaname = 'public' AND relname = 'researcher_stats';
      ROLLBACK" | tail -1)
case $v in
0\|* | *\|[1-9]*) ok 1 "current evidence lists are not written again" \
    "lists|written: $v" ;;
*) ok 0 "current evidence lists are not written again ($v lists|written)" ;;
esac
v=$(rsql "SELECT count(*) FILTER (WHERE here_papers > 0),
    count(*) FILTER (WHERE here_h_lead > 0) FROM researcher_stats")
case $v in
0\|* | *\|0) ok 1 "figures here computed for some researchers" "$v" ;;
*) ok 0 "figures here computed for some researchers ($v with counts|lead h)" ;;
esac
v=$(rsql "SELECT count(*) FROM paper_cards c RIGHT JOIN papers p
    ON p.id = c.paper_id WHERE c.paper_id IS NULL")
[ "$v" = 0 ]
ok $? "every paper has its card" "$v without"

# Every search vector is that of its paper's title, authors and
# abstract, whether the loader gave it with the paper (0044) or a
# trigger rebuilt it (the renamed author above, the matcher's rewrites).
v=$(rsql "SELECT count(*),
    count(*) FILTER (WHERE search_vector IS DISTINCT FROM
        weft_paper_vector(title, weft_paper_authors(id), abstract)),
    count(*) FILTER (WHERE search_authors IS DISTINCT FROM
        weft_authors_key(weft_paper_authors(id))),
    count(*) FILTER (WHERE search_vector @@ 'vectorprob'::tsquery)
    FROM papers")
case $v in
*\|0\|0\|1) ok 0 "search vectors and their author keys are current ($v)" ;;
*) ok 1 "search vectors and their author keys are current" \
    "papers|stale vectors|stale keys|renamed found: $v" ;;
esac

# Without their 'paper_cards' row (a migration that changes what a card
# holds deletes it), the cards are built again, every one (0076).
rsql "DELETE FROM derived_refreshed WHERE name = 'paper_cards';
      UPDATE paper_cards SET names = '[\"stale\"]'
       WHERE paper_id = (SELECT min(paper_id) FROM paper_cards)" >/dev/null
hv_ok refresh
n=$(rsql "SELECT count(*) FROM papers")
v=$(rsql "SELECT count(*) FROM paper_cards WHERE names LIKE '%stale%'")
grep -q "beside: [0-9]* lexemes moved, $n cards," "$T_TMP/hv.out" && [ "$v" = 0 ]
ok $? "without their row, every card is built again" \
    "$n papers, stale cards left: $v; $(cat "$T_TMP/hv.out")"

# The day's refresh sorts and hashes in memory (0071): a later
# CREATE OR REPLACE of either function that dropped its SET would put
# it back on disk.
v=$(rsql "SELECT string_agg(proname || ' ' || array_to_string(proconfig, ','),
                          '; ' ORDER BY proname)
            FROM pg_proc
           WHERE proname IN ('weft_derived_refresh', 'weft_here_refresh',
                             'weft_beside_refresh')")
[ "$v" = "weft_beside_refresh work_mem=64MB; weft_derived_refresh work_mem=64MB; weft_here_refresh work_mem=64MB" ]
ok $? "the refresh functions keep their work_mem" "$v"
# Autovacuum comes after a day's writes to the tables whose recent pages
# the day reads index-only (0068, 0073).
v=$(rsql "SELECT string_agg(relname || ' ' || array_to_string(reloptions, ','),
                          '; ' ORDER BY relname)
            FROM pg_class WHERE relname IN ('papers', 'researchers')")
n=$(rsql "SELECT count(*) FROM pg_class
           WHERE (relname = 'papers' AND reloptions @>
                  '{autovacuum_vacuum_insert_scale_factor=0.01,
                    autovacuum_vacuum_scale_factor=0.02}')
              OR (relname = 'researchers' AND reloptions @>
                  '{autovacuum_vacuum_scale_factor=0.01}')")
[ "$n" = 2 ]
ok $? "papers and researchers are vacuumed after a day's writes" "$v"

# Rows rewritten in place (0092: the match writes each of the day's
# authorships again with its decision) leave their statistics to
# autovacuum until more than four times the share (20 %) were written
# since the last ANALYZE; a table grown by the share is analyzed at once
# (above).
written() {
	rsql "SELECT s.n_mod_since_analyze || ' of ' || c.reltuples
	        FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
	       WHERE s.relname = 'authorships'"
}
A2=$(analyzed)
# Each rewrite's counts flushed before psql has its answer
# (pg_stat_force_next_flush), not as its backend exits, which could
# come after the refresh has read them.
rsql "SELECT pg_stat_force_next_flush();
      UPDATE authorships SET match_score = match_score
       WHERE paper_id % 10 = 0" >/dev/null
hv_ok refresh
[ "$(analyzed)" = "$A2" ]
ok $? "a tenth of the authorships rewritten in place: left to autovacuum" \
    "$A2 / $(analyzed), written since: $(written)"
rsql "SELECT pg_stat_force_next_flush();
      UPDATE authorships SET match_score = match_score
       WHERE paper_id % 10 IN (1, 2)" >/dev/null
hv_ok refresh
[ "$(analyzed)" != "$A2" ]
ok $? "three tenths rewritten in place: analyzed" \
    "$A2 / $(analyzed), written since: $(written)"

# A harvester's batch looks up the researcher of each new author's name
# key (MERGE_AUTHORSHIPS: the lowest id without an external id) in the
# index alone (0093), not in the researchers' rows.
keys=$(rsql "SELECT string_agg(quote_literal(name_key), ', ')
               FROM (SELECT name_key FROM researchers LIMIT 3) k")
v=$(rsql "SET enable_seqscan = off; SET enable_bitmapscan = off;
      EXPLAIN (COSTS OFF)
      SELECT name_key, min(id) FROM researchers
       WHERE name_key IN ($keys)
         AND openalex_id IS NULL AND s2_id IS NULL AND orcid IS NULL
       GROUP BY name_key")
echo "$v" | grep -q "Index Only Scan using researchers_name_key"
ok $? "a name key's researcher is found from the index alone" "$v"

rsql "DROP SCHEMA inc CASCADE; DROP TABLE ev_pick" >/dev/null
dropdb -h "$WEFT_VAR/pg/run" -U weft $DB
done_testing
