#!/bin/bash
# t_accounts_ipv6.sh -- an IPv6 client is its /64 for the sign-in limits,
# and an IPv4-mapped address is its IPv4 one (issue 18).  Before the fix
# each full IPv6 address had its own counter, so a client cycling through
# the 2^64 addresses of its prefix was never limited.
#
# The stack's nginx listens on 127.0.0.1 only.  To send IPv6 client
# addresses through nginx this test starts a second, private nginx with
# the stack's own upstreams and locations (the same workers), listening
# on a unix socket and taking the client address from X-Forwarded-For
# (real_ip, trusted from that socket only); the workers see it as
# REMOTE_ADDR exactly as they would a real IPv6 peer's.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"

rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
rl_reset() {
	rcli --scan --pattern 'weft:rl:*' | while read -r k; do
		rcli del "$k" >/dev/null
	done
}
csrf() { grep -o 'name="csrf" value="[0-9a-f]*"' "$BODY" | head -1 |
    sed 's/.*value="//; s/"$//'; }

# ---------------------------------------------------------------- nginx
# In WEFT_VAR, not T_TMP: nginx's workers (www-data) must reach it.
d=$(mktemp -d "$WEFT_VAR/t_ipv6.XXXXXX")
chmod 755 "$d"
sock=$d/http.sock
stop() {
	[ -f "$d/nginx.pid" ] && nginx -p "$d" -c "$d/nginx.conf" -s stop 2>/dev/null
	sleep 0.2
	rm -rf "$d" "$T_TMP"
}
trap stop EXIT
user=
[ "$(id -u)" = 0 ] && user="user www-data www-data;"
# The stack's upstreams, with any cache zone moved to this instance.
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
nginx -p "$d" -c "$d/nginx.conf" 2>"$d/start.err"
ok $? "a private nginx with real_ip starts" "$(cat "$d/start.err")"
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done

same=(-H "Origin: $WEFT_URL")
n=$$$RANDOM
pw="ipv6 passphrase $n"
# from ADDR EMAIL: one sign-in attempt (no such account: 401 unless
# limited) by client ADDR, in a fresh browser.
from() {
	JAR=$T_TMP/jar.$RANDOM
	get /signin --unix-socket "$sock" -H "X-Forwarded-For: $1"
	post /signin --unix-socket "$sock" -H "X-Forwarded-For: $1" \
	    "${same[@]}" --data-urlencode "email=$2" \
	    --data-urlencode "password=$pw" --data-urlencode "csrf=$(csrf)"
}

rl_reset
from 2001:db8:5:1::1 "probe.$n@example.org"
is_status 401 "the private nginx reaches the accounts workers"
rl_reset

# ---------------------------------------------------------------- /64
# Ten attempts from ten addresses of one /64, each at another account,
# so only the per-client counter can add up.
codes=
for i in 1 2 3 4 5 6 7 8 9 a; do
	from "2001:db8:5:1:$i:$i:$i:$i" "v6.$i.$n@example.org"
	codes="$codes $STATUS"
done
[ "$codes" = "$(printf ' 401%.0s' $(seq 10))" ]
ok $? "ten attempts from one /64: 401 each" "$codes"
from 2001:db8:5:1:ffff:ffff:ffff:ffff "v6.b.$n@example.org"
is_status 429 "the 11th, from yet another address of the /64: 429"
ra=$(header Retry-After)
[ -n "$ra" ] && [ "$ra" -ge 1 ] && [ "$ra" -le 60 ]
ok $? "Retry-After ($ra)"
v=$(rcli get 'weft:rl:signin:ip:2001:db8:5:1::/64')
[ "${v:-0}" -ge 11 ]
ok $? "one counter for the /64" "$(rcli --scan --pattern 'weft:rl:signin:ip:*')"
from 2001:db8:5:2::1 "v6.c.$n@example.org"
is_status 401 "the next /64 is another client"
from 2001:db8:5:0:ffff:ffff:ffff:ffff "v6.d.$n@example.org"
is_status 401 "so is the one before"

# ---------------------------------------------------------------- mapped
# ::ffff:192.0.2.9 is the IPv4 client 192.0.2.9 on a dual-stack socket.
rl_reset
codes=
for i in $(seq 10); do
	from ::ffff:192.0.2.9 "v4.$i.$n@example.org"
	codes="$codes $STATUS"
done
[ "$codes" = "$(printf ' 401%.0s' $(seq 10))" ]
ok $? "ten attempts from ::ffff:192.0.2.9" "$codes"
from 192.0.2.9 "v4.b.$n@example.org"
is_status 429 "then 192.0.2.9 itself: the same client"
from 192.0.2.10 "v4.c.$n@example.org"
is_status 401 "192.0.2.10: another client (IPv4: per address)"

rl_reset
done_testing
