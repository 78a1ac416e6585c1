/*
 * similar.c -- "similar papers": the section of every paper page and
 * /papers/{arxiv-id}-{slug}/similar (the 301s from the bare id, a
 * versioned id and a wrong slug, like the paper page).  Without a
 * semantic index the list is empty and says why: never a 5xx.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "evidence/evidence.h"

#define SUFFIX "/similar"

int
pages_similar_route(const char *rest)
{
	size_t n = strlen(rest), k = strlen(SUFFIX);

	return n > k && strcmp(rest + n - k, SUFFIX) == 0;
}

enum core_err
pages_similar_attach(struct core_db *db, const char *base, json_t *m)
{
	const char *notice = NULL;
	json_t *items = NULL;
	enum core_err er;

	er = pages_store_similar(db, base, pages_int(m, "paper_id", 0), &items,
	    &notice);
	if (er == CORE_OK) {
		json_object_set_new(m, "similar", items);
		json_object_set_new(m, "similar_notice", core_json_str(notice));
	} else
		json_decref(items);
	return er;
}

/* The page's model for the paper p at canon. */
static enum core_err
similar_model(struct core_req *req, json_t *p, const char *canon, json_t **m)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *notice = NULL;
	json_t *items = NULL;
	enum core_err er;

	if ((er = pages_store_similar(ctx->db, ctx->base_url,
		 pages_int(p, "paper_id", 0), &items, &notice)) != CORE_OK) {
		json_decref(items);
		return er;
	}
	*m = json_pack("{s:s,s:o,s:{s:O,s:O,s:O,s:O},s:o,s:o}", "type",
	    "similar_papers", "url", pages_json_abs(ctx->base_url, canon),
	    "paper", "arxiv_id", json_object_get(p, "arxiv_id"), "title",
	    json_object_get(p, "title"), "url", json_object_get(p, "url"),
	    "published", json_object_get(p, "published"), "items", items,
	    "notice", core_json_str(notice));
	return CORE_OK;
}

enum core_err
pages_similar(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_arxiv_id aid;
	const char *rest = core_req_rest(req);
	json_t *p = NULL;
	size_t n = strlen(rest) - strlen(SUFFIX), used = 0;
	enum core_err er;

	/* "{id}[vN][-slug]/similar"; nothing else. */
	if (core_arxiv_parse(rest, n, &aid, &used) != CORE_OK ||
	    (used < n && rest[used] != '-'))
		return CORE_ENOTFOUND;
	if ((er = pages_negotiate(req)) != CORE_OK)
		return er;
	if ((er = pages_store_paper(ctx->db, ctx->base_url, aid.id, &p)) !=
	    CORE_OK)
		return er;
	return pages_respond_sub(req, PAGES_SIMILAR, p,
	    pages_paper_path(aid.id, pages_str(p, "slug")), SUFFIX,
	    aid.version != 0, similar_model);
}
