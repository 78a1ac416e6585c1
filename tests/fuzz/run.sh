#!/bin/sh
# run.sh -- runs every libFuzzer target in BINDIR, briefly or long.
#
#   tests/fuzz/run.sh [--tap] BINDIR SECONDS
#   tests/fuzz/run.sh --long RUNS [BUDGET] BINDIR [NAME...]
#
# Brief mode runs each target for SECONDS.  With --tap each target is
# one TAP line ("ok N - fuzz_x: E execs") and the plan comes last, for
# prove (tests/fuzz/t_fuzz.sh).
# Long mode runs each target, one after another, until it has executed
# RUNS inputs (libFuzzer -runs), and prints a table: executions, wall
# time, executions per second, coverage (cov, ft), corpus size and the
# verdict.  BUDGET, if given, is a total time limit in seconds shared
# fairly: each target may use the time left divided by the targets
# left, so a target that is too slow stops early and shows "partial";
# BUDGET 0 means no time limit.  NAMEs (e.g. "oai atom") limit the run
# to those targets, in that order.
# Each fuzz_NAME starts from the seeds in tests/fuzz/corpus/NAME/, copied
# to a temporary directory so that the inputs a run discovers do not end
# up in the repository.  Exits non-zero if any target crashed.  Crash
# inputs are kept in the temporary directory, whose path is printed (in
# long mode always, so that the grown corpora can be merged back with
# -merge=1).  WEFT_FUZZ_WORK=DIR uses DIR (kept) instead of a temporary
# directory: a long run started again with the same DIR resumes from the
# corpora it had grown.
# Per-target libFuzzer flags (-max_len, -dict) are read from
# tests/fuzz/options ("NAME flags..." lines).  ASan runs with a 16 MB
# quarantine and 3-frame allocation stacks unless ASAN_OPTIONS says
# otherwise: the default 256 MB quarantine makes every allocation touch
# fresh pages (page faults were a third of the XML targets' time); a
# use after free within one input is still caught, and a crash input
# rerun by hand gives the full stacks.

set -u

usage() {
	echo "usage: $0 [--tap] BINDIR SECONDS" >&2
	echo "       $0 --long RUNS [BUDGET] BINDIR [NAME...]" >&2
	exit 2
}

tap=0
long=0
runs=0
budget=0
case "${1:-}" in
--tap)
	tap=1
	shift
	[ $# -eq 2 ] || usage
	bindir=$1
	secs=$2
	;;
--long)
	long=1
	shift
	[ $# -ge 2 ] || usage
	runs=$1
	shift
	case $1 in
	*[!0-9]*) ;;
	*)
		[ $# -ge 2 ] || usage
		budget=$1
		shift
		;;
	esac
	bindir=$1
	shift
	;;
*)
	[ $# -eq 2 ] || usage
	bindir=$1
	secs=$2
	;;
esac
case "$runs$budget" in
*[!0-9]*) usage ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
seeds=$here/corpus
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:malloc_context_size=3}
export ASAN_OPTIONS

# flags NAME: the extra libFuzzer flags of fuzz_NAME (paths relative to
# tests/fuzz made absolute).
flags() {
	sed -n "s/^$1[[:space:]][[:space:]]*//p" "$here/options" 2>/dev/null |
	    sed "s|-dict=|-dict=$here/|g"
}
if [ -n "${WEFT_FUZZ_WORK:-}" ]; then
	work=$WEFT_FUZZ_WORK
	mkdir -p "$work" || exit 2
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/weft-fuzz.XXXXXX") || exit 2
fi
status=0
ran=0

# is_target FILE: an executable fuzz binary (the build leaves dependency
# files (.d) next to the binaries).
is_target() {
	[ -f "$1" ] && [ -x "$1" ] && case "$1" in *.d) false ;; esac
}

# long_one BIN NAME CORPUS LEFT: one target until RUNS executions (or its
# share of BUDGET), then its table row.
long_one() {
	limit=
	if [ "$budget" -gt 0 ]; then
		share=$(((start + budget - $(date +%s)) / $4))
		[ "$share" -ge 1 ] || share=1
		limit="-max_total_time=$share"
	fi
	log=$work/$2.log
	t0=$(date +%s)
	# shellcheck disable=SC2086,SC2046 # $limit and the flags are words
	"$1" -runs="$runs" $limit $(flags "$2") -print_final_stats=1 \
	    -artifact_prefix="$work/crash-$2/" "$3" >"$log" 2>&1
	rc=$?
	wall=$(($(date +%s) - t0))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" |
	    tail -n 1)
	[ -n "$execs" ] ||
	    execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
	execs=${execs:-0}
	last=$(grep ' cov: ' "$log" | tail -n 1)
	cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	if [ "$rc" -ne 0 ]; then
		verdict="CRASHED (exit $rc, log $log)"
		status=1
	elif [ "$execs" -lt "$runs" ]; then
		verdict="partial (time limit)"
	else
		verdict=ok
	fi
	printf '%-10s %11s %7s %8s %6s %7s %6s  %s\n' "$2" "$execs" "$wall" \
	    "$((execs / (wall > 0 ? wall : 1)))" "${cov:-?}" "${ft:-?}" \
	    "${corp:-?}" "$verdict"
}

# The targets: the NAMEs given (long mode), or every fuzz_* in BINDIR.
if [ "$long" = 1 ] && [ $# -gt 0 ]; then
	bins=
	for name in "$@"; do
		is_target "$bindir/fuzz_$name" || {
			echo "no target fuzz_$name in $bindir" >&2
			exit 2
		}
		bins="$bins $bindir/fuzz_$name"
	done
else
	bins=$(ls "$bindir"/fuzz_* 2>/dev/null)
fi

if [ "$long" = 1 ]; then
	total=0
	for bin in $bins; do
		is_target "$bin" && total=$((total + 1))
	done
	start=$(date +%s)
	echo "fuzz: $runs runs per target, budget ${budget}s (0: none)," \
	    "work dir $work"
	printf '%-10s %11s %7s %8s %6s %7s %6s  %s\n' target execs wall_s \
	    exec/s cov ft corpus verdict
fi

for bin in $bins; do
	is_target "$bin" || continue
	name=$(basename "$bin")
	name=${name#fuzz_}
	corpus=$work/corpus-$name
	mkdir -p "$corpus" "$work/crash-$name"
	if [ -d "$seeds/$name" ]; then
		cp -n "$seeds/$name"/* "$corpus"/ 2>/dev/null
	fi
	if [ "$long" = 1 ]; then
		long_one "$bin" "$name" "$corpus" $((total - ran))
		ran=$((ran + 1))
		continue
	fi
	log=$work/$name.log
	# shellcheck disable=SC2046 # the flags are words
	"$bin" -max_total_time="$secs" $(flags "$name") -print_final_stats=1 \
	    -artifact_prefix="$work/crash-$name/" "$corpus" >"$log" 2>&1
	rc=$?
	ran=$((ran + 1))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" |
	    tail -n 1)
	if [ -z "$execs" ]; then
		# No final stats: the target died; take the last status line.
		execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
	fi
	if [ "$rc" -eq 0 ]; then
		verdict=ok
	else
		verdict="CRASHED (exit $rc, log $log)"
		status=1
	fi
	if [ "$tap" = 1 ]; then
		[ "$verdict" = ok ] && pre=ok || pre="not ok"
		printf '%s %d - fuzz_%s: %s execs in %ss %s\n' "$pre" "$ran" \
		    "$name" "${execs:-?}" "$secs" "${verdict#ok}"
	else
		printf '%-12s %12s execs  %s\n' "$name" "${execs:-?}" "$verdict"
	fi
done
[ "$tap" = 1 ] && echo "1..$ran"

if [ "$ran" -eq 0 ]; then
	echo "no fuzz_* binaries in $bindir" >&2
	exit 2
fi
if [ "$long" = 1 ]; then
	echo "fuzz: $(($(date +%s) - start))s in all; corpora, logs and" \
	    "crash inputs in $work"
elif [ "$status" -eq 0 ] && [ -z "${WEFT_FUZZ_WORK:-}" ]; then
	rm -rf "$work"
else
	echo "crash inputs and logs kept in $work" >&2
fi
exit "$status"
