#!/bin/bash
# t_pages_researcher.sh -- the researcher page: every block, every
# representation, the paper list (sort, category, pages), redirects and
# bad parameters.
. "$(dirname "$0")/lib.sh"

# Yang Liu has the most papers in the bundled data: find him in the
# directory rather than hard-coding an id the loader chose.
get "/researchers" -H "Accept: application/json"
URL=$(jq -r '.items[] | select(.name == "Yang Liu") | .url' "$BODY" | head -1)
[ -n "$URL" ]
ok $? "Yang Liu is in the first directory page" "$(head -c 300 "$BODY")"
R=${URL#"$WEFT_URL"}
RID=$(echo "$R" | sed 's|^/researchers/\([0-9]*\).*|\1|')

# link_has TEXT NAME: some Link header holds TEXT (header() sees the
# first one only).
link_has() {
	grep -i '^link: ' "$HDRS" | grep -qF -- "$1"
	ok $? "$2" "no Link header with '$1'"
}

# rep_ok PATH ACCEPT CTYPE NAME: see t_pages_paper.sh.
rep_ok() {
	local path=$1 accept=$2 ctype=$3 name=$4 etag n
	get "$path" -H "Accept: $accept"
	is_status 200 "$name: 200"
	header_is Content-Type "$ctype" "$name: Content-Type"
	header_has Vary Accept "$name: Vary: Accept"
	header_has Link "<$WEFT_URL$R>; rel=\"canonical\"" "$name: canonical"
	etag=$(header ETag)
	[ -n "$etag" ]
	ok $? "$name: ETag"
	rm -f "$BODY"
	get "$path" -H "Accept: $accept" -H "If-None-Match: $etag"
	is_status 304 "$name: If-None-Match gives 304"
	body_empty "$name: 304 has no body"
	n=$(curl -s -I -o /dev/null -w '%{http_code} %{size_download}' \
	    -H "Accept: $accept" "$WEFT_URL$path")
	[ "$n" = "200 0" ]
	ok $? "$name: HEAD 200 without a body" "got $n"
	get "$path" -H "Accept: $accept"
}

rep_ok "$R" "text/html" "text/html; charset=utf-8" "html"
body_has "<title>Yang Liu · weft</title>" "html: title"
body_has '<p class="eyebrow">researcher</p><h1>Yang Liu</h1>' \
    "html: eyebrow and name"
body_has "papers here</li>" "html: papers-here badge"
# No source gave Yang Liu figures: no badge says "unknown" (t_metrics.sh
# shows a source's figures).
body_lacks 'badge badge-red">h-index' "html: no h-index badge without a source"
body_lacks "unknown" "html: nothing shown as unknown"
body_has "newest first" "html: matching-order note"
body_has "href=\"/signin?next=$R\"" "html: signed-out follow button"
body_has "author position" "html: author position block"
body_has "where every author was matched" "html: author position caption"
body_has ">fields<" "html: fields block"
body_has "href=\"$R?category=cs.SE\"" "html: field links filter"
body_has "identity via" "html: identity block"
body_has "co-authors" "html: co-author block"
body_has '<svg' "html: network drawn as SVG"
body_has 'class="timeline"' "html: timeline drawn"
body_has 'class="cards"' "html: paper list"
body_has 'rel="next"' "html: pager"
body_has '"@type":"Person"' "html: JSON-LD Person"
# Anonymous: nginx sends the page unparsed (SSI only with a session
# cookie); the signed-out HTML is the else branch, the rest comments.
body_has '<!--# else -->' "html: anonymous page not parsed for SSI"
body_lacks 'style=' "html: no inline styles"

rep_ok "$R" "text/markdown" "text/markdown; charset=utf-8" "md"
body_has "# Yang Liu" "md: title"
body_has "## Co-authors" "md: adjacency list"
body_has "joint paper" "md: joint papers counted"
body_has "($WEFT_URL/papers/" "md: absolute paper links"

rep_ok "$R" "application/json" "application/json" "json"
json_is .name "Yang Liu" "json: name"
json_is .url "$WEFT_URL$R" "json: url"
json_is .metrics.h_index null "json: unknown h-index is null"
json_is '.papers.items | length' 24 "json: 24 papers a page"
json_is '.papers.pagination.page' 1 "json: page 1"
json_is '.papers.sort' newest "json: newest first by default"
json_is '[.papers.items[].published] == ([.papers.items[].published] | sort | reverse)' \
    true "json: papers newest first"
json_is '.network.nodes | length > 0' true "json: co-authors"
json_is '.network.center.id' "$RID" "json: network centred on him"
# The network's edges are every co-author pair among its members, with
# their joint papers (RESEARCHER_BLOCKS probes each pair of members).
json_is '.network.edges | length > 0' true "json: the network has edges"
ids=$(jq -r '[.network.center.id] + [.network.nodes[].id] | join(",")' "$BODY")
want=$(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atqc "
    SELECT string_agg(a || '-' || b || ':' || papers, ' ' ORDER BY a, b)
      FROM coauthor_pairs WHERE a IN ($ids) AND b IN ($ids) AND a < b")
json_is '[.network.edges | sort_by(.a, .b)[] | "\(.a)-\(.b):\(.weight)"] | join(" ")' \
    "$want" "json: the network's edges are its members' pairs"
json_is '.author_position.papers_counted <= .author_position.papers_total' \
    true "json: position counted over matched papers"
json_is '(.author_position.first + .author_position.middle + .author_position.last) == .author_position.papers_counted' \
    true "json: positions add up"
link_has "<$WEFT_URL$R?page=2>; rel=\"next\"" "Link rel=next"

# Pages, sort, filter.
get "$R?page=2" -H "Accept: application/json"
is_status 200 "page 2"
json_is '.papers.pagination.page' 2 "page 2 in json"
link_has "<$WEFT_URL$R>; rel=\"prev\"" "page 2 has rel=prev to page 1"
header_has Link "<$WEFT_URL$R>; rel=\"canonical\"" "page 2 canonical"
PAGES=$(jq -r .papers.pagination.pages "$BODY")
get "$R?page=$((PAGES + 1))"
is_status 404 "beyond the last page: 404"
body_has "beyond the last page" "404 says why"
get "$R?page=$((PAGES + 1))" -H "Accept: application/json"
json_is .error.status 404 "beyond the last page in JSON"
get "$R?sort=citations" -H "Accept: application/json"
is_status 200 "sort=citations"
json_is .papers.sort citations "sorted by citations"
get "$R?sort=newest"
is_status 200 "sort=newest"
get "$R?sort=oldest"
is_status 400 "unknown sort: 400"
get "$R?sort=oldest" -H "Accept: application/json"
json_is .error.status 400 "bad sort in JSON"
get "$R?category=cs.SE" -H "Accept: application/json"
is_status 200 "category filter"
json_is '[.papers.items[].categories | index("cs.SE") != null] | all' true \
    "every paper is in cs.SE"
json_is .papers.category cs.SE "active filter in the model"
get "$R?category=cs.SE"
body_has 'pill pill-active' "active filter shown"
body_has "href=\"$R\"" "filter removable"
get "$R?category=xx.NOPE" -H "Accept: application/json"
is_status 200 "well-formed unknown category: 200"
json_is '.papers.items | length' 0 "unknown category: empty list"
get "$R?category=cs%20SE"
is_status 400 "malformed category: 400"
get "$R?category=$(printf 'a%.0s' $(seq 40))"
is_status 400 "too long category: 400"
for p in 0 -1 abc 99999999999999 1.5 ""; do
	get "$R?page=$p"
	is_status 400 "page=$p: 400"
done

# Redirects.
get "/researchers/$RID"
is_status 301 "bare id redirects"
header_is Location "$WEFT_URL$R" "to canonical"
get "/researchers/$RID-wrong-name?page=2&sort=citations"
is_status 301 "wrong slug redirects"
header_is Location "$WEFT_URL$R?page=2&sort=citations" "query kept"
get "/researchers/0$RID"
is_status 301 "leading zero redirects"
get "/researchers/"
is_status 301 "trailing slash to the directory"

# Not found.
get "/researchers/999999999"
is_status 404 "unknown researcher"
get "/researchers/999999999" -H "Accept: text/markdown"
is_status 404 "unknown researcher in markdown"
header_has Content-Type "text/markdown" "404 markdown type"
get "/researchers/abc"
is_status 404 "non-numeric researcher id"
get "/researchers/99999999999999999999999"
is_status 404 "overlong id"
get "$R" -H "Accept: application/x-bibtex"
is_status 200 "BibTeX of a researcher's papers (t_export.sh)"
get "$R" -H "Accept: application/msword"
is_status 406 "no Word for researchers"

# A co-author of the seed paper, matched.
get "/papers/2512.20345" -L -H "Accept: application/json"
J=$(jq -r '.authors[2].researcher.url' "$BODY")
get "${J#"$WEFT_URL"}"
is_status 200 "Jiale Chen's page"
body_has "Jiale Chen" "Jiale Chen named"
body_has "A Comprehensive Study of Bugs" "his paper is listed"

# The co-author list is the strongest pairs first, then by id: pairs of
# two or more joint papers from coauthor_pairs_top, which holds only
# those (0067), then pairs of one paper from the primary key.  Checked
# against the whole ordering for the researcher with the most co-authors,
# one with both kinds and more than the list holds, and one whose pairs
# are all of one paper.
coauthors_are() {
	local id=$1 what=$2 want
	want=$(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atqc "
	    SELECT string_agg(b || ':' || papers, ' ' ORDER BY papers DESC, b)
	      FROM (SELECT b, papers FROM coauthor_pairs WHERE a = $id
	             ORDER BY papers DESC, b LIMIT 24) x")
	get "/researchers/$id" -L -H "Accept: application/json"
	json_is '[.network.nodes | sort_by(-.papers, .id)[] | "\(.id):\(.papers)"] | join(" ")' \
	    "$want" "json: $what: co-authors strongest first, then by id"
}
pick() {
	psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atqc "
	    SELECT a FROM coauthor_pairs GROUP BY a HAVING $1
	     ORDER BY count(*) DESC, a LIMIT 1"
}
busy=$(pick 'true')
mixed=$(pick 'count(*) FILTER (WHERE papers >= 2) BETWEEN 1 AND 23
              AND count(*) > 24')
weak=$(pick 'max(papers) = 1 AND count(*) > 24')
[ -n "$busy" ] && [ -n "$mixed" ] && [ -n "$weak" ]
ok $? "the data has the three kinds of co-author lists" \
    "busy '$busy' mixed '$mixed' weak '$weak'"
coauthors_are "$busy" "the most co-authors"
coauthors_are "$mixed" "strong and single pairs"
coauthors_are "$weak" "single pairs only"

done_testing
