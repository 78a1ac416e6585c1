#!/bin/bash
# Runs last: no worker wrote a sanitizer report or crashed during the
# integration tests.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?}"
logs=$(ls "$WEFT_VAR"/log/*.log 2>/dev/null)
! grep -l -E 'AddressSanitizer|runtime error:|LeakSanitizer' $logs >/dev/null
ok $? "no sanitizer report in the worker logs" \
    "$(grep -h -E -m3 'AddressSanitizer|runtime error:' $logs)"
! grep -h '"event":"worker"' $logs | grep 'died' | grep -vq 'signal 9'
ok $? "no worker died" "$(grep -h 'died' $logs | head -3)"
done_testing
