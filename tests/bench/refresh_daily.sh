#!/bin/bash
# tests/bench/refresh_daily.sh -- a day's harvest on a kept benchmark
# cluster, and the incremental refresh that follows it (not a test: not
# in `make test`).
#
#   tests/bench/refresh_daily.sh VAR [BATCH]
#
# VAR is a cluster kept by `BENCH_KEEP=1 tests/bench/load.sh N` (its
# PostgreSQL is started here if it is not running, and stopped again).
# The day: BATCH (20000) new papers, the next day of the synthetic world
# VAR was loaded from (tests/bench/corpus/gen.py --after N --day D, N
# the name of VAR's directory or WORLD, D counted in VAR/bench-day):
# their authors mostly people with histories here, some new, teams that
# repeat as in the corpus.  `weft-harvest load` writes them as the
# harvest's writers do, then runs what the harvest runs after a day's
# papers: the day's match (0059: in the name blocks they changed, 0058,
# it decides their authorships) and the incremental refresh.  Timed
# whole; the loader's lines say the records', the match's and the
# refresh's share (with log_level = info in the cluster's weft.conf,
# the match's own lines too).  SOURCE=copies writes the day as earlier
# sessions did instead (refresh_batch.sql: copies of the newest papers
# keeping their authors, their authorships as the loader writes them)
# and times `weft-harvest match` after it (STEP=refresh: the refresh
# alone).  SOURCE=oai writes the same day as the daily harvest does
# (conf/weft-harvest.service): the listing as OAI-PMH pages of 1,000
# (corpus/oai_pages.py) served by a private nginx to `weft-harvest
# arxiv oai`, a transaction per page, then `weft-harvest match` (the
# day's match and the refresh), each timed, with the CPU the command
# and the cluster used over its wall time (how many cores the step kept
# busy).  After each step (the harvest's apart) it prints the time each
# derived-table function took (track_functions) and, where the cluster
# has pg_stat_statements (load.sh's have), the costliest statements
# (top_statements.sql).  Where the cluster has a semantic
# index (a `conf/local.sh up` on it wrote vectors_dir into its
# weft.conf), `weft-vectors build` runs beside the day, as the
# harvest runs it beside the match (conf/weft-harvest.service), and the
# wall time of the two is printed with each one's; VECTORS=after runs
# it after instead, VECTORS=none not at all.  With
# COMPARE=1 it then copies the derived tables aside, times `refresh
# --full` and counts the rows in which the two differ (the derived
# tables of tests/integration/derived_sets, as t_refresh.sh compares
# them: EXCEPT both ways; 0 is the expected answer).  NO_REFRESH=1
# runs the match without its refresh (refresh_ab.sh STEP=refresh);
# NO_MATCH=1 (SOURCE=oai) stops after the harvest, the match and the
# refresh left for later (refresh_ab.sh STEP=match).  The cluster
# keeps the batch: it is a benchmark's, never data you keep.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
var=$(cd "${1:?usage: refresh_daily.sh VAR [BATCH]}" && pwd)
batch=${2:-20000}
bin=$root/${BUILD:-build}/weft-harvest
vbin=$root/${BUILD:-build}/weft-vectors
vectors=${VECTORS:-beside}
step=${STEP:-match}
source=${SOURCE:-gen}
case $source:$step in
copies:match | copies:refresh | gen:match | oai:match) ;;
*)
	echo "refresh_daily.sh: SOURCE=gen or oai (STEP=match) or SOURCE=copies (STEP=match or refresh)" >&2
	exit 2
	;;
esac
case ${NO_MATCH:-0}:$source in
0:* | 1:oai) ;;
1:*) echo "refresh_daily.sh: NO_MATCH=1 needs SOURCE=oai" >&2; exit 2 ;;
*) echo "refresh_daily.sh: NO_MATCH=0 or 1, not '$NO_MATCH'" >&2; exit 2 ;;
esac
grep -q '^vectors_dir' "$var/weft.conf" || vectors=none
pgbin=/usr/lib/postgresql/15/bin
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
aspg() { (cd /tmp && $SUDO runuser -u postgres -- "$@"); }
q() { psql -h "$var/pg/run" -U weft -d weft -X -v ON_ERROR_STOP=1 "$@"; }
[ -x "$bin" ] || make -s -C "$root" harvest
[ -x /usr/bin/time ] ||
    { echo "refresh_daily.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

started=
if ! aspg "$pgbin/pg_ctl" -D "$var/pg/data" status >/dev/null 2>&1; then
	aspg "$pgbin/pg_ctl" -D "$var/pg/data" -l "$var/pg/server.log" -w \
	    start >/dev/null
	started=1
fi
finish() {
	[ ! -f "$var/oai/nginx.pid" ] ||
	    nginx -p "$var/oai" -c "$var/oai/nginx.conf" -s stop 2>/dev/null
	[ -z "$started" ] ||
	    aspg "$pgbin/pg_ctl" -D "$var/pg/data" -m fast stop >/dev/null
}
trap finish EXIT
# The schema the code has (a kept cluster may predate a migration).
WEFT_CONF=$var/weft.conf "$bin" migrate | tail -1
q -qc "ALTER DATABASE weft SET track_functions = 'all'"

# pg_cpu: CPU seconds the cluster has used, its live processes' and
# those of the backends that ended (counted in the postmaster's
# children's times once it has waited for them).
pg_cpu() {
	local pm
	pm=$(head -1 "$var/pg/data/postmaster.pid")
	{
		awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pm/stat"
		for c in $(cat "/proc/$pm/task/$pm/children"); do
			awk '{ print $14 + $15 }' "/proc/$c/stat" 2>/dev/null
		done
	} | awk -v hz="$(getconf CLK_TCK)" '{ t += $1 } END { print t / hz }'
}
# timed LABEL CMD...: wall seconds of CMD, its output indented, and the
# cores it kept busy: its own CPU and the cluster's over its wall time.
timed() {
	local label=$1 t0 t1 c0 c1
	shift
	t0=$(date +%s.%N)
	c0=$(pg_cpu)
	/usr/bin/time -f '%U %S' -o "$var/step.cpu" "$@" >"$var/step.out" 2>&1 ||
	    { cat "$var/step.out" >&2; return 1; }
	t1=$(date +%s.%N)
	sleep 0.2 # the backends that CMD left, reaped
	c1=$(pg_cpu)
	awk -v label="$label" -v t0="$t0" -v t1="$t1" -v c0="$c0" -v c1="$c1" '
	    { own = $1 + $2; pg = c1 - c0; w = t1 - t0
	      printf "%-34s %8.1f s, CPU %.1f s (%.1f own, %.1f PostgreSQL): %.2f cores\n",
	          label, w, own + pg, own, pg, (own + pg) / w }' "$var/step.cpu"
	grep -v '^{' "$var/step.out" | sed 's/^/    /' || true
}
functions() {
	q -Atc "SELECT format('    %-36s %8s s total, %8s s self', funcname,
	               round((total_time / 1000)::numeric, 1),
	               round((self_time / 1000)::numeric, 1))
	          FROM pg_stat_user_functions
	         WHERE funcname LIKE 'weft\_%' AND total_time > 50
	         ORDER BY total_time DESC"
}

printf 'papers before: %s\n' "$(q -Atc "SELECT papers FROM corpus_counts")"
if [ "$source" = copies ]; then
	timed "writing the batch ($batch papers)" \
	    q -q -v batch="$batch" -v fresh=0 \
	    -f "$root/tests/bench/refresh_batch.sql"
	run=("$bin" "$step")
	label="weft-harvest $step"
else
	# The day's listing in the place of the bundled one, every other
	# bundled file empty (the loader wants each).
	world=${WORLD:-${var##*/}}
	case $world in
	'' | *[!0-9]*)
		echo "refresh_daily.sh: WORLD= the corpus size VAR was loaded with" >&2
		exit 2
		;;
	esac
	day=$(cat "$var/bench-day" 2>/dev/null || echo 0)
	mkdir -p "$var/day"
	for f in "$root"/sql/data/*.jsonl.gz; do
		printf '' | gzip >"$var/day/${f##*/}"
	done
	python3 "$root/tests/bench/corpus/gen.py" --seed "${BENCH_SEED:-1}" \
	    --after "$world" --day "$day" "$batch" \
	    "$var/day/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz"
fi
if [ "$source" = gen ]; then
	run=("$bin" load --data "$var/day")
	label="weft-harvest load (day $day)"
elif [ "$source" = oai ]; then
	# The day's pages from a private nginx: the first by the request's
	# arguments, each next one by the token the page before names.
	rm -rf "$var/oai"
	mkdir -p "$var/oai/www"
	from=$(python3 "$root/tests/bench/corpus/oai_pages.py" \
	    "$var/day/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz" "$var/oai/www")
	port=${OAI_PORT:-8099}
	cat >"$var/oai/nginx.conf" <<-CONF
	worker_processes 1;
	pid $var/oai/nginx.pid;
	error_log $var/oai/error.log warn;
	events { worker_connections 64; }
	http {
		access_log off;
		client_body_temp_path $var/oai/body;
		proxy_temp_path $var/oai/proxy;
		fastcgi_temp_path $var/oai/fastcgi;
		uwsgi_temp_path $var/oai/uwsgi;
		scgi_temp_path $var/oai/scgi;
		server {
			listen 127.0.0.1:$port;
			root $var/oai/www;
			default_type application/xml;
			location = /oai {
				try_files /\$arg_resumptionToken.xml /first.xml;
			}
		}
	}
	CONF
	chmod -R a+rX "$var/oai"
	nginx -p "$var/oai" -c "$var/oai/nginx.conf"
	pre=(env WEFT_ARXIV_OAI_URL="http://127.0.0.1:$port/oai"
	    WEFT_ARXIV_DELAY=0 WEFT_HARVEST_CONTACT=bench@weft.invalid
	    "$bin" arxiv oai --from "$from" --set cs)
	run=("$bin" match)
	label="weft-harvest match (day $day)"
fi
# NO_REFRESH=1: the match leaves the refresh for later (refresh_ab.sh).
if [ "${NO_REFRESH:-0}" = 1 ]; then
	[ "${run[1]}" = match ] || {
		echo "refresh_daily.sh: NO_REFRESH=1 needs SOURCE=oai or copies, STEP=match" >&2
		exit 2
	}
	run+=(--no-refresh)
	label="$label, no refresh"
fi
# statements: the refresh's costliest statements, where the cluster
# has pg_stat_statements (load.sh's do).
pgss=$(q -Atc "SELECT count(*) FROM pg_extension
                WHERE extname = 'pg_stat_statements'")
# The functions' counters from zero (not pg_stat_reset(), which would
# also forget what was written since each table's ANALYZE: 0050).
reset_functions() {
	q -Atc "SELECT count(pg_stat_reset_single_function_counters(p.oid))
	          FROM pg_proc p WHERE p.proname LIKE 'weft\_%'" >/dev/null
}
statements() {
	[ "$pgss" = 1 ] || return 0
	q -P pager=off -f "$root/tests/bench/top_statements.sql" |
	    sed 's/^/    /'
}
# Both counters from zero: a step's functions and statements alone.
reset_counters() {
	reset_functions
	[ "$pgss" = 1 ] || return 0
	q -Atc "SELECT pg_stat_statements_reset()" >/dev/null
}
reset_counters
# The semantic index's build, beside the refresh or after it: its
# output in vectors.out, its wall time in vectors.time.
vectors_build() {
	local t0
	t0=$(date +%s.%N)
	WEFT_CONF="$var/weft.conf" "$vbin" build >"$var/vectors.out" 2>&1
	echo "$(date +%s.%N) - $t0" | bc -l >"$var/vectors.time"
}
# SOURCE=oai: the day's pages harvested first, timed apart, with their
# own functions and statements (then counted from zero for the match).
if [ "$source" = oai ]; then
	timed "weft-harvest arxiv oai (day $day)" \
	    env WEFT_CONF="$var/weft.conf" "${pre[@]}"
	functions
	statements
	reset_counters
	if [ "${NO_MATCH:-0}" = 1 ]; then
		echo $((day + 1)) >"$var/bench-day"
		echo "weft-harvest match: left for later (NO_MATCH=1)"
		exit 0
	fi
fi
t0=$(date +%s.%N)
[ "$vectors" = beside ] && { vectors_build & vpid=$!; }
timed "$label" env WEFT_CONF="$var/weft.conf" "${run[@]}"
# A day loaded is not written again (loading it twice changes nothing).
[ "$source" = copies ] || echo $((day + 1)) >"$var/bench-day"
# The match's own log: the blocks it read, its time.
sed -n 's/.*"event":"harvest.match","msg":"\([0-9]* name blocks.*\|the day.s pass read .*\|[0-9]* authorships in .*\)"}$/    \1/p' \
    "$var/step.out"
[ "$vectors" = after ] && vectors_build
if [ "$vectors" != none ]; then
	[ "$vectors" = beside ] && wait "$vpid"
	printf '%-34s %8.1f s (%s the refresh)\n' "weft-vectors build" \
	    "$(cat "$var/vectors.time")" "$vectors"
	grep -E 'incremental|projected|refit|full' "$var/vectors.out" |
	    sed 's/^/    /' | tail -4 || true
	printf '%-34s %8.1f s\n' "refresh and semantic index, wall" \
	    "$(echo "$(date +%s.%N) - $t0" | bc -l)"
fi
functions
statements

[ -n "${COMPARE:-}" ] || exit 0
SETS=$(grep -v '^#' "$root/tests/integration/derived_sets")
q -qc "DROP SCHEMA IF EXISTS inc CASCADE; CREATE SCHEMA inc"
while IFS=: read -r name sql; do
	q -qc "CREATE TABLE inc.$name AS $sql"
done <<<"$SETS"
reset_functions
timed "weft-harvest refresh --full" \
    env WEFT_CONF="$var/weft.conf" "$bin" refresh --full
functions
while IFS=: read -r name sql; do
	printf '    %-18s rows, only incremental, only full: %s\n' "$name" \
	    "$(q -Atc "SELECT (SELECT count(*) FROM inc.$name),
	        (SELECT count(*) FROM ((TABLE inc.$name) EXCEPT ($sql)) x),
	        (SELECT count(*) FROM (($sql) EXCEPT (TABLE inc.$name)) y)")"
done <<<"$SETS"
q -qc "DROP SCHEMA inc CASCADE"
