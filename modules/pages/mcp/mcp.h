/*
 * mcp/mcp.h -- the MCP server at /mcp (Model Context Protocol, revision
 * 2025-06-18, Streamable HTTP transport): the JSON-RPC messages and the
 * transport's header rules (rpc.c, pure, for the unit tests and the
 * fuzzer), the transport and sessions (mcp.c), the tools and resources
 * (tools.c), which answer with the pages' own views through subrequests
 * (core_req_sub_new()), and the authorisation hook (auth.c).  Part of
 * pages.so; module.c names the handler.
 */
#ifndef PAGES_MCP_H
#define PAGES_MCP_H

#include <stddef.h>

#include <jansson.h>

#include "core.h"

/* The revision we speak, and the largest request body we read. */
#define MCP_VERSION  "2025-06-18"
#define MCP_BODY_MAX (1024 * 1024)

/* ------------------------------------------------------------------ */
/* rpc.c: JSON-RPC 2.0 messages and the transport's header rules       */
/* ------------------------------------------------------------------ */

/* The JSON-RPC error codes MCP uses. */
#define MCP_PARSE_ERROR        (-32700)
#define MCP_INVALID_REQUEST    (-32600)
#define MCP_METHOD_NOT_FOUND   (-32601)
#define MCP_INVALID_PARAMS     (-32602)
#define MCP_INTERNAL_ERROR     (-32603)
#define MCP_RESOURCE_NOT_FOUND (-32002)

enum mcp_kind {
	MCP_MSG_REQUEST,      /* method and id: needs a response */
	MCP_MSG_NOTIFICATION, /* method, no id */
	MCP_MSG_RESPONSE,     /* id with result or error: the client's answer */
	MCP_MSG__MAX
};

struct mcp_msg {
	enum mcp_kind kind;
	json_t *root;         /* owned */
	const char *method;   /* borrowed from root; NULL for a response */
	const json_t *id;     /* borrowed; NULL for a notification */
	const json_t *params; /* borrowed; NULL when absent */
};

/*
 * Parses one message from body[0..n).  0 and *m set (free with
 * mcp_msg_free()), or MCP_PARSE_ERROR (not one JSON value) or
 * MCP_INVALID_REQUEST (a batch, which 2025-06-18 forbids, or not a
 * JSON-RPC 2.0 message) with *why a static explanation; m->id is then
 * the id when one could be read (the error response carries it), else
 * NULL, and m must still be freed.
 */
int mcp_parse(const char *body, size_t n, struct mcp_msg *m, const char **why);
void mcp_msg_free(struct mcp_msg *);

/* A response: {"jsonrpc":"2.0","id":id,"result":result} (takes ownership
 * of result), or an error with code, msg and data (may be NULL; taken).
 * id NULL is null.  New references. */
json_t *mcp_result(const json_t *id, json_t *result);
json_t *mcp_error(const json_t *id, int code, const char *msg, json_t *data);

/* How a POST is answered, from its Accept header. */
enum mcp_wire {
	MCP_WIRE_JSON, /* application/json: the default */
	MCP_WIRE_SSE,  /* text/event-stream only: one event, then the end */
	MCP_WIRE_NONE, /* neither: 406 */
	MCP_WIRE__MAX
};
enum mcp_wire mcp_accept(const char *accept);
/*
 * 1 when a request from origin may use the server: no Origin (not a
 * browser), the site's own (base, "http://host:port"), or one of the
 * space-separated origins in allowed (may be NULL).  Browsers on other
 * sites are refused: DNS rebinding.
 */
int mcp_origin_ok(const char *origin, const char *base, const char *allowed);
/* 1 for a protocol revision we speak (the MCP-Protocol-Version header). */
int mcp_version_ok(const char *v);
/* 1 for a well-formed session id of ours: 64 lowercase hex digits. */
int mcp_session_ok(const char *s);

/* ------------------------------------------------------------------ */
/* mcp.c and tools.c                                                   */
/* ------------------------------------------------------------------ */

/* /mcp: POST (messages), DELETE (ends a session), anything else 405. */
enum core_err pages_mcp(struct core_req *);

/*
 * The methods after initialize: tools/list, tools/call, resources/list,
 * resources/templates/list, resources/read and ping.  Returns the
 * response to m (a request) as a new reference.
 */
json_t *pages_mcp_dispatch(struct core_req *, const struct mcp_msg *m);
/* The server's capabilities for initialize (new reference). */
json_t *pages_mcp_capabilities(void);
/*
 * A tool's result: {"content":[{"type":"text","text":text}]}, with
 * structured as "structuredContent" (taken; may be NULL) and "isError"
 * when err.  New reference.
 */
json_t *pages_mcp_result(const char *text, json_t *structured, int err);

/* ask.c: the tool "ask" (in: its checked arguments), extracts from the
 * chat module's retrieval; pages_mcp_ask_fini() closes its connection. */
json_t *pages_mcp_ask(struct core_req *, const json_t *in);
void pages_mcp_ask_fini(void);

#endif /* PAGES_MCP_H */
