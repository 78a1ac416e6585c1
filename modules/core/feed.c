/*
 * feed.c -- one feed model, three writers: RSS 2.0, Atom (RFC 4287) and
 * JSON Feed 1.1.  The feeds module (latest, categories, researchers,
 * institutions) and the search (pages) fill the same struct core_feed;
 * the writers decide nothing but syntax.
 *
 * XML goes through core's XML writer (control characters dropped, so
 * the document stays well-formed); JSON is built with jansson and
 * serialised by core_json_render().  Text that readers take as HTML
 * (RSS <description>) is HTML-escaped first; Atom and JSON Feed carry
 * the summary as plain text (type="text", content_text).
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define NS_ATOM          "http://www.w3.org/2005/Atom"
#define NS_DC            "http://purl.org/dc/elements/1.1/"
#define JSONFEED_VERSION "https://jsonfeed.org/version/1.1"

const char *const core_feed_ext[CORE_FEED__MAX] = { "xml", "atom", "json" };
const char *const core_feed_mime[CORE_FEED__MAX] = {
	"application/rss+xml",
	"application/atom+xml",
	"application/feed+json",
};
const char *const core_feed_ctype[CORE_FEED__MAX] = {
	"application/rss+xml; charset=utf-8",
	"application/atom+xml; charset=utf-8",
	"application/feed+json; charset=utf-8",
};
const char *const core_feed_label[CORE_FEED__MAX] = { "RSS", "Atom",
	"JSON Feed" };

int
core_feed_ext_parse(const char *rest, size_t *n, enum core_feed_fmt *fmt)
{
	size_t len = strlen(rest), el;
	int i;

	for (i = 0; i < CORE_FEED__MAX; i++) {
		el = strlen(core_feed_ext[i]);
		if (len > el && rest[len - el - 1] == '.' &&
		    strcmp(rest + len - el, core_feed_ext[i]) == 0) {
			*n = len - el - 1;
			*fmt = (enum core_feed_fmt)i;
			return 0;
		}
	}
	return -1;
}

/* The item's newest date: updated, else published, else the feed's. */
static int64_t
item_updated(const struct core_feed *f, const struct core_feed_item *it)
{
	int64_t t = it->updated > it->published ? it->updated : it->published;

	return t >= 0 ? t : (f->updated >= 0 ? f->updated : 0);
}

/* ---------------------------------------------------------------- RSS */

static void
rss_item(struct core_xml *x, const struct core_feed_item *it)
{
	char date[32];
	size_t i;
	json_t *v;
	int perma = strcmp(it->id, it->link) == 0;

	core_xml_start(x, "item");
	core_xml_elemtext(x, "title", it->title);
	core_xml_elemtext(x, "link", it->link);
	core_xml_start(x, "guid");
	core_xml_attr(x, "isPermaLink", perma ? "true" : "false");
	core_xml_text(x, it->id);
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
	 * RSS readers take <description> as HTML: the summary is escaped
	 * as HTML first, so that "a < b" in an abstract stays text there.
	 */
	core_xml_elemhtml(x, "description",
	    it->summary != NULL ? it->summary : "");
	core_xml_end(x);
}

/*
 * Opens a feed document on sink: its root element name with the
 * attributes attrs (name, value pairs; NULL after the last).
 */
static struct core_xml *
feed_open(struct core_sink sink, const char *name, const char *const *attrs)
{
	struct core_xml *x = core_xml_open(sink);

	core_xml_start(x, name);
	for (; attrs[0] != NULL; attrs += 2)
		core_xml_attr(x, attrs[0], attrs[1]);
	return x;
}

/* The inside of an RSS document's root: its channel. */
static void
rss_channel(struct core_xml *x, const struct core_feed *f)
{
	char date[32];
	size_t i;

	core_xml_start(x, "channel");
	core_xml_elemtext(x, "title", f->title);
	core_xml_elemtext(x, "link", f->link);
	core_xml_elemtext(x, "description", f->description);
	core_xml_elemtext(x, "language", "en");
	if (f->updated >= 0) {
		core_date_rfc822(date, f->updated);
		core_xml_elemtext(x, "lastBuildDate", date);
	}
	core_xml_elemtext(x, "generator", "weft");
	core_xml_elemtext(x, "docs",
	    "https://www.rssboard.org/rss-specification");
	core_xml_start(x, "atom:link");
	core_xml_attr(x, "href", f->self);
	core_xml_attr(x, "rel", "self");
	core_xml_attr(x, "type", core_feed_mime[CORE_FEED_RSS]);
	core_xml_end(x);
	for (i = 0; i < f->nitems; i++)
		rss_item(x, &f->items[i]);
	core_xml_end(x); /* channel */
}

/* ---------------------------------------------------------------- Atom */

/* An Atom text construct in plain text: <name type="text">. */
static void
atom_text(struct core_xml *x, const char *name, const char *text)
{
	core_xml_start(x, name);
	core_xml_attr(x, "type", "text");
	core_xml_text(x, text);
	core_xml_end(x);
}

static void
atom_link(struct core_xml *x, const char *rel, const char *type,
    const char *href)
{
	core_xml_start(x, "link");
	core_xml_attr(x, "rel", rel);
	if (type != NULL)
		core_xml_attr(x, "type", type);
	core_xml_attr(x, "href", href);
	core_xml_end(x);
}

static void
atom_author(struct core_xml *x, const char *name)
{
	core_xml_start(x, "author");
	core_xml_elemtext(x, "name", name);
	core_xml_end(x);
}

static void
atom_entry(struct core_xml *x, const struct core_feed *f,
    const struct core_feed_item *it)
{
	char date[32];
	size_t i;
	json_t *v;

	core_xml_start(x, "entry");
	core_xml_elemtext(x, "id", it->id);
	atom_text(x, "title", it->title);
	core_date_w3c(date, item_updated(f, it));
	core_xml_elemtext(x, "updated", date);
	if (it->published >= 0) {
		core_date_w3c(date, it->published);
		core_xml_elemtext(x, "published", date);
	}
	atom_link(x, "alternate", "text/html", it->link);
	/* RFC 4287 4.1.2: an entry without an author takes the feed's. */
	json_array_foreach(it->authors, i, v)
	{
		if (json_is_string(v))
			atom_author(x, json_string_value(v));
	}
	json_array_foreach(it->categories, i, v)
	{
		if (!json_is_string(v))
			continue;
		core_xml_start(x, "category");
		core_xml_attr(x, "term", json_string_value(v));
		core_xml_end(x);
	}
	atom_text(x, "summary", it->summary != NULL ? it->summary : "");
	core_xml_end(x);
}

/* The inside of an Atom document's root <feed>. */
static void
atom_feed(struct core_xml *x, const struct core_feed *f)
{
	char date[32];
	size_t i;

	/* The feed's id is its own address: stable and unique. */
	core_xml_elemtext(x, "id", f->self);
	atom_text(x, "title", f->title);
	atom_text(x, "subtitle", f->description);
	core_date_w3c(date, f->updated >= 0 ? f->updated : 0);
	core_xml_elemtext(x, "updated", date);
	atom_link(x, "self", core_feed_mime[CORE_FEED_ATOM], f->self);
	atom_link(x, "alternate", "text/html", f->link);
	/* The feed's author covers entries with no author of their own. */
	atom_author(x, "weft");
	core_xml_elemtext(x, "generator", "weft");
	for (i = 0; i < f->nitems; i++)
		atom_entry(x, f, &f->items[i]);
}

/* ---------------------------------------------------------- JSON Feed */

static json_t *
json_date(int64_t t)
{
	char date[32];

	core_date_w3c(date, t);
	return json_string(date);
}

static json_t *
json_item(const struct core_feed *f, const struct core_feed_item *it)
{
	json_t *o, *a;
	size_t i;
	json_t *v;

	o = json_object();
	json_object_set_new(o, "id", core_json_str(it->id));
	json_object_set_new(o, "url", core_json_str(it->link));
	json_object_set_new(o, "title", core_json_str(it->title));
	json_object_set_new(o, "content_text",
	    core_json_str(it->summary != NULL ? it->summary : ""));
	if (it->published >= 0)
		json_object_set_new(o, "date_published",
		    json_date(it->published));
	json_object_set_new(o, "date_modified", json_date(item_updated(f, it)));
	a = json_array();
	json_array_foreach(it->authors, i, v)
	{
		if (json_is_string(v))
			json_array_append_new(a,
			    json_pack("{s:o}", "name",
				core_json_str(json_string_value(v))));
	}
	if (json_array_size(a) > 0)
		json_object_set_new(o, "authors", a);
	else
		json_decref(a);
	a = json_array();
	json_array_foreach(it->categories, i, v)
	{
		if (json_is_string(v))
			json_array_append_new(a,
			    core_json_str(json_string_value(v)));
	}
	json_object_set_new(o, "tags", a);
	return o;
}

static enum core_err
json_render(struct core_sink sink, const struct core_feed *f)
{
	struct core_buf b = CORE_BUF_INIT;
	json_t *o, *items;
	size_t i;

	items = json_array();
	for (i = 0; i < f->nitems; i++)
		json_array_append_new(items, json_item(f, &f->items[i]));
	o = json_object();
	json_object_set_new(o, "version", json_string(JSONFEED_VERSION));
	json_object_set_new(o, "title", core_json_str(f->title));
	json_object_set_new(o, "home_page_url", core_json_str(f->link));
	json_object_set_new(o, "feed_url", core_json_str(f->self));
	json_object_set_new(o, "description", core_json_str(f->description));
	json_object_set_new(o, "language", json_string("en"));
	json_object_set_new(o, "authors", json_pack("[{s:s}]", "name", "weft"));
	json_object_set_new(o, "items", items);
	core_json_render(&b, o, 1);
	sink.write(sink.arg, b.ptr, b.len);
	core_buf_free(&b);
	json_decref(o);
	return CORE_OK;
}

enum core_err
core_feed_render(struct core_sink sink, enum core_feed_fmt fmt,
    const struct core_feed *f)
{
	struct core_xml *x;

	switch (fmt) {
	case CORE_FEED_JSON:
		return json_render(sink, f);
	case CORE_FEED_ATOM:
		x = feed_open(sink, "feed",
		    (const char *const[]){ "xmlns", NS_ATOM, "xml:lang", "en",
			NULL });
		atom_feed(x, f);
		break;
	default:
		x = feed_open(sink, "rss",
		    (const char *const[]){ "version", "2.0", "xmlns:atom",
			NS_ATOM, "xmlns:dc", NS_DC, NULL });
		rss_channel(x, f);
		break;
	}
	core_xml_end(x); /* the root */
	return core_xml_close(x);
}
