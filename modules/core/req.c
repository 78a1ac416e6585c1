/*
 * req.c -- one FastCGI request from start to finish: validate and decode
 * what nginx passed, route, run the handler, render errors in the
 * client's representation, apply ETag/304 and HEAD, write the response.
 *
 * Handlers only fill a struct core_req; nothing reaches the socket until
 * the handler has returned, so a failed handler can still be answered
 * with a clean error page and a validator can be computed over the body.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>

#include <fcgiapp.h>
#include <hiredis.h>
#include <sodium.h>

#include "core.h"

/* Longest raw path we accept; our URLs are far shorter. */
#define MAX_PATH    2048
#define MAX_HEADERS 32

struct hdr {
	char *name;
	char *value;
};

struct core_req {
	FCGX_Request *f;
	struct core_ctx *ctx;
	const char *method;
	int head;
	char *path;        /* decoded */
	const char *query; /* raw, "" when none */
	char *query_own;   /* a subrequest's copy of its query */
	const char *rest;  /* matched by a '*' route */
	struct core_params q;
	struct core_params cookies;
	const char *cookie_hdr; /* every Cookie header, joined by "; " */
	char *cookie_joined;    /* cookie_hdr when it had to be joined */
	int signed_in;          /* core_req_signed_in() */
	struct core_params form;
	int form_parsed;
	char *in; /* request body */
	size_t inlen;
	int in_read;
	enum core_rep rep;
	const enum core_rep *offers;
	size_t noffers;
	int status;
	struct hdr hdrs[MAX_HEADERS];
	size_t nhdrs;
	struct core_buf body;
	int etag;
	struct core_fail fail; /* core_req_fail() */
	char allow[32];        /* a 405's Allow, from the matching routes */
	char id[40];
	int limit_done;         /* core_req_limit() ran ... */
	enum core_err limit_er; /* ... and answered this */
	long long key_id;       /* its API key, 0: none */
	int streamed;           /* core_resp_stream_begin() sent the head */
	int stream_err;         /* a streamed write failed */
	int spill;              /* core_resp_spill(): may go out in pieces */
	int spilled;            /* ... and the head and a piece went */
	int sub;                /* a subrequest: never sends anything */
};

/* The representations errors can be rendered in, in our order. */
static const enum core_rep err_offers[] = {
	CORE_REP_HTML,
	CORE_REP_MD,
	CORE_REP_JSON,
};

/* ---------------------------------------------------------------- access */

const char *
core_req_method(const struct core_req *r)
{
	return r->method;
}

int
core_req_is_head(const struct core_req *r)
{
	return r->head;
}

const char *
core_req_path(const struct core_req *r)
{
	return r->path != NULL ? r->path : "/";
}

const char *
core_req_query(const struct core_req *r)
{
	return r->query;
}

const char *
core_req_rest(const struct core_req *r)
{
	return r->rest != NULL ? r->rest : "";
}

const char *
core_req_param(const struct core_req *r, const char *key)
{
	return core_params_get(&r->q, key);
}

const char *
core_req_cookie(const struct core_req *r, const char *name)
{
	return core_params_get(&r->cookies, name);
}

int
core_req_signed_in(const struct core_req *r)
{
	return r->signed_in;
}

const char *
core_req_session(const struct core_req *r)
{
	const char *name = r->ctx->session_cookie;
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < r->cookies.n; i++)
		if (strcasecmp(r->cookies.v[i].key, name) == 0)
			return r->cookies.v[i].val;
	return NULL;
}

/*
 * Every Cookie header of the request, NULL when none.  Our nginx passes
 * them joined as one HTTP_COOKIE ($http_cookie), but a FastCGI server in
 * front of us may pass one parameter per header, of which
 * FCGX_GetParam() sees only the first: a session cookie in the second
 * would then go unnoticed.  One header (the usual case) is returned as
 * it stands in envp, borrowed for the request; only several are joined
 * by "; " into *joined, which the caller frees.
 */
static const char *
cookie_headers(char **envp, char **joined)
{
	static const char pre[] = "HTTP_COOKIE=";
	struct core_buf b = CORE_BUF_INIT;
	const char *first = NULL;
	char **e;

	*joined = NULL;
	for (e = envp; e != NULL && *e != NULL; e++) {
		if (strncmp(*e, pre, sizeof(pre) - 1) != 0)
			continue;
		if (first == NULL) {
			first = *e + sizeof(pre) - 1;
			continue;
		}
		if (b.len == 0)
			core_buf_puts(&b, first);
		core_buf_puts(&b, "; ");
		core_buf_puts(&b, *e + sizeof(pre) - 1);
	}
	if (b.len == 0)
		return first;
	*joined = core_buf_steal(&b);
	return *joined;
}

const char *
core_req_env(const struct core_req *r, const char *name)
{
	return FCGX_GetParam(name, r->f->envp);
}

struct core_ctx *
core_req_ctx(struct core_req *r)
{
	return r->ctx;
}

const char *
core_req_id(const struct core_req *r)
{
	return r->id;
}

enum core_rep
core_req_rep(const struct core_req *r)
{
	return r->rep;
}

void
core_req_set_rep(struct core_req *r, enum core_rep rep)
{
	/* Each representation in enum order: &all[rep] offers just rep. */
	static const enum core_rep all[CORE_REP__MAX] = { CORE_REP_HTML,
		CORE_REP_MD, CORE_REP_JSON, CORE_REP_BIB, CORE_REP_RSS,
		CORE_REP_XML, CORE_REP_TEXT, CORE_REP_RIS, CORE_REP_CSL };

	r->rep = rep;
	r->offers = &all[rep];
	r->noffers = 1;
}

size_t
core_req_offers(const struct core_req *r, const enum core_rep **offers)
{
	*offers = r->offers;
	return r->noffers;
}

enum core_err
core_req_body(struct core_req *r, size_t max, const char **p, size_t *n)
{
	const char *cl;
	char *end;
	unsigned long long len;
	int got;

	*p = NULL;
	*n = 0;
	if (!r->in_read) {
		r->in_read = 1;
		cl = core_req_env(r, "CONTENT_LENGTH");
		len = 0;
		if (cl != NULL && *cl != '\0') {
			errno = 0;
			len = strtoull(cl, &end, 10);
			if (errno != 0 || *end != '\0')
				return CORE_EINPUT;
		}
		if (len > max)
			return CORE_ETOOLARGE;
		r->in = core_xcalloc(1, (size_t)len + 1);
		while (r->inlen < len) {
			got = FCGX_GetStr(r->in + r->inlen,
			    (int)(len - r->inlen), r->f->in);
			if (got <= 0)
				break;
			r->inlen += (size_t)got;
		}
		if (r->inlen < len)
			return CORE_EINPUT;
	}
	if (r->in == NULL)
		return CORE_EINPUT;
	*p = r->in;
	*n = r->inlen;
	return CORE_OK;
}

enum core_err
core_req_form(struct core_req *r, const struct core_params **form)
{
	const char *p, *ct;
	size_t n;
	enum core_err er;

	*form = NULL;
	if (!r->form_parsed) {
		ct = core_req_env(r, "CONTENT_TYPE");
		if (ct == NULL ||
		    strncasecmp(ct, "application/x-www-form-urlencoded", 33) !=
			0)
			return CORE_EINPUT;
		if ((er = core_req_body(r, 64 * 1024, &p, &n)) != CORE_OK)
			return er;
		if ((er = core_query_parse(p, n, &r->form)) != CORE_OK)
			return er;
		r->form_parsed = 1;
	}
	*form = &r->form;
	return CORE_OK;
}

/* ---------------------------------------------------------------- response */

void
core_resp_status(struct core_req *r, int status)
{
	r->status = status;
}

static int
is_token(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) &&
		    strchr("!#$%&'*+-.^_`|~", *s) == NULL)
			return 0;
	return 1;
}

/* Replaces the first header called name, or adds it. */
static enum core_err
set_header(struct core_req *r, const char *name, const char *value, int replace)
{
	size_t i;

	if (!is_token(name) || strpbrk(value, "\r\n") != NULL) {
		core_log(CORE_LOG_WARN, "header", "refused header %s", name);
		return CORE_EINPUT;
	}
	if (replace)
		for (i = 0; i < r->nhdrs; i++)
			if (strcasecmp(r->hdrs[i].name, name) == 0) {
				free(r->hdrs[i].value);
				r->hdrs[i].value = core_xstrdup(value);
				return CORE_OK;
			}
	if (r->nhdrs == MAX_HEADERS)
		return CORE_ESYS;
	r->hdrs[r->nhdrs].name = core_xstrdup(name);
	r->hdrs[r->nhdrs].value = core_xstrdup(value);
	r->nhdrs++;
	return CORE_OK;
}

enum core_err
core_resp_header(struct core_req *r, const char *name, const char *value)
{
	return set_header(r, name, value, 0);
}

static const char *
get_header(const struct core_req *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nhdrs; i++)
		if (strcasecmp(r->hdrs[i].name, name) == 0)
			return r->hdrs[i].value;
	return NULL;
}

static void
clear_headers(struct core_req *r)
{
	size_t i;

	for (i = 0; i < r->nhdrs; i++) {
		free(r->hdrs[i].name);
		free(r->hdrs[i].value);
	}
	r->nhdrs = 0;
}

void
core_resp_type(struct core_req *r, enum core_rep rep)
{
	if ((unsigned)rep < CORE_REP__MAX)
		set_header(r, "Content-Type", core_rep_ctype[rep], 1);
}

enum core_err
core_resp_ctype(struct core_req *r, const char *ctype)
{
	return set_header(r, "Content-Type", ctype, 1);
}

struct core_buf *
core_resp_body(struct core_req *r)
{
	return &r->body;
}

struct core_sink
core_resp_sink(struct core_req *r)
{
	return core_buf_sink(&r->body);
}

void
core_resp_etag(struct core_req *r)
{
	r->etag = 1;
}

void
core_resp_link(struct core_req *r, const char *url, const char *rel)
{
	char *v;

	v = core_xasprintf("<%s>; rel=\"%s\"", url, rel);
	set_header(r, "Link", v, 0);
	free(v);
}

void
core_resp_alternate(struct core_req *r, const char *url, const char *mime)
{
	char *v;

	v = core_xasprintf("<%s>; rel=\"alternate\"; type=\"%s\"", url, mime);
	set_header(r, "Link", v, 0);
	free(v);
}

void
core_resp_alternates(struct core_req *r, const char *url)
{
	const char *sep = strchr(url, '?') != NULL ? "&" : "?";
	char *u;
	size_t i;

	for (i = 0; i < r->noffers; i++) {
		if (r->offers[i] == r->rep)
			continue;
		u = core_xasprintf("%s%sformat=%s", url, sep,
		    core_rep_format[r->offers[i]]);
		core_resp_alternate(r, u, core_rep_mime[r->offers[i]]);
		free(u);
	}
}

void
core_resp_feed_alternates(struct core_req *r, const char *url)
{
	size_t q = strcspn(url, "?"), n, plen;
	enum core_feed_fmt fmt;
	const char *own = r->path != NULL ? r->path : "";
	char *path, *u;
	int i;

	path = core_xstrndup(url, q);
	if (core_feed_ext_parse(path, &n, &fmt) != 0) {
		free(path);
		return;
	}
	plen = strlen(own);
	for (i = 0; i < CORE_FEED__MAX; i++) {
		u = core_xasprintf("%.*s.%s%s", (int)n, path, core_feed_ext[i],
		    url + q);
		/* Not the feed itself: its path ends the absolute url. */
		if (!(i == (int)fmt && q >= plen &&
			strcmp(path + q - plen, own) == 0))
			core_resp_alternate(r, u, core_feed_mime[i]);
		free(u);
	}
	free(path);
}

/* 1 when a Link rel=alternate has been set. */
static int
has_alternate(const struct core_req *r)
{
	size_t i;

	for (i = 0; i < r->nhdrs; i++)
		if (strcasecmp(r->hdrs[i].name, "Link") == 0 &&
		    strstr(r->hdrs[i].value, "rel=\"alternate\"") != NULL)
			return 1;
	return 0;
}

/*
 * The default alternates of a negotiated answer whose handler named
 * none: the request's own address (its query without format=) in each
 * other offer, so that every negotiated response says what else there
 * is, as the pages do with their canonical url.
 */
static void
default_alternates(struct core_req *r)
{
	struct core_buf u = CORE_BUF_INIT;
	const char *p, *e;
	int first = 1;

	if (r->noffers < 2 || r->status < 200 || r->status >= 300 ||
	    r->path == NULL || has_alternate(r))
		return;
	core_buf_puts(&u, r->ctx->base_url);
	core_url_encode(&u, r->path, 1);
	for (p = r->query; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = p + strcspn(p, "&");
		if (e == p || strncmp(p, "format=", 7) == 0)
			continue;
		core_buf_putc(&u, first ? '?' : '&');
		core_buf_put(&u, p, (size_t)(e - p));
		first = 0;
	}
	core_resp_alternates(r, core_buf_cstr(&u));
	core_buf_free(&u);
}

enum core_err
core_req_fail(struct core_req *r, int status, const char *msg)
{
	return core_fail_set(&r->fail, status, msg);
}

enum core_err
core_req_failf(struct core_req *r, int status, const char *fmt, ...)
{
	struct core_buf m = CORE_BUF_INIT;
	enum core_err er;
	va_list ap;

	va_start(ap, fmt);
	core_buf_vprintf(&m, fmt, ap);
	va_end(ap);
	er = core_fail_set(&r->fail, status, core_buf_cstr(&m));
	core_buf_free(&m);
	return er;
}

char *
core_abs_url(const struct core_req *r, const char *path)
{
	return core_xasprintf("%s%s", r->ctx->base_url, path);
}

/* ---------------------------------------------------------------- negotiation */

enum core_err
core_req_negotiate(struct core_req *r, const enum core_rep *offers, size_t n)
{
	const char *fmt;
	enum core_rep rep;
	size_t i;
	int k;

	r->offers = offers;
	r->noffers = n;
	set_header(r, "Vary", "Accept", 1);
	if ((fmt = core_req_param(r, "format")) != NULL) {
		if (core_rep_from_format(fmt, &rep) == 0)
			for (i = 0; i < n; i++)
				if (offers[i] == rep) {
					r->rep = rep;
					return CORE_OK;
				}
		return CORE_ENOTACCEPT;
	}
	k = core_accept_choose(core_req_env(r, "HTTP_ACCEPT"), offers, n);
	if (k < 0)
		return CORE_ENOTACCEPT;
	r->rep = offers[k];
	return CORE_OK;
}

/* The representation for an error page when negotiation did not pick one. */
static enum core_rep
guess_rep(struct core_req *r)
{
	const char *fmt;
	enum core_rep rep;
	int k;

	if ((fmt = core_req_param(r, "format")) != NULL &&
	    core_rep_from_format(fmt, &rep) == 0 &&
	    (rep == CORE_REP_HTML || rep == CORE_REP_MD ||
		rep == CORE_REP_JSON))
		return rep;
	k = core_accept_choose(core_req_env(r, "HTTP_ACCEPT"), err_offers,
	    sizeof(err_offers) / sizeof(err_offers[0]));
	return k < 0 ? CORE_REP_TEXT : err_offers[k];
}

/* ---------------------------------------------------------------- errors */

static void
plain_html(struct core_req *r, int status, const char *title, const char *msg)
{
	struct core_html h;

	core_html_open(&h, core_resp_sink(r));
	core_html_doctype(&h);
	core_html_elem(&h, CORE_TAG_HTML,
	    (const struct core_attr[]){ { CORE_ATTR_LANG, "en" },
		{ CORE_ATTR__MAX, NULL } });
	core_html_elem(&h, CORE_TAG_HEAD, NULL);
	core_html_elem(&h, CORE_TAG_META,
	    (const struct core_attr[]){ { CORE_ATTR_CHARSET, "utf-8" },
		{ CORE_ATTR__MAX, NULL } });
	core_html_elem(&h, CORE_TAG_TITLE, NULL);
	core_html_textf(&h, "%d %s · weft", status, title);
	core_html_pop(&h);
	core_html_elem(&h, CORE_TAG_LINK,
	    (const struct core_attr[]){ { CORE_ATTR_REL, "stylesheet" },
		{ CORE_ATTR_HREF, "/static/weft.css" },
		{ CORE_ATTR__MAX, NULL } });
	core_html_pop(&h);
	core_html_elem(&h, CORE_TAG_BODY, NULL);
	core_html_elem(&h, CORE_TAG_MAIN,
	    (const struct core_attr[]){
		{ CORE_ATTR_CLASS, "container error-page" },
		{ CORE_ATTR__MAX, NULL } });
	core_site_error(&h, status, title, msg);
	core_html_close(&h);
}

void
core_resp_error(struct core_req *r, int status, const char *msg)
{
	const char *title = core_status_reason(status);
	const enum core_rep *offers;
	size_t i, n;
	json_t *o;

	const struct core_hint *hint;

	core_buf_reset(&r->body);
	/*
	 * Keep only what still holds for an error: Vary, Allow,
	 * Retry-After, the fair-use headers (a 429 or 401 is made of
	 * them), and X-Robots-Tag (a private feed's address must
	 * not be indexed, even when it is a 404).
	 */
	for (i = 0; i < r->nhdrs;) {
		if (strcasecmp(r->hdrs[i].name, "Vary") == 0 ||
		    strcasecmp(r->hdrs[i].name, "Allow") == 0 ||
		    strcasecmp(r->hdrs[i].name, "Retry-After") == 0 ||
		    strcasecmp(r->hdrs[i].name, "RateLimit") == 0 ||
		    strcasecmp(r->hdrs[i].name, "RateLimit-Policy") == 0 ||
		    strcasecmp(r->hdrs[i].name, "WWW-Authenticate") == 0 ||
		    strcasecmp(r->hdrs[i].name, "X-Robots-Tag") == 0) {
			i++;
			continue;
		}
		free(r->hdrs[i].name);
		free(r->hdrs[i].value);
		r->hdrs[i] = r->hdrs[--r->nhdrs];
	}
	r->status = status;
	r->etag = 0;
	if (r->offers == NULL || status == 406 ||
	    (r->rep != CORE_REP_HTML && r->rep != CORE_REP_MD &&
		r->rep != CORE_REP_JSON))
		r->rep = guess_rep(r);
	set_header(r, "Vary", "Accept", 1);
	set_header(r, "Cache-Control", "no-store", 1);
	n = core_req_offers(r, &offers);
	switch (r->rep) {
	case CORE_REP_JSON:
		o = json_pack("{s:{s:i,s:o}}", "error", "status", status,
		    "message", core_json_str(msg));
		if (status == 406 && o != NULL) {
			json_t *a = json_array();
			for (i = 0; i < n; i++)
				json_array_append_new(a,
				    json_string(core_rep_mime[offers[i]]));
			json_object_set_new(json_object_get(o, "error"),
			    "available", a);
		}
		/* Where to look next, as the HTML and markdown 404s say. */
		hint = r->ctx->mod != NULL ? r->ctx->mod->hints : NULL;
		if (status == 404 && hint != NULL && hint->label != NULL &&
		    o != NULL) {
			json_t *a = json_array();
			char *u;

			for (; hint->label != NULL; hint++) {
				u = core_abs_url(r, hint->path);
				json_array_append_new(a,
				    json_pack("{s:s,s:o}", "label", hint->label,
					"url", core_json_str(u)));
				free(u);
			}
			json_object_set_new(json_object_get(o, "error"), "next",
			    a);
		}
		core_json_render(&r->body, o, 1);
		json_decref(o);
		break;
	case CORE_REP_MD:
		core_buf_printf(&r->body, "# %d ", status);
		core_md_text(&r->body, title);
		core_buf_puts(&r->body, "\n\n");
		core_md_text(&r->body, msg);
		core_buf_puts(&r->body, "\n");
		/* The module says where to look instead (its hints). */
		hint = r->ctx->mod != NULL ? r->ctx->mod->hints : NULL;
		if (status == 404 && hint != NULL && hint->label != NULL) {
			core_buf_puts(&r->body, "\nWhere to look next:\n\n");
			for (; hint->label != NULL; hint++)
				core_buf_printf(&r->body, "- %s: %s%s\n",
				    hint->label, r->ctx->base_url, hint->path);
		}
		break;
	case CORE_REP_HTML:
		if (r->ctx->mod != NULL && r->ctx->mod->html_error != NULL)
			r->ctx->mod->html_error(r, status, msg);
		else
			plain_html(r, status, title, msg);
		break;
	default:
		r->rep = CORE_REP_TEXT;
		core_buf_printf(&r->body, "%d %s\n%s\n", status, title, msg);
		break;
	}
	core_resp_type(r, r->rep);
}

void
core_resp_redirect(struct core_req *r, int status, const char *loc)
{
	char *abs;
	json_t *o;

	abs = loc[0] == '/' ? core_abs_url(r, loc) : core_xstrdup(loc);
	if (set_header(r, "Location", abs, 1) != CORE_OK) {
		free(abs);
		core_resp_error(r, 400, "the redirect target is malformed");
		return;
	}
	r->status = status;
	r->etag = 0;
	core_buf_reset(&r->body);
	if (r->offers == NULL)
		r->rep = guess_rep(r);
	switch (r->rep) {
	case CORE_REP_JSON:
		o = json_pack("{s:i,s:o}", "status", status, "location",
		    core_json_str(abs));
		core_json_render(&r->body, o, 1);
		json_decref(o);
		break;
	case CORE_REP_MD:
		core_buf_printf(&r->body, "# %d ", status);
		core_md_text(&r->body, core_status_reason(status));
		core_buf_puts(&r->body, "\n\n");
		core_md_link(&r->body, abs, abs);
		core_buf_puts(&r->body, "\n");
		break;
	case CORE_REP_HTML: {
		struct core_html h;

		core_html_open(&h, core_resp_sink(r));
		core_html_doctype(&h);
		core_html_elem(&h, CORE_TAG_TITLE, NULL);
		core_html_text(&h, core_status_reason(status));
		core_html_pop(&h);
		core_html_elem(&h, CORE_TAG_P, NULL);
		core_html_text(&h, "This page has moved to ");
		core_html_elemtext(&h, CORE_TAG_A,
		    (const struct core_attr[]){ { CORE_ATTR_HREF, abs },
			{ CORE_ATTR__MAX, NULL } },
		    abs);
		core_html_text(&h, ".");
		core_html_close(&h);
		break;
	}
	default:
		r->rep = CORE_REP_TEXT;
		core_buf_printf(&r->body, "%s\n", abs);
		break;
	}
	core_resp_type(r, r->rep);
	set_header(r, "Vary", "Accept", 1);
	free(abs);
}

/* ---------------------------------------------------------------- finish */

/* Does the If-None-Match list hold etag?  Weak comparison (RFC 9110). */
static int
etag_matches(const char *inm, const char *etag)
{
	const char *p = inm, *s, *e;
	size_t n;

	if (inm == NULL)
		return 0;
	if (etag[0] == 'W' && etag[1] == '/')
		etag += 2;
	n = strlen(etag);
	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '*')
			return 1;
		s = p;
		if (s[0] == 'W' && s[1] == '/')
			s += 2;
		e = s;
		while (*e != '\0' && *e != ',')
			e++;
		p = e;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if ((size_t)(e - s) == n && memcmp(s, etag, n) == 0)
			return 1;
	}
	return 0;
}

/*
 * Was the resource (Last-Modified lm) unchanged since ims?  ims may be
 * in any of the three HTTP-date forms (RFC 9110 5.6.7); a date that is
 * none of them is ignored (13.1.3).
 */
static int
not_modified_since(const char *ims, const char *lm)
{
	int64_t a, b;

	return core_http_date_parse(ims, &a) == 0 &&
	    core_http_date_parse(lm, &b) == 0 && b <= a;
}

/*
 * Removes header name, keeping the others in their order.  A 304 sends
 * no representation metadata but its validators and caching fields
 * (RFC 9110 15.4.5), so it loses its Content-Type.
 */
static void
drop_header(struct core_req *r, const char *name)
{
	size_t i, j;

	for (i = j = 0; i < r->nhdrs; i++) {
		if (strcasecmp(r->hdrs[i].name, name) == 0) {
			free(r->hdrs[i].name);
			free(r->hdrs[i].value);
			continue;
		}
		r->hdrs[j++] = r->hdrs[i];
	}
	r->nhdrs = j;
}

/*
 * A validator needs no secrecy, only that a changed body gets a new
 * tag: SipHash-2-4 with 128 bits of output and a fixed (zero) key does
 * that at a quarter of the cost of the BLAKE2b used before (46 against
 * 207 us for the 109 KB RSS feed here), and the same in every worker.
 */
void
core_etag(const char *body, size_t n, char out[40])
{
	static const unsigned char key[crypto_shorthash_siphashx24_KEYBYTES];
	unsigned char hash[crypto_shorthash_siphashx24_BYTES];
	char hex[2 * sizeof(hash) + 1];

	crypto_shorthash_siphashx24(hash, (const unsigned char *)body, n, key);
	sodium_bin2hex(hex, sizeof(hex), hash, sizeof(hash));
	snprintf(out, 40, "\"%s\"", hex);
}

static void
apply_validators(struct core_req *r)
{
	char etag[40];
	const char *inm;

	if (!r->etag || r->status != 200)
		return;
	if (r->signed_in) {
		/*
		 * A signed-in browser sees per-user SSI fragments in this
		 * page: revalidating it would show a stale fragment.
		 */
		set_header(r, "Cache-Control", "private, no-cache", 1);
		return;
	}
	core_etag(core_buf_cstr(&r->body), r->body.len, etag);
	set_header(r, "ETag", etag, 1);
	/*
	 * Shared caches (nginx's own, a CDN) keep an anonymous page for a
	 * minute; a browser revalidates it at every use (a 304 costs a
	 * round trip, no body), so that right after signing in it asks
	 * again, with the cookie, instead of showing the signed-out page
	 * it kept.
	 */
	if (get_header(r, "Cache-Control") == NULL)
		set_header(r, "Cache-Control", "public, max-age=0, s-maxage=60",
		    1);
	inm = core_req_env(r, "HTTP_IF_NONE_MATCH");
	/* If-Modified-Since counts only without If-None-Match (RFC 9110,
	 * 13.1.3), and only against a Last-Modified the handler set. */
	if (etag_matches(inm, etag) ||
	    (inm == NULL &&
		not_modified_since(core_req_env(r, "HTTP_IF_MODIFIED_SINCE"),
		    get_header(r, "Last-Modified")))) {
		r->status = 304;
		drop_header(r, "Content-Type");
		core_buf_reset(&r->body);
	}
}

/* FastCGI (the protocol's section 8): version 1, type FCGI_STDOUT. */
#define FCGI_V1          1
#define FCGI_STDOUT_TYPE 6
/* Content per record: at most 65535; a multiple of 8 needs no padding. */
#define REC_MAX 65528
/* Records per writev (4 iovecs each: header, two pieces, padding). */
#define REC_BATCH 16

/* writev() of iov[0..n) to the end, across short writes. */
static int
writev_all(int fd, struct iovec *iov, int n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = writev(fd, iov, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (; n > 0 && (size_t)w >= iov->iov_len; iov++, n--)
			w -= (ssize_t)iov->iov_len;
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

/*
 * Sends a[0..alen) then b[0..blen) as FastCGI stdout records, straight
 * to the connection in one writev for anything up to 1 MB.  libfcgi's
 * FCGX_PutStr() copies through an 8 KB buffer and writes whenever it
 * fills (seven writes for a 48 KB page, each waking nginx); its stream
 * stays empty here, so FCGX_Finish_r() still ends the stream and the
 * request with its own records.  -1 when a write failed (nginx gone);
 * a whole response leaves that for FCGX_Finish_r() to notice, as
 * libfcgi's own writes were, a spilled one stops writing.
 */
static int
send_stdout(FCGX_Request *f, const char *a, size_t alen, const char *b,
    size_t blen)
{
	static const char zero[8];
	unsigned char hdr[REC_BATCH][8];
	struct iovec iov[REC_BATCH * 4];
	size_t total = alen + blen, off = 0, len, take, pad;
	int n, k;

	while (off < total) {
		for (n = k = 0; k < REC_BATCH && off < total; k++) {
			len = total - off < REC_MAX ? total - off : REC_MAX;
			pad = (8 - len % 8) % 8;
			hdr[k][0] = FCGI_V1;
			hdr[k][1] = FCGI_STDOUT_TYPE;
			hdr[k][2] = (unsigned char)(f->requestId >> 8);
			hdr[k][3] = (unsigned char)f->requestId;
			hdr[k][4] = (unsigned char)(len >> 8);
			hdr[k][5] = (unsigned char)len;
			hdr[k][6] = (unsigned char)pad;
			hdr[k][7] = 0;
			iov[n].iov_base = hdr[k];
			iov[n++].iov_len = 8;
			if (off < alen) {
				take = alen - off < len ? alen - off : len;
				iov[n].iov_base = (char *)(uintptr_t)(a + off);
				iov[n++].iov_len = take;
				if (take < len) {
					iov[n].iov_base = (char *)(uintptr_t)b;
					iov[n++].iov_len = len - take;
				}
			} else {
				iov[n].iov_base =
				    (char *)(uintptr_t)(b + (off - alen));
				iov[n++].iov_len = len;
			}
			if (pad > 0) {
				iov[n].iov_base = (char *)(uintptr_t)zero;
				iov[n++].iov_len = pad;
			}
			off += len;
		}
		if (writev_all(f->ipcFd, iov, n) != 0)
			return -1;
	}
	return 0;
}

/* The CGI head's status line and headers (no blank line) into h. */
static void
head_lines(const struct core_req *r, struct core_buf *h)
{
	size_t i;

	core_buf_printf(h, "Status: %d %s\r\n", r->status,
	    core_status_reason(r->status));
	for (i = 0; i < r->nhdrs; i++) {
		core_buf_puts(h, r->hdrs[i].name);
		core_buf_put(h, ": ", 2);
		core_buf_puts(h, r->hdrs[i].value);
		core_buf_put(h, "\r\n", 2);
	}
}

static void
write_response(struct core_req *r)
{
	struct core_buf h = CORE_BUF_INIT;
	int nobody;

	nobody = r->head || r->status == 304 || r->status == 204;
	if (get_header(r, "Content-Type") == NULL && r->status != 304)
		set_header(r, "Content-Type", core_rep_ctype[CORE_REP_TEXT], 1);
	head_lines(r, &h);
	if (r->status != 304)
		core_buf_printf(&h, "Content-Length: %zu\r\n", r->body.len);
	/* An estimate for agents' context budgets, as Cloudflare's
	 * markdown-for-agents sends it: about four bytes a token. */
	if (r->rep == CORE_REP_MD && r->status != 304)
		core_buf_printf(&h, "x-markdown-tokens: %zu\r\n",
		    (r->body.len + 3) / 4);
	core_buf_put(&h, "\r\n", 2);
	send_stdout(r->f, h.ptr, h.len, r->body.ptr, nobody ? 0 : r->body.len);
	core_buf_free(&h);
}

/* ---------------------------------------------------------- streaming */

/*
 * A streamed response goes through libfcgi's own stream, flushed after
 * each piece, so that nginx (unbuffered for such a location) passes it
 * on at once; FCGX_Finish_r() ends it.  SIGPIPE is ignored by the host,
 * so a closed connection shows as a failed flush.
 */
enum core_err
core_resp_stream_write(struct core_req *r, const char *p, size_t n)
{
	if (!r->streamed || r->stream_err)
		return CORE_EUPSTREAM;
	if ((n > 0 && FCGX_PutStr(p, (int)n, r->f->out) != (int)n) ||
	    FCGX_FFlush(r->f->out) != 0 || FCGX_GetError(r->f->out) != 0) {
		r->stream_err = 1;
		return CORE_EUPSTREAM;
	}
	return CORE_OK;
}

enum core_err
core_resp_stream_begin(struct core_req *r, const char *ctype)
{
	struct core_buf h = CORE_BUF_INIT;
	enum core_err er;

	if (r->streamed || strpbrk(ctype, "\r\n") != NULL)
		return CORE_EINPUT;
	r->etag = 0;
	set_header(r, "Content-Type", ctype, 1);
	set_header(r, "Cache-Control", "no-store", 1);
	/* nginx passes the body on as it comes, whatever its config. */
	set_header(r, "X-Accel-Buffering", "no", 1);
	head_lines(r, &h);
	core_buf_put(&h, "\r\n", 2);
	r->streamed = 1;
	er = core_resp_stream_write(r, h.ptr, h.len);
	core_buf_free(&h);
	return er;
}

int
core_resp_streamed(const struct core_req *r)
{
	return r->streamed;
}

/*
 * Spilling: a long body leaves in pieces of at least CORE_SPILL_MIN
 * bytes, written straight to nginx as FastCGI stdout records (as whole
 * responses are), so the worker holds one piece, not the whole body.
 * The head goes with the first piece and has no Content-Length: nginx
 * then sends the body to the client chunked.  Neither the page cache
 * nor the validators can see a body they never hold, so a spilled
 * response has no ETag and is not stored; one that stays short never
 * spills and is an ordinary response.
 */
void
core_resp_spill(struct core_req *r)
{
	r->spill = 1;
}

enum core_err
core_resp_flush(struct core_req *r)
{
	struct core_buf h = CORE_BUF_INIT;
	int rc;

	if (!r->spill || r->sub || r->streamed || r->f == NULL)
		return CORE_OK;
	if (r->stream_err)
		return CORE_EUPSTREAM;
	if (r->body.len < CORE_SPILL_MIN)
		return CORE_OK;
	if (!r->spilled) {
		r->etag = 0;
		if (get_header(r, "Content-Type") == NULL)
			set_header(r, "Content-Type",
			    core_rep_ctype[CORE_REP_TEXT], 1);
		head_lines(r, &h);
		core_buf_put(&h, "\r\n", 2);
		r->spilled = 1;
	}
	/* HEAD: the head alone; the pieces are dropped as they come. */
	rc = send_stdout(r->f, h.ptr, h.len, r->body.ptr,
	    r->head ? 0 : r->body.len);
	core_buf_free(&h);
	core_buf_reset(&r->body);
	if (rc != 0) {
		r->stream_err = 1;
		return CORE_EUPSTREAM;
	}
	return CORE_OK;
}

int
core_resp_spilled(const struct core_req *r)
{
	return r->spilled;
}

/*
 * The end of a spilled response: the last piece, or, when the handler
 * failed after the head went, a cut connection (nginx then closes the
 * client's without the last chunk), so that a truncated export never
 * looks whole.
 */
static void
spill_end(struct core_req *r, enum core_err er)
{
	if (er != CORE_OK) {
		core_log(CORE_LOG_ERROR, "request",
		    "%s: failed after the head was sent (%s); cut", r->path,
		    core_err_str(er));
		shutdown(r->f->ipcFd, SHUT_RDWR);
		return;
	}
	if (!r->stream_err && !r->head && r->body.len > 0 &&
	    send_stdout(r->f, NULL, 0, r->body.ptr, r->body.len) != 0)
		r->stream_err = 1;
}

/* ---------------------------------------------------------------- routing */

static int
method_ok(const char *want, const char *have)
{
	if (strcmp(want, "ANY") == 0)
		return 1;
	if (strcmp(want, have) == 0)
		return 1;
	return strcmp(want, "GET") == 0 && strcmp(have, "HEAD") == 0;
}

/* Adds m to the comma-separated list in allow (once). */
static void
allow_add(char *allow, size_t sz, const char *m)
{
	size_t n = strlen(m), len = strlen(allow);
	const char *p;

	for (p = allow; (p = strstr(p, m)) != NULL; p += n)
		if ((p == allow || p[-1] == ' ') &&
		    (p[n] == ',' || p[n] == '\0'))
			return;
	snprintf(allow + len, sz - len, "%s%s", len > 0 ? ", " : "", m);
}

/*
 * Finds the route for r; sets r->rest.  *path_matched tells 405 from 404,
 * and r->allow then lists the methods of the routes matching the path
 * (GET with HEAD), for the 405's Allow.
 */
static const struct core_route *
route(struct core_req *r, int *path_matched)
{
	const struct core_route *rt;
	size_t n;

	*path_matched = 0;
	r->allow[0] = '\0';
	for (rt = r->ctx->mod->routes; rt->pattern != NULL; rt++) {
		n = strlen(rt->pattern);
		if (n > 0 && rt->pattern[n - 1] == '*') {
			if (strncmp(r->path, rt->pattern, n - 1) != 0)
				continue;
			r->rest = r->path + n - 1;
		} else if (strcmp(r->path, rt->pattern) != 0)
			continue;
		else
			r->rest = "";
		if (method_ok(rt->method, r->method))
			return rt;
		*path_matched = 1;
		allow_add(r->allow, sizeof(r->allow), rt->method);
		if (strcmp(rt->method, "GET") == 0)
			allow_add(r->allow, sizeof(r->allow), "HEAD");
	}
	return NULL;
}

/* Rejects "." and ".." segments: no URL of ours has them. */
static int
has_dot_segment(const char *p)
{
	const char *s;

	for (s = p; (s = strstr(s, "/.")) != NULL; s++)
		if (s[2] == '/' || s[2] == '\0' ||
		    (s[2] == '.' && (s[3] == '/' || s[3] == '\0')))
			return 1;
	return 0;
}

/* Decodes the request line; an error status (4xx) or 0. */
static int
parse_request(struct core_req *r, const char **msg)
{
	const char *uri, *qs;
	size_t plen;

	r->method = core_req_env(r, "REQUEST_METHOD");
	if (r->method == NULL)
		r->method = "GET";
	r->head = strcmp(r->method, "HEAD") == 0;
	if ((qs = core_req_env(r, "QUERY_STRING")) == NULL)
		qs = "";
	r->query = qs;
	if ((r->cookie_hdr = cookie_headers(r->f->envp, &r->cookie_joined)) !=
	    NULL) {
		core_cookie_parse(r->cookie_hdr, &r->cookies);
		r->signed_in =
		    core_cookie_has(r->cookie_hdr, r->ctx->session_cookie);
	}
	if (core_query_parse(qs, strlen(qs), &r->q) != CORE_OK) {
		*msg = "the query string is malformed (bad escape, NUL, "
		       "invalid UTF-8 or too many parameters)";
		return 400;
	}
	/*
	 * The path to route on.  nginx passes the raw REQUEST_URI of the
	 * main request even to SSI subrequests (an include of
	 * /account/follow/7 inside /researchers/7-x), while DOCUMENT_URI is
	 * the URI this request is for, already percent-decoded and
	 * normalised by nginx; nginx itself refuses %00.  Without nginx (a
	 * bare FastCGI client) the raw REQUEST_URI is decoded here.
	 */
	if ((uri = core_req_env(r, "DOCUMENT_URI")) != NULL && *uri != '\0') {
		plen = strlen(uri);
		if (plen > MAX_PATH) {
			*msg = "the path is too long";
			return 414;
		}
		if (!core_utf8_valid(uri, plen)) {
			*msg = "the path is malformed (invalid UTF-8 or NUL)";
			return 400;
		}
		r->path = core_xstrndup(uri, plen);
	} else {
		if ((uri = core_req_env(r, "REQUEST_URI")) == NULL)
			uri = "/";
		plen = strcspn(uri, "?");
		if (plen > MAX_PATH) {
			*msg = "the path is too long";
			return 414;
		}
		if (core_url_decode(uri, plen, 0, &r->path, &plen) != CORE_OK) {
			*msg = "the path is malformed (bad escape, NUL or "
			       "invalid UTF-8)";
			return 400;
		}
	}
	if (r->path[0] != '/' || has_dot_segment(r->path)) {
		*msg = "the path is malformed";
		return 400;
	}
	return 0;
}

/* ---------------------------------------------------------------- ops */

static int
is_loopback(const char *addr)
{
	return addr != NULL &&
	    (strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0 ||
		strcmp(addr, "::ffff:127.0.0.1") == 0);
}

/*
 * /healthz (the worker answers), /readyz (PostgreSQL and Redis answer)
 * and /metrics (loopback only), the same in every module so that a load
 * balancer can probe any pool.  Returns 1 when it answered.
 */
static int
serve_ops(struct core_req *r)
{
	struct redisReply *rep = NULL;
	int db_ok, redis_ok;

	if (strcmp(r->method, "GET") != 0 && !r->head)
		return 0;
	if (strcmp(r->path, "/healthz") == 0) {
		core_buf_puts(&r->body, "ok\n");
	} else if (strcmp(r->path, "/readyz") == 0) {
		db_ok = r->ctx->db == NULL ||
		    core_db_cmd(r->ctx->db, "SELECT 1") == CORE_OK;
		redis_ok = r->ctx->redis == NULL ||
		    core_redis_cmd(r->ctx->redis, &rep, "PING") == CORE_OK;
		freeReplyObject(rep);
		core_buf_printf(&r->body,
		    "{\"postgresql\":\"%s\","
		    "\"redis\":\"%s\"}\n",
		    db_ok ? "ok" : "down", redis_ok ? "ok" : "down");
		core_resp_type(r, CORE_REP_JSON);
		r->rep = CORE_REP_JSON;
		if (!db_ok || !redis_ok) {
			r->status = 503;
			set_header(r, "Retry-After", "5", 1);
		}
	} else if (strcmp(r->path, "/metrics") == 0) {
		if (!is_loopback(core_req_env(r, "REMOTE_ADDR")))
			return 0; /* as if it did not exist */
		core_metrics_render(&r->body,
		    core_conf_get(r->ctx->conf, "socket_dir", "var/run"));
		set_header(r, "Content-Type",
		    "text/plain; version=0.0.4; charset=utf-8", 1);
	} else
		return 0;
	set_header(r, "Cache-Control", "no-store", 1);
	return 1;
}

/* ---------------------------------------------------------------- cache */

/*
 * A cached response: "W1 <status> <rep>\n", the headers one a line as
 * "Name: value", an empty line, the body.  Header values hold no CR/LF
 * (set_header refuses them), so lines split cleanly.
 */
static void
cache_save(struct core_req *r, struct core_buf *out)
{
	size_t i;

	core_buf_printf(out, "W1 %d %d\n", r->status, (int)r->rep);
	for (i = 0; i < r->nhdrs; i++)
		if (strcasecmp(r->hdrs[i].name, "X-Weft-Cache") != 0)
			core_buf_printf(out, "%s: %s\n", r->hdrs[i].name,
			    r->hdrs[i].value);
	core_buf_putc(out, '\n');
	core_buf_put(out, core_buf_cstr(&r->body), r->body.len);
}

/* Restores a cached response into r; -1 if the bytes are not one. */
static int
cache_restore(struct core_req *r, const struct core_buf *in)
{
	const char *p = in->ptr, *end = in->ptr + in->len, *nl, *colon;
	char name[64];
	int status, rep;

	if (p == NULL || sscanf(p, "W1 %d %d\n", &status, &rep) != 2 ||
	    rep < 0 || rep >= CORE_REP__MAX)
		return -1;
	if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
		return -1;
	for (p = nl + 1; p < end && *p != '\n'; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL ||
		    (colon = memchr(p, ':', (size_t)(nl - p))) == NULL ||
		    (size_t)(colon - p) >= sizeof(name) || colon + 1 >= nl)
			return -1;
		memcpy(name, p, (size_t)(colon - p));
		name[colon - p] = '\0';
		{
			char *v =
			    core_xstrndup(colon + 2, (size_t)(nl - colon - 2));
			set_header(r, name, v, 0);
			free(v);
		}
	}
	if (p >= end)
		return -1;
	r->status = status;
	r->rep = (enum core_rep)rep;
	core_buf_put(&r->body, p + 1, (size_t)(end - p - 1));
	return 0;
}

/* ---------------------------------------------------------------- limits */

/* RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-10:
 * structured-field lists of one item, the policy's name). */
static void
limit_headers(struct core_req *r, const char *name,
    const struct core_limit_state *st)
{
	char v[96];

	snprintf(v, sizeof(v), "\"%s\";q=%ld;w=%ld", name, st->quota,
	    st->window);
	set_header(r, "RateLimit-Policy", v, 1);
	snprintf(v, sizeof(v), "\"%s\";r=%ld;t=%ld", name, st->remaining,
	    st->passed ? st->reset : st->retry);
	set_header(r, "RateLimit", v, 1);
}

static enum core_err
limit_check(struct core_req *r)
{
	struct core_ctx *ctx = r->ctx;
	struct core_limits l;
	struct core_limit_state st;
	char client[CORE_CLIENT_KEY_MAX], tok[256], bucket[128], ra[24];
	redisReply *rep = NULL;
	enum core_err er;
	int b;

	core_limits(ctx->conf, &l);
	core_client_key(core_req_env(r, "REMOTE_ADDR"), client);
	b = core_bearer_parse(core_req_env(r, "HTTP_AUTHORIZATION"), tok,
	    sizeof(tok));
	if (b > 0) {
		er = core_key_lookup(ctx, tok, &r->key_id);
		sodium_memzero(tok, sizeof(tok));
		if (er != CORE_OK)
			return er;
	}
	if (b < 0 || (b > 0 && r->key_id == 0)) {
		/* RFC 6750, 3.1: at once, whatever the limits say. */
		core_metrics_count(ctx->metrics, CORE_METRIC_KEY_REFUSED);
		set_header(r, "WWW-Authenticate",
		    "Bearer realm=\"weft\", error=\"invalid_token\"", 1);
		return core_req_fail(r, 401,
		    "the API key is unknown or revoked: create one on "
		    "/account, or send no Authorization header");
	}
	if (r->key_id > 0) {
		core_metrics_count(ctx->metrics, CORE_METRIC_KEY_READ);
		if (core_redis_cmd(ctx->redis, &rep, "INCR weft:keyuse:%lld",
			r->key_id) == CORE_OK)
			freeReplyObject(rep);
		snprintf(bucket, sizeof(bucket), "weft:rb:key:%lld", r->key_id);
		core_limit_take(ctx, bucket, l.key_limit, l.key_window, &st);
		/* Never cached: every response may say where the key is. */
		limit_headers(r, "key", &st);
	} else {
		if (l.read_limit <= 0 || core_limit_exempt(ctx->conf, client))
			return CORE_OK;
		snprintf(bucket, sizeof(bucket), "weft:rb:ip:%s", client);
		core_limit_take(ctx, bucket, l.read_limit, l.read_window, &st);
		/* Only a refusal says so: a page that passes may be stored
		 * for everyone, and must not carry one client's count. */
		if (!st.passed)
			limit_headers(r, "read", &st);
	}
	if (st.passed)
		return CORE_OK;
	core_metrics_count(ctx->metrics, CORE_METRIC_LIMITED);
	snprintf(ra, sizeof(ra), "%ld", st.retry);
	set_header(r, "Retry-After", ra, 1);
	return core_req_failf(r, 429,
	    "too many requests: at most %ld reads in %ld seconds; retry in "
	    "%ld s%s",
	    st.quota, st.window, st.retry,
	    r->key_id > 0 ? "" : ", or use an API key (see /developers)");
}

enum core_err
core_req_limit(struct core_req *r)
{
	if (!r->limit_done) {
		r->limit_done = 1;
		r->limit_er = limit_check(r);
	}
	return r->limit_er;
}

long long
core_req_key(const struct core_req *r)
{
	return r->key_id;
}

/* Responses that must not be shared: per-user or explicitly private. */
static int
cache_shareable(const struct core_req *r)
{
	const char *cc = get_header(r, "Cache-Control");

	return r->status == 200 && r->etag &&
	    (cc == NULL ||
		(strstr(cc, "private") == NULL &&
		    strstr(cc, "no-store") == NULL));
}

/* 406, naming what this resource is offered as. */
static void
not_acceptable(struct core_req *r)
{
	struct core_buf m = CORE_BUF_INIT;
	size_t i;

	core_buf_puts(&m,
	    "no acceptable representation; this resource is "
	    "available as ");
	for (i = 0; i < r->noffers; i++)
		core_buf_printf(&m, "%s%s (?format=%s)", i ? ", " : "",
		    core_rep_mime[r->offers[i]], core_rep_format[r->offers[i]]);
	core_resp_error(r, 406, core_buf_cstr(&m));
	core_buf_free(&m);
}

/*
 * The path as logged, into buf: the rest of a path under one of the
 * module's secret prefixes (a private feed's token) is "[token]".
 */
static const char *
log_path(const struct core_req *r, char *buf, size_t sz)
{
	const char *const *sp;
	size_t n;

	if (r->path == NULL)
		return "?";
	for (sp = r->ctx->mod != NULL ? r->ctx->mod->secret_paths : NULL;
	     sp != NULL && *sp != NULL; sp++) {
		n = strlen(*sp);
		if (strncmp(r->path, *sp, n) == 0) {
			snprintf(buf, sz, "%.*s[token]", (int)n, *sp);
			return buf;
		}
	}
	return r->path;
}

/*
 * The body's memory, kept from one request to the next: a worker serves
 * one request at a time and its pages are about the same size, so the
 * next body starts with room for the last one instead of growing there
 * again from nothing (eight reallocs and copies for a 48 KB page).
 * Bodies beyond KEEP_MAX (the sitemap chunks) are given back.
 */
#define KEEP_MAX (8u << 20)
static struct core_buf spare_body;

static void
req_free(struct core_req *r)
{
	clear_headers(r);
	core_params_free(&r->q);
	core_params_free(&r->cookies);
	free(r->cookie_joined);
	r->cookie_joined = NULL;
	core_params_free(&r->form);
	core_fail_free(&r->fail);
	if (r->body.cap <= KEEP_MAX) {
		core_buf_reset(&r->body);
		spare_body = r->body;
	} else
		core_buf_free(&r->body);
	free(r->path);
	free(r->in);
}

void
core_serve(struct core_ctx *ctx, void *fcgi)
{
	struct core_req r;
	const struct core_route *rt;
	const char *msg = NULL, *rid;
	struct core_buf blob = CORE_BUF_INIT;
	struct timespec t0, t1;
	char key[128], lpath[64];
	enum core_err er;
	int st, matched, route_idx = -1, cache = 0, locked = 0, signed_in;
	int bearer;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(&r, 0, sizeof(r));
	r.body = spare_body;
	memset(&spare_body, 0, sizeof(spare_body));
	r.f = fcgi;
	r.ctx = ctx;
	r.status = 200;
	r.query = "";
	r.method = "GET";
	r.rep = CORE_REP_HTML;
	if ((rid = core_req_env(&r, "REQUEST_ID")) != NULL &&
	    strlen(rid) < sizeof(r.id) && strpbrk(rid, "\r\n\"\\") == NULL)
		snprintf(r.id, sizeof(r.id), "%s", rid);
	else {
		unsigned char raw[8];
		randombytes_buf(raw, sizeof(raw));
		sodium_bin2hex(r.id, sizeof(r.id), raw, sizeof(raw));
	}
	core_log_setreqid(r.id);

	/* A request nginx refused (error_page), answered in our format. */
	if ((rid = core_req_env(&r, "WEFT_ERROR")) != NULL) {
		st = atoi(rid);
		core_resp_error(&r, st >= 400 && st < 500 ? st : 400,
		    "the request is malformed");
		goto out;
	}
	if ((st = parse_request(&r, &msg)) != 0) {
		core_resp_error(&r, st, msg);
		goto out;
	}
	if (serve_ops(&r))
		goto out;
	if ((rt = route(&r, &matched)) == NULL) {
		if (matched) {
			set_header(&r, "Allow", r.allow, 1);
			core_resp_error(&r, 405, core_err_str(CORE_EMETHOD));
		} else
			core_resp_error(&r, 404, core_err_str(CORE_ENOTFOUND));
		goto out;
	}
	route_idx = (int)(rt - ctx->mod->routes);
	/*
	 * Anonymous GETs are served from Redis when a worker rendered the
	 * same variant before; pages are the same for everyone, the
	 * per-user parts are SSI fragments that nginx fills in later.
	 */
	signed_in = r.signed_in;
	/* A request with a key is answered for that key (its counts in
	 * the headers): it neither reads nor fills the shared cache. */
	bearer = core_req_env(&r, "HTTP_AUTHORIZATION") != NULL;
	if (ctx->cache_ttl > 0 && ctx->redis != NULL && !bearer &&
	    (strcmp(r.method, "GET") == 0 || r.head) &&
	    core_cache_key(ctx, r.path, r.query,
		core_req_env(&r, "HTTP_ACCEPT"), key, sizeof(key)) == CORE_OK) {
		/*
		 * A signed-in request only reads: an entry exists only if an
		 * anonymous request rendered it, so it is the same for
		 * everyone, while a per-user page (the personal feed) is
		 * never stored under a key another user could read.
		 */
		if (core_cache_get(ctx, key, &blob) == CORE_OK ||
		    (!signed_in &&
			!(locked = core_cache_lock(ctx, key, &blob)) &&
			blob.len > 0)) {
			if (cache_restore(&r, &blob) == 0) {
				core_metrics_count(ctx->metrics,
				    CORE_METRIC_CACHE_HIT);
				set_header(&r, "X-Weft-Cache", "hit", 1);
				r.etag = 1;
				goto validate;
			}
			/* Not ours or corrupt: render over it. */
			clear_headers(&r);
			core_buf_reset(&r.body);
			r.status = 200;
		}
		core_metrics_count(ctx->metrics, CORE_METRIC_CACHE_MISS);
		cache = !signed_in;
	}
	/* Fair use: every read that gets this far costs a worker. */
	er = CORE_OK;
	if (ctx->mod->limit_reads && (strcmp(r.method, "GET") == 0 || r.head))
		er = core_req_limit(&r);
	if (er == CORE_OK)
		er = rt->handler(&r);
	if (r.spilled) {
		/* The head went with the first piece: send the rest. */
		spill_end(&r, er);
		if (locked)
			core_cache_unlock(ctx, key);
		goto done;
	}
	if (er != CORE_OK) {
		if (er == CORE_EDB) {
			set_header(&r, "Retry-After", "5", 1);
			core_metrics_count(ctx->metrics, CORE_METRIC_DB_ERROR);
		}
		if (er == CORE_ENOTACCEPT)
			not_acceptable(&r);
		else {
			/* CORE_EFAIL: the handler's own status and text. */
			st = core_fail_answer(&r.fail, er, &msg);
			core_resp_error(&r, st, msg);
		}
	}
	if (er == CORE_OK && !r.streamed)
		default_alternates(&r);
	if (r.streamed) {
		/* The handler sent it all: nothing to cache or validate. */
		if (locked)
			core_cache_unlock(ctx, key);
		goto done;
	}
	if (cache) {
		if (cache_shareable(&r)) {
			core_buf_reset(&blob);
			cache_save(&r, &blob);
			/*
			 * "miss" says the page was rendered and stored: not
			 * when Redis went away after the key was made (the
			 * generation is read at most once a second).
			 */
			if (core_cache_put(ctx, key, blob.ptr, blob.len,
				ctx->cache_ttl) == CORE_OK)
				set_header(&r, "X-Weft-Cache", "miss", 1);
		}
		if (locked)
			core_cache_unlock(ctx, key);
	}
validate:
	apply_validators(&r);
out:
	if (r.status >= 500)
		core_log(CORE_LOG_ERROR, "request", "%s %s -> %d", r.method,
		    log_path(&r, lpath, sizeof(lpath)), r.status);
	write_response(&r);
done:
	clock_gettime(CLOCK_MONOTONIC, &t1);
	core_metrics_request(ctx->metrics, route_idx, r.status, r.rep,
	    (t1.tv_sec - t0.tv_sec) * 1000000L +
		(t1.tv_nsec - t0.tv_nsec) / 1000);
	core_log_setreqid(NULL);
	core_buf_free(&blob);
	req_free(&r);
}

/* ---------------------------------------------------------- subrequests */

struct core_req *
core_req_sub_new(struct core_req *parent, const char *path, const char *query)
{
	struct core_req *r = core_xcalloc(1, sizeof(*r));

	r->f = parent->f;
	r->ctx = parent->ctx;
	r->method = "GET";
	r->status = 200;
	r->rep = CORE_REP_HTML;
	r->rest = "";
	r->path = core_xstrdup(path);
	r->query_own = core_xstrdup(query != NULL ? query : "");
	r->query = r->query_own;
	r->sub = 1;
	memcpy(r->id, parent->id, sizeof(r->id));
	return r;
}

int
core_req_sub_run(struct core_req *r)
{
	const struct core_route *rt;
	const char *msg;
	enum core_err er;
	int matched, st;

	/* Only paths a client could have sent: the handlers rely on it. */
	if (r->path[0] != '/' || has_dot_segment(r->path) ||
	    strlen(r->path) > MAX_PATH ||
	    !core_utf8_valid(r->path, strlen(r->path)) ||
	    core_query_parse(r->query, strlen(r->query), &r->q) != CORE_OK) {
		core_resp_error(r, 400, "the path or query is malformed");
		return r->status;
	}
	if ((rt = route(r, &matched)) == NULL) {
		core_resp_error(r, matched ? 405 : 404,
		    core_err_str(matched ? CORE_EMETHOD : CORE_ENOTFOUND));
		return r->status;
	}
	if ((er = rt->handler(r)) != CORE_OK) {
		if (er == CORE_ENOTACCEPT)
			not_acceptable(r);
		else {
			st = core_fail_answer(&r->fail, er, &msg);
			core_resp_error(r, st, msg);
		}
	}
	return r->status;
}

int
core_resp_get_status(const struct core_req *r)
{
	return r->status;
}

const char *
core_resp_get_header(const struct core_req *r, const char *name)
{
	return get_header(r, name);
}

void
core_req_sub_free(struct core_req *r)
{
	if (r == NULL)
		return;
	/* Not req_free(): the spare body belongs to the main request. */
	clear_headers(r);
	core_params_free(&r->q);
	core_fail_free(&r->fail);
	core_buf_free(&r->body);
	free(r->path);
	free(r->query_own);
	free(r->in);
	free(r);
}
