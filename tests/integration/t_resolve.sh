#!/bin/bash
# t_resolve.sh -- every identifier resolves (issue 16): a search for an
# arXiv id (every form), a DOI (arXiv's own and a publisher's) or an
# ORCID answers 301 to its page; /researchers/{ORCID},
# /researchers/openalex:A… and /researchers/s2:{id} answer 301 to the
# researcher; unknown ones stay a search or a 404; a query that is
# exactly a researcher's name lists that researcher first in HTML,
# markdown and JSON.
. "$(dirname "$0")/lib.sh"

enc() { jq -rn --arg v "$1" '$v | @uri'; }
# The Location of a search for q, or "" when it is no redirect.
moved() {
	get "/search?q=$(enc "$1")" "${@:2}"
	[ "$STATUS" = 301 ] && header Location
}

# A paper with an arXiv id, its canonical path.
read -r AID SLUG < <(sql "SELECT arxiv_id, slug FROM papers
    WHERE arxiv_id ~ '^[0-9]{4}\.[0-9]{5}$' ORDER BY id LIMIT 1" | tr '|' ' ')
P=/papers/$AID-$SLUG
for q in "$AID" "${AID}v2" "arXiv:$AID" " arxiv:${AID}v1 " \
    "https://arxiv.org/abs/${AID}v3" "http://arxiv.org/pdf/$AID.pdf" \
    "10.48550/arXiv.$AID" "https://doi.org/10.48550/ARXIV.$AID"; do
	[ "$(moved "$q")" = "$WEFT_URL$P" ]
	ok $? "search '$q' -> 301 to the paper" "status $STATUS"
done
[ "$(moved "$AID" -H 'Accept: application/json')" = "$WEFT_URL$P" ]
ok $? "json client: the same 301"

# Old-style ids and a publisher DOI in any case (the Kaggle records).
read -r OLD OSLUG < <(sql "SELECT arxiv_id, slug FROM papers
    WHERE arxiv_id LIKE '%/%' ORDER BY id LIMIT 1" | tr '|' ' ')
if [ -n "$OLD" ]; then
	[ "$(moved "$OLD")" = "$WEFT_URL/papers/$OLD-$OSLUG" ]
	ok $? "old-style id $OLD -> 301"
else
	skip "no old-style id in this database"
fi
read -r DAID DOI < <(sql "SELECT arxiv_id, doi FROM papers
    WHERE doi IS NOT NULL AND doi NOT ILIKE '10.48550/%'
    ORDER BY id LIMIT 1" | tr '|' ' ')
[ -n "$DOI" ]
ok $? "a paper with a publisher DOI ($DOI)"
DP=$WEFT_URL$(sql "SELECT '/papers/' || arxiv_id || '-' || slug
    FROM papers WHERE arxiv_id = '$DAID'")
[ "$(moved "$DOI")" = "$DP" ]
ok $? "DOI -> 301 to its paper"
[ "$(moved "$(echo "$DOI" | tr 'a-z' 'A-Z')")" = "$DP" ]
ok $? "DOI in capitals -> the same paper"
[ "$(moved "https://doi.org/$DOI")" = "$DP" ]
ok $? "doi.org URL -> the same paper"
[ "$(moved "doi:$DOI")" = "$DP" ]
ok $? "doi: prefix -> the same paper"

# Unknown identifiers stay a search (200, nothing found), never a 5xx.
for q in 9912.99999 10.9999/nothing.here 0000-0002-1825-0097; do
	get "/search?q=$(enc "$q")"
	is_status 200 "unknown '$q': an ordinary search"
done

# Researchers by ORCID, OpenAlex id and S2 id.
read -r RID RSLUG ORCID OA < <(sql "SELECT id, slug, orcid, openalex_id
    FROM researchers WHERE orcid IS NOT NULL AND openalex_id IS NOT NULL
    ORDER BY id LIMIT 1" | tr '|' ' ')
R=$WEFT_URL/researchers/$RID-$RSLUG
[ -n "$ORCID" ]
ok $? "a researcher with an ORCID and an OpenAlex id ($ORCID, $OA)"
get "/researchers/$ORCID"
is_status 301 "/researchers/{ORCID}: 301"
header_is Location "$R" "... to the researcher"
get "/researchers/openalex:$OA"
is_status 301 "/researchers/openalex:A…: 301"
header_is Location "$R" "... to the researcher"
get "/researchers/openalex:$(echo "$OA" | tr 'A' 'a')" -H "Accept: text/markdown"
header_is Location "$R" "lower-case a, markdown client: the same"
[ "$(moved "$ORCID")" = "$R" ]
ok $? "search for the ORCID -> 301 to the researcher"
[ "$(moved "https://orcid.org/$ORCID")" = "$R" ]
ok $? "search for the orcid.org URL -> 301 to the researcher"
# S2 ids: the bundled data carries none; lend one for the test.
trap 'sql "UPDATE researchers SET s2_id = NULL WHERE s2_id = '"'"'999000111'"'"'" >/dev/null' EXIT
sql "UPDATE researchers SET s2_id = '999000111' WHERE id = $RID AND s2_id IS NULL" >/dev/null
get "/researchers/s2:999000111"
is_status 301 "/researchers/s2:{id}: 301"
header_is Location "$R" "... to the researcher"
for u in /researchers/s2:123456789012 /researchers/openalex:A1 \
    /researchers/0000-0002-1825-0097; do
	get "$u" -H "Accept: application/json"
	is_status 404 "$u: 404 (nobody carries it)"
	header_is Content-Type "application/json" "... in JSON"
done
get "/researchers/0000-0002-1825-0098"
is_status 404 "an ORCID with a wrong check digit: 404"

# A query that is exactly a researcher's name lists them first.
read -r NID NAME < <(sql "SELECT id, name FROM researchers
    WHERE paper_count >= 5 AND name ~ '^[A-Za-z]+ [A-Za-z]+$'
      AND (SELECT count(*) FROM papers p
            WHERE p.search_vector @@ plainto_tsquery('english', name)) > 24
    ORDER BY paper_count DESC, id LIMIT 1" | sed 's/|/ /')
[ -n "$NID" ]
ok $? "a researcher whose name matches many papers ($NAME)"
get "/search?q=$(enc "$NAME")" -H "Accept: application/json"
json_is ".exact_researchers[0].id" "$NID" "json: exact_researchers first"
json_is "[keys_unsorted[] ] | (index(\"exact_researchers\") < index(\"results\"))" \
    true "json: before the results"
get "/search?q=$(enc "$NAME")" -H "Accept: text/markdown"
first=$(grep -n -m1 "/researchers/$NID-" "$BODY" | cut -d: -f1)
papers=$(grep -n -m1 '^## Papers' "$BODY" | cut -d: -f1)
[ -n "$first" ] && [ -n "$papers" ] && [ "$first" -lt "$papers" ]
ok $? "md: the researcher before the papers" "line $first vs $papers"
get "/search?q=$(enc "$NAME")"
first=$(grep -bo "/researchers/$NID-" "$BODY" | head -1 | cut -d: -f1)
card=$(grep -bo 'class="cards"' "$BODY" | head -1 | cut -d: -f1)
[ -n "$first" ] && [ -n "$card" ] && [ "$first" -lt "$card" ]
ok $? "html: the researcher before the paper cards" "$first vs $card"
get "/search?q=$(enc "$(echo "$NAME" | tr 'a-z' 'A-Z')")&type=researchers" \
    -H "Accept: application/json"
json_is ".results[0].id" "$NID" "type=researchers: the exact name first"
get "/search?q=$(enc "$NAME")&page=2" -H "Accept: application/json"
json_is ".exact_researchers" null "page 2: not repeated"

done_testing
