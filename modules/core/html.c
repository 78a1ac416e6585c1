/*
 * html.c -- the HTML writer.  Tag and attribute names come from tables
 * indexed by enums, never from data; every attribute value and every text
 * node is escaped here, and URL attributes must be same-site or http(s).
 * The only function that writes unescaped bytes to the sink is raw()
 * below, so a module cannot emit markup that did not pass through us.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmark.h>
#include <jansson.h>

#include "core.h"

static const char *const tags[CORE_TAG__MAX] = {
	[CORE_TAG_A] = "a",
	[CORE_TAG_ABBR] = "abbr",
	[CORE_TAG_ARTICLE] = "article",
	[CORE_TAG_ASIDE] = "aside",
	[CORE_TAG_B] = "b",
	[CORE_TAG_BODY] = "body",
	[CORE_TAG_BR] = "br",
	[CORE_TAG_BUTTON] = "button",
	[CORE_TAG_CODE] = "code",
	[CORE_TAG_DD] = "dd",
	[CORE_TAG_DETAILS] = "details",
	[CORE_TAG_DIV] = "div",
	[CORE_TAG_DL] = "dl",
	[CORE_TAG_DT] = "dt",
	[CORE_TAG_EM] = "em",
	[CORE_TAG_FIELDSET] = "fieldset",
	[CORE_TAG_FOOTER] = "footer",
	[CORE_TAG_FORM] = "form",
	[CORE_TAG_H1] = "h1",
	[CORE_TAG_H2] = "h2",
	[CORE_TAG_H3] = "h3",
	[CORE_TAG_H4] = "h4",
	[CORE_TAG_HEAD] = "head",
	[CORE_TAG_HEADER] = "header",
	[CORE_TAG_HR] = "hr",
	[CORE_TAG_HTML] = "html",
	[CORE_TAG_I] = "i",
	[CORE_TAG_IMG] = "img",
	[CORE_TAG_INPUT] = "input",
	[CORE_TAG_LABEL] = "label",
	[CORE_TAG_LEGEND] = "legend",
	[CORE_TAG_LI] = "li",
	[CORE_TAG_LINK] = "link",
	[CORE_TAG_MAIN] = "main",
	[CORE_TAG_MARK] = "mark",
	[CORE_TAG_META] = "meta",
	[CORE_TAG_NAV] = "nav",
	[CORE_TAG_OL] = "ol",
	[CORE_TAG_OPTION] = "option",
	[CORE_TAG_P] = "p",
	[CORE_TAG_PRE] = "pre",
	[CORE_TAG_SECTION] = "section",
	[CORE_TAG_SELECT] = "select",
	[CORE_TAG_SMALL] = "small",
	[CORE_TAG_SPAN] = "span",
	[CORE_TAG_STRONG] = "strong",
	[CORE_TAG_SUMMARY] = "summary",
	[CORE_TAG_TABLE] = "table",
	[CORE_TAG_TBODY] = "tbody",
	[CORE_TAG_TD] = "td",
	[CORE_TAG_TEXTAREA] = "textarea",
	[CORE_TAG_TH] = "th",
	[CORE_TAG_THEAD] = "thead",
	[CORE_TAG_TIME] = "time",
	[CORE_TAG_TITLE] = "title",
	[CORE_TAG_TR] = "tr",
	[CORE_TAG_UL] = "ul",
	[CORE_TAG_SVG] = "svg",
	[CORE_TAG_G] = "g",
	[CORE_TAG_LINE] = "line",
	[CORE_TAG_CIRCLE] = "circle",
	[CORE_TAG_RECT] = "rect",
	[CORE_TAG_PATH] = "path",
	[CORE_TAG_POLYLINE] = "polyline",
	[CORE_TAG_TEXT] = "text",
	[CORE_TAG_SVGTITLE] = "title",
};

static const char *const attrs[CORE_ATTR__MAX] = {
	[CORE_ATTR_ACTION] = "action",
	[CORE_ATTR_ALT] = "alt",
	[CORE_ATTR_ARIA_CURRENT] = "aria-current",
	[CORE_ATTR_ARIA_HIDDEN] = "aria-hidden",
	[CORE_ATTR_ARIA_LABEL] = "aria-label",
	[CORE_ATTR_AUTOCOMPLETE] = "autocomplete",
	[CORE_ATTR_CHARSET] = "charset",
	[CORE_ATTR_CLASS] = "class",
	[CORE_ATTR_CONTENT] = "content",
	[CORE_ATTR_DATETIME] = "datetime",
	[CORE_ATTR_FOR] = "for",
	[CORE_ATTR_HEIGHT] = "height",
	[CORE_ATTR_HREF] = "href",
	[CORE_ATTR_HREFLANG] = "hreflang",
	[CORE_ATTR_ID] = "id",
	[CORE_ATTR_LANG] = "lang",
	[CORE_ATTR_MAXLENGTH] = "maxlength",
	[CORE_ATTR_METHOD] = "method",
	[CORE_ATTR_MINLENGTH] = "minlength",
	[CORE_ATTR_NAME] = "name",
	[CORE_ATTR_PLACEHOLDER] = "placeholder",
	[CORE_ATTR_PROPERTY] = "property",
	[CORE_ATTR_REL] = "rel",
	[CORE_ATTR_REQUIRED] = "required",
	[CORE_ATTR_ROLE] = "role",
	[CORE_ATTR_SELECTED] = "selected",
	[CORE_ATTR_SRC] = "src",
	[CORE_ATTR_TITLE] = "title",
	[CORE_ATTR_TYPE] = "type",
	[CORE_ATTR_VALUE] = "value",
	[CORE_ATTR_WIDTH] = "width",
	[CORE_ATTR_CX] = "cx",
	[CORE_ATTR_CY] = "cy",
	[CORE_ATTR_D] = "d",
	[CORE_ATTR_FILL] = "fill",
	[CORE_ATTR_POINTS] = "points",
	[CORE_ATTR_R] = "r",
	[CORE_ATTR_STROKE] = "stroke",
	[CORE_ATTR_STROKE_WIDTH] = "stroke-width",
	[CORE_ATTR_TEXT_ANCHOR] = "text-anchor",
	[CORE_ATTR_VIEWBOX] = "viewBox",
	[CORE_ATTR_X] = "x",
	[CORE_ATTR_X1] = "x1",
	[CORE_ATTR_X2] = "x2",
	[CORE_ATTR_XMLNS] = "xmlns",
	[CORE_ATTR_Y] = "y",
	[CORE_ATTR_Y1] = "y1",
	[CORE_ATTR_Y2] = "y2",
};

/*
 * The one function that writes bytes unescaped.  Everything else builds
 * escaped text and hands it here; once an error is set nothing more
 * reaches the sink, so a half-built page cannot grow further.
 */
static void
raw(struct core_html *h, const char *p, size_t n)
{
	if (h->err != CORE_OK || n == 0)
		return;
	h->sink.write(h->sink.arg, p, n);
}

static void
raws(struct core_html *h, const char *s)
{
	raw(h, s, strlen(s));
}

/* The first failure wins; later calls become no-ops through raw(). */
static void
fail(struct core_html *h, enum core_err er)
{
	if (h->err == CORE_OK)
		h->err = er;
}

/*
 * The entity for an HTML-special byte, or NULL.  The single quote is
 * escaped too, so text is safe inside either kind of quoted attribute.
 */
static const char *
entity(char c)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\'':
		return "&#39;";
	default:
		return NULL;
	}
}

/* Appends already clean UTF-8 p[0..n) to b with the specials replaced. */
static void
escape_clean(struct core_buf *b, const char *p, size_t n)
{
	const char *e;
	size_t i, start;

	for (start = i = 0; i < n; i++) {
		if ((e = entity(p[i])) == NULL)
			continue;
		core_buf_put(b, p + start, i - start);
		core_buf_puts(b, e);
		start = i + 1;
	}
	core_buf_put(b, p + start, n - start);
}

/*
 * Appends s[0..n) escaped to b.  Invalid UTF-8 and controls are cleaned
 * first: browsers would otherwise guess at broken sequences, and a
 * stray control character makes the SVG we embed ill-formed as XML.
 */
static void
escape_n(struct core_buf *b, const char *s, size_t n)
{
	struct core_buf clean = CORE_BUF_INIT;

	core_utf8_clean(&clean, s, n);
	escape_clean(b, core_buf_cstr(&clean), clean.len);
	core_buf_free(&clean);
}

void
core_html_escape(struct core_buf *b, const char *s)
{
	if (s != NULL)
		escape_n(b, s, strlen(s));
}

/*
 * 1 if u may be the value of href, src or action: a path of this site
 * ("/x"), a same-document "?query" or "#fragment", or an absolute http or
 * https URL with a host (links to arXiv, DOIs, the canonical URL).  All
 * else is refused: other schemes (javascript:, data:, mailto:), relative
 * paths, and the forms browsers read as another host -- "//host", and
 * "/\host" or "\\host" since they treat '\' as '/'.  So is a URL with a
 * space, a control character or a backslash anywhere: browsers drop
 * leading controls and delete tabs and newlines, so "/\t/host" is
 * "//host" and " javascript:" is javascript:.
 */
static int
url_safe(const char *u)
{
	const char *p;

	for (p = u; *p != '\0'; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f || *p == '\\')
			return 0;
	if (u[0] == '/')
		return u[1] != '/';
	if (u[0] == '?' || u[0] == '#')
		return 1;
	if (strncasecmp(u, "http://", 7) == 0)
		p = u + 7;
	else if (strncasecmp(u, "https://", 8) == 0)
		p = u + 8;
	else
		return 0;
	/* A host must follow: "https:///x" is read as https://x/. */
	return *p != '\0' && *p != '/' && *p != '?' && *p != '#';
}

static int
is_url_attr(enum core_attrname a)
{
	return a == CORE_ATTR_HREF || a == CORE_ATTR_SRC ||
	    a == CORE_ATTR_ACTION;
}

/* Elements with no content and no end tag in HTML. */
static int
is_void(enum core_tag t)
{
	switch (t) {
	case CORE_TAG_BR:
	case CORE_TAG_HR:
	case CORE_TAG_IMG:
	case CORE_TAG_INPUT:
	case CORE_TAG_LINK:
	case CORE_TAG_META:
		return 1;
	default:
		return 0;
	}
}

/* SVG shapes we never give children: written as <circle .../>. */
static int
is_svg_leaf(enum core_tag t)
{
	switch (t) {
	case CORE_TAG_LINE:
	case CORE_TAG_CIRCLE:
	case CORE_TAG_RECT:
	case CORE_TAG_PATH:
	case CORE_TAG_POLYLINE:
		return 1;
	default:
		return 0;
	}
}

void
core_html_open(struct core_html *h, struct core_sink sink)
{
	memset(h, 0, sizeof(*h));
	h->sink = sink;
	h->err = CORE_OK;
}

void
core_html_doctype(struct core_html *h)
{
	raws(h, "<!doctype html>");
}

void
core_html_elem(struct core_html *h, enum core_tag t, const struct core_attr *a)
{
	struct core_buf b = CORE_BUF_INIT;
	int leaf, pushed;

	if (h->err != CORE_OK)
		return;
	if ((unsigned)t >= CORE_TAG__MAX) {
		fail(h, CORE_EINPUT);
		return;
	}
	leaf = is_svg_leaf(t);
	pushed = !leaf && !is_void(t);
	/* Check the depth before writing, so the output stays balanced. */
	if (pushed && h->depth >= CORE_HTML_DEPTH) {
		fail(h, CORE_EINPUT);
		return;
	}

	core_buf_putc(&b, '<');
	core_buf_puts(&b, tags[t]);
	for (; a != NULL && a->key != CORE_ATTR__MAX; a++) {
		if ((unsigned)a->key >= CORE_ATTR__MAX) {
			fail(h, CORE_EINPUT);
			core_buf_free(&b);
			return;
		}
		if (a->val == NULL)
			continue;
		core_buf_putc(&b, ' ');
		core_buf_puts(&b, attrs[a->key]);
		/*
		 * Always name="value", also for booleans ("" is their
		 * value): that is valid HTML and keeps inline SVG
		 * well-formed XML.
		 */
		core_buf_puts(&b, "=\"");
		if (!is_url_attr(a->key) || url_safe(a->val))
			core_html_escape(&b, a->val);
		else
			core_buf_putc(&b, '#');
		core_buf_putc(&b, '"');
	}
	core_buf_puts(&b, leaf ? "/>" : ">");
	raw(h, b.ptr, b.len);
	core_buf_free(&b);

	if (pushed)
		h->stack[h->depth++] = t;
}

void
core_html_textn(struct core_html *h, const char *s, size_t n)
{
	struct core_buf b = CORE_BUF_INIT;

	if (h->err != CORE_OK || s == NULL)
		return;
	escape_n(&b, s, n);
	raw(h, b.ptr, b.len);
	core_buf_free(&b);
}

void
core_html_text(struct core_html *h, const char *s)
{
	if (s != NULL)
		core_html_textn(h, s, strlen(s));
}

void
core_html_textf(struct core_html *h, const char *fmt, ...)
{
	struct core_buf b = CORE_BUF_INIT;
	va_list ap;

	if (h->err != CORE_OK)
		return;
	/* Format first, escape after: arguments are data like any text. */
	va_start(ap, fmt);
	core_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	core_html_textn(h, core_buf_cstr(&b), b.len);
	core_buf_free(&b);
}

void
core_html_pop(struct core_html *h)
{
	if (h->err != CORE_OK)
		return;
	if (h->depth == 0) {
		fail(h, CORE_EINPUT);
		return;
	}
	h->depth--;
	raws(h, "</");
	raws(h, tags[h->stack[h->depth]]);
	raws(h, ">");
}

void
core_html_popto(struct core_html *h, size_t depth)
{
	while (h->err == CORE_OK && h->depth > depth)
		core_html_pop(h);
}

void
core_html_elemtext(struct core_html *h, enum core_tag t,
    const struct core_attr *a, const char *text)
{
	size_t depth = h->depth;

	core_html_elem(h, t, a);
	/* Void elements and leaf shapes take no text and were not pushed. */
	if (h->err != CORE_OK || h->depth == depth)
		return;
	core_html_text(h, text);
	core_html_pop(h);
}

/*
 * cmark in its default mode replaces raw HTML with a comment and empties
 * javascript:, vbscript:, file: and data: (but image) links, so its output
 * is safe to write raw.  The unsafe option must never be passed.  The input
 * is cleaned first so broken UTF-8 and controls do not reach the page.
 */
void
core_html_md(struct core_html *h, const char *md)
{
	struct core_buf clean = CORE_BUF_INIT;
	char *out;

	if (h->err != CORE_OK || md == NULL)
		return;
	core_utf8_clean(&clean, md, strlen(md));
	out = cmark_markdown_to_html(core_buf_cstr(&clean), clean.len,
	    CMARK_OPT_DEFAULT);
	core_buf_free(&clean);
	if (out == NULL) {
		fail(h, CORE_ESYS);
		return;
	}
	raws(h, out);
	free(out);
}

/*
 * JSON_ESCAPE_SLASH turns "</script" into "<\/script", but an HTML parser
 * in script data also reacts to "<!--" and "<script" (the double-escaped
 * state).  A '<' can only occur inside a JSON string, where \u003c means
 * the same, so replacing every one leaves nothing that can end or bend
 * the script element.
 */
void
core_html_jsonld(struct core_html *h, const json_t *v)
{
	struct core_buf b = CORE_BUF_INIT;
	const char *p;
	char *js;

	if (h->err != CORE_OK || v == NULL)
		return;
	if ((js = json_dumps(v, JSON_COMPACT | JSON_ESCAPE_SLASH)) == NULL) {
		fail(h, CORE_EINPUT);
		return;
	}
	core_buf_puts(&b, "<script type=\"application/ld+json\">");
	for (p = js; *p != '\0'; p++) {
		if (*p == '<')
			core_buf_puts(&b, "\\u003c");
		else if (*p == '>')
			core_buf_puts(&b, "\\u003e");
		else
			core_buf_putc(&b, *p);
	}
	core_buf_puts(&b, "</script>");
	free(js);
	raw(h, b.ptr, b.len);
	core_buf_free(&b);
}

/* 1 if s is non-empty and made of the characters in set only. */
static int
only(const char *s, const char *set)
{
	if (s == NULL || *s == '\0')
		return 0;
	return s[strspn(s, set)] == '\0';
}

#define ALNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

/*
 * The cookie name becomes part of an nginx variable name, which ends at
 * the first character outside [A-Za-z0-9_]: "$cookie_a-b" would test
 * "$cookie_a" followed by the literal "-b", which is never empty, so
 * signed-out visitors would get the signed-in include.  Cookie names are
 * therefore held to that set, stricter than the path.
 */
void
core_html_ssi_if_cookie(struct core_html *h, const char *cookie,
    const char *virtual_path)
{
	if (h->err != CORE_OK)
		return;
	if (!only(cookie, ALNUM "_") || !only(virtual_path, ALNUM "_/.-")) {
		fail(h, CORE_EINPUT);
		return;
	}
	raws(h, "<!--# if expr=\"$cookie_");
	raws(h, cookie);
	raws(h, "\" --><!--# include virtual=\"");
	raws(h, virtual_path);
	raws(h, "\" --><!--# else -->");
}

void
core_html_ssi_endif(struct core_html *h)
{
	raws(h, "<!--# endif -->");
}

enum core_err
core_html_close(struct core_html *h)
{
	core_html_popto(h, 0);
	return h->err;
}
