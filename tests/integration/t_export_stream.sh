#!/bin/bash
# t_export_stream.sh -- issue 21's loose ends through nginx: long exports
# leave the worker in pieces (no Content-Length, chunked to the client)
# and still hold every paper, parsed by real parsers; capped exports say
# their cap (X-Export-Limit, X-Export-Total); short ones stay ordinary
# responses (Content-Length, ETag).  Every negotiated response names the
# other representations in Link rel=alternate headers, the accounts
# module's (/feed, /account) too; each feed names its other formats and
# its page, and pages name their feeds.  The browse page
# (/search?category=X) offers "follow this category" through an SSI slot
# (one cached copy for everyone) and links the category's feeds.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"

rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
rcli --scan --pattern 'weft:rl:*' | while read -r k; do rcli del "$k" >/dev/null; done
same=(-H "Origin: $WEFT_URL")
NODE_OK=0
[ -d "$WEFT_ROOT/tests/node_modules/@citation-js/plugin-ris" ] && NODE_OK=1

# bib_count: how many entries python3-bibtexparser reads in $BODY.
bib_count() {
	/usr/bin/python3 -c '
import sys, bibtexparser
db = bibtexparser.loads(open(sys.argv[1], encoding="utf-8").read())
print(len(db.entries))
' "$BODY"
}
# cite_parse FMT: $BODY through citation-js, as CSL-JSON on stdout.
cite_parse() {
	NODE_PATH="$WEFT_ROOT/tests/node_modules" node \
	    "$WEFT_ROOT/tests/cite-parse.js" "$BODY" "$1"
}
# streamed NAME: the response came in pieces (chunked, no length).
streamed() {
	[ -z "$(header Content-Length)" ] &&
	    header Transfer-Encoding | grep -qi chunked
	ok $? "$1: streamed (chunked, no Content-Length)" "$(cat "$HDRS")"
}
# pieces_if_long NAME: a body over one piece (64 KB) came in pieces, a
# shorter one whole, with its length.
pieces_if_long() {
	local len
	len=$(wc -c <"$BODY")
	if [ "$len" -gt 65536 ]; then
		streamed "$1 ($len bytes)"
	else
		header_is Content-Length "$len" "$1 ($len bytes): one piece, its length"
	fi
}
# alt MIME NAME: a Link rel=alternate of type MIME.
alt() {
	headers Link | grep -q "rel=\"alternate\"; type=\"$1\""
	ok $? "$2" "$(headers Link)"
}

# ------------------------------------------------------------ a search
# A search with many results: its export is eight pages, more than one
# piece (64 KB), and says so.
S='/search?q=learning'
get "$S&format=bib"
is_status 200 "search BibTeX"
pieces_if_long "search BibTeX"
header_is X-Export-Limit 192 "search BibTeX: X-Export-Limit 192"
total=$(header X-Export-Total)
[ "${total:-0}" -gt 192 ]
ok $? "... X-Export-Total $total, more than the cap"
n=$(bib_count)
[ "$n" = 192 ]
ok $? "search BibTeX: bibtexparser reads all 192 entries" "$n"
get "$S" -H 'Accept: application/vnd.citationstyles.csl+json'
streamed "search CSL-JSON by Accept"
header_absent ETag "... no ETag on a streamed body"
header_absent X-Weft-Cache "... nor the page cache"
jq -e 'length == 192' "$BODY" >/dev/null
ok $? "... a whole JSON array of 192"
if [ $NODE_OK = 1 ]; then
	get "$S&format=ris"
	pieces_if_long "search RIS"
	cite_parse ris >"$T_TMP/r"
	jq -e 'length == 192' "$T_TMP/r" >/dev/null
	ok $? "search RIS: citation-js reads 192 records"
else
	skip "citation-js not installed (cd tests && npm ci)"
fi
head_ "$S&format=bib"
is_status 200 "HEAD of a long export: 200"

# ------------------------------------------------------------ a researcher
# The researcher with the most papers: every one of them, in pieces once
# the export is long.
rid=$(sql "SELECT researcher_id FROM authorships WHERE researcher_id IS NOT NULL
           GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1")
np=$(sql "SELECT count(DISTINCT paper_id) FROM authorships WHERE researcher_id = $rid")
get "/researchers/$rid" -L -H 'Accept: application/json'
R=$(jq -r .url "$BODY")
R=${R#"$WEFT_URL"}
get "$R?format=bib"
is_status 200 "researcher BibTeX"
n=$(bib_count)
[ "$n" = "$np" ]
ok $? "researcher BibTeX: all $np papers" "$n"
pieces_if_long "researcher BibTeX"
get "$R" -H 'Accept: application/x-research-info-systems'
[ "$(grep -c '^ER  - ' "$BODY")" = "$np" ]
ok $? "researcher RIS by Accept: all $np records"

# A short export stays an ordinary response: length, ETag, 304.
get "/papers/2512.20345" -L -H 'Accept: application/x-bibtex'
[ -n "$(header Content-Length)" ] && [ -n "$(header ETag)" ]
ok $? "one paper's BibTeX: Content-Length and ETag"

# ------------------------------------------------------------ /feed
email="stream.$$.$RANDOM@example.org"
signup_verified "$email" "a long enough passphrase $$"
ok $? "a verified account, signed in"
get /account
csrf=$(form_csrf)
cat=$(sql "SELECT c FROM papers, unnest(categories) c GROUP BY 1
            ORDER BY count(*) DESC LIMIT 1")
post /account/follows "${same[@]}" --data-urlencode "csrf=$csrf" \
    -d kind=category --data-urlencode "category=$cat"
is_status 303 "follow $cat"
get /feed -H 'Accept: application/json'
ftotal=$(jq .pagination.total "$BODY")
get "/feed?format=csl"
is_status 200 "/feed CSL-JSON"
streamed "/feed CSL-JSON"
header_is X-Export-Limit 960 "... X-Export-Limit 960"
header_is X-Export-Total "$ftotal" "... X-Export-Total: the feed's $ftotal items"
# The papers of the newest 960 items, each once (a paper and its v2 are
# two items).
nc=$(jq length "$BODY" 2>/dev/null)
[ "${nc:-0}" -gt 900 ] && [ "$nc" -le 960 ] &&
    [ "$(jq '[.[].id] | unique | length' "$BODY")" = "$nc" ]
ok $? "... $nc papers of 960 items, a whole array, each once" "$(head -c 200 "$BODY")"
header_has Cache-Control "private" "... private"
get /feed -H 'Accept: application/x-bibtex'
n=$(bib_count)
[ "$n" = "$nc" ]
ok $? "/feed BibTeX by Accept: bibtexparser reads $nc" "$n"

# ------------------------------------------------------------ Link alternates
get /feed -H 'Accept: application/json'
is_status 200 "/feed JSON"
alt text/markdown "/feed JSON: Link alternate markdown"
alt text/html "/feed JSON: Link alternate HTML"
alt application/x-bibtex "/feed JSON: Link alternate BibTeX"
get /account
alt application/json "/account HTML: Link alternate JSON"
headers Link | grep -q "/account?format=md>"
ok $? "... at its own address" "$(headers Link)"
get "/feed?page=2&format=json"
headers Link | grep -q '/feed?page=2&format=md>; rel="alternate"'
ok $? "/feed?page=2: alternates keep the page, not format=" "$(headers Link)"

for ext in xml atom json; do
	get "/rss/latest.$ext"
	is_status 200 "/rss/latest.$ext"
	for o in xml:application/rss+xml atom:application/atom+xml \
	    json:application/feed+json; do
		[ "${o%%:*}" = "$ext" ] && continue
		headers Link | grep -q "/rss/latest.${o%%:*}>; rel=\"alternate\"; type=\"${o#*:}\""
		ok $? "... Link alternate .${o%%:*}" "$(headers Link)"
	done
	headers Link | grep -q "/rss/latest.$ext>"
	[ $? != 0 ]
	ok $? "... not itself"
	alt text/html "... Link alternate the page"
done
get "/rss/search.atom?q=graph&category=$cat"
headers Link | grep -q "/rss/search.xml?q=graph&category=$cat>; rel=\"alternate\"; type=\"application/rss+xml\""
ok $? "a search's Atom feed: Link to its RSS, query kept" "$(headers Link)"
get "/rss/researchers/$rid.json"
alt application/rss+xml "a researcher's JSON Feed: Link to its RSS"
get "$R"
alt application/rss+xml "a researcher's page: Link to its RSS"
alt application/feed+json "... and JSON Feed"
alt application/x-bibtex "... and BibTeX"

# ------------------------------------------------------------ browse
# One cached copy for everyone: the per-user button is an SSI include.
B="/search?category=$cat"
JAR=$T_TMP/anon get "$B"
is_status 200 "browse $cat, anonymous"
cp "$BODY" "$T_TMP/anon1"
body_has "/account/follows/new?kind=category&amp;category=$cat" \
    "... a follow link (the confirmation form asks to sign in)"
body_lacks 'name="csrf"' "... no per-user form"
body_has "href=\"/rss/categories/$cat.xml\"" "... a visible link to the category's RSS"
grep -q "<link rel=\"alternate\" type=\"application/atom+xml\"[^>]*href=\"/rss/categories/$cat.atom\"" "$BODY"
ok $? "... <link rel=alternate> to its Atom feed"
alt application/feed+json "... Link header to its JSON Feed"
JAR=$T_TMP/anon2 get "$B"
cmp -s "$BODY" "$T_TMP/anon1"
ok $? "... the same bytes for another anonymous reader"
get "$B" -H 'Accept: text/markdown'
body_has "Follow this category (signed in): [" "browse markdown: follow this category ..."
body_has "($WEFT_URL/account/follows/new?kind=category&category=$cat)" "... its link"
body_has "$WEFT_URL/rss/categories/$cat.json" "browse markdown: the JSON Feed"
# Signed in, the slot is the accounts module's form; it says so once
# followed (above, through /account/follows).
get "$B"
body_has 'value="category"' "browse signed in: the SSI slot's form"
body_has 'Following' "... which says $cat is followed"
post /account/follows/remove "${same[@]}" --data-urlencode "csrf=$csrf" \
    -d kind=category -d "id=$(sql "SELECT t.id FROM follow_targets t JOIN users u ON u.id = t.user_id
                  WHERE u.email = '$email' AND t.kind = 'category'")"
is_status 303 "unfollow $cat"
get "$B"
body_has "Follow new papers in $cat" "browse signed in, not following: the follow button"
body_has "name=\"category\" value=\"$cat\"" "... posting the category"
get "/search?category=zz.QQ"
is_status 404 "browse an unknown category: 404"

done_testing
