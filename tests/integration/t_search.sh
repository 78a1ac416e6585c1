#!/bin/bash
# t_search.sh -- /search: a known paper found by a distinctive word of its
# title, filters (category, dates), sorts, pages and rel=next/prev,
# facets, highlights, every representation, researchers and institutions
# by name (accents and typos), the search vector kept by the triggers,
# and bad input (400s, never a 5xx; tsquery syntax never an error).
. "$(dirname "$0")/lib.sh"

enc() { jq -rn --arg v "$1" '$v | @uri'; }

# A known paper and the rarest long word of its title.
read -r AID WORD < <(sql "
WITH p AS (SELECT arxiv_id, title FROM papers
            WHERE source <> 'bench'
            ORDER BY published DESC, id LIMIT 1 OFFSET 50)
SELECT p.arxiv_id, w
  FROM p, regexp_split_to_table(lower(p.title), '[^a-z]+') AS w
 WHERE length(w) >= 6
 ORDER BY (SELECT count(*) FROM papers q
            WHERE q.title ILIKE '%' || w || '%'), w
 LIMIT 1" | tr '|' ' ')
[ -n "$AID" ] && [ -n "$WORD" ]
ok $? "picked a paper ($AID) and a title word ($WORD)"

get "/search?q=$WORD" -H "Accept: application/json"
is_status 200 "json: 200"
header_is Content-Type "application/json" "json: Content-Type"
header_has Vary Accept "json: Vary"
json_is ".query" "$WORD" "json: query echoed"
json_is ".page" "1" "json: page"
json_is "[.results[] | select(.arxiv_id == \"$AID\")] | length" 1 \
    "the paper is found by a distinctive word of its title"
json_is ".results[0].type" "paper" "json: results are papers"
json_is "(.total | type)" "number" "json: total"
json_is "[.results[0].title_marks[] | select(.match)] | length > 0" true \
    "json: the title's match is marked"

# HTML: the query echoed escaped, highlights as <mark>.
get "/search?q=$WORD"
is_status 200 "html: 200"
header_is Content-Type "text/html; charset=utf-8" "html: Content-Type"
header_has Link "rel=\"canonical\"" "html: canonical Link"
body_has "value=\"$WORD\"" "html: query in the search box"
body_has "<mark>" "html: matches highlighted"
body_has "href=\"/papers/$AID" "html: links the paper"
EVIL='<script>alert(1)</script>"x'
get "/search?q=$(enc "$EVIL")"
is_status 200 "html: hostile query answered"
body_lacks "<script>alert(1)" "html: hostile query not echoed raw"
body_has "value=\"&lt;script&gt;alert(1)&lt;/script&gt;&quot;x\"" \
    "html: hostile query escaped in the box"

get "/search?q=$WORD" -H "Accept: text/markdown"
is_status 200 "md: 200"
header_is Content-Type "text/markdown; charset=utf-8" "md: Content-Type"
body_has "# Search: $WORD" "md: title"
body_has "/papers/$AID" "md: links the paper"
get "/search?q=$WORD&format=json"
json_is ".query" "$WORD" "?format=json"

# A common word: many results, pages, facets.
get "/search?q=software&type=papers" -H "Accept: application/json"
TOTAL=$(jq -r .total "$BODY")
[ "$TOTAL" -gt 48 ]
ok $? "a common word gives pages of results ($TOTAL)"
json_is ".results | length" 24 "24 a page"
json_is "(.facets | length) > 0" true "facets per category"
json_is "[.facets[] | .count] | (. == (sort | reverse))" true \
    "facets by count"
grep -i '^link: ' "$HDRS" | grep -q 'rel="next"'
ok $? "Link rel=next on page 1"
get "/search?q=software&type=papers&page=2" -H "Accept: application/json"
is_status 200 "page 2: 200"
json_is ".page" 2 "page 2 is page 2"
grep -i '^link: ' "$HDRS" | grep -q 'rel="prev"'
ok $? "Link rel=prev on page 2"
LAST=$(( (TOTAL + 23) / 24 ))
get "/search?q=software&type=papers&page=$((LAST + 1))"
is_status 404 "a page beyond the last is a 404"
get "/search?q=software&type=papers&page=$LAST" -H "Accept: application/json"
is_status 200 "the last page is there"

# Filters.
CAT=$(jq -r '.facets[0].category' < <(curl -s \
    "$WEFT_URL/search?q=software&format=json"))
get "/search?q=software&category=$CAT" -H "Accept: application/json"
is_status 200 "category filter: 200"
json_is "[.results[] | .categories | index(\"$CAT\") != null] | all" true \
    "category filter: every result is in $CAT"
json_is ".filters.category" "$CAT" "category filter echoed"
get "/search?q=software&from=2025-06-01&to=2025-12-31" \
    -H "Accept: application/json"
is_status 200 "date filter: 200"
json_is "[.results[] | .published >= \"2025-06-01\" and .published <= \"2025-12-31\"] | all" \
    true "date filter: every result in range"
get "/search?q=software&from=2025&to=2025" -H "Accept: application/json"
json_is "[.results[] | .published[0:4] == \"2025\"] | all" true \
    "year filter"
get "/search?q=software&sort=newest" -H "Accept: application/json"
json_is "[.results[] | select(.match == \"all\") | .published] | (. == (sort | reverse))" \
    true "sort=newest: newest first"
get "/search?q=software&sort=citations" -H "Accept: application/json"
is_status 200 "sort=citations: 200"
json_is ".sort" "citations" "sort echoed"

# Any-word fill: a title with a word nobody uses still finds the paper.
get "/search?q=$WORD+zzqxnotaword" -H "Accept: application/json"
json_is "[.results[] | select(.arxiv_id == \"$AID\")] | length" 1 \
    "any-word matches fill after all-words"
json_is "[.results[] | select(.arxiv_id == \"$AID\") | .match][0]" any \
    "marked as an any-word match"
get "/search?q=$WORD+-$WORD" -H "Accept: application/json"
json_is "[.results[] | select(.arxiv_id == \"$AID\")] | length" 0 \
    "-word excludes"

# Researchers and institutions by name.
read -r RNAME < <(sql "SELECT name FROM researchers
    WHERE paper_count > 0 AND name ~ '[éüöáíñ]' AND name ~ '^[^ ]+ [^ ]+$'
    ORDER BY paper_count DESC, id LIMIT 1")
PLAIN=$(sql "SELECT weft_unaccent('$(echo "$RNAME" | sed "s/'/''/g")')")
get "/search?q=$(enc "$PLAIN")&type=researchers" -H "Accept: application/json"
is_status 200 "researchers: 200"
json_is "[.results[] | select(.name == \"$RNAME\")] | length" 1 \
    "researcher found without accents ($PLAIN)"
json_is ".results[0].type" researcher "researchers: typed results"
TYPO=$(echo "$PLAIN" | sed 's/\(.*\)\(.\)$/\1/')
get "/search?q=$(enc "$TYPO")&type=researchers" -H "Accept: application/json"
json_is "[.results[] | select(.name == \"$RNAME\")] | length" 1 \
    "researcher found with a letter missing ($TYPO)"
IN=$(sql "SELECT name FROM institutions ORDER BY researcher_count DESC, id
    LIMIT 1")
get "/search?q=$(enc "$IN")&type=institutions" -H "Accept: application/json"
json_is ".results[0].name" "$IN" "institution found by its name"
get "/search?q=$(enc "$IN")&type=institutions"
body_has "$(echo "$IN" | sed 's/&/\&amp;/g')" "institutions: HTML"
get "/search?q=$(enc "$PLAIN")" -H "Accept: application/json"
json_is "(.researchers.items | length) > 0" true \
    "no type: the top researchers too"
json_is "(.institutions | type)" object "no type: institutions block"
json_is ".researchers.close_only" true "no type: close matches only"
get "/search?q=$(enc "$IN")&type=institutions" -H "Accept: application/json"
ALL_IN=$(jq -r .total "$BODY")
get "/search?q=$(enc "$IN")" -H "Accept: application/json"
json_is ".institutions.items[0].name" "$IN" \
    "no type: the institution named first"
json_is ".institutions.total > 0 and .institutions.total <= $ALL_IN" true \
    "no type: close matches, at most the type's total ($ALL_IN)"
get "/search?q=$(enc "$PLAIN")" -H "Accept: text/markdown"
body_has "## Researchers" "md: researchers block"
body_has "close match" "md: the block counts close matches"

# The close researchers by the words of their names (0052): a two-word
# name finds those carrying both words (or words starting with them),
# the same words first; a word that starts no name word finds no one; an
# initial finds the full names; lists longer than the rows read
# estimate the total, near the count.
read -r TWO < <(sql "SELECT search_key FROM researchers
    WHERE paper_count > 0 AND search_key ~ '^[a-z]+ [a-z]+$'
    GROUP BY search_key ORDER BY count(*) DESC, sum(paper_count) DESC,
    search_key LIMIT 1")
get "/search?q=$(enc "$TWO")" -H "Accept: application/json"
json_is ".researchers.items[0].name | ascii_downcase" "$TWO" \
    "no type: a name's own words first ($TWO)"
json_is ".researchers.total_estimated" false "no type: counted, not estimated"
W1=${TWO% *} W2=${TWO#* }
json_is "([.researchers.items[].name | ascii_downcase |
    select(contains(\"$W1\") and contains(\"$W2\"))] | length) ==
    (.researchers.items | length)" true \
    "no type: every close researcher carries both words"
# Fewer than carry either word alone: the other word filters the list.
carry() {
	echo "(SELECT sum(researchers) FROM (SELECT researchers FROM name_words v
	  WHERE starts_with(v.word, '$1') ORDER BY length(v.word), v.word
	  LIMIT 32) x)"
}
EITHER=$(sql "SELECT least($(carry "$W1"), $(carry "$W2"))")
json_is ".researchers.total > 0 and .researchers.total < $EITHER" true \
    "no type: fewer close researchers than carry one word ($EITHER)"
get "/search?q=zzqxv+wvvqz" -H "Accept: application/json"
json_is ".researchers.total" 0 "no type: a word that starts no name, no one"
get "/search?q=$(enc "${W1:0:1} $W2")" -H "Accept: application/json"
json_is "[.researchers.items[].name | ascii_downcase | select(. == \"$TWO\")]
    | length > 0" true "no type: an initial finds the full name (${W1:0:1} $W2)"
read -r BIGW < <(sql "SELECT word FROM name_words
    ORDER BY researchers DESC, word LIMIT 1")
v=$(sql "SELECT c.total, c.estimated, (SELECT count(DISTINCT researcher_id)
           FROM researcher_name_words WHERE word = ANY (
             SELECT v.word FROM name_words v
              WHERE starts_with(v.word, '$BIGW')
              ORDER BY length(v.word), v.word LIMIT 32))
           FROM weft_names_close('$BIGW', 5, 50) c LIMIT 1")
IFS='|' read -r est flag exact <<<"$v"
[ "$flag" = t ] && [ "$est" -ge $((exact * 8 / 10)) ] &&
	[ "$est" -le $((exact * 12 / 10)) ]
ok $? "a list longer than the rows read: estimated ($est for $exact)"

# A query of more than 12 words is a question: no close names looked up
# with it (search.c, FEW_WORDS_MAX), though the typed search finds them.
LONG=$(sql "SELECT name FROM institutions
             WHERE array_length(regexp_split_to_array(name, '\s+'), 1) > 12
             ORDER BY researcher_count DESC, id LIMIT 1")
if [ -n "$LONG" ]; then
	get "/search?q=$(enc "$LONG")&type=institutions" \
	    -H "Accept: application/json"
	json_is "[.results[] | select(.name == \"$LONG\")] | length" 1 \
	    "type=institutions finds a name of more than 12 words"
	get "/search?q=$(enc "$LONG")" -H "Accept: application/json"
	is_status 200 "no type, 13+ words: 200"
	json_is ".institutions.total" 0 "no type, 13+ words: no names looked up"
	json_is ".researchers.items | length" 0 \
	    "no type, 13+ words: no researchers either"
else
	ok 0 "# SKIP no institution name of more than 12 words here"
fi

# The fill's rare words (SEARCH_RARE_WORDS): rarest first while their
# paper counts add up to less than the bound, so a question's many rare
# words cannot make the fill visit thousands of rows.
rare_sql=$(sed -n '/^-- name: SEARCH_RARE_WORDS$/,/^$/p' \
    "$WEFT_ROOT/sql/queries/pages.sql" | sed 1d)
read -r W1 W2 W3 W4 N1 N2 N3 N4 < <(sql "
SELECT string_agg(lexeme, ' ' ORDER BY ndoc, lexeme) || ' ' ||
       string_agg(ndoc::text, ' ' ORDER BY ndoc, lexeme)
  FROM (SELECT DISTINCT ON (ndoc) lexeme, ndoc FROM search_terms
         WHERE ndoc BETWEEN 25 AND 200 AND lexeme ~ '^[a-z]{5,}$'
           AND to_tsvector('english', lexeme) = to_tsvector('simple', lexeme)
         ORDER BY ndoc, lexeme LIMIT 4) t")
rare() { # WORDS BOUND -> the words chosen, sorted, one line
	psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atq \
	    -c "PREPARE rare(text, integer) AS $rare_sql" \
	    -c "EXECUTE rare('$1', $2)" | sort | paste -sd' '
}
GOT=$(rare "$W4 $W3 the $W2 $W1" $((N1 + N2 + 1)))
[ -n "$W4" ] && [ "$GOT" = "$(printf '%s\n' "$W1" "$W2" | sort | paste -sd' ')" ]
ok $? "rare words: the rarest two of four ($N1 + $N2 papers), got '$GOT'"
GOT=$(rare "$W4 $W3 $W2 $W1" $((N1 + N2 + N3 + N4 + 1)))
[ "$(echo "$GOT" | wc -w)" = 4 ]
ok $? "rare words: all four when the bound allows, got '$GOT'"

# In a question (more than 12 words) "or" is a word, not the operator:
# "(every other word) or xqzv" would match the paper with all words.
QWORDS=$(sql "SELECT array_to_string((regexp_split_to_array(title || ' ' ||
    abstract, '\s+'))[1:14], ' ') FROM papers WHERE arxiv_id = '$AID'")
get "/search?q=$(enc "$QWORDS or xqzvunfound")&mode=lexical" \
    -H "Accept: application/json"
is_status 200 "question with or: 200"
json_is "[.results[] | select(.arxiv_id == \"$AID\") | .match] | .[0]" any \
    "question: or is a word, so the paper lacks one of the words"
get "/search?q=$(enc "$QWORDS")&mode=lexical" -H "Accept: application/json"
json_is "[.results[] | select(.arxiv_id == \"$AID\") | .match] | .[0]" all \
    "question without the extra word: the paper has them all"

# A common word matches more papers than a search ranks: the facet
# counts are over the papers found, and the page says so.
COMMON=$(sql "SELECT lexeme FROM search_terms WHERE lexeme ~ '^[a-z]{4,}$'
    ORDER BY ndoc DESC, lexeme LIMIT 1")
get "/search?q=$COMMON" -H "Accept: application/json"
json_is ".total_capped" true "a common word ($COMMON): more matches than ranked"
json_is "(.facets | length) > 0" true "capped: facets still counted"
get "/search?q=$COMMON"
body_has "Counts are among the papers found, not every match" \
    "capped: the HTML says what the facet counts are over"
get "/search?q=$COMMON" -H "Accept: text/markdown"
body_has "Counts are among the papers found, not every match" \
    "capped: so does the markdown"
FEW=$(sql "SELECT lexeme FROM search_terms
    WHERE ndoc BETWEEN 20 AND 40 AND lexeme ~ '^[a-z]{6,}$'
      AND to_tsvector('english', lexeme) = to_tsvector('simple', lexeme)
    ORDER BY lexeme LIMIT 1")
get "/search?q=$FEW" -H "Accept: application/json"
json_is ".total_capped" false "a word in few papers ($FEW): every match ranked"
get "/search?q=$FEW"
body_lacks "Counts are among the papers found" \
    "not capped: facet counts are every match, nothing to say"

# The search vector follows the data (triggers), authors included.
sql "INSERT INTO papers (arxiv_id, title, abstract, categories,
    primary_category, published, slug, source)
    VALUES ('0001.99999', 'Quuxification of frobnicators',
    'We quuxify.', '{cs.SE}', 'cs.SE', '2001-01-01', 'quux', 'test');
    INSERT INTO authorships (paper_id, position, raw_name)
    SELECT id, 1, 'Zebedee Xylophonist' FROM papers
     WHERE arxiv_id = '0001.99999'"
data_changed
get "/search?q=frobnicators" -H "Accept: application/json"
json_is ".results[0].arxiv_id" "0001.99999" "a new paper is searchable"
get "/search?q=xylophonist" -H "Accept: application/json"
json_is ".results[0].arxiv_id" "0001.99999" "found by its author's name"
sql "UPDATE authorships SET raw_name = 'Zebedee Marimbist'
      WHERE paper_id = (SELECT id FROM papers WHERE arxiv_id = '0001.99999')"
sql "UPDATE papers SET title = 'Glorpification of frobnicators'
      WHERE arxiv_id = '0001.99999'"
data_changed
get "/search?q=marimbist+glorpification" -H "Accept: application/json"
json_is ".results[0].arxiv_id" "0001.99999" "renames are searchable"
json_is ".results[0].match" "all" "both words match"
sql "DELETE FROM papers WHERE arxiv_id = '0001.99999'"
data_changed

# Empty q: the search page with suggestions.
get "/search"
is_status 200 "empty q: 200"
body_has "Search the archive" "empty q: the search page"
get "/search?q=" -H "Accept: application/json"
json_is "(.suggestions | length) > 0" true "empty q: suggestions"
get "/search?q=" -H "Accept: text/markdown"
body_has "# Search" "empty q: markdown guidance"
get "/"
body_has 'action="/search"' "home: the search box points here"

# Modes: hybrid (the default), lexical and semantic, each in every
# representation; an unknown mode is a 400.
get "/search?q=$WORD" -H "Accept: application/json"
json_is ".mode" hybrid "the default mode is hybrid"
json_is "[.results[] | select(.arxiv_id == \"$AID\")] | length" 1 \
    "hybrid: the paper is found by a distinctive word of its title"
json_is "(.results[0].score | type)" number "hybrid: results carry a score"
for mode in hybrid lexical semantic; do
	get "/search?q=program+repair&mode=$mode" -H "Accept: application/json"
	is_status 200 "mode=$mode: json 200"
	json_is ".mode" "$mode" "mode=$mode: the mode used is reported"
	json_is "(.results | length) > 0" true "mode=$mode: results"
	json_is ".pagination.next | test(\"mode=\")" \
	    "$([ $mode = hybrid ] && echo false || echo true)" \
	    "mode=$mode: kept in the next link (hybrid is the default)"
	get "/search?q=program+repair&mode=$mode" -H "Accept: text/markdown"
	is_status 200 "mode=$mode: markdown 200"
	body_has "Match by: $mode" "mode=$mode: markdown names the mode"
	get "/search?q=program+repair&mode=$mode"
	is_status 200 "mode=$mode: html 200"
	body_has 'name="mode"' "mode=$mode: html form offers the modes"
done
get "/search?q=program+repair&mode=semantic&category=cs.SE&from=2025" \
    -H "Accept: application/json"
json_is "[.results[] | (.categories | index(\"cs.SE\") != null) and .published >= \"2025-01-01\"] | all" \
    true "semantic: filters apply"
json_is "[.results[] | .match == \"semantic\"] | all" true \
    "semantic: vector candidates only"
get "/search?q=program+repair&mode=semantic&sort=newest" \
    -H "Accept: application/json"
json_is "[.results[] | .published] | (. == (sort | reverse))" true \
    "semantic, sort=newest: newest first"
get "/search?q=program+repair&mode=lexical" -H "Accept: application/json"
json_is "[.results[] | .match != \"semantic\"] | all" true \
    "lexical: no vector-only candidates"
for fmt in "Accept: application/json" "Accept: text/markdown" "Accept: text/html"; do
	get "/search?q=graph&mode=bogus" -H "$fmt"
	is_status 400 "mode=bogus: 400 ($fmt)"
done
get "/search?q=graph&mode=bogus" -H "Accept: application/json"
json_is ".error.message | test(\"mode\")" true "mode=bogus: says what is wrong"

# A conceptual query: semantic search finds papers that do not contain
# the query's word (found by meaning, not by text).
found=
for p in 1 2 3 4 5 6 7 8 9; do
	ids=$(curl -s "$WEFT_URL/search?q=fuzzing&mode=semantic&format=json&page=$p" |
	    jq -r '.results[].arxiv_id' | sed "s/.*/'&'/" | paste -sd, -)
	[ -n "$ids" ] || break
	found=$(sql "SELECT arxiv_id FROM papers WHERE arxiv_id IN ($ids)
	    AND NOT search_vector @@ to_tsquery('english', 'fuzzing')
	    LIMIT 1")
	[ -n "$found" ] && break
done
[ -n "$found" ]
ok $? "semantic: a paper without the query's word is found ($found)"

# Fallbacks: a query of unknown words, and no usable index.
get "/search?q=zzqxv+qqzzx" -H "Accept: application/json"
is_status 200 "unknown words: 200"
json_is ".mode" lexical "unknown words: lexical results"
json_is ".notice | test(\"semantic index\")" true "unknown words: notice"
get "/search?q=zzqxv+qqzzx" -H "Accept: text/markdown"
body_has "Notice: " "unknown words: notice in markdown"
get "/search?q=zzqxv+qqzzx"
body_has "search-notice" "unknown words: notice in HTML"
VPATH=$(sql "SELECT path FROM vector_index ORDER BY version DESC LIMIT 1")
[ -n "$VPATH" ]
ok $? "a semantic index is recorded (conf/local.sh builds it)"
if [ -n "$VPATH" ]; then
	sql "UPDATE vector_index SET path = '/nonexistent/weft.wvec'
	      WHERE version = (SELECT max(version) FROM vector_index)" >/dev/null
	data_changed
	sleep 3 # workers read the cache generation at most every 2 s
	for i in 1 2 3 4; do
		get "/search?q=program+repair&n=$i" -H "Accept: application/json"
		is_status 200 "missing index file ($i): 200"
		json_is ".mode" lexical "missing index file ($i): lexical"
		json_is ".notice | test(\"not available\")" true \
		    "missing index file ($i): notice"
	done
	sql "UPDATE vector_index SET path = '$VPATH'
	      WHERE version = (SELECT max(version) FROM vector_index)" >/dev/null
	data_changed
	sleep 3
	get "/search?q=program+repair&n=5" -H "Accept: application/json"
	json_is ".mode" hybrid "index restored: hybrid again"
fi

# The paper_type filter and facet (weft-harvest analyse's types), in
# JSON, markdown and HTML.
get "/search?q=software" -H "Accept: application/json"
json_is "(.paper_type_facets | length) > 0" true "paper type facets"
json_is "[.paper_type_facets[] | .count] | (. == (sort | reverse))" true \
    "paper type facets by count"
json_is "[.paper_type_facets[] | .current] | any" false \
    "no paper type facet is current without the filter"
json_is ".filters.paper_type" null "no paper_type filter: null"
PT=$(jq -r '.paper_type_facets[0].paper_type' "$BODY")
PTN=$(jq -r '.paper_type_facets[0].count' "$BODY")
PTU=$(jq -r '.paper_type_facets[0].url' "$BODY")
[ "$PTU" = "$WEFT_URL/search?q=software&paper_type=$PT" ]
ok $? "paper type facet url" "$PTU"
get "/search?q=software&paper_type=$PT" -H "Accept: application/json"
is_status 200 "paper_type filter: 200"
json_is ".filters.paper_type" "$PT" "paper_type filter echoed"
# The facets count the bounded candidates (search_store.c), so a filter
# may find more than its facet said, never none.
json_is ".total >= 1 and .total >= ($PTN | if . > 24 then 24 else . end)" \
    true "paper_type filter: results ($PTN in the facet)"
json_is "[.paper_type_facets[] | .paper_type] == [\"$PT\"]" true \
    "paper_type filter: only that type left in the facets"
json_is ".paper_type_facets[0].current" true "the facet is current"
json_is ".paper_type_unfiltered_url" "$WEFT_URL/search?q=software" \
    "paper_type_unfiltered_url"
FIRST=$(jq -r '.results[0].arxiv_id' "$BODY")
[ "$(curl -sL "$WEFT_URL/papers/$FIRST?format=json" | jq -r .paper_type)" \
    = "$PT" ]
ok $? "paper_type filter: the first result is a $PT"
get "/search?q=software&paper_type=$PT&category=cs.SE&from=2025" \
    -H "Accept: application/json"
is_status 200 "paper_type with other filters: 200"
json_is "[.results[] | (.categories | index(\"cs.SE\") != null) and .published >= \"2025\"] | all" \
    true "paper_type with other filters: each holds"
get "/search?q=software&paper_type=$PT" -H "Accept: text/markdown"
is_status 200 "paper_type filter, markdown: 200"
body_has "- Paper type: $PT" "markdown names the paper type filter"
body_has "## Paper types" "markdown lists the paper type facets"
body_has "($WEFT_URL/search?q=software&paper_type=$PT)" \
    "markdown facet links"
get "/search?q=software&paper_type=$PT"
is_status 200 "paper_type filter, HTML: 200"
body_has 'name="paper_type"' "HTML form: a paper type choice"
body_has "<option value=\"$PT\" selected=\"\">" "HTML form: the type selected"
body_has '<h2 class="eyebrow">paper types</h2>' "HTML: paper type facets"
body_has '<a href="/search?q=software">remove</a>' \
    "HTML: the filter can be removed"
get "/rss/search.json?q=software&paper_type=$PT"
is_status 200 "paper_type in a search feed: 200"
get "/search?q=software&paper_type=Survey" -H "Accept: application/json"
is_status 400 "paper_type=Survey (case): 400"
json_is ".error.message | test(\"paper_type must be\")" true \
    "paper_type: the error names the values"
get "/search?q=software&paper_type=bogus" -H "Accept: text/markdown"
is_status 400 "paper_type=bogus, markdown: 400"
get "/rss/search.xml?q=software&paper_type=bogus"
is_status 400 "paper_type=bogus in a feed: 400"

# The markdown page offers "follow this search", as the HTML does.
get "/search?q=graph+databases&category=cs.DB" -H "Accept: text/markdown"
body_has "- Follow this search (signed in): [" \
    "markdown: follow this search"
body_has "($WEFT_URL/account/follows/new?kind=search&q=graph%20databases&category=cs.DB)" \
    "markdown: the follow link keeps the query and the category"
get "/search?q=graph+databases&type=researchers" -H "Accept: text/markdown"
body_lacks "Follow this search" "markdown: no follow link for researchers"

# Bad input: clear 400s.
LONG=$(printf 'a%.0s' $(seq 513))
get "/search?q=$LONG"
is_status 400 "q over 512 bytes: 400"
get "/search?q=$(printf 'a%.0s' $(seq 512))"
is_status 200 "q of 512 bytes: 200"
for bad in "type=people" "sort=best" "from=2025-13-01" "to=yesterday" \
    "from=2025-02-30" "from=2026&to=2025" "page=0" "page=x" \
    "category=cs%20SE" "researcher=abc" "institution=-1"; do
	get "/search?q=graph&$bad" -H "Accept: application/json"
	is_status 400 "$bad: 400"
	json_is ".error.status" 400 "$bad: JSON error object"
done

# tsquery syntax from users never raises a database error.
for q in "&" "|" "!" "!!" "a & | b" "(a" "a)" "a:*" "a <-> b" "'" "''" \
    "\\" "a:A" "\"" "\"a" "-" "--a" "or" "a or" "or or or" "-\"" "*" \
    ":" "a:b:c" "<->" "<2>" "!(a|b)" "the" "a -the" "%00" "日本語" \
    "🙂" "a'b\\c" "$(printf '%0.s(' $(seq 200))"; do
	get "/search?q=$(enc "$q")" -H "Accept: application/json"
	is_status 200 "q=$q: 200"
done

done_testing
