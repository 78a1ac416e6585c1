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

# ------------------------------------------------------------ open redirects
for next in //evil.com '/\evil.com' '/\\evil.com' https:evil.com \
    https://evil.com '/%2F%2Fevil.com' '%2F%2Fevil.com' '/%5Cevil.com' \
    'javascript:alert(1)' '/%09/evil.com' '/%20/evil.com'; do
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
