#!/bin/bash
# tests/bench/chat_retrieval.sh -- retrieval time per chat question at
# 110,000 papers, per scope.  Not a timed test: it prints figures.
#
#   tests/bench/chat_retrieval.sh [QUESTIONS]       # default 40 a scope
#
# Environment: WEFT_BENCH_VAR (default var/bench: a throwaway stack of
# its own, never anybody's data), WEFT_BENCH_PORT (8195),
# WEFT_BENCH_BUILD (build), WEFT_BENCH_PAPERS (110000),
# WEFT_BENCH_NOUP=1 (use the stack already running there as it is).
#
# Starts the stack without chat quotas and without an LLM endpoint
# (extracts: no model time in the figures), scales the bundled papers
# with tests/bench/search_scale.sql, builds the semantic index over them,
# signs a user up (following the ten researchers with most papers), then
# asks QUESTIONS questions made of words of real titles ("What is known
# about ...?") in each scope: the whole archive, the busiest researcher's
# papers, the followed researchers' papers, a search ("learning") and
# one paper.  The chat worker logs the time of each retrieval (its
# candidates' statement, the vector side, the hybrid ranking and the
# reading of the best papers: retrieve_ms); the script prints p50, p95
# and max per scope from that log, and the load average.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
var=$(realpath -m "${WEFT_BENCH_VAR:-$root/var/bench}")
cd "$root"
nq=${1:-40}
port=${WEFT_BENCH_PORT:-8195}
build=${WEFT_BENCH_BUILD:-build}
target=${WEFT_BENCH_PAPERS:-110000}

[ -n "${WEFT_BENCH_NOUP:-}" ] ||
	WEFT_NGINX_CACHE=off WEFT_CHAT_PER_MINUTE=0 \
	    WEFT_CHAT_GLOBAL_PER_MINUTE=0 WEFT_LLM_URL='' \
	    conf/local.sh up --var "$var" --port "$port" --build "$build" \
	    >/dev/null
export WEFT_URL=http://127.0.0.1:$port WEFT_VAR=$var WEFT_ROOT=$root
. tests/integration/lib.sh
db() { psql -h "$var/pg/run" -U weft -d weft -Atqc "$1"; }

n=$(db "SELECT count(*) FROM papers")
if [ "$n" -lt "$target" ]; then
	echo "scaling $n papers to at least $target (a few minutes)" >&2
	psql -h "$var/pg/run" -U weft -d weft -q -v target="$target" \
	    -f tests/bench/search_scale.sql >/dev/null
	n=$(db "SELECT count(*) FROM papers")
fi
WEFT_CONF=$var/weft.conf "$root/$build/weft-vectors" build >&2
redis-cli -s "$var/redis/redis.sock" INCR weft:gen >/dev/null
sleep 3 # workers look at the cache generation every 2 s
echo "corpus: $n papers, semantic index of" \
    "$(db "SELECT papers FROM vector_index ORDER BY version DESC LIMIT 1")"

email="bench-$$-$RANDOM@example.org"
signup_verified "$email" "a bench passphrase $$" || {
	echo "sign-up failed" >&2
	exit 1
}
uid=$(db "SELECT id FROM users WHERE lower(email) = lower('$email')")
db "INSERT INTO follows (user_id, researcher_id)
    SELECT $uid, researcher_id FROM authorships
     WHERE researcher_id IS NOT NULL
     GROUP BY researcher_id ORDER BY count(*) DESC, researcher_id LIMIT 10
    ON CONFLICT DO NOTHING" >/dev/null
get /chat -H 'Accept: application/json'
csrf=$(jq -r .csrf "$BODY")
rid=$(db "SELECT researcher_id FROM authorships WHERE researcher_id IS NOT NULL
    GROUP BY researcher_id ORDER BY count(*) DESC, researcher_id LIMIT 1")
paper=$(db "SELECT arxiv_id FROM papers ORDER BY published DESC, id LIMIT 1")
echo "researcher $rid: $(db "SELECT count(*) FROM authorships
    WHERE researcher_id = $rid") papers; followed:" \
    "$(db "SELECT count(DISTINCT a.paper_id) FROM authorships a JOIN follows f
    ON f.researcher_id = a.researcher_id WHERE f.user_id = $uid") papers;" \
    "search 'learning': $(db "SELECT count(*) FROM papers WHERE search_vector
    @@ websearch_to_tsquery('english', 'learning')") papers"

# Questions: 2 to 5 words of real titles, the same for every scope.
db "SELECT 'What is known about ' ||
       array_to_string((regexp_split_to_array(lower(title), '\s+'))
           [1 + id % 3 : 2 + id % 3 + id % 4], ' ') || '?'
      FROM papers WHERE source <> 'bench' AND arxiv_id NOT LIKE '9___.%'
     ORDER BY md5(id::text) LIMIT $nq" >"$T_TMP/questions"

log=$var/log/chat.log
printf '%-12s %4s %8s %8s %8s\n' scope n 'p50 ms' 'p95 ms' 'max ms'
for scope in all researcher followed search paper; do
	case $scope in
	researcher) id=$rid ;;
	search) id=learning ;;
	paper) id=$paper ;;
	*) id= ;;
	esac
	before=$(wc -l <"$log")
	while IFS= read -r q; do
		post /chat -H 'Accept: application/json' -H "Origin: $WEFT_URL" \
		    --data-urlencode "csrf=$csrf" --data-urlencode "question=$q" \
		    --data-urlencode "scope=$scope" --data-urlencode "id=$id" \
		    --data-urlencode mode=extractive
		[ "$STATUS" = 201 ] || echo "$scope: HTTP $STATUS for $q" >&2
	done <"$T_TMP/questions"
	tail -n +$((before + 1)) "$log" | grep -o "scope=$scope [^ ]* retrieve_ms=[0-9.]*" |
	    sed 's/.*retrieve_ms=//' | sort -n | awk -v s="$scope" '
	    { a[NR] = $1 }
	    END { printf "%-12s %4d %8.1f %8.1f %8.1f\n", s, NR,
		a[int((NR + 1) / 2)], a[int(NR * 0.95 + 0.999)], a[NR] }'
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
