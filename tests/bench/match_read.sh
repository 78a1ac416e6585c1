#!/bin/bash
# tests/bench/match_read.sh -- one read of the day's match
# (MATCH_DAY_ROWS) on a kept benchmark cluster, with the researchers'
# kept evidence (0064) and without it (not a test: not in `make test`).
#
#   tests/bench/match_read.sh VAR [BLOCKS] [RUNS]
#
# VAR is a cluster kept by `BENCH_KEEP=1 tests/bench/load.sh N` whose
# PostgreSQL runs.  The read: BLOCKS (500, the pass's DAY_BLOCKS) name
# blocks of the newest papers' authors, and as candidates every
# researcher of those blocks (a superset of the pass's, which also asks
# whether the names fit: match_db.c).  "kept" is the statement
# weft-harvest sends (sql/queries/harvest.sql): the pairs whose evidence
# is kept read as that row, the others as their authorships;
# "authorships" is the same statement finding no evidence, every pair
# read as its authorships, as the pass did before 0064.  RUNS (3) of
# each, alternated, after one unmeasured run of each.  Prints the
# execution time of each run (EXPLAIN ANALYZE) and the rows each reads.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
var=$(cd "${1:?usage: match_read.sh VAR [BLOCKS] [RUNS]}" && pwd)
blocks=${2:-500}
runs=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The statement with its fragments in (sql/stmts.awk does the same for C).
python3 - "$root/sql/queries/harvest.sql" >"$tmp/rows.sql" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
parts = re.split(r'^-- (name|fragment): (\w+)\n', text, flags=re.M)
frags, stmts = {}, {}
for i in range(1, len(parts), 3):
    (frags if parts[i] == 'fragment' else stmts)[parts[i + 1]] = parts[i + 2]
def body(t):
    return '\n'.join(l for l in t.split('\n') if not l.startswith('--')).strip()
q = re.sub(r'\{\{(\w+)\}\}', lambda m: body(frags[m.group(1)]),
           body(stmts['MATCH_DAY_ROWS']))
print(q.rstrip(';'))
EOF
sed 's/LEFT JOIN match_evidence e/LEFT JOIN (SELECT * FROM match_evidence WHERE false) e/' \
    "$tmp/rows.sql" >"$tmp/rows_none.sql"
if cmp -s "$tmp/rows.sql" "$tmp/rows_none.sql"; then
	echo "match_read.sh: MATCH_DAY_ROWS reads no match_evidence" >&2
	exit 1
fi

{
	cat <<EOF
\\set QUIET on
CREATE TEMP TABLE rd_blocks AS
SELECT DISTINCT weft_name_block(name_key) AS block
  FROM authorships
 WHERE paper_id > (SELECT max(id) - 20000 FROM papers) AND name_key <> ''
 ORDER BY 1 LIMIT $blocks;
CREATE TEMP TABLE rd_pairs AS
SELECT r.id, b.block,
       EXISTS (SELECT 1 FROM match_evidence e
                WHERE e.researcher_id = r.id AND e.block = b.block) AS kept
  FROM rd_blocks b
  JOIN researchers r ON weft_name_block(r.name_key) = b.block;
SELECT (SELECT array_agg(block) FROM rd_blocks) AS b,
       (SELECT array_agg(id) FROM rd_pairs) AS ai,
       (SELECT array_agg(block) FROM rd_pairs) AS ab
\\gset
SELECT count(*) AS pairs, count(*) FILTER (WHERE kept) AS kept
  FROM rd_pairs \\gset
\\echo $blocks blocks, :pairs candidate pairs, :kept of them with evidence kept
PREPARE rd(text[], bigint[], text[]) AS
EOF
	cat "$tmp/rows.sql"
	echo ";"
	echo "PREPARE rd_none(text[], bigint[], text[]) AS"
	cat "$tmp/rows_none.sql"
	echo ";"
	echo "EXECUTE rd(:'b', :'ai', :'ab') \\g $tmp/kept.rows"
	echo "EXECUTE rd_none(:'b', :'ai', :'ab') \\g $tmp/all.rows"
	for _ in $(seq "$runs"); do
		printf '%s\n' '\echo kept' \
		    "EXPLAIN (ANALYZE, TIMING OFF) EXECUTE rd(:'b', :'ai', :'ab');" \
		    '\echo authorships' \
		    "EXPLAIN (ANALYZE, TIMING OFF) EXECUTE rd_none(:'b', :'ai', :'ab');"
	done
} >"$tmp/run.sql"
psql -h "$var/pg/run" -U weft -d weft -X -v ON_ERROR_STOP=1 -At \
    -f "$tmp/run.sql" |
	awk '/^kept$|^authorships$/ { what = $0; next }
	     /^Execution Time/ { printf "%-12s %s\n", what, $3 " ms"; next }
	     /blocks,/ { print }'
echo "rows read: kept $(wc -l <"$tmp/kept.rows"), authorships $(wc -l <"$tmp/all.rows")"
