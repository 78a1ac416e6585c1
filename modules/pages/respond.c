/*
 * respond.c -- what every handler does after building its view model:
 * pick the renderer, set the headers, and the list plumbing (?page=,
 * pagination objects, rel=next/prev).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"

const enum core_rep pages_offers[3] = { CORE_REP_HTML, CORE_REP_MD,
	CORE_REP_JSON };
const enum core_rep pages_paper_offers[6] = { CORE_REP_HTML, CORE_REP_MD,
	CORE_REP_JSON, CORE_REP_BIB, CORE_REP_RIS, CORE_REP_CSL };

/* rel=next/prev from a pagination object. */
static void
page_links(struct core_req *req, const json_t *pg)
{
	const char *u;

	if (!json_is_object(pg))
		return;
	if ((u = pages_str(pg, "next")) != NULL)
		core_resp_link(req, u, "next");
	if ((u = pages_str(pg, "prev")) != NULL)
		core_resp_link(req, u, "prev");
}

/*
 * Link rel=alternate to the page's feed in each format, as its <link>
 * tags and its markdown say: a researcher's and an institution's own,
 * a search's ("feed"), the latest papers on the home page.
 */
static void
feed_alternates(struct core_req *req, enum pages_kind kind, const json_t *model)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *feed = pages_str(model, "feed");
	char *u;

	if (kind == PAGES_RESEARCHER || kind == PAGES_INSTITUTION)
		u = core_xasprintf("%s/rss/%s/%lld.xml", ctx->base_url,
		    kind == PAGES_RESEARCHER ? "researchers" : "institutions",
		    pages_int(model, "id", 0));
	else if (kind == PAGES_SEARCH && feed != NULL)
		u = core_xasprintf("%s%s", ctx->base_url, feed);
	else if (kind == PAGES_HOME)
		u = core_xasprintf("%s/rss/latest.xml", ctx->base_url);
	else
		return;
	core_resp_feed_alternates(req, u);
	free(u);
}

enum core_err
pages_negotiate(struct core_req *req)
{
	return core_req_negotiate(req, pages_offers,
	    sizeof(pages_offers) / sizeof(pages_offers[0]));
}

enum core_err
pages_respond(struct core_req *req, enum pages_kind kind, const json_t *model)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct pages_page pg;
	struct core_buf *body = core_resp_body(req);
	enum core_rep rep = core_req_rep(req);
	enum core_err er = CORE_OK;
	const char *url;

	pg.kind = kind;
	pg.model = model;
	pg.base = ctx->base_url;

	switch (rep) {
	case CORE_REP_MD:
		er = pages_render_md(body, &pg);
		break;
	case CORE_REP_JSON:
		core_json_render(body, model, 1);
		break;
	case CORE_REP_BIB:
	case CORE_REP_RIS:
	case CORE_REP_CSL:
		er = pages_render_cite(body, &pg, rep);
		break;
	default:
		rep = CORE_REP_HTML;
		er = pages_render_html(body, &pg);
		break;
	}
	if (er != CORE_OK) {
		core_log(CORE_LOG_ERROR, "render", "kind %d rep %d: %s",
		    (int)kind, (int)rep, core_err_str(er));
		return CORE_ESYS;
	}
	core_resp_type(req, rep);
	if ((url = pages_str(model, "url")) != NULL) {
		core_resp_link(req, url, "canonical");
		core_resp_alternates(req, url);
	}
	feed_alternates(req, kind, model);
	page_links(req, json_object_get(model, "pagination"));
	page_links(req,
	    json_object_get(json_object_get(model, "papers"), "pagination"));
	core_resp_etag(req);
	return CORE_OK;
}

enum core_err
pages_respond_cite(struct core_req *req, enum pages_export what,
    const char *key, long long max, const char *url)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_cite c;
	enum core_err er;

	/* The head leaves with the first piece: set it all first. */
	core_resp_type(req, core_req_rep(req));
	core_resp_link(req, url, "canonical");
	core_resp_alternates(req, url);
	core_resp_etag(req);
	core_cite_open_resp(&c, req);
	er = pages_store_cite(ctx->db, what, key, max, &c);
	core_cite_close(&c);
	if (er != CORE_OK && !core_resp_spilled(req))
		/* Nothing half-written: the error page replaces it all. */
		core_buf_reset(core_resp_body(req));
	return er;
}

enum core_err
pages_page_param(struct core_req *req, long *page)
{
	const char *s = core_req_param(req, "page");
	char *end = NULL;
	long v;

	*page = 1;
	if (s == NULL)
		return CORE_OK;
	errno = 0;
	if (s[0] >= '0' && s[0] <= '9' && strlen(s) <= 9)
		v = strtol(s, &end, 10);
	else
		v = -1;
	if (end == NULL || *end != '\0' || errno != 0 || v < 1 ||
	    v > PAGES_MAX_PAGE) {
		return core_req_fail(req, 400,
		    "page must be a whole number from 1 to 100000");
	}
	*page = v;
	return CORE_OK;
}

json_t *
pages_pagination(const char *base, const char *path_query, long page,
    long long total)
{
	long long pages = (total + PAGES_PER_PAGE - 1) / PAGES_PER_PAGE;
	const char *sep = strchr(path_query, '?') != NULL ? "&" : "?";
	json_t *o, *next = json_null(), *prev = json_null();
	char *u;

	if (page < pages) {
		u = core_xasprintf("%s%s%spage=%ld", base, path_query, sep,
		    page + 1);
		next = core_json_str(u);
		free(u);
	}
	if (page > 1) {
		/* Page 1 is the list's own URL, without ?page=1. */
		if (page == 2)
			u = core_xasprintf("%s%s", base, path_query);
		else
			u = core_xasprintf("%s%s%spage=%ld", base, path_query,
			    sep, page - 1);
		prev = core_json_str(u);
		free(u);
	}
	o = json_pack("{s:i,s:i,s:I,s:I,s:o,s:o}", "page", (int)page,
	    "per_page", PAGES_PER_PAGE, "total", (json_int_t)total, "pages",
	    (json_int_t)pages, "next", next, "prev", prev);
	return o;
}

enum core_err
pages_beyond_last(struct core_req *req, long page, long long total)
{
	long long pages = (total + PAGES_PER_PAGE - 1) / PAGES_PER_PAGE;

	if (page == 1 || page <= pages)
		return CORE_OK;
	return core_req_failf(req, 404,
	    "page %ld is beyond the last page (%lld)", page, pages);
}

enum core_err
pages_respond_new(struct core_req *req, enum pages_kind kind, json_t *model,
    const char *what)
{
	enum core_err er;

	if (model == NULL) {
		core_log(CORE_LOG_ERROR, "pages", "model for %s", what);
		return CORE_ESYS;
	}
	er = pages_respond(req, kind, model);
	json_decref(model);
	return er;
}

enum core_err
pages_respond_sub(struct core_req *req, enum pages_kind kind, json_t *subject,
    char *path, const char *suffix, int moved, pages_sub_model *model)
{
	char *canon = core_xasprintf("%s%s", path, suffix);
	json_t *m = NULL;
	enum core_err er = CORE_OK;

	if (moved || !pages_is_canon(req, canon))
		pages_redirect(req, canon);
	else if ((er = model(req, subject, canon, &m)) == CORE_OK)
		er = pages_respond_new(req, kind, m, canon);
	free(canon);
	free(path);
	json_decref(subject);
	return er;
}
