#!/bin/bash
# t_zotero.sh -- the paper page's Highwire citation_* tags and its COinS
# span, read the way Zotero's "Embedded Metadata" and "COinS"
# translators read them: <meta name content> in <head>, one
# citation_author per author, span.Z3988 whose title is an OpenURL KEV.
. "$(dirname "$0")/lib.sh"

ID=2512.20345

get "/papers/$ID" -H "Accept: application/json"
is_status 301 "the bare id redirects"
get "$(header Location | sed "s|^$WEFT_URL||")" -H "Accept: application/json"
is_status 200 "json of the paper"
cp "$BODY" "$T_TMP/paper.json"
CANON=$(jq -r .url "$BODY")
NAUTH=$(jq '.authors | length' "$BODY")
jq -r '.authors[].name' "$BODY" >"$T_TMP/authors"
TITLE=$(jq -r .title "$BODY")
[ "$NAUTH" -gt 1 ] && [ -n "$TITLE" ]
ok $? "the paper has a title and several authors" "$NAUTH"

get "${CANON#"$WEFT_URL"}"
is_status 200 "html of the paper"

# zread: "head|name|content" per <meta name> and "coins|title" per
# span.Z3988, from an HTML parser (entities decoded as a browser does).
/usr/bin/python3 - "$BODY" >"$T_TMP/tags" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.inhead = False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "head":
            self.inhead = True
        if tag == "meta" and "name" in a and a["name"].startswith("citation_"):
            print("%s|%s|%s" % ("head" if self.inhead else "body",
                  a["name"], a.get("content", "").replace("\n", " ")))
        if tag == "span" and "Z3988" in a.get("class", "").split():
            print("coins|" + a.get("title", ""))
    def handle_endtag(self, tag):
        if tag == "head":
            self.inhead = False
P().feed(open(sys.argv[1], encoding="utf-8").read())
PY
tag() { awk -F'|' -v n="$1" '$1 == "head" && $2 == n { print $3 }' \
    "$T_TMP/tags"; }

n=$(grep -c '^body|' "$T_TMP/tags")
[ "$n" = 0 ]
ok $? "citation_* tags only in <head>" "$n in body"
[ "$(tag citation_title)" = "$TITLE" ]
ok $? "citation_title is the title" "$(tag citation_title)"
[ "$(tag citation_title | wc -l)" = 1 ]
ok $? "one citation_title"
tag citation_author >"$T_TMP/hw_authors"
cmp -s "$T_TMP/authors" "$T_TMP/hw_authors"
ok $? "one citation_author per author, in order" \
    "$(wc -l <"$T_TMP/hw_authors") of $NAUTH"
! grep -q ';' "$T_TMP/hw_authors"
ok $? "no ';' in an author (Zotero splits on it)"
tag citation_publication_date | grep -Eq '^[0-9]{4}/[0-9]{2}/[0-9]{2}$'
ok $? "citation_publication_date YYYY/MM/DD" \
    "$(tag citation_publication_date)"
tag citation_date | grep -Eq '^[0-9]{4}/[0-9]{2}/[0-9]{2}$'
ok $? "citation_date"
tag citation_online_date | grep -Eq '^[0-9]{4}/[0-9]{2}/[0-9]{2}$'
ok $? "citation_online_date"
[ "$(tag citation_arxiv_id)" = "$ID" ]
ok $? "citation_arxiv_id"
[ "$(tag citation_pdf_url)" = "https://arxiv.org/pdf/$ID" ]
ok $? "citation_pdf_url" "$(tag citation_pdf_url)"
[ "$(tag citation_abstract_html_url)" = "$CANON" ]
ok $? "citation_abstract_html_url is the canonical page"
[ -n "$(tag citation_abstract)" ]
ok $? "citation_abstract"
tag citation_abstract | grep -q '[<>]'
[ $? != 0 ]
ok $? "citation_abstract is text, no markup"
jr=$(jq -r '.journal_ref // ""' "$T_TMP/paper.json")
if [ -z "$jr" ]; then
	[ "$(tag citation_technical_report_institution)" = arXiv ] &&
	    [ -z "$(tag citation_journal_title)" ]
	ok $? "a preprint is a report of arXiv (Zotero type report)"
else
	[ "$(tag citation_journal_title)" = "$jr" ]
	ok $? "citation_journal_title is the journal ref"
fi
doi=$(jq -r '.doi // ""' "$T_TMP/paper.json")
if [ -n "$doi" ]; then
	[ "$(tag citation_doi)" = "$doi" ]
	ok $? "citation_doi"
else
	[ -z "$(tag citation_doi)" ]
	ok $? "no citation_doi without a DOI"
fi

# COinS: exactly one span; its title decodes to the same item.
[ "$(grep -c '^coins|' "$T_TMP/tags")" = 1 ]
ok $? "one span.Z3988"
/usr/bin/python3 - "$T_TMP/tags" "$ID" "$CANON" "$T_TMP/authors" \
    "$TITLE" <<'PY'
import sys
from urllib.parse import parse_qs
tags, aid, canon, authors, title = sys.argv[1:6]
kev = [l[6:].rstrip("\n") for l in open(tags, encoding="utf-8")
       if l.startswith("coins|")][0]
q = parse_qs(kev, keep_blank_values=True, strict_parsing=True)
want = [l.rstrip("\n") for l in open(authors, encoding="utf-8")]
fails = []
def check(c, what):
    if not c:
        fails.append(what)
check(q.get("ctx_ver") == ["Z39.88-2004"], "ctx_ver")
fmt = q.get("rft_val_fmt", [""])[0]
check(fmt in ("info:ofi/fmt:kev:mtx:book", "info:ofi/fmt:kev:mtx:journal"),
      "rft_val_fmt")
t = q.get("rft.btitle" if fmt.endswith("book") else "rft.atitle", [""])[0]
check(t == title, "title")
check(q.get("rft.genre") in (["report"], ["article"]), "rft.genre")
check(q.get("rft.au") == want, "rft.au per author in order")
check(len(q.get("rft.date", [""])[0]) == 10, "rft.date")
ids = q.get("rft_id", [])
check("info:arxiv/" + aid in ids, "rft_id info:arxiv")
check(canon in ids, "rft_id page url")
if fails:
    print("# failed: " + ", ".join(fails))
sys.exit(1 if fails else 0)
PY
ok $? "COinS decodes: ctx_ver, format, title, one rft.au per author, ids"

# The markdown and JSON pages carry no HTML meta: unchanged.
get "${CANON#"$WEFT_URL"}" -H "Accept: text/markdown"
body_lacks 'citation_' "markdown: no meta tags"

done_testing
