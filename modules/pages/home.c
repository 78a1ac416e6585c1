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

	if ((er = pages_negotiate(req)) != CORE_OK)
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
	er = pages_respond_new(req, PAGES_HOME, m, "/");
out:
	json_decref(counts);
	json_decref(latest);
	return er;
}
