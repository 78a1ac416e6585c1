/*
 * test_pages_mcp.c -- the MCP server's JSON-RPC parsing and the header
 * rules of its transport (modules/pages/mcp/rpc.c).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "t.h"
#include "core.h"
#include "mcp/mcp.h"

/* mcp_parse() of a C string: the code, and the message's kind in *kind. */
static int
parse(const char *s, int *kind, char **id)
{
	struct mcp_msg m;
	const char *why;
	int code = mcp_parse(s, strlen(s), &m, &why);

	*kind = code == 0 ? (int)m.kind : -1;
	if (id != NULL)
		*id = m.id != NULL ? json_dumps(m.id, JSON_ENCODE_ANY) : NULL;
	if (code != 0 && why == NULL)
		code = 1; /* a failure must say why */
	mcp_msg_free(&m);
	return code;
}

static void
messages(void)
{
	int k;
	char *id = NULL;

	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", &k,
		 &id),
	    0, "a request parses");
	T_EQ(k, MCP_MSG_REQUEST, "... as a request");
	T_STREQ(id, "1", "... with its id");
	free(id);
	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
		   "initialized\"}",
		 &k, NULL),
	    0, "a notification parses");
	T_EQ(k, MCP_MSG_NOTIFICATION, "... as a notification");
	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}", &k,
		 NULL),
	    0, "a response parses");
	T_EQ(k, MCP_MSG_RESPONSE, "... as a response");
	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\","
		   "\"params\":{\"a\":[1,2]}}",
		 &k, NULL),
	    0, "params as an object");

	T_EQ(parse("", &k, NULL), MCP_PARSE_ERROR, "empty body: parse error");
	T_EQ(parse("{\"jsonrpc\":", &k, NULL), MCP_PARSE_ERROR,
	    "truncated JSON: parse error");
	T_EQ(parse("{} {}", &k, NULL), MCP_PARSE_ERROR,
	    "two values: parse error");
	T_EQ(parse("{\"a\":\"\xff\"}", &k, NULL), MCP_PARSE_ERROR,
	    "invalid UTF-8: parse error");
	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"jsonrpc\":\"2.0\",\"id\":1,"
		   "\"method\":\"ping\"}",
		 &k, NULL),
	    MCP_PARSE_ERROR, "duplicate keys: parse error");
	T_EQ(parse("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", &k,
		 NULL),
	    MCP_INVALID_REQUEST, "a batch: invalid request (2025-06-18)");
	T_EQ(parse("[]", &k, NULL), MCP_INVALID_REQUEST,
	    "an empty batch: invalid request");
	T_EQ(parse("42", &k, NULL), MCP_INVALID_REQUEST,
	    "a number: invalid request");
	T_EQ(parse("{\"id\":1,\"method\":\"ping\"}", &k, NULL),
	    MCP_INVALID_REQUEST, "no jsonrpc: invalid request");
	T_EQ(parse("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", &k,
		 NULL),
	    MCP_INVALID_REQUEST, "jsonrpc 1.0: invalid request");
	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", &k,
		 NULL),
	    MCP_INVALID_REQUEST, "id null: invalid request (MCP)");
	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", &k,
		 NULL),
	    MCP_INVALID_REQUEST, "fractional id: invalid request");
	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}", &k, &id),
	    MCP_INVALID_REQUEST, "method not a string: invalid request");
	T_STREQ(id, "1", "... and the error keeps the id");
	free(id);
	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}", &k, NULL),
	    MCP_INVALID_REQUEST, "empty method: invalid request");
	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\","
		   "\"params\":3}",
		 &k, NULL),
	    MCP_INVALID_REQUEST, "params a number: invalid request");
	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"id\":1}", &k, NULL),
	    MCP_INVALID_REQUEST, "neither method nor result: invalid");
	T_EQ(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{}}",
		 &k, NULL),
	    MCP_INVALID_REQUEST, "result and error: invalid");
}

static void
responses(void)
{
	json_t *id = json_integer(7), *r;
	char *s;

	r = mcp_result(id, json_pack("{s:b}", "ok", 1));
	s = json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);
	T_STREQ(s, "{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":{\"ok\":true}}",
	    "a result");
	free(s);
	json_decref(r);
	r = mcp_error(NULL, MCP_METHOD_NOT_FOUND, "Method not found", NULL);
	s = json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);
	T_STREQ(s,
	    "{\"error\":{\"code\":-32601,\"message\":\"Method not found\"},"
	    "\"id\":null,\"jsonrpc\":\"2.0\"}",
	    "an error without an id has id null");
	free(s);
	json_decref(r);
	json_decref(id);
}

static void
headers(void)
{
	const char *base = "http://127.0.0.1:8080";

	T_EQ(mcp_accept(NULL), MCP_WIRE_JSON, "no Accept: JSON");
	T_EQ(mcp_accept("application/json, text/event-stream"), MCP_WIRE_JSON,
	    "both: JSON");
	T_EQ(mcp_accept("text/event-stream"), MCP_WIRE_SSE,
	    "event-stream only: SSE");
	T_EQ(mcp_accept("Text/Event-Stream;q=0.9, application/json;q=0"),
	    MCP_WIRE_SSE, "json refused with q=0: SSE");
	T_EQ(mcp_accept("*/*"), MCP_WIRE_JSON, "*/*: JSON");
	T_EQ(mcp_accept("text/html"), MCP_WIRE_NONE, "text/html: none");
	T_EQ(mcp_accept("application/json;q=0.0"), MCP_WIRE_NONE,
	    "json with q=0.0: none");

	T_OK(mcp_origin_ok(NULL, base, NULL), "no Origin: fine");
	T_OK(mcp_origin_ok("http://127.0.0.1:8080", base, NULL),
	    "the site's own origin");
	T_OK(mcp_origin_ok("HTTP://127.0.0.1:8080", base, NULL),
	    "... in any case");
	T_OK(!mcp_origin_ok("http://evil.example", base, NULL),
	    "a foreign origin is refused");
	T_OK(!mcp_origin_ok("http://127.0.0.1:8080.evil.example", base, NULL),
	    "a longer origin is refused");
	T_OK(!mcp_origin_ok("http://127.0.0.1:808", base, NULL),
	    "a prefix is refused");
	T_OK(!mcp_origin_ok("null", base, NULL), "null is refused");
	T_OK(!mcp_origin_ok("", base, NULL), "empty is refused");
	T_OK(mcp_origin_ok("https://app.example", "https://weft.example/sub",
		 "http://a.example https://app.example"),
	    "an allowed origin");
	T_OK(mcp_origin_ok("https://weft.example", "https://weft.example/sub",
		 NULL),
	    "base with a path: its origin");

	T_OK(mcp_version_ok("2025-06-18"), "2025-06-18 spoken");
	T_OK(!mcp_version_ok("2024-11-05"), "2024-11-05 not");
	T_OK(!mcp_version_ok(""), "empty not");
	T_OK(!mcp_version_ok(NULL), "NULL not");

	T_OK(mcp_session_ok("0123456789abcdef0123456789abcdef0123456789abcdef"
			    "0123456789abcdef"),
	    "64 hex digits: a session id");
	T_OK(!mcp_session_ok("0123456789ABCDEF0123456789abcdef0123456789abcdef"
			     "0123456789abcdef"),
	    "upper case: not ours");
	T_OK(!mcp_session_ok("abc"), "short: not ours");
	T_OK(!mcp_session_ok(NULL), "NULL: not ours");
}

int
main(void)
{
	messages();
	responses();
	headers();
	return T_DONE();
}
