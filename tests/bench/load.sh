#!/bin/bash
# tests/bench/load.sh -- "weft-harvest load" speed and peak memory (not a
# test: not in `make test`).
#
#   tests/bench/load.sh [SIZE...]     default: bundled 1000000
#
# SIZE is "bundled" (sql/data as shipped: ROR, OpenAlex, 13,663 + 200
# papers) or a number of papers: a listing of synthetic papers written
# by tests/bench/corpus/gen.py (seed BENCH_SEED, default 1), loaded
# alone (the other data files empty).  Each size gets a fresh, throwaway
# PostgreSQL cluster (its own var dir, unix socket only,
# migrated); the load runs under /usr/bin/time -v.  Prints one line per
# size: papers, seconds, papers/s, peak RSS of weft-harvest.  The load
# includes matching (it ends with "match").  A synthetic corpus then
# gets citation counts drawn from real ones (corpus/citations.sql) and
# the refresh they call for, timed on a line of their own.
#
# Also prints the database size after the load, and its indexes' share.
#
# Environment: BUILD (default build), BENCH_VAR (default var/bench-load),
# BENCH_PG=production gives the clusters the PostgreSQL settings of
# conf/postgresql-weft.conf (4 GB of shared buffers, huge pages where
# vm.nr_hugepages reserves them: conf/sysctl-weft.conf; planner costs for
# a database mostly in memory) instead of 256 MB and the defaults;
# BENCH_KEEP=1 keeps each size's cluster (stopped) under BENCH_VAR/SIZE,
# laid out as conf/local.sh lays out its var dir, so that
# `WEFT_NO_LOAD=1 WEFT_BENCH_VAR=BENCH_VAR/SIZE tests/bench/run.sh`
# measures pages at that size.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=${BUILD:-build}
bin=$root/$build/weft-harvest
base=${BENCH_VAR:-$root/var/bench-load}
pgbin=/usr/lib/postgresql/15/bin
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
aspg() { (cd /tmp && $SUDO runuser -u postgres -- "$@"); }
[ $# -gt 0 ] || set -- bundled 1000000
[ -x "$bin" ] || make -s BUILD="$build" harvest
[ -x /usr/bin/time ] || { echo "load.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

stop() {
	[ -f "$var/pg/data/PG_VERSION" ] &&
	    aspg "$pgbin/pg_ctl" -D "$var/pg/data" -m fast stop >/dev/null 2>&1
	[ -n "${BENCH_KEEP:-}" ] || rm -rf "$var"
}

# A fresh cluster under $var, migrated; $var/weft.conf points at it.
pg_fresh() {
	rm -rf "$var"
	mkdir -p "$var/pg/run" "$var/data"
	$SUDO chown -R postgres "$var/pg"
	aspg "$pgbin/initdb" -D "$var/pg/data" --auth=trust -U weft -E UTF8 \
	    --locale=C.UTF-8 --no-sync >/dev/null
	cat >>"$var/pg/data/postgresql.conf" <<-CONF
	listen_addresses = ''
	max_connections = 200
	unix_socket_directories = '$var/pg/run'
	shared_buffers = 256MB
	fsync = off
	synchronous_commit = off
	full_page_writes = off
	shared_preload_libraries = 'pg_stat_statements'
	pg_stat_statements.track = all
	CONF
	# BENCH_PG=production: the settings the README installs for a large
	# archive (conf/postgresql-weft.conf), read after the lines above.
	[ "${BENCH_PG:-}" != production ] ||
	    echo "include '$root/conf/postgresql-weft.conf'" \
		>>"$var/pg/data/postgresql.conf"
	aspg "$pgbin/pg_ctl" -D "$var/pg/data" -l "$var/pg/server.log" -w \
	    start >/dev/null
	psql -h "$var/pg/run" -U weft -d postgres -qc \
	    "CREATE DATABASE weft"
	psql -h "$var/pg/run" -U weft -d weft -qc \
	    "CREATE EXTENSION pg_stat_statements"
	cat >"$var/weft.conf" <<-CONF
	db = host=$var/pg/run dbname=weft user=weft
	sql_dir = $root/sql
	log_level = warn
	CONF
	WEFT_CONF=$var/weft.conf "$bin" migrate >/dev/null
}

# synth N OUT: N synthetic papers (tests/bench/corpus/gen.py: derived
# from the bundled listing with its distributions, not copies of it).
synth() {
	python3 "$root/tests/bench/corpus/gen.py" --seed "${BENCH_SEED:-1}" \
	    "$1" "$2"
}

# measure LABEL DATADIR NPAPERS
measure() {
	local t0 t1 secs rss
	t0=$(date +%s.%N)
	WEFT_CONF=$var/weft.conf /usr/bin/time -v -o "$var/time.txt" \
	    "$bin" load --data "$2" >"$var/load.out" 2>"$var/load.err" || {
		echo "load.sh: $1: load failed:" >&2
		tail -5 "$var/load.err" >&2
		return 1
	}
	t1=$(date +%s.%N)
	secs=$(echo "$t1 - $t0" | bc -l)
	rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' \
	    "$var/time.txt")
	printf '%-10s %9d papers %8.1f s %8.1f papers/s  peak RSS %6.1f MB\n' \
	    "$1" "$3" "$secs" "$(echo "$3 / $secs" | bc -l)" \
	    "$(echo "$rss / 1024" | bc -l)"
	sed 's/^/           /' "$var/load.out"
	printf '           database %s, of which indexes %s\n' \
	    "$(psql -h "$var/pg/run" -U weft -d weft -Atc \
	    "SELECT pg_size_pretty(pg_database_size('weft'))")" \
	    "$(psql -h "$var/pg/run" -U weft -d weft -Atc \
	    "SELECT pg_size_pretty(sum(pg_indexes_size(c.oid)))
	       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	      WHERE c.relkind IN ('r', 'm') AND n.nspname = 'public'")"
	# Where the load's time went: its costliest statements, nested
	# ones (inside functions) included.
	psql -h "$var/pg/run" -U weft -d weft -P pager=off \
	    -f "$root/tests/bench/top_statements.sql" | sed 's/^/           /'
}

# cite: the synthetic papers' citation counts (corpus/citations.sql:
# drawn from real ones; the listing has none), then the refresh they
# call for.  Not part of the load's figures: printed on a line of its
# own.
cite() {
	local t0 t1 t2
	t0=$(date +%s.%N)
	psql -h "$var/pg/run" -U weft -d weft -X -q -v ON_ERROR_STOP=1 \
	    -f "$root/tests/bench/corpus/citations.sql"
	t1=$(date +%s.%N)
	WEFT_CONF=$var/weft.conf "$bin" refresh >/dev/null
	t2=$(date +%s.%N)
	printf '           citation counts (not the load) %.1f s, the refresh after them %.1f s\n' \
	    "$(echo "$t1 - $t0" | bc -l)" "$(echo "$t2 - $t1" | bc -l)"
}

for size in "$@"; do
	var=$base/$size
	trap stop EXIT
	pg_fresh
	if [ "$size" = bundled ]; then
		measure bundled "$root/sql/data" 13863
	else
		# Every bundled file empty (the loader wants each), then
		# the synthetic listing in the place of the bundled one.
		for f in "$root"/sql/data/*.jsonl.gz; do
			printf '' | gzip >"$var/data/${f##*/}"
		done
		synth "$size" "$var/data/arxiv_cs_se_dc_lg_2025_2026.jsonl.gz"
		measure "$size" "$var/data" "$size"
		cite
	fi
	stop
	trap - EXIT
done
