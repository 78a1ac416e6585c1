#!/bin/bash
# t_accounts_unicode.sh -- every Unicode spelling of an address is one
# account with one set of counters (issue 18): K (KELVIN SIGN), fullwidth
# letters and a zero-width space neither open a second account nor get
# round the account's sign-in limit, and a dotted capital I is not a way
# into the account of plain i.  Before the fix the limiter lower-cased
# ASCII only while PostgreSQL's lower() folded K and I-dot, so with the
# account's counter full the Kelvin and I-dot spellings signed in, and the
# fullwidth and zero-width ones signed up as second accounts.
#
# Each attempt comes from its own loopback address (curl --interface
# 127.0.0.N: Linux routes all of 127/8 to lo) so that only the account's
# counter can stop it, never the per-address one.
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
same=(-H "Origin: $WEFT_URL")
# attempt FORM ADDR EMAIL PASSWORD: a POST of FORM from a browser that
# never signed in (a new cookie jar) at 127.0.0.ADDR.
attempt() {
	JAR=$T_TMP/jar.$2.$RANDOM
	get "/$1" --interface "127.0.0.$2"
	post "/$1" --interface "127.0.0.$2" "${same[@]}" \
	    --data-urlencode "email=$3" --data-urlencode "password=$4" \
	    --data-urlencode "csrf=$(csrf)"
}

rl_reset
n=$$$RANDOM
plain="kim.$n@example.org"
kelvin="$(printf '\xe2\x84\xaa')im.$n@example.org"                 # K
idot="k$(printf '\xc4\xb0')m.$n@example.org"                      # kİm
full="$(printf '\xef\xbd\x8b\xef\xbd\x89\xef\xbd\x8d').$n@example.org" # ｋｉｍ
fullup="$(printf '\xef\xbc\xab\xef\xbc\xa9\xef\xbc\xad').$n@example.org" # ＫＩＭ
zwsp="k$(printf '\xe2\x80\x8b')im.$n@example.org"                 # k<ZWSP>im
pw="unicode passphrase $n"

# ---------------------------------------------------------------- accounts
attempt signup 2 "$plain" "$pw"
is_status 200 "sign up as $plain (check your email)"
[ "$(sql "SELECT email_key FROM users WHERE email = '$plain'")" = "$plain" ]
ok $? "the account key is stored"
# Sign-up answers the same for a taken address (it must not tell); the
# spellings must still not open a second account.
for v in "$kelvin" "$full" "$fullup" "$zwsp"; do
	attempt signup 3 "$v" "other passphrase $n"
	is_status 200 "sign-up as '$v': the same answer"
done
[ "$(sql "SELECT count(*) FROM users WHERE email LIKE '%.$n@example.org'")" = 1 ]
ok $? "one account for every spelling"
rl_reset

# ---------------------------------------------------------------- limits
# Ten wrong passwords fill the account's counter (limit 10 a minute).
JAR=$T_TMP/guesser
get /signin --interface 127.0.0.4
c=$(csrf)
n401=0
for i in $(seq 10); do
	post /signin --interface 127.0.0.4 "${same[@]}" \
	    --data-urlencode "email=$plain" \
	    --data-urlencode "password=wrong guess $i" --data-urlencode "csrf=$c"
	[ "$STATUS" = 401 ] && n401=$((n401 + 1))
done
[ $n401 = 10 ]
ok $? "ten wrong passwords: 401 each" "$n401"

attempt signin 5 "$kelvin" "$pw"
is_status 429 "KELVIN SIGN spelling, right password, fresh address: limited"
[ -z "$(session)" ]
ok $? "no session for the Kelvin spelling"
attempt signin 6 "$full" "$pw"
is_status 429 "fullwidth spelling: limited"
attempt signin 7 "$fullup" "wrong guess 11"
is_status 429 "fullwidth capitals: limited"
attempt signin 8 "$zwsp" "$pw"
is_status 429 "zero-width space: limited"
# İ folds to i + U+0307 (Unicode full case folding), another address:
# it neither reaches the account nor touches its counter.
attempt signin 9 "$idot" "$pw"
is_status 401 "dotted capital I, right password: not this account"
[ -z "$(session)" ]
ok $? "no session for the dotted-I spelling"
[ "$(sql "SELECT count(*) FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE u.email = '$plain'")" = 0 ]
ok $? "the account has no session (sign-up opens none)"

# Once the window is over, any spelling of the address is the account.
rl_reset
attempt signin 10 "$kelvin" "$pw"
is_status 303 "KELVIN SIGN spelling signs in to the account"
[ -n "$(session)" ]
ok $? "a session"
attempt signin 11 "$fullup" "$pw"
is_status 303 "fullwidth capitals sign in to the account"

rl_reset
done_testing
