/*
 * test_html.c -- the HTML writer: escaping, URL schemes, void and SVG
 * elements, sticky errors, cmark, JSON-LD and SSI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core.h"
#include "t.h"

#define END                                                                    \
	{                                                                      \
		CORE_ATTR__MAX, NULL                                           \
	}

static struct core_buf out = CORE_BUF_INIT;
static struct core_html h;

/* Starts a fresh document writing into out. */
static struct core_html *
start(void)
{
	core_buf_reset(&out);
	core_html_open(&h, core_buf_sink(&out));
	return &h;
}

/* Ends it; returns the output as a C string (borrowed from out). */
static const char *
finish(enum core_err *er)
{
	enum core_err e;

	e = core_html_close(&h);
	if (er != NULL)
		*er = e;
	return core_buf_cstr(&out);
}

/* The href an <a> gets for url. */
static const char *
href(const char *url)
{
	start();
	core_html_elem(&h, CORE_TAG_A,
	    (const struct core_attr[]){ { CORE_ATTR_HREF, url }, END });
	return finish(NULL);
}

static void
test_text(void)
{
	enum core_err er;

	start();
	core_html_elem(&h, CORE_TAG_P, NULL);
	core_html_text(&h, "<b>\"Tom\" & 'Jerry'</b>");
	T_STREQ(finish(&er),
	    "<p>&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;"
	    "&lt;/b&gt;</p>",
	    "text is escaped");
	T_EQ(er, CORE_OK, "no error");

	start();
	core_html_elemtext(&h, CORE_TAG_TITLE, NULL,
	    "</title><script>alert(1)</script>");
	T_STREQ(finish(NULL),
	    "<title>&lt;/title&gt;&lt;script&gt;alert(1)"
	    "&lt;/script&gt;</title>",
	    "script in a title");

	start();
	core_html_elemtext(&h, CORE_TAG_H1, NULL,
	    "a\x01"
	    "b\x7f"
	    "c\x1b"
	    "d");
	T_STREQ(finish(NULL), "<h1>abcd</h1>", "controls dropped");

	start();
	core_html_text(&h, "caf\xc3\xa9 \xff\xfe x\xc3");
	T_STREQ(finish(NULL),
	    "caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd "
	    "x\xef\xbf\xbd",
	    "invalid UTF-8 replaced");

	start();
	core_html_textn(&h, "abc<def", 4);
	T_STREQ(finish(NULL), "abc&lt;", "textn stops at n");

	start();
	core_html_textf(&h, "%d < %s", 3, "<i>");
	T_STREQ(finish(NULL), "3 &lt; &lt;i&gt;", "textf escapes arguments");

	start();
	core_html_text(&h, NULL);
	core_html_text(&h, "");
	T_STREQ(finish(&er), "", "NULL and empty text write nothing");
	T_EQ(er, CORE_OK, "and are no error");
}

static void
test_attrs(void)
{
	struct core_buf b = CORE_BUF_INIT;

	start();
	core_html_elem(&h, CORE_TAG_INPUT,
	    (const struct core_attr[]){ { CORE_ATTR_TYPE, "text" },
		{ CORE_ATTR_NAME, "q" },
		{ CORE_ATTR_VALUE, "\"><script>alert('x')</script>" },
		{ CORE_ATTR_PLACEHOLDER, NULL }, { CORE_ATTR_REQUIRED, "" },
		END });
	T_STREQ(finish(NULL),
	    "<input type=\"text\" name=\"q\" value=\"&quot;"
	    "&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;\" "
	    "required=\"\">",
	    "attribute values escaped, NULL left out, "
	    "input is void");

	start();
	core_html_elem(&h, CORE_TAG_SPAN,
	    (const struct core_attr[]){ { CORE_ATTR_ARIA_LABEL, "x\x01y\xc0z" },
		{ CORE_ATTR_TITLE, "a&b" }, END });
	T_STREQ(finish(NULL),
	    "<span aria-label=\"xy\xef\xbf\xbdz\" "
	    "title=\"a&amp;b\"></span>",
	    "attribute controls and bad UTF-8");

	start();
	core_html_elem(&h, CORE_TAG_SVG,
	    (const struct core_attr[]){ { CORE_ATTR_VIEWBOX, "0 0 10 10" },
		END });
	core_html_elem(&h, CORE_TAG_LINE,
	    (const struct core_attr[]){ { CORE_ATTR_STROKE_WIDTH, "2" }, END });
	core_html_elem(&h, CORE_TAG_CIRCLE,
	    (const struct core_attr[]){ { CORE_ATTR_R, "1" }, END });
	core_html_elem(&h, CORE_TAG_TEXT,
	    (const struct core_attr[]){ { CORE_ATTR_TEXT_ANCHOR, "middle" },
		END });
	core_html_elemtext(&h, CORE_TAG_SVGTITLE, NULL, "t");
	T_STREQ(finish(NULL),
	    "<svg viewBox=\"0 0 10 10\"><line "
	    "stroke-width=\"2\"/><circle r=\"1\"/><text text-anchor=\"middle\">"
	    "<title>t</title></text></svg>",
	    "SVG names and leaf shapes");

	start();
	core_html_elem(&h, CORE_TAG_BR, NULL);
	core_html_elem(&h, CORE_TAG_HR, NULL);
	core_html_elemtext(&h, CORE_TAG_IMG,
	    (const struct core_attr[]){ { CORE_ATTR_ALT, "" }, END },
	    "ignored");
	core_html_elem(&h, CORE_TAG_META,
	    (const struct core_attr[]){ { CORE_ATTR_CHARSET, "utf-8" }, END });
	T_EQ(h.depth, 0, "void elements are not pushed");
	T_STREQ(finish(NULL), "<br><hr><img alt=\"\"><meta charset=\"utf-8\">",
	    "void elements");

	core_html_escape(&b, "<a href='x'>&\x02</a>");
	T_STREQ(core_buf_cstr(&b), "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;",
	    "core_html_escape");
	core_html_escape(&b, NULL);
	T_EQ(b.len, strlen("&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;"),
	    "core_html_escape(NULL) appends nothing");
	core_buf_free(&b);
}

static void
test_urls(void)
{
	enum core_err er;

	static const char *const refused[] = {
		"",
		"javascript:alert(1)",
		" JaVaScRiPt:alert(1)",
		"\x01\x1f javascript:alert(1)",
		"java\tscript:alert(1)",
		"java\nscript:alert(1)",
		"data:text/html,<script>alert(1)</script>",
		"vbscript:msgbox(1)",
		"mailto:a@b.org",
		"httpx:foo",
		"https\xc2\xa0:x",
		"ht\ttps://example.org/",
		"//evil.example/x",
		"///evil.example",
		"\\\\evil.example",
		"/\\evil.example",
		"\\/evil.example",
		"/\t/evil.example",
		"/\n/evil.example",
		"/\r\n/evil.example",
		" //evil.example",
		"/papers/1\x7f",
		"/papers/1 x",
		"https:evil.example",
		"http:/evil.example",
		"https:///evil.example",
		"https://",
		"https://a.example\\@evil.example/",
		"papers/x:y",
		"2512.20345v1",
		/* Not clean: dropping a C1 control (U+0085, U+0087) or
		 * replacing a broken sequence would change the URL. */
		"/\xc2\x87/evil.example",
		"/\xc2\x85/evil.example",
		"http://\xc2\x87",
		"https://\xc2\x87/evil.example",
		"/papers/a\xc2\x87",
		"/papers/\xff",
	};
	char what[64];
	size_t i;

	T_STREQ(href("/papers/1?a=1&b=2"),
	    "<a href=\"/papers/1?a=1&amp;b=2\"></a>", "site path");
	T_STREQ(href("/"), "<a href=\"/\"></a>", "root");
	T_STREQ(href("/%2F%2Fevil.example"),
	    "<a href=\"/%2F%2Fevil.example\"></a>",
	    "encoded slashes are a path");
	T_STREQ(href("#top"), "<a href=\"#top\"></a>", "fragment");
	T_STREQ(href("?page=2"), "<a href=\"?page=2\"></a>", "query");
	T_STREQ(href("https://arxiv.org/abs/1"),
	    "<a href=\"https://arxiv.org/abs/1\"></a>", "https");
	T_STREQ(href("http://doi.org/10.1/x"),
	    "<a href=\"http://doi.org/10.1/x\"></a>", "http");
	T_STREQ(href("HTTP://example.org/"),
	    "<a href=\"HTTP://example.org/\"></a>", "HTTP upper case");
	T_STREQ(href("/papers/caf\xc3\xa9"),
	    "<a href=\"/papers/caf\xc3\xa9\"></a>", "UTF-8 in a path");
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(what, sizeof(what), "refused as #: case %zu", i);
		T_STREQ(href(refused[i]), "<a href=\"#\"></a>", what);
	}

	start();
	core_html_elem(&h, CORE_TAG_IMG,
	    (const struct core_attr[]){ { CORE_ATTR_SRC, "javascript:x" },
		{ CORE_ATTR_ALT, "a" }, END });
	core_html_elem(&h, CORE_TAG_FORM,
	    (const struct core_attr[]){ { CORE_ATTR_ACTION, "data:x" },
		{ CORE_ATTR_METHOD, "post" }, END });
	T_STREQ(finish(&er),
	    "<img src=\"#\" alt=\"a\"><form action=\"#\" "
	    "method=\"post\"></form>",
	    "src and action checked too");
	T_EQ(er, CORE_OK, "a refused URL is not an error");
}

static void
test_nesting(void)
{
	enum core_err er;
	int i;

	start();
	core_html_doctype(&h);
	core_html_elem(&h, CORE_TAG_HTML, NULL);
	core_html_elem(&h, CORE_TAG_BODY, NULL);
	core_html_elem(&h, CORE_TAG_UL, NULL);
	core_html_elemtext(&h, CORE_TAG_LI, NULL, "a");
	T_EQ(h.depth, 3, "elemtext leaves depth unchanged");
	core_html_popto(&h, 1);
	T_EQ(h.depth, 1, "popto");
	T_STREQ(finish(&er),
	    "<!doctype html><html><body><ul><li>a</li></ul>"
	    "</body></html>",
	    "close pops the rest");
	T_EQ(er, CORE_OK, "balanced document");

	start();
	for (i = 0; i < CORE_HTML_DEPTH; i++)
		core_html_elem(&h, CORE_TAG_DIV, NULL);
	T_EQ(h.err, CORE_OK, "64 levels are fine");
	core_html_elem(&h, CORE_TAG_SPAN, NULL);
	T_EQ(h.err, CORE_EINPUT, "65th level is an error");
	core_html_text(&h, "more");
	core_html_elem(&h, CORE_TAG_P, NULL);
	T_LACKS(finish(&er), "more", "nothing written after the error");
	T_EQ(er, CORE_EINPUT, "close returns the sticky error");
	T_LACKS(core_buf_cstr(&out), "span", "the failing tag is not written");

	start();
	core_html_elem(&h, CORE_TAG_P, NULL);
	core_html_pop(&h);
	core_html_pop(&h);
	core_html_text(&h, "after");
	T_STREQ(finish(&er), "<p></p>", "pop on empty stops output");
	T_EQ(er, CORE_EINPUT, "pop on empty is an error");

	start();
	core_html_elem(&h, CORE_TAG__MAX, NULL);
	finish(&er);
	T_EQ(er, CORE_EINPUT, "bad tag is an error");
}

static void
test_md(void)
{
	const char *s;

	start();
	core_html_md(&h,
	    "Hello *world* & <script>alert(1)</script>\n\n"
	    "[x](javascript:alert(1)) [y](https://example.org/)\n\n"
	    "<img src=x onerror=alert(1)>\n");
	s = finish(NULL);
	T_CONTAINS(s, "<em>world</em>", "markdown rendered");
	T_LACKS(s, "<script", "raw script removed");
	T_LACKS(s, "<img", "raw img removed");
	T_LACKS(s, "javascript:", "javascript: link emptied");
	T_CONTAINS(s, "<a href=\"\">x</a>", "the link text stays");
	T_CONTAINS(s, "href=\"https://example.org/\"", "https link kept");

	start();
	core_html_md(&h, "bad \xff byte\x01 here");
	s = finish(NULL);
	T_STREQ(s, "<p>bad \xef\xbf\xbd byte here</p>\n",
	    "markdown input cleaned");

	start();
	core_html_md(&h, NULL);
	T_STREQ(finish(NULL), "", "NULL markdown writes nothing");
}

static void
test_jsonld(void)
{
	json_t *v;
	const char *s, *body;

	v = json_pack("{s:s, s:s, s:s}", "@type", "ScholarlyArticle", "name",
	    "</script><script>alert(1)</script>", "description",
	    "<!-- x --> <script> a\"b \x01");
	start();
	core_html_jsonld(&h, v);
	s = finish(NULL);
	T_OK(strncmp(s, "<script type=\"application/ld+json\">", 35) == 0,
	    "starts with the script element");
	body = s + 35;
	T_OK(strstr(body, "</script>") == s + strlen(s) - 9,
	    "the only </script> is the last");
	T_OK(strcspn(body, "<") == strlen(body) - 9,
	    "no '<' inside the JSON at all");
	T_CONTAINS(body, "\\u003c\\/script\\u003e", "< and / escaped");
	T_CONTAINS(body, "\\u0001", "control escaped by jansson");
	T_CONTAINS(body, "a\\\"b", "quote escaped");
	json_decref(v);

	/* The escaped JSON must still parse back to the same value. */
	v = json_pack("{s:s}", "n", "</script><!--<script>");
	start();
	core_html_jsonld(&h, v);
	s = finish(NULL);
	{
		char *js = strndup(s + 35, strlen(s) - 35 - 9);
		json_t *back = json_loads(js, 0, NULL);

		T_OK(back != NULL && json_equal(back, v),
		    "JSON-LD parses back to the same value");
		json_decref(back);
		free(js);
	}
	json_decref(v);
}

static void
test_ssi(void)
{
	enum core_err er;

	start();
	core_html_ssi_if_signed_in(&h, "/_fragments/user-menu");
	core_html_elemtext(&h, CORE_TAG_A,
	    (const struct core_attr[]){ { CORE_ATTR_HREF, "/login" }, END },
	    "Sign in");
	core_html_ssi_endif(&h);
	T_STREQ(finish(&er),
	    "<!--# if expr=\"$weft_signed_in\" -->"
	    "<!--# include virtual=\"/_fragments/user-menu\" -->"
	    "<!--# else --><a href=\"/login\">Sign in</a><!--# endif -->",
	    "SSI if/else/endif");
	T_EQ(er, CORE_OK, "no error");

	start();
	core_html_ssi_if_signed_in(&h, "/a\" --><script>");
	T_STREQ(finish(&er), "", "bad path writes nothing");
	T_EQ(er, CORE_EINPUT, "bad path is an error");

	start();
	core_html_ssi_if_signed_in(&h, "/a b");
	finish(&er);
	T_EQ(er, CORE_EINPUT, "a space in the path is an error");

	start();
	core_html_ssi_if_signed_in(&h, "");
	finish(&er);
	T_EQ(er, CORE_EINPUT, "empty path is an error");
}

int
main(void)
{
	test_text();
	test_attrs();
	test_urls();
	test_nesting();
	test_md();
	test_jsonld();
	test_ssi();
	core_buf_free(&out);
	return T_DONE();
}
