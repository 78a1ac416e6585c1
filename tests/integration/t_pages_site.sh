#!/bin/bash
# t_pages_site.sh -- home, the directories, the static pages and the 404
# page, in every representation.
. "$(dirname "$0")/lib.sh"

link_has() {
	grep -i '^link: ' "$HDRS" | grep -qF -- "$1"
	ok $? "$2" "no Link header with '$1'"
}

# neg_ok PATH NAME: 200 in HTML, markdown and JSON with the headers,
# 304 on the ETag, HEAD without a body.
neg_ok() {
	local path=$1 name=$2 accept etag n
	for accept in text/html text/markdown application/json; do
		get "$path" -H "Accept: $accept"
		is_status 200 "$name $accept: 200"
		header_has Content-Type "$accept" "$name $accept: type"
		header_has Vary Accept "$name $accept: Vary"
		link_has "<$WEFT_URL${3:-$path}>; rel=\"canonical\"" \
		    "$name $accept: canonical"
		etag=$(header ETag)
		rm -f "$BODY"
		get "$path" -H "Accept: $accept" -H "If-None-Match: $etag"
		is_status 304 "$name $accept: 304"
		n=$(curl -s -I -o /dev/null -w '%{http_code} %{size_download}' \
		    -H "Accept: $accept" "$WEFT_URL$path")
		[ "$n" = "200 0" ]
		ok $? "$name $accept: HEAD without a body" "got $n"
	done
}

neg_ok / home
get /
body_has '"@type":"WebSite"' "home: JSON-LD WebSite"
body_has '"SearchAction"' "home: SearchAction"
body_has 'search?q={search_term_string}' "home: search template"
body_has 'class="hero-search"' "home: big search box"
body_has 'Latest papers' "home: latest papers"
body_has 'href="/researchers"' "home: browse links"
get / -H "Accept: application/json"
json_is '.latest | length' 24 "home: 24 latest papers"
json_is '.counts.papers > 13000' true "home: paper count"
json_is '.counts.researchers > 0' true "home: researcher count"
json_is '.counts.institutions > 30000' true "home: institution count"
json_is '[.latest[].published] == ([.latest[].published] | sort | reverse)' \
    true "home: newest first"
get / -H "Accept: text/markdown"
body_has "# weft" "home md: title"
body_has "## Latest papers" "home md: latest"

for d in researchers institutions; do
	neg_ok "/$d" "$d"
	get "/$d" -H "Accept: application/json"
	json_is '.items | length' 24 "$d: 24 a page"
	json_is .pagination.page 1 "$d: page 1"
	link_has "<$WEFT_URL/$d?page=2>; rel=\"next\"" "$d: rel=next"
	LAST=$(jq -r .pagination.pages "$BODY")
	get "/$d?page=2" -H "Accept: application/json"
	json_is .pagination.page 2 "$d: page 2"
	link_has "<$WEFT_URL/$d>; rel=\"prev\"" "$d: rel=prev"
	get "/$d?page=$LAST" -H "Accept: application/json"
	is_status 200 "$d: last page"
	json_is .pagination.next null "$d: no next on the last page"
	get "/$d?page=$((LAST + 1))"
	is_status 404 "$d: beyond the last page is 404"
	body_has "beyond the last page" "$d: says so"
	for p in 0 -3 x 99999999999999 100001; do
		get "/$d?page=$p" -H "Accept: application/json"
		is_status 400 "$d: page=$p is 400"
		json_is .error.status 400 "$d: page=$p JSON error"
	done
done
get "/researchers" -H "Accept: application/json"
json_is '[.items[].papers] == ([.items[].papers] | sort | reverse)' true \
    "researchers by papers here"
get "/institutions" -H "Accept: application/json"
json_is '[.items[].researchers] == ([.items[].researchers] | sort | reverse)' \
    true "institutions by researchers"

for s in about privacy contact developers; do
	neg_ok "/$s" "$s"
	get "/$s"
	body_has '<article class="prose">' "$s: rendered markdown"
	body_lacks '<script>' "$s: no script"
	get "/$s" -H "Accept: text/markdown"
	body_has "# " "$s md: heading"
	body_lacks "](/" "$s md: links absolute"
	get "/$s" -H "Accept: application/json"
	json_is .name "$s" "$s json: name"
done
get /about
body_has "not affiliated" "about: not affiliated with arXiv"
body_has "CC0" "about: licences"
body_has "ODC-BY" "about: Semantic Scholar licence"
get /privacy
body_has "email" "privacy: what is stored"
get /developers
body_has "beyond the last one" "developers: pagination rule documented"
body_has "llms.txt" "developers: llms.txt"
body_has "openapi.json" "developers: openapi.json"

# The 404 page, in each representation.
get /no/such/page
is_status 404 "404"
header_has Content-Type "text/html" "404 html"
header_has Vary Accept "404 Vary"
body_has '<p class="eyebrow">404</p>' "404 eyebrow"
body_has "This page is not here" "404 headline"
body_has "Search the archive" "404 search button"
body_has "Go home" "404 home button"
body_has "/papers/{arxiv-id}-{title}" "404 URL patterns"
body_has 'href="/sitemap.xml"' "404 sitemap pointer"
body_has 'href="/llms.txt"' "404 llms.txt pointer"
get /no/such/page -H "Accept: text/markdown"
is_status 404 "404 md"
header_has Content-Type "text/markdown" "404 md type"
body_has "404" "404 md body"
get /no/such/page -H "Accept: application/json"
is_status 404 "404 json"
json_is .error.status 404 "404 json body"
get /no/such/page -H "Accept: image/png"
is_status 404 "404 even for an unacceptable type"
n=$(curl -s -I -o /dev/null -w '%{http_code} %{size_download}' \
    "$WEFT_URL/no/such/page")
[ "$n" = "404 0" ]
ok $? "HEAD 404 without a body" "got $n"

# Static assets.
get /static/weft.css
is_status 200 "weft.css"
header_has Content-Type "text/css" "css type"
get /static/favicon.svg
is_status 200 "favicon"

done_testing
