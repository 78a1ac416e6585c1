#!/bin/bash
# t_pages_badinput.sh -- hostile and malformed requests get a clear 4xx
# in the client's representation: never a 5xx, a crash or a hang.
. "$(dirname "$0")/lib.sh"

long=$(printf 'a%.0s' $(seq 5000))
paths=(
	"/papers/%C3%28"
	"/papers/2512.20345%00"
	"/researchers/1%00"
	"/%00"
	"/institutions/%C3%28"
	"/institutions/%FF%FE"
	"/papers/$long"
	"/researchers/$long"
	"/institutions/$long"
	"/$long"
	"/papers/../../etc/passwd"
	"/papers/..%2F..%2Fetc%2Fpasswd"
	"/researchers/%2E%2E/%2E%2E/etc/passwd"
	"/papers/2512.20345?page=%C3%28"
	"/researchers?page=99999999999999999999999999"
	"/researchers?page=%00"
	"/institutions?page=1e3"
	"/papers/%"
	"/papers/%zz"
	"/?q=%"
)
for p in "${paths[@]}"; do
	for accept in text/html application/json text/markdown; do
		get "$p" -H "Accept: $accept" --path-as-is
		is_4xx "${p:0:60} ($accept): 4xx"
	done
	get "$p" -H "Accept: application/json" --path-as-is
	case "$STATUS" in
	4??) jq -e '.error.status' "$BODY" >/dev/null 2>&1 ||
	    grep -qi '<html' "$BODY"
	    ok $? "${p:0:60}: error body in JSON (or nginx's own page)" ;;
	*) ok 1 "${p:0:60}: error body" "status $STATUS" ;;
	esac
done

# A huge Accept header and odd ones still work.
get / -H "Accept: $(printf 'text/x-%d;q=0.1, ' $(seq 600))text/html"
case "$STATUS" in 200|4??) ok 0 "8 KB Accept: no 5xx" ;; *) ok 1 "8 KB Accept" "$STATUS" ;; esac
get / -H "Accept: ;;;,,,q=x"
is_status 200 "garbage Accept means */*"

# POST is not a method of pages.
post /about -d x=1
is_4xx "POST /about: 4xx"
# 405's Allow names the methods of the routes matching the path.
is_status 405 "POST /about: 405"
header_is Allow "GET, HEAD" "POST /about: Allow: GET, HEAD"

done_testing
