/*
 * home.c -- /: the latest papers, the search box and the corpus counts.
 */
#include <stdlib.h>

#include "core.h"
#include "pages.h"

enum core_err
pages_home(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	json_t *latest = NULL, *counts = NULL, *m;
	enum core_err er;

	if ((er = core_req_negotiate(req, pages_offers,
		 sizeof(pages_offers) / sizeof(pages_offers[0]))) != CORE_OK)
		return er;
	if ((er = pages_store_counts(ctx->db, &counts)) != CORE_OK ||
	    (er = pages_store_latest(ctx->db, ctx->base_url, &latest)) !=
		CORE_OK)
		goto out;
	m = json_pack("{s:s,s:o,s:o,s:o,s:o}", "type", "home", "url",
	    pages_json_abs(ctx->base_url, "/"), "search",
	    pages_json_abs(ctx->base_url, "/search?q={query}"), "counts",
	    counts, "latest", latest);
	counts = latest = NULL;
	if (m == NULL)
		return CORE_ESYS;
	er = pages_respond(req, PAGES_HOME, m);
	json_decref(m);
out:
	json_decref(counts);
	json_decref(latest);
	return er;
}
