#!/bin/bash
# t_harvest_enrich.sh -- weft-harvest openalex and s2 against a private
# nginx serving recorded OpenAlex and Semantic Scholar responses: an
# OpenAlex cursor run (two pages) with the authors it names, S2 paper
# batches with nulls for ids not found, 429 then success, a batch of the
# wrong shape (an error, nothing written), and a rerun that changes
# nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/harvest_nginx.sh"

# In a database of its own: the bundled data holds these papers and
# researchers too (sql/data/openalex_works.jsonl.gz, the OpenAlex author
# records), and the pages' tests read them there (issue 16, item 7);
# deleting and rewriting them in the stack's database undid the bundled
# links for every test that ran after this one.
DB=weft_t_enrich
sql() { psql -h "$WEFT_VAR/pg/run" -U weft -d $DB -Atqc "$1"; }
export WEFT_DB="host=$WEFT_VAR/pg/run dbname=$DB user=weft"
dropdb -h "$WEFT_VAR/pg/run" -U weft --if-exists $DB 2>/dev/null
createdb -h "$WEFT_VAR/pg/run" -U weft $DB || {
	echo "1..0 # SKIP createdb failed"; exit 0; }

# The arXiv papers of A5023888391's works (page 1 holds four of them,
# page 2 four more), made present with their OpenAlex titles.
OA_IDS="'1203.4745','2205.01833','1205.5611','1507.01328','2009.04281',\
'2009.04287','1305.3328','1304.7300'"
S2_IDS="'1203.4746','1203.4747','1203.4748','1203.4749'"
clean() {
	sql "DELETE FROM papers WHERE arxiv_id IN ($OA_IDS) OR arxiv_id IN
	    ($S2_IDS);
	    DELETE FROM researchers WHERE openalex_id IN ('A5023888391',
	    'A5048491430', 'A5014077037');
	    DELETE FROM harvest_cursors;" >/dev/null
}
hv_nginx_up || { echo "1..0 # SKIP nginx did not start"; exit 0; }
[ -x "$HV_BIN" ] || { echo "1..0 # SKIP no $HV_BIN"; exit 0; }
hv migrate
is_rc 0 "migrate the test's own database"
clean
for id in 1203.4745 2205.01833 1205.5611 1507.01328 2009.04281 2009.04287 \
    1305.3328 1304.7300 1203.4746 1203.4747 1203.4748 1203.4749; do
	sql "INSERT INTO papers (arxiv_id, title, primary_category, slug,
	    source) VALUES ('$id', 'test paper $id', 'cs.LG', 'test-paper',
	    'test')" >/dev/null
done

# --- OpenAlex: a cursor run over two pages
HV_ENV="WEFT_OPENALEX_URL=$HV_URL/openalex"
hv openalex works --filter author.id:A5023888391
is_rc 0 "openalex cursor run"
grep -q 'cursor=%2A' "$HV_LOG" && grep -q 'cursor=IlsxMDAu' "$HV_LOG"
ok $? "first page cursor=*, second page by next_cursor"
grep -q 'select=id,doi,ids,cited_by_count,authorships' "$HV_LOG"
ok $? "select= asks only for the fields used"
grep -q 'mailto=tests%40weft.invalid' "$HV_LOG"
ok $? "mailto sent"
sql_is "SELECT citation_count, citation_source FROM papers WHERE
    arxiv_id = '1203.4745'" "345|openalex" "citation count from OpenAlex"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($OA_IDS) AND
    citation_source = 'openalex'" 8 "all eight arXiv works enriched"
# Issue 16: the count comes from the richest work that carries the arXiv
# id, not from the DataCite stub (10.48550/arxiv.*).  In the recorded
# answer 1304.7300's stub W4301494992 (page 2) has 0 citations and its
# journal version W2038196424 (page 1, location arxiv.org/abs/1304.7300)
# 264; 1305.3328: stub 0 (page 2), W2109312864 60 (page 1); 2009.04287:
# stub 1, W3084168212 2 (both page 2); 2205.01833: stub 164 (page 1),
# W4288680697 3 (page 2): the stub, richer, wins.
sql_is "SELECT string_agg(arxiv_id || '=' || citation_count, ' ' ORDER BY
    arxiv_id) FROM papers WHERE arxiv_id IN ('1304.7300', '1305.3328',
    '2009.04287', '2205.01833')" \
    "1304.7300=264 1305.3328=60 2009.04287=2 2205.01833=164" \
    "counts from the work hosted on arXiv; the richer one wins"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($OA_IDS) AND
    citation_at > now() - '1 hour'::interval" 8 "with the date they were taken"
sql_is "SELECT count(*) FROM researchers WHERE openalex_id IN
    ('A5023888391', 'A5048491430', 'A5014077037')" 3 \
    "the authors named became researchers"
sql_is "SELECT h_index IS NOT NULL, metrics_source, metrics_at > now() - '1 hour'::interval
    FROM researchers WHERE openalex_id = 'A5023888391'" "t|openalex|t" \
    "with OpenAlex metrics and their date"
sql_is "SELECT count(*) > 0 FROM stale_pages s JOIN papers p ON
    p.id = s.entity_id AND s.kind = 'paper' WHERE p.arxiv_id = '1203.4745'" \
    t "enriched paper marked stale"
sql_is "SELECT count(*) FROM stale_pages s JOIN researchers r ON
    r.id = s.entity_id AND s.kind = 'researcher' WHERE r.openalex_id IN
    ('A5023888391', 'A5048491430', 'A5014077037')" 3 \
    "the authors it wrote marked stale"
before=$(sql "SELECT md5(string_agg(arxiv_id || modified_at::text, ','
    ORDER BY arxiv_id)) FROM papers WHERE arxiv_id IN ($OA_IDS)")
hv openalex works --filter author.id:A5023888391
is_rc 0 "openalex rerun"
sql_is "SELECT md5(string_agg(arxiv_id || modified_at::text, ','
    ORDER BY arxiv_id)) FROM papers WHERE arxiv_id IN ($OA_IDS)" \
    "$before" "rerun changes nothing"

# --- OpenAlex: an institution where authors were asked (issue 16): the
# run fails with the real cause in status, not "database write failed",
# and writes nothing of the page.
sql "UPDATE papers SET citation_count = NULL, citation_source = NULL
    WHERE arxiv_id IN ($OA_IDS)" >/dev/null
HV_ENV="WEFT_OPENALEX_URL=$HV_URL/oabad"
hv openalex works --filter author.id:A5023888391
is_rc 1 "wrong entity type: exit 1"
out_has "malformed response" "wrong entity type: says why"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($OA_IDS)
    AND citation_source IS NOT NULL" 0 "wrong entity type: nothing written"
sql_is "SELECT last_error LIKE 'malformed response%' FROM harvest_cursors
    WHERE source = 'openalex'" t "status keeps the real cause"
# A list of institutions (recorded) where works were asked: exit 1, the
# cause named, nothing written.
HV_ENV="WEFT_OPENALEX_URL=$HV_URL/oainst"
hv openalex works --filter author.id:A5023888391
is_rc 1 "institutions for works: exit 1"
out_has "wrong entity type: result 0 (I" "institutions for works: says why"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($OA_IDS)
    AND citation_source IS NOT NULL" 0 "institutions for works: nothing written"
sql_is "SELECT last_error LIKE '%wrong entity type%' FROM harvest_cursors
    WHERE source = 'openalex'" t "status names the wrong entity type"

# A Deleted Author record in the authors' answer (recorded: OpenAlex's
# answer for the merged id A5092938886 is A5317838346 "Deleted Author
# ID"): recorded as such, no researcher, the rest written.
sql "DELETE FROM researchers WHERE openalex_id IN ('A5023888391',
    'A5048491430', 'A5014077037')" >/dev/null
HV_ENV="WEFT_OPENALEX_URL=$HV_URL/oadel"
hv openalex works --filter author.id:A5023888391
is_rc 0 "deleted author in the answer: exit 0"
out_has "deleted or merged author records, not made researchers" \
    "deleted author: counted in the output"
sql_is "SELECT count(*) FROM researchers WHERE openalex_id IN
    ('A5317838346', 'A5092938886') OR name ILIKE 'Deleted Author%'" 0 \
    "deleted author: no researcher"
sql_is "SELECT count(*) FROM researchers WHERE openalex_id IN
    ('A5023888391', 'A5048491430', 'A5014077037')" 3 \
    "deleted author: the real authors became researchers"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ($OA_IDS) AND
    citation_source = 'openalex'" 8 "deleted author: the counts written"

HV_ENV="WEFT_OPENALEX_URL=$HV_URL/openalex"
hv openalex works --filter author.id:A5023888391
is_rc 0 "openalex again: the counts back"

# --- S2: a paper batch (first result null: not found)
HV_ENV="WEFT_S2_URL=$HV_URL/s2 WEFT_S2_API_KEY=secret-test-key"
hv s2 papers 1203.4746 1203.4747 1203.4748 1203.4749
is_rc 0 "s2 paper batch"
out_has "3 found of 4" "three found, one null"
grep -q ' /s2/paper/batch?fields=paperId,externalIds,citationCount$' \
    "$HV_LOG"
ok $? "/paper/batch with fields (POST: see the 429 case)"
! grep -q 'secret-test-key' "$HV_OUT" "$HV_LOG"
ok $? "the API key is in no log"
sql_is "SELECT coalesce(citation_count::text, 'null') FROM papers WHERE
    arxiv_id IN ($S2_IDS) ORDER BY arxiv_id" "null
10670
2185
0" "counts by position, null for not found"
sql_is "SELECT citation_source FROM papers WHERE arxiv_id = '1203.4747'" \
    s2 "source s2"
hv s2 papers 1203.4745 1203.4746 1203.4747 1203.4748
sql_is "SELECT citation_count, citation_source FROM papers WHERE
    arxiv_id = '1203.4745'" "345|openalex" "S2 does not overwrite OpenAlex"

# --- 429 then success (a first request takes the zone's one slot)
sql "UPDATE papers SET citation_count = NULL, citation_source = NULL
    WHERE arxiv_id IN ($S2_IDS)" >/dev/null
curl -s -o /dev/null -X POST "$HV_URL/s2l/paper/batch"
HV_ENV="WEFT_S2_URL=$HV_URL/s2l"
: >"$HV_LOG"
hv s2 papers 1203.4746 1203.4747 1203.4748 1203.4749
is_rc 0 "429 then success"
grep -q '^429 POST /s2l/paper/batch' "$HV_LOG"
ok $? "nginx answered 429 first"
sql_is "SELECT count(citation_count) FROM papers WHERE arxiv_id IN
    ($S2_IDS)" 3 "written after the retry"

# --- the wrong shape: an error, nothing written
sql "UPDATE papers SET citation_count = NULL, citation_source = NULL
    WHERE arxiv_id IN ($S2_IDS)" >/dev/null
HV_ENV="WEFT_S2_URL=$HV_URL/s2bad"
hv s2 papers 1203.4746 1203.4747 1203.4748 1203.4749
is_rc 1 "wrong shape: exit 1"
out_has "batch response is not an array" "wrong shape: says why"
sql_is "SELECT count(citation_count) FROM papers WHERE arxiv_id IN
    ($S2_IDS)" 0 "wrong shape: nothing written"

hv status
out_has "openalex" "status lists openalex"
out_has "s2" "status lists s2"

clean
dropdb -h "$WEFT_VAR/pg/run" -U weft --if-exists $DB 2>/dev/null
done_testing
