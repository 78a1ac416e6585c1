/*
 * researcher.c -- /researchers/{id}-{slug}: the researcher page with its
 * paper list (?sort=newest|citations, ?category=, ?page=), and the 301s
 * from the bare id and a wrong slug.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "pages.h"
#include "evidence/evidence.h"

/*
 * The list's path with its filter and sort (not the page), in one fixed
 * order, so that pagination and filter links are stable.  Caller frees.
 */
static char *
list_path(const char *rpath, const char *category, enum pages_sort sort)
{
	const char *s = sort == PAGES_SORT_CITATIONS ? "sort=citations" : "";

	if (category != NULL)
		return core_xasprintf("%s?category=%s%s%s", rpath, category,
		    *s != '\0' ? "&" : "", s);
	return core_xasprintf("%s%s%s", rpath, *s != '\0' ? "?" : "", s);
}

/* Reads ?sort= and ?category=: CORE_EFAIL (a 400) on bad input. */
static enum core_err
list_params(struct core_req *req, enum pages_sort *sort, const char **category)
{
	const char *s = core_req_param(req, "sort");

	*sort = PAGES_SORT_NEWEST;
	if (s != NULL && strcmp(s, "citations") == 0)
		*sort = PAGES_SORT_CITATIONS;
	else if (s != NULL && strcmp(s, "newest") != 0) {
		return core_req_fail(req, 400,
		    "sort must be newest or citations");
	}
	*category = core_req_param(req, "category");
	if (*category != NULL && **category == '\0')
		*category = NULL;
	if (*category != NULL && !pages_category_ok(*category)) {
		return core_req_fail(req, 400,
		    "category must be an arXiv category "
		    "code such as cs.SE (letters, digits, '.', '-'; at most "
		    "32 characters)");
	}
	return CORE_OK;
}

enum core_err
pages_researcher(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *rest = core_req_rest(req), *category = NULL;
	json_t *m = NULL, *items = NULL, *papers;
	char *canon = NULL, *lpath = NULL, *u;
	enum pages_sort sort;
	long long id, total = 0;
	long page;
	size_t n;
	struct pages_ident ident;
	enum core_err er;
	int sent;

	if (*rest == '\0') {
		pages_redirect(req, "/researchers");
		return CORE_OK;
	}
	/* /researchers/{ORCID}, /researchers/openalex:A…, /researchers/s2:… */
	if (pages_ident_researcher(rest, &ident)) {
		if ((er = pages_resolve(req, &ident, &sent)) != CORE_OK)
			return er;
		return sent ? CORE_OK : CORE_ENOTFOUND;
	}
	if (pages_evidence_route(rest))
		return pages_evidence(req);
	n = strcspn(rest, "-");
	if (pages_parse_id(rest, n, &id) != 0)
		return CORE_ENOTFOUND;
	if ((er = core_req_negotiate(req, pages_paper_offers,
		 sizeof(pages_paper_offers) / sizeof(pages_paper_offers[0]))) !=
	    CORE_OK)
		return er;
	if ((er = pages_store_researcher(ctx->db, ctx->base_url, id, &m)) !=
	    CORE_OK)
		return er;
	canon = pages_researcher_path(id, pages_str(m, "slug"));
	if (!pages_is_canon(req, canon)) {
		pages_redirect(req, canon);
		goto out;
	}
	/* An export is every paper, whatever the page: one response. */
	if (core_rep_is_cite(core_req_rep(req))) {
		char idbuf[24];

		snprintf(idbuf, sizeof(idbuf), "%lld", id);
		er = pages_respond_cite(req, PAGES_EXPORT_RESEARCHER, idbuf,
		    PAGES_EXPORT_ALL, pages_str(m, "url"));
		goto out;
	}
	if ((er = list_params(req, &sort, &category)) != CORE_OK ||
	    (er = pages_page_param(req, &page)) != CORE_OK)
		goto out;
	if ((er = pages_store_researcher_papers(ctx->db, ctx->base_url, id,
		 sort, category, page, &items, &total)) != CORE_OK)
		goto out;
	if ((er = pages_beyond_last(req, page, total)) != CORE_OK)
		goto out;
	if ((er = pages_store_researcher_blocks(ctx->db, ctx->base_url, canon,
		 m)) != CORE_OK)
		goto out;
	/* "Why these papers are here": its own statement (evidence_store.c). */
	if ((er = pages_store_evidence_summary(ctx->db, ctx->base_url, m)) !=
	    CORE_OK)
		goto out;
	lpath = list_path(canon, category, sort);
	papers = json_object();
	json_object_set_new(papers, "sort",
	    json_string(sort == PAGES_SORT_CITATIONS ? "citations" : "newest"));
	json_object_set_new(papers, "category", core_json_str(category));
	/* Where the filter's "remove" link goes: same sort, no category. */
	u = list_path(canon, NULL, sort);
	json_object_set_new(papers, "unfiltered_url",
	    pages_json_abs(ctx->base_url, u));
	free(u);
	u = list_path(canon, category, PAGES_SORT_NEWEST);
	json_object_set_new(papers, "newest_url",
	    pages_json_abs(ctx->base_url, u));
	free(u);
	u = list_path(canon, category, PAGES_SORT_CITATIONS);
	json_object_set_new(papers, "citations_url",
	    pages_json_abs(ctx->base_url, u));
	free(u);
	json_object_set_new(papers, "items", items);
	items = NULL;
	json_object_set_new(papers, "pagination",
	    pages_pagination(ctx->base_url, lpath, page, total));
	json_object_set_new(m, "papers", papers);
	/* name_key is an internal grouping key, not part of the model. */
	json_object_del(m, "name_key");
	er = pages_respond(req, PAGES_RESEARCHER, m);
out:
	free(canon);
	free(lpath);
	json_decref(items);
	json_decref(m);
	return er;
}
