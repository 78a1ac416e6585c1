#!/bin/bash
# t_accounts_attacks.sh -- every attack on the accounts module through
# nginx is a clear 4xx (never a 5xx) and writes nothing: missing and
# wrong CSRF tokens, foreign Origin/Referer, open redirects through
# next=, session fixation, brute force (429 with Retry-After), malformed
# emails and passwords, oversized bodies (413), SQL-looking input.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"

sql() { psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atc "$1"; }
rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
rl_reset() {
	rcli --scan --pattern 'weft:rl:*' | while read -r k; do
		rcli del "$k" >/dev/null
	done
}
csrf() { grep -o 'name="csrf" value="[0-9a-f]*"' "$BODY" | head -1 |
    sed 's/.*value="//; s/"$//'; }
session() { awk '$6 == "weft_session" { print $7 }' "$JAR" | tail -1; }
with_jar() {
	local keep=$JAR
	JAR=$1
	shift
	"$@"
	JAR=$keep
}
same=(-H "Origin: $WEFT_URL")
evil=(-H "Origin: http://evil.example")
# Every status seen, to check that none was a 5xx.
seen=$T_TMP/statuses
track() { echo "$STATUS $1" >>"$seen"; }
counts() {
	sql "SELECT (SELECT count(*) FROM users) || ' ' ||
	    (SELECT count(*) FROM sessions) || ' ' ||
	    (SELECT count(*) FROM follows) || ' ' ||
	    (SELECT count(*) FROM feed_tokens)"
}
rl_reset

email="attack.$$.$RANDOM@example.org"
pw="attack passphrase $$"
rid=$(sql "SELECT id FROM researchers WHERE paper_count > 0 ORDER BY id LIMIT 1")
rslug=$(sql "SELECT slug FROM researchers WHERE id = $rid")

# A signed-in victim.
signup_verified "$email" "$pw"
ok $? "setup: sign up (verified from the mail)"
uid=$(sql "SELECT id FROM users WHERE email = '$email'")
get "/account/follow/$rid"
good=$(csrf)
[ ${#good} = 64 ]
ok $? "setup: a CSRF token"

before=$(counts)

# ---------------------------------------------------------------- CSRF
post "/researchers/$rid/follow" "${same[@]}"
is_status 403 "follow without a CSRF token"
track "no csrf"
post "/researchers/$rid/follow" "${same[@]}" --data-urlencode \
    "csrf=0000000000000000000000000000000000000000000000000000000000000000"
is_status 403 "follow with a wrong CSRF token"
track "wrong csrf"
post "/researchers/$rid/follow" "${same[@]}" --data-urlencode "csrf=${good:0:63}"
is_status 403 "follow with a truncated CSRF token"
track "short csrf"
post /account/feed-token "${same[@]}" --data-urlencode "csrf=nope"
is_status 403 "rotate the feed token without a valid CSRF token"
track "feed csrf"
post /signout "${same[@]}"
is_status 403 "sign out without a CSRF token"
track "signout csrf"
# Another user's token is no good either.
jar2=$T_TMP/jar2
with_jar "$jar2" signup_verified "other.$$.$RANDOM@example.org" "$pw"
with_jar "$jar2" get "/account/follow/$rid"
other=$(csrf)
before=$(counts)
post "/researchers/$rid/follow" "${same[@]}" --data-urlencode "csrf=$other"
is_status 403 "another session's CSRF token"
track "other csrf"
# The sign-in/up forms are CSRF-protected too (login CSRF).
with_jar "$T_TMP/jar3" post /signin "${same[@]}" \
    --data-urlencode "email=$email" --data-urlencode "password=$pw"
is_status 403 "sign-in without the form's CSRF token"
track "signin csrf"
body_has 'expired' "the form says why"
body_has "value=\"$email\"" "the email is kept"
with_jar "$T_TMP/jar3" post /signup "${same[@]}" \
    --data-urlencode "email=new.$$@example.org" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$good"
is_status 403 "sign-up with a token of another cookie"
track "signup csrf"

# ---------------------------------------------------------------- Origin
post "/researchers/$rid/follow" "${evil[@]}" --data-urlencode "csrf=$good"
is_status 403 "foreign Origin, valid token"
track "evil origin"
post "/researchers/$rid/follow" -H "Origin: null" --data-urlencode "csrf=$good"
is_status 403 "Origin: null"
track "null origin"
post "/researchers/$rid/follow" -H "Referer: http://evil.example/x" \
    --data-urlencode "csrf=$good"
is_status 403 "foreign Referer without Origin"
track "evil referer"
post "/researchers/$rid/follow" -H "Origin: $WEFT_URL.evil.example" \
    --data-urlencode "csrf=$good"
is_status 403 "Origin with our host as a prefix"
track "prefix origin"
get /signin
with_jar "$T_TMP/jar4" get /signin
c4=$(csrf)
with_jar "$T_TMP/jar4" post /signin "${evil[@]}" \
    --data-urlencode "email=$email" --data-urlencode "password=$pw" \
    --data-urlencode "csrf=$c4"
is_status 403 "sign-in from a foreign Origin"
track "evil signin"
# The recovery forms refuse a foreign Origin the same way.
for path in /account/forgot /account/reset /account/verify; do
	with_jar "$T_TMP/jar4" post "$path" "${evil[@]}" \
	    --data-urlencode "email=$email" --data-urlencode "csrf=$c4"
	is_status 403 "$path from a foreign Origin"
	track "evil $path"
done
[ "$(counts)" = "$before" ]
ok $? "CSRF and Origin attacks wrote nothing"

# ---------------------------------------------------------------- next=
for bad in //evil.com https://evil.com '/\evil.com' '/%0d%0aSet-Cookie:x=1' \
    'javascript:alert(1)'; do
	enc=$(jq -rn --arg s "$bad" '$s|@uri')
	[ "$bad" = '/%0d%0aSet-Cookie:x=1' ] && enc=$bad
	with_jar "$T_TMP/jar5" get "/signin?next=$enc"
	is_status 400 "GET /signin?next=$bad"
	track "next $bad"
	header_absent Location "no redirect for next=$bad"
done
with_jar "$T_TMP/jar5" get /signin
c5=$(csrf)
sessions=$(sql "SELECT count(*) FROM sessions WHERE user_id = $uid")
for bad in //evil.com https://evil.com '/\evil.com'; do
	with_jar "$T_TMP/jar5" post /signin "${same[@]}" \
	    --data-urlencode "email=$email" --data-urlencode "password=$pw" \
	    --data-urlencode "csrf=$c5" --data-urlencode "next=$bad"
	is_status 400 "POST /signin next=$bad"
	track "post next $bad"
	header_absent Location "no redirect"
done
[ "$(sql "SELECT count(*) FROM sessions WHERE user_id = $uid")" = "$sessions" ]
ok $? "open-redirect sign-ins created no session"
post "/researchers/$rid/follow" "${same[@]}" --data-urlencode "csrf=$good" \
    --data-urlencode "next=//evil.com"
is_status 400 "follow with next=//evil.com"
track "follow next"
[ "$(counts)" = "$before" ]
ok $? "nothing followed"
post "/researchers/$rid/follow" "${same[@]}" --data-urlencode "csrf=$good" \
    --data-urlencode "next=/about?x=1"
is_status 303 "a same-site next= is honoured"
header_is Location "$WEFT_URL/about?x=1" "to the path given"
post "/researchers/$rid/unfollow" "${same[@]}" --data-urlencode "csrf=$good"
header_is Location "$WEFT_URL/researchers/$rid-$rslug" "default: the researcher page"

# ---------------------------------------------------------------- anonymous
anon=$T_TMP/anon
with_jar "$anon" post "/researchers/$rid/follow" "${same[@]}"
is_status 303 "anonymous follow"
header_is Location "$WEFT_URL/signin?next=%2Fresearchers%2F$rid" "to sign-in, then back"
with_jar "$anon" get "/account/follow/$rid"
body_has "/signin?next=" "anonymous fragment: a sign-in link"
body_lacks '<form' "anonymous fragment: no form"
with_jar "$anon" get /account/nav
body_has '>Sign in</a>' "anonymous nav: Sign in"
get /researchers/999999999/follow
is_status 405 "GET on a POST-only path"
track "get follow"
post /researchers/999999999/follow "${same[@]}" --data-urlencode "csrf=$good"
is_status 404 "unknown researcher"
track "unknown researcher"
get /account/follow/999999999
is_status 404 "fragment of an unknown researcher"
body_empty "an empty fragment"
get "/account/follow/1%20OR%201=1"
is_status 404 "fragment id with SQL"
track "fragment sql"

# ---------------------------------------------------------------- fixation
# A token planted before sign-in is not accepted after it.
fix=$T_TMP/fix
planted=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
printf '127.0.0.1\tFALSE\t/\tFALSE\t0\tweft_session\t%s\n' "$planted" >"$fix"
with_jar "$fix" get /signin
cf=$(csrf)
with_jar "$fix" post /signin "${same[@]}" --data-urlencode "email=$email" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$cf"
is_status 303 "sign in with a planted cookie"
now=$(with_jar "$fix" session)
[ -n "$now" ] && [ "$now" != "$planted" ]
ok $? "a new token replaces the planted one"
printf '127.0.0.1\tFALSE\t/\tFALSE\t0\tweft_session\t%s\n' "$planted" >"$T_TMP/p2"
with_jar "$T_TMP/p2" get /account
is_status 303 "the planted token is not a session"
# A live session carried into a new sign-in is ended by it.
prev=$(session)
with_jar "$T_TMP/p3" get /signin
cp3=$(csrf)
printf '127.0.0.1\tFALSE\t/\tFALSE\t0\tweft_session\t%s\n' "$prev" >>"$T_TMP/p3"
with_jar "$T_TMP/p3" post /signin "${same[@]}" --data-urlencode "email=$email" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$cp3"
is_status 303 "sign in again over a live session"
printf '127.0.0.1\tFALSE\t/\tFALSE\t0\tweft_session\t%s\n' "$prev" >"$T_TMP/p4"
with_jar "$T_TMP/p4" get /account
is_status 303 "the session from before sign-in is gone"

# ---------------------------------------------------------------- brute force
rl_reset
bf=$T_TMP/bf
with_jar "$bf" get /signin
cb=$(csrf)
n401=0
for i in $(seq 10); do
	with_jar "$bf" post /signin "${same[@]}" --data-urlencode "email=$email" \
	    --data-urlencode "password=wrong password $i" --data-urlencode "csrf=$cb"
	[ "$STATUS" = 401 ] && n401=$((n401 + 1))
	track "wrong password"
done
[ $n401 = 10 ]
ok $? "ten wrong passwords: 401 each" "$n401"
body_has 'The email address or the password is wrong.' "one message for a wrong password"
with_jar "$bf" post /signin "${same[@]}" --data-urlencode "email=$email" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$cb"
is_status 429 "the 11th attempt (right password) is limited"
track "limited"
ra=$(header Retry-After)
[ -n "$ra" ] && [ "$ra" -ge 1 ] && [ "$ra" -le 60 ]
ok $? "Retry-After in seconds ($ra)"
[ -z "$(with_jar "$bf" session)" ]
ok $? "no session while limited"
# Another address from the same IP is limited too (per-IP counter).
with_jar "$bf" post /signin "${same[@]}" \
    --data-urlencode "email=nobody.$$@example.org" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$cb"
is_status 429 "per-IP limit"
rl_reset
with_jar "$bf" post /signin "${same[@]}" \
    --data-urlencode "email=nobody.$$@example.org" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$cb"
is_status 401 "no such user: 401"
body_has 'The email address or the password is wrong.' "the same message as a wrong password"
t0=$(date +%s%N)
with_jar "$bf" post /signin "${same[@]}" --data-urlencode "email=nobody.$$@example.org" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$cb"
t1=$(date +%s%N)
with_jar "$bf" post /signin "${same[@]}" --data-urlencode "email=$email" \
    --data-urlencode "password=wrong $pw" --data-urlencode "csrf=$cb"
t2=$(date +%s%N)
nouser=$(((t1 - t0) / 1000000))
wrongpw=$(((t2 - t1) / 1000000))
echo "# no such user: ${nouser} ms, wrong password: ${wrongpw} ms"
[ $((nouser * 3)) -gt "$wrongpw" ] && [ $((wrongpw * 3)) -gt "$nouser" ]
ok $? "both failures cost a password hash (${nouser} vs ${wrongpw} ms)"
rl_reset

# ---------------------------------------------------------------- malformed
mal=$T_TMP/mal
with_jar "$mal" get /signup
cm=$(csrf)
before=$(counts)
long=$(printf 'a%.0s' $(seq 250))@example.org
for e in "nope" "a@b" "a b@example.org" "two@@example.org" "$long" \
    "x' OR '1'='1@example.org" "robert'); DROP TABLE users;--@example.org" \
    '<script>alert(1)</script>@example.org' "$(printf 'a\001b@example.org')"; do
	with_jar "$mal" post /signup "${same[@]}" --data-urlencode "email=$e" \
	    --data-urlencode "password=$pw" --data-urlencode "csrf=$cm"
	is_status 400 "sign-up email '$(printf %s "$e" | head -c 40 | tr -d '\001')'"
	track "email $e"
done
body_lacks '<script>alert' "the email is escaped when re-shown"
with_jar "$mal" post /signup "${same[@]}" \
    --data-urlencode 'email=<script>alert(1)</script>@example.org' \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$cm"
body_has '&lt;script&gt;' "the email is kept, escaped"
body_has 'class="form-error"' "a clear message in the form"
with_jar "$mal" post /signup "${same[@]}" --data-urlencode "email=short.$$@example.org" \
    --data-urlencode "password=123456789" --data-urlencode "csrf=$cm"
is_status 400 "9-byte password"
track "short pw"
body_has 'at least 10' "says the minimum"
body_has "value=\"short.$$@example.org\"" "email kept"
with_jar "$mal" post /signup "${same[@]}" --data-urlencode "email=long.$$@example.org" \
    --data-urlencode "password=$(head -c 1025 /dev/zero | tr '\0' x)" \
    --data-urlencode "csrf=$cm"
is_status 400 "1025-byte password"
track "long pw"
with_jar "$mal" post /signup "${same[@]}" --data-urlencode "email=nopw.$$@example.org" \
    --data-urlencode "csrf=$cm"
is_status 400 "no password"
track "no pw"
with_jar "$mal" post /signup "${same[@]}" --data-urlencode "email=$(echo "$email" | tr a-z A-Z)" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$cm"
is_status 200 "the same address in other case: 200, as for a new one"
track "dup"
body_has 'Check your email' "says to check the mail, not that it exists"
with_jar "$mal" post /signup "${same[@]}" -H 'Content-Type: application/json' \
    --data '{"email":"j@example.org","password":"aaaaaaaaaaaa"}'
is_status 400 "a JSON body is not a form"
track "json body"
with_jar "$mal" post /signup "${same[@]}" --data 'email=%zz&password=x'
is_status 400 "a bad escape in the form"
track "bad escape"
with_jar "$mal" post /signup "${same[@]}" --data-urlencode "email=e.$$@example.org" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$cm" \
    -H 'Accept: application/json' --data-urlencode "next=//evil.com"
is_status 400 "JSON client: 400"
json_is '.error.status' 400 "JSON error object"
rl_reset

# SQL-looking input where it is data.
with_jar "$mal" get /signin
cm=$(csrf)
with_jar "$mal" post /signin "${same[@]}" --data-urlencode "email=admin'--@example.org" \
    --data-urlencode "password=' OR '1'='1' --" --data-urlencode "csrf=$cm"
is_status 401 "SQL in the sign-in form: 401"
track "sql signin"
with_jar "$T_TMP/p3" get "/account/welcome?q=$(jq -rn --arg s "' OR 1=1; DROP TABLE follows; --" '$s|@uri')"
is_status 200 "SQL in the name search is data"
body_has 'Nobody found' "matches nobody"
with_jar "$T_TMP/p3" get "/account/welcome?field=cs.LG'--"
is_status 400 "a malformed field"
track "field sql"
[ "$(counts)" = "$before" ]
ok $? "malformed input wrote nothing"
[ "$(sql "SELECT count(*) FROM pg_tables WHERE tablename IN ('users','follows')")" = 2 ]
ok $? "tables intact"

# ---------------------------------------------------------------- big bodies
head -c $((10 * 1024 * 1024)) /dev/zero | tr '\0' a >"$T_TMP/big"
post /signin "${same[@]}" --data-binary "@$T_TMP/big"
is_status 413 "10 MB POST: 413 from nginx"
track "10MB"
head -c $((100 * 1024)) /dev/zero | tr '\0' a >"$T_TMP/mid"
post /signin "${same[@]}" --data-binary "@$T_TMP/mid"
is_status 413 "100 KB form: 413 from the worker (64 KB limit)"
track "100KB"
[ "$(counts)" = "$before" ]
ok $? "big bodies wrote nothing"

# ---------------------------------------------------------------- no 5xx
! grep -q '^5' "$seen"
ok $? "no attack got a 5xx" "$(grep '^5' "$seen" | head -3)"
! grep -q '^000' "$seen"
ok $? "every attack got an answer"

rl_reset
done_testing
