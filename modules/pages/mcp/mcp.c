/*
 * mcp/mcp.c -- /mcp, the Streamable HTTP transport of MCP 2025-06-18:
 * one JSON-RPC message per POST, answered with application/json (or one
 * text/event-stream event when the client accepts only that), sessions
 * issued at initialize and kept in Redis, DELETE to end one.  No server
 * stream: GET is a 405.  Every refusal is a JSON-RPC error object with
 * the status the specification gives, never a 5xx.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <hiredis.h>
#include <sodium.h>

#include "core.h"
#include "pages.h"
#include "mcp/mcp.h"

/* How long an idle session lives, unless mcp_session_ttl says. */
#define SESSION_TTL 3600

/*
 * The response: msg (taken; NULL: no body) with status, as JSON or as
 * one server-sent event.  Never stored by a cache.
 */
static enum core_err
reply(struct core_req *req, int status, enum mcp_wire wire, json_t *msg)
{
	struct core_buf *b = core_resp_body(req);

	core_resp_status(req, status);
	core_resp_header(req, "Cache-Control", "no-store");
	if (msg == NULL)
		return CORE_OK;
	if (wire == MCP_WIRE_SSE) {
		core_resp_ctype(req, "text/event-stream");
		core_buf_puts(b, "event: message\ndata: ");
		/* Compact JSON has no line breaks: one data line. */
		core_json_render(b, msg, 0);
		core_buf_puts(b, "\n\n");
	} else {
		core_resp_type(req, CORE_REP_JSON);
		core_json_render(b, msg, 1);
	}
	json_decref(msg);
	return CORE_OK;
}

/* An error answer outside any message (id null), always JSON. */
static enum core_err
refuse(struct core_req *req, int status, int code, const char *msg)
{
	return reply(req, status, MCP_WIRE_JSON,
	    mcp_error(NULL, code, msg, NULL));
}

static long
session_ttl(struct core_ctx *ctx)
{
	long t = core_conf_int(ctx->conf, "mcp_session_ttl", SESSION_TTL);

	return t > 0 ? t : SESSION_TTL;
}

/*
 * A new session in Redis: its id into sid (64 hex digits and a NUL).
 * 0, or -1 when Redis is away: the server then runs without sessions
 * (said in the log) rather than refusing every client.
 */
static int
session_new(struct core_ctx *ctx, const char *version, char sid[65])
{
	unsigned char raw[32];
	struct redisReply *r = NULL;
	int ok;

	randombytes_buf(raw, sizeof(raw));
	sodium_bin2hex(sid, 65, raw, sizeof(raw));
	ok = ctx->redis != NULL &&
	    core_redis_cmd(ctx->redis, &r, "SET weft:mcp:%s %s EX %ld", sid,
		version, session_ttl(ctx)) == CORE_OK;
	freeReplyObject(r);
	if (!ok)
		core_log(CORE_LOG_WARN, "mcp",
		    "Redis is away: no session issued");
	return ok ? 0 : -1;
}

/*
 * Checks the request's session and extends it: 0 (known, or Redis away:
 * let it through), or the response's status (400 none, 404 unknown or
 * expired) after writing it.
 */
static int
session_check(struct core_req *req, const char *sid)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct redisReply *r = NULL;
	enum core_err er;
	int known;

	if (sid == NULL) {
		/* Without Redis no session was issued: nothing to ask for. */
		if (ctx->redis == NULL ||
		    core_redis_cmd(ctx->redis, &r, "PING") != CORE_OK)
			return 0;
		freeReplyObject(r);
		refuse(req, 400, MCP_INVALID_REQUEST,
		    "Mcp-Session-Id is required after initialize");
		return 400;
	}
	if (!mcp_session_ok(sid)) {
		refuse(req, 404, MCP_INVALID_REQUEST,
		    "unknown session: initialize again");
		return 404;
	}
	if (ctx->redis == NULL)
		return 0;
	er = core_redis_cmd(ctx->redis, &r, "EXPIRE weft:mcp:%s %ld", sid,
	    session_ttl(ctx));
	known = er != CORE_OK ||
	    (r->type == REDIS_REPLY_INTEGER && r->integer == 1);
	freeReplyObject(r);
	if (!known) {
		refuse(req, 404, MCP_INVALID_REQUEST,
		    "unknown or expired session: initialize again");
		return 404;
	}
	return 0;
}

/* initialize: the server's description and a new session. */
static enum core_err
initialize(struct core_req *req, enum mcp_wire wire, const struct mcp_msg *m)
{
	const json_t *v = json_object_get(m->params, "protocolVersion");
	json_t *res;
	char sid[65];

	if (!json_is_object(m->params) || !json_is_string(v))
		return reply(req, 200, wire,
		    mcp_error(m->id, MCP_INVALID_PARAMS,
			"initialize needs params.protocolVersion", NULL));
	/* The client's revision when we speak it, else ours. */
	if (!mcp_version_ok(json_string_value(v)))
		v = NULL;
	res = json_pack("{s:s,s:o,s:{s:s,s:s,s:s},s:s}", "protocolVersion",
	    v != NULL ? json_string_value(v) : MCP_VERSION, "capabilities",
	    pages_mcp_capabilities(), "serverInfo", "name", "weft", "title",
	    "weft, a scholarly archive", "version", "1.0.0", "instructions",
	    "Papers from arXiv, the researchers who wrote them and their "
	    "institutions.  Use search to find papers, researchers or "
	    "institutions, then get_paper, get_researcher, get_institution, "
	    "similar_papers and researcher_papers.  Every result carries "
	    "its canonical URL; resources/read returns a page as markdown.");
	if (session_new(core_req_ctx(req),
		v != NULL ? json_string_value(v) : MCP_VERSION, sid) == 0)
		core_resp_header(req, "Mcp-Session-Id", sid);
	return reply(req, 200, wire, mcp_result(m->id, res));
}

static enum core_err
post(struct core_req *req)
{
	struct mcp_msg m;
	const char *body = NULL, *why, *ct, *v;
	enum mcp_wire wire;
	enum core_err er;
	size_t n = 0;
	int code;

	wire = mcp_accept(core_req_env(req, "HTTP_ACCEPT"));
	if (wire == MCP_WIRE_NONE)
		return refuse(req, 406, MCP_INVALID_REQUEST,
		    "Accept must include application/json or "
		    "text/event-stream");
	ct = core_req_env(req, "CONTENT_TYPE");
	if (ct == NULL || strncasecmp(ct, "application/json", 16) != 0 ||
	    (ct[16] != '\0' && ct[16] != ';' && ct[16] != ' '))
		return refuse(req, 415, MCP_INVALID_REQUEST,
		    "Content-Type must be application/json");
	if ((er = core_req_body(req, MCP_BODY_MAX, &body, &n)) ==
	    CORE_ETOOLARGE)
		return refuse(req, 413, MCP_INVALID_REQUEST,
		    "the body is larger than 1 MB");
	if (er != CORE_OK)
		return refuse(req, 400, MCP_PARSE_ERROR,
		    "the body is shorter than its Content-Length");
	if ((code = mcp_parse(body, n, &m, &why)) != 0) {
		er = reply(req, 400, MCP_WIRE_JSON,
		    mcp_error(m.id, code, why, NULL));
		mcp_msg_free(&m);
		return er;
	}
	if (m.kind == MCP_MSG_REQUEST && strcmp(m.method, "initialize") == 0) {
		er = initialize(req, wire, &m);
		goto out;
	}
	v = core_req_env(req, "HTTP_MCP_PROTOCOL_VERSION");
	if (v != NULL && !mcp_version_ok(v)) {
		er = reply(req, 400, MCP_WIRE_JSON,
		    mcp_error(m.id, MCP_INVALID_REQUEST,
			"unsupported MCP-Protocol-Version: this server "
			"speaks " MCP_VERSION,
			json_pack("{s:[s]}", "supported", MCP_VERSION)));
		goto out;
	}
	if (session_check(req, core_req_env(req, "HTTP_MCP_SESSION_ID")) != 0) {
		er = CORE_OK;
		goto out;
	}
	/* Notifications and the client's responses: accepted, no body. */
	if (m.kind != MCP_MSG_REQUEST)
		er = reply(req, 202, wire, NULL);
	else
		er = reply(req, 200, wire, pages_mcp_dispatch(req, &m));
out:
	mcp_msg_free(&m);
	return er;
}

/* DELETE: the client ends its session. */
static enum core_err
end_session(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *sid = core_req_env(req, "HTTP_MCP_SESSION_ID");
	struct redisReply *r = NULL;

	if (sid == NULL)
		return refuse(req, 400, MCP_INVALID_REQUEST,
		    "Mcp-Session-Id names the session to end");
	if (session_check(req, sid) != 0)
		return CORE_OK;
	if (ctx->redis != NULL)
		core_redis_cmd(ctx->redis, &r, "DEL weft:mcp:%s", sid);
	freeReplyObject(r);
	return reply(req, 204, MCP_WIRE_JSON, NULL);
}

enum core_err
pages_mcp(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *method = core_req_method(req);
	enum core_err er;

	/* DNS rebinding: a page elsewhere must not reach this server. */
	if (!mcp_origin_ok(core_req_env(req, "HTTP_ORIGIN"), ctx->base_url,
		core_conf_get(ctx->conf, "mcp_origins", NULL)))
		return refuse(req, 403, MCP_INVALID_REQUEST,
		    "this Origin may not use the server");
	/* API keys and the read limits (core_serve() did it for a GET). */
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0 &&
	    (er = core_req_limit(req)) != CORE_OK)
		return er;
	if (strcmp(method, "POST") == 0)
		return post(req);
	if (strcmp(method, "DELETE") == 0)
		return end_session(req);
	/* No server-initiated stream: GET (and the rest) is a 405. */
	core_resp_header(req, "Allow", "POST, DELETE");
	return refuse(req, 405, MCP_INVALID_REQUEST,
	    "POST a JSON-RPC message; DELETE ends a session; this server "
	    "offers no event stream");
}
