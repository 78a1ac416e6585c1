#!/bin/bash
# t_cache_signed_in.sh -- one rule decides who is signed in (issue 18,
# "Personal pages can be made publicly cacheable").  With nginx's cache
# on, requests whose session cookie nginx would see but a worker splitting
# or matching differently would not -- the name in capitals, after a
# comma, in a second Cookie header -- must never get a response a shared
# cache may keep, nor make nginx store anything under the signed-in key;
# the real user's next page stays private and no anonymous client ever
# receives it.  Also the response headers of issue 18: the security
# headers on static assets, no nginx version, and no feed token in
# nginx's error log when a body is refused (413).
#
# Restores nginx's cache (off) on exit, even on failure.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}" "${WEFT_ROOT:?WEFT_ROOT must be set}"

port=${WEFT_URL##*:}
port=${port%%/*}
ngx() { nginx -p "$WEFT_VAR/nginx" -c "$WEFT_VAR/nginx/nginx.conf" "$@"; }
rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
nginx_cache() {
	WEFT_NGINX_CACHE=$1 "$WEFT_ROOT/nginx/gen.sh" local "$WEFT_VAR" \
	    "$port" && ngx -s reload 2>/dev/null
	sleep 1
}
cleanup() {
	nginx_cache off >/dev/null 2>&1
	rm -rf "$T_TMP"
}
trap cleanup EXIT
csrf() { grep -o 'name="csrf" value="[0-9a-f]*"' "$BODY" | head -1 |
    sed 's/.*value="//; s/"$//'; }
rcli --scan --pattern 'weft:rl:*' | while read -r k; do rcli del "$k" >/dev/null; done

# A signed-in user of this run (cookie jar $JAR).
email="cache.$$.$RANDOM@example.org"
signup_verified "$email" "a long enough passphrase $$"
ok $? "signed up (the address verified from the mail)"
tok=$(awk '$6 == "weft_session" { print $7 }' "$JAR" | tail -1)
[ -n "$tok" ]
ok $? "session cookie in the jar"

nginx_cache on
rid=$(sql "SELECT id FROM researchers ORDER BY id LIMIT 1")
page=$(curl -s -o /dev/null -w '%{redirect_url}' "$WEFT_URL/researchers/$rid")
page=${page#"$WEFT_URL"}
[ -n "$page" ]
ok $? "a researcher page ($page)"

# Each variant: the cookie nginx reads case-insensitively, split on ','
# and ';', from every Cookie header.  None may be answered as public.
nojar=$T_TMP/nojar
variants=(
	"Cookie: WEFT_SESSION=x"
	"Cookie: Weft_Session=$tok"
	"Cookie: a=b,weft_session=x"
	"Cookie: a=b, weft_session=$tok"
	"Cookie: a=b|Cookie: weft_session=x"
	"Cookie: theme=dark|Cookie: WEFT_SESSION=$tok"
	"Cookie: weft_session =x"
	"Cookie: weft_session=\"x\""
)
for v in "${variants[@]}"; do
	args=()
	IFS='|' read -ra hs <<<"$v"
	for h in "${hs[@]}"; do args+=(-H "$h"); done
	label=${v//$tok/TOKEN}
	# Twice: the second would be an nginx cache hit if the first was kept.
	for n in 1 2; do
		JAR=$nojar get "$page" "${args[@]}"
		is_status 200 "$label ($n): 200"
		cc=$(header Cache-Control)
		case "$cc" in
		*public*) ok 1 "$label ($n): not public" "Cache-Control: $cc" ;;
		*private*) ok 0 "$label ($n): private" ;;
		*) ok 1 "$label ($n): private" "Cache-Control: $cc" ;;
		esac
		header_absent ETag "$label ($n): no validator a cache could reuse"
	done
	rm -f "$nojar"
done

# The real user, after all of that: their page is private and is theirs.
get "$page"
is_status 200 "the user's own page"
header_is Cache-Control "private, no-cache" "the user's page is private"
body_has 'action="/signout"' "the user's page has their account links"
user_csrf=$(csrf)
[ -n "$user_csrf" ]
ok $? "and their CSRF token"
# An anonymous client gets the public page, never the user's.
JAR=$nojar get "$page"
is_status 200 "anonymous page"
header_has Cache-Control public "anonymous page is public"
body_lacks "$user_csrf" "anonymous page lacks the user's CSRF token"
body_lacks 'action="/signout"' "anonymous page lacks the account links"
# Nothing per user in nginx's cache: no entry holds a CSRF token or the
# sign-out form.
if [ -d "$WEFT_VAR/nginx/cache" ]; then
	! grep -rqF -e "$user_csrf" -e 'action="/signout"' "$WEFT_VAR/nginx/cache"
	ok $? "no per-user page in nginx's cache"
else
	ok 1 "nginx's cache directory exists"
fi
# The same for JSON (no SSI): a signed-in variant is private too.
JAR=$nojar get "$page" -H 'Accept: application/json' -H 'Cookie: WEFT_SESSION=x'
header_is Cache-Control "private, no-cache" "JSON with a session-like cookie is private"
rm -f "$nojar"

# ---------------------------------------------------------------- headers
# A name with a content hash is served from the year-long location.
for a in /static/weft.0123456789abcdef.css /static/weft.css /favicon.ico; do
	JAR=$nojar get "$a"
	is_status 200 "$a: 200"
	header_has Content-Security-Policy "default-src 'none'" "$a: CSP"
	header_is X-Frame-Options DENY "$a: X-Frame-Options"
	header_is X-Content-Type-Options nosniff "$a: nosniff"
	header_is Referrer-Policy strict-origin-when-cross-origin "$a: Referrer-Policy"
	[ "$(headers Cache-Control | wc -l)" -le 1 ]
	ok $? "$a: at most one Cache-Control"
done
JAR=$nojar get /
header_is Server nginx "Server: no nginx version"

# ---------------------------------------------------------------- 413 log
secret="sEcReT$$${RANDOM}tOkEn"
head -c 2000000 /dev/zero | tr '\0' a >"$T_TMP/big"
JAR=$nojar post "/rss/feed/$secret.xml" --data-binary "@$T_TMP/big"
is_status 413 "2 MB body to a private feed URL: 413"
sleep 0.2
! grep -qF "$secret" "$WEFT_VAR/log/nginx-error.log"
ok $? "the feed token is not in nginx's error log"
! grep -qF "$secret" "$WEFT_VAR/log/nginx-access.log" 2>/dev/null
ok $? "nor in its access log"

done_testing
