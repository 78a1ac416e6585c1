/*
 * session.c -- who is asking: the session cookie, sessions stored hashed
 * in PostgreSQL (so a Redis outage signs nobody out), the pre-session
 * cookie that keys the sign-in and sign-up forms' CSRF token, and the
 * checks every state-changing POST starts with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core.h"
#include "accounts.h"

static const char *
cookie_name(struct core_req *req)
{
	const char *n = core_req_ctx(req)->session_cookie;

	return n != NULL && *n != '\0' ? n : "weft_session";
}

static int
secure(struct core_req *req)
{
	const struct acc_state *st = core_req_ctx(req)->mod_state;

	return st != NULL && st->secure;
}

/* Adds Set-Cookie name=value with our attributes. */
static void
set_cookie(struct core_req *req, const char *name, const char *value,
    long max_age)
{
	char *v;

	v = core_xasprintf("%s=%s; Path=/; Max-Age=%ld; HttpOnly; "
			   "SameSite=Lax%s",
	    name, value, max_age, secure(req) ? "; Secure" : "");
	core_resp_header(req, "Set-Cookie", v);
	free(v);
}

enum core_err
acc_session_load(struct core_req *req, struct acc_session *s)
{
	struct core_ctx *ctx = core_req_ctx(req);
	unsigned char raw[ACC_TOKEN_RAW];
	const char *tok;
	enum core_err er;

	memset(s, 0, sizeof(*s));
	if ((tok = core_req_session(req)) == NULL)
		return CORE_OK;
	s->had_cookie = 1;
	/* A malformed token cannot name a session: no query for it. */
	if (acc_token_parse(tok, raw) != 0)
		return CORE_OK;
	acc_token_hash(tok, s->hash);
	if ((er = acc_store_session_user(ctx->db, s->hash, &s->uid,
		 s->email)) != CORE_OK) {
		sodium_memzero(raw, sizeof(raw));
		return er;
	}
	if (s->uid > 0) {
		s->valid = 1;
		memcpy(s->token, tok, ACC_TOKEN_LEN + 1);
		acc_csrf_derive(raw, s->csrf);
		/* The sessions list's "last seen"; a failure costs nothing. */
		(void)acc_store_session_touch(ctx->db, s->hash);
	}
	sodium_memzero(raw, sizeof(raw));
	return CORE_OK;
}

enum core_err
acc_session_start(struct core_req *req, long long uid, const char *email,
    struct acc_session *s)
{
	struct core_ctx *ctx = core_req_ctx(req);
	unsigned char raw[ACC_TOKEN_RAW];
	char agent[80], net[64];
	enum core_err er;

	memset(s, 0, sizeof(*s));
	acc_token_new(s->token);
	acc_token_hash(s->token, s->hash);
	if ((er = acc_store_session_create(ctx->db, s->hash, uid,
		 ACC_SESSION_TTL)) != CORE_OK) {
		memset(s, 0, sizeof(*s));
		return er;
	}
	/* What the sessions list shows: summaries, never secrets. */
	acc_agent_summary(core_req_env(req, "HTTP_USER_AGENT"), agent);
	acc_network_summary(core_req_env(req, "REMOTE_ADDR"), net);
	(void)acc_store_session_describe(ctx->db, s->hash, agent, net);
	s->had_cookie = 1;
	s->valid = 1;
	s->uid = uid;
	snprintf(s->email, sizeof(s->email), "%s", email);
	if (acc_token_parse(s->token, raw) == 0)
		acc_csrf_derive(raw, s->csrf);
	sodium_memzero(raw, sizeof(raw));
	set_cookie(req, cookie_name(req), s->token, ACC_SESSION_TTL);
	return CORE_OK;
}

void
acc_cookie_expire(struct core_req *req)
{
	set_cookie(req, cookie_name(req), "", 0);
}

enum core_err
acc_session_end(struct core_req *req, struct acc_session *s)
{
	enum core_err er = CORE_OK;

	if (s->valid)
		er = acc_store_session_delete(core_req_ctx(req)->db, s->hash);
	acc_cookie_expire(req);
	memset(s, 0, sizeof(*s));
	return er;
}

void
acc_pre_token(struct core_req *req, char tok[ACC_TOKEN_LEN + 1])
{
	unsigned char raw[ACC_TOKEN_RAW];
	const char *c = core_req_cookie(req, ACC_PRE_COOKIE);

	if (acc_token_parse(c, raw) == 0) {
		memcpy(tok, c, ACC_TOKEN_LEN + 1);
		sodium_memzero(raw, sizeof(raw));
		return;
	}
	acc_token_new(tok);
	set_cookie(req, ACC_PRE_COOKIE, tok, ACC_PRE_TTL);
}

void
acc_private_headers(struct core_req *req)
{
	core_resp_header(req, "Cache-Control", "private, no-store");
	/* nginx adds the CSP, X-Frame-Options and Referrer-Policy. */
	core_resp_header(req, "X-Robots-Tag", "noindex");
}

enum core_err
acc_post_begin(struct core_req *req, const struct core_params **form)
{
	static const struct core_params none = { NULL, 0 };
	struct core_ctx *ctx = core_req_ctx(req);
	const char *ct, *cl;
	enum core_err er;

	*form = NULL;
	if (!acc_origin_ok(ctx->base_url, core_req_env(req, "HTTP_ORIGIN"),
		core_req_env(req, "HTTP_REFERER"))) {
		core_log(CORE_LOG_WARN, "csrf", "foreign origin on %s",
		    core_req_path(req));
		return core_req_fail(req, 403,
		    "this form was sent from another "
		    "site; requests that change something must come from "
		    "this site's own pages");
	}
	/* A POST with no body at all is an empty form (no fields). */
	ct = core_req_env(req, "CONTENT_TYPE");
	cl = core_req_env(req, "CONTENT_LENGTH");
	if ((ct == NULL || *ct == '\0') &&
	    (cl == NULL || *cl == '\0' || strcmp(cl, "0") == 0)) {
		*form = &none;
		return CORE_OK;
	}
	if ((er = core_req_form(req, form)) != CORE_OK) {
		if (er == CORE_ETOOLARGE)
			return core_req_fail(req, 413,
			    "the form is too large "
			    "(at most 64 KB)");
		return core_req_fail(req, 400,
		    "the form is malformed: "
		    "send application/x-www-form-urlencoded fields "
		    "in valid UTF-8");
	}
	return CORE_OK;
}

enum core_err
acc_post_open(struct core_req *req, const struct core_params **form)
{
	enum core_err er;

	*form = NULL;
	if ((er = core_req_negotiate(req, acc_offers, 3)) != CORE_OK)
		return er;
	return acc_post_begin(req, form);
}

int
acc_csrf_bad(struct core_req *req, const char *tok, const char *given)
{
	if (acc_csrf_check(tok, given))
		return 0;
	core_log(CORE_LOG_WARN, "csrf", "bad token on %s", core_req_path(req));
	return 1;
}
