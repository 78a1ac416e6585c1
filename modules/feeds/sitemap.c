/*
 * sitemap.c -- the sitemap index (/sitemap.xml) and its chunks
 * (/sitemaps/{kind}-{n}.xml) per sitemaps.org.
 *
 * Chunk n of a kind lists the rows whose id falls in
 * ((n-1)*50000, n*50000], read from PostgreSQL 5,000 rows at a time and
 * written through the XML writer as they come, so the database side and
 * the writer use constant memory.  (Core still collects the response body
 * before sending it: about 5 MB for a full chunk.)  A URL's chunk never
 * changes as the corpus grows, and an empty chunk is a 404.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "feeds.h"

#define NS_SITEMAP "http://www.sitemaps.org/schemas/sitemap/0.9"
#define CC_SITEMAP "public, max-age=3600"

const char *const feeds_kind_name[FEEDS_KIND__MAX] = {
	"papers",
	"researchers",
	"institutions",
	"static",
};

int
feeds_sitemap_name_parse(const char *rest, enum feeds_kind *kind, long long *n)
{
	size_t len, k, klen;
	const char *num;

	if (feeds_strip_xml(rest, &len) != 0)
		return -1;
	for (k = 0; k < FEEDS_KIND__MAX; k++) {
		klen = strlen(feeds_kind_name[k]);
		if (len > klen + 1 &&
		    strncmp(rest, feeds_kind_name[k], klen) == 0 &&
		    rest[klen] == '-')
			break;
	}
	if (k == FEEDS_KIND__MAX)
		return -1;
	num = rest + klen + 1;
	/* One spelling per chunk: "papers-01.xml" is not "papers-1.xml". */
	if (num[0] == '0' || len - klen - 1 > 9 ||
	    core_id_parse(num, len - klen - 1, n) != 0)
		return -1;
	*kind = (enum feeds_kind)k;
	return 0;
}

/* The chunk size: FEEDS_SITEMAP_URLS, or smaller by configuration
 * (sitemap_urls, for tests of a corpus with several chunks), rounded
 * down to whole blocks of FEEDS_SITEMAP_BLOCK ids (the index reads its
 * lastmods per block, sql/schema/0045_sitemap_blocks.sql). */
static long long
chunk_size(struct core_req *r)
{
	long v;

	v = core_conf_int(core_req_ctx(r)->conf, "sitemap_urls",
	    FEEDS_SITEMAP_URLS);
	if (v < FEEDS_SITEMAP_BLOCK || v > FEEDS_SITEMAP_URLS)
		return FEEDS_SITEMAP_URLS;
	return v - v % FEEDS_SITEMAP_BLOCK;
}

/* ---------------------------------------------------------------- static */

/* The pages of the static chunk; lastmod from a table or a file. */
enum static_from {
	FROM_PAPERS,
	FROM_RESEARCHERS,
	FROM_INSTITUTIONS,
	FROM_FILE
};
static const struct {
	const char *path;
	enum static_from from;
	const char *file; /* in content_dir */
} static_pages[] = {
	{ "/", FROM_PAPERS, NULL },
	{ "/researchers", FROM_RESEARCHERS, NULL },
	{ "/institutions", FROM_INSTITUTIONS, NULL },
	{ "/about", FROM_FILE, "about.md" },
	{ "/developers", FROM_FILE, "developers.md" },
	{ "/privacy", FROM_FILE, "privacy.md" },
	{ "/contact", FROM_FILE, "contact.md" },
};
#define NSTATIC (sizeof(static_pages) / sizeof(static_pages[0]))

/* Fills lastmod[] for static_pages (-1: unknown); CORE_EDB on failure. */
static enum core_err
static_lastmods(struct core_req *r, int64_t lastmod[NSTATIC])
{
	struct core_ctx *ctx = core_req_ctx(r);
	const char *dir;
	struct stat sb;
	int64_t newest[3];
	enum core_err er;
	char *f;
	size_t i;

	if ((er = feeds_store_newest(ctx->db, newest)) != CORE_OK)
		return er;
	dir = core_conf_get(ctx->conf, "content_dir", "modules/pages/content");
	for (i = 0; i < NSTATIC; i++) {
		if (static_pages[i].from != FROM_FILE) {
			lastmod[i] = newest[static_pages[i].from];
			continue;
		}
		f = core_xasprintf("%s/%s", dir, static_pages[i].file);
		lastmod[i] = stat(f, &sb) == 0 ? (int64_t)sb.st_mtime : -1;
		free(f);
	}
	return CORE_OK;
}

/* ---------------------------------------------------------------- index */

/*
 * One <sitemap> or <url> (elem): its loc and, when lastmod >= 0, its
 * lastmod, which *newest follows.
 */
static void
entry(struct core_xml *x, const char *elem, const char *url, int64_t lastmod,
    int64_t *newest)
{
	char date[32];

	core_xml_start(x, elem);
	core_xml_elemtext(x, "loc", url);
	if (lastmod >= 0) {
		core_date_w3c(date, lastmod);
		core_xml_elemtext(x, "lastmod", date);
		if (lastmod > *newest)
			*newest = lastmod;
	}
	core_xml_end(x);
}

struct index_ctx {
	struct core_req *r;
	struct core_xml *x;
	int64_t newest;
};

static void
index_entry(void *arg, enum feeds_kind kind, long long n, int64_t lastmod)
{
	struct index_ctx *ic = arg;
	char *path, *url;

	path =
	    core_xasprintf("/sitemaps/%s-%lld.xml", feeds_kind_name[kind], n);
	url = core_abs_url(ic->r, path);
	entry(ic->x, "sitemap", url, lastmod, &ic->newest);
	free(url);
	free(path);
}

enum core_err
feeds_sitemap_index(struct core_req *r)
{
	struct core_ctx *ctx = core_req_ctx(r);
	struct index_ctx ic;
	int64_t lastmod[NSTATIC], newest = -1;
	enum core_err er = CORE_OK, xer;
	size_t i;
	int k;

	if ((er = static_lastmods(r, lastmod)) != CORE_OK)
		return er;
	for (i = 0; i < NSTATIC; i++)
		if (lastmod[i] > newest)
			newest = lastmod[i];
	ic.r = r;
	ic.newest = -1;
	ic.x = core_xml_open(core_resp_sink(r));
	core_xml_start(ic.x, "sitemapindex");
	core_xml_attr(ic.x, "xmlns", NS_SITEMAP);
	index_entry(&ic, FEEDS_KIND_STATIC, 1, newest);
	for (k = 0; k < FEEDS_KIND_STATIC; k++)
		if ((er = feeds_store_chunks(ctx->db, (enum feeds_kind)k,
			 chunk_size(r), index_entry, &ic)) != CORE_OK)
			break;
	xer = core_xml_close(ic.x);
	if (er != CORE_OK)
		return er;
	if (xer != CORE_OK) {
		core_log(CORE_LOG_ERROR, "sitemap",
		    "cannot write the index: "
		    "%s",
		    core_err_str(xer));
		return CORE_ESYS;
	}
	feeds_finish(r, CORE_REP_XML, CC_SITEMAP, ic.newest);
	return CORE_OK;
}

/* ---------------------------------------------------------------- chunks */

struct chunk_ctx {
	struct core_req *r;
	struct core_xml *x;
	size_t written;
	int64_t newest;
};

static void
chunk_entry(void *arg, const char *path, int64_t lastmod)
{
	struct chunk_ctx *cc = arg;
	char *url;

	url = core_abs_url(cc->r, path);
	if (strlen(url) > FEEDS_SITEMAP_LOC_MAX) {
		/* Keeps a chunk under 50 MB by construction (feeds.h). */
		core_log(CORE_LOG_WARN, "sitemap",
		    "URL too long, left out: "
		    "%.80s",
		    path);
		free(url);
		return;
	}
	entry(cc->x, "url", url, lastmod, &cc->newest);
	free(url);
	/* Hand finished entries to the sink now and then. */
	if (++cc->written % 1000 == 0)
		core_xml_flush(cc->x);
}

enum core_err
feeds_sitemap_chunk(struct core_req *r)
{
	struct core_ctx *ctx = core_req_ctx(r);
	struct chunk_ctx cc;
	enum feeds_kind kind;
	int64_t lastmod[NSTATIC];
	enum core_err er = CORE_OK, xer;
	long long n;
	size_t i, count = 0;

	if (feeds_sitemap_name_parse(core_req_rest(r), &kind, &n) != 0)
		return core_req_fail(r, 404,
		    "sitemap chunks are "
		    "/sitemaps/{papers|researchers|institutions|static}-{n}"
		    ".xml; /sitemap.xml lists them");
	if (kind == FEEDS_KIND_STATIC && n != 1)
		return core_req_fail(r, 404,
		    "there is one static sitemap, "
		    "static-1.xml");
	memset(&cc, 0, sizeof(cc));
	cc.r = r;
	cc.newest = -1;
	cc.x = core_xml_open(core_resp_sink(r));
	core_xml_start(cc.x, "urlset");
	core_xml_attr(cc.x, "xmlns", NS_SITEMAP);
	if (kind == FEEDS_KIND_STATIC) {
		if ((er = static_lastmods(r, lastmod)) == CORE_OK)
			for (i = 0; i < NSTATIC; i++, count++)
				chunk_entry(&cc, static_pages[i].path,
				    lastmod[i]);
	} else
		er = feeds_store_chunk(ctx->db, kind, n, chunk_size(r),
		    chunk_entry, &cc, &count);
	xer = core_xml_close(cc.x);
	if (er != CORE_OK)
		return er;
	if (xer != CORE_OK) {
		core_log(CORE_LOG_ERROR, "sitemap", "cannot write a chunk: %s",
		    core_err_str(xer));
		return CORE_ESYS;
	}
	if (count == 0)
		return core_req_fail(r, 404,
		    "there is no such sitemap chunk; "
		    "/sitemap.xml lists them");
	feeds_finish(r, CORE_REP_XML, CC_SITEMAP, cc.newest);
	return CORE_OK;
}
