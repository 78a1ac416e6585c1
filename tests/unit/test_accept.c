/*
 * test_accept.c -- the representation tables and Accept negotiation.
 */
#include <string.h>

#include "core.h"
#include "t.h"

/* The offers of a paper page, in our order of preference. */
static const enum core_rep page[] = {
	CORE_REP_HTML,
	CORE_REP_MD,
	CORE_REP_JSON,
	CORE_REP_BIB,
};
#define NPAGE (sizeof(page) / sizeof(page[0]))

#define A(hdr, want)                                                           \
	T_EQ(core_accept_choose((hdr), page, NPAGE), (want), "Accept: " hdr)

static void
test_tables(void)
{
	enum core_rep r;
	int i;

	T_STREQ(core_rep_mime[CORE_REP_HTML], "text/html", "html mime");
	T_STREQ(core_rep_mime[CORE_REP_MD], "text/markdown", "md mime");
	T_STREQ(core_rep_mime[CORE_REP_JSON], "application/json", "json");
	T_STREQ(core_rep_mime[CORE_REP_BIB], "application/x-bibtex", "bib");
	T_STREQ(core_rep_mime[CORE_REP_RSS], "application/rss+xml", "rss");
	T_STREQ(core_rep_mime[CORE_REP_XML], "application/xml", "xml");
	T_STREQ(core_rep_mime[CORE_REP_TEXT], "text/plain", "text");
	T_STREQ(core_rep_ctype[CORE_REP_HTML], "text/html; charset=utf-8",
	    "html ctype");
	T_STREQ(core_rep_ctype[CORE_REP_JSON], "application/json",
	    "json ctype has no charset");
	T_STREQ(core_rep_ctype[CORE_REP_BIB],
	    "application/x-bibtex; charset=utf-8", "bib ctype");
	for (i = 0; i < CORE_REP__MAX; i++) {
		T_OK(core_rep_mime[i] != NULL && core_rep_ctype[i] != NULL &&
			core_rep_format[i] != NULL,
		    "tables filled");
		T_OK(strncmp(core_rep_ctype[i], core_rep_mime[i],
			 strlen(core_rep_mime[i])) == 0,
		    "ctype starts with mime");
		T_EQ(core_rep_from_format(core_rep_format[i], &r), 0,
		    core_rep_format[i]);
		T_EQ(r, i, "format round trip");
	}
	T_EQ(core_rep_from_format("markdown", &r), 0, "markdown");
	T_EQ(r, CORE_REP_MD, "markdown is md");
	T_EQ(core_rep_from_format("JSON", &r), 0, "format case");
	T_EQ(r, CORE_REP_JSON, "JSON is json");
	T_EQ(core_rep_from_format("pdf", &r), -1, "unknown format");
	T_EQ(core_rep_from_format("", &r), -1, "empty format");
	T_EQ(core_rep_from_format("htm", &r), -1, "prefix is no format");
	T_EQ(core_rep_from_format(NULL, &r), -1, "NULL format");
}

static void
test_basic(void)
{
	T_EQ(core_accept_choose(NULL, page, NPAGE), 0, "NULL header");
	A("", 0);
	A("   ", 0);
	A("*/*", 0);
	A("text/html", 0);
	A("text/markdown", 1);
	A("TEXT/MARKDOWN", 1);
	A("text/x-markdown", 1);
	A("application/json", 2);
	A("Application/JSON", 2);
	A("application/x-bibtex", 3);
	A("image/png", -1);
	A("application/*", 2);
	A("text/*", 0);
	A("text/plain", -1);
	/* Browser and agent headers. */
	A("text/html,application/xhtml+xml,application/xml;q=0.9,"
	  "image/avif,image/webp,*/*;q=0.8",
	    0);
	A("text/markdown, text/html;q=0.9, */*;q=0.1", 1);
	A("application/json, text/plain;q=0.5", 2);
	A("text/plain, */*;q=0.01", 0);
}

static void
test_q(void)
{
	A("text/html;q=0.5, text/markdown", 1);
	A("text/html;q=0.5, text/markdown;q=0.5", 0);
	A("text/markdown;q=0.5, text/html;q=0.5", 0);
	A("application/json;q=0.501, text/html;q=0.5", 2);
	A("text/html;q=0.001, application/json;q=0", 0);
	A("text/html;q=1, text/markdown;q=1.000", 0);
	A("text/html;q=0., text/markdown;q=1.", 1);
	A("text/html ; q=0.2 , text/markdown ; q=0.3", 1);
	A("text/html;Q=0.1, text/markdown", 1);
	A("*/*;q=0", -1);
	A("text/html;q=0, text/markdown;q=0, application/json;q=0, "
	  "application/x-bibtex;q=0",
	    -1);
	A("text/html;q=0, */*", 1);
	A("text/html;q=0, text/markdown;q=0, */*;q=0.1", 2);
	/* Parameters other than q are ignored, wherever they stand. */
	A("text/html;level=1;q=0.1, text/markdown;charset=utf-8", 1);
	A("text/html;charset=\"utf-8\";q=0.1, application/json", 2);
	A("text/html;q=0.1;foo=bar, application/json", 2);
	A("text/html;a=\"x,y;q=0\", application/json;q=0.5", 0);
	A("text/markdown;q=0.1, text/html;level=\"1\\\"\";q=0.2", 0);
}

static void
test_specific(void)
{
	/* The most specific matching range decides. */
	A("text/*;q=0.5, text/html;q=0", 1);
	A("text/html;q=0, text/*;q=0.5", 1);
	A("text/*, text/html;q=0", 1);
	A("text/*, text/html;q=0, text/markdown;q=0", -1);
	A("*/*;q=0.1, application/*;q=0", 0);
	A("*/*, application/*;q=0, text/*;q=0", -1);
	A("*/*;q=0.9, text/markdown;q=0.2", 0);
	A("*/*;q=0.1, text/markdown;q=0.2", 1);
	A("text/*;q=0.1, */*;q=1", 2);
	A("text/x-markdown;q=0.8, text/*;q=0.5", 1);
	A("text/x-markdown;q=0, text/html;q=0.1", 0);
	/* Equally specific: the more generous counts. */
	A("text/html;q=0, text/html;q=0.4, text/markdown;q=0.3", 0);
	A("text/markdown;q=0.2, text/x-markdown;q=0.9, text/html;q=0.5", 1);
}

static void
test_malformed(void)
{
	struct core_buf b = CORE_BUF_INIT;
	int i;

	/* Nothing parseable: as if "* / *". */
	A(";;;", 0);
	A(",,,", 0);
	A("text/html;q=abc", 0);
	A("text/html;q=1.0001", 0);
	A("text/html;q=2", 0);
	A("text/html;q=-1", 0);
	A("text/html;q=0.1234", 0);
	A("text/html;q=1.5", 0);
	A("text/html;q=", 0);
	A("text/html;q=\"0.5\"", 0);
	A("text/html;q=0.5;q=0.6", 0);
	A("text", 0);
	A("/html", 0);
	A("text/", 0);
	A("*/html", 0);
	A("text/html/x", 0);
	A("text/html;=1", 0);
	A("text/html;x", 0);
	A("text/html;x=\"open", 0);
	A("t\x01xt/html", 0);
	A("\xc3\xa9/\xc3\xa9", 0);
	/* A malformed range is dropped, the others still count. */
	A("text/html;q=abc, text/markdown", 1);
	A("text/html;q=0, text/markdown;q=1.0001", -1);
	A("application/json, garbage, text/markdown;q=0.5", 2);
	A("text/html;;;q=0.3;;, text/markdown;q=0.2", 0);
	A("text/html;q=0.3 junk, text/markdown;q=0.2", 1);
	A(", , text/markdown", 1);

	/* An 8 KB header: one long parameter, then what counts. */
	core_buf_puts(&b, "text/html;q=0.1;x=");
	for (i = 0; i < 8192; i++)
		core_buf_putc(&b, 'a');
	core_buf_puts(&b, ", text/markdown");
	T_EQ(core_accept_choose(b.ptr, page, NPAGE), 1, "8 KB header");
	core_buf_reset(&b);
	for (i = 0; i < 8192; i++)
		core_buf_putc(&b, ';');
	T_EQ(core_accept_choose(b.ptr, page, NPAGE), 0, "8 KB of ';'");
	core_buf_reset(&b);
	core_buf_puts(&b, "text/html;x=\"");
	for (i = 0; i < 8192; i++)
		core_buf_puts(&b, "\\\"");
	T_EQ(core_accept_choose(b.ptr, page, NPAGE), 0, "8 KB open quote");

	/* 1000 ranges: only the first 64 are looked at. */
	core_buf_reset(&b);
	core_buf_puts(&b, "text/markdown");
	for (i = 0; i < 999; i++)
		core_buf_puts(&b, ", image/png;q=0.5");
	T_EQ(core_accept_choose(b.ptr, page, NPAGE), 1, "1000 ranges");
	core_buf_reset(&b);
	for (i = 0; i < 999; i++)
		core_buf_puts(&b, "image/png, ");
	core_buf_puts(&b, "text/markdown");
	T_EQ(core_accept_choose(b.ptr, page, NPAGE), -1,
	    "range 1000 is past the cap");
	core_buf_reset(&b);
	for (i = 0; i < 1000; i++)
		core_buf_puts(&b, "bad;;q=x, ");
	core_buf_puts(&b, "application/json");
	T_EQ(core_accept_choose(b.ptr, page, NPAGE), 2,
	    "malformed ranges do not use up the cap");
	core_buf_free(&b);
}

static void
test_offers(void)
{
	static const enum core_rep feed[] = { CORE_REP_RSS, CORE_REP_XML };
	static const enum core_rep txt[] = { CORE_REP_TEXT, CORE_REP_HTML };

	T_EQ(core_accept_choose("*/*", page, 0), -1, "no offers");
	T_EQ(core_accept_choose("application/xml", feed, 2), 1, "xml");
	T_EQ(core_accept_choose("application/rss+xml", feed, 2), 0, "rss");
	T_EQ(core_accept_choose("application/*", feed, 2), 0, "app/*");
	T_EQ(core_accept_choose("text/*", txt, 2), 0, "text/* plain first");
	T_EQ(core_accept_choose("text/html, text/plain;q=0.9", txt, 2), 1,
	    "html over plain");
}

int
main(void)
{
	test_tables();
	test_basic();
	test_q();
	test_specific();
	test_malformed();
	test_offers();
	return T_DONE();
}
