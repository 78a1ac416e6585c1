#!/bin/sh
# vectors.sh -- query time of the semantic index at the size of arXiv:
# weft-vectors bench over synthetic 2.5 M x 256 int8 vectors, one query
# at a time and two at once (two workers on a 2-core machine), next to
# the time of simply reading that much memory on this machine, the bound
# a brute-force scan cannot beat.
#
#   tests/bench/vectors.sh [BUILD_DIR] [PAPERS]
set -eu
b=${1:-build}
n=${2:-2500000}
"$b/weft-vectors" bench --papers "$n" --queries 200 --threads 2
