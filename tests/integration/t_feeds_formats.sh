#!/bin/bash
# t_feeds_formats.sh -- every public feed (latest, a category, a
# researcher, an institution, a search) in its three formats through
# nginx: RSS 2.0 (.xml), Atom (.atom) and JSON Feed 1.1 (.json), each
# read by python3-feedparser (bozo == 0), Atom checked against the rules
# of RFC 4287 that matter to readers (ids, updated, authors, links) and
# JSON Feed against the 1.1 spec's required keys; the three formats of a
# feed carry the same items.  A v2 harvested through the Atom API
# fixture server (harvest_nginx.sh) appears as a "v2 replaced v1" item
# with a GUID of its own in the latest, category and researcher feeds.
# Pages that have a feed link it (head, a visible link, markdown).  Bad
# input is a clear 4xx.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/harvest_nginx.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"

PSQL=(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -v ON_ERROR_STOP=1 -qAtX)
sql() { "${PSQL[@]}" -c "$1"; }

# Debian's python3-feedparser belongs to /usr/bin/python3, which may not
# be the first python3 on PATH.
PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import feedparser' 2>/dev/null; then PY=$p; break; fi
done

PAPER=2612.99997
cleanup() {
	sql "DELETE FROM stale_pages WHERE kind = 'paper' AND entity_id IN
	    (SELECT id FROM papers WHERE arxiv_id = '$PAPER');
	    DELETE FROM papers WHERE arxiv_id = '$PAPER'" >/dev/null 2>&1
	# Cached feeds must not keep its items for the tests that follow.
	data_changed
	hv_nginx_down >/dev/null 2>&1
	rm -rf "$T_TMP"
}
trap cleanup EXIT

# check FORMAT URL [EMPTY]: the body as a feed of FORMAT whose own URL
# is URL (with no items only when EMPTY is given);
# prints "ok"/"not ok" lines of its own through ok().  The item ids go
# to $T_TMP/ids.FORMAT, one a line, in order.
check() {
	"$PY" - "$1" "$2" "$BODY" "$T_TMP/ids.$1" ${3:+empty} <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET
fmt, url, path, idsout = sys.argv[1:5]
empty_ok = len(sys.argv) > 5
body = open(path, "rb").read()
errs = []
ids = []
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?"
                     r"(Z|[+-]\d{2}:\d{2})$")
ABS = re.compile(r"^https?://")
# feedparser reads RSS and Atom (Debian 12's 6.0.10 has no JSON Feed:
# the checks below are the 1.1 spec's).
if fmt != "json":
    import feedparser
    d = feedparser.parse(body)
    want = {"xml": "rss20", "atom": "atom10"}[fmt]
    if d.bozo:
        errs.append("feedparser bozo: %s" % d.bozo_exception)
    if d.version != want:
        errs.append("feedparser version %r, want %r" % (d.version, want))
if fmt == "xml":
    root = ET.fromstring(body)
    for it in root.iter("item"):
        ids.append(it.findtext("guid"))
elif fmt == "atom":
    A = "{http://www.w3.org/2005/Atom}"
    root = ET.fromstring(body)
    if root.tag != A + "feed":
        errs.append("root is %s" % root.tag)
    def one(el, name, where):
        n = el.findall(A + name)
        if len(n) != 1:
            errs.append("%s: %d atom:%s, want 1" % (where, len(n), name))
            return None
        return n[0]
    def links(el):
        return [(l.get("rel", "alternate"), l.get("type"), l.get("href"))
                for l in el.findall(A + "link")]
    fid = one(root, "id", "feed")
    if fid is not None and not ABS.match(fid.text or ""):
        errs.append("feed id not an absolute IRI: %r" % fid.text)
    one(root, "title", "feed")
    u = one(root, "updated", "feed")
    if u is not None and not RFC3339.match(u.text or ""):
        errs.append("feed updated not RFC 3339: %r" % u.text)
    ls = links(root)
    if ("self", "application/atom+xml", url) not in ls:
        errs.append("no link rel=self to %s: %r" % (url, ls))
    if not any(r == "alternate" for r, t, h in ls):
        errs.append("no link rel=alternate")
    feed_author = len(root.findall(A + "author")) > 0
    for e in root.findall(A + "entry"):
        i = one(e, "id", "entry")
        if i is not None:
            ids.append(i.text)
            if not ABS.match(i.text or ""):
                errs.append("entry id not absolute: %r" % i.text)
        one(e, "title", "entry %s" % (i.text if i is not None else "?"))
        u = one(e, "updated", "entry")
        if u is not None and not RFC3339.match(u.text or ""):
            errs.append("entry updated not RFC 3339: %r" % u.text)
        for p in e.findall(A + "published"):
            if not RFC3339.match(p.text or ""):
                errs.append("published not RFC 3339: %r" % p.text)
        if not any(r == "alternate" and ABS.match(h or "")
                   for r, t, h in links(e)):
            errs.append("entry without an absolute alternate link")
        if not feed_author and not e.findall(A + "author"):
            errs.append("entry without an author, feed without one")
        for a in e.findall(A + "author"):
            if not (a.findtext(A + "name") or "").strip():
                errs.append("an author without a name")
        if e.find(A + "summary") is None and e.find(A + "content") is None:
            errs.append("entry without summary or content")
else:
    j = json.loads(body)
    if j.get("version") != "https://jsonfeed.org/version/1.1":
        errs.append("version %r" % j.get("version"))
    if not isinstance(j.get("title"), str) or not j["title"]:
        errs.append("no title")
    if not isinstance(j.get("items"), list):
        errs.append("items not an array")
    if j.get("feed_url") != url:
        errs.append("feed_url %r, want %r" % (j.get("feed_url"), url))
    for k in ("home_page_url", "feed_url"):
        if k in j and not ABS.match(j[k]):
            errs.append("%s not absolute" % k)
    for a in j.get("authors", []):
        if not isinstance(a, dict) or not a.get("name"):
            errs.append("feed author without a name")
    for it in j.get("items", []):
        if not isinstance(it.get("id"), str) or not it["id"]:
            errs.append("item id not a non-empty string: %r" % it.get("id"))
            continue
        ids.append(it["id"])
        if not ("content_text" in it or "content_html" in it):
            errs.append("item %s has no content_text/content_html" % it["id"])
        for k in ("date_published", "date_modified"):
            if k in it and not RFC3339.match(it[k]):
                errs.append("item %s: %s not RFC 3339" % (it["id"], k))
        if "url" in it and not ABS.match(it["url"]):
            errs.append("item url not absolute")
        for k in ("tags", "authors"):
            if k in it and not isinstance(it[k], list):
                errs.append("item %s not an array" % k)
        for a in it.get("authors", []):
            if not isinstance(a, dict) or not a.get("name"):
                errs.append("item author without a name")
if len(set(ids)) != len(ids):
    errs.append("item ids not unique")
if not ids and not empty_ok:
    errs.append("no items")
open(idsout, "w").write("".join("%s\n" % i for i in ids))
for e in errs[:5]:
    print("#   " + e)
sys.exit(1 if errs else 0)
PY
}
ctype() { case $1 in xml) echo application/rss+xml ;;
	atom) echo application/atom+xml ;; json) echo application/feed+json ;;
	esac; }

# ------------------------------------------------------------ fixtures
RID=$(sql "SELECT id FROM researchers WHERE paper_count > 0
    ORDER BY paper_count DESC, id LIMIT 1")
# An institution with researchers here if there is one (the bundled
# data may have none: then any institution, whose feed may be empty).
IID=$(sql "SELECT ri.institution_id FROM researcher_institutions ri
    JOIN researchers r ON r.id = ri.researcher_id
    WHERE r.paper_count > 0 ORDER BY ri.institution_id LIMIT 1")
[ -n "$IID" ] || IID=$(sql "SELECT id FROM institutions ORDER BY id LIMIT 1")
CAT=$(sql "SELECT primary_category FROM papers GROUP BY 1
    ORDER BY count(*) DESC, 1 LIMIT 1")
[ -n "$RID" ] && [ -n "$IID" ] && [ -n "$CAT" ] && [ -n "$PY" ]
ok $? "a researcher, an institution, a category and feedparser" \
    "researcher '$RID' institution '$IID' category '$CAT' python '$PY'"

FEEDS=(/rss/latest.xml "/rss/categories/$CAT.xml" "/rss/researchers/$RID.xml"
    "/rss/institutions/$IID.xml" "/rss/search.xml?q=learning&category=$CAT")

# ------------------------------------------------------------ formats
for f in "${FEEDS[@]}"; do
	path=${f%%\?*}
	query=${f#"$path"}
	for ext in xml atom json; do
		u="${path%.xml}.$ext$query"
		get "$u"
		is_status 200 "$u answers"
		header_is Content-Type "$(ctype $ext); charset=utf-8" \
		    "$u: Content-Type"
		header_has ETag '"' "$u: ETag"
		check $ext "$WEFT_URL$u" \
		    "$(case $path in /rss/institutions/*) echo empty ;; esac)"
		ok $? "$u: a valid $ext feed"
	done
	cmp -s "$T_TMP/ids.xml" "$T_TMP/ids.atom" &&
	    cmp -s "$T_TMP/ids.xml" "$T_TMP/ids.json"
	ok $? "$path: the same items, in order, in the three formats"
done
get /rss/latest.atom
etag=$(header ETag)
get /rss/latest.atom -H "If-None-Match: $etag"
is_status 304 "Atom: If-None-Match 304"
get "/rss/search.json?q=learning"
etag=$(header ETag)
get "/rss/search.json?q=learning" -H "If-None-Match: $etag"
is_status 304 "search JSON Feed: If-None-Match 304"

# A search feed is that search: its items are the search's papers,
# newest first.
get "/search?q=learning&category=$CAT&sort=newest" -H 'Accept: application/json'
jq -r '.results[].url' "$BODY" >"$T_TMP/search.urls"
get "/rss/search.json?q=learning&category=$CAT"
jq -r '.items[].url' "$BODY" >"$T_TMP/feed.urls"
[ -s "$T_TMP/feed.urls" ] && cmp -s "$T_TMP/search.urls" "$T_TMP/feed.urls"
ok $? "the search feed lists the papers of /search?sort=newest"
jq -e --arg c "$CAT" 'all(.items[]; .tags | index($c))' "$BODY" >/dev/null
ok $? "the search feed keeps its category filter"

# ------------------------------------------------------------ versions
# A paper of ours, v1 in 1990, and its v2 today, harvested through the
# arXiv Atom API fixture server.
TODAY=$(date -u +%Y-%m-%d)
hv_nginx_up || { echo "# nginx for the fixtures did not start"; }
trap cleanup EXIT # hv_nginx_up sets a trap of its own
cat >"$HV_WWW/v2.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>ArXiv Query</title>
  <id>http://arxiv.org/api/test</id>
  <updated>${TODAY}T00:00:00-04:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">10</opensearch:itemsPerPage>
  <entry>
    <id>http://arxiv.org/abs/${PAPER}v2</id>
    <updated>${TODAY}T10:00:00Z</updated>
    <published>1990-01-03T10:00:00Z</published>
    <title>Versioned feeds for weft tests</title>
    <summary>A paper whose second version the feeds announce.</summary>
    <author><name>Vera Version</name></author>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom"
        term="$CAT" scheme="http://arxiv.org/schemas/atom"/>
    <category term="$CAT" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
</feed>
XML
chmod a+r "$HV_WWW/v2.xml"
HV_ENV="WEFT_ARXIV_API_URL=$HV_URL/files/v2.xml"
hv arxiv ids "$PAPER"
is_rc 0 "harvest the v2 of a paper"
sql_is "SELECT versions::text FROM papers WHERE arxiv_id = '$PAPER'" \
    "[{\"date\": \"1990-01-03\", \"version\": 1}, {\"date\": \"$TODAY\", \"version\": 2}]" \
    "papers.versions holds v1 and v2"
# The paper's author is the researcher of the researcher feed.
sql "UPDATE authorships SET researcher_id = $RID WHERE paper_id =
    (SELECT id FROM papers WHERE arxiv_id = '$PAPER')"
data_changed
GUID="https://arxiv.org/abs/${PAPER}v2"
for path in /rss/latest "/rss/categories/$CAT" "/rss/researchers/$RID"; do
	for ext in xml atom json; do
		get "$path.$ext"
		check $ext "$WEFT_URL$path.$ext" >/dev/null
		grep -qxF "$GUID" "$T_TMP/ids.$ext"
		ok $? "$path.$ext: an item for v2 with its own GUID"
	done
	get "$path.json"
	jq -e --arg g "$GUID" --arg d "$TODAY" '.items[] | select(.id == $g)
	    | (.title | startswith("v2 replaced v1: Versioned feeds"))
	      and (.date_published | startswith($d))
	      and (.url | test("/papers/'"$PAPER"'"))' "$BODY" >/dev/null
	ok $? "$path: the v2 item says 'v2 replaced v1', its date, the paper"
done
get /rss/latest.xml
[ "$(xmllint --xpath "string(//item[guid='$GUID']/guid/@isPermaLink)" \
    "$BODY" 2>/dev/null)" = false ]
ok $? "RSS: the version's guid is not a permalink"
[ "$(xmllint --xpath 'count(//item)' "$BODY")" = 50 ]
ok $? "latest: still 50 items with the version item merged in"
get "/rss/institutions/$IID.xml"
body_lacks "$GUID" "institution feeds carry papers only"

# ------------------------------------------------------------ pages link feeds
get /
for ext in xml atom json; do
	body_has "type=\"$(ctype $ext)\" title=\"weft: latest papers\" href=\"/rss/latest.$ext\"" \
	    "home: <link rel=alternate> to the latest feed in $ext"
	body_has "href=\"/rss/latest.$ext\"" "home: a visible link ($ext)"
done
get / -H 'Accept: text/markdown'
body_has "- Atom: [$WEFT_URL/rss/latest.atom]" "home markdown: the Atom feed"
get "/researchers/$RID" -L
for ext in xml atom json; do
	body_has "type=\"$(ctype $ext)\"" "researcher: head links $ext"
	body_has "href=\"/rss/researchers/$RID.$ext\"" \
	    "researcher: links its $ext feed"
done
get "/researchers/$RID" -L -H 'Accept: text/markdown'
body_has "- JSON Feed: [$WEFT_URL/rss/researchers/$RID.json]" \
    "researcher markdown: the JSON Feed"
get "/institutions/$IID" -L
body_has "href=\"/rss/institutions/$IID.atom\"" "institution: links its Atom feed"
get "/search?q=learning&category=$CAT"
body_has "href=\"/rss/search.atom?q=learning&amp;category=$CAT\"" \
    "search results: link their Atom feed"
body_has "rel=\"alternate\" type=\"application/feed+json\" title=\"Search: learning\"" \
    "search results: head links the JSON Feed"
get "/search?q=learning&category=$CAT" -H 'Accept: text/markdown'
body_has "- RSS: [$WEFT_URL/rss/search.xml?q=learning\\&category=$CAT]($WEFT_URL/rss/search.xml?q=learning&category=$CAT)" \
    "search markdown: the RSS feed"
get "/search?q=learning" -H 'Accept: application/json'
json_is .feed "/rss/search.xml?q=learning" "search JSON: its feed"

# ------------------------------------------------------------ bad input
for ext in xml atom json; do
	get "/rss/categories/no.such.cat.$ext"
	is_status 404 "unknown category .$ext: 404"
	get "/rss/search.$ext"
	is_status 400 "search feed without q (.$ext): 400"
done
get "/rss/search.atom?q=%20%20"
is_status 400 "search feed with a blank q: 400"
get "/rss/search.atom?q=$(printf 'w%d+' $(seq 1000))"
is_status 400 "search feed of 1,000 terms: 400"
body_has "too long" "the 400 says why"
get "/rss/search.json?q=x&category=bad%20cat"
is_status 400 "search feed with a malformed category: 400"
get "/rss/search.json?q=x&type=researchers"
is_status 400 "search feed of researchers: 400"
get "/rss/search.json?q=x&page=2"
is_status 400 "search feed page 2: 400"
get "/rss/search.json?q=x&sort=sideways" -H 'Accept: application/json'
is_status 400 "search feed with a bad sort: 400"
json_is .error.status 400 "the error as JSON when asked"
get "/rss/search.json?q=zzqqxxnothingmatches"
is_status 200 "a search feed with no match: 200"
jq -e '.items == []' "$BODY" >/dev/null
ok $? "... and no items"
for u in /rss/latest.rss /rss/latest.atom.xml /rss/search.rss \
    "/rss/researchers/$RID.jsonfeed" "/rss/categories/$CAT.atomx"; do
	get "$u"
	is_status 404 "$u: 404"
done

done_testing
