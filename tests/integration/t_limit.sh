#!/bin/bash
# t_limit.sh -- fair use (issue 22): a client past its read limit gets
# 429 with Retry-After, RateLimit-Policy and RateLimit in the
# representation it asked for; pages served from a cache are never
# limited (Redis's, and nginx's, which answers without a worker); an
# IPv6 client is its /64; with Redis gone reads pass and the log says so.
#
# The stack exempts 127.0.0.1 (conf/local.sh: the other tests); each
# client here is another loopback address (curl --interface).
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"
: "${WEFT_ROOT:?WEFT_ROOT must be set}"

rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
rb_reset() {
	rcli --scan --pattern 'weft:rb:*' | while read -r k; do
		rcli del "$k" >/dev/null
	done
}
port=${WEFT_URL##*:}
port=${port%%/*}
ngx() { nginx -p "$WEFT_VAR/nginx" -c "$WEFT_VAR/nginx/nginx.conf" "$@"; }
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
trap 'redis_up; rm -rf "$T_TMP"' EXIT

# The limits as the site states them (llms.txt, from weft.conf).
get /llms.txt
q=$(grep -o 'RateLimit-Policy: "read";q=[0-9]*;w=[0-9]*' "$BODY" |
    head -1 | sed 's/.*q=\([0-9]*\);.*/\1/')
w=$(grep -o 'RateLimit-Policy: "read";q=[0-9]*;w=[0-9]*' "$BODY" |
    head -1 | sed 's/.*w=//')
[ -n "$q" ] && [ "$q" -gt 0 ]
ok $? "llms.txt states the read limit" "q=$q w=$w"

# burn ADDR N: N reads that reach a worker (404s: never cached) from
# ADDR, on one connection; prints their statuses, one a line.
burn() {
	local addr=$1 n=$2 i urls=()
	for i in $(seq "$n"); do
		urls+=(-o /dev/null "$WEFT_URL/no-such-page-$$-$RANDOM-$i")
	done
	curl -s -g --interface "$addr" -w '%{http_code}\n' "${urls[@]}"
}
# limited PATH CURL-ARGS...: as get, from client $a, right after ten
# reads on the same connection that take whatever the bucket refilled
# (one token each w/q seconds: starting curl takes about that here).
limited() {
	local path=$1 i pre=()
	shift
	for i in $(seq 10); do
		pre+=(-o /dev/null "$WEFT_URL/no-such-page-$$-d$i")
	done
	: >"$BODY"
	STATUS=$(curl -s -g --interface "$a" "${pre[@]}" --next -s -g \
	    --interface "$a" -o "$BODY" -D "$T_TMP/raw" -w '%{http_code}' \
	    "$@" "$WEFT_URL$path") || STATUS=000
	tr -d '\r' <"$T_TMP/raw" | awk -F': ' 'NR>1 && NF>1 {
	    printf "%s: %s\n", tolower($1), substr($0, length($1) + 3) }' >"$HDRS"
}

# refused PATH CURL-ARGS...: limited, up to three times until it is
# refused, each time another URL (a read that passed may be cached).
# A delay on the server between the ten reads and the last (a worker
# started again after a crash or a reload accepts its first request
# only once it has connected) refills a token every w/q seconds, which
# the last one then takes: a timing, not a limit that fails open,
# which would pass all three.
refused() {
	local path=$1 i sep='?'
	shift
	case $path in *\?*) sep='&' ;; esac
	limited "$path" "$@"
	for i in 2 3; do
		[ "$STATUS" != 429 ] || return 0
		limited "$path${sep}try=$i" "$@"
	done
}

rb_reset
a=127.0.0.$((100 + RANDOM % 100))
# A page in Redis's cache before the client runs out.
get "/about?limit-cached=$$" -H 'Accept: text/html'
get "/about?limit-cached=$$" -H 'Accept: text/html'
header_is x-weft-cache hit "setup: /about is in the page cache"

codes=$(burn "$a" "$q")
[ "$(echo "$codes" | grep -cv '^404$')" = 0 ]
ok $? "$q reads within the limit all pass" "$(echo "$codes" | sort | uniq -c)"

# ---------------------------------------------------------- 429, three ways
refused "/no-such-page-$$" -H 'Accept: text/html'
is_status 429 "past the limit: 429"
header_has content-type "text/html" "in HTML for a browser"
body_has "Too Many Requests" "the page says so"
ra=$(header retry-after)
[ -n "$ra" ] && [ "$ra" -ge 1 ] && [ "$ra" -le "$w" ]
ok $? "Retry-After is 1..$w seconds" "$ra"
header_is ratelimit-policy "\"read\";q=$q;w=$w" "RateLimit-Policy"
header_is ratelimit "\"read\";r=0;t=$ra" "RateLimit: none left, t = Retry-After"
header_is cache-control "no-store" "a 429 is never stored"

refused "/search?q=limit$$" -H 'Accept: text/markdown'
is_status 429 "markdown: 429"
header_has content-type "text/markdown" "in markdown for an agent"
body_has "# 429" "a markdown heading"
header_is ratelimit-policy "\"read\";q=$q;w=$w" "with RateLimit-Policy"
[ -n "$(header retry-after)" ]
ok $? "and Retry-After"

refused "/papers/2512.20345?format=json&limit=$$"
is_status 429 "JSON: 429"
json_is '.error.status' 429 "the JSON error object"
header_has ratelimit '"read";r=0;t=' "with RateLimit"

# ---------------------------------------------------------- caches
limited "/about?limit-cached=$$" -H 'Accept: text/html'
is_status 200 "a page from Redis's cache is not limited"
header_is x-weft-cache hit "(it was a cache hit)"
get "/no-such-page-$$" --interface 127.0.0.1
is_status 404 "another client (the exempt one) is not limited"

# nginx's cache: the page is kept by nginx, dropped from Redis's
# (a new generation); a worker would now answer 429, nginx answers 200.
WEFT_NGINX_CACHE=on "$WEFT_ROOT/nginx/gen.sh" local "$WEFT_VAR" "$port" &&
    ngx -s reload 2>/dev/null
sleep 1
get "/contact?nginx-cached=$$" -H 'Accept: text/html'
get "/contact?nginx-cached=$$" -H 'Accept: text/html'
rcli incr weft:gen >/dev/null
sleep 1.1 # workers re-read the generation at most once a second
limited "/contact?nginx-cached=$$" -H 'Accept: text/html'
is_status 200 "a page from nginx's cache is not limited (no worker saw it)"
refused "/contact?nginx-uncached=$$" -H 'Accept: text/html'
is_status 429 "while the same client's uncached read is"
WEFT_NGINX_CACHE=off "$WEFT_ROOT/nginx/gen.sh" local "$WEFT_VAR" "$port" &&
    ngx -s reload 2>/dev/null
sleep 1

# ---------------------------------------------------------- /metrics
get /metrics
body_has 'weft_read_limit_total{module="pages",result="limited"}' \
    "/metrics counts the refusals"

# ---------------------------------------------------------- IPv6 /64
# nginx here listens on 127.0.0.1 only: a second nginx with the stack's
# locations, taking the address from X-Forwarded-For on a unix socket
# (real_ip), shows the workers IPv6 clients (as t_accounts_ipv6.sh).
d=$(mktemp -d "$WEFT_VAR/t_limit.XXXXXX")
chmod 755 "$d"
sock=$d/http.sock
user=
[ "$(id -u)" = 0 ] && user="user www-data www-data;"
sed "s|$WEFT_VAR/nginx/cache|$d/cache|g" "$WEFT_VAR/nginx/upstreams.conf" \
    >"$d/upstreams.conf"
cat >"$d/nginx.conf" <<EOF
worker_processes 1;
pid $d/nginx.pid;
error_log $d/error.log warn;
$user
events { worker_connections 64; }
http {
	include /etc/nginx/mime.types;
	default_type application/octet-stream;
	access_log off;
	client_body_temp_path $d/body;
	proxy_temp_path $d/proxy;
	fastcgi_temp_path $d/fastcgi;
	uwsgi_temp_path $d/uwsgi;
	scgi_temp_path $d/scgi;
	include $d/upstreams.conf;
	server {
		listen unix:$sock;
		server_name localhost;
		set_real_ip_from unix:;
		real_ip_header X-Forwarded-For;
		include $WEFT_VAR/nginx/locations.conf;
	}
}
EOF
if nginx -p "$d" -c "$d/nginx.conf" 2>"$d/start.err"; then
	for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
	p=2001:db8:$((RANDOM % 9000 + 1000))
	v6() { curl -s -g --unix-socket "$sock" -H "X-Forwarded-For: $1" \
	    -w '%{http_code}\n' "${@:2}"; }
	urls=()
	for i in $(seq "$q"); do
		urls+=(-o /dev/null "http://localhost/no-such-v6-$$-$i")
	done
	codes=$(v6 "$p:1::1" "${urls[@]}")
	[ "$(echo "$codes" | grep -cv '^404$')" = 0 ]
	ok $? "IPv6: $q reads from $p:1::1 pass"
	# What refilled meanwhile goes, then another address of the /64
	# (one curl: starting one takes about a token's time here).
	[ "$(curl -s -g --unix-socket "$sock" -H "X-Forwarded-For: $p:1::1" \
	    "${urls[@]:0:30}" --next -s -g --unix-socket "$sock" \
	    -H "X-Forwarded-For: $p:1::abcd" -o /dev/null -w '%{http_code}' \
	    "http://localhost/no-such-v6-$$")" = 429 ]
	ok $? "another address of the same /64 is the same client: 429"
	[ "$(v6 "$p:2::1" -o /dev/null "http://localhost/no-such-v6-$$")" = 404 ]
	ok $? "the next /64 is another client"
	nginx -p "$d" -c "$d/nginx.conf" -s stop 2>/dev/null
else
	skip "IPv6: a private nginx would not start: $(cat "$d/start.err")"
fi
sleep 0.2
rm -rf "$d"

# ---------------------------------------------------------- Redis gone
log=$WEFT_VAR/log/pages.log
before=$(wc -l <"$log")
rcli shutdown nosave >/dev/null 2>&1
sleep 1.1
get "/no-such-page-$$" --interface "$a" -H 'Accept: text/html'
is_status 404 "Redis down: the limited client's read passes"
get "/about?redis-down=$$" --interface "$a"
is_status 200 "and a page renders"
tail -n +"$((before + 1))" "$log" | grep -q 'reads pass unlimited'
ok $? "the log says reads pass unlimited"
redis_up
ok $? "Redis restarts"
sleep 1.1
rb_reset
get "/no-such-page-$$" --interface "$a"
is_status 404 "with Redis back the limiter counts again"

done_testing
