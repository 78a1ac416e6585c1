#!/bin/bash
# conf/local.sh -- the whole site on this machine, under the project's
# var/ directory: a throwaway PostgreSQL cluster and Redis, weftd for
# each module, and a private nginx.
#
#   conf/local.sh up      [--var DIR] [--port N] [--build DIR]
#   conf/local.sh down    [--var DIR]
#   conf/local.sh status  [--var DIR]
#   conf/local.sh deps    installs the Debian packages that are missing
#   conf/local.sh deps-test   the same, with what only make test needs
#
# Mail goes to a local SMTP server (Debian's python3-aiosmtpd) on
# 127.0.0.1:$WEFT_SMTP_PORT (default: the HTTP port + 10000), which keeps
# every message it receives in the maildir DIR/mail (new/ holds one file
# per message): the tests read the verification and reset links there.
#
# Running `up` again is safe: what runs keeps running, the workers are
# restarted on the current build, the data is loaded only when it changed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-up}
shift || true
var=$root/var
port=8080
build=build
while [ $# -gt 0 ]; do
	case "$1" in
	--var) var=$2; shift 2 ;;
	--port) port=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	*) echo "local.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
mkdir -p "$var"
var=$(cd "$var" && pwd)
pgbin=/usr/lib/postgresql/15/bin
modules="pages accounts feeds chat"
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

say() { printf '%s\n' "$*" >&2; }

PACKAGES="build-essential pkg-config clang libfcgi-dev libpq-dev \
libcurl4-openssl-dev libjansson-dev libhiredis-dev libxml2-dev \
libsodium-dev libutf8proc-dev libcmark-gfm-dev \
libcmark-gfm-extensions-dev zlib1g-dev nginx postgresql \
postgresql-contrib redis-server wrk libxml2-utils python3 \
python3-feedparser python3-aiosmtpd python3-bibtexparser jq curl perl openssl libclang-rt-14-dev libopenblas-dev \
liblapacke-dev sqlmap bc fasttext libgoogle-perftools-dev"

# The og:image cards (modules/pages/card/): librsvg and cairo draw them,
# pango measures their text, in these fonts.
PACKAGES="$PACKAGES librsvg2-dev libcairo2-dev libpango1.0-dev \
fonts-liberation fonts-lato fonts-dejavu-core"

# make lint (tests/static): the format check and shellcheck.
PACKAGES="$PACKAGES clang-format shellcheck"

# Only for make test (`deps-test`): the browser suite
# (tests/integration/t_browser.sh) drives Debian's chromium, headless,
# through puppeteer-core from npm; make run does not need it.
TEST_PACKAGES="chromium"

deps() { # [more packages]
	local missing=
	for p in $PACKAGES "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		    grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	say "installing:$missing"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
	    --no-install-recommends $missing >/dev/null
}

# Runs a command as the postgres user (PostgreSQL refuses root).
aspg() { (cd /tmp && $SUDO runuser -u postgres -- "$@"); }

# One system user per pool (weft-pages, weft-accounts, weft-feeds, weft-chat), as
# make install creates them: weftd, started as root, opens its socket and
# becomes that user.  Without root, the pools run as whoever runs this.
pool_users() {
	local m
	[ "$(id -u)" = 0 ] || return 0
	for m in $modules; do
		id "weft-$m" >/dev/null 2>&1 ||
		    useradd --system --user-group --no-create-home \
		    --home-dir /nonexistent --shell /usr/sbin/nologin "weft-$m"
	done
}

# weft.conf's lines for the pools (write_conf).  Each pool connects as
# its own database role (sql/schema/0017_roles.sql; the cluster trusts
# local connections, so any role name is accepted).  The sockets are
# 0660: when root, owned by the pool's user and the group of nginx's
# workers (www-data); otherwise nginx runs as this user too.
pool_conf() {
	local m
	for m in $modules; do
		echo "db.$m = host=$var/pg/run dbname=weft user=weft-$m"
		[ "$(id -u)" = 0 ] && echo "user.$m = weft-$m"
	done
	[ "$(id -u)" = 0 ] && echo "socket_group = www-data"
	return 0
}

pg_up() {
	local data=$var/pg/data
	mkdir -p "$var/pg/run"
	if [ ! -f "$data/PG_VERSION" ]; then
		say "creating a PostgreSQL cluster in $data"
		$SUDO chown -R postgres "$var/pg"
		aspg "$pgbin/initdb" -D "$data" --auth=trust -U weft -E UTF8 \
		    --locale=C.UTF-8 --no-sync >/dev/null
		cat >>"$data/postgresql.conf" <<-CONF
		listen_addresses = ''
		unix_socket_directories = '$var/pg/run'
		max_connections = 200
		shared_buffers = 256MB
		fsync = off
		synchronous_commit = off
		full_page_writes = off
		CONF
	fi
	$SUDO chown -R postgres "$var/pg"
	if ! aspg "$pgbin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
		aspg "$pgbin/pg_ctl" -D "$data" -l "$var/pg/server.log" -w \
		    start >/dev/null
	fi
	psql -h "$var/pg/run" -U weft -d postgres -Atqc \
	    "SELECT 1 FROM pg_database WHERE datname = 'weft'" | grep -q 1 ||
	    psql -h "$var/pg/run" -U weft -d postgres -qc "CREATE DATABASE weft"
}

pg_down() {
	[ -f "$var/pg/data/PG_VERSION" ] || return 0
	aspg "$pgbin/pg_ctl" -D "$var/pg/data" -m fast stop >/dev/null 2>&1 ||
	    true
}

redis_up() {
	mkdir -p "$var/redis"
	redis-cli -s "$var/redis/redis.sock" ping >/dev/null 2>&1 && return 0
	redis-server --port 0 --unixsocket "$var/redis/redis.sock" \
	    --unixsocketperm 777 --save '' --appendonly no --daemonize yes \
	    --pidfile "$var/redis/redis.pid" --logfile "$var/redis/redis.log" \
	    --dir "$var/redis" >/dev/null
	for _ in $(seq 50); do
		redis-cli -s "$var/redis/redis.sock" ping >/dev/null 2>&1 &&
		    return 0
		sleep 0.1
	done
	say "redis did not start"; return 1
}

redis_down() {
	redis-cli -s "$var/redis/redis.sock" shutdown nosave >/dev/null 2>&1 ||
	    true
}

# The SMTP server the accounts workers send to (see the top).
smtp_port() { echo "${WEFT_SMTP_PORT:-$((port + 10000))}"; }

smtp_up() {
	local p pid
	p=$(smtp_port)
	# A maildir: aiosmtpd creates tmp/ new/ cur/ only in a new directory.
	mkdir -p "$var/smtp" "$var/mail/tmp" "$var/mail/new" "$var/mail/cur" \
	    "$var/log"
	pid=$(cat "$var/smtp/smtp.pid" 2>/dev/null) &&
	    kill -0 "$pid" 2>/dev/null && return 0
	# Debian's interpreter: that is where python3-aiosmtpd lives.
	setsid /usr/bin/python3 -m aiosmtpd -n -u -l "127.0.0.1:$p" \
	    -c aiosmtpd.handlers.Mailbox "$var/mail" \
	    >>"$var/log/smtp.log" 2>&1 </dev/null &
	echo $! >"$var/smtp/smtp.pid"
	for _ in $(seq 50); do
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && return 0
		sleep 0.1
	done
	say "the SMTP server did not start; see $var/log/smtp.log"; return 1
}

smtp_down() {
	local pid
	pid=$(cat "$var/smtp/smtp.pid" 2>/dev/null) || return 0
	kill -TERM "$pid" 2>/dev/null || true
	rm -f "$var/smtp/smtp.pid"
}

write_conf() {
	cat >"$var/weft.conf" <<-CONF
	# Written by conf/local.sh; edit conf/weft.conf for the documentation.
	base_url = http://127.0.0.1:$port
	db = host=$var/pg/run dbname=weft user=weft
	redis = $var/redis/redis.sock
	socket_dir = $var/run
	socket_mode = 0660
	$(pool_conf)
	modules_dir = $root/$build
	workers = 2
	log_level = info
	session_cookie = weft_session
	content_dir = $root/modules/pages/content
	sql_dir = $root/sql
	data_dir = $root/sql/data
	vectors_dir = $var/vectors
	smtp_url = smtp://127.0.0.1:$(smtp_port)
	smtp_from = weft <noreply@weft.test>
	smtp_timeout = 5
	# The tests and the tools here speak from 127.0.0.1; the fair-use
	# tests (t_limit, t_api_keys, tests/bench/limit.sh) from 127.0.0.2..
	read_limit_exempt = 127.0.0.1
	CONF
}

# Loads the bundled dataset when it (or the loader) changed.  The loader
# itself refreshes statistics, derived tables and search's word
# frequencies, and bumps the cache generation.  WEFT_NO_LOAD=1 keeps the
# data as it is; so does a var dir that tests/bench/load.sh kept (its
# load.out): its corpus is the one to measure, never merged with ours.
load_data() {
	local stamp=$var/loaded.stamp sum
	sum=$(cat "$root"/sql/data/*.gz "$root"/sql/schema/*.sql \
	    "$root/$build/weft-harvest" 2>/dev/null | md5sum | cut -c1-32)
	WEFT_CONF=$var/weft.conf "$root/$build/weft-harvest" migrate
	[ -z "${WEFT_NO_LOAD:-}" ] || return 0
	[ ! -f "$var/load.out" ] || return 0
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
		return 0
	fi
	WEFT_CONF=$var/weft.conf "$root/$build/weft-harvest" load
	echo "$sum" >"$stamp"
}

# The semantic index (weft-vectors build): built when missing or when the
# papers changed since (it compares vector_index.fingerprint itself, and
# returns at once when up to date).  A failure leaves search lexical.
vectors_up() {
	local q="SELECT coalesce(max(version), 0) FROM vector_index" before after
	[ -x "$root/$build/weft-vectors" ] || return 0
	mkdir -p "$var/log"
	before=$(psql -h "$var/pg/run" -U weft -d weft -Atqc "$q" 2>/dev/null) ||
	    before=0
	WEFT_CONF=$var/weft.conf "$root/$build/weft-vectors" build \
	    >>"$var/log/vectors.log" 2>&1 ||
	    say "weft-vectors build failed (search stays lexical); see $var/log/vectors.log"
	after=$(psql -h "$var/pg/run" -U weft -d weft -Atqc "$q" 2>/dev/null) ||
	    after=0
	# A new index: cached search and paper pages are stale.
	[ "$before" = "$after" ] ||
	    redis-cli -s "$var/redis/redis.sock" INCR weft:gen >/dev/null || true
}

# The papers' analysis (weft-harvest analyse, extractive unless llm_url
# is set): only the papers not analysed yet, so a restart does nothing.
# After the semantic index, whose vocabulary weighs the key phrases.  In
# the background: the bundled 13,863 papers took 4-5 minutes on a busy
# 2-core machine (40 s of CPU; the rest is PostgreSQL rewriting the
# rows and their indexes), and the site serves meanwhile (papers show
# their analysis as it lands).  WEFT_ANALYSE_WAIT=1 waits for it;
# WEFT_ANALYSE_EXTRACTIVE=1 keeps it extractive whatever llm_url says
# (the tests: their stack's endpoint is a fake).  WEFT_ANALYSE=off skips
# it (the benchmarks: analysing a kept 500,000-paper corpus in the
# background takes the CPU they measure).
analyse_up() {
	local args=()
	[ "${WEFT_ANALYSE:-on}" = off ] && return 0
	mkdir -p "$var/log"
	[ -n "${WEFT_ANALYSE_EXTRACTIVE:-}" ] && args=(--extractive)
	if [ -n "${WEFT_ANALYSE_WAIT:-}" ]; then
		WEFT_CONF=$var/weft.conf "$root/$build/weft-harvest" analyse \
		    "${args[@]}" \
		    >>"$var/log/analyse.log" 2>&1 ||
		    say "weft-harvest analyse failed; see $var/log/analyse.log"
		return 0
	fi
	WEFT_CONF=$var/weft.conf nohup "$root/$build/weft-harvest" analyse \
	    "${args[@]}" >>"$var/log/analyse.log" 2>&1 </dev/null &
	say "analysing the papers in the background (see $var/log/analyse.log)"
}

pidof_mod() {
	local f=$var/run/weftd-$1.pid
	[ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && cat "$f"
}

weftd_stop() {
	local m pid
	for m in $modules; do
		pid=$(pidof_mod "$m") || continue
		kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		# weftd, no longer root, cannot remove its socket itself.
		rm -f "$var/run/weftd-$m.pid" "$var/run/$m.sock"
	done
}

weftd_up() {
	local m
	pool_users
	mkdir -p "$var/run" "$var/log"
	chmod 755 "$var/run"
	weftd_stop
	for m in $modules; do
		[ -f "$root/$build/$m.so" ] || continue
		rm -f "$var/run/$m.sock" # so that the wait below sees the new one
		WEFT_CONF=$var/weft.conf setsid "$root/$build/weftd" \
		    -c "$var/weft.conf" -m "$m" \
		    >>"$var/log/$m.log" 2>&1 </dev/null &
		echo $! >"$var/run/weftd-$m.pid"
	done
	for m in $modules; do
		[ -f "$root/$build/$m.so" ] || continue
		for _ in $(seq 50); do
			[ -S "$var/run/$m.sock" ] && break
			sleep 0.1
		done
		[ -S "$var/run/$m.sock" ] || {
			say "weftd $m did not start; see $var/log/$m.log"
			return 1
		}
	done
}

nginx_up() {
	"$root/nginx/gen.sh" local "$var" "$port"
	nginx -t -q -p "$var/nginx" -c "$var/nginx/nginx.conf" 2>&1 |
	    grep -v 'could not open error log' >&2 || true
	if [ -f "$var/nginx/nginx.pid" ] &&
	    kill -0 "$(cat "$var/nginx/nginx.pid")" 2>/dev/null; then
		nginx -p "$var/nginx" -c "$var/nginx/nginx.conf" -s reload
	else
		nginx -p "$var/nginx" -c "$var/nginx/nginx.conf"
	fi
}

nginx_down() {
	[ -f "$var/nginx/nginx.pid" ] || return 0
	nginx -p "$var/nginx" -c "$var/nginx/nginx.conf" -s quit \
	    2>/dev/null || true
	for _ in $(seq 50); do
		[ -f "$var/nginx/nginx.pid" ] || break
		sleep 0.1
	done
}

case "$cmd" in
deps)
	deps
	;;
deps-test)
	deps $TEST_PACKAGES
	;;
up)
	deps
	san=
	case "$build" in *san*) san=SAN=1 ;; esac
	make -C "$root" -s BUILD="$build" $san all
	pg_up
	redis_up
	smtp_up
	write_conf
	load_data
	vectors_up
	analyse_up
	weftd_up
	nginx_up
	say ""
	say "weft is running at http://127.0.0.1:$port/"
	say "  logs: $var/log/   stop: make stop"
	;;
down)
	nginx_down
	weftd_stop
	smtp_down
	redis_down
	pg_down
	;;
status)
	for m in $modules; do
		if pid=$(pidof_mod "$m"); then echo "weftd $m: running ($pid)"
		else echo "weftd $m: stopped"; fi
	done
	redis-cli -s "$var/redis/redis.sock" ping >/dev/null 2>&1 &&
	    echo "redis: running" || echo "redis: stopped"
	aspg "$pgbin/pg_ctl" -D "$var/pg/data" status >/dev/null 2>&1 &&
	    echo "postgresql: running" || echo "postgresql: stopped"
	pid=$(cat "$var/smtp/smtp.pid" 2>/dev/null) && kill -0 "$pid" \
	    2>/dev/null && echo "smtp: running" || echo "smtp: stopped"
	[ -f "$var/nginx/nginx.pid" ] && echo "nginx: running on :$port" ||
	    echo "nginx: stopped"
	;;
*)
	echo "usage: conf/local.sh up|down|status|deps|deps-test [--var DIR] [--port N]" >&2
	exit 2
	;;
esac
