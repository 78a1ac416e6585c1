#!/bin/bash
# t_match_blocks.sh -- weft-harvest match reads the name blocks that
# changed since the last match (0058), and gives what a full match gives.
# In a database of its own: part of the bundled papers loaded (and
# matched), edits as other writers make them (a name changed, an
# authorship unmatched, a researcher given an external id, a paper
# deleted), then the rest loaded, whose match reads the changed blocks
# only; the match's rows and counts are copied aside and compared
# (EXCEPT, both ways) with "match --full" of the same data.
. "$(dirname "$0")/lib.sh"
DB=weft_t_match_blocks
. "$(dirname "$0")/lib_db.sh"

# blocks: the number the last run said it read.
blocks() {
	sed -n 's/.*"msg":"\([0-9]*\) name blocks to read.*/\1/p' \
	    "$T_TMP/hv.out" | tail -1
}

fresh_db
part "$T_TMP/a" 1 2000
part "$T_TMP/b" 2001 2300
hv_ok migrate
hv_ok load --data "$T_TMP/a"
ALL=$(rsql "SELECT count(DISTINCT weft_name_block(name_key))
              FROM authorships WHERE name_key <> ''")
n=$(blocks)
[ -n "$n" ] && [ "$n" -ge "$ALL" ]
ok $? "a first load's match reads every block ($n noted, $ALL now)" \
    "$(grep 'name blocks' "$T_TMP/hv.out")"
v=$(rsql "SELECT count(*) FROM match_dirty")
[ "$v" = 0 ]
ok $? "the match consumes the notes" "$v left"
hv_ok match
n=$(blocks)
[ "$n" = 0 ] && grep -q '"msg":"0 authorships in' "$T_TMP/hv.out"
ok $? "a match after nothing changed reads nothing" \
    "$(grep 'harvest.match' "$T_TMP/hv.out")"

# Edits by other writers, each noting its blocks: an authorship renamed
# to another author's name (the old block and the new), an authorship
# unmatched, a researcher of a shared name given an OpenAlex id on one
# of its authorships, a paper deleted.
rsql "CREATE TABLE pick AS
      SELECT (SELECT paper_id FROM authorships
               WHERE position = 2 AND researcher_id IS NOT NULL
               ORDER BY paper_id DESC OFFSET 3 LIMIT 1) AS renamed,
             (SELECT raw_name FROM authorships a
               WHERE name_key IN (SELECT name_key FROM authorships
                                   GROUP BY 1 HAVING count(*) >= 3)
               ORDER BY paper_id LIMIT 1) AS other_name,
             (SELECT name_key FROM authorships a
               WHERE name_key IN (SELECT name_key FROM authorships
                                   GROUP BY 1 HAVING count(*) >= 3)
               ORDER BY paper_id LIMIT 1) AS other_key,
             (SELECT paper_id FROM authorships
               WHERE position = 1 AND researcher_id IS NOT NULL
               ORDER BY paper_id DESC OFFSET 9 LIMIT 1) AS unmatched,
             (SELECT researcher_id FROM authorships
               WHERE name_key IN (SELECT name_key FROM authorships
                                   GROUP BY 1
                                  HAVING count(DISTINCT researcher_id) >= 2)
               ORDER BY paper_id DESC LIMIT 1) AS given_id,
             (SELECT min(id) + 11 FROM papers) AS deleted;
      UPDATE authorships a SET raw_name = p.other_name,
             name_key = p.other_key
        FROM pick p WHERE a.paper_id = p.renamed AND a.position = 2;
      UPDATE authorships a SET researcher_id = NULL, match_reason = NULL
        FROM pick p WHERE a.paper_id = p.unmatched AND a.position = 1;
      UPDATE researchers r SET openalex_id = 'A9999999977'
        FROM pick p WHERE r.id = p.given_id;
      UPDATE authorships a SET match_reason = 'openalex'
        FROM pick p
       WHERE (a.paper_id, a.position) =
             (SELECT paper_id, position FROM authorships
               WHERE researcher_id = p.given_id LIMIT 1);
      DELETE FROM papers WHERE id = (SELECT deleted FROM pick);" >/dev/null
v=$(rsql "SELECT count(*) FROM match_dirty d, pick p
           WHERE d.block IN (weft_name_block(p.other_key),
                 (SELECT weft_name_block(name_key) FROM authorships
                   WHERE paper_id = p.unmatched AND position = 1))")
[ "$v" = 2 ]
ok $? "other writers' edits note their blocks" "$v of 2"
rsql "SELECT count(*) FROM pick WHERE renamed IS NULL OR other_key IS NULL
         OR unmatched IS NULL OR given_id IS NULL" | grep -qx 0
ok $? "the edits found their rows" "$(rsql 'TABLE pick')"

hv_ok load --data "$T_TMP/b"
n=$(blocks)
[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" -lt "$ALL" ]
ok $? "the next load's match reads the changed blocks only ($n of $ALL)" \
    "$(grep 'name blocks' "$T_TMP/hv.out")"
v=$(rsql "SELECT count(*) FROM authorships a, pick p
           WHERE a.paper_id = p.unmatched AND a.position = 1
             AND a.researcher_id IS NOT NULL")
[ "$v" = 1 ]
ok $? "the unmatched authorship is matched again" "$v"

# What a match decides and counts, keyed as stored.
SETS="authorships:SELECT paper_id, position, researcher_id, match_reason, match_score FROM authorships
researchers:SELECT id, paper_count, latest_paper FROM researchers
papers:SELECT id, author_count, fully_matched FROM papers"
save_sets "$SETS"
hv_ok match --full
n=$(blocks)
[ "$n" = "$(rsql "SELECT count(DISTINCT weft_name_block(name_key))
                   FROM authorships WHERE name_key <> ''")" ]
ok $? "--full reads every block" "$(grep 'name blocks' "$T_TMP/hv.out")"
compare_sets "$SETS" "by blocks equals full"

rsql "DROP SCHEMA inc CASCADE" >/dev/null
dropdb -h "$WEFT_VAR/pg/run" -U weft $DB
done_testing
