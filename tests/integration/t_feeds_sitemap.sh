#!/bin/bash
# t_feeds_sitemap.sh -- the sitemap index and its chunks through nginx:
# valid against the sitemaps.org schemas (tests/sitemap/*.xsd), within
# the protocol's limits (50,000 URLs, 50 MB a chunk), complete (every
# paper, researcher with papers and institution once), 404 past the last
# chunk, and walked by a crawler: every URL of the static chunk and 50
# sampled from the others answer 200 after at most one redirect.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
XSD=$ROOT/tests/sitemap
PSQL=(psql -h "$WEFT_VAR/pg/run" -U weft -d weft -v ON_ERROR_STOP=1 -qAtX)
sql() { "${PSQL[@]}" -c "$1"; }
fresh() { : >"$BODY"; }
locs() { xmllint --xpath "//*[local-name()='loc']/text()" "$1" 2>/dev/null; }

# Only institutions with papers here are listed.  Whatever the data
# holds, link UCL to the researcher with the most papers for the run
# (source 'test', removed on exit), so that one is.
unlink_test() {
	sql "DELETE FROM researcher_institutions WHERE source = 'test'"
	data_changed
}
trap unlink_test EXIT
sql "INSERT INTO researcher_institutions (researcher_id, institution_id, source)
     SELECT (SELECT id FROM researchers ORDER BY paper_count DESC, id LIMIT 1),
            id, 'test'
       FROM institutions WHERE ror_id = '02jx3x895'
     ON CONFLICT DO NOTHING"
data_changed
# The index reads its lastmods from blocks the refresh keeps (0045): bring
# them up to date after the edits of the tests before, as a harvest's
# refresh would.
sql "SELECT weft_sitemap_refresh(false)" >/dev/null

# ------------------------------------------------------------ index
get /sitemap.xml
is_status 200 "/sitemap.xml answers"
header_is Content-Type "application/xml; charset=utf-8" "index: XML"
header_has ETag '"' "index: ETag"
header_has Last-Modified " GMT" "index: Last-Modified"
xmllint --noout --schema "$XSD/siteindex.xsd" "$BODY" 2>"$T_TMP/err"
ok $? "index: valid against siteindex.xsd" "$(head -3 "$T_TMP/err")"
cp "$BODY" "$T_TMP/index.xml"
locs "$T_TMP/index.xml" >"$T_TMP/chunks"
n=$(wc -l <"$T_TMP/chunks")
[ "$n" -ge 4 ]
ok $? "index: static, papers, researchers and institutions chunks" "$n"
! grep -vqE "^$WEFT_URL/sitemaps/(papers|researchers|institutions|static)-[1-9][0-9]*\.xml$" "$T_TMP/chunks"
ok $? "index: every chunk URL is absolute and well-formed" \
    "$(grep -vE "/sitemaps/" "$T_TMP/chunks" | head -2)"
for k in static papers researchers institutions; do
	grep -qx "$WEFT_URL/sitemaps/$k-1.xml" "$T_TMP/chunks"
	ok $? "index lists $k-1.xml"
done
[ "$(xmllint --xpath "count(//*[local-name()='sitemap'][not(*[local-name()='lastmod'])])" \
    "$T_TMP/index.xml")" = 0 ]
ok $? "index: every chunk has a lastmod"
etag=$(header ETag)
fresh
get /sitemap.xml -H "If-None-Match: $etag"
is_status 304 "index: If-None-Match 304"

# ------------------------------------------------------------ chunks
# The lastmod the index gives chunk URL $1.
lastmod_of() {
	xmllint --xpath "string(//*[local-name()='sitemap'][*[local-name()='loc']='$1']/*[local-name()='lastmod'])" \
	    "$T_TMP/index.xml"
}
: >"$T_TMP/all"
: >"$T_TMP/newest.chunks"
: >"$T_TMP/newest.index"
bad_schema=0 too_big=0 no_lastmod=0
while read -r url; do
	path=${url#"$WEFT_URL"}
	kind=${path#/sitemaps/}
	kind=${kind%%-*}
	get "$path"
	is_status 200 "$path answers"
	cp "$BODY" "$T_TMP/chunk.xml"
	if ! xmllint --noout --schema "$XSD/sitemap.xsd" "$T_TMP/chunk.xml" \
	    2>"$T_TMP/err"; then
		bad_schema=$((bad_schema + 1))
		head -3 "$T_TMP/err" | sed 's/^/#   /'
	fi
	size=$(stat -c %s "$T_TMP/chunk.xml")
	count=$(grep -o '<url>' "$T_TMP/chunk.xml" | wc -l)
	[ "$count" -le 50000 ] && [ "$size" -le 52428800 ] ||
	    too_big=$((too_big + 1))
	echo "# $path: $count URLs, $size bytes"
	no_lastmod=$((no_lastmod + $(xmllint --xpath \
	    "count(//*[local-name()='url'][not(*[local-name()='lastmod'])])" \
	    "$T_TMP/chunk.xml")))
	locs "$T_TMP/chunk.xml" | sed "s|^|$kind |" >>"$T_TMP/all"
	# The chunk's newest entry, and what the index says of it.
	echo "$url $(xmllint --xpath "//*[local-name()='lastmod']/text()" \
	    "$T_TMP/chunk.xml" | sort | tail -1)" >>"$T_TMP/newest.chunks"
	echo "$url $(lastmod_of "$url")" >>"$T_TMP/newest.index"
done <"$T_TMP/chunks"
[ "$bad_schema" = 0 ]
ok $? "every chunk is valid against sitemap.xsd"
[ "$too_big" = 0 ]
ok $? "every chunk holds at most 50,000 URLs and 50 MB"
! awk '{print $2}' "$T_TMP/all" | grep -vq "^$WEFT_URL/"
ok $? "every URL is absolute on this site"
[ -z "$(awk '{print $2}' "$T_TMP/all" | sort | uniq -d | head -1)" ]
ok $? "no URL is listed twice"
got() { awk -v k="$1" '$1 == k' "$T_TMP/all" | wc -l; }
[ "$(got papers)" = "$(sql "SELECT count(*) FROM papers")" ]
ok $? "every paper is listed" "$(got papers)"
[ "$(got researchers)" = \
    "$(sql "SELECT count(*) FROM researchers WHERE paper_count > 0")" ]
ok $? "every researcher with papers is listed" "$(got researchers)"
[ "$(got institutions)" = "$(sql "SELECT count(*) FROM institutions i
    WHERE EXISTS (SELECT 1 FROM researcher_institutions ri
                    JOIN researchers r ON r.id = ri.researcher_id
                    JOIN authorships a ON a.researcher_id = r.id
                    JOIN papers p ON p.id = a.paper_id
                   WHERE ri.institution_id = i.id AND r.paper_count > 0
                     AND extract(year FROM p.published) BETWEEN
                         coalesce(ri.first_year, 0)
                         AND coalesce(ri.last_year, 9999))")" ]
ok $? "every institution with papers written there is listed" \
    "$(got institutions)"
[ "$(got institutions)" -lt "$(sql "SELECT count(*) FROM institutions")" ]
ok $? "institutions without papers here are not (they are noindex)"
[ "$(got static)" -ge 5 ]
ok $? "the static chunk lists the home, directories and static pages"
[ "$no_lastmod" = 0 ]
ok $? "every entry has a lastmod" "$no_lastmod without"
diff "$T_TMP/newest.index" "$T_TMP/newest.chunks" >"$T_TMP/err"
ok $? "each chunk's lastmod in the index is its newest entry's" \
    "$(head -4 "$T_TMP/err")"

# A paper edited (its modified_at a day ahead), then the refresh after
# the edit: its chunk's lastmod in the index moves with it, and back.
P1=$(sql "SELECT id FROM papers ORDER BY id LIMIT 1 OFFSET 5")
sql "UPDATE papers SET modified_at = modified_at + interval '1 day'
      WHERE id = $P1; SELECT weft_sitemap_refresh(false)" >/dev/null
data_changed
want=$(sql "SELECT to_char(max(modified_at) AT TIME ZONE 'UTC',
    'YYYY-MM-DD\"T\"HH24:MI:SS') FROM papers
     WHERE (id - 1) / 50000 = ($P1 - 1) / 50000")
fresh
get /sitemap.xml
cp "$BODY" "$T_TMP/index.xml"
got_mod=$(lastmod_of "$WEFT_URL/sitemaps/papers-$(((P1 - 1) / 50000 + 1)).xml")
sql "UPDATE papers SET modified_at = modified_at - interval '1 day'
      WHERE id = $P1; SELECT weft_sitemap_refresh(false)" >/dev/null
data_changed
case $got_mod in
"$want"*) ok 0 "an edited paper's chunk: lastmod $got_mod" ;;
*) ok 1 "an edited paper's chunk: its lastmod follows the edit" \
    "index $got_mod, newest paper $want" ;;
esac

last=$(grep -o 'papers-[0-9]*' "$T_TMP/chunks" | cut -d- -f2 | sort -n |
    tail -1)
get "/sitemaps/papers-$((last + 1)).xml"
is_status 404 "the chunk after the last: 404"
for p in papers-0 papers-01 static-2 people-1 papers-x; do
	get "/sitemaps/$p.xml"
	is_status 404 "/sitemaps/$p.xml: 404"
done
get /sitemaps/papers-1
is_status 404 "no .xml: 404"
get /sitemaps/papers-1.xml -H 'Accept: application/json'
header_is Content-Type "application/xml; charset=utf-8" \
    "a chunk is XML whatever the Accept"

# ------------------------------------------------------------ crawler walk
# As a crawler: every static URL, and 50 of the others.
{
	awk '$1 == "static" {print $2}' "$T_TMP/all"
	awk '$1 != "static" {print $2}' "$T_TMP/all" | shuf -n 50
} >"$T_TMP/walk"
fail=0 redirected=0 walked=0
while read -r url; do
	out=$(curl -s -o /dev/null -L --max-redirs 1 -A weft-test-crawler \
	    --max-time 20 -w '%{http_code} %{num_redirects}' "$url")
	walked=$((walked + 1))
	case "$out" in
	"200 0") ;;
	"200 1") redirected=$((redirected + 1)) ;;
	*) fail=$((fail + 1)); echo "#   $url -> $out" ;;
	esac
done <"$T_TMP/walk"
[ "$fail" = 0 ] && [ "$walked" -ge 50 ]
ok $? "crawler: $walked URLs answer 200 after at most one redirect"
[ "$redirected" = 0 ]
ok $? "crawler: sitemap URLs are canonical (no redirect)" \
    "$redirected redirected"

done_testing
