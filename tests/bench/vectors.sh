#!/bin/sh
# vectors.sh -- query time of the semantic index at the size of arXiv:
# weft-vectors bench over 2.5 M synthetic papers x 256 int8 dims, each
# a blend of papers of a real index (INDEX, by default the newest of
# var/vectors, else random topics), written with the lists (the IVF) a
# build would learn for them.  Prints how clustered the papers are
# (list sizes, cosine to the centroid, to the 1st and 16th neighbour),
# then recall and microseconds a query against the brute force for a
# few numbers of lists read: "similar" (a paper's vector, top 16, as the
# paper page asks) and text queries (embedded, top 200, as search asks;
# lines of TEXTS, else six random words); then vec_search one query at
# a time and two at once (two workers on a 2-core machine), the memory,
# and the load average while it ran (other work on the machine slows it
# down: the recall is exact, the times are the best of three passes).
# PAPERS 0 measures INDEX's own papers instead of synthetic ones (the
# blends make neighbours closer than real papers are at a million).
#
#   tests/bench/vectors.sh [BUILD_DIR] [PAPERS] [INDEX] [TEXTS]
set -eu
b=${1:-build}
n=${2:-2500000}
f=${3:-var/vectors/current.wvec}
t=${4:-}
if [ -e "$f" ]; then
	set -- --file "$f"
elif [ "$n" = 0 ]; then
	echo "vectors.sh: PAPERS 0 needs an index, none at $f" >&2
	exit 2
else
	echo "vectors.sh: no index at $f: synthetic papers of random topics" >&2
	set --
fi
[ -z "$t" ] || set -- "$@" --texts "$t"
uptime
"$b/weft-vectors" bench --papers "$n" --queries 200 --threads 2 "$@"
