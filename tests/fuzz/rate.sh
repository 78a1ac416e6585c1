#!/bin/sh
# rate.sh -- executions per CPU second of every libFuzzer target in
# BINDIR (or the NAMEs given): RUNS executions (default 30000) from the
# seeds in tests/fuzz/corpus/NAME/, with the flags of tests/fuzz/options
# and run.sh's ASan options.  CPU seconds (user + system), not wall
# time, so that the figure does not depend on what else the machine is
# running; a long run's rate is lower (its units grow to -max_len).
#
#   tests/fuzz/rate.sh BINDIR [NAME...]      (RUNS=N to change the count)
set -u
[ $# -ge 1 ] || {
	echo "usage: $0 BINDIR [NAME...]" >&2
	exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
bindir=$1
shift
runs=${RUNS:-30000}
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:malloc_context_size=3}
export ASAN_OPTIONS
if [ $# -eq 0 ]; then
	for bin in "$bindir"/fuzz_*; do
		case "$bin" in *.d) continue ;; esac
		set -- "$@" "${bin##*/fuzz_}"
	done
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/weft-rate.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
printf '%-10s %8s %8s %10s\n' target execs cpu_s execs/cpu_s
for name in "$@"; do
	rm -rf "${work:?}/c"
	mkdir -p "$work/c"
	cp "$here/corpus/$name"/* "$work/c/" 2>/dev/null
	flags=$(sed -n "s/^${name}[[:space:]][[:space:]]*//p" "$here/options" |
	    sed "s|-dict=|-dict=$here/|g")
	# shellcheck disable=SC2086 # the flags are words
	/usr/bin/time -f '%U %S' -o "$work/t" "$bindir/fuzz_$name" \
	    -runs="$runs" $flags "$work/c" >"$work/log" 2>&1 || {
		echo "$name: failed (log kept in $work.log)" >&2
		cp "$work/log" "$work.log"
		continue
	}
	read -r u s <"$work/t"
	awk -v n="$name" -v r="$runs" -v u="$u" -v s="$s" 'BEGIN {
		printf "%-10s %8d %8.2f %10d\n", n, r, u + s, r / (u + s) }'
done
