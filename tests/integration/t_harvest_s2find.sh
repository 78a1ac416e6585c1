#!/bin/bash
# t_harvest_s2find.sh -- weft-harvest s2 search, s2 bulk, s2 recommend and
# s2 similar against a private nginx serving Semantic Scholar's recorded
# answers (tests/data/harvest/s2, from the semanticscholar client's
# cassettes): a search over two pages by offset, a one-page search, an
# empty search, bulk pages followed by token, recommendations from lists
# (POST) and for one paper; for each shape an author list where papers
# are expected, S2's error answers with their recorded status, and pages
# cut short: exit status and rows written (s2_papers) each time.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/harvest_nginx.sh"

hv_nginx_up || { echo "1..0 # SKIP nginx did not start"; exit 0; }
[ -x "$HV_BIN" ] || { echo "1..0 # SKIP no $HV_BIN"; exit 0; }
sql "DELETE FROM s2_papers; DELETE FROM harvest_cursors" >/dev/null
rows() { sql "SELECT count(*) FROM s2_papers"; }
last_error() { # TEXT DESCRIPTION
	sql_is "SELECT done, last_error LIKE '%' || \$\$$1\$\$ || '%'
	    FROM harvest_cursors WHERE source = 's2'" "f|t" "$2"
}
HV_ENV="WEFT_S2_URL=$HV_URL/s2f/graph/v1"

# --- relevance search: two pages by offset, then --limit stops it
hv s2 search turing --limit 200
is_rc 0 "search: two pages"
grep -q '^200 GET /s2f/graph/v1/paper/search?query=turing&fields=paperId,title,externalIds,citationCount,year,authors&offset=0&limit=100$' "$HV_LOG"
ok $? "search: page 1 at offset 0, the fields read"
grep -q '^200 GET /s2f/graph/v1/paper/search?query=turing&.*&offset=100&limit=100$' "$HV_LOG"
ok $? "search: page 2 at the next offset the answer gave"
sql_is "SELECT count(*) FROM s2_papers WHERE found_by = 'search'
    AND query = 'turing'" 200 "search: 200 papers written"
sql_is "SELECT title FROM s2_papers
    WHERE s2_id = 'c1126fbffd6b8547a44c58b192b36b08b18299de'" \
    "Neural Turing Machines" "search: with their titles"
out_has "200 papers (0 with an arXiv id, 0 of them here), 0 deleted" \
    "search: counts printed"
sql_is "SELECT done, run_records FROM harvest_cursors WHERE source = 's2'" \
    "t|200" "search: status done, 200 records"
hv s2 search turing --limit 200
is_rc 0 "search again"
sql_is "SELECT count(*) FROM s2_papers" 200 "search again: no new rows"

# One page (89 results, no next), then citation counts.
: >"$HV_LOG"
hv s2 search 'sublinear near optimal edit distance'
is_rc 0 "search: a single page"
sql_is "SELECT count(*) FROM s2_papers WHERE query LIKE 'sublinear%'" 89 \
    "search: its 89 papers"
[ "$(grep -c 'paper/search?' "$HV_LOG")" = 1 ]
ok $? "search: no next, one request"
hv s2 search mincite
is_rc 0 "search: citation counts"
sql_is "SELECT citation_count FROM s2_papers
    WHERE s2_id = '6b0f06617d9f5256a80ed62d9398acb92a55a6bd'" 4340 \
    "search: citationCount kept"
sql_is "SELECT title IS NOT NULL FROM s2_papers
    WHERE s2_id = '6b0f06617d9f5256a80ed62d9398acb92a55a6bd'" t \
    "search: a later answer without title keeps the title"
# An empty result (recorded: {"total": 0, "offset": 0}).
before=$(rows)
hv s2 search nothing
is_rc 0 "empty search: exit 0"
out_has "0 papers" "empty search: says so"
sql_is "SELECT count(*) FROM s2_papers" "$before" "empty search: nothing written"

# --- bulk search: three pages, each naming the next by its token
before=$(rows)
: >"$HV_LOG"
hv s2 bulk kubernetes
is_rc 0 "bulk: three pages"
[ "$(grep -c 'paper/search/bulk?' "$HV_LOG")" = 3 ]
ok $? "bulk: three requests"
grep -q 'bulk?query=kubernetes&token=PCOKWVSK[A-Z0-9]*&fields=' "$HV_LOG" &&
    grep -q 'bulk?query=kubernetes&token=PCOA3RZLB2ADAEAF[A-Z0-9]*&fields=' \
	"$HV_LOG"
ok $? "bulk: each page's token sent for the next"
sql_is "SELECT count(*) FROM s2_papers WHERE found_by = 'bulk'" 2674 \
    "bulk: all 2674 papers written"
sql_is "SELECT cursor IS NULL, done, complete FROM harvest_cursors
    WHERE source = 's2'" "t|t|2674" "bulk: done, total recorded"
# --limit: stops after the page that reaches it.
sql "DELETE FROM s2_papers WHERE found_by = 'bulk'" >/dev/null
: >"$HV_LOG"
hv s2 bulk kubernetes --limit 1500
is_rc 0 "bulk --limit"
sql_is "SELECT count(*) FROM s2_papers WHERE found_by = 'bulk'" 2000 \
    "bulk --limit 1500: two whole pages"
# Page 2 cut short: page 1 stays written, nothing of page 2.
sql "DELETE FROM s2_papers WHERE found_by = 'bulk'" >/dev/null
HV_ENV="WEFT_S2_URL=$HV_URL/s2trunc/graph/v1"
hv s2 bulk kubernetes
is_rc 1 "bulk, page 2 truncated: exit 1"
out_has "malformed response from $HV_URL/s2trunc/graph/v1: not JSON" \
    "bulk truncated: says why"
sql_is "SELECT count(*) FROM s2_papers WHERE found_by = 'bulk'" 1000 \
    "bulk truncated: page 1 written, nothing of page 2"
last_error "not JSON" "bulk truncated: status has the cause"
HV_ENV="WEFT_S2_URL=$HV_URL/s2f/graph/v1"

# --- search: the wrong entity type, an error answer, a page cut short
before=$(rows)
hv s2 search authors
is_rc 1 "search answered with authors: exit 1"
out_has "wrong entity type: result 0 is an author (authorId 2259683), not a paper" \
    "authors: says why"
last_error "wrong entity type" "authors: status has the cause"
hv s2 search badfields
is_rc 1 "search error answer: exit 1"
out_has "error response (HTTP 400) from $HV_URL/s2f/graph/v1: Semantic Scholar error: Unrecognized or unsupported fields: [unknown]" \
    "error answer: S2's message"
last_error "Unrecognized or unsupported fields" "error answer: in status"
hv s2 search truncated
is_rc 1 "search page cut short: exit 1"
out_has "not JSON" "truncated: says why"
sql_is "SELECT count(*) FROM s2_papers" "$before" \
    "wrong type, error, truncated: nothing written"

# --- recommendations from lists (POST) and for one paper (GET)
: >"$HV_LOG"
hv s2 recommend 10.1145/3544585.3544600 --negative 10.1145/301250.301271
is_rc 0 "recommend: from lists"
# nginx answers only a POST there; its log shows the redirect's GET.
grep -q '^200 [A-Z]* /s2f/recommendations/v1/papers?fields=paperId,title,externalIds,citationCount,year,authors&limit=100$' "$HV_LOG"
ok $? "recommend: POST beside /graph/v1" "$(grep recommend "$HV_LOG")"
sql_is "SELECT count(*) FROM s2_papers WHERE found_by = 'recommend'
    AND query = '+10.1145/3544585.3544600 -10.1145/301250.301271'" 100 \
    "recommend: 100 papers written"
hv s2 similar 10.2139/ssrn.2250500 --pool all-cs --limit 100
is_rc 0 "similar: for one paper"
grep -q '^200 GET /s2f/recommendations/v1/papers/forpaper/10.2139/ssrn.2250500?fields=.*&limit=100&from=all-cs$' "$HV_LOG"
ok $? "similar: forpaper, the DOI in the path, the pool"
sql_is "SELECT count(*) FROM s2_papers WHERE found_by = 'similar'" 100 \
    "similar: 100 papers written"
hv s2 similar 2512.20345
grep -q 'forpaper/ARXIV%3A2512.20345?' "$HV_LOG"
ok $? "similar: an arXiv id sent as ARXIV:id"
before=$(rows)
hv s2 similar 0
is_rc 1 "similar, paper not found: exit 1"
out_has "error response (HTTP 404) from $HV_URL/s2f/graph/v1: Semantic Scholar error: Paper with id 0 not found" \
    "not found: S2's message"
HV_ENV="WEFT_S2_URL=$HV_URL/s2neg/graph/v1"
hv s2 recommend 10.1145/3544585.3544600
is_rc 1 "recommend, S2 refuses the lists: exit 1"
out_has "Semantic Scholar error: No positive paper examples given" \
    "refused lists: S2's message"
HV_ENV="WEFT_S2_URL=$HV_URL/s2auth/graph/v1"
hv s2 similar 10.2139/ssrn.2250500
is_rc 1 "similar answered with authors: exit 1"
out_has "wrong entity type: result 0 is an author" "authors: says why"
sql_is "SELECT count(*) FROM s2_papers" "$before" \
    "not found, refused, wrong type: nothing written"
hv s2 similar 'two words'
is_rc 2 "a bad id: usage"

hv status
grep -E '^ *s2' "$HV_OUT" | grep -q failed
ok $? "status: s2 failed, with its cause" "$(cat "$HV_OUT")"

sql "DELETE FROM s2_papers; DELETE FROM harvest_cursors" >/dev/null
done_testing
