#!/bin/bash
# t_search_windows.sh -- the pool of a search is the newest matches of
# all its words whichever way SEARCH_CANDIDATES takes to find them (the
# walk of the date index, the GIN index, the near or the far window:
# 0048), with and without a filter, a window that does not fill the pool
# included; through HTTP for the ways a newest-first page takes; the
# date windows' tables (0087, 0088) hold the papers since their dates
# through writes and moves; and a window on a partial index of papers
# turns into rows, its old index dropped.
. "$(dirname "$0")/lib.sh"
ROOT=${WEFT_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${WEFT_HARVEST:-$ROOT/build-san/weft-harvest}
[ -x "$BIN" ] || { echo "1..0 # SKIP no $BIN"; exit 0; }
# is GOT WANT NAME
is() {
	[ "$1" = "$2" ]
	ok $? "$3" "got: $(printf '%s' "$1" | head -c 300 | tr '\n' ' ')
want: $(printf '%s' "$2" | head -c 300 | tr '\n' ' ')"
}
refresh() {
	WEFT_CONF=$WEFT_VAR/weft.conf "$BIN" refresh >"$T_TMP/refresh.out" 2>&1
}
NEAR=$(sql "SELECT since FROM search_windows WHERE name = 'near'")
FAR=$(sql "SELECT since FROM search_windows WHERE name = 'far'")

# The load's refresh built both windows, each its share of the papers.
for w in near far; do
	is "$(sql "SELECT weft_index_ok(index_name) FROM search_windows
	            WHERE name = '$w'")" t "the $w window has a valid index"
	is "$(sql "SELECT s.papers BETWEEN 0.5 * s.share * c.n
	                   AND 2 * s.share * c.n
	             FROM search_windows s,
	                  (SELECT count(*) AS n FROM papers) c
	            WHERE s.name = '$w'")" t "the $w window holds about its share"
done

# way POOL WAY [CATEGORY]: a one-word query (a lexeme that is its own
# stem) for which weft_search_way takes WAY with a pool of POOL, newest
# first, in CATEGORY if given.
way() {
	sql "SELECT st.lexeme FROM search_terms st
	      WHERE st.lexeme ~ '^[a-z]{4,}$'
	        AND to_tsvector('english', st.lexeme)::text
	            = quote_literal(st.lexeme) || ':1'
	        AND (SELECT way FROM weft_search_way(st.lexeme, $1, 'newest',
	             $(lit "${3:-}"), NULL, '$NEAR', '$FAR')) = '$2'
	      ORDER BY st.ndoc DESC, st.lexeme LIMIT 1"
}

# SEARCH_WAY then SEARCH_CANDIDATES as the pages module runs them
# (custom plans), for query $1, pool $2, category $3 and last date $4
# ("" for none): the ids of its pool (tier 1), in order of id.
stmt() {
	awk -v n="$1" '$0 == "-- name: " n { p = 1; next }
	    p && /^-- / { exit } p' "$ROOT/sql/queries/pages.sql" |
	    sed '$ s/;$//'
}
lit() { if [ -n "$1" ]; then echo "'$1'"; else echo NULL; fi; }
# SEARCH_WAY as w and SEARCH_CANDIDATES as c, with custom plans.
prepare() {
	cat <<-EOF
	SET plan_cache_mode = force_custom_plan;
	PREPARE w(text, integer, text, text, date, date, date, text) AS
	$(stmt SEARCH_WAY);
	PREPARE c(text, text, text, text, text, date, date, bigint, bigint,
	    integer, integer, text, bigint[], text, date, text, text, text,
	    integer) AS
	$(stmt SEARCH_CANDIDATES);
	EOF
}
pool() {
	pool_run "$@" | awk -F'|' '$2 == 1 { print $1 }' | sort -n
}
# pool_run, the statement's rows as they come; EXPLAIN="EXPLAIN ... "
# gives its plan instead.
pool_run() {
	psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atq <<-EOF
	$(prepare)
	EXECUTE w('$1', $2, 'newest', $(lit "${3:-}"), $(lit "${4:-}"),
	    '$NEAR', '$FAR', '$1') \gset
	\if :{?since} \else \set since '' \endif
	\if :{?key} \else \set key '' \endif
	${EXPLAIN:-}EXECUTE c('$1', '$1', '', '', $(lit "${3:-}"), NULL, $(lit "${4:-}"),
	    NULL, NULL, $2, 0, 'newest', '{}', NULL, nullif(:'since', '')::date,
	    :'way', :'after', nullif(:'key', ''), NULL);
	EOF
}
# The newest POOL matches of query $1 in category $3 up to $4, by id.
newest() {
	sql "SELECT id FROM papers
	      WHERE search_vector @@ websearch_to_tsquery('english', '$1')
	        AND ('${3:-}' = '' OR categories @> ARRAY['${3:-}'])
	        AND ('${4:-}' = '' OR published <= '${4:-2000-01-01}')
	      ORDER BY published DESC, id DESC LIMIT $2" | sort -n
}

SMALL=$(sql "SELECT c FROM papers, unnest(categories) c
              GROUP BY c HAVING count(*) BETWEEN 50 AND 400
              ORDER BY count(*) DESC, c LIMIT 1")
[ -n "$SMALL" ]
ok $? "a small category ($SMALL)"
for w in walk gin far near; do
	q=$(way 100 $w)
	[ -n "$q" ]
	ok $? "a word the $w way finds ($q)"
	[ -n "$q" ] || continue
	a=$(pool "$q" 100)
	is "$(echo "$a" | wc -l)" 100 "$w ($q): a full pool"
	is "$a" "$(newest "$q" 100)" "$w ($q): the newest 100 matches"
	is "$(pool "$q" 100 "$SMALL")" "$(newest "$q" 100 "$SMALL")" \
	    "$w ($q) in $SMALL: the newest 100 matches there"
	case $w in near) since=$NEAR ;; far) since=$FAR ;; *) continue ;; esac
	# Up to a few days into the window: it holds too few matches, and
	# the way after it finds the pool.
	to=$(sql "SELECT (DATE '$since' + 2)::text")
	is "$(sql "SELECT count(*) < 100 FROM papers
	            WHERE published BETWEEN '$since' AND '$to'
	              AND search_vector @@ to_tsquery('english', '$q')")" t \
	    "$w ($q) up to $to: fewer than 100 matches in the window"
	is "$(pool "$q" 100 "" "$to")" "$(newest "$q" 100 "" "$to")" \
	    "$w ($q) up to $to: the newest 100 matches, found after the window"
done

# A common word in the largest category, which the far window's
# matches there fill: read from the window's index of words and
# categories (0056), both in one index condition, and the newest 100
# matches in the category.
LARGE=$(sql "SELECT c FROM papers, unnest(categories) c
              GROUP BY c ORDER BY count(*) DESC, c LIMIT 1")
q=$(way 100 far "$LARGE")
[ -n "$q" ]
ok $? "a word the far window finds in $LARGE ($q)"
is "$(pool "$q" 100 "$LARGE")" "$(newest "$q" 100 "$LARGE")" \
    "far ($q) in $LARGE: the newest 100 matches there"
plan=$(EXPLAIN="EXPLAIN (COSTS OFF) " pool_run "$q" 100 "$LARGE")
echo "$plan" | grep -A1 "Index Scan on search_far_words" |
	grep -q "Index Cond: .*search_vector @@.* AND (categories @> "
ok $? "far ($q) in $LARGE: words and category read in the window's index" \
    "$(echo "$plan" | grep -A1 "Index Scan on search_far_words")"

# The GIN way in a small category reads the category in the search
# index too (0057): only the matches there are visited.
q=$(way 100 gin "$SMALL")
[ -n "$q" ]
ok $? "a word the GIN way finds in $SMALL ($q)"
is "$(pool "$q" 100 "$SMALL")" "$(newest "$q" 100 "$SMALL")" \
    "gin ($q) in $SMALL: the newest 100 matches there"
# (executed nodes only: the fill's, never run, reads the same index)
plan=$(EXPLAIN="EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " \
    pool_run "$q" 100 "$SMALL")
echo "$plan" | grep -A1 "Index Scan on papers_search (actual" |
	grep -q "Index Cond: .*search_vector @@.* AND (categories @> "
ok $? "gin ($q) in $SMALL: words and category read in the search index" \
    "$(echo "$plan" | grep -A1 "Index Scan on papers_search")"

# A question takes the GIN way through its key (its three rarest
# lexemes); the heap rows are tested against every word.  A query with
# "or" or a negation has no key.
# way_key TEXT: "way|after|since|min_citations|key" of SEARCH_WAY for
# TEXT, a pool of 100.
way_key() {
	psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atq <<-EOF
	PREPARE w(text, integer, text, text, date, date, date, text) AS
	$(stmt SEARCH_WAY);
	EXECUTE w('$1', 100, 'newest', NULL, NULL, '$NEAR', '$FAR', '$1');
	EOF
}
# A question: the first sentence of an abstract, 20-40 words, which
# finds its own paper.
Q=$(sql "SELECT q FROM papers p,
                LATERAL (SELECT btrim(regexp_replace(substring(p.abstract
                             from '^[^.?!]*'), '[^A-Za-z]+', ' ', 'g')) AS q) x
          WHERE array_length(regexp_split_to_array(x.q, ' '), 1)
                BETWEEN 20 AND 40
            AND x.q !~* '\\mor\\M'
            AND p.search_vector @@ websearch_to_tsquery('english', x.q)
          ORDER BY p.id DESC LIMIT 1")
wk=$(way_key "$Q")
case $wk in
gin\|gin\|\|\|\'*\'\ \&\ \'*\'\ \&\ \'*\') ok 0 "a question: the GIN way, a key of three lexemes ($wk)" ;;
*) ok 1 "a question: the GIN way, a key of three lexemes" "$wk" ;;
esac
a=$(pool "$Q" 100)
[ -n "$a" ]
ok $? "a question has an all-words pool (${Q:0:40}...)"
is "$a" "$(newest "$Q" 100)" "the question's pool through its key: its newest matches"
is "$(way_key "graph or database" | cut -d'|' -f5)" "" "a query with or: no key"
is "$(way_key "graph -database" | cut -d'|' -f5)" "" "a negation: no key"
is "$(way_key "graph" | cut -d'|' -f5)" "'graph'" "one word: the key is the word"

# Through HTTP: a newest-first page (pool 300) for each way it takes.
for w in walk gin far; do
	q=$(way 300 $w)
	[ -n "$q" ] || { ok 1 "a word the $w way finds with a pool of 300"; continue; }
	get "/search?q=$q&sort=newest&mode=lexical" -H "Accept: application/json"
	is_status 200 "$w ($q), newest: 200"
	is "$(jq -r '.results[].arxiv_id' "$BODY")" \
	    "$(sql "SELECT arxiv_id FROM papers
	             WHERE search_vector @@ websearch_to_tsquery('english', '$q')
	             ORDER BY published DESC, id DESC LIMIT 24")" \
	    "$w ($q), newest: the page is the newest matches"
done


# The date windows' rows are tables of their own (0087, 0088): the
# search columns of every paper since the window's date, kept by the
# triggers on papers and moved by the refresh with its date; no index of
# papers is built for them.
# window_diff W: the rows in which search_W and the papers since window
# W's date differ (both ways).
window_diff() {
	sql "WITH p AS (SELECT id, published, paper_type, categories,
	                       search_vector::text AS v
	                  FROM papers
	                 WHERE published >= (SELECT since FROM search_windows
	                                      WHERE name = '$1')),
	          n AS (SELECT paper_id, published, paper_type, categories,
	                       search_vector::text FROM search_$1)
	     SELECT (SELECT count(*) FROM (TABLE p EXCEPT TABLE n) x)
	          + (SELECT count(*) FROM (TABLE n EXCEPT TABLE p) y)"
}
papers_windows() {
	sql "SELECT count(*) FROM pg_indexes
	      WHERE tablename = 'papers' AND indexname ~ '(near|far)'"
}
# Papers the tests before this one wrote since the last refresh may move
# the windows' dates: each at the date its share gives now, first.
refresh
NEAR=$(sql "SELECT since FROM search_windows WHERE name = 'near'")
FAR=$(sql "SELECT since FROM search_windows WHERE name = 'far'")
for w in near far; do
	is "$(sql "SELECT index_name FROM search_windows WHERE name = '$w'")" \
	    "search_${w}_words" "the $w window reads its own table"
	is "$(window_diff $w)" 0 \
	    "the $w window holds the papers since its date, no other"
done
is "$(papers_windows)" 0 "no index of papers for the date windows"
# Writes of papers, in a transaction rolled back: a new paper is copied,
# its search columns follow it, a paper moved out of the window or
# deleted leaves it, an old paper written stays out.
out=$(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atq <<-'EOF' 2>&1
	BEGIN;
	INSERT INTO papers (arxiv_id, title, abstract, primary_category,
	    categories, slug, source, published)
	VALUES ('2612.99901', 'Zyzzyva lattices', 'On zyzzyva.', 'cs.SE',
	    '{cs.SE}', 'zyzzyva-lattices', 'test', current_date);
	SELECT 'new ' || count(*) FROM search_near n JOIN papers p
	    ON p.id = n.paper_id AND n.search_vector = p.search_vector
	 WHERE p.arxiv_id = '2612.99901';
	SELECT 'newfar ' || count(*) FROM search_far f JOIN papers p
	    ON p.id = f.paper_id AND f.search_vector = p.search_vector
	 WHERE p.arxiv_id = '2612.99901';
	UPDATE papers SET title = 'Quokka lattices', categories = '{cs.SE,cs.DB}'
	 WHERE arxiv_id = '2612.99901';
	SELECT 'moved ' || (n.search_vector @@ 'quokka'::tsquery)
	       || ' ' || (n.categories = '{cs.SE,cs.DB}')
	  FROM search_near n JOIN papers p ON p.id = n.paper_id
	 WHERE p.arxiv_id = '2612.99901';
	UPDATE papers SET published = DATE '1990-01-01'
	 WHERE arxiv_id = '2612.99901';
	SELECT 'out ' || count(*) FROM search_near n JOIN papers p
	    ON p.id = n.paper_id WHERE p.arxiv_id = '2612.99901';
	SELECT 'outfar ' || count(*) FROM search_far f JOIN papers p
	    ON p.id = f.paper_id WHERE p.arxiv_id = '2612.99901';
	UPDATE papers SET published = current_date
	 WHERE arxiv_id = '2612.99901';
	SELECT 'back ' || count(*) FROM search_near n JOIN papers p
	    ON p.id = n.paper_id WHERE p.arxiv_id = '2612.99901';
	UPDATE papers SET title = title || ' '
	 WHERE id = (SELECT min(id) FROM papers
	              WHERE published < (SELECT since FROM search_windows
	                                  WHERE name = 'near'));
	SELECT 'old ' || count(*) FROM search_near
	 WHERE published < (SELECT since FROM search_windows
	                     WHERE name = 'near');
	DELETE FROM papers WHERE arxiv_id = '2612.99901';
	SELECT 'gone ' || count(*) FROM search_near n
	 WHERE NOT EXISTS (SELECT 1 FROM papers p WHERE p.id = n.paper_id);
	SELECT 'gonefar ' || count(*) FROM search_far f
	 WHERE NOT EXISTS (SELECT 1 FROM papers p WHERE p.id = f.paper_id);
	ROLLBACK;
	EOF
)
is "$(echo "$out" | grep -E '^(new|newfar|moved|out|outfar|back|old|gone|gonefar) ' |
	tr '\n' ,)" \
    "new 1,newfar 1,moved true true,out 0,outfar 0,back 1,old 0,gone 0,gonefar 0," \
    "the windows follow a paper's writes, moves and deletion"
# The corpus outgrows a window (its share made smaller): the refresh
# moves its date later, deleting the days it leaves; back to its share,
# it takes them again from papers.  No index is built either way, and a
# window whose date holds is left alone.
for w in near:0.02:0.01:$NEAR far:0.15:0.05:$FAR; do
	IFS=: read -r name share less since <<<"$w"
	sql "UPDATE search_windows SET share = $less WHERE name = '$name'"
	refresh
	grep -q "search window $name: the papers since .*, set in" \
	    "$T_TMP/refresh.out"
	ok $? "the refresh moves the $name window, building nothing" \
	    "$(cat "$T_TMP/refresh.out")"
	is "$(sql "SELECT since > '$since' FROM search_windows
	            WHERE name = '$name'")" t "the $name window starts later"
	is "$(window_diff "$name")" 0 \
	    "$name moved later: the papers since its new date, no other"
	refresh
	grep -q "search window" "$T_TMP/refresh.out"
	is $? 1 "$name: a window whose date holds is left alone"
	sql "UPDATE search_windows SET share = $share WHERE name = '$name'"
	refresh
	is "$(sql "SELECT since = '$since'
	                  AND papers = (SELECT count(*) FROM search_$name)
	             FROM search_windows WHERE name = '$name'")" t \
	    "$name back to its share: the window of the load again"
	is "$(window_diff "$name")" 0 \
	    "$name moved back: the papers since its date, no other"
done
is "$(papers_windows)" 0 "still no index of papers for the date windows"

# A date window on a partial index of papers (before 0087 and 0088; of
# the words only, before 0056) is due: the refresh fills its table, at
# the same date, and drops the old index.
cur=$(sql "SELECT index_name FROM search_windows WHERE name = 'far'")
sql "CREATE INDEX papers_search_far_words ON papers USING gin (search_vector)
      WHERE published >= '$FAR'" >/dev/null
sql "UPDATE search_windows SET index_name = 'papers_search_far_words'
      WHERE name = 'far'" >/dev/null
sql "DELETE FROM search_far WHERE paper_id % 2 = 0" >/dev/null
refresh
grep -q "search window far: the papers since $FAR" "$T_TMP/refresh.out"
ok $? "a window on a partial index of papers turns into rows" \
    "$(cat "$T_TMP/refresh.out")"
is "$(sql "SELECT since = '$FAR' AND index_name = '$cur'
                  AND weft_search_window_index_ok(index_name)
             FROM search_windows WHERE name = 'far'")" t \
    "its table's index holds the words and the categories, from the same date"
is "$(window_diff far)" 0 "its table filled whole: the papers since its date"
is "$(sql "SELECT to_regclass('papers_search_far_words') IS NULL")" t \
    "the index of the words only is dropped"

# The citation windows (0053), in a transaction rolled back: the bundled
# papers have few citation counts, so each gets one (0-999) first, and
# the windows are built as the refresh builds them (not CONCURRENTLY,
# inside the transaction).  For each window a word it finds: the pool
# is the most cited matches, read from the window's index; in a small
# category the window does not fill it and the way after it does.
cited() {
	psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atq <<-EOF 2>&1
	BEGIN;
	UPDATE papers SET citation_count = abs(hashtext(arxiv_id)) % 1000;
	ANALYZE papers;
	SELECT regexp_replace(ddl, 'CONCURRENTLY ', '')
	  FROM weft_search_windows_due()
	 WHERE weft_search_window_cited(name) AND ddl IS NOT NULL \gexec
	SELECT 'set ' || name || ' ' || bound,
	       weft_search_window_set(name, bound, index_name)
	  FROM weft_search_windows_due() WHERE weft_search_window_cited(name);
	SELECT 'share ' || name || ' ' ||
	       (papers BETWEEN 0.5 * share * (SELECT count(*) FROM papers)
	                   AND 2 * share * (SELECT count(*) FROM papers))
	  FROM search_windows WHERE weft_search_window_cited(name) ORDER BY name;
	$(prepare)
	SELECT st.lexeme AS q FROM search_terms st
	 WHERE st.lexeme ~ '^[a-z]{4,}$'
	   AND to_tsvector('english', st.lexeme)::text
	       = quote_literal(st.lexeme) || ':1'
	   AND (SELECT way FROM weft_search_way(st.lexeme, $2, 'citations',
	        NULL, NULL, NULL, NULL)) = '$1'
	 ORDER BY st.ndoc DESC, st.lexeme LIMIT 1 \gset
	\echo word :q
	EXECUTE w(:'q', $2, 'citations', ${3:-NULL}, NULL, NULL, NULL, :'q') \gset
	\if :{?min_citations} \else \set min_citations '' \endif
	\if :{?key} \else \set key '' \endif
	\echo way :way :after
	\echo pool
	EXECUTE c(:'q', :'q', '', '', ${3:-NULL}, NULL, NULL, NULL, NULL, $2, 0,
	    'citations', '{}', NULL, NULL, :'way', :'after', nullif(:'key', ''),
	    nullif(:'min_citations', '')::integer);
	\echo plan
	EXPLAIN (COSTS OFF) EXECUTE c(:'q', :'q', '', '', ${3:-NULL}, NULL,
	    NULL, NULL, NULL, $2, 0, 'citations', '{}', NULL, NULL, :'way',
	    :'after', nullif(:'key', ''), nullif(:'min_citations', '')::integer);
	\echo expected
	SELECT id FROM papers
	 WHERE search_vector @@ websearch_to_tsquery('english', :'q')
	   AND (${3:-NULL}::text IS NULL OR categories @> ARRAY[${3:-NULL}::text])
	 ORDER BY citation_count DESC NULLS LAST, id DESC LIMIT $2;
	ROLLBACK;
	EOF
}
# The ids between two marker lines of cited's output (pool: tier 1).
section() {
	awk -v a="$1" -v b="$2" '$0 == a { p = 1; next } $0 == b { p = 0 }
	    p' | awk -F'|' 'NF == 1 || $2 == 1 { print $1 }' | sort -n
}
for w in top_cited cited; do
	out=$(cited $w 100)
	word=$(echo "$out" | sed -n 's/^word //p')
	[ -n "$word" ]
	ok $? "a word the $w window finds ($word)"
	[ -n "$word" ] || continue
	echo "$out" | grep -q "^way $w "
	ok $? "$w ($word): the way taken is the window"
	pool=$(echo "$out" | section pool plan)
	is "$(echo "$pool" | wc -l)" 100 "$w ($word): a full pool"
	is "$pool" "$(echo "$out" | section expected xx)" \
	    "$w ($word): the 100 most cited matches"
	# (the planner may read the larger window: it holds the smaller)
	echo "$out" | grep -Eq "Index Scan on papers_words_(top_)?cited_"
	ok $? "$w ($word): read from a citation window's index"
	out=$(cited $w 100 "'$SMALL'")
	is "$(echo "$out" | section pool plan)" \
	    "$(echo "$out" | section expected xx)" \
	    "$w ($word) in $SMALL: the most cited matches there"
done
echo "$out" | grep -q "^share top_cited true" &&
	echo "$out" | grep -q "^share cited true"
ok $? "the citation windows hold about their share"

done_testing
