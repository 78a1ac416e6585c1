#!/bin/sh
# vectors.sh -- query time of the semantic index at the size of arXiv:
# weft-vectors bench over 2.5 M synthetic papers x 256 int8 dims, each
# a blend of papers of a real index (INDEX, by default the newest of
# var/vectors, else random topics), queries embedded from text and
# searched for the top 200; one query at a time, then two at once (two
# workers on a 2-core machine).  Also prints the recall@200 of the
# two-stage search against the brute force, the memory, and the load
# average while it ran (other work on the machine slows it down).
#
#   tests/bench/vectors.sh [BUILD_DIR] [PAPERS] [INDEX]
set -eu
b=${1:-build}
n=${2:-2500000}
f=${3:-var/vectors/current.wvec}
if [ -e "$f" ]; then
	set -- --file "$f"
else
	echo "vectors.sh: no index at $f: synthetic papers of random topics" >&2
	set --
fi
uptime
"$b/weft-vectors" bench --papers "$n" --queries 200 --threads 2 "$@"
