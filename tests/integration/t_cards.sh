#!/bin/bash
# t_cards.sh -- the og:image cards (modules/pages/card/): every kind is
# a 1200x630 PNG with its validators (ETag 304, Last-Modified), drawn
# once per entity and data generation (Redis keeps it), unknown
# entities are 404 in the client's representation, and the pages'
# og:image and twitter:image point at cards that answer.
. "$(dirname "$0")/lib.sh"
: "${WEFT_VAR:?WEFT_VAR must be set (tests/run.sh sets it)}"

# png_ok NAME: the body is a PNG whose IHDR says 1200x630.
png_ok() {
	local sig dims
	sig=$(head -c 8 "$BODY" | od -An -tx1 | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ]
	ok $? "$1: the PNG signature" "got $sig"
	# IHDR: width and height, big-endian, at bytes 16 and 20.
	dims=$(od -An -tu1 -j16 -N8 "$BODY" | awk '{
	    printf "%dx%d", (($1 * 256 + $2) * 256 + $3) * 256 + $4,
	    (($5 * 256 + $6) * 256 + $7) * 256 + $8 }')
	[ "$dims" = 1200x630 ]
	ok $? "$1: 1200x630 in the IHDR" "got $dims"
}

# card_ok PATH NAME: 200 image/png, a PNG of the card's size, ETag and
# Last-Modified, If-None-Match and If-Modified-Since give 304, HEAD has
# the headers and no body.
card_ok() {
	local path=$1 name=$2 etag lm n
	get "$path"
	is_status 200 "$name: 200"
	header_is Content-Type image/png "$name: Content-Type: image/png"
	png_ok "$name"
	header_has Cache-Control public "$name: public"
	etag=$(header ETag)
	lm=$(header Last-Modified)
	[ -n "$etag" ] && [ -n "$lm" ]
	ok $? "$name: ETag and Last-Modified" "ETag '$etag', Last-Modified '$lm'"
	rm -f "$BODY"
	get "$path" -H "If-None-Match: $etag"
	is_status 304 "$name: If-None-Match gives 304"
	body_empty "$name: 304 has no body"
	get "$path" -H "If-Modified-Since: $lm"
	is_status 304 "$name: If-Modified-Since gives 304"
	n=$(curl -s -I -o /dev/null -w '%{http_code} %{size_download}' \
	    "$WEFT_URL$path")
	[ "$n" = "200 0" ]
	ok $? "$name: HEAD 200 without a body" "got $n"
	get "$path"
}

ID=2512.20345
res=$(sql "SELECT id FROM researchers ORDER BY paper_count DESC, id LIMIT 1")
inst=$(sql "SELECT i.id FROM institutions i JOIN researcher_institutions ri
    ON ri.institution_id = i.id GROUP BY i.id ORDER BY count(*) DESC, i.id
    LIMIT 1")
[ -n "$res" ] && [ -n "$inst" ]
ok $? "a researcher and an institution from the database" "$res $inst"

card_ok /cards/site.png "site"
card_ok "/cards/papers/$ID.png" "paper"
card_ok "/cards/researchers/$res.png" "researcher"
card_ok "/cards/institutions/$inst.png" "institution"
size=$(stat -c %s "$BODY")
[ "$size" -gt 5000 ] && [ "$size" -lt 400000 ]
ok $? "a card weighs 5 KB to 400 KB" "$size bytes"

# Drawn once: Redis keeps it under the generation, and the next request
# (another Accept, so that the page cache does not answer) sends the
# same bytes with the same Last-Modified.
gen=$(redis-cli -s "$WEFT_VAR/redis/redis.sock" GET weft:gen)
key="weft:card:${gen:-0}:paper:$ID"
n=$(redis-cli -s "$WEFT_VAR/redis/redis.sock" EXISTS "$key")
[ "$n" = 1 ]
ok $? "the paper's card is kept in Redis ($key)" "EXISTS gave $n"
get "/cards/papers/$ID.png"
cp "$BODY" "$T_TMP/first.png"
lm=$(header Last-Modified)
sleep 1.1
get "/cards/papers/$ID.png" -H "Accept: image/png,*/*;q=0.8"
cmp -s "$BODY" "$T_TMP/first.png"
ok $? "the same bytes the second time"
header_is Last-Modified "$lm" "and the same Last-Modified"

# An old-style id's card (the bundled data has none: a row of our own).
old=math.GT/0309136
rows_delete() {
	sql "DELETE FROM papers WHERE arxiv_id = '$old' AND source = 'test'"
	data_changed
}
trap 'rows_delete; rm -rf "$T_TMP"' EXIT
rows_delete
sql "INSERT INTO papers (arxiv_id, title, slug, primary_category,
    categories, published, source, author_count, fully_matched)
    VALUES ('$old', 'An <old> & \"style\" paper with \$\\alpha\$ and
    Mj\\\"olnir', 'an-old-style-paper', 'math.GT', '{math.GT}',
    '2003-09-08', 'test', 0, false)" >/dev/null
data_changed
card_ok "/cards/papers/$old.png" "old-style paper"

# Not found, in the representation the client asks for.
for p in /cards/papers/0000.00000.png /cards/papers/2512.20345v2.png \
    /cards/researchers/999999999.png /cards/institutions/999999999.png \
    /cards/researchers/0$res.png /cards/researchers/$res.jpg \
    /cards/nosuch.png /cards/; do
	get "$p" -H "Accept: application/json"
	is_status 404 "$p: 404"
	header_has Content-Type application/json "$p: as JSON"
	json_is .error.status 404 "$p: the JSON error"
done
get /cards/researchers/999999999.png -H "Accept: text/markdown"
header_has Content-Type text/markdown "a 404 as markdown"
get /cards/researchers/999999999.png
header_has Content-Type text/html "a 404 as HTML by default"

# The pages point at their cards, which answer.
for page in / "/papers/$ID" "/researchers/$res" "/institutions/$inst"; do
	curl -s -L -o "$BODY" "$WEFT_URL$page"
	img=$(grep -o '<meta property="og:image" content="[^"]*"' "$BODY" |
	    sed 's/.*content="//; s/"$//')
	[ -n "$img" ]
	ok $? "$page: og:image" "$(grep -o '<meta [^>]*og:[^>]*>' "$BODY" | head -3)"
	body_has '<meta property="og:image:width" content="1200">' \
	    "$page: og:image:width"
	body_has '<meta property="og:image:height" content="630">' \
	    "$page: og:image:height"
	body_has '<meta property="og:image:alt" content="' "$page: og:image:alt"
	body_has '<meta name="twitter:card" content="summary_large_image">' \
	    "$page: twitter:card summary_large_image"
	body_has "<meta name=\"twitter:image\" content=\"$img\">" \
	    "$page: twitter:image is the same card"
	case "$img" in "$WEFT_URL"/cards/*.png) ok 0 "$page: an absolute card URL" ;;
	*) ok 1 "$page: an absolute card URL" "$img" ;; esac
	get "${img#"$WEFT_URL"}"
	is_status 200 "$page: its card answers"
	header_is Content-Type image/png "$page: with a PNG"
done
# Pages without a card keep the small summary.
get /about
body_lacks 'og:image' "/about: no og:image"
body_has '<meta name="twitter:card" content="summary">' "/about: summary"

# The paper page's JSON-LD carries text, not TeX.
curl -s -L -o "$BODY" "$WEFT_URL/papers/$old"
ld=$(grep -o '<script type="application/ld+json">[^<]*</script>' "$BODY" |
    tail -1)
case "$ld" in *'\\alpha'* | *'\\"o'*) ok 1 "JSON-LD: no TeX" "$ld" ;;
*) ok 0 "JSON-LD: no TeX" ;; esac
case "$ld" in *'Mjölnir'*'α'* | *'α'*'Mjölnir'*) ok 0 "JSON-LD: TeX as text" ;;
*) ok 1 "JSON-LD: TeX as text" "$ld" ;; esac

done_testing
