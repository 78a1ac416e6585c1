#!/bin/bash
# t_harvest_ror.sh -- weft-harvest ror on ROR files as ROR publishes
# them (tests/data/harvest/ror: 41 records of the v2 dump, 8 single
# records): JSON lines, the dump's one JSON array (plain and gzip), one
# pretty-printed record, the API's search answer; status and
# relationships kept; a second load from another format changes
# nothing.  Then bad input -- truncated, a dump of the wrong kind, not
# UTF-8, 5 GB, too many malformed records -- each a non-zero exit, the
# cause in `status`, and nothing written.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/harvest_nginx.sh"

[ -x "$HV_BIN" ] || { echo "1..0 # SKIP no $HV_BIN"; exit 0; }
RD=$HV_DATA/ror
LINES=$RD/dump_lines.jsonl
IDS=$(python3 -c 'import sys, json
print(",".join("\x27%s\x27" % json.loads(l)["id"].rsplit("/", 1)[1]
    for l in open(sys.argv[1]) if l.strip()))' "$LINES")
N=$(grep -c . "$LINES")
# Every institution of the fixture marked, so that a write shows.
mark() { sql "UPDATE institutions SET name = name || ' (old)'
    WHERE ror_id IN ($IDS)" >/dev/null; }
nold() { sql "SELECT count(*) FROM institutions WHERE ror_id IN ($IDS)
    AND name LIKE '% (old)'"; }
snapshot() {
	sql "SELECT ror_id, name, status, relationships, modified_at
	    FROM institutions WHERE ror_id IN ($IDS) ORDER BY 1" | md5sum
}
sql "DELETE FROM harvest_cursors WHERE source = 'ror'" >/dev/null

# The dump's array form, as ROR publishes it: the same records in one
# JSON array (derived here from the byte-exact lines).
{ echo '['; sed '$!s/$/,/' "$LINES"; echo ']'; } >"$T_TMP/dump.json"
gzip -c "$T_TMP/dump.json" >"$T_TMP/dump.json.gz"

# --- JSON lines
mark
hv ror "$LINES"
is_rc 0 "json lines: exit 0"
out_has "ror: $N institutions, 0 records skipped" "json lines: $N records"
sql_is "SELECT count(*) FROM institutions WHERE ror_id IN ($IDS)" "$N" \
    "json lines: every institution present"
sql_is "SELECT $(nold)" 0 "json lines: every institution written"
sql_is "SELECT count(*) FROM institutions WHERE ror_id IN ($IDS)
    AND status = 'withdrawn'" 5 "withdrawn status kept"
sql_is "SELECT count(*) FROM institutions WHERE ror_id IN ($IDS)
    AND status = 'inactive'" 5 "inactive status kept"
sql_is "SELECT count(*) FROM institutions WHERE ror_id IN ($IDS)
    AND relationships @> '[{\"type\": \"successor\"}]'" \
    "$(grep -c '"type":"successor"' "$LINES")" "successors kept"
sql_is "SELECT count(*) FROM institutions WHERE ror_id IN ($IDS)
    AND relationships @> '[{\"type\": \"predecessor\"}]'" \
    "$(grep -c '"type":"predecessor"' "$LINES")" "predecessors kept"
sql_is "SELECT count(*) FROM institutions WHERE ror_id IN ($IDS)
    AND jsonb_path_exists(relationships, '\$[*] ? (@.id like_regex \"/\")')" \
    0 "relationship ids are ROR ids, not URLs"
hv status
out_has "ror" "status lists the run"

# --- the same records as one JSON array, plain and gzip: nothing changes
before=$(snapshot)
hv ror "$T_TMP/dump.json"
is_rc 0 "array: exit 0"
out_has "ror: $N institutions" "array: $N records"
[ "$(snapshot)" = "$before" ]
ok $? "array after lines: no row changed"
hv ror "$T_TMP/dump.json.gz"
is_rc 0 "gzip array: exit 0"
[ "$(snapshot)" = "$before" ]
ok $? "gzip array after lines: no row changed"
sql_is "SELECT last_error IS NULL, done FROM harvest_cursors
    WHERE source = 'ror'" "t|t" "status: done, no error"

# --- one record, pretty-printed (the API's /organizations/ID), and gzip
sql "UPDATE institutions SET name = name || ' (old)'
    WHERE ror_id = '02jx3x895'" >/dev/null
hv ror "$RD/02jx3x895.json"
is_rc 0 "single record: exit 0"
out_has "ror: 1 institutions" "single record: one"
sql_is "SELECT name FROM institutions WHERE ror_id = '02jx3x895'" \
    "University College London" "single record written"
gzip -c "$RD/03q8dnn23.json" >"$T_TMP/one.json.gz"
hv ror "$T_TMP/one.json.gz"
is_rc 0 "single gzip record: exit 0"
# The API's search answer wraps a page of records in "items"
# (hand-assembled from the real records; the wrapper's shape is ROR's
# documented v2 /organizations?query= answer).
{ printf '{"items": ['; cat "$RD/02jx3x895.json"; printf ','
  cat "$RD/03q8dnn23.json"; printf '], "number_of_results": 2}\n'; } \
    >"$T_TMP/search.json"
hv ror "$T_TMP/search.json"
is_rc 0 "search answer: exit 0"
out_has "ror: 2 institutions" "search answer: its two records"

# --- bad input: non-zero, the cause in status, nothing written
fails() { # file want-in-output description
	mark
	hv ror "$1"
	is_rc 1 "$3: exit 1"
	out_has "$2" "$3: says why"
	sql_is "SELECT $(nold)" "$N" "$3: nothing written"
	sql_is "SELECT last_error LIKE '%$2%' FROM harvest_cursors
	    WHERE source = 'ror'" t "$3: status shows the cause"
}
head -c 30000 "$T_TMP/dump.json" >"$T_TMP/trunc.json"
fails "$T_TMP/trunc.json" "truncated" "truncated array"
head -c $(($(stat -c %s "$T_TMP/dump.json.gz") / 2)) "$T_TMP/dump.json.gz" \
    >"$T_TMP/trunc.json.gz"
fails "$T_TMP/trunc.json.gz" "truncated" "truncated gzip"
{ head -c 20000 "$LINES"; } >"$T_TMP/trunc.jsonl"
fails "$T_TMP/trunc.jsonl" "truncated" "truncated json lines"
fails "$HV_DATA/openalex/works_cursor_page1.json" "an OpenAlex list" \
    "an OpenAlex list"
zcat "$HV_ROOT/sql/data/arxiv-metadata-oai-snapshot.first200.jsonl.gz" |
    head -n 5 >"$T_TMP/papers.jsonl"
fails "$T_TMP/papers.jsonl" "no ROR record" "a dump of papers"
iconv -f UTF-8 -t LATIN1//TRANSLIT "$LINES" >"$T_TMP/latin1.jsonl"
fails "$T_TMP/latin1.jsonl" "not UTF-8" "Latin-1 dump"
iconv -f UTF-8 -t UTF-16 "$LINES" >"$T_TMP/utf16.jsonl"
fails "$T_TMP/utf16.jsonl" "UTF-16" "UTF-16 dump"
truncate -s 5G "$T_TMP/huge.json"
fails "$T_TMP/huge.json" "more than the 4096 MB" "a 5 GB file"
rm -f "$T_TMP/huge.json"
# Hand-made error shape: records whose id is not a ROR URL (3 of 41,
# more than 5 %), the rest valid.
sed '1,3s#"id":"https://ror.org/#"id":"https://example.org/#' "$LINES" \
    >"$T_TMP/skips.jsonl"
fails "$T_TMP/skips.jsonl" "more than 5%" "too many malformed records"
: >"$T_TMP/empty.json"
fails "$T_TMP/empty.json" "empty input" "an empty file"
hv status
out_has "failed" "status shows the failed run"

# Leave the fixture's institutions as the bundled load wrote them.
hv ror "$LINES"
is_rc 0 "restored"
sql_is "SELECT $(nold)" 0 "restored: no mark left"
done_testing
