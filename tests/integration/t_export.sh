#!/bin/bash
# t_export.sh -- BibTeX, RIS and CSL-JSON of a paper, a researcher's
# papers and a search, by Accept and ?format=, each parsed by a real
# parser (python3-bibtexparser; citation-js from tests/node_modules),
# their Link alternates, and the 406 that lists them.
. "$(dirname "$0")/lib.sh"

ID=2512.20345
NODE_OK=0
[ -d "$WEFT_ROOT/tests/node_modules/@citation-js/plugin-ris" ] && NODE_OK=1

# bib_parse: the entries of $BODY as "key|title|authors" lines.
bib_parse() {
	/usr/bin/python3 -c '
import sys, bibtexparser
db = bibtexparser.loads(open(sys.argv[1], encoding="utf-8").read())
for e in db.entries:
    print(e["ID"] + "|" + e.get("title", "") + "|" + e.get("author", ""))
' "$BODY"
}

# cite_parse FMT: $BODY through citation-js, as CSL-JSON on stdout.
cite_parse() {
	NODE_PATH="$WEFT_ROOT/tests/node_modules" node \
	    "$WEFT_ROOT/tests/cite-parse.js" "$BODY" "$1"
}

get "/papers/$ID" -L -H "Accept: application/json"
CANON=$(jq -r .url "$BODY")
C=${CANON#"$WEFT_URL"}

# ------------------------------------------------------------ a paper
for f in bib:application/x-bibtex ris:application/x-research-info-systems \
    csl:application/vnd.citationstyles.csl+json; do
	fmt=${f%%:*} mime=${f#*:}
	get "$C" -H "Accept: $mime"
	is_status 200 "paper $fmt by Accept"
	header_has Content-Type "$mime" "paper $fmt: type"
	get "$C?format=$fmt"
	is_status 200 "paper ?format=$fmt"
	header_has Content-Type "$mime" "paper ?format=$fmt: type"
	grep -i '^link: ' "$HDRS" | grep -qF "format=json>; rel=\"alternate\"; type=\"application/json\""
	ok $? "paper $fmt: Link alternate JSON"
	if [ "$fmt" = bib ]; then
		bib_parse >"$T_TMP/p"
		grep -q '^ma2025comprehensive|A Comprehensive Study' "$T_TMP/p"
		ok $? "paper bib parses, key and title" "$(cat "$T_TMP/p")"
	elif [ $NODE_OK = 1 ]; then
		cite_parse "$fmt" >"$T_TMP/p"
		ok $? "paper $fmt parses (citation-js)"
		jq -e '.[0].title | startswith("A Comprehensive Study")' \
		    "$T_TMP/p" >/dev/null
		ok $? "paper $fmt: title" "$(head -c 300 "$T_TMP/p")"
		jq -e '.[0].author | length == 6' "$T_TMP/p" >/dev/null
		ok $? "paper $fmt: six authors"
	else
		skip "citation-js not installed (cd tests && npm ci)"
	fi
done
get "$C"
grep -i '^link: ' "$HDRS" | grep -qF 'format=ris>; rel="alternate"; type="application/x-research-info-systems"'
ok $? "paper HTML: Link alternate RIS"

# ------------------------------------------------------------ a researcher
R=$(jq -r '.authors[0].researcher.url' <(curl -s "$CANON" -H "Accept: application/json"))
R=${R#"$WEFT_URL"}
get "$R" -H "Accept: application/json"
N=$(jq .papers.pagination.total "$BODY")
get "$R" -H "Accept: application/x-bibtex"
is_status 200 "researcher BibTeX"
bib_parse >"$T_TMP/r"
[ "$(wc -l <"$T_TMP/r")" -eq "$N" ]
ok $? "researcher BibTeX: all $N papers" "$(wc -l <"$T_TMP/r")"
[ "$(cut -d'|' -f1 "$T_TMP/r" | sort | uniq -d | wc -l)" -eq 0 ]
ok $? "researcher BibTeX: keys unique"
get "$R?format=ris&page=2"
is_status 200 "researcher RIS ignores page"
[ "$(grep -c '^ER  - ' "$BODY")" -eq "$N" ]
ok $? "researcher RIS: all $N records"

# ------------------------------------------------------------ a search
get "/search?q=distributed+deep+learning&format=csl"
is_status 200 "search CSL-JSON"
n=$(jq length "$BODY")
[ "$n" -gt 0 ] && [ "$n" -le 192 ]
ok $? "search CSL-JSON: 1..192 items ($n)"
get "/search?q=graph&format=bib"
bib_parse >"$T_TMP/s"
[ "$(wc -l <"$T_TMP/s")" -le 192 ] && [ -s "$T_TMP/s" ]
ok $? "search BibTeX parses, bounded"
if [ $NODE_OK = 1 ]; then
	get "/search?q=graph&format=ris"
	cite_parse ris >"$T_TMP/s"
	ok $? "search RIS parses (citation-js)"
fi

# ------------------------------------------------------------ bad input
get "$C?format=docx" -H "Accept: application/json"
is_status 406 "unknown format: 406"
jq -e '.error.available | index("application/x-research-info-systems")' \
    "$BODY" >/dev/null
ok $? "406 lists RIS"
get "$C" -H "Accept: application/msword"
is_status 406 "unoffered Accept: 406"
body_has "application/vnd.citationstyles.csl+json" "406 HTML lists CSL-JSON"
get "/search?format=bib"
is_status 400 "export of an empty search: 400"


# ------------------------------------------------------------ /feed
# The signed-in feed: a user following the researcher with the most
# papers exports them by ?format= and by Accept; private, never cached.
get "/feed?format=bib"
is_status 303 "feed export signed out: to the sign-in page"
email="export.$$.$RANDOM@example.org"
signup_verified "$email" "a long enough passphrase $$"
ok $? "feed: a verified account, signed in"
frid=$(sql "SELECT researcher_id FROM authorships
             WHERE researcher_id IS NOT NULL
             GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1")
get /account
post /account/follows -H "Origin: $WEFT_URL" -d kind=researcher \
    -d "id=$frid" --data-urlencode "csrf=$(form_csrf)"
is_status 303 "feed: follow a researcher"
get "/feed" -H "Accept: application/json"
NF=$(jq '.pagination.total' "$BODY")
[ "${NF:-0}" -gt 0 ]
ok $? "feed: has items" "$NF"
get "/feed?format=bib"
is_status 200 "feed BibTeX: 200"
header_is Content-Type "application/x-bibtex; charset=utf-8" \
    "feed BibTeX: Content-Type"
header_has Cache-Control "private" "feed BibTeX: private"
n=$(bib_parse | wc -l)
[ "$n" -gt 0 ] && [ "$n" -le "$NF" ]
ok $? "feed BibTeX parses (bibtexparser)" "$n entries of $NF items"
[ "$(bib_parse | cut -d'|' -f1 | sort | uniq -d | wc -l)" = 0 ]
ok $? "feed BibTeX keys unique"
get "/feed" -H "Accept: application/x-research-info-systems"
is_status 200 "feed RIS by Accept: 200"
body_has "TY  - " "feed RIS: records"
get "/feed?format=csl"
is_status 200 "feed CSL-JSON: 200"
jq -e 'type == "array" and length > 0 and (.[0].title | length) > 0' \
    "$BODY" >/dev/null
ok $? "feed CSL-JSON: an array of items"
if [ $NODE_OK = 1 ]; then
	get "/feed?format=ris"
	cite_parse ris >"$T_TMP/f"
	ok $? "feed RIS parses (citation-js)"
fi
get "/feed?format=docx" -H "Accept: application/json"
is_status 406 "feed: unknown format 406"
sql "DELETE FROM users WHERE email = '$email'" >/dev/null

done_testing
