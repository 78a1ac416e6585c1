#!/bin/sh
# nginx/gen.sh -- writes an nginx configuration from the one source
# (upstreams.conf.in + locations.conf.in, wrapped by local.conf.in or
# production.conf.in).
#
#   nginx/gen.sh local VAR PORT
#       -> VAR/nginx/{nginx,upstreams,locations}.conf (a private nginx)
#   nginx/gen.sh production OUTDIR SERVER_NAME ROOT [CERT KEY]
#       -> OUTDIR/{weft.conf,upstreams.conf,locations.conf}
#
# Environment: WEFT_NGINX_CACHE (on|off, default on), WEFT_NGINX_CACHE_MAX
# (1g), WEFT_SOCKET_DIR (/run/weft), WEFT_UPSTREAMS_<MODULE>
# (space-separated "host:port" list of worker hosts; default: the unix
# socket, twice), WEFT_ACCESS_LOG=off (local only), WEFT_SESSION_COOKIE
# (weft_session: the session_cookie of weft.conf, which must match).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kind=${1:?usage: gen.sh local VAR PORT | production OUTDIR NAME ROOT [CERT KEY]}

# "server X max_fails=0;" lines for a module's pool.
servers() {
	mod=$1 sock=$2
	list=$(eval "echo \${WEFT_UPSTREAMS_$(echo "$mod" | tr a-z A-Z):-}")
	if [ -z "$list" ]; then
		list="unix:$sock unix:$sock"
	fi
	for s in $list; do
		case "$s" in
		# The same socket twice: never mark it down, retry at once.
		unix:*) printf '\tserver %s max_fails=0;\\n' "$s" ;;
		# A host that stops answering is skipped for 10 s instead of
		# costing every request the connect timeout.
		*) printf '\tserver %s max_fails=1 fail_timeout=10s;\\n' "$s" ;;
		esac
	done
}

# Inlines a template (for multi-line substitutions sed cannot take).
inline() {
	awk -v key="$1" -v file="$2" '
	    index($0, key) {
		ind = substr($0, 1, match($0, /[^ \t]/) - 1)
		while ((getline l < file) > 0) print ind l
		close(file); next
	    }
	    { print }'
}

# The session cookie's name goes into a regular expression and an SSI
# variable: letters, digits and '_' only.
cookie=${WEFT_SESSION_COOKIE:-weft_session}
case "$cookie" in
*[!A-Za-z0-9_]* | "")
	echo "gen.sh: WEFT_SESSION_COOKIE must be [A-Za-z0-9_]+" >&2
	exit 2
	;;
esac

# upstreams + locations into $1, sockets in $2, static root $3; the
# nginx cache (WEFT_NGINX_CACHE=on|off) in cache dir $7, validity $8;
# the error log $9.
common() {
	out=$1 sockdir=$2 root=$3 rate=$4 burst=$5 hsts=$6 cdir=$7 cvalid=$8
	elog=$9
	sed -e "s|@HSTS@|$hsts|g" -e "/^#/d" -e "/^$/d" "$here/headers.conf.in" \
	    >"$out/.security"
	{ cat "$out/.security"
	  echo 'add_header Cache-Control $weft_cache_control always;'
	} >"$out/.headers"
	# /chat's pages run one script of ours (static/chat.js), which
	# reads the streamed answer: the same headers, the CSP allowing it.
	sed -e "s|default-src 'none';|default-src 'none'; script-src 'self'; connect-src 'self';|" \
	    "$out/.headers" >"$out/.chatheaders"
	if [ "${WEFT_NGINX_CACHE:-on}" = on ]; then
		sed -e "s|@CACHE_DIR@|$cdir|" -e "s|@CACHE_MAX@|${WEFT_NGINX_CACHE_MAX:-1g}|" \
		    "$here/cache-zone.conf.in" >"$out/.zone"
		sed -e "s|@CACHE_VALID@|$cvalid|g" "$here/cache.conf.in" \
		    >"$out/.cache"
	else
		echo "# nginx cache disabled (WEFT_NGINX_CACHE=off)" >"$out/.zone"
		echo "fastcgi_cache off;" >"$out/.cache"
		echo "# (no cache zone)" >>"$out/.zone"
	fi
	sed -e "s|@PAGES_SERVERS@|$(servers pages "$sockdir/pages.sock")|" \
	    -e "s|@ACCOUNTS_SERVERS@|$(servers accounts "$sockdir/accounts.sock")|" \
	    -e "s|@FEEDS_SERVERS@|$(servers feeds "$sockdir/feeds.sock")|" \
	    -e "s|@CHAT_SERVERS@|$(servers chat "$sockdir/chat.sock")|" \
	    -e "s|@SIGNIN_RATE@|$rate|" -e "s|@SESSION_COOKIE@|$cookie|g" \
	    "$here/upstreams.conf.in" | inline @CACHE_ZONE@ "$out/.zone" \
	    >"$out/upstreams.conf"
	sed -e "s|@ROOT@|$root|g" -e "s|@SIGNIN_BURST@|$burst|g" \
	    -e "s|@ERROR_LOG@|$elog|g" \
	    "$here/locations.conf.in" | inline @CACHE@ "$out/.cache" |
	    inline @CHAT_HEADERS@ "$out/.chatheaders" |
	    inline @HEADERS@ "$out/.headers" |
	    inline @SECURITY_HEADERS@ "$out/.security" >"$out/locations.conf"
	rm -f "$out/.zone" "$out/.cache" "$out/.headers" "$out/.security" \
	    "$out/.chatheaders"
}

case "$kind" in
local)
	var=$(cd "${2:?VAR}" && pwd)
	port=${3:?PORT}
	root=$(cd "$here/.." && pwd)
	mkdir -p "$var/nginx" "$var/log"
	user=
	[ "$(id -u)" = 0 ] && user="user www-data www-data;"
	access="$var/log/nginx-access.log weft_json"
	[ "${WEFT_ACCESS_LOG:-on}" = off ] && access=off
	# Loose per-address limits here: the tests exercise the
	# application's own limits from one address.
	common "$var/nginx" "$var/run" "$root" 600r/m 200 "" \
	    "$var/nginx/cache" 10s "$var/log/nginx-error.log"
	sed -e "s|@VAR@|$var|g" -e "s|@USER@|$user|g" \
	    -e "s|@ACCESS_LOG@|$access|g" -e "s|@LISTEN@|127.0.0.1:$port|g" \
	    "$here/local.conf.in" >"$var/nginx/nginx.conf"
	;;
production)
	out=${2:?OUTDIR}
	name=${3:?SERVER_NAME}
	root=${4:?ROOT (the directory holding modules/pages/static)}
	cert=${5:-/etc/letsencrypt/live/$name/fullchain.pem}
	key=${6:-/etc/letsencrypt/live/$name/privkey.pem}
	mkdir -p "$out"
	common "$out" "${WEFT_SOCKET_DIR:-/run/weft}" "$root" 20r/m 10 \
	    'add_header Strict-Transport-Security "max-age=63072000; includeSubDomains" always;' \
	    /var/cache/nginx/weft 30s /var/log/nginx/weft-error.log
	sed -e "s|@SERVER_NAME@|$name|g" -e "s|@TLS_CERT@|$cert|g" \
	    -e "s|@TLS_KEY@|$key|g" -e "s|@CONFDIR@|$out|g" \
	    "$here/production.conf.in" >"$out/weft.conf"
	;;
*)
	echo "gen.sh: unknown kind $kind" >&2
	exit 2
	;;
esac
