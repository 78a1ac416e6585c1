#!/bin/bash
# tests/bench/pages_snapshot.sh -- the bytes of pages.so's answers, to
# compare before and after a refactoring that must not change them.
#
#   tests/bench/pages_snapshot.sh URL DIR [LIST]
#
# For every path of LIST (default: a sample picked from the database
# under WEFT_VAR, written to DIR/urls) and every representation (HTML,
# markdown, JSON; BibTeX for papers) writes DIR/NNNN-REP: the request,
# the status line, the headers (minus Date, X-Weft-Cache, which says hit
# or miss, and Server, which names the build) and the body.  Compare two
# snapshots with `diff -r DIR1 DIR2` (byte-exact).  Run it against a stack with
# WEFT_NGINX_CACHE=off, after `INCR weft:gen` when the code changed.
set -euo pipefail
base=$1
out=$2
list=${3:-}
var=$(realpath -m "${WEFT_VAR:-var/test}")
mkdir -p "$out"

db() { psql -h "$var/pg/run" -U weft -d weft -Atc "$1"; }

if [ -z "$list" ]; then
	list=$out/urls
	{
		printf '%s\n' / /researchers /researchers?page=2 \
		    /institutions /institutions?page=3 /about /privacy \
		    /contact /developers /nope /papers/ /papers/0000.00000 \
		    /researchers/999999999 /researchers/abc \
		    /institutions/999999999 /researchers?page=0 \
		    /researchers?page=99999 \
		    '/search' '/search?q=' '/search?q=neural+networks' \
		    '/search?q=neural+networks&page=2' \
		    '/search?q=quantum&type=papers&sort=newest' \
		    '/search?q=quantum&sort=citations' \
		    '/search?q=graph&mode=lexical' \
		    '/search?q=graph&mode=semantic' \
		    '/search?q=transformer+-vision' \
		    '/search?q=%22large+language%22+or+diffusion' \
		    '/search?q=deep+learning&category=cs.LG' \
		    '/search?q=learning&from=2024&to=2026-01-31' \
		    '/search?q=smith&type=researchers' \
		    '/search?q=university&type=institutions' \
		    '/search?q=university&type=institutions&page=2' \
		    '/search?q=zzzzqqqxxx' '/search?q=a&mode=bogus' \
		    '/search?q=a&from=2024-02-30' '/search?type=nope&q=x' \
		    /institutions/00d9ah105 '/institutions/Ministry%20of%20Health' \
		    '/institutions/https%3A%2F%2Fror.org%2F00dmfq477' \
		    '/institutions/University%20of%20California%2C%20Merced' \
		    /papers/2512.20345 /papers/2512.20345v1 /papers/hep-th/9901001
		# Papers: newest, most cited, most authors; their similar page.
		db "(SELECT arxiv_id FROM papers ORDER BY published DESC,
		     id LIMIT 3)
		    UNION ALL (SELECT arxiv_id FROM papers ORDER BY
		     citation_count DESC NULLS LAST, id LIMIT 2)
		    UNION ALL (SELECT p.arxiv_id FROM papers p JOIN
		     authorships a ON a.paper_id = p.id GROUP BY p.id
		     ORDER BY count(*) DESC, p.id LIMIT 1)" |
		    while read -r a; do
			printf '/papers/%s\n/papers/%s/similar\n' "$a" "$a"
		    done
		# Researchers: most papers, one with namesakes, a few more.
		db "(SELECT researcher_id FROM authorships WHERE researcher_id
		     IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 3)
		    UNION ALL (SELECT id FROM researchers ORDER BY id LIMIT 2)
		    UNION ALL (SELECT min(id) FROM researchers GROUP BY
		     name_key HAVING count(*) > 1 ORDER BY count(*) DESC,
		     1 LIMIT 2)" |
		    while read -r r; do
			printf '/researchers/%s\n' "$r"
			printf '/researchers/%s/evidence\n' "$r"
			printf '/researchers/%s?sort=citations\n' "$r"
			printf '/researchers/%s?page=2\n' "$r"
		    done
		# Institutions: most researchers, a few more.
		db "(SELECT institution_id FROM researcher_institutions
		     GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 3)
		    UNION ALL (SELECT id FROM institutions ORDER BY id
		     LIMIT 2)" 2>/dev/null |
		    while read -r i; do
			printf '/institutions/%s\n' "$i"
		    done
	} >"$list"
fi

n=0
while read -r path; do
	reps="html md json"
	case $path in
	/papers/*/similar) ;;
	/papers/?*) reps="html md json bib" ;;
	esac
	for rep in $reps; do
		case $rep in
		html) acc='text/html' ;;
		md) acc='text/markdown' ;;
		json) acc='application/json' ;;
		bib) acc='application/x-bibtex' ;;
		esac
		n=$((n + 1))
		f=$(printf '%s/%04d-%s' "$out" "$n" "$rep")
		{
			printf '%s %s\n' "$path" "$acc"
			curl -s -L -D - -H "Accept: $acc" "$base$path" |
			    tr -d '\r' | grep -av '^\(Date\|Server\|X-Weft-Cache\): '
		} >"$f"
	done
done <"$list"
echo "$n responses in $out"
