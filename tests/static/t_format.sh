#!/bin/bash
# The C sources as `make format` leaves them (clang-format, .clang-format):
# what `make lint` and `make test` check.  A table laid out by hand sits
# between /* clang-format off */ and /* clang-format on */.
cd "$(dirname "$0")/../.." || exit 1

# Files being reworked on other branches when this check came, formatted
# once they merged (`make format`, then delete the line): none now.
pending="
"

n=0
fail=0
if ! command -v clang-format >/dev/null; then
	echo "not ok 1 - clang-format is installed (conf/local.sh deps)"
	echo "1..1"
	exit 1
fi
list=()
for f in modules/*/*.c modules/*/*.h modules/*/*/*.c modules/*/*/*.h \
    tests/unit/*.c; do
	case "$pending" in *"
$f
"*) continue ;; esac
	list+=("$f")
done
# One run for all: clang-format names each file that would change.
out=$(clang-format --dry-run -Werror "${list[@]}" 2>&1)
for f in "${list[@]}"; do
	n=$((n + 1))
	hits=$(printf '%s\n' "$out" | grep -F "$f:")
	if [ -z "$hits" ]; then
		echo "ok $n - $f"
	else
		fail=$((fail + 1))
		echo "not ok $n - $f (make format)"
		printf '%s\n' "$hits" | head -6 | sed 's/^/#   /'
	fi
done
echo "1..$n"
[ "$fail" = 0 ]
