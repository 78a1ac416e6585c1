#!/bin/bash
# t_pages_head.sh -- what a page's head and chrome promise (issue 18):
# a real /favicon.ico and a touch icon, entity pages that advertise their
# own RSS feed (head, a visible link, a line in markdown) which answers,
# and the static pages' markdown tables rendered as tables.
. "$(dirname "$0")/lib.sh"

get /favicon.ico
is_status 200 "/favicon.ico"
header_is Content-Type image/x-icon "/favicon.ico is an icon"
[ "$(head -c 4 "$BODY" | od -An -tx1 | tr -d ' ')" = 00000100 ]
ok $? "/favicon.ico is an ICO file"
for p in /apple-touch-icon.png /static/apple-touch-icon.png; do
	get "$p"
	is_status 200 "$p"
	header_is Content-Type image/png "$p is a PNG"
done
get /
body_has 'rel="apple-touch-icon" href="/static/apple-touch-icon.png"' "pages link the touch icon"
get /signin
body_has 'rel="apple-touch-icon"' "account pages link the touch icon"

for kind in researchers institutions; do
	id=$(sql "SELECT id FROM $kind ORDER BY id LIMIT 1")
	url=$(curl -s -o /dev/null -w '%{redirect_url}' "$WEFT_URL/$kind/$id")
	path=${url#"$WEFT_URL"}
	feed="/rss/$kind/$id.xml"
	get "$path"
	is_status 200 "$kind page"
	body_has "<link rel=\"alternate\" type=\"application/rss+xml\"" "$kind: head links a feed"
	body_has "href=\"$feed\"" "$kind: its own feed, in the head and as a link"
	[ "$(grep -o "href=\"$feed\"" "$BODY" | wc -l)" -ge 2 ]
	ok $? "$kind: the feed both in the head and visible"
	get "$path" -H 'Accept: text/markdown'
	body_has "- RSS: [$WEFT_URL$feed]($WEFT_URL$feed)" "$kind: markdown names the feed"
	get "$feed"
	is_status 200 "$kind: the feed answers"
	header_has Content-Type rss "$kind: as RSS"
done

for p in /about /developers; do
	get "$p"
	body_has '<table>' "$p: its tables are tables"
	body_lacks '<p>| ' "$p: no raw '|' rows"
done
done_testing
