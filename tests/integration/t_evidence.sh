#!/bin/bash
# t_evidence.sh -- "why these papers are here": the summary on the
# researcher page (HTML, markdown, JSON), the evidence page
# /researchers/{id}-{slug}/evidence in every representation with its
# redirects, paging and 404s, a same-name profile that the matcher kept
# apart showing why, and a hostile name and title escaped everywhere.
#
# The rows are written with psql in the shape "weft-harvest match" leaves
# them (match_reason, match_score; t_match.sh tests the matcher itself):
#   Quillon Vardemar (R1): 2512.99982 (newest, new_identity 0), and
#     2512.99981 joined by shared co-authors (0.5) with Tessaly Brunn (C),
#     who is on both;
#   a namesake (R2, hostile name) on the older 2512.99980 (hostile
#     title), kept apart: new_identity, best share 0.2.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"

PSQL=(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -v ON_ERROR_STOP=1 -qAtX)
sql() { "${PSQL[@]}" -c "$1"; }
sqlq() { printf '%s' "$1" | sed "s/'/''/g"; }

IDS="'2512.99980','2512.99981','2512.99982','2512.99983','2512.99984'"
rows_delete() {
	sql "DELETE FROM papers WHERE arxiv_id IN ($IDS)" >/dev/null 2>&1
	sql "DELETE FROM researchers WHERE name_key IN ('quillon vardemar',
	    'tessaly brunn', 'orrin plaskett')" >/dev/null 2>&1
	redis-cli -s "$WEFT_VAR/redis/redis.sock" INCR weft:gen >/dev/null 2>&1
}
trap 'rows_delete; rm -rf "$T_TMP"' EXIT
rows_delete

HOSTILE="Quillon Vardemar <script>alert(1)</script> '><img src=x onerror=alert(1)>"
HTITLE="Evidence title </script><script>alert(2)</script> [x](javascript:alert(3))"

researcher() { # NAME KEY SLUG PAPERS
	sql "INSERT INTO researchers (name, name_key, slug, paper_count)
	    VALUES ('$(sqlq "$1")', '$2', '$3', $4) RETURNING id"
}
paper() { # ARXIV DATE TITLE
	sql "INSERT INTO papers (arxiv_id, title, slug, primary_category,
	    categories, published, source, author_count, fully_matched)
	    VALUES ('$1', '$(sqlq "$3")', 'evidence-test', 'cs.SE',
	    '{cs.SE}', '$2', 'test', 2, true) RETURNING id"
}
author() { # PAPER POS NAME RESEARCHER REASON SCORE
	sql "INSERT INTO authorships (paper_id, position, raw_name,
	    researcher_id, match_reason, match_score, name_key)
	    VALUES ($1, $2, '$(sqlq "$3")', $4, '$5', $6, '')"
}
R1=$(researcher "Quillon Vardemar" "quillon vardemar" quillon-vardemar 2)
R2=$(researcher "$HOSTILE" "quillon vardemar" quillon-vardemar 1)
C=$(researcher "Tessaly Brunn" "tessaly brunn" tessaly-brunn 3)
P0=$(paper 2512.99980 2025-12-01 "$HTITLE")
P1=$(paper 2512.99981 2025-12-02 "Evidence test one")
P2=$(paper 2512.99982 2025-12-03 "Evidence test two")
author "$P2" 1 "Quillon Vardemar" "$R1" new_identity 0
author "$P2" 2 "Tessaly Brunn" "$C" single 1
author "$P1" 1 "Tessaly Brunn" "$C" single 1
author "$P1" 2 "Q. Vardemar" "$R1" coauthors 0.5
author "$P0" 1 "Quillon Vardemar" "$R2" new_identity 0.2
author "$P0" 2 "Tessaly Brunn" "$C" single 1
# Two namesakes that OpenAlex tells apart: an external id decided both.
O1=$(sql "INSERT INTO researchers (name, name_key, slug, paper_count,
    openalex_id) VALUES ('Orrin Plaskett', 'orrin plaskett',
    'orrin-plaskett', 1, 'A9999999981') RETURNING id")
O2=$(sql "INSERT INTO researchers (name, name_key, slug, paper_count,
    openalex_id) VALUES ('Orrin Plaskett', 'orrin plaskett',
    'orrin-plaskett', 1, 'A9999999982') RETURNING id")
P3=$(paper 2512.99983 2025-12-04 "Evidence test three")
P4=$(paper 2512.99984 2025-12-05 "Evidence test four")
author "$P3" 1 "Orrin Plaskett" "$O1" openalex_id 1
author "$P4" 1 "Orrin Plaskett" "$O2" openalex_id 1
[ -n "$R1" ] && [ -n "$R2" ] && [ -n "$C" ] && [ -n "$P0" ] && [ -n "$O2" ]
ok $? "rows inserted (researchers $R1 $R2 $C)"
data_changed
RP=/researchers/$R1-quillon-vardemar
EP=$RP/evidence

# ------------------------------------------------------- researcher page
get "$RP"
is_status 200 "researcher page"
body_has '<h2 class="eyebrow">why these papers are here</h2>' \
    "HTML: the summary block"
body_has '<strong>1 paper</strong> by name, with shared co-authors (<a href="/researchers/'"$C"'-tessaly-brunn">Tessaly Brunn</a>)' \
    "HTML: co-author join, naming the shared co-author"
body_has 'by name, started apart from its namesakes' "HTML: the seed"
body_has 'Kept apart from 1 other profile of this name:' "HTML: namesakes"
body_has "href=\"/researchers/$R2-quillon-vardemar\"" \
    "HTML: links the namesake"
body_has "When that profile&#39;s newest paper was matched, at most 20% of its co-authors and fields" \
    "HTML: why the namesake was kept apart (its share)"
body_has "href=\"$EP\"" "HTML: links the evidence page"

get "$RP" -H 'Accept: text/markdown'
is_status 200 "researcher page, markdown"
body_has '## Why these papers are here' "markdown: the section"
body_has '- 1 paper: by name, with shared co-authors \([Tessaly Brunn](' \
    "markdown: co-author join with the name"
body_has "Every paper with its evidence: [$WEFT_URL$EP]($WEFT_URL$EP)" \
    "markdown: absolute link to the evidence page"
body_has 'at most 20% of its co-authors and fields' \
    "markdown: why the namesake was kept apart"

get "$RP" -H 'Accept: application/json'
is_status 200 "researcher page, JSON"
json_is '[.evidence.reasons[] | .reason + ":" + (.papers|tostring)] | sort | join(",")' \
    "coauthors:1,new_identity:1" "JSON: the reasons and their papers"
json_is '.evidence.reasons[] | select(.reason == "coauthors") | .score_avg' \
    0.5 "JSON: the score"
json_is '.evidence.reasons[] | select(.reason == "coauthors") | .coauthors[0].id' \
    "$C" "JSON: the shared co-author"
json_is '.evidence.namesakes.total' 1 "JSON: one namesake"
json_is '.evidence.namesakes.items[0].kept_apart.why' evidence \
    "JSON: kept apart on the evidence"
json_is '.evidence.namesakes.items[0].kept_apart.score' 0.2 \
    "JSON: with the namesake's best share"
json_is '.evidence.namesakes.items[0].kept_apart.paper.arxiv_id' \
    2512.99980 "JSON: and the paper that decided"
json_is '.evidence.url' "$WEFT_URL$EP" "JSON: the evidence page's URL"

get "/researchers/$O1-orrin-plaskett" -H 'Accept: application/json'
is_status 200 "a researcher placed by OpenAlex"
json_is '[.evidence.reasons[] | .reason + ":" + .label] | join(",")' \
    "openalex_id:matched by OpenAlex author id" "JSON: the external id"
json_is '.evidence.namesakes.items[0].kept_apart.why' external_ids \
    "JSON: namesake kept apart by different OpenAlex ids"
json_is '.evidence.namesakes.items[0].kept_apart.text | test("Different OpenAlex author ids")' \
    true "JSON: says so"
get "/researchers/$O1-orrin-plaskett"
body_has '<strong>1 paper</strong> matched by OpenAlex author id' \
    "HTML: the external id"

# ------------------------------------------------------- evidence page
get "/researchers/$R1/evidence?page=1"
is_status 301 "bare id: 301"
header_is Location "$WEFT_URL$EP?page=1" "to the canonical URL, query kept"
get "/researchers/$R1-wrong-slug/evidence"
is_status 301 "wrong slug: 301"
header_is Location "$WEFT_URL$EP" "to the canonical URL"

get "$EP"
is_status 200 "evidence page, HTML"
header_has Content-Type text/html "HTML type"
headers Link | grep -qF "<$WEFT_URL$EP>; rel=\"canonical\""
ok $? "rel=canonical is the evidence page"
body_has '<a href="/papers/2512.99981-evidence-test">Evidence test one</a>' \
    "HTML: a paper"
body_has 'author 2 of 2, as “Q. Vardemar”' "HTML: the name as written"
body_has '<strong>by name, with shared co-authors</strong> · score 0.50' \
    "HTML: the reason and score"
body_has 'Co-authors also on newer papers here: <a href="/researchers/'"$C"'-tessaly-brunn">Tessaly Brunn</a>' \
    "HTML: the shared co-author of that paper"

get "$EP" -H 'Accept: text/markdown'
is_status 200 "evidence page, markdown"
header_has Content-Type text/markdown "markdown type"
body_has '# Why these papers are here: Quillon Vardemar' "markdown: title"
body_has 'author 2 of 2 as Q. Vardemar: by name, with shared co-authors, score 0.50; co-authors also on newer papers: [Tessaly Brunn](' \
    "markdown: the paper's evidence"

get "$EP" -H 'Accept: application/json'
is_status 200 "evidence page, JSON"
json_is '.type' researcher_evidence "JSON: type"
json_is '[.items[].arxiv_id] | join(",")' "2512.99982,2512.99981" \
    "JSON: newest first, the namesake's paper not here"
json_is '.items[1].reason + " " + (.items[1].score|tostring)' \
    "coauthors 0.5" "JSON: reason and score"
json_is '.items[1].shared_coauthors[0].name' "Tessaly Brunn" \
    "JSON: shared co-author"
json_is '.items[1].shared_fields | join(",")' cs.SE "JSON: shared field"
json_is '.items[0].shared_coauthors | length' 0 \
    "JSON: the newest paper has nothing newer to share with"
json_is '.pagination.total' 2 "JSON: pagination"
json_is '.summary.namesakes.items[0].id' "$R2" "JSON: summary included"

# The namesake's own evidence page says the same from its side.
get "/researchers/$R2-quillon-vardemar/evidence" -H 'Accept: application/json'
is_status 200 "namesake's evidence page"
json_is '.items[0].reason + " " + (.items[0].score|tostring)' \
    "new_identity 0.2" "JSON: the namesake started apart, best share 0.2"
json_is '.summary.namesakes.items[0].kept_apart.text | startswith("When this profile")' \
    true "JSON: from its side, its own paper decided"

# ------------------------------------------------------- errors
get /researchers/999999999999/evidence
is_status 404 "unknown researcher: 404"
get /researchers/999999999999/evidence -H 'Accept: application/json'
is_status 404 "unknown researcher, JSON: 404"
json_is '.error.status' 404 "JSON error object"
get "$EP?page=2"
is_status 404 "beyond the last page: 404"
get "$EP?page=0" -H 'Accept: application/json'
is_status 400 "page=0: 400"
get "/researchers/x/evidence"
is_4xx "no id: 4xx"

# ------------------------------------------------------- hostile data
for rep in text/html text/markdown application/json; do
	for path in "$RP" "$EP" "/researchers/$R2-quillon-vardemar/evidence"; do
		get "$path" -H "Accept: $rep"
		[ "$STATUS" = 200 ]
		ok $? "$rep $path: 200"
		case $rep in
		text/html)
			! grep -qF -e '<script>alert' -e '<img src=x' "$BODY"
			ok $? "$rep $path: no payload raw"
			grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$BODY"
			ok $? "$rep $path: the name escaped" ;;
		text/markdown)
			! grep -qE -e '(^|[^\\])<(script|img|/script)' \
			    -e '(^|[^\\])\]\(javascript:' "$BODY"
			ok $? "$rep $path: no raw HTML or script link" ;;
		application/json)
			jq -e . "$BODY" >/dev/null
			ok $? "$rep $path: parses"
			! grep -qF '</script>' "$BODY"
			ok $? "$rep $path: '/' escaped, no </script>" ;;
		esac
	done
done
get "$RP" -H 'Accept: application/json'
json_is '.evidence.namesakes.items[0].name' "$HOSTILE" \
    "JSON: the hostile name as data"
json_is '.evidence.namesakes.items[0].kept_apart.paper.title' "$HTITLE" \
    "JSON: the hostile title as data"

done_testing
