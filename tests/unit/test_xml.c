/*
 * test_xml.c -- the XML writer: output is well-formed whatever the text
 * (controls, invalid UTF-8, non-characters, markup), errors are sticky.
 */
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>

#include "core.h"
#include "t.h"

/* 1 if s parses as XML with no error. */
static int
well_formed(const char *s)
{
	xmlDocPtr doc;

	doc = xmlReadMemory(s, (int)strlen(s), "test.xml", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (doc == NULL)
		return 0;
	xmlFreeDoc(doc);
	return 1;
}

/* The text content of the root element of s, for the caller to free. */
static char *
root_text(const char *s)
{
	xmlDocPtr doc;
	xmlChar *c;
	char *r;

	doc = xmlReadMemory(s, (int)strlen(s), "test.xml", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (doc == NULL)
		return NULL;
	c = xmlNodeGetContent(xmlDocGetRootElement(doc));
	r = strdup((const char *)c);
	xmlFree(c);
	xmlFreeDoc(doc);
	return r;
}

static int chunks;

static void
count_write(void *arg, const char *p, size_t n)
{
	chunks++;
	core_buf_put(arg, p, n);
}

/*
 * <t>s</t> written by core_xml_text() and, from the same cleaned text,
 * by libxml2's own xmlTextWriterWriteString(): 1 when the bytes agree
 * (core escapes by itself and writes raw, to save two passes).
 */
static int
same_as_libxml2(const char *s)
{
	struct core_buf ours = CORE_BUF_INIT, clean = CORE_BUF_INIT;
	struct core_xml *x;
	xmlBufferPtr xb = xmlBufferCreate();
	xmlTextWriterPtr w = xmlNewTextWriterMemory(xb, 0);
	const char *p;
	int same;

	x = core_xml_open(core_buf_sink(&ours));
	core_xml_start(x, "t");
	core_xml_text(x, s);
	core_xml_end(x);
	core_xml_close(x);
	/* The cleaning documented for core_xml_text(). */
	core_utf8_clean(&clean, s, strlen(s));
	for (p = core_buf_cstr(&clean); (p = strstr(p, "\xef\xbf")) != NULL;)
		if (p[2] == '\xbe' || p[2] == '\xbf')
			memmove((char *)(uintptr_t)p, p + 3, strlen(p + 3) + 1);
		else
			p += 2;
	xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL);
	xmlTextWriterStartElement(w, (const xmlChar *)"t");
	xmlTextWriterWriteString(w, (const xmlChar *)core_buf_cstr(&clean));
	xmlTextWriterFullEndElement(w);
	xmlTextWriterEndDocument(w);
	xmlFreeTextWriter(w);
	same = strcmp(core_buf_cstr(&ours), (const char *)xb->content) == 0;
	xmlBufferFree(xb);
	core_buf_free(&ours);
	core_buf_free(&clean);
	return same;
}

/*
 * <t>s</t> by core_xml_html_text() and by the two passes it stands for,
 * core_html_escape() and then core_xml_text(): 1 when the bytes agree.
 */
static int
html_text_as_two_passes(const char *s)
{
	struct core_buf one = CORE_BUF_INIT, two = CORE_BUF_INIT;
	struct core_buf html = CORE_BUF_INIT;
	struct core_xml *x;
	int same;

	x = core_xml_open(core_buf_sink(&one));
	core_xml_elemhtml(x, "t", s);
	core_xml_close(x);
	core_html_escape(&html, s);
	x = core_xml_open(core_buf_sink(&two));
	core_xml_elemtext(x, "t", core_buf_cstr(&html));
	core_xml_close(x);
	same = one.len == two.len &&
	    memcmp(core_buf_cstr(&one), core_buf_cstr(&two), one.len) == 0;
	core_buf_free(&one);
	core_buf_free(&two);
	core_buf_free(&html);
	return same;
}

/* Random texts of markup, quotes, CR, controls and broken UTF-8. */
static int
random_mismatches(int rounds)
{
	static const char *const pick[] = { "a", " ", "<", ">", "&", "\"", "'",
		"\r", "\n", "\t", "\x01", "\x7f", "\xc3\xa9", "\xef\xbf\xbe",
		"\xef\xbf\xbf", "\xef\xbf\xbd", "\xff", "\xe6\xb7", "]]>",
		"&amp;", "\xc2\x85" };
	unsigned long st = 99;
	char s[128];
	int r, k, bad = 0;

	for (r = 0; r < rounds; r++) {
		s[0] = '\0';
		for (k = 0; k < 12; k++) {
			st = st * 6364136223846793005UL + 1442695040888963407UL;
			strcat(s,
			    pick[(st >> 33) %
				(sizeof(pick) / sizeof(pick[0]))]);
		}
		bad += !same_as_libxml2(s) + !html_text_as_two_passes(s);
	}
	return bad;
}

int
main(void)
{
	struct core_buf b = CORE_BUF_INIT;
	struct core_xml *x;
	enum core_err er;
	char *t;

	x = core_xml_open(core_buf_sink(&b));
	core_xml_start(x, "rss");
	core_xml_attr(x, "version", "2.0");
	core_xml_attr(x, "xmlns:atom", "http://www.w3.org/2005/Atom");
	core_xml_start(x, "channel");
	core_xml_elemtext(x, "title", "</title><script>alert(\"x\")</script>");
	core_xml_elemtext(x, "description", "a & b 'c'");
	core_xml_elemtext(x, "skipped", NULL);
	core_xml_start(x, "atom:link");
	core_xml_attr(x, "href", "http://x/?a=1&b=\"2\"<");
	core_xml_end(x);
	core_xml_end(x);
	core_xml_end(x);
	er = core_xml_close(x);
	T_EQ(er, CORE_OK, "rss: no error");
	T_OK(strncmp(core_buf_cstr(&b),
		 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 39) == 0,
	    "XML declaration");
	T_CONTAINS(core_buf_cstr(&b),
	    "<rss version=\"2.0\" "
	    "xmlns:atom=\"http://www.w3.org/2005/Atom\">",
	    "namespaced attr");
	T_CONTAINS(core_buf_cstr(&b),
	    "<title>&lt;/title&gt;&lt;script&gt;"
	    "alert(&quot;x&quot;)&lt;/script&gt;</title>",
	    "text escaped");
	T_CONTAINS(core_buf_cstr(&b),
	    "href=\"http://x/?a=1&amp;b=&quot;2&quot;"
	    "&lt;\"",
	    "attribute escaped");
	T_LACKS(core_buf_cstr(&b), "skipped", "NULL text: no element");
	T_OK(well_formed(core_buf_cstr(&b)), "rss parses back");
	core_buf_reset(&b);

	x = core_xml_open(core_buf_sink(&b));
	core_xml_start(x, "t");
	core_xml_attr(x, "a", "\x01\x02x\xff\x0b");
	core_xml_text(x,
	    "a\x01"
	    "b\x1f"
	    "c\x7f"
	    "d \xc3 \xed\xa0\x80 "
	    "\xef\xbf\xbe\xef\xbf\xbf \xc2\x80 caf\xc3\xa9");
	er = core_xml_close(x);
	T_EQ(er, CORE_OK, "dirty text: no error");
	T_OK(well_formed(core_buf_cstr(&b)), "dirty text stays well-formed");
	t = root_text(core_buf_cstr(&b));
	T_STREQ(t,
	    "abcd \xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
	    "  caf\xc3\xa9",
	    "controls and non-characters dropped, bad UTF-8 "
	    "replaced");
	free(t);
	core_buf_reset(&b);

	/* Open elements are closed by core_xml_close(). */
	x = core_xml_open(core_buf_sink(&b));
	core_xml_start(x, "urlset");
	core_xml_start(x, "url");
	core_xml_elemtext(x, "loc", "");
	T_EQ(core_xml_close(x), CORE_OK, "close ends open elements");
	T_OK(well_formed(core_buf_cstr(&b)), "and the result parses");
	core_buf_reset(&b);

	/* Sticky errors. */
	x = core_xml_open(core_buf_sink(&b));
	core_xml_start(x, "a");
	core_xml_end(x);
	core_xml_end(x);
	core_xml_start(x, "after");
	T_EQ(core_xml_close(x), CORE_EINPUT, "end with nothing open");
	T_LACKS(core_buf_cstr(&b), "after", "nothing after the error");
	core_buf_reset(&b);

	x = core_xml_open(core_buf_sink(&b));
	core_xml_start(x, "a><script");
	T_EQ(core_xml_close(x), CORE_EINPUT, "bad element name");
	T_LACKS(core_buf_cstr(&b), "script", "bad name not written");
	core_buf_reset(&b);

	x = core_xml_open(core_buf_sink(&b));
	core_xml_start(x, "a");
	core_xml_attr(x, "x=\"1\" y", "v");
	T_EQ(core_xml_close(x), CORE_EINPUT, "bad attribute name");
	core_buf_reset(&b);

	/* Flush pushes buffered output to the sink before close. */
	{
		struct core_sink s = { count_write, &b };

		chunks = 0;
		x = core_xml_open(s);
		core_xml_start(x, "a");
		core_xml_text(x, "hello");
		core_xml_flush(x);
		T_OK(chunks > 0 && strstr(core_buf_cstr(&b), "hello") != NULL,
		    "flush reaches the sink");
		T_EQ(core_xml_close(x), CORE_OK, "flush: no error");
		T_OK(well_formed(core_buf_cstr(&b)), "flushed output parses");
	}
	core_buf_reset(&b);

	/* A large document goes through the buffer in several writes. */
	{
		struct core_sink s = { count_write, &b };
		int i;

		chunks = 0;
		x = core_xml_open(s);
		core_xml_start(x, "urlset");
		for (i = 0; i < 2000; i++)
			core_xml_elemtext(x, "loc",
			    "http://example.org/p?a=1&b=2");
		T_EQ(core_xml_close(x), CORE_OK, "large: no error");
		T_OK(chunks > 1, "large output written in chunks");
		T_OK(well_formed(core_buf_cstr(&b)), "large output parses");
	}
	core_buf_free(&b);
	xmlCleanupParser();
	T_OK(same_as_libxml2(""), "empty text as libxml2 writes it");
	T_OK(same_as_libxml2("a<b>&\"'\r\n"),
	    "specials as libxml2 escapes them");
	T_OK(random_mismatches(20000) == 0,
	    "20,000 random texts byte for byte as libxml2's own writer, "
	    "and as HTML text as the HTML and XML escapes one after the other");
	{
		struct core_buf h = CORE_BUF_INIT;

		x = core_xml_open(core_buf_sink(&h));
		core_xml_elemhtml(x, "d", "a < b & 'c' \"d\"\r\x01");
		core_xml_close(x);
		t = root_text(core_buf_cstr(&h));
		T_STREQ(t != NULL ? t : "",
		    "a &lt; b &amp; &#39;c&#39; &quot;d&quot;\r",
		    "HTML text reads back as HTML-escaped text");
		free(t);
		core_buf_free(&h);
	}
	return T_DONE();
}
