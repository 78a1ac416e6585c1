#!/bin/bash
# t_match.sh -- weft-harvest match on the test stack's database: a known
# same-name split (one name, two people: co-authors and fields apart), a
# join by co-authors with its evidence, a rerun that changes nothing, an
# external id that decides, and a followed researcher whose follows move
# to the survivor when it is merged away; a batch whose writes fail.
. "$(dirname "$0")/lib.sh"
ROOT=${WEFT_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${WEFT_HARVEST:-$ROOT/build-san/weft-harvest}
sql() { psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atqc "$1"; }
sql_is() {
	local v
	v=$(sql "$1")
	[ "$v" = "$2" ]
	ok $? "$3" "'$1' gave '$v', want '$2'"
}
hv() {
	env WEFT_CONF="$WEFT_VAR/weft.conf" "$BIN" "$@" >"$T_TMP/hv.out" 2>&1
	HV_RC=$?
}
[ -x "$BIN" ] || { echo "1..0 # SKIP no $BIN"; exit 0; }

IDS="'9901.00001','9901.00002','9901.00003','9901.00004'"
clean() {
	sql "DELETE FROM follows WHERE user_id IN (SELECT id FROM users
	      WHERE email = 'match@weft.invalid');
	    DELETE FROM users WHERE email = 'match@weft.invalid';
	    DELETE FROM papers WHERE arxiv_id IN ($IDS);
	    DELETE FROM researchers WHERE name_key LIKE '% quaxley'
	       OR openalex_id = 'A9999999991';" >/dev/null
}
clean
# paper ID DATE CATEGORY AUTHOR...: a paper and its authorships (no name
# keys and no researchers: match fills both).
paper() {
	local id=$1 date=$2 cat=$3 pos=0 a
	shift 3
	sql "INSERT INTO papers (arxiv_id, title, primary_category, categories,
	    published, slug, source) VALUES ('$id', 'match test $id', '$cat',
	    ARRAY['$cat'], '$date', 'match-test', 'test')" >/dev/null
	for a in "$@"; do
		pos=$((pos + 1))
		sql "INSERT INTO authorships (paper_id, position, raw_name)
		    SELECT id, $pos, '$a' FROM papers WHERE arxiv_id = '$id'" \
		    >/dev/null
	done
}
paper 9901.00001 2026-07-03 cs.SE "Zebulon Quaxley" "Mira Tandoff" \
    "Ossian Vell"
paper 9901.00002 2026-07-02 cs.SE "Mira Tandoff" "Zebulon Quaxley" \
    "Pell Ruud"
paper 9901.00003 2026-07-01 q-bio.GN "Hollis Drane" "Zebulon Quaxley"
paper 9901.00004 2026-06-30 q-bio.GN "Z. Quaxley" "Hollis Drane"

# rid ID: the researcher of Zebulon Quaxley on paper ID.
rid() {
	sql "SELECT a.researcher_id FROM authorships a JOIN papers p ON
	    p.id = a.paper_id WHERE p.arxiv_id = '$1' AND a.raw_name LIKE
	    '%Quaxley'"
}
why() {
	sql "SELECT a.match_reason FROM authorships a JOIN papers p ON
	    p.id = a.paper_id WHERE p.arxiv_id = '$1' AND a.raw_name LIKE
	    '%Quaxley'"
}

# A batch whose writes fail (they run while the next batch is read and
# decided) fails the run, its transaction rolled back whole.
sql "CREATE FUNCTION t_match_refuse() RETURNS trigger LANGUAGE plpgsql AS
    \$\$BEGIN
        IF current_setting('weft.matcher', true) = 'on' THEN
            RAISE EXCEPTION 'match write refused (t_match.sh)';
        END IF;
        RETURN NEW;
    END\$\$;
    CREATE TRIGGER t_match_refuse BEFORE UPDATE ON authorships
       FOR EACH ROW EXECUTE FUNCTION t_match_refuse()" >/dev/null
hv match
sql "DROP TRIGGER t_match_refuse ON authorships;
    DROP FUNCTION t_match_refuse()" >/dev/null
[ "$HV_RC" != 0 ]
ok $? "a batch whose writes fail fails the match" "rc $HV_RC"
grep -q "MATCH_APPLY: .*match write refused (t_match.sh)" "$T_TMP/hv.out"
ok $? "the failed write is logged" "$(tail -c 600 "$T_TMP/hv.out")"
sql_is "SELECT count(*) FROM authorships a JOIN papers p ON p.id =
    a.paper_id WHERE p.arxiv_id IN ($IDS) AND a.researcher_id IS NOT NULL" \
    0 "nothing of the failed batch is written"
sql_is "SELECT count(*) FROM researchers WHERE name_key LIKE '% quaxley'" 0 \
    "nor the researchers it made"

# --no-refresh leaves the derived tables to a later refresh: its notes
# stay for it.
hv match --no-refresh
[ "$HV_RC" = 0 ]
ok $? "match runs" "$(tail -c 600 "$T_TMP/hv.out")"
notes="SELECT (SELECT count(*) FROM derived_before_papers) +
    (SELECT count(*) FROM derived_before_authors) +
    (SELECT count(*) FROM derived_dirty_researchers)"
n=$(sql "$notes")
grep -q '^matched: ' "$T_TMP/hv.out" && ! grep -q 'refreshed' "$T_TMP/hv.out" &&
    [ "${n:-0}" -gt 0 ]
ok $? "match --no-refresh leaves the refresh's notes" \
    "$n notes; $(tail -c 600 "$T_TMP/hv.out")"
hv refresh
grep -q 'refreshed (incremental: ' "$T_TMP/hv.out" && [ "$(sql "$notes")" = 0 ]
ok $? "the refresh after it takes them" \
    "$(sql "$notes") notes left; $(tail -c 600 "$T_TMP/hv.out")"
r1=$(rid 9901.00001) r2=$(rid 9901.00002) r3=$(rid 9901.00003)
r4=$(rid 9901.00004)
[ -n "$r1" ] && [ "$r1" = "$r2" ]
ok $? "shared co-author: one researcher" "$r1 $r2"
[ -n "$r3" ] && [ "$r3" != "$r1" ]
ok $? "same name, other co-authors and field: split" "$r1 $r3"
[ "$r4" = "$r3" ]
ok $? "Z. Quaxley with Hollis Drane is the second one" "$r3 $r4"
sql_is "SELECT count(DISTINCT a.researcher_id) FROM authorships a JOIN
    papers p ON p.id = a.paper_id WHERE p.arxiv_id IN ($IDS) AND
    a.name_key = 'zebulon quaxley'" 2 "the same-name group became two"
[ "$(why 9901.00002)" = coauthors ]
ok $? "evidence: coauthors" "$(why 9901.00002)"
sql_is "SELECT match_score FROM authorships a JOIN papers p ON
    p.id = a.paper_id WHERE p.arxiv_id = '9901.00002' AND a.position = 2" \
    0.5 "score: one co-author of two shared"
[ "$(why 9901.00003)" = new_identity ]
ok $? "evidence: new_identity" "$(why 9901.00003)"
sql_is "SELECT paper_count, metrics_source IS NULL, h_index IS NULL,
    works_count IS NULL FROM researchers WHERE id = $r1" "2|t|t|t" \
    "counts; no source, so no metrics (never papers here as works total)"
sql_is "SELECT bool_and(fully_matched) FROM papers WHERE arxiv_id IN
    ($IDS)" t "every author matched: fully matched"

# A rerun writes nothing.
snap() {
	sql "SELECT md5(string_agg(a.paper_id || ':' || a.position || ':' ||
	    coalesce(a.researcher_id, 0) || a.match_reason || a.match_score,
	    ',' ORDER BY a.paper_id, a.position)) FROM authorships a;
	    SELECT md5(string_agg(id || name || paper_count || modified_at,
	    ',' ORDER BY id)) FROM researchers;
	    SELECT count(*), max(marked_at) FROM stale_pages"
}
before=$(snap)
hv match
[ "$HV_RC" = 0 ] && [ "$(snap)" = "$before" ]
ok $? "rerun changes nothing"

# Follow the second one; then an OpenAlex id says papers 1 and 3 are one
# person: 2 follows through co-authors, 4 through Hollis Drane, and the
# second researcher is merged away, its follower moved to the survivor.
sql "INSERT INTO users (email, password_hash) VALUES ('match@weft.invalid',
    'x') RETURNING id" >/dev/null 2>&1
uid=$(sql "SELECT id FROM users WHERE email = 'match@weft.invalid'")
[ -n "$uid" ] && sql "INSERT INTO follows (user_id, researcher_id) VALUES
    ($uid, $r3)" >/dev/null
x=$(sql "INSERT INTO researchers (name, name_key, slug, openalex_id)
    VALUES ('Zebulon Quaxley', 'zebulon quaxley', 'zebulon-quaxley',
    'A9999999991') RETURNING id" | head -1)
# As HV_LINK_AUTHOR links them: the score is the next match's to write.
sql "UPDATE authorships a SET researcher_id = $x, match_reason =
    'openalex_id', match_score = NULL FROM papers p WHERE p.id = a.paper_id
    AND p.arxiv_id IN ('9901.00001', '9901.00003') AND a.raw_name =
    'Zebulon Quaxley'" >/dev/null
hv match
[ "$HV_RC" = 0 ]
ok $? "match after the OpenAlex link" "$(tail -c 600 "$T_TMP/hv.out")"
sql_is "SELECT count(DISTINCT a.researcher_id) || ':' ||
    min(a.researcher_id) FROM authorships a JOIN papers p ON
    p.id = a.paper_id WHERE p.arxiv_id IN ($IDS) AND a.raw_name LIKE
    '%Quaxley'" "1:$x" "the external id decides: one researcher, its id"
[ "$(why 9901.00003)" = openalex_id ]
ok $? "evidence: openalex_id" "$(why 9901.00003)"
if [ -n "$uid" ]; then
	sql_is "SELECT researcher_id FROM follows WHERE user_id = $uid" "$x" \
	    "the follow moved to the survivor"
fi
sql_is "SELECT count(*) FROM researchers WHERE id IN ($r1, $r3) AND id
    NOT IN (SELECT researcher_id FROM follows)" 0 \
    "the merged-away researchers are gone"
before=$(snap)
hv match
[ "$(snap)" = "$before" ]
ok $? "rerun after the merge changes nothing"

clean
done_testing
