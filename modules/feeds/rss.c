/*
 * rss.c -- RSS 2.0 feeds: the latest papers, a category, a researcher,
 * an institution, and a user's private feed of followed researchers.
 *
 * Unknown subjects are 404s in the client's error representation, never
 * an empty 200 feed, so that a mistyped feed URL fails where it is
 * subscribed.  Every piece of text goes through core_xml_text(), which
 * drops what would make the document ill-formed.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "feeds.h"

#define NS_ATOM "http://www.w3.org/2005/Atom"
#define NS_DC   "http://purl.org/dc/elements/1.1/"

/* Public feeds: readers poll; a few minutes of staleness is harmless. */
#define CC_PUBLIC "public, max-age=300"
/* The private feed: never in a shared cache. */
#define CC_PRIVATE "private, max-age=300"

void
feeds_feed_free(struct feeds_feed *f)
{
	if (f == NULL)
		return;
	free(f->title);
	free(f->link);
	free(f->description);
	free(f->self);
	feeds_items_free(f->items, f->nitems);
	memset(f, 0, sizeof(*f));
}

/* ---------------------------------------------------------------- render */

static void
render_item(struct core_xml *x, const char *base, const struct feeds_item *it)
{
	struct core_buf b = CORE_BUF_INIT;
	char *path, date[32];
	size_t i;
	json_t *v;
	/* Titles and abstracts are TeX: readers get them as plain text. */
	char *title = core_tex_plain(it->title, 0);
	char *abstract = core_tex_plain(it->abstract, 0);

	path = core_paper_path(it->arxiv_id, it->slug);
	core_buf_printf(&b, "%s%s", base, path);
	free(path);

	core_xml_start(x, "item");
	core_xml_elemtext(x, "title", title);
	core_xml_elemtext(x, "link", core_buf_cstr(&b));
	core_xml_start(x, "guid");
	/* A later version is an item of its own: "{link}#v2". */
	core_xml_attr(x, "isPermaLink", it->version > 1 ? "false" : "true");
	if (it->version > 1)
		core_buf_printf(&b, "#v%d", it->version);
	core_xml_text(x, core_buf_cstr(&b));
	core_xml_end(x);
	if (it->published >= 0) {
		core_date_rfc822(date, it->published);
		core_xml_elemtext(x, "pubDate", date);
	}
	json_array_foreach(it->authors, i, v)
	{
		if (json_is_string(v))
			core_xml_elemtext(x, "dc:creator",
			    json_string_value(v));
	}
	json_array_foreach(it->categories, i, v)
	{
		if (json_is_string(v))
			core_xml_elemtext(x, "category", json_string_value(v));
	}
	/*
	 * RSS readers take <description> as HTML: the abstract is escaped
	 * as HTML first, so that "a < b" in an abstract stays text there.
	 */
	if (it->why != NULL) {
		/* The private feed says why, as /feed does. */
		core_buf_reset(&b);
		core_buf_printf(&b, "%s.\n\n%s", it->why,
		    abstract != NULL ? abstract : "");
		core_xml_elemhtml(x, "description", core_buf_cstr(&b));
	} else
		core_xml_elemhtml(x, "description",
		    abstract != NULL ? abstract : "");
	core_xml_end(x);
	core_buf_free(&b);
	free(title);
	free(abstract);
}

enum core_err
feeds_rss_render(struct core_sink sink, const char *base,
    const struct feeds_feed *f)
{
	struct core_xml *x;
	char date[32];
	size_t i;

	x = core_xml_open(sink);
	core_xml_start(x, "rss");
	core_xml_attr(x, "version", "2.0");
	core_xml_attr(x, "xmlns:atom", NS_ATOM);
	core_xml_attr(x, "xmlns:dc", NS_DC);
	core_xml_start(x, "channel");
	core_xml_elemtext(x, "title", f->title);
	core_xml_elemtext(x, "link", f->link);
	core_xml_elemtext(x, "description", f->description);
	core_xml_elemtext(x, "language", "en");
	if (f->modified >= 0) {
		core_date_rfc822(date, f->modified);
		core_xml_elemtext(x, "lastBuildDate", date);
	}
	core_xml_elemtext(x, "generator", "weft");
	core_xml_elemtext(x, "docs",
	    "https://www.rssboard.org/rss-specification");
	core_xml_start(x, "atom:link");
	core_xml_attr(x, "href", f->self);
	core_xml_attr(x, "rel", "self");
	core_xml_attr(x, "type", "application/rss+xml");
	core_xml_end(x);
	for (i = 0; i < f->nitems; i++)
		render_item(x, base, &f->items[i]);
	core_xml_end(x); /* channel */
	core_xml_end(x); /* rss */
	return core_xml_close(x);
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
	f->title = core_xstrdup(title);
	f->link = core_abs_url(r, link);
	f->description = core_xstrdup(description);
	f->self = core_abs_url(r, self);
	f->modified = newest(f, -1);
}

/* Renders f as the response; lm says whether to send Last-Modified. */
static enum core_err
respond(struct core_req *r, struct feeds_feed *f, const char *cc, int lm)
{
	struct core_ctx *ctx = core_req_ctx(r);
	enum core_err er;

	if ((er = feeds_rss_render(core_resp_sink(r), ctx->base_url, f)) !=
	    CORE_OK) {
		core_log(CORE_LOG_ERROR, "rss", "cannot render a feed: %s",
		    core_err_str(er));
		return CORE_ESYS;
	}
	feeds_finish(r, CORE_REP_RSS, cc, lm ? f->modified : -1);
	return CORE_OK;
}

enum core_err
feeds_rss_latest(struct core_req *r)
{
	struct core_ctx *ctx = core_req_ctx(r);
	struct feeds_feed f;
	enum core_err er;

	memset(&f, 0, sizeof(f));
	if ((er = feeds_load_latest(ctx->db, &f.items, &f.nitems)) != CORE_OK)
		goto out;
	channel(r, &f, "weft: latest papers", "/",
	    "The newest papers on weft, an archive "
	    "of arXiv papers, the researchers who wrote them and the "
	    "institutions they work at.",
	    "/rss/latest.xml");
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
	struct feeds_feed f;
	char *cat = NULL, *path = NULL;
	enum core_err er;
	size_t n;

	memset(&f, 0, sizeof(f));
	if (feeds_strip_xml(rest, &n) != 0) {
		er = core_req_fail(r, 404,
		    "category feeds are at "
		    "/rss/categories/{category}.xml");
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
	/* Categories exist only through their papers. */
	if (f.nitems == 0) {
		er = core_req_fail(r, 404, "no paper here is in this category");
		goto out;
	}
	f.title = core_xasprintf("weft: %s", cat);
	path = core_xasprintf("/search?category=%s&sort=newest", cat);
	f.link = core_abs_url(r, path);
	f.description = core_xasprintf("The newest papers on weft in the "
				       "arXiv category %s.",
	    cat);
	free(path);
	path = core_xasprintf("/rss/categories/%s.xml", cat);
	f.self = core_abs_url(r, path);
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
};

static const struct subject_kind researcher_kind = {
	"researcher",
	"researchers",
	feeds_load_researcher_subject,
	feeds_load_researcher,
	core_researcher_path,
	"The newest papers on weft by ",
};
static const struct subject_kind institution_kind = {
	"institution",
	"institutions",
	feeds_load_institution_subject,
	feeds_load_institution,
	core_institution_path,
	"The newest papers on weft by researchers at ",
};

static enum core_err
subject_feed(struct core_req *r, const struct subject_kind *k)
{
	struct core_ctx *ctx = core_req_ctx(r);
	const char *rest = core_req_rest(r);
	struct feeds_subject s;
	struct feeds_feed f;
	char *path = NULL, *msg = NULL;
	enum core_err er;
	long long id;
	size_t n;

	memset(&s, 0, sizeof(s));
	memset(&f, 0, sizeof(f));
	if (feeds_strip_xml(rest, &n) != 0 ||
	    core_id_parse(rest, n, &id) != 0) {
		msg = core_xasprintf("%s feeds are at /rss/%s/{id}.xml with "
				     "a numeric id",
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
	f.title = core_xasprintf("weft: %s", s.name);
	path = k->page(id, s.slug);
	f.link = core_abs_url(r, path);
	f.description = core_xasprintf("%s%s.", k->describe, s.name);
	free(path);
	path = core_xasprintf("/rss/%s/%lld.xml", k->dir, id);
	f.self = core_abs_url(r, path);
	f.modified = newest(&f, s.modified);
	er = respond(r, &f, CC_PUBLIC, 1);
out:
	free(msg);
	free(path);
	feeds_subject_free(&s);
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
	struct feeds_feed f;
	char hash[65], *user = NULL, *tok = NULL, *path = NULL;
	enum core_err er;
	size_t n;

	memset(&f, 0, sizeof(f));
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
