#!/bin/bash
# t_feeds_guide.sh -- guidance for machines through nginx: robots.txt
# (rules and the sitemap), llms.txt (llmstxt.org structure, served as
# markdown, every link absolute and alive) and openapi.json (OpenAPI 3.1
# checked by two real validators from npm, pinned in tests/package.json,
# and covering every URL of DESIGN.md).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
fresh() { : >"$BODY"; }
# alive URL: 200 after at most one redirect.
alive() {
	curl -s -o /dev/null -L --max-redirs 1 --max-time 20 \
	    -w '%{http_code}' "$1"
}

# ------------------------------------------------------------ robots.txt
get /robots.txt
is_status 200 "/robots.txt answers"
header_is Content-Type "text/plain; charset=utf-8" "robots.txt: plain text"
header_has ETag '"' "robots.txt: ETag"
body_has "User-agent: *" "robots.txt: a group for every crawler"
grep -qx "Sitemap: $WEFT_URL/sitemap.xml" "$BODY"
ok $? "robots.txt names the sitemap with its absolute URL"
for p in /account /feed /rss/feed/ /signin /signup; do
	grep -qx "Disallow: $p" "$BODY"
	ok $? "robots.txt disallows $p"
done
! grep -qE '^Disallow: (/|/papers|/researchers|/institutions|/rss/?)$' "$BODY"
ok $? "robots.txt lets crawlers reach the public pages and feeds"
[ "$(alive "$WEFT_URL/sitemap.xml")" = 200 ]
ok $? "the sitemap it names answers"

# ------------------------------------------------------------ llms.txt
get /llms.txt
is_status 200 "/llms.txt answers"
header_is Content-Type "text/markdown; charset=utf-8" "llms.txt: markdown"
header_has x-markdown-tokens "" "llms.txt: x-markdown-tokens"
[ "$(head -1 "$BODY")" = "# weft" ]
ok $? "llms.txt: the H1 is the site's name"
# The llmstxt.org order: H1, then a blockquote summary before any
# section, then H2 sections only.
awk 'NR > 1 && /^#/ { exit } /^> / { found = 1 } END { exit !found }' "$BODY"
ok $? "llms.txt: a > summary before the first section"
! grep -qE '^(#|###+) ' <(tail -n +2 "$BODY")
ok $? "llms.txt: no other H1 and no deeper headings"
[ "$(grep -c '^## ' "$BODY")" -ge 2 ]
ok $? "llms.txt: ## sections"
grep -q '^## Optional$' "$BODY"
ok $? "llms.txt: an Optional section"
body_has 'Accept: text/markdown' "llms.txt: markdown by Accept"
body_has '?format=md' "llms.txt: markdown by ?format=md"
body_has 'Accept: application/json' "llms.txt: JSON by Accept"
body_has '?format=json' "llms.txt: JSON by ?format=json"
body_has '/papers/{arxiv-id}' "llms.txt: the URL patterns"
grep -oE '\]\([^)]*\)' "$BODY" | sed 's/^](//; s/)$//' >"$T_TMP/links"
[ -s "$T_TMP/links" ] && ! grep -vq "^$WEFT_URL/" "$T_TMP/links"
ok $? "llms.txt: every link is absolute" "$(grep -v "^$WEFT_URL/" \
    "$T_TMP/links" | head -2)"
dead=
while read -r u; do
	[ "$(alive "$u")" = 200 ] || dead="$dead $u"
done <"$T_TMP/links"
[ -z "$dead" ]
ok $? "llms.txt: every link answers 200" "dead:$dead"
grep -q '^- \[[^]]*\](' "$BODY"
ok $? "llms.txt: sections are lists of [name](url) links"

# ------------------------------------------------------------ openapi.json
get /openapi.json
is_status 200 "/openapi.json answers"
header_is Content-Type "application/json" "openapi.json: JSON, no charset"
header_has ETag '"' "openapi.json: ETag"
cp "$BODY" "$T_TMP/openapi.json"
json_is .openapi 3.1.0 "OpenAPI 3.1"
json_is '.servers[0].url' "$WEFT_URL" "servers[0].url is this site"
json_is '.components.schemas.Error.properties.error.required | join(",")' \
    "status,message" "the error object {error: {status, message}}"
# (but the MCP server's, a JSON-RPC error object)
json_is '[.paths | del(.["/mcp"])[][] | .responses["404"] // empty |
    (."$ref" // "")] | map(select(. != "#/components/responses/NotFound")) |
    length' 0 "every 404 is the shared negotiated error"
json_is '.paths["/search"].get.parameters |
    map(.name // (."$ref" | split("/") | last)) | sort | join(",")' \
    "category,format,from,institution,mode,page,paper_type,q,researcher,sort,to,type" \
    "/search with its parameters"
etag=$(header ETag)
fresh
get /openapi.json -H "If-None-Match: $etag"
is_status 304 "openapi.json: If-None-Match 304"

# Every URL of the contract is described.  A {placeholder} segment, with
# whatever surrounds it in that segment, compares as one "{}".
design=$ROOT/../shared/DESIGN.md
if [ -f "$design" ]; then
	python3 - "$design" "$T_TMP/openapi.json" <<-'PY'
	import json, re, sys
	def norm(p):
	    p = p.split("?")[0]
	    return "/".join("{}" if "{" in s else s for s in p.split("/"))
	want = set()
	for line in open(sys.argv[1]):
	    if not line.startswith("| `/") and not line.startswith("| `POST"):
	        continue
	    for tok in re.findall(r"`([^`]*)`", line):
	        tok = re.sub(r"^(GET|POST) ", "", tok)
	        if tok.startswith("/") and tok != "/metrics":
	            want.add(norm(tok))
	have = {norm(p) for p in json.load(open(sys.argv[2]))["paths"]}
	missing = sorted(want - have)
	for m in missing:
	    print("#   missing", m)
	sys.exit(1 if missing or len(want) < 20 else 0)
	PY
	ok $? "openapi.json describes every URL of DESIGN.md"
else
	skip "DESIGN.md is not at $design"
fi

# Every described GET without parameters answers (no 404s in the doc);
# one that needs a query parameter (a mailed link's token) is skipped.
jq -r '.paths | to_entries[] | select(.value.get != null) |
    select(.key | test("[{]") | not) |
    select([.value.get.parameters[]? | select(.required == true)] |
    length == 0) | .key' "$T_TMP/openapi.json" \
    >"$T_TMP/plain"
dead=
while read -r p; do
	[ "$(alive "$WEFT_URL$p")" = 200 ] || dead="$dead $p"
done <"$T_TMP/plain"
[ -z "$dead" ]
ok $? "every described GET path without parameters answers 200" \
    "failing:$dead"

# The validators: npm ci when missing; a TAP skip only when npm cannot
# reach its registry.
nm=$ROOT/tests/node_modules
if [ ! -x "$nm/.bin/redocly" ] || [ ! -d "$nm/@apidevtools/swagger-parser" ]
then
	if command -v npm >/dev/null &&
	    npm ci --prefix "$ROOT/tests" --no-audit --no-fund \
	    >"$T_TMP/npm.log" 2>&1; then
		:
	else
		sed 's/^/#   /' "$T_TMP/npm.log" 2>/dev/null | tail -5
	fi
fi
if [ -x "$nm/.bin/redocly" ] && [ -d "$nm/@apidevtools/swagger-parser" ]
then
	node "$ROOT/tests/openapi-validate.js" "$T_TMP/openapi.json" \
	    >"$T_TMP/v.log" 2>&1
	ok $? "swagger-parser: valid against the OpenAPI 3.1 schema" \
	    "$(head -5 "$T_TMP/v.log")"
	"$nm/.bin/redocly" lint --config "$ROOT/tests/redocly.yaml" \
	    --format=stylish "$T_TMP/openapi.json" >"$T_TMP/r.log" 2>&1
	ok $? "redocly lint (recommended rules): no error" \
	    "$(grep -E 'error|warning' "$T_TMP/r.log" | head -5)"
	! grep -q ' warning ' "$T_TMP/r.log"
	ok $? "redocly lint: no warning" \
	    "$(grep ' warning ' "$T_TMP/r.log" | head -5)"
else
	skip "npm could not install the validators (offline?)"
	skip "npm could not install the validators (offline?)"
	skip "npm could not install the validators (offline?)"
fi

done_testing
