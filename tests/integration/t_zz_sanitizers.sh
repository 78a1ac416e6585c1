#!/bin/bash
# Runs last: no worker wrote a sanitizer report or crashed during the
# integration tests.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?}"
logs=$(ls "$WEFT_VAR"/log/*.log 2>/dev/null)
! grep -l -E 'AddressSanitizer|runtime error:|LeakSanitizer' $logs >/dev/null
ok $? "no sanitizer report in the worker logs" \
    "$(grep -h -E -m3 'AddressSanitizer|runtime error:' $logs)"
# Tests kill workers on purpose (kill -9, or SIGTERM and a clean exit 0);
# a crash shows as another signal or a non-zero status (ASan exits 1).
crashes=$(grep -h '"event":"worker"' $logs | grep 'died' |
    grep -v -e 'signal 9)' -e 'status 0)')
[ -z "$crashes" ]
ok $? "no worker crashed" "$(echo "$crashes" | head -3)"
done_testing
