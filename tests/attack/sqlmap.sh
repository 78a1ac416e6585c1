#!/bin/bash
# tests/attack/sqlmap.sh -- sqlmap (Debian package, conf/local.sh
# installs it) against every endpoint with parameters, level 3 / risk 2.
# Slow (minutes per endpoint): run by hand against a stack of your own,
# not part of `make test`:
#
#   WEFT_NGINX_CACHE=off conf/local.sh up --var var/h-attack --port 8089 \
#       --build build-h-attack
#   WEFT_URL=http://127.0.0.1:8089 tests/attack/sqlmap.sh [OUTDIR]
#
# SQLMAP_LEVEL, SQLMAP_RISK and SQLMAP_TIMEOUT (seconds per endpoint)
# override 3, 2 and 900.  Prints one verdict line per endpoint ("no
# injection" or what sqlmap found) and exits 1 if any is injectable.
set -u
: "${WEFT_URL:?WEFT_URL must be set}"
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/weft-sqlmap.XXXXXX")}
level=${SQLMAP_LEVEL:-3}
risk=${SQLMAP_RISK:-2}
limit=${SQLMAP_TIMEOUT:-900}
mkdir -p "$out"
psql=(psql -h "${WEFT_VAR:-var/h-attack}/pg/run" -U weft -d weft -Atqc)
rid=$("${psql[@]}" "SELECT id FROM researchers ORDER BY paper_count DESC LIMIT 1" 2>/dev/null)
aid=$("${psql[@]}" "SELECT arxiv_id || '-' || slug FROM papers ORDER BY id LIMIT 1" 2>/dev/null)
cat=$("${psql[@]}" "SELECT primary_category FROM papers GROUP BY 1 ORDER BY count(*) DESC LIMIT 1" 2>/dev/null)
rid=$("${psql[@]}" "SELECT id || '-' || slug FROM researchers WHERE id = ${rid:-1}" 2>/dev/null)

# Each target: a name and sqlmap arguments.  '*' marks a path injection
# point (sqlmap's custom injection marker).
targets=(
	"search|-u $WEFT_URL/search?q=dark&type=papers&category=$cat&from=2020&to=2025&sort=newest&page=1"
	"researcher|-u $WEFT_URL/researchers/$rid?category=$cat&sort=newest&page=1"
	"researcher-path|-u $WEFT_URL/researchers/1*"
	"institutions|-u $WEFT_URL/institutions?page=1"
	"paper|-u $WEFT_URL/papers/$aid?format=json"
	"paper-path|-u $WEFT_URL/papers/2512.20345*"
	"rss-category|-u $WEFT_URL/rss/categories/$cat*.xml"
	"signin|-u $WEFT_URL/signin --data=email=a%40example.org&password=0123456789ab&csrf=x&next=%2F"
)
bad=0
for t in "${targets[@]}"; do
	name=${t%%|*}
	args=${t#*|}
	log=$out/$name.log
	# shellcheck disable=SC2086
	timeout "$limit" sqlmap --batch --level "$level" --risk "$risk" \
	    --flush-session --time-sec 2 --threads 2 --output-dir "$out/$name" \
	    --disable-coloring $args >"$log" 2>&1
	rc=$?
	if grep -qE 'sqlmap identified the following injection point|is vulnerable' "$log"; then
		verdict="INJECTION FOUND (see $log)"
		bad=1
	elif grep -qE 'all tested parameters do not appear to be injectable' "$log"; then
		verdict="no injection (every parameter tested)"
	elif [ "$rc" = 124 ]; then
		clean=$(sed -n "s/.*parameter '\([^']*\)' does not seem to be injectable.*/\1/p" \
		    "$log" | paste -sd, -)
		verdict="no injection found before the ${limit}s limit (clean: ${clean:-none finished})"
	else
		verdict="inconclusive (rc $rc): $(grep -E '^\[[0-9:]+\] \[(CRITICAL|ERROR)\]' "$log" | tail -1)"
	fi
	printf '%-16s %s\n' "$name" "$verdict"
done
echo "logs in $out"
exit "$bad"
