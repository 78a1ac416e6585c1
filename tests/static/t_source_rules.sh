#!/bin/bash
# Rules about the source tree that no compiler checks.
cd "$(dirname "$0")/../.." || exit 1
n=0; fail=0
check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else
		fail=$((fail + 1)); echo "not ok $n - $2"; printf '#   %s\n' "$3"; fi
}
hits=$(grep -rnE '[|(,=][[:space:]]*CMARK_OPT_UNSAFE' modules 2>/dev/null)
[ -z "$hits" ]; check $? "CMARK_OPT_UNSAFE is never passed to cmark" "$hits"
hits=$(grep -rn 'FCGX_FPrintF' modules 2>/dev/null)
[ -z "$hits" ]; check $? "no FCGX_FPrintF (it stops at %zu)" "$hits"
hits=$(grep -rn 'xmlTextWriterWriteRaw' modules --include=*.c | grep -v '^modules/core/')
[ -z "$hits" ]; check $? "xmlTextWriterWriteRaw only inside core" "$hits"
hits=$(grep -rnE 'PQexec\(' modules --include=*.c | grep -v -E '^modules/(core|harvest)/')
[ -z "$hits" ]; check $? "modules run SQL only as prepared statements" "$hits"
hits=$(grep -rnE 'XML_PARSE_(NOENT|DTDLOAD)' modules 2>/dev/null)
[ -z "$hits" ]; check $? "no entity expansion or DTD loading in XML parsing" "$hits"
echo "1..$n"
[ "$fail" = 0 ]
