#!/bin/bash
# chat_ttfb.sh -- time to the first byte of a streamed chat answer
# through the whole stack (nginx, the chat worker, retrieval, the fake
# LLM), the fake's own latency subtracted.
#
#   WEFT_URL=http://127.0.0.1:PORT JAR=cookies CSRF=token \
#       tests/bench/chat_ttfb.sh [RUNS] [LATENCY_MS] [SCOPE] [ID]
#
# JAR is a curl cookie jar of a signed-in session and CSRF its token
# (GET /chat as JSON).  Each run asks with "fake:latency=N" and times
# from the request to the first "event: delta" line; prints each time
# minus N, then the median.  The stack's per-user quota is 10 questions
# a minute: raise chat_per_minute or keep RUNS under it.
set -eu
runs=${1:-9} lat=${2:-200} scope=${3:-paper} id=${4:-}
: "${WEFT_URL:?}" "${JAR:?}" "${CSRF:?}"
ts=()
for _ in $(seq "$runs"); do
	t0=$(date +%s%N)
	t1=$(curl -s -N --max-time 30 -b "$JAR" -H 'Accept: text/event-stream' \
	    -H "Origin: $WEFT_URL" --data-urlencode "csrf=$CSRF" \
	    --data-urlencode "question=What is this about? fake:latency=$lat" \
	    --data-urlencode "scope=$scope" --data-urlencode "id=$id" \
	    "$WEFT_URL/chat" | while IFS= read -r l; do
		if [ "$l" = "event: delta" ]; then date +%s%N; break; fi
	done)
	[ -n "$t1" ] || { echo "no delta event" >&2; exit 1; }
	ms=$(( (t1 - t0) / 1000000 - lat ))
	ts+=("$ms")
	echo "ttfb_ms=$ms"
done
printf '%s\n' "${ts[@]}" | sort -n | awk '{ a[NR] = $1 }
    END { printf "median_ms=%s runs=%d\n", a[int((NR + 1) / 2)], NR }'
