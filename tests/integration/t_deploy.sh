#!/bin/bash
# t_deploy.sh -- one machine (issue 7): `make install` into a staging
# root, the systemd units checked by systemd-analyze, and the production
# nginx configuration (nginx/gen.sh production) run for real in a private
# nginx on loopback ports, with a self-signed certificate, in front of
# the test stack's workers: HTTP -> HTTPS, the security headers, gzip,
# /metrics from loopback, immutable hashed assets.  No systemd needed;
# bounded (a few seconds when the build is up to date).
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}" "${WEFT_ROOT:?WEFT_ROOT must be set}"

dep=$(mktemp -d)
chmod 755 "$dep" # nginx's workers read the static files under it
ngx_conf=$dep/nginx/nginx.conf
stop_nginx() {
	[ -f "$dep/nginx/nginx.pid" ] || return 0
	nginx -p "$dep/nginx" -c "$ngx_conf" -s quit 2>/dev/null
	for _ in $(seq 50); do
		[ -f "$dep/nginx/nginx.pid" ] || return 0
		sleep 0.1
	done
	kill "$(cat "$dep/nginx/nginx.pid")" 2>/dev/null
}
trap 'stop_nginx; rm -rf "$dep" "$T_TMP"' EXIT

# ---------------------------------------------------------------- install
# The test stack's build (its weft.conf names it), so that nothing is
# rebuilt: build-san under `make test`, a release build otherwise.
build=$(sed -n 's/^modules_dir = //p' "$WEFT_VAR/weft.conf")
build=$(basename "${build:-build}")
san=
case "$build" in *san*) san=SAN=1 ;; esac
dest=$dep/root
make -s -C "$WEFT_ROOT" install BUILD="$build" $san DESTDIR="$dest" \
    PREFIX=/usr >"$dep/install.log" 2>&1
ok $? "make install DESTDIR=… PREFIX=/usr" "$(tail -5 "$dep/install.log")"

missing=
for f in usr/sbin/weftd usr/bin/weft-harvest usr/bin/weft-vectors \
    usr/lib/weft/pages.so \
    usr/lib/weft/accounts.so usr/lib/weft/feeds.so \
    usr/share/weft/nginx/gen.sh usr/share/weft/nginx/locations.conf.in \
    usr/share/weft/nginx/production.conf.in \
    usr/share/weft/modules/pages/static/weft.css \
    usr/share/weft/content/about.md \
    usr/share/weft/postgresql/weft.conf \
    usr/share/weft/postgresql/sysctl.conf \
    etc/systemd/system/weft@.service \
    etc/systemd/system/weft-harvest.service \
    etc/systemd/system/weft-harvest.timer etc/weft/weft.conf; do
	[ -s "$dest/$f" ] || missing="$missing $f"
done
[ -z "$missing" ]
ok $? "installed files are in place" "missing:$missing"
[ -x "$dest/usr/sbin/weftd" ] && [ -x "$dest/usr/bin/weft-harvest" ] &&
    [ -x "$dest/usr/bin/weft-vectors" ] &&
    [ -x "$dest/usr/share/weft/nginx/gen.sh" ]
ok $? "programs are executable"
n=$(ls "$dest"/usr/share/weft/sql/schema/*.sql 2>/dev/null | wc -l)
[ "$n" = "$(ls "$WEFT_ROOT"/sql/schema/*.sql | wc -l)" ]
ok $? "every migration installed ($n)"
[ -n "$(ls "$dest/usr/share/weft/sql/data" 2>/dev/null)" ]
ok $? "the bundled dataset installed"
# The PostgreSQL settings the README installs into conf.d, read by
# PostgreSQL itself (-C reads the configuration and starts nothing): a
# misspelt name or a bad value fails here, not at the operator's
# restart.  The test stack's data directory lends it a cluster to read.
pgc=$dep/pgconf
mkdir -p "$pgc"
printf "include '%s'\n" "$dest/usr/share/weft/postgresql/weft.conf" \
    >"$pgc/postgresql.conf"
chmod 644 "$pgc/postgresql.conf"
got=$(aspg /usr/lib/postgresql/15/bin/postgres -D "$WEFT_VAR/pg/data" \
    -c config_file="$pgc/postgresql.conf" -C shared_buffers 2>&1)
[ "$got" = 524288 ]
ok $? "PostgreSQL reads the installed weft.conf (shared_buffers 4GB)" "$got"
grep -qx 'vm.nr_hugepages = [0-9]*' \
    "$dest/usr/share/weft/postgresql/sysctl.conf"
ok $? "the sysctl file reserves huge pages"
! grep -q '@PREFIX@' "$dest"/etc/systemd/system/weft* &&
    grep -q '^ExecStart=/usr/sbin/weftd -c /etc/weft/weft.conf -m %i$' \
    "$dest/etc/systemd/system/weft@.service" &&
    grep -q '^ExecStart=/usr/bin/weft-harvest' \
    "$dest/etc/systemd/system/weft-harvest.service" &&
    grep -q "^ExecStart=/bin/sh -c '/usr/bin/weft-vectors build & " \
    "$dest/etc/systemd/system/weft-harvest.service"
ok $? "units have PREFIX substituted"
grep -q '^modules_dir = /usr/lib/weft$' "$dest/etc/weft/weft.conf" &&
    grep -q '^sql_dir = /usr/share/weft/sql$' "$dest/etc/weft/weft.conf"
ok $? "weft.conf points into PREFIX"
echo "modules_dir = keep me" >"$dest/etc/weft/weft.conf"
make -s -C "$WEFT_ROOT" install BUILD="$build" $san DESTDIR="$dest" \
    PREFIX=/usr >/dev/null 2>&1
[ "$(cat "$dest/etc/weft/weft.conf")" = "modules_dir = keep me" ]
ok $? "a second install keeps the operator's weft.conf"
"$dest/usr/sbin/weftd" -c /dev/null -m nosuch -d "$dest/usr/lib/weft" \
    >/dev/null 2>&1 </dev/null
[ $? != 0 ]
ok $? "the installed weftd runs (and refuses an unknown module)"

# ---------------------------------------------------------------- units
if command -v systemd-analyze >/dev/null 2>&1; then
	# Exec paths pointed into the staging root (they do not exist at
	# /usr here); an instance of the template, as systemd would make.
	u=$dep/units
	mkdir -p "$u"
	for f in weft@.service weft-harvest.service weft-harvest.timer; do
		sed -E "s#^(Exec[A-Za-z]*=[-@:+!]*)/usr/#\1$dest/usr/#" \
		    "$dest/etc/systemd/system/$f" >"$u/$f"
	done
	cp "$u/weft@.service" "$u/weft@pages.service"
	out=$(cd "$u" && systemd-analyze verify ./weft@pages.service \
	    ./weft-harvest.service ./weft-harvest.timer 2>&1)
	ok $? "systemd-analyze verify: weft@pages, weft-harvest service and timer" "$out"
	[ -z "$out" ]
	ok $? "systemd-analyze has no warnings" "$out"
else
	echo "ok $((T_N + 1)) # SKIP systemd-analyze not installed"
	echo "ok $((T_N + 2)) # SKIP systemd-analyze not installed"
	T_N=$((T_N + 2))
fi

# ---------------------------------------------------------------- nginx
# A port nothing listens on (bash's /dev/tcp: no interpreter to start).
freeport() {
	local p
	while :; do
		p=$((20000 + RANDOM % 30000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || break
	done
	echo "$p"
}
mkdir -p "$dep/tls" "$dep/site" "$dep/nginx/log" "$dep/nginx/cache"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
    -keyout "$dep/tls/key.pem" -out "$dep/tls/cert.pem" >/dev/null 2>&1
ok $? "a self-signed certificate"
WEFT_SOCKET_DIR=$WEFT_VAR/run \
    "$dest/usr/share/weft/nginx/gen.sh" production "$dep/site" localhost \
    "$dest/usr/share/weft" "$dep/tls/cert.pem" "$dep/tls/key.pem"
ok $? "gen.sh production (the installed copy)"
grep -q "unix:$WEFT_VAR/run/pages.sock" "$dep/site/upstreams.conf" &&
    grep -q "ssl_certificate $dep/tls/cert.pem;" "$dep/site/weft.conf"
ok $? "sockets and certificate where they were asked for"
grep -q 'listen 80;' "$dep/site/weft.conf" &&
    grep -q 'listen 443 ssl' "$dep/site/weft.conf"
ok $? "production listens on 80 and 443"

# Loopback ports (ports_on: free ones, as generated listen 80 and 443),
# logs and cache inside the temporary directory.
cp "$dep/site/weft.conf" "$dep/weft.conf.generated"
ports_on() {
	hp=$(freeport)
	sp=$(freeport)
	while [ "$sp" = "$hp" ]; do sp=$(freeport); done
	sed -e "s|^\(\s*\)listen 80;|\1listen 127.0.0.1:$hp;|" \
	    -e "s|^\(\s*\)listen 443 ssl|\1listen 127.0.0.1:$sp ssl|" \
	    -e '/listen \[::\]/d' \
	    -e "s|/var/log/nginx/|$dep/nginx/log/|g" \
	    "$dep/weft.conf.generated" >"$dep/site/weft.conf"
}
ports_on
sed -i "s|/var/cache/nginx/weft|$dep/nginx/cache|" "$dep/site/upstreams.conf"
user=
[ "$(id -u)" = 0 ] && user="user www-data www-data;"
cat >"$ngx_conf" <<EOF
# A private nginx around the production site (what Debian's nginx.conf
# does with sites-enabled/).
$user
worker_processes 1;
pid $dep/nginx/nginx.pid;
error_log $dep/nginx/log/error.log warn;
events { worker_connections 256; }
http {
	include /etc/nginx/mime.types;
	types { text/markdown md; }
	default_type application/octet-stream;
	# No server_tokens here, as in Debian's nginx.conf: the site's own
	# configuration must hide the version.
	client_body_temp_path $dep/nginx/client_body;
	proxy_temp_path $dep/nginx/proxy;
	fastcgi_temp_path $dep/nginx/fastcgi;
	uwsgi_temp_path $dep/nginx/uwsgi;
	scgi_temp_path $dep/nginx/scgi;
	include $dep/site/weft.conf;
}
EOF
out=$(nginx -t -p "$dep/nginx" -c "$ngx_conf" 2>&1)
ok $? "nginx -t accepts the production configuration" "$out"
# A port found free can be taken before nginx binds it (by another
# test's client on this machine): new ports, up to three times.
for _ in 1 2 3; do
	nginx -p "$dep/nginx" -c "$ngx_conf" 2>"$dep/start.err"
	rc=$?
	[ "$rc" != 0 ] && grep -q 'Address already in use' "$dep/start.err" ||
	    break
	ports_on
done
ok "$rc" "the production nginx starts" "$(cat "$dep/start.err")"
for _ in $(seq 50); do
	curl -s -o /dev/null "http://127.0.0.1:$hp/" && break
	sleep 0.1
done

ppath=$(curl -s -o /dev/null -w '%{redirect_url}' "$WEFT_URL/papers/$(sql \
    "SELECT arxiv_id FROM papers ORDER BY id LIMIT 1")")
ppath=/${ppath#"$WEFT_URL"/}
http=http://127.0.0.1:$hp
https=https://127.0.0.1:$sp

WEFT_URL=$http get "$ppath?x=1"
is_status 301 "HTTP: 301"
header_is Location "https://127.0.0.1$ppath?x=1" "... to the same URL on HTTPS"
WEFT_URL=$http get /.well-known/acme-challenge/nothing-here
[ "$STATUS" != 301 ]
ok $? "HTTP: ACME challenges are not redirected ($STATUS)"

WEFT_URL=$https get "$ppath" -k
is_status 200 "HTTPS: the paper page"
header_has Strict-Transport-Security "max-age=" "HSTS"
header_has Content-Security-Policy "default-src 'none'" "Content-Security-Policy"
header_is X-Content-Type-Options nosniff "X-Content-Type-Options"
header_has Referrer-Policy "strict-origin" "Referrer-Policy"
body_has '<h1' "the page itself, from the test stack's workers"
header_is Server nginx "no nginx version (server_tokens off)"
WEFT_URL=$https get /static/weft.0123456789abcdef.css -k
header_has Strict-Transport-Security "max-age=" "hashed asset: HSTS"
header_has Content-Security-Policy "default-src 'none'" "hashed asset: CSP"
header_is X-Frame-Options DENY "hashed asset: X-Frame-Options"
header_has Cache-Control immutable "hashed asset: cached for a year"
WEFT_URL=$https get "$ppath" -k
body_lacks '<script>' "no inline script (the CSP forbids it)"
grep -q ' style="' "$BODY"
ok $((!$?)) "no inline style (the CSP forbids it)"
[ "$(curl -sk -o /dev/null -w '%{http_version}' --http2 "$https$ppath")" = 2 ]
ok $? "HTTPS: HTTP/2"

WEFT_URL=$https get "$ppath" -k -H 'Accept-Encoding: gzip'
header_is Content-Encoding gzip "gzip when asked"
gzip -t "$BODY" 2>/dev/null
ok $? "... and the body is gzip"
header_has Vary Accept-Encoding "... with Vary: Accept-Encoding"
WEFT_URL=$https get "$ppath" -k -H 'Accept-Encoding: gzip' -H 'Accept: text/markdown'
header_is Content-Encoding gzip "gzip for markdown too"
WEFT_URL=$https get "$ppath" -k
header_absent Content-Encoding "no gzip when not asked"

WEFT_URL=$https get /metrics -k
is_status 200 "/metrics from loopback"
body_has 'weft_' "Prometheus text"
header_has Content-Type "text/plain" "... as text/plain"
WEFT_URL=$https get /healthz -k
is_status 200 "/healthz"
WEFT_URL=$https get /readyz -k
is_status 200 "/readyz"

WEFT_URL=$https get /static/weft.0123abcd.css -k
is_status 200 "a hashed static asset"
header_has Cache-Control immutable "... Cache-Control: immutable"
header_has Cache-Control "max-age=31536000" "... for a year"
[ "$(grep -c '^cache-control:' "$HDRS")" = 1 ]
ok $? "... in one Cache-Control header" "$(grep '^cache-control:' "$HDRS")"
header_has Content-Type text/css "... as CSS"
cmp -s "$BODY" "$dest/usr/share/weft/modules/pages/static/weft.css"
ok $? "... served from the installed static files"
WEFT_URL=$https get /static/weft.css -k
is_status 200 "the unhashed name"
header_lacks_immutable=$(header Cache-Control)
case "$header_lacks_immutable" in *immutable*) ok 1 "... is not immutable" ;;
*) ok 0 "... is not immutable" ;; esac

grep -q '"status":200' "$dep/nginx/log/weft-access.log" &&
    head -1 "$dep/nginx/log/weft-access.log" | jq -e .request_id >/dev/null
ok $? "access log: JSON lines with a request id"

stop_nginx
! curl -s -o /dev/null --max-time 2 "$http/"
ok $? "the production nginx stopped"
done_testing
