/*
 * directory.c -- /researchers (by papers here) and /institutions (by
 * researchers, then name), 24 a page.  A page beyond the last is a 404
 * that says which page is the last (documented on /developers).
 */
#include <stdlib.h>

#include "core.h"
#include "pages.h"

typedef enum core_err (
    *page_fn)(struct core_db *, const char *, long, json_t **, long long *);

static enum core_err
directory(struct core_req *req, enum pages_kind kind, const char *path,
    const char *title, page_fn fn)
{
	struct core_ctx *ctx = core_req_ctx(req);
	json_t *items = NULL, *m;
	long long total = 0;
	long page;
	enum core_err er;

	if ((er = pages_negotiate(req)) != CORE_OK)
		return er;
	if ((er = pages_page_param(req, &page)) != CORE_OK)
		return er;
	if ((er = fn(ctx->db, ctx->base_url, page, &items, &total)) != CORE_OK)
		goto out;
	if ((er = pages_beyond_last(req, page, total)) != CORE_OK)
		goto out;
	m = json_pack("{s:s,s:s,s:o,s:o,s:o}", "type",
	    kind == PAGES_RESEARCHERS ? "researchers" : "institutions", "title",
	    title, "url", pages_json_abs(ctx->base_url, path), "items", items,
	    "pagination", pages_pagination(ctx->base_url, path, page, total));
	items = NULL;
	er = pages_respond_new(req, kind, m, path);
out:
	json_decref(items);
	return er;
}

enum core_err
pages_researchers(struct core_req *req)
{
	return directory(req, PAGES_RESEARCHERS, "/researchers", "Researchers",
	    pages_store_researchers_page);
}

enum core_err
pages_institutions(struct core_req *req)
{
	return directory(req, PAGES_INSTITUTIONS, "/institutions",
	    "Institutions", pages_store_institutions_page);
}
