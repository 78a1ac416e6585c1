#!/bin/bash
# t_digest.sh -- issue 21's email digests through nginx and the local SMTP
# server (maildir $WEFT_VAR/mail): the setting on /account, a digest of
# what is followed (multipart text + HTML, RFC 8058 List-Unsubscribe
# headers) sent by "weftd -m accounts -x digest", nothing when nothing is
# new or not due, nothing to an unverified address, and the one-click
# unsubscribe link, which works without signing in.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"
: "${WEFT_ROOT:=$(cd "$(dirname "$0")/../.." && pwd)}"

rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
rcli --scan --pattern 'weft:rl:*' | while read -r k; do rcli del "$k" >/dev/null; done
rcli --scan --pattern 'weft:mailcap:*' | while read -r k; do rcli del "$k" >/dev/null; done
same=(-H "Origin: $WEFT_URL")
build=${WEFT_BUILD:-build-san}
digest() {
	WEFT_CONF=$WEFT_VAR/weft.conf "$WEFT_ROOT/$build/weftd" \
	    -c "$WEFT_VAR/weft.conf" -m accounts -d "$WEFT_ROOT/$build" \
	    -x digest >>"$T_TMP/digest.log" 2>&1
}
cat=$(sql "SELECT primary_category FROM papers GROUP BY 1
            ORDER BY count(*) DESC LIMIT 1 OFFSET 5")

email="digest.$$.$RANDOM@example.org"
pw="a long enough passphrase $$"
signup_verified "$email" "$pw"
ok $? "a verified account"
uid=$(sql "SELECT id FROM users WHERE email = '$email'")
get /account
csrf=$(form_csrf)
post /account/follows "${same[@]}" --data-urlencode "csrf=$csrf" \
    -d kind=category --data-urlencode "category=$cat"
is_status 303 "follows $cat"

# ---------------------------------------------------------------- setting
post /account/digest "${same[@]}" --data-urlencode "csrf=$csrf" -d digest=hourly
is_status 400 "digest=hourly: 400"
[ "$(sql "SELECT digest FROM users WHERE id = $uid")" = off ]
ok $? "... nothing written"
post /account/digest "${same[@]}" -d digest=daily
is_status 403 "no CSRF: 403"
post /account/digest "${same[@]}" --data-urlencode "csrf=$csrf" -d digest=daily
is_status 303 "digest=daily: 303"
[ "$(sql "SELECT digest FROM users WHERE id = $uid")" = daily ]
ok $? "... saved"
get /account
body_has '<option value="daily" selected' "/account shows it"

# ---------------------------------------------------------------- not due
n0=$(mail_count "$email")
digest
ok $? "weftd -x digest runs"
[ "$(mail_count "$email")" = "$n0" ]
ok $? "a digest turned on just now is not due: no mail"

# ---------------------------------------------------------------- due
# As if turned on two days ago: the papers loaded since are new.
sql "UPDATE users SET digest_since = now() - interval '2 days' WHERE id = $uid" >/dev/null
digest
ok $? "weftd -x digest runs"
[ "$(mail_count "$email")" = $((n0 + 1)) ]
ok $? "one digest received"
raw=$(grep -l "^To: $email" "$WEFT_VAR"/mail/new/* | xargs ls -t | head -1)
python3 - "$raw" "$cat" "$WEFT_URL" >"$T_TMP/check" 2>&1 <<'PY'
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
cat, base = sys.argv[2], sys.argv[3]
assert m["Subject"].startswith("Your daily weft digest: "), m["Subject"]
assert m.get_content_type() == "multipart/alternative", m.get_content_type()
lu = str(m["List-Unsubscribe"])
assert lu.startswith("<" + base + "/account/unsubscribe?token=") and lu.endswith(">"), lu
assert str(m["List-Unsubscribe-Post"]) == "List-Unsubscribe=One-Click"
assert m["Auto-Submitted"] == "auto-generated"
text = m.get_body(("plain",)).get_content()
html = m.get_body(("html",)).get_content()
assert "new in " + cat in text, text[:300]
assert "new in " + cat in html
assert "/papers/" in text and 'href="' + base + "/papers/" in html
assert lu[1:-1] in text, "the text has the link"
print(lu[1:-1])
PY
ok $? "multipart text + HTML, List-Unsubscribe (RFC 8058), why each item is there" \
    "$(cat "$T_TMP/check")"
unsub=$(tail -1 "$T_TMP/check")
since=$(sql "SELECT digest_since > now() - interval '1 minute' FROM users WHERE id = $uid")
[ "$since" = t ]
ok $? "the next digest starts now"
digest
[ "$(mail_count "$email")" = $((n0 + 1)) ]
ok $? "run again at once: no second digest"

# ---------------------------------------------------------------- nothing new
e2="digest2.$$.$RANDOM@example.org"
JAR=$T_TMP/jar2 signup_verified "$e2" "$pw"
ok $? "a second verified account"
u2=$(sql "SELECT id FROM users WHERE email = '$e2'")
sql "INSERT INTO follow_targets (user_id, kind, query) VALUES ($u2, 'search', 'zzqxjvw')" >/dev/null
sql "UPDATE users SET digest = 'weekly', digest_since = now() - interval '8 days' WHERE id = $u2" >/dev/null
n2=$(mail_count "$e2")
digest
[ "$(mail_count "$e2")" = "$n2" ]
ok $? "nothing new: no mail"
[ "$(sql "SELECT digest_since > now() - interval '1 minute' FROM users WHERE id = $u2")" = t ]
ok $? "... and the next digest starts now"

# ---------------------------------------------------------------- unverified
e3="digest3.$$.$RANDOM@example.org"
JAR=$T_TMP/jar3 get /signup
JAR=$T_TMP/jar3 post /signup "${same[@]}" --data-urlencode "email=$e3" \
    --data-urlencode "password=$pw" --data-urlencode "csrf=$(form_csrf)"
u3=$(sql "SELECT id FROM users WHERE email = '$e3'")
[ -n "$u3" ] && [ "$(sql "SELECT email_verified_at IS NULL FROM users WHERE id = $u3")" = t ]
ok $? "an unverified account"
sql "INSERT INTO follow_targets (user_id, kind, category) VALUES ($u3, 'category', '$cat')" >/dev/null
sql "UPDATE users SET digest = 'daily', digest_since = now() - interval '2 days' WHERE id = $u3" >/dev/null
n3=$(mail_count "$e3")
digest
[ "$(mail_count "$e3")" = "$n3" ]
ok $? "an unverified address gets no digest"

# ---------------------------------------------------------------- unsubscribe
path=${unsub#"$WEFT_URL"}
JAR=$T_TMP/nobody get "$path"
is_status 200 "the unsubscribe link opens, signed out"
body_has 'action="/account/unsubscribe"' "... a form"
[ "$(sql "SELECT digest FROM users WHERE id = $uid")" = daily ]
ok $? "... and its GET changes nothing"
# RFC 8058: a POST of "List-Unsubscribe=One-Click" to the URL, no cookie,
# no Origin.
JAR=$T_TMP/nobody post "$path" -d List-Unsubscribe=One-Click
is_status 200 "one-click POST: 200"
[ "$(sql "SELECT digest FROM users WHERE id = $uid")" = off ]
ok $? "... digests are off"
JAR=$T_TMP/nobody post "$path" -d List-Unsubscribe=One-Click
is_status 404 "the link again: 404"
JAR=$T_TMP/nobody post "/account/unsubscribe?token=nonsense" -d List-Unsubscribe=One-Click
is_status 404 "a bad token: 404"
sleep 0.3
! grep -rqF "${unsub##*token=}" "$WEFT_VAR"/log/*.log 2>/dev/null
ok $? "the token is in no worker log"
sql "UPDATE users SET digest_since = now() - interval '2 days' WHERE id = $uid" >/dev/null
digest
[ "$(mail_count "$email")" = $((n0 + 1)) ]
ok $? "unsubscribed: no more digests"

done_testing
