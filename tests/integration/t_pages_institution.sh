#!/bin/bash
# t_pages_institution.sh -- the institution page and its lookups: id,
# ROR id (bare and as an encoded URL), name (one: 301, several: 300,
# none: 404), in each representation.
. "$(dirname "$0")/lib.sh"

link_has() {
	grep -i '^link: ' "$HDRS" | grep -qF -- "$1"
	ok $? "$2" "no Link header with '$1'"
}

# UCL, ROR 02jx3x895, is in the bundled ROR records.
get "/institutions/02jx3x895"
is_status 301 "bare ROR id redirects"
LOC=$(header Location)
case "$LOC" in
"$WEFT_URL"/institutions/[0-9]*-university-college-london) ok 0 "to UCL's canonical page" ;;
*) ok 1 "to UCL's canonical page" "Location: $LOC" ;;
esac
I=${LOC#"$WEFT_URL"}
IID=$(echo "$I" | sed 's|^/institutions/\([0-9]*\).*|\1|')

for accept in text/html text/markdown application/json; do
	get "$I" -H "Accept: $accept"
	is_status 200 "$accept: 200"
	header_has Content-Type "$accept" "$accept: Content-Type"
	header_has Vary Accept "$accept: Vary"
	link_has "<$WEFT_URL$I>; rel=\"canonical\"" "$accept: canonical"
	etag=$(header ETag)
	rm -f "$BODY"
	get "$I" -H "Accept: $accept" -H "If-None-Match: $etag"
	is_status 304 "$accept: 304"
	n=$(curl -s -I -o /dev/null -w '%{http_code} %{size_download}' \
	    -H "Accept: $accept" "$WEFT_URL$I")
	[ "$n" = "200 0" ]
	ok $? "$accept: HEAD without a body" "got $n"
done
get "$I"
body_has "<h1>University College London</h1>" "html: name"
body_has "https://ror.org/02jx3x895" "html: ROR link"
body_has "United Kingdom" "html: country"
body_has '"@type":"Organization"' "html: JSON-LD Organization"
get "$I" -H "Accept: application/json"
json_is .ror_id 02jx3x895 "json: ror_id"
json_is .ror_url https://ror.org/02jx3x895 "json: ror_url"
json_is .url "$WEFT_URL$I" "json: url"
json_is '.aliases | type' array "json: aliases"
json_is '.researchers | has("total")' true "json: researchers"
json_is '.recent_papers | type' array "json: recent papers"
get "$I" -H "Accept: text/markdown"
body_has "# University College London" "md: title"
body_has "[02jx3x895](https://ror.org/02jx3x895)" "md: ROR link"

# Every way of naming it leads to the canonical page, query kept.
for from in "/institutions/$IID" "/institutions/$IID-wrong" \
    "/institutions/https%3A%2F%2Fror.org%2F02jx3x895" \
    "/institutions/https:%2F%2Fror.org%2F02jx3x895" \
    "/institutions/University%20College%20London" \
    "/institutions/university%20college%20london" \
    "/institutions/university-college-london"; do
	get "$from"
	is_status 301 "$from redirects"
	header_is Location "$WEFT_URL$I" "$from -> canonical"
done
get "/institutions/02jx3x895?format=json"
header_is Location "$WEFT_URL$I?format=json" "query kept"

# An institution with researchers lists them.
get "/institutions" -H "Accept: application/json"
TOP=$(jq -r '.items[0].url' "$BODY")
get "${TOP#"$WEFT_URL"}" -H "Accept: application/json"
is_status 200 "the top institution"
json_is '.researchers.items | length > 0' true "it has researchers"
json_is '.researchers.items[0].url | startswith("'"$WEFT_URL"'/researchers/")' \
    true "researchers linked"

# Papers, 24 a page, newest first, with rel=next/prev; an institution
# with no papers here is noindex.  UCL has none in the bundled data: the
# test links the three researchers with the most papers to it for a
# while (source 'test', removed again below).
get "$I"
body_has '<meta name="robots" content="noindex">' "no papers: robots noindex"
header_is X-Robots-Tag noindex "no papers: X-Robots-Tag"
get "$I" -H "Accept: application/json"
json_is .indexable false "no papers: json indexable false"
json_is .pagination.total 0 "no papers: json total 0"
get "$I" -H "Accept: text/markdown"
header_is X-Robots-Tag noindex "no papers: X-Robots-Tag in markdown"
body_has "No papers yet." "md: no papers yet"
unlink_test() {
	sql "DELETE FROM researcher_institutions WHERE source = 'test'"
	data_changed
}
trap unlink_test EXIT
sql "INSERT INTO researcher_institutions (researcher_id, institution_id,
         source)
     SELECT r.id, $IID, 'test' FROM researchers r
      ORDER BY r.paper_count DESC, r.id LIMIT 3
     ON CONFLICT DO NOTHING"
data_changed
N=$(sql "SELECT count(DISTINCT a.paper_id) FROM authorships a
           JOIN researcher_institutions ri ON ri.researcher_id = a.researcher_id
          WHERE ri.institution_id = $IID")
NEWEST=$(sql "SELECT string_agg(arxiv_id, ' ') FROM (SELECT p.arxiv_id
            FROM papers p
           WHERE p.id IN (SELECT a.paper_id FROM authorships a
                            JOIN researcher_institutions ri
                              ON ri.researcher_id = a.researcher_id
                           WHERE ri.institution_id = $IID)
           ORDER BY p.published DESC NULLS LAST, p.id DESC
           LIMIT 24 OFFSET 24) s")
[ "$N" -gt 48 ]
ok $? "fixture: more than two pages of papers" "$N papers"
PAGES=$(((N + 23) / 24))
get "$I" -H "Accept: application/json"
json_is .indexable true "with papers: indexable"
json_is .pagination.total "$N" "json: total is every paper of its researchers"
json_is '.recent_papers | length' 24 "json: 24 a page"
json_is .pagination.next "$WEFT_URL$I?page=2" "json: next page"
json_is .pagination.prev null "json: no previous on page 1"
header_absent X-Robots-Tag "with papers: no X-Robots-Tag"
get "$I"
body_lacks 'name="robots"' "with papers: no robots meta"
body_has 'rel="next"' "html: pager"
get "$I?page=2" -H "Accept: application/json"
is_status 200 "page 2"
json_is "[.recent_papers[].arxiv_id] | join(\" \")" "$NEWEST" \
    "page 2: papers 25-48, newest first"
json_is .pagination.prev "$WEFT_URL$I" "page 2: previous is the page itself"
link_has "<$WEFT_URL$I?page=3>; rel=\"next\"" "page 2: Link rel=next"
get "$I?page=2" -H "Accept: text/markdown"
body_has "Page 2 of $PAGES" "md: pager"
get "$I?page=$((PAGES + 1))"
is_status 404 "beyond the last page: 404"
get "$I?page=0"
is_status 400 "page 0: 400"
get "/rss/institutions/$IID.xml"
is_status 200 "its RSS feed"
body_has "$(sql "SELECT p.arxiv_id FROM papers p
                  WHERE p.id IN (SELECT a.paper_id FROM authorships a
                                   JOIN researcher_institutions ri
                                     ON ri.researcher_id = a.researcher_id
                                  WHERE ri.institution_id = $IID)
                  ORDER BY p.published DESC NULLS LAST, p.id DESC LIMIT 1")" \
    "RSS: the newest paper"
unlink_test
trap - EXIT

# Several institutions share a name: 300 with the candidates.
get "/institutions/Ministry%20of%20Health"
is_status 300 "ambiguous name: 300"
header_has Content-Type "text/html" "300 in HTML"
body_has "/institutions/" "300 lists candidates"
header_has Vary Accept "300 Vary"
get "/institutions/Ministry%20of%20Health" -H "Accept: application/json"
is_status 300 "300 in JSON"
json_is '.candidates | length > 1' true "json: several candidates"
json_is '.candidates[0].url | startswith("'"$WEFT_URL"'/institutions/")' true \
    "json: candidates have absolute URLs"
get "/institutions/Ministry%20of%20Health" -H "Accept: text/markdown"
is_status 300 "300 in markdown"
body_has "($WEFT_URL/institutions/" "md: absolute candidate links"

# None.
for from in "/institutions/No%20Such%20Institution%20Anywhere" \
    "/institutions/0zzzzzz99" "/institutions/https%3A%2F%2Fror.org%2Fbad" \
    "/institutions/999999999"; do
	get "$from"
	is_status 404 "$from: 404"
done
get "/institutions/999999999" -H "Accept: application/json"
json_is .error.status 404 "404 in JSON"
get "/institutions/$(printf 'x%.0s' $(seq 400))"
is_status 404 "an overlong name: 404"

# The bundled data itself (issue 16, item 7): an institution with papers
# of its researchers, without any test rows.
BI=$(sql "SELECT ri.institution_id FROM researcher_institutions ri
    JOIN authorships a ON a.researcher_id = ri.researcher_id
    WHERE ri.source <> 'test' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1")
[ -n "$BI" ]
ok $? "bundled: an institution whose researchers have papers ($BI)"
get "/institutions/$BI" -L -H "Accept: application/json"
is_status 200 "bundled: its page"
json_is ".pagination.total > 0" true "bundled: it lists papers"
json_is .indexable true "bundled: and is indexable"
get "/institutions/$BI" -L
body_lacks '<meta name="robots" content="noindex">' "bundled html: indexed"

done_testing
