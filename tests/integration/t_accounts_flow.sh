#!/bin/bash
# t_accounts_flow.sh -- a new user through nginx, as a browser would (one
# cookie jar): sign up, verify the address from the mail, onboarding, sign out and in, follow three
# researchers, the SSI fragments, /account, /feed, the private feed URL
# and its rotation, unfollow, restarts of Redis and the workers, sign
# out, and the old cookie no longer working.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"

sql() { psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atc "$1"; }
rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
# The CSRF token of the last page's first form.
csrf() { grep -o 'name="csrf" value="[0-9a-f]*"' "$BODY" | head -1 |
    sed 's/.*value="//; s/"$//'; }
# The session cookie in the jar ("" when none).
session() { awk '$6 == "weft_session" { print $7 }' "$JAR" | tail -1; }
same=(-H "Origin: $WEFT_URL")
# A request with another cookie jar (lib.sh always passes $JAR).
with_jar() {
	local keep=$JAR
	JAR=$1
	shift
	"$@"
	JAR=$keep
}
empty=$T_TMP/empty
# Rate-limit counters of earlier runs must not get in the way.
rcli --scan --pattern 'weft:rl:*' | while read -r k; do rcli del "$k" >/dev/null; done

email="Flow.$$.$RANDOM@Example.ORG"
stored="Flow.$$.${email#Flow.$$.}"
stored="${stored%@*}@example.org"
pw="a long enough passphrase $$"

# ---------------------------------------------------------------- sign up
get /signup
is_status 200 "GET /signup"
header_is Cache-Control "private, no-store" "form is not cached"
body_has 'action="/signup"' "sign-up form"
body_has '/static/weft.css' "the site's stylesheet"
body_has 'class="site-header"' "the site's header"
c=$(csrf)
[ ${#c} = 64 ]
ok $? "form carries a 64-hex CSRF token"
grep -q weft_presession "$JAR"
ok $? "pre-session cookie for the form's CSRF token"

post /signup "${same[@]}" --data-urlencode "email=  $email " \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$c"
is_status 200 "POST /signup"
body_has 'Check your email' "check your email (whether or not the address is taken)"
# The address is verified from the mail (t_accounts_mail.sh has the rest):
# that signs the browser in.
link=$(mail_link "$stored" /account/verify)
ok $? "the verification mail"
get "${link#"$WEFT_URL"}"
post /account/verify "${same[@]}" --data-urlencode "token=${link##*token=}" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$(csrf)"
is_status 303 "POST /account/verify"
header_is Location "$WEFT_URL/account/welcome" "on to onboarding"
sc=$(grep -i '^set-cookie: weft_session=' "$HDRS")
case "$sc" in *HttpOnly*SameSite=Lax*) ok 0 "cookie HttpOnly, SameSite=Lax" ;;
*) ok 1 "cookie HttpOnly, SameSite=Lax" "$sc" ;; esac
case "$sc" in *"Path=/"*) ok 0 "cookie Path=/" ;; *) ok 1 "cookie Path=/" "$sc" ;; esac
case "$sc" in *Secure*) ok 1 "no Secure on http" "$sc" ;; *) ok 0 "no Secure on http" ;; esac
[ "$(sql "SELECT email FROM users WHERE lower(email) = lower('$stored')")" = "$stored" ]
ok $? "stored trimmed, domain lower-cased"
uid=$(sql "SELECT id FROM users WHERE lower(email) = lower('$stored')")
hash=$(sql "SELECT password_hash FROM users WHERE id = $uid")
case "$hash" in '$argon2id$'*) ok 0 "argon2id hash" ;; *) ok 1 "argon2id hash" "$hash" ;; esac
[ "$(sql "SELECT count(*) FROM sessions WHERE user_id = $uid")" = 1 ]
ok $? "one session row"
tok=$(session)
[ "$(sql "SELECT count(*) FROM sessions WHERE token_hash = '$tok'")" = 0 ]
ok $? "the raw token is not stored"

# ---------------------------------------------------------------- onboarding
get /account/welcome
is_status 200 "onboarding page"
body_has 'name="field"' "field picker"
body_has 'name="q"' "name search"
body_has 'Skip for now' "skippable"
field=$(sql "SELECT primary_category FROM papers GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
get "/account/welcome?field=$field"
is_status 200 "top researchers of $field"
body_has 'action="/researchers/' "suggestions have follow buttons"
body_has "Most papers in $field, among its 10000 newest" "field heading"
# The first suggestion: the most papers among the field's newest 10,000
# (TOP_IN_FIELD), counted here the long way.
top=$(sql "SELECT a.researcher_id FROM (SELECT id FROM papers
    WHERE primary_category = '$field' AND published IS NOT NULL
    ORDER BY published DESC LIMIT 10000) p
    JOIN authorships a ON a.paper_id = p.id
    WHERE a.researcher_id IS NOT NULL
    GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1")
get "/account/welcome?format=json&field=$field"
json_is '.researchers | length > 0' true "onboarding in JSON"
json_is '.researchers[0].id' "$top" "its first: the most papers of the field"
json_is '.field_newest' 10000 "  counted over the newest 10000, it says"
name=$(sql "SELECT name FROM researchers WHERE paper_count > 0 ORDER BY paper_count DESC, id LIMIT 1")
word=${name##* }
get "/account/welcome?q=$(jq -rn --arg s "$word" '$s|@uri')"
is_status 200 "name search"
body_has "$name" "name search finds $name"
# A name word's beginning finds it too, as the site's name search does.
get "/account/welcome?format=json&q=$(jq -rn --arg s "${word:0:3}" '$s|@uri')"
jq -e --arg n "$name" '[.researchers[].name] | index($n) != null' "$BODY" \
    >/dev/null
ok $? "the first letters of a name word find $name"
get "/account/welcome?q=%25"
is_status 200 "a bare % is data, not a wildcard"
body_has "Nobody found" "no name contains %"

# ---------------------------------------------------------------- sign out, in
get /account
c=$(csrf)
post /signout "${same[@]}" --data-urlencode "csrf=$c"
is_status 303 "sign out"
header_is Location "$WEFT_URL/" "home after sign-out"
[ "$(sql "SELECT count(*) FROM sessions WHERE user_id = $uid")" = 0 ]
ok $? "session deleted server-side"
get /account
is_status 303 "signed out: /account sends to sign-in"
header_is Location "$WEFT_URL/signin?next=%2Faccount" "with next="

stale=$(sql "SELECT md5(random()::text) || md5(random()::text)")
sql "INSERT INTO sessions (token_hash, user_id, expires_at)
    VALUES ('$stale', $uid, now() - interval '1 day')" >/dev/null
get "/signin?next=/feed"
is_status 200 "GET /signin"
body_has 'name="next" value="/feed"' "next= kept in the form"
c=$(csrf)
post /signin "${same[@]}" --data-urlencode "email=$email" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$c" \
    --data-urlencode "next=/feed"
is_status 303 "POST /signin"
header_is Location "$WEFT_URL/feed" "to next="
old=$(session)
[ -n "$old" ] && [ "$old" != "$tok" ]
ok $? "a new token on sign-in"
[ "$(sql "SELECT count(*) FROM sessions WHERE token_hash = '$stale'")" = 0 ]
ok $? "sign-in purges expired sessions"

# ---------------------------------------------------------------- follow
mapfile -t rids < <(sql "SELECT r.id FROM researchers r
    WHERE r.paper_count > 0 ORDER BY r.paper_count DESC, r.id LIMIT 3")
[ ${#rids[@]} = 3 ]
ok $? "three researchers in the database"
r0=${rids[0]}
slug0=$(sql "SELECT slug FROM researchers WHERE id = $r0")

get "/account/follow/$r0"
is_status 200 "follow fragment"
header_is Cache-Control "private, no-store" "fragment not cached"
body_lacks '<!doctype' "fragment is a bare snippet"
body_has "action=\"/researchers/$r0/follow\"" "signed in: a follow form"
body_has '>Follow</button>' "button says Follow"
body_has 'name="csrf"' "fragment form has the CSRF token"

for r in "${rids[@]}"; do
	get "/account/follow/$r"
	c=$(csrf)
	post "/researchers/$r/follow" "${same[@]}" --data-urlencode "csrf=$c"
	is_status 303 "follow $r"
	slug=$(sql "SELECT slug FROM researchers WHERE id = $r")
	header_is Location "$WEFT_URL/researchers/$r-$slug" "back to the researcher page"
done
post "/researchers/$r0/follow" "${same[@]}" --data-urlencode "csrf=$c"
is_status 303 "following twice is harmless"
[ "$(sql "SELECT count(*) FROM follows WHERE user_id = $uid")" = 3 ]
ok $? "three follows stored"

get "/account/follow/$r0"
body_has "action=\"/researchers/$r0/unfollow\"" "now an unfollow form"
body_has 'Following — unfollow' "button shows the state"

# The researcher page, through nginx's SSI, with and without the cookie.
get "/researchers/$r0-$slug0"
is_status 200 "researcher page signed in"
body_has 'Following — unfollow' "SSI include shows the follow state"
body_has 'href="/account"' "SSI nav shows the account link"
body_lacks '<!--#' "SSI directives processed"
header_absent ETag "signed-in page has no validator"
rm -f "$empty"
with_jar "$empty" get "/researchers/$r0-$slug0"
body_lacks 'Following — unfollow' "anonymous page has no per-user state"
body_has '/signin?next=' "anonymous page: Follow links to sign-in"
# Anonymous pages are not parsed for SSI (the signed-out HTML is the else
# branch); signed in, above, every directive was processed.
body_has '<!--# else -->' "anonymous page: SSI left unparsed"

get /account/nav
is_status 200 "nav fragment"
body_has 'href="/account"' "signed in: account link"
body_has 'action="/signout"' "signed in: sign-out form"
body_lacks '<!doctype' "nav is a bare snippet"
header_is Cache-Control "private, no-store" "nav not cached"

# ---------------------------------------------------------------- /account
get /account
is_status 200 "/account"
body_has "$stored" "shows the email"
for r in "${rids[@]}"; do
	body_has "action=\"/researchers/$r/unfollow\"" "unfollow button for $r"
done
body_has 'works like a password' "private feed warning"
body_has 'action="/account/feed-token"' "create/rotate button"
get /account -H 'Accept: application/json'
is_status 200 "/account as JSON"
json_is '.following | length' 3 "JSON lists three"
json_is '.email' "$stored" "JSON email"
json_is '.private_feed.exists' false "no private feed yet"
get /account -H 'Accept: text/markdown'
is_status 200 "/account as markdown"
header_has Content-Type text/markdown "markdown type"
body_has '# Your account' "markdown title"

# ---------------------------------------------------------------- /feed
total=$(sql "SELECT count(*) FROM papers p WHERE EXISTS (SELECT 1 FROM
    authorships a JOIN follows f ON f.researcher_id = a.researcher_id
    WHERE a.paper_id = p.id AND f.user_id = $uid)")
get /feed
is_status 200 "/feed"
body_has '<ul class="cards"><li class="card">' "the site's list of paper cards"
newest=$(sql "SELECT title FROM papers p WHERE EXISTS (SELECT 1 FROM
    authorships a JOIN follows f ON f.researcher_id = a.researcher_id
    WHERE a.paper_id = p.id AND f.user_id = $uid)
    ORDER BY published DESC NULLS LAST, id DESC LIMIT 1")
get /feed -H 'Accept: application/json'
is_status 200 "/feed as JSON"
json_is '.pagination.total' "$total" "total matches the database"
want=$((total < 24 ? total : 24))
json_is '.papers | length' "$want" "24 a page at most"
json_is '.papers[0].title' "$newest" "newest first"
get "/feed?format=md"
is_status 200 "/feed as markdown"
body_has '# Your feed' "markdown feed"
if [ "$total" -gt 24 ]; then
	get /feed
	header_has Link 'rel="next"' "Link rel=next"
	get "/feed?page=2" -H 'Accept: application/json'
	is_status 200 "page 2"
	json_is '.pagination.page' 2 "page 2 of the feed"
fi
get "/feed?page=0"
is_status 400 "page 0 is malformed"
get "/feed?page=abc"
is_status 400 "page abc is malformed"
get "/feed?page=99999"
is_status 404 "beyond the last page"

# ---------------------------------------------------------------- private feed
get /account
c=$(csrf)
post /account/feed-token "${same[@]}" --data-urlencode "csrf=$c"
is_status 200 "private feed URL created"
url1=$(grep -o "$WEFT_URL/rss/feed/[A-Za-z0-9_-]*\.xml" "$BODY" | head -1)
[ -n "$url1" ]
ok $? "the new URL is shown once" "$(head -c 300 "$BODY")"
tok1=${url1##*/rss/feed/}
tok1=${tok1%.xml}
want=$(/usr/bin/python3 -c 'import hashlib,sys; print(hashlib.blake2b(sys.argv[1].encode(), digest_size=32).hexdigest())' "$tok1")
[ "$(sql "SELECT token_hash FROM feed_tokens WHERE user_id = $uid")" = "$want" ]
ok $? "stored as hex BLAKE2b-256 of the token string"
get /account
body_lacks "$tok1" "not shown again on /account"
body_has 'You have a private feed URL' "says one exists"

feedcheck() {
	local u=$1 what=$2
	STATUS=$(curl -s --max-time 20 -o "$T_TMP/feed.xml" -w '%{http_code}' "$u")
	[ "$STATUS" = 200 ]
	ok $? "$what answers 200" "status $STATUS"
	xmllint --noout "$T_TMP/feed.xml" 2>/dev/null
	ok $? "$what is well-formed XML"
	/usr/bin/python3 - "$T_TMP/feed.xml" <<-'PY'
	import sys, feedparser
	d = feedparser.parse(open(sys.argv[1], 'rb').read())
	sys.exit(0 if d.bozo == 0 and len(d.entries) > 0 else 1)
	PY
	ok $? "$what parses as RSS with entries (feedparser)"
}
feedcheck "$url1" "private feed"

post /account/feed-token "${same[@]}" --data-urlencode "csrf=$c" \
    -H 'Accept: application/json'
is_status 200 "rotation"
url2=$(jq -r '.private_feed.url' "$BODY")
case "$url2" in "$WEFT_URL/rss/feed/"*.xml) ok 0 "JSON gives the new URL" ;;
*) ok 1 "JSON gives the new URL" "$url2" ;; esac
[ "$url2" != "$url1" ]
ok $? "a different URL"
STATUS=$(curl -s --max-time 20 -o /dev/null -w '%{http_code}' "$url1")
is_status 404 "the old URL answers 404"
feedcheck "$url2" "rotated feed"

# ---------------------------------------------------------------- unfollow
r2=${rids[2]}
get "/account/follow/$r2"
c=$(csrf)
post "/researchers/$r2/unfollow" "${same[@]}" --data-urlencode "csrf=$c" \
    --data-urlencode "next=/account"
is_status 303 "unfollow"
header_is Location "$WEFT_URL/account" "back to next="
[ "$(sql "SELECT count(*) FROM follows WHERE user_id = $uid")" = 2 ]
ok $? "two follows left"
post "/researchers/$r2/unfollow" "${same[@]}" --data-urlencode "csrf=$c"
is_status 303 "unfollowing twice is harmless"
get "/account/follow/$r2"
body_has '>Follow</button>' "fragment back to Follow"

# ---------------------------------------------------------------- restarts
# Redis down: signed in still (sessions live in PostgreSQL), and signing
# in works (the rate limits fail open).
rcli shutdown nosave >/dev/null 2>&1
sleep 0.3
get /account -H 'Accept: application/json'
is_status 200 "Redis down: still signed in"
json_is '.following | length' 2 "Redis down: follows intact"
with_jar "$T_TMP/jar2" get /signin
c=$(csrf)
with_jar "$T_TMP/jar2" post /signin "${same[@]}" \
    --data-urlencode "email=$email" --data-urlencode "password=$pw" \
    --data-urlencode "csrf=$c"
is_status 303 "Redis down: sign-in still works (limits fail open)"

# Restart Redis (as conf/local.sh starts it) and every weftd worker
# (killed by pid; each weftd respawns its workers).
redis-server --port 0 --unixsocket "$WEFT_VAR/redis/redis.sock" \
    --unixsocketperm 777 --save '' --appendonly no --daemonize yes \
    --pidfile "$WEFT_VAR/redis/redis.pid" \
    --logfile "$WEFT_VAR/redis/redis.log" --dir "$WEFT_VAR/redis" >/dev/null
for _ in $(seq 50); do rcli ping >/dev/null 2>&1 && break; sleep 0.1; done
rcli ping >/dev/null 2>&1
ok $? "Redis restarted"
before=
for m in accounts pages feeds; do
	f=$WEFT_VAR/run/weftd-$m.pid
	[ -f "$f" ] || continue
	kids=$(ps -o pid= --ppid "$(cat "$f")" | tr -d ' ')
	before="$before $kids"
	[ -n "$kids" ] && kill -TERM $kids 2>/dev/null
done
sleep 1.5
after=$(ps -o pid= --ppid "$(cat "$WEFT_VAR/run/weftd-accounts.pid")" | tr -d ' ')
fresh=1
for p in $after; do case " $before " in *" $p "*) fresh=0 ;; esac; done
[ -n "$after" ] && [ $fresh = 1 ]
ok $? "accounts workers restarted (new pids: $(echo $after))"
get /account -H 'Accept: application/json'
is_status 200 "after restarts: still signed in"
json_is '.following | length' 2 "after restarts: follows kept"
get "/account/follow/$r0"
body_has 'Following — unfollow' "after restarts: fragment state kept"

# ---------------------------------------------------------------- sign out
old=$(session)
get /account
c=$(csrf)
post /signout "${same[@]}" --data-urlencode "csrf=$c"
is_status 303 "sign out"
grep -qi '^set-cookie: weft_session=;.*Max-Age=0' "$HDRS"
ok $? "cookie expired"
printf '127.0.0.1\tFALSE\t/\tFALSE\t0\tweft_session\t%s\n' "$old" >"$empty"
with_jar "$empty" get /account
is_status 303 "the old cookie no longer works"
with_jar "$empty" get /account/nav
body_has '>Sign in</a>' "old cookie: the nav fragment says Sign in"
with_jar "$empty" get "/account/follow/$r0"
body_has '/signin?next=' "old cookie: the follow fragment links to sign-in"

rcli --scan --pattern 'weft:rl:*' | while read -r k; do rcli del "$k" >/dev/null; done
done_testing
