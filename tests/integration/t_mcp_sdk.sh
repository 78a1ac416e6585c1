#!/bin/bash
# t_mcp_sdk.sh -- the official MCP TypeScript SDK client
# (@modelcontextprotocol/sdk, pinned in tests/package.json and its
# lockfile) against /mcp over Streamable HTTP: tests/mcp-sdk-client.mjs
# connects, lists the tools, calls each against the bundled data, reads
# the resources and ends its session (TAP).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if ! npm_ready @modelcontextprotocol/sdk; then
	echo "1..0 # SKIP npm could not install @modelcontextprotocol/sdk"
	exit 0
fi
node "$ROOT/tests/mcp-sdk-client.mjs"
