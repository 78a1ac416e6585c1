/*
 * mcp/ask.c -- the MCP tool "ask": a question about one paper, a
 * researcher's papers, the papers of a search or the whole archive,
 * answered by the chat module's own retrieval and answer code
 * (modules/chat/answer.c, linked from libchat.a, never copied) with
 * numbered references to the papers' canonical URLs.
 *
 * Always extractive: the tool is open to anonymous agents (API keys
 * only raise their read limits), and a language model costs per token,
 * so an MCP answer quotes the retrieved papers' sentences closest to the
 * question, each cited.  Generated answers are /chat's, for signed-in
 * users under their quotas.
 *
 * chat's statements (sql/queries/chat.sql) are prepared on a second
 * connection of the pages worker, opened at its first question with the
 * worker's own role (db.pages, else db) and kept for the process: the
 * retrieval reads papers and authorships only, which that role reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core.h"
#include "pages.h"
#include "mcp/mcp.h"
#include "chat.h"
#include "chat_sql.h"

/* The worker's connection with chat's statements, or NULL. */
static struct core_db *chat_db;

void
pages_mcp_ask_fini(void)
{
	core_db_close(chat_db);
	chat_db = NULL;
}

/* chat_db, opened when needed: CORE_OK or CORE_EDB (logged). */
static enum core_err
db_open(struct core_ctx *ctx)
{
	const char *conninfo;
	char key[64];
	enum core_err er;

	if (chat_db != NULL)
		return CORE_OK;
	/* The role the host connects the module with (host_conninfo()). */
	snprintf(key, sizeof(key), "db.%s", ctx->mod->name);
	conninfo = core_conf_get(ctx->conf, key, NULL);
	if (conninfo == NULL || *conninfo == '\0')
		conninfo = core_conf_get(ctx->conf, "db", "dbname=weft");
	if ((er = core_db_open(conninfo, chat_sql, CHAT_SQL__MAX, &chat_db)) !=
	    CORE_OK) {
		core_db_close(chat_db);
		chat_db = NULL;
	}
	return er;
}

static int
blank(const char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			return 0;
	return 1;
}

/* 1 when the paper or researcher arg exists; -1 on a database error. */
static int
exists(int stmt, const char *arg)
{
	const char *params[1] = { arg };
	PGresult *res = NULL;
	int found;

	if (core_db_exec(chat_db, stmt, params, 1, &res) != CORE_OK)
		return -1;
	found = PQntuples(res) > 0;
	PQclear(res);
	return found;
}

/*
 * The scope's argument into *arg (borrowed from in or ident): NULL for
 * all; 0, or -1 with a tool error message in *why (static).
 */
static int
scope_arg(enum chat_scope scope, const json_t *in, struct pages_ident *ident,
    const char **arg, const char **why)
{
	const char *id = json_string_value(json_object_get(in, "id"));
	long long rid;

	*arg = NULL;
	if (scope == CHAT_SCOPE_ALL)
		return 0;
	if (id == NULL || blank(id)) {
		*why = scope == CHAT_SCOPE_PAPER ? "scope paper needs id: an "
						   "arXiv id"
		    : scope == CHAT_SCOPE_SEARCH ? "scope search needs id: the "
						   "search query"
						 : "scope researcher needs id: "
						   "the researcher's weft id";
		return -1;
	}
	if (scope == CHAT_SCOPE_PAPER) {
		if (!pages_ident_query(id, ident) ||
		    ident->kind != PAGES_IDENT_ARXIV) {
			*why = "id is not an arXiv id";
			return -1;
		}
		*arg = ident->value;
	} else if (scope == CHAT_SCOPE_RESEARCHER) {
		if (core_id_parse(id, strlen(id), &rid) != 0) {
			*why = "id must be a researcher's weft id, such as "
			       "123 or 123-name";
			return -1;
		}
		*arg = id;
	} else
		*arg = id;
	return 0;
}

/* The answer's text: the extracts, then the references as links. */
static char *
answer_md(const struct chat_answer *a, const char *base)
{
	struct core_buf b = CORE_BUF_INIT;
	const json_t *r;
	size_t i;
	char *u;

	core_buf_puts(&b, a->md != NULL ? a->md : "");
	if (json_array_size(a->refs) > 0)
		core_buf_puts(&b, "\n## References\n\n");
	json_array_foreach(a->refs, i, r)
	{
		u = pages_abs(base, core_json_text(r, "path"));
		core_buf_printf(&b, "%lld. ",
		    (long long)json_integer_value(json_object_get(r, "n")));
		core_md_link(&b, core_json_text(r, "title"), u);
		core_buf_puts(&b, " (arXiv:");
		core_md_text(&b, core_json_text(r, "arxiv_id"));
		core_buf_puts(&b, ")\n");
		free(u);
	}
	return core_buf_steal(&b);
}

/* The references with absolute URLs: [{n, arxiv_id, title, url,
 * published}] (new reference). */
static json_t *
refs_model(const json_t *refs, const char *base)
{
	json_t *out = json_array();
	const json_t *r;
	size_t i;

	json_array_foreach(refs, i, r) json_array_append_new(out,
	    json_pack("{s:O,s:O,s:O,s:o,s:O?}", "n", json_object_get(r, "n"),
		"arxiv_id", json_object_get(r, "arxiv_id"), "title",
		json_object_get(r, "title"), "url",
		pages_json_abs(base, core_json_text(r, "path")), "published",
		json_object_get(r, "published")));
	return out;
}

json_t *
pages_mcp_ask(struct core_req *req, const json_t *in)
{
	struct core_ctx *ctx = core_req_ctx(req), cctx;
	struct chat_state cst;
	struct chat_answer a;
	struct pages_ident ident;
	const char *q = json_string_value(json_object_get(in, "question"));
	const char *s = json_string_value(json_object_get(in, "scope"));
	const char *arg = NULL, *why = NULL;
	enum chat_scope scope = CHAT_SCOPE_ALL;
	json_t *m, *r;
	char *text;
	int i, found;

	memset(&a, 0, sizeof(a));
	if (blank(q))
		return pages_mcp_result("question must not be blank", NULL, 1);
	for (i = 0; s != NULL && i < CHAT_SCOPE__MAX; i++)
		if (strcmp(s, chat_scope_names[i]) == 0)
			scope = (enum chat_scope)i;
	if (scope_arg(scope, in, &ident, &arg, &why) != 0)
		return pages_mcp_result(why, NULL, 1);
	if (db_open(ctx) != CORE_OK)
		return pages_mcp_result("the archive is not available right "
					"now: try again later",
		    NULL, 1);
	if (scope == CHAT_SCOPE_PAPER || scope == CHAT_SCOPE_RESEARCHER) {
		found = exists(scope == CHAT_SCOPE_PAPER
			? CHAT_SQL_PAPER_EXISTS
			: CHAT_SQL_RESEARCHER_EXISTS,
		    arg);
		if (found <= 0)
			return pages_mcp_result(found < 0
				? "the archive is not available right now: "
				  "try again later"
				: scope == CHAT_SCOPE_PAPER
				? "weft has no paper with this id"
				: "weft has no researcher with this id",
			    NULL, 1);
	}
	/* chat_answer() reads the chat module's state and statements: its
	 * own context, on chat_db, without a model (extracts). */
	memset(&cst, 0, sizeof(cst));
	cctx = *ctx;
	cctx.db = chat_db;
	cctx.mod_state = &cst;
	if (chat_answer(&cctx, scope, arg, 0, q, 1, NULL, &a) != CORE_OK) {
		chat_answer_free(&a);
		return pages_mcp_result("the archive is not available right "
					"now: try again later",
		    NULL, 1);
	}
	text = answer_md(&a, ctx->base_url);
	m = json_pack("{s:s,s:s,s:s?,s:s,s:s,s:o,s:s}", "question", q, "scope",
	    chat_scope_names[scope], "id", arg, "mode", "extractive", "answer",
	    a.md != NULL ? a.md : "", "references",
	    refs_model(a.refs, ctx->base_url), "note",
	    "Extracts: the retrieved papers' sentences closest to the "
	    "question, each cited.  Generated answers are at /chat, signed "
	    "in.");
	r = pages_mcp_result(text, m, 0);
	free(text);
	chat_answer_free(&a);
	return r;
}
