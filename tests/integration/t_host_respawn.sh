#!/bin/bash
# weftd under load: kill -9 a pages worker while wrk runs; the host
# restarts it, and nginx retries the GETs that the dead worker dropped on
# another worker of the pool, so no request fails.  Then SIGHUP replaces
# the workers one by one without dropping requests either.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?}"

parent=$(cat "$WEFT_VAR/run/weftd-pages.pid")
kids() { pgrep -P "$parent" | sort; }
before=$(kids | wc -l)
[ "$before" -ge 1 ]
ok $? "weftd pages has workers ($before)"

url="$WEFT_URL/about"
wrk -t1 -c8 -d4s "$url" >"$T_TMP/wrk1" 2>&1 &
wpid=$!
sleep 1
victim=$(kids | head -1)
kill -9 "$victim"
sleep 1
victim2=$(kids | tail -1)
kill -9 "$victim2"
wait "$wpid"

grep -q 'Non-2xx' "$T_TMP/wrk1"
ok $((!$?)) "no failed request while workers were killed" \
    "$(grep -E 'Non-2xx|Socket errors' "$T_TMP/wrk1")"
reqs=$(awk '/requests in/ {print $1}' "$T_TMP/wrk1")
[ "${reqs:-0}" -gt 100 ]
ok $? "the load ran ($reqs requests)"

for _ in $(seq 30); do
	[ "$(kids | wc -l)" -ge "$before" ] && break
	sleep 0.2
done
after=$(kids | wc -l)
[ "$after" -ge "$before" ]
ok $? "the host restarted the killed workers ($after of $before)"
kids | grep -qx "$victim"
ok $((!$?)) "the killed worker is gone"
kill -0 "$parent"
ok $? "the host itself survived"

# A reload under load: new workers take over, old ones finish and leave.
old=$(kids | tr '\n' ' ')
wrk -t1 -c8 -d3s "$url" >"$T_TMP/wrk2" 2>&1 &
wpid=$!
sleep 1
kill -HUP "$parent"
wait "$wpid"
grep -q 'Non-2xx' "$T_TMP/wrk2"
ok $((!$?)) "no failed request across a SIGHUP reload" \
    "$(grep -E 'Non-2xx|Socket errors' "$T_TMP/wrk2")"
sleep 0.5
new=$(kids | tr '\n' ' ')
[ "$old" != "$new" ] && [ "$(kids | wc -l)" -ge "$before" ]
ok $? "SIGHUP replaced the workers ($old -> $new)"

get /about
is_status 200 "the site still answers"
done_testing
