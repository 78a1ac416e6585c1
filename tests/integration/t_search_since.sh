#!/bin/bash
# t_search_since.sh -- the date bound of a search's pool (SEARCH_POOL_SINCE
# and SEARCH_CANDIDATES's $15, sql/queries/pages.sql).  The bound only
# pays on a large corpus (words in thousands of papers), so on the
# bundled one the worker never takes it; here both statements run as the
# worker runs them, from sql/queries/pages.sql, with a pool of 30
# instead of 300 so that the bundled words reach it: the date is where
# the k-th newest paper is, a bounded pool that is full is the unbounded
# pool row for row, and one that is not full says so.
. "$(dirname "$0")/lib.sh"
ROOT=${WEFT_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${WEFT_VAR:?WEFT_VAR must be set}"
Q=$ROOT/sql/queries/pages.sql
rsql() { psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atq -v ON_ERROR_STOP=1 "$@"; }
# stmt NAME: the statement's text, as the generated sources hold it.
stmt() {
	awk -v n="-- name: $1" '$0 == n { on = 1; next }
	    on { print; if ($0 ~ /;$/) exit }' "$Q"
}
SINCE=$(stmt SEARCH_POOL_SINCE)
CAND=$(stmt SEARCH_CANDIDATES)
[ -n "$SINCE" ] && [ -n "$CAND" ]
ok $? "both statements are in pages.sql"

# A word in 2-8 % of the papers, as a query would write it.
W=$(rsql -c "SELECT st.lexeme FROM search_terms st, corpus_counts cc
              WHERE st.ndoc BETWEEN cc.papers * 0.02 AND cc.papers * 0.08
                AND to_tsvector('english', st.lexeme)::text
                    = '''' || st.lexeme || ''':1'
              ORDER BY st.ndoc DESC, st.lexeme LIMIT 1")
[ -n "$W" ]
ok $? "a word in 2-8 % of the bundled papers" "$W"

# The bound for 120 expected matches: the date of the k-th newest paper.
since() {
	rsql -c "PREPARE s(text, integer) AS ${SINCE%;}" \
	    -c "EXECUTE s('$1', $2)" | tail -n 1
}
S=$(since "$W" 120)
want=$(rsql -c "SELECT (SELECT published FROM papers
                         WHERE published IS NOT NULL
                         ORDER BY published DESC, id DESC
                        OFFSET ceil(120.0 * cc.papers / st.ndoc)::bigint
                         LIMIT 1)
                  FROM search_terms st, corpus_counts cc
                 WHERE st.lexeme = '$W'")
[ -n "$S" ] && [ "$S" = "$want" ]
ok $? "the bound is the date of the k-th newest paper (k = N x 120 / M)" \
    "got '$S', want '$want'"
v=$(since "$W" 1200)
[ -z "$v" ]
ok $? "no bound when it would keep a quarter of the corpus" "got '$v'"
v=$(since "$(rsql -c "SELECT lexeme FROM search_terms ORDER BY ndoc DESC
                       LIMIT 1")" 30)
[ -z "$v" ]
ok $? "no bound for a word in over 8 % of the papers (the walk)" "got '$v'"

# cand SINCE: the candidates of the word, relevance order, a pool of 30
# and a fill of 10, as "id tier published pool_size" lines.
cand() {
	local s=NULL
	[ -n "$1" ] && s="'$1'"
	rsql -c "PREPARE c AS ${CAND%;}" \
	    -c "EXECUTE c('$W', '$W', '', '', NULL, NULL, NULL, NULL, NULL,
	                  30, 10, 'relevance', '{}', NULL, $s)" |
	    awk -F'|' '{ print $1, $2, $3, $7 }' | sort
}
cand "" >"$T_TMP/free"
cand "$S" >"$T_TMP/bound"
n=$(awk '$2 == 1' "$T_TMP/free" | wc -l)
[ "$n" = 30 ] && [ "$(awk 'NR == 1 { print $4 }' "$T_TMP/bound")" = 30 ]
ok $? "the bounded pool is full" "free pool $n, bounded $(head -c 300 "$T_TMP/bound")"
cmp -s "$T_TMP/free" "$T_TMP/bound"
ok $? "a full bounded pool is the pool, row for row" \
    "$(diff "$T_TMP/free" "$T_TMP/bound" | head -5)"
awk -v s="$S" '$2 == 1 && $3 < s { bad = 1 } END { exit bad }' "$T_TMP/free"
ok $? "every pooled paper is from the bound on"

# A bound past most matches: the pool is not full, the caller widens.
late=$(rsql -c "SELECT max(published) FROM papers")
cand "$late" >"$T_TMP/late"
n=$(awk 'NR == 1 { print $4 }' "$T_TMP/late")
[ "${n:-0}" -lt 30 ]
ok $? "a bound past the matches leaves the pool short (rerun)" "pool $n"

done_testing
