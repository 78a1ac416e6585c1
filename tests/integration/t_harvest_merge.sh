#!/bin/bash
# t_harvest_merge.sh -- a second source never loses precision (issue
# 16): a paper known with its arXiv categories (cs.DS, cs.IT, math.NA)
# and three versions is harvested again by OAI-PMH oai_dc, which carries
# only the set name ("cs") and two dc:dates.  The title and the rest are
# written; the categories, the primary category and the longer version
# list stay.  A paper new to the archive takes what oai_dc has.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/harvest_nginx.sh"

OAI_IDS="'1303.2033','2401.14034','2401.14036','2401.14038','2401.14040',\
'1706.05371','1706.09418','1707.00874'"
clean() {
	sql "DELETE FROM stale_pages WHERE kind = 'paper' AND entity_id IN
	    (SELECT id FROM papers WHERE arxiv_id IN ($OAI_IDS));
	    DELETE FROM papers WHERE arxiv_id IN ($OAI_IDS);
	    DELETE FROM harvest_cursors;" >/dev/null
}
row() {
	sql "SELECT title, categories, primary_category,
	    jsonb_array_length(versions), versions->2->>'date'
	    FROM papers WHERE arxiv_id = '$1'"
}
hv_nginx_up || { echo "1..0 # SKIP nginx did not start"; exit 0; }
[ -x "$HV_BIN" ] || { echo "1..0 # SKIP no $HV_BIN"; exit 0; }
clean
sql "INSERT INTO papers (arxiv_id, title, categories, primary_category,
    versions, slug, source) VALUES ('1303.2033', 'old title',
    '{cs.DS,cs.IT,math.NA}', 'cs.DS',
    '[{\"version\": 1, \"date\": \"2013-03-08\"},
      {\"version\": 2, \"date\": \"2019-05-02\"},
      {\"version\": 3, \"date\": \"2024-01-23\"}]', 'old-title', 'test')" \
    >/dev/null
# As the Atom API would give it: first and latest (v4) version.  The OAI
# arXiv format (page 2) knows only that there was a replacement.
sql "INSERT INTO papers (arxiv_id, title, categories, primary_category,
    versions, slug, source) VALUES ('1706.09418', 'old title',
    '{hep-ph,hep-ex}', 'hep-ph',
    '[{\"version\": 1, \"date\": \"2017-06-28\"},
      {\"version\": 4, \"date\": \"2017-11-26\"}]', 'old-title', 'test')" \
    >/dev/null

HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oai/ok"
hv arxiv oai --from 2024-01-25 --set cs --prefix oai_dc
is_rc 0 "oai_dc run succeeds"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($OAI_IDS)" 8 \
    "8 papers written"
sql_is "SELECT title FROM papers WHERE arxiv_id = '1303.2033'" \
    "Extended Fourier analysis of signals" "the known paper was written"
sql_is "SELECT categories, primary_category FROM papers
    WHERE arxiv_id = '1303.2033'" "{cs.DS,cs.IT,math.NA}|cs.DS" \
    "oai_dc kept the precise categories (not the set name)"
sql_is "SELECT jsonb_array_length(versions), versions->2->>'date'
    FROM papers WHERE arxiv_id = '1303.2033'" "3|2024-01-23" \
    "two dc:dates did not shrink three versions"
sql_is "SELECT primary_category FROM papers WHERE arxiv_id = '2401.14034'" \
    "cs" "a new paper takes the set"
# Issue 16: the OAI arXiv format's <updated> is a second version.
sql_is "SELECT versions FROM papers WHERE arxiv_id = '1706.05371'" \
    '[{"date": "2017-06-16", "version": 1}, {"date": "2017-12-12", "version": 2}]' \
    "arXiv format: created and updated, not just [v1]"
sql_is "SELECT versions->1->>'version', versions->1->>'date' FROM papers
    WHERE arxiv_id = '1706.09418'" "4|2017-11-26" \
    "arXiv format's [v1, v2] did not replace the API's [v1, v4]"
before=$(row 1303.2033)
hv arxiv oai --from 2024-01-25 --set cs --prefix oai_dc
is_rc 0 "rerun succeeds"
[ "$(row 1303.2033)" = "$before" ]
ok $? "rerun: the row is unchanged"
sql_is "SELECT versions->1->>'version' FROM papers
    WHERE arxiv_id = '1706.09418'" 4 "rerun: [v1, v4] kept"
clean
done_testing
