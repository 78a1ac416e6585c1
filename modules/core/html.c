/*
 * html.c -- the HTML writer.  Tag and attribute names come from tables
 * indexed by enums, never from data; every attribute value and every text
 * node is escaped here, and URL attributes must be same-site or http(s).
 * Only two functions write to the sink: raw() below, for our own
 * markup, and escape_n(), for data; so a module cannot emit markup that
 * did not pass through us.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <jansson.h>

#include "core.h"

/*
 * Each element's "<name" and "</name>", with their lengths, so writing a
 * tag is a copy and never a strlen().
 */
struct tagtext {
	const char *open, *close;
	size_t olen, clen;
};
#define TAG(n)                                                                 \
	{                                                                      \
		"<" n, "</" n ">", sizeof(n), sizeof(n) + 2                    \
	}

static const struct tagtext tags[CORE_TAG__MAX] = {
	[CORE_TAG_A] = TAG("a"),
	[CORE_TAG_ABBR] = TAG("abbr"),
	[CORE_TAG_ARTICLE] = TAG("article"),
	[CORE_TAG_ASIDE] = TAG("aside"),
	[CORE_TAG_B] = TAG("b"),
	[CORE_TAG_BODY] = TAG("body"),
	[CORE_TAG_BR] = TAG("br"),
	[CORE_TAG_BUTTON] = TAG("button"),
	[CORE_TAG_CODE] = TAG("code"),
	[CORE_TAG_DD] = TAG("dd"),
	[CORE_TAG_DETAILS] = TAG("details"),
	[CORE_TAG_DIV] = TAG("div"),
	[CORE_TAG_DL] = TAG("dl"),
	[CORE_TAG_DT] = TAG("dt"),
	[CORE_TAG_EM] = TAG("em"),
	[CORE_TAG_FIELDSET] = TAG("fieldset"),
	[CORE_TAG_FOOTER] = TAG("footer"),
	[CORE_TAG_FORM] = TAG("form"),
	[CORE_TAG_H1] = TAG("h1"),
	[CORE_TAG_H2] = TAG("h2"),
	[CORE_TAG_H3] = TAG("h3"),
	[CORE_TAG_H4] = TAG("h4"),
	[CORE_TAG_HEAD] = TAG("head"),
	[CORE_TAG_HEADER] = TAG("header"),
	[CORE_TAG_HR] = TAG("hr"),
	[CORE_TAG_HTML] = TAG("html"),
	[CORE_TAG_I] = TAG("i"),
	[CORE_TAG_IMG] = TAG("img"),
	[CORE_TAG_INPUT] = TAG("input"),
	[CORE_TAG_LABEL] = TAG("label"),
	[CORE_TAG_LEGEND] = TAG("legend"),
	[CORE_TAG_LI] = TAG("li"),
	[CORE_TAG_LINK] = TAG("link"),
	[CORE_TAG_MAIN] = TAG("main"),
	[CORE_TAG_MARK] = TAG("mark"),
	[CORE_TAG_META] = TAG("meta"),
	[CORE_TAG_NAV] = TAG("nav"),
	[CORE_TAG_OL] = TAG("ol"),
	[CORE_TAG_OPTION] = TAG("option"),
	[CORE_TAG_P] = TAG("p"),
	[CORE_TAG_PRE] = TAG("pre"),
	[CORE_TAG_SCRIPT] = TAG("script"),
	[CORE_TAG_SECTION] = TAG("section"),
	[CORE_TAG_SELECT] = TAG("select"),
	[CORE_TAG_SMALL] = TAG("small"),
	[CORE_TAG_SPAN] = TAG("span"),
	[CORE_TAG_STRONG] = TAG("strong"),
	[CORE_TAG_SUMMARY] = TAG("summary"),
	[CORE_TAG_TABLE] = TAG("table"),
	[CORE_TAG_TBODY] = TAG("tbody"),
	[CORE_TAG_TD] = TAG("td"),
	[CORE_TAG_TEXTAREA] = TAG("textarea"),
	[CORE_TAG_TH] = TAG("th"),
	[CORE_TAG_THEAD] = TAG("thead"),
	[CORE_TAG_TIME] = TAG("time"),
	[CORE_TAG_TITLE] = TAG("title"),
	[CORE_TAG_TR] = TAG("tr"),
	[CORE_TAG_UL] = TAG("ul"),
	[CORE_TAG_SVG] = TAG("svg"),
	[CORE_TAG_G] = TAG("g"),
	[CORE_TAG_LINE] = TAG("line"),
	[CORE_TAG_CIRCLE] = TAG("circle"),
	[CORE_TAG_RECT] = TAG("rect"),
	[CORE_TAG_PATH] = TAG("path"),
	[CORE_TAG_POLYLINE] = TAG("polyline"),
	[CORE_TAG_TEXT] = TAG("text"),
	[CORE_TAG_SVGTITLE] = TAG("title"),
	[CORE_TAG_MATH] = TAG("math"),
	[CORE_TAG_MI] = TAG("mi"),
	[CORE_TAG_MN] = TAG("mn"),
	[CORE_TAG_MO] = TAG("mo"),
	[CORE_TAG_MTEXT] = TAG("mtext"),
	[CORE_TAG_MROW] = TAG("mrow"),
	[CORE_TAG_MSUP] = TAG("msup"),
	[CORE_TAG_MSUB] = TAG("msub"),
	[CORE_TAG_MSUBSUP] = TAG("msubsup"),
	[CORE_TAG_MFRAC] = TAG("mfrac"),
	[CORE_TAG_MSQRT] = TAG("msqrt"),
	[CORE_TAG_MROOT] = TAG("mroot"),
	[CORE_TAG_MOVER] = TAG("mover"),
	[CORE_TAG_MUNDER] = TAG("munder"),
};

/* Each attribute's ' name="', with its length. */
struct attrtext {
	const char *open;
	size_t len;
};
#define ATTR(n)                                                                \
	{                                                                      \
		" " n "=\"", sizeof(n) + 2                                     \
	}

static const struct attrtext attrs[CORE_ATTR__MAX] = {
	[CORE_ATTR_ACTION] = ATTR("action"),
	[CORE_ATTR_ALT] = ATTR("alt"),
	[CORE_ATTR_ARIA_CURRENT] = ATTR("aria-current"),
	[CORE_ATTR_ARIA_HIDDEN] = ATTR("aria-hidden"),
	[CORE_ATTR_ARIA_LABEL] = ATTR("aria-label"),
	[CORE_ATTR_AUTOCOMPLETE] = ATTR("autocomplete"),
	[CORE_ATTR_CHARSET] = ATTR("charset"),
	[CORE_ATTR_CLASS] = ATTR("class"),
	[CORE_ATTR_CONTENT] = ATTR("content"),
	[CORE_ATTR_DATETIME] = ATTR("datetime"),
	[CORE_ATTR_FOR] = ATTR("for"),
	[CORE_ATTR_HEIGHT] = ATTR("height"),
	[CORE_ATTR_HREF] = ATTR("href"),
	[CORE_ATTR_HREFLANG] = ATTR("hreflang"),
	[CORE_ATTR_ID] = ATTR("id"),
	[CORE_ATTR_LANG] = ATTR("lang"),
	[CORE_ATTR_MAXLENGTH] = ATTR("maxlength"),
	[CORE_ATTR_METHOD] = ATTR("method"),
	[CORE_ATTR_MINLENGTH] = ATTR("minlength"),
	[CORE_ATTR_NAME] = ATTR("name"),
	[CORE_ATTR_PLACEHOLDER] = ATTR("placeholder"),
	[CORE_ATTR_PROPERTY] = ATTR("property"),
	[CORE_ATTR_REL] = ATTR("rel"),
	[CORE_ATTR_REQUIRED] = ATTR("required"),
	[CORE_ATTR_ROLE] = ATTR("role"),
	[CORE_ATTR_SELECTED] = ATTR("selected"),
	[CORE_ATTR_SRC] = ATTR("src"),
	[CORE_ATTR_TITLE] = ATTR("title"),
	[CORE_ATTR_TYPE] = ATTR("type"),
	[CORE_ATTR_VALUE] = ATTR("value"),
	[CORE_ATTR_WIDTH] = ATTR("width"),
	[CORE_ATTR_CX] = ATTR("cx"),
	[CORE_ATTR_CY] = ATTR("cy"),
	[CORE_ATTR_D] = ATTR("d"),
	[CORE_ATTR_FILL] = ATTR("fill"),
	[CORE_ATTR_POINTS] = ATTR("points"),
	[CORE_ATTR_R] = ATTR("r"),
	[CORE_ATTR_STROKE] = ATTR("stroke"),
	[CORE_ATTR_STROKE_WIDTH] = ATTR("stroke-width"),
	[CORE_ATTR_TEXT_ANCHOR] = ATTR("text-anchor"),
	[CORE_ATTR_VIEWBOX] = ATTR("viewBox"),
	[CORE_ATTR_X] = ATTR("x"),
	[CORE_ATTR_X1] = ATTR("x1"),
	[CORE_ATTR_X2] = ATTR("x2"),
	[CORE_ATTR_XMLNS] = ATTR("xmlns"),
	[CORE_ATTR_Y] = ATTR("y"),
	[CORE_ATTR_Y1] = ATTR("y1"),
	[CORE_ATTR_Y2] = ATTR("y2"),
	[CORE_ATTR_MATHVARIANT] = ATTR("mathvariant"),
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

/* The entities of the HTML-special bytes ("&amp;" for '&'). */
#define ENTITY(c, name) [c] = "&" name ";",
static const char *const entities[128] = { CORE_HTML_ENTITIES(ENTITY) };
#undef ENTITY

/*
 * Writes s[0..n) escaped.  Invalid UTF-8 and controls are cleaned in
 * the same pass: browsers would otherwise guess at broken sequences,
 * and a stray control character makes the SVG we embed ill-formed as
 * XML.  Nothing reaches the sink after an error (as with raw()).
 */
static void
escape_n(struct core_html *h, const char *s, size_t n)
{
	if (h->err != CORE_OK || n == 0)
		return;
	core_utf8_clean_subst(h->sink, s, n, entities);
}

void
core_html_escape(struct core_buf *b, const char *s)
{
	if (s != NULL)
		core_utf8_clean_subst(core_buf_sink(b), s, strlen(s), entities);
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

/*
 * Writes u as a URL attribute's value, or "#" when it is not
 * url_safe() or not clean: what cleaning would drop or replace could
 * make the written URL another one than the one checked ("/\xc2\x87/host"
 * would be written "//host"; found by fuzz_writers).
 */
static void
url_value(struct core_html *h, const char *u)
{
	size_t n = strlen(u);

	if (core_utf8_clean_span(u, n) == n && url_safe(u))
		escape_n(h, u, n);
	else
		raw(h, "#", 1);
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
	const struct core_attr *p;
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
	/* And every name, so a bad one writes nothing of the element. */
	for (p = a; p != NULL && p->key != CORE_ATTR__MAX; p++) {
		if ((unsigned)p->key >= CORE_ATTR__MAX) {
			fail(h, CORE_EINPUT);
			return;
		}
	}

	raw(h, tags[t].open, tags[t].olen);
	for (p = a; p != NULL && p->key != CORE_ATTR__MAX; p++) {
		if (p->val == NULL)
			continue;
		/*
		 * Always name="value", also for booleans ("" is their
		 * value): that is valid HTML and keeps inline SVG
		 * well-formed XML.
		 */
		raw(h, attrs[p->key].open, attrs[p->key].len);
		if (is_url_attr(p->key))
			url_value(h, p->val);
		else
			escape_n(h, p->val, strlen(p->val));
		raw(h, "\"", 1);
	}
	if (leaf)
		raw(h, "/>", 2);
	else
		raw(h, ">", 1);

	if (pushed)
		h->stack[h->depth++] = t;
}

void
core_html_textn(struct core_html *h, const char *s, size_t n)
{
	if (s != NULL)
		escape_n(h, s, n);
}

void
core_html_text(struct core_html *h, const char *s)
{
	if (s != NULL)
		escape_n(h, s, strlen(s));
}

void
core_html_textf(struct core_html *h, const char *fmt, ...)
{
	struct core_buf b = CORE_BUF_INIT;
	char small[256];
	va_list ap;
	int n;

	if (h->err != CORE_OK)
		return;
	/* Format first, escape after: arguments are data like any text. */
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		escape_n(h, small, (size_t)n);
		return;
	}
	va_start(ap, fmt);
	core_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	escape_n(h, core_buf_cstr(&b), b.len);
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
	raw(h, tags[h->stack[h->depth]].close, tags[h->stack[h->depth]].clen);
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

/* GitHub's extensions that our pages' markdown uses. */
static const char *const gfm_exts[] = { "table", "autolink", "strikethrough" };

/* Markdown to HTML with cmark-gfm; NULL on failure.  Free with free(). */
static char *
gfm_to_html(const char *md, size_t n)
{
	cmark_parser *p;
	cmark_node *doc;
	cmark_syntax_extension *e;
	char *out = NULL;
	size_t i;

	cmark_gfm_core_extensions_ensure_registered();
	if ((p = cmark_parser_new(CMARK_OPT_DEFAULT)) == NULL)
		return NULL;
	for (i = 0; i < sizeof(gfm_exts) / sizeof(gfm_exts[0]); i++)
		if ((e = cmark_find_syntax_extension(gfm_exts[i])) != NULL)
			cmark_parser_attach_syntax_extension(p, e);
	cmark_parser_feed(p, md, n);
	if ((doc = cmark_parser_finish(p)) != NULL) {
		out = cmark_render_html(doc, CMARK_OPT_DEFAULT,
		    cmark_parser_get_syntax_extensions(p));
		cmark_node_free(doc);
	}
	cmark_parser_free(p);
	return out;
}

/*
 * cmark-gfm in its default mode replaces raw HTML with a comment and
 * empties javascript:, vbscript:, file: and data: (but image) links, so
 * its output is safe to write raw.  The unsafe option must never be
 * passed.  Tables come from GitHub's table extension (plain cmark printed
 * them as "| ... |" text).  The input is cleaned first so broken UTF-8
 * and controls do not reach the page.
 */
void
core_html_md(struct core_html *h, const char *md)
{
	struct core_buf clean = CORE_BUF_INIT;
	char *out;

	if (h->err != CORE_OK || md == NULL)
		return;
	core_utf8_clean(&clean, md, strlen(md));
	out = gfm_to_html(core_buf_cstr(&clean), clean.len);
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
/* json_dump_callback() output into a buffer, '<' and '>' as escapes. */
static int
jsonld_write(const char *p, size_t n, void *arg)
{
	struct core_buf *b = arg;
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		if (p[i] != '<' && p[i] != '>')
			continue;
		core_buf_put(b, p + run, i - run);
		core_buf_put(b, p[i] == '<' ? "\\u003c" : "\\u003e", 6);
		run = i + 1;
	}
	core_buf_put(b, p + run, n - run);
	return 0;
}

void
core_html_jsonld(struct core_html *h, const json_t *v)
{
	static const char open[] = "<script type=\"application/ld+json\">";
	static const char close[] = "</script>";
	struct core_buf b = CORE_BUF_INIT;

	if (h->err != CORE_OK || v == NULL)
		return;
	/* Into a buffer first: a failed dump must write nothing. */
	core_buf_put(&b, open, sizeof(open) - 1);
	if (json_dump_callback(v, jsonld_write, &b,
		JSON_COMPACT | JSON_ESCAPE_SLASH) != 0) {
		core_buf_free(&b);
		fail(h, CORE_EINPUT);
		return;
	}
	core_buf_put(&b, close, sizeof(close) - 1);
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
 * The variable is set by nginx (upstreams.conf.in) with the rule of
 * core_cookie_has(), so nginx, its cache key and the workers agree on
 * who is signed in.
 */
void
core_html_ssi_if_signed_in(struct core_html *h, const char *virtual_path)
{
	if (h->err != CORE_OK)
		return;
	if (!only(virtual_path, ALNUM "_/.-")) {
		fail(h, CORE_EINPUT);
		return;
	}
	raws(h,
	    "<!--# if expr=\"$weft_signed_in\" --><!--# include "
	    "virtual=\"");
	raws(h, virtual_path);
	raws(h, "\" --><!--# else -->");
}

void
core_html_date(struct core_html *h, const char *iso)
{
	int y, m, d;

	if (iso == NULL)
		return;
	core_html_elem(h, CORE_TAG_TIME,
	    (const struct core_attr[]){ { CORE_ATTR_DATETIME, iso },
		{ CORE_ATTR__MAX, NULL } });
	if (sscanf(iso, "%4d-%2d-%2d", &y, &m, &d) == 3 &&
	    core_month_abbr(m) != NULL)
		core_html_textf(h, "%d %s %d", d, core_month_abbr(m), y);
	else
		core_html_text(h, iso);
	core_html_pop(h);
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
