/*
 * fuzz_writers.c -- the output writers (STYLE.md section 5) with random
 * data: whatever the bytes, data stays data.
 *
 *   core_html_text    no raw < > " ' at all, '&' only as our entities,
 *                     valid UTF-8 without dropped controls, and decoding
 *                     the entities gives back the cleaned input;
 *   core_html_elem    an href/src, as a browser reads it (WHATWG URL:
 *                     leading C0/space stripped, tab/CR/LF removed, '\'
 *                     as '/'), is a path of this site (not "//host"), a
 *                     ?query, a #fragment or http(s)://host, never another
 *                     scheme; values never close their quotes;
 *   core_html_md      cmark's safe mode: only the tags CommonMark makes,
 *                     raw HTML as a comment, no script-capable URL;
 *   core_md_text      read back by cmark, the text is one paragraph (or
 *                     heading or list item) of plain text equal to the
 *                     input, with no link, emphasis, code, HTML or entity;
 *   core_md_link      exactly one link, whose text is the text;
 *   core_html_jsonld  one script element, no '<' inside, JSON equal to
 *                     the value;
 *   core_xml_*        a well-formed document (libxml2, no recovery)
 *                     whose text and attribute are the cleaned input;
 *                     and an element of HTML text (core_xml_elemhtml)
 *                     whose text is the input as core_html_escape()
 *                     writes it.
 *
 * The first byte picks one writer (its value modulo 10, in the order of
 * LLVMFuzzerTestOneInput's switch), so that one execution runs one check
 * and libFuzzer's corpus keeps the inputs that matter to each writer;
 * running all ten on every input made this target ten times slower than
 * the others.  The rest of the input is split at its first 0xff byte:
 * text before, URL after (for the link and attribute checks).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmark-gfm.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Decodes the entities core_html_escape() and cmark write. */
static void
unescape(struct core_buf *out, const char *s, size_t n)
{
	static const struct {
		const char *ent;
		char c;
	} ents[] = { { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&quot;", '"' }, { "&#39;", '\'' }, { "&#x27;", '\'' } };
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (s[i] == '&') {
			for (j = 0; j < sizeof(ents) / sizeof(ents[0]); j++) {
				size_t l = strlen(ents[j].ent);

				if (n - i >= l &&
				    strncmp(s + i, ents[j].ent, l) == 0) {
					core_buf_putc(out, ents[j].c);
					i += l - 1;
					break;
				}
			}
			if (j == sizeof(ents) / sizeof(ents[0]))
				abort(); /* a bare '&' or a foreign entity */
			continue;
		}
		core_buf_putc(out, s[i]);
	}
}

/* The text core_utf8_clean() makes of s[0..n). */
static void
cleaned(struct core_buf *b, const char *s, size_t n)
{
	core_utf8_clean(b, s, n);
}

/*
 * 1 when a browser would read u (an attribute value, entities decoded)
 * with a scheme other than http, https or mailto (strict, for our own
 * writer), or, for cmark's output (cm), with one that can run script or
 * read local files: javascript, vbscript, file, data (but raster images,
 * which cmark lets through for img).
 */
static int
browser_bad_scheme(const char *u, int img, int cm)
{
	struct core_buf b = CORE_BUF_INIT;
	const char *p, *q;
	size_t n;
	int bad = 0;

	p = u;
	while (*p != '\0' && (unsigned char)*p <= 0x20)
		p++;
	for (; *p != '\0'; p++)
		if (*p != '\t' && *p != '\r' && *p != '\n')
			core_buf_putc(&b, *p);
	p = core_buf_cstr(&b);
	/* scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" */
	n = strspn(p,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789+-.");
	q = p + n;
	if (n > 0 && *q == ':' &&
	    ((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z'))) {
		bad = !((n == 4 && strncasecmp(p, "http", 4) == 0) ||
		    (n == 5 && strncasecmp(p, "https", 5) == 0) ||
		    (n == 6 && strncasecmp(p, "mailto", 6) == 0));
		if (cm)
			bad = (n == 10 &&
				  strncasecmp(p, "javascript", 10) == 0) ||
			    (n == 8 && strncasecmp(p, "vbscript", 8) == 0) ||
			    (n == 4 && strncasecmp(p, "file", 4) == 0) ||
			    (n == 4 && strncasecmp(p, "data", 4) == 0);
		/* cmark lets raster images through as data: URLs. */
		if (bad && img && n == 4 && strncasecmp(p, "data", 4) == 0 &&
		    (strncasecmp(q + 1, "image/png", 9) == 0 ||
			strncasecmp(q + 1, "image/gif", 9) == 0 ||
			strncasecmp(q + 1, "image/jpeg", 10) == 0 ||
			strncasecmp(q + 1, "image/webp", 10) == 0))
			bad = 0;
	}
	core_buf_free(&b);
	return bad;
}

static void
check_html_text(const char *s, size_t n)
{
	struct core_buf out = CORE_BUF_INIT, dec = CORE_BUF_INIT;
	struct core_buf want = CORE_BUF_INIT;
	struct core_html h;
	size_t i;

	core_html_open(&h, core_buf_sink(&out));
	core_html_textn(&h, s, n);
	if (core_html_close(&h) != CORE_OK)
		abort();
	for (i = 0; i < out.len; i++)
		if (strchr("<>\"'", out.ptr[i]) != NULL || out.ptr[i] == '\0')
			abort();
	if (!core_utf8_valid(core_buf_cstr(&out), out.len))
		abort();
	unescape(&dec, core_buf_cstr(&out), out.len);
	cleaned(&want, s, n);
	if (dec.len != want.len ||
	    (want.len > 0 && memcmp(dec.ptr, want.ptr, want.len) != 0))
		abort();
	core_buf_free(&out);
	core_buf_free(&dec);
	core_buf_free(&want);
}

/*
 * Returns the decoded value of attribute name="..." in tag text t ("<tag
 * a="..." b="...">"), walking the attributes in order: a search for
 * ' name="' would also find it inside another attribute's value (an alt
 * text "x href=").  cmark quotes every value with '"'.
 */
static int
attr_value(const char *t, const char *name, struct core_buf *v)
{
	const char *p = t + 1, *e;
	size_t n;

	core_buf_reset(v);
	p += strspn(p, "/abcdefghijklmnopqrstuvwxyz0123456789");
	for (;;) {
		p += strspn(p, " ");
		n = strspn(p, "abcdefghijklmnopqrstuvwxyz-");
		if (n == 0)
			return 0; /* "/>" or ">": no more attributes */
		if (p[n] != '=' || p[n + 1] != '"')
			abort(); /* cmark writes name="value" only */
		if ((e = strchr(p + n + 2, '"')) == NULL)
			abort(); /* an attribute that never ends */
		if (strlen(name) == n && strncmp(p, name, n) == 0) {
			unescape(v, p + n + 2, (size_t)(e - (p + n + 2)));
			core_buf_putc(v, '\0');
			v->len--;
			return 1;
		}
		p = e + 1;
	}
}

/*
 * 1 if a browser resolves u, an href or src we wrote, on this site or
 * to an http(s) host: after dropping leading spaces and controls and
 * deleting tabs and newlines (as browsers do) and reading '\\' as '/',
 * it starts with one '/' (not two), '?' or '#', or is http(s)://host.
 */
static int
same_site_or_web(const char *u)
{
	struct core_buf b = CORE_BUF_INIT;
	const char *p;
	int ok;

	while (*u != '\0' && (unsigned char)*u <= 0x20)
		u++;
	for (; *u != '\0'; u++)
		if (*u != '\t' && *u != '\r' && *u != '\n')
			core_buf_putc(&b, *u == '\\' ? '/' : *u);
	p = core_buf_cstr(&b);
	if (p[0] == '/')
		ok = p[1] != '/';
	else if (p[0] == '?' || p[0] == '#')
		ok = 1;
	else if (strncasecmp(p, "http://", 7) == 0)
		ok = p[7] != '\0' && p[7] != '/';
	else if (strncasecmp(p, "https://", 8) == 0)
		ok = p[8] != '\0' && p[8] != '/';
	else
		ok = 0;
	core_buf_free(&b);
	return ok;
}

static void
check_html_attr(const char *url)
{
	struct core_buf out = CORE_BUF_INIT, v = CORE_BUF_INIT;
	struct core_html h;
	const char *p;
	size_t quotes = 0;

	core_html_open(&h, core_buf_sink(&out));
	core_html_elem(&h, CORE_TAG_A,
	    (const struct core_attr[]){
		{ CORE_ATTR_HREF, url },
		{ CORE_ATTR_TITLE, url },
		{ CORE_ATTR__MAX, NULL },
	    });
	core_html_elem(&h, CORE_TAG_IMG,
	    (const struct core_attr[]){
		{ CORE_ATTR_SRC, url },
		{ CORE_ATTR_ALT, url },
		{ CORE_ATTR__MAX, NULL },
	    });
	core_html_pop(&h);
	if (core_html_close(&h) != CORE_OK)
		abort();
	/* Exactly the quotes we wrote: 4 attributes, 2 each. */
	for (p = core_buf_cstr(&out); *p != '\0'; p++)
		if (*p == '"')
			quotes++;
		else if (*p == '<' && p[1] != 'a' && p[1] != 'i' && p[1] != '/')
			abort();
	if (quotes != 8)
		abort();
	if (!attr_value(core_buf_cstr(&out), "href", &v) ||
	    browser_bad_scheme(core_buf_cstr(&v), 0, 0) ||
	    !same_site_or_web(core_buf_cstr(&v)))
		abort();
	/* From the img tag on: the a's title ends with the URL, which may
	 * end in ' src=', and its closing quote would look like one. */
	if ((p = strstr(core_buf_cstr(&out), "<img ")) == NULL ||
	    !attr_value(p, "src", &v) ||
	    browser_bad_scheme(core_buf_cstr(&v), 0, 0) ||
	    !same_site_or_web(core_buf_cstr(&v)))
		abort();
	core_buf_free(&out);
	core_buf_free(&v);
}

/* The tags cmark-gfm's HTML renderer can write, with the table and
 * strikethrough extensions core_html_md attaches. */
static int
cmark_tag_ok(const char *name, size_t n)
{
	static const char *const ok[] = { "p", "a", "em", "strong", "code",
		"pre", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li",
		"blockquote", "hr", "br", "img", "table", "thead", "tbody",
		"tr", "th", "td", "del" };
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (strlen(ok[i]) == n && strncmp(name, ok[i], n) == 0)
			return 1;
	return 0;
}

/*
 * Walks HTML from cmark: each '<' opens a known tag or the raw-HTML
 * comment; href and src values are safe.  Counts the tags named in
 * count (opening and closing) into *nc.
 */
static void
check_cmark_html(const char *html, const char *count, size_t *nc)
{
	struct core_buf v = CORE_BUF_INIT, tag = CORE_BUF_INIT;
	const char *p = html, *e;
	size_t n;

	*nc = 0;
	while ((p = strchr(p, '<')) != NULL) {
		if (strncmp(p, "<!-- raw HTML omitted -->", 25) == 0) {
			p += 25;
			continue;
		}
		p++;
		if (*p == '/')
			p++;
		n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789");
		if (!cmark_tag_ok(p, n))
			abort();
		if (count != NULL && strlen(count) == n &&
		    strncmp(p, count, n) == 0)
			(*nc)++;
		if ((e = strchr(p, '>')) == NULL)
			abort();
		core_buf_reset(&tag);
		core_buf_put(&tag, p - 1, (size_t)(e - p + 2));
		if (attr_value(core_buf_cstr(&tag), "href", &v) &&
		    browser_bad_scheme(core_buf_cstr(&v), 0, 1))
			abort();
		if (attr_value(core_buf_cstr(&tag), "src", &v) &&
		    browser_bad_scheme(core_buf_cstr(&v), 1, 1))
			abort();
		p = e + 1;
	}
	core_buf_free(&v);
	core_buf_free(&tag);
}

static void
check_html_md(const char *s, size_t n)
{
	struct core_buf out = CORE_BUF_INIT, in = CORE_BUF_INIT;
	struct core_html h;
	size_t nc;

	core_buf_put(&in, s, n); /* a C string, cut at a NUL */
	core_html_open(&h, core_buf_sink(&out));
	core_html_md(&h, core_buf_cstr(&in));
	if (core_html_close(&h) != CORE_OK)
		abort();
	check_cmark_html(core_buf_cstr(&out), NULL, &nc);
	core_buf_free(&out);
	core_buf_free(&in);
}

/* Collapses runs of spaces, trims both ends. */
static void
squash(struct core_buf *out, const char *s)
{
	int sp = 0;

	while (*s == ' ')
		s++;
	for (; *s != '\0'; s++) {
		if (*s == ' ') {
			sp = 1;
			continue;
		}
		if (sp)
			core_buf_putc(out, ' ');
		sp = 0;
		core_buf_putc(out, *s);
	}
	core_buf_putc(out, '\0');
	out->len--;
}

/* Text content of cmark HTML: tags removed, entities decoded. */
static void
html_text(struct core_buf *out, const char *html)
{
	struct core_buf raw = CORE_BUF_INIT;
	const char *p;

	for (p = html; *p != '\0'; p++) {
		if (*p == '<') {
			p = strchr(p, '>');
			continue;
		}
		core_buf_putc(&raw, *p == '\n' ? ' ' : *p);
	}
	unescape(out, core_buf_cstr(&raw), raw.len);
	core_buf_putc(out, '\0');
	out->len--;
	core_buf_free(&raw);
}

/*
 * The markdown writer read back by cmark.  prefix is what callers put
 * before text ("" at a line start, "- " in lists, "# " in headings);
 * block is the tag cmark must make of it.  "# " means core_md_heading().
 */
static void
check_md_text(const char *s, size_t n, const char *prefix, const char *block)
{
	struct core_buf in = CORE_BUF_INIT, md = CORE_BUF_INIT;
	struct core_buf flat = CORE_BUF_INIT, want = CORE_BUF_INIT;
	struct core_buf got = CORE_BUF_INIT, a = CORE_BUF_INIT;
	struct core_buf b = CORE_BUF_INIT;
	const char *p;
	char *html;
	size_t nc;

	core_buf_put(&in, s, n);
	if (strcmp(prefix, "# ") == 0)
		core_md_heading(&md, 1, core_buf_cstr(&in));
	else {
		core_buf_puts(&md, prefix);
		core_md_text(&md, core_buf_cstr(&in));
		core_buf_puts(&md, "\n");
	}
	html = cmark_markdown_to_html(core_buf_cstr(&md), md.len,
	    CMARK_OPT_DEFAULT);
	if (html == NULL)
		abort();
	/* Only the block we asked for: nothing inline at all. */
	check_cmark_html(html, block, &nc);
	for (p = html; (p = strchr(p, '<')) != NULL; p++) {
		const char *t = p[1] == '/' ? p + 2 : p + 1;
		size_t l = strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789");

		if (!((strlen(block) == l && strncmp(t, block, l) == 0) ||
			(l == 2 && strncmp(t, "ul", 2) == 0 &&
			    strcmp(block, "li") == 0)))
			abort();
	}
	/* The text is the input, flattened to a line and cleaned (after
	 * the prefix when that is text, not a block marker). */
	if (prefix[0] != '#' && prefix[0] != '-')
		core_buf_puts(&flat, prefix);
	for (p = core_buf_cstr(&in); *p != '\0'; p++)
		core_buf_putc(&flat,
		    (unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p);
	core_utf8_clean(&want, core_buf_cstr(&flat), flat.len);
	html_text(&got, html);
	squash(&a, core_buf_cstr(&want));
	squash(&b, core_buf_cstr(&got));
	if (strcmp(core_buf_cstr(&a), core_buf_cstr(&b)) != 0)
		abort();
	free(html);
	core_buf_free(&in);
	core_buf_free(&md);
	core_buf_free(&flat);
	core_buf_free(&want);
	core_buf_free(&got);
	core_buf_free(&a);
	core_buf_free(&b);
}

static void
check_md_link(const char *text, size_t tn, const char *url, size_t un)
{
	struct core_buf t = CORE_BUF_INIT, u = CORE_BUF_INIT;
	struct core_buf md = CORE_BUF_INIT;
	char *html;
	size_t nc;

	core_buf_put(&t, text, tn);
	core_buf_put(&u, url, un);
	core_buf_puts(&md, "See ");
	core_md_link(&md, core_buf_cstr(&t), core_buf_cstr(&u));
	core_buf_puts(&md, " now\n");
	html = cmark_markdown_to_html(core_buf_cstr(&md), md.len,
	    CMARK_OPT_DEFAULT);
	if (html == NULL)
		abort();
	check_cmark_html(html, "a", &nc);
	if (nc != 2) /* <a ...> and </a> */
		abort();
	free(html);
	core_buf_free(&t);
	core_buf_free(&u);
	core_buf_free(&md);
}

static void
check_jsonld(const char *s, size_t n)
{
	static const char open[] = "<script type=\"application/ld+json\">";
	static const char close[] = "</script>";
	struct core_buf out = CORE_BUF_INIT, in = CORE_BUF_INIT;
	struct core_html h;
	json_t *v, *back;
	json_error_t jerr;
	const char *body;
	size_t blen;

	core_buf_put(&in, s, n);
	v = json_pack("{s:s, s:o, s:[o]}", "@type", "ScholarlyArticle", "name",
	    core_json_str(core_buf_cstr(&in)), "author",
	    core_json_str(core_buf_cstr(&in)));
	if (v == NULL)
		abort();
	core_html_open(&h, core_buf_sink(&out));
	core_html_jsonld(&h, v);
	if (core_html_close(&h) != CORE_OK)
		abort();
	if (out.len < sizeof(open) - 1 + sizeof(close) - 1 ||
	    strncmp(out.ptr, open, sizeof(open) - 1) != 0 ||
	    strcmp(out.ptr + out.len - (sizeof(close) - 1), close) != 0)
		abort();
	body = out.ptr + sizeof(open) - 1;
	blen = out.len - (sizeof(open) - 1) - (sizeof(close) - 1);
	/* Nothing an HTML parser reacts to inside script data. */
	if (memchr(body, '<', blen) != NULL || memchr(body, '>', blen) != NULL)
		abort();
	if ((back = json_loadb(body, blen, 0, &jerr)) == NULL)
		abort();
	if (!json_equal(v, back))
		abort();
	json_decref(back);
	json_decref(v);
	core_buf_free(&out);
	core_buf_free(&in);
}

static void
check_xml(const char *s, size_t n)
{
	struct core_buf out = CORE_BUF_INIT, in = CORE_BUF_INIT;
	struct core_buf want = CORE_BUF_INIT;
	struct core_xml *x;
	xmlDocPtr doc;
	xmlNodePtr root;
	xmlChar *txt, *att;
	const char *w;

	core_buf_put(&in, s, n);
	x = core_xml_open(core_buf_sink(&out));
	core_xml_start(x, "item");
	core_xml_attr(x, "title", core_buf_cstr(&in));
	core_xml_text(x, core_buf_cstr(&in));
	core_xml_end(x);
	if (core_xml_close(x) != CORE_OK)
		abort();
	doc = xmlReadMemory(core_buf_cstr(&out), (int)out.len, "fuzz.xml", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (doc == NULL)
		abort(); /* not well-formed */
	root = xmlDocGetRootElement(doc);
	txt = xmlNodeGetContent(root);
	att = xmlGetProp(root, (const xmlChar *)"title");
	/* libxml2 gives NULL content for an element without children. */
	if (att == NULL || (txt == NULL && root->children != NULL))
		abort();
	/* The cleaned input (U+FFFE/U+FFFF also go, XML forbids them). */
	core_utf8_clean(&want, core_buf_cstr(&in), strlen(core_buf_cstr(&in)));
	w = core_buf_cstr(&want);
	if (strstr(w, "\xef\xbf\xbe") == NULL &&
	    strstr(w, "\xef\xbf\xbf") == NULL && strchr(w, '\r') == NULL) {
		if (strcmp(txt != NULL ? (const char *)txt : "", w) != 0)
			abort();
	}
	xmlFree(txt);
	xmlFree(att);
	xmlFreeDoc(doc);
	/* HTML text (an RSS description): the XML text is the input
	 * escaped as the HTML writer escapes it. */
	core_buf_reset(&out);
	core_buf_reset(&want);
	x = core_xml_open(core_buf_sink(&out));
	core_xml_elemhtml(x, "description", core_buf_cstr(&in));
	if (core_xml_close(x) != CORE_OK)
		abort();
	doc = xmlReadMemory(core_buf_cstr(&out), (int)out.len, "fuzz.xml", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (doc == NULL)
		abort();
	txt = xmlNodeGetContent(xmlDocGetRootElement(doc));
	core_html_escape(&want, core_buf_cstr(&in));
	w = core_buf_cstr(&want);
	if (strstr(w, "\xef\xbf\xbe") == NULL &&
	    strstr(w, "\xef\xbf\xbf") == NULL &&
	    strcmp(txt != NULL ? (const char *)txt : "", w) != 0)
		abort();
	xmlFree(txt);
	xmlFreeDoc(doc);
	core_buf_free(&out);
	core_buf_free(&in);
	core_buf_free(&want);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s, *sep;
	size_t tn, un;
	char *url;

	if (size == 0)
		return 0;
	s = (const char *)data + 1;
	size--;
	if ((sep = memchr(s, 0xff, size)) != NULL) {
		tn = (size_t)(sep - s);
		un = size - tn - 1;
	} else {
		tn = size;
		un = 0;
	}
	switch (data[0] % 10) {
	case 0:
		check_html_text(s, size);
		break;
	case 1:
		check_html_md(s, size);
		break;
	case 2:
		check_md_text(s, tn, "P ", "p");
		break;
	case 3:
		check_md_text(s, tn, "", "p");
		break;
	case 4:
		check_md_text(s, tn, "- ", "li");
		break;
	case 5:
		check_md_text(s, tn, "# ", "h1");
		break;
	case 6:
		check_md_link(s, tn, sep != NULL ? sep + 1 : "", un);
		break;
	case 7:
		check_jsonld(s, size);
		break;
	case 8:
		check_xml(s, size);
		break;
	default:
		url = core_xstrndup(sep != NULL ? sep + 1 : s,
		    sep != NULL ? un : tn);
		check_html_attr(url);
		free(url);
		break;
	}
	return 0;
}
