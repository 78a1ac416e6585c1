#!/bin/bash
# t_similar.sh -- "similar papers": the section of a paper page in HTML,
# markdown and JSON (10 papers by vector similarity, best first, not the
# paper itself), /papers/{id}-{slug}/similar in every representation
# with the paper page's redirects, 404s, a paper newer than the index
# (an empty list with a notice), and no index at all (the vector_index
# rows held aside: 200, an empty list and a notice, never a 5xx).
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"

PSQL=(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -v ON_ERROR_STOP=1 -qAtX)
sql() { "${PSQL[@]}" -c "$1"; }

ID=2512.20345
NEW=2512.99979
restore() {
	sql "DELETE FROM papers WHERE arxiv_id = '$NEW'" >/dev/null 2>&1
	if [ "$(sql "SELECT to_regclass('t_similar_hold') IS NOT NULL")" = t ]
	then
		sql "INSERT INTO vector_index SELECT * FROM t_similar_hold
		    ON CONFLICT DO NOTHING; DROP TABLE t_similar_hold" \
		    >/dev/null 2>&1
	fi
	redis-cli -s "$WEFT_VAR/redis/redis.sock" INCR weft:gen >/dev/null 2>&1
}
trap 'restore; rm -rf "$T_TMP"' EXIT
restore

# The workers re-read vector_index when the cache generation moves
# (vindex.h: at most every PAGES_VINDEX_GEN_S = 2 s).
index_changed() {
	redis-cli -s "$WEFT_VAR/redis/redis.sock" INCR weft:gen >/dev/null
	sleep 2.5
}

if [ -z "$(sql "SELECT version FROM vector_index LIMIT 1")" ]; then
	echo "1..0 # SKIP no semantic index (weft-vectors build)"
	exit 0
fi

get "/papers/$ID"
CANON=$(header Location)
CANON=${CANON#"$WEFT_URL"}
[ -n "$CANON" ]
ok $? "the paper's canonical path ($CANON)"
SIM=$CANON/similar

# ------------------------------------------------------- the paper page
get "$CANON" -H 'Accept: application/json'
is_status 200 "paper JSON"
json_is '.similar | length' 10 "JSON: 10 similar papers"
json_is "[.similar[] | select(.id == \"$ID\")] | length" 0 \
    "JSON: the paper itself is not among them"
json_is '[.similar[] | (.id | type) + (.title | type) + (.url | type) + (.score | type)] | unique | join(",")' \
    stringstringstringnumber "JSON: every card has id, title, url, score"
json_is '[.similar[].score] == ([.similar[].score] | sort | reverse)' true \
    "JSON: best first"
json_is '.similar_notice' null "JSON: no notice"
ORDER=$(jq -r '[.similar[].id] | join(",")' "$BODY")

get "$CANON"
is_status 200 "paper HTML"
grep -oP '<section class="similar hairline" id="similar".*?</section>' \
    "$BODY" >"$T_TMP/sec"
[ "$(grep -o '<li class="card">' "$T_TMP/sec" | wc -l)" = 10 ]
ok $? "HTML: a section of 10 cards" "$(head -c 300 "$T_TMP/sec")"
! grep -qF "href=\"$CANON\"" "$T_TMP/sec"
ok $? "HTML: not linking the paper itself"
grep -qF "href=\"$SIM\"" "$T_TMP/sec"
ok $? "HTML: links the similar page"

get "$CANON" -H 'Accept: text/markdown'
is_status 200 "paper markdown"
body_has '## Similar papers' "markdown: the section"
sed -n '/^## Similar papers/,$p' "$BODY" >"$T_TMP/sec"
[ "$(grep -cE '^[0-9]+\. \[' "$T_TMP/sec")" = 10 ]
ok $? "markdown: 10 entries" "$(head -c 300 "$T_TMP/sec")"
! grep -qF "($WEFT_URL$CANON)" "$T_TMP/sec"
ok $? "markdown: not the paper itself"

get "$CANON?format=bib"
is_status 200 "BibTeX unaffected"

# ------------------------------------------------------- /similar
get "/papers/$ID/similar"
is_status 301 "bare id: 301"
header_is Location "$WEFT_URL$SIM" "to the canonical similar page"
get "/papers/${ID}v1/similar?x=1"
is_status 301 "versioned id: 301"
header_is Location "$WEFT_URL$SIM?x=1" "query kept"
get "/papers/$ID-wrong-slug/similar"
is_status 301 "wrong slug: 301"

get "$SIM"
is_status 200 "similar page HTML"
header_has Content-Type text/html "HTML type"
[ "$(grep -o '<li class="card">' "$BODY" | wc -l)" = 10 ]
ok $? "HTML: 10 cards"
headers Link | grep -qF "<$WEFT_URL$SIM>; rel=\"canonical\""
ok $? "rel=canonical"
get "$SIM" -H 'Accept: text/markdown'
is_status 200 "similar page markdown"
[ "$(grep -cE '^[0-9]+\. \[' "$BODY")" = 10 ]
ok $? "markdown: 10 entries"
get "$SIM" -H 'Accept: application/json'
is_status 200 "similar page JSON"
json_is '.items | length' 10 "JSON: 10 items"
json_is '[.items[].id] | join(",")' "$ORDER" "JSON: the paper page's list"
json_is '.paper.arxiv_id' "$ID" "JSON: names the paper"
json_is '.notice' null "JSON: no notice"

get /papers/2512.99998/similar
is_status 404 "unknown paper: 404"
get /papers/2512.99998/similar -H 'Accept: application/json'
is_status 404 "unknown paper, JSON: 404"
json_is '.error.status' 404 "JSON error object"
get /papers/not-an-id/similar
is_status 404 "not an arXiv id: 404"

# ------------------------------------------------------- newer than the index
sql "INSERT INTO papers (arxiv_id, title, slug, primary_category, categories,
    published, source) VALUES ('$NEW', 'After the index', 'after-the-index',
    'cs.SE', '{cs.SE}', '2025-12-01', 'test')" >/dev/null
data_changed
get "/papers/$NEW-after-the-index/similar" -H 'Accept: application/json'
is_status 200 "a paper newer than the index: 200"
json_is '.items | length' 0 "  with no items"
json_is '.notice | test("after the semantic index was built")' true \
    "  and a notice"
get "/papers/$NEW-after-the-index"
is_status 200 "its paper page: 200"
body_has 'after the semantic index was built' "  says why"

# ------------------------------------------------------- no index
sql "CREATE TABLE t_similar_hold AS SELECT * FROM vector_index;
    DELETE FROM vector_index" >/dev/null
index_changed
for rep in text/html text/markdown application/json; do
	get "$SIM" -H "Accept: $rep"
	is_status 200 "no index, $rep: 200"
	body_has 'semantic index is not available' "  with a notice"
done
get "$CANON" -H 'Accept: application/json'
is_status 200 "no index: the paper page is 200"
json_is '.similar | length' 0 "  with no similar papers"
json_is '.similar_notice | test("not available")' true "  and a notice"
restore
index_changed
get "$SIM" -H 'Accept: application/json'
json_is '.items | length' 10 "the index back: 10 again"

done_testing
