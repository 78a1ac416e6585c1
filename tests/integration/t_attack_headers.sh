#!/bin/bash
# t_attack_headers.sh -- header injection, open redirects, oversized
# headers and bodies, odd methods and absurd query parameters through
# nginx: every answer is a clear 4xx (or a 3xx for a legitimate
# redirect), never a 5xx, and nothing from the request comes back as a
# header of its own.
. "$(dirname "$0")/lib.sh"

# no_injection WHAT: no header line that the request smuggled in.
no_injection() {
	! grep -qiE '^(set-cookie: *x=1|x-injected:)' "$HDRS"
	ok $? "$1: no injected header" "$(grep -iE '^(set-cookie|x-injected)' "$HDRS")"
	local loc
	loc=$(header Location)
	case "$loc" in
	*$'\r'*|*$'\n'*|*' '*) ok 1 "$1: Location is encoded" "$loc" ;;
	*) ok 0 "$1: Location is encoded" ;;
	esac
}
# nofive WHAT: any answer but a 5xx (or none).
nofive() {
	case "$STATUS" in
	[234]??) ok 0 "$1: $STATUS" ;;
	*) ok 1 "$1: no 5xx" "status $STATUS" ;;
	esac
}
# clear WHAT: a 3xx or 4xx, never a 5xx.
clear() {
	case "$STATUS" in
	3??|4??) ok 0 "$1: $STATUS" ;;
	*) ok 1 "$1: 3xx/4xx" "status $STATUS" ;;
	esac
}

RID=$(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atqc \
    "SELECT id FROM researchers ORDER BY id LIMIT 1" 2>/dev/null)
AID=$(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atqc \
    "SELECT arxiv_id FROM papers WHERE arxiv_id ~ '^[0-9]{4}\.' ORDER BY id LIMIT 1" 2>/dev/null)

# ------------------------------------------------------------ CR/LF
CRLF='%0d%0aSet-Cookie:x=1%0d%0aX-Injected:1'
for path in "/$CRLF" "/papers/$CRLF" "/papers/$AID-$CRLF" \
    "/papers/${AID}v1$CRLF" "/researchers/$RID-$CRLF" \
    "/researchers/$RID?page=$CRLF" "/institutions?page=$CRLF" \
    "/papers/$AID?x=$CRLF" "/rss/categories/$CRLF.xml" \
    "/signin?next=/$CRLF" "/signin?next=$CRLF" "/?q=$CRLF"; do
	get "$path" --path-as-is
	case "$path" in
	*\?*) nofive "GET ${path:0:50}" ;; # a query may be ignored: 200
	*) clear "GET ${path:0:50}" ;;
	esac
	no_injection "GET ${path:0:50}"
done
# The canonical redirect of a paper keeps the query: encoded, never raw.
get "/papers/$AID?a=$CRLF"
case "$STATUS" in 301) ok 0 "bare id with a CRLF query: 301" ;;
*) ok 1 "bare id with a CRLF query: 301" "status $STATUS" ;; esac
no_injection "canonical redirect with a CRLF query"
# A raw CR LF in the request line ends it there (nginx answers the
# HTTP/0.9-style "GET /" without headers): nothing comes back as one.
r=$(printf 'GET /\r\nX-Injected: 1 HTTP/1.1\r\nHost: x\r\n\r\n' |
    curl -s --max-time 5 telnet://"${WEFT_URL#http://}" 2>/dev/null |
    tr -d '\r' | grep -ciE '^(x-injected|set-cookie: *x=1)')
[ "${r:-0}" = 0 ]
ok $? "raw CRLF in the request line: no header smuggled into the answer"

# CR LF or NUL inside a path segment or a checked parameter: a 4xx
# (no redirect, no page), and nothing smuggled into the answer.
for path in /%0d%0a /researchers/%0d%0a1 "/researchers/$RID%0d%0a" \
    /institutions/%0d%0a1 /rss/categories/cs%0d%0a.xml \
    "/rss/researchers/$RID%0d%0a.xml" "/papers/%0d%0a$AID" \
    "/papers/$AID%0d%0a" /sitemaps/papers-%0d%0a1.xml \
    /rss/feed/%0d%0aabcdefghijklmnopqrstu.xml "/account/follow/$RID%0d%0a" \
    "/researchers?page=1%0d%0a" "/institutions?page=%0d%0a1" \
    "/search?q=a&sort=x%0d%0a" "/search?q=a&type=%0d%0a" \
    "/search?q=a&from=2020%0d%0a" "/signin?next=/%0d%0aX" \
    /%00 /papers/%00 "/researchers/$RID%00" /rss/categories/cs%00.xml \
    "/researchers?page=1%00" "/search?q=a%00b"; do
	get "$path" --path-as-is
	case "$STATUS" in
	4??) ok 0 "GET $path: $STATUS" ;;
	*) ok 1 "GET $path: 4xx" "status $STATUS" ;;
	esac
	no_injection "GET $path"
done
# A raw NUL byte in the request line: nginx's 400, no 5xx.
r=$(printf 'GET /papers/\0x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' |
    curl -s --max-time 5 telnet://"${WEFT_URL#http://}" 2>/dev/null | head -n 1)
case "$r" in
*" 400 "*) ok 0 "raw NUL in the path: 400" ;;
*) ok 1 "raw NUL in the path: 400" "$r" ;;
esac

# ------------------------------------------------------------ open redirects
for next in //evil.com '/\evil.com' '/\\evil.com' https:evil.com \
    https://evil.com '/%2F%2Fevil.com' '%2F%2Fevil.com' '/%5Cevil.com' \
    'javascript:alert(1)' '/%09/evil.com' '/%20/evil.com' '\/evil.com' \
    '\\evil.com' $'/\t/evil.com' $'/\r\n/evil.com' $'\t//evil.com' \
    'http:/\evil.com' '/.//evil.com' '/\/evil.com'; do
	enc=$(printf %s "$next" | jq -sRr @uri)
	get "/signin?next=$enc"
	nofive "signin next=$next"
	loc=$(header Location)
	case "$loc" in
	"" | "$WEFT_URL"/*) ok 0 "signin next=$next: no off-site Location" ;;
	*) ok 1 "signin next=$next: no off-site Location" "$loc" ;;
	esac
	# The form carries it back in a hidden field, escaped.
	! grep -qE 'value="(//|https?:|javascript:)' "$BODY"
	ok $? "signin next=$next: not echoed as a live target"
done

# ------------------------------------------------------------ oversized
big=$(head -c 20000 /dev/zero | tr '\0' a)
get / -H "Cookie: weft_session=$big"
clear "20 KB cookie"
get / -H "Accept: $(head -c 9000 /dev/zero | tr '\0' x)/html"
case "$STATUS" in 200|4??) ok 0 "9 KB Accept: $STATUS" ;;
*) ok 1 "9 KB Accept" "status $STATUS" ;; esac
get / -H "X-Long: $(head -c 64000 /dev/zero | tr '\0' a)"
clear "64 KB header"
head -c 2000000 /dev/zero | tr '\0' a >"$T_TMP/2mb"
post /signin -H "Origin: $WEFT_URL" --data-binary "@$T_TMP/2mb"
is_status 413 "2 MB POST to /signin: 413"
post /signup -H 'Content-Type: application/x-www-form-urlencoded' \
    -H "Origin: $WEFT_URL" --data-binary "@$T_TMP/2mb"
is_status 413 "2 MB POST to /signup: 413"

# Sizes at nginx's limits, answered in the client's representation by
# the pages module (error_page), not with nginx's own page.
get / -H "Cookie: weft_session=$(head -c 8192 /dev/zero | tr '\0' b)"
nofive "8 KB cookie"
get "/search?q=$(head -c 65536 /dev/zero | tr '\0' a)"
is_status 414 "64 KB query string: 414"
body_lacks "<center>nginx</center>" "64 KB query string: our error page"
get / -H "Accept: application/json" \
    -H "Cookie: weft_session=$(head -c 20000 /dev/zero | tr '\0' b)"
is_status 400 "20 KB cookie: 400"
body_has '"status":400' "20 KB cookie: a JSON error for a JSON client"
head -c 10485760 /dev/zero | tr '\0' a >"$T_TMP/10mb"
for path in /signin /signup "/researchers/$RID/follow"; do
	post "$path" -H "Origin: $WEFT_URL" -H "Accept: application/json" \
	    -H 'Content-Type: application/x-www-form-urlencoded' \
	    --data-binary "@$T_TMP/10mb"
	is_status 413 "10 MB POST to $path: 413"
	case "$(header Content-Type)" in
	application/json*) ok 0 "10 MB POST to $path: JSON" ;;
	*) ok 1 "10 MB POST to $path: JSON" "$(header Content-Type)" ;;
	esac
	body_has '"status":413' "10 MB POST to $path: the error object"
done
post /signin -H "Origin: $WEFT_URL" --data-binary "@$T_TMP/10mb"
is_status 413 "10 MB POST to /signin (HTML): 413"
body_lacks "<center>nginx</center>" "10 MB POST (HTML): our error page"
rm -f "$T_TMP/10mb"

# ------------------------------------------------------------ methods
for m in PUT DELETE TRACE PATCH OPTIONS FOO; do
	for path in / "/papers/$AID" /signin /rss/latest.xml; do
		request "$m" "$path"
		case "$STATUS" in
		4??|2??) [ "$STATUS" != 200 ] || [ "$m" = OPTIONS ]
		    ok $? "$m $path: $STATUS" ;;
		*) ok 1 "$m $path: 4xx" "status $STATUS" ;;
		esac
		[ "$m" = TRACE ] && body_lacks "TRACE $path" "TRACE does not echo the request"
	done
done

# ------------------------------------------------------------ absurd queries
for q in page=1e9 page=-1 page=0 page=999999999 page=99999999999999999999 \
    page=1.5 page=%00 page= 'page=1&page=2' sort=%27 category=%27%20OR%201=1 \
    'from=2020-13-45&to=x' "q=$(head -c 5000 /dev/zero | tr '\0' a)"; do
	for path in /researchers /institutions "/researchers/$RID" /search /; do
		get "$path?$q"
		case "$STATUS" in
		200|3??|4??) ok 0 "$path?${q:0:30}: $STATUS" ;;
		*) ok 1 "$path?${q:0:30}: no 5xx" "status $STATUS" ;;
		esac
	done
done
many=$(seq 10000 | sed 's/^/p/; s/$/=1/' | paste -sd'&')
for path in / /researchers "/researchers/$RID" /institutions; do
	get "$path?$many"
	clear "$path with 10,000 params"
done
post /signin -H "Origin: $WEFT_URL" --data-binary "$many"
clear "POST /signin with 10,000 fields"

done_testing
