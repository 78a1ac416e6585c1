#!/bin/bash
# t_match_forms.sh -- matching across name forms and its honest
# evaluation, through the real weft-harvest on the test stack's database:
# "A. Del Maestro" and "Adrian Del Maestro" with shared co-authors become
# one researcher named by the full form; two people with the same initial
# and surname and nothing shared stay apart; a family-name-first form
# joins its person; a mojibake name gets the key of the right one and
# keeps its raw bytes; "weft-harvest eval" reports the tuning and the
# held-out parts of the gold set, per case type, with and without the
# adjudicated joins, and meets the targets (held-out precision >= 0.99,
# recall >= 0.95).
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
	(cd "$ROOT" && env WEFT_CONF="$WEFT_VAR/weft.conf" "$BIN" "$@") \
	    >"$T_TMP/hv.out" 2>&1
	HV_RC=$?
}
[ -x "$BIN" ] || { echo "1..0 # SKIP no $BIN"; exit 0; }

IDS="'9902.00001','9902.00002','9902.00003','9902.00004','9902.00005',
    '9902.00006','9902.00007'"
clean() {
	sql "DELETE FROM papers WHERE arxiv_id IN ($IDS);
	    DELETE FROM researchers WHERE name_key LIKE '% del maestrox'
	       OR name_key LIKE '% zorvath' OR name_key LIKE '% quillfeather'
	       OR name_key LIKE '% mantylax';" >/dev/null
}
clean
# paper ID DATE CATEGORY AUTHOR...: a paper and its authorships (no name
# keys and no researchers: match fills both).
paper() {
	local id=$1 date=$2 cat=$3 pos=0 a
	shift 3
	sql "INSERT INTO papers (arxiv_id, title, primary_category, categories,
	    published, slug, source) VALUES ('$id', 'forms test $id', '$cat',
	    ARRAY['$cat'], '$date', 'forms-test', 'test')" >/dev/null
	for a in "$@"; do
		pos=$((pos + 1))
		sql "INSERT INTO authorships (paper_id, position, raw_name)
		    SELECT id, $pos, '$a' FROM papers WHERE arxiv_id = '$id'" \
		    >/dev/null
	done
}
# The surnames are made up ("Del Maestrox") so that no bundled paper
# falls in the same blocks.
paper 9902.00002 2026-07-02 cond-mat.str-el "A. Del Maestrox" \
    "Kipton Zorvath" "Bernd Quillfeather"
# Another A. Del Maestrox: other co-authors, another field.
paper 9902.00003 2026-07-01 q-bio.GN "A. Del Maestrox" "Ursel Brandtvik"
# Family name first, with a co-author of the first.
paper 9902.00004 2026-06-30 cond-mat.str-el "Zorvath Kipton" \
    "Nicolette Quillfeather"
paper 9902.00005 2026-06-29 cond-mat.str-el "Kipton Zorvath" \
    "Ilse Vantreu"
# A name served as mojibake (UTF-8 read as Latin-1), and written right.
paper 9902.00006 2026-06-28 cs.SE "Mika V. Mäntyläx" "Ossi Partanenq"
paper 9902.00007 2026-06-27 cs.SE "Mika V. MÃ¤ntylÃ¤x" "Ossi Partanenq"

# rid ID PATTERN: the researcher of the author LIKE PATTERN on paper ID.
rid() {
	sql "SELECT a.researcher_id FROM authorships a JOIN papers p ON
	    p.id = a.paper_id WHERE p.arxiv_id = '$1' AND a.raw_name LIKE '$2'"
}

# First the initials only: the researcher is "A. Del Maestrox".  Then a
# paper with the full given name and the same co-author: it joins and
# names the researcher.
hv match
[ "$HV_RC" = 0 ]
ok $? "match runs" "$(tail -c 600 "$T_TMP/hv.out")"
r0=$(rid 9902.00002 '%Maestrox')
sql_is "SELECT name FROM researchers WHERE id = ${r0:-0}" \
    "A. Del Maestrox" "initials only: named by them"
paper 9902.00001 2026-07-03 cond-mat.str-el "Adrian Del Maestrox" \
    "Kipton Zorvath" "Nicolette Quillfeather"
hv match
[ "$HV_RC" = 0 ]
ok $? "match runs again" "$(tail -c 600 "$T_TMP/hv.out")"
r1=$(rid 9902.00001 '%Maestrox') r2=$(rid 9902.00002 '%Maestrox')
r3=$(rid 9902.00003 '%Maestrox')
[ -n "$r1" ] && [ "$r1" = "$r2" ]
ok $? "A. Del Maestrox with shared co-authors: one researcher" "$r1 $r2"
[ "$r1" = "$r0" ]
ok $? "the researcher is kept" "$r0 $r1"
sql_is "SELECT name FROM researchers WHERE id = ${r1:-0}" \
    "Adrian Del Maestrox" "renamed by the full form, not the initial"
[ -n "$r3" ] && [ "$r3" != "$r1" ]
ok $? "same initial and surname, nothing shared: apart" "$r1 $r3"
z4=$(rid 9902.00004 'Zorvath Kipton') z5=$(rid 9902.00005 'Kipton Zorvath')
z1=$(rid 9902.00001 'Kipton Zorvath')
[ -n "$z4" ] && [ "$z4" = "$z1" ] && [ "$z5" = "$z1" ]
ok $? "family name first: the same person" "$z1 $z4 $z5"
sql_is "SELECT name_key FROM authorships a JOIN papers p ON p.id =
    a.paper_id WHERE p.arxiv_id = '9902.00004' AND a.position = 1" \
    "kipton zorvath" "its key is turned given names first"
m6=$(rid 9902.00006 'Mika%') m7=$(rid 9902.00007 'Mika%')
[ -n "$m6" ] && [ "$m6" = "$m7" ]
ok $? "mojibake and the right form: one researcher" "$m6 $m7"
sql_is "SELECT raw_name FROM authorships a JOIN papers p ON p.id =
    a.paper_id WHERE p.arxiv_id = '9902.00007' AND a.position = 1" \
    "Mika V. MÃ¤ntylÃ¤x" "the raw bytes are kept"
sql_is "SELECT name FROM researchers WHERE id = ${m6:-0}" \
    "Mika V. Mäntyläx" "the researcher has the repaired name"

# A rerun changes nothing (the turned keys stay turned).
snap() {
	sql "SELECT md5(string_agg(a.paper_id || ':' || a.position || ':' ||
	    coalesce(a.researcher_id, 0) || a.name_key || a.match_reason,
	    ',' ORDER BY a.paper_id, a.position)) FROM authorships a"
}
before=$(snap)
hv match
[ "$HV_RC" = 0 ] && [ "$(snap)" = "$before" ]
ok $? "rerun changes nothing"

# The evaluation: both parts, per case type, on the real database.
hv eval
[ "$HV_RC" = 0 ]
ok $? "eval runs" "$(tail -c 600 "$T_TMP/hv.out")"
grep -q '^gold: .* works (openalex [0-9]*, s2 [0-9]*), .* split by seed' \
    "$T_TMP/hv.out"
ok $? "eval: the gold set from OpenAlex and S2, split by a seed"
for part in tuning held-out; do
	grep -q "^$part: .* precision [0-9.]* recall [0-9.]*$" "$T_TMP/hv.out"
	ok $? "eval prints the $part part"
	for c in same accents initials order; do
		grep -q "^  $part $c: tp " "$T_TMP/hv.out"
		ok $? "eval: $part, case $c"
	done
done
grep -q '^database: .* same-name groups' "$T_TMP/hv.out"
ok $? "eval read the database"
p=$(awk '/^held-out:/ { for (i = 1; i < NF; i++) if ($i == "precision")
    print $(i + 1) }' "$T_TMP/hv.out")
r=$(awk '/^held-out:/ { for (i = 1; i < NF; i++) if ($i == "recall")
    print $(i + 1) }' "$T_TMP/hv.out")
# The targets of issue 16 on the held-out part, with the adjudicated
# gold set (README: how it is built); the sources' own figures first.
awk -v p="$p" 'BEGIN { exit !(p >= 0.99) }'
ok $? "held-out precision $p >= 0.99"
awk -v r="$r" 'BEGIN { exit !(r >= 0.95) }'
ok $? "held-out recall $r >= 0.95"
# The day's pass on the same gold: the newest dates placed against the
# older ones (match --full's figures above; measured 0.9896 and 0.9926
# beside its 0.9908 and 0.9871).
p=$(awk '/^day.s pass, held-out:/ { for (i = 1; i < NF; i++)
    if ($i == "precision") print $(i + 1) }' "$T_TMP/hv.out")
r=$(awk '/^day.s pass, held-out:/ { for (i = 1; i < NF; i++)
    if ($i == "recall") print $(i + 1) }' "$T_TMP/hv.out")
grep -q "^day's pass: the [1-9][0-9]* authorships of the newest" \
    "$T_TMP/hv.out" && awk -v p="$p" -v r="$r" \
    'BEGIN { exit !(p >= 0.98 && r >= 0.95) }'
ok $? "the day's pass: held-out precision $p >= 0.98, recall $r >= 0.95"
grep -q '^sources only, held-out: .* precision [0-9.]* recall [0-9.]*$' \
    "$T_TMP/hv.out"
ok $? "eval prints the figures without adjudication too"
grep -q '^adjudicated: .*adjudicated.jsonl, [1-9][0-9]* pairs' "$T_TMP/hv.out"
ok $? "eval names the adjudication file and what it joined"
# Every adjudication entry gives its evidence; only "same" ones join.
jq -e -s 'all(.[]; (.ids | length) == 2 and (.same | type) == "boolean"
    and (.note | length) > 20 and
    (if .same then .evidence != "none" else true end))' \
    "$ROOT/tests/data/harvest/gold/adjudicated.jsonl" >/dev/null
ok $? "adjudicated.jsonl: two ids, a verdict and its evidence per entry"

clean
done_testing
