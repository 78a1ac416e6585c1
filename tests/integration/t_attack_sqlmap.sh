#!/bin/bash
# t_attack_sqlmap.sh -- a brief sqlmap pass in every `make test`: level 3
# / risk 2 (tests/attack/sqlmap.sh) on one endpoint of each kind of
# statement -- a researcher page with its every parameter and by the id
# in its path, a paper by arXiv id, a directory page, a name search, a
# researcher's RSS by the id in its path (about a minute; 4,800 requests).
# Each must end "no injection" within its time and with no 5xx.  The
# whole pass over all 30 endpoints takes about an hour and is run by hand
# (tests/attack/README.md has its results).
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v sqlmap >/dev/null || { echo "1..0 # SKIP sqlmap is not installed"; exit 0; }
names=(researcher researcher-path paper researchers search-names rss-researcher)
out=$T_TMP/sqlmap
SQLMAP_BUDGET=${SQLMAP_BUDGET:-600} "$ROOT/tests/attack/sqlmap.sh" \
    "$out" "${names[@]}" >"$T_TMP/sqlmap.out" 2>&1
rc=$?
for n in "${names[@]}"; do
	line=$(grep "^$n " "$T_TMP/sqlmap.out")
	case "$line" in
	*" 0 5xx  no injection "*) ok 0 "sqlmap $n: no injection, no 5xx" ;;
	*) ok 1 "sqlmap $n: no injection, no 5xx" "${line:-no result}" ;;
	esac
done
[ "$rc" = 0 ]
ok $? "sqlmap.sh exits 0" "exit $rc: $(tail -3 "$T_TMP/sqlmap.out")"
done_testing
