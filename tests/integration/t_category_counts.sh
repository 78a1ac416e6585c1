#!/bin/bash
# t_category_counts.sh -- category_counts (0091), which /categories and
# the onboarding's fields read, kept by the papers' triggers: equal to a
# count of the papers after a statement inserting several papers, one
# moving a paper's categories, one deleting them; a category whose last
# paper goes has no row, and /categories and a browse of it say so.
. "$(dirname "$0")/lib.sh"

# Rows of the table and of a count of papers that differ, both ways.
DIFF="WITH want AS (
	SELECT category, sum(n)::bigint AS papers, sum(p)::bigint AS primary_papers
	  FROM (SELECT c AS category, count(*) AS n, 0 AS p
	          FROM papers, unnest(categories) AS c GROUP BY 1
	         UNION ALL
	        SELECT primary_category, 0, count(*) FROM papers
	         WHERE primary_category <> '' GROUP BY 1) x
	 GROUP BY 1)
SELECT count(*) FROM ((TABLE want EXCEPT TABLE category_counts)
                      UNION ALL
                      (TABLE category_counts EXCEPT TABLE want)) d"

rows_delete() {
	sql "DELETE FROM papers WHERE source = 't_category_counts'" >/dev/null
	data_changed
}
trap 'rows_delete; rm -rf "$T_TMP"' EXIT
rows_delete

[ "$(sql "SELECT count(*) FROM category_counts")" -gt 0 ] &&
    [ "$(sql "$DIFF")" = 0 ]
ok $? "the counts are the papers' count"

# Three papers in one statement (the statement trigger's one upsert):
# zz.A twice as primary, zz.B once beside it and once as primary.
sql "INSERT INTO papers (arxiv_id, title, slug, primary_category,
    categories, published, source, author_count, fully_matched)
    VALUES ('2612.90001', 'Counted one', 'counted-one', 'zz.A',
            '{zz.A,zz.B}', '2026-12-01', 't_category_counts', 0, false),
           ('2612.90002', 'Counted two', 'counted-two', 'zz.A',
            '{zz.A}', '2026-12-01', 't_category_counts', 0, false),
           ('2612.90003', 'Counted three', 'counted-three', 'zz.B',
            '{zz.B,cs.LG}', '2026-12-01', 't_category_counts', 0, false)" \
    >/dev/null
[ "$(sql "SELECT category || ' ' || papers || ' ' || primary_papers
    FROM category_counts WHERE category LIKE 'zz.%' ORDER BY 1" |
    tr '\n' ,)" = "zz.A 2 2,zz.B 2 1," ] && [ "$(sql "$DIFF")" = 0 ]
ok $? "an insert of three papers counted"

data_changed
get "/categories" -H "Accept: application/json"
jq -e '[.. | objects | select(.category? == "zz.B") | .papers] == [2]' \
    "$BODY" >/dev/null
ok $? "/categories shows the new category's papers" "$(head -c 300 "$BODY")"

# A paper's categories and primary category moved (the row trigger);
# an update that does not move them changes nothing.
sql "UPDATE papers SET categories = '{zz.C}', primary_category = 'zz.C'
    WHERE arxiv_id = '2612.90003'" >/dev/null
sql "UPDATE papers SET title = 'Counted two, retitled'
    WHERE arxiv_id = '2612.90002'" >/dev/null
[ "$(sql "SELECT category || ' ' || papers || ' ' || primary_papers
    FROM category_counts WHERE category LIKE 'zz.%' ORDER BY 1" |
    tr '\n' ,)" = "zz.A 2 2,zz.B 1 0,zz.C 1 1," ] && [ "$(sql "$DIFF")" = 0 ]
ok $? "an update moving the categories moves the counts"

# Every paper of zz.B and zz.C gone: their rows go.
sql "DELETE FROM papers WHERE arxiv_id IN ('2612.90001', '2612.90003')" \
    >/dev/null
[ "$(sql "SELECT category || ' ' || papers || ' ' || primary_papers
    FROM category_counts WHERE category LIKE 'zz.%' ORDER BY 1" |
    tr '\n' ,)" = "zz.A 1 1," ] && [ "$(sql "$DIFF")" = 0 ]
ok $? "a delete counted, the emptied categories gone"

data_changed
get "/search?category=zz.C" -H "Accept: application/json"
is_status 404 "a category whose papers went is unknown"
get "/categories" -H "Accept: application/json"
jq -e '[.. | objects | select(.category? == "zz.C")] == []' "$BODY" \
    >/dev/null
ok $? "/categories no longer lists it"

# Counted again from the papers, by hand (and after a TRUNCATE): the same.
sql "SELECT weft_category_counts_refresh()" >/dev/null
[ "$(sql "$DIFF")" = 0 ]
ok $? "weft_category_counts_refresh() counts the same"

done_testing
