/*
 * module.c -- the feeds plugin's descriptor: routes, statements, init
 * and fini.  Errors use core's plain pages (no html_error hook): feeds
 * are read by programs, and a person who mistypes a feed URL gets a
 * short page with a link home.
 */
#include "core.h"
#include "feeds.h"
#include "feeds_sql.h"

static const struct core_route routes[] = {
	{ "GET", "/rss/latest.xml", feeds_rss_latest },
	{ "GET", "/rss/latest.atom", feeds_rss_latest },
	{ "GET", "/rss/latest.json", feeds_rss_latest },
	{ "GET", "/rss/categories/*", feeds_rss_category },
	{ "GET", "/rss/researchers/*", feeds_rss_researcher },
	{ "GET", "/rss/institutions/*", feeds_rss_institution },
	{ "GET", "/rss/feed/*", feeds_rss_private },
	{ "GET", "/sitemap.xml", feeds_sitemap_index },
	{ "GET", "/sitemaps/*", feeds_sitemap_chunk },
	{ "GET", "/robots.txt", feeds_guide },
	{ "GET", "/llms.txt", feeds_guide },
	{ "GET", "/llms-full.txt", feeds_guide },
	{ "GET", "/openapi.json", feeds_guide },
	{ NULL, NULL, NULL },
};

/* A private feed's address holds its token: never logged. */
static const char *const secret_paths[] = { "/rss/feed/", NULL };

static enum core_err
init(struct core_ctx *ctx)
{
	return feeds_guide_build(ctx->mod_state, ctx->base_url, ctx->conf);
}

static void
fini(struct core_ctx *ctx)
{
	feeds_guide_free(ctx->mod_state);
}

const struct core_module weft_module = {
	CORE_MODULE(feeds, FEEDS, struct feeds_state),
	.hints = core_site_hints,
	.limit_reads = 1,
	.secret_paths = secret_paths,
};
