#!/bin/bash
# tests/bench/refresh_ab.sh -- two builds' refreshes of one day, each
# from the same copy of a kept benchmark cluster (not a test: not run by
# `make test`).
#
#   tests/bench/refresh_ab.sh VAR BUILD_A BUILD_B [ROUNDS]
#
# Days compared one after the other differ by more than most changes
# do: each has its own papers, and the cache holds what the day before
# left (thirty-fifth session: 65-91 s for one build's refreshes on
# consecutive days at 1.1 M papers).  This script runs a day's harvest
# and match without the refresh (refresh_daily.sh, SOURCE=oai,
# NO_REFRESH=1, VECTORS=none, with BUILD_A), stops the cluster, copies
# its data directory aside, then ROUNDS times (2 unless given) each of
# BUILD_A and BUILD_B in turn: the copy put back, the kernel's page
# cache dropped, the cluster started (so every refresh starts cold, as
# a day at 2.5 M on 24 GB mostly is), `weft-harvest refresh` timed,
# with the disk's reads and writes (/sys/block) and the functions'
# times (track_functions).  CACHE=keep keeps the page cache as the copy
# left it: faster, but one build's refresh then took 67.7 and 91.8 s
# (an A/A run, thirty-fifth session).  Each build is a directory of the
# tree's root with a weft-harvest (BUILD=dir make); a build whose
# migrations differ must accept the other's schema.  The cluster keeps
# the last round's refresh; the copy (the size of the data directory)
# is removed at the end (kept if the run is stopped after making it).
# DAY=skip refreshes the day the cluster holds instead of running one
# (a day run before with NO_REFRESH=1, or a kept copy moved back).
# STEP=match compares the rest of the day instead: the day's harvest
# alone (refresh_daily.sh NO_MATCH=1), then each round times
# `weft-harvest match`, the match and its refresh, from the copy.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
var=$(cd "${1:?usage: refresh_ab.sh VAR BUILD_A BUILD_B [ROUNDS]}" && pwd)
a=${2:?usage: refresh_ab.sh VAR BUILD_A BUILD_B [ROUNDS]}
b=${3:?usage: refresh_ab.sh VAR BUILD_A BUILD_B [ROUNDS]}
rounds=${4:-2}
[[ $rounds =~ ^[1-9][0-9]*$ ]] ||
    { echo "refresh_ab.sh: ROUNDS is a count, not '$rounds'" >&2; exit 2; }
step=${STEP:-refresh}
case $step in
refresh | match) ;;
*) echo "refresh_ab.sh: STEP=refresh or match, not '$step'" >&2; exit 2 ;;
esac
case ${DAY:-run} in
run | skip) ;;
*) echo "refresh_ab.sh: DAY=run or skip, not '$DAY'" >&2; exit 2 ;;
esac
cache=${CACHE:-drop}
case $cache in
drop) [ -w /proc/sys/vm/drop_caches ] || {
	echo "refresh_ab.sh: dropping the page cache needs root (or CACHE=keep)" >&2
	exit 2
} ;;
keep) ;;
*) echo "refresh_ab.sh: CACHE=drop or keep" >&2; exit 2 ;;
esac
for d in "$a" "$b"; do
	[ -x "$root/$d/weft-harvest" ] ||
	    { echo "refresh_ab.sh: no $root/$d/weft-harvest" >&2; exit 2; }
done
pgbin=/usr/lib/postgresql/15/bin
data=$var/pg/data
snap=$var/pg/data.ab
disk=$(lsblk -no pkname "$(df --output=source "$var" | tail -1)" 2>/dev/null || true)
disk=${disk:-$(basename "$(df --output=source "$var" | tail -1)")}
[ -r "/sys/block/$disk/stat" ] ||
    { echo "refresh_ab.sh: no /sys/block/$disk/stat for $var's disk" >&2; exit 2; }
# A copy kept by a stopped run is the only whole day: not overwritten.
[ ! -e "$snap" ] ||
    { echo "refresh_ab.sh: $snap is a kept copy: restore or remove it first" >&2; exit 2; }
pg() { (cd /tmp && runuser -u postgres -- "$pgbin/pg_ctl" -D "$data" \
    -l "$var/pg/server.log" -w "$@") >/dev/null; }
q() { psql -X -h "$var/pg/run" -U weft -d weft "$@"; }
# Sectors read and written by the disk holding the cluster, as "r w".
sectors() { awk '{print $3, $7}' "/sys/block/$disk/stat"; }
# The copy goes at the end, or when the run stops while making it (the
# cluster itself is whole then).  A run stopped after it (a round's
# data directory may be half put back) keeps it, and says how to
# restore the day's state from it.
copied=0
finished=0
keep_or_remove() {
	if [ "$copied" = 1 ] && [ "$finished" = 0 ]; then
		echo "refresh_ab.sh: stopped; the day before its refresh is kept in" \
		    "$snap: stop the cluster, then rm -rf $data && mv $snap $data" >&2
	else
		rm -rf "$snap"
	fi
}
trap keep_or_remove EXIT

if [ "${DAY:-run}" = skip ]; then
	echo "the day: as the cluster holds it (DAY=skip)"
else
	if [ "$step" = match ]; then
		echo "the day's harvest, without its match ($a):"
		leave=NO_MATCH=1
	else
		echo "the day, without its refresh ($a):"
		leave=NO_REFRESH=1
	fi
	env SOURCE=oai "$leave" VECTORS=none BUILD="$a" \
	    "$root/tests/bench/refresh_daily.sh" "$var" "${BATCH:-20000}" |
	    grep -E '^(papers before|weft-harvest)'
fi
# refresh_daily.sh leaves the cluster as it found it: stopped or not.
if [ -f "$data/postmaster.pid" ]; then
	pg stop -m fast
fi
cp -a "$data" "$snap"
copied=1
echo "data directory copied aside: $(du -sh "$snap" | cut -f1)"

printf '| round | build | %s | refresh | disk read | disk written |\n' "$step"
printf '|---|---|---|---|---|---|\n'
for r in $(seq 1 "$rounds"); do
	for d in "$a" "$b"; do
		pg stop -m fast 2>/dev/null || true
		rm -rf "$data"
		cp -a "$snap" "$data"
		sync
		if [ "$cache" = drop ]; then
			echo 3 >/proc/sys/vm/drop_caches
		fi
		pg start
		q -qAtc "SELECT pg_stat_reset()" >/dev/null
		read -r r0 w0 <<<"$(sectors)"
		t0=$(date +%s.%N)
		# A failed step is a row of its own ("failed"), and the
		# next round starts from the copy again.
		ok=1
		out=$(env WEFT_CONF="$var/weft.conf" "$root/$d/weft-harvest" \
		    "$step" 2>&1) || ok=0
		t1=$(date +%s.%N)
		read -r r1 w1 <<<"$(sectors)"
		s=$(sed -n 's/.* in \([0-9.]*\) s; cached pages are stale$/\1/p' \
		    <<<"$out")
		[ "$ok" = 1 ] || s=
		grep '^prewarmed' <<<"$out" | sed 's/^/    /' >&2 || true
		awk -v r="$r" -v d="$d" -v s="${s:-failed}" \
		    -v t="$(echo "$t1 - $t0" | bc -l)" \
		    -v rd=$((r1 - r0)) -v wr=$((w1 - w0)) 'BEGIN {
			w = s == "failed" ? "failed" : sprintf("%.1f s", t)
			printf "| %s | %s | %s | %s%s | %.1f GB | %.1f GB |\n",
			    r, d, w, s, s == "failed" ? "" : " s",
			    rd * 512 / 1e9, wr * 512 / 1e9 }'
		q -Atc "SELECT '    ' || funcname || ' ' ||
		               round((total_time / 1000)::numeric, 1) || ' s'
		          FROM pg_stat_user_functions
		         WHERE total_time > 2000 ORDER BY total_time DESC
		         LIMIT 6" >&2
	done
done
finished=1
