#!/bin/bash
# t_accounts_email_keys.sh -- accounts from before 0016 whose addresses
# SQL could not key (non-ASCII) get their key from the accounts workers
# when they start, oldest first; of two that fold to one key the older
# keeps it and the later is kept, logged, and cannot be signed in to by
# email (sql/schema/0016_email_fold.sql, README "Email addresses").
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
same=(-H "Origin: $WEFT_URL")
signin() {
	JAR=$T_TMP/jar.$RANDOM
	get /signin
	post /signin "${same[@]}" --data-urlencode "email=$1" \
	    --data-urlencode "password=$2" --data-urlencode "csrf=$(csrf)"
}

rl_reset
n=$$$RANDOM
pw="legacy passphrase $n"
JAR=$T_TMP/setup
get /signup
post /signup "${same[@]}" --data-urlencode "email=setup.$n@example.org" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$(csrf)"
is_status 200 "setup: an account whose password hash the others borrow"
hash=$(sql "SELECT password_hash FROM users WHERE email = 'setup.$n@example.org'")

# Three accounts as 0016 leaves non-ASCII ones: no key yet.
older="carol.$n@example.org"
later="$(printf '\xef\xbd\x83')arol.$n@example.org" # fullwidth c
sharp="Stra$(printf '\xc3\x9f')e.$n@example.de"
for e in "$older" "$later" "$sharp"; do
	sql "INSERT INTO users (email, password_hash) VALUES ('$e', '$hash')"
done
id_older=$(sql "SELECT id FROM users WHERE email = '$older'")
id_later=$(sql "SELECT id FROM users WHERE email = '$later'")
id_sharp=$(sql "SELECT id FROM users WHERE email = '$sharp'")
[ "$(sql "SELECT count(*) FROM users WHERE email_key IS NULL
    AND id IN ($id_older, $id_later, $id_sharp)")" = 3 ]
ok $? "setup: three accounts without a key"

# New workers (SIGHUP replaces them one by one) key them at start.
pidf=$WEFT_VAR/run/weftd-accounts.pid
log=$WEFT_VAR/log/accounts.log
lines=$(wc -l <"$log")
kill -HUP "$(cat "$pidf")"
for _ in $(seq 100); do
	[ -n "$(sql "SELECT email_key FROM users WHERE id = $id_sharp")" ] &&
	    break
	sleep 0.1
done
[ "$(sql "SELECT email_key FROM users WHERE id = $id_older")" = "$older" ]
ok $? "the older account gets the key"
[ "$(sql "SELECT email_key FROM users WHERE id = $id_sharp")" = "strasse.$n@example.de" ]
ok $? "sharp s: the key folds it to ss"
[ "$(sql "SELECT count(*) FROM users WHERE id = $id_later AND email_key IS NULL")" = 1 ]
ok $? "the later account is kept, without a key"
for _ in $(seq 50); do
	tail -n +"$((lines + 1))" "$log" | grep -q "user $id_later: the address folds to that of user $id_older" && break
	sleep 0.1
done
tail -n +"$((lines + 1))" "$log" | grep -q "user $id_later: the address folds to that of user $id_older"
ok $? "and logged with both ids"
# Wait for the pool to be whole again before the next requests.
sleep 1

signin "CAROL.$n@example.org" "$pw"
is_status 303 "any spelling signs in to the older account"
[ "$(sql "SELECT s.user_id FROM sessions s ORDER BY s.created_at DESC LIMIT 1")" = "$id_older" ]
ok $? "as the older account"
signin "$later" "$pw"
is_status 303 "the later spelling is the older account too"
[ "$(sql "SELECT s.user_id FROM sessions s ORDER BY s.created_at DESC LIMIT 1")" = "$id_older" ]
ok $? "(not the later one)"
signin "strasse.$n@example.de" "$pw"
is_status 303 "ss signs in to the sharp-s account"
[ "$(sql "SELECT s.user_id FROM sessions s ORDER BY s.created_at DESC LIMIT 1")" = "$id_sharp" ]
ok $? "as that account"

# Leave no unkeyed account behind to be logged at every start.
sql "DELETE FROM users WHERE id IN ($id_older, $id_later, $id_sharp)"
rl_reset
done_testing
