#!/bin/bash
# t_llm_client.sh -- the shared LLM client (modules/core/llm.c) against
# the fake OpenAI-compatible server: streamed, whole and JSON-schema
# answers; 429 with Retry-After, 500, malformed and cut streams, a
# timeout, a stop from the caller, a refused connection.
. "$(dirname "$0")/lib.sh"
root=${WEFT_ROOT:-.}
bin=$root/build-san/tests/test_llm_live
[ -x "$bin" ] || { echo "1..0 # SKIP $bin not built"; exit 0; }
fakellm_start "" || { echo "Bail out! fake LLM server did not start"; exit 1; }
trap fakellm_stop EXIT
WEFT_FAKELLM_URL=$FAKELLM_URL "$bin" 2>/dev/null
