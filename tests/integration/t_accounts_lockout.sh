#!/bin/bash
# t_accounts_lockout.sh -- the sign-in limits stop a guesser, not the
# owner (issue 18).  Eleven wrong passwords from eleven addresses used to
# fill the account's counter for everyone, so the owner, from a new
# address with the right password, got 429.  Now a browser that signed
# in to the account before (its weft_device cookie) is counted on its
# own: the owner gets in from any address, while a distributed guesser
# still gets at most ten guesses a minute at the account (limit.c).
#
# Each client is its own loopback address (curl --interface 127.0.0.N).
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"

rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
rl_reset() {
	rcli --scan --pattern 'weft:rl:*' | while read -r k; do
		rcli del "$k" >/dev/null
	done
}
csrf() { grep -o 'name="csrf" value="[0-9a-f]*"' "$BODY" | head -1 |
    sed 's/.*value="//; s/"$//'; }
session() { awk '$6 == "weft_session" { print $7 }' "$JAR" | tail -1; }
device() { awk '$6 == "weft_device" { print $7 }' "$JAR" | tail -1; }
same=(-H "Origin: $WEFT_URL")
# attempt JAR ADDR FORM EMAIL PASSWORD: a POST of FORM with cookie jar JAR
# from 127.0.0.ADDR.
attempt() {
	JAR=$1
	get "/$3" --interface "127.0.0.$2"
	post "/$3" --interface "127.0.0.$2" "${same[@]}" \
	    --data-urlencode "email=$4" --data-urlencode "password=$5" \
	    --data-urlencode "csrf=$(csrf)"
}

rl_reset
n=$$$RANDOM
email="owner.$n@example.org"
pw="owner passphrase $n"
owner=$T_TMP/owner

# The owner signed up (or in) from this browser once, and signed out.
attempt "$owner" 60 signup "$email" "$pw"
is_status 200 "setup: the owner signs up"
attempt "$owner" 60 signin "$email" "$pw"
is_status 303 "setup: and signs in"
[ "$(device | wc -c)" = 44 ]
ok $? "the browser gets a device cookie" "$(device)"
grep -qi '^set-cookie: weft_device=[A-Za-z0-9_-]\{43\}; Path=/signin; Max-Age=[0-9]*; HttpOnly; SameSite=Lax' "$HDRS"
ok $? "device cookie: sent only to /signin, HttpOnly" "$(grep -i weft_device "$HDRS")"
JAR=$owner
get /account --interface 127.0.0.60
c=$(grep -o 'name="csrf" value="[0-9a-f]*"' "$BODY" | head -1 | sed 's/.*value="//; s/"$//')
post /signout --interface 127.0.0.60 "${same[@]}" --data-urlencode "csrf=$c"
is_status 303 "setup: the owner signs out"
rl_reset

# ---------------------------------------------------------------- attack
# Eleven guesses from eleven addresses, each a fresh browser.
codes=
for i in $(seq 11); do
	attempt "$T_TMP/guess.$i" $((100 + i)) signin "$email" "guess $i of $n"
	codes="$codes $STATUS"
done
[ "$codes" = "$(printf ' 401%.0s' $(seq 10)) 429" ]
ok $? "a distributed guesser gets ten guesses, then 429" "$codes"
attempt "$T_TMP/guess.12" 112 signin "$email" "$pw"
is_status 429 "a browser that never signed in waits, right password or not"
[ -z "$(session)" ]
ok $? "no session for it"

# Another account's device cookie is no key to this one.
attempt "$T_TMP/mallory" 113 signup "mallory.$n@example.org" "mallory $n pass"
is_status 200 "setup: the guesser has an account of its own"
attempt "$T_TMP/mallory" 113 signin "mallory.$n@example.org" "mallory $n pass"
is_status 303 "setup: and has signed in with it"
sed -i '/weft_session/d' "$T_TMP/mallory"
attempt "$T_TMP/mallory" 114 signin "$email" "guess 13 of $n"
is_status 429 "its device cookie does not lift the owner's limit"
# Nor is a made-up one.
JAR=$T_TMP/forged
printf '127.0.0.1\tFALSE\t/signin\tFALSE\t0\tweft_device\t%s\n' \
    AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA >"$JAR"
attempt "$JAR" 115 signin "$email" "guess 14 of $n"
is_status 429 "a forged device cookie: limited"

# ---------------------------------------------------------------- owner
tok=$(JAR=$owner device)
attempt "$owner" 200 signin "$email" "$pw"
is_status 303 "the owner, from a fresh address, with the right password"
[ -n "$(session)" ]
ok $? "the owner has a session"
header_is Location "$WEFT_URL/feed" "to the feed"
grep -qi "^set-cookie: weft_device=$tok;" "$HDRS"
[ $? != 0 ] && [ "$(device | wc -c)" = 44 ]
ok $? "a new device token at sign-in (the old one is not reused)"

# The owner's browser has its own limit of ten attempts a minute, from
# whatever addresses (the sign-in above gave it a new token, so a new
# counter).
JAR=$owner
sed -i '/weft_session/d' "$JAR"
get /signin --interface 127.0.0.201
c=$(csrf)
codes=
for i in $(seq 11); do
	post /signin --interface "127.0.0.$((201 + i))" "${same[@]}" \
	    --data-urlencode "email=$email" --data-urlencode "password=typo number $i of $n" \
	    --data-urlencode "csrf=$c"
	codes="$codes $STATUS"
done
[ "$codes" = "$(printf ' 401%.0s' $(seq 10)) 429" ]
ok $? "the owner's browser: ten wrong passwords, then 429" "$codes"

rl_reset
done_testing
