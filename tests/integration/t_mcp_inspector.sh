#!/bin/bash
# t_mcp_inspector.sh -- the MCP Inspector's CLI mode
# (@modelcontextprotocol/inspector, pinned in tests/package.json) against
# /mcp over Streamable HTTP: tools/list (with its schema portability
# check), tools/call of each tool against the bundled data,
# resources/templates/list and resources/read, and an unknown tool.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
nm=$ROOT/tests/node_modules
if ! npm_ready .bin/mcp-inspector; then
	echo "1..0 # SKIP npm could not install @modelcontextprotocol/inspector"
	exit 0
fi
OUT=$T_TMP/out
# insp ARGS...: the CLI against /mcp; its stdout in $OUT, status in $RC.
insp() {
	HOME=$T_TMP timeout 60 "$nm/.bin/mcp-inspector" --cli "$WEFT_URL/mcp" \
	    --transport http "$@" >"$OUT" 2>"$T_TMP/err"
	RC=$?
}
# out_is JQ EXPECTED NAME: jq -r on the CLI's JSON output.
out_is() {
	local v
	v=$(jq -r "$1" "$OUT" 2>/dev/null)
	[ "$v" = "$2" ]
	ok $? "$3" "jq '$1' gave '$v', want '$2'; $(head -c 300 "$T_TMP/err")"
}

insp --method tools/list
ok $RC "tools/list runs" "$(head -c 300 "$T_TMP/err")"
out_is '[.tools[].name] | sort | join(",")' \
    ask,get_institution,get_paper,get_researcher,researcher_papers,search,similar_papers \
    "tools/list: the seven tools"
out_is '[.tools[] | select(.outputSchema.type == "object")] | length' 7 \
    "tools/list: each with an output schema"
insp --method tools/list --strict
ok $RC "tools/list --strict: no error-severity schema portability problem" \
    "$(head -c 400 "$T_TMP/err")"

insp --method tools/call --tool-name search --tool-arg 'q=software testing' \
    --tool-arg type=papers
ok $RC "search runs"
out_is '.structuredContent.total > 0' true "search: papers found"
out_is "[.structuredContent.results[].url | startswith(\"$WEFT_URL/papers/\")] | all" \
    true "search: canonical URLs"

insp --method tools/call --tool-name get_paper --tool-arg id=arXiv:2512.20345v1
out_is .structuredContent.arxiv_id 2512.20345 "get_paper: any form of the id"
out_is '.content[0].text | startswith("# ")' true "get_paper: markdown"
rurl=$(jq -r '[.structuredContent.authors[].researcher.url // empty][0]' "$OUT")
rid=$(printf '%s' "$rurl" | sed -n 's|.*/researchers/\([0-9]*\)-.*|\1|p')

# The CLI reads each value as JSON when it can: an arXiv id that looks
# like a number goes quoted, and the server refuses the number itself.
insp --method tools/call --tool-name get_paper --tool-arg id=2512.20345
grep -q 'must be a JSON string' "$OUT" "$T_TMP/err"
ok $? "an arXiv id sent as a number: refused, saying why"
insp --method tools/call --tool-name similar_papers --tool-arg 'id="2512.20345"'
out_is '.structuredContent.items | type' array "similar_papers: a list"

insp --method tools/call --tool-name get_researcher --tool-arg "id=$rid"
out_is .structuredContent.url "$rurl" "get_researcher: the author's page"

insp --method tools/call --tool-name researcher_papers --tool-arg "id=$rid" \
    --tool-arg sort=citations
out_is .structuredContent.papers.sort citations "researcher_papers: sorted"
out_is '.structuredContent.papers.items | length > 0' true \
    "researcher_papers: papers"

insp --method tools/call --tool-name search --tool-arg q=university \
    --tool-arg type=institutions
iid=$(jq -r '.structuredContent.results[0].url' "$OUT" |
    sed -n 's|.*/institutions/\([0-9]*\).*|\1|p')
insp --method tools/call --tool-name get_institution --tool-arg "id=$iid"
out_is '.structuredContent.id | tostring' "$iid" "get_institution"

insp --method resources/templates/list
out_is '[.resourceTemplates[].uriTemplate] | index("'"$WEFT_URL"'/papers/{arxiv_id}") != null' \
    true "resources/templates/list: papers"
insp --method resources/read --uri "$WEFT_URL/papers/2512.20345"
out_is '.contents[0].mimeType' text/markdown "resources/read: markdown"
out_is ".contents[0].uri | startswith(\"$WEFT_URL/papers/2512.20345-\")" true \
    "resources/read: at the canonical URL"

insp --method tools/call --tool-name no_such_tool
[ "$RC" != 0 ] || grep -q -- '-32602' "$OUT" "$T_TMP/err"
ok $? "an unknown tool is an error"

done_testing
