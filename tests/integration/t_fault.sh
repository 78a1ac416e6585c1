#!/bin/bash
# t_fault.sh -- faults under load (issue 6, "Faults").  With nginx's own
# cache switched on, 64 connections of mixed pages run for about 20 s
# while a pages worker is killed (kill -9), Redis is stopped and started
# again, PostgreSQL is stopped and started again, and nginx is reloaded.
#
# Two wrk runs of 32 connections each share the load:
#   cached    the six pages, warmed first, so that nginx holds them:
#             not a single 5xx is allowed;
#   uncached  the same pages with a query string never seen before, so
#             that neither nginx nor Redis can answer: the only 5xx
#             allowed is 503 with Retry-After (while PostgreSQL is down).
# Meanwhile: with Redis down pages are 200 and sign-in works; with
# PostgreSQL down a cached page is 200 and an uncached one 503 with
# Retry-After, as JSON for a JSON client.  Afterwards every account and
# follow is still there and the service resumed by itself.
#
# Bounded (about a minute), loopback only.  Restores what it changed
# (nginx's cache off, Redis and PostgreSQL running) even on failure.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}" "${WEFT_ROOT:?WEFT_ROOT must be set}"

port=${WEFT_URL##*:}
port=${port%%/*}
pgbin=/usr/lib/postgresql/15/bin
ngx() { nginx -p "$WEFT_VAR/nginx" -c "$WEFT_VAR/nginx/nginx.conf" "$@"; }
rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }

pg_up() {
	aspg "$pgbin/pg_ctl" -D "$WEFT_VAR/pg/data" status >/dev/null 2>&1 ||
	    aspg "$pgbin/pg_ctl" -D "$WEFT_VAR/pg/data" \
	    -l "$WEFT_VAR/pg/server.log" -w start >/dev/null
}
pg_stop() {
	aspg "$pgbin/pg_ctl" -D "$WEFT_VAR/pg/data" -m fast -w stop >/dev/null
}
# As conf/local.sh starts it.
redis_up() {
	rcli ping >/dev/null 2>&1 && return 0
	redis-server --port 0 --unixsocket "$WEFT_VAR/redis/redis.sock" \
	    --unixsocketperm 777 --save '' --appendonly no --daemonize yes \
	    --pidfile "$WEFT_VAR/redis/redis.pid" \
	    --logfile "$WEFT_VAR/redis/redis.log" \
	    --dir "$WEFT_VAR/redis" >/dev/null
	for _ in $(seq 50); do
		rcli ping >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}
# nginx's cache on|off: regenerate and reload (what the test stack runs
# is the generated file).
nginx_cache() {
	WEFT_NGINX_CACHE=$1 "$WEFT_ROOT/nginx/gen.sh" local "$WEFT_VAR" \
	    "$port" && ngx -s reload 2>/dev/null
	# The old workers finish; new ones read the new file.
	sleep 1
}

wrk_pids=
cleanup() {
	local p
	for p in $wrk_pids; do kill "$p" 2>/dev/null; done
	redis_up >/dev/null 2>&1
	pg_up >/dev/null 2>&1
	nginx_cache off >/dev/null 2>&1
	rm -rf "$T_TMP"
}
trap cleanup EXIT

# The signed-up user of this run, with a cookie jar of their own.
csrf() { grep -o 'name="csrf" value="[0-9a-f]*"' "$BODY" | head -1 |
    sed 's/.*value="//; s/"$//'; }
same=(-H "Origin: $WEFT_URL")
email="fault.$$.$RANDOM@example.org"
pw="a long enough passphrase $$"
rcli --scan --pattern 'weft:rl:*' | while read -r k; do
	rcli del "$k" >/dev/null
done

# Page requests are anonymous (an empty jar): a session cookie would
# bypass nginx's cache.  The user's requests use their own jar.
ANON=$T_TMP/anon
UJAR=$T_TMP/user
as_user() { local keep=$JAR; JAR=$UJAR; "$@"; JAR=$keep; }
signin() {
	rm -f "$UJAR"
	as_user get /signin
	as_user post /signin "${same[@]}" --data-urlencode "email=$email" \
	    --data-urlencode "password=$pw" --data-urlencode "csrf=$(csrf)"
}

# ---------------------------------------------------------------- before
JAR=$UJAR
signup_verified "$email" "$pw"
ok $? "sign up a user through the accounts forms (and the mail)"
uid=$(sql "SELECT id FROM users WHERE email = '$email'")
mapfile -t rids < <(sql "SELECT id FROM researchers WHERE paper_count > 0
    ORDER BY paper_count DESC, id LIMIT 3")
for r in "${rids[@]}"; do
	get "/account/follow/$r"
	post "/researchers/$r/follow" "${same[@]}" --data-urlencode "csrf=$(csrf)"
done
[ -n "$uid" ] && [ "$(sql "SELECT count(*) FROM follows WHERE user_id = $uid")" = 3 ]
ok $? "the user follows three researchers"
users0=$(sql "SELECT count(*) FROM users")
follows0=$(sql "SELECT count(*) FROM follows")
JAR=$ANON
fsum0=$(sql "SELECT md5(string_agg(user_id || ':' || researcher_id, ',' ORDER BY 1)) FROM follows")
usum0=$(sql "SELECT md5(string_agg(id || ':' || email || ':' || password_hash, ',' ORDER BY id)) FROM users")

rpath=/researchers/$(sql "SELECT id || '-' || slug FROM researchers
    WHERE paper_count > 0 ORDER BY paper_count DESC, id LIMIT 1")
ppath=$(curl -s -o /dev/null -w '%{redirect_url}' "$WEFT_URL/papers/$(sql \
    "SELECT arxiv_id FROM papers ORDER BY id LIMIT 1")")
ppath=/${ppath#"$WEFT_URL"/}
paths="$rpath $ppath / /researchers /institutions /rss/latest.xml"
get "$ppath"
is_status 200 "the paper's canonical page ($ppath)"

# ---------------------------------------------------------------- cache on
nginx_cache on
grep -q 'fastcgi_cache weft_pages' "$WEFT_VAR/nginx/locations.conf"
ok $? "nginx's cache switched on for this test"
# Warm it: the workers' Redis copy first, then nginx's.
warm=0
for p in $paths; do
	for _ in 1 2; do
		curl -s -o /dev/null --max-time 20 -H 'Accept: text/html' \
		    "$WEFT_URL$p"
	done
	[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 20 \
	    -H 'Accept: text/html' "$WEFT_URL$p")" = 200 ] && warm=$((warm + 1))
done
[ "$warm" = 6 ]
ok $? "six pages warmed in nginx's cache ($warm)"

# ---------------------------------------------------------------- load
cat >"$T_TMP/load.lua" <<'LUA'
-- Cycles FAULT_PATHS; with FAULT_BUST=1 each request gets a query
-- string never used before (a miss in nginx's cache and in Redis).
-- Tallies statuses, and 503s that lack Retry-After.
local paths = {}
for p in string.gmatch(os.getenv("FAULT_PATHS") or "/", "%S+") do
	paths[#paths + 1] = p
end
local bust = os.getenv("FAULT_BUST") == "1"
local salt = os.getenv("FAULT_SALT") or "0"
local threads = {}
local n = 0
counts = {}
noretry = 0

function setup(thread)
	thread:set("tid", #threads)
	threads[#threads + 1] = thread
end

function request()
	n = n + 1
	local p = paths[(n % #paths) + 1]
	if bust then
		local sep = string.find(p, "?", 1, true) and "&" or "?"
		p = p .. sep .. "nc=" .. salt .. "-" .. tid .. "-" .. n
	end
	return wrk.format("GET", p, { ["Accept"] = "text/html" })
end

function response(status, headers, body)
	counts[status] = (counts[status] or 0) + 1
	if status == 503 and headers["Retry-After"] == nil and
	    headers["retry-after"] == nil then
		noretry = noretry + 1
	end
end

function done(summary, latency, requests)
	local total, nr = {}, 0
	for _, t in ipairs(threads) do
		for k, v in pairs(t:get("counts")) do
			total[k] = (total[k] or 0) + v
		end
		nr = nr + t:get("noretry")
	end
	for k, v in pairs(total) do
		io.write(string.format("status %d %d\n", k, v))
	end
	io.write(string.format("noretry %d\n", nr))
	-- Requests that never got an answer.  Read/write errors are not
	-- counted: nginx's reload closes idle keep-alive connections, which
	-- wrk reports as read errors although no request was lost.
	io.write(string.format("errors %d\n", summary.errors.connect +
	    summary.errors.timeout))
	io.write(string.format("closed %d\n", summary.errors.read +
	    summary.errors.write))
end
LUA

dur=20
FAULT_PATHS=$paths FAULT_BUST=0 wrk -t1 -c32 -d${dur}s --timeout 15s \
    -s "$T_TMP/load.lua" "$WEFT_URL" >"$T_TMP/cached.out" 2>&1 &
wrk_pids="$!"
FAULT_PATHS=$paths FAULT_BUST=1 FAULT_SALT=$$$RANDOM wrk -t1 -c32 \
    -d${dur}s --timeout 15s -s "$T_TMP/load.lua" "$WEFT_URL" \
    >"$T_TMP/uncached.out" 2>&1 &
wrk_pids="$wrk_pids $!"
t0=$(date +%s.%N)
at() { # waits until $1 seconds into the load
	local left
	left=$(echo "$1 - ($(date +%s.%N) - $t0)" | bc -l)
	case "$left" in -*|0) ;; *) sleep "$left" ;; esac
}

# ---- a worker killed: weftd respawns it, nginx retries the GETs.
at 2
parent=$(cat "$WEFT_VAR/run/weftd-pages.pid")
nkids=$(pgrep -P "$parent" | wc -l)
victim=$(pgrep -P "$parent" | head -1)
kill -9 "$victim"
fparent=$(cat "$WEFT_VAR/run/weftd-feeds.pid")
kill -9 "$(pgrep -P "$fparent" | head -1)"

# ---- Redis down: pages still served (uncached), sign-in still works.
at 4
rcli shutdown nosave >/dev/null 2>&1
sleep 0.5
! rcli ping >/dev/null 2>&1
ok $? "Redis is down"
get "$rpath?redis-down=$$" -H 'Accept: text/html'
is_status 200 "Redis down: an uncached page is still 200"
header_absent X-Weft-Cache "Redis down: the page was rendered without the cache"
signin
is_status 303 "Redis down: sign-in still works"
as_user get /account -H 'Accept: application/json'
json_is '.following | length' 3 "Redis down: signed in, three follows"
redis_up
ok $? "Redis started again"

# ---- PostgreSQL down: cached pages from nginx, others 503 + Retry-After.
at 8
pg_stop
! aspg "$pgbin/pg_ctl" -D "$WEFT_VAR/pg/data" status >/dev/null 2>&1
ok $? "PostgreSQL is down"
get "$rpath" -H 'Accept: text/html'
is_status 200 "PostgreSQL down: a cached page is 200 (from nginx)"
get "$rpath?pg-down=$$" -H 'Accept: application/json'
is_status 503 "PostgreSQL down: an uncached page is 503"
header_is Retry-After 5 "... with Retry-After"
header_has Content-Type application/json "... as JSON for a JSON client"
json_is '.error.status' 503 "... a JSON error object"
json_is '.error.message | length > 0' true "... with a message"
get "$ppath?pg-down=$$" -H 'Accept: text/markdown'
is_status 503 "PostgreSQL down: 503 for a markdown client too"
header_has Content-Type text/markdown "... in markdown"
get "$ppath?pg-down=$$" -H 'Accept: text/html'
header_has Content-Type text/html "... and in HTML for a browser"
get /readyz
is_status 503 "/readyz says not ready"
at 11
pg_up
ok $? "PostgreSQL started again"

# ---- nginx reloaded under load.
at 14
ngx -s reload 2>/dev/null
ok $? "nginx reloaded under load"

wait $wrk_pids
wrk_pids=

# ---------------------------------------------------------------- counts
count() { awk -v s="$2" '$1 == "status" && $2 == s { print $3 }' "$1"; }
fivexx() { awk '$1 == "status" && $2 >= 500 { n += $3 } END { print n + 0 }' "$1"; }
total() { awk '$1 == "status" { n += $3 } END { print n + 0 }' "$1"; }
other5xx() { awk '$1 == "status" && $2 >= 500 && $2 != 503 { n += $3 }
    END { print n + 0 }' "$1"; }
field() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
for k in cached uncached; do
	printf '# %-8s %s\n' "$k" "$(awk '$1 == "status" { printf "%s=%s ", $2, $3 }
	    $1 == "noretry" || $1 == "errors" || $1 == "closed" { printf "%s=%s ", $1, $2 }' \
	    "$T_TMP/$k.out")"
done
c_total=$(total "$T_TMP/cached.out")
u_total=$(total "$T_TMP/uncached.out")
[ "$c_total" -gt 500 ] && [ "$u_total" -gt 50 ]
ok $? "the load ran ($c_total cached, $u_total uncached requests)" \
    "$(cat "$T_TMP/cached.out" "$T_TMP/uncached.out")"
c5=$(fivexx "$T_TMP/cached.out")
[ "$c5" = 0 ]
ok $? "cached pages: no 5xx through every fault ($c5)"
[ "$(field "$T_TMP/cached.out" errors)" = 0 ]
ok $? "cached pages: no connect errors or timeouts"
[ "$(count "$T_TMP/cached.out" 200)" = "$c_total" ]
ok $? "cached pages: every response 200"
u5=$(other5xx "$T_TMP/uncached.out")
[ "$u5" = 0 ]
ok $? "uncached pages: no 5xx other than 503 ($u5)"
u503=$(count "$T_TMP/uncached.out" 503)
[ "${u503:-0}" -gt 0 ]
ok $? "uncached pages: 503 while PostgreSQL was down (${u503:-0})"
[ "$(field "$T_TMP/uncached.out" noretry)" = 0 ]
ok $? "uncached pages: every 503 carried Retry-After"
[ "$(field "$T_TMP/uncached.out" errors)" = 0 ]
ok $? "uncached pages: no connect errors or timeouts"
u200=$(count "$T_TMP/uncached.out" 200)
[ "$((u200 + ${u503:-0}))" = "$u_total" ]
ok $? "uncached pages: nothing but 200 and 503"

# ---------------------------------------------------------------- after
kids=0
for _ in $(seq 30); do
	kids=$(pgrep -P "$parent" | wc -l)
	[ "$kids" -ge "$nkids" ] && break
	sleep 0.2
done
[ "$kids" -ge "$nkids" ] && ! pgrep -P "$parent" | grep -qx "$victim"
ok $? "weftd replaced the killed worker ($kids of $nkids)"
resumed=1
for _ in $(seq 50); do
	s1=$(curl -s -o /dev/null -w '%{http_code}' "$WEFT_URL$rpath?after=$$")
	s2=$(curl -s -o /dev/null -w '%{http_code}' "$WEFT_URL/readyz")
	[ "$s1" = 200 ] && [ "$s2" = 200 ] && { resumed=0; break; }
	sleep 0.2
done
ok $resumed "service resumed by itself (an uncached page and /readyz 200)"
bad=0
for p in $paths; do
	s=$(curl -s -o /dev/null -w '%{http_code}' "$WEFT_URL$p?after2=$$")
	[ "$s" = 200 ] || bad=$((bad + 1))
done
[ "$bad" = 0 ]
ok $? "every page of the mix rendered again ($bad failed)"
get "/researchers?after=$$" -H 'Accept: text/html'
header_is X-Weft-Cache miss "the workers use Redis again"

[ "$(sql "SELECT count(*) FROM users")" = "$users0" ] &&
    [ "$(sql "SELECT md5(string_agg(id || ':' || email || ':' || password_hash, ',' ORDER BY id)) FROM users")" = "$usum0" ]
ok $? "every account still there ($users0)"
[ "$(sql "SELECT count(*) FROM follows")" = "$follows0" ] &&
    [ "$(sql "SELECT md5(string_agg(user_id || ':' || researcher_id, ',' ORDER BY 1)) FROM follows")" = "$fsum0" ]
ok $? "every follow still there ($follows0)"
signin
is_status 303 "the user signs in again"
as_user get /account -H 'Accept: application/json'
json_is "[.following[].id] | sort | map(tostring) | join(\",\")" \
    "$(printf '%s\n' "${rids[@]}" | sort -n | paste -sd,)" \
    "their three follows, through the site"

nginx_cache off
grep -q 'fastcgi_cache off' "$WEFT_VAR/nginx/locations.conf"
ok $? "nginx's cache switched off again"
done_testing
