#!/bin/sh
# t_fuzz.sh -- every libFuzzer target briefly, as TAP for prove (run by
# tests/run.sh after `make FUZZ=1 fuzz-bins`).  WEFT_FUZZ_SECONDS per
# target (default 5); the binaries are in build-fuzz/fuzz.
root=$(cd "$(dirname "$0")/../.." && pwd)
exec "$root/tests/fuzz/run.sh" --tap "$root/${WEFT_FUZZ_BUILD:-build-fuzz}/fuzz" \
    "${WEFT_FUZZ_SECONDS:-5}"
