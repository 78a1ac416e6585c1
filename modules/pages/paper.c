/*
 * paper.c -- /papers/{arxiv-id}-{slug}: the paper page, and the 301s from
 * the bare id, a versioned id and a wrong slug to the canonical URL.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "evidence/evidence.h"

enum core_err
pages_paper(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_arxiv_id aid;
	const char *rest = core_req_rest(req), *tail;
	json_t *m = NULL;
	char *canon = NULL;
	size_t used = 0;
	enum core_err er;

	if (pages_similar_route(rest))
		return pages_similar(req);
	/* "{id}", "{id}v2", "{id}-slug", "{id}v2-slug"; nothing else. */
	if (core_arxiv_parse(rest, strlen(rest), &aid, &used) != CORE_OK)
		return CORE_ENOTFOUND;
	tail = rest + used;
	if (*tail != '\0' && *tail != '-')
		return CORE_ENOTFOUND;
	if ((er = core_req_negotiate(req, pages_paper_offers,
		 sizeof(pages_paper_offers) / sizeof(pages_paper_offers[0]))) !=
	    CORE_OK)
		return er;
	if ((er = pages_store_paper(ctx->db, ctx->base_url, aid.id, &m)) !=
	    CORE_OK)
		return er;
	canon = pages_paper_path(aid.id, pages_str(m, "slug"));
	if (aid.version != 0 || !pages_is_canon(req, canon))
		pages_redirect(req, canon);
	else if (core_req_rep(req) == CORE_REP_BIB ||
	    (er = pages_similar_attach(ctx->db, ctx->base_url, m)) == CORE_OK) {
		/* The internal id is not part of the representations. */
		json_object_del(m, "paper_id");
		er = pages_respond(req, PAGES_PAPER, m);
	}
	free(canon);
	json_decref(m);
	return er;
}
