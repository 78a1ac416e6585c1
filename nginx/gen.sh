#!/bin/sh
# nginx/gen.sh -- writes an nginx configuration from the one source.
#
#   nginx/gen.sh local VAR PORT      -> VAR/nginx/nginx.conf + site.conf
#
# ROOT is the project (or installed share) directory holding
# modules/pages/static.  Sockets are VAR/run/<module>.sock.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
kind=${1:?usage: gen.sh local VAR PORT}
case "$kind" in
local)
	var=$(cd "${2:?VAR}" && pwd)
	port=${3:?PORT}
	mkdir -p "$var/nginx" "$var/log"
	user=
	[ "$(id -u)" = 0 ] && user="user www-data www-data;"
	access="$var/log/nginx-access.log weft_json"
	[ "${WEFT_ACCESS_LOG:-on}" = off ] && access=off
	sed -e "s|@LISTEN@|127.0.0.1:$port|g" \
	    -e "s|@SERVER_NAME@|localhost|g" \
	    -e "s|@ROOT@|$root|g" \
	    -e "s|@PAGES_UPSTREAM@|unix:$var/run/pages.sock|g" \
	    -e "s|@ACCOUNTS_UPSTREAM@|unix:$var/run/accounts.sock|g" \
	    -e "s|@FEEDS_UPSTREAM@|unix:$var/run/feeds.sock|g" \
	    "$here/site.conf.in" >"$var/nginx/site.conf"
	sed -e "s|@VAR@|$var|g" -e "s|@USER@|$user|g" \
	    -e "s|@ACCESS_LOG@|$access|g" \
	    "$here/local.conf.in" >"$var/nginx/nginx.conf"
	;;
*)
	echo "gen.sh: unknown kind $kind" >&2
	exit 2
	;;
esac
