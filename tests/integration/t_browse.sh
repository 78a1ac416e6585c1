#!/bin/bash
# t_browse.sh -- browse without a query (/search?category=…&sort=newest,
# from/to, paging, facets) in HTML, markdown and JSON; /categories; and
# bad input (unknown or malformed category, bad dates).
. "$(dirname "$0")/lib.sh"

B="/search?category=cs.DB&sort=newest"

get "$B" -H "Accept: application/json"
is_status 200 "json: 200"
jq -e '.browse == true and .query == "" and (.results | length) == 24' \
    "$BODY" >/dev/null
ok $? "json: a browse lists 24 papers, not the help page"
jq -e '[.results[] | .categories | index("cs.DB") != null] | all' \
    "$BODY" >/dev/null
ok $? "json: every paper is in cs.DB"
jq -r '.results[].published' "$BODY" >"$T_TMP/dates"
sort -r "$T_TMP/dates" | cmp -s - "$T_TMP/dates"
ok $? "json: newest first"
jq -e '(.facets | length) > 0 and (.facets[0].url | contains("category="))' \
    "$BODY" >/dev/null
ok $? "json: category facets with urls"
jq -e '.pagination.next != null' "$BODY" >/dev/null
ok $? "json: a next page"
FIRST=$(jq -r '.results[0].arxiv_id' "$BODY")

get "$B&page=2" -H "Accept: application/json"
is_status 200 "page 2: 200"
jq -e --arg f "$FIRST" '(.results | length) > 0 and
    ([.results[].arxiv_id] | index($f)) == null' "$BODY" >/dev/null
ok $? "page 2: other papers"
get "$B&page=9999" -H "Accept: application/json"
is_status 404 "a page beyond the last: 404"

get "$B&from=2026-01-01&to=2026-06-30" -H "Accept: application/json"
is_status 200 "from/to: 200"
jq -e '[.results[].published | . >= "2026-01-01" and . <= "2026-06-30"]
    | all' "$BODY" >/dev/null
ok $? "from/to: dates inside the range"
get "/search?from=2026-01-01" -H "Accept: application/json"
jq -e '.browse == true and (.results | length) > 0' "$BODY" >/dev/null
ok $? "from alone browses every category"

get "$B"
is_status 200 "html: 200"
body_has '<h1>Newest papers in cs.DB</h1>' "html: browse heading"
body_has 'class="cards"' "html: paper cards"
body_lacks '<h1>Search the archive</h1>' "html: not the help page"
get "$B" -H "Accept: text/markdown"
is_status 200 "markdown: 200"
body_has '# Newest papers in cs.DB' "markdown: heading"
body_has '## Categories' "markdown: facets"
get "/search"
body_has '<h1>Search the archive</h1>' "no filter at all: still the help page"

# Bad input: a clear 4xx in the client's representation.
get "/search?category=zz.XX" -H "Accept: application/json"
is_status 404 "unknown category: 404"
jq -e '.error.message | contains("/categories")' "$BODY" >/dev/null
ok $? "unknown category: json error pointing at /categories"
get "/search?category=zz.XX" -H "Accept: text/markdown"
is_status 404 "unknown category: 404 in markdown"
header_has Content-Type "text/markdown" "unknown category: markdown error"
get "/search?category=%3Cscript%3E" -H "Accept: application/json"
is_status 400 "malformed category: 400"
get "/search?category=cs.DB&from=2026-13-01" -H "Accept: application/json"
is_status 400 "bad date: 400"

# Past the page's 1,000, a browse says there are more (the statement's
# row after the cap, not a count); under it, that it lists them all.
big=$(sql "SELECT c FROM papers, unnest(categories) AS c GROUP BY 1
    HAVING count(*) > 1000 ORDER BY 1 LIMIT 1")
small=$(sql "SELECT c FROM papers, unnest(categories) AS c GROUP BY 1
    HAVING count(*) BETWEEN 30 AND 1000 ORDER BY count(*) DESC, 1 LIMIT 1")
nsmall=$(sql "SELECT count(*) FROM papers WHERE categories @> ARRAY['$small']")
get "/search?category=$big&sort=newest" -H "Accept: application/json"
json_is '[.total, .total_capped]|@csv' '1000,true' "$big: the newest 1,000, and more"
get "/search?category=$small&sort=citations" -H "Accept: application/json"
json_is '[.total, .total_capped]|@csv' "$nsmall,false" "$small: all $nsmall"
# Most cited first, unknown counts last, then newest (search_rank.c).
get "/search?from=1900-01-01&sort=citations" -H "Accept: application/json"
top=$(sql "SELECT arxiv_id FROM papers WHERE published >= '1900-01-01'
    ORDER BY citation_count DESC NULLS LAST,
    published DESC NULLS LAST, id DESC LIMIT 1")
json_is '.results[0].arxiv_id' "$top" "sort=citations: the most cited first"

# /categories
get "/categories" -H "Accept: application/json"
is_status 200 "categories json: 200"
jq -e '(.items | length) > 10 and (.items | map(.category) | index("cs.DB"))
    != null and all(.items[]; .papers > 0 and
    (.url | contains("/search?category=")))' "$BODY" >/dev/null
ok $? "categories json: codes, counts, browse links"
N=$(jq -r '.items[] | select(.category == "cs.DB") | .papers' "$BODY")
get "/categories"
is_status 200 "categories html: 200"
body_has 'href="/search?category=cs.DB&amp;sort=newest"' \
    "categories html: browse link"
get "/categories" -H "Accept: text/markdown"
is_status 200 "categories markdown: 200"
body_has "cs.DB" "categories markdown: lists cs.DB"
body_has "$N papers" "categories markdown: count"

done_testing
