/*
 * test_feeds_rss.c -- the RSS renderer and the pure helpers behind the
 * feed and sitemap URLs: whatever the text in the database (markup,
 * ampersands, control characters, invalid UTF-8), a feed is well-formed
 * XML with the elements RSS 2.0 readers need.
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "core.h"
#include "../../modules/feeds/feeds.h"
#include "t.h"

static xmlDocPtr
parse(const struct core_buf *b)
{
	return xmlReadMemory(b->ptr, (int)b->len, "feed.xml", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
}

/* The string value of an XPath expression over doc; caller frees. */
static char *
xpath(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr c;
	xmlXPathObjectPtr o;
	xmlChar *s;
	char *r;

	c = xmlXPathNewContext(doc);
	xmlXPathRegisterNs(c, (const xmlChar *)"atom",
	    (const xmlChar *)"http://www.w3.org/2005/Atom");
	xmlXPathRegisterNs(c, (const xmlChar *)"dc",
	    (const xmlChar *)"http://purl.org/dc/elements/1.1/");
	o = xmlXPathEvalExpression((const xmlChar *)expr, c);
	s = xmlXPathCastToString(o);
	r = strdup((const char *)s);
	xmlFree(s);
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(c);
	return r;
}

#define XP_IS(doc, expr, want, what)                                           \
	do {                                                                   \
		char *x_ = xpath((doc), (expr));                               \
		T_STREQ(x_, (want), (what));                                   \
		free(x_);                                                      \
	} while (0)

static void
item_init(struct feeds_item *it, const char *id, const char *title,
    const char *slug, const char *abstract)
{
	memset(it, 0, sizeof(*it));
	it->arxiv_id = strdup(id);
	it->title = strdup(title);
	it->slug = strdup(slug);
	it->abstract = strdup(abstract);
	it->authors = json_pack("[ss]", "Ada Lovelace", "Ch\xc3\xa9 & <Co>");
	it->categories = json_pack("[ss]", "cs.SE", "cs.LG");
	it->published = 1766620800;
	it->modified = 1766707200;
}

static void
render(void)
{
	struct feeds_feed f;
	struct core_buf b = CORE_BUF_INIT;
	xmlDocPtr doc;

	memset(&f, 0, sizeof(f));
	f.title = core_pool_keep(&f.pool, strdup("weft: a & b"));
	f.link = core_pool_keep(&f.pool, strdup("http://x.test/"));
	f.description = core_pool_keep(&f.pool, strdup("d\x01<esc>"));
	f.self =
	    core_pool_keep(&f.pool, strdup("http://x.test/rss/latest.xml"));
	f.modified = 1766707200;
	f.nitems = 3;
	f.items = calloc(4, sizeof(*f.items));
	item_init(&f.items[0], "2512.20345", "Fish & <Chips>\x01\x1b end",
	    "fish-chips", "x < y && z\x0b\xff\xfe ok");
	item_init(&f.items[1], "math.GT/0309136", "Old \xc0\xaf style", "", "");
	item_init(&f.items[2], "2401.00001", "Slug with id", "2401.00001-s",
	    "a");
	f.items[2].published = -1;

	T_EQ(feeds_rss_render(core_buf_sink(&b), "http://x.test", &f), CORE_OK,
	    "renders");
	doc = parse(&b);
	T_OK(doc != NULL, "well-formed despite controls and bad UTF-8");
	if (doc == NULL) {
		printf("# %s\n", b.ptr);
		goto out;
	}
	XP_IS(doc, "/rss/@version", "2.0", "RSS 2.0");
	XP_IS(doc, "/rss/channel/title", "weft: a & b", "channel title");
	XP_IS(doc, "/rss/channel/description", "d<esc>", "control dropped");
	XP_IS(doc, "/rss/channel/language", "en", "language");
	XP_IS(doc, "/rss/channel/lastBuildDate",
	    "Fri, 26 Dec 2025 00:00:00 +0000", "lastBuildDate");
	XP_IS(doc, "/rss/channel/atom:link/@rel", "self", "atom:link self");
	XP_IS(doc, "/rss/channel/atom:link/@href",
	    "http://x.test/rss/latest.xml", "atom:link href");
	XP_IS(doc, "count(/rss/channel/item)", "3", "three items");
	XP_IS(doc, "/rss/channel/item[1]/title", "Fish & <Chips> end",
	    "title: markup is text, controls gone");
	XP_IS(doc, "/rss/channel/item[1]/link",
	    "http://x.test/papers/2512.20345-fish-chips", "canonical link");
	XP_IS(doc, "/rss/channel/item[1]/guid",
	    "http://x.test/papers/2512.20345-fish-chips", "guid = link");
	XP_IS(doc, "/rss/channel/item[1]/guid/@isPermaLink", "true",
	    "permalink guid");
	XP_IS(doc, "/rss/channel/item[1]/pubDate",
	    "Thu, 25 Dec 2025 00:00:00 +0000", "pubDate RFC 822");
	XP_IS(doc, "count(/rss/channel/item[1]/dc:creator)", "2",
	    "one dc:creator per author");
	XP_IS(doc, "/rss/channel/item[1]/dc:creator[2]", "Ch\xc3\xa9 & <Co>",
	    "author text kept");
	XP_IS(doc, "/rss/channel/item[1]/category[1]", "cs.SE", "category");
	XP_IS(doc, "/rss/channel/item[1]/description",
	    "x &lt; y &amp;&amp; z\xef\xbf\xbd\xef\xbf\xbd ok",
	    "description: abstract as escaped HTML, bad bytes replaced");
	XP_IS(doc, "/rss/channel/item[2]/link",
	    "http://x.test/papers/math.GT/0309136", "empty slug: no -slug");
	XP_IS(doc, "/rss/channel/item[3]/link",
	    "http://x.test/papers/2401.00001-s", "id in the slug not repeated");
	XP_IS(doc, "count(/rss/channel/item[3]/pubDate)", "0",
	    "no pubDate when unknown");
	xmlFreeDoc(doc);
out:
	core_buf_free(&b);
	feeds_feed_free(&f);
}

static void
helpers(void)
{
	enum feeds_kind k;
	long long n = 0, id = 0;
	char h[65];
	size_t len = 0;

	T_OK(core_category_ok("cs.SE", 5), "cs.SE");
	T_OK(core_category_ok("astro-ph.CO", 11), "astro-ph.CO");
	T_OK(!core_category_ok("", 0), "empty category");
	T_OK(!core_category_ok("cs SE", 5), "space");
	T_OK(!core_category_ok("cs/SE", 5), "slash");
	T_OK(!core_category_ok("cs\0E", 4), "NUL");
	T_OK(!core_category_ok("abcdefghijklmnopqrstuvwxyz0123456", 33),
	    "33 characters");
	T_EQ(core_id_parse("42", 2, &id), 0, "id");
	T_EQ(id, 42, "id value");
	T_EQ(core_id_parse("0", 1, &id), -1, "id 0");
	T_EQ(core_id_parse("4x", 2, &id), -1, "id with a letter");
	T_EQ(core_id_parse("1234567890123456789", 19, &id), -1, "19 digits");
	T_EQ(feeds_strip_xml("cs.SE.xml", &len), 0, "strip .xml");
	T_EQ(len, 5, "stripped length");
	T_EQ(feeds_strip_xml("cs.SE", &len), -1, "no .xml");
	T_EQ(feeds_strip_xml(".xml", &len), 0, "bare .xml");
	T_EQ(len, 0, "empty name");
	T_OK(feeds_token_ok("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ", 43),
	    "a 43-character token");
	T_OK(!feeds_token_ok("short", 5), "short token");
	T_OK(!feeds_token_ok("abcdefghijklmnop/rstuvwxyz", 26), "slash");
	/* BLAKE2b-256 of "abc" (RFC 7693 test vectors are for -512; this
	 * is libsodium's crypto_generichash with a 32-byte output). */
	feeds_token_hash("abc", 3, h);
	T_STREQ(h,
	    "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c0"
	    "68d52319",
	    "token hash is hex BLAKE2b-256");

	T_EQ(feeds_sitemap_name_parse("papers-1.xml", &k, &n), 0, "papers-1");
	T_EQ(k, FEEDS_KIND_PAPERS, "kind papers");
	T_EQ(n, 1, "n 1");
	T_EQ(feeds_sitemap_name_parse("institutions-12.xml", &k, &n), 0,
	    "institutions-12");
	T_EQ(k, FEEDS_KIND_INSTITUTIONS, "kind institutions");
	T_EQ(n, 12, "n 12");
	T_EQ(feeds_sitemap_name_parse("static-1.xml", &k, &n), 0, "static");
	T_EQ(feeds_sitemap_name_parse("papers-0.xml", &k, &n), -1, "n 0");
	T_EQ(feeds_sitemap_name_parse("papers-01.xml", &k, &n), -1,
	    "leading zero");
	T_EQ(feeds_sitemap_name_parse("papers-.xml", &k, &n), -1, "no n");
	T_EQ(feeds_sitemap_name_parse("papers-1", &k, &n), -1, "no .xml");
	T_EQ(feeds_sitemap_name_parse("people-1.xml", &k, &n), -1,
	    "unknown kind");
	T_EQ(feeds_sitemap_name_parse("papers-1234567890.xml", &k, &n), -1,
	    "ten digits");
}

/* Atom, JSON Feed and a version item, from the same feed. */
static void
formats(void)
{
	struct feeds_feed f;
	struct core_buf b = CORE_BUF_INIT;
	enum core_feed_fmt fmt;
	xmlDocPtr doc;
	json_t *j;
	size_t n;

	memset(&f, 0, sizeof(f));
	f.title = core_pool_keep(&f.pool, strdup("weft: t"));
	f.link = core_pool_keep(&f.pool, strdup("http://x.test/"));
	f.description = core_pool_keep(&f.pool, strdup("d"));
	f.self =
	    core_pool_keep(&f.pool, strdup("http://x.test/rss/latest.atom"));
	f.modified = 1766707200;
	f.nitems = 2;
	f.items = calloc(3, sizeof(*f.items));
	item_init(&f.items[0], "2512.20345", "Fish", "fish", "a < b");
	item_init(&f.items[1], "2512.20345", "Fish", "fish", "a < b");
	f.items[0].version = 2;
	f.items[0].version_date = 1766966400; /* 2025-12-29 */

	f.fmt = CORE_FEED_ATOM;
	T_EQ(feeds_render(core_buf_sink(&b), "http://x.test", &f), CORE_OK,
	    "Atom renders");
	doc = parse(&b);
	T_OK(doc != NULL, "Atom is well-formed");
	if (doc != NULL) {
		XP_IS(doc, "/atom:feed/atom:id",
		    "http://x.test/rss/latest.atom", "feed id is its URL");
		XP_IS(doc, "/atom:feed/atom:updated",
		    "2025-12-26T00:00:00+00:00", "feed updated");
		XP_IS(doc, "/atom:feed/atom:link[@rel='self']/@type",
		    "application/atom+xml", "self link");
		XP_IS(doc, "/atom:feed/atom:author/atom:name", "weft",
		    "feed author");
		XP_IS(doc, "/atom:feed/atom:entry[1]/atom:id",
		    "https://arxiv.org/abs/2512.20345v2", "version GUID");
		XP_IS(doc, "/atom:feed/atom:entry[1]/atom:title",
		    "v2 replaced v1: Fish", "version title");
		XP_IS(doc, "/atom:feed/atom:entry[1]/atom:updated",
		    "2025-12-29T00:00:00+00:00", "version date");
		XP_IS(doc, "/atom:feed/atom:entry[2]/atom:id",
		    "http://x.test/papers/2512.20345-fish", "paper id = link");
		XP_IS(doc, "/atom:feed/atom:entry[2]/atom:summary", "a < b",
		    "summary as text");
		XP_IS(doc, "count(/atom:feed/atom:entry[2]/atom:author)", "2",
		    "entry authors");
		XP_IS(doc, "/atom:feed/atom:entry[2]/atom:category[1]/@term",
		    "cs.SE", "category term");
		xmlFreeDoc(doc);
	}
	b.len = 0;
	f.fmt = CORE_FEED_JSON;
	T_EQ(feeds_render(core_buf_sink(&b), "http://x.test", &f), CORE_OK,
	    "JSON Feed renders");
	j = json_loadb(b.ptr, b.len, 0, NULL);
	T_OK(j != NULL, "JSON Feed parses");
	T_STREQ(core_json_text(j, "version"),
	    "https://jsonfeed.org/version/1.1", "JSON Feed 1.1");
	T_EQ(json_array_size(json_object_get(j, "items")), 2, "two items");
	T_STREQ(core_json_text(json_array_get(json_object_get(j, "items"), 0),
		    "id"),
	    "https://arxiv.org/abs/2512.20345v2", "version id");
	T_STREQ(core_json_text(json_array_get(json_object_get(j, "items"), 1),
		    "content_text"),
	    "a < b", "content_text");
	json_decref(j);
	core_buf_free(&b);
	feeds_feed_free(&f);

	T_EQ(core_feed_ext_parse("cs.SE.atom", &n, &fmt), 0, "ext .atom");
	T_EQ(n, 5, "name length");
	T_EQ(fmt, CORE_FEED_ATOM, "atom");
	T_EQ(core_feed_ext_parse("/rss/latest.json", &n, &fmt), 0, "ext .json");
	T_EQ(fmt, CORE_FEED_JSON, "json");
	T_EQ(core_feed_ext_parse("x.rss", &n, &fmt), -1, "no .rss");
	T_EQ(core_feed_ext_parse("json", &n, &fmt), -1, "no dot");
}

int
main(void)
{
	render();
	formats();
	helpers();
	return T_DONE();
}
