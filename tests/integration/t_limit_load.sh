#!/bin/bash
# t_limit_load.sh -- the read limiter under 64 connections, briefly
# (tests/bench/limit_load.py --quick; the full run and its figures are in
# tests/bench/README.md): clients under the limit see no error, clients
# past it get 429 with its headers, cached pages stay 200 for everyone.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set}"
: "${WEFT_ROOT:?WEFT_ROOT must be set}"

rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
rcli --scan --pattern 'weft:rb:*' | while read -r k; do
	rcli del "$k" >/dev/null
done
out=$(WEFT_URL=$WEFT_URL python3 "$WEFT_ROOT/tests/bench/limit_load.py" \
    --quick 2>&1)
ok $? "64 connections: the limiter holds" "$out"
echo "$out" | sed 's/^/# /'
done_testing
