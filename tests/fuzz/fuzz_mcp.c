/*
 * fuzz_mcp.c -- the MCP server's request parser and header rules
 * (modules/pages/mcp/rpc.c) on arbitrary bytes:
 *
 *   mcp_parse     0 gives a message of a known kind whose method (for
 *                 requests and notifications) is a non-empty string and
 *                 whose id (when set) is a string or an integer; a
 *                 failure is a parse error or an invalid request with a
 *                 reason; either way the error response it leads to
 *                 serialises
 *   mcp_accept, mcp_origin_ok, mcp_version_ok, mcp_session_ok
 *                 never crash on any NUL-terminated string
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core.h"
#include "mcp/mcp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mcp_msg m;
	const char *why;
	json_t *r;
	char *s;
	int code;

	code = mcp_parse((const char *)data, size, &m, &why);
	if (code == 0) {
		if ((unsigned)m.kind >= MCP_MSG__MAX)
			abort();
		if (m.kind != MCP_MSG_RESPONSE &&
		    (m.method == NULL || *m.method == '\0'))
			abort();
		if (m.id != NULL && !json_is_string(m.id) &&
		    !json_is_integer(m.id))
			abort();
		r = mcp_result(m.id, json_object());
	} else {
		if ((code != MCP_PARSE_ERROR && code != MCP_INVALID_REQUEST) ||
		    why == NULL)
			abort();
		r = mcp_error(m.id, code, why, NULL);
	}
	if ((s = json_dumps(r, JSON_COMPACT)) == NULL)
		abort();
	free(s);
	json_decref(r);
	mcp_msg_free(&m);

	/* The header rules on the same bytes as a C string. */
	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	(void)mcp_accept(s);
	(void)mcp_origin_ok(s, "http://127.0.0.1:8080", "https://a.example");
	(void)mcp_version_ok(s);
	(void)mcp_session_ok(s);
	free(s);
	return 0;
}
