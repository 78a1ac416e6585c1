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
# conf/local.sh installs sqlmap with the rest: missing is a failure.
command -v sqlmap >/dev/null
ok $? "sqlmap is installed (conf/local.sh deps)"
names=(researcher researcher-path paper researchers search-names rss-researcher)
out=$T_TMP/sqlmap
SQLMAP_BUDGET=${SQLMAP_BUDGET:-600} "$ROOT/tests/attack/sqlmap.sh" \
    "$out" "${names[@]}" >"$T_TMP/sqlmap.out" 2>&1
rc=$?
# Its line per endpoint: NAME SECS REQ req N429 429 N5XX 5xx VERDICT...
for n in "${names[@]}"; do
	line=$(awk -v n="$n" '$1 == n' "$T_TMP/sqlmap.out")
	echo "$line" | awk '$7 == 0 && $8 == "5xx" && /5xx  no injection / {
	    f = 1 } END { exit !f }'
	ok $? "sqlmap $n: no injection, no 5xx" "${line:-no result}"
done
[ "$rc" = 0 ]
ok $? "sqlmap.sh exits 0" "exit $rc: $(tail -3 "$T_TMP/sqlmap.out")"
done_testing
