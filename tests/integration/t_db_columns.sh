#!/bin/bash
# t_db_columns.sh -- core_db_open() against the test stack's database:
# a statement whose result columns differ from its table's list (swapped,
# one more, one fewer, renamed) is refused with a log line naming the
# statement and the column, and a statement marked "-- plan: each" is
# planned for its values at each execution (tests/unit/test_db_cells.c).
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"
ROOT=${WEFT_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${WEFT_TEST_BIN:-$ROOT/build-san/tests}/test_db_cells
[ -x "$BIN" ] || { echo "1..0 # SKIP no $BIN"; exit 0; }

WEFT_DB="host=$WEFT_VAR/pg/run dbname=weft user=weft" "$BIN" \
    >"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
sed 's/^/# /' "$T_TMP/out" | grep -v '^# ok'
[ $rc = 0 ] && ! grep -q '^not ok' "$T_TMP/out"
ok $? "test_db_cells with a database passes" "$(grep '^not ok' "$T_TMP/out")"
grep -q 'refused' "$T_TMP/out"
ok $? "the column checks ran"
grep -q 'planned for each execution' "$T_TMP/out"
ok $? "the plan checks ran (-- plan: each)"
grep -qF 'statement T_COLUMNS returns column 1 as \"a\", its table says \"b\"' "$T_TMP/err"
ok $? "the log names the statement and the column" "$(head -c 600 "$T_TMP/err")"
done_testing
