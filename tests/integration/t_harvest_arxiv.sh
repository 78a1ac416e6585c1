#!/bin/bash
# t_harvest_arxiv.sh -- weft-harvest arxiv against a private nginx serving
# recorded arXiv responses: an OAI-PMH run across a resumptionToken, a
# rerun that changes nothing, kill -9 mid-run and a resume, 503 with
# Retry-After, Atom paging and ids, 429 then success, and the failures
# (truncated XML, an HTML error page, a slow server, 50 MB) -- each a
# clear error and no partial rows.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/harvest_nginx.sh"

OAI_IDS="'1303.2033','2401.14034','2401.14036','2401.14038','2401.14040',\
'1706.05371','1706.09418','1707.00874'"
# The papers go, and the researchers by name only they leave without
# papers (an earlier run's), so that a run makes its researchers again.
clean() {
	sql "CREATE TEMP TABLE had AS
	    SELECT DISTINCT a.researcher_id AS id
	      FROM authorships a JOIN papers p ON p.id = a.paper_id
	     WHERE p.arxiv_id IN ($OAI_IDS) OR p.source = 'arxiv-api';
	    DELETE FROM stale_pages WHERE kind = 'paper' AND entity_id IN
	    (SELECT id FROM papers WHERE arxiv_id IN ($OAI_IDS)
	     OR source = 'arxiv-api');
	    DELETE FROM papers WHERE arxiv_id IN ($OAI_IDS)
	     OR source = 'arxiv-api';
	    DELETE FROM researchers r
	     WHERE (r.name_key = 'vilnis liepins' OR r.id IN (SELECT id FROM had))
	       AND r.openalex_id IS NULL AND r.orcid IS NULL AND r.s2_id IS NULL
	       AND NOT EXISTS (SELECT 1 FROM authorships a
	                        WHERE a.researcher_id = r.id);
	    DELETE FROM harvest_cursors;" >/dev/null
}
npapers() { sql "SELECT count(*) FROM papers WHERE arxiv_id IN ($OAI_IDS)"; }
snapshot() {
	sql "SELECT arxiv_id, title, modified_at, author_count,
	    (SELECT count(*) FROM authorships a WHERE a.paper_id = p.id)
	    FROM papers p WHERE arxiv_id IN ($OAI_IDS) ORDER BY 1" | md5sum
}

hv_nginx_up || { echo "1..0 # SKIP nginx did not start"; exit 0; }
[ -x "$HV_BIN" ] || { echo "1..0 # SKIP no $HV_BIN"; exit 0; }
clean
# A researcher known by name only, before the harvest brings a paper of
# that name (its count, 0, is the match's to move: see below).
RC=$(sql "INSERT INTO researchers (name, name_key, slug)
    VALUES ('Vilnis Liepins', 'vilnis liepins', 'vilnis-liepins')
    RETURNING id")
# As if it were older than the last match (which counts the researchers
# made since, match_state), as the researchers of a name usually are.
sql "UPDATE match_state
        SET researchers_upto = greatest(researchers_upto, $RC)" >/dev/null

# --- a full OAI-PMH run across a resumption token, its search words
# merged beside the batches after each page (harvest_merge_every)
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oai/ok WEFT_HARVEST_MERGE_EVERY=1"
T0=$(sql "SELECT now()")
hv arxiv oai --from 2024-01-25 --set cs --prefix oai_dc
is_rc 0 "oai run succeeds"
out_has "8 records" "8 records over two pages"
out_has "2 merges of search words beside the batches (harvest_merge_every 1)" \
    "a merge sent beside the batches after each page"
# Before its first papers, the relations their writes read at random
# were read in order (0098), once for the run.
[ "$(grep -c '^prewarmed for the harvest: [1-9][0-9]* relations\{0,1\}, ' \
    "$HV_OUT")" = 1 ]
ok $? "the run reads its relations ahead once" "$(grep prewarm "$HV_OUT")"
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oai/ok"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($OAI_IDS)" 8 \
    "8 papers written"
sql_is "SELECT count(*) FROM authorships a JOIN papers p ON p.id =
    a.paper_id WHERE p.arxiv_id = '1706.05371'" 13 "13 authorships"
# The run merges its search words into the GIN indexes every
# harvest_merge_every papers and at its end (MERGE_SEARCH_WORDS), the
# merge in flight answered: no pending list is left for searches to
# read.
sql_is "SELECT sum(gin_clean_pending_list(i.indexrelid)) FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
    WHERE i.indrelid = 'papers'::regclass AND a.amname = 'gin'" 0 \
    "the batches left no pending search words"
# Issue 16: abstracts keep their line breaks as the loader keeps them
# (arXiv's hard wrapping; OAI arXiv format, page 2), ends trimmed.
sql_is "SELECT abstract LIKE 'Silicon photomultipliers%', abstract LIKE
    '%' || chr(10) || '%', abstract NOT LIKE '%' || chr(10),
    array_length(string_to_array(abstract, chr(10)), 1) FROM papers
    WHERE arxiv_id = '1706.05371'" "t|t|t|9" \
    "OAI arXiv abstract: its 9 lines kept, ends trimmed"
sql_is "SELECT raw_name FROM authorships a JOIN papers p ON p.id =
    a.paper_id WHERE p.arxiv_id = '1303.2033' AND position = 1" \
    "Vilnis Liepins" "oai_dc creator reordered"
sql_is "SELECT count(*) FROM stale_pages s JOIN papers p ON p.id =
    s.entity_id AND s.kind = 'paper' WHERE p.arxiv_id IN ($OAI_IDS)" 8 \
    "changed papers marked stale"
# The researchers the batches wrote (made, or counted) on their papers:
# each marked stale by the statement that wrote it (0082:
# HV_RECOMPUTE_RESEARCHERS, HV_MARK_MADE).
written="SELECT DISTINCT r.id, r.name, r.modified_at FROM authorships a
            JOIN papers p ON p.id = a.paper_id
            JOIN researchers r ON r.id = a.researcher_id
           WHERE p.arxiv_id IN ($OAI_IDS) AND r.modified_at >= '$T0'"
failed=$T_FAIL
sql_is "SELECT count(*) > 0, count(*) FILTER (WHERE s.entity_id IS NULL)
    FROM ($written) w
    LEFT JOIN stale_pages s ON s.kind = 'researcher' AND s.entity_id = w.id
     AND s.marked_at >= '$T0'" "t|0" "the researchers they wrote marked stale"
# This check failed once in about ten runs in an earlier session and not
# in 40 since: on failure, the researchers it counted and their marks.
[ "$T_FAIL" = "$failed" ] || sql "SELECT w.*, s.marked_at, '$T0' AS t0
    FROM ($written) w
    LEFT JOIN stale_pages s ON s.kind = 'researcher' AND s.entity_id = w.id" |
	sed 's/^/#   /'
sql_is "SELECT done, cursor IS NULL, run_records FROM harvest_cursors
    WHERE source = 'arxiv-oai'" "t|t|8" "cursor done"
grep -q 'verb=ListRecords&resumptionToken=6960524%7C1001$' "$HV_LOG" &&
    ! grep 'resumptionToken=' "$HV_LOG" | grep -q metadataPrefix
ok $? "resumptionToken sent alone with verb"

# --- a rerun changes nothing
before=$(snapshot)
stale_before=$(sql "SELECT max(marked_at) FROM stale_pages")
hv arxiv oai --from 2024-01-25 --set cs --prefix oai_dc
is_rc 0 "rerun succeeds"
[ "$(snapshot)" = "$before" ]
ok $? "rerun: no row changed (modified_at kept)"
sql_is "SELECT max(marked_at) = '$stale_before' FROM stale_pages" t \
    "rerun: nothing marked stale"

# --- a day with nothing new: done, and nothing read ahead
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oai/none"
hv arxiv oai --from 2026-12-07 --set cs --prefix oai_dc
is_rc 0 "noRecordsMatch: the run succeeds"
out_has "0 records" "noRecordsMatch: no records"
! grep -q prewarm "$HV_OUT"
ok $? "a run with no papers reads nothing ahead" "$(grep prewarm "$HV_OUT")"
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oai/ok"

# --- the match counts what the harvest placed by name only
# (HV_RECOMPUTE_RESEARCHERS leaves those to it; MATCH_RECOMPUTE_DAY
# counts every authorship the match decides).
sql_is "SELECT count(*) FROM authorships a JOIN papers p ON p.id =
    a.paper_id WHERE p.arxiv_id = '1303.2033' AND a.researcher_id = $RC
    AND a.match_reason = 'name_key'" 1 \
    "an author placed by name on the researcher known by that name"
sql_is "SELECT paper_count FROM researchers WHERE id = $RC" 0 \
    "its count is left to the match"
hv match
is_rc 0 "the match after the harvest"
sql_is "SELECT count(*) FROM authorships a JOIN papers p ON p.id =
    a.paper_id WHERE p.arxiv_id IN ($OAI_IDS) AND a.name_key <> ''
    AND (a.match_reason IS NULL OR a.match_reason = 'name_key')" 0 \
    "the match decides every harvested authorship"
sql_is "SELECT count(*) FROM researchers r,
      LATERAL (SELECT count(DISTINCT a.paper_id) AS n,
                      max(a.published) AS latest
                 FROM authorships a WHERE a.researcher_id = r.id) x
     WHERE (r.id = $RC OR r.id IN (SELECT a.researcher_id
                                     FROM authorships a
                                     JOIN papers p ON p.id = a.paper_id
                                    WHERE p.arxiv_id IN ($OAI_IDS)))
       AND (r.paper_count, r.latest_paper)
           IS DISTINCT FROM (x.n, x.latest)" 0 \
    "then every researcher of the harvested papers is counted true"
sql_is "SELECT paper_count FROM researchers WHERE id = $RC
     UNION ALL SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM researchers
                                           WHERE id = $RC)" 1 \
    "the researcher known by name counts the paper placed on it"

# --- kill -9 mid-run, then resume
clean
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oai/slow"
hv_bg arxiv oai --from 2024-01-25 --set cs --prefix oai_dc
pid=$HV_PID
for _ in $(seq 100); do
	[ "$(npapers)" = 5 ] && break
	sleep 0.1
done
sleep 1 # well into the slow second page
kill -0 $pid 2>/dev/null
ok $? "the harvester is still in the middle of page two"
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
sleep 0.2
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($OAI_IDS)" 5 \
    "killed: the first page is committed, the second is not"
sql_is "SELECT done, cursor FROM harvest_cursors WHERE source =
    'arxiv-oai'" "f|6960524|1001" "killed: cursor at the token"
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oai/ok"
: >"$HV_LOG"
hv arxiv oai --from 2024-01-25 --set cs --prefix oai_dc
is_rc 0 "resume succeeds"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($OAI_IDS)" 8 \
    "resumed: exactly the 8 papers"
sql_is "SELECT count(*) FROM authorships a JOIN papers p ON p.id =
    a.paper_id WHERE p.arxiv_id IN ($OAI_IDS)" \
    "$(sql "SELECT sum(author_count) FROM papers WHERE arxiv_id IN ($OAI_IDS)")" \
    "resumed: authorships match author counts"
[ "$(grep -c 'verb=ListRecords' "$HV_LOG")" = 1 ] &&
    grep -q 'resumptionToken=' "$HV_LOG"
ok $? "resume asked for the second page only"
sql_is "SELECT done, run_records FROM harvest_cursors WHERE source =
    'arxiv-oai'" "t|8" "resumed run counted 8"

# --- 503 with Retry-After, then success
clean
HV_ENV="WEFT_ARXIV_OAI_URL=$HV_URL/oai/r503"
: >"$HV_LOG"
t0=$(date +%s%N)
hv arxiv oai --from 2024-01-25 --set cs --prefix oai_dc
t1=$(date +%s%N)
is_rc 0 "503 then success"
[ "$(grep -c '^503 GET /oai/r503' "$HV_LOG")" = 1 ]
ok $? "nginx answered 503 once"
out_has "retry 1 of" "the retry is logged"
[ $(((t1 - t0) / 1000000)) -ge 4900 ]
ok $? "Retry-After: 5 was honoured ($(((t1 - t0) / 1000000)) ms)"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($OAI_IDS)" 8 \
    "503: all 8 papers"

# --- Atom API: paging, ids, 429
HV_ENV="WEFT_ARXIV_API_URL=$HV_URL/api/query"
hv arxiv query testing --max 30 --page-size 10
is_rc 0 "atom query paged"
out_has "30 records of 214881" "three pages of ten"
# The recorded 1812.11470 has four paragraphs (lines that begin with two
# spaces): kept.
sql_is "SELECT abstract LIKE 'Context. Multiple%', abstract LIKE
    '%whole.' || chr(10) || '  Objective. In this%' FROM papers WHERE
    arxiv_id = '1812.11470'" "t|t" "Atom abstract: paragraph breaks kept"
sql_is "SELECT count(*) FROM papers WHERE source = 'arxiv-api'" \
    "$(sql "SELECT count(DISTINCT arxiv_id) FROM papers WHERE source =
    'arxiv-api'")" "no duplicates"
[ "$(sql "SELECT count(*) FROM papers WHERE source = 'arxiv-api'")" -ge 29 ]
ok $? "about 30 papers from the API ($(sql "SELECT count(*) FROM papers
    WHERE source = 'arxiv-api'"))"
hv arxiv ids 1707.08567
is_rc 0 "ids: a new-style id"
out_has "1 of 1 found" "found"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id = '1707.08567'" 1 \
    "stored"
hv arxiv ids 0808.05394
is_rc 2 "ids: 0808.05394 (five digits before 1501) refused before asking"
hv arxiv ids not-an-id
is_rc 2 "ids: a bad id is a usage error"
hv arxiv ids astro-ph/0601001
is_rc 0 "old-style id"
sql_is "SELECT journal_ref FROM papers WHERE arxiv_id = 'astro-ph/0601001'" \
    "ActaAstron.56:1-50,2006" "old-style paper stored"
HV_ENV="WEFT_ARXIV_API_URL=$HV_URL/api429/query"
: >"$HV_LOG"
hv arxiv query testing --max 20 --page-size 10
is_rc 0 "429 then success"
grep -q '^429 GET /api429/query' "$HV_LOG"
ok $? "nginx answered 429"
out_has "20 records" "both pages after the retry"

# --- failures: a clear error, nothing written
clean
fail_case() { # NAME URL EXPECTED-MESSAGE [ENV...]
	local name=$1 url=$2 msg=$3
	shift 3
	HV_ENV="WEFT_ARXIV_OAI_URL=$url $*"
	hv arxiv oai --from 2024-01-25 --prefix oai_dc
	is_rc 1 "$name: exit 1"
	out_has "$msg" "$name: says why"
	sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($OAI_IDS)" 0 \
	    "$name: no rows"
	sql_is "SELECT last_error IS NOT NULL FROM harvest_cursors WHERE
	    source = 'arxiv-oai'" t "$name: recorded as the last error"
}
fail_case "truncated XML" "$HV_URL/bad/truncated" "not well-formed XML"
fail_case "HTML error page" "$HV_URL/bad/html" "an HTML page instead of XML"
fail_case "slow server" "$HV_URL/bad/slow" "Timeout was reached" \
    WEFT_HARVEST_TIMEOUT=1500 WEFT_HARVEST_RETRIES=1
fail_case "50 MB response" "$HV_URL/bad/big" "larger than the maximum"
fail_case "50 MB without Content-Length" "$HV_URL/bad/bigchunked" \
    "larger than the maximum"
fail_case "server error" "$HV_URL/bad/500" "HTTP 500" WEFT_HARVEST_RETRIES=2
out_has "gave up after 3 attempts" "server error: retried, then gave up"
fail_case "nobody listening" "http://127.0.0.1:1/oai" "Couldn't connect" \
    WEFT_HARVEST_RETRIES=1

# --- status
hv status
is_rc 0 "status"
out_has "arxiv-oai" "status lists the OAI source"
out_has "failed" "status shows the failure"

clean
done_testing
