/*
 * test_card_svg.c -- the og:image cards (modules/pages/card/): text
 * wrapped to the width it is given, never wider, long words broken, the
 * rest ellipsized; hostile titles (markup, ampersands, quotes, controls,
 * invalid UTF-8) reach the SVG as text in a well-formed document; and
 * the PNG librsvg draws from it is 1200x630.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "core.h"
#include "../../modules/pages/card/card.h"
#include "t.h"

/* A fixed pitch: every character is half the size wide. */
static double
pitch(void *arg, const struct card_font *f, const char *s, size_t n)
{
	size_t i, chars = 0;

	(void)arg;
	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			chars++;
	return (double)chars * f->px * 0.5;
}

static const struct card_font F = { 0, 0, 20 }; /* 10 px a character */

static size_t
wrap(const char *s, double w, size_t max, char **lines)
{
	return card_wrap(s, &F, w, max, pitch, NULL, lines);
}

static void
free_lines(char **l, size_t n)
{
	while (n-- > 0)
		free(l[n]);
}

/* Every text node of the document, each followed by "|". */
static void
texts(xmlNodePtr n, struct core_buf *b)
{
	for (; n != NULL; n = n->next) {
		if (n->type == XML_TEXT_NODE) {
			core_buf_puts(b, (const char *)n->content);
			core_buf_putc(b, '|');
		}
		texts(n->children, b);
	}
}

static void
test_wrap(void)
{
	char *l[4];
	size_t n, i;
	int wide = 0;

	n = wrap("", 100, 3, l);
	T_EQ(n, 0, "an empty text has no lines");
	n = wrap("  \t \n ", 100, 3, l);
	T_EQ(n, 0, "white space alone has no lines");

	n = wrap("aaa bbb ccc ddd", 70, 3, l);
	T_EQ(n, 2, "two lines of seven characters");
	T_STREQ(l[0], "aaa bbb", "the first line breaks at a space");
	T_STREQ(l[1], "ccc ddd", "the second");
	free_lines(l, n);

	n = wrap("  aaa   \n bbb  ", 70, 3, l);
	T_EQ(n, 1, "white space runs are one space");
	T_STREQ(l[0], "aaa bbb", "and the ends are trimmed");
	free_lines(l, n);

	n = wrap("aaa bbb ccc ddd eee fff", 70, 2, l);
	T_EQ(n, 2, "at most the lines asked for");
	T_STREQ(l[1], "ccc dd\xe2\x80\xa6", "the last one ends in an ellipsis");
	for (i = 0; i < n; i++)
		wide |= pitch(NULL, &F, l[i], strlen(l[i])) > 70;
	T_OK(!wide, "no line is wider than the width, ellipsis included");
	free_lines(l, n);

	n = wrap("abcdefghijklmnopqrstuvwxyz", 100, 4, l);
	T_EQ(n, 3, "a word wider than a line is broken");
	T_STREQ(l[0], "abcdefghij", "where it fills the line");
	T_STREQ(l[2], "uvwxyz", "the rest");
	free_lines(l, n);

	/* Two-byte characters are never split. */
	n = wrap("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 30, 4, l);
	T_EQ(n, 2, "é×5 in lines of three");
	T_STREQ(l[0], "\xc3\xa9\xc3\xa9\xc3\xa9", "whole characters");
	free_lines(l, n);

	/* A width too small for one character still makes progress. */
	n = wrap("abc", 5, 4, l);
	T_EQ(n, 3, "one character a line when none fits");
	free_lines(l, n);
}

static void
test_long_word(void)
{
	char *s, *l[4];
	size_t n, i, len = 100000;
	int wide = 0;

	s = malloc(len + 1);
	memset(s, 'W', len);
	s[len] = '\0';
	n = wrap(s, 1040, 3, l);
	T_EQ(n, 3, "a 100,000-byte word in three lines");
	for (i = 0; i < n; i++)
		wide |= pitch(NULL, &F, l[i], strlen(l[i])) > 1040;
	T_OK(!wide, "none wider than the card's text");
	T_OK(n == 3 && strstr(l[2], "\xe2\x80\xa6") != NULL,
	    "the last ends in an ellipsis");
	free_lines(l, n);
	free(s);
}

static char *
svg_of(const struct card *c, card_width_fn wfn)
{
	struct core_buf b = CORE_BUF_INIT;
	enum core_err er;

	er = card_svg(&b, c, wfn, NULL);
	T_EQ(er, CORE_OK, "the card's SVG is written");
	return core_buf_steal(&b);
}

static void
test_hostile(void)
{
	struct card c;
	char *svg;
	xmlDocPtr doc;
	struct core_buf t = CORE_BUF_INIT;
	const char *title = "<script>alert(\"x\")</script> & 'q' \"Tom\" "
			    "&amp; ]]> <!-- --> \x01\x1b bad\xff utf8";

	memset(&c, 0, sizeof(c));
	c.red_chip = 1;
	c.eyebrow = "paper · arXiv:2512.20345";
	c.title = title;
	c.sub = "A. <b>Author</b>, B. O'Brien & \"C\"";
	c.chips[0] = "cs.LG";
	c.chips[1] = "h-index <3>";
	c.foot = "127.0.0.1:8080";
	c.title_lines = 3;
	svg = svg_of(&c, pitch);
	T_LACKS(svg, "<script", "no markup comes from the title");
	T_LACKS(svg, "<b>", "nor from the authors");
	T_LACKS(svg, "<!--", "nor comments");
	T_LACKS(svg, "\x01", "controls are dropped");
	T_CONTAINS(svg, "&lt;script&gt;", "the title's < and > are escaped");
	T_CONTAINS(svg, "&amp;amp;", "its & too");
	T_CONTAINS(svg, "xmlns=\"http://www.w3.org/2000/svg\"",
	    "a standalone SVG document");
	doc = xmlReadMemory(svg, (int)strlen(svg), "card.svg", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	T_OK(doc != NULL, "well-formed XML");
	if (doc != NULL) {
		texts(xmlDocGetRootElement(doc), &t);
		T_CONTAINS(core_buf_cstr(&t),
		    "|<script>alert(\"x\")</script> & 'q'|\"Tom\" &amp; ]]> "
		    "<!-- --> bad\xef\xbf\xbd utf8|",
		    "the title reads as the text it is, on two lines");
		T_CONTAINS(core_buf_cstr(&t), "B. O'Brien & \"C\"",
		    "and the authors");
		T_CONTAINS(core_buf_cstr(&t), "h-index <3>|", "and a chip");
		xmlFreeDoc(doc);
	}
	core_buf_free(&t);
	free(svg);
}

/* Reads the IHDR's width and height of a PNG. */
static int
png_size(const struct core_buf *b, unsigned *w, unsigned *h)
{
	const unsigned char *p = (const unsigned char *)b->ptr;

	if (b->len < 24 || memcmp(p, "\x89PNG\r\n\x1a\n", 8) != 0 ||
	    memcmp(p + 12, "IHDR", 4) != 0)
		return -1;
	*w = (unsigned)p[16] << 24 | (unsigned)p[17] << 16 |
	    (unsigned)p[18] << 8 | p[19];
	*h = (unsigned)p[20] << 24 | (unsigned)p[21] << 16 |
	    (unsigned)p[22] << 8 | p[23];
	return 0;
}

static double
ms(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e3 +
	    (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

static void
test_png(void)
{
	struct card c;
	struct core_buf png = CORE_BUF_INIT;
	struct timespec t0, tm, t1;
	unsigned w = 0, h = 0;
	char *svg = NULL, *lines[3];
	size_t n, i;
	int wide = 0;
	const struct card_font tf = { 1, 1, 54 };
	const char *title =
	    "Mj\xc3\xb6lnir: a very long title about <b>transformers</b> & "
	    "\"attention\", with Supercalifragilisticexpialidociouslylong"
	    "wordsthatneverendandgoonandonforeverandever and much more text "
	    "than three lines of a card can hold, so it must be ellipsized";

	memset(&c, 0, sizeof(c));
	c.red_chip = -1;
	c.eyebrow = "paper · arXiv:2512.20345";
	c.title = title;
	c.sub = "Ada Lovelace, Charles Babbage, Alan Turing and 12 more";
	c.chips[0] = "cs.LG";
	c.chips[1] = "2025-12-23";
	c.foot = "127.0.0.1:8080";
	c.title_lines = 3;
	c.title_px = 54;
	n = card_wrap(title, &tf, 1040, 3, card_pango_width, NULL, lines);
	T_EQ(n, 3, "pango's widths: three lines of title");
	for (i = 0; i < n; i++) {
		wide |= card_pango_width(NULL, &tf, lines[i],
			    strlen(lines[i])) > 1040;
		free(lines[i]);
	}
	T_OK(!wide, "each no wider than the text column");
	/* The second time, as a worker draws all but its first card. */
	for (i = 0; i < 2; i++) {
		free(svg);
		core_buf_reset(&png);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		svg = svg_of(&c, card_pango_width);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &tm);
		T_EQ(card_png(svg, strlen(svg), &png), CORE_OK,
		    "librsvg draws it");
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		printf("# PNG %zu bytes, SVG %zu bytes: laid out in %.1f ms, "
		       "drawn in %.1f ms of CPU\n",
		    png.len, strlen(svg), ms(&t0, &tm), ms(&tm, &t1));
	}
	T_OK(png_size(&png, &w, &h) == 0, "a PNG");
	T_OK(w == 1200 && h == 630, "of 1200x630");
	/* CARD_SVG=FILE, CARD_PNG=FILE keep the card to look at. */
	if (getenv("CARD_SVG") != NULL) {
		FILE *f = fopen(getenv("CARD_SVG"), "wb");

		if (f != NULL) {
			fputs(svg, f);
			fclose(f);
		}
	}
	if (getenv("CARD_PNG") != NULL) {
		FILE *f = fopen(getenv("CARD_PNG"), "wb");

		if (f != NULL) {
			fwrite(png.ptr, 1, png.len, f);
			fclose(f);
		}
	}
	core_buf_free(&png);
	free(svg);
}

/*
 * fontconfig (under pango) keeps its configuration for the life of the
 * process and frees none of it at exit: not our leaks (weftd says the
 * same, modules/host/lsan.c).
 */
const char *__lsan_default_suppressions(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

const char *__lsan_default_options(void);
const char *
__lsan_default_options(void)
{
	return "print_suppressions=0";
}

int
main(void)
{
	test_wrap();
	test_long_word();
	test_hostile();
	test_png();
	return T_DONE();
}
