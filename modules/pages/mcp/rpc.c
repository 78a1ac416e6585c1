/*
 * mcp/rpc.c -- JSON-RPC 2.0 as MCP 2025-06-18 uses it, and the header
 * rules of its Streamable HTTP transport.  Pure functions of their
 * arguments: the unit tests and fuzz_mcp call them directly.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "core.h"
#include "mcp/mcp.h"

/* The revisions whose rules these are: the header may name either. */
static const char *const versions[] = { MCP_VERSION, "2025-03-26" };

/*
 * An id is a string or an integer: MCP forbids null, and a fraction
 * could not be echoed back exactly.
 */
static int
id_ok(const json_t *id)
{
	return json_is_string(id) || json_is_integer(id);
}

int
mcp_parse(const char *body, size_t n, struct mcp_msg *m, const char **why)
{
	json_error_t e;
	const json_t *v, *id;
	json_t *root;

	memset(m, 0, sizeof(*m));
	*why = NULL;
	/* One value, nothing after it; jansson refuses invalid UTF-8 and
	 * caps nesting depth. */
	root =
	    json_loadb(body, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &e);
	if (root == NULL) {
		*why = "the body is not one JSON value";
		return MCP_PARSE_ERROR;
	}
	m->root = root;
	if (json_is_array(root)) {
		*why = "batches are not allowed in MCP 2025-06-18: send one "
		       "message per request";
		return MCP_INVALID_REQUEST;
	}
	if (!json_is_object(root)) {
		*why = "a message is a JSON object";
		return MCP_INVALID_REQUEST;
	}
	id = json_object_get(root, "id");
	if (id != NULL && id_ok(id))
		m->id = id;
	v = json_object_get(root, "jsonrpc");
	if (!json_is_string(v) || strcmp(json_string_value(v), "2.0") != 0) {
		*why = "jsonrpc must be \"2.0\"";
		return MCP_INVALID_REQUEST;
	}
	if (id != NULL && !id_ok(id)) {
		*why = "id must be a string or an integer";
		return MCP_INVALID_REQUEST;
	}
	v = json_object_get(root, "method");
	if (v == NULL) {
		/* The client's answer to a request of ours. */
		if (id == NULL ||
		    (json_object_get(root, "result") == NULL) ==
			(json_object_get(root, "error") == NULL)) {
			*why = "a message needs a method, or an id with "
			       "either a result or an error";
			return MCP_INVALID_REQUEST;
		}
		m->kind = MCP_MSG_RESPONSE;
		return 0;
	}
	if (!json_is_string(v) || json_string_length(v) == 0) {
		*why = "method must be a non-empty string";
		return MCP_INVALID_REQUEST;
	}
	m->method = json_string_value(v);
	m->params = json_object_get(root, "params");
	if (m->params != NULL && !json_is_object(m->params) &&
	    !json_is_array(m->params)) {
		*why = "params must be an object";
		return MCP_INVALID_REQUEST;
	}
	m->kind = id != NULL ? MCP_MSG_REQUEST : MCP_MSG_NOTIFICATION;
	return 0;
}

void
mcp_msg_free(struct mcp_msg *m)
{
	if (m == NULL)
		return;
	json_decref(m->root);
	memset(m, 0, sizeof(*m));
}

/* {"jsonrpc":"2.0","id":id} with id copied (null when NULL). */
static json_t *
envelope(const json_t *id)
{
	json_t *o = json_object();

	json_object_set_new(o, "jsonrpc", json_string("2.0"));
	json_object_set_new(o, "id",
	    id != NULL ? json_deep_copy(id) : json_null());
	return o;
}

json_t *
mcp_result(const json_t *id, json_t *result)
{
	json_t *o = envelope(id);

	json_object_set_new(o, "result",
	    result != NULL ? result : json_object());
	return o;
}

json_t *
mcp_error(const json_t *id, int code, const char *msg, json_t *data)
{
	json_t *o = envelope(id), *e;

	e = json_pack("{s:i,s:o}", "code", code, "message",
	    core_json_str(msg != NULL ? msg : "error"));
	if (data != NULL)
		json_object_set_new(e, "data", data);
	json_object_set_new(o, "error", e);
	return o;
}

/* The media range at s[0..n) ("text/html;q=0.9"): its type into t (lower
 * case) and 0 when its q is 0. */
static int
range(const char *s, size_t n, char *t, size_t tsz)
{
	size_t i = 0, k = 0;
	const char *q;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	while (
	    i < n && s[i] != ';' && s[i] != ' ' && s[i] != '\t' && k + 1 < tsz)
		t[k++] = (char)tolower((unsigned char)s[i++]);
	t[k] = '\0';
	/* q=0, q=0.0, q=0.000: not acceptable. */
	for (q = s + i; q < s + n; q++) {
		if ((q[0] == 'q' || q[0] == 'Q') && q + 1 < s + n &&
		    q[1] == '=' && (q == s || q[-1] == ';' || q[-1] == ' ')) {
			q += 2;
			if (q < s + n && *q == '0') {
				for (q++; q < s + n && (*q == '.' || *q == '0');
				     q++)
					;
				if (q >= s + n || *q == ';' || *q == ' ')
					return 0;
			}
			break;
		}
	}
	return 1;
}

enum mcp_wire
mcp_accept(const char *accept)
{
	const char *p, *end;
	char t[64];
	int json = 0, sse = 0;
	size_t n;

	if (accept == NULL || accept[strspn(accept, " \t")] == '\0')
		return MCP_WIRE_JSON;
	for (p = accept; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		n = (size_t)(end - p);
		if (!range(p, n, t, sizeof(t)))
			continue;
		if (strcmp(t, "application/json") == 0 ||
		    strcmp(t, "application/*") == 0 || strcmp(t, "*/*") == 0)
			json = 1;
		else if (strcmp(t, "text/event-stream") == 0)
			sse = 1;
	}
	if (json)
		return MCP_WIRE_JSON;
	return sse ? MCP_WIRE_SSE : MCP_WIRE_NONE;
}

/* 1 when origin is s[0..n) exactly, in any ASCII case. */
static int
same(const char *origin, const char *s, size_t n)
{
	return n > 0 && strlen(origin) == n && strncasecmp(origin, s, n) == 0;
}

int
mcp_origin_ok(const char *origin, const char *base, const char *allowed)
{
	const char *p, *path;
	size_t n;

	if (origin == NULL)
		return 1;
	if (base != NULL) {
		/* base's origin: scheme, host and port, without a path. */
		p = strstr(base, "://");
		path = p != NULL ? strchr(p + 3, '/') : NULL;
		n = path != NULL ? (size_t)(path - base) : strlen(base);
		if (same(origin, base, n))
			return 1;
	}
	for (p = allowed; p != NULL && *p != '\0'; p += n) {
		p += strspn(p, " \t,");
		n = strcspn(p, " \t,");
		if (same(origin, p, n))
			return 1;
	}
	return 0;
}

int
mcp_version_ok(const char *v)
{
	size_t i;

	for (i = 0; v != NULL && i < sizeof(versions) / sizeof(versions[0]);
	     i++)
		if (strcmp(v, versions[i]) == 0)
			return 1;
	return 0;
}

int
mcp_session_ok(const char *s)
{
	size_t i;

	for (i = 0; s != NULL && s[i] != '\0'; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
			(s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s != NULL && i == 64;
}
