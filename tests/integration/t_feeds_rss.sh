#!/bin/bash
# t_feeds_rss.sh -- the RSS feeds through nginx: every feed parsed by a
# real feed parser (python3-feedparser, bozo == 0) and by xmllint; the
# channel and item elements readers need; 404 for unknown subjects and
# 400 for a malformed category (in the negotiated error format); ETag and
# Last-Modified answered with 304; a paper whose title holds & < and
# control characters still gives well-formed XML; the private feed by
# token (private, noindex, 404 after rotation, never logged).
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"

PSQL=(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -v ON_ERROR_STOP=1 -qAtX)
sql() { "${PSQL[@]}" -c "$1"; }
# Core caches anonymous GETs in Redis under a generation that writers
# bump; after writing with psql the test bumps it as they do
# (data_changed, lib.sh).
# curl -o leaves the previous body in place when a response has none.
fresh() { : >"$BODY"; }

# Debian's python3-feedparser belongs to /usr/bin/python3, which may not
# be the first python3 on PATH.
PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import feedparser' 2>/dev/null; then PY=$p; break; fi
done

# feed_ok WHAT: the body is RSS a feed reader accepts, and XML.
feed_ok() {
	if [ -n "$PY" ]; then
		"$PY" -c 'import feedparser, sys
d = feedparser.parse(sys.argv[1])
if d.bozo: print("#  ", d.bozo_exception)
sys.exit(1 if d.bozo or d.version != "rss20" else 0)' "$BODY"
		ok $? "$1: feedparser reads RSS 2.0 with bozo == 0"
	else
		skip "python3-feedparser is not installed"
	fi
	xmllint --noout "$BODY" 2>/dev/null
	ok $? "$1: xmllint finds it well-formed"
}
# xpath EXPR: a string from the body (namespaces by local name).
xpath() { xmllint --xpath "$1" "$BODY" 2>/dev/null; }

PAPER=9912.99998
cleanup() {
	sql "DELETE FROM papers WHERE arxiv_id = '$PAPER'" >/dev/null 2>&1
	[ -n "${USER_ID:-}" ] &&
	    sql "DELETE FROM users WHERE id = $USER_ID" >/dev/null 2>&1
	rm -rf "$T_TMP"
}
trap cleanup EXIT

# ------------------------------------------------------------ fixtures
RID=$(sql "SELECT id FROM researchers WHERE paper_count > 0
    ORDER BY paper_count DESC, id LIMIT 1")
# An institution with a paper its researchers wrote while there (within
# the link's years, as the feed lists them).
IID=$(sql "SELECT ri.institution_id FROM researcher_institutions ri
    JOIN authorships a ON a.researcher_id = ri.researcher_id
    JOIN papers p ON p.id = a.paper_id
    WHERE (ri.first_year IS NULL
           OR extract(year FROM p.published) >= ri.first_year)
      AND (ri.last_year IS NULL
           OR extract(year FROM p.published) <= ri.last_year)
    ORDER BY ri.institution_id LIMIT 1")
# An XPath test true for the items of papers without categories.
uncat=$(sql "SELECT string_agg(' and not(contains(guid, ''/papers/' ||
    arxiv_id || '-''))', '') FROM papers WHERE primary_category = ''")
CAT=$(sql "SELECT primary_category FROM papers GROUP BY 1
    ORDER BY count(*) DESC, 1 LIMIT 1")
[ -n "$RID" ] && [ -n "$CAT" ]
ok $? "the corpus has a researcher with papers and a category" \
    "researcher '$RID' category '$CAT'"

# ------------------------------------------------------------ public feeds
for path in /rss/latest.xml "/rss/categories/$CAT.xml" \
    "/rss/researchers/$RID.xml" ${IID:+"/rss/institutions/$IID.xml"}; do
	get "$path"
	is_status 200 "$path answers"
	header_is Content-Type "application/rss+xml; charset=utf-8" \
	    "$path: RSS content type"
	header_has ETag '"' "$path: ETag"
	header_has Last-Modified " GMT" "$path: Last-Modified"
	feed_ok "$path"
	[ "$(xpath 'string(/rss/@version)')" = 2.0 ]
	ok $? "$path: rss version 2.0"
	[ "$(xpath "string(/rss/channel/*[local-name()='link' and
	    @rel='self']/@href)")" = "$WEFT_URL$path" ]
	ok $? "$path: atom:link rel=self is the feed's absolute URL"
	for el in title link description language lastBuildDate; do
		[ -n "$(xpath "string(/rss/channel/$el)")" ]
		ok $? "$path: channel has $el"
	done
	n=$(xpath 'count(/rss/channel/item)')
	[ "${n:-0}" -ge 1 ] && [ "${n:-99}" -le 50 ]
	ok $? "$path: 1 to 50 items" "$n items"
	# Every item has what readers show, the link is the guid.
	bad=$(xpath 'count(/rss/channel/item[not(title) or not(link) or
	    not(guid[@isPermaLink="true"]) or not(pubDate) or
	    not(description) or guid != link])')
	[ "$bad" = 0 ]
	ok $? "$path: every item has title, link = permalink guid, pubDate, description" "$bad bad items"
	# A category for every paper that has one; papers loaded from
	# OpenAlex works have no arXiv category, and none is made up.
	bad=$(xpath "count(/rss/channel/item[not(category)$uncat])")
	[ "$bad" = 0 ]
	ok $? "$path: every item of a paper with categories has a category" "$bad bad items"
	if [ -n "$PY" ]; then
		"$PY" -c 'import feedparser, sys, time
d = feedparser.parse(sys.argv[1])
ts = [time.mktime(e.published_parsed) for e in d.entries]
sys.exit(0 if ts == sorted(ts, reverse=True) else 1)' "$BODY"
		ok $? "$path: items newest first"
	else
		skip "python3-feedparser is not installed"
	fi
done
get /rss/latest.xml
[ "$(xpath 'count(/rss/channel/item)')" = \
    "$(sql "SELECT least(count(*), 50) FROM papers")" ]
ok $? "latest: the newest 50"
link=$(xpath 'string(/rss/channel/item[1]/link)')
case "$link" in "$WEFT_URL"/papers/*) ok 0 "item links are absolute" ;;
*) ok 1 "item links are absolute" "$link" ;; esac
get "${link#"$WEFT_URL"}"
is_status 200 "an item link is the canonical paper page (no redirect)"
get "/rss/researchers/$RID.xml"
n=$(xpath 'count(/rss/channel/item)')
[ "$n" = "$(sql "SELECT least(count(DISTINCT paper_id), 50) FROM authorships
    WHERE researcher_id = $RID")" ]
ok $? "researcher feed: that researcher's papers" "$n items"
[ "$(xpath 'count(/rss/channel/item[1]/*[local-name()="creator"])')" -ge 1 ]
ok $? "items have dc:creator authors"

# ------------------------------------------------------------ errors
get /rss/categories/no.such.cat.xml
is_status 404 "unknown category: 404, not an empty feed"
get /rss/categories/no.such.cat.xml -H 'Accept: application/json'
is_status 404 "unknown category, JSON client: 404"
json_is .error.status 404 "the JSON error object"
get "/rss/categories/bad%20cat.xml"
is_status 400 "malformed category (space): 400"
get "/rss/categories/$(printf 'a%.0s' $(seq 33)).xml"
is_status 400 "malformed category (33 characters): 400"
get "/rss/categories/cs%3CSE.xml" -H 'Accept: text/markdown'
is_status 400 "malformed category (<): 400"
header_has Content-Type "text/markdown" "the error in markdown when asked"
get "/rss/categories/$CAT"
is_status 404 "no .xml: 404"
get /rss/researchers/999999999.xml
is_status 404 "unknown researcher: 404"
get /rss/researchers/abc.xml
is_status 404 "non-numeric researcher id: 404"
get /rss/researchers/0.xml
is_status 404 "researcher 0: 404"
get /rss/institutions/999999999.xml
is_status 404 "unknown institution: 404"
get /rss/nothing.xml
is_status 404 "unknown feed: 404"
post /rss/latest.xml
is_status 405 "POST to a feed: 405"
header_is Allow "GET, HEAD" "POST to a feed: Allow: GET, HEAD (its routes')"

# ------------------------------------------------------------ validators
get /rss/latest.xml
etag=$(header ETag)
lm=$(header Last-Modified)
fresh
get /rss/latest.xml -H "If-None-Match: $etag"
is_status 304 "If-None-Match: 304"
body_empty "304 has no body"
header_is ETag "$etag" "304 carries the ETag"
# Rendered afresh (a new cache generation), the handler answers
# If-Modified-Since itself.
data_changed
fresh
get /rss/latest.xml -H "If-Modified-Since: $lm"
is_status 304 "If-Modified-Since the Last-Modified: 304"
body_empty "304 by date has no body"
header_is ETag "$etag" "a 304 by date carries the same ETag as the 200"
header_has Cache-Control "max-age" "a 304 by date carries Cache-Control"
# Served from core's Redis cache the handler does not run: core answers
# If-Modified-Since from the stored Last-Modified.
get /rss/latest.xml
get /rss/latest.xml -H "If-Modified-Since: $lm"
[ "$(header X-Weft-Cache)" = hit ] && [ "$STATUS" = 304 ]
ok $? "If-Modified-Since 304 on a cached response" \
    "X-Weft-Cache $(header X-Weft-Cache), status $STATUS"
get /rss/latest.xml -H "If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT"
is_status 200 "If-Modified-Since long ago: 200"
get /rss/latest.xml -H "If-Modified-Since: Sunday, 06-Nov-94 08:49:37 GMT"
is_status 200 "If-Modified-Since in RFC 850 form, long ago: 200"
get /rss/latest.xml -H "If-Modified-Since: $lm" -H 'If-None-Match: "other"'
is_status 200 "If-None-Match wins over If-Modified-Since"
get /rss/latest.xml -H "If-Modified-Since: not a date"
is_status 200 "an invalid If-Modified-Since is ignored"
get "/rss/researchers/$RID.xml"
lm=$(header Last-Modified)
data_changed
get "/rss/researchers/$RID.xml" -H "If-Modified-Since: $lm"
is_status 304 "researcher feed: If-Modified-Since 304"
fresh
head_ /rss/latest.xml
is_status 200 "HEAD"
header_is Content-Type "application/rss+xml; charset=utf-8" "HEAD: type"
body_lacks "<rss" "HEAD: no body"

# ------------------------------------------------------------ hostile text
sql "DELETE FROM papers WHERE arxiv_id = '$PAPER'"
pid=$(sql "INSERT INTO papers (arxiv_id, title, abstract, categories,
    primary_category, published, slug, source, author_count)
    VALUES ('$PAPER', E'Fish & <Chips> \\x01ctl\\x0b ]]> \"q\" \\x7f end',
        E'a < b && c \\x02 > d </description>', '{test.FEEDS}',
        'test.FEEDS', '1990-01-02', 'fish-chips', 'test', 1)
    RETURNING id")
sql "INSERT INTO authorships (paper_id, position, raw_name)
    VALUES ($pid, 1, E'Ann \\x03 & <Bo>')"
# A query string of its own: no cache (core's or nginx's) has seen it.
data_changed
get "/rss/categories/test.FEEDS.xml?t=$$-1"
is_status 200 "a feed with a hostile title"
feed_ok "hostile title"
[ "$(xpath 'string(/rss/channel/item[1]/title)')" = \
    'Fish & <Chips> ctl ]]> "q"  end' ]
ok $? "controls dropped, markup kept as text" \
    "$(xpath 'string(/rss/channel/item[1]/title)')"
[ "$(xpath 'string(/rss/channel/item[1]/*[local-name()="creator"])')" = \
    'Ann  & <Bo>' ]
ok $? "author text cleaned the same way"
[ "$(xpath 'string(/rss/channel/item[1]/description)')" = \
    'a &lt; b &amp;&amp; c  &gt; d &lt;/description&gt;' ]
ok $? "the abstract is escaped HTML inside the description"
sql "DELETE FROM papers WHERE arxiv_id = '$PAPER'"
data_changed
get "/rss/categories/test.FEEDS.xml?t=$$-2"
is_status 404 "the category is gone with its only paper"

# ------------------------------------------------------------ private feed
# The account tables are the accounts module's (sql/schema/0002): a user
# following one researcher, with a feed token stored as the lower-case
# hex BLAKE2b-256 of the token string (hashlib computes the same as
# libsodium's crypto_generichash with a 32-byte output and no key).
newtoken() {
	head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' |
	    head -c 43
}
hash() {
	python3 -c 'import hashlib, sys
print(hashlib.blake2b(sys.argv[1].encode(), digest_size=32).hexdigest())' "$1"
}
TOK=$(newtoken)
USER_ID=$(sql "INSERT INTO users (email, password_hash)
    VALUES ('feeds-test-$$-$RANDOM@example.org', 'x') RETURNING id")
sql "INSERT INTO follows (user_id, researcher_id) VALUES ($USER_ID, $RID)"
sql "INSERT INTO feed_tokens (user_id, token_hash)
    VALUES ($USER_ID, '$(hash "$TOK")')"
get "/rss/feed/$TOK.xml"
is_status 200 "private feed by token"
header_is Content-Type "application/rss+xml; charset=utf-8" "private: RSS"
header_has Cache-Control "private" "private: Cache-Control private"
header_is X-Robots-Tag "noindex" "private: X-Robots-Tag noindex"
feed_ok "private feed"
xpath '/rss/channel/item/link/text()' | sort >"$T_TMP/private"
etag=$(header ETag)
get "/rss/researchers/$RID.xml"
xpath '/rss/channel/item/link/text()' | sort >"$T_TMP/public"
[ -s "$T_TMP/private" ] && cmp -s "$T_TMP/private" "$T_TMP/public"
ok $? "private feed: the followed researcher's papers"
get "/rss/feed/$TOK.xml" -H "If-None-Match: $etag"
is_status 304 "private feed: If-None-Match 304"
get "/rss/feed/$TOK.xml" -b 'weft_session=x'
is_status 200 "readable with any cookie or none (token, not cookie)"
NEW=$(newtoken)
sql "UPDATE feed_tokens SET token_hash = '$(hash "$NEW")'
    WHERE user_id = $USER_ID"
get "/rss/feed/$TOK.xml"
is_status 404 "rotated: the old URL answers 404"
header_is X-Robots-Tag "noindex" "the 404 is noindex too"
get "/rss/feed/$NEW.xml"
is_status 200 "rotated: the new URL works"
get "/rss/feed/${NEW}x.xml"
is_status 404 "a token one character longer: 404"
get "/rss/feed/short.xml"
is_status 404 "a malformed token: 404"
get "/rss/feed/$NEW"
is_status 404 "no .xml: 404"
logs=()
for f in "$WEFT_VAR"/log/*.log; do
	case ${f##*/} in nginx*) ;; *) logs+=("$f") ;; esac
done
! grep -qF -e "$TOK" -e "$NEW" "${logs[@]}"
ok $? "no worker log holds a token"
! grep -qF -e "$TOK" -e "$NEW" "$WEFT_VAR"/log/nginx*.log
ok $? "nginx's access log holds no token"
grep -qF '"uri":"/rss/feed/[token]"' "$WEFT_VAR/log/nginx-access.log"
ok $? "nginx's access log has the feed requests, redacted"
sql "DELETE FROM users WHERE id = $USER_ID"
USER_ID=
get "/rss/feed/$NEW.xml"
is_status 404 "a deleted user's feed: 404"

done_testing
