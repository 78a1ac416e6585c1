#!/bin/bash
# tests/bench/search_matrix.sh -- /search over every kind of query, mode,
# filter and sort (issue 19, item 2), through nginx with wrk.  Not a
# timed test: it prints figures, the targets beside them (p95 <= 100 ms
# single-stream, >= 50 queries/s on the machine's cores).
#
#   tests/bench/search_matrix.sh [seconds] [connections]
#
# Queries, chosen by a fixed seed (WEFT_BENCH_SEED, default 7) from the
# papers of the database measured, never tuned on: "short", one to three
# words of a real title, and "question", the first sentence of a real
# abstract when it has 20 to 40 words (a natural-language question, as
# people and agents ask one).  Each runs in the three modes (hybrid, the
# default; lexical; semantic) with no filter, a category (the source
# paper's primary one), a date range (the corpus's last two years),
# sort=newest and sort=citations: one client (p50/p95/p99, the latency
# a user sees) and then the unfiltered ones at [connections] (default
# 4) for queries a second.  Every answer is the HTML page, the facets
# included.  The static twin (twin.sh) serves one such page's bytes:
# each row's ratio is its req/s over the twin's at the same connections.
#
# Environment: WEFT_BENCH_VAR (default var/bench-search; e.g. a cluster
# tests/bench/load.sh kept), WEFT_BENCH_PORT (8193; twin on +1),
# WEFT_BENCH_BUILD (build), WEFT_BENCH_NOUP=1 (measure the stack running
# there as it is), WEFT_BENCH_N (queries of each kind, 200),
# WEFT_BENCH_SLOWEST (one set's slowest queries instead: see below).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
var=$(realpath -m "${WEFT_BENCH_VAR:-$root/var/bench-search}")
cd "$root"
secs=${1:-5}
conns=${2:-4}
port=${WEFT_BENCH_PORT:-8193}
sport=$((port + 1))
build=${WEFT_BENCH_BUILD:-build}
seed=${WEFT_BENCH_SEED:-7}
nq=${WEFT_BENCH_N:-200}

[ -n "${WEFT_BENCH_NOUP:-}" ] ||
	WEFT_NGINX_CACHE=off WEFT_CACHE_TTL=0 WEFT_ACCESS_LOG=off \
	    WEFT_ANALYSE=off conf/local.sh up --var "$var" --port "$port" --build "$build" \
	    >/dev/null
base=http://127.0.0.1:$port
db() { psql -h "$var/pg/run" -U weft -d weft -Atqc "$1"; }
work=$(mktemp -d)

# "kind|query|category" lines, URL-encoded query.
db "
WITH s AS (SELECT id, title, abstract, categories[1] AS cat
             FROM papers ORDER BY md5('$seed' || id::text) LIMIT $((nq * 20))),
short AS (
	SELECT 'short' AS kind, array_to_string(ws[1:1 + id % 3], ' ') AS q, cat
	  FROM (SELECT s.id, s.cat, array_agg(x ORDER BY o) AS ws
	          FROM s, regexp_split_to_table(lower(s.title), '[^a-z]+')
	                  WITH ORDINALITY AS t(x, o)
	         WHERE length(x) >= 4
	         GROUP BY s.id, s.cat) w
	 LIMIT $nq),
question AS (
	SELECT 'question', q, cat
	  FROM (SELECT regexp_replace(regexp_replace(substring(abstract from '^[^.?!]*[.?!]'),
	                   '[\\\\\$%&#{}]', '', 'g'), '\s+', ' ', 'g') AS q, cat FROM s) x
	 WHERE array_length(regexp_split_to_array(q, '\s+'), 1) BETWEEN 20 AND 40
	 LIMIT $nq)
SELECT * FROM short UNION ALL SELECT * FROM question" |
python3 -c '
import sys, urllib.parse
for line in sys.stdin:
    k, rest = line.rstrip("\n").split("|", 1)
    q, c = rest.rsplit("|", 1)
    print(k, urllib.parse.quote_plus(q), c or "-")' >"$work/queries"
newest=$(db "SELECT max(published) FROM papers")
from=$(date -d "$newest - 2 years" +%F)

# urls KIND MODE VARIANT: the set's URLs, one a line.
urls() {
	awk -v k="$1" -v m="$2" -v v="$3" -v from="$from" -v to="$newest" '
	$1 == k {
		u = "/search?q=" $2
		if (m != "hybrid") u = u "&mode=" m
		if (v == "category" && $3 != "-") u = u "&category=" $3
		if (v == "dates") u = u "&from=" from "&to=" to
		if (v == "newest" || v == "citations") u = u "&sort=" v
		print u
	}' "$work/queries"
}
# WEFT_BENCH_SLOWEST="KIND MODE VARIANT" (e.g. "short lexical
# category"): that set's queries one at a time instead, each timed on
# its second request (curl), p50 and p95 and the eight slowest, then
# nothing else: where a row's tail comes from.
if [ -n "${WEFT_BENCH_SLOWEST:-}" ]; then
	# shellcheck disable=SC2086 # three words
	urls $WEFT_BENCH_SLOWEST | while read -r u; do
		curl -s -o /dev/null "$base$u"
		printf '%s %s\n' \
		    "$(curl -s -o /dev/null -w '%{time_total}' "$base$u")" "$u"
	done | sort -n | awk '{ t[NR] = $1 * 1000; u[NR] = $2 }
	    END { printf "%d queries: p50 %.1f ms, p95 %.1f ms\n", NR,
	              t[int(NR * 0.50) + 1], t[int(NR * 0.95) + 1]
	          for (i = (NR > 8 ? NR - 7 : 1); i <= NR; i++)
	              printf "%8.1f ms  %s\n", t[i], u[i] }'
	rm -rf "$work"
	exit 0
fi

# lua KIND MODE VARIANT > FILE: a wrk script cycling that set, printing
# "req/s p50 p95 p99 non-2xx" at the end (ms).
lua() {
	echo 'local q = {'
	urls "$@" | sed 's/.*/  "&",/'
	cat <<-'LUA'
	}
	local i = 0
	function init(args)
		local a = tostring({}):match("0x(%x+)") or "0"
		i = tonumber(a, 16) % #q
	end
	function request()
		i = i % #q + 1
		return wrk.format("GET", q[i])
	end
	LUA
	done_lua
}
# done_lua: wrk's done() printing "req/s p50 p95 p99 non-2xx" (ms).
done_lua() {
	cat <<-'LUA'
	function done(s, lat, req)
		local bad = s.errors.status + s.errors.connect + s.errors.read +
		    s.errors.timeout
		io.write(string.format("%.1f %.1f %.1f %.1f %d\n",
		    s.requests / (s.duration / 1e6), lat:percentile(50) / 1e3,
		    lat:percentile(95) / 1e3, lat:percentile(99) / 1e3, bad))
	end
	LUA
}
run() { # LUA CONNS -> the done() line
	local t=$(( $2 < 2 ? 1 : 2 ))
	wrk -t"$t" -c"$2" -d"${secs}s" -s "$1" "$base" | tail -1
}

# The twin serves one answer's bytes (a question, hybrid, no filter).
st=$var/static-search
. "$root/tests/bench/twin.sh"
twin_conf "$var/nginx" "$st" "$sport" off
curl -s -o "$st/files/search" \
    "$base/search?q=$(awk '$1 == "question" { print $2; exit }' "$work/queries")"
twin_start "$st"
trap 'nginx -p "$st" -c "$st/nginx.conf" -s stop 2>/dev/null || true; rm -rf "$work"' EXIT
static() { # CONNS -> req/s
	{
		echo 'function request() return wrk.format("GET", "/search") end'
		done_lua
	} >"$work/static.lua"
	wrk -t"$(( $1 < 2 ? 1 : 2 ))" -c"$1" -d"${secs}s" -s "$work/static.lua" \
	    "http://127.0.0.1:$sport" | tail -1 | cut -d' ' -f1
}

echo "corpus: $(db "SELECT count(*) FROM papers") papers, $(db "SELECT count(*) FROM researchers") researchers;" \
    "$(grep -c '^short' "$work/queries") short queries, $(grep -c '^question' "$work/queries") questions (seed $seed)"
# Warm as production would be: the papers and their search index in
# the OS page cache (a running server has read them; a cluster just
# started or just loaded has not: a cold word's matches were 55 us a
# heap visit at 500,000 papers, 0.67 s for a word in 2 % of them), then
# PostgreSQL's buffers by a pass of the queries.
db "CREATE EXTENSION IF NOT EXISTS pg_prewarm;
    SELECT pg_prewarm('papers', 'prefetch'),
           pg_prewarm('papers_search', 'prefetch'),
           pg_prewarm('papers_published', 'prefetch')" >/dev/null
for k in short question; do
	lua "$k" hybrid plain >"$work/warm.lua"
	run "$work/warm.lua" "$conns" >/dev/null
done
s1=$(static 1)
sn=$(static "$conns")
echo "static twin: $s1 req/s at 1 connection, $sn at $conns"
printf '%-9s %-9s %-10s %5s %8s %7s %7s %7s %7s %6s %s\n' kind mode variant \
    conns 'req/s' 'p50 ms' 'p95 ms' 'p99 ms' non-2xx ratio target
row() { # kind mode variant conns static-rps
	local rps p50 p95 p99 bad v
	lua "$1" "$2" "$3" >"$work/q.lua"
	read -r rps p50 p95 p99 bad < <(run "$work/q.lua" "$4")
	if [ "$4" = 1 ]; then
		v=$(awk -v a="$p95" 'BEGIN { print (a <= 100 ? "PASS" : "FAIL") }')
	else
		v=$(awk -v a="$rps" 'BEGIN { print (a >= 50 ? "PASS" : "FAIL") }')
	fi
	[ "$bad" -eq 0 ] || v=FAIL
	printf '%-9s %-9s %-10s %5s %8s %7s %7s %7s %7s %6.3f %s\n' "$1" "$2" \
	    "$3" "$4" "$rps" "$p50" "$p95" "$p99" "$bad" \
	    "$(awk -v a="$rps" -v b="$5" 'BEGIN { print a / b }')" "$v"
}
for k in short question; do
	for m in hybrid lexical semantic; do
		for v in plain category dates newest citations; do
			row "$k" "$m" "$v" 1 "$s1"
		done
	done
done
for k in short question; do
	for m in hybrid lexical semantic; do
		row "$k" "$m" plain "$conns" "$sn"
	done
done
echo "(targets: p95 <= 100 ms at 1 connection, >= 50 req/s at $conns;" \
    "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
