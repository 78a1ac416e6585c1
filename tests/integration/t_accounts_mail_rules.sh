#!/bin/bash
# t_accounts_mail_rules.sh -- the rules around account mail (issue 18):
# a per-address daily cap (mail_daily_cap) past which nothing is sent and
# the answer stays the same; a password-reset answer that does not
# depend on the address or on the SMTP relay; and next= carried through
# sign-up, verification and the first sign-in, never off the site.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"

rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
rl_reset() {
	rcli --scan --pattern 'weft:rl:*' | while read -r k; do
		rcli del "$k" >/dev/null
	done
}
same=(-H "Origin: $WEFT_URL")
# The body without what differs between two requests: CSRF tokens.
shape() { sed 's/value="[0-9a-f]\{64\}"/value="CSRF"/g' "$BODY"; }
# metric REASON: weft_mail_not_sent_total{reason=REASON} of accounts.
metric() {
	curl -s "$WEFT_URL/metrics" |
	    sed -n "s/^weft_mail_not_sent_total{module=\"accounts\",reason=\"$1\"} //p"
}
# The link to PATH (with any query) in ADDR's newest message.
link_to() {
	mail_body "$1" | grep -o "https\?://[^/ ]*$2?[^ ]*token=[A-Za-z0-9_-]*" |
	    tail -1 | grep .
}
rl_reset
pw="a long enough passphrase $$"
cap=$(sed -n 's/^mail_daily_cap *= *//p' "$WEFT_VAR/weft.conf")
cap=${WEFT_MAIL_DAILY_CAP:-${cap:-10}}

# ------------------------------------------------- the relay is down
JAR=$T_TMP/known
known="known.$$.$RANDOM@example.org"
signup_verified "$known" "$pw"
ok $? "setup: a verified account"
get /account/forgot
c=$(form_csrf)
kill "$(cat "$WEFT_VAR/smtp/smtp.pid")"
sleep 0.5
post /account/forgot "${same[@]}" --data-urlencode "email=$known" \
    --data-urlencode "csrf=$c"
s_known=$STATUS
shape | sed "s/$known/ADDR/g" >"$T_TMP/known.html"
post /account/forgot "${same[@]}" \
    --data-urlencode "email=nobody.$$@example.org" --data-urlencode "csrf=$c"
s_unknown=$STATUS
shape | sed "s/nobody.$$@example.org/ADDR/g" >"$T_TMP/unknown.html"
[ "$s_known" = 200 ] && [ "$s_unknown" = 200 ]
ok $? "relay down: reset answers 200 for a verified and an unknown address" \
    "$s_known $s_unknown"
cmp -s "$T_TMP/known.html" "$T_TMP/unknown.html"
ok $? "... the very same page" "$(diff "$T_TMP/known.html" "$T_TMP/unknown.html" | head -5)"
body_lacks 'could not send' "... which does not mention the relay"
post /account/forgot "${same[@]}" --data-urlencode "email=$known" \
    --data-urlencode "csrf=$c" -H 'Accept: application/json'
cp "$BODY" "$T_TMP/known.json"
post /account/forgot "${same[@]}" --data-urlencode "email=$known.x" \
    --data-urlencode "csrf=$c" -H 'Accept: application/json'
jq -e --slurpfile a "$T_TMP/known.json" '.ok == $a[0].ok and .links == $a[0].links' \
    "$BODY" >/dev/null
ok $? "... and the same JSON"
sleep 0.3
grep -q 'reset mail of user [0-9]* was not sent' "$WEFT_VAR"/log/accounts*.log
ok $? "the failure is logged"
grep -q 'not sent:' "$WEFT_VAR"/log/accounts*.log
ok $? "... with the relay's error"
! grep -rqE 'token=[A-Za-z0-9_-]{43}' "$WEFT_VAR"/log/accounts*.log
ok $? "... and no token in the log"
relay=$(metric relay)
[ "${relay:-0}" -ge 2 ]
ok $? "relay failures counted in /metrics" "relay=$relay"
setsid /usr/bin/python3 -m aiosmtpd -n -u \
    -l "127.0.0.1:$(sed -n 's/^smtp_url = smtp:\/\/127.0.0.1://p' "$WEFT_VAR/weft.conf")" \
    -c aiosmtpd.handlers.Mailbox "$WEFT_VAR/mail" \
    >>"$WEFT_VAR/log/smtp.log" 2>&1 </dev/null &
echo $! >"$WEFT_VAR/smtp/smtp.pid"
sleep 1

# ------------------------------------------------- the daily cap
JAR=$T_TMP/cap
capped="capped.$$.$RANDOM@example.org"
rl_reset
signup_verified "$capped" "$pw"
ok $? "setup: a verified account (its first mail)"
c0=$(metric cap)
get /account/forgot
c=$(form_csrf)
for i in $(seq $((cap + 2))); do
	rl_reset
	post /account/forgot "${same[@]}" --data-urlencode "email=$capped" \
	    --data-urlencode "csrf=$c"
	shape | sed "s/$capped/ADDR/g" >"$T_TMP/cap.$i.html"
	echo "$STATUS" >>"$T_TMP/cap.status"
done
sleep 1
n=$(mail_count "$capped")
[ "$n" = "$cap" ]
ok $? "$((cap + 3)) mails asked for, $cap sent (the cap)" "sent $n"
[ "$(sort -u "$T_TMP/cap.status")" = 200 ]
ok $? "... every answer 200"
cmp -s "$T_TMP/cap.1.html" "$T_TMP/cap.$((cap + 2)).html"
ok $? "... the same page over the cap as under it"
c1=$(metric cap)
[ "$((${c1:-0} - ${c0:-0}))" = 3 ]
ok $? "three capped mails counted in /metrics" "before ${c0:-none} after ${c1:-none}"
tokens=$(sql "SELECT count(*) FROM mail_tokens m JOIN users u ON u.id = m.user_id
    WHERE u.email = '$capped'")
[ "$tokens" = 1 ]
ok $? "... and the live reset link still the last one sent" "tokens=$tokens"
grep -q 'daily cap' "$WEFT_VAR"/log/accounts*.log
ok $? "capped mail is logged"
# Sign-up with the capped address: the same answer, no mail.
JAR=$T_TMP/cap2
rl_reset
get /signup
post /signup "${same[@]}" --data-urlencode "email=$capped" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$(form_csrf)"
is_status 200 "sign-up with a capped address: 200"
body_has 'Check your email' "... check your email, as always"
sleep 0.5
[ "$(mail_count "$capped")" = "$cap" ]
ok $? "... and nothing sent"

# ------------------------------------------------- next= through sign-up
JAR=$T_TMP/next
rl_reset
rid=$(sql "SELECT id FROM researchers WHERE paper_count > 0 ORDER BY id LIMIT 1")
next="/researchers/$rid?tab=papers&x=1"
enc=$(jq -rn --arg s "$next" '$s|@uri')
get "/signin?next=$enc"
is_status 200 "sign-in with next="
body_has "href=\"/signup?next=$(printf %s "$enc" | sed 's/&/\&amp;/g')\"" \
    "... its link to sign-up keeps next"
get "/signup?next=$enc"
body_has "name=\"next\" value=\"$(printf %s "$next" | sed 's/&/\&amp;/g')\"" \
    "the sign-up form carries next"
nx="next.$$.$RANDOM@example.org"
post /signup "${same[@]}" --data-urlencode "email=$nx" \
    --data-urlencode "password=$pw" --data-urlencode "next=$next" \
    --data-urlencode "csrf=$(form_csrf)"
is_status 200 "sign-up with next"
body_has "href=\"/signin?next=$(printf %s "$enc" | sed 's/&/\&amp;/g')\"" \
    "... its answer's sign-in link keeps next"
link=$(link_to "$nx" /account/verify)
ok $? "the verification link"
case "$link" in *"next=$enc&token="*) ok 0 "... carries next" ;;
*) ok 1 "... carries next" "$link" ;; esac
get "/${link#*://*/}"
is_status 200 "the link's form"
body_has "name=\"next\" value=\"$(printf %s "$next" | sed 's/&/\&amp;/g')\"" \
    "... carries next"
post /account/verify "${same[@]}" --data-urlencode "token=${link##*token=}" \
    --data-urlencode "password=wrong password here" \
    --data-urlencode "next=$next" --data-urlencode "csrf=$(form_csrf)"
is_status 401 "a wrong password"
body_has "name=\"next\" value=\"$(printf %s "$next" | sed 's/&/\&amp;/g')\"" \
    "... its form still carries next"
post /account/verify "${same[@]}" --data-urlencode "token=${link##*token=}" \
    --data-urlencode "password=$pw" --data-urlencode "next=$next" \
    --data-urlencode "csrf=$(form_csrf)"
is_status 303 "verified"
header_is Location "$WEFT_URL$next" "... and lands on next"
# The first sign-in elsewhere, from the answer's link.
JAR=$T_TMP/next2
get "/signin?next=$enc"
post /signin "${same[@]}" --data-urlencode "email=$nx" \
    --data-urlencode "password=$pw" --data-urlencode "next=$next" \
    --data-urlencode "csrf=$(form_csrf)"
is_status 303 "signing in with next"
header_is Location "$WEFT_URL$next" "... lands on next"

# No open redirect: a next= that leaves the site is dropped.
JAR=$T_TMP/evil
rl_reset
ev="evil.$$.$RANDOM@example.org"
get /signup
post /signup "${same[@]}" --data-urlencode "email=$ev" \
    --data-urlencode "password=$pw" --data-urlencode "next=//evil.example/x" \
    --data-urlencode "csrf=$(form_csrf)"
is_status 400 "sign-up with next=//evil.example: refused"
get /signup
post /signup "${same[@]}" --data-urlencode "email=$ev" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$(form_csrf)"
link=$(link_to "$ev" /account/verify)
tok=${link##*token=}
for bad in '//evil.example/x' 'https://evil.example/' '/\evil.example' \
    "$(printf '/x\r\nSet-Cookie: a=b')"; do
	benc=$(jq -rn --arg s "$bad" '$s|@uri')
	get "/account/verify?next=$benc&token=$tok"
	body_lacks 'name="next"' "a link with next=$(printf %q "$bad"): no next in its form"
done
post /account/verify "${same[@]}" --data-urlencode "token=$tok" \
    --data-urlencode "password=$pw" --data-urlencode "next=//evil.example/x" \
    --data-urlencode "csrf=$(form_csrf)"
is_status 303 "verified with next=//evil.example"
header_is Location "$WEFT_URL/account/welcome" "... lands on the welcome page"

done_testing
