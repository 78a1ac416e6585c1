/*
 * rss.c -- the feeds: the latest papers, a category, a researcher and
 * an institution in RSS 2.0, Atom and JSON Feed 1.1 (the URL's
 * extension: .xml, .atom, .json; core's writers), and a user's private
 * feed of followed researchers (RSS).  The latest, category and
 * researcher feeds also carry an item for each new version of a paper
 * ("v2 replaced v1"), merged by date with the papers.
 *
 * Unknown subjects are 404s in the client's error representation, never
 * an empty 200 feed, so that a mistyped feed URL fails where it is
 * subscribed.  Every piece of text goes through core_xml_text(), which
 * drops what would make the document ill-formed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "feeds.h"

/* Public feeds: readers poll; a few minutes of staleness is harmless. */
#define CC_PUBLIC "public, max-age=300"
/* The private feed: never in a shared cache. */
#define CC_PRIVATE "private, max-age=300"

void
feeds_feed_free(struct feeds_feed *f)
{
	if (f == NULL)
		return;
	core_pool_free(&f->pool);
	feeds_items_free(f->items, f->nitems);
	memset(f, 0, sizeof(*f));
}

/* ---------------------------------------------------------------- render */

/*
 * Fills o from it; the strings o needs that it does not hold (its link,
 * title and summary) go to pl, freed together once the feed is written.
 */
static void
item_fill(const char *base, const struct feeds_item *it,
    struct core_feed_item *o, struct core_pool *pl)
{
	char *path, *title, *summary, day[32];

	path = core_paper_path(it->arxiv_id, it->slug);
	o->link = core_pool_keep(pl, core_xasprintf("%s%s", base, path));
	free(path);
	/* Titles and abstracts are TeX: readers get them as plain text. */
	title = core_tex_plain(it->title, 0);
	summary = core_tex_plain(it->abstract, 0);
	if (it->version >= 2) {
		/*
		 * A new version: its own GUID, the paper's arXiv abs URL
		 * with the version (arXiv's own name for it), so that a
		 * reader shows each version once.
		 */
		o->id = core_pool_keep(pl,
		    core_xasprintf("https://arxiv.org/abs/%sv%d", it->arxiv_id,
			it->version));
		o->title = core_pool_keep(pl,
		    core_xasprintf("v%d replaced v%d: %s", it->version,
			it->version - 1, title != NULL ? title : ""));
		core_date_w3c(day, it->version_date);
		day[10] = '\0';
		path = core_xasprintf("arXiv:%s v%d of %s replaced v%d. %s",
		    it->arxiv_id, it->version, day, it->version - 1,
		    summary != NULL ? summary : "");
		free(summary);
		summary = path;
		free(title);
	} else {
		o->id = o->link;
		o->title = core_pool_keep(pl, title);
	}
	if (it->why != NULL) {
		/* The private feed says why, as /feed does. */
		path = core_xasprintf("%s.\n\n%s", it->why,
		    summary != NULL ? summary : "");
		free(summary);
		summary = path;
	}
	o->summary = summary != NULL ? summary : "";
	core_pool_keep(pl, summary);
	o->authors = it->authors;
	o->categories = it->categories;
	o->published = it->version >= 2 ? it->version_date : it->published;
	o->updated = it->version >= 2 ? it->version_date : it->modified;
}

enum core_err
feeds_render(struct core_sink sink, const char *base,
    const struct feeds_feed *f)
{
	struct core_feed cf;
	struct core_feed_item *items;
	struct core_pool pl = { 0 };
	enum core_err er;
	size_t i;

	items = core_xcalloc(f->nitems + 1, sizeof(*items));
	for (i = 0; i < f->nitems; i++)
		item_fill(base, &f->items[i], &items[i], &pl);
	memset(&cf, 0, sizeof(cf));
	cf.title = f->title;
	cf.link = f->link;
	cf.description = f->description;
	cf.self = f->self;
	cf.updated = f->modified;
	cf.items = items;
	cf.nitems = f->nitems;
	er = core_feed_render(sink, f->fmt, &cf);
	core_pool_free(&pl);
	free(items);
	return er;
}

enum core_err
feeds_rss_render(struct core_sink sink, const char *base,
    const struct feeds_feed *f)
{
	struct feeds_feed g = *f;

	g.fmt = CORE_FEED_RSS;
	return feeds_render(sink, base, &g);
}

/* ---------------------------------------------------------------- serve */

/* The newest change among the items, or since when the subject is. */
static int64_t
newest(const struct feeds_feed *f, int64_t subject)
{
	int64_t t = subject;
	size_t i;

	for (i = 0; i < f->nitems; i++) {
		if (f->items[i].modified > t)
			t = f->items[i].modified;
		if (f->items[i].published > t)
			t = f->items[i].published;
	}
	return t;
}

/*
 * The channel of a feed whose items are loaded: title, link and self
 * (paths, made absolute), description (all copied), and the date of its
 * newest item.
 */
static void
channel(struct core_req *r, struct feeds_feed *f, const char *title,
    const char *link, const char *description, const char *self)
{
	f->title = core_pool_keep(&f->pool, core_xstrdup(title));
	f->link = core_pool_keep(&f->pool, core_abs_url(r, link));
	f->description = core_pool_keep(&f->pool, core_xstrdup(description));
	f->self = core_pool_keep(&f->pool, core_abs_url(r, self));
	f->modified = newest(f, -1);
}

/* Renders f as the response; lm says whether to send Last-Modified. */
static enum core_err
respond(struct core_req *r, struct feeds_feed *f, const char *cc, int lm)
{
	struct core_ctx *ctx = core_req_ctx(r);
	enum core_err er;

	if ((er = feeds_render(core_resp_sink(r), ctx->base_url, f)) !=
	    CORE_OK) {
		core_log(CORE_LOG_ERROR, "rss", "cannot render a feed: %s",
		    core_err_str(er));
		return CORE_ESYS;
	}
	feeds_finish(r, CORE_REP_RSS, cc, lm ? f->modified : -1);
	/* The other formats, and the page the feed follows. */
	core_resp_feed_alternates(r, f->self);
	core_resp_alternate(r, f->link, core_rep_mime[CORE_REP_HTML]);
	if (f->fmt != CORE_FEED_RSS)
		core_resp_ctype(r, core_feed_ctype[f->fmt]);
	return CORE_OK;
}

enum core_err
feeds_rss_latest(struct core_req *r)
{
	struct core_ctx *ctx = core_req_ctx(r);
	struct feeds_feed f = { 0 };
	enum core_err er;
	size_t n;

	/* Routed as /rss/latest.xml, .atom and .json only. */
	if (core_feed_ext_parse(core_req_path(r), &n, &f.fmt) != 0)
		return CORE_ENOTFOUND;
	if ((er = feeds_load_latest(ctx->db, &f.items, &f.nitems)) != CORE_OK)
		goto out;
	if ((er = feeds_add_versions(ctx->db, FEEDS_VERSIONS_LATEST, NULL,
		 FEEDS_RSS_ITEMS, &f.items, &f.nitems)) != CORE_OK)
		goto out;
	channel(r, &f, "weft: latest papers", "/",
	    "The newest papers on weft, an archive "
	    "of arXiv papers, the researchers who wrote them and the "
	    "institutions they work at.",
	    core_req_path(r));
	er = respond(r, &f, CC_PUBLIC, 1);
out:
	feeds_feed_free(&f);
	return er;
}

enum core_err
feeds_rss_category(struct core_req *r)
{
	struct core_ctx *ctx = core_req_ctx(r);
	const char *rest = core_req_rest(r);
	struct feeds_feed f = { 0 };
	char *cat = NULL, *path = NULL;
	enum core_err er;
	size_t n;

	if (core_feed_ext_parse(rest, &n, &f.fmt) != 0) {
		er = core_req_fail(r, 404,
		    "category feeds are at "
		    "/rss/categories/{category}.xml (or .atom, .json)");
		goto out;
	}
	if (!core_category_ok(rest, n)) {
		er = core_req_fail(r, 400,
		    "a category is 1 to 32 letters, "
		    "digits, '.' or '-', as in cs.SE");
		goto out;
	}
	cat = core_xstrndup(rest, n);
	if ((er = feeds_load_category(ctx->db, cat, FEEDS_RSS_ITEMS, &f.items,
		 &f.nitems)) != CORE_OK)
		goto out;
	if ((er = feeds_add_versions(ctx->db, FEEDS_VERSIONS_CATEGORY, cat,
		 FEEDS_RSS_ITEMS, &f.items, &f.nitems)) != CORE_OK)
		goto out;
	/* Categories exist only through their papers. */
	if (f.nitems == 0) {
		er = core_req_fail(r, 404, "no paper here is in this category");
		goto out;
	}
	f.title = core_pool_keep(&f.pool, core_xasprintf("weft: %s", cat));
	path = core_xasprintf("/search?category=%s&sort=newest", cat);
	f.link = core_pool_keep(&f.pool, core_abs_url(r, path));
	f.description = core_pool_keep(&f.pool,
	    core_xasprintf("The newest papers on weft in the "
			   "arXiv category %s.",
		cat));
	free(path);
	path =
	    core_xasprintf("/rss/categories/%s.%s", cat, core_feed_ext[f.fmt]);
	f.self = core_pool_keep(&f.pool, core_abs_url(r, path));
	f.modified = newest(&f, -1);
	er = respond(r, &f, CC_PUBLIC, 1);
out:
	free(path);
	free(cat);
	feeds_feed_free(&f);
	return er;
}

/* Researcher and institution feeds differ only in these. */
struct subject_kind {
	const char *what; /* "researcher" */
	const char *dir;  /* "researchers" */
	enum core_err (
	    *load_subject)(struct core_db *, long long, struct feeds_subject *);
	enum core_err (*load_items)(struct core_db *, long long, int,
	    struct feeds_item **, size_t *);
	char *(*page)(long long, const char *);
	const char *describe; /* the description, before the name */
	int versions;         /* a feeds_versions, or -1: no version items */
};

static const struct subject_kind researcher_kind = {
	"researcher",
	"researchers",
	feeds_load_researcher_subject,
	feeds_load_researcher,
	core_researcher_path,
	"The newest papers on weft by ",
	FEEDS_VERSIONS_RESEARCHER,
};
static const struct subject_kind institution_kind = {
	"institution",
	"institutions",
	feeds_load_institution_subject,
	feeds_load_institution,
	core_institution_path,
	"The newest papers on weft by researchers at ",
	-1,
};

static enum core_err
subject_feed(struct core_req *r, const struct subject_kind *k)
{
	struct core_ctx *ctx = core_req_ctx(r);
	const char *rest = core_req_rest(r);
	struct feeds_subject s = { 0 };
	struct feeds_feed f = { 0 };
	char *path = NULL, *msg = NULL, idbuf[24];
	enum core_err er;
	long long id;
	size_t n;

	if (core_feed_ext_parse(rest, &n, &f.fmt) != 0 ||
	    core_id_parse(rest, n, &id) != 0) {
		msg = core_xasprintf("%s feeds are at /rss/%s/{id}.xml (or "
				     ".atom, .json) with a numeric id",
		    k->what, k->dir);
		er = core_req_fail(r, 404, msg);
		goto out;
	}
	if ((er = k->load_subject(ctx->db, id, &s)) == CORE_ENOTFOUND) {
		msg = core_xasprintf("there is no %s %lld", k->what, id);
		er = core_req_fail(r, 404, msg);
		goto out;
	}
	if (er != CORE_OK)
		goto out;
	if ((er = k->load_items(ctx->db, id, FEEDS_RSS_ITEMS, &f.items,
		 &f.nitems)) != CORE_OK)
		goto out;
	if (k->versions >= 0) {
		snprintf(idbuf, sizeof(idbuf), "%lld", id);
		if ((er = feeds_add_versions(ctx->db,
			 (enum feeds_versions)k->versions, idbuf,
			 FEEDS_RSS_ITEMS, &f.items, &f.nitems)) != CORE_OK)
			goto out;
	}
	f.title = core_pool_keep(&f.pool, core_xasprintf("weft: %s", s.name));
	path = k->page(id, s.slug);
	f.link = core_pool_keep(&f.pool, core_abs_url(r, path));
	f.description = core_pool_keep(&f.pool,
	    core_xasprintf("%s%s.", k->describe, s.name));
	free(path);
	path =
	    core_xasprintf("/rss/%s/%lld.%s", k->dir, id, core_feed_ext[f.fmt]);
	f.self = core_pool_keep(&f.pool, core_abs_url(r, path));
	f.modified = newest(&f, s.modified);
	er = respond(r, &f, CC_PUBLIC, 1);
out:
	free(msg);
	free(path);
	free(s.name);
	free(s.slug);
	feeds_feed_free(&f);
	return er;
}

enum core_err
feeds_rss_researcher(struct core_req *r)
{
	return subject_feed(r, &researcher_kind);
}

enum core_err
feeds_rss_institution(struct core_req *r)
{
	return subject_feed(r, &institution_kind);
}

/*
 * The private feed.  The token in the URL is a bearer secret: it is
 * hashed before the lookup, never logged (core logs this path as
 * /rss/feed/[token]), and the response is kept out of shared caches
 * and search engines.
 */
enum core_err
feeds_rss_private(struct core_req *r)
{
	struct core_ctx *ctx = core_req_ctx(r);
	const char *rest = core_req_rest(r);
	struct feeds_feed f = { 0 };
	char hash[65], *user = NULL, *tok = NULL, *path = NULL;
	enum core_err er;
	size_t n;

	if (feeds_strip_xml(rest, &n) != 0 || !feeds_token_ok(rest, n)) {
		er = CORE_ENOTFOUND;
		goto out;
	}
	tok = core_xstrndup(rest, n);
	feeds_token_hash(tok, n, hash);
	if ((er = feeds_load_token_user(ctx->db, hash, &user)) != CORE_OK)
		goto out;
	if ((er = feeds_load_user(ctx->db, user, FEEDS_RSS_ITEMS, &f.items,
		 &f.nitems)) != CORE_OK)
		goto out;
	path = core_xasprintf("/rss/feed/%s.xml", tok);
	channel(r, &f, "weft: what you follow", "/feed",
	    "New papers and versions on weft of the researchers, "
	    "institutions, categories and searches you follow, each saying "
	    "why it is here.  This feed's address works like a password: "
	    "do not share it.",
	    path);
	/*
	 * No Last-Modified: unfollowing removes items without making
	 * anything newer, which only the ETag notices.
	 */
	er = respond(r, &f, CC_PRIVATE, 0);
out:
	if (er == CORE_ENOTFOUND)
		er = core_req_fail(r, 404,
		    "there is no such feed (a rotated "
		    "feed address stops working at once)");
	core_resp_header(r, "X-Robots-Tag", "noindex");
	if (tok != NULL)
		memset(tok, 0, n);
	free(tok);
	free(path);
	free(user);
	feeds_feed_free(&f);
	return er;
}
