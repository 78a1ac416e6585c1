#!/bin/bash
# t_follow_kinds.sh -- issue 21 through nginx: following researchers,
# institutions, categories and saved searches; /account lists and removes
# each; /feed merges them with why each item is there (HTML, markdown,
# JSON), deduplicated, newest first, with "v2 replaced v1" items; the
# private RSS carries the same items (python3-feedparser); bad input is
# a 4xx with nothing written; the cap on follows.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"

rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
rcli --scan --pattern 'weft:rl:*' | while read -r k; do rcli del "$k" >/dev/null; done
same=(-H "Origin: $WEFT_URL")
J=(-H 'Accept: application/json')
M=(-H 'Accept: text/markdown')

email="follow.$$.$RANDOM@example.org"
pw="a long enough passphrase $$"
signup_verified "$email" "$pw"
ok $? "a verified account, signed in"
uid=$(sql "SELECT id FROM users WHERE email = '$email'")

# Targets from the bundled data: a researcher and an institution with
# papers, the biggest category, and a search that matches papers.
rid=$(sql "SELECT researcher_id FROM authorships WHERE researcher_id IS NOT NULL
           GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1")
rname=$(sql "SELECT name FROM researchers WHERE id = $rid")
# An institution with papers: the bundled affiliations have none, so a
# second researcher with papers works there for this test.
r2=$(sql "SELECT researcher_id FROM authorships WHERE researcher_id IS NOT NULL
           AND researcher_id <> $rid GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1")
iid=$(sql "SELECT id FROM institutions WHERE name <> '' ORDER BY id LIMIT 1")
sql "INSERT INTO researcher_institutions (researcher_id, institution_id, source)
     VALUES ($r2, $iid, 'arxiv') ON CONFLICT DO NOTHING" >/dev/null
iname=$(sql "SELECT name FROM institutions WHERE id = $iid")
cat=$(sql "SELECT primary_category FROM papers GROUP BY 1
            ORDER BY count(*) DESC LIMIT 1 OFFSET 3")
q="graph   neural  networks"
nq="graph neural networks"
# Put back what this test changed in the shared data.
restore() {
	[ -n "${vp:-}" ] && sql "UPDATE papers SET versions = '$vold'::jsonb
	                          WHERE id = $vp" >/dev/null
	sql "DELETE FROM researcher_institutions WHERE researcher_id = $r2
	       AND institution_id = $iid AND source = 'arxiv'" >/dev/null
}
trap 'restore; rm -rf "$T_TMP"' EXIT
[ -n "$rid" ] && [ -n "$iid" ] && [ -n "$cat" ]
ok $? "targets: researcher $rid, institution $iid, category $cat"

get /account
csrf=$(form_csrf)
follow() { post /account/follows "${same[@]}" --data-urlencode "csrf=$csrf" "$@"; }
nfollows() { sql "SELECT (SELECT count(*) FROM follows WHERE user_id = $uid)
                       + (SELECT count(*) FROM follow_targets WHERE user_id = $uid)"; }

# ---------------------------------------------------------------- follow
follow -d kind=researcher -d "id=$rid"
is_status 303 "follow a researcher: 303"
header_has Location "/researchers/$rid" "... back to the researcher"
follow -d kind=institution -d "id=$iid"
is_status 303 "follow an institution: 303"
header_has Location "/institutions/$iid" "... back to the institution"
follow -d kind=category --data-urlencode "category=$cat"
is_status 303 "follow a category: 303"
follow -d kind=search --data-urlencode "q=$q"
is_status 303 "follow a search: 303"
header_has Location "/search?q=graph%20neural%20networks" "... back to the search"
follow -d kind=search --data-urlencode "q=$q" --data-urlencode "category=$cat"
is_status 303 "the same search in a category is another follow"
[ "$(nfollows)" = 5 ]
ok $? "five follows written"
[ "$(sql "SELECT query FROM follow_targets WHERE user_id = $uid AND kind = 'search' LIMIT 1")" = "$nq" ]
ok $? "the search is stored normalised"
follow -d kind=search --data-urlencode "q=  $nq "
follow -d kind=category --data-urlencode "category=$cat"
follow -d kind=institution -d "id=$iid"
is_status 303 "following again: 303"
[ "$(nfollows)" = 5 ]
ok $? "... and nothing more written"

# ---------------------------------------------------------------- bad input
n0=$(nfollows)
bad() {
	local want=$1 what=$2
	shift 2
	follow "$@"
	is_status "$want" "$what: $want"
}
bad 400 "an unknown kind" -d kind=planet -d id=1
bad 400 "an unknown category" -d kind=category -d category=zz.QQ
bad 400 "a malformed category" --data-urlencode kind=category --data-urlencode 'category=<b>'
bad 400 "a category follow without category" -d kind=category
bad 400 "an empty search" -d kind=search --data-urlencode "q=   "
body_has "at least one word" "... says why"
long=$(for i in $(seq 1000); do printf 'w%d ' "$i"; done)
bad 400 "a 1,000-term search" -d kind=search --data-urlencode "q=$long"
body_has "at most 32 terms" "... says why"
bad 400 "a 300-byte search" -d kind=search --data-urlencode "q=$(printf 'x%.0s' $(seq 300))"
bad 400 "a search in an unknown category" -d kind=search -d q=graph -d category=zz.QQ
bad 404 "a researcher that does not exist" -d kind=researcher -d id=999999999
bad 404 "an institution that does not exist" -d kind=institution -d id=999999999
bad 400 "a malformed id" -d kind=institution -d id=12abc
bad 400 "a foreign next=" -d kind=category -d "category=$cat" -d next=//evil.example/
post /account/follows "${same[@]}" -d kind=category -d "category=$cat"
is_status 403 "no CSRF token: 403"
post /account/follows -H "Origin: https://evil.example" --data-urlencode "csrf=$csrf" \
    -d kind=category -d "category=$cat"
is_status 403 "a foreign Origin: 403"
get /account/follows
is_status 405 "GET of the POST-only path: 405"
[ "$(nfollows)" = "$n0" ]
ok $? "nothing written by any of them"
JAR=$T_TMP/anon post /account/follows "${same[@]}" -d kind=category -d "category=$cat"
is_status 303 "signed out: 303 ..."
header_has Location "/signin" "... to sign in"

# ---------------------------------------------------------------- /account
get /account
is_status 200 "/account"
body_has "$rname" "lists the researcher"
body_has "$iname" "lists the institution"
body_has "Categories you follow" "a section per kind"
body_has ">$cat<" "lists the category"
body_has ">$nq<" "lists the search"
body_has 'action="/account/follows/remove"' "remove buttons"
body_has 'name="digest"' "the digest setting"
get /account "${J[@]}"
[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["follows"]))' "$BODY")" = 4 ]
ok $? "JSON lists the four other follows"
get /account "${M[@]}"
body_has "Institutions, categories and searches" "markdown lists them"

# ---------------------------------------------------------------- /feed
# A followed paper gets a second version: it comes back as its own item.
vp=$(sql "SELECT a.paper_id FROM authorships a JOIN papers p ON p.id = a.paper_id
           WHERE a.researcher_id = $rid AND p.published IS NOT NULL
           ORDER BY p.published DESC LIMIT 1")
vold=$(sql "SELECT versions::text FROM papers WHERE id = $vp")
vdate=$(date -u +%Y-%m-%d)
sql "UPDATE papers SET versions = '[{\"version\":1,\"date\":\"2020-01-01\"},{\"version\":2,\"date\":\"$vdate\"}]'
      WHERE id = $vp" >/dev/null

get /feed "${J[@]}"
is_status 200 "/feed as JSON"
python3 - "$BODY" "$rname" "$cat" "$nq" "$vdate" >"$T_TMP/feedcheck" 2>&1 <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
rname, cat, q, vdate = sys.argv[2:6]
items = m["papers"]
assert len(items) == 24, len(items)
assert m["pagination"]["per_page"] == 24
keys = [(i["arxiv_id"], i["version"]) for i in items]
assert len(keys) == len(set(keys)), "duplicates"
dates = [i["date"] or "" for i in items]
assert dates == sorted(dates, reverse=True), "not newest first"
assert all(i["why"] and i["reasons"] for i in items), "an item without why"
assert items[0]["version"] == 2 and items[0]["date"] == vdate, items[0]
assert items[0]["why"].startswith("v2 replaced v1: "), items[0]["why"]
assert "paper by " + rname in items[0]["why"], items[0]["why"]
kinds = {r["kind"] for i in items for r in i["reasons"]}
print(sorted(kinds))
print(m["following_count"])
PY
ok $? "JSON: 24 items, deduplicated, newest first, each with why; the v2 first" \
    "$(cat "$T_TMP/feedcheck")"
[ "$(tail -1 "$T_TMP/feedcheck")" = 5 ]
ok $? "following_count counts every kind"
# Each kind's reason, over the first pages.
: >"$T_TMP/whys"
for p in 1 2 3 4 5 6 7 8; do
	get "/feed?page=$p" "${J[@]}"
	[ "$STATUS" = 200 ] || break
	python3 -c 'import json,sys
for i in json.load(open(sys.argv[1]))["papers"]: print(i["why"])' "$BODY" >>"$T_TMP/whys"
done
grep -qF "new paper by $rname" "$T_TMP/whys"
ok $? "\"new paper by $rname\""
grep -qF "new in $cat" "$T_TMP/whys"
ok $? "\"new in $cat\""
grep -qF "matches your search '$nq'" "$T_TMP/whys"
ok $? "\"matches your search '$nq'\""
grep -qF "new paper from $iname" "$T_TMP/whys"
ok $? "\"new paper from $iname\""
get /feed
is_status 200 "/feed as HTML"
body_has 'class="card-why' "each card says why"
body_has 'v2 replaced v1' "... the new version first"
get /feed "${M[@]}"
is_status 200 "/feed as markdown"
body_has 'v2 replaced v1' "markdown says why"
get "/feed?page=99999"
is_status 404 "a page past the end: 404"

# ---------------------------------------------------------------- private RSS
post /account/feed-token "${same[@]}" --data-urlencode "csrf=$csrf"
url=$(grep -o "$WEFT_URL/rss/feed/[A-Za-z0-9_-]*\.xml" "$BODY" | head -1)
[ -n "$url" ]
ok $? "a private feed URL"
curl -s "$url" -o "$T_TMP/feed.xml"
/usr/bin/python3 - "$T_TMP/feed.xml" "$rname" "$vdate" >"$T_TMP/rsscheck" 2>&1 <<'PY'
import sys, feedparser
d = feedparser.parse(open(sys.argv[1], "rb").read())
assert not d.bozo, d.bozo_exception
e = d.entries
assert len(e) > 24, len(e)
ids = [x.id for x in e]
assert len(ids) == len(set(ids)), "duplicate guids"
assert e[0].id.startswith("https://arxiv.org/abs/") and e[0].id.endswith("v2"), e[0].id
assert e[0].summary.startswith("v2 replaced v1: "), e[0].summary[:80]
assert any(x.summary.startswith("new paper by " + sys.argv[2]) for x in e)
PY
ok $? "the private RSS: the same items, why in each, a GUID per version" \
    "$(cat "$T_TMP/rsscheck")"

# ---------------------------------------------------------------- pages
get "/account/follow/institution/$iid"
is_status 200 "the institution's follow fragment"
body_has 'Following — unfollow' "... says it is followed"
get "/institutions/$iid" -L
body_has 'Following — unfollow' "the institution page shows it, signed in"
JAR=$T_TMP/anon get "/institutions/$iid" -L
body_has 'Follow</a>' "signed out: a sign-in link"
body_lacks 'Following' "... and no state"
get "/search?q=graph+databases"
body_has '/account/follows/new?kind=search&amp;q=graph%20databases' "the search page offers to follow it"
get "/account/follows/new?kind=search&q=graph+databases"
is_status 200 "the confirmation form"
body_has 'name="q" value="graph databases"' "... carries the search"
get "/account/follows/new?kind=search&q="
is_status 400 "... an empty search: 400"
JAR=$T_TMP/anon get "/account/follows/new?kind=category&category=$cat"
is_status 303 "... signed out: sign in first"

# ---------------------------------------------------------------- remove
tid=$(sql "SELECT id FROM follow_targets WHERE user_id = $uid AND kind = 'category'")
post /account/follows/remove "${same[@]}" --data-urlencode "csrf=$csrf" \
    -d kind=category -d "id=$tid"
is_status 303 "remove the category: 303"
[ "$(sql "SELECT count(*) FROM follow_targets WHERE id = $tid")" = 0 ]
ok $? "... gone"
post /account/follows/remove "${same[@]}" --data-urlencode "csrf=$csrf" \
    -d kind=researcher -d "id=$rid"
is_status 303 "remove the researcher: 303"
[ "$(nfollows)" = 3 ]
ok $? "three follows left"
other=$(sql "SELECT id FROM follow_targets WHERE user_id <> $uid LIMIT 1")
if [ -n "$other" ]; then
	post /account/follows/remove "${same[@]}" --data-urlencode "csrf=$csrf" \
	    -d kind=search -d "id=$other"
	[ "$(sql "SELECT count(*) FROM follow_targets WHERE id = $other")" = 1 ]
	ok $? "another user's follow cannot be removed"
else
	skip "no other user's follow"
fi

# ---------------------------------------------------------------- the cap
sql "INSERT INTO follow_targets (user_id, kind, query)
     SELECT $uid, 'search', 'cap' || n FROM generate_series(1, 997) n" >/dev/null
[ "$(nfollows)" = 1000 ]
ok $? "1,000 follows"
follow -d kind=category --data-urlencode "category=$cat"
is_status 409 "the 1,001st: 409"
body_has "the most one account may" "... says why"
follow -d kind=researcher -d "id=$rid"
is_status 409 "... for a researcher too"
[ "$(nfollows)" = 1000 ]
ok $? "... nothing written"
follow -d kind=search --data-urlencode "q=$nq"
is_status 303 "following what is followed already still answers 303"
sql "DELETE FROM follow_targets WHERE user_id = $uid AND query LIKE 'cap%'" >/dev/null

done_testing
