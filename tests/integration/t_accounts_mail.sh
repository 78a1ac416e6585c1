#!/bin/bash
# t_accounts_mail.sh -- the account features that go by email, through
# nginx and the real SMTP server conf/local.sh runs (its maildir is
# $WEFT_VAR/mail): sign-up and verification, sign-up with a taken address
# (the same answer), password reset, change of password, the sessions
# list, sign out one and everywhere else, and deleting the account.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"

rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
rl_reset() {
	rcli --scan --pattern 'weft:rl:*' | while read -r k; do
		rcli del "$k" >/dev/null
	done
}
same=(-H "Origin: $WEFT_URL")
with_jar() {
	local keep=$JAR
	JAR=$1
	shift
	"$@"
	JAR=$keep
}
# The body without what differs between two requests: CSRF tokens.
shape() { sed 's/value="[0-9a-f]\{64\}"/value="CSRF"/g' "$BODY"; }
rl_reset

email="mail.$$.$RANDOM@example.org"
pw="a long enough passphrase $$"
pw2="another long passphrase $$"

# ---------------------------------------------------------------- sign up
get /signup
c=$(form_csrf)
post /signup "${same[@]}" --data-urlencode "email=$email" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$c"
is_status 200 "sign-up answers 200"
body_has 'Check your email' "... check your email"
grep -qi '^set-cookie: weft_session=' "$HDRS"
ok $((!$?)) "... and signs nobody in"
shape >"$T_TMP/new.html"
uid=$(sql "SELECT id FROM users WHERE email = '$email'")
[ -n "$uid" ]
ok $? "the account exists"
[ "$(sql "SELECT email_verified_at IS NULL FROM users WHERE id = $uid")" = t ]
ok $? "... unverified"
body=$(mail_body "$email")
ok $? "the verification mail arrived"
case "$body" in *"Subject: Confirm your email address for weft"*) ok 0 "its subject" ;;
*) ok 1 "its subject" "$body" ;; esac
raw=$(grep -l "To: $email" "$WEFT_VAR"/mail/new/* | head -1)
for h in Date Message-ID From MIME-Version; do
	grep -q "^$h: " "$raw"
	ok $? "header $h"
done
grep -q '^Content-Type: text/plain; charset=UTF-8' "$raw"
ok $? "text/plain in UTF-8"
link=$(mail_link "$email" /account/verify)
ok $? "a verification link built from base_url"
tok=${link##*token=}
[ ${#tok} = 43 ]
ok $? "a 43-character token"
[ "$(sql "SELECT count(*) FROM mail_tokens WHERE user_id = $uid AND purpose = 'verify'")" = 1 ]
ok $? "one token row"
[ "$(sql "SELECT count(*) FROM mail_tokens WHERE token_hash = '$tok'")" = 0 ]
ok $? "... stored hashed"
# A request nginx refuses itself (413) is written to its error log with
# the request line: not for these links.
head -c 2000000 /dev/zero | tr '\0' x >"$T_TMP/big"
post "/account/reset?token=$tok" -H 'Content-Type: application/x-www-form-urlencoded' \
    --data-binary @"$T_TMP/big"
is_status 413 "a 2 MB POST to a mail link: 413"
sleep 0.3
! grep -rqF "$tok" "$WEFT_VAR"/log/*.log "$WEFT_VAR"/nginx/*.log 2>/dev/null
ok $? "the token is in no log"

# The link's GET changes nothing (mail scanners fetch links).
get "${link#"$WEFT_URL"}"
is_status 200 "the link opens a confirmation form"
body_has 'action="/account/verify"' "... that posts"
get "${link#"$WEFT_URL"}"
is_status 200 "... and opens again (a GET uses nothing up)"
c=$(form_csrf)
post /account/verify "${same[@]}" --data-urlencode "token=$tok" \
    --data-urlencode "password=wrong password here" --data-urlencode "csrf=$c"
is_status 401 "a wrong password does not verify"
[ "$(sql "SELECT email_verified_at IS NULL FROM users WHERE id = $uid")" = t ]
ok $? "... still unverified"
post /account/verify "${same[@]}" --data-urlencode "token=$tok" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$c"
is_status 303 "the right password verifies"
header_is Location "$WEFT_URL/account/welcome" "... on to onboarding, signed in"
[ "$(sql "SELECT email_verified_at IS NOT NULL FROM users WHERE id = $uid")" = t ]
ok $? "verified in the database"
[ "$(sql "SELECT count(*) FROM mail_tokens WHERE user_id = $uid")" = 0 ]
ok $? "the token is used up"
with_jar "$T_TMP/other" get "${link#"$WEFT_URL"}"
is_status 410 "the link works once"
get /account
is_status 200 "the account page"
body_has 'Your address is confirmed' "... says the address is confirmed"
body_has 'action="/account/password"' "... change password form"
body_has 'action="/account/delete"' "... delete form"
body_has 'Where you are signed in' "... sessions list"
get '/account?format=json'
json_is '.email_verified' true "JSON: email_verified"
json_is '.sessions | length' 1 "JSON: one session"
json_is '.sessions[0].current' true "JSON: ... the current one"
json_is '.sessions[0].agent' curl "JSON: ... a browser summary"
json_is '.sessions[0].network' 127.0.0.0/24 "JSON: ... a network summary"
json_is '.sessions[0] | has("token_hash")' false "JSON: no token hash"
get '/account' -H 'Accept: text/markdown'
body_has '## Where you are signed in' "markdown: sessions"

# ------------------------------------------ sign-up with a taken address
n0=$(mail_count "$email")
with_jar "$T_TMP/t" get /signup
c=$(form_csrf)
with_jar "$T_TMP/t" post /signup "${same[@]}" --data-urlencode "email=$email" \
    --data-urlencode "password=an attacker's password" \
    --data-urlencode "csrf=$c"
is_status 200 "sign-up with a taken address: 200"
shape | sed "s/$email/ADDR/g" >"$T_TMP/old.html"
sed "s/$email/ADDR/g" "$T_TMP/new.html" | cmp -s - "$T_TMP/old.html"
ok $? "... the very same page as for a new address"
[ "$(mail_count "$email")" = $((n0 + 1)) ]
ok $? "... the owner gets one mail"
mail_body "$email" | grep -q 'someone tried to create a new weft account'
ok $? "... saying someone tried to sign up"
with_jar "$T_TMP/x" get /signin
with_jar "$T_TMP/x" post /signin "${same[@]}" --data-urlencode "email=$email" \
    --data-urlencode "password=an attacker's password" \
    --data-urlencode "csrf=$(form_csrf)"
is_status 401 "... and the password did not change"

# An unverified address gets nothing but verification mail.
quiet="quiet.$$.$RANDOM@example.org"
with_jar "$T_TMP/q" get /signup
with_jar "$T_TMP/q" post /signup "${same[@]}" --data-urlencode "email=$quiet" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$(form_csrf)"
with_jar "$T_TMP/q" get /account/forgot
with_jar "$T_TMP/q" post /account/forgot "${same[@]}" \
    --data-urlencode "email=$quiet" --data-urlencode "csrf=$(form_csrf)"
is_status 200 "reset for an unverified address: 200"
sleep 0.5
[ "$(mail_count "$quiet")" = 1 ]
ok $? "... but no mail: it got only the verification one"

# ---------------------------------------------------------------- sessions
jar2=$T_TMP/second
with_jar "$jar2" get /signin
with_jar "$jar2" post /signin "${same[@]}" -A "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" \
    --data-urlencode "email=$email" --data-urlencode "password=$pw" \
    --data-urlencode "csrf=$(form_csrf)"
is_status 303 "a second session"
jar3=$T_TMP/third
with_jar "$jar3" get /signin
with_jar "$jar3" post /signin "${same[@]}" --data-urlencode "email=$email" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$(form_csrf)"
is_status 303 "a third session"
get '/account?format=json'
json_is '.sessions | length' 3 "three sessions listed"
json_is '[.sessions[] | select(.agent == "Firefox on Linux")] | length' 1 \
    "... one from Firefox on Linux"
sid=$(jq -r '.sessions[] | select(.agent == "Firefox on Linux") | .id' "$BODY")
get /account
c=$(form_csrf)
body_has 'Sign out this one' "a button per session"
body_has 'Sign out everywhere else' "and one for all the others"
post /account/sessions/end "${same[@]}" --data-urlencode "id=$sid" \
    --data-urlencode "csrf=$c"
is_status 303 "sign out that one"
with_jar "$jar2" get /account
is_status 303 "... it is signed out"
get /account
is_status 200 "... this one is not"
post /account/sessions/end "${same[@]}" --data-urlencode "id=$sid" \
    --data-urlencode "csrf=nope"
is_status 403 "ending a session needs the CSRF token"
post /account/sessions/end-others "${same[@]}" --data-urlencode "csrf=$c"
is_status 303 "sign out everywhere else"
with_jar "$jar3" get /account
is_status 303 "... the third session is signed out"
get /account
is_status 200 "... this one is not"
[ "$(sql "SELECT count(*) FROM sessions WHERE user_id = $uid")" = 1 ]
ok $? "one session row left"

# -------------------------------------------------------- change password
with_jar "$jar2" get /signin
with_jar "$jar2" post /signin "${same[@]}" --data-urlencode "email=$email" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$(form_csrf)"
# A reset link asked for before the change stops working with it.
with_jar "$T_TMP/early" get /account/forgot
with_jar "$T_TMP/early" post /account/forgot "${same[@]}" \
    --data-urlencode "email=$email" --data-urlencode "csrf=$(form_csrf)"
early=$(mail_link "$email" /account/reset)
get /account
c=$(form_csrf)
post /account/password "${same[@]}" --data-urlencode "current=not it at all" \
    --data-urlencode "password=$pw2" --data-urlencode "csrf=$c"
is_status 401 "a wrong current password changes nothing"
body_has 'form-error' "... and says so"
post /account/password "${same[@]}" --data-urlencode "current=$pw" \
    --data-urlencode "password=short" --data-urlencode "csrf=$c"
is_status 400 "a too short new password"
post /account/password "${same[@]}" --data-urlencode "current=$pw" \
    --data-urlencode "password=$pw2" --data-urlencode "csrf=$c"
is_status 303 "password changed"
header_is Location "$WEFT_URL/account?done=password" "... back to the account"
get "/account?done=password"
body_has 'Your password has been changed' "... with a notice"
with_jar "$jar2" get /account
is_status 303 "... the other session ended"
with_jar "$T_TMP/y" get /signin
with_jar "$T_TMP/y" post /signin "${same[@]}" --data-urlencode "email=$email" \
    --data-urlencode "password=$pw2" --data-urlencode "csrf=$(form_csrf)"
is_status 303 "the new password signs in"
with_jar "$T_TMP/early" get "${early#"$WEFT_URL"}"
is_status 410 "a reset link from before the change no longer works"

# ---------------------------------------------------------------- reset
n0=$(mail_count "$email")
with_jar "$T_TMP/r" get /account/forgot
is_status 200 "the reset form"
c=$(form_csrf)
with_jar "$T_TMP/r" post /account/forgot "${same[@]}" \
    --data-urlencode "email=$email" --data-urlencode "csrf=$c"
is_status 200 "reset asked"
shape | sed "s/$email/ADDR/g" >"$T_TMP/reset-known.html"
with_jar "$T_TMP/r" post /account/forgot "${same[@]}" \
    --data-urlencode "email=nobody.$$@example.org" --data-urlencode "csrf=$c"
shape | sed "s/nobody.$$@example.org/ADDR/g" >"$T_TMP/reset-unknown.html"
cmp -s "$T_TMP/reset-known.html" "$T_TMP/reset-unknown.html"
ok $? "the same answer for an unknown address"
[ "$(mail_count "$email")" = $((n0 + 1)) ]
ok $? "one reset mail"
link=$(mail_link "$email" /account/reset)
ok $? "... with a reset link"
rtok=${link##*token=}
[ "$(sql "SELECT expires_at < now() + interval '61 minutes' FROM mail_tokens WHERE user_id = $uid AND purpose = 'reset'")" = t ]
ok $? "it expires within the hour"
with_jar "$T_TMP/r" get "${link#"$WEFT_URL"}"
is_status 200 "the reset form from the link"
c=$(form_csrf)
with_jar "$T_TMP/r" post /account/reset "${same[@]}" \
    --data-urlencode "token=$rtok" --data-urlencode "password=$pw" \
    --data-urlencode "csrf=$c"
is_status 303 "a new password set"
header_is Location "$WEFT_URL/account?done=reset" "... signed in"
get /account
is_status 303 "every other session ended"
with_jar "$T_TMP/y" get /account
is_status 303 "... all of them"
with_jar "$T_TMP/r" post /account/reset "${same[@]}" \
    --data-urlencode "token=$rtok" --data-urlencode "password=$pw2" \
    --data-urlencode "csrf=$c"
is_status 410 "the reset link works once"
sql "UPDATE mail_tokens SET expires_at = now() - interval '1 second'" >/dev/null
with_jar "$T_TMP/r" post /account/forgot "${same[@]}" \
    --data-urlencode "email=$email" --data-urlencode "csrf=$c"
link=$(mail_link "$email" /account/reset)
sql "UPDATE mail_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $uid" >/dev/null
with_jar "$T_TMP/r" get "${link#"$WEFT_URL"}"
is_status 410 "an expired reset link"

# ---------------------------------------------------------------- relay down
with_jar "$T_TMP/r" get /account
c=$(form_csrf)
kill "$(cat "$WEFT_VAR/smtp/smtp.pid")"
sleep 0.5
with_jar "$T_TMP/d" get /signup
with_jar "$T_TMP/d" post /signup "${same[@]}" \
    --data-urlencode "email=down.$$@example.org" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$(form_csrf)"
is_status 200 "relay down: no 5xx"
body_has 'could not send the email' "... a clear message"
setsid /usr/bin/python3 -m aiosmtpd -n -u \
    -l "127.0.0.1:$(sed -n 's/^smtp_url = smtp:\/\/127.0.0.1://p' "$WEFT_VAR/weft.conf")" \
    -c aiosmtpd.handlers.Mailbox "$WEFT_VAR/mail" \
    >>"$WEFT_VAR/log/smtp.log" 2>&1 </dev/null &
echo $! >"$WEFT_VAR/smtp/smtp.pid"
sleep 1

# ---------------------------------------------------------------- delete
JAR=$T_TMP/r
rid=$(sql "SELECT id FROM researchers WHERE paper_count > 0 ORDER BY id LIMIT 1")
get "/account/follow/$rid"
post "/researchers/$rid/follow" "${same[@]}" --data-urlencode "csrf=$(form_csrf)"
post /account/feed-token "${same[@]}" --data-urlencode "csrf=$c"
sql "INSERT INTO mail_tokens (token_hash, user_id, purpose, expires_at)
     VALUES (repeat('ab', 32), $uid, 'reset', now() + interval '1 hour')" >/dev/null
[ "$(sql "SELECT concat((SELECT count(*) FROM follows WHERE user_id = $uid),
    (SELECT count(*) FROM feed_tokens WHERE user_id = $uid),
    (SELECT count(*) FROM mail_tokens WHERE user_id = $uid))")" = 111 ]
ok $? "setup: a follow, a feed token, a mail token"
post /account/delete "${same[@]}" --data-urlencode "current=wrong password!" \
    --data-urlencode "csrf=$c"
is_status 401 "deleting needs the password"
post /account/delete "${same[@]}" --data-urlencode "current=$pw" \
    --data-urlencode "csrf=$c"
is_status 200 "account deleted"
body_has 'Your account is deleted' "... it says so"
grep -qi '^set-cookie: weft_session=;' "$HDRS"
ok $? "... and expires the cookie"
[ "$(sql "SELECT concat((SELECT count(*) FROM users WHERE id = $uid),
    (SELECT count(*) FROM sessions WHERE user_id = $uid),
    (SELECT count(*) FROM follows WHERE user_id = $uid),
    (SELECT count(*) FROM feed_tokens WHERE user_id = $uid),
    (SELECT count(*) FROM mail_tokens WHERE user_id = $uid))")" = 00000 ]
ok $? "the user, sessions, follows, feed and mail tokens are gone"
! grep -rqF "$pw" "$WEFT_VAR"/log/*.log 2>/dev/null
ok $? "no password in the logs"

done_testing
