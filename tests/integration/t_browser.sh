#!/bin/bash
# t_browser.sh -- the site in a real browser (tests/browser/run.js): Debian's
# chromium, headless, through the test stack's nginx.  Every kind of page,
# signed out and signed in, at 1366 and 390 px, must have no horizontal
# overflow, no console error and no serious or critical axe-core violation;
# a new user signs up, verifies the address from the mail the test SMTP
# server received, follows a researcher, makes a feed URL and signs out,
# by clicking, and asks about a paper in the chat (streamed with the
# fake LLM when the stack has it).  Screenshots land in $WEFT_VAR/screenshots (printed at the
# end).  The node packages come from tests/browser/package-lock.json.
: "${WEFT_URL:?WEFT_URL must be set}" "${WEFT_VAR:?WEFT_VAR must be set}"
: "${WEFT_ROOT:?WEFT_ROOT must be set}"
dir=$WEFT_ROOT/tests/browser
sql() { psql -h "$WEFT_VAR/pg/run" -U weft -d weft -Atqc "$1"; }
rcli() { redis-cli -s "$WEFT_VAR/redis/redis.sock" "$@"; }
fail() { echo "not ok 1 - $1"; echo "1..1"; exit 1; }

command -v chromium >/dev/null || fail "chromium is installed (conf/local.sh deps)"
if [ ! -d "$dir/node_modules/puppeteer-core" ]; then
	npm ci --prefix "$dir" --no-audit --no-fund >"$WEFT_VAR/npm-browser.log" 2>&1 ||
	    fail "npm ci in tests/browser (see $WEFT_VAR/npm-browser.log)"
fi
# Sign-up attempts of earlier runs must not hit the limits.
rcli --scan --pattern 'weft:rl:*' | while read -r k; do rcli del "$k" >/dev/null; done

# The canonical URL of a path (the site answers ids with a 301).
canon() {
	local u
	u=$(curl -s -o /dev/null -w '%{redirect_url}' "$WEFT_URL$1")
	[ -n "$u" ] && echo "${u#"$WEFT_URL"}" || echo "$1"
}
paper=$(canon "/papers/$(sql "SELECT arxiv_id FROM papers ORDER BY published DESC, id LIMIT 1")")
# The researcher with the most papers: the densest network and list.
researcher=$(canon "/researchers/$(sql "SELECT researcher_id FROM authorships
    GROUP BY researcher_id ORDER BY count(*) DESC, researcher_id LIMIT 1")")
institution=$(canon "/institutions/$(sql "SELECT id FROM institutions
    ORDER BY researcher_count DESC, id LIMIT 1")")

pages=$(printf '[%s]' "$(printf '{"name":"%s","path":"%s"},' \
    home / \
    search '/search?q=federica' \
    search-empty '/search?q=zzzzqqqq' \
    paper "$paper" \
    researchers /researchers \
    researcher "$researcher" \
    institutions /institutions \
    institution "$institution" \
    about /about \
    developers /developers \
    contact /contact \
    privacy /privacy | sed 's/,$//')")

shots=$WEFT_VAR/screenshots
rm -rf "$shots"
# The chat streams a model's answer when the stack has an endpoint (the
# fake: tests/run.sh); otherwise it answers with extracts in one piece.
llm=0
grep -q 'mode=llm' "$WEFT_VAR/log/chat.log" 2>/dev/null && llm=1
rcli --scan --pattern 'weft:chat:m:*' | while read -r k; do rcli del "$k" >/dev/null; done
WEFT_SHOTS=$shots WEFT_PAGES=$pages WEFT_MAIL=$WEFT_VAR/mail \
    WEFT_CHAT_LLM=$llm node "$dir/run.js"
