#!/bin/bash
# t_attack_xss.sh -- an XSS corpus through the data path.  A paper, a
# researcher and an institution (linked by an authorship and an
# affiliation) are written with psql, their text full of payloads:
# <script>, </script><script>, javascript: URLs (also as a DOI and a
# website), an off-site "https:host" licence URL, "onmouseover=,
# '><img onerror>, ]]>, {{7*7}}, markdown links and headings, a control
# character, a hostile slug.  Then every
# representation of every page that shows them is fetched and checked:
#
#   HTML       no payload raw, only escaped; every <script> is our
#              JSON-LD, which holds no "</script" or "<!--" and parses
#              (jq); no href/src with a javascript: URL;
#   markdown   no link to javascript:, no payload starting a block,
#              no raw HTML;
#   JSON       parses, and holds the payload as data;
#   RSS, XML   xmllint and feedparser (bozo == 0), payload as text.
#
# Invalid UTF-8 cannot be stored in a UTF8 database (PostgreSQL refuses
# it), so it never reaches pages from there: the writers' handling of it
# is covered by the unit tests (test_html, test_md, test_xml, test_utf8)
# and by tests/fuzz/fuzz_writers.c.  The rows are deleted at the end.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"

PSQL=(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -v ON_ERROR_STOP=1 -qAtX)
sql() { "${PSQL[@]}" -c "$1"; }

# A new-style id that parses (9912.x would not: new style began 0704).
PAPER=2512.99997
cleanup() {
	sql "DELETE FROM papers WHERE arxiv_id = '$PAPER'" >/dev/null 2>&1
	[ -n "${RID:-}" ] && sql "DELETE FROM researchers WHERE id = $RID" \
	    >/dev/null 2>&1
	[ -n "${IID:-}" ] && sql "DELETE FROM institutions WHERE id = $IID" \
	    >/dev/null 2>&1
	redis-cli -s "$WEFT_VAR/redis/redis.sock" INCR weft:gen >/dev/null 2>&1
	rm -rf "$T_TMP"
}
trap cleanup EXIT

PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import feedparser' 2>/dev/null; then PY=$p; break; fi
done

# ------------------------------------------------------------ payloads
# SQL string bodies (E'' literals: \x01 is a control character).
P_SCRIPT="<script>alert(1)</script>"
P_CLOSE="</script><script>alert(1)</script>"
P_ATTR='"onmouseover=alert(1) x="'
P_IMG="'><img src=x onerror=alert(1)>"
P_JS="javascript:alert(1)"
P_CDATA="]]>"
P_TPL="{{7*7}}"
P_MDLINK="[x](javascript:alert(1))"
P_COMMENT="<!--"
# Starts with "http" (so the paper page links it) but is no absolute
# URL: browsers read "https:host" as https://host/, off-site.
P_OFFSITE="https:evil.example/x"
sqlq() { printf '%s' "$1" | sed "s/\\\\/\\\\\\\\/g; s/'/''/g"; }
ALL="$P_SCRIPT $P_CLOSE $P_ATTR $P_IMG $P_JS $P_CDATA $P_TPL $P_MDLINK $P_COMMENT"
TITLE="XSS title $ALL"
ABSTRACT="XSS abstract $ALL
# heading
- list item $P_MDLINK
<img src=x onerror=alert(2)>"
NAME="XSS Researcher $P_SCRIPT $P_IMG $P_ATTR $P_TPL"
INAME="XSS Institute $P_CLOSE $P_IMG $P_ATTR $P_CDATA"

sql "DELETE FROM papers WHERE arxiv_id = '$PAPER'"
sql "DELETE FROM researchers WHERE name LIKE 'XSS Researcher %'"
sql "DELETE FROM institutions WHERE name LIKE 'XSS Institute %'"
IID=$(sql "INSERT INTO institutions (name, slug, aliases, country_code,
    country_name, type, website)
    VALUES (E'$(sqlq "$INAME")\\x01', 'xss-institute',
        ARRAY[E'$(sqlq "$P_SCRIPT")'], 'ZZ', E'$(sqlq "$P_IMG")',
        E'$(sqlq "$P_ATTR")', E'$(sqlq "$P_JS")')
    RETURNING id")
RID=$(sql "INSERT INTO researchers (name, name_key, slug, orcid,
    paper_count, latest_paper)
    VALUES (E'$(sqlq "$NAME")\\x01', 'xss researcher', 'xss-researcher',
        E'$(sqlq "$P_JS")', 1, current_date)
    RETURNING id")
PID=$(sql "INSERT INTO papers (arxiv_id, title, abstract, comment,
    categories, primary_category, published, updated, versions, doi,
    journal_ref, license, slug, source, author_count, fully_matched)
    VALUES ('$PAPER', E'$(sqlq "$TITLE")\\x01',
        E'$(sqlq "$ABSTRACT")\\x02', E'$(sqlq "$P_CLOSE")',
        '{cs.CR}', 'cs.CR', current_date, current_date,
        '[{\"version\":1,\"date\":\"2099-01-01\"}]',
        E'$(sqlq "$P_JS")', E'$(sqlq "$P_IMG")', E'$(sqlq "$P_OFFSITE")',
        E'xss-$(sqlq "$P_ATTR")', 'test', 1, true)
    RETURNING id")
[ -n "$IID" ] && [ -n "$RID" ] && [ -n "$PID" ]
ok $? "hostile rows inserted (paper $PID, researcher $RID, institution $IID)"
sql "INSERT INTO authorships (paper_id, position, raw_name, researcher_id)
    VALUES ($PID, 1, E'$(sqlq "$NAME")', $RID)"
sql "INSERT INTO researcher_institutions (researcher_id, institution_id,
    source, last_known) VALUES ($RID, $IID, 'arxiv', true)"
# Invalid UTF-8 is refused by the database itself.
! sql "INSERT INTO papers (arxiv_id, title, primary_category, slug, source)
    VALUES ('9912.99996', convert_from('\\xc328'::bytea, 'UTF8'), 'x',
        'x', 'test')" >/dev/null 2>&1
ok $? "invalid UTF-8 cannot be stored (covered by unit and fuzz tests)"
data_changed

# ------------------------------------------------------------ checks
# Payloads that must never appear raw in HTML.
RAW_HTML=("$P_SCRIPT" "<script><" "<script>alert" "$P_IMG" "<img src=x"
	"$P_ATTR" "onerror=alert(1)>" "<!--<")

# html_ok WHAT [needle]: the body is safe HTML showing the escaped text.
html_ok() {
	local what=$1 needle=${2:-} bad='' s
	for s in "${RAW_HTML[@]}"; do
		grep -qF -- "$s" "$BODY" && bad="$bad [$s]"
	done
	[ -z "$bad" ]
	ok $? "$what: no payload raw in HTML" "found:$bad"
	# Every script element is our JSON-LD.
	bad=$(grep -o '<script[^>]*>' "$BODY" |
	    grep -v '^<script type="application/ld+json">$' | head -3)
	[ -z "$bad" ]
	ok $? "$what: every <script> is JSON-LD" "$bad"
	# No javascript: in a URL attribute (entities decoded by hand).
	bad=$(grep -oiE '(href|src|action)="[^"]*"' "$BODY" |
	    sed 's/&#39;/'"'"'/g; s/&amp;/\&/g; s/&#x27;/'"'"'/g' |
	    tr -d '\t\r\n ' | grep -iE '="(java|vb)script:' | head -3)
	[ -z "$bad" ]
	ok $? "$what: no javascript: URL in href/src" "$bad"
	# Nor a link the data steers off-site ("https:host", "//host").
	bad=$(grep -oiE '(href|src|action)="[^"]*evil\.example[^"]*"' "$BODY" |
	    head -3)
	[ -z "$bad" ]
	ok $? "$what: no off-site link from the data" "$bad"
	# The JSON-LD blocks: nothing to end the script early, valid JSON.
	"$PY_ANY" - "$BODY" <<-'PY'
	import json, re, sys
	html = open(sys.argv[1], encoding="utf-8").read()
	opens = [m.end() for m in re.finditer(
	    r'<script type="application/ld\+json">', html)]
	bad = 0
	for start in opens:
	    end = html.find("</script>", start)
	    block = html[start:end]
	    if end < 0 or "</script" in block.lower() or "<!--" in block \
	        or "<script" in block.lower():
	        bad = 1
	    try:
	        json.loads(block)
	    except Exception as e:
	        print("#  ", e)
	        bad = 1
	sys.exit(bad)
	PY
	ok $? "$what: JSON-LD ends where it should and parses"
	if [ -n "$needle" ]; then
		body_has "$needle" "$what: shows the escaped text"
	fi
}
PY_ANY=/usr/bin/python3
[ -x "$PY_ANY" ] || PY_ANY=python3

# md_ok WHAT: markdown with no live payload.
md_ok() {
	local bad
	# A link is "](" not preceded by a backslash (an escaped "\]").
	bad=$(grep -ioE '(^|[^\\])\]\([[:space:]]*(java|vb)script:[^)]*\)' \
	    "$BODY" | head -3)
	[ -z "$bad" ]
	ok $? "$1: no markdown link to javascript:" "$bad"
	# Raw HTML in markdown: a '<' not escaped with a backslash.
	bad=$(grep -nE '(^|[^\\])<(script|img|/script|!--)' "$BODY" | head -3)
	[ -z "$bad" ]
	ok $? "$1: no raw HTML tags from data" "$bad"
	bad=$(grep -nE '^(# heading|- list item)' "$BODY" | head -3)
	[ -z "$bad" ]
	ok $? "$1: data starts no heading or list" "$bad"
}

json_ok() {
	jq -e . "$BODY" >/dev/null 2>&1
	ok $? "$1: JSON parses"
	[ -n "${2:-}" ] && body_has "${2}" "$1: payload kept as data"
}

feed_ok() {
	xmllint --noout "$BODY" 2>/dev/null
	ok $? "$1: xmllint finds it well-formed"
	if [ -n "$PY" ]; then
		"$PY" -c 'import feedparser, sys
d = feedparser.parse(sys.argv[1])
if d.bozo: print("#  ", d.bozo_exception)
sys.exit(1 if d.bozo else 0)' "$BODY"
		ok $? "$1: feedparser bozo == 0"
	else
		skip "python3-feedparser is not installed"
	fi
}

# Follows redirects to the canonical page (a hostile slug is part of it).
canon() {
	local path=$1 loc
	get "$path"
	case "$STATUS" in 30?)
		loc=$(header Location)
		case "$loc" in *$'\r'*|*'<'*|*'"'*|*' '*)
			ok 1 "$path: Location is encoded" "$loc" ;;
		*)	ok 0 "$path: Location is encoded" ;;
		esac
		CANON=${loc#"$WEFT_URL"} ;;
	*)	CANON=$path ;;
	esac
}

ESC_TITLE='&lt;script&gt;alert(1)&lt;/script&gt;'

# ------------------------------------------------------------ the paper
canon "/papers/$PAPER"
t=0
for accept in text/html text/markdown application/json; do
	get "$CANON" -H "Accept: $accept"
	is_status 200 "paper ($accept) answers"
	case $accept in
	text/html) html_ok "paper HTML" "$ESC_TITLE" ;;
	text/markdown) md_ok "paper markdown"
	    body_has 'XSS title' "paper markdown: title shown" ;;
	application/json) json_ok "paper JSON" "XSS title"
	    json_is .title "XSS title $ALL" "paper JSON: title exact, control dropped"
	    ;;
	esac
done
get "$CANON?format=bib"
case "$STATUS" in
200) ok 0 "paper BibTeX answers"
     ! grep -qP '[\x00-\x08\x0b\x0c\x0e-\x1f]' "$BODY"
     ok $? "paper BibTeX: no control characters" ;;
*)   ok 1 "paper BibTeX answers" "status $STATUS" ;;
esac

# ------------------------------------------------------------ researcher
canon "/researchers/$RID"
for accept in text/html text/markdown application/json; do
	get "$CANON" -H "Accept: $accept"
	is_status 200 "researcher ($accept) answers"
	case $accept in
	text/html) html_ok "researcher HTML" "XSS Researcher &lt;script&gt;" ;;
	text/markdown) md_ok "researcher markdown" ;;
	application/json) json_ok "researcher JSON" "XSS Researcher" ;;
	esac
done

# ------------------------------------------------------------ institution
canon "/institutions/$IID"
for accept in text/html text/markdown application/json; do
	get "$CANON" -H "Accept: $accept"
	is_status 200 "institution ($accept) answers"
	case $accept in
	text/html) html_ok "institution HTML" "XSS Institute &lt;/script&gt;" ;;
	text/markdown) md_ok "institution markdown" ;;
	application/json) json_ok "institution JSON" "XSS Institute" ;;
	esac
done

# ------------------------------------------------------------ lists
for path in "/" "/researchers" "/institutions" \
    "/search?q=XSS+title" "/search?q=$(printf %s "$P_SCRIPT" | jq -sRr @uri)"; do
	get "$path"
	if [ "$STATUS" = 404 ] && [ "${path#/search}" != "$path" ]; then
		skip "$path: /search is not served yet"
		continue
	fi
	for accept in text/html text/markdown application/json; do
		get "$path" -H "Accept: $accept"
		case "$STATUS" in
		200|4??) ok 0 "$path ($accept): no 5xx" ;;
		*) ok 1 "$path ($accept): no 5xx" "status $STATUS" ;;
		esac
		case $accept in
		text/html) html_ok "$path HTML" ;;
		text/markdown) md_ok "$path markdown" ;;
		application/json) json_ok "$path JSON" ;;
		esac
	done
done
get "/" -H "Accept: text/html"
body_has "$ESC_TITLE" "home lists the newest paper, escaped"

# ------------------------------------------------------------ feeds
for path in "/rss/latest.xml?t=$$" "/rss/categories/cs.CR.xml?t=$$" \
    "/rss/researchers/$RID.xml?t=$$" "/rss/institutions/$IID.xml?t=$$"; do
	get "$path"
	is_status 200 "${path%%\?*} answers"
	feed_ok "${path%%\?*}"
done
get "/rss/researchers/$RID.xml?t=$$-2"
t=$(xmllint --xpath 'string(/rss/channel/item[1]/title)' "$BODY" 2>/dev/null)
# Feed titles are TeX made plain (core_tex_plain): the braces of
# {{7*7}} only group, "--" is a dash; the rest is the payload, as text.
[ "$t" = "XSS title $P_SCRIPT $P_CLOSE $P_ATTR $P_IMG $P_JS $P_CDATA 7*7 \
$P_MDLINK <!–" ]
ok $? "researcher feed: the title is the payload as text" "$t"
get "/rss/researchers/$RID.xml?t=$$-3"
t=$(xmllint --xpath 'string(/rss/channel/title)' "$BODY" 2>/dev/null)
case "$t" in *"$P_SCRIPT"*) ok 0 "researcher feed: channel title is text" ;;
*) ok 1 "researcher feed: channel title is text" "$t" ;; esac

# ------------------------------------------------------------ sitemaps
for kind in papers researchers institutions; do
	get "/sitemaps/$kind-1.xml"
	is_status 200 "sitemap $kind-1 answers"
	xmllint --noout "$BODY" 2>/dev/null
	ok $? "sitemap $kind-1: well-formed"
done
get "/sitemaps/papers-1.xml"
grep -q "/papers/$PAPER" "$BODY"
ok $? "the paper is in the sitemap chunk"
loc=$(grep -oE "<loc>[^<]*/papers/${PAPER}[^<]*</loc>" "$BODY" | head -1)
loc=${loc#<loc>}
loc=${loc%</loc>}
case "$loc" in
*'"'*|*"'"*|*' '*|*'&quot;'*|'') ok 1 "its sitemap URL has the slug encoded" "$loc" ;;
*%22onmouseover%3Dalert*) ok 0 "its sitemap URL has the slug encoded" ;;
*) ok 1 "its sitemap URL has the slug encoded" "$loc" ;;
esac
get "${loc#"$WEFT_URL"}"
is_status 200 "the sitemap's URL for it is the canonical page (no redirect)"

# ------------------------------------------------------------ cleanup
sql "DELETE FROM papers WHERE arxiv_id = '$PAPER'"
sql "DELETE FROM researchers WHERE id = $RID"
sql "DELETE FROM institutions WHERE id = $IID"
data_changed
get "/papers/$PAPER"
is_status 404 "the paper is gone after cleanup"

done_testing
