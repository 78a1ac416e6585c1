#!/bin/bash
# tests/multihost/run.sh -- weft spread over several machines, for real,
# on this one (issue 7, "Many machines"; README, "Scaling out"):
#
#   two worker hosts   A and B: weftd pages/accounts/feeds each, on TCP
#                      (127.0.0.1:9101-9103 and 127.0.0.1:9201-9203),
#                      each with its own weft.conf and socket_dir
#   PostgreSQL         a primary and a streaming replica made with
#                      pg_basebackup -R (unix sockets, ports 55432/55433)
#   Redis              a primary with a password on its own TCP address
#                      (127.0.0.1:56379), a replica (56380) and a
#                      Sentinel (56381); host A names the primary's
#                      address, host B asks the Sentinel for it
#   nginx              one, from nginx/gen.sh local with
#                      WEFT_UPSTREAMS_<MODULE>, balancing over A and B;
#                      plus one probe nginx per host (pinned to it) so
#                      that the test can talk to a chosen host
#
# Reads go to the replica (db, target_session_attrs=prefer-standby),
# writes to the primary (db.accounts and db.harvest, read-write).  It
# shows, as TAP: requests spread over both hosts, killing host A loses no
# GET under load, a follow written via A is read back via B at once,
# stopping the replica sends reads to the primary, a Sentinel failover
# moves host B's cache to the new Redis primary, and with no Redis at all
# pages still answer.  Everything it starts
# is stopped again, even on failure.  Loopback only; about 1-2 minutes.
#
#   tests/multihost/run.sh [--build DIR] [--no-build] [--papers N|all]
#
# --build: where to build (default build, the release build); --no-build:
# use what is there; --papers:
# how many papers of the bundled dataset to load (default 2000; all of
# them take about a minute longer).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=build
papers=2000
nobuild=
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--papers) papers=$2; shift 2 ;;
	--no-build) nobuild=1; shift ;;
	*) echo "usage: $0 [--build DIR] [--no-build] [--papers N|all]" >&2
		exit 2 ;;
	esac
done
pgbin=/usr/lib/postgresql/15/bin
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
LB_PORT=${WEFT_MH_PORT:-8190}
PA_PORT=$((LB_PORT + 1)) # probe nginx of host A
PB_PORT=$((LB_PORT + 2)) # probe nginx of host B
A_BASE=9101
B_BASE=9201
PG_PRIMARY=55432
PG_REPLICA=55433
modules="pages accounts feeds"

tmp=$(mktemp -d /tmp/weft-multihost.XXXXXX)
chmod 755 "$tmp"
export WEFT_URL=http://127.0.0.1:$LB_PORT
. "$root/tests/integration/lib.sh"
t_start=$(date +%s)
say() { printf '# %s\n' "$*"; }
aspg() { (cd /tmp && $SUDO runuser -u postgres -- "$@"); }
ngx() { nginx -p "$tmp/$1/nginx" -c "$tmp/$1/nginx/nginx.conf" "${@:2}"; }
prun=$tmp/pg/primary-run
rrun=$tmp/pg/replica-run
psql_p() { psql -h "$prun" -p $PG_PRIMARY -U weft -d weft -Atqc "$1"; }
psql_r() { psql -h "$rrun" -p $PG_REPLICA -U weft -d weft -Atqc "$1"; }
RD_PRIMARY=56379
RD_REPLICA=56380
RD_SENTINEL=56381
rdpw=mh-redis-$$-$RANDOM
# The current Redis primary (by default the first one), with the password.
rd_port=$RD_PRIMARY
rcli() { redis-cli -p "$rd_port" -a "$rdpw" --no-auth-warning "$@"; }

# ---------------------------------------------------------------- cleanup
weftd_pids=
wrk_pid=
smtp_pid=
cleanup() {
	local p
	[ -n "$wrk_pid" ] && kill "$wrk_pid" 2>/dev/null
	[ -n "$smtp_pid" ] && kill "$smtp_pid" 2>/dev/null
	for p in lb probe-a probe-b; do
		[ -f "$tmp/$p/nginx/nginx.pid" ] && ngx "$p" -s quit 2>/dev/null
	done
	# Each weftd leads its own process group (setsid): the host and
	# its workers.
	for p in $weftd_pids; do
		kill -TERM -- "-$p" 2>/dev/null
	done
	sleep 0.5
	for p in $weftd_pids; do
		kill -KILL -- "-$p" 2>/dev/null
	done
	for p in $RD_SENTINEL $RD_REPLICA $RD_PRIMARY; do
		redis-cli -p "$p" -a "$rdpw" --no-auth-warning shutdown nosave \
		    >/dev/null 2>&1
	done
	for p in replica primary; do
		[ -f "$tmp/pg/$p/PG_VERSION" ] &&
		    aspg "$pgbin/pg_ctl" -D "$tmp/pg/$p" -m immediate -w stop \
		    >/dev/null 2>&1
	done
	for p in lb probe-a probe-b; do
		for _ in $(seq 30); do
			[ -f "$tmp/$p/nginx/nginx.pid" ] || break
			sleep 0.1
		done
	done
	rm -rf "$tmp" "$T_TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

die() { echo "Bail out! $*"; exit 1; }
# Nothing accepts connections on 127.0.0.1:PORT.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in $LB_PORT $PA_PORT $PB_PORT $A_BASE $((A_BASE + 1)) $((A_BASE + 2)) \
    $B_BASE $((B_BASE + 1)) $((B_BASE + 2)); do
	port_free "$p" || die "port $p is in use (WEFT_MH_PORT moves the nginx ports)"
done

# ---------------------------------------------------------------- build
[ -n "$nobuild" ] ||
    make -s -C "$root" BUILD="$build" all >"$tmp/build.log" 2>&1 ||
    die "make failed: $(tail -5 "$tmp/build.log")"
say "build ($build) up to date after $(($(date +%s) - t_start)) s"
t_start=$(date +%s)

# ---------------------------------------------------------------- PostgreSQL
# The primary, then a replica from pg_basebackup -R, before the data is
# loaded: the load reaches the replica by streaming replication.
mkdir -p "$tmp/pg" "$prun" "$rrun"
$SUDO chown -R postgres "$tmp/pg"
aspg "$pgbin/initdb" -D "$tmp/pg/primary" --auth=trust -U weft -E UTF8 \
    --locale=C.UTF-8 --no-sync >/dev/null || die "initdb failed"
cat >>"$tmp/pg/primary/postgresql.conf" <<CONF
listen_addresses = ''
port = $PG_PRIMARY
unix_socket_directories = '$prun'
max_connections = 100
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = replica
max_wal_senders = 4
hot_standby = on
CONF
aspg "$pgbin/pg_ctl" -D "$tmp/pg/primary" -l "$tmp/pg/primary.log" -w \
    start >/dev/null || die "the primary did not start"
psql -h "$prun" -p $PG_PRIMARY -U weft -d postgres -qc "CREATE DATABASE weft"
aspg "$pgbin/pg_basebackup" -h "$prun" -p $PG_PRIMARY -U weft \
    -D "$tmp/pg/replica" -R -X stream --checkpoint=fast --no-sync ||
    die "pg_basebackup failed"
cat >>"$tmp/pg/replica/postgresql.conf" <<CONF
port = $PG_REPLICA
unix_socket_directories = '$rrun'
CONF
aspg "$pgbin/pg_ctl" -D "$tmp/pg/replica" -l "$tmp/pg/replica.log" -w \
    start >/dev/null || die "the replica did not start"
[ "$(psql_r "SELECT pg_is_in_recovery()")" = t ] &&
    [ "$(psql_p "SELECT pg_is_in_recovery()")" = f ]
ok $? "PostgreSQL: a primary and a replica in recovery"
[ "$(psql_p "SELECT state FROM pg_stat_replication")" = streaming ]
ok $? "the replica streams from the primary"

# ---------------------------------------------------------------- Redis
# On TCP with a password (in a file, as in production), a replica, and
# one Sentinel watching them as the group "weft".
mkdir -p "$tmp/redis"
printf '%s\n' "$rdpw" >"$tmp/redis/password"
chmod 644 "$tmp/redis/password"
rd_start() { # port [more redis-server arguments]
	local port=$1
	shift
	redis-server --port "$port" --bind 127.0.0.1 --save '' \
	    --appendonly no --daemonize yes --requirepass "$rdpw" \
	    --masterauth "$rdpw" --dir "$tmp/redis" \
	    --pidfile "$tmp/redis/$port.pid" \
	    --logfile "$tmp/redis/$port.log" "$@" >/dev/null
}
rd_start $RD_PRIMARY
rd_start $RD_REPLICA --replicaof 127.0.0.1 $RD_PRIMARY
cat >"$tmp/redis/sentinel.conf" <<SENTINEL
port $RD_SENTINEL
bind 127.0.0.1
daemonize yes
pidfile $tmp/redis/sentinel.pid
logfile $tmp/redis/sentinel.log
dir $tmp/redis
requirepass $rdpw
sentinel monitor weft 127.0.0.1 $RD_PRIMARY 1
sentinel auth-pass weft $rdpw
sentinel down-after-milliseconds weft 2000
sentinel failover-timeout weft 10000
SENTINEL
redis-server "$tmp/redis/sentinel.conf" --sentinel >/dev/null
for _ in $(seq 50); do rcli ping >/dev/null 2>&1 && break; sleep 0.1; done
rd_primary_port() {
	redis-cli -p $RD_SENTINEL -a "$rdpw" --no-auth-warning \
	    SENTINEL get-master-addr-by-name weft 2>/dev/null | sed -n 2p
}
for _ in $(seq 50); do
	[ "$(rd_primary_port)" = $RD_PRIMARY ] &&
	    [ "$(rd_port=$RD_REPLICA rcli ROLE | head -1)" = slave ] &&
	    break
	sleep 0.1
done
[ "$(rd_primary_port)" = $RD_PRIMARY ] &&
    [ "$(rd_port=$RD_REPLICA rcli ROLE | head -1)" = slave ]
ok $? "Redis: a primary on 127.0.0.1:$RD_PRIMARY, a replica, a Sentinel"
! redis-cli -p $RD_PRIMARY ping 2>/dev/null | grep -q PONG
ok $? "... which refuses commands without the password"

# ---------------------------------------------------------------- data
# A slice of the bundled dataset (the first N papers, everything else
# whole), migrated and loaded through the primary.
mkdir -p "$tmp/data"
for f in "$root"/sql/data/*.gz; do
	case "$f" in
	*/arxiv_cs_*) [ "$papers" != all ] || { ln -s "$f" "$tmp/data/"; continue; }
		zcat "$f" | head -n "$papers" | gzip -1 >"$tmp/data/${f##*/}" ;;
	*) ln -s "$f" "$tmp/data/" ;;
	esac
done
primary="host=$prun port=$PG_PRIMARY dbname=weft user=weft"
either="host=$rrun,$prun port=$PG_REPLICA,$PG_PRIMARY dbname=weft user=weft"
cat >"$tmp/harvest.conf" <<CONF
db.harvest = $primary target_session_attrs=read-write application_name=harvest
sql_dir = $root/sql
data_dir = $tmp/data
log_level = warn
CONF
t0=$(date +%s)
WEFT_CONF=$tmp/harvest.conf "$root/$build/weft-harvest" migrate \
    >"$tmp/load.log" 2>&1 &&
    WEFT_CONF=$tmp/harvest.conf "$root/$build/weft-harvest" load \
    >>"$tmp/load.log" 2>&1
ok $? "migrate and load through the primary ($(($(date +%s) - t0)) s)" \
    "$(tail -3 "$tmp/load.log")"
say "$(grep '^loaded' "$tmp/load.log")"
# The replica catches up by streaming.
lsn=$(psql_p "SELECT pg_current_wal_lsn()")
caught=1
for _ in $(seq 300); do
	[ "$(psql_r "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn")" = t ] &&
	    { caught=0; break; }
	sleep 0.1
done
ok $caught "the replica caught up with the load"
np=$(psql_p "SELECT count(*) FROM papers")
[ "$np" -gt 0 ] && [ "$(psql_r "SELECT count(*) FROM papers")" = "$np" ]
ok $? "the replica has the same $np papers"

# ---------------------------------------------------------------- hosts
# One weft.conf per worker host: reads prefer the replica, the writers
# (accounts) go to the primary; metrics in the host's own socket_dir.
# Sign-up mail (the verification link) goes to one local SMTP server;
# signup_verified (lib.sh) reads it in $WEFT_VAR/mail.
SMTP_PORT=${WEFT_SMTP_PORT:-55025}
mkdir -p "$tmp/mail/tmp" "$tmp/mail/new" "$tmp/mail/cur"
setsid /usr/bin/python3 -m aiosmtpd -n -u -l "127.0.0.1:$SMTP_PORT" \
    -c aiosmtpd.handlers.Mailbox "$tmp/mail" >"$tmp/smtp.log" 2>&1 \
    </dev/null &
smtp_pid=$!
WEFT_VAR=$tmp
# Host A names the Redis primary's address; host B asks the Sentinel.
redis_where() {
	case "$1" in
	a) echo "redis = 127.0.0.1:$RD_PRIMARY" ;;
	*) echo "redis_sentinels = 127.0.0.1:$RD_SENTINEL"
	   echo "	redis_sentinel_password_file = $tmp/redis/password"
	   echo "	redis_master = weft" ;;
	esac
}
start_host() {
	local h=$1 base=$2 i=0 m p
	mkdir -p "$tmp/host-$h/run" "$tmp/host-$h/log"
	cat >"$tmp/host-$h/weft.conf" <<-CONF
	base_url = $WEFT_URL
	db = $either target_session_attrs=prefer-standby application_name=weft-$h-read
	db.accounts = $primary target_session_attrs=read-write application_name=weft-$h-write
	redis_password_file = $tmp/redis/password
	$(redis_where "$h")
	socket_dir = $tmp/host-$h/run
	modules_dir = $root/$build
	workers = 2
	log_level = info
	session_cookie = weft_session
	content_dir = $root/modules/pages/content
	sql_dir = $root/sql
	data_dir = $tmp/data
	smtp_url = smtp://127.0.0.1:$SMTP_PORT
	smtp_from = weft <noreply@weft.test>
	CONF
	for m in $modules; do
		p=$((base + i))
		i=$((i + 1))
		# In a subshell, so that this shell does not report the
		# kill -9 below; setsid makes weftd a process group leader.
		(WEFT_CONF=$tmp/host-$h/weft.conf setsid "$root/$build/weftd" \
		    -c "$tmp/host-$h/weft.conf" -m "$m" -l "127.0.0.1:$p" \
		    >>"$tmp/host-$h/log/$m.log" 2>&1 </dev/null &
		echo $! >"$tmp/host-$h/run/weftd-$m.pid")
		weftd_pids="$weftd_pids $(cat "$tmp/host-$h/run/weftd-$m.pid")"
	done
}
start_host a $A_BASE
start_host b $B_BASE
up=0
for _ in $(seq 100); do
	up=0
	for p in $A_BASE $((A_BASE + 1)) $((A_BASE + 2)) $B_BASE \
	    $((B_BASE + 1)) $((B_BASE + 2)); do
		port_free "$p" || up=$((up + 1))
	done
	[ "$up" = 6 ] && break
	sleep 0.1
done
[ "$up" = 6 ]
ok $? "two hosts: weftd pages, accounts, feeds listening on TCP ($up of 6)" \
    "$(tail -q -n 3 "$tmp"/host-*/log/*.log)"

# ---------------------------------------------------------------- nginx
# The balancer, and a probe per host, all from nginx/gen.sh local.
hostlist() { echo "127.0.0.1:$(($1 + $2))"; }
gen() { # gen NAME PORT BASE...
	local name=$1 port=$2 pages='' accounts='' feeds='' b
	shift 2
	for b in "$@"; do
		pages="$pages $(hostlist "$b" 0)"
		accounts="$accounts $(hostlist "$b" 1)"
		feeds="$feeds $(hostlist "$b" 2)"
	done
	mkdir -p "$tmp/$name"
	WEFT_NGINX_CACHE=off WEFT_UPSTREAMS_PAGES=$pages \
	    WEFT_UPSTREAMS_ACCOUNTS=$accounts WEFT_UPSTREAMS_FEEDS=$feeds \
	    "$root/nginx/gen.sh" local "$tmp/$name" "$port" &&
	    nginx -q -p "$tmp/$name/nginx" -c "$tmp/$name/nginx/nginx.conf"
}
gen lb $LB_PORT $A_BASE $B_BASE
ok $? "nginx balancing over both hosts on :$LB_PORT"
gen probe-a $PA_PORT $A_BASE && gen probe-b $PB_PORT $B_BASE
ok $? "probe nginx pinned to host A (:$PA_PORT) and to host B (:$PB_PORT)"
grep -q "server 127.0.0.1:$A_BASE max_fails=" "$tmp/lb/nginx/upstreams.conf" &&
    grep -q "server 127.0.0.1:$B_BASE max_fails=" "$tmp/lb/nginx/upstreams.conf"
ok $? "the balancer's pages upstream lists both hosts"
A=http://127.0.0.1:$PA_PORT
B=http://127.0.0.1:$PB_PORT
for _ in $(seq 50); do
	curl -sf -o /dev/null "$WEFT_URL/healthz" && break
	sleep 0.1
done

rpath=/researchers/$(psql_p "SELECT id || '-' || slug FROM researchers
    WHERE paper_count > 0 ORDER BY paper_count DESC, id LIMIT 1")
ppath=$(curl -s -o /dev/null -w '%{redirect_url}' "$WEFT_URL/papers/$(psql_p \
    "SELECT arxiv_id FROM papers ORDER BY id LIMIT 1")")
ppath=/${ppath#"$WEFT_URL"/}
get "$ppath"
is_status 200 "a paper page through the balancer"
get /readyz
is_status 200 "/readyz: database and Redis reachable"

# Reads on the replica, writes on the primary (pg_stat_activity).
apps() { "$1" "SELECT coalesce(string_agg(DISTINCT application_name, ' '
    ORDER BY application_name), '') FROM pg_stat_activity
    WHERE application_name LIKE 'weft-%'"; }
for u in "$A$rpath" "$B$rpath" "$A/account/nav" "$B/account/nav"; do
	curl -s -o /dev/null "$u"
done
say "connections on the replica: $(apps psql_r)"
say "connections on the primary: $(apps psql_p)"
[ "$(apps psql_r)" = "weft-a-read weft-b-read" ]
ok $? "both hosts read from the replica"
case " $(apps psql_p) " in
*" weft-a-read "* | *" weft-b-read "*) ok 1 "no reader on the primary" "$(apps psql_p)" ;;
*) ok 0 "no reader on the primary" ;;
esac

# ---------------------------------------------------------------- spread
cat >"$tmp/load.lua" <<'LUA'
-- Cycles MH_PATHS; tallies the statuses over all threads.
local paths = {}
for p in string.gmatch(os.getenv("MH_PATHS") or "/", "%S+") do
	paths[#paths + 1] = p
end
local threads = {}
local n = 0
counts = {}
function setup(thread)
	threads[#threads + 1] = thread
end
function request()
	n = n + 1
	return wrk.format("GET", paths[(n % #paths) + 1])
end
function response(status, headers, body)
	counts[status] = (counts[status] or 0) + 1
end
function done(summary, latency, requests)
	local total = {}
	for _, t in ipairs(threads) do
		for k, v in pairs(t:get("counts")) do
			total[k] = (total[k] or 0) + v
		end
	end
	for k, v in pairs(total) do
		io.write(string.format("status %d %d\n", k, v))
	end
	io.write(string.format("errors %d\n", summary.errors.connect +
	    summary.errors.read + summary.errors.write +
	    summary.errors.timeout + summary.errors.status))
end
LUA
mix="$rpath $ppath / /researchers /institutions /rss/latest.xml"
load() { # load SECONDS OUTFILE
	MH_PATHS=$mix wrk -t2 -c16 -d"$1"s --timeout 10s -s "$tmp/load.lua" \
	    "$WEFT_URL" >"$2" 2>&1
}
# Requests answered by a host's workers (its /metrics, through its probe;
# the scrape itself is not counted: it is unrouted).
served() {
	curl -s "$1/metrics" | awk '/^weft_requests_total/ &&
	    !/route="\(unrouted\)"/ { n += $NF } END { print n + 0 }'
}
a0=$(served "$A")
b0=$(served "$B")
load 5 "$tmp/spread.out"
a1=$(served "$A")
b1=$(served "$B")
da=$((a1 - a0))
db=$((b1 - b0))
total=$(awk '$1 == "status" { n += $3 } END { print n + 0 }' "$tmp/spread.out")
say "spread: $total requests through the balancer; host A served $da, host B $db"
[ "$da" -gt $((total / 5)) ] && [ "$db" -gt $((total / 5)) ]
ok $? "requests spread over both hosts (A $da, B $db of $total)"
[ "$((da + db))" -ge "$total" ]
ok $? "every request was answered by one of them"

# ---------------------------------------------------------------- follows
# Sign up and follow through host A, read back through host B at once:
# accounts reads and writes on the primary (db.accounts), so the user
# sees their own write whatever the replica's lag.
csrf() { grep -o 'name="csrf" value="[0-9a-f]*"' "$BODY" | head -1 |
    sed 's/.*value="//; s/"$//'; }
same=(-H "Origin: $WEFT_URL")
email="multihost.$$@example.org"
pw="a long enough passphrase $$"
rid=$(psql_p "SELECT id FROM researchers WHERE paper_count > 0
    ORDER BY paper_count DESC, id LIMIT 1")
WEFT_ORIGIN=http://127.0.0.1:$LB_PORT WEFT_URL=$A signup_verified "$email" "$pw"
ok $? "sign up (and verify the address) through host A" \
    "last status $STATUS, $(ls "$tmp/mail/new" | wc -l) mails, $(tail -c 300 "$BODY")"
WEFT_URL=$A get "/account/follow/$rid"
WEFT_URL=$A post "/researchers/$rid/follow" "${same[@]}" \
    --data-urlencode "csrf=$(csrf)"
is_status 303 "follow researcher $rid through host A"
WEFT_URL=$B get "/account/follow/$rid"
is_status 200 "host B: the follow fragment"
body_has "action=\"/researchers/$rid/unfollow\"" "host B reads the follow back at once"
WEFT_URL=$B get /account -H 'Accept: application/json'
json_is "any(.following[]; (.id | tostring) == \"$rid\")" true "host B: /account lists it"
WEFT_URL=$B get "$rpath"
body_has 'Following — unfollow' "host B: the researcher page (SSI) shows it"
metric() { # metric URL MODULE ROUTE-SUBSTRING STATUS
	curl -s "$1/metrics" | awk -v m="module=\"$2\"" -v r="$3" \
	    -v s="status=\"$4\"" '/^weft_requests_total/ && index($0, m) &&
	    index($0, r) && index($0, s) { n += $NF } END { print n + 0 }'
}
# POST /researchers/{id}/follow is the accounts route "/researchers/*".
[ "$(metric "$A" accounts 'route="/researchers/*"' 303)" = 1 ] &&
    [ "$(metric "$B" accounts 'route="/researchers/*"' 303)" = 0 ]
ok $? "the write went through host A only"
uid=$(psql_p "SELECT id FROM users WHERE email = '$email'")
[ "$(psql_p "SELECT count(*) FROM follows WHERE user_id = $uid AND researcher_id = $rid")" = 1 ]
ok $? "the follow is on the primary"
rep=1
for _ in $(seq 50); do
	[ "$(psql_r "SELECT count(*) FROM follows WHERE user_id = $uid")" = 1 ] &&
	    { rep=0; break; }
	sleep 0.1
done
ok $rep "... and reaches the replica"
cookiejar=$JAR

# ---------------------------------------------------------------- cache
# Both hosts cache the paper page in the one Redis; a write on the
# primary and a generation bump (what the harvester does) make both
# render it afresh from the replica.
for u in "$A" "$B" "$A" "$B"; do curl -s -o /dev/null "$u$ppath"; done
WEFT_URL=$B get "$ppath"
header_is X-Weft-Cache hit "host B serves the page host A cached (one Redis)"
mark="mh-mark-$$"
psql_p "UPDATE papers SET abstract = abstract || ' $mark'
    WHERE arxiv_id = '$(echo "${ppath#/papers/}" | cut -d- -f1)'"
lsn=$(psql_p "SELECT pg_current_wal_lsn()")
for _ in $(seq 100); do
	[ "$(psql_r "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn")" = t ] && break
	sleep 0.05
done
rcli INCR weft:gen >/dev/null
sleep 1.1 # the workers re-read the generation once a second
WEFT_URL=$A get "$ppath"
body_has "$mark" "after the bump host A shows the change"
WEFT_URL=$B get "$ppath"
body_has "$mark" "... and so does host B"

# ---------------------------------------------------------------- kill A
# Host A dies (every process, kill -9) under load: nginx retries each GET
# on host B, so none is lost.
load 8 "$tmp/kill.out" &
wrk_pid=$!
sleep 3
killed=0
for m in $modules; do
	p=$(cat "$tmp/host-a/run/weftd-$m.pid")
	kill -KILL -- "-$p" 2>/dev/null && killed=$((killed + 1))
done
wait "$wrk_pid"
wrk_pid=
say "kill: $(awk '{ printf "%s ", $0 }' "$tmp/kill.out" | grep -o 'status.*')"
port_free $A_BASE && port_free $((A_BASE + 1)) && port_free $((A_BASE + 2))
ok $? "host A is gone ($killed process groups killed)"
k_total=$(awk '$1 == "status" { n += $3 } END { print n + 0 }' "$tmp/kill.out")
k_200=$(awk '$1 == "status" && $2 == 200 { print $3 }' "$tmp/kill.out")
[ "$k_total" -gt 100 ] && [ "$k_200" = "$k_total" ]
ok $? "killing host A lost no GET: $k_200 of $k_total answered 200" \
    "$(cat "$tmp/kill.out")"
[ "$(awk '$1 == "errors" { print $2 }' "$tmp/kill.out")" = 0 ]
ok $? "... and no socket error or timeout"
get "$rpath?after-kill=$$"
is_status 200 "host B alone serves the site"

# ---------------------------------------------------------------- Sentinel
# The Sentinel promotes the Redis replica: host B's next connection asks
# it for the primary, so its cache writes go to the new one (a write to
# the demoted one would answer READONLY) and it serves hits again.
redis-cli -p $RD_SENTINEL -a "$rdpw" --no-auth-warning \
    SENTINEL failover weft >/dev/null
for _ in $(seq 100); do
	[ "$(rd_primary_port)" = $RD_REPLICA ] &&
	    [ "$(rd_port=$RD_REPLICA rcli ROLE | head -1)" = master ] && break
	sleep 0.1
done
[ "$(rd_port=$RD_REPLICA rcli ROLE | head -1)" = master ]
ok $? "Sentinel failover: the Redis replica is the primary now"
rd_port=$RD_REPLICA
rcli INCR weft:gen >/dev/null
sleep 1.1
fo=fo-$$
served=
for _ in $(seq 30); do
	curl -s -o /dev/null "$WEFT_URL$rpath?$fo"
	WEFT_URL=$B get "$rpath?$fo"
	[ "$(header X-Weft-Cache)" = hit ] && { served=1; break; }
	sleep 0.2
done
[ -n "$served" ]
ok $? "... and host B caches in it (a hit after the failover)"
[ "$(rcli DBSIZE)" -gt 0 ]
ok $? "... the new primary holds the cached pages ($(rcli DBSIZE) keys)"

# ---------------------------------------------------------------- replica
# The replica stops: the readers' next query finds it gone, libpq's
# host list falls through to the primary (prefer-standby), pages stay 200.
aspg "$pgbin/pg_ctl" -D "$tmp/pg/replica" -m fast -w stop >/dev/null
! psql_r "SELECT 1" >/dev/null 2>&1
ok $? "the replica is stopped"
bad=0
for p in $mix; do
	for q in 1 2 3; do # past Redis: a query string not seen before
		s=$(curl -s -o /dev/null -w '%{http_code}' \
		    "$WEFT_URL$p?replica-down=$q$$")
		[ "$s" = 200 ] || bad=$((bad + 1))
	done
done
[ "$bad" = 0 ]
ok $? "replica down: every page still 200 ($bad failed)"
JAR=$cookiejar
get "/account/follow/$rid"
body_has "action=\"/researchers/$rid/unfollow\"" "replica down: the user's follow still shown"
say "connections on the primary now: $(apps psql_p)"
case " $(apps psql_p) " in
*" weft-b-read "*) ok 0 "reads moved to the primary" ;;
*) ok 1 "reads moved to the primary" "$(apps psql_p)" ;;
esac
load 3 "$tmp/replica.out"
r_total=$(awk '$1 == "status" { n += $3 } END { print n + 0 }' "$tmp/replica.out")
r_200=$(awk '$1 == "status" && $2 == 200 { print $3 }' "$tmp/replica.out")
[ "$r_total" -gt 0 ] && [ "$r_200" = "$r_total" ]
ok $? "replica down, under load: $r_200 of $r_total answered 200"

# ---------------------------------------------------------------- no Redis
# Every Redis gone: pages still answer from the database, and the log
# says why they are not cached.
for p in $RD_SENTINEL $RD_REPLICA $RD_PRIMARY; do
	redis-cli -p "$p" -a "$rdpw" --no-auth-warning shutdown nosave \
	    >/dev/null 2>&1
done
bad=0
for q in 1 2 3; do
	s=$(curl -s -o /dev/null -w '%{http_code}' "$WEFT_URL$rpath?noredis=$q$$")
	[ "$s" = 200 ] || bad=$((bad + 1))
done
[ "$bad" = 0 ]
ok $? "no Redis at all: pages still 200 ($bad failed)"
grep -hq 'cannot connect\|no Sentinel named a primary' \
    "$tmp"/host-b/log/*.log 2>/dev/null
ok $? "... and host B's log says Redis is gone"

say "finished in $(($(date +%s) - t_start)) s after the build"
done_testing
