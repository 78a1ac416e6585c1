#!/bin/bash
# tests/bench/search.sh -- search speed on a corpus of at least 100,000
# papers, through nginx, with wrk.  Not a timed test: it prints figures
# (the targets are p50 < 30 ms and p99 < 100 ms).
#
#   tests/bench/search.sh [seconds] [connections...]
#
# Connections default to "1 4": one client (the latency of a search as a
# user sees it) and four at once (two requests queue per core on a
# 2-core machine, so p50 there is about twice one request's CPU time).
# Each row says PASS or FAIL against the targets at its connections.
#
# Environment: WEFT_BENCH_VAR (default var/bench-search: a throwaway
# stack of its own, never anybody's data), WEFT_BENCH_PORT (8193),
# WEFT_BENCH_BUILD (build), WEFT_BENCH_PAPERS (100000), WEFT_BENCH_NOUP=1
# (measure the stack already running there, as it is).
#
# Starts the stack with nginx's cache off and the Redis page cache off
# (WEFT_CACHE_TTL=0 reaches the workers' configuration), scales the
# bundled papers to the target with synthetic copies
# (tests/bench/search_scale.sql: new ids, shifted dates, same text and
# authors), builds the semantic index over them, then cycles one-, two-
# and three-word queries made of words of real titles: each kind alone,
# then the mix (all in the default mode, hybrid), then the mix in
# mode=lexical and mode=semantic.  Prints req/s, p50, p99 and the count
# of non-2xx answers for each.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# Absolute: libpq reads only a host that starts with / as a socket dir.
var=$(realpath -m "${WEFT_BENCH_VAR:-$root/var/bench-search}")
cd "$root"
secs=${1:-20}
shift $(($# > 0 ? 1 : 0))
conns_list=${*:-1 4}
conns=${conns_list##* }
threads=2
port=${WEFT_BENCH_PORT:-8193}
build=${WEFT_BENCH_BUILD:-build}
target=${WEFT_BENCH_PAPERS:-100000}

[ -n "${WEFT_BENCH_NOUP:-}" ] ||
	WEFT_NGINX_CACHE=off WEFT_CACHE_TTL=0 WEFT_ACCESS_LOG=off \
	    WEFT_ANALYSE=off conf/local.sh up --var "$var" --port "$port" --build "$build" \
	    >/dev/null
base=http://127.0.0.1:$port
db() { psql -h "$var/pg/run" -U weft -d weft -Atqc "$1"; }

n=$(db "SELECT count(*) FROM papers")
if [ "$n" -lt "$target" ]; then
	echo "scaling $n papers to at least $target (a few minutes)" >&2
	psql -h "$var/pg/run" -U weft -d weft -q -v target="$target" \
	    -f tests/bench/search_scale.sql >/dev/null
	n=$(db "SELECT count(*) FROM papers")
fi
# The semantic index over the scaled corpus (hybrid search is the
# default): rebuilt when the papers changed, a no-op otherwise.
WEFT_CONF=$var/weft.conf "$root/$build/weft-vectors" build >&2
redis-cli -s "$var/redis/redis.sock" INCR weft:gen >/dev/null
sleep 3 # workers look at the cache generation every 2 s
echo "corpus: $n papers, $(db "SELECT count(*) FROM search_terms") frequent terms," \
    "semantic index of $(db "SELECT papers FROM vector_index ORDER BY version DESC LIMIT 1")"

# Queries: words of 500 real titles (no stop-like words), 1 to 3 each.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db "
WITH t AS (
	SELECT p.id, array_agg(x ORDER BY o) AS ws
	  FROM (SELECT id, title FROM papers WHERE source <> 'bench'
	         ORDER BY md5(id::text) LIMIT 500) p,
	       regexp_split_to_table(lower(p.title), '[^a-z]+')
	           WITH ORDINALITY AS s(x, o)
	 WHERE length(x) >= 4 AND x NOT IN ('with', 'from', 'that', 'this',
	       'their', 'using', 'based', 'into', 'towards', 'via', 'through')
	 GROUP BY p.id)
SELECT k, array_to_string(ws[1 + (id % (array_length(ws, 1) - k + 1))
                             :(id % (array_length(ws, 1) - k + 1)) + k], ' ')
  FROM t, generate_series(1, 3) AS k
 WHERE array_length(ws, 1) >= k" >"$work/queries"

# lua FILE K...: a wrk script cycling the queries with K words, in the
# mode $mode (empty: the default, hybrid).
mode=
lua() {
	local out=$1
	shift
	{
		echo 'local q = {'
		for k in "$@"; do
			awk -F'|' -v k="$k" '$1 == k { gsub(/ /, "+", $2);
			    printf "  \"/search?q=%s%s\",\n", $2, m }' \
			    m="${mode:+&mode=$mode}" "$work/queries"
		done
		cat <<-'LUA'
		}
		local i = 0
		function init(args)
			-- Each thread starts somewhere else in the list.
			local a = tostring({}):match("0x(%x+)") or "0"
			i = tonumber(a, 16) % #q
		end
		function request()
			i = i % #q + 1
			return wrk.format("GET", q[i])
		end
		LUA
	} >"$out"
}

# wrk's summary -> "req/s p50 p99 non-2xx" (latencies in ms).
measure() {
	wrk -t"$threads" -c"$conns" -d"${secs}s" --latency -s "$1" "$base" | awk '
	function ms(v) {
		if (v ~ /us$/) return substr(v, 1, length(v) - 2) / 1000
		if (v ~ /ms$/) return substr(v, 1, length(v) - 2) + 0
		if (v ~ /s$/) return substr(v, 1, length(v) - 1) * 1000
		return v
	}
	/^ +50%/ { p50 = ms($2) }
	/^ +99%/ { p99 = ms($2) }
	/Non-2xx/ { bad = $NF }
	/^Requests\/sec/ { rps = $2 }
	END { printf "%.1f %.1f %.1f %d\n", rps, p50, p99, bad }'
}

# A first pass warms PostgreSQL's buffers as production would be.
lua "$work/all.lua" 1 2 3
wrk -t"$threads" -c"$conns" -d5s -s "$work/all.lua" "$base" >/dev/null
for mode in lexical semantic; do lua "$work/$mode.lua" 1 2 3; done
mode=
for kind in 1 2 3; do lua "$work/k$kind.lua" "$kind"; done

verdict() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < 30 && b < 100) ? "PASS" : "FAIL" }'; }
printf '%-15s %5s %8s %9s %9s %8s %s\n' queries conns 'req/s' 'p50 ms' \
    'p99 ms' non-2xx target
for conns in $conns_list; do
	threads=$(( conns < 2 ? 1 : 2 ))
	for f in k1 k2 k3 all lexical semantic; do
		case $f in
		k?) name="${f#k}-word" ;;
		all) name=mixed ;;
		*) name="mixed $f" ;;
		esac
		read -r rps p50 p99 bad < <(measure "$work/$f.lua")
		v=$(verdict "$p50" "$p99")
		[ "$bad" -eq 0 ] || v=FAIL
		printf '%-15s %5s %8s %9s %9s %8s %s\n' "$name" "$conns" "$rps" \
		    "$p50" "$p99" "$bad" "$v"
	done
done
echo "(targets: p50 < 30 ms, p99 < 100 ms; $(nproc) CPUs, load" \
    "$(cut -d' ' -f1-3 /proc/loadavg))"
