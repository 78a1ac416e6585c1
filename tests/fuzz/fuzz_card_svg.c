/*
 * fuzz_card_svg.c -- the card's text layout and SVG (modules/pages/
 * card/svg.c) on any title: no crash, every line no wider than asked
 * (ellipsis included) unless it is a single character, never more lines
 * than asked, and a card that libxml2 reads back as well-formed XML.
 * Widths come from a fixed pitch, so no fonts are needed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "core.h"
#include "../../modules/pages/card/card.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t
chars(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

/* Wide and narrow characters: ASCII half the size, others the size. */
static double
pitch(void *arg, const struct card_font *f, const char *s, size_t n)
{
	size_t i;
	double w = 0;

	(void)arg;
	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w += (unsigned char)s[i] < 0x80 ? f->px * 0.5 : f->px;
	return w;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct card_font f = { 1, 1, 20 };
	struct core_buf b = CORE_BUF_INIT;
	struct card c;
	char *s, *lines[4];
	size_t n, i, max;
	double width;
	xmlDocPtr doc;

	if (size < 2)
		return 0;
	/* The first byte picks the width and the lines. */
	width = 10 + (data[0] & 0x3f) * 17;
	max = 1 + (data[0] >> 6);
	s = core_xstrndup((const char *)data + 1, size - 1);
	n = card_wrap(s, &f, width, max, pitch, NULL, lines);
	if (n > max)
		abort();
	for (i = 0; i < n; i++) {
		if (lines[i][0] == '\0' ||
		    (pitch(NULL, &f, lines[i], strlen(lines[i])) > width &&
			chars(lines[i], strlen(lines[i])) > 2))
			abort();
		free(lines[i]);
	}
	memset(&c, 0, sizeof(c));
	c.red_chip = 0;
	c.eyebrow = s;
	c.title = s;
	c.sub = s;
	c.chips[0] = "h-index 3";
	c.foot = s;
	c.title_lines = (int)max;
	if (card_svg(&b, &c, pitch, NULL) != CORE_OK)
		abort();
	doc = xmlReadMemory(b.ptr, (int)b.len, "card.svg", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (doc == NULL)
		abort();
	xmlFreeDoc(doc);
	core_buf_free(&b);
	free(s);
	return 0;
}
