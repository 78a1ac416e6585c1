/*
 * chat.c -- the chat handlers: GET /chat (the conversations), GET
 * /chat/{id} (one, and its markdown export), POST /chat (ask: a new
 * conversation, or conversation={id} to continue one), POST
 * /chat/{id}/delete.  Signed in only: the session cookie is checked
 * with accounts' functions (accounts.h) against the sessions table, of
 * which this pool may read only (token_hash, user_id, expires_at).
 * Every POST passes the Origin/Referer check and carries the session's
 * CSRF token (field csrf or header X-CSRF-Token), as accounts' do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <hiredis/hiredis.h>

#include "core.h"
#include "accounts.h"
#include "chat.h"
#include "chat_sql.h"

static const enum core_rep offers[] = { CORE_REP_HTML, CORE_REP_MD,
	CORE_REP_JSON };
#define NOFFERS (sizeof(offers) / sizeof(offers[0]))

/* Who asks: uid (> 0), or 0 when signed out; CORE_EDB when unknown. */
static enum core_err
who(struct core_req *req, long long *uid)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *tok = core_req_session(req);
	unsigned char raw[ACC_TOKEN_RAW];
	char hash[ACC_HASH_HEX + 1];
	const char *params[1] = { hash };
	PGresult *res = NULL;
	enum core_err er;

	*uid = 0;
	if (tok == NULL || acc_token_parse(tok, raw) != 0)
		return CORE_OK;
	acc_token_hash(tok, hash);
	if ((er = core_db_exec(ctx->db, CHAT_SQL_SESSION_USER, params, 1,
		 &res)) != CORE_OK)
		return er;
	if (PQntuples(res) > 0)
		*uid = core_cell_bigint(res, 0, CHAT_SESSION_USER__USER_ID, 0);
	PQclear(res);
	return CORE_OK;
}

/*
 * Does the client ask for the answer as it grows (a POST with
 * text/event-stream in Accept)?
 */
static int
wants_stream(struct core_req *req)
{
	const char *acc = core_req_env(req, "HTTP_ACCEPT");

	return strcmp(core_req_method(req), "POST") == 0 && acc != NULL &&
	    strstr(acc, "text/event-stream") != NULL;
}

/*
 * Negotiates and finds the user.  Signed out: HTML gets the sign-in
 * page with next= (303), markdown and JSON a 401.  *uid > 0 on CORE_OK.
 */
static enum core_err
begin(struct core_req *req, long long *uid)
{
	enum core_err er;
	struct core_buf next = CORE_BUF_INIT;

	if (wants_stream(req)) {
		/* Anything before the stream (401, 4xx) is JSON. */
		core_resp_header(req, "Vary", "Accept");
		core_req_set_rep(req, CORE_REP_JSON);
	} else if ((er = core_req_negotiate(req, offers, NOFFERS)) != CORE_OK)
		return er;
	if ((er = who(req, uid)) != CORE_OK)
		return er;
	core_resp_header(req, "Cache-Control", "private, no-store");
	core_resp_header(req, "X-Robots-Tag", "noindex");
	if (*uid > 0)
		return CORE_OK;
	if (core_req_rep(req) != CORE_REP_HTML) {
		core_resp_header(req, "WWW-Authenticate",
		    "Cookie realm=\"weft\"");
		return core_req_fail(req, 401,
		    "sign in to chat with the papers: POST /signin, then send "
		    "the session cookie");
	}
	core_buf_puts(&next, "/signin?next=");
	if (strcmp(core_req_method(req), "GET") == 0) {
		/* Back to this page, its scope (?scope=&id=) included. */
		struct core_buf self = CORE_BUF_INIT;

		core_buf_puts(&self, core_req_path(req));
		if (core_req_query(req)[0] != '\0')
			core_buf_printf(&self, "?%s", core_req_query(req));
		core_url_encode(&next, core_buf_cstr(&self), 1);
		core_buf_free(&self);
	} else
		core_url_encode(&next, "/chat", 1);
	core_resp_redirect(req, 303, core_buf_cstr(&next));
	core_buf_free(&next);
	return CORE_OK;
}

/* The CSRF token of the request's session (the session is valid). */
static void
csrf_of(struct core_req *req, char out[ACC_HASH_HEX + 1])
{
	unsigned char raw[ACC_TOKEN_RAW];

	out[0] = '\0';
	if (acc_token_parse(core_req_session(req), raw) == 0)
		acc_csrf_derive(raw, out);
}

/*
 * An application/json body ({"question": "...", "scope": "paper", ...})
 * as the fields of a form, into own: string values as they are, integers
 * in decimal, null left out.  Going through the form parser keeps its
 * checks (UTF-8, NUL, at most 256 fields).  CORE_ETOOLARGE, CORE_EINPUT.
 */
static enum core_err
json_form(struct core_req *req, struct core_params *own)
{
	struct core_buf enc = CORE_BUF_INIT;
	const char *p, *key;
	json_t *o = NULL, *v;
	char num[24];
	size_t n;
	enum core_err er;

	if ((er = core_req_body(req, 64 * 1024, &p, &n)) != CORE_OK)
		return er;
	o = json_loadb(p, n, JSON_REJECT_DUPLICATES, NULL);
	er = CORE_EINPUT;
	if (!json_is_object(o))
		goto out;
	json_object_foreach(o, key, v)
	{
		const char *val;

		if (json_is_null(v))
			continue;
		if (json_is_string(v))
			val = json_string_value(v);
		else if (json_is_integer(v)) {
			snprintf(num, sizeof(num), "%lld",
			    (long long)json_integer_value(v));
			val = num;
		} else
			goto out;
		if (enc.len > 0)
			core_buf_putc(&enc, '&');
		core_url_encode(&enc, key, 0);
		core_buf_putc(&enc, '=');
		core_url_encode(&enc, val, 0);
	}
	er = core_query_parse(enc.ptr != NULL ? enc.ptr : "", enc.len, own);
out:
	json_decref(o);
	core_buf_free(&enc);
	return er;
}

static int
is_json_body(struct core_req *req)
{
	const char *ct = core_req_env(req, "CONTENT_TYPE");

	return ct != NULL && strncasecmp(ct, "application/json", 16) == 0 &&
	    (ct[16] == '\0' || ct[16] == ';' || ct[16] == ' ');
}

/*
 * Origin and CSRF of a POST; the form (a urlencoded body, or a JSON one
 * parsed into own, which the caller frees) is borrowed.  CORE_EFAIL: 4xx.
 */
static enum core_err
post_checks(struct core_req *req, const struct core_params **form,
    struct core_params *own)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *given;
	enum core_err er;

	if (!acc_origin_ok(ctx->base_url, core_req_env(req, "HTTP_ORIGIN"),
		core_req_env(req, "HTTP_REFERER")))
		return core_req_fail(req, 403,
		    "this request was sent from another site; requests that "
		    "change something must come from this site's own pages");
	if (is_json_body(req)) {
		er = json_form(req, own);
		*form = own;
	} else
		er = core_req_form(req, form);
	if (er != CORE_OK) {
		if (er == CORE_ETOOLARGE)
			return core_req_fail(req, 413,
			    "the form is too large (at most 64 KB)");
		return core_req_fail(req, 400,
		    "the form is malformed: send "
		    "application/x-www-form-urlencoded fields in UTF-8, or "
		    "a JSON object of strings");
	}
	given = core_params_get(*form, "csrf");
	if (given == NULL)
		given = core_req_env(req, "HTTP_X_CSRF_TOKEN");
	if (given == NULL || !acc_csrf_check(core_req_session(req), given))
		return core_req_fail(req, 403,
		    "the CSRF token is missing or wrong: take it from GET "
		    "/chat (the csrf field) and send it as csrf or "
		    "X-CSRF-Token");
	return CORE_OK;
}

/*
 * The quotas in Redis: questions per user and overall a minute, LLM
 * tokens per user a day.  0 when allowed, else the seconds to wait.
 * Redis down: allowed (the quotas protect cost, not security).
 */
static long
quota(struct core_ctx *ctx, long long uid)
{
	struct chat_state *st = ctx->mod_state;
	struct redisReply *rep = NULL;
	time_t now = time(NULL);
	long minute = (long)(now / 60), day = (long)(now / 86400);
	long wait_min = 60 - (long)(now % 60);
	char key[96];
	long long n;
	long v;

	if (ctx->redis == NULL)
		return 0;
	snprintf(key, sizeof(key), "weft:chat:m:%lld:%ld", uid, minute);
	if (core_redis_incr(ctx->redis, key, 120, &n) != CORE_OK)
		return 0;
	if (st->per_minute > 0 && n > st->per_minute)
		return wait_min;
	snprintf(key, sizeof(key), "weft:chat:g:%ld", minute);
	if (core_redis_incr(ctx->redis, key, 120, &n) != CORE_OK)
		return 0;
	if (st->global_minute > 0 && n > st->global_minute)
		return wait_min;
	snprintf(key, sizeof(key), "weft:chat:t:%lld:%ld", uid, day);
	if (core_redis_cmd(ctx->redis, &rep, "GET %s", key) != CORE_OK)
		return 0;
	v = rep->type == REDIS_REPLY_STRING ? atol(rep->str) : 0;
	freeReplyObject(rep);
	if (st->tokens_day > 0 && v >= st->tokens_day)
		return 86400 - (long)(now % 86400);
	return 0;
}

static void
spend(struct core_ctx *ctx, long long uid, long tokens)
{
	struct redisReply *rep = NULL;
	char key[96];

	if (ctx->redis == NULL || tokens <= 0)
		return;
	snprintf(key, sizeof(key), "weft:chat:t:%lld:%ld", uid,
	    (long)(time(NULL) / 86400));
	if (core_redis_cmd(ctx->redis, &rep, "INCRBY %s %ld", key, tokens) ==
	    CORE_OK)
		freeReplyObject(rep);
	if (core_redis_cmd(ctx->redis, &rep, "EXPIRE %s 90000", key) == CORE_OK)
		freeReplyObject(rep);
}

/* ------------------------------------------------------------------ */
/* Rendering                                                           */
/* ------------------------------------------------------------------ */

/* An element with one attribute and its text: a link, a label, a button. */
static void
elem_attr(struct core_html *h, enum core_tag tag, enum core_attrname key,
    const char *val, const char *text)
{
	core_html_elemtext(h, tag,
	    (const struct core_attr[]){ { key, val }, CORE_A_END }, text);
}

/* The header's account corner: the account page and the chat. */
static void
account_slot(struct core_html *h, const void *arg)
{
	(void)arg;
	elem_attr(h, CORE_TAG_A, CORE_ATTR_HREF, "/chat", "Chat");
	elem_attr(h, CORE_TAG_A, CORE_ATTR_HREF, "/account", "Account");
}

static void
page_open(struct core_html *h, struct core_req *req, const char *title)
{
	core_html_open(h, core_resp_sink(req));
	core_html_doctype(h);
	core_html_elem(h, CORE_TAG_HTML,
	    (const struct core_attr[]){ { CORE_ATTR_LANG, "en" },
		{ CORE_ATTR__MAX, NULL } });
	core_html_elem(h, CORE_TAG_HEAD, NULL);
	core_html_elem(h, CORE_TAG_META,
	    (const struct core_attr[]){ { CORE_ATTR_CHARSET, "utf-8" },
		{ CORE_ATTR__MAX, NULL } });
	core_html_elemtext(h, CORE_TAG_TITLE, NULL, title);
	core_site_head_links(h);
	/* The answer as it grows (static/chat.js); the form works without. */
	core_html_elem(h, CORE_TAG_SCRIPT,
	    (const struct core_attr[]){ { CORE_ATTR_TYPE, "module" },
		{ CORE_ATTR_SRC, "/static/chat.js" },
		{ CORE_ATTR__MAX, NULL } });
	core_html_pop(h);
	core_html_pop(h);
	core_html_elem(h, CORE_TAG_BODY, NULL);
	core_site_header(h, account_slot, NULL);
	core_html_elem(h, CORE_TAG_MAIN, NULL);
	core_html_elemtext(h, CORE_TAG_H1, NULL, title);
}

static void
page_close(struct core_html *h)
{
	core_html_pop(h); /* main */
	core_site_footer(h);
	core_html_pop(h); /* body */
	core_html_pop(h); /* html */
	(void)core_html_close(h);
}

static void
hidden(struct core_html *h, const char *name, const char *value)
{
	core_html_elem(h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ { CORE_ATTR_TYPE, "hidden" },
		{ CORE_ATTR_NAME, name }, { CORE_ATTR_VALUE, value },
		{ CORE_ATTR__MAX, NULL } });
}

/* The question form: scope and its argument kept, conversation if any. */
static void
ask_form(struct core_html *h, struct core_req *req, const char *scope,
    const char *arg, const char *conv)
{
	char csrf[ACC_HASH_HEX + 1];

	csrf_of(req, csrf);
	core_html_elem(h, CORE_TAG_FORM,
	    (const struct core_attr[]){ { CORE_ATTR_METHOD, "post" },
		{ CORE_ATTR_ACTION, "/chat" }, { CORE_ATTR_CLASS, "chat-ask" },
		{ CORE_ATTR__MAX, NULL } });
	hidden(h, "csrf", csrf);
	hidden(h, "scope", scope);
	if (arg != NULL && arg[0] != '\0')
		hidden(h, "id", arg);
	if (conv != NULL)
		hidden(h, "conversation", conv);
	elem_attr(h, CORE_TAG_LABEL, CORE_ATTR_FOR, "q", "Your question");
	core_html_elem(h, CORE_TAG_TEXTAREA,
	    (const struct core_attr[]){ { CORE_ATTR_ID, "q" },
		{ CORE_ATTR_NAME, "question" }, { CORE_ATTR_REQUIRED, "" },
		{ CORE_ATTR_MAXLENGTH, "4000" }, { CORE_ATTR__MAX, NULL } });
	core_html_pop(h);
	elem_attr(h, CORE_TAG_BUTTON, CORE_ATTR_TYPE, "submit", "Ask");
	core_html_pop(h);
}

/* ------------------------------------------------------------------ */
/* GET /chat                                                           */
/* ------------------------------------------------------------------ */

enum core_err
chat_list_get(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	long long uid;
	char ubuf[24], csrf[ACC_HASH_HEX + 1];
	const char *params[1] = { ubuf };
	PGresult *res = NULL;
	enum core_err er;
	int i;

	if ((er = begin(req, &uid)) != CORE_OK || uid == 0)
		return er;
	snprintf(ubuf, sizeof(ubuf), "%lld", uid);
	if ((er = core_db_exec(ctx->db, CHAT_SQL_CONV_LIST, params, 1, &res)) !=
	    CORE_OK)
		return er;
	csrf_of(req, csrf);
	core_resp_type(req, core_req_rep(req));
	if (core_req_rep(req) == CORE_REP_JSON) {
		json_t *o = json_pack("{s:s, s:[], s:s}", "csrf", csrf,
		    "conversations", "mode",
		    ((struct chat_state *)ctx->mod_state)->llm ? "llm"
							       : "extractive");
		json_t *a = json_object_get(o, "conversations");

		for (i = 0; i < PQntuples(res); i++)
			json_array_append_new(a,
			    json_pack("{s:I, s:s, s:s, s:s, s:s}", "id",
				(json_int_t)core_cell_bigint(res, i,
				    CHAT_CONV_LIST__ID, 0),
				"title",
				core_cell_str(res, i, CHAT_CONV_LIST__TITLE),
				"created",
				core_cell_str(res, i,
				    CHAT_CONV_LIST__CREATED_AT),
				"updated",
				core_cell_str(res, i,
				    CHAT_CONV_LIST__UPDATED_AT),
				"url", "")); /* filled below */
		for (i = 0; i < (int)json_array_size(a); i++) {
			json_t *c = json_array_get(a, i);
			char *u = core_xasprintf("/chat/%lld",
			    (long long)json_integer_value(
				json_object_get(c, "id")));

			json_object_set_new(c, "url", json_string(u));
			free(u);
		}
		core_json_render(core_resp_body(req), o, 1);
		json_decref(o);
	} else if (core_req_rep(req) == CORE_REP_MD) {
		struct core_buf *b = core_resp_body(req);

		core_md_heading(b, 1, "Your conversations");
		core_buf_puts(b, "\n");
		for (i = 0; i < PQntuples(res); i++) {
			char *u = core_xasprintf("/chat/%s",
			    core_cell_str(res, i, CHAT_CONV_LIST__ID));

			core_buf_puts(b, "- ");
			core_md_link(b,
			    core_cell_str(res, i, CHAT_CONV_LIST__TITLE), u);
			core_buf_puts(b, "\n");
			free(u);
		}
		if (PQntuples(res) == 0)
			core_buf_puts(b, "None yet.\n");
		core_buf_printf(b,
		    "\nAsk: `POST /chat` with question, scope "
		    "(all, paper, researcher, followed, "
		    "search), id and csrf=%s\n",
		    csrf);
	} else {
		struct core_html h;

		const char *sc = core_req_param(req, "scope");
		const char *id = core_req_param(req, "id");
		int k;

		/* "Ask about this paper" links here with scope and id. */
		for (k = 0; sc != NULL && k < CHAT_SCOPE__MAX; k++)
			if (strcmp(sc, chat_scope_names[k]) == 0)
				break;
		if (sc == NULL || k == CHAT_SCOPE__MAX)
			sc = "all";
		page_open(&h, req, "Chat with the papers");
		if (strcmp(sc, "all") == 0)
			core_html_elemtext(&h, CORE_TAG_P, NULL,
			    "Ask the whole archive; each answer cites the "
			    "papers it comes from.");
		else
			core_html_textf(&h,
			    "Asking about the %s %s; each "
			    "answer cites the papers it comes "
			    "from.",
			    sc, id != NULL ? id : "");
		ask_form(&h, req, sc, id, NULL);
		core_html_elemtext(&h, CORE_TAG_H2, NULL, "Your conversations");
		core_html_elem(&h, CORE_TAG_UL, NULL);
		for (i = 0; i < PQntuples(res); i++) {
			char *u = core_xasprintf("/chat/%s",
			    core_cell_str(res, i, CHAT_CONV_LIST__ID));

			core_html_elem(&h, CORE_TAG_LI, NULL);
			elem_attr(&h, CORE_TAG_A, CORE_ATTR_HREF, u,
			    core_cell_str(res, i, CHAT_CONV_LIST__TITLE));
			core_html_pop(&h);
			free(u);
		}
		core_html_pop(&h);
		page_close(&h);
	}
	PQclear(res);
	return CORE_OK;
}

/* ------------------------------------------------------------------ */
/* GET /chat/{id}                                                      */
/* ------------------------------------------------------------------ */

/* The conversation id of the path's rest ("12"), or 0. */
static long long
conv_id(const char *s, const char **tail)
{
	long long v = 0;
	size_t n = strspn(s, "0123456789");

	if (n == 0 || n > 18 || s[0] == '0')
		return 0;
	if (core_id_parse(s, n, &v) != 0)
		return 0;
	*tail = s + n;
	return v;
}

/* The turns of conversation id as a JSON array (new reference). */
static json_t *
turns_json(const PGresult *res)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < PQntuples(res); i++)
		json_array_append_new(a,
		    json_pack("{s:s, s:s, s:o, s:o, s:s, s:o, s:o, s:o, s:b, "
			      "s:o, s:s}",
			"question",
			core_cell_str(res, i, CHAT_CONV_TURNS__QUESTION),
			"answer",
			core_cell_str(res, i, CHAT_CONV_TURNS__ANSWER), "scope",
			core_cell_json(res, i, CHAT_CONV_TURNS__SCOPE,
			    json_object()),
			"references",
			core_cell_json(res, i, CHAT_CONV_TURNS__REFS,
			    json_array()),
			"mode", core_cell_str(res, i, CHAT_CONV_TURNS__MODE),
			"model",
			core_cell_jtext(res, i, CHAT_CONV_TURNS__MODEL),
			"prompt_tokens",
			core_cell_jint(res, i, CHAT_CONV_TURNS__PROMPT_TOKENS),
			"completion_tokens",
			core_cell_jint(res, i,
			    CHAT_CONV_TURNS__COMPLETION_TOKENS),
			"partial",
			core_cell_bool(res, i, CHAT_CONV_TURNS__PARTIAL, 0),
			"note", core_cell_jtext(res, i, CHAT_CONV_TURNS__NOTE),
			"created",
			core_cell_str(res, i, CHAT_CONV_TURNS__CREATED_AT)));
	return a;
}

static void
md_turn(struct core_buf *b, const json_t *t)
{
	const json_t *refs = json_object_get(t, "references"), *r;
	size_t i;

	core_buf_puts(b, "## ");
	core_md_text(b, core_json_text(t, "question"));
	core_buf_puts(b, "\n\n");
	core_buf_puts(b, core_json_text(t, "answer"));
	core_buf_puts(b, "\n");
	if (json_array_size(refs) > 0)
		core_buf_puts(b, "\nReferences:\n\n");
	json_array_foreach(refs, i, r)
	{
		core_buf_printf(b, "%lld. ",
		    (long long)core_json_int(r, "n", 0));
		core_md_link(b, core_json_text(r, "title"),
		    core_json_text(r, "path"));
		core_buf_puts(b, " (arXiv:");
		core_md_text(b, core_json_text(r, "arxiv_id"));
		core_buf_puts(b, ")\n");
	}
	core_buf_puts(b, "\n");
}

static void
html_turn(struct core_html *h, const json_t *t)
{
	const json_t *refs = json_object_get(t, "references"), *r;
	size_t i;

	core_html_elem(h, CORE_TAG_SECTION,
	    (const struct core_attr[]){ { CORE_ATTR_CLASS, "chat-turn" },
		{ CORE_ATTR__MAX, NULL } });
	core_html_elemtext(h, CORE_TAG_H2, NULL, core_json_text(t, "question"));
	if (core_json_text(t, "note") != NULL)
		elem_attr(h, CORE_TAG_P, CORE_ATTR_CLASS, "chat-note",
		    core_json_text(t, "note"));
	core_html_elem(h, CORE_TAG_DIV,
	    (const struct core_attr[]){ { CORE_ATTR_CLASS, "chat-answer" },
		{ CORE_ATTR__MAX, NULL } });
	core_html_md(h, core_json_text(t, "answer"));
	core_html_pop(h);
	core_html_elem(h, CORE_TAG_OL,
	    (const struct core_attr[]){ { CORE_ATTR_CLASS, "chat-refs" },
		{ CORE_ATTR__MAX, NULL } });
	json_array_foreach(refs, i, r)
	{
		core_html_elem(h, CORE_TAG_LI, NULL);
		elem_attr(h, CORE_TAG_A, CORE_ATTR_HREF,
		    core_json_text(r, "path"), core_json_text(r, "title"));
		core_html_pop(h);
	}
	core_html_pop(h);
	core_html_pop(h);
}

enum core_err
chat_one_get(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	long long uid, id;
	const char *tail = "";
	char ubuf[24], ibuf[24];
	const char *params[2] = { ibuf, ubuf };
	PGresult *res = NULL, *tres = NULL;
	json_t *turns = NULL, *o = NULL;
	const char *title;
	enum core_err er;
	size_t i;

	if ((er = begin(req, &uid)) != CORE_OK || uid == 0)
		return er;
	if ((id = conv_id(core_req_rest(req), &tail)) == 0 || *tail != '\0')
		return core_req_fail(req, 404, "no such conversation");
	snprintf(ubuf, sizeof(ubuf), "%lld", uid);
	snprintf(ibuf, sizeof(ibuf), "%lld", id);
	if ((er = core_db_exec(ctx->db, CHAT_SQL_CONV_ONE, params, 2, &res)) !=
	    CORE_OK)
		goto out;
	if (PQntuples(res) == 0) {
		/* Another user's conversation is as absent as none. */
		er = core_req_fail(req, 404, "no such conversation");
		goto out;
	}
	if ((er = core_db_exec(ctx->db, CHAT_SQL_CONV_TURNS, params, 1,
		 &tres)) != CORE_OK)
		goto out;
	turns = turns_json(tres);
	title = core_cell_str(res, 0, CHAT_CONV_ONE__TITLE);
	core_resp_type(req, core_req_rep(req));
	if (core_req_rep(req) == CORE_REP_JSON) {
		o = json_pack("{s:I, s:s, s:s, s:O}", "id", (json_int_t)id,
		    "title", title, "created",
		    core_cell_str(res, 0, CHAT_CONV_ONE__CREATED_AT), "turns",
		    turns);
		core_json_render(core_resp_body(req), o, 1);
	} else if (core_req_rep(req) == CORE_REP_MD) {
		struct core_buf *b = core_resp_body(req);
		char *cd =
		    core_xasprintf("inline; filename=\"chat-%lld.md\"", id);

		core_resp_header(req, "Content-Disposition", cd);
		free(cd);
		core_md_heading(b, 1, title);
		core_buf_puts(b, "\n");
		for (i = 0; i < json_array_size(turns); i++)
			md_turn(b, json_array_get(turns, i));
	} else {
		struct core_html h;
		const json_t *last =
		    json_array_get(turns, json_array_size(turns) - 1);
		const json_t *sc = json_object_get(last, "scope");
		char *del = core_xasprintf("/chat/%lld/delete", id);
		char *md = core_xasprintf("/chat/%lld?format=md", id);
		char csrf[ACC_HASH_HEX + 1];

		page_open(&h, req, title);
		for (i = 0; i < json_array_size(turns); i++)
			html_turn(&h, json_array_get(turns, i));
		ask_form(&h, req,
		    core_json_text(sc, "kind") ? core_json_text(sc, "kind")
					       : "all",
		    core_json_text(sc, "id"), ibuf);
		core_html_elem(&h, CORE_TAG_P, NULL);
		elem_attr(&h, CORE_TAG_A, CORE_ATTR_HREF, md,
		    "Export as markdown");
		core_html_pop(&h);
		csrf_of(req, csrf);
		core_html_elem(&h, CORE_TAG_FORM,
		    (const struct core_attr[]){ { CORE_ATTR_METHOD, "post" },
			{ CORE_ATTR_ACTION, del }, { CORE_ATTR__MAX, NULL } });
		hidden(&h, "csrf", csrf);
		elem_attr(&h, CORE_TAG_BUTTON, CORE_ATTR_TYPE, "submit",
		    "Delete this conversation");
		core_html_pop(&h);
		page_close(&h);
		free(del);
		free(md);
	}
	er = CORE_OK;
out:
	json_decref(o);
	json_decref(turns);
	PQclear(res);
	PQclear(tres);
	return er;
}

/* ------------------------------------------------------------------ */
/* POST /chat, POST /chat/{id}/delete                                  */
/* ------------------------------------------------------------------ */

static int
blank(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
			return 0;
	return 1;
}

/* Checks scope and its argument; CORE_EFAIL with a 4xx when wrong. */
static enum core_err
check_scope(struct core_req *req, const struct core_params *form,
    enum chat_scope *scope, const char **arg)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *s = core_params_get(form, "scope");
	const char *params[1];
	PGresult *res = NULL;
	enum core_err er;
	long long rid;
	int i, found;

	*arg = core_params_get(form, "id");
	if (s == NULL || *s == '\0')
		s = "all";
	for (i = 0; i < CHAT_SCOPE__MAX; i++)
		if (strcmp(s, chat_scope_names[i]) == 0)
			break;
	if (i == CHAT_SCOPE__MAX)
		return core_req_fail(req, 400,
		    "scope must be all, paper, researcher, followed or "
		    "search");
	*scope = (enum chat_scope)i;
	if (*scope == CHAT_SCOPE_ALL || *scope == CHAT_SCOPE_FOLLOWED) {
		*arg = NULL;
		return CORE_OK;
	}
	if (*arg == NULL || blank(*arg))
		return core_req_failf(req, 400, "scope %s needs id (%s)", s,
		    *scope == CHAT_SCOPE_PAPER        ? "an arXiv id"
			: *scope == CHAT_SCOPE_SEARCH ? "the search query"
						      : "the researcher's id");
	if (*scope == CHAT_SCOPE_SEARCH) {
		if (strlen(*arg) > 500)
			return core_req_fail(req, 413,
			    "the search query is too long");
		return CORE_OK;
	}
	if (*scope == CHAT_SCOPE_RESEARCHER &&
	    core_id_parse(*arg, strlen(*arg), &rid) != 0)
		return core_req_fail(req, 400, "id must be a researcher's id");
	if (*scope == CHAT_SCOPE_PAPER && strlen(*arg) > 40)
		return core_req_fail(req, 400, "id must be an arXiv id");
	params[0] = *arg;
	if ((er = core_db_exec(ctx->db,
		 *scope == CHAT_SCOPE_PAPER ? CHAT_SQL_PAPER_EXISTS
					    : CHAT_SQL_RESEARCHER_EXISTS,
		 params, 1, &res)) != CORE_OK)
		return er;
	found = PQntuples(res) > 0;
	PQclear(res);
	if (!found)
		return core_req_failf(req, 404, "no %s %s here", s, *arg);
	return CORE_OK;
}

static void
respond_turn(struct core_req *req, long long conv, const char *question,
    const struct chat_answer *a, enum chat_scope scope, const char *arg)
{
	char *url = core_xasprintf("/chat/%lld", conv);

	if (core_req_rep(req) == CORE_REP_HTML) {
		core_resp_redirect(req, 303, url);
		free(url);
		return;
	}
	core_resp_status(req, 201);
	core_resp_header(req, "Location", url);
	core_resp_type(req, core_req_rep(req));
	if (core_req_rep(req) == CORE_REP_JSON) {
		json_t *o =
		    json_pack("{s:I, s:s, s:s, s:s, s:{s:s, s:s?}, s:O, "
			      "s:s, s:b, s:s?, s:s?, s:{s:o, s:o}}",
			"conversation", (json_int_t)conv, "url", url,
			"question", question, "answer", a->md, "scope", "kind",
			chat_scope_names[scope], "id", arg, "references",
			a->refs, "mode", a->llm ? "llm" : "extractive",
			"partial", a->partial, "note", a->note, "model",
			a->model, "usage", "prompt_tokens",
			a->prompt_tokens >= 0 ? json_integer(a->prompt_tokens)
					      : json_null(),
			"completion_tokens",
			a->completion_tokens >= 0
			    ? json_integer(a->completion_tokens)
			    : json_null());

		core_json_render(core_resp_body(req), o, 1);
		json_decref(o);
	} else {
		struct core_buf *b = core_resp_body(req);
		json_t *t = json_pack("{s:s, s:s, s:O}", "question", question,
		    "answer", a->md, "references", a->refs);

		if (a->note != NULL) {
			core_buf_puts(b, "> ");
			core_md_text(b, a->note);
			core_buf_puts(b, "\n\n");
		}
		md_turn(b, t);
		core_buf_printf(b, "Conversation: %s\n", url);
		json_decref(t);
	}
	free(url);
}

/*
 * A streamed answer (text/event-stream): "refs" (the references, once
 * retrieved), "delta" events ({"text": piece}) as the answer grows,
 * then "done" (the conversation, its url and the finished, safe
 * markdown) or "error".  A piece cut inside a UTF-8 character waits for
 * the rest in held.  A failed write means the client went away: the
 * delta callback then returns non-zero and the upstream request stops.
 */
struct stream {
	struct core_req *req;
	struct core_buf held;
	int gone;
	int deltas;
};

/* Sends "event: name" with data (stolen); marks the stream gone. */
static void
sse_send(struct stream *sm, const char *name, json_t *data)
{
	struct core_buf b = CORE_BUF_INIT;
	char *js;

	if (data == NULL)
		return;
	js = json_dumps(data, JSON_COMPACT | JSON_ESCAPE_SLASH);
	json_decref(data);
	if (js == NULL || sm->gone) {
		free(js);
		return;
	}
	/* Compact JSON holds no line break: one data line. */
	core_buf_printf(&b, "event: %s\ndata: %s\n\n", name, js);
	if (core_resp_stream_write(sm->req, b.ptr, b.len) != CORE_OK)
		sm->gone = 1;
	core_buf_free(&b);
	free(js);
}

static void
stream_refs(void *arg, const json_t *refs)
{
	sse_send(arg, "refs", json_pack("{s:O}", "references", refs));
}

/* The length of p[0..n) without an unfinished UTF-8 character at its end. */
static size_t
utf8_whole(const char *p, size_t n)
{
	size_t k = n, need;
	unsigned char c;

	while (k > 0 && n - k < 4 && ((unsigned char)p[k - 1] & 0xc0) == 0x80)
		k--;
	if (k == 0)
		return n;
	c = (unsigned char)p[k - 1];
	need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
	return n - (k - 1) < need ? k - 1 : n;
}

static int
stream_delta(void *arg, const char *p, size_t n)
{
	struct stream *sm = arg;
	size_t whole;
	json_t *t;

	core_buf_put(&sm->held, p, n);
	whole = utf8_whole(sm->held.ptr, sm->held.len);
	if (whole > 0) {
		/* Invalid UTF-8 from the model: dropped, as the saved
		 * answer's renderer would. */
		if ((t = json_stringn(sm->held.ptr, whole)) != NULL) {
			sse_send(sm, "delta", json_pack("{s:o}", "text", t));
			sm->deltas++;
		}
		memmove(sm->held.ptr, sm->held.ptr + whole,
		    sm->held.len - whole);
		sm->held.len -= whole;
		sm->held.ptr[sm->held.len] = '\0';
	}
	return sm->gone;
}

enum core_err
chat_ask_post(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct core_params *form = NULL;
	struct core_params own = { NULL, 0 };
	const char *question, *arg = NULL, *cv, *mode;
	enum chat_scope scope = CHAT_SCOPE_ALL;
	struct chat_answer a;
	struct stream sm = { req, CORE_BUF_INIT, 0, 0 };
	struct chat_emit emit = { stream_refs, stream_delta, &sm };
	int stream = 0;
	long long uid, conv = 0;
	char ubuf[24], cbuf[24], pt[24], ct[24], *title = NULL;
	char *scope_js = NULL, *refs_js = NULL;
	const char *p[11];
	PGresult *res = NULL;
	enum core_err er;
	long wait;

	memset(&a, 0, sizeof(a));
	if ((er = begin(req, &uid)) != CORE_OK || uid == 0)
		return er;
	if ((er = post_checks(req, &form, &own)) != CORE_OK)
		goto out;
	question = core_params_get(form, "question");
	if (question == NULL || blank(question)) {
		er = core_req_fail(req, 400, "the question is empty");
		goto out;
	}
	if (strlen(question) > CHAT_QUESTION_MAX) {
		er = core_req_failf(req, 413,
		    "the question is too long (at most %d bytes)",
		    CHAT_QUESTION_MAX);
		goto out;
	}
	if ((er = check_scope(req, form, &scope, &arg)) != CORE_OK)
		goto out;
	snprintf(ubuf, sizeof(ubuf), "%lld", uid);
	if ((cv = core_params_get(form, "conversation")) != NULL &&
	    *cv != '\0') {
		const char *tail = "";

		if ((conv = conv_id(cv, &tail)) == 0 || *tail != '\0') {
			er = core_req_fail(req, 404, "no such conversation");
			goto out;
		}
		p[0] = cv;
		p[1] = ubuf;
		if ((er = core_db_exec(ctx->db, CHAT_SQL_CONV_ONE, p, 2,
			 &res)) != CORE_OK)
			goto out;
		if (PQntuples(res) == 0) {
			er = core_req_fail(req, 404, "no such conversation");
			goto out;
		}
		PQclear(res);
		res = NULL;
	}
	if ((wait = quota(ctx, uid)) > 0) {
		char w[24];

		snprintf(w, sizeof(w), "%ld", wait);
		core_resp_header(req, "Retry-After", w);
		er = core_req_failf(req, 429,
		    "too many questions: ask again in %ld seconds", wait);
		goto out;
	}
	if (wants_stream(req)) {
		/* From here on every answer is an event, never a status. */
		stream = 1;
		if (core_resp_stream_begin(req,
			"text/event-stream; charset=utf-8") != CORE_OK)
			sm.gone = 1;
	}
	mode = core_params_get(form, "mode");
	if ((er = chat_answer(ctx, scope, arg, uid, question,
		 mode != NULL && strcmp(mode, "extractive") == 0,
		 stream ? &emit : NULL, &a)) != CORE_OK)
		goto out;
	core_log(CORE_LOG_INFO, "chat_answer",
	    "scope=%s refs=%zu retrieve_ms=%.1f mode=%s partial=%d "
	    "stream=%d gone=%d",
	    chat_scope_names[scope], json_array_size(a.refs), a.retrieve_ms,
	    a.llm ? "llm" : "extractive", a.partial, stream, sm.gone);
	spend(ctx, uid,
	    (a.prompt_tokens > 0 ? a.prompt_tokens : 0) +
		(a.completion_tokens > 0 ? a.completion_tokens : 0));
	{
		json_t *sj = json_pack("{s:s, s:s?}", "kind",
		    chat_scope_names[scope], "id", arg);

		scope_js = json_dumps(sj, JSON_COMPACT);
		json_decref(sj);
		refs_js = json_dumps(a.refs, JSON_COMPACT);
	}
	if ((er = core_db_cmd(ctx->db, "BEGIN")) != CORE_OK)
		goto out;
	if (conv == 0) {
		/* The title: the question's first 120 bytes, cut between
		 * two UTF-8 characters. */
		size_t tn = strlen(question);

		if (tn > 120) {
			tn = 120;
			while (tn > 0 &&
			    ((unsigned char)question[tn] & 0xc0) == 0x80)
				tn--;
		}
		title = core_xstrndup(question, tn);
		p[0] = ubuf;
		p[1] = title;
		if ((er = core_db_exec(ctx->db, CHAT_SQL_CONV_NEW, p, 2,
			 &res)) != CORE_OK)
			goto rollback;
		conv = core_cell_bigint(res, 0, CHAT_CONV_NEW__ID, 0);
	} else {
		p[0] = cv;
		p[1] = ubuf;
		if ((er = core_db_exec(ctx->db, CHAT_SQL_CONV_TOUCH, p, 2,
			 &res)) != CORE_OK)
			goto rollback;
	}
	PQclear(res);
	res = NULL;
	snprintf(cbuf, sizeof(cbuf), "%lld", conv);
	snprintf(pt, sizeof(pt), "%ld", a.prompt_tokens);
	snprintf(ct, sizeof(ct), "%ld", a.completion_tokens);
	p[0] = cbuf;
	p[1] = question;
	p[2] = a.md;
	p[3] = scope_js;
	p[4] = refs_js;
	p[5] = a.llm ? "llm" : "extractive";
	p[6] = a.model;
	p[7] = a.prompt_tokens >= 0 ? pt : NULL;
	p[8] = a.completion_tokens >= 0 ? ct : NULL;
	p[9] = a.partial ? "true" : "false";
	p[10] = a.note;
	if ((er = core_db_exec(ctx->db, CHAT_SQL_TURN_ADD, p, 11, &res)) !=
	    CORE_OK)
		goto rollback;
	if ((er = core_db_cmd(ctx->db, "COMMIT")) != CORE_OK)
		goto out;
	if (stream) {
		char *url = core_xasprintf("/chat/%lld", conv);

		sse_send(&sm, "done",
		    json_pack("{s:I, s:s, s:s, s:s, s:b, s:s?}", "conversation",
			(json_int_t)conv, "url", url, "answer", a.md, "mode",
			a.llm ? "llm" : "extractive", "partial", a.partial,
			"note", a.note));
		free(url);
	} else
		respond_turn(req, conv, question, &a, scope, arg);
	goto out;
rollback:
	(void)core_db_cmd(ctx->db, "ROLLBACK");
out:
	if (stream && er != CORE_OK) {
		/* The status is sent: the failure is the last event. */
		sse_send(&sm, "error",
		    json_pack("{s:s}", "error",
			"the answer could not be saved; try again"));
		er = CORE_OK;
	}
	core_buf_free(&sm.held);
	core_params_free(&own);
	PQclear(res);
	free(title);
	free(scope_js);
	free(refs_js);
	chat_answer_free(&a);
	return er;
}

enum core_err
chat_post_dispatch(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const struct core_params *form = NULL;
	struct core_params own = { NULL, 0 };
	long long uid, id;
	const char *tail = "";
	char ubuf[24], ibuf[24];
	const char *p[2] = { ibuf, ubuf };
	PGresult *res = NULL;
	enum core_err er;
	int found;

	if ((er = begin(req, &uid)) != CORE_OK || uid == 0)
		return er;
	if ((id = conv_id(core_req_rest(req), &tail)) == 0 ||
	    strcmp(tail, "/delete") != 0)
		return core_req_fail(req, 404, "no such conversation");
	er = post_checks(req, &form, &own);
	core_params_free(&own);
	if (er != CORE_OK)
		return er;
	snprintf(ubuf, sizeof(ubuf), "%lld", uid);
	snprintf(ibuf, sizeof(ibuf), "%lld", id);
	if ((er = core_db_exec(ctx->db, CHAT_SQL_CONV_DELETE, p, 2, &res)) !=
	    CORE_OK)
		return er;
	found = PQntuples(res) > 0;
	PQclear(res);
	if (!found)
		return core_req_fail(req, 404, "no such conversation");
	if (core_req_rep(req) == CORE_REP_HTML) {
		core_resp_redirect(req, 303, "/chat");
		return CORE_OK;
	}
	core_resp_status(req, 204);
	return CORE_OK;
}
