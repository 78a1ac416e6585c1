#!/bin/bash
# t_load_indexes.sh -- a first load builds the read-side indexes after its
# rows (0051_bulk_load_indexes.sql): the stack's database, loaded so,
# has every one of them, valid; in a database of its own, a load that
# failed half way (the indexes dropped, never built) is mended by the
# next load, which drops and builds them again around its rows, so that
# the indexes end as the migrations made them, definition for
# definition; a load into a database that has papers drops nothing.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"
ROOT=${WEFT_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
HARVEST=${WEFT_HARVEST:-$ROOT/build-san/weft-harvest}
DB=weft_t_bulk
PG=(-h "$WEFT_VAR/pg/run" -U weft)
if [ ! -x "$HARVEST" ]; then
	echo "1..0 # SKIP no $HARVEST"
	exit 0
fi
q() { psql "${PG[@]}" -d "$1" -v ON_ERROR_STOP=1 -Atqc "$2"; }
# defs DB: every index of the schema, name and definition, but the
# search windows the refresh builds (0048).
defs() {
	q "$1" "SELECT indexname || ': ' || indexdef FROM pg_indexes
	         WHERE schemaname = 'public'
	           AND indexname !~ '^papers_(search|words)_(far|near|top_cited|cited)_'
	         ORDER BY indexname"
}
# present DB: how many of the first load's indexes exist, valid.
present() {
	q "$1" "SELECT count(*)
	          FROM unnest(weft_bulk_indexes()) AS x(name)
	          JOIN pg_index i ON i.indexrelid = to_regclass(x.name)
	         WHERE i.indisvalid"
}
export WEFT_CONF=$WEFT_VAR/weft.conf
export WEFT_DB="host=$WEFT_VAR/pg/run dbname=$DB user=weft"
cleanup() {
	dropdb "${PG[@]}" --if-exists $DB 2>/dev/null
	rm -rf "$T_TMP"
}
trap cleanup EXIT

total=$(q weft "SELECT cardinality(weft_bulk_indexes())")
is_n() { [ "$1" = "$2" ]; ok $? "$3" "got '$1', expected '$2'"; }
is_n "$(present weft)" "$total" \
    "the stack's first load left all $total read-side indexes, valid"
is_n "$(q weft 'SELECT count(*) FROM bulk_dropped_indexes')" 0 \
    "and none kept aside"

dropdb "${PG[@]}" --if-exists $DB 2>/dev/null
createdb "${PG[@]}" $DB && "$HARVEST" migrate >"$T_TMP/mig" 2>&1
ok $? "a database of its own, migrated" "$(tail -c 500 "$T_TMP/mig")"
defs $DB >"$T_TMP/made"
[ "$(wc -l <"$T_TMP/made")" -gt "$total" ]
ok $? "the migrations made its indexes"

# A load that failed half way: the indexes dropped, never built again.
is_n "$(q $DB 'SELECT weft_bulk_begin()')" "$total" \
    "an empty database: weft_bulk_begin drops the $total"
is_n "$(present $DB)" 0 "they are gone"
is_n "$(q $DB 'SELECT count(*) FROM bulk_dropped_indexes')" "$total" \
    "their definitions kept aside"
is_n "$(q $DB 'SELECT weft_bulk_begin()')" 0 "dropping again drops nothing"

# The expression indexes built after the rows get their statistics
# (0078), also when their tables were analyzed before (autovacuum
# during a load's match): without them the planner takes every name
# block for a match of every row.  Rolled back, so that the load below
# still finds the indexes dropped.
stats=$(psql "${PG[@]}" -d $DB -v ON_ERROR_STOP=1 -Atq 2>&1 <<'SQL'
BEGIN;
INSERT INTO papers (arxiv_id, title, abstract, categories,
    primary_category, slug, source, published, updated)
VALUES ('2501.00001', 'A', 'B', '{cs.SE}', 'cs.SE', 'a', 'arxiv',
        '2025-01-01', '2025-01-01');
INSERT INTO researchers (name, name_key, slug)
VALUES ('Ada Lovelace', 'ada lovelace', 'ada-lovelace'),
       ('Alan Turing', 'alan turing', 'alan-turing');
INSERT INTO authorships (paper_id, position, raw_name, researcher_id,
    name_key)
SELECT p.id, r.id, r.name, r.id, r.name_key
  FROM papers p, researchers r;
ANALYZE papers, authorships, researchers;
SELECT weft_bulk_end() > 0;
SELECT count(*) FILTER (WHERE s.starelid IS NULL) || ' of ' || count(*)
  FROM unnest(weft_bulk_indexes()) AS x(name)
  JOIN pg_index i ON i.indexrelid = to_regclass(x.name)
  LEFT JOIN (SELECT DISTINCT starelid FROM pg_statistic) s
         ON s.starelid = i.indexrelid
 WHERE i.indexprs IS NOT NULL;
ROLLBACK;
SQL
)
# "t", then "M of N": M of the N expression indexes built lack them.
nexpr=${stats##* of }
[ "$nexpr" -ge 3 ] 2>/dev/null
ok $? "the first load's indexes include expressions" "got: $stats"
is_n "$stats" "$(printf 't\n0 of %s' "$nexpr")" \
    "weft_bulk_end built them, and none of its $nexpr expression indexes lacks statistics"
is_n "$(present $DB)" 0 "rolled back: they are dropped again"

# The next load: fifty papers of the bundled listing, the other files
# empty (the loader wants each).
mkdir -p "$T_TMP/data"
for f in "$ROOT"/sql/data/*.jsonl.gz; do
	printf '' | gzip >"$T_TMP/data/${f##*/}"
done
zcat "$ROOT/sql/data/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz" | head -50 |
    gzip >"$T_TMP/data/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz"
"$HARVEST" load --data "$T_TMP/data" >"$T_TMP/load1" 2>&1
ok $? "a first load" "$(tail -c 800 "$T_TMP/load1")"
grep -q "first load: $total read-side indexes built" "$T_TMP/load1"
ok $? "it says it built the $total after its rows" \
    "$(head -c 800 "$T_TMP/load1")"
# (and 2512.20345, which the loader adds when the data lacks it)
is_n "$(q $DB 'SELECT count(*) FROM papers')" 51 "its fifty papers"
defs $DB | diff "$T_TMP/made" - >"$T_TMP/diff1"
ok $? "every index as the migrations made it" "$(head -c 800 "$T_TMP/diff1")"
is_n "$(q $DB 'SELECT count(*) FROM bulk_dropped_indexes')" 0 \
    "none kept aside"

# A load into a database that has papers keeps its indexes.
zcat "$ROOT/sql/data/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz" | sed -n 51,60p |
    gzip >"$T_TMP/data/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz"
"$HARVEST" load --data "$T_TMP/data" >"$T_TMP/load2" 2>&1
ok $? "a second load" "$(tail -c 800 "$T_TMP/load2")"
! grep -q "first load" "$T_TMP/load2"
ok $? "it drops nothing" "$(head -c 800 "$T_TMP/load2")"
is_n "$(q $DB 'SELECT count(*) FROM papers')" 61 "ten more"
defs $DB | diff "$T_TMP/made" - >"$T_TMP/diff2"
ok $? "the indexes unchanged" "$(head -c 800 "$T_TMP/diff2")"
done_testing
