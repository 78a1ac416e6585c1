#!/bin/bash
# t_api_keys.sh -- API keys (issue 22): a signed-in user creates, lists
# and revokes named keys on /account (the secret shown once); a key in
# "Authorization: Bearer" gets the key's limit instead of its address's,
# with RateLimit headers on every answer and no shared cache; a revoked
# or unknown key gets 401 at once; no key ever reaches a log.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"

rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
rb_reset() {
	rcli --scan --pattern 'weft:rb:*' | while read -r k; do
		rcli del "$k" >/dev/null
	done
}
same=(-H "Origin: $WEFT_URL")
n=$$$RANDOM
email="keys.$n@example.org"
pw="keys passphrase $n"

signup_verified "$email" "$pw"
ok $? "setup: a verified, signed-in user"

# ---------------------------------------------------------------- create
get /account
is_status 200 "/account"
body_has 'action="/account/keys"' "offers to create an API key"
post /account/keys "${same[@]}" --data-urlencode "name=" \
    --data-urlencode "csrf=$(form_csrf)"
is_status 400 "a key needs a name"
post /account/keys --data-urlencode "name=x" \
    --data-urlencode "csrf=$(form_csrf)" -H "Origin: http://evil.example"
is_status 403 "a foreign Origin is refused"
get /account
post /account/keys "${same[@]}" --data-urlencode "name=my agent $n" \
    --data-urlencode "csrf=$(form_csrf)"
is_status 200 "a key is made"
key=$(grep -o 'weft_[A-Za-z0-9_-]\{43\}' "$BODY" | head -1)
[ -n "$key" ]
ok $? "its secret is shown" "$key"
header_has cache-control "no-store" "that page is not stored"
get /account
body_has "my agent $n" "the key is listed by name"
body_lacks "$key" "the secret is never shown again"
get /account -H 'Accept: application/json'
kid=$(jq -r '.api_keys.keys[0].id' <"$BODY")
[ "$kid" -gt 0 ] 2>/dev/null
ok $? "the JSON account lists it with its id" "$kid"
[ "$(sql "SELECT count(*) FROM api_keys WHERE key_hash = encode(sha256('x'), 'hex')")" = 0 ] &&
    [ "$(sql "SELECT count(*) FROM api_keys WHERE name = 'my agent $n' AND key_hash ~ '^[0-9a-f]{64}\$'")" = 1 ]
ok $? "the database holds its hash"
[ "$(sql "SELECT count(*) FROM api_keys WHERE key_hash LIKE '%${key#weft_}%'")" = 0 ]
ok $? "and not the secret"

# ---------------------------------------------------------------- use
q=$(curl -s "$WEFT_URL/llms.txt" | grep -o '"key";q=[0-9]*' | head -1 |
    sed 's/.*q=//')
rq=$(curl -s "$WEFT_URL/llms.txt" | grep -o '"read";q=[0-9]*' | head -1 |
    sed 's/.*q=//')
rb_reset
a=127.0.0.$((100 + RANDOM % 100))
saved=$JAR
JAR=$T_TMP/anon
get "/papers/2512.20345?format=json" --interface "$a" \
    -H "Authorization: Bearer $key" -L
is_status 200 "a read with the key"
header_is ratelimit-policy "\"key\";q=$q;w=60" "carries the key's policy"
header_has ratelimit '"key";r=' "and what is left"
header_absent x-weft-cache "and is answered by a worker, not a cache"
# Past the address's limit, the key still reads.
urls=()
for i in $(seq "$((rq + 5))"); do
	urls+=(-o /dev/null "$WEFT_URL/no-such-page-$n-$i")
done
codes=$(curl -s --interface "$a" -H "Authorization: Bearer $key" \
    -w '%{http_code}\n' "${urls[@]}")
[ "$(echo "$codes" | grep -cv '^404$')" = 0 ]
ok $? "the key raises the limit: $((rq + 5)) reads from one address pass" \
    "$(echo "$codes" | sort | uniq -c)"
codes=$(curl -s --interface "$a" -w '%{http_code}\n' "${urls[@]}")
echo "$codes" | grep -q '^429$'
ok $? "while the same address without the key is limited"
[ "$(rcli get "weft:keyuse:$kid")" -ge "$((rq + 6))" ]
ok $? "the key's reads are counted" "$(rcli get "weft:keyuse:$kid")"

get "/no-such-page-$n" -H "Authorization: Bearer weft_${key#weft_x}x"
is_status 401 "an unknown key: 401"
header_is www-authenticate 'Bearer realm="weft", error="invalid_token"' \
    "with WWW-Authenticate"
get "/about" -H "Authorization: Basic Zm9vOmJhcg=="
is_status 401 "another scheme: 401"

# ---------------------------------------------------------------- revoke
JAR=$saved
get /account
post /account/keys/revoke "${same[@]}" --data-urlencode "id=$kid" \
    --data-urlencode "csrf=$(form_csrf)"
is_status 303 "the key is revoked"
get /account
body_lacks "my agent $n" "and no longer listed"
JAR=$T_TMP/anon
get "/papers/2512.20345?format=json" -H "Authorization: Bearer $key" -L
is_status 401 "a revoked key gets 401 at once"
json_is '.error.status' 401 "in the representation asked for"

# ---------------------------------------------------------------- logs
sleep 0.5
! grep -rqF "${key#weft_}" "$WEFT_VAR/log" "$WEFT_VAR/nginx" 2>/dev/null
ok $? "the key is in no log (workers' and nginx's)"

done_testing
