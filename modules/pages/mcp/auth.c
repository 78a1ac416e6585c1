/*
 * mcp/auth.c -- the hook where /mcp checks who calls it.  Anonymous
 * clients are welcome, as on the rest of the site; API keys
 * (Authorization: Bearer, issue 22) are checked here when they exist,
 * answering 401 for a revoked or unknown key.
 */
#include "core.h"
#include "mcp/mcp.h"

int
pages_mcp_auth(struct core_req *req)
{
	(void)req;
	return 0;
}
