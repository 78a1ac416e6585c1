#!/bin/bash
# tests/bench/vectors_incremental.sh -- weft-vectors build after a
# harvest: a full fit, then BATCH papers added (tests/bench/refresh_batch.sql:
# copies under new ids), then the incremental build, the same papers
# projected whole with the same model (--reuse-model) and a full fit
# again (--force), each timed (wall clock and peak memory by
# /usr/bin/time), and whether the incremental file equals the full
# projection.  Not a timed test: it prints figures.
#
#   tests/bench/vectors_incremental.sh [BUILD_DIR] [BATCH] [TARGET]
#
# TARGET (default 0: the bundled papers alone) scales the copied papers
# to at least that many first (tests/bench/search_scale.sql: copies of
# the same texts under new ids), so that the index has lists (above
# 20,000 papers).
#
# Needs a running stack at $WEFT_VAR (conf/local.sh up); works in a
# database of its own there (weft_bench_vinc, dropped at the end) with
# the stack's papers copied and dated a day back, a minute apart (as if
# harvested over time: a build also projects again the papers of the ten
# minutes before its watermark), so that the stack's papers and index
# stay as they are.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
b=${1:-build}
batch=${2:-1000}
target=${3:-0}
: "${WEFT_VAR:?WEFT_VAR: the var directory of a running stack}"
db=weft_bench_vinc
pg=(-h "$WEFT_VAR/pg/run" -U weft)
tmp=$(mktemp -d)
export WEFT_CONF=$WEFT_VAR/weft.conf
export WEFT_DB="host=$WEFT_VAR/pg/run dbname=$db user=weft"
export WEFT_VECTORS_DIR=$tmp/vec
trap 'dropdb "${pg[@]}" --if-exists $db 2>/dev/null; rm -rf "$tmp"' EXIT
cols="id, arxiv_id, title, abstract, comment, categories, primary_category,
    published, updated, versions, journal_ref, license, slug, author_count,
    fully_matched, source"

dropdb "${pg[@]}" --if-exists $db 2>/dev/null
createdb "${pg[@]}" $db
"$root/$b/weft-harvest" migrate >/dev/null 2>&1
psql "${pg[@]}" -d weft -qc "COPY (SELECT $cols FROM papers) TO STDOUT" |
    psql "${pg[@]}" -d $db -qc "COPY papers ($cols) FROM STDIN"
psql "${pg[@]}" -d $db -qAtc "
    SELECT setval(pg_get_serial_sequence('papers', 'id'), max(id))
      FROM papers" >/dev/null
[ "$target" = 0 ] ||
	psql "${pg[@]}" -d $db -q -v target="$target" \
	    -f "$root/tests/bench/search_scale.sql" >/dev/null
psql "${pg[@]}" -d $db -qAtc "
    UPDATE papers SET modified_at = now() - interval '1 day' -
        ((SELECT max(id) FROM papers) - id) * interval '1 minute'" \
    >/dev/null

# run LABEL ARGS: one build, its decision, its last line, time and RSS.
run() {
	local label=$1
	shift
	/usr/bin/time -f '%e s wall, %M KB peak' \
	    "$root/$b/weft-vectors" build "$@" >"$tmp/out" 2>"$tmp/err"
	printf '%-14s %s\n' "$label" "$(head -1 "$tmp/out")"
	printf '%-14s %s\n' "" "$(tail -1 "$tmp/out")"
	printf '%-14s %s\n' "" "$(tail -1 "$tmp/err")"
}
uptime
run "full fit"
psql "${pg[@]}" -d $db -q -v batch="$batch" -v fresh=0 \
    -f "$root/tests/bench/refresh_batch.sql" >/dev/null
run "incremental"
run "reuse model" --reuse-model
# The incremental file against the full projection, after the 80-byte
# header (version, time, checksum): t_vectors_incremental.sh's check,
# here with lists when TARGET passes 20,000.
if cmp -s <(tail -c +81 "$tmp/vec/vectors-2.wvec") \
    <(tail -c +81 "$tmp/vec/vectors-3.wvec"); then
	echo "incremental = reuse model: the same bytes after the header"
else
	echo "incremental != reuse model: the files differ"
fi
run "full fit" --force
