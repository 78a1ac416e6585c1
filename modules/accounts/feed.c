/*
 * feed.c -- /feed: the new papers and versions of everything the
 * signed-in user follows (researchers, institutions, categories, saved
 * searches; 0026 weft_follow_items), each with why it is there, newest
 * first, 24 a page (?page=N from 1), in HTML, markdown and JSON, with
 * Link rel=next/prev.  The same items, without a cookie, are the feeds
 * module's /rss/feed/{token}.xml.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "accounts.h"

static json_t *
page_url(const char *base, long page)
{
	char *u;
	json_t *j;

	u = page == 1 ? core_xasprintf("%s/feed", base)
		      : core_xasprintf("%s/feed?page=%ld", base, page);
	j = core_json_str(u);
	free(u);
	return j;
}

/* /feed offers the lists' citation formats too (?format=bib|ris|csl). */
static const enum core_rep feed_offers[6] = { CORE_REP_HTML, CORE_REP_MD,
	CORE_REP_JSON, CORE_REP_BIB, CORE_REP_RIS, CORE_REP_CSL };

/* The items of /feed an export reads: the newest 40 pages' worth,
 * said by X-Export-Limit (and X-Export-Total, the items there are). */
#define FEED_EXPORT_MAX (40 * ACC_PER_PAGE)

/*
 * The feed's papers as citations in the negotiated format, through
 * core's writers (cite.c), like the researcher and search exports: the
 * papers of the newest FEED_EXPORT_MAX items, each once, newest first,
 * read in one query and leaving in pieces once long
 * (core_cite_open_resp()).  Private.
 */
static enum core_err
feed_export(struct core_req *req, long long uid)
{
	struct core_ctx *ctx = core_req_ctx(req);
	struct core_cite c;
	json_t *papers = NULL;
	long long total = 0;
	enum core_err er;
	char *url, num[24];

	if ((er = acc_store_feed_export(ctx->db, uid, FEED_EXPORT_MAX, &papers,
		 &total)) != CORE_OK)
		return er;
	url = core_xasprintf("%s/feed", ctx->base_url);
	core_resp_type(req, core_req_rep(req));
	core_resp_header(req, "Cache-Control", "private, no-store");
	core_resp_link(req, url, "canonical");
	core_resp_alternates(req, url);
	free(url);
	snprintf(num, sizeof(num), "%d", FEED_EXPORT_MAX);
	core_resp_header(req, "X-Export-Limit", num);
	snprintf(num, sizeof(num), "%lld", total);
	core_resp_header(req, "X-Export-Total", num);
	core_cite_open_resp(&c, req);
	core_cite_add_all(&c, papers);
	core_cite_close(&c);
	json_decref(papers);
	return CORE_OK;
}

enum core_err
acc_feed_get(struct core_req *req)
{
	struct core_ctx *ctx = core_req_ctx(req);
	const char *ps = core_req_param(req, "page");
	json_t *m = NULL, *items = NULL, *fol = NULL, *tgt = NULL, *pg;
	struct acc_session s;
	long long total = 0, pages;
	long page = 1;
	char *end;
	enum core_err er;

	if ((er = core_req_negotiate(req, feed_offers,
		 sizeof(feed_offers) / sizeof(feed_offers[0]))) != CORE_OK)
		return er;
	if (ps != NULL) {
		errno = 0;
		page = strtol(ps, &end, 10);
		if (errno != 0 || end == ps || *end != '\0' || *ps == '+' ||
		    *ps == '-' || *ps == ' ' || page < 1 ||
		    page > ACC_MAX_PAGE) {
			return core_req_fail(req, 400,
			    "page must be a whole number "
			    "from 1 to 100000");
		}
	}
	if (!acc_need_session(req, &s, "/feed", &er))
		return er;
	if (core_rep_is_cite(core_req_rep(req)))
		return feed_export(req, s.uid);
	if ((er = acc_store_following(ctx->db, ctx->base_url, s.uid, &fol)) !=
	    CORE_OK)
		goto out;
	if ((er = acc_store_targets(ctx->db, ctx->base_url, s.uid, &tgt)) !=
	    CORE_OK)
		goto out;
	if ((er = acc_store_feed(ctx->db, ctx->base_url, s.uid, page, &items,
		 &total)) != CORE_OK)
		goto out;
	pages = total == 0 ? 1 : (total + ACC_PER_PAGE - 1) / ACC_PER_PAGE;
	if (page > pages) {
		er = core_req_fail(req, 404,
		    "There is no such page of your "
		    "feed.");
		goto out;
	}
	pg = json_pack("{s:I,s:i,s:I,s:I,s:o,s:o}", "page", (json_int_t)page,
	    "per_page", ACC_PER_PAGE, "total", (json_int_t)total, "pages",
	    (json_int_t)pages, "next",
	    page < pages ? page_url(ctx->base_url, page + 1) : json_null(),
	    "prev", page > 1 ? page_url(ctx->base_url, page - 1) : json_null());
	m = json_pack("{s:o,s:I,s:O,s:O,s:o,s:o}", "url",
	    page_url(ctx->base_url, page), "following_count",
	    (json_int_t)(json_array_size(fol) + json_array_size(tgt)),
	    "following", fol, "follows", tgt, "papers", items, "pagination",
	    pg);
	items = NULL;
	if (m == NULL) {
		er = CORE_ESYS;
		goto out;
	}
	if ((er = acc_respond(req, ACC_VIEW_FEED, 200, m, &s)) != CORE_OK)
		goto out;
	pg = json_object_get(m, "pagination");
	if (json_is_string(json_object_get(pg, "next")))
		core_resp_link(req,
		    json_string_value(json_object_get(pg, "next")), "next");
	if (json_is_string(json_object_get(pg, "prev")))
		core_resp_link(req,
		    json_string_value(json_object_get(pg, "prev")), "prev");
out:
	json_decref(m);
	json_decref(items);
	json_decref(fol);
	json_decref(tgt);
	return er;
}
