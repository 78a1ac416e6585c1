/*
 * xml.c -- the XML writer (RSS, Atom, sitemaps) over libxml2's
 * xmlTextWriter.  libxml2 escapes < > & and quotes but passes control
 * characters and U+FFFE/U+FFFF through, any of which makes the document
 * ill-formed, so every piece of text and every attribute value is
 * cleaned here before libxml2 sees it.
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlIO.h>
#include <libxml/xmlwriter.h>

#include "core.h"

struct core_xml {
	struct core_sink sink;
	xmlTextWriterPtr w;
	size_t depth;      /* open elements, to refuse a stray end */
	enum core_err err; /* sticky: the first failure */
};

/* The first failure wins; every entry point checks err first. */
static void
fail(struct core_xml *x, enum core_err er)
{
	if (x->err == CORE_OK)
		x->err = er;
}

/* A libxml2 writer call returned rc; negative means it failed. */
static void
check(struct core_xml *x, int rc)
{
	if (rc < 0)
		fail(x, CORE_ESYS);
}

/*
 * The output buffer's write callback.  After an error the document is
 * broken anyway; dropping the rest keeps the sticky-error promise that
 * nothing more reaches the sink.
 */
static int
sink_write(void *ctx, const char *p, int n)
{
	struct core_xml *x = ctx;

	if (x->err == CORE_OK && n > 0)
		x->sink.write(x->sink.arg, p, (size_t)n);
	return n;
}

static int
sink_close(void *ctx)
{
	(void)ctx;
	return 0;
}

/*
 * Names come from our own literals, but a typo must not produce markup:
 * letters, digits and _ : . - only, not starting with a digit, '.' or '-'.
 */
static int
name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == ':' || c == '.' ||
	    c == '-';
}

/* (Tested by hand, not with strspn(): glibc builds its table at each
 * call, 5 % of the CPU of a feed, which checks some 600 names.) */
static int
name_ok(const char *s)
{
	if (s == NULL || *s == '\0' || strchr("0123456789.-", *s) != NULL)
		return 0;
	for (; *s != '\0'; s++)
		if (!name_char((unsigned char)*s))
			return 0;
	return 1;
}

/*
 * Drops the two non-characters U+FFFE and U+FFFF from b[from..), which
 * are valid UTF-8 but not XML Chars.  Their encodings start with EF,
 * rare in text (U+F000..U+FFFF), so one memchr() usually settles it.
 */
static void
drop_nonchars(struct core_buf *b, size_t from)
{
	char *p, *end, *o;

	if (from >= b->len ||
	    (p = memchr(b->ptr + from, '\xef', b->len - from)) == NULL)
		return;
	for (o = p, end = b->ptr + b->len; p < end; p++) {
		if (end - p >= 3 && p[0] == '\xef' && p[1] == '\xbf' &&
		    (p[2] == '\xbe' || p[2] == '\xbf')) {
			p += 2;
			continue;
		}
		*o++ = *p;
	}
	b->len = (size_t)(o - b->ptr);
	b->ptr[b->len] = '\0';
}

/*
 * Appends s cleaned for XML 1.0 to b: invalid UTF-8 replaced, controls
 * but tab, LF and CR dropped (core_utf8_clean), and then U+FFFE and
 * U+FFFF dropped.
 */
static void
xml_clean(struct core_buf *b, const char *s)
{
	size_t from = b->len;

	core_utf8_clean(b, s, strlen(s));
	drop_nonchars(b, from);
}

/*
 * What libxml2's xmlTextWriterWriteString() escapes in element content
 * (xmlEncodeSpecialChars: < > & " and CR), so text escaped here and
 * written raw comes out byte for byte as the writer's own would, in one
 * pass over the text instead of three.
 */
static const char *const text_escapes[128] = {
	['<'] = "&lt;",
	['>'] = "&gt;",
	['&'] = "&amp;",
	['"'] = "&quot;",
	['\r'] = "&#13;",
};

struct core_xml *
core_xml_open(struct core_sink sink)
{
	struct core_xml *x;
	xmlOutputBufferPtr out;

	xmlInitParser(); /* idempotent; libxml2 wants it before use */
	x = core_xcalloc(1, sizeof(*x));
	x->sink = sink;
	x->err = CORE_OK;
	/* No encoder: we hand libxml2 UTF-8 and want UTF-8 out. */
	out = xmlOutputBufferCreateIO(sink_write, sink_close, x, NULL);
	if (out == NULL) {
		fail(x, CORE_ESYS);
		return x;
	}
	/* The writer owns out from here and closes it when freed. */
	if ((x->w = xmlNewTextWriter(out)) == NULL) {
		xmlOutputBufferClose(out);
		fail(x, CORE_ESYS);
		return x;
	}
	check(x, xmlTextWriterStartDocument(x->w, "1.0", "UTF-8", NULL));
	return x;
}

void
core_xml_start(struct core_xml *x, const char *name)
{
	if (x->err != CORE_OK)
		return;
	if (!name_ok(name)) {
		fail(x, CORE_EINPUT);
		return;
	}
	check(x, xmlTextWriterStartElement(x->w, (const xmlChar *)name));
	x->depth++;
}

void
core_xml_attr(struct core_xml *x, const char *name, const char *val)
{
	struct core_buf b = CORE_BUF_INIT;

	if (x->err != CORE_OK)
		return;
	if (!name_ok(name) || val == NULL) {
		fail(x, CORE_EINPUT);
		return;
	}
	xml_clean(&b, val);
	check(x,
	    xmlTextWriterWriteAttribute(x->w, (const xmlChar *)name,
		(const xmlChar *)core_buf_cstr(&b)));
	core_buf_free(&b);
}

/*
 * text_escapes after the HTML writer's entities (html.c): what the XML
 * text of HTML-escaped text is ("&amp;lt;" for '<'), so that both
 * escapes take one pass.
 */
#define HTML_ENTITY_TEXT(c, name) [c] = "&amp;" name ";",
static const char *const html_text_escapes[128] = {
	['\r'] = "&#13;", /* as in text_escapes */
	CORE_HTML_ENTITIES(HTML_ENTITY_TEXT)
};
#undef HTML_ENTITY_TEXT

/* Text escaped with table, cleaned and written raw (see below). */
static void
text_with(struct core_xml *x, const char *s, const char *const table[128])
{
	struct core_buf b = CORE_BUF_INIT;

	if (x->err != CORE_OK || s == NULL)
		return;
	core_utf8_clean_subst(core_buf_sink(&b), s, strlen(s), table);
	drop_nonchars(&b, 0);
	/* WriteRaw closes a pending start tag first, as WriteString does;
	 * an empty text still does that, so it is written too. */
	check(x,
	    xmlTextWriterWriteRaw(x->w, (const xmlChar *)core_buf_cstr(&b)));
	core_buf_free(&b);
}

void
core_xml_text(struct core_xml *x, const char *s)
{
	text_with(x, s, text_escapes);
}

void
core_xml_html_text(struct core_xml *x, const char *s)
{
	text_with(x, s, html_text_escapes);
}

void
core_xml_end(struct core_xml *x)
{
	if (x->err != CORE_OK)
		return;
	if (x->depth == 0) {
		fail(x, CORE_EINPUT);
		return;
	}
	/* Full end tags: <guid></guid> reads better than <guid/> in feeds. */
	check(x, xmlTextWriterFullEndElement(x->w));
	x->depth--;
}

/* <name>text</name>, text escaped with table; nothing when NULL. */
static void
elem_with(struct core_xml *x, const char *name, const char *text,
    const char *const table[128])
{
	if (text == NULL)
		return;
	core_xml_start(x, name);
	text_with(x, text, table);
	core_xml_end(x);
}

void
core_xml_elemtext(struct core_xml *x, const char *name, const char *text)
{
	elem_with(x, name, text, text_escapes);
}

void
core_xml_elemhtml(struct core_xml *x, const char *name, const char *text)
{
	elem_with(x, name, text, html_text_escapes);
}

void
core_xml_flush(struct core_xml *x)
{
	if (x->err != CORE_OK)
		return;
	check(x, xmlTextWriterFlush(x->w));
}

enum core_err
core_xml_close(struct core_xml *x)
{
	enum core_err er;

	if (x == NULL)
		return CORE_ESYS;
	/* Ends open elements and writes the final newline. */
	if (x->err == CORE_OK)
		check(x, xmlTextWriterEndDocument(x->w));
	/* Frees the output buffer too, flushing through sink_write(). */
	if (x->w != NULL)
		xmlFreeTextWriter(x->w);
	er = x->err;
	free(x);
	return er;
}
