#!/bin/bash
# t_vectors_incremental.sh -- weft-vectors build is incremental after a
# harvest and equals a full projection with the same model.  In a
# database of its own in the test cluster (the stack's index and papers
# stay as they are): the bundled papers copied and a full fit built;
# then 1,000 papers added (copies under new ids, as
# tests/bench/refresh_batch.sql makes them), one deleted and one
# retitled (modified_at = now(), as the writers set it); the build must
# be incremental, and its file must equal, byte for byte after the
# header (version, time, checksum), the one --reuse-model writes by
# projecting every paper again with that model into the nearest lists:
# the same papers, lists and vectors.  Byte equality, not an epsilon:
# the same text through the same code with the same model gives the
# same floats, and the lists are chosen by the same integer scores.
# Then: the deleted paper gone, the retitled one moved, a new one with
# similar papers, nothing to do when nothing changed, and a batch of
# words the model never saw makes a full fit, as a quarter of the
# papers removed does.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"
ROOT=${WEFT_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${WEFT_VECTORS:-$ROOT/build-san/weft-vectors}
HARVEST=${WEFT_HARVEST:-$ROOT/build-san/weft-harvest}
DB=weft_t_vinc
if [ ! -x "$BIN" ] || [ ! -x "$HARVEST" ]; then
	echo "1..0 # SKIP no $BIN or $HARVEST"
	exit 0
fi
PG=(-h "$WEFT_VAR/pg/run" -U weft)
rsql() { psql "${PG[@]}" -d $DB -v ON_ERROR_STOP=1 -Atqc "$1"; }
VEC=$T_TMP/vec
export WEFT_CONF=$WEFT_VAR/weft.conf
export WEFT_DB="host=$WEFT_VAR/pg/run dbname=$DB user=weft"
export WEFT_VECTORS_DIR=$VEC
cleanup() {
	dropdb "${PG[@]}" --if-exists $DB 2>/dev/null
	rm -rf "$T_TMP"
}
trap cleanup EXIT
# vb ARGS: weft-vectors build; its stdout in $OUT, exit code in $RC.
vb() {
	"$BIN" build "$@" >"$T_TMP/vb.out" 2>"$T_TMP/vb.err"
	RC=$?
	OUT=$(cat "$T_TMP/vb.out")
}
# The file of the newest row.
newest() { rsql "SELECT path FROM vector_index ORDER BY version DESC LIMIT 1"; }
# similar FILE ID: the ids of the 10 papers nearest to ID.
similar() { "$BIN" query --file "$1" --similar "$2" 2>/dev/null | cut -f1; }

dropdb "${PG[@]}" --if-exists $DB 2>/dev/null
createdb "${PG[@]}" $DB
"$HARVEST" migrate >"$T_TMP/mig" 2>&1
ok $? "a database of its own, migrated" "$(tail -c 500 "$T_TMP/mig")"
COLS="id, arxiv_id, title, abstract, comment, categories, primary_category,
    published, updated, versions, journal_ref, license, slug, author_count,
    fully_matched, source"
psql "${PG[@]}" -d weft -v ON_ERROR_STOP=1 -qc \
    "COPY (SELECT $COLS FROM papers) TO STDOUT" |
    rsql "COPY papers ($COLS) FROM STDIN"
# Written a day ago, the last an hour ago: only the harvest below is
# new to the index (a build also re-projects the papers written in the
# ten minutes before its watermark, the last one's time).
DEL=$(rsql "SELECT min(id) FROM papers")
CHG=$(rsql "SELECT min(id) FROM papers WHERE id > $DEL")
rsql "SELECT setval(pg_get_serial_sequence('papers', 'id'), max(id))
        FROM papers;
      UPDATE papers SET modified_at = now() - CASE id WHEN $CHG
          THEN interval '1 hour' ELSE interval '1 day' END" >/dev/null
N0=$(rsql "SELECT count(*) FROM papers")
[ "$N0" -gt 10000 ]
ok $? "the bundled papers copied ($N0)"

# ------------------------------------------------------- the first build
vb
[ "$RC" = 0 ] && [[ $OUT == "full fit: no current index"* ]]
ok $? "no index: a full fit" "$OUT $(tail -c 500 "$T_TMP/vb.err")"
V1=$(newest)
[ "$(rsql "SELECT fit_version = version AND since_fit = 0 AND fit_unknown
    > 0 AND modified_to IS NOT NULL FROM vector_index")" = t ]
ok $? "its row records the fit and the watermark"

# ------------------------------------------------------- a harvest
rsql "
INSERT INTO papers (arxiv_id, title, abstract, comment, categories,
    primary_category, published, updated, versions, journal_ref, license,
    slug, author_count, fully_matched, source)
SELECT format('9%s.%s', lpad((n / 100000)::text, 3, '0'),
              lpad((n % 100000)::text, 5, '0')),
       title, abstract, comment, categories, primary_category,
       published + 1, updated, versions, journal_ref, license, slug,
       author_count, fully_matched, 'test'
  FROM (SELECT p.*, row_number() OVER (ORDER BY id DESC) AS n
          FROM papers p ORDER BY id DESC LIMIT 1000) s;
DELETE FROM papers WHERE id = $DEL;
UPDATE papers
   SET title = 'Gluon plasma and quark confinement in lattice quantum
       chromodynamics', abstract = 'We compute the equation of state of
       the quark gluon plasma with lattice QCD at finite temperature.',
       modified_at = now()
 WHERE id = $CHG" >/dev/null
NEW=$(rsql "SELECT max(id) FROM papers")
N1=$(rsql "SELECT count(*) FROM papers")
[ "$N1" = $((N0 + 999)) ]
ok $? "1,000 papers added, one deleted, one retitled"

vb
[ "$RC" = 0 ] && [[ $OUT == incremental:* ]]
ok $? "the build is incremental" "$OUT $(tail -c 500 "$T_TMP/vb.err")"
[[ $OUT == *"1000 new, 1 changed, 1 removed since version 1 (1001 projected)"* ]]
ok $? "  1,000 new and one changed projected, one removed" "$OUT"
[[ $OUT == *papers/s* ]]
ok $? "  and says how fast" "$OUT"
V2=$(newest)
[ "$(rsql "SELECT fit_version = 1 AND since_fit = 1002 FROM vector_index
    WHERE version = 2")" = t ]
ok $? "  recorded with the model of version 1, 1,002 changes since"
"$BIN" check "$V2" >"$T_TMP/check" 2>&1
ok $? "  its file checks" "$(cat "$T_TMP/check")"
grep -q "$N1 papers" "$T_TMP/check"
ok $? "  and holds every paper" "$(cat "$T_TMP/check")"
# Version 1 is pruned by the next build: what it said, now.
"$BIN" query --file "$V1" --similar "$DEL" >/dev/null 2>&1
ok $? "the paper deleted since was in version 1"
CHG_V1=$(similar "$V1" "$CHG")
[ -n "$CHG_V1" ] && [ "$CHG_V1" = "$(similar "$V1" "$CHG")" ]
ok $? "  and the retitled one, with neighbours"

# ------------------------------------------------------- equal to a full projection
vb --reuse-model
[ "$RC" = 0 ] && [[ $OUT == "reuse model:"* ]]
ok $? "--reuse-model projects every paper" "$OUT $(tail -c 500 "$T_TMP/vb.err")"
V3=$(newest)
# The header is 80 bytes (struct vec_header); the rest is the index.
cmp -s <(tail -c +81 "$V2") <(tail -c +81 "$V3")
ok $? "the incremental file equals it after the header" \
    "$(cmp <(tail -c +81 "$V2") <(tail -c +81 "$V3") 2>&1)"
[ "$(head -c 16 "$V2" | od -An -tx1)" = "$(head -c 16 "$V3" | od -An -tx1)" ]
ok $? "  same magic, format and dimensions"

# ------------------------------------------------------- what changed
"$BIN" query --file "$V2" --similar "$DEL" >/dev/null 2>"$T_TMP/q"
[ $? = 1 ] && grep -q "not in the index" "$T_TMP/q"
ok $? "the deleted paper is gone" "$(cat "$T_TMP/q")"
[ "$CHG_V1" != "$(similar "$V2" "$CHG")" ]
ok $? "the retitled paper was projected again: other neighbours"
[ "$(similar "$V2" "$NEW" | wc -l)" = 10 ]
ok $? "a new paper has 10 similar papers"
[ "$(similar "$V2" "$NEW" | head -1)" != "" ] &&
    ! similar "$V2" "$NEW" | grep -qx "$NEW"
ok $? "  not itself"

vb
[ "$RC" = 0 ] && [ "$(newest)" = "$V3" ] && grep -q "up to date" "$T_TMP/vb.err"
ok $? "nothing changed: nothing done" "$OUT $(tail -c 300 "$T_TMP/vb.err")"

# ------------------------------------------------------- drift
# 30 papers of words no paper has: 5,000 tokens the model never saw.
rsql "
INSERT INTO papers (arxiv_id, title, abstract, categories, primary_category,
    published, slug, source)
SELECT format('9999.%s', lpad(g::text, 5, '0')),
       'Zorblat ' || md5(g::text),
       (SELECT string_agg('qx' || left(translate(md5(g::text || w::text),
                '0123456789', 'ghijklmnop'), 12), ' ')
          FROM generate_series(1, 160) w),
       '{cs.SE}', 'cs.SE', '2026-01-01', 'zorblat', 'test'
  FROM generate_series(1, 30) g" >/dev/null
vb
[ "$RC" = 0 ] && [[ $OUT == "full fit:"*"unknown to the model"* ]]
ok $? "unknown words: a full fit, saying why" "$OUT $(tail -c 500 "$T_TMP/vb.err")"
[ "$(rsql "SELECT fit_version = version AND since_fit = 0 FROM vector_index
    ORDER BY version DESC LIMIT 1")" = t ]
ok $? "  recorded as a new fit"

# ------------------------------------------------------- a share changed
# Over 20 % (VEC_INC_MAX_SHARE) of the papers removed since that fit.
N2=$(rsql "SELECT count(*) FROM papers")
rsql "DELETE FROM papers WHERE id IN (SELECT id FROM papers ORDER BY id
    LIMIT $((N2 / 4)))" >/dev/null
vb
[ "$RC" = 0 ] && [[ $OUT == "full fit:"*"changed since the fit (above 20 %)"* ]]
ok $? "a quarter removed: a full fit, saying why" "$OUT $(tail -c 500 "$T_TMP/vb.err")"

done_testing
