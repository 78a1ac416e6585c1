#!/bin/bash
# t_harvest_skips.sh -- issue 16: a harvester run that writes nothing
# from a non-empty input, or skips more than HARVEST_MAX_SKIP_PCT (5 %)
# of its records, exits non-zero and `weft-harvest status` shows the
# cause.  OpenAlex and Semantic Scholar here, against real recorded
# answers that hold nothing usable; the other sources are in
# t_harvest_arxiv.sh (OAI and Atom: one bad record refuses the page),
# t_harvest_arxivraw.sh and t_harvest_ror.sh (more than 5 % skipped, no
# ROR record), and once more below for status.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/harvest_nginx.sh"

hv_nginx_up || { echo "1..0 # SKIP nginx did not start"; exit 0; }
[ -x "$HV_BIN" ] || { echo "1..0 # SKIP no $HV_BIN"; exit 0; }
sql "DELETE FROM harvest_cursors" >/dev/null

last_error() { # SOURCE TEXT DESCRIPTION
	sql_is "SELECT done, last_error LIKE '%' || \$\$$2\$\$ || '%'
	    FROM harvest_cursors WHERE source = '$1'" "f|t" "$3"
}

# --- OpenAlex: 24 works, none on arXiv
HV_ENV="WEFT_OPENALEX_URL=$HV_URL/oanone"
hv openalex works --filter cited_by:W2766808518
is_rc 1 "openalex: nothing written from 24 works: exit 1"
out_has "24 records read, none written (none: no work has an arXiv DOI)" \
    "openalex: says why"
last_error openalex "no work has an arXiv DOI" "openalex: status has the cause"
hv status
out_has "no work has an arXiv DOI" "openalex: weft-harvest status shows it"

# --- Semantic Scholar: three papers found, none with a citation count
before=$(sql "SELECT count(*) FROM papers WHERE citation_source = 's2'")
HV_ENV="WEFT_S2_URL=$HV_URL/s2nocount"
hv s2 papers 1203.4746 1203.4747 1203.4748
is_rc 1 "s2: nothing written from three results: exit 1"
out_has "3 records read, none written (first skipped: the result for 1203.4746 has no citationCount)" \
    "s2: says why"
last_error s2 "has no citationCount" "s2: status has the cause"
sql_is "SELECT count(*) FROM papers WHERE citation_source = 's2'" \
    "$before" "s2: nothing written"

# --- the other sources: status shows their cause too
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oairaw/truncated"
hv arxiv oai --from 2007-03-01 --prefix arXivRaw
is_rc 1 "oai: a page cut short: exit 1"
last_error arxiv-oai "not well-formed XML" "oai: status has the cause"
HV_ENV="WEFT_ARXIV_API_URL=$HV_URL/bad/html"
hv arxiv ids 1707.08567
is_rc 1 "atom: an HTML page: exit 1"
last_error arxiv-api "HTML page" "atom: status has the cause"
zcat "$HV_ROOT/sql/data/arxiv-metadata-oai-snapshot.first200.jsonl.gz" |
    head -n 5 >"$T_TMP/papers.jsonl"
hv ror "$T_TMP/papers.jsonl"
is_rc 1 "ror: a dump of papers: exit 1"
last_error ror "no ROR record" "ror: status has the cause"
hv status
for src in arxiv-oai arxiv-api openalex s2 ror; do
	grep -E "^ *$src" "$HV_OUT" | grep -q failed
	ok $? "status: $src failed" "$(cat "$HV_OUT")"
done

sql "DELETE FROM harvest_cursors" >/dev/null
done_testing
