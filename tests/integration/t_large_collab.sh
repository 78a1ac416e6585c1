#!/bin/bash
# t_large_collab.sh -- papers with more than weft_pair_authors_max()
# authors make no co-author pairs (0040), on the bundled data (it has
# papers with up to 1,323 authors): no pair rests on such papers alone,
# pairs from small papers stay, researcher_stats.large_papers counts
# them, and the researcher page says what its network leaves out in
# HTML, markdown and JSON, only for a researcher who has such papers.
# That an incremental refresh gives the same rows, a paper crossing the
# limit included, is t_refresh.sh's.
. "$(dirname "$0")/lib.sh"
ROOT=${WEFT_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${WEFT_HARVEST:-$ROOT/build-san/weft-harvest}

# Tests before this one write rows directly: the derived tables are
# current after the writer's refresh, as after every load and match.
WEFT_CONF="$WEFT_VAR/weft.conf" "$BIN" refresh >"$T_TMP/hv.out" 2>&1
ok $? "weft-harvest refresh" "$(tail -c 800 "$T_TMP/hv.out")"

MAX=$(sql "SELECT weft_pair_authors_max()")
[ "$MAX" = 100 ]
ok $? "the limit is 100 authors" "got '$MAX'"

n=$(sql "SELECT count(*) FROM papers WHERE author_count > $MAX")
[ "${n:-0}" -gt 0 ]
ok $? "the bundled data has papers above the limit ($n)"

# Every pair with a large joint paper and no small one: none is stored.
v=$(sql "WITH big AS (
	SELECT DISTINCT a1.researcher_id AS a, a2.researcher_id AS b
	  FROM papers p
	  JOIN authorships a1 ON a1.paper_id = p.id
	  JOIN authorships a2 ON a2.paper_id = p.id
	                     AND a2.researcher_id <> a1.researcher_id
	 WHERE p.author_count > $MAX)
SELECT count(*) FILTER (WHERE c.a IS NOT NULL AND NOT EXISTS (
	       SELECT 1 FROM authorships s1
	         JOIN authorships s2 ON s2.paper_id = s1.paper_id
	         JOIN papers p ON p.id = s1.paper_id
	        WHERE s1.researcher_id = big.a AND s2.researcher_id = big.b
	          AND p.author_count <= $MAX)),
       count(*)
  FROM big LEFT JOIN coauthor_pairs c ON c.a = big.a AND c.b = big.b")
case $v in
0\|0) ok 1 "pairs of large papers exist to check" "$v" ;;
0\|*) ok 0 "no pair whose only joint papers are large ($v pairs checked)" ;;
*) ok 1 "no pair whose only joint papers are large" "stored|all: $v" ;;
esac

# The pairs are exactly the pairs of the small papers, with their counts.
v=$(sql "WITH want AS (
	SELECT a1.researcher_id AS a, a2.researcher_id AS b,
	       count(DISTINCT a1.paper_id) AS papers
	  FROM authorships a1
	  JOIN papers p ON p.id = a1.paper_id AND p.author_count <= $MAX
	  JOIN authorships a2 ON a2.paper_id = a1.paper_id
	                     AND a2.researcher_id <> a1.researcher_id
	 GROUP BY 1, 2)
SELECT (SELECT count(*) FROM want),
       (SELECT count(*) FROM (TABLE want EXCEPT
            SELECT a, b, papers FROM coauthor_pairs) x),
       (SELECT count(*) FROM (SELECT a, b, papers FROM coauthor_pairs
            EXCEPT TABLE want) y)")
case $v in
0\|*) ok 1 "the small papers' pairs are stored" "none: $v" ;;
*\|0\|0) ok 0 "the small papers' pairs are stored, no other ($v)" ;;
*) ok 1 "the small papers' pairs are stored, no other" "want|missing|extra: $v" ;;
esac

# An author of a large paper who also has a small joint paper keeps that
# pair.
v=$(sql "SELECT count(*) FROM (
	SELECT DISTINCT a1.researcher_id, a2.researcher_id
	  FROM authorships l
	  JOIN papers pl ON pl.id = l.paper_id AND pl.author_count > $MAX
	  JOIN authorships a1 ON a1.researcher_id = l.researcher_id
	  JOIN papers p ON p.id = a1.paper_id AND p.author_count <= $MAX
	  JOIN authorships a2 ON a2.paper_id = a1.paper_id
	                     AND a2.researcher_id <> a1.researcher_id
	 WHERE NOT EXISTS (SELECT 1 FROM coauthor_pairs c
	                    WHERE c.a = a1.researcher_id
	                      AND c.b = a2.researcher_id)) x")
[ "$v" = 0 ]
ok $? "authors of large papers keep their small papers' pairs" "$v missing"

# researcher_stats.large_papers: the distinct large papers of each one.
v=$(sql "SELECT count(*) FILTER (WHERE s.large_papers > 0),
       count(*) FILTER (WHERE s.large_papers <> coalesce(w.n, 0))
  FROM researcher_stats s
  LEFT JOIN (SELECT a.researcher_id, count(DISTINCT a.paper_id) AS n
               FROM authorships a
               JOIN papers p ON p.id = a.paper_id
              WHERE p.author_count > $MAX
              GROUP BY 1) w ON w.researcher_id = s.researcher_id")
case $v in
0\|*) ok 1 "large_papers counts the large papers" "no one has any: $v" ;;
*\|0) ok 0 "large_papers counts the large papers ($v)" ;;
*) ok 1 "large_papers counts the large papers" "with|wrong: $v" ;;
esac
# They still count everywhere else: total is every distinct paper.
v=$(sql "SELECT count(*) FROM researcher_stats s
  JOIN (SELECT researcher_id, count(DISTINCT paper_id) AS n
          FROM authorships WHERE researcher_id IS NOT NULL
         GROUP BY 1) w ON w.researcher_id = s.researcher_id
 WHERE s.large_papers > 0 AND s.total <> w.n")
[ "$v" = 0 ]
ok $? "their large papers still count in their total" "$v differ"

# page RID: the researcher's page in three representations, into
# $T_TMP/page.{html,md,json}.
page() {
	local path
	path=$(sql "SELECT '/researchers/' || id || '-' || slug
	              FROM researchers WHERE id = ${1:-0}")
	[ -n "$path" ] || return 1
	get "$path" -H "Accept: text/html"
	cp "$BODY" "$T_TMP/page.html"
	[ "$STATUS" = 200 ] || return 1
	get "$path" -H "Accept: text/markdown"
	cp "$BODY" "$T_TMP/page.md"
	[ "$STATUS" = 200 ] || return 1
	get "$path" -H "Accept: application/json"
	cp "$BODY" "$T_TMP/page.json"
	[ "$STATUS" = 200 ]
}
# says FILE TEXT NAME
says() {
	grep -qF -- "$2" "$T_TMP/$1"
	ok $? "$3" "$1 lacks '$2'"
}
lacks() {
	! grep -qF -- "$2" "$T_TMP/$1"
	ok $? "$3" "$1 has '$2'"
}

# The author with the most large papers, and one with exactly one.
for want in most one; do
	case $want in
	most) q="ORDER BY large_papers DESC, researcher_id LIMIT 1" ;;
	one) q="AND large_papers = 1 ORDER BY researcher_id LIMIT 1" ;;
	esac
	row=$(sql "SELECT researcher_id, large_papers FROM researcher_stats
	            WHERE large_papers > 0 $q")
	if [ -z "$row" ] && [ $want = one ]; then
		skip "no researcher with exactly one large paper"
		continue
	fi
	rid=${row%|*} k=${row#*|}
	if [ "$k" = 1 ]; then
		words="1 paper with"
	else
		words="$k papers with"
	fi
	s="Co-authors through $words more than $MAX authors are not shown."
	page "$rid"
	ok $? "researcher $rid ($k large papers): its page in 3 forms"
	says page.html "<p class=\"caption\">$s</p>" "html says: $s"
	says page.md "$s" "markdown says it"
	v=$(jq -r '.network | "\(.large_papers_left_out) \(.large_papers_authors_over)"' \
	    "$T_TMP/page.json")
	[ "$v" = "$k $MAX" ]
	ok $? "json: network.large_papers_left_out $k, _authors_over $MAX" \
	    "got '$v'"
done

# An author with co-authors and no large paper: not a word of it.
rid=$(sql "SELECT s.researcher_id FROM researcher_stats s
            WHERE s.large_papers = 0
              AND EXISTS (SELECT 1 FROM coauthor_pairs c
                           WHERE c.a = s.researcher_id)
            ORDER BY s.total DESC, s.researcher_id LIMIT 1")
page "$rid"
ok $? "researcher $rid (no large paper): its page in 3 forms"
lacks page.html "more than $MAX authors" "html says nothing of large papers"
lacks page.md "more than $MAX authors" "markdown says nothing of them"
v=$(jq -r '.network | has("large_papers_left_out"),
    has("large_papers_authors_over")' "$T_TMP/page.json" | tr '\n' ' ')
[ "$v" = "false false " ]
ok $? "json: no large_papers fields" "has: $v"
lacks page.html "No co-author of these" "html: its network is drawn"

done_testing
