#!/bin/bash
# t_pages_paper.sh -- the paper page in every representation, its
# validators and HEAD, the canonical redirects, and its errors.
. "$(dirname "$0")/lib.sh"

ID=2512.20345
SLUG=a-comprehensive-study-of-bugs-in-modern-distributed-deep-learning-systems
CANON=/papers/$ID-$SLUG
TITLE="A Comprehensive Study of Bugs in Modern Distributed Deep Learning Systems"

# rep_ok PATH ACCEPT CTYPE NAME: 200 with the negotiated headers, then
# If-None-Match gives 304 and HEAD gives the headers without a body.
# Leaves the GET's body in $BODY.
rep_ok() {
	local path=$1 accept=$2 ctype=$3 name=$4 etag n
	get "$path" -H "Accept: $accept"
	is_status 200 "$name: 200"
	header_is Content-Type "$ctype" "$name: Content-Type"
	header_has Vary Accept "$name: Vary: Accept"
	header_has Link "<$WEFT_URL${5:-$CANON}>; rel=\"canonical\"" \
	    "$name: Link rel=canonical, absolute"
	etag=$(header ETag)
	[ -n "$etag" ]
	ok $? "$name: ETag"
	# curl leaves the output file alone when no body arrives.
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

rep_ok "$CANON" "text/html" "text/html; charset=utf-8" "html"
get "$CANON"
body_has "<title>$TITLE · weft</title>" "html: title"
body_has "<h1 class=\"paper-title\">$TITLE</h1>" "html: h1"
body_has 'href="/researchers/' "html: matched authors linked"
body_has "Federica Sarro" "html: last author"
body_has "https://arxiv.org/abs/$ID" "html: arXiv abs link"
body_has "https://arxiv.org/pdf/$ID" "html: PDF link"
body_has "?format=bib" "html: cite-as link"
body_has '"@type":"ScholarlyArticle"' "html: JSON-LD ScholarlyArticle"
body_has '"@type":"BreadcrumbList"' "html: JSON-LD breadcrumbs"
body_has 'property="og:title"' "html: OpenGraph"
body_has 'name="twitter:card"' "html: Twitter card"
body_has 'type="text/markdown"' "html: markdown alternate"
body_has '<link rel="stylesheet" href="/static/weft.css">' "html: CSS"
body_has 'action="/search"' "html: search form"
# Anonymous: nginx sends the page unparsed (SSI only with a session
# cookie); the signed-out HTML is the else branch, the rest comments.
body_has '<!--# else -->' "html: anonymous page not parsed for SSI"
body_has 'href="/signin"' "html: signed-out account slot"
body_lacks 'style=' "html: no inline style"
body_has 'not affiliated with arXiv' "html: footer attribution"

rep_ok "$CANON" "text/markdown" "text/markdown; charset=utf-8" "md"
body_has "# A Comprehensive Study of Bugs" "md: title"
body_has "($WEFT_URL/researchers/" "md: absolute author links"
body_has "## Abstract" "md: abstract"
body_lacks "<html" "md: no chrome"

rep_ok "$CANON" "application/json" "application/json" "json"
get "$CANON" -H "Accept: application/json"
json_is .arxiv_id "$ID" "json: arxiv_id"
json_is .title "$TITLE" "json: title"
json_is .url "$WEFT_URL$CANON" "json: canonical url"
json_is '.authors | length' 6 "json: six authors"
json_is '.authors[0].name' "Xiaoxue Ma" "json: first author in order"
json_is '.authors[5].name' "Federica Sarro" "json: last author in order"
json_is .primary_category cs.SE "json: primary category"
json_is .citation_count null "json: unknown citations are null"
json_is .links.pdf "https://arxiv.org/pdf/$ID" "json: pdf"

rep_ok "$CANON" "application/x-bibtex" "application/x-bibtex; charset=utf-8" \
    "bib"
get "$CANON?format=bib"
is_status 200 "format=bib: 200"
body_has "@misc{" "bib: entry"
body_has "eprint = {$ID}" "bib: eprint"
body_has "archivePrefix = {arXiv}" "bib: archivePrefix"
body_has "author = {Xiaoxue Ma and Wanwei Zhan" "bib: authors"

for f in md json; do
	get "$CANON?format=$f" -H "Accept: text/html"
	is_status 200 "?format=$f overrides Accept"
done
get "$CANON?format=md"
header_is Content-Type "text/markdown; charset=utf-8" "?format=md type"

# Redirects, query kept.
for from in "/papers/$ID" "/papers/${ID}v1" "/papers/${ID}v3" \
    "/papers/$ID-wrong-slug" "/papers/${ID}v2-wrong" "/papers/arXiv:$ID"; do
	get "$from"
	is_status 301 "$from redirects"
	header_is Location "$WEFT_URL$CANON" "$from -> canonical"
done
get "/papers/$ID?format=json&x=1"
is_status 301 "bare id with query redirects"
header_is Location "$WEFT_URL$CANON?format=json&x=1" "query string kept"
json_is .location "$WEFT_URL$CANON?format=json&x=1" "redirect body in JSON"
get "/papers/${ID}v2" -H "Accept: text/markdown"
is_status 301 "versioned id redirects for markdown"
header_has Content-Type "text/markdown" "redirect note in markdown"

# A paper with versions lists them on the canonical page.
get "/papers/0704.0028"
is_status 301 "kaggle paper redirects"
get "$(header Location | sed "s|^$WEFT_URL||")?format=json"
json_is '.versions | length' 2 "versions known"
get "$(echo "/papers/0704.0028" )" -L
body_has "v2" "canonical page lists the versions"

# Errors in every representation.
get "/papers/2512.99999"
is_status 404 "unknown paper: 404"
header_has Content-Type "text/html" "404 html"
body_has "This page is not here" "404 page designed"
get "/papers/2512.99999" -H "Accept: application/json"
is_status 404 "unknown paper json: 404"
json_is .error.status 404 "404 json body"
get "/papers/2512.99999" -H "Accept: text/markdown"
is_status 404 "unknown paper md: 404"
header_has Content-Type "text/markdown" "404 markdown"
for p in /papers/math.GT/0309136 /papers/hep-th/9901001v2 \
    /papers/hep-th/9901001-some-title; do
	get "$p"
	is_status 404 "old-style id not in the data: $p is 404"
done
get "/papers/not-an-id"
is_status 404 "garbage id: 404"
get "/papers/2512.203456"
is_status 404 "trailing digits: 404"
get "$CANON" -H "Accept: image/png"
is_status 406 "unacceptable type: 406"
get "$CANON" -H "Accept: image/png, application/json;q=0"
is_status 406 "q=0 excludes: 406"
get "$CANON?format=rss"
is_status 406 "format=rss on a paper: 406"
get "$CANON?format=nope" -H "Accept: application/json"
is_status 406 "unknown format: 406"
json_is .error.status 406 "406 in JSON"

# MSC/ACM class codes: shown on the paper page, never as categories.
read -r CAID CODE < <(sql "SELECT arxiv_id, class_codes[1] FROM papers
    WHERE cardinality(class_codes) > 0 ORDER BY id LIMIT 1" | tr '|' ' ')
if [ -n "$CAID" ]; then
	get "/papers/$CAID" -L -H "Accept: application/json"
	json_is "(.class_codes | index(\"$CODE\")) != null" true \
	    "json: class code $CODE in class_codes"
	json_is "(.categories | index(\"$CODE\")) == null" true \
	    "json: ... and not among the categories"
	get "/papers/$CAID" -L
	body_has "<dt>Classes</dt><dd>" "html: a Classes fact"
	get "/papers/$CAID" -L -H "Accept: text/markdown"
	body_has "- Classes (MSC/ACM): " "md: a Classes line"
else
	skip "no paper with class codes in this database"
fi

# A name that arrived double-encoded is shown repaired: the raw form
# stays in authorships.raw_name (issue 16).  The test writes one for a
# while: author 6 of 2512.20345 as "MÃ¤ntylÃ¤" (UTF-8 read as
# Windows-1252), once and twice.
RAW6=$(sql "SELECT raw_name FROM authorships a JOIN papers p ON p.id = a.paper_id
             WHERE p.arxiv_id = '2512.20345' AND a.position = 6")
restore6() {
	sql "UPDATE authorships a SET raw_name = '$RAW6' FROM papers p
	      WHERE p.id = a.paper_id AND p.arxiv_id = '2512.20345'
	        AND a.position = 6"
	data_changed
}
trap restore6 EXIT
for raw in 'Ville MÃ¤ntylÃ¤' 'Ville MÃƒÂ¤ntylÃƒÂ¤'; do
	sql "UPDATE authorships a SET raw_name = '$raw' FROM papers p
	      WHERE p.id = a.paper_id AND p.arxiv_id = '2512.20345'
	        AND a.position = 6"
	data_changed
	get /papers/2512.20345 -L -H "Accept: application/json"
	json_is '.authors[5].name' 'Ville Mäntylä' "json: '$raw' shown repaired"
	json_is '.authors[5].raw_name' "$raw" "json: the raw form kept"
	get /papers/2512.20345 -L
	body_has 'Ville Mäntylä' "html: '$raw' shown repaired"
	body_lacks 'MÃ' "html: no mojibake left"
done
restore6
trap - EXIT
[ "$(sql "SELECT raw_name FROM authorships a JOIN papers p ON p.id = a.paper_id
           WHERE p.arxiv_id = '2512.20345' AND a.position = 6")" = "$RAW6" ]
ok $? "the raw name is back"


# The versions block: each version with its date, linking arXiv's page
# of that version (abs/IDvN), in HTML, markdown and JSON.
V=0704.0001
get "/papers/$V" -H "Accept: application/json"
VC=$(header Location | sed "s|^$WEFT_URL||")
get "$VC" -H "Accept: application/json"
json_is '.versions | length' 2 "versions json: two versions"
json_is '.versions[1].url' "https://arxiv.org/abs/${V}v2" "versions json: url"
json_is '.versions[1].date' 2007-07-24 "versions json: date"
get "$VC"
body_has "<a href=\"https://arxiv.org/abs/${V}v2\">v2</a>" \
    "versions html: v2 links arXiv's abs page"
body_has '<time datetime="2007-07-24"' "versions html: v2's date"
get "$VC" -H "Accept: text/markdown"
body_has "[v2](https://arxiv.org/abs/${V}v2) \\(2007-07-24\\)" \
    "versions markdown: link and date"

done_testing
