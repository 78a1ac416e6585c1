#!/bin/sh
# run.sh -- runs every libFuzzer target in BINDIR for SECONDS each.
#
#   tests/fuzz/run.sh [--tap] BINDIR SECONDS
#
# With --tap each target is one TAP line ("ok N - fuzz_x: E execs") and
# the plan comes last, for prove (tests/fuzz/t_fuzz.sh).
# Each fuzz_NAME starts from the seeds in tests/fuzz/corpus/NAME/, copied
# to a temporary directory so that the inputs a run discovers do not end
# up in the repository.  Prints one line per target with its executions
# and verdict; exits non-zero if any target crashed.  Crash inputs are
# kept in the temporary directory, whose path is printed.

set -u

tap=0
if [ "${1:-}" = --tap ]; then
	tap=1
	shift
fi
if [ $# -ne 2 ]; then
	echo "usage: $0 [--tap] BINDIR SECONDS" >&2
	exit 2
fi
bindir=$1
secs=$2
seeds=$(cd "$(dirname "$0")" && pwd)/corpus
work=$(mktemp -d "${TMPDIR:-/tmp}/weft-fuzz.XXXXXX") || exit 2
status=0
ran=0

for bin in "$bindir"/fuzz_*; do
	# The build leaves dependency files (.d) next to the binaries.
	[ -f "$bin" ] && [ -x "$bin" ] || continue
	name=$(basename "$bin")
	name=${name#fuzz_}
	corpus=$work/corpus-$name
	mkdir -p "$corpus" "$work/crash-$name"
	if [ -d "$seeds/$name" ]; then
		cp "$seeds/$name"/* "$corpus"/ 2>/dev/null
	fi
	log=$work/$name.log
	"$bin" -max_total_time="$secs" -print_final_stats=1 \
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
if [ "$status" -eq 0 ]; then
	rm -rf "$work"
else
	echo "crash inputs and logs kept in $work" >&2
fi
exit "$status"
