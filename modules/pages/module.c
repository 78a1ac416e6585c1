/*
 * module.c -- the pages plugin's descriptor: routes, statements, init
 * and fini, and the HTML error hook.
 */
#include "core.h"
#include "pages.h"
#include "search/search.h"
#include "pages_sql.h"
#include "vindex.h"
#include "card/card.h"
#include "mcp/mcp.h"

static const struct core_route routes[] = {
	{ "GET", "/", pages_home },
	{ "GET", "/papers/*", pages_paper },
	{ "GET", "/researchers", pages_researchers },
	{ "GET", "/researchers/*", pages_researcher },
	{ "GET", "/institutions", pages_institutions },
	{ "GET", "/institutions/*", pages_institution },
	{ "GET", "/about", pages_doc },
	{ "GET", "/privacy", pages_doc },
	{ "GET", "/contact", pages_doc },
	{ "GET", "/developers", pages_doc },
	{ "GET", "/search", pages_search },
	{ "GET", "/categories", pages_categories },
	{ "GET", "/rss/search.xml", pages_search_feed },
	{ "GET", "/rss/search.atom", pages_search_feed },
	{ "GET", "/rss/search.json", pages_search_feed },
	{ "GET", "/cards/*", pages_card },
	{ "ANY", "/mcp", pages_mcp },
	{ "GET", "*", pages_not_found },
	{ NULL, NULL, NULL },
};

static enum core_err
init(struct core_ctx *ctx)
{
	const char *dir;
	enum core_err er;

	dir = core_conf_get(ctx->conf, "content_dir", "modules/pages/content");
	if ((er = pages_docs_load(ctx->mod_state, dir, ctx->base_url,
		 ctx->conf)) != CORE_OK)
		return er;
	pages_vindex_init(ctx);
	return CORE_OK;
}

static void
fini(struct core_ctx *ctx)
{
	pages_vindex_fini();
	pages_mcp_ask_fini();
	pages_docs_free(ctx->mod_state);
}

const struct core_module weft_module = {
	CORE_MODULE(pages, PAGES, struct pages_state),
	.html_error = pages_html_error,
	.hints = core_site_hints,
	.limit_reads = 1,
};
