# shellcheck shell=bash
# tests/integration/lib_db.sh -- for the tests that work in a database
# of their own in the test cluster, with weft-harvest.  Source it after
# lib.sh, with DB set:
#
#   DB=weft_t_x; . "$(dirname "$0")/lib_db.sh"
#   hv_ok migrate; part "$T_TMP/a" 1 2000; hv_ok load --data "$T_TMP/a"
ROOT=${WEFT_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BIN=${WEFT_HARVEST:-$ROOT/build-san/weft-harvest}
DATA=$ROOT/sql/data
: "${DB:?DB must be set before lib_db.sh}"
[ -x "$BIN" ] || { echo "1..0 # SKIP no $BIN"; exit 0; }
rsql() { psql -h "$WEFT_VAR/pg/run" -U weft -d "$DB" -Atqc "$1"; }
# hv ARGS: weft-harvest on $DB; output in $T_TMP/hv.out, status in HV_RC.
# HV_CONF: another configuration than the stack's.
hv() {
	env WEFT_CONF="${HV_CONF:-$WEFT_VAR/weft.conf}" \
	    WEFT_DB="host=$WEFT_VAR/pg/run dbname=$DB user=weft" \
	    "$BIN" "$@" >"$T_TMP/hv.out" 2>&1
	HV_RC=$?
}
hv_ok() {
	hv "$@"
	[ "$HV_RC" = 0 ]
	ok $? "weft-harvest $*" "$(tail -c 800 "$T_TMP/hv.out")"
}
# part DIR FROM TO: the bundled data with listing papers FROM..TO (no
# ROR institutions: they take time and no derived table reads them).
part() {
	mkdir -p "$1"
	ln -sf "$DATA"/openalex_*.jsonl.gz "$DATA"/arxiv-metadata-*.jsonl.gz \
	    "$1"/
	gzip -n </dev/null >"$1/ror_v2_records_from_ror-records.jsonl.gz"
	gzip -dc "$DATA/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz" |
	    sed -n "$2,$3p" | gzip -n1 \
	    >"$1/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz"
}
# A database of its own, new.
fresh_db() {
	dropdb -h "$WEFT_VAR/pg/run" -U weft --if-exists "$DB"
	createdb -h "$WEFT_VAR/pg/run" -U weft "$DB"
	ok $? "a database of its own"
}
# save_sets SETS: each line "name:query" of SETS copied aside as
# inc.name (a schema made new).
save_sets() {
	rsql "DROP SCHEMA IF EXISTS inc CASCADE; CREATE SCHEMA inc" >/dev/null
	while IFS=: read -r name q; do
		rsql "CREATE TABLE inc.$name AS $q" >/dev/null
	done <<<"$1"
}
# compare_sets SETS WHAT: a test per line of SETS, that its query gives
# the rows saved aside (EXCEPT, both ways), "name: WHAT".
compare_sets() {
	local name q v
	while IFS=: read -r name q; do
		v=$(rsql "SELECT (SELECT count(*) FROM inc.$name),
		    (SELECT count(*) FROM ((TABLE inc.$name) EXCEPT ($q)) x),
		    (SELECT count(*) FROM (($q) EXCEPT (TABLE inc.$name)) y)")
		case $v in
		0\|*) ok 1 "$name: $2" "empty: $v" ;;
		*\|0\|0) ok 0 "$name: $2 ($v rows|extra|missing)" ;;
		*) ok 1 "$name: $2" "rows|extra|missing: $v; extra: $(
		    rsql "TABLE inc.$name EXCEPT ($q) LIMIT 3" | tr '\n' ' ')
		    missing: $(rsql "($q) EXCEPT TABLE inc.$name LIMIT 3" |
		    tr '\n' ' ')" ;;
		esac
	done <<<"$1"
}
