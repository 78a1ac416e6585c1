#!/bin/bash
# tests/bench/scale.sh -- every measurement of issue 19 at one corpus
# size, end to end (not a test: not in `make test`).
#
#   tests/bench/scale.sh SIZE [--measured]
#
# 1. `BENCH_KEEP=1 tests/bench/load.sh SIZE`: SIZE synthetic papers
#    loaded with the real loader into a cluster of their own under
#    var/bench-load/SIZE (load time, papers/s, peak RSS, database and
#    index sizes, the load's costliest statements).  --measured skips
#    it and measures the cluster already there.
# 2. The largest tables and indexes (sizes.out).
# 3. `conf/local.sh up` on that cluster, caches off, access log off:
#    the semantic index built for the whole corpus (its time in up.out,
#    the build's own figures in the var dir's log/vectors.log).
# 4. `tests/bench/search_matrix.sh 5 4` on that stack (100 queries of
#    each kind).
# 5. Cold pages: `tests/bench/run.sh 8 32 0`, cold rows only, one run.
# 6. A day's harvest and its incremental refresh:
#    `tests/bench/refresh_daily.sh VAR 20000`.
#
# Each step's output goes to var/bench-logs/scale-SIZE/STEP.out, and a
# line with the time of each step to steps.log there (and to stdout).
# At 2,500,000 papers on this machine (2 cores) the load alone takes
# about 2.5 hours: run it where nothing else runs, or its figures are
# the machine's, not the code's.
#
# Environment: WEFT_BENCH_PORT (8197; run.sh's static twin on +1).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
size=${1:?usage: scale.sh SIZE [--measured]}
var=$root/var/bench-load/$size
logs=$root/var/bench-logs/scale-$size
port=${WEFT_BENCH_PORT:-8197}
pgbin=/usr/lib/postgresql/15/bin
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
mkdir -p "$logs"

step() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$logs/steps.log"; }
# timed NAME CMD...: CMD's output in NAME.out, its wall time after it.
timed() {
	local name=$1 t0
	shift
	t0=$(date +%s)
	"$@" >"$logs/$name.out" 2>&1 || echo "exit $?" >>"$logs/$name.out"
	echo "wall $(($(date +%s) - t0)) s" >>"$logs/$name.out"
	step "$name: $(tail -1 "$logs/$name.out")"
}

step "scale.sh $size"
if [ "${2:-}" != --measured ]; then
	timed load env BENCH_KEEP=1 tests/bench/load.sh "$size"
fi
[ -f "$var/pg/data/PG_VERSION" ] || {
	echo "scale.sh: no cluster under $var" >&2
	exit 1
}
make -s -j2 all
(cd /tmp && $SUDO runuser -u postgres -- "$pgbin/pg_ctl" -D "$var/pg/data" \
    status >/dev/null 2>&1) ||
	(cd /tmp && $SUDO runuser -u postgres -- "$pgbin/pg_ctl" \
	    -D "$var/pg/data" -l "$var/pg/server.log" -w start >/dev/null)
timed sizes psql -h "$var/pg/run" -U weft -d weft -X -P pager=off -c "
SELECT c.relname, pg_size_pretty(pg_relation_size(c.oid)) AS heap,
       pg_size_pretty(pg_indexes_size(c.oid)) AS indexes,
       pg_size_pretty(pg_total_relation_size(c.oid)) AS total
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'public' AND c.relkind IN ('r', 'm')
 ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 15" -c "
SELECT pg_size_pretty(pg_database_size('weft')) AS database,
       (SELECT count(*) FROM papers) AS papers,
       (SELECT count(*) FROM authorships) AS authorships,
       (SELECT count(*) FROM researchers WHERE paper_count > 0)
           AS researchers"
timed up env WEFT_NO_LOAD=1 WEFT_NGINX_CACHE=off WEFT_CACHE_TTL=0 \
    WEFT_ACCESS_LOG=off WEFT_ANALYSE=off \
    conf/local.sh up --var "$var" --port "$port" --build build
timed search-matrix env WEFT_BENCH_NOUP=1 WEFT_BENCH_VAR="$var" \
    WEFT_BENCH_PORT="$port" WEFT_BENCH_N=100 tests/bench/search_matrix.sh 5 4
timed cold-pages env WEFT_NO_LOAD=1 WEFT_BENCH_VAR="$var" \
    WEFT_BENCH_PORT="$port" WEFT_BENCH_MODES=cold WEFT_BENCH_RUNS=1 \
    tests/bench/run.sh 8 32 0
timed daily tests/bench/refresh_daily.sh "$var" 20000
step "done: $logs"
