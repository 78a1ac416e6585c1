#!/bin/bash
# t_analyse.sh -- weft-harvest analyse on the test stack's database:
# the extractive analysis of the bundled papers (the stack's start runs
# it), a rerun that does nothing, resumability (papers forgotten, a run
# cut by --limit, the next run finishing them), the type rules'
# evaluation, the analysis on the paper page in JSON (the seven keys,
# null until analysed), HTML and markdown, the type on cards; then a
# sample through the fake LLM endpoint (tests/fakellm): answers taken,
# a stream broken in the middle tried again and recorded as failed,
# skipped by the next run, tried again with --retry-failed.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"
ROOT=${WEFT_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${WEFT_HARVEST:-$ROOT/build-san/weft-harvest}
sql() { psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atqc "$1"; }
sql_is() {
	local v
	v=$(sql "$1")
	[ "$v" = "$2" ]
	ok $? "$3" "'$1' gave '$v', want '$2'"
}
# Extractive unless HV_LLM names an endpoint: the stack's own llm_url
# (tests/run.sh exports WEFT_LLM_URL) is not this test's.
hv() {
	env WEFT_CONF="$WEFT_VAR/weft.conf" WEFT_LLM_URL="${HV_LLM:-}" \
	    "$BIN" "$@" >"$T_TMP/hv.out" 2>&1
	HV_RC=$?
}
# A new cache generation; the workers read it once a second.
gen() {
	redis-cli -s "$WEFT_VAR/redis/redis.sock" INCR weft:gen >/dev/null
	sleep 1.2
}
[ -x "$BIN" ] || { echo "1..0 # SKIP no $BIN"; exit 0; }
ID=2512.20345
BAD=9912.00017
clean() { sql "DELETE FROM papers WHERE arxiv_id = '$BAD'" >/dev/null; }
trap 'clean; fakellm_stop; rm -rf "$T_TMP"' EXIT
clean

# ------------------------------------------------ extractive, everything
hv analyse
[ "$HV_RC" = 0 ]
ok $? "analyse exits 0" "$(cat "$T_TMP/hv.out")"
sql_is "SELECT count(*) FROM papers WHERE analysed_at IS NULL" 0 \
    "every bundled paper is analysed"
hv analyse
grep -q "^analyse: 0 analysed, 0 failed" "$T_TMP/hv.out"
ok $? "a rerun analyses nothing" "$(cat "$T_TMP/hv.out")"
sql_is "SELECT count(DISTINCT analysis_model) || ' ' ||
	min(analysis_model) FROM papers" "1 extractive-1" \
    "all by the extractive model"
sql_is "SELECT count(*) FROM papers WHERE novelty IS NOT NULL
	OR significance_score IS NOT NULL" 0 \
    "extractive: novelty and significance stay null"
sql_is "SELECT count(*) FROM papers WHERE summary IS NULL
	AND abstract <> ''" 0 "every paper with an abstract has a summary"
sql_is "SELECT count(*) FROM papers WHERE abstract <> '' AND
	position(left(regexp_replace(summary, '\s+', ' ', 'g'), 25) IN
	    regexp_replace(abstract, '\s+', ' ', 'g')) = 0" 0 \
    "summaries start with a sentence of the abstract"
sql_is "SELECT count(*) > 0.9 * (SELECT count(*) FROM papers)
	FROM papers WHERE cardinality(topics) >= 3" t \
    "nine papers in ten have three topics or more"
sql_is "SELECT count(*) FROM papers WHERE research_field IS NULL
	AND primary_category <> ''" 0 \
    "every paper with an arXiv category has a research field"
sql_is "SELECT count(*) FROM papers WHERE research_field IS NOT NULL
	AND primary_category = ''" 0 \
    "a paper without a category gets no guessed field"
sql_is "SELECT research_field FROM papers WHERE arxiv_id = '$ID'" \
    "Computer Science › Software Engineering" "cs.SE's field"
sql_is "SELECT count(DISTINCT paper_type) >= 5 FROM papers" t \
    "at least five types occur"

# ------------------------------------------------------ resumability
sql "UPDATE papers SET analysed_at = NULL, summary = NULL, topics = NULL,
	paper_type = NULL, research_field = NULL, analysis_model = NULL
      WHERE id IN (SELECT id FROM papers ORDER BY id DESC LIMIT 50)" \
    >/dev/null
hv analyse --limit 20 --batch 7
sql_is "SELECT count(*) FROM papers WHERE analysed_at IS NULL" 30 \
    "a run cut after 20 papers leaves 30"
hv analyse --concurrency 3
grep -q "^analyse: 30 analysed, 0 failed" "$T_TMP/hv.out"
ok $? "the next run does the 30 left" "$(cat "$T_TMP/hv.out")"
sql_is "SELECT count(*) FROM papers WHERE analysed_at IS NULL" 0 \
    "nothing left"
# Stopped by a signal in the middle: what was written stays, the batch
# in flight is dropped, and the next run goes on from there.  Without a
# terminal each batch logs its progress with the rate and the ETA.
sql "UPDATE papers SET analysed_at = NULL, summary = NULL, topics = NULL,
	paper_type = NULL, research_field = NULL, analysis_model = NULL
      WHERE id IN (SELECT id FROM papers ORDER BY id DESC LIMIT 600)" \
    >/dev/null
env WEFT_CONF="$WEFT_VAR/weft.conf" WEFT_LLM_URL= "$BIN" analyse --batch 10 \
    >"$T_TMP/hv.out" 2>&1 &
hvpid=$!
for _ in $(seq 200); do
	[ "$(sql "SELECT count(*) FROM papers WHERE analysed_at IS NULL")" -le 500 ] &&
	    break
	sleep 0.05
done
kill -TERM "$hvpid"
wait "$hvpid"
HV_RC=$?
left=$(sql "SELECT count(*) FROM papers WHERE analysed_at IS NULL")
total=600
grep -q "stopped: run again to go on" "$T_TMP/hv.out"
ok $? "SIGTERM mid-run: stops saying how to go on (exit $HV_RC)" \
    "$(tail -3 "$T_TMP/hv.out")"
[ "$left" -gt 0 ] && [ "$left" -lt "$total" ]
ok $? "... with part of the papers done ($left of $total left)"
grep '"harvest.batch"' "$T_TMP/hv.out" | grep -q 'records.*/s, ETA [0-9]*:[0-9][0-9]'
ok $? "progress lines with the rate and the ETA" "$(grep -m2 batch "$T_TMP/hv.out")"
hv analyse
grep -q "^analyse: $left analysed, 0 failed" "$T_TMP/hv.out"
ok $? "the next run does exactly the $left left" "$(tail -2 "$T_TMP/hv.out")"
sql_is "SELECT count(*) FROM papers WHERE analysed_at IS NULL" 0 \
    "nothing left after the resumed run"
hv analyse --ids "$ID" --redo
sql_is "SELECT count(*) FROM papers WHERE analysed_at IS NULL" 0 \
    "--redo --ids redoes the whole set"

# ------------------------------------------------------- the type rules
hv analyse --eval "$ROOT/tests/data/analyse/paper_types.tsv"
grep -q "held-out" "$T_TMP/hv.out"
ok $? "--eval prints the held-out accuracy" "$(cat "$T_TMP/hv.out")"
sed -n 's/^/# /p' "$T_TMP/hv.out" | grep -v "^# miss"

# ------------------------------------------------------------- pages
gen
get "/papers/$ID"
CANON=$(header Location)
CANON=${CANON#"$WEFT_URL"}
get "$CANON" -H 'Accept: application/json'
is_status 200 "paper JSON"
json_is '[has("analysed","summary","topics","novelty","significance_score","paper_type","research_field")] | all' \
    true "JSON: the seven keys"
json_is '.analysed' true "JSON: analysed"
json_is '.summary | type' string "JSON: a summary"
json_is '.topics | type' array "JSON: topics"
json_is '.novelty' null "JSON: no novelty (extractive)"
json_is '.significance_score' null "JSON: no score (extractive)"
json_is '.analysis.model' extractive-1 "JSON: the model"
json_is '.research_field' "Computer Science › Software Engineering" \
    "JSON: the field"
TYPE=$(jq -r .paper_type "$BODY")
SUMMARY=$(jq -r .summary "$BODY")
get "$CANON"
is_status 200 "paper HTML"
body_has 'class="analysis"' "HTML: the summary block"
body_has "${SUMMARY:0:40}" "HTML: the summary"
get "$CANON" -H 'Accept: text/markdown'
body_has "## Summary" "markdown: the Summary section"
body_has "- Type: " "markdown: the type"
body_has "- Topics: " "markdown: the topics"

# not analysed: the keys are there, null
sql "UPDATE papers SET analysed_at = NULL WHERE arxiv_id = '$ID'" >/dev/null
gen
get "$CANON" -H 'Accept: application/json'
json_is '[.analysed, .summary, .topics, .paper_type] | map(tostring) | join(",")' \
    "false,null,null,null" "JSON: null until analysed"
get "$CANON"
body_lacks 'class="analysis"' "HTML: no summary block until analysed"
hv analyse --ids "$ID"
gen

# cards carry the type
get "/search?q=distributed+deep+learning" -H 'Accept: application/json'
json_is '[.papers.items[]? // .items[]? | has("paper_type")] | all' true \
    "search cards carry paper_type"
[ -n "$TYPE" ] && [ "$TYPE" != null ]
ok $? "the paper has a type ($TYPE)"

# ------------------------------------------------- the fake LLM endpoint
if ! fakellm_start "${WEFT_FAKELLM_PORT:-8095}"; then
	skip "no fake LLM server"
	done_testing
	exit
fi
A=$(sql "SELECT arxiv_id FROM papers ORDER BY id LIMIT 1")
B=$(sql "SELECT arxiv_id FROM papers ORDER BY id LIMIT 1 OFFSET 1")
# a paper whose abstract makes the fake server break its stream
sql "INSERT INTO papers (arxiv_id, title, abstract, primary_category,
	categories, slug, source)
      VALUES ('$BAD', 'A paper the model chokes on',
	'This abstract says fake:malformed so the stream breaks.', 'cs.SE',
	'{cs.SE}', 'a-paper-the-model-chokes-on', 'test')" >/dev/null
llm() {
	HV_LLM="$FAKELLM_URL/v1" WEFT_LLM_MODEL=fake-model \
	    WEFT_ANALYSE_TRIES=2 hv analyse "$@"
}
llm --ids "$A,$B,$BAD"
grep -q "^analyse: 2 analysed, 1 failed (fake-model)" "$T_TMP/hv.out"
ok $? "LLM: two analysed, the broken one failed" "$(cat "$T_TMP/hv.out")"
sql_is "SELECT count(*) FROM papers WHERE arxiv_id IN ('$A','$B')
	AND analysis_model = 'fake-model' AND paper_type = 'empirical'
	AND significance_score = 1 AND novelty IS NOT NULL
	AND significance_rationale IS NOT NULL
	AND summary LIKE 'fake summary%'" 2 \
    "LLM: the schema's answer stored (type, score, novelty, rationale)"
sql_is "SELECT analysed_at IS NULL, analysis_tries,
	analysis_error IS NOT NULL FROM papers WHERE arxiv_id = '$BAD'" \
    "t|2|t" "LLM: the broken answer tried twice, recorded as failed"
llm --ids "$A,$B,$BAD"
grep -q "^analyse: 0 analysed, 0 failed" "$T_TMP/hv.out"
ok $? "LLM: a rerun skips the done and the failed" "$(cat "$T_TMP/hv.out")"
llm --ids "$BAD" --retry-failed
sql_is "SELECT analysis_tries FROM papers WHERE arxiv_id = '$BAD'" 4 \
    "LLM: --retry-failed tries it again"
gen
get "/papers/$A" -L -H 'Accept: application/json'
json_is '[.significance_score, .paper_type, .analysis.model] | map(tostring) | join(",")' \
    "1,empirical,fake-model" "LLM: the paper JSON shows the model's analysis"
# back to the extractive analysis the other tests expect
hv analyse --ids "$A,$B" --redo --extractive
sql_is "SELECT count(*) FROM papers WHERE analysis_model = 'fake-model'" 0 \
    "extractive again"

done_testing
