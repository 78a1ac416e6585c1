#!/bin/bash
# tests/run.sh -- every test: builds with AddressSanitizer and UBSan,
# starts a fresh PostgreSQL, Redis, weftd pool and nginx under var/test,
# runs the unit tests and the integration tests (HTTP through nginx) with
# prove, stops the servers.  `make test` calls it; so does .ci/run.
#
#   tests/run.sh              everything (with each fuzz target briefly)
#   tests/run.sh unit         unit tests only (no servers)
#   tests/run.sh integration  integration tests only
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
what=${1:-all}
var=$root/var/test
port=${WEFT_TEST_PORT:-8091}

conf/local.sh deps-test || exit 1
make -s SAN=1 all unit-bins || exit 1

tests=()
if [ "$what" != integration ]; then
	# tests/static: `make lint` (clang-format, source rules, shellcheck).
	tests+=(tests/static/t_*.sh build-san/tests/test_*)
	# Every fuzz target a few seconds (WEFT_FUZZ_SECONDS, default 5).
	# A target that does not build fails the run: never skipped.
	if [ "$what" != unit ]; then
		make -s FUZZ=1 fuzz-bins || exit 1
		tests+=(tests/fuzz/t_fuzz.sh)
	fi
fi
if [ "$what" != unit ]; then
	conf/local.sh down --var "$var" >/dev/null 2>&1
	rm -rf "$var"
	# The fake OpenAI-compatible server (tests/fakellm) is the stack's
	# LLM endpoint: chat and analyse answer through it; the tests that
	# need no model ask for extracts.
	python3 tests/fakellm/server.py --port "${WEFT_FAKELLM_PORT:-8095}" \
	    --events "$var/fakellm.events" >/dev/null 2>&1 &
	fakellm=$!
	export WEFT_LLM_URL=http://127.0.0.1:${WEFT_FAKELLM_PORT:-8095}/v1
	export WEFT_LLM_MODEL=fake WEFT_LLM_TIMEOUT=10
	trap 'conf/local.sh down --var "$var" >/dev/null 2>&1; kill "$fakellm"' EXIT
	# nginx's own cache stays off here so that a test reading back
	# what it wrote sees it; the cache tests switch it on themselves.
	# The papers' analysis is done, and extractive, before any test
	# reads a paper (t_analyse tries the fake endpoint itself).
	WEFT_NGINX_CACHE=off WEFT_ANALYSE_WAIT=1 WEFT_ANALYSE_EXTRACTIVE=1 \
	    conf/local.sh up --var "$var" --port "$port" \
	    --build build-san || exit 1
	export WEFT_URL=http://127.0.0.1:$port WEFT_VAR=$var WEFT_ROOT=$root
	chmod +x tests/integration/t_*.sh
	tests+=(tests/integration/t_*.sh)
fi
prove -f --timer --exec '' "${tests[@]}"
